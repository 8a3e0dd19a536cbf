"""Legal but improbable results: ``unusual-score`` warnings, as scoring programs give.

They catch a mistyped declarer or result that still makes a legal score:

* a score that is the mirror of the field's: the highest or lowest score on
  its board, alone on its side of zero, at least 500 from the nearest other
  score, more than twice as far as the other scores spread, and within
  ``MIRROR`` of minus one of them (+420 five times and -420 once: the
  declarer was probably typed on the wrong side; a game one down among
  games made is not listed);
* a slam bid and made at one table only, taking the same tricks in the same
  strain by the same side as a partscore three or more levels lower elsewhere
  (6S making 12 beside 2S making 12: one of the two levels is probably
  mistyped).

Warnings only: the row is scored as read and listed for the director to check.
"""

from __future__ import annotations

import numpy as np
import pandas as pd

from traveller.problems import flag
from traveller.schema import DECLARERS
from traveller.tidy.arrays import NO_ROWS

#: Each declarer's side, 0 N-S, 1 E-W (a seat's, or the side written alone: NS, EW).
_SIDE_OF = {d: i % 2 for i, d in enumerate(DECLARERS)}

#: The least gap to the nearest other score that can make a score unusual.
MIN_GAP = 500
#: How close -score must come to another score on the board to be its mirror.
MIRROR = 50
#: Boards with fewer results than this are not judged (too few to know the field).
MIN_RESULTS = 4

#: The columns a problem row names its row by.
_WHERE = ("file", "sheet", "row")


def unusual_scores(scored: pd.DataFrame) -> pd.DataFrame:
    """``unusual-score`` warnings for the scored results (see the module docstring)."""
    if scored.empty or "ns_score" not in scored:
        return flag(NO_ROWS, "unusual-score", "")
    keep = scored["ns_score"].notna().to_numpy(dtype=bool)
    if "ruling_kind" in scored:
        keep = keep & scored["ruling_kind"].isna().to_numpy(dtype=bool)
    plain = scored if keep.all() else scored.iloc[np.flatnonzero(keep)]
    outliers, slams = _outliers(plain), _lone_slams(plain)
    return outliers if outliers.empty and slams.empty else pd.concat([outliers, slams])


def _outliers(frame: pd.DataFrame) -> pd.DataFrame:
    """Mirror scores (see the module docstring), from one sort by board and score."""
    section = pd.factorize(frame["section"])[0].astype(np.int64)
    board = frame["board"].to_numpy(dtype=np.int64, na_value=0)
    group = section * (int(board.max(initial=0)) + 1) + board
    score = frame["ns_score"].to_numpy(dtype=np.float64)
    order = np.lexsort((score, group))
    g, s = group[order], score[order]
    starts = np.flatnonzero(np.r_[True, g[1:] != g[:-1]]) if len(g) else np.zeros(0, np.int64)
    ends = np.r_[starts[1:], len(g)].astype(np.int64)
    big = (ends - starts) >= MIN_RESULTS
    starts, ends = starts[big], ends[big]
    bottom, second_bottom, top, second_top = s[starts], s[starts + 1], s[ends - 1], s[ends - 2]
    # the lone result on the other side of zero from all the field (a bid slam beside
    # games is a big gap too, but of the same sign)
    gap_top, gap_bottom = top - second_top, second_bottom - bottom
    high = ((gap_top >= MIN_GAP) & (gap_top > 2 * (second_top - bottom))
            & (top > 0) & (second_top <= 0))
    low = ((gap_bottom >= MIN_GAP) & (gap_bottom > 2 * (top - second_bottom))
           & (bottom < 0) & (second_bottom >= 0))
    at = np.r_[ends[high] - 1, starts[low]].astype(np.int64)
    lows, highs = np.r_[bottom[high], second_bottom[low]], np.r_[second_top[high], top[low]]
    mirrored = _mirrored(g, s, at)
    if not mirrored.any():  # the usual board: nothing to take out of the frame
        return flag(NO_ROWS, "unusual-score", "score")
    rows = frame[[*_WHERE, "ns_score", "board"]].iloc[order[at[mirrored]]]
    detail = pd.Series([f"N-S {int(v):+d} where the other results on board {b} are "
                        f"{int(lo):+d} to {int(hi):+d}"
                        for v, b, lo, hi in zip(rows["ns_score"], rows["board"], lows[mirrored],
                                                highs[mirrored], strict=True)],
                       index=rows.index, dtype="string")
    return flag(rows, "unusual-score", "score", rows["ns_score"], detail, blocking=False)


def _mirrored(group: np.ndarray, score: np.ndarray, at: np.ndarray) -> np.ndarray:
    """Is minus the score at each sorted position ``at`` within MIRROR of a score of its board?"""
    if not len(at):
        return np.zeros(0, dtype=bool)
    key = group * 100_000.0 + score  # scores stay within +-8,000: boards never overlap
    want = group[at] * 100_000.0 - score[at]
    found = np.minimum(np.searchsorted(key, want - MIRROR, side="left"), len(key) - 1)
    return (group[found] == group[at]) & (np.abs(key[found] - want) <= MIRROR)


def _codes(values: pd.Series | np.ndarray) -> np.ndarray:
    """Integer codes of a column, equal codes for equal cells (-1: missing)."""
    return pd.factorize(values)[0].astype(np.int64)


def _text_codes(values: pd.Series) -> np.ndarray:
    """:func:`_codes` of a column's cells as text (a categorical of texts: its own codes)."""
    if (isinstance(values.dtype, pd.CategoricalDtype)
            and isinstance(values.cat.categories.dtype, pd.StringDtype)):
        return values.cat.codes.to_numpy().astype(np.int64)  # distinct texts already
    return _codes(values.astype("string"))


def _named(values: pd.Series, names: dict[str, int]) -> np.ndarray:
    """Per row, the number ``names`` gives the cell's text (-1 for others and missing)."""
    if isinstance(values.dtype, pd.CategoricalDtype):
        codes, labels = values.cat.codes.to_numpy(), values.cat.categories.tolist()
    else:
        codes, uniques = pd.factorize(values.astype("string"))
        labels = list(uniques)
    lookup = np.array([names.get(str(t), -1) for t in labels] + [-1], dtype=np.int64)
    return lookup[codes]


def _sections(section: pd.Series) -> np.ndarray:
    """Codes of the section texts, a missing section counting as ""."""
    if (isinstance(section.dtype, pd.CategoricalDtype)
            and isinstance(section.cat.categories.dtype, pd.StringDtype)
            and "" in section.cat.categories):
        codes = section.cat.codes.to_numpy().astype(np.int64)
        return np.where(codes < 0, section.cat.categories.get_loc(""), codes)
    return _text_codes(section.astype("string").fillna(""))


def _lone_slams(frame: pd.DataFrame) -> pd.DataFrame:
    """Lone slams that took the tricks of a partscore in the same strain by the same side.

    Works on integer codes of (section, board, side, strain, tricks): a few numpy
    passes, whatever the session's size.
    """
    level = frame["level"].to_numpy(dtype=np.float64, na_value=np.nan)
    tricks = frame["tricks"].to_numpy(dtype=np.float64, na_value=np.nan)
    with np.errstate(invalid="ignore"):
        slam = (level >= 6) & (tricks >= level + 6)
        # a partscore three levels or more below the slam (2S+4 beside 6S=): one of the
        # two levels was likely mistyped; 4C+2 beside 6C= is just a missed slam
        part = (level >= 1) & (level <= 3) & (_named(frame["strain"], {"NT": 1}) != 1)
    if not (slam.any() and part.any()):
        return flag(NO_ROWS, "unusual-score", "contract")
    sections, board = _sections(frame["section"]), _codes(frame["board"].array)
    group = _codes(sections * (board.max(initial=0) + 2) + board)
    slams_on_board = np.bincount(group[slam], minlength=group.max(initial=0) + 1)[group]
    lone = slam & (board >= 0) & (slams_on_board == 1)  # (a missing board is no group)
    side = _named(frame["declarer"], _SIDE_OF)
    key = np.stack([sections, board, side, _text_codes(frame["strain"]), _codes(tricks)], axis=1)
    partscores = {tuple(k) for k in key[part].tolist()}
    hit = [i for i in np.flatnonzero(lone).tolist() if tuple(key[i].tolist()) in partscores]
    if not hit:  # the usual session: no problem rows (what flag gives for no rows)
        return flag(NO_ROWS, "unusual-score", "contract")
    rows = frame.loc[frame.index[hit]]
    detail = ("the only slam on board " + rows["board"].astype("string") + ", taking the "
              + rows["tricks"].astype("string") + " tricks a partscore took elsewhere")
    return flag(rows, "unusual-score", "contract", rows["contract"], detail, blocking=False)
