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


def test_a_frame_written_a_few_rows_at_a_time_is_the_file_of_one_pass(tmp_path: Path) -> None:
    """write_csv converts a chunk of rows at a time (a huge sheet is never copied whole):
    a column missing in the first rows, numbers beside texts, a risky cell in a later
    chunk and a risky header give the same bytes as one pass over the whole frame."""
    import numpy as np

    from traveller.publish.csvcells import write_csv

    frames = {
        "typed": pd.DataFrame({
            "text": pd.array([None, None, "=1+1", "x", "-420", "@x"], dtype="string"),
            "count": pd.array([1, None, 3, 4, 5, 6], dtype="Int64"),
            "value": [np.nan, 1.5, 2.0, -0.0, 1e20, 3.25],
            "later": pd.Series([None, None, None, "x", "+y", None], dtype=object),
            "none": pd.Series([None] * 6, dtype=object),
            "=head": [True, False, True, True, False, True]}),
        "numbers in objects": pd.DataFrame({"n": pd.Series([1, 2, None, 4, 5, 6], dtype=object)}),
        "numbers beside texts": pd.DataFrame({"m": pd.Series([1, "=x", None, 4, "y", 6],
                                                            dtype=object)}),
        "empty": pd.DataFrame({"a": pd.Series([], dtype="string")}),
    }
    for name, frame in frames.items():
        whole, parts = tmp_path / f"{name}.csv", tmp_path / f"{name}.parts.csv"
        _one_pass(frame, whole)
        write_csv(frame, parts, rows=2)
        assert parts.read_bytes() == whole.read_bytes(), name
        with whole.open(newline="", encoding="utf-8") as handle:
            rows = list(csv.reader(handle))
        assert len(rows) == len(frame) + 1
        if name == "typed":
            assert rows[0][-1] == "'=head" and rows[3][0] == "'=1+1" and rows[5][3] == "'+y"


def _one_pass(frame: pd.DataFrame, path: Path) -> None:
    """The whole frame made safe, converted and written at once (Arrow's CSV writer, or
    pandas' when a column mixes numbers and texts)."""
    import pyarrow as pa
    import pyarrow.csv as pa_csv

    safe = inert_frame(frame)
    try:
        pa_csv.write_csv(pa.Table.from_pandas(safe, preserve_index=False), path)
    except (pa.ArrowInvalid, pa.ArrowTypeError):
        safe.to_csv(path, index=False)
