"""Reading home score sheets: headers anywhere, EN/PL/RU words, and bad rows as problems."""

from __future__ import annotations

from pathlib import Path

import pandas as pd
import pytest
from conftest import examples
from hypothesis import given, settings
from hypothesis import strategies as st

import traveller
from traveller.errors import PROBLEM_CODES, UnreadableFileError

SAMPLES = Path(__file__).resolve().parents[1] / "sample_data"


def write(tmp_path: Path, text: str, name: str = "sheet.csv", encoding: str = "utf-8") -> Path:
    path = tmp_path / name
    path.write_text(text, encoding=encoding)
    return path


BAD = """Rubber at home
Deal,Declarer,Contract,Tricks,Honours
1,N,4S,10,
2,E,8S,10,
3,S,3NT,14,
4,,PASS,,N 100
5,Q,2H,8,
6,N,4H,10,N 120
7,W,2D,,
8,N,3NT,9,
"""


def test_bad_rows_are_problems_and_the_rest_is_scored(tmp_path: Path) -> None:
    path = write(tmp_path, BAD)
    r = traveller.rubber(path)
    p = r.problems
    assert p["code"].tolist() == ["unknown-contract", "tricks-out-of-range", "honours-on-pass",
                                  "unknown-declarer", "bad-honours", "missing-tricks"]
    assert p["row"].tolist() == [4, 5, 6, 7, 8, 9]
    assert p["column"].tolist() == ["Contract", "Tricks", "Honours", "Declarer", "Honours",
                                    "Tricks"]
    assert p["value"].tolist()[:2] == ["8S", "14"]
    assert all(m.startswith("sheet.csv row ") for m in p["message"])
    assert set(p["code"]) <= set(PROBLEM_CODES)
    led = r.ledger[r.ledger["entry"] != "unfinished"]
    assert led["entry"].tolist() == ["deal"] + ["skipped"] * 6 + ["deal"]
    assert led["read_as"].iloc[1] == "skipped: unknown-contract (see Problems)"
    assert led["row"].tolist() == list(range(3, 11))  # every row accounted for, in order
    assert r.totals[["ns", "ew", "finished"]].values.tolist() == [[120 + 100 + 700, 0, True]]


def test_ledger_keeps_cells_as_written_beside_the_reading(tmp_path: Path) -> None:
    r = traveller.rubber(write(tmp_path, "Deal;By;Contract;Result;Honors\n1;n-s;4♠x;-1;ew 150\n"))
    first = r.ledger.iloc[0]
    assert (first["contract_written"], first["result_written"]) == ("4♠x", "-1")
    assert first["read_as"] == "4SX by N-S, 9 tricks, honours 150 to E-W"
    assert (first["ew_above"], first["ew_honours"]) == (100, 150)


def test_tricks_and_result_that_disagree_are_not_guessed(tmp_path: Path) -> None:
    r = traveller.rubber(write(tmp_path, "Deal,Declarer,Contract,Tricks,Result\n1,N,4S,10,+1\n"
                                         "2,N,4S+1,11,\n"))
    assert r.problems["code"].tolist() == ["bad-tricks"]
    assert "disagree" in r.problems["message"].iloc[0]
    assert r.ledger["entry"].tolist()[:2] == ["skipped", "deal"]


def test_polish_headers_and_notation(tmp_path: Path) -> None:
    text = "Rozdanie,Rozgrywający,Kontrakt,Lewy,Honory\n1,N,4P,10,S 100\n2,E,3BA,9,\n"
    r = traveller.rubber(write(tmp_path, text, encoding="cp1250"))
    assert r.settings["notation"] == "pl"
    assert r.ledger["game"].tolist()[:2] == ["ns", "ew"]
    assert r.ledger["ns_honours"].iloc[0] == 100


def test_russian_sample_reads_like_the_english_one() -> None:
    en = traveller.rubber(SAMPLES / "home_rubber.csv")
    ru = traveller.rubber(SAMPLES / "home_rubber_ru.xlsx")
    assert ru.settings["notation"] == "ru"
    assert ru.ledger["sheet"].iloc[0] == "Запись"
    pd.testing.assert_frame_equal(en.totals, ru.totals)
    assert en.totals.values.tolist() == [[1, 1410, 100, 13, True], [2, 200, 620, -4, False]]


def test_an_ambiguous_sheet_is_refused_row_by_row_and_notation_decides() -> None:
    # Polish headers beside no trump written NT: the sheet's words point both ways
    frame = pd.DataFrame({"Rozdanie": [1, 2, 3], "Rozgrywający": ["N", "S", "N"],
                          "Kontrakt": ["2C", "3C", "3NT"], "Lewy": [8, 9, 9]})
    r = traveller.rubber(frame)
    assert r.problems["code"].tolist() == ["ambiguous-notation"] * 3
    assert (r.ledger["entry"] == "skipped").sum() == 3
    frame = pd.DataFrame({"Deal": [1, 2], "Declarer": ["N", "S"], "Contract": ["2C", "3C"],
                          "Tricks": [8, 9]})
    en = traveller.rubber(frame)  # English headers and nothing against them: English
    assert en.problems.empty and en.settings["notation"] == "en"
    pl = traveller.rubber(frame, notation="pl")  # C is hearts in Polish: 60 + 90 = a game
    assert pl.problems.empty and pl.ledger["game"].tolist()[:2] == ["", "ns"]


def test_table_and_round_columns_end_a_rubber(tmp_path: Path) -> None:
    text = "Table,Deal,Declarer,Contract,Tricks\n1,1,N,4S,10\n1,2,E,2H,8\n2,1,N,2S,8\n"
    r = traveller.rubber(write(tmp_path, text))
    assert r.totals[["table", "rubber", "ns", "ew", "finished"]].values.tolist() == [
        ["1", 1, 420, 160, False], ["2", 2, 160, 0, False]]


def test_a_file_without_a_score_sheet_is_refused(tmp_path: Path) -> None:
    with pytest.raises(UnreadableFileError, match="no score sheet found"):
        traveller.rubber(write(tmp_path, "Name,Phone\nAnna,123\n"))
    with pytest.raises(UnreadableFileError, match="no deals"):
        traveller.three_handed(write(tmp_path, "Deal,Declarer,Contract,Tricks\n"), players="A,B,C")
    with pytest.raises(UnreadableFileError, match="not found"):
        traveller.chicago(tmp_path / "missing.csv")


def test_a_bare_number_among_relative_results_is_not_guessed() -> None:
    frame = pd.DataFrame({"Deal": [1, 2, 3], "Declarer": ["N"] * 3, "Contract": ["4S"] * 3,
                          "Result": ["+1", "0", "1"]})  # Excel turns a typed +1 into 1
    r = traveller.rubber(frame)
    assert r.problems[["column", "value", "code"]].values.tolist() == [["Result", "1",
                                                                         "bad-tricks"]]
    assert r.ledger["read_as"].tolist()[:2] == ["4S by N-S, 11 tricks", "4S by N-S, 10 tricks"]


CELLS = st.one_of(st.none(), st.text(max_size=6),
                  st.sampled_from(["4S", "3NTX", "PASS", "2 nullo", "N", "EW", "Anna", "=", "+1",
                                   "-2", "10", "N 100", "EW 150", "Anna 150", "7", "1.5"]))


@settings(max_examples=examples(40), deadline=None)
@given(st.lists(st.tuples(CELLS, CELLS, CELLS, CELLS), min_size=1, max_size=8),
       st.sampled_from(["rubber", "chicago", "three_handed"]))
def test_any_cells_give_a_ledger_row_or_a_problem_never_a_crash(rows: list[tuple], game: str
                                                                ) -> None:
    frame = pd.DataFrame([(i + 1, *r) for i, r in enumerate(rows)],
                         columns=["Deal", "Declarer", "Contract", "Tricks", "Honours"])
    kwargs = {"players": "Anna,Boris,Vera"} if game == "three_handed" else {}
    r = getattr(traveller, game)(frame, notation="en", **kwargs)
    deals = r.ledger[r.ledger["entry"] != "unfinished"]
    assert deals["row"].tolist() == list(range(len(rows)))  # every row, in sheet order
    skipped = set(deals.loc[deals["entry"] == "skipped", "row"])
    assert skipped <= set(r.problems["row"])
