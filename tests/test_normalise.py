"""Normalising raw rows, and every kind of bad input becoming a listed problem."""

from __future__ import annotations

from pathlib import Path

import pandas as pd
import pytest

from traveller import process
from traveller.errors import PROBLEM_CODES
from traveller.read.load import read
from traveller.tidy.normalise import normalise

HEADER = "Board,NS,EW,Contract,By,Tricks,Lead,Score\n"


def run(tmp_path: Path, body: str, header: str = HEADER, **options: object):  # type: ignore[no-untyped-def]
    path = tmp_path / "t.csv"
    path.write_text(header + body, encoding="utf-8")
    return normalise(read(path), **options)  # type: ignore[arg-type]


def test_results_in_every_english_form(tmp_path: Path) -> None:
    header = "Board,NS,EW,Contract,By,Result\n"
    body = "\n".join([
        "1,1,2,4S,N,=", "1,3,4,4SX,S,-2", "1,5,6,N4SX-3,,", "1,7,8,3NTW=,,",
        "1,9,10,4S+1,N,", "1,11,12,PASS,,", "1,13,14,4S,N,10", "1,15,16,4Sx,E,M",
    ]) + "\n"
    n = run(tmp_path, body, header)
    assert n.problems.empty, n.problems["message"].tolist()
    t = n.travellers
    assert t["contract"].tolist() == ["4S", "4SX", "4SX", "3NT", "4S", "PASS", "4S", "4SX"]
    declarers = t["declarer"].astype("string").fillna("-").tolist()
    assert declarers == ["N", "S", "N", "W", "N", "-", "N", "E"]
    assert t["tricks"].astype("float").fillna(-1).tolist() == [10, 8, 7, 9, 11, -1, 10, 10]


def test_score_only_rows_use_the_recorded_score(tmp_path: Path) -> None:
    n = run(tmp_path, "1,1,2,,,,,+420\n1,3,4,,,,,-50\n")
    assert n.problems.empty
    assert n.travellers["recorded_score"].tolist() == [420, -50]


@pytest.mark.parametrize(("row", "code", "column"), [
    (",1,2,4S,N,10,,", "missing-board", "Board"),
    ("x,1,2,4S,N,10,,", "bad-board", "Board"),
    ("1,,2,4S,N,10,,", "missing-pair", "NS"),
    ("1,1,two,4S,N,10,,", "bad-pair", "EW"),
    ("1,1,2,,,,,", "missing-result", "Contract"),
    ("1,1,2,4Z,N,10,,", "unknown-contract", "Contract"),
    ("1,1,2,4S,Q,10,,", "unknown-declarer", "By"),
    ("1,1,2,4S,,10,,", "missing-declarer", "By"),
    ("1,1,2,4S,N,,,", "missing-tricks", "Tricks"),
    ("1,1,2,4S,N,ten,,", "bad-tricks", "Tricks"),
    ("1,1,2,4S,N,14,,", "tricks-out-of-range", "Tricks"),
    ("1,1,2,,,,,abc", "bad-score", "Score"),
    ("1,1,2,,,,,425", "impossible-score", "Score"),
    ("1,1,2,A70,,,,", "bad-ruling", "Contract"),
    ("1,1,2,,,,,30%+420/60%-50", "bad-ruling", "Score"),
])
def test_each_bad_cell_is_a_blocking_problem(tmp_path: Path, row: str, code: str,
                                             column: str) -> None:
    good = "1,3,4,3NT,S,9,,\n"
    n = run(tmp_path, good + row + "\n")
    assert n.problems["code"].tolist() == [code]
    problem = n.problems.iloc[0]
    assert problem["row"] == 3
    assert problem["column"] == column
    assert "t.csv row 3" in problem["message"]
    assert code in PROBLEM_CODES
    assert len(n.travellers) == 1  # the good row is still scored


def test_a_score_with_a_thousands_separator_says_the_number_it_would_be(tmp_path: Path) -> None:
    n = run(tmp_path, '1,1,2,,,,,"1,100"\n1,3,4,,,,,-1.100\n1,5,6,,,,,4.2\n')
    assert n.problems["code"].tolist() == ["bad-score"] * 3
    messages = n.problems["message"].tolist()
    assert "1,100 would be 1100 with a thousands separator" in messages[0]
    assert "-1.100 would be -1100 with a thousands separator" in messages[1]
    assert "would be" not in messages[2]
    assert n.travellers.empty  # listed, not read as 1100: the director looks at the cell


def test_warnings_keep_the_row(tmp_path: Path) -> None:
    n = run(tmp_path, "1,1,2,4S,N,10,S1,\n1,3,4,4Z,N,10,,-420\n")
    # (the lead scores nothing: listed after what could change a score)
    assert n.problems["code"].tolist() == ["unknown-contract", "unknown-lead"]
    assert len(n.travellers) == 2  # a bad contract with a good score: the score is used
    assert n.travellers["lead"].tolist()[0] == "S1"


def test_duplicates_and_mitchell_lines(tmp_path: Path) -> None:
    body = "1,1,1,4S,N,10,,\n1,2,2,4S,N,10,,\n1,1,3,4S,N,9,,\n"
    n = run(tmp_path, body)
    assert n.movement == "mitchell"
    # the second result is left out; the first is listed too, as the one scored
    assert n.problems["code"].tolist() == ["duplicate-result"] * 2
    assert n.problems["row"].tolist() == [2, 4]
    assert n.problems["severity"].tolist() == ["warning", "error"]
    assert "first at row 2" in n.problems["message"].iloc[1]
    assert "this result is scored" in n.problems["message"].iloc[0]


def test_pair_on_the_wrong_line_of_a_mitchell(tmp_path: Path) -> None:
    # N-S pairs 1-4 and E-W pairs 5-8 on four boards; pair 2 once appears as E-W.
    rows = [f"{b},{ns},{ns + 4},4S,N,10,," for b in range(1, 5) for ns in range(1, 5)]
    rows.append("5,1,2,4S,N,10,,")
    n = run(tmp_path, "\n".join(rows) + "\n")
    assert n.movement == "mitchell"
    assert n.problems["code"].tolist() == ["pair-on-both-lines"]
    assert "pair 2 is N-S" in n.problems["message"].iloc[0]


def test_howell_detected_and_self_play_listed(tmp_path: Path) -> None:
    rows = ["1,1,2,4S,N,10,,", "1,3,4,4S,N,10,,", "2,2,3,4S,N,10,,", "2,4,1,4S,N,10,,",
            "3,4,4,4S,N,10,,"]
    n = run(tmp_path, "\n".join(rows) + "\n")
    assert n.movement == "howell"
    assert n.problems["code"].tolist() == ["pair-plays-itself"]


def test_every_input_row_is_scored_or_listed(tmp_path: Path) -> None:
    sample = Path(__file__).parents[1] / "sample_data" / "problems_session.csv"
    n = normalise(read(sample))
    body_rows = len(read(sample).tables[0].frame)
    blocking = n.problems[n.problems["severity"] == "error"]  # (the rest are scored rows)
    assert len(n.travellers) + len(blocking) == body_rows
    assert set(n.travellers["row"]).isdisjoint(set(blocking["row"]))


def test_ambiguous_notation_is_refused(tmp_path: Path) -> None:
    n = run(tmp_path, "1,1,2,2C,N,8,,\n1,3,4,3C,N,9,,\n")
    assert set(n.problems["code"]) == {"ambiguous-notation"}
    assert "--notation en|pl" in n.problems["message"].iloc[0]
    assert n.travellers.empty
    forced = run(tmp_path, "1,1,2,2C,N,8,,\n1,3,4,3C,N,9,,\n", notation="pl")
    assert forced.travellers["strain"].tolist() == ["H", "H"]


def test_caller_frames_are_not_mutated(tmp_path: Path) -> None:
    path = tmp_path / "t.csv"
    path.write_text(HEADER + "1,1,2,4S,N,10,,\n", encoding="utf-8")
    loaded = read(path)
    before = loaded.tables[0].frame.copy()
    normalise(loaded)
    pd.testing.assert_frame_equal(loaded.tables[0].frame, before)


def test_each_problem_names_its_rows_board(tmp_path: Path) -> None:
    """The Problems sheet's Board column: the board of the row, whether the row is left
    out (an unknown contract) or scored (a later check, a pair's second result); none
    where the board number is what could not be read, or the problem is the file's."""
    path = tmp_path / "t.csv"
    path.write_text("Board,NS,EW,Contract,By,Tricks\n3,1,2,4Z,N,10\nx,1,2,4S,N,10\n"
                    "5,1,2,4S,N,10\n5,1,2,4S,N,9\n", encoding="utf-8")
    problems = process(path).problems
    found = dict(zip(problems["row"], problems["board"], strict=True))
    assert found[2] == 3 and pd.isna(found[3]) and found[4] == found[5] == 5
    assert problems["board"].dtype == "Int64"
    assert set(problems["code"]) >= {"unknown-contract", "bad-board", "duplicate-result"}
