"""Tricks or relative result: how each Result column is read, decided from the whole column.

Excel turns a typed ``+2`` into the number 2, so in a column of relative
results (``=``, ``+1``, ``-2``) some cells arrive as bare numbers. A bare
number n can be read as n tricks taken or as n overtricks. The column's
reading is decided once from all its cells: signed cells or ``=``/``M`` mark a
relative column; otherwise the reading that makes sense of more rows for their
contracts wins. A row the column's reading makes implausible (six or more
undertricks undoubled, eight doubled) or impossible (more than 13 tricks), or
a bare number in a relative column that reads well both ways, is listed as a
``result-reading`` warning with both readings.
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np
import pandas as pd

from traveller.tidy.cells import int_array, parse_tricks
from traveller.words import plural

#: Undertricks from which a result is implausible, undoubled and doubled.
IMPLAUSIBLE_DOWN = (6, 8)


@dataclass
class Reading:
    """One Result (or Tricks) column read: absolute tricks, relative results, doubts."""

    tricks: pd.Series  # tricks taken, where the cell gives them (Int64)
    rel: pd.Series  # result relative to the contract, where the cell gives that (Int64)
    bad: pd.Series  # unreadable non-blank cells
    doubt: pd.Series  # rows to list as result-reading warnings
    detail: pd.Series  # both readings, for the doubtful rows


def read_results(values: pd.Series, level: np.ndarray, doubled: np.ndarray) -> Reading:
    """Read a tricks/result column against each row's contract level and doubling.

    ``level`` and ``doubled`` are float arrays (NaN: no contract read).
    """
    tricks, rel, bad = parse_tricks(values)
    r = rel.to_numpy(dtype="float64", na_value=np.nan)
    marked = int((~np.isnan(r)).sum())
    n = tricks.to_numpy(dtype="float64", na_value=np.nan)
    lv = np.asarray(level, dtype=np.float64)
    limit = np.where(np.nan_to_num(doubled) > 0, *IMPLAUSIBLE_DOWN[::-1])
    bare = ~np.isnan(n) & (lv > 0) & (n >= 0) & (n <= 13)  # else out of range, listed so
    ok_t = bare & (n >= 0) & (n <= 13) & (lv + 6 - n < limit)
    ok_r = bare & (n >= 0) & (lv + 6 + n <= 13)
    for_rel, for_tricks = marked + int((ok_r & ~ok_t).sum()), int((ok_t & ~ok_r).sum())
    relative = for_rel > for_tricks
    if relative:
        use_rel = bare & ~(ok_t & ~ok_r)
        # 10 tricks beside "=" and "+1" is tricks for sure: no overtrick count is 7 or more
        doubt = bare & ((ok_t & ok_r) | (~ok_t & ~ok_r) | (~ok_r & (n <= 6)))
    else:
        use_rel = np.zeros(len(n), dtype=bool)
        doubt = bare & ~ok_t
        # nothing in the column tells, or it holds marks (=, +1) beside its tricks: a
        # mixed column, where a bare 2 beside 1NT may be the +2 of its neighbours
        if for_rel == for_tricks or marked:
            doubt |= ok_t & ok_r
    # a bare number read as relative moves from the tricks to the relative result
    index = values.index
    rel = pd.Series(int_array(np.where(np.isnan(r), np.where(use_rel, n, np.nan), r)), index=index)
    tricks = pd.Series(int_array(np.where(use_rel, np.nan, n)), index=index)
    doubt_s = pd.Series(doubt, index=values.index)
    return Reading(tricks, rel, bad, doubt_s, _both(n[doubt], lv[doubt], use_rel[doubt],
                                                    values.index[doubt]))


def _outcome(level: float, taken: float) -> str:
    if taken > 13:
        return "impossible, more than 13 tricks"
    if taken < 0:
        return "impossible, fewer than 0 tricks"
    made = int(taken) - 6
    return f"made {made}" if made >= level else f"down {int(level) - made}"


def _both(n: np.ndarray, level: np.ndarray, as_rel: np.ndarray, index: pd.Index) -> pd.Series:
    """'read as +2, made 6; could be 2 tricks taken, down 8' for each doubtful row."""
    texts = []
    for k, lv, rel in zip(n.tolist(), level.tolist(), as_rel.tolist(), strict=True):
        relative = f"+{int(k)}, {_outcome(lv, lv + 6 + k)}"
        absolute = f"{plural(int(k), 'trick')} taken, {_outcome(lv, k)}"
        chosen, other = (relative, absolute) if rel else (absolute, relative)
        texts.append(f"read as {chosen}; could be {other}")
    return pd.Series(texts, index=index, dtype="string")
