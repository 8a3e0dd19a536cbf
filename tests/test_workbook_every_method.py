"""Every method's workbook has its Score cards, Frequencies and Summary sheets."""

from __future__ import annotations

from pathlib import Path

import openpyxl
import pytest
from conftest import SAMPLE_DATA, real_file

from traveller.pipeline import process
from traveller.publish.workbook import write_workbook

SHEETS = ["Score cards", "Frequencies", "Summary"]


@pytest.mark.parametrize("method", ["mp", "ximp", "butler", "total"])
def test_pairs_methods(method: str, tmp_path: Path) -> None:
    result = process(SAMPLE_DATA / "club_session.csv", method=method)
    book = openpyxl.load_workbook(write_workbook(result, tmp_path / "r.xlsx"), read_only=True)
    assert book.sheetnames[2:5] == SHEETS
    if method in ("ximp", "butler"):  # each card totals the pair's IMPs as the ranking does
        rows = list(book["Score cards"].iter_rows(values_only=True))
        assert rows[1][-1] == "IMPs"
        total = next(r for r in rows if r[0] == "Total")[-1]  # the first card: pair 1 N-S
        t = result.travellers
        assert total == pytest.approx(float(t.loc[t["ns_pair"] == 1, "ns_imp"].sum()), abs=1e-6)
        freq = next(book["Frequencies"].iter_rows(values_only=True))
        assert "N-S IMPs" in freq
    summary = dict(r for r in book["Summary"].iter_rows(values_only=True) if len(r) == 2)
    book.close()  # (read-only: open until closed)
    # every result of the sample has a score, and each method scores it (total points too)
    assert summary["results scored"] == len(result.travellers) == 192
    assert summary["pairs ranked"] == 16 and summary["movement"] == "mitchell"


def test_teams_match(tmp_path: Path) -> None:
    result = process(real_file("pbn-teams-itt1998", "98ITTF1.PBN"), method="teams")
    book = openpyxl.load_workbook(write_workbook(result, tmp_path / "t.xlsx"), read_only=True)
    assert set(SHEETS) | {"Matches", "Boards"} <= set(book.sheetnames)
    summary = dict(r for r in book["Summary"].iter_rows(values_only=True) if len(r) == 2)
    book.close()
    # the Summary speaks of teams, and counts the results the board IMPs were scored from:
    # both rooms of each board played (all 15 boards of this match)
    assert summary["teams ranked"] == 2 and "pairs ranked" not in summary
    assert summary["movement"] == "teams"
    boards = result.tables["Boards"]
    assert (boards["status"] == "played").sum() == 15
    assert summary["results scored"] == 30 == len(result.travellers)


def test_teams_summary_counts_only_boards_both_rooms_played() -> None:
    result = process(real_file("pbn-teams-itt1998", "98ITTF1.PBN"), method="teams")
    t = result.travellers
    first = t.index[t["board"] == 1]
    gone = process(t.drop(index=first[:1]).drop(columns=["ruling_applied"]), method="teams")
    summary = dict(zip(gone.summary["item"], gone.summary["value"], strict=True))
    assert summary["results scored"] == 28  # board 1 has one room left: not scored
    assert str(gone) == "Result: 2 teams, 15 boards, 29 results, " + (
        f"{len(gone.problems)} problem{'s' * (len(gone.problems) != 1)}; method teams")


@pytest.mark.parametrize(("sample", "options"), [
    ("chicago_russian.csv", {"method": "russian"}),
    ("individual_session.csv", {}),
    ("individual_session.csv", {"method": "ximp"})])
def test_russian_and_individuals(sample: str, options: dict[str, str], tmp_path: Path) -> None:
    result = process(SAMPLE_DATA / sample, **options)
    book = openpyxl.load_workbook(write_workbook(result, tmp_path / "r.xlsx"), read_only=True)
    assert book.sheetnames[2:5] == SHEETS
    cards = list(book["Score cards"].iter_rows(values_only=True))
    book.close()
    assert len(cards) > 2 and any(r and r[0] == "Total" for r in cards)
