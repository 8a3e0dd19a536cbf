"""The workbook is safe to open and complete: text stays text, nothing past Excel's rows lost."""

from __future__ import annotations

import csv
from pathlib import Path

import openpyxl
import pandas as pd

from traveller import process, write_workbook

SAMPLES = Path(__file__).resolve().parent.parent / "sample_data"
HOSTILE = ["=1+1", "=HYPERLINK(\"http://x\",\"y\")", "+cmd|' /C calc'!A0", "@SUM(A1)",
           "http://example.com/x", "<r>A & B</r>"]  # the last one xlsxwriter took for raw XML


def _hostile_session(tmp_path: Path) -> tuple[Path, Path]:
    """The sample session with formula-like leads, an extra column and a names file."""
    with (SAMPLES / "club_session.csv").open(encoding="utf-8") as handle:
        rows = list(csv.reader(handle))
    rows[0].append("=Note")
    for i, row in enumerate(rows[1:]):
        row.append(HOSTILE[i % len(HOSTILE)])
    rows[1][rows[0].index("Lead")] = "=A1"
    session = tmp_path / "hostile.csv"
    with session.open("w", newline="", encoding="utf-8") as handle:
        csv.writer(handle).writerows(rows)
    names = tmp_path / "names.csv"
    names.write_text("Pair,Line,Player 1,Player 2\n1,NS,=1+1,http://example.com\n"
                     "2,EW,@x,-2+3\n3,NS,<r><t>Ann</t></r>,Bob\n", encoding="utf-8")
    return session, names


def test_every_text_cell_is_text_never_a_formula_or_link(tmp_path: Path) -> None:
    session, names = _hostile_session(tmp_path)
    result = process(session, names=names)
    book = openpyxl.load_workbook(write_workbook(result, tmp_path / "r.xlsx"))
    seen = set()
    for sheet in book.worksheets:
        assert not sheet._hyperlinks, sheet.title
        for row in sheet.iter_rows():
            for cell in row:
                assert cell.data_type != "f", (sheet.title, cell.coordinate, cell.value)
                if isinstance(cell.value, str):
                    seen.add(cell.value)
    assert {"=Note", "=1+1", "http://example.com/x", "@SUM(A1)", "<r>A & B</r>"} <= seen
    assert any(v.startswith("=1+1") for v in seen)  # the names, as typed
    assert any("<r><t>Ann</t></r>" in v for v in seen)


def test_a_result_written_as_equals_stays_the_text(tmp_path: Path) -> None:
    session = tmp_path / "eq.csv"
    session.write_text("Board,NS,EW,Contract,By,Result\n1,1,1,4S,N,=\n1,2,2,4S,N,+1\n"
                       "2,1,2,3NT,S,=\n2,2,1,3NT,S,-1\n", encoding="utf-8")
    book = openpyxl.load_workbook(write_workbook(process(session), tmp_path / "r.xlsx"))
    sheet = book["Travellers"]
    head = [c.value for c in sheet[1]]
    written = [r[head.index("Result (as written)")] for r in sheet.iter_rows(min_row=2)]
    cells = [c for c in written if c.value is not None]
    assert {c.value for c in cells} >= {"=", "+1"}
    assert all(c.data_type == "s" for c in cells)


def test_past_the_row_limit_nothing_is_truncated(tmp_path: Path) -> None:
    result = process(SAMPLES / "club_session.csv")
    out = write_workbook(result, tmp_path / "r.xlsx", row_limit=150)
    book = openpyxl.load_workbook(out)
    assert "Travellers" not in book.sheetnames and "Score cards" not in book.sheetnames
    notes = [c.value for c in book["Ranking"]["A"] if isinstance(c.value, str)]
    assert any("all of it is in r.travellers.csv beside this workbook" in n for n in notes)
    travellers = pd.read_csv(tmp_path / "r.travellers.csv")
    assert len(travellers) == len(result.travellers) == 192
    cards = pd.read_csv(tmp_path / "r.score_cards.csv")
    assert len(cards) == len(result.score_cards)
    assert "Frequencies" in book.sheetnames  # what fits stays in the workbook


def test_a_sheet_of_numbers_and_texts_past_the_row_limit_goes_to_csv_whole(
        tmp_path: Path) -> None:
    result = process(SAMPLES / "club_session.csv")
    out = write_workbook(result, tmp_path / "r.xlsx", row_limit=5)  # even the Summary
    assert "Summary" not in openpyxl.load_workbook(out).sheetnames
    summary = pd.read_csv(tmp_path / "r.summary.csv", dtype=str, keep_default_na=False)
    written = set(map(tuple, summary.iloc[:, :2].to_numpy().tolist()))
    assert len(summary) > 5  # (the input's facts too)
    assert {(str(k), str(v)) for k, v in result.summary.iloc[:, :2].to_numpy().tolist()} <= written


def test_a_huge_session_past_excel_rows_is_never_truncated(tmp_path: Path) -> None:
    result = process(SAMPLES / "club_session.csv")
    out = write_workbook(result, tmp_path / "r.xlsx", row_limit=10**9)  # capped at Excel's
    assert "Travellers" in openpyxl.load_workbook(out).sheetnames


def test_title_date_club_and_status_printed_on_every_sheet(tmp_path: Path) -> None:
    result = process(SAMPLES / "club_session.csv")
    result.meta = {"title": "Tuesday Pairs & Co", "date": "2026-11-24", "club": "BC Warsaw",
                   "status": "Provisional results"}
    book = openpyxl.load_workbook(write_workbook(result, tmp_path / "r.xlsx"))
    assert book["Ranking"]["A1"].value == "Tuesday Pairs & Co"
    assert book["Ranking"]["A2"].value == "2026-11-24 · BC Warsaw"
    assert book["Ranking"]["A3"].value == "Provisional results"
    # the Ranking prints them once, above the table; every other sheet in its page header
    assert not book["Ranking"].oddHeader.left.text
    for sheet in book.worksheets[1:]:
        assert sheet.oddHeader.left.text == "Tuesday Pairs && Co", sheet.title
        assert sheet.oddFooter.center.text == "2026-11-24 · BC Warsaw · Provisional results"
