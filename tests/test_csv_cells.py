"""Every CSV we write opens in a spreadsheet as the text it holds (OWASP CSV injection)."""

from __future__ import annotations

import csv
from pathlib import Path

import pandas as pd
from conftest import SAMPLE_DATA

from traveller.pipeline import process
from traveller.publish.csvcells import inert, inert_column, inert_frame
from traveller.publish.workbook import write_workbook

RISKY = ["=1+1 – Anna", "+A1", "-2+3", "@SUM(A1)", "\tx", "\rx", '=HYPERLINK("http://x")']
PLAIN = ["Anna", "-420", "+150", "2.5", "-", "", "A=B", "4S="]


def test_cells_that_start_a_formula_get_a_quote() -> None:
    assert [inert(v) for v in RISKY] == ["'" + v for v in RISKY]
    assert [inert(v) for v in PLAIN[:5]] == ["Anna", "-420", "+150", "2.5", "'-"]
    assert [inert(v) for v in PLAIN[5:]] == PLAIN[5:]
    assert inert(-3) == -3 and inert(None) is None


def test_columns_are_protected_alike() -> None:
    column = pd.Series([*RISKY, *PLAIN, None], dtype=object)
    assert inert_column(column).tolist() == [inert(v) for v in column]
    assert inert_column(column.astype("string")).tolist()[:2] == ["'=1+1 – Anna", "'+A1"]
    numbers = pd.Series([-1, 2])
    assert inert_column(numbers) is numbers
    assert list(inert_frame(pd.DataFrame({"=x": ["a"]})).columns) == ["'=x"]


def test_side_csvs_of_a_huge_workbook_are_protected(tmp_path: Path) -> None:
    names = tmp_path / "names.csv"
    text = (SAMPLE_DATA / "names.csv").read_text(encoding="utf-8")
    names.write_text(text.replace("Anna Nowak", "=1+1"), encoding="utf-8")
    result = process(SAMPLE_DATA / "club_session.csv", names=names)
    write_workbook(result, tmp_path / "r.xlsx", row_limit=10)
    sides = sorted(tmp_path.glob("r.*.csv"))
    assert sides
    cells = [cell for side in sides
             for row in csv.reader(side.read_text(encoding="utf-8").splitlines()) for cell in row]
    assert not [c for c in cells if c[:1] in "=+-@\t\r" and c and inert(c) != c]
    assert any(c.startswith("'=1+1") for c in cells)
