"""The Ranking sheet: the page a club pins up.

The title once (large), the date, club and status under it, then one block
per line (N-S, E-W; per section too), each with its own heading and its
places from 1 (one block for a Howell, an individual or a teams match), then
how it was scored, once, in plain words at the foot. Whole matchpoints print
without decimals, a block with fractions (a board played fewer times) with
two throughout; percentages to two decimals. The headers stand over their
numbers (right-aligned over numbers, centred over places and pair numbers),
in a larger type than the other sheets and across the page's width, so the
page reads from a step back. Portrait A4, one page wide.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

import numpy as np
import pandas as pd

from traveller.publish.headers import CENTERED, FORMATS, event_column, ranking_heading
from traveller.publish.keys import change_starts, plain
from traveller.publish.sheet import CELL_TEXT_LIMIT, DECIMAL, MP_FORMAT, blank, column
from traveller.publish.titles import foot_lines, top_lines
from traveller.schema import LINE_WORDS

if TYPE_CHECKING:
    from traveller.result import Result

#: Type sizes (points): the title, the lines under it, a block's heading, the table.
SIZES = {"title": 20, "line": 13, "block": 15, "cell": 14}
#: Width units of a portrait A4 page inside the default margins (about 92 characters of
#: the default type): the table is widened to fill it.
PAGE_WIDTH = 80.0
#: Matchpoint, IMP and VP columns: whole numbers without decimals, else two decimals in the
#: block.
WHOLE_OR_TWO = frozenset({"mp", "mp_factored", "imps", "vp"})
#: The key suffix of a shaded (every other) row's formats.
BANDED = ":band"


def ranking_blocks(columns: dict[str, pd.Series]) -> list[tuple[str, int, int]]:
    """(heading, first row, end row) of each block of the ranking, in order.

    A block per line (and section) when each one's pairs are listed together, as
    the ranking lists them; one block (no heading) for a Howell, an individual,
    a teams match, or a field ranked across its sections.
    """
    return _blocks(columns)[0]


def _blocks(columns: dict[str, pd.Series]) -> tuple[list[tuple[str, int, int]], list[str]]:
    """:func:`ranking_blocks`, and the columns their headings say (not written again)."""
    n = len(next(iter(columns.values()))) if columns else 0
    for keys in (["section", "line"], ["line"]):
        keys = [k for k in keys if k in columns]
        if not keys or not n:
            continue
        starts = change_starts(*(columns[k] for k in keys))
        values = [plain(columns[k]) for k in keys]
        seen = {tuple(v[s] for v in values) for s in starts}
        if (len(seen) == len(starts) and len(starts) > 1) or (
                len(starts) == 1 and "line" in keys and str(values[-1][0] or "")):
            ends = [*starts[1:], n]
            return [(_block_heading({k: v[s] for k, v in zip(keys, values, strict=True)}),
                     s, e) for s, e in zip(starts, ends, strict=True)], keys
    return [("", 0, n)], []


def _block_heading(key: dict[str, Any]) -> str:
    parts = []
    if str(key.get("section") or ""):
        parts.append(f"Section {key['section']}")
    line = str(key.get("line") or "")
    if line:
        parts.append(LINE_WORDS.get(line, line))
    return " · ".join(parts)


def _formats(book: Any) -> dict[str, Any]:
    """The Ranking's own formats (larger type), made once per workbook."""
    big = {"font_size": SIZES["cell"], "valign": "vcenter"}
    made = {"title": book.add_format({"bold": True, "font_size": SIZES["title"],
                                      "text_wrap": True, "valign": "top"}),
            "line": book.add_format({"font_size": SIZES["line"], "text_wrap": True,
                                     "valign": "top"}),
            "status": book.add_format({"font_size": SIZES["line"], "bold": True,
                                       "text_wrap": True, "valign": "top"}),
            "block": book.add_format({"bold": True, "font_size": SIZES["block"], "bottom": 2}),
            "foot": book.add_format({"font_size": SIZES["line"] - 2, "text_wrap": True,
                                     "valign": "top", "italic": False})}
    for align in ("left", "right", "center"):
        made[f"head_{align}"] = book.add_format({**big, "bold": True, "bottom": 1,
                                                 "bg_color": "#DDEBF7", "align": align,
                                                 "text_wrap": True})
    for band, shade in (("", {}), (BANDED, {"bg_color": "#F2F2F2"})):
        for align in ("left", "right", "center"):
            made[f"text_{align}{band}"] = book.add_format({**big, **shade, "align": align})
        for key in (DECIMAL, "0", "+#,##0;-#,##0;0", "General"):
            made[f"{key}{band}"] = book.add_format({**big, **shade, "num_format": key,
                                                    "align": "right"})
    return made


def _column_format(name: str, settings: dict[str, Any]) -> str:
    """The number format of a ranking column (matchpoints: chosen per block; an event's
    percentages to two places, its total matchpoints as matchpoints)."""
    kind = event_column(name, settings)
    if name in WHOLE_OR_TWO or kind == "total" or name == "carry":  # (an event's carry-over)
        return MP_FORMAT
    return DECIMAL if kind else FORMATS.get(name, "General")


def _layout(columns: dict[str, pd.Series], headed: list[str]) -> list[tuple[str, Any]]:
    """The columns written, in order (place first; not those the block headings say,
    ``headed``; no Names column when no pair has names)."""
    order = [c for c in ("place",) if c in columns]
    order += [c for c in columns if c != "place" and c not in headed
              and not (c == "names" and blank(columns[c]))]
    return [(c, columns[c]) for c in order]


def _widths(cols: list[Any], names: list[str]) -> list[float]:
    """Each column's width for the larger type, the table spread over the page's width."""
    widths = [max(c.width * SIZES["cell"] / 11, 7.0) for c in cols]
    spare = PAGE_WIDTH - sum(widths)
    if spare > 0:  # the names take half of what is left, every column a share of the rest
        if "names" in names:
            widths[names.index("names")] += spare / 2
            spare /= 2
        widths = [w + spare / len(widths) for w in widths]
    return widths


def write_ranking(book: Any, result: Result, columns: dict[str, pd.Series],
                  notes: list[str]) -> Any:
    """Write the Ranking sheet (see the module docstring); the worksheet.

    ``columns``: the ranking's columns to show, in order; ``notes``: lines for
    the foot (a sheet written as CSV beside the workbook).
    """
    fmt = _formats(book)
    blocks, headed = _blocks(columns)
    layout = _layout(columns, headed)
    names = [c for c, _ in layout]
    settings = result.settings
    cols = [column(ranking_heading(str(c), settings), s, _column_format(str(c), settings))
            for c, s in layout]
    sheet = book.add_worksheet("Ranking")
    widths = _widths(cols, names)
    for j, w in enumerate(widths):
        sheet.set_column(j, j, w)
    span = max(len(cols), 1)
    r = _lines(sheet, fmt, top_lines(result), span, sum(widths), first=True)
    r += 1
    for heading, start, end in blocks:
        r = _block(sheet, fmt, cols, names, heading, start, end, r)
        r += 1
    _lines(sheet, fmt, foot_lines(result) + notes, span, sum(widths), start=r)
    sheet.set_portrait()
    sheet.set_paper(9)
    sheet.fit_to_pages(1, 0)
    sheet.set_margins(left=0.5, right=0.5, top=0.6, bottom=0.6)
    sheet.set_footer("&RPage &P of &N")
    sheet.hide_gridlines(2)
    return sheet


def _lines(sheet: Any, fmt: dict[str, Any], lines: list[str], span: int, chars: float,
           first: bool = False, start: int = 0) -> int:
    """Text lines merged across the table, tall enough for their wrapped text; the next row."""
    r = start
    for i, line in enumerate(lines):
        key = "title" if first and i == 0 else (
            "status" if first and line.startswith(("Provisional", "Final")) else
            "line" if first else "foot")
        size = SIZES["title"] if key == "title" else SIZES["line"]
        per_line = max(chars * 11 / size * 1.3, 20)  # bold capitals are wider
        sheet.set_row(r, size * 1.45 * max(1, -(-len(line) // int(per_line))))
        if span > 1:
            sheet.merge_range(r, 0, r, span - 1, "", fmt[key])
        sheet.write_string(r, 0, line[:CELL_TEXT_LIMIT], fmt[key])
        r += 1
    return r


#: Numbers that name someone (a pair, a player, a team): centred under their headers.
_CENTRED = CENTERED | {"player", "team"}


def _align(col: Any, name: str) -> str:
    if name in _CENTRED:
        return "center"
    return "left" if col.kind in ("text", "any") and name not in FORMATS else "right"


def _block(sheet: Any, fmt: dict[str, Any], cols: list[Any], names: list[str], heading: str,
           start: int, end: int, r: int) -> int:
    """One block: its heading, the column headers, its rows; the row after it."""
    if heading:
        sheet.set_row(r, SIZES["block"] * 1.6)
        sheet.put_blanks(r, range(len(cols)), fmt["block"])
        sheet.put_row(r, (heading,), (fmt["block"],))
        r += 1
    aligns = [_align(c, n) for c, n in zip(cols, names, strict=True)]
    sheet.set_row(r, SIZES["cell"] * 1.6)
    sheet.put_row(r, [c.header for c in cols], [fmt[f"head_{a}"] for a in aligns])
    r += 1
    formats = [_cell_format(fmt, c, n, a, start, end)
               for c, n, a in zip(cols, names, aligns, strict=True)]
    shaded = [fmt[f"{key}{BANDED}"] for key in formats]
    for i in range(start, end):
        sheet.set_row(r, SIZES["cell"] * 1.45)
        sheet.put_row(r, [c.values[i] for c in cols],
                      [fmt[k] for k in formats] if (i - start) % 2 == 0 else shaded)
        r += 1
    return r


def _cell_format(fmt: dict[str, Any], col: Any, name: str, align: str, start: int,
                 end: int) -> str:
    """The key of the format of a column's cells in one block."""
    if col.kind in ("text",) or (col.kind == "any" and name not in FORMATS
                                 and name not in WHOLE_OR_TWO):
        return f"text_{align}"
    if name in WHOLE_OR_TWO or col.style == MP_FORMAT:
        values = np.array([np.nan if v is None else v for v in col.values[start:end]],
                          dtype=float)
        known = values[~np.isnan(values)]
        return "0" if np.array_equal(known, np.floor(known)) else DECIMAL
    if align == "center":
        return "text_center"
    key = col.style or "General"  # (the column's format: _column_format's)
    return key if key in fmt else "General"
