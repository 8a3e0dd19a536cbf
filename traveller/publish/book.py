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
from xlsxwriter.utility import xl_col_to_name
from xlsxwriter.worksheet import Worksheet

#: xlsxwriter releases whose internals the fast path was read against: [first, last).
TESTED_RELEASES = ((3, 3), (3, 4))
_CELL_TUPLES = {"CellNumberTuple": ("Number", ("number", "format")),
                "CellStringTuple": ("String", ("string", "format"))}
_METHODS = ("_write_rows", "_write_single_row", "_write_row", "_write_empty_row", "_write_cell",
            "_check_dimensions", "_write_string", "_write_number")
_STATE = ("table", "str_table", "constant_memory", "previous_row", "row_info", "col_info",
          "comments", "row_spans", "xls_rowmax", "xls_colmax", "xls_strmax", "fh",
          "dim_rowmin", "dim_rowmax", "dim_colmin", "dim_colmax")


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
    stores a row's finite numbers and plain texts (not over 16,383
    characters, not starting ``<r>``) straight into the cell table,
    ``table[row][col] = CellNumberTuple(number, format)`` /
    ``CellStringTuple(str_table._get_shared_string_index(text), format)``
    (the text itself in constant-memory mode, after ``_write_single_row``
    has sent the previous row to disk when ``row > previous_row``), and
    extends the sheet through ``_check_dimensions`` once per row, instead
    of one ``write_*`` call per cell. In an in-memory workbook
    :meth:`_write_rows` prints the
    ``<row>`` elements as xlsxwriter's does (``row_spans`` per 16 rows,
    ``_write_row``/``_write_empty_row`` with ``row_info``) and each number
    or shared-string cell's ``<c>`` element itself, styled by the cell's
    format, else ``row_info[row].row_format``, else
    ``col_info[col].column_format``; other cells go to ``_write_cell``.
    Anything else (other values, a constant-memory sheet, comments) goes
    through xlsxwriter's own code. The bytes written are the same either
    way (tests/test_publish_speed_identical.py).
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
        if FAST and 0 <= row < self.xls_rowmax and len(values) <= self.xls_colmax \
                and (not self.constant_memory or row >= self.previous_row):
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
        if not any(v is not None for v in values):
            return
        inline = self.constant_memory
        if inline and row > self.previous_row:
            self._write_single_row(row)  # the previous row goes to disk
        cells, shared, longest = self.table[row], self.str_table, self.xls_strmax // 2
        first = last = -1
        for col, value in enumerate(values):
            if value is None:
                continue
            kind = value.__class__
            if kind is str and len(value) <= longest and not value.startswith("<r>"):
                cells[col] = xw.CellStringTuple(
                    value if inline else shared._get_shared_string_index(value), formats[col])
            elif (kind is float or kind is int) and value - value == 0:  # finite
                cells[col] = xw.CellNumberTuple(value, formats[col])
            else:
                self._put(row, col, value, formats[col])
                continue
            first, last = (col if first < 0 else first), col
        if first >= 0:
            self._check_dimensions(row, first)
            self._check_dimensions(row, last)

    def _write_rows(self) -> None:
        if not FAST or self.constant_memory or self.comments or self.dim_colmin is None:
            super()._write_rows()
            return
        table, info, write = self.table, self.row_info, self.fh.write
        blocks: dict[int, tuple[int, int]] = {}
        for row, cells in table.items():
            if cells:
                lo, hi = blocks.get(row // 16, (self.xls_colmax, -1))
                blocks[row // 16] = (min(lo, *cells), max(hi, *cells))
        self.row_spans = spans = {b: f"{lo + 1}:{hi + 1}" for b, (lo, hi) in blocks.items()}
        letters = {col: xl_col_to_name(col) for col in range(self.dim_colmin, self.dim_colmax + 1)}
        columns = {col: i.column_format for col, i in self.col_info.items()}
        for row in sorted(r for r in {*table, *info} if self.dim_rowmin <= r <= self.dim_rowmax):
            cells, span = table.get(row), spans.get(row // 16)
            if not cells:
                if row in info:
                    self._write_empty_row(row, span, info[row])
                continue
            self._write_row(row, span, info.get(row))
            row_format = info[row].row_format if row in info else None
            for col in sorted(cells):
                cell = cells[col]
                kind = cell.__class__
                if kind is not xw.CellNumberTuple and kind is not xw.CellStringTuple:
                    self._write_cell(row, col, cell)
                    continue
                style = cell.format or row_format or columns.get(col)
                s = "" if style is None else f' s="{style._get_xf_index()}"'
                if kind is xw.CellNumberTuple:
                    write(f'<c r="{letters[col]}{row + 1}"{s}><v>{cell.number:.16G}</v></c>')
                else:
                    write(f'<c r="{letters[col]}{row + 1}"{s} t="s"><v>{cell.string}</v></c>')
            write("</row>")


class Workbook(xlsxwriter.Workbook):
    """``xlsxwriter.Workbook`` whose worksheets write every text as text."""

    worksheet_class = TextSafeWorksheet
