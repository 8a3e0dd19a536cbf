"""Edge cases of the worksheet's fast cell path, each written both ways and compared byte for byte.

tests/test_publish_speed_identical.py compares whole publications; this file
writes one small workbook that reaches every branch of the fast path (number
texts made once per value, blank runs, row and column formats, rows with
their own height or format, cells the fast path hands to xlsxwriter, a
formula prepared once) with the fast path on and off.
"""

from __future__ import annotations

import re
import zipfile
from decimal import Decimal
from pathlib import Path
from typing import Any

import numpy as np
import pytest
import xlsxwriter

from traveller.publish import book, pending, printer

_STAMP = re.compile(rb"(<dcterms:(?:created|modified)[^>]*>)[^<]*(</dcterms:)")
NUMBERS = [0, -0.0, 0.0, 1, 1.0, -7, 9.3, 52.345, 1 / 3, 2**53 + 1, 10**17, -(10**15), 1e20,
           1.5e-7, 123456789012.5, True, Decimal("1.50"), 1.5, Decimal("1.5"), np.float64(0.1),
           np.int64(42)]
ERRORS = [float("nan"), float("inf"), -float("inf")]  # cells only with nan_inf_to_errors
TEXTS = ["", "plain", "<r>A & B</r>", "  padded", "a\x01b", "x" * 17_000, "=1+1", "<b>"]


def _members(path: Path) -> dict[str, bytes]:
    with zipfile.ZipFile(path) as archive:
        out = {info.filename: archive.read(info) for info in archive.infolist()}
    out["docProps/core.xml"] = _STAMP.sub(rb"\1\2", out["docProps/core.xml"])
    return out


def _sheet(workbook: Any, name: str, tall_rows: bool, numbers: list[Any]) -> None:
    bold = workbook.add_format({"bold": True})
    money = workbook.add_format({"num_format": "0.00"})
    shade = workbook.add_format({"bg_color": "#F2F2F2"})
    plain_twin = workbook.add_format({})  # same properties as the default format
    sheet = workbook.add_worksheet(name)
    if tall_rows:
        sheet.set_default_row(24)
    sheet.set_column(1, 1, 12, money)
    sheet.set_column(3, 4, 9, shade)
    sheet.set_row(2, None, bold)  # a row format: cells without their own use it
    sheet.set_row(3, 30)  # a row with its own height only
    sheet.put_row(0, ["head", "b", None, "d"], [bold, None, None, plain_twin])
    for i in range(1, 40):
        values = [numbers[(i + j) % len(numbers)] for j in range(3)] + [
            TEXTS[i % len(TEXTS)], None, numbers[i % len(numbers)]]
        formats = [None, money if i % 3 else None, None, bold if i % 5 == 0 else None,
                   None, plain_twin if i % 4 == 0 else None]
        sheet.put_row(i, values, formats)
    sheet.put_blanks(41, range(0, 5), shade)
    sheet.put_row(41, ("a heading",), (shade,))
    sheet.put_blanks(42, range(2, 4), None)  # no format: no cells, as write_blank
    sheet.put_blanks(43, range(0, 0), shade)
    sheet.write_blank(44, 6, None, bold)
    sheet.merge_range(45, 0, 45, 3, "merged", bold)
    sheet.write_formula(46, 0, "=SUM(A2:A10)", money)
    sheet.write_boolean(46, 1, False)
    sheet.put_row(50, [None, None], [None, None])  # nothing at all
    sheet.set_row(60, 18)  # a row with a height and no cells
    sheet.put_row(70, [1.25] * 20, [None] * 20)  # past the columns seen so far
    sheet.put_row(72, [1, "x", 2.5], [None] * 3)  # rows written over: the later cells win
    sheet.put_row(72, [None, "y", None, 7], [None, bold, None, None])
    sheet.put_row(73, [3, "z", "zz"], [None] * 3)
    sheet.put_blanks(73, range(1, 3), shade)
    sheet.put_row(74, [4, "w", 5], [money, None, None])
    sheet.write_string(74, 1, "over", bold)
    sheet.write_number(74, 4, 8)
    sheet.put_row(75, [6, "v"], [None, None])
    sheet.set_row(75, 25)  # its height after its cells
    sheet.put_row(76, [7, "u"], [None, shade])
    sheet.put_row(77, [8, "t"], [None, None])
    sheet.conditional_format(1, 0, 70, 5, {"type": "formula", "criteria": "=ISODD($A2)",
                                           "format": shade})
    sheet.conditional_format(1, 0, 70, 5, {"type": "formula", "criteria": "=XLOOKUP(1,A:A,B:B)",
                                           "format": bold})


def _write(path: Path, options: dict[str, Any]) -> Path:
    workbook = book.Workbook(path, options)
    numbers = NUMBERS + ERRORS if options.get("nan_inf_to_errors") else NUMBERS
    _sheet(workbook, "One", False, numbers)
    _sheet(workbook, "Two", True, numbers)  # strings shared with the first sheet
    workbook.close()
    return path


@pytest.mark.parametrize("options", [{"in_memory": True}, {"constant_memory": True},
                                     {"in_memory": True, "nan_inf_to_errors": True},
                                     {"in_memory": True, "use_future_functions": True}],
                         ids=["in-memory", "constant-memory", "nan-as-errors", "future"])
def test_edge_cells_are_byte_identical(tmp_path: Path, monkeypatch: pytest.MonkeyPatch,
                                       options: dict[str, Any]) -> None:
    if not book.internals_ok():
        pytest.skip(f"fast path off for xlsxwriter {xlsxwriter.__version__}")
    monkeypatch.setattr(pending, "BLOCK", 4)  # constant-memory rows printed 5 at a time
    written = {}
    for fast in (True, False):
        monkeypatch.setattr(book, "FAST", fast)
        book._FORMULAS.clear()
        written[fast] = _members(_write(tmp_path / f"{fast}.xlsx", options))
    assert list(written[True]) == list(written[False])
    assert [m for m in written[True] if written[True][m] != written[False][m]] == []
    sheet = written[True]["xl/worksheets/sheet1.xml"]
    assert b"<v>9.300000000000001</v>" in sheet  # .16G, not the shortest repr
    assert b'<c r="A43"' not in sheet  # blanks without a format are not cells


def test_fast_path_prints_blank_runs_and_repeated_numbers(tmp_path: Path,
                                                          monkeypatch: pytest.MonkeyPatch) -> None:
    """The blank run and the numbers really go through the fast path when it is on."""
    if not book.internals_ok():
        pytest.skip(f"fast path off for xlsxwriter {xlsxwriter.__version__}")
    monkeypatch.setattr(book, "FAST", True)
    stock = {"cells": 0}
    original = xlsxwriter.worksheet.Worksheet._write_cell

    def counted(self: Any, *args: Any) -> Any:
        stock["cells"] += 1
        return original(self, *args)
    monkeypatch.setattr(xlsxwriter.worksheet.Worksheet, "_write_cell", counted)
    workbook = book.Workbook(tmp_path / "b.xlsx", {"in_memory": True})
    sheet = workbook.add_worksheet()
    shade = workbook.add_format({"bg_color": "#F2F2F2"})
    for row in range(50):
        sheet.put_blanks(row, range(10), shade)
        sheet.put_row(row, [0.1 * (row % 3), row, "t"], [None, None, None])
    workbook.close()
    assert stock["cells"] == 0


def test_constant_memory_rows_go_through_the_fast_path(tmp_path: Path,
                                                       monkeypatch: pytest.MonkeyPatch) -> None:
    """Rows sent to disk one by one: inline texts, caches emptied, column formats set late."""
    if not book.internals_ok():
        pytest.skip(f"fast path off for xlsxwriter {xlsxwriter.__version__}")
    monkeypatch.setattr(printer, "REMEMBERED", 5)  # the caches are emptied as they go
    monkeypatch.setattr(pending, "BLOCK", 6)  # rows printed 7 at a time
    written, stock = {}, {"cells": 0}
    original = xlsxwriter.worksheet.Worksheet._write_cell

    def counted(self: Any, *args: Any) -> Any:
        stock["cells"] += 1
        return original(self, *args)
    monkeypatch.setattr(xlsxwriter.worksheet.Worksheet, "_write_cell", counted)
    for fast in (True, False):
        monkeypatch.setattr(book, "FAST", fast)
        stock["cells"] = 0
        workbook = book.Workbook(tmp_path / f"{fast}.xlsx", {"constant_memory": True})
        sheet = workbook.add_worksheet()
        shade, bold = workbook.add_format({"bg_color": "#F2F2F2"}), workbook.add_format({"bold": 1})
        sheet.set_column(0, 0, 10, bold)
        for row in range(60):
            if row == 30:
                sheet.set_column(1, 2, 12, shade)  # a column format from here on
            if row == 45:
                sheet.set_default_row(22)  # every later <row> gets a height
            sheet.put_row(row, [row / 7, TEXTS[row % len(TEXTS)], f" t{row % 9} ", row % 4],
                          [None, None, bold if row % 5 else None, None])
            if fast and row > 1:  # what is remembered stays bounded
                assert len(sheet._pending or ()) <= pending.BLOCK + 1
                if sheet._known is not None:  # (rows of rich texts: cells) 5 and a row's 4
                    assert sum(map(len, sheet._known.values())) <= 9
                if sheet._printer is not None:  # 5 and a block's rows' 4 each
                    kept = (len(sheet._printer.numbers), len(sheet._printer.texts),
                            sum(len(known) for kept_rows in sheet._printer.rests.values()
                                for known in kept_rows))
                    assert max(kept) <= 5 + 4 * (pending.BLOCK + 2)
        workbook.close()
        written[fast] = (_members(tmp_path / f"{fast}.xlsx"), stock["cells"])
    assert written[True][0] == written[False][0]
    assert written[True][1] < written[False][1] / 10  # only the rich texts go to xlsxwriter


def test_a_rich_looking_inline_text_is_left_to_xlsxwriter() -> None:
    """Texts stored by xlsxwriter's own code as ready-made rich text keep its printing."""
    workbook = book.Workbook(None, {"constant_memory": True, "in_memory": True})
    cells = printer.Printer(workbook.add_worksheet())
    assert cells.text("<r>x</r>") == ""
    assert cells.text(" a&b ") == (' t="inlineStr"><is><t xml:space="preserve"> a&amp;b </t>'
                                   "</is></c>")


def test_kept_rows_of_a_sheet_with_comments_go_through_xlsxwriter(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """A comment sends the sheet's rows through xlsxwriter's code: kept rows become cells."""
    if not book.internals_ok():
        pytest.skip(f"fast path off for xlsxwriter {xlsxwriter.__version__}")
    written = {}
    for fast in (True, False):
        monkeypatch.setattr(book, "FAST", fast)
        workbook = book.Workbook(tmp_path / f"{fast}.xlsx", {"in_memory": True})
        sheet, bold = workbook.add_worksheet(), workbook.add_format({"bold": True})
        for row in range(30):
            sheet.put_row(row, [row, f"t{row % 4}", 1.5 * row, None, "x"],
                          [None, bold if row % 3 else None, None, None, None])
        sheet.write_comment(2, 1, "a note")
        sheet.write_string(5, 0, "over", bold)
        workbook.close()
        written[fast] = _members(tmp_path / f"{fast}.xlsx")
    assert written[True] == written[False]


def test_pending_rows_print_in_xlsxwriter_order(tmp_path: Path,
                                               monkeypatch: pytest.MonkeyPatch) -> None:
    """Constant-memory rows kept for a block print as xlsxwriter prints them row by row: a
    format first used by a pending row of one sheet takes its index before the next sheet's,
    a comment or a later cell written into the pending row, a height after its cells."""
    if not book.internals_ok():
        pytest.skip(f"fast path off for xlsxwriter {xlsxwriter.__version__}")
    monkeypatch.setattr(pending, "BLOCK", 3)
    written, kept = {}, []
    for fast in (True, False):
        monkeypatch.setattr(book, "FAST", fast)
        workbook = book.Workbook(tmp_path / f"{fast}.xlsx", {"constant_memory": True})
        first, second = workbook.add_format({"italic": 1}), workbook.add_format({"bold": 1})
        one = workbook.add_worksheet("One")
        for row in range(1, 12):
            one.put_row(row, [row, f"r{row}", row / 4], [None, first if row == 9 else None,
                                                          None])
        two = workbook.add_worksheet("Two")
        kept.append(len(one._pending or ()) if fast else 1)
        for row in range(1, 9):
            two.put_row(row, [row, "s"], [second, None])
            if row == 4:
                two.write_string(4, 1, "over")  # into the pending row: the later cell wins
            if row == 6:
                two.set_row(6, 30)
        two.write_comment(8, 0, "a note")
        two.put_row(9, [9, "after the note"], [None, None])
        workbook.close()
        written[fast] = _members(tmp_path / f"{fast}.xlsx")
    assert kept[0] == 1  # the next sheet printed One's rows but its last
    assert written[True] == written[False]
    assert b"<t>over</t>" in written[True]["xl/worksheets/sheet2.xml"]
