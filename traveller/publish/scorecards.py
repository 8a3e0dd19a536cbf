"""The Score cards sheet: a printed page per pair, with its opponents' names and its total.

Each pair's block: a heading (section, pair, line, names), the column
headers, one row per board (board, cards held when the pair changed line,
opponents' number and names, contract, declarer, result ``=``/``+1``/``-2``,
lead, score from the pair's view, matchpoints, %, ruling when any), a total
row (the card's matchpoints added up, its mean %), then the pair's figures on
the ranking (its place, matchpoints, % or IMPs, as numbers in their columns:
they differ from the card's total where a board was not played). A page
break before every pair (up to Excel's 1,023 breaks per sheet); empty columns
are left out.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from itertools import islice
from typing import Any

import numpy as np
import pandas as pd

from traveller.publish.cards import names_lookup
from traveller.publish.keys import change_starts, floats, group_ids, key_codes, plain
from traveller.publish.sheet import (
    DECIMAL,
    MAX_BREAKS,
    MP_FORMAT,
    SIGNED,
    Column,
    blank,
    column,
    header_format,
    page_setup,
    row_cells,
)
from traveller.tidy.arrays import array_of
from traveller.words import places

#: Card columns written per row (in this order) and their headers.
ROW_COLUMNS = {"session": "Session", "board": "Board", "held": "Cards", "opponent": "Opponents",
               "opponent_names": "Opponents' names", "contract": "Contract", "declarer": "By",
               "result": "Result", "lead": "Lead", "score": "Score", "mp": "MP", "pct": "%",
               "imp": "IMPs", "ruling": "Ruling"}
_STYLES = {"score": SIGNED, "mp": MP_FORMAT, "pct": DECIMAL, "imp": MP_FORMAT, "board": "center",
           "opponent": "center", "declarer": "center", "held": "center", "result": "center",
           "ruling": "indent"}
_OTHER_LINE = {"NS": "EW", "EW": "NS", "": ""}
_LINE_WORDS = {"NS": "N-S", "EW": "E-W", "": ""}


def card_columns(cards: pd.DataFrame | Mapping[str, pd.Series], ranking: pd.DataFrame,
                 names: dict[tuple[Any, Any, Any], str] | None = None) -> dict[str, pd.Series]:
    """The cards' columns with the opponents' names, less the Cards column when it repeats
    the pair's line (no frame is built: each column is read once); ``names``:
    ``names_lookup(ranking)`` when made already."""
    columns = dict(cards.items())
    keys = ["section", "line", "pair"]
    if ranking is not None and "names" in ranking and set(keys) <= set(ranking):
        names = names_lookup(ranking) if names is None else names
        other = [_OTHER_LINE.get(line) for line in plain(columns["line"])]
        columns["opponent_names"] = pd.Series(np.array(  # text, as a frame's column infers
            [names.get(key, "") for key in zip(plain(columns["section"]), other, plain(pd.array(
                columns["opponent"], dtype="Int64")), strict=True)], dtype=object))
    if "held" in columns and _one_per_pair(columns, keys):
        del columns["held"]  # every pair kept its line: said in the heading
    return columns


def _one_per_pair(cards: dict[str, pd.Series], keys: list[str]) -> bool:
    """True when each pair's cards show at most one line held (missing cells aside)."""
    pair = group_ids(*(cards[k] for k in keys))
    held = key_codes(cards["held"])[0]
    shown = held >= 0
    if not shown.any():  # no cards (a frequency table has no pairs)
        return True
    pairs = pair[shown]
    return len(np.unique(pairs * (held.max(initial=0) + 1) + held[shown])) == len(np.unique(pairs))


def _heading(first: dict[str, Any], who: str = "Pair") -> str:
    line = str(first.get("line", "") or "")  # "" in a Howell: the Cards column says
    parts = [f"Section {first['section']}"] if str(first.get("section", "") or "") else []
    side = _LINE_WORDS.get(line, line)
    parts.append(f"{who} {first['pair']}" + (f" {side}" if side else ""))
    if str(first.get("names", "") or ""):
        parts.append(str(first["names"]))
    return " · ".join(parts)


def write_score_cards(book: Any, st: dict[str, Any], name: str,
                      cards: pd.DataFrame | Mapping[str, pd.Series], ranking: pd.DataFrame,
                      header: tuple[str, str],
                      names: dict[tuple[Any, Any, Any], str] | None = None,
                      who: str = "Pair", figure: str = "") -> None:
    """The Score cards sheet (see the module docstring): ``cards`` a frame or its columns
    (``names``: ``names_lookup(ranking)`` when made already; ``figure``: an event's
    heading of the figure its places follow, the ranking's ``score``, named on each card's
    ranking line)."""
    frame = card_columns(cards, ranking, names)
    shown = [c for c in ROW_COLUMNS if c in frame and not blank(frame[c])]
    cols = [column(ROW_COLUMNS[c], frame[c], _STYLES.get(c)) for c in shown]
    sheet = book.add_worksheet(name)
    for j, c in enumerate(cols):
        sheet.set_column(j, j, max(c.width, 7), st[c.style] if c.style else None)
    keys = ["section", "line", "pair"]
    starts = change_starts(*(frame[k] for k in keys))
    ends = [*starts[1:], len(frame["pair"])] if starts else []  # (no card: no block)
    totals = _totals(ranking, bool(figure))
    at = np.asarray(starts, dtype=np.intp)  # an array index: far cheaper than a list's
    firsts = {c: plain(array_of(frame[c])[at]) for c in ("section", "line", "pair", "names")
              if c in frame}
    total_rows = _total_rows(st, cols, _sums(frame, cols), starts, ends)
    values, formats = row_cells(cols, st["0"], starts, st[DECIMAL])
    r, breaks = 0, []
    for i, (start, end) in enumerate(zip(starts, ends, strict=True)):
        if r:
            breaks.append(r)
        first: dict[str, Any] = {c: v[i] for c, v in firsts.items()}
        r = _block(sheet, st, cols, zip(islice(values, end - start), formats[start:end],
                                        strict=True), r, _heading(first, who))
        sheet.put_blanks(r, range(len(cols)), st["total"])
        sheet.put_row(r, *total_rows[i])
        rank = totals.get((first["section"], str(first.get("line", "") or ""), first["pair"]))
        _ranked(sheet, st, cols, rank, r + 1, figure)
        r += 3
    if 0 < len(breaks) <= MAX_BREAKS:
        sheet.set_h_pagebreaks(breaks)
    page_setup(sheet, header)


def _totals(ranking: pd.DataFrame, event: bool = False) -> dict[tuple[Any, ...], dict[str, Any]]:
    """(section, line, pair) -> the pair's ranking row (an ``event``'s score too)."""
    if ranking is None or not {"section", "pair"} <= set(ranking):
        return {}
    line = plain(ranking["line"]) if "line" in ranking else [""] * len(ranking)
    shown = [c for c in ("mp", "pct", "imps", "place", *(("score",) if event else ()))
             if c in ranking]  # what a heading says
    rows = zip(*(plain(ranking[c]) for c in shown), strict=True) if shown else [()] * len(line)
    totals: dict[tuple[Any, ...], dict[str, Any]] = {}
    for key, row in zip(zip(plain(ranking["section"]), line, plain(ranking["pair"]),
                            strict=True), rows, strict=True):
        totals.setdefault(key, dict(zip(shown, row, strict=True)))  # a pair's first row
    return totals



def _block(sheet: Any, st: dict[str, Any], cols: list[Column],
           rows: Iterable[tuple[tuple[Any, ...], tuple[Any, ...]]], r: int, heading: str) -> int:
    """One pair's card from sheet row ``r`` (its total row left for :func:`_total`)."""
    sheet.put_blanks(r, range(len(cols)), st["heading"])
    sheet.put_row(r, [heading], [st["heading"]])
    sheet.put_row(r + 1, [c.header for c in cols], [header_format(st, c) for c in cols])
    r += 2
    for values, formats in rows:
        sheet.put_row(r, values, formats)
        r += 1
    return r


def _ranked(sheet: Any, st: dict[str, Any], cols: list[Column],
            rank: dict[str, Any] | None, r: int, figure: str = "") -> None:
    """The pair's figures on the ranking, under the card's total: its place (and an
    event's ``figure``, what the place follows), then its matchpoints, % and IMPs as
    numbers in their columns."""
    if not rank:
        return
    headers = [c.header for c in cols]
    label = f"Ranking: place {rank['place']}" if "place" in rank else "Ranking"
    if figure and rank.get("score") is not None and pd.notna(rank["score"]):
        score = float(rank["score"])
        label += f" · {figure} " + (places(score) if figure.endswith("%") or
                                    not score.is_integer() else f"{score:.0f}")
    values: list[Any] = [label]
    values += [None] * (len(cols) - 1)
    formats: list[Any] = [st["top"]] + [None] * (len(cols) - 1)
    for key, header in (("mp", "MP"), ("pct", "%"), ("imps", "IMPs")):
        value = rank.get(key)
        if header in headers and value is not None and pd.notna(value):
            j = headers.index(header)
            number = float(value)
            values[j] = number
            formats[j] = st["0" if key != "pct" and number.is_integer() else DECIMAL]
    sheet.put_row(r, values, formats)


def _sums(frame: dict[str, pd.Series], cols: list[Column]) -> dict[str, np.ndarray]:
    """The MP and % columns shown, missing values as 0, and where each is known, for totals."""
    headers = {c.header for c in cols}
    sums = {}
    for name, header in (("mp", "MP"), ("pct", "%"), ("imp", "IMPs")):
        if header in headers:
            values = floats(frame[name])
            known = ~np.isnan(values)
            sums[name], sums[f"{name}_known"] = np.where(known, values, 0.0), known
    return sums


def _total_rows(st: dict[str, Any], cols: list[Column], sums: dict[str, np.ndarray],
                starts: list[int], ends: list[int]) -> list[tuple[list[Any], list[Any]]]:
    """Each pair's total row (values, formats): its matchpoints added up, its mean % (missing
    values left out), its IMPs added up; the pairs' cards run from ``starts`` to ``ends``."""
    headers = [c.header for c in cols]
    values: list[Any] = ["Total"] + [None] * (len(cols) - 1)
    rows = [(list(values), [st["total"]] * len(cols)) for _ in starts]
    at = np.asarray(starts, dtype=np.intp)
    if not len(at):
        return rows
    spans = list(zip(starts, ends, strict=True))
    if "mp" in sums:  # the sum of the known values, as numpy's nansum adds them
        j, mp = headers.index("MP"), sums["mp"]
        whole = np.logical_and.reduceat(mp == np.floor(mp), at).tolist()  # (runs not empty)
        for (row, formats), (start, end), here in zip(rows, spans, whole, strict=True):
            row[j] = float(mp[start:end].sum())
            formats[j] = st["total_whole" if here else "total_pct"]
    if "pct" in sums:  # and their mean, as nanmean: that sum over how many are known
        j, pct = headers.index("%"), sums["pct"]
        known = np.add.reduceat(sums["pct_known"].astype(np.int64), at).tolist()
        for (row, formats), (start, end), count in zip(rows, spans, known, strict=True):
            if count:
                row[j], formats[j] = float(pct[start:end].sum() / count), st["total_pct"]
    if "imp" in sums:  # the IMPs of the boards on the card, added up
        j, imp = headers.index("IMPs"), sums["imp"]
        for (row, formats), (start, end) in zip(rows, spans, strict=True):
            row[j] = total = float(imp[start:end].sum())
            formats[j] = st["total_whole" if total.is_integer() else "total_pct"]
    return rows
