"""One formatted sheet, written row by row with xlsxwriter.

In constant-memory mode (a large session) each row goes to disk as soon as
the next one starts, so memory stays flat however big the session; a small
workbook is built in memory (workbook.py). Every text cell is written as text (a name
``=1+1`` or ``http://…`` is shown as typed, never as a formula or a link).
Number formats are set per column; matchpoints are printed alike within each
group of rows (a board's traveller, a pair's card): without decimals where every
one of the group is whole, else all to two decimals (``8.40``, ``13.86``), so no
cell shows a trailing decimal point (``14.``) and a column never mixes ``8.4``
with ``13.86``.
"""

from __future__ import annotations

import math
from collections.abc import Iterator
from dataclasses import dataclass, field
from typing import Any

import numpy as np
from xlsxwriter.utility import xl_col_to_name

from traveller.publish.columns import MP_FORMAT, Column, blank, column, width

__all__ = ["CELL_TEXT_LIMIT", "DECIMAL", "MAX_BREAKS", "MP_FORMAT", "PAGE_ROWS", "SIGNED", "Column",
           "Table", "blank", "cells", "column", "header_format", "page_setup", "row_cells",
           "styles", "width", "write_table", "write_title"]

SIGNED = '+#,##0;-#,##0;0'
DECIMAL = '0.00'

#: Rows of a landscape A4 page (row height 15 pt, default margins, a wrapped
#: repeated header), used to place page breaks between boards and pairs.
PAGE_ROWS = 30
#: Excel honours at most this many manual page breaks per sheet.
MAX_BREAKS = 1023
#: The text of a cell is capped by Excel at this length.
CELL_TEXT_LIMIT = 32767


def styles(book: Any) -> dict[str, Any]:
    """The formats every sheet uses, created once per workbook."""
    made = {key: book.add_format({"num_format": key}) for key in
            (SIGNED, DECIMAL, MP_FORMAT, "0")}
    header = {"bold": True, "bottom": 1, "text_wrap": True, "valign": "top",
              "bg_color": "#DDEBF7"}
    made["header"] = book.add_format(header)
    for align in ("right", "center"):  # over numbers, over centred codes
        made[f"header_{align}"] = book.add_format({**header, "align": align})
    made["header_indent"] = book.add_format({**header, "align": "left", "indent": 1})
    made["title"] = book.add_format({"bold": True, "font_size": 14, "valign": "top",
                                     "text_wrap": True})
    made["line"] = book.add_format({"text_wrap": True, "valign": "top"})
    made["band"] = book.add_format({"bg_color": "#F2F2F2"})
    made["center"] = book.add_format({"align": "center", "valign": "top"})
    made["heading"] = book.add_format({"bold": True, "top": 1, "bg_color": "#FCE4D6"})
    made["total"] = book.add_format({"bold": True, "top": 1})
    made["total_mp"] = book.add_format({"bold": True, "top": 1, "num_format": MP_FORMAT})
    made["total_pct"] = book.add_format({"bold": True, "top": 1, "num_format": DECIMAL})
    made["wrap"] = book.add_format({"text_wrap": True, "valign": "top"})
    made["top"] = book.add_format({"valign": "top"})
    made["indent"] = book.add_format({"align": "left", "indent": 1})  # beside right-aligned numbers
    made["total_whole"] = book.add_format({"bold": True, "top": 1, "num_format": "0"})
    return made


@dataclass
class Table:
    """A sheet's table: columns, optional title lines, headings between groups of rows."""

    name: str
    columns: list[Column]
    title: list[str] = field(default_factory=list)
    headings: dict[int, str] = field(default_factory=dict)  # data row -> heading above it
    band: int | None = None  # column index whose odd values are shaded
    printed: int | None = None  # leading columns forming the print area
    header: tuple[str, str] = ("", "")  # page header and footer (&-codes), on every page
    filters: bool = True
    heights: list[float] | None = None  # per data row, for wrapped text

    @property
    def rows(self) -> int:
        """Sheet rows this table takes."""
        n = len(self.columns[0].values) if self.columns else 0
        return self.top + 1 + n + len(self.headings)

    @property
    def top(self) -> int:
        return len(self.title) + 1 if self.title else 0


def write_title(sheet: Any, st: dict[str, Any], lines: list[str], span: int,
                chars: float) -> None:
    """Title lines merged across ``span`` columns, wrapped, rows tall enough (never clipped)."""
    for i, line in enumerate(lines):
        style = st["title"] if i == 0 else st["line"]
        per_line = max(chars * (0.7 if i == 0 else 1.0), 20)
        height = (21 if i == 0 else 15) * max(1, math.ceil(len(line) / per_line))
        sheet.set_row(i, height)
        if span > 1:
            sheet.merge_range(i, 0, i, span - 1, "", style)
        sheet.write_string(i, 0, line[:CELL_TEXT_LIMIT], style)


def write_table(book: Any, st: dict[str, Any], table: Table) -> Any:
    """Write ``table`` on a new sheet, row by row; the worksheet."""
    sheet = book.add_worksheet(table.name)
    cols = table.columns
    for j, c in enumerate(cols):
        sheet.set_column(j, j, c.width, st[c.style] if c.style else None)
    span = max(table.printed or len(cols), 1)
    if table.title:
        write_title(sheet, st, table.title, span, sum(c.width for c in cols[:span]))
    top = table.top
    for j, c in enumerate(cols):
        sheet.write_string(top, j, c.header, header_format(st, c))
    breaks = _write_rows(sheet, st, table, top + 1)
    last_row, last_col = table.rows - 1, max(len(cols) - 1, 0)
    sheet.freeze_panes(top + 1, 0)
    if table.filters:
        sheet.autofilter(top, 0, last_row, last_col)
    if table.band is not None and last_row > top:
        letter = xl_col_to_name(table.band)
        sheet.conditional_format(top + 1, 0, last_row, last_col, {
            "type": "formula", "criteria": f"=ISODD(${letter}{top + 2})", "format": st["band"]})
    if 0 < len(breaks) <= MAX_BREAKS:
        sheet.set_h_pagebreaks(breaks)
    sheet.repeat_rows(top)
    if table.printed:
        sheet.print_area(0, 0, last_row, table.printed - 1)
    page_setup(sheet, table.header)
    return sheet


def header_format(st: dict[str, Any], col: Column) -> Any:
    """The header cell's format: over its column's cells (numbers right, codes centred)."""
    if col.style in ("center", "indent"):
        return st[f"header_{col.style}"]
    numbers = col.kind in ("number", "mp") or (col.style is not None and col.style in (
        SIGNED, DECIMAL, MP_FORMAT))
    return st["header_right"] if numbers else st["header"]


def page_setup(sheet: Any, page: tuple[str, str]) -> None:
    """Landscape A4, one page wide, the title in the page header, page numbers below."""
    sheet.set_landscape()
    sheet.fit_to_pages(1, 0)
    sheet.set_paper(9)
    header, footer = page
    if header:
        sheet.set_header(header)
    sheet.set_footer(footer or "&L&A&RPage &P of &N")


def cells(col: Column, whole: Any, starts: list[int] | None = None,
          decimal: Any = None) -> tuple[list[Any], list[Any]]:
    """The column's cells as written: values (None: no cell) and each one's format.

    Text is cut to Excel's limit; matchpoints get the integer format ``whole``
    where every one of their group (the rows from each of ``starts``; all rows
    when not given) is whole, else ``decimal`` (when given); every other cell no
    format of its own (the column's applies).
    """
    values = col.values
    if col.kind == "text":  # texts or None: their lengths taken in C
        too_long = max(map(len, filter(None, values)), default=0) > CELL_TEXT_LIMIT
    else:
        too_long = col.kind == "any" and any(
            v.__class__ is str and len(v) > CELL_TEXT_LIMIT for v in values)
    if too_long:
        values = [v[:CELL_TEXT_LIMIT] if isinstance(v, str) else v for v in values]
    if col.kind == "mp":  # floats or None (NaN here): whole where it equals its floor
        number = np.array(values, dtype=float)
        with np.errstate(invalid="ignore"):
            whole_here = number == np.floor(number)
        if decimal is None:
            return values, [whole if here else None for here in whole_here.tolist()]
        group = np.searchsorted(np.asarray(starts or [0]), np.arange(len(number)),
                                side="right") - 1
        group = np.maximum(group, 0)
        fractions = np.bincount(group, weights=~whole_here & ~np.isnan(number),
                                minlength=int(group.max(initial=0)) + 1) > 0
        shown = np.where(fractions[group], 1, 0)
        shown[np.isnan(number)] = 2
        return values, [(whole, decimal, None)[k] for k in shown.tolist()]
    return values, [None] * len(values)


def row_cells(cols: list[Column], whole: Any, starts: list[int] | None = None,
              decimal: Any = None) -> tuple[Iterator[tuple[Any, ...]], list[tuple[Any, ...]]]:
    """Per data row: its values (made as they are read, in order), and their formats, one per
    column (see :func:`cells`).

    Rows formatted alike share one tuple of formats, and a row's tuple of values is gone
    once it is written (fewer objects alive for the garbage collector to count and walk).
    """
    made = [cells(c, whole, starts, decimal) for c in cols]
    values = zip(*(v for v, _ in made), strict=True)
    alike: dict[tuple[Any, ...], tuple[Any, ...]] = {}
    formats = [alike.setdefault(f, f) for f in zip(*(f for _, f in made), strict=True)]
    return values, formats


def _write_rows(sheet: Any, st: dict[str, Any], table: Table, first: int) -> list[int]:
    """The data rows (and headings between groups); the page breaks between groups."""
    cols = table.columns
    n = len(cols[0].values) if cols else 0
    breaks: list[int] = []
    page_start, r = first, first
    span = max(table.printed or len(cols), 1)
    for i, (values, formats) in enumerate(zip(*row_cells(cols, st["0"], _groups(table),
                                                          st[DECIMAL]), strict=True)):
        heading = table.headings.get(i)
        if heading is not None:
            size = _group_size(table.headings, i, n)
            if r > page_start and r - page_start + size > PAGE_ROWS:
                breaks.append(r)
                page_start = r
            sheet.put_blanks(r, range(span), st["heading"])
            sheet.put_row(r, (heading,), (st["heading"],))
            r += 1
        if table.heights is not None:
            sheet.set_row(r, table.heights[i])
        sheet.put_row(r, values, formats)
        r += 1
    return breaks


def _groups(table: Table) -> list[int]:
    """The first row of each group whose matchpoints print alike: each heading's (a
    board), else each change of the banded column (a board of the frequencies)."""
    if table.headings:
        return sorted(table.headings)
    if table.band is not None and table.columns:
        values = table.columns[table.band].values
        return [0] + [i for i in range(1, len(values)) if values[i] != values[i - 1]]
    return [0]


def _group_size(headings: dict[int, str], start: int, n: int) -> int:
    """Rows of the group starting at data row ``start`` (its heading included)."""
    nxt = start + 1
    while nxt < n and nxt not in headings:
        nxt += 1
    return nxt - start + 1
