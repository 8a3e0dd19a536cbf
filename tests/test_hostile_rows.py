"""Rows that are problems are never scored; footers are notes (issue 10)."""

from __future__ import annotations

from pathlib import Path

from traveller import process

HEAD = "Board,NS,EW,Contract,By,Tricks\n"


def test_a_pair_that_plays_itself_is_listed_and_not_scored(tmp_path: Path) -> None:
    """A Howell of 3 boards: pair 3 'plays' itself on board 3 and must not get 4 boards."""
    rows = ["1,1,2,4S,N,10", "1,3,4,4S,N,9", "2,1,3,3NT,S,9", "2,2,4,3NT,S,8",
            "3,1,4,2H,N,8", "3,3,3,2H,N,9", "3,2,1,1NT,S,7"]
    path = tmp_path / "howell.csv"
    path.write_text(HEAD + "\n".join(rows) + "\n")
    result = process(path, movement="howell")
    listed = result.problems.set_index("row")
    assert listed.loc[7, "code"] == "pair-plays-itself"
    assert 7 not in result.travellers["row"].tolist()
    boards = result.ranking.set_index("pair")["boards"]
    assert boards.loc[3] == 2 and boards.max() <= 3


def test_notes_under_the_table_are_not_problems(tmp_path: Path) -> None:
    path = tmp_path / "footer.csv"
    path.write_text(HEAD + "1,1,2,4S,N,10\n1,3,4,4S,N,9\n\nChecked by: AB,,,,,\n"
                    "Director:,J. Smith,,,,\n")
    result = process(path)
    assert result.problems.empty and len(result.travellers) == 2


def test_a_broken_last_row_is_still_listed(tmp_path: Path) -> None:
    """Only word-only lines are notes: a last row with a board number is a result to list."""
    path = tmp_path / "footer.csv"
    path.write_text(HEAD + "1,1,2,4S,N,10\n1,3,4,4S,N,9\n2,,,,,\nx,5,6,4S,N,9\n")
    result = process(path)
    assert sorted(result.problems["row"].unique()) == [4, 5]


def test_columns_of_another_method_are_named(tmp_path: Path) -> None:
    from conftest import SAMPLE_DATA

    listed = process(SAMPLE_DATA / "chicago_russian.csv").problems
    assert listed["code"].tolist() == ["method-suggested"]
    assert "--method russian" in listed["message"].iloc[0]
    assert process(SAMPLE_DATA / "chicago_russian.csv", method="russian").problems.empty
    path = tmp_path / "teams.csv"
    path.write_text("Board,Room,NS,EW,Contract,By,Tricks\n1,Open,1,2,4S,N,10\n"
                    "1,Closed,2,1,4S,N,9\n")
    listed = process(path).problems
    assert "--method teams" in listed["message"].iloc[0]
    assert process(path, method="teams").problems.empty


def test_unusual_scores_are_warnings(tmp_path: Path) -> None:
    """A declarer on the wrong side (-420 among +420s) and a lone slam beside a 2S+4."""
    rows = ["1,1,2,4S,N,10", "1,3,4,4S,N,10", "1,5,6,4S,N,11", "1,7,8,4S,N,10",
            "1,9,10,4S,E,10", "2,1,4,6S,N,12", "2,3,6,2S,N,12", "2,5,8,4S,N,11",
            "2,7,10,4S,N,12", "2,9,2,4S,N,11"]
    path = tmp_path / "unusual.csv"
    path.write_text(HEAD + "\n".join(rows) + "\n")
    result = process(path)
    listed = result.problems.set_index("row")
    assert listed["code"].tolist() == ["unusual-score", "unusual-score"]
    assert "-420 where the other results on board 1 are +420 to +450" in listed.loc[6, "message"]
    assert "only slam on board 2" in listed.loc[7, "message"]
    assert len(result.travellers) == 10  # warnings: still scored


def test_an_ordinary_board_has_no_unusual_score() -> None:
    from conftest import SAMPLE_DATA

    assert process(SAMPLE_DATA / "club_session.csv").problems.empty


def test_pair_problems_name_the_pair_columns_as_the_sheet_does(tmp_path: Path) -> None:
    path = tmp_path / "pairs.csv"
    path.write_text("Board,Para NS,Para EW,Contract,By,Tricks\n1,1,2,4S,N,10\n1,1,4,4S,N,9\n")
    listed = process(path).problems
    assert listed["column"].tolist() == ["Para NS/Para EW"] * 2  # (the first: scored)
    assert "row 3, Para NS/Para EW '1'" in listed["message"].iloc[1]


def test_a_lone_contract_word_at_the_end_is_not_a_note(tmp_path: Path) -> None:
    """Found by fuzzing: a last row holding only 'AP' is a result to list, not a footer."""
    path = tmp_path / "footer.csv"
    path.write_text(HEAD + "1,1,2,4S,N,10\n1,3,4,4S,N,9\n,,,AP,,\n")
    result = process(path)
    assert 4 in set(result.problems["row"]) | set(result.travellers["row"])
