"""Individual events: four players per result, a partner who changes every round.

The session here: 12 players at 3 tables, 2 boards. Board 1 (nobody
vulnerable): +450 (N 5, S 6 / E 7, W 8) scores 4 of 4, +420 (1, 2 / 3, 4) 2,
-50 (9, 10 / 11, 12) 0. Board 2 (N-S vulnerable): +630 (9, 11 / 10, 12) 4,
+600 (1, 3 / 2, 4) 2, -420 (5, 7 / 6, 8) 0. Each player gets their side's
matchpoints: player 6 has 4 (N-S on board 1) + 4 (E-W on board 2) = 8 of 8,
player 7 0 + 0, player 1 2 + 2 = 4 (50 %).
"""

from __future__ import annotations

from pathlib import Path

import pandas as pd
import pytest

from traveller import process

ROWS = [("1", "1", "2", "3", "4", "4S", "N", "=", "420"),
        ("1", "5", "6", "7", "8", "4S", "N", "+1", "450"),
        ("1", "9", "10", "11", "12", "3NT", "S", "-1", "-50"),
        ("2", "1", "3", "2", "4", "3NT", "N", "=", "600"),
        ("2", "5", "7", "6", "8", "4H", "E", "=", "-420"),
        ("2", "9", "11", "10", "12", "3NT", "N", "+1", "630")]
EXPECTED = {6: (8.0, 100.0), 11: (8.0, 100.0), 7: (0.0, 0.0), 10: (0.0, 0.0), 1: (4.0, 50.0),
            12: (4.0, 50.0)}  # player -> (matchpoints, %)


def csv(tmp_path: Path, header: str, rows: list[tuple[str, ...]] = ROWS) -> Path:
    path = tmp_path / "individual.csv"
    path.write_text(header + "\n" + "\n".join(",".join(r) for r in rows) + "\n",
                    encoding="utf-8")
    return path


def check(result: object) -> None:
    assert result.problems.empty, result.problems["message"].tolist()  # type: ignore[attr-defined]
    ranking = result.ranking  # type: ignore[attr-defined]
    assert len(ranking) == 12 and (ranking["boards"] == 2).all()  # one line per player
    got = {int(p): (float(m), float(c)) for p, m, c
           in zip(ranking["pair"], ranking["mp"], ranking["pct"], strict=True)}
    for player, want in EXPECTED.items():
        assert got[player] == want, player
    places = dict(zip(ranking["pair"].astype(int), ranking["place"], strict=True))
    assert places[6] == places[11] == "1=" and places[7] == places[10] == "11="
    assert result.settings["individual"]  # type: ignore[attr-defined]


@pytest.mark.parametrize("header", [
    "Board,N,S,E,W,Contract,Declarer,Result,Score",
    "Rozdanie,N,S,E,W,Kontrakt,Rozgrywający,Wynik,Zapis",
    "Сдача,С,Ю,В,З,Контракт,Разыгрывающий,Результат,Запись",
])
def test_individual_travellers_with_player_columns(tmp_path: Path, header: str) -> None:
    rows = ROWS
    if header.startswith("Сдача"):  # the Russian notation: 4П, 3БК, seats С Ю В З
        contract = {"4S": "4П", "3NT": "3БК", "4H": "4Ч"}
        seat = {"N": "С", "S": "Ю", "E": "В", "W": "З"}
        rows = [(*r[:5], contract[r[5]], seat[r[6]], *r[7:]) for r in ROWS]
    check(process(csv(tmp_path, header, rows)))


def test_the_travellers_keep_the_four_players(tmp_path: Path) -> None:
    result = process(csv(tmp_path, "Board,North,South,East,West,Contract,By,Result,Score"))
    t = result.travellers
    row = t[(t["board"] == 1) & (t["north"] == 5)].iloc[0]
    assert (row["south"], row["east"], row["west"]) == (6, 7, 8)
    assert (float(row["ns_mp"]), float(row["ew_mp"])) == (4.0, 0.0)


def test_a_missing_player_is_a_problem_not_a_lost_row(tmp_path: Path) -> None:
    rows = [*ROWS[:2], ("1", "9", "", "11", "12", "3NT", "S", "-1", "-50"), *ROWS[3:]]
    result = process(csv(tmp_path, "Board,N,S,E,W,Contract,Declarer,Result,Score", rows))
    problems = result.problems
    assert problems["code"].tolist() == ["missing-pair"] and problems["row"].tolist() == [4]
    assert "N/S" in problems["column"].iloc[0]  # named by the player columns
    assert len(result.travellers) == 5


def test_a_player_who_is_no_number_is_listed_as_typed(tmp_path: Path) -> None:
    rows = [*ROWS[:2], ("1", "9", "Smith", "11", "12", "3NT", "S", "-1", "-50"), *ROWS[3:]]
    result = process(csv(tmp_path, "Board,N,S,E,W,Contract,Declarer,Result,Score", rows))
    problem = result.problems.iloc[0]
    assert len(result.problems) == 1 and problem["code"] == "bad-pair"
    assert (problem["column"], problem["value"]) == ("N/S", "9/Smith")  # the cells as typed
    assert "N/S '9/Smith'" in problem["message"]


PBN = """% PBN 2.1
[Event "Club individual"]
[Board "1"]
[Dealer "N"]
[Vulnerable "None"]
[Scoring "MP"]
[ScoreTable "PlayerId_North\\\\2R;PlayerId_South\\\\2R;PlayerId_East\\\\2R;PlayerId_West\\\\2R;\
Contract\\\\4L;Declarer\\\\1R;Result\\\\2R;Score_NS\\\\5R;Score_EW\\\\5R"]
 1  2  3  4 4S   N 10  420    -
 5  6  7  8 4S   N 11  450    -
 9 10 11 12 3NT  S  8    -   50

[Event "Club individual"]
[Board "2"]
[Dealer "E"]
[Vulnerable "NS"]
[Scoring "MP"]
[ScoreTable "PlayerId_North\\\\2R;PlayerId_South\\\\2R;PlayerId_East\\\\2R;PlayerId_West\\\\2R;\
Contract\\\\4L;Declarer\\\\1R;Result\\\\2R;Score_NS\\\\5R;Score_EW\\\\5R"]
 1  3  2  4 3NT  N  9  600    -
 5  7  6  8 4H   E 10    -  420
 9 11 10 12 3NT  N 10  630    -
"""


def test_an_individual_pbn(tmp_path: Path) -> None:
    path = tmp_path / "individual.pbn"
    path.write_text(PBN, encoding="utf-8")
    check(process(path))


def test_the_workbook_ranks_players(tmp_path: Path) -> None:
    from openpyxl import load_workbook

    from traveller.publish.workbook import write_workbook

    out = tmp_path / "individual.xlsx"
    write_workbook(process(csv(tmp_path, "Board,N,S,E,W,Contract,Declarer,Result,Score")), out)
    book = load_workbook(out, read_only=True)
    rows = list(book["Ranking"].iter_rows(values_only=True))
    book.close()  # (read-only: open until closed)
    header = next(i for i, r in enumerate(rows) if r and "Player" in r)
    assert rows[header][:5] == ("Place", "Player", "Boards", "MP", "%")  # no names: no column
    assert rows[header + 1][1] == 6 and rows[header + 1][3] == 8
    assert "; individual; " in str(next(r[0] for r in reversed(rows) if r and r[0]))


def test_cross_imps_per_player(tmp_path: Path) -> None:
    # board 1: +450 v +420 (+1) and -50 (+11): 12 / 2 = 6 for N-S 5 and 6, -6 for E-W 7 and 8;
    # +420: (-1 + 10) / 2 = 4.5; -50: (-11 - 10) / 2 = -10.5. Board 2: +630 v +600 (+1) and
    # -420 (+14): 7.5; +600: (-1 + 14) / 2 = 6.5; -420: -14.
    result = process(csv(tmp_path, "Board,N,S,E,W,Contract,Declarer,Result,Score"),
                     method="ximp")
    imps = dict(zip(result.ranking["pair"].astype(int), result.ranking["imps"].astype(float),
                    strict=True))
    assert imps[6] == 6.0 + 14.0       # N-S on board 1, E-W (against -420) on board 2
    assert imps[11] == 10.5 + 7.5      # E-W against -50, then N-S +630
    assert imps[1] == 4.5 + 6.5 and imps[7] == -6.0 - 14.0
    assert len(result.ranking) == 12 and result.settings["individual"]


def test_the_sample_individual(tmp_path: Path) -> None:
    sample = Path(__file__).resolve().parents[1] / "sample_data"
    result = process(sample / "individual_session.csv", names=sample / "individual_names.csv")
    assert result.problems.empty and len(result.ranking) == 12
    top = result.ranking.iloc[0]
    # player 6: S on boards 1-2 (+450 top: 4; -420 bottom: 0), N on 3-4 (+110 top: 4;
    # -200 under +620 beside an A60/40: (0 + 1) x 3/2 - 1 = 0.5), E on 5-6 (against
    # -120 and -50, both the N-S bottom: 4 + 4): 16.5 of 24
    rows = result.ranking.set_index("pair")
    assert float(rows.loc[6, "mp"]) == 16.5 and float(rows.loc[6, "pct"]) == 68.75
    assert rows.loc[6, "names"] == "Tomasz Wójcik" and top["place"] == "1="
    t = result.travellers
    ruled = t[t["ruling"] == "A60/40"].iloc[0]
    assert (float(ruled["ns_mp"]), float(ruled["ew_mp"])) == (2.4, 1.6)
    assert float(rows.loc[7, "mp"]) == pytest.approx(8.4)  # 2.4 of it the A60/40


def test_a_pbn_individual_written_by_us_reads_back_to_the_same_ranking(tmp_path: Path) -> None:
    from traveller.publish.pbn_out import latin1, write_pbn

    sample = Path(__file__).resolve().parents[1] / "sample_data"
    result = process(sample / "individual_session.csv", names=sample / "individual_names.csv")
    out = tmp_path / "individual.pbn"
    write_pbn(result, out)
    text = out.read_text(encoding="latin-1")  # (PBN is written in ISO-8859-1)
    assert "PlayerId_North" in text and "PairId_NS" not in text and "PlayerId\\2R" in text
    again = process(out)
    assert again.problems.empty, again.problems["message"].tolist()
    keys = ["pair", "names", "boards", "mp", "pct", "place"]
    mine = result.ranking[keys].sort_values("pair").reset_index(drop=True)
    back = again.ranking[keys].sort_values("pair").reset_index(drop=True)
    # the names as PBN's Latin-1 holds them (ś as s; the workbook keeps them as written)
    mine["names"] = mine["names"].map(latin1)
    pd.testing.assert_frame_equal(mine.astype(str), back.astype(str))


def test_score_cards_and_a_site_page_per_player(tmp_path: Path) -> None:
    from traveller.publish.site import write_site

    sample = Path(__file__).resolve().parents[1] / "sample_data"
    result = process(sample / "individual_session.csv", names=sample / "individual_names.csv")
    cards = result.score_cards
    six = cards[cards["pair"] == 6]
    assert six["board"].tolist() == [1, 2, 3, 4, 5, 6]  # every board player 6 played
    assert six["held"].tolist() == ["N-S"] * 4 + ["E-W"] * 2  # S, S, N, N, E, E
    assert float(six["mp"].astype(float).sum()) == 16.5  # as the ranking
    assert cards["pair"].nunique() == 12
    site = tmp_path / "site"
    write_site(result, site)
    page = (site / "pair-6.html").read_text(encoding="utf-8")
    assert "Player 6: Tomasz Wójcik" in page and page.count('href="board-') >= 6


def test_an_excel_individual(tmp_path: Path) -> None:
    from openpyxl import Workbook

    book = Workbook()
    sheet = book.active
    sheet.append(["Club individual, 1 December"])  # a title above the header
    sheet.append(["Board", "N", "S", "E", "W", "Contract", "Declarer", "Result", "Score"])
    for row in ROWS:
        sheet.append([int(row[0]), *(int(p) for p in row[1:5]), *row[5:8], int(row[8])])
    path = tmp_path / "individual.xlsx"
    book.save(path)
    check(process(path))


def _usebio_line(board: str, players: tuple[str, ...], contract: str, by: str,
                 tricks: int, score: str) -> str:
    seats = "".join(f"<{seat}_PLAYER_NUMBER>{n}</{seat}_PLAYER_NUMBER>"
                    for seat, n in zip(("NORTH", "SOUTH", "EAST", "WEST"), players, strict=True))
    return (f"<TRAVELLER_LINE>{seats}<CONTRACT>{contract}</CONTRACT><PLAYED_BY>{by}"
            f"</PLAYED_BY><TRICKS>{tricks}</TRICKS><SCORE>{score}</SCORE></TRAVELLER_LINE>")


def test_an_individual_usebio(tmp_path: Path) -> None:
    """The session of this module as a USEBIO individual: a PLAYER per player under
    PARTICIPANTS, each line's four players; scored as the docstring works it out."""
    tricks = {"=": 0, "+1": 1, "-1": -1}
    boards = {}
    for board, n, s, e, w, contract, by, result, score in ROWS:
        level = int(contract[0]) + 6 + tricks[result]
        boards.setdefault(board, []).append(_usebio_line(board, (n, s, e, w), contract, by,
                                                         level, score))
    players = "".join(f"<PLAYER><PLAYER_NUMBER>{n}</PLAYER_NUMBER><PLAYER_NAME>Player {n}"
                      f"</PLAYER_NAME><NATIONAL_ID_NUMBER/></PLAYER>" for n in range(1, 13))
    body = "".join(f"<BOARD><BOARD_NUMBER>{b}</BOARD_NUMBER>{''.join(lines)}</BOARD>"
                   for b, lines in boards.items())
    path = tmp_path / "individual.xml"
    path.write_text('<?xml version="1.0" encoding="UTF-8"?>\n<USEBIO Version="1.2">'
                    '<EVENT EVENT_TYPE="INDIVIDUAL"><EVENT_DESCRIPTION>Club individual'
                    f"</EVENT_DESCRIPTION><PARTICIPANTS>{players}</PARTICIPANTS>{body}"
                    "</EVENT></USEBIO>\n", encoding="utf-8")
    result = process(path)
    check(result)
    assert dict(zip(result.ranking["pair"].astype(int), result.ranking["names"],
                    strict=True))[6] == "Player 6"


def test_a_usebio_individual_written_by_us_reads_back_to_the_same_ranking(
        tmp_path: Path) -> None:
    from traveller.publish.usebio_out import write_usebio

    sample = Path(__file__).resolve().parents[1] / "sample_data"
    result = process(sample / "individual_session.csv", names=sample / "individual_names.csv")
    text = write_usebio(result, tmp_path / "out.xml").read_text(encoding="utf-8")
    assert 'EVENT_TYPE="INDIVIDUAL"' in text and "<PAIR>" not in text
    assert "<PLAYER_NAME>Tomasz Wójcik</PLAYER_NAME>" in text  # UTF-8 keeps every name
    again = process(tmp_path / "out.xml")
    assert again.problems.empty, again.problems["message"].tolist()
    assert again.settings["individual"]
    pd.testing.assert_frame_equal(result.ranking, again.ranking)


def test_the_travellers_sheet_prints_the_players_not_partnerships(tmp_path: Path) -> None:
    from openpyxl import load_workbook

    from traveller.publish.workbook import write_workbook

    out = tmp_path / "individual.xlsx"
    write_workbook(process(csv(tmp_path, "Board,N,S,E,W,Contract,Declarer,Result,Score")), out)
    book = load_workbook(out, read_only=True)  # (read-only: open until closed)
    rows = list(book["Travellers"].iter_rows(values_only=True))
    book.close()
    assert rows[0][:5] == ("Board", "North", "South", "East", "West")
    assert "N-S" not in rows[0] and "E-W" not in rows[0]
