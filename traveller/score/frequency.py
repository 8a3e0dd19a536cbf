"""Frequency score tables: each distinct result of a board and how many times it was scored.

Some PBN exports (OKbridge, world simultaneous pairs) publish a board's
ScoreTable as its distinct results with a ``Multiplicity`` column and no pair
numbers. Such a table is scored by counting each result as many times as
given (:func:`expand`), computing matchpoints, IMPs and percentages as for
any traveller, and folding the copies back into one row per published result
(:func:`collapse`) beside the published values. With no pair numbers there
is no pair ranking; the summary says so.
"""

from __future__ import annotations

from typing import Any

import numpy as np
import pandas as pd

from traveller.read.raw import Loaded

#: What the summary says instead of a ranking.
NO_RANKING = "none: a frequency table has no pair numbers, so results only"


def is_frequency_table(loaded: Loaded) -> bool:
    """True when the file's results are a frequency table (PBN ``Multiplicity``, no pairs)."""
    return any(t.meta.get("layout") == "frequency" for t in loaded.tables)


def counts(frame: pd.DataFrame) -> np.ndarray:
    """Each row's multiplicity as a whole number from 1 (a blank or unreadable one counts 1)."""
    if "multiplicity" not in frame:
        return np.ones(len(frame), dtype=np.int64)
    number = pd.to_numeric(frame["multiplicity"], errors="coerce").to_numpy(dtype=float)
    whole = np.where(np.isfinite(number) & (number >= 1), np.floor(number), 1)
    return whole.astype(np.int64)


def expand(frame: pd.DataFrame) -> pd.DataFrame:
    """Each row repeated as many times as it was scored, with ``_result`` its row before.

    >>> expand(pd.DataFrame({"ns_score": [420, -50], "multiplicity": [3, 1]}))["ns_score"].tolist()
    [420, 420, 420, -50]
    """
    n = counts(frame)
    out = frame.iloc[np.repeat(np.arange(len(frame)), n)].reset_index(drop=True)
    out["_result"] = np.repeat(np.arange(len(frame)), n)
    return out


def collapse(frame: pd.DataFrame) -> pd.DataFrame:
    """One row per published result again (the first of its copies: all score alike)."""
    if "_result" not in frame:
        return frame
    first = frame.drop_duplicates("_result").sort_values("_result", kind="stable")
    return first.drop(columns="_result").reset_index(drop=True)


def counted(result: Any) -> pd.DataFrame:
    """A result's travellers with each result as often as it was scored (for the
    Frequencies and Summary sheets); the travellers as they are unless it is a frequency table.
    """
    travellers: pd.DataFrame = result.travellers
    if not result.settings.get("frequency_table"):
        return travellers
    return expand(travellers).drop(columns="_result")


def without_pair_warnings(problems: pd.DataFrame) -> pd.DataFrame:
    """The problems less the ``unknown-pair`` warnings a table without pair numbers gives."""
    return problems[problems["code"] != "unknown-pair"].reset_index(drop=True)
