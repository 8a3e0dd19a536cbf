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
import html
import re
import zipfile
from collections.abc import Sequence
from pathlib import Path
from typing import Any

import xlsxwriter
from xlsxwriter import worksheet as xw
from xlsxwriter.sharedstrings import SharedStringTable
from xlsxwriter.worksheet import Worksheet

from traveller.publish import deflate, printer
from traveller.publish.pending import PendingRows
from traveller.publish.plain import LAST, SPAN_BITS, PlainRows
from traveller.publish.printer import BLANK, NEW, NUMBER, STRING, Printer

#: xlsxwriter releases whose internals the fast path was read against: [first, last).
TESTED_RELEASES = ((3, 3), (3, 4))
_CELL_TUPLES = {"CellNumberTuple": ("Number", ("number", "format")),
                "CellStringTuple": ("String", ("string", "format")),
                "CellBlankTuple": ("Blank", ("format",))}
_METHODS = ("_write_rows", "_write_single_row", "_write_row", "_write_empty_row", "_write_cell",
            "_check_dimensions", "_write_string", "_write_number", "_prepare_formula")
_STATE = ("table", "str_table", "constant_memory", "previous_row", "row_info", "col_info",
          "comments", "row_spans", "xls_rowmax", "xls_colmax", "xls_strmax", "fh",
          "dim_rowmin", "dim_rowmax", "dim_colmin", "dim_colmax", "excel_version",
          "default_row_height", "original_row_height", "use_future_functions")
_SHARED = ("string_table", "unique_count", "count")


def internals_ok() -> bool:
    """True when the installed xlsxwriter has the internals the fast path relies on."""
    try:
        release = tuple(int(p) for p in xlsxwriter.__version__.split(".")[:2])
        tuples = all((getattr(xw, name).__name__, getattr(xw, name)._fields) == shape
                     for name, shape in _CELL_TUPLES.items())
        infos = ({"row_format"} <= {f.name for f in dataclasses.fields(xw.RowInfo)}
                 and {"column_format"} <= {f.name for f in dataclasses.fields(xw.ColumnInfo)})
        probe = Worksheet()
        state = all(hasattr(probe, name) for name in _STATE) and all(
            hasattr(SharedStringTable(), name) for name in _SHARED)
        methods = all(callable(getattr(Worksheet, name, None)) for name in _METHODS)
    except Exception:  # anything unexpected: the stock path
        return False
    return TESTED_RELEASES[0] <= release < TESTED_RELEASES[1] and tuples and infos \
        and state and methods


#: The fast path is on (tests turn it off to compare the bytes written both ways).
FAST = internals_ok()
deflate.install()  # our workbooks are packed at deflate.LEVEL (anyone else's as before)

#: Formulas as xlsxwriter prepares them, by (formula, expand, use_future_functions).
_FORMULAS: dict[tuple[str, bool, bool], str] = {}


class TextSafeWorksheet(PendingRows, PlainRows, Worksheet):
    """A worksheet on which every text is written as text (see the module docstring).

    Fast path (``FAST``; off unless :func:`internals_ok`): :meth:`put_row`
    stores a row's finite numbers and plain texts (not over 16,383
    characters, not starting ``<r>``) straight into the cell table,
    ``table[row][col] = CellNumberTuple(number, format)`` /
    ``CellStringTuple(shared-string index, format)`` (the text itself in
    constant-memory mode, after ``_write_single_row`` has sent the previous
    row to disk when ``row > previous_row``), and :meth:`put_blanks` a run
    of formatted blank cells, extending the sheet through
    ``_check_dimensions`` once per row instead of one ``write_*`` call per
    cell. In memory, a new row of such values is kept as it is instead
    (:class:`~traveller.publish.plain.PlainRows`). The rows are printed by
    :class:`~traveller.publish.printer.Printer`
    (in-memory: :meth:`_write_rows`, with ``row_spans`` per 16 rows;
    constant-memory: :meth:`_write_single_row`, row by row): each number,
    text and blank cell's element itself, styled by the cell's format, else
    ``row_info[row].row_format``, else ``col_info[col].column_format``;
    other cells go to ``_write_cell`` and ``<row>`` tags with attributes to
    ``_write_row``. A sheet with comments, and any other value, goes
    through xlsxwriter's own code. The bytes written are the same either
    way (tests/test_publish_speed_identical.py, tests/test_publish_cells.py).
    """

    _printer: Printer | None = None  # constant-memory mode: prints each row as it goes to disk
    _known: dict[type, dict[Any, Any]] | None = None  # see _known_cells
    previous_row: int  # xlsxwriter's: the row constant-memory mode sends to disk next

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
            if self.constant_memory:
                if not self._put_pending(row, values, formats):
                    self._put_fast(row, values, formats)
            elif not self._put_plain(row, values, formats):
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
        if values.count(None) == len(values):
            return
        inline = self.constant_memory
        if inline and row > self.previous_row:
            self._write_single_row(row)  # the previous row goes to disk
        cells, shared, longest = self.table[row], self.str_table, self.xls_strmax // 2
        known, indices, texts = self._known_cells(), shared.string_table, 0
        first = last = -1
        for col, value, cell_format in zip(range(len(values)), values, formats, strict=False):
            kind = value.__class__
            # a cell without a format of its own is one tuple per value (tuples don't change)
            cell = known[kind].get(value) if cell_format is None and kind in known else None
            if cell is not None:
                texts += kind is str
            elif kind is str and len(value) <= longest and not value.startswith("<r>"):
                key = value if inline else indices.get(value)
                if key is None:  # a new shared string: the next index
                    key = indices[value] = shared.unique_count
                    shared.unique_count += 1
                texts += 1
                cell = NEW(STRING, (key, cell_format))
                if cell_format is None:
                    known[str][value] = cell
            elif kind is int or (kind is float and value - value == 0):  # finite
                cell = NEW(NUMBER, (value, cell_format))
                if cell_format is None and value:  # 0.0 and -0.0 are equal keys
                    known[kind][value] = cell
            elif value is None:
                continue
            else:
                self._put(row, col, value, cell_format)
                continue
            cells[col] = cell
            if first < 0:
                first = col
            last = col
        if not inline:
            shared.count += texts
        if first >= 0:
            self._check_dimensions(row, first)
            if last > self.dim_colmax:  # else a second check would change nothing
                self._check_dimensions(row, last)

    def _known_cells(self) -> dict[type, dict[Any, Any]]:
        """This sheet's cells without a format, per type and value."""
        if self._known is None:
            self._known = {str: {}, int: {}, float: {}}
        return self._known

    def put_blanks(self, row: int, cols: range, cell_format: Any) -> None:
        """``write_blank(row, col, None, cell_format)`` for each column in ``cols``."""
        lo, hi = (min(cols), max(cols)) if cols else (-1, -1)
        if FAST and cell_format is not None and lo >= 0 and hi < self.xls_colmax \
                and 0 <= row < self.xls_rowmax \
                and (not self.constant_memory or row >= self.previous_row):
            if self.constant_memory and row > self.previous_row:
                self._write_single_row(row)  # the previous row goes to disk
            self.table[row].update(dict.fromkeys(cols, NEW(BLANK, (cell_format,))))
            self._check_dimensions(row, lo)
            self._check_dimensions(row, hi)
            return
        for col in cols:
            self.write_blank(row, col, None, cell_format)

    def _prepare_formula(self, formula: str, expand_future_functions: bool = False) -> str:
        # about 180 regular-expression passes each time (the banding rule's formula, at
        # close), though the result depends only on these three values
        if not FAST or formula.__class__ is not str:
            return super()._prepare_formula(formula, expand_future_functions)
        key = (formula, bool(expand_future_functions), bool(self.use_future_functions))
        prepared = _FORMULAS.get(key)
        if prepared is None:
            if len(_FORMULAS) >= 1024:
                _FORMULAS.clear()
            prepared = _FORMULAS[key] = super()._prepare_formula(formula, expand_future_functions)
        return prepared

    def _write_rows(self) -> None:
        plain = self._plain_rows()
        for row in [r for r in plain if self.table.get(r)]:  # cells written over a kept row
            self._cells_of(row)
        if not FAST or self.constant_memory or self.comments or self.dim_colmin is None:
            for row in list(plain):
                self._cells_of(row)
            super()._write_rows()
            return
        table, info, low, high = self.table, self.row_info, self.dim_rowmin, self.dim_rowmax
        bounds = dict(self._kept_span)  # first and last column used (see SPAN_BITS)
        order = {}
        for row, cells in table.items():
            if cells and low <= row <= high:
                order[row] = cols = sorted(cells)
                bounds[row] = cols[0] << SPAN_BITS | cols[-1]
        blocks: dict[int, tuple[int, int]] = {}
        for row, used in bounds.items():  # xlsxwriter's spans: per 16 rows
            first, last = used >> SPAN_BITS, used & LAST
            seen = blocks.get(row >> 4)
            if seen is None:
                blocks[row >> 4] = (first, last)
            elif first < seen[0] or last > seen[1]:  # (most rows change nothing)
                blocks[row >> 4] = (min(seen[0], first), max(seen[1], last))
        self.row_spans = spans = {b: f"{lo + 1}:{hi + 1}" for b, (lo, hi) in blocks.items()}
        printer = Printer(self)
        printer.columns(max((hi for _, hi in blocks.values()), default=0))
        formats = self._kept_formats
        for row in sorted({*bounds, *(r for r in info if low <= r <= high)}):
            kept = plain.get(row)
            if kept is not None:
                printer.values(row, spans[row >> 4], self.kept(kept), formats[row], info.get(row))
                continue
            columns, span, row_info = order.get(row), spans.get(row >> 4), info.get(row)
            if columns is not None:
                printer.row(row, span, row_info)
                printer.cells(row, columns, table[row], row_info)
            elif row_info is not None:
                printer.flush()
                self._write_empty_row(row, span, row_info)
        printer.flush()

    def _write_single_row(self, current_row_num: int = 0) -> None:
        # constant-memory mode: the previous row goes to disk, as xlsxwriter's does it
        if self._pending and self._print_pending() == self.previous_row:
            self.previous_row = current_row_num  # it was pending: printed with its block
            self.table.clear()
            return
        if not FAST or self.comments:
            super()._write_single_row(current_row_num)
            return
        row = self.previous_row
        self.previous_row = current_row_num
        cells, row_info = self.table.get(row), self.row_info.get(row)
        if cells:
            if self._printer is None:
                self._printer = Printer(self)
            cols = sorted(cells)
            self._printer.columns(cols[-1])
            self._printer.row(row, None, row_info)
            self._printer.cells(row, cols, cells, row_info)
            self._printer.flush()
            if self._known is not None and \
                    sum(map(len, self._known.values())) > printer.REMEMBERED:
                self._known = None  # memory stays flat
        elif row_info is not None:
            self._write_empty_row(row, None, row_info)
        self.table.clear()


class Workbook(xlsxwriter.Workbook):
    """``xlsxwriter.Workbook`` whose worksheets write every text as text.

    Once closed, its worksheets let go of the workbook (each holds its ``add_format``): the
    workbook and everything in it (every cell, every kept row) is then freed as soon as
    it is no longer used, instead of waiting, as a reference cycle, for the garbage
    collector (a batch writes a workbook per session: each one's few thousand objects
    would be counted, and walked in older generations, meanwhile).
    """

    worksheet_class = TextSafeWorksheet

    def add_worksheet(self, name: str | None = None, worksheet_class: Any = None) -> Any:
        for sheet in self.worksheets():  # pending rows print before the next sheet's cells,
            if isinstance(sheet, PendingRows):  # whose formats would take indices first
                sheet._print_pending(sheet.previous_row)
        return super().add_worksheet(name, worksheet_class)

    def close(self) -> None:
        try:
            with deflate.packing():  # (level 4: see deflate.py)
                super().close()
        finally:
            for sheet in self.worksheets():
                if getattr(sheet, "workbook_add_format", None) is not None:
                    sheet.workbook_add_format = None  # (nothing is formatted after close)


#: The workbook's custom document property naming the input it holds the results of.
INPUT_PROPERTY = "traveller input"
_MARKED = re.compile(rb'name="traveller input"[^>]*>\s*<vt:lpwstr>([^<]*)</vt:lpwstr>')


def mark_input(book: Any, source: str | None) -> None:
    """Mark a workbook being written with its input's name (see :func:`written_from`)."""
    book.set_custom_property(INPUT_PROPERTY, input_name(source))


def input_name(source: str | None) -> str:
    """The file name a workbook is marked with: its input's (an event's first session's)."""
    first = (source or "").split(", ")[0]
    return Path(first).name if first else ""


def written_from(path: Path) -> str | None:
    """The input's name a workbook traveller wrote (results, a score pad) is marked with;
    None for any other file (another program's, a user's own workbook, not one at all).

    Read from the small custom-properties part, without opening the sheets.
    """
    try:
        with zipfile.ZipFile(path) as book:
            part = book.getinfo("docProps/custom.xml")
            if part.file_size > 65536:
                return None
            found = _MARKED.search(book.read(part))
    except (OSError, KeyError, zipfile.BadZipFile):
        return None
    return html.unescape(found.group(1).decode("utf-8", "replace")) if found else None
