"""The national ranking's files: every pair in the CSV and on the formatted sheet, text as text."""

from __future__ import annotations

from pathlib import Path

import numpy as np
import openpyxl
import pandas as pd
import pytest

from traveller.sim import national_book
from traveller.sim.outputs import write_national


def ranking(n: int) -> pd.DataFrame:
    """A national ranking as :func:`traveller.sim.outputs.national_ranking` makes it."""
    rng = np.random.default_rng(4)
    clubs = rng.integers(0, 40, n)
    names = [f"Ann {i} - Bob {i}" for i in range(n)]
    names[3] = "=HYPERLINK(\"http://x\")"  # a name typed as a formula stays text
    return pd.DataFrame({
        "club_id": clubs.astype("int64"),
        "place": pd.array([str(i + 1) for i in range(n)], dtype="string"),
        "club": pd.array([f"Club & {c}" for c in clubs], dtype="string"),
        "section": pd.array([""] * n, dtype="string"),
        "line": pd.array(rng.choice(["NS", "EW"], n), dtype="string"),
        "pair": rng.integers(1, 13, n).astype("int64"),
        "names": pd.array(names, dtype="string"),
        "boards": np.full(n, 24, "int64"),
        "national": np.where(np.arange(n) == 5, np.nan, rng.random(n) * 100),
        "club_place": pd.array([str(i % 11 + 1) for i in range(n)], dtype="string")})


def test_every_pair_on_the_sheet_and_in_the_csv(tmp_path: Path,
                                               monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(national_book, "BLOCK", 7)  # several blocks of rows
    frame = ranking(40)
    csv, xlsx = write_national(frame, tmp_path, "mp", "Spring sim & more")
    back = pd.read_csv(csv, keep_default_na=False)
    assert list(back.columns) == ["Place", "Club", "Line", "Pair", "Names", "Boards",
                                  "National %", "Place in club"]  # no empty Section
    expected = frame["names"].tolist()
    assert back["Names"].tolist() == [*expected[:3], "'" + expected[3], *expected[4:]]
    sheet = openpyxl.load_workbook(xlsx)["National ranking"]
    rows = list(sheet.iter_rows(values_only=True))
    assert rows[0][0] == "Spring sim & more" and rows[2][0] == "Place"
    data = rows[3:]
    assert len(data) == len(frame)
    assert [r[4] for r in data] == frame["names"].tolist()
    assert data[3][4] == "=HYPERLINK(\"http://x\")" and sheet.cell(7, 5).data_type == "s"
    assert [r[3] for r in data] == frame["pair"].tolist()
    assert data[5][6] is None  # no figure: an empty cell
    shown = frame["national"].round(2)
    assert [r[6] for r in data if r[6] is not None] == shown.dropna().tolist()
    assert sheet.freeze_panes == "A4" and sheet.auto_filter.ref == "A3:H43"
    assert sheet.cell(4, 7).number_format == "0.00"
    assert sheet.print_title_rows == "$3:$3" and sheet.page_setup.orientation == "landscape"
    assert "Spring sim && more" in sheet.oddHeader.left.text


def test_a_field_longer_than_a_sheet_keeps_its_first_rows_and_says_so(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    import traveller.publish.workbook as workbook

    monkeypatch.setattr(workbook, "EXCEL_ROWS", 20)  # a sheet of 20 rows
    frame = ranking(30)
    csv, xlsx = write_national(frame, tmp_path, "ximp", "Sim")
    assert len(pd.read_csv(csv)) == 30  # the CSV has every pair
    rows = list(openpyxl.load_workbook(xlsx)["National ranking"].iter_rows(values_only=True))
    assert rows[1][0] == ("The first 16 of 30 pairs: an Excel sheet holds no more. Every pair "
                          "is in national_ranking.csv, beside this workbook.")
    assert rows[3][6] == "National IMPs per board"
    assert len(rows) == 20 and rows[-1][4] == frame["names"][15]


def test_a_half_rounds_away_from_zero_as_every_output_prints_it(tmp_path: Path) -> None:
    """55.125 is 55.13 on the sheet and in the CSV, as the clubs' workbooks and pages show
    a half (numpy's round would give 55.12, to even)."""
    frame = ranking(4).assign(national=[55.125, 79.975, 14.125, 50.0])
    csv, xlsx = write_national(frame, tmp_path, "mp", "Sim")
    assert pd.read_csv(csv)["National %"].tolist() == [55.13, 79.98, 14.13, 50.0]
    rows = list(openpyxl.load_workbook(xlsx)["National ranking"].iter_rows(values_only=True))
    assert [r[6] for r in rows[3:]] == [55.13, 79.98, 14.13, 50.0]
