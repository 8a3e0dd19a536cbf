"""A declarer column that names only the declaring side (``NS``, ``E/W``, ``СЮ``).

Some travellers record which side played the contract, not which player: an
``NS/EW`` column beside ``4S``. N-S's score is the same whichever partner
declared, so such rows are scored with the side; what needs the seat (the
opening-lead check, the double-dummy audit, the declarer PBN and USEBIO
write) leaves them out, and one note per sheet says so.
"""

from __future__ import annotations

import csv
import io
from pathlib import Path

import pandas as pd
import pytest

from traveller import process
from traveller.publish.pbn_out import write_pbn
from traveller.publish.usebio_out import write_usebio

SAMPLE = Path(__file__).resolve().parent.parent / "sample_data"
SIDE = {"N": "NS", "S": "NS", "E": "EW", "W": "EW"}


def _sides_only(source: Path, target: Path) -> None:
    """The sample session with its By column's seats turned into their sides."""
    with source.open(encoding="utf-8", newline="") as given:
        rows = list(csv.reader(given))
    by = rows[0].index("By")
    with target.open("w", newline="", encoding="utf-8") as out:
        csv.writer(out).writerows([rows[0], *([*r[:by], SIDE.get(r[by], r[by]), *r[by + 1:]]
                                              for r in rows[1:])])


def test_a_session_with_sides_only_scores_as_with_seats(tmp_path: Path) -> None:
    sides = tmp_path / "sides.csv"
    _sides_only(SAMPLE / "club_session.csv", sides)
    seated, sided = process(SAMPLE / "club_session.csv"), process(sides)
    assert sided.travellers["ns_score"].tolist() == seated.travellers["ns_score"].tolist()
    pd.testing.assert_frame_equal(sided.ranking, seated.ranking)
    played = sided.travellers["contract"].astype("string") != "PASS"
    assert set(sided.travellers.loc[played, "declarer"]) == {"NS", "EW"}
    # one note for the sheet, on its first such row, with how many there are
    assert sided.problems["code"].tolist() == ["declarer-side-only"]
    note = sided.problems.iloc[0]
    assert note["severity"] == "warning" and note["row"] == 2
    count = int(played.sum())
    assert f"({count} results of this sheet name only the side, this the first)" in (
        note["message"])


def test_the_bundled_sides_only_session_ranks_as_the_club_session() -> None:
    """sample_data/sides_only.csv: the club session with an NS/EW column for By."""
    sided, seated = process(SAMPLE / "sides_only.csv"), process(SAMPLE / "club_session.csv")
    pd.testing.assert_frame_equal(sided.ranking, seated.ranking)
    assert sided.problems["code"].tolist() == ["declarer-side-only"]
    assert sided.problems["column"].tolist() == ["NS/EW"]


@pytest.mark.parametrize(("board", "by", "tricks", "score"), [
    (2, "NS", 10, 620),  # board 2: N-S vulnerable
    (2, "EW", 10, -420),
    (2, "EW", 9, 50),
    (3, "EW", 10, -620),  # board 3: E-W vulnerable
    (3, "N/S", 9, -50),
    (4, "e-w", 8, 200),  # board 4: both vulnerable, two down
])
def test_the_side_sets_the_score_and_vulnerability(tmp_path: Path, board: int, by: str,
                                                   tricks: int, score: int) -> None:
    path = tmp_path / "one.csv"
    path.write_text("Board,NS,EW,Contract,By,Tricks\n"
                    f"{board},1,2,4S,{by},{tricks}\n{board},3,4,4S,N,10\n", encoding="utf-8")
    result = process(path)
    assert int(result.travellers.loc[result.travellers["row"] == 2, "ns_score"].iloc[0]) == score


def test_russian_side_words(tmp_path: Path) -> None:
    path = tmp_path / "ru.csv"
    path.write_text("Сдача;С-Ю;З-В;Контракт;Разыгрывающий;Взятки\n"
                    "1;1;2;4П;СЮ;10\n1;3;4;4П;ЗВ;10\n1;5;6;3БК;С;9\n", encoding="utf-8")
    t = process(path).travellers.sort_values("row")
    assert t["ns_score"].tolist() == [420, -420, 400]
    assert t["declarer"].tolist() == ["NS", "EW", "N"]


def test_a_score_beside_a_side_is_checked(tmp_path: Path) -> None:
    """The contract's score is computed with the side, and a recorded score that is
    not it is listed, naming the side and the reading it would fit."""
    path = tmp_path / "scored.csv"
    path.write_text("Board,NS,EW,Contract,By,Tricks,Score\n"
                    "1,1,2,4S,NS,10,620\n1,3,4,4S,NS,10,420\n", encoding="utf-8")
    result = process(path)
    assert result.travellers["ns_score"].tolist() == [420, 420]
    found = result.problems[result.problems["code"] == "score-disagrees"]
    assert found["row"].tolist() == [2]
    assert "computed 420 for 4S by N-S making 10; 620 would be 4S by N-S making 10 vulnerable" in (
        found["message"].iloc[0])


def test_exports_write_no_seat_for_a_side(tmp_path: Path) -> None:
    """PBN's score table writes "-" for a declarer it does not know and USEBIO leaves
    PLAYED_BY out; the contract, tricks and score are written as ever."""
    sides = tmp_path / "sides.csv"
    _sides_only(SAMPLE / "club_session.csv", sides)
    result = process(sides)
    pbn, usebio = tmp_path / "out.pbn", tmp_path / "out.xml"
    write_pbn(result, pbn)
    write_usebio(result, usebio)
    text = pbn.read_text(encoding="utf-8")
    table = text[text.index("[ScoreTable"):].splitlines()[1]
    fields = next(csv.reader(io.StringIO(table), delimiter=" "))
    assert fields[2:5] == ["2NT", "-", "7"]  # contract, declarer, tricks
    xml = usebio.read_text(encoding="utf-8")
    assert "<PLAYED_BY>" not in xml and "<CONTRACT>2NT</CONTRACT>" in xml


def test_lead_check_leaves_side_only_rows_out(tmp_path: Path) -> None:
    """Which defender leads depends on the seat: with the side alone no lead is checked
    against the hand record. Board 1's first result (2NT by W) is given the lead of the
    declarer's own ace of spades: listed with the seat, not with the side."""
    seated, sides = tmp_path / "seated.csv", tmp_path / "sides.csv"
    text = (SAMPLE / "club_session.csv").read_text(encoding="utf-8")
    seated.write_text(text.replace("1,1,1,1,1,2NT,W,C3,9", "1,1,1,1,1,2NT,W,SA,9"),
                      encoding="utf-8")
    assert seated.read_text(encoding="utf-8") != text
    _sides_only(seated, sides)
    hands = SAMPLE / "club_session_hands.pbn"
    with_seat = process(seated, hands=hands, dd=False).problems
    assert with_seat[with_seat["code"] == "lead-not-held"]["row"].tolist() == [2]
    assert set(process(sides, hands=hands, dd=False).problems["code"]) == {
        "declarer-side-only"}


def test_one_note_per_sheet(tmp_path: Path) -> None:
    book = tmp_path / "two.xlsx"
    frame = pd.DataFrame({"Board": [1, 1, 2, 2], "NS": [1, 3, 1, 3], "EW": [2, 4, 2, 4],
                          "Contract": ["4S", "4S", "3NT", "3NT"], "By": ["NS", "N", "EW", "EW"],
                          "Tricks": [10, 10, 9, 8]})
    with pd.ExcelWriter(book) as writer:
        frame.to_excel(writer, sheet_name="Monday", index=False)
        frame.to_excel(writer, sheet_name="Tuesday", index=False)
    problems = process(book).problems
    notes = problems[problems["code"] == "declarer-side-only"]
    assert notes["sheet"].tolist() == ["Monday", "Tuesday"]
    assert notes["row"].tolist() == [2, 2]
    assert "(3 results of this sheet name only the side, this the first)" in (
        notes["message"].iloc[0])


def test_no_note_on_a_side_row_that_is_not_scored(tmp_path: Path) -> None:
    """A side beside a contract without tricks is not scored for the missing tricks;
    the note is only about rows scored with the side."""
    path = tmp_path / "short.csv"
    path.write_text("Board,NS,EW,Contract,By,Tricks\n1,1,2,4S,NS,\n1,3,4,4S,N,10\n",
                    encoding="utf-8")
    problems = process(path).problems
    assert problems["code"].tolist() == ["missing-tricks"]
