"""The cheap paths of the workbook writer give what the general ones gave.

A small workbook is built in memory rather than in constant-memory mode; the
Frequencies, Score cards and Summary frames are built from factorised keys
rather than groupbys. These tests pin down that nothing a reader sees depends
on which path ran.
"""

from __future__ import annotations

import zipfile
from pathlib import Path
from typing import Any

import numpy as np
import openpyxl
import pandas as pd
import pytest
from conftest import SAMPLE_DATA

from traveller import process, write_workbook
from traveller.publish import workbook
from traveller.publish.cards import frequencies
from traveller.publish.keys import group_ids
from traveller.publish.layout import group_starts
from traveller.publish.sheet import blank, width


def _looks(path: Path) -> dict[str, Any]:
    """Per sheet: every cell's value and look, widths, merges, print setup."""
    book = openpyxl.load_workbook(path)
    out = {}
    for sheet in book:
        cells = [(c.coordinate, c.value, c.number_format, c.font.b, c.fill.fgColor.rgb,
                  c.border.top.style, c.alignment.horizontal, c.alignment.wrap_text)
                 for row in sheet.iter_rows() for c in row]
        widths = {k: d.width for k, d in sheet.column_dimensions.items()}
        heights = {k: d.height for k, d in sheet.row_dimensions.items() if d.height}
        out[sheet.title] = (cells, widths, heights, sheet.freeze_panes, sheet.print_area,
                            [b.id for b in sheet.row_breaks.brk],
                            sorted(str(m) for m in sheet.merged_cells.ranges))
    return out


@pytest.mark.parametrize("name", ["club_session.csv", "problems_session.csv"])
def test_a_small_book_in_memory_looks_as_in_constant_memory(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch, name: str) -> None:
    result = process(SAMPLE_DATA / name)
    small = write_workbook(result, tmp_path / "small.xlsx")
    monkeypatch.setattr(workbook, "IN_MEMORY_ROWS", 0)  # as a large session is written
    large = write_workbook(result, tmp_path / "large.xlsx")
    # both modes really ran: shared strings in memory, inline strings row by row
    assert "xl/sharedStrings.xml" in zipfile.ZipFile(small).namelist()
    assert "xl/sharedStrings.xml" not in zipfile.ZipFile(large).namelist()
    assert _looks(small) == _looks(large)


def test_blank_is_missing_or_empty_text_only() -> None:
    assert blank(pd.Series([None, ""], dtype="string"))
    assert blank(pd.Series([np.nan, np.nan]))
    assert blank(pd.Series(["", pd.NA, ""], dtype=object))
    assert blank(pd.Series([], dtype="Int64"))
    assert not blank(pd.Series(["", " "], dtype="string"))  # a space is something
    assert not blank(pd.Series([pd.NA, 0], dtype="Int64"))
    assert not blank(pd.Series(["", False], dtype=object))
    assert not blank(pd.Series(["", "", "x"], dtype="string"))


def test_width_measures_each_cell_as_shown() -> None:
    assert width("N-S", [1.5, None, 1.5], alike=True) == len("1.50") + 2
    assert width("Names", ["Anna – Bob", None]) == len("Anna – Bob") + 2
    assert width("x", [1, 1.0, True]) == len("True") + 2  # mixed: each cell as it is


def test_groups_number_rows_by_first_appearance_missing_values_alike() -> None:
    section = pd.Series(["B", "A", "B", None, None], dtype="string")
    board = pd.Series([1, 1, 1, pd.NA, pd.NA], dtype="Int64")
    assert group_ids(section, board).tolist() == [0, 1, 0, 2, 2]
    frame = pd.DataFrame({"section": section, "board": board})
    assert group_starts(frame, ["section", "board"]) == [0, 1, 2, 3]


def test_frequencies_take_the_first_matchpoints_present(tmp_path: Path) -> None:
    t = pd.DataFrame({
        "section": pd.array(["", "", "", ""], dtype="string"),
        "board": pd.array([1, 1, 1, 1], dtype="Int64"),
        "ns_score": pd.array([420, 420, -50, None], dtype="Int64"),
        "ruling": pd.array([None, None, None, "A60/40"], dtype="string"),
        "ruling_kind": pd.array([None, None, None, "average"], dtype="string"),
        "ns_mp": pd.array([None, 4, 0, 2.4], dtype="Float64"),
        "ew_mp": pd.array([None, 0, 4, 1.6], dtype="Float64"),
        "ns_pct": pd.array([None, 100, 0, 60], dtype="Float64"),
        "ew_pct": pd.array([None, 0, 100, 40], dtype="Float64")})
    f = frequencies(t)
    assert f["ns_score"].tolist()[:2] == [420, -50] and f["ruling"].tolist()[2] == "A60/40"
    assert f["count"].tolist() == [2, 1, 1]
    assert f["ns_mp"].tolist() == [4, 0, 2.4]  # the first row of 420 had none: the next's
    assert str(f["count"].dtype) == "Int64" and str(f["ns_mp"].dtype) == "Float64"
