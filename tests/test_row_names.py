"""Pairs' names written on the traveller's own rows: used for the ranking and checked."""

from __future__ import annotations

from pathlib import Path

import pandas as pd
import pytest

import traveller
from traveller.score.row_names import names_columns

HEADER = "Board,NS,NS Players,EW,EW Players,Contract,By,Tricks\n"
#: Four pairs of a two-table Mitchell over three boards, each row naming both pairs.
ROWS = [
    "1,1,Ann & Bob,2,Cat & Dan,4S,N,10",
    "1,3,Eve & Fay,4,Gus & Hal,4S,N,9",
    "2,1,Ann & Bob,4,Gus & Hal,3NT,S,9",
    "2,3,Eve & Fay,2,Cat & Dan,3NT,S,10",
    "3,1,Ann & Bob,4,Gus & Hal,2H,E,8",
    "3,3,Eve & Fay,2,Cat & Dan,2H,E,9",
]


def _scored(tmp_path: Path, rows: list[str], header: str = HEADER, **options: object
            ) -> traveller.Result:
    sheet = tmp_path / "t.csv"
    sheet.write_text(header + "\n".join(rows) + "\n", encoding="utf-8")
    return traveller.process(sheet, dd=False, **options)  # type: ignore[arg-type]


def _listed(result: traveller.Result, code: str) -> pd.DataFrame:
    return result.problems[result.problems["code"] == code]


def _names(result: traveller.Result) -> dict[tuple[str, int], str]:
    r = result.ranking
    return dict(zip(zip(r["line"], r["pair"], strict=True), r["names"], strict=True))


def test_names_on_the_rows_name_the_ranked_pairs(tmp_path: Path) -> None:
    """Without a names sheet, the rows' names are the ranking's and the players'; the
    same names written otherwise (case, spacing, order) say nothing."""
    rows = [*ROWS[:2], "2,1,bob  &  ANN,4,Gus & Hal,3NT,S,9", *ROWS[3:]]
    result = _scored(tmp_path, rows)
    assert _names(result) == {("NS", 1): "Ann & Bob", ("NS", 3): "Eve & Fay",
                              ("EW", 2): "Cat & Dan", ("EW", 4): "Gus & Hal"}
    players = result.players
    assert players is not None
    first = players[(players["line"] == "NS") & (players["pair"] == 1)]
    assert first["player"].tolist() == ["Ann", "Bob"]
    assert result.problems.empty
    assert len(result.travellers) == 6
    assert "NS Players" in result.travellers  # kept beside the results, as typed


def test_a_row_naming_its_pair_otherwise_is_listed(tmp_path: Path) -> None:
    """Pair E-W 2 is Cat & Dan on two rows and Cat & Ian on one: that row is listed
    beside the first, whose names are used; the result is still scored."""
    rows = [*ROWS[:3], "2,3,Eve & Fay,2,Cat & Ian,3NT,S,10", *ROWS[4:]]
    result = _scored(tmp_path, rows)
    listed = _listed(result, "names-disagree")
    assert listed[["row", "board", "column", "value", "severity"]].values.tolist() == [
        [5, 2, "EW Players", "Cat & Ian", "warning"]]
    assert "pair E-W 2 is named 'Cat & Dan' on row 2, and those names are used" in (
        listed["message"].iloc[0])
    assert _names(result)[("EW", 2)] == "Cat & Dan"
    assert len(result.travellers) == 6


def test_a_pair_number_typed_wrong_shows_by_its_names(tmp_path: Path) -> None:
    """Gus & Hal are E-W 4 on two rows and E-W 12 on one: pair 12's row is listed, naming
    the rows where those names are pair 4's; the row is scored as typed."""
    rows = [*ROWS[:4], "3,1,Ann & Bob,12,Gus & Hal,2H,E,8", ROWS[5]]
    result = _scored(tmp_path, rows)
    listed = _listed(result, "names-of-another-pair")
    assert listed[["row", "column", "value", "severity"]].values.tolist() == [
        [6, "EW Players", "Gus & Hal", "warning"]]
    assert "'Gus & Hal' are pair E-W 4 on rows 3, 4; here they are pair E-W 12" in (
        listed["message"].iloc[0])
    assert 12 in result.ranking["pair"].tolist()
    assert _listed(result, "names-disagree").empty


def test_names_without_a_letter_name_nobody(tmp_path: Path) -> None:
    """A ``?`` written for two pairs is not one partnership on two numbers."""
    rows = [*ROWS[:4], "3,1,Ann & Bob,4,?,2H,E,8", "3,3,Eve & Fay,2,?,2H,E,9"]
    result = _scored(tmp_path, rows)
    assert _listed(result, "names-of-another-pair").empty
    assert len(_listed(result, "names-disagree")) == 2  # (pairs 2 and 4 named before)


def test_the_names_sheet_wins_and_fills_in(tmp_path: Path) -> None:
    """A names file's names are used; a row that names its pair otherwise is listed with
    them; a pair the file does not name takes its rows' names."""
    names = tmp_path / "names.csv"
    names.write_text("Pair,Line,Names\n1,NS,Ann & Bob\n3,NS,Eve & Fay\n2,EW,Cat & Dan\n")
    rows = [ROWS[0], "1,3,Eve & Fay,4,Gus & Hal,4S,N,9", "2,1,Ann & Rob,4,Gus & Hal,3NT,S,9",
            *ROWS[3:]]
    result = _scored(tmp_path, rows, names=str(names))
    listed = _listed(result, "names-disagree")
    assert listed[["row", "column", "value"]].values.tolist() == [[4, "NS Players", "Ann & Rob"]]
    assert ("the names sheet or file names pair N-S 1 'Ann & Bob', and those names are "
            "used") in listed["message"].iloc[0]
    assert _names(result) == {("NS", 1): "Ann & Bob", ("NS", 3): "Eve & Fay",
                              ("EW", 2): "Cat & Dan", ("EW", 4): "Gus & Hal"}


def test_a_howell_pair_is_one_pair_on_both_lines(tmp_path: Path) -> None:
    """In a Howell pair 3 sits N-S and E-W: its rows on both lines are one pair's, so the
    same names on both lines say nothing, and other names on either are listed."""
    rows = ["1,1,Ann & Bob,2,Cat & Dan,4S,N,10", "1,3,Eve & Fay,4,Gus & Hal,4S,N,9",
            "2,4,Gus & Hal,1,Ann & Bob,3NT,S,9", "2,2,Cat & Dan,3,Eve & Fay,3NT,S,10",
            "3,2,Cat & Dan,4,Gus & Hal,2H,E,8", "3,3,Eve & Fay,1,Ann & Bob,2H,E,9",
            "4,1,Ann & Bob,3,Eve & Kay,1NT,N,7", "4,4,Gus & Hal,2,Cat & Dan,1NT,N,8"]
    result = _scored(tmp_path, rows, movement="howell")
    assert result.settings["movement"] == "howell"
    assert _names(result) == {("", 1): "Ann & Bob", ("", 2): "Cat & Dan",
                              ("", 3): "Eve & Fay", ("", 4): "Gus & Hal"}
    assert _listed(result, "names-of-another-pair").empty
    listed = _listed(result, "names-disagree")
    assert listed[["row", "column", "value"]].values.tolist() == [[8, "EW Players", "Eve & Kay"]]
    assert "pair 3 is named 'Eve & Fay' on row 3" in listed["message"].iloc[0]


def test_names_in_a_workbook_of_board_sheets_name_the_sheet(tmp_path: Path) -> None:
    """Rows on two sheets: the message names the other sheet of the row it points at."""
    book = tmp_path / "t.xlsx"
    columns = ["Board", "NS", "NS Names", "EW", "EW Names", "Contract", "By", "Tricks"]
    with pd.ExcelWriter(book) as writer:
        pd.DataFrame([[1, 1, "Ann & Bob", 2, "Cat & Dan", "4S", "N", 10],
                      [1, 3, "Eve & Fay", 4, "Gus & Hal", "4S", "N", 9]],
                     columns=columns).to_excel(writer, sheet_name="Board 1", index=False)
        pd.DataFrame([[2, 1, "Ann & Bob", 4, "Gus & Hal", "3NT", "S", 9],
                      [2, 3, "Eve & Fay", 2, "Cat & Don", "3NT", "S", 10]],
                     columns=columns).to_excel(writer, sheet_name="Board 2", index=False)
    result = traveller.process(book, dd=False)
    listed = _listed(result, "names-disagree")
    assert listed[["sheet", "row", "value"]].values.tolist() == [["Board 2", 3, "Cat & Don"]]
    assert "named 'Cat & Dan' on row 2 of sheet 'Board 1'" in listed["message"].iloc[0]


def test_the_problems_sheet_lists_them(tmp_path: Path) -> None:
    """From the command line: the workbook's Problems sheet carries both warnings and
    its Ranking the rows' names."""
    from click.testing import CliRunner

    from traveller.cli import main

    rows = [*ROWS[:3], "2,3,Eve & Fay,2,Cat & Ian,3NT,S,10",
            "3,1,Ann & Bob,12,Gus & Hal,2H,E,8", ROWS[5]]
    sheet = tmp_path / "t.csv"
    sheet.write_text(HEADER + "\n".join(rows) + "\n", encoding="utf-8")
    out = tmp_path / "out.xlsx"
    run = CliRunner().invoke(main, ["score", str(sheet), "-o", str(out)])
    assert run.exit_code == 3, run.output  # (problems listed)
    book = pd.read_excel(out, sheet_name=None, header=None, engine="calamine")
    codes = book["Problems"].iloc[1:, 6].tolist()
    assert sorted(codes) == ["names-disagree", "names-of-another-pair"]
    assert "Gus & Hal" in book["Ranking"].to_string()


@pytest.mark.parametrize(("headers", "found"), [
    (["NS Names", "EW Names"], {"NS": "NS Names", "EW": "EW Names"}),
    (["Names N-S", "Players E/W"], {"NS": "Names N-S", "EW": "Players E/W"}),
    (["Nazwiska NS", "Gracze WE"], {"NS": "Nazwiska NS", "EW": "Gracze WE"}),
    (["Игроки С-Ю", "Фамилии З-В"], {"NS": "Игроки С-Ю", "EW": "Фамилии З-В"}),
    (["NS Pair Names"], {"NS": "NS Pair Names"}),
    (["Names", "Players", "NS", "Name of the club"], {}),
])
def test_names_columns_are_found_by_their_headers(headers: list[str],
                                                  found: dict[str, str]) -> None:
    assert names_columns(headers) == found


def test_the_sample_with_names_on_its_rows() -> None:
    """The bundled sample names each pair as the names file does, and its two slips are
    listed: the misspelt name, and pair 18 typed for 8 (which the other checks see too)."""
    sample = Path(__file__).resolve().parents[1] / "sample_data"
    result = traveller.process(sample / "names_on_rows.csv", dd=False)
    plain = traveller.process(sample / "club_session.csv", names=str(sample / "names.csv"),
                              dd=False)
    def players(r: traveller.Result) -> dict[tuple[str, int], list[str]]:
        assert r.players is not None
        return {(line, pair): list(g["player"]) for (line, pair), g in
                r.players.groupby(["line", "pair"], sort=True)}

    ours, theirs = players(result), players(plain)
    assert ours.pop(("EW", 18)) == theirs[("EW", 8)]
    assert ours == theirs  # (the rows join the players with "&", the names file with "–")
    assert sorted(result.problems["code"]) == ["few-boards", "names-disagree",
                                               "names-of-another-pair", "seat-disagrees"]
    slip = _listed(result, "names-of-another-pair")
    assert slip["row"].tolist() == _listed(result, "seat-disagrees")["row"].tolist()
