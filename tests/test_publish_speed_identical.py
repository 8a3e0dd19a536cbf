"""The worksheet's fast path for plain cells writes exactly the bytes xlsxwriter writes.

``traveller.publish.book`` stores numbers and plain texts into xlsxwriter's
cell table and prints their XML itself when the installed xlsxwriter has the
internals it was written against; otherwise it uses xlsxwriter's own code.
Every ZIP member of each workbook below is compared byte for byte, written
with the fast path on and off (only the creation time in docProps/core.xml
differs from run to run).
"""

from __future__ import annotations

import csv
import re
import zipfile
from collections.abc import Callable
from pathlib import Path

import pytest
import xlsxwriter
from conftest import SAMPLE_DATA
from xlsxwriter import worksheet as xw

import traveller
from traveller import process, write_workbook
from traveller.publish import book, workbook

_STAMP = re.compile(rb"(<dcterms:(?:created|modified)[^>]*>)[^<]*(</dcterms:)")
HOSTILE = ["=1+1", "<r>A & B</r>", "<r>not closed", "  padded  ", "a\x01b", "_x0041_",
           "x" * 20_000]


def _members(path: Path) -> dict[str, bytes]:
    with zipfile.ZipFile(path) as archive:
        out = {info.filename: archive.read(info) for info in archive.infolist()}
    out["docProps/core.xml"] = _STAMP.sub(rb"\1\2", out["docProps/core.xml"])
    return out


def _hostile(tmp_path: Path) -> Path:
    """The club session with an extra column of texts xlsxwriter treats specially."""
    with (SAMPLE_DATA / "club_session.csv").open(encoding="utf-8") as handle:
        rows = list(csv.reader(handle))
    rows[0].append("Note")
    for i, row in enumerate(rows[1:]):
        row.append(HOSTILE[i % len(HOSTILE)])
    path = tmp_path / "hostile.csv"
    with path.open("w", newline="", encoding="utf-8") as handle:
        csv.writer(handle).writerows(rows)
    return path


def _both_ways(tmp_path: Path, monkeypatch: pytest.MonkeyPatch,
               write: Callable[[Path], object]) -> tuple[dict[str, bytes], dict[str, bytes]]:
    if not book.internals_ok():
        pytest.skip(f"fast path off for xlsxwriter {xlsxwriter.__version__}")
    monkeypatch.setattr(book, "FAST", True)
    write(tmp_path / "fast.xlsx")
    monkeypatch.setattr(book, "FAST", False)
    write(tmp_path / "stock.xlsx")
    return _members(tmp_path / "fast.xlsx"), _members(tmp_path / "stock.xlsx")


@pytest.mark.parametrize("case", ["club_session.csv", "problems_session.csv",
                                  "rulings_session.csv", "club_session_pl.xlsx", "butler",
                                  "hostile", "hostile-constant-memory"])
def test_fast_and_stock_workbooks_are_byte_identical(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch, case: str) -> None:
    if case == "butler":
        result = process(SAMPLE_DATA / "club_session.csv", method="butler")
    elif case.startswith("hostile"):
        result = process(_hostile(tmp_path))
    else:
        result = process(SAMPLE_DATA / case)
    if case.endswith("constant-memory"):
        monkeypatch.setattr(workbook, "IN_MEMORY_ROWS", 0)
    fast, stock = _both_ways(tmp_path, monkeypatch, lambda p: write_workbook(result, p))
    assert list(fast) == list(stock)
    assert [m for m in fast if fast[m] != stock[m]] == []


def test_score_pad_is_byte_identical(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    result = traveller.rubber(SAMPLE_DATA / "home_rubber.csv")
    fast, stock = _both_ways(tmp_path, monkeypatch, result.to_excel)
    assert fast == stock


def test_the_fast_path_really_runs(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """With it on, few cells go through xlsxwriter's own write_number and _write_cell."""
    if not book.internals_ok():
        pytest.skip(f"fast path off for xlsxwriter {xlsxwriter.__version__}")
    result = process(SAMPLE_DATA / "club_session.csv")
    calls = {"stock": 0}
    for name in ("_write_number", "_write_cell"):
        original = getattr(xw.Worksheet, name)

        def counted(self: object, *args: object, _original: Callable = original) -> object:
            calls["stock"] += 1
            return _original(self, *args)
        monkeypatch.setattr(xw.Worksheet, name, counted)
    for fast in (False, True):
        monkeypatch.setattr(book, "FAST", fast)
        calls["stock"] = 0
        write_workbook(result, tmp_path / f"{fast}.xlsx")
        calls[fast] = calls["stock"]
    assert calls[True] < calls[False] / 10


def test_fast_path_is_off_unless_xlsxwriter_is_as_expected(
        monkeypatch: pytest.MonkeyPatch) -> None:
    assert book.internals_ok() == book.FAST
    if not book.internals_ok():
        return
    with monkeypatch.context() as patch:
        patch.setattr(xlsxwriter, "__version__", "3.2.5")  # row_info was a plain dict then
        assert not book.internals_ok()
    with monkeypatch.context() as patch:
        patch.setattr(xlsxwriter, "__version__", "4.0.0")
        assert not book.internals_ok()
    with monkeypatch.context() as patch:
        patch.delattr(xw, "CellStringTuple")
        assert not book.internals_ok()
    with monkeypatch.context() as patch:
        patch.setattr(xw, "CellNumberTuple", xw.CellBlankTuple)
        assert not book.internals_ok()
    with monkeypatch.context() as patch:
        patch.delattr(xw.Worksheet, "_check_dimensions")
        assert not book.internals_ok()
    assert book.internals_ok()


def test_stock_path_writes_the_workbook_when_internals_differ(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """With the fast path off (as for another xlsxwriter) the workbook is complete."""
    monkeypatch.setattr(book, "FAST", False)
    result = process(SAMPLE_DATA / "club_session.csv")
    members = _members(write_workbook(result, tmp_path / "r.xlsx"))
    assert len(re.findall(rb"<c ", members["xl/worksheets/sheet1.xml"])) > 100
