"""Constant-memory rows kept as their values for a block, then printed together.

In constant-memory mode xlsxwriter sends each row to disk when the next one
starts, through a chain of calls per row and per cell. :class:`PendingRows`
keeps a new row of finite numbers and plain texts as its values instead and
prints up to :data:`BLOCK` such rows at once with
:meth:`traveller.publish.printer.Printer.values`, with the bytes xlsxwriter's
row-by-row printing gives and in the same order relative to everything else
that is printed:

- the row being written stays pending until a later row starts, as
  xlsxwriter keeps it in its table; a write into that row (a cell, a blank,
  its height) turns it into cells of the table first, so the later cell
  wins;
- what changes how a row prints (a column's format, the default row
  height) and the next sheet (whose cells would take format indices first)
  print the rows before the current one first; the sheet's last row is
  printed at close, where xlsxwriter prints it.

Memory stays flat: at most a block of rows is kept, and the printer forgets
what it remembered of the cells once it holds more than ``REMEMBERED``.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from traveller.publish import printer
from traveller.publish.printer import NEW, NUMBER, STRING, Printer

#: Rows kept before they are printed together.
BLOCK = 1024

#: A pending row: its number, values and formats.
Pending = tuple[int, tuple[Any, ...], tuple[Any, ...]]


class PendingRows:
    """Pending rows of a constant-memory :class:`traveller.publish.book.TextSafeWorksheet`."""

    _pending: list[Pending] | None = None
    _printer: Printer | None = None
    previous_row: int
    table: Any
    comments: Any
    row_info: Any
    xls_strmax: int
    _write_single_row: Any  # these six: xlsxwriter's Worksheet's (the last one, ours)

    def _put_pending(self, row: int, values: Sequence[Any], formats: Sequence[Any]) -> bool:
        """Keep a new row of finite numbers and plain texts as it is; False (nothing kept)
        for any other row (it is written as cells)."""
        if row <= self.previous_row or self.comments:
            return False
        longest, first, last = self.xls_strmax // 2, -1, -1
        for col, value in enumerate(values):
            kind = value.__class__
            if kind is str:
                if len(value) > longest or value.startswith("<r>"):
                    return False
            elif kind is float:
                if value - value != 0:  # NaN or infinite
                    return False
            elif kind is not int:
                if value is not None:
                    return False
                continue
            if first < 0:
                first = col
            last = col
        if first < 0:
            return False  # (no cell: nothing to keep)
        pending = self._pending
        if pending is None:
            pending = self._pending = []
            # from now on a write into the pending row turns it into cells (an instance
            # attribute: sheets without pending rows never pay for the check)
            self.__dict__["_check_dimensions"] = self._checked
        if pending and pending[-1][0] == self.previous_row:
            self.previous_row = row  # the row before is pending too: it prints with its block
        else:
            self._write_single_row(row)  # the row before goes to disk, as xlsxwriter's would
        pending.append((row, tuple(values), tuple(formats)))
        super()._check_dimensions(row, first)  # type: ignore[misc]
        if last > first:
            super()._check_dimensions(row, last)  # type: ignore[misc]
        if len(pending) > BLOCK:
            self._print_pending(row)
        return True

    def _checked(self, row: int, col: int, ignore_row: bool = False,
                 ignore_col: bool = False) -> int:
        """xlsxwriter's ``_check_dimensions``, after turning the pending row ``row`` (if it
        is one) into cells: whatever is written into it next replaces its cell."""
        pending = self._pending
        if pending and row == pending[-1][0] and not ignore_row:
            row_of, values, formats = pending.pop()
            cells = self.table[row_of]
            for col_of, (value, cell_format) in enumerate(zip(values, formats, strict=False)):
                if value is not None and col_of not in cells:  # (written since: it stays)
                    cells[col_of] = NEW(STRING if value.__class__ is str else NUMBER,
                                        (value, cell_format))
        return super()._check_dimensions(row, col, ignore_row, ignore_col)  # type: ignore[misc,no-any-return]

    def _print_pending(self, before: int | None = None) -> int | None:
        """Print the pending rows (those before row ``before`` when given); the last
        printed, or None when there was none."""
        pending = self._pending
        count = len(pending or ())
        if before is not None:
            while count and pending[count - 1][0] >= before:  # type: ignore[index]
                count -= 1
        if not count or pending is None:
            return None
        rows = pending[:count]
        del pending[:count]
        if self._printer is None:
            self._printer = Printer(self)
        out, info = self._printer, self.row_info
        out.columns(max(len(values) for _, values, _ in rows) - 1)
        for row, values, formats in rows:
            out.values(row, None, values, formats, info.get(row))
        out.flush()
        if sum(len(known) for kept in out.rests.values() for known in kept) \
                > printer.REMEMBERED:
            out.rests.clear()  # memory stays flat
        return rows[-1][0]

    def set_column_pixels(self, *args: Any, **kwargs: Any) -> Any:
        self._print_pending(self.previous_row)  # the rows before print with the old formats
        return super().set_column_pixels(*args, **kwargs)  # type: ignore[misc]

    def set_default_row(self, *args: Any, **kwargs: Any) -> Any:
        self._print_pending(self.previous_row)
        return super().set_default_row(*args, **kwargs)  # type: ignore[misc]
