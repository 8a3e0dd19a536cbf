"""Regenerate the bundled sample sessions (deterministic: same files every run).

    python sample_data/generate.py

club_session.xlsx / .csv: an 8-table Mitchell over 24 boards (3 a round, one
skip after round 4), N-S and E-W pairs numbered 1-8 on each line, a title row
above the header as club exports have, and a Names sheet (names.csv for the CSV).
The pair names are invented. problems_session.csv is the same session with
typical data-entry mistakes, to show the Problems sheet; rulings_session.csv
the same session with directors' rulings written into it (docs/rulings.md);
names_on_rows.csv the same session with both pairs' names written on every row, as
some clubs' sheets have them, and two slips that the names give away; sides_only.csv
the same session from travellers that record only which side declared (an NS/EW
column, no seat): it ranks exactly as the others.
"""

from __future__ import annotations

import csv
from pathlib import Path

import numpy as np
import xlsxwriter

HERE = Path(__file__).parent
TABLES, ROUNDS, PER_ROUND = 8, 8, 3
FIRST = ["Anna", "Piotr", "Maria", "John", "Olga", "Ewa", "Tomasz", "Helen", "Igor", "Zofia",
         "Marek", "Kate", "Pavel", "Irena", "Adam", "Lena", "Jan", "Ruth", "Oskar", "Nina",
         "Karol", "Alice", "Boris", "Vera", "Leon", "Dora", "Felix", "Greta", "Hugo", "Ida",
         "Max", "Rosa"]
LAST = ["Nowak", "Smith", "Ivanova", "Kowalski", "Brown", "Petrov", "Wiśniewska", "Taylor",
        "Sokolov", "Lewandowska", "Green", "Orlov", "Zielińska", "White", "Volkova", "Mazur",
        "Black", "Fedorov", "Kaczmarek", "Hill", "Morozova", "Wójcik", "King", "Popov",
        "Krawczyk", "Wood", "Lebedeva", "Dąbrowski", "Young", "Kozlov", "Pawlak", "Reed"]
STRAINS = ["C", "D", "H", "S", "NT"]
RANKS = ["A", "K", "Q", "J", "10", "9", "8", "7", "6", "5", "4", "3", "2"]


def schedule() -> list[tuple[int, int, int, int]]:
    """(round, table, N-S pair, E-W pair, board) for every result of the movement."""
    rows = []
    for r in range(ROUNDS):
        skip = 1 if r >= ROUNDS // 2 else 0
        for t in range(TABLES):
            ew = (t - r - skip) % TABLES + 1
            board_set = (t + r) % TABLES
            for k in range(PER_ROUND):
                rows.append((r + 1, t + 1, t + 1, ew, board_set * PER_ROUND + k + 1))
    return rows


def contract_for(rng: np.random.Generator) -> tuple[int, str, str, int]:
    """A board's most common contract: level, strain, declarer, tricks."""
    level = int(rng.choice([1, 2, 3, 4, 4, 4, 3, 5, 6, 2]))
    strain = str(rng.choice(STRAINS, p=[0.12, 0.12, 0.26, 0.26, 0.24]))
    if strain in "CD" and level in (3, 4):
        level = 5 if rng.random() < 0.3 else 3
    seat = str(rng.choice(list("NESW")))
    tricks = int(np.clip(level + 6 + rng.integers(-1, 2), 0, 13))
    return level, strain, seat, tricks


def results(rng: np.random.Generator) -> list[dict[str, object]]:
    boards = {b: contract_for(rng) for b in range(1, TABLES * PER_ROUND + 1)}
    out = []
    for rnd, table, ns, ew, board in schedule():
        level, strain, seat, tricks = boards[board]
        u = rng.random()
        dbl = ""
        if u < 0.15:
            level = max(1, level - 1)
        elif u < 0.22:
            level = min(7, level + 1)
            dbl = "X" if rng.random() < 0.6 else ""
        tricks = int(np.clip(tricks + rng.choice([-1, 0, 0, 0, 0, 1]), 0, 13))
        if u > 0.985:
            out.append({"round": rnd, "table": table, "board": board, "ns": ns, "ew": ew,
                        "contract": "PASS", "by": "", "lead": "", "tricks": ""})
            continue
        lead = str(rng.choice(list("CDHS"))) + str(rng.choice(RANKS))
        out.append({"round": rnd, "table": table, "board": board, "ns": ns, "ew": ew,
                    "contract": f"{level}{strain}{dbl}", "by": seat, "lead": lead,
                    "tricks": tricks})
    out.sort(key=lambda r: (r["board"], r["ns"]))
    return out


def names() -> list[tuple[int, str, str, str]]:
    people = [f"{f} {s}" for f, s in zip(FIRST, LAST, strict=True)]
    rows = []
    for i in range(TABLES * 2):
        line = "NS" if i < TABLES else "EW"
        rows.append((i % TABLES + 1, line, people[2 * i], people[2 * i + 1]))
    return rows


HEADER = ["Board", "Round", "Table", "NS", "EW", "Contract", "By", "Lead", "Tricks"]


def as_row(r: dict[str, object]) -> list[object]:
    return [r["board"], r["round"], r["table"], r["ns"], r["ew"], r["contract"], r["by"],
            r["lead"], r["tricks"]]


def write_xlsx(rows: list[dict[str, object]], path: Path) -> None:
    book = xlsxwriter.Workbook(path)
    sheet = book.add_worksheet("Travellers")
    sheet.write(0, 0, "Riverside Bridge Club - Tuesday pairs, 3 November 2026")
    sheet.write_row(2, 0, HEADER)
    for i, r in enumerate(rows):
        sheet.write_row(3 + i, 0, as_row(r))
    write_names(book, "Names", ["Pair", "Line", "Player 1", "Player 2"])
    book.close()


def write_names(book: xlsxwriter.Workbook, sheet_name: str, header: list[str]) -> None:
    """The pairs' names sheet, under a header in the session's language."""
    sheet = book.add_worksheet(sheet_name)
    sheet.write_row(0, 0, header)
    for i, n in enumerate(names()):
        sheet.write_row(1 + i, 0, list(n))


def write_csv(rows: list[list[object]], path: Path, header: list[str]) -> None:
    with path.open("w", newline="", encoding="utf-8") as f:
        writer = csv.writer(f)
        writer.writerow(header)
        writer.writerows(rows)


def with_mistakes(rows: list[list[object]]) -> list[list[object]]:
    """Typical entry mistakes: typo'd contract, 14 tricks, missing pair, a row twice."""
    bad = [list(r) for r in rows]
    bad[4][5] = "4Z"  # unknown strain
    bad[10][8] = 14  # tricks out of range
    bad[20][4] = ""  # missing E-W pair
    bad[30][7] = "S1"  # unreadable lead: listed, still scored
    bad.insert(41, list(bad[40]))  # the same result entered twice
    return bad


def with_names(rows: list[list[object]]) -> list[list[object]]:
    """The session as a club's sheet that writes both pairs' names on every row, with two
    slips: a name misspelt on one row, and a pair number typed 18 for 8 beside the right
    names on another (the names give both away)."""
    named = {(line, pair): f"{a} & {b}" for pair, line, a, b in names()}
    out = [[*r[:4], named["NS", r[3]], r[4], named["EW", r[4]], *r[5:]] for r in rows]
    row = next(i for i, r in enumerate(out) if i > 10 and r[3] == 1)
    out[row][4] = out[row][4].replace("Anna", "Ana")
    row = next(i for i, r in enumerate(out) if i > 50 and r[5] == 8)
    out[row][5] = 18
    return out


def with_sides(rows: list[list[object]]) -> list[list[object]]:
    """The session as travellers that say which side declared, not which player."""
    by = HEADER.index("By")
    side = {"N": "NS", "S": "NS", "E": "EW", "W": "EW"}
    return [[*r[:by], side.get(str(r[by]), r[by]), *r[by + 1:]] for r in rows]


def with_rulings(rows: list[list[object]]) -> list[list[object]]:
    """The session with directors' rulings in a Ruling column, as a director types them."""
    ruled = [[*r, ""] for r in rows]
    for row, ruling in ((3, "A60/40"), (12, "A="), (25, "A+-"), (47, "30%+650/70%-100"),
                        (60, "NP")):
        ruled[row][5] = ruled[row][6] = ruled[row][7] = ruled[row][8] = ""
        ruled[row][9] = ruling
    return ruled


PL_STRAIN = {"C": "T", "D": "K", "H": "C", "S": "P", "NT": "BA"}
RU_STRAIN = {"C": "Т", "D": "Б", "H": "Ч", "S": "П", "NT": "БК"}
RU_SEAT = {"N": "С", "E": "В", "S": "Ю", "W": "З"}
PL_RANK = {"Q": "D", "J": "W"}
RU_RANK = {"A": "Т", "K": "К", "Q": "Д", "J": "В"}
GLYPH = {"C": "♣", "D": "♦", "H": "♥", "S": "♠"}


def _split(contract: str) -> tuple[str, str, str]:
    """'4SX' -> ('4', 'S', 'X'); 'PASS' -> ('', 'PASS', '')."""
    if contract == "PASS":
        return "", "PASS", ""
    body = contract.rstrip("X")
    return body[0], body[1:], contract[len(body):]


def polish(r: dict[str, object]) -> list[object]:
    """One result in Polish notation: 4Px, 3BA, seats N E S W, leads like KD (♦Q)."""
    level, strain, dbl = _split(str(r["contract"]))
    contract = "pas" if strain == "PASS" else f"{level}{PL_STRAIN[strain]}{dbl.lower()}"
    lead = str(r["lead"])
    lead = PL_STRAIN[lead[0]] + PL_RANK.get(lead[1:], lead[1:]) if lead else ""
    return [r["ns"], r["ew"], contract, r["by"], lead, r["tricks"]]


def russian(r: dict[str, object], glyphs: bool) -> list[object]:
    """One result in Russian notation: 4П с контрой, seats С В Ю З, leads ♦В or БВ."""
    level, strain, dbl = _split(str(r["contract"]))
    words = {"": "", "X": " с контрой", "XX": " с реконтрой"}[dbl]
    contract = "пас" if strain == "PASS" else f"{level}{RU_STRAIN[strain]}{words}"
    lead = str(r["lead"])
    if lead:
        suit = GLYPH[lead[0]] if glyphs else RU_STRAIN[lead[0]]
        lead = suit + RU_RANK.get(lead[1:], lead[1:])
    by = RU_SEAT.get(str(r["by"]), "")
    return [r["ns"], r["ew"], contract, by, lead, r["tricks"]]


PL_HEADER = ["Para NS", "Para EW", "Kontrakt", "Rozgrywający", "Wist", "Lewy"]
RU_HEADER = ["С-Ю", "З-В", "Контракт", "Разыгрывающий", "1-й ход", "Взятки"]


def write_polish(rows: list[dict[str, object]]) -> None:
    """Polish: one sheet per board (xlsx) and one long cp1250 semicolon CSV."""
    book = xlsxwriter.Workbook(HERE / "club_session_pl.xlsx")
    for board in sorted({int(r["board"]) for r in rows}):  # type: ignore[call-overload]
        sheet = book.add_worksheet(f"Rozdanie {board}")
        sheet.write_row(0, 0, PL_HEADER)
        for i, r in enumerate(x for x in rows if x["board"] == board):
            sheet.write_row(1 + i, 0, polish(r))
    write_names(book, "Pary", ["Para", "Linia", "Gracz 1", "Gracz 2"])
    book.close()
    with (HERE / "club_session_pl.csv").open("w", newline="", encoding="cp1250") as f:
        writer = csv.writer(f, delimiter=";")
        writer.writerow(["Klub Brydżowy Łódź - turniej par, wtorek 3 listopada 2026"])
        writer.writerow(["Rozdanie", *PL_HEADER])
        writer.writerows([r["board"], *polish(r)] for r in rows)


def write_russian(rows: list[dict[str, object]]) -> None:
    """Russian: board tables stacked under "Сдача N" titles (xlsx), long cp1251 CSV."""
    book = xlsxwriter.Workbook(HERE / "club_session_ru.xlsx")
    sheet = book.add_worksheet("Протоколы")
    line = 0
    for board in sorted({int(r["board"]) for r in rows}):  # type: ignore[call-overload]
        sheet.write_row(line, 0, [f"Сдача {board}"])
        sheet.write_row(line + 1, 0, RU_HEADER)
        line += 2
        for r in (x for x in rows if x["board"] == board):
            sheet.write_row(line, 0, russian(r, glyphs=True))
            line += 1
        line += 1
    book.close()
    with (HERE / "club_session_ru.csv").open("w", newline="", encoding="cp1251") as f:
        writer = csv.writer(f, delimiter=";")
        writer.writerow(["Сдача", *RU_HEADER])
        writer.writerows([r["board"], *russian(r, glyphs=False)] for r in rows)


def main() -> None:
    rng = np.random.default_rng(20261103)
    rows = results(rng)
    write_polish(rows)
    write_russian(rows)
    write_xlsx(rows, HERE / "club_session.xlsx")
    flat = [as_row(r) for r in rows]
    write_csv(flat, HERE / "club_session.csv", HEADER)
    write_csv([list(n) for n in names()], HERE / "names.csv", ["Pair", "Line", "Player 1",
                                                               "Player 2"])
    write_csv(with_mistakes(flat), HERE / "problems_session.csv", HEADER)
    write_csv(with_rulings(flat), HERE / "rulings_session.csv", [*HEADER, "Ruling"])
    write_csv(with_names(flat), HERE / "names_on_rows.csv",
              [*HEADER[:4], "NS Names", "EW", "EW Names", *HEADER[5:]])
    write_csv(with_sides(flat), HERE / "sides_only.csv",
              [h if h != "By" else "NS/EW" for h in HEADER])


if __name__ == "__main__":
    main()
