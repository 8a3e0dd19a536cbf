"""The rows of the site's two long tables as HTML, built a column at a time.

A board page's traveller and a pair page's score card have a row per result;
a large session has hundreds of thousands of them. Each cell is escaped and
wrapped here for a whole chunk at once (numpy string operations), so the
templates place finished rows instead of rendering every cell one by one.
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


def tenths(values: np.ndarray) -> np.ndarray:
    """Non-negative numbers to one decimal ("12.3"), without a per-number format call."""
    r = np.round(np.asarray(values, dtype=float) * 10).astype(np.int64)
    return cat((r // 10).astype(str), ".", (r % 10).astype(str))


def _pair_cell(href: Any, number: Any, names: Any) -> np.ndarray:
    number, names, href = esc(number), esc(names), _text(href)
    linked = when(href != "", cat('<a href="', href, '">', number, "</a>"), number)
    return cat('<td class="pair">', linked,
               when(names != "", cat(' <span class="names">', names, "</span>")), "</td>")


def _contract_cell(contract: Any, declarer: Any, result: Any, ruling: Any) -> np.ndarray:
    """The contract in suit symbols (a ruling instead when there is one); declarer and
    result folded in, shown on a phone when their own columns are not."""
    declarer, result, ruling = esc(declarer), esc(result), esc(ruling)
    folded = np.strings.strip(cat(declarer, " ", result))
    fold = when(folded != "", cat('<span class="fold"> ', folded, "</span>"))
    return cat('<td class="contract">', when(ruling != "", ruling, cat(suits(contract), fold)),
               "</td>")


def _num(values: Any) -> np.ndarray:
    return cat('<td class="num">', esc(values), "</td>")


def traveller_html(r: pd.DataFrame, with_dd: np.ndarray, has_mp: bool, has_imps: bool
                   ) -> np.ndarray:
    """One ``<tr>`` per formatted traveller row (site_model.traveller_rows + vs_dd);
    ``with_dd`` marks the rows of a board shown with its double dummy column."""
    cells = [
        "<tr>", _pair_cell(r["ns_href"], r["ns_pair"], r["ns_names"]),
        _pair_cell(r["ew_href"], r["ew_pair"], r["ew_names"]),
        _contract_cell(r["contract"], r["declarer"], r["result"], r["ruling"]),
        cat('<td class="by">', esc(r["declarer"]), '</td><td class="lead">', suits(r["lead"]),
            '</td><td class="result">', esc(r["result"]), "</td>"),
        when(with_dd, cat('<td class="vsdd">', esc(r["vs_dd"]), "</td>")),
        _num(r["ns_plus"]), _num(r["ew_plus"])]
    if has_mp:
        cells += [_num(r["ns_mp"]), _num(r["ew_mp"]), _num(r["ns_pct"]), _num(r["ew_pct"])]
    if has_imps:
        cells += [_num(r["ns_imp"]), _num(r["ew_imp"])]
    return cat(*cells, "</tr>\n")


def par_html(contract: str, ns_plus: str, ew_plus: str, with_dd: bool, has_mp: bool,
             has_imps: bool) -> str:
    """The par line among a board's results."""
    return "".join([
        '<tr class="par-row"><td colspan="2">Par</td><td class="contract">',
        str(suits([contract])[0]), '</td><td class="by"></td><td class="lead"></td>',
        '<td class="result"></td>', '<td class="vsdd"></td>' if with_dd else "",
        f'<td class="num">{ns_plus}</td><td class="num">{ew_plus}</td>',
        '<td colspan="4"></td>' if has_mp else "", '<td colspan="2"></td>' if has_imps else "",
        "</tr>\n"])


def card_html(c: pd.DataFrame, has_mp: bool, has_imps: bool
              ) -> tuple[np.ndarray, np.ndarray, np.ndarray]:  # (2, n), n, n
    """Score card rows (site_cards.card_rows) in three parts: the board and opponents,
    the Sitting cell (for a pair that changed lines), the contract to the end.

    The Sitting cell comes after the opponents so that the total's heading spans the
    board and opponents alone whichever cells a narrow screen leaves out; there the
    line sat is folded beside the board number instead.
    """
    held = esc(c["held"])
    board = cat('<tr><td><a href="', _text(c["href"]), '">', esc(c["board"]), "</a>")
    opponents = cat("</td>", _pair_cell(c["opponent_href"], c["opponent"],
                                        c["opponent_names"]))
    sat = cat('<td class="held">', held, "</td>")
    rest = [_contract_cell(c["contract"], c["declarer"], c["result"], c["ruling"]),
            cat('<td class="by">', esc(c["declarer"]), '</td><td class="result">',
                esc(c["result"]), '</td><td class="lead">', suits(c["lead"]), "</td>"),
            _num(c["score"])]
    if has_mp:
        rest += [_num(c["mp"]), _num(c["pct"])]
    if has_imps:
        rest += [_num(c["imp"])]
    return np.stack([board, opponents]), sat, cat(*rest, "</tr>\n")


def held_fold(front: np.ndarray, held: Any, varied: bool) -> np.ndarray:
    """The board and opponents cells (``front``: the two halves of :func:`card_html`) with
    the line sat folded in beside the board number (a Howell), or not."""
    if not varied:
        return cat(front[0], front[1])
    return cat(front[0], '<span class="fold"> ', esc(held), "</span>", front[1])


def frequency_html(f: pd.DataFrame) -> np.ndarray:
    """One ``<tr>`` per formatted frequency row (score or ruling, times, MP and %)."""
    ruling = esc(f["ruling"])
    return cat('<tr><td class="num">', when(ruling != "", ruling, esc(f["score"])), "</td>",
               _num(f["count"]), _num(f["ns_mp"]), _num(f["ew_mp"]), _num(f["ns_pct"]),
               _num(f["ew_pct"]), "</tr>\n")


def card_chart(values: np.ndarray, boards: np.ndarray, pcts: np.ndarray) -> str:
    """The pair page's SVG bars: one per board (a red mark for 0 %), the 50 % line, every
    board numbered where there is room, else one in every few."""
    n = max(len(values), 1)
    step = 330 / n
    every = max(1, int(np.ceil(22 / step)))
    at = 26 + np.arange(len(values)) * step
    known = ~np.isnan(values)
    h = np.nan_to_num(values)
    x = tenths(at + step * 0.1)
    width = "%.1f" % (step * 0.8)
    title = cat("<title>Board ", esc(boards), ": ", esc(pcts), " %</title></rect>")
    bar = cat('<rect x="', x, '" y="', tenths(110 - np.maximum(h, 1.5)), f'" width="{width}"'
              ' height="', tenths(np.maximum(h, 1.5)), '" class="',
              when(h >= 50, "above", "below"), '">', title)
    zero = cat('<rect x="', x, f'" y="106" width="{width}" height="4" class="zero">', title)
    marks = when(known, when(h > 0, bar, zero))
    numbered = (np.arange(len(values)) % every) == 0
    labels = when(numbered, cat('<text x="', tenths(at + step / 2),
                                '" y="124" text-anchor="middle" class="axis">', esc(boards),
                                "</text>"))
    return "\n".join(cat(marks, labels).tolist())
