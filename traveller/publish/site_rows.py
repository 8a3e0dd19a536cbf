"""The cells of the site's two long tables as HTML, built a column at a time.

A board page's traveller and a pair page's score card have a row per result;
a large session has hundreds of thousands of them. Each cell is escaped and
wrapped here for many rows at once (numpy string operations; site_cells.py
makes each distinct cell once), so the templates place finished rows instead
of rendering every cell one by one.
Every text from the input is escaped exactly as the templates' autoescaping
does (``& < > " '``); the links are our own page names.
"""

from __future__ import annotations

from typing import Any

import numpy as np
import pandas as pd
from numpy.dtypes import StringDType

#: What autoescaping writes for each character that is markup.
_ESCAPES = (("&", "&amp;"), ("<", "&lt;"), (">", "&gt;"), ('"', "&#34;"), ("'", "&#39;"))
_RED = ("♥", "♦")


#: Texts of any length (fixed-width numpy strings would cut a replacement short).
TEXT = StringDType()


def _text(values: Any) -> np.ndarray:
    if isinstance(values, np.ndarray) and values.dtype == TEXT:
        return values
    if isinstance(values, str):
        return np.asarray(values, dtype=TEXT)
    array = values.to_numpy(dtype=object) if isinstance(values, pd.Series) else values
    try:  # texts already (the formatted columns): converted in one step
        return np.asarray(array, dtype=StringDType(coerce=False))
    except (TypeError, ValueError):  # anything else (numbers, missing values) as text
        return np.asarray(pd.Series(array, dtype=object).fillna("").astype(str), dtype=TEXT)


def esc(values: Any) -> np.ndarray:
    """Texts escaped for HTML."""
    out = _text(values)
    for char, entity in _ESCAPES:
        if out.size and np.strings.find(out, char).max() >= 0:
            out = np.strings.replace(out, char, entity)
    return out


def suits(values: Any) -> np.ndarray:
    """Escaped texts with their red suit symbols coloured (the ``suits`` filter's way)."""
    out = esc(values)
    for symbol in _RED:
        out = np.strings.replace(out, symbol, f'<span class="red">{symbol}</span>')
    return out


def cat(*parts: Any) -> np.ndarray:
    """Strings and string arrays joined element by element."""
    out = _text(parts[0])
    for part in parts[1:]:
        out = np.strings.add(out, part if isinstance(part, str) else _text(part))
    return out


def when(condition: Any, then: Any, otherwise: Any = "") -> np.ndarray:
    return np.where(np.asarray(condition, dtype=bool), then, otherwise).astype(TEXT)


def tenths(values: np.ndarray) -> list[str]:
    """Non-negative numbers to one decimal ("12.3"), without a float format call each."""
    r = np.round(np.asarray(values, dtype=float) * 10).astype(np.int64)
    return [f"{a}.{b}" for a, b in zip((r // 10).tolist(), (r % 10).tolist(), strict=True)]


def pair_cell(href: Any, number: Any, names: Any) -> np.ndarray:
    number, names, href = esc(number), esc(names), _text(href)
    linked = when(href != "", cat('<a href="', href, '">', number, "</a>"), number)
    return cat('<td class="pair">', linked,
               when(names != "", cat(' <span class="names">', names, "</span>")), "</td>")


def contract_cell(contract: Any, declarer: Any, result: Any, ruling: Any) -> np.ndarray:
    """The contract in suit symbols (a ruling instead when there is one); declarer and
    result folded in, shown on a phone when their own columns are not."""
    declarer, result, ruling = esc(declarer), esc(result), esc(ruling)
    folded = np.strings.strip(cat(declarer, " ", result))
    fold = when(folded != "", cat('<span class="fold"> ', folded, "</span>"))
    return cat('<td class="contract">', when(ruling != "", ruling, cat(suits(contract), fold)),
               "</td>")


def num(values: Any) -> np.ndarray:
    return cat('<td class="num">', esc(values), "</td>")


def par_html(contract: str, ns_plus: str, ew_plus: str, with_dd: bool, has_mp: bool,
             has_imps: bool, has_lead: bool = True) -> str:
    """The par line among a board's results."""
    return "".join([
        '<tr class="par-row"><td colspan="2">Par</td><td class="contract">',
        str(suits([contract])[0]), '</td><td class="by"></td>',
        '<td class="lead"></td>' if has_lead else "",
        '<td class="result"></td>', '<td class="vsdd"></td>' if with_dd else "",
        f'<td class="num">{ns_plus}</td><td class="num">{ew_plus}</td>',
        '<td colspan="4"></td>' if has_mp else "", '<td colspan="2"></td>' if has_imps else "",
        "</tr>\n"])


def card_rows_html(board: list[str], opponents: list[str], sat: list[str], rest: list[str],
                   held: Any, varied: bool) -> str:
    """A pair's score card rows (site_cells.card_cells' parts, a list each): the board and
    opponents cells, for a pair that changed lines (``varied``) the line sat folded in
    beside the board number and the Sitting cell, then the contract to the end."""
    if not varied:
        return "".join([a + b + c for a, b, c in zip(board, opponents, rest, strict=True)])
    fold = esc(held).tolist()
    return "".join([f'{a}<span class="fold"> {h}</span>{b}{s}{c}'
                    for a, h, b, s, c in zip(board, fold, opponents, sat, rest, strict=True)])


#: A pair page's chart draws at most this many bars (each at least 2.6 px of its 330):
#: a longer card gets a bar for each block of consecutive boards, their mean percentage.
MAX_BARS = 100


def chart_block(boards: int) -> int:
    """How many boards one bar of a card's chart stands for: 1, or for a card of more than
    :data:`MAX_BARS` boards, as many as make the bars fit."""
    return max(1, -(-boards // MAX_BARS))


def card_chart(values: np.ndarray, boards: np.ndarray, pcts: np.ndarray,
               field: list[str] | None = None) -> str:
    """The pair page's SVG bars: one per board (a red mark for 0 %), the 50 % line, every
    board numbered where there is room, else one in every few. ``field``: the labels of
    the section's boards in order; a board of it the pair has no result on is a gap, so
    that each bar stands over its own number. A card of more boards than
    :data:`MAX_BARS` has a bar for each block of :func:`chart_block` boards: the mean of
    the block's percentages, titled "Boards 1–84: 51.23 %"."""
    if field is not None and len(field) > len(boards):
        values, boards, pcts = _with_gaps(values, boards, pcts, field)
    block = chart_block(len(values))
    board, pct = esc(boards).tolist(), esc(pcts).tolist()
    if block == 1:
        titles = [f"Board {b}: {p} %" for b, p in zip(board, pct, strict=True)]
    else:
        values, titles, board = _blocks(np.asarray(values, dtype=float), board, block)
    n = max(len(values), 1)
    step = 330 / n
    every = max(1, int(np.ceil(22 / step)))
    at = 26 + np.arange(len(values)) * step
    h = np.nan_to_num(values)
    height = np.maximum(h, 1.5)
    x, y, tall, middle = tenths(at + step * 0.1), tenths(110 - height), tenths(height), \
        tenths(at + step / 2)
    width = "%.1f" % (step * 0.8)
    known, positive, above = (~np.isnan(values)).tolist(), (h > 0).tolist(), (h >= 50).tolist()
    lines = []
    for i in range(len(values)):  # a few texts a board, joined as Python strings
        mark = label = ""
        if known[i]:
            title = f"<title>{titles[i]}</title></rect>"
            mark = (f'<rect x="{x[i]}" y="{y[i]}" width="{width}" height="{tall[i]}" '
                    f'class="{"above" if above[i] else "below"}">{title}' if positive[i] else
                    f'<rect x="{x[i]}" y="106" width="{width}" height="4" class="zero">{title}')
        if i % every == 0:
            label = (f'<text x="{middle[i]}" y="124" text-anchor="middle" class="axis">'
                     f"{board[i]}</text>")
        lines.append(mark + label)
    return "\n".join(lines)


def _with_gaps(values: np.ndarray, boards: np.ndarray, pcts: np.ndarray, field: list[str]
               ) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """The card's values, labels and percentages over every board of ``field`` (NaN where
    the pair has no result); a card board not in ``field`` keeps the card as it is."""
    at = {b: i for i, b in enumerate(field)}
    where = [at.get(str(b), -1) for b in boards]
    if min(where, default=0) < 0:
        return values, boards, pcts
    full = np.full(len(field), np.nan)
    full[where] = values
    shown = np.array([""] * len(field), dtype=object)
    shown[where] = np.asarray(pcts, dtype=object)
    return full, np.asarray(field, dtype=object), shown


def _blocks(values: np.ndarray, board: list[str], block: int
            ) -> tuple[np.ndarray, list[str], list[str]]:
    """Each block of ``block`` consecutive boards: the mean of its known percentages (NaN
    for none), its title, and its first board (the axis label)."""
    starts = np.arange(0, len(values), block)
    known = ~np.isnan(values)
    sums = np.add.reduceat(np.where(known, values, 0.0), starts)
    counts = np.add.reduceat(known.astype(np.int64), starts)
    means = np.divide(sums, counts, out=np.full(len(starts), np.nan), where=counts > 0)
    ends = np.minimum(starts + block, len(values)) - 1
    titles = [f"Boards {board[a]}–{board[b]}: {m:.2f} %"
              for a, b, m in zip(starts.tolist(), ends.tolist(), means.tolist(), strict=True)]
    return means, titles, [board[a] for a in starts.tolist()]
