"""The xlsxwriter workbook every publication is written with: any text stays that text.

xlsxwriter takes a text that starts with ``<r>`` and ends with ``</r>`` for
ready-made rich-text XML and writes it into the file unescaped, so a name
such as ``<r>A & B</r>`` from an input would make a workbook that Excel
repairs and other readers refuse. Our worksheets write such a text as a rich
string of plain pieces instead, which xlsxwriter escapes: the cell shows
exactly the text the input had.

A club session's workbook is about 10,000 cells, nearly all numbers and
plain texts, and xlsxwriter spends most of the write on them; our worksheets
store and print those cells more directly (see :class:`TextSafeWorksheet`).
"""

from __future__ import annotations

import dataclasses
from collections.abc import Sequence
from typing import Any

import xlsxwriter
from xlsxwriter import worksheet as xw
from xlsxwriter.utility import xl_rowcol_to_cell_fast
from xlsxwriter.worksheet import Worksheet

#: xlsxwriter releases whose internals the fast path was read against: [first, last).
TESTED_RELEASES = ((3, 3), (3, 4))
_CELL_TUPLES = {"CellNumberTuple": ("Number", ("number", "format")),
                "CellStringTuple": ("String", ("string", "format"))}
_METHODS = ("_write_cell", "_check_dimensions", "_write_string", "_write_number")
_STATE = ("table", "str_table", "constant_memory", "row_info", "col_info", "xls_rowmax",
          "xls_colmax", "xls_strmax", "fh", "dim_rowmin")


def internals_ok() -> bool:
    """True when the installed xlsxwriter has the internals the fast path relies on."""
    try:
        release = tuple(int(p) for p in xlsxwriter.__version__.split(".")[:2])
        tuples = all((getattr(xw, name).__name__, getattr(xw, name)._fields) == shape
                     for name, shape in _CELL_TUPLES.items())
        infos = ({"row_format"} <= {f.name for f in dataclasses.fields(xw.RowInfo)}
                 and {"column_format"} <= {f.name for f in dataclasses.fields(xw.ColumnInfo)})
        probe = Worksheet()
        state = all(hasattr(probe, name) for name in _STATE)
        methods = all(callable(getattr(Worksheet, name, None)) for name in _METHODS)
    except Exception:  # anything unexpected: the stock path
        return False
    return TESTED_RELEASES[0] <= release < TESTED_RELEASES[1] and tuples and infos \
        and state and methods


#: The fast path is on (tests turn it off to compare the bytes written both ways).
FAST = internals_ok()


class TextSafeWorksheet(Worksheet):
    """A worksheet on which every text is written as text (see the module docstring).

    Fast path (``FAST``; off unless :func:`internals_ok`): :meth:`put_row`
    stores a row's numbers and plain texts straight into the worksheet's
    cell table (``table[row][col]`` = xlsxwriter's ``CellNumberTuple`` /
    ``CellStringTuple``, the text's index from ``str_table``, the sheet's
    extent through ``_check_dimensions``) instead of one ``write_*`` call
    per cell, in an in-memory workbook; :meth:`_write_cell` prints a number
    or shared-string cell's ``<c>`` element itself, exactly as xlsxwriter's
    ``_write_cell`` does (style from the cell's format, else the row's,
    else the column's: ``row_info[row].row_format``,
    ``col_info[col].column_format``). Anything else (non-finite numbers,
    long or rich-looking texts, other types, inline strings of a
    constant-memory sheet) goes through xlsxwriter's own code. The bytes
    written are the same either way (tests/test_publish_speed_identical.py).
    """

    def _write_string(self, row: int, col: int, string: str,
                      cell_format: Any = None) -> Any:
        if string.startswith("<r>") and string.endswith("</r>"):
            # three plain pieces (xlsxwriter needs more than two); each is escaped
            pieces = [string[:1], string[1:2], string[2:]]
            return self._write_rich_string(row, col, *pieces,
                                           *([cell_format] if cell_format is not None else []))
        return super()._write_string(row, col, string, cell_format)

    def put_row(self, row: int, values: Sequence[Any], formats: Sequence[Any]) -> None:
        """Write ``values[j]`` into column ``j`` of ``row`` with ``formats[j]``; None: no cell.

        A text is written with ``write_string``, an int or float with
        ``write_number``, anything else with ``write``: the cells are those of
        writing each value on its own.
        """
        if FAST and not self.constant_memory and 0 <= row < self.xls_rowmax \
                and len(values) <= self.xls_colmax:
            self._put_fast(row, values, formats)
            return
        for col, value in enumerate(values):
            if value is not None:
                self._put(row, col, value, formats[col])

    def _put(self, row: int, col: int, value: Any, cell_format: Any) -> None:
        kind = value.__class__
        if kind is str:
            self.write_string(row, col, value, cell_format)
        elif kind is float or kind is int:
            self.write_number(row, col, value, cell_format)
        else:
            self.write(row, col, value, cell_format)

    def _put_fast(self, row: int, values: Sequence[Any], formats: Sequence[Any]) -> None:
        had_row = row in self.table
        cells, shared, longest = self.table[row], self.str_table, self.xls_strmax // 2
        first = last = -1
        for col, value in enumerate(values):
            if value is None:
                continue
            kind = value.__class__
            if kind is str and len(value) <= longest and not value.startswith("<r>"):
                cells[col] = xw.CellStringTuple(shared._get_shared_string_index(value),
                                                formats[col])
            elif (kind is float or kind is int) and value - value == 0:  # finite
                cells[col] = xw.CellNumberTuple(value, formats[col])
            else:
                self._put(row, col, value, formats[col])
                continue
            first, last = (col if first < 0 else first), col
        if first >= 0:
            self._check_dimensions(row, first)
            self._check_dimensions(row, last)
        elif not had_row and not cells:
            del self.table[row]

    def _write_cell(self, row: int, col: int, cell: Any) -> None:
        kind = cell.__class__
        if not FAST or not (kind is xw.CellNumberTuple
                            or (kind is xw.CellStringTuple and not self.constant_memory)):
            super()._write_cell(row, col, cell)
            return
        style = cell.format
        if style is None:
            if row in self.row_info and self.row_info[row].row_format:
                super()._write_cell(row, col, cell)
                return
            style = self.col_info[col].column_format if col in self.col_info else None
        s = "" if style is None else f' s="{style._get_xf_index()}"'
        ref = xl_rowcol_to_cell_fast(row, col)
        if kind is xw.CellNumberTuple:
            self.fh.write(f'<c r="{ref}"{s}><v>{cell.number:.16G}</v></c>')
        else:
            self.fh.write(f'<c r="{ref}"{s} t="s"><v>{cell.string}</v></c>')


class Workbook(xlsxwriter.Workbook):
    """``xlsxwriter.Workbook`` whose worksheets write every text as text."""

    worksheet_class = TextSafeWorksheet
