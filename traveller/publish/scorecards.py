"""The Score cards sheet: a printed page per pair, with its opponents' names and its total.

Each pair's block: a heading (section, pair, line, names, the ranking's
matchpoints, percentage and place), the column headers, one row per board
(board, cards held when the pair changed line, opponents' number and names,
contract, declarer, lead, score from the pair's view, matchpoints, %, ruling
when any), then a total row. A page break before every pair (up to Excel's
1,023 breaks per sheet); empty columns are left out.
"""

from __future__ import annotations

from typing import Any

import pandas as pd

from traveller.publish.layout import group_starts
from traveller.publish.sheet import (
    DECIMAL,
    MAX_BREAKS,
    MP_FORMAT,
    SIGNED,
    Column,
    blank,
    column,
    page_setup,
)

#: Card columns written per row (in this order) and their headers.
ROW_COLUMNS = {"session": "Session", "board": "Board", "held": "Cards", "opponent": "Opponents",
               "opponent_names": "Opponents' names", "contract": "Contract", "declarer": "By",
               "lead": "Lead", "score": "Score", "mp": "MP", "pct": "%", "ruling": "Ruling"}
_STYLES = {"score": SIGNED, "mp": MP_FORMAT, "pct": DECIMAL, "board": "center",
           "opponent": "center", "declarer": "center", "held": "center"}
_OTHER_LINE = {"NS": "EW", "EW": "NS", "": ""}
_LINE_WORDS = {"NS": "N-S", "EW": "E-W", "": ""}


def card_frame(cards: pd.DataFrame, ranking: pd.DataFrame) -> pd.DataFrame:
    """The cards with the opponents' names, without columns that are empty or repeat the pair."""
    cards = cards.reset_index(drop=True)
    keys = ["section", "line", "pair"]
    if ranking is not None and "names" in ranking and {"section", "line", "pair"} <= set(ranking):
        table = ranking.assign(pair=ranking["pair"].astype("Int64")).drop_duplicates(keys)
        lookup = table.set_index(keys)["names"]
        index = pd.MultiIndex.from_arrays([cards["section"], cards["line"].map(_OTHER_LINE),
                                           cards["opponent"].astype("Int64")])
        cards["opponent_names"] = lookup.reindex(index).fillna("").to_numpy()
    group = cards.groupby(keys, sort=False, dropna=False).ngroup()
    if "held" in cards and cards.groupby(group)["held"].nunique().le(1).all():
        cards = cards.drop(columns="held")  # every pair kept its line: said in the heading
    return cards


def _heading(first: pd.Series, totals: dict[tuple[Any, ...], dict[str, Any]]) -> str:
    line = str(first.get("line", "") or "")  # "" in a Howell: the Cards column says
    parts = [f"Section {first['section']}"] if str(first.get("section", "") or "") else []
    side = _LINE_WORDS.get(line, line)
    parts.append(f"Pair {first['pair']}" + (f" {side}" if side else ""))
    if str(first.get("names", "") or ""):
        parts.append(str(first["names"]))
    rank = totals.get((first["section"], line, first["pair"]))
    if rank is not None:
        if pd.notna(rank.get("mp")):
            parts.append(f"{float(rank['mp']):g} MP")
        if pd.notna(rank.get("pct")):
            parts.append(f"{float(rank['pct']):.2f} %")
        if "place" in rank:
            parts.append(f"place {rank['place']}")
    return " · ".join(parts)


def write_score_cards(book: Any, st: dict[str, Any], name: str, cards: pd.DataFrame,
                      ranking: pd.DataFrame, header: tuple[str, str]) -> None:
    """The Score cards sheet (see the module docstring)."""
    frame = card_frame(cards, ranking)
    shown = [c for c in ROW_COLUMNS if c in frame and not blank(frame[c])]
    cols = [column(ROW_COLUMNS[c], frame[c], _STYLES.get(c)) for c in shown]
    sheet = book.add_worksheet(name)
    for j, c in enumerate(cols):
        sheet.set_column(j, j, max(c.width, 7), st[c.style] if c.style else None)
    keys = ["section", "line", "pair"]
    starts = group_starts(frame, keys)
    ends = [*starts[1:], len(frame)]
    totals = _totals(ranking)
    r, breaks = 0, []
    span = len(cols)
    for start, end in zip(starts, ends, strict=True):
        if r:
            breaks.append(r)
        r = _block(sheet, st, cols, frame, start, end, r, _heading(frame.iloc[start], totals),
                   span)
    if 0 < len(breaks) <= MAX_BREAKS:
        sheet.set_h_pagebreaks(breaks)
    page_setup(sheet, header)


def _totals(ranking: pd.DataFrame) -> dict[tuple[Any, ...], dict[str, Any]]:
    """(section, line, pair) -> the pair's ranking row."""
    if ranking is None or not {"section", "pair"} <= set(ranking):
        return {}
    table = ranking if "line" in ranking else ranking.assign(line="")
    table = table.drop_duplicates(["section", "line", "pair"])
    return {(s, ln, p): row for s, ln, p, row in zip(
        table["section"], table["line"], table["pair"], table.to_dict("records"), strict=True)}



def _block(sheet: Any, st: dict[str, Any], cols: list[Column], frame: pd.DataFrame,
           start: int, end: int, r: int, heading: str, span: int) -> int:
    """One pair's card from sheet row ``r``; the row after it."""
    for j in range(span):
        sheet.write_blank(r, j, None, st["heading"])
    sheet.write_string(r, 0, heading, st["heading"])
    for j, c in enumerate(cols):
        sheet.write_string(r + 1, j, c.header, st["header"])
    r += 2
    whole = st["0"]
    for i in range(start, end):
        for j, c in enumerate(cols):
            v = c.values[i]
            if v is None:
                continue
            if c.kind == "text" or isinstance(v, str):
                sheet.write_string(r, j, v)
            elif c.kind == "mp" and v == int(v):
                sheet.write_number(r, j, v, whole)
            elif c.kind in ("number", "mp"):
                sheet.write_number(r, j, v)
            else:
                sheet.write(r, j, v)
        r += 1
    _total(sheet, st, cols, frame, start, end, r)
    return r + 2


def _total(sheet: Any, st: dict[str, Any], cols: list[Column], frame: pd.DataFrame,
           start: int, end: int, r: int) -> None:
    for j in range(len(cols)):
        sheet.write_blank(r, j, None, st["total"])
    sheet.write_string(r, 0, "Total", st["total"])
    headers = [c.header for c in cols]
    if "MP" in headers:
        mp = frame["mp"].iloc[start:end].astype(float).sum()
        sheet.write_number(r, headers.index("MP"), float(mp), st["total_mp"])
    if "%" in headers:
        pct = frame["pct"].iloc[start:end].astype(float)
        if pct.notna().any():
            sheet.write_number(r, headers.index("%"), float(pct.mean()), st["total_pct"])
