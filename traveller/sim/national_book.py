"""The national ranking of a simultaneous as a formatted xlsx, written a block of rows at a time.

A national field is hundreds of thousands of pairs, so the sheet is written
in xlsxwriter's constant-memory mode: each row goes to disk as the next one
starts, and the cells are made from the frame 16,384 rows at a time, so the
memory it takes does not grow with the field. (Built in memory it held every
cell until the file closed: 1.6 GiB and 48 s for 437,000 pairs, at the very
end of a run.) The sheet looks like a club workbook's: a title across the
columns, a bold frozen header with filters, the national figure to two
decimals, short codes centred, landscape A4 one page wide, the title on every
printed page. A field longer than an Excel sheet holds keeps its first rows
there and says so in a second title line; the CSV beside it has every pair.
"""

from __future__ import annotations

from collections.abc import Collection
from typing import Any

import pandas as pd

#: Rows of the frame turned into cells at a time.
BLOCK = 16_384


def write_national_book(path: str, frame: pd.DataFrame, title: str, centered: Collection[str],
                        csv_name: str) -> int:
    """``frame`` (headed as shown) as the sheet "National ranking" of a new workbook at
    ``path``; the number of its rows on the sheet (all of them, unless more than a sheet
    holds: then the title's second line names ``csv_name``, which has every row)."""
    from traveller.publish.book import Workbook
    from traveller.publish.sheet import (
        DECIMAL,
        column,
        header_format,
        page_setup,
        styles,
        write_title,
    )
    from traveller.publish.workbook import BOOK_OPTIONS, EXCEL_ROWS

    names = [str(name) for name in frame.columns]
    style = {name: DECIMAL if name.startswith("National") else
             "center" if name in centered else None for name in names}
    lines = [title]
    if len(frame) > EXCEL_ROWS - 3:  # the title, a blank row, the header
        room = EXCEL_ROWS - 4
        lines.append(f"The first {room:,} of {len(frame):,} pairs: an Excel sheet holds no "
                     f"more. Every pair is in {csv_name}, beside this workbook.")
    top = len(lines) + 1
    shown = min(len(frame), EXCEL_ROWS - top - 1)
    book = Workbook(path, BOOK_OPTIONS)
    st = styles(book)
    sheet = book.add_worksheet("National ranking")
    heads = [column(name, frame[name].iloc[:2000], style[name]) for name in names]
    for j, head in enumerate(heads):  # widths from the first rows, as every sheet's
        sheet.set_column(j, j, head.width, st[head.style] if head.style else None)
    write_title(sheet, st, lines, max(len(names), 1), sum(h.width for h in heads))
    for j, head in enumerate(heads):
        sheet.write_string(top, j, head.header, header_format(st, head))
    _rows(sheet, st, frame.iloc[:shown], style, top + 1)
    sheet.freeze_panes(top + 1, 0)
    sheet.autofilter(top, 0, top + shown, max(len(names) - 1, 0))
    sheet.repeat_rows(top)
    page_setup(sheet, ("&L" + title.replace("&", "&&")[:240], ""))
    book.close()
    return shown


def _rows(sheet: Any, st: dict[str, Any], frame: pd.DataFrame, style: dict[str, str | None],
          first: int) -> None:
    """The frame's rows from sheet row ``first``, cells made :data:`BLOCK` rows at a time."""
    from traveller.publish.sheet import DECIMAL, column, row_cells

    put = sheet.put_row
    r = first
    for at in range(0, len(frame), BLOCK):
        part = frame.iloc[at:at + BLOCK]
        cols = [column(str(name), part[name], style[str(name)]) for name in part.columns]
        values, formats = row_cells(cols, st["0"], None, st[DECIMAL])
        for row_values, row_formats in zip(values, formats, strict=True):
            put(r, row_values, row_formats)
            r += 1
