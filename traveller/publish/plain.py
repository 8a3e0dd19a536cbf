"""Rows of a worksheet built in memory kept as their values, printed at close.

A club session's rows are nearly all new rows of finite numbers and plain
texts; :meth:`PlainRows._put_plain` keeps such a row as its values and
formats (its texts get their shared-string index at once, as cells would),
and :meth:`traveller.publish.printer.Printer.values` prints it with the
elements xlsxwriter would print for its cells, without a cell tuple each.
A row written over later is turned into cells first (:meth:`PlainRows._cells_of`).
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from traveller.publish.printer import NEW, NUMBER, STRING

#: A kept row's first and last column used, as one number: ``first << SPAN_BITS | last``
#: (no tuple per row: a club session keeps a thousand rows until its workbook is closed,
#: each object of them counted and walked by the garbage collector meanwhile).
SPAN_BITS = 16
LAST = (1 << SPAN_BITS) - 1


class PlainRows:
    """Kept rows of a :class:`traveller.publish.book.TextSafeWorksheet` built in memory."""

    _plain: dict[int, int] | None = None  # kept rows' values in _kept, by row (see kept())
    _kept: list[Any]  # every kept row's values, one row after another
    _kept_formats: dict[int, tuple[Any, ...]]  # their formats
    _kept_span: dict[int, int]  # their first and last column used (see SPAN_BITS)
    _indices: dict[str, int]  # the shared strings' indices the kept rows' texts have
    table: Any
    str_table: Any
    xls_strmax: int
    dim_rowmin: Any
    dim_rowmax: Any
    dim_colmin: Any
    dim_colmax: Any
    _check_dimensions: Any  # these eight: xlsxwriter's Worksheet's

    def _put_plain(self, row: int, values: Sequence[Any], formats: Sequence[Any]) -> bool:
        """In memory: keep a new row of finite numbers and plain texts as it is (printed at
        close without a cell tuple each); False (nothing kept) for any other row."""
        plain = self._plain if self._plain is not None else self._plain_rows()
        if row in plain:
            self._cells_of(row)  # written again: its cells, then the new ones over them
            return False
        if self.table.get(row) or values.count(None) == len(values):
            return False
        shared, longest, texts = self.str_table, self.xls_strmax // 2, 0
        indices = self._indices = shared.string_table  # (xlsxwriter empties it at close:
        # a new dict, so this one still gives the kept texts' indices when they are printed)
        for value in values:  # texts get their shared index in column order, as cells do
            kind = value.__class__
            if kind is str:
                if len(value) > longest or value.startswith("<r>"):
                    return False  # (the indices given so far are those the cells get)
                if value not in indices:
                    indices[value] = shared.unique_count
                    shared.unique_count += 1
                texts += 1
            elif kind is float:
                if value - value != 0:  # NaN or infinite
                    return False
            elif kind is not int and value is not None:
                return False
        first, last = 0, len(values) - 1
        while values[first] is None:
            first += 1
        while values[last] is None:
            last -= 1
        shared.count += texts
        kept = self._kept
        plain[row] = len(kept) << SPAN_BITS | len(values)
        kept.extend(values)
        self._kept_formats[row] = tuple(formats)
        self._kept_span[row] = first << SPAN_BITS | last
        low, left = self.dim_rowmin, self.dim_colmin
        if low is None or left is None or row < low or first < left:
            self._check_dimensions(row, first)
        elif row > self.dim_rowmax:  # all the check would change (the row is valid)
            self.dim_rowmax = row
        if last > self.dim_colmax:  # else a second check would change nothing
            self._check_dimensions(row, last)
        return True

    def _plain_rows(self) -> dict[int, int]:
        """Rows kept by :meth:`_put_plain`: where their values are (:meth:`kept` gives them;
        their formats are in ``_kept_formats``, their first and last column used in
        ``_kept_span``)."""
        if self._plain is None:
            self._plain, self._kept, self._kept_formats, self._kept_span = {}, [], {}, {}
        return self._plain

    def kept(self, at: int) -> list[Any]:
        """A kept row's values, from where :meth:`_plain_rows` has them (``at``)."""
        start = at >> SPAN_BITS
        return self._kept[start:start + (at & LAST)]

    def _cells_of(self, row: int) -> None:
        """A kept row's values as cells of the table (cells written since then stay)."""
        values = self.kept(self._plain_rows().pop(row))
        formats = self._kept_formats.pop(row)
        del self._kept_span[row]
        cells, indices = self.table[row], self._indices
        for col, (value, cell_format) in enumerate(zip(values, formats, strict=False)):
            if value is not None and col not in cells:
                cells[col] = NEW(STRING, (indices[value], cell_format)) \
                    if value.__class__ is str else NEW(NUMBER, (value, cell_format))
