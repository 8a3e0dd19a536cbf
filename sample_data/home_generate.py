"""Write the home-game sample sheets (deterministic: same files every run).

    python sample_data/home_generate.py

Each game is written in English (CSV) and in Russian (xlsx, Russian headers,
seats С В Ю З, suits Т Б Ч П БК, «с контрой»); the two score identically.

home_rubber.*   an evening of rubber bridge: a textbook rubber (2♠ part-score,
                3NT game, 4♥+1 game with honours, a doubled set, 5♣ game for
                the rubber), a passed-out deal, then a rubber left unfinished.
home_chicago.*  two Chicago rounds of four deals (every vulnerability).
home_three.*    three-handed bridge with a made and a failed nullo and a
                penalty to both defenders; the players named in a row above.
"""

from __future__ import annotations

import csv
from pathlib import Path

import xlsxwriter

HERE = Path(__file__).parent

# (deal, declarer, contract, result, honours)
RUBBER = [
    (1, "S", "2S", "8", ""), (2, "E", "3NT", "9", ""), (3, "N", "4H", "+1", "N 100"),
    (4, "W", "3SX", "-2", ""), (5, "S", "5C", "=", ""), (6, "", "PASS", "", ""),
    (7, "W", "4S", "10", "EW 150"), (8, "N", "3D", "8", ""), (9, "N", "2NT", "9", ""),
]
CHICAGO = [
    (1, "N", "4S", "10", ""), (2, "E", "3NT", "+1", ""), (3, "S", "2H", "8", "N 100"),
    (4, "W", "6DX", "-1", ""), (5, "E", "1NT", "8", ""), (6, "S", "4HX", "=", ""),
    (7, "W", "5C", "-2", "E 100"), (8, "N", "6NT", "12", ""),
]
THREE = [
    (1, "Anna", "2 nullo", "3", ""), (2, "Boris", "3 nullo X", "6", ""),
    (3, "Vera", "4S", "8", "Anna 100"), (4, "Anna", "2H", "8", ""),
    (5, "Boris", "4 nullo", "3", ""), (6, "Anna", "1 nullo", "8", ""),
]
PLAYERS = ["Anna", "Boris", "Vera"]
RU_PLAYERS = {"Anna": "Анна", "Boris": "Борис", "Vera": "Вера"}
HEADERS = {"en": ["Deal", "Declarer", "Contract", "Result", "Honours"],
           "ru": ["Сдача", "Разыгрывающий", "Контракт", "Взятки", "Онёры"]}
RU_SEATS = {"N": "С", "E": "В", "S": "Ю", "W": "З", "NS": "СЮ", "EW": "ЗВ"}
RU_STRAINS = [("NT", "БК"), ("C", "Т"), ("D", "Б"), ("H", "Ч"), ("S", "П")]


def ru_contract(text: str) -> str:
    """4SX -> «4П с контрой», 3 nullo -> «3 нулло», PASS -> «пас»."""
    if text == "PASS":
        return "пас"
    text = text.replace("nullo", "нулло")
    doubled = text.endswith("X")
    text = text.rstrip("X").strip()
    for en, ru in RU_STRAINS:
        if text[1:] == en:
            text = text[0] + ru
    return text + (" с контрой" if doubled else "")


def ru_row(row: tuple[object, ...], three: bool) -> list[object]:
    deal, who, contract, result, honours = row
    seat = RU_PLAYERS.get(str(who), "") if three else RU_SEATS.get(str(who), "")
    holder, _, amount = str(honours).partition(" ")
    if honours:
        holder = RU_PLAYERS[holder] if three else RU_SEATS[holder]
    return [deal, seat, ru_contract(str(contract)), result,
            f"{holder} {amount}" if honours else ""]


def write_csv(name: str, title: str, rows: list[tuple[object, ...]], players: bool) -> None:
    with (HERE / name).open("w", newline="", encoding="utf-8") as f:
        out = csv.writer(f)
        out.writerow([title])
        if players:
            out.writerow(["Players", *PLAYERS])
        out.writerow([])
        out.writerow(HEADERS["en"])
        out.writerows(rows)


def write_xlsx(name: str, title: str, rows: list[tuple[object, ...]], three: bool) -> None:
    book = xlsxwriter.Workbook(HERE / name, {"strings_to_numbers": False,
                                             "strings_to_formulas": False})
    sheet = book.add_worksheet("Запись")
    sheet.write_string(0, 0, title, book.add_format({"bold": True}))
    top = 2
    if three:
        sheet.write_row(1, 0, ["Игроки", *RU_PLAYERS.values()])
        top = 3
    sheet.write_row(top, 0, HEADERS["ru"], book.add_format({"bold": True, "bottom": 1}))
    for i, row in enumerate(rows, start=top + 1):
        values = ru_row(row, three)
        sheet.write_number(i, 0, int(values[0]))
        for c, value in enumerate(values[1:], start=1):
            if str(value).isdigit():
                sheet.write_number(i, c, int(value))
            elif value:
                sheet.write_string(i, c, str(value))
    sheet.set_column(0, 4, 16)
    book.close()


def main() -> None:
    write_csv("home_rubber.csv", "Rubber bridge at the Smiths', Friday", RUBBER, False)
    write_xlsx("home_rubber_ru.xlsx", "Роббер у Смирновых, пятница", RUBBER, False)
    write_csv("home_chicago.csv", "Chicago, club social evening, table 3", CHICAGO, False)
    write_xlsx("home_chicago_ru.xlsx", "Чикаго, клубный вечер, стол 3", CHICAGO, False)
    write_csv("home_three.csv", "Three-handed bridge (Phillips), Sunday", THREE, True)
    write_xlsx("home_three_ru.xlsx", "Бридж втроём (Филлипс), воскресенье", THREE, True)


if __name__ == "__main__":
    main()
