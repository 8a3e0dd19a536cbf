"""A grid's rows read from one block of its cells are the rows pandas gives."""

from __future__ import annotations

import numpy as np
import pandas as pd

from traveller.read.cellcodes import Cells
from traveller.read.grid import _Rows
from traveller.read.text import text_grid


def _same(grid: pd.DataFrame, values: np.ndarray | None) -> None:
    rows = _Rows(grid, values)
    for r in range(len(grid)):
        got, expected = rows(r), grid.iloc[r].tolist()
        assert [type(c) for c in got] == [type(c) for c in expected]
        assert [c if c == c else "nan" for c in got] == [
            c if c == c else "nan" for c in expected]


def test_rows_of_a_ragged_text_grid() -> None:
    grid = text_grid("Board,NS,EW,Contract\n1,2,3\n\n4,5,6,3NT,extra\n,,,\n", ",")
    assert grid.shape == (5, 5)
    _same(grid, None)
    _same(grid, Cells(grid, 256).values)


def test_rows_of_a_workbook_grid_and_of_mixed_columns() -> None:
    cells = pd.DataFrame([["Board", None, "x"], [1.0, np.nan, "2"], [None, 3, "y"]],
                         dtype=object)
    _same(cells, Cells(cells, 256).values)
    mixed = pd.DataFrame({"a": [1, 2], "b": [1.5, np.nan], "c": ["x", None]})
    assert not _Rows(mixed, None).block  # a row across kinds is pandas' own
    _same(mixed, None)
