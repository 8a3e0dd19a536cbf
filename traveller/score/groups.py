"""Which results are compared with each other: integer ids of each row's board group.

Matchpoints, adjusted scores, cross-IMPs and Butler all compare a result with
the other results of its board, within its section (or across the field) and,
on a fouled board, within its group of tables that played the same cards.
:func:`board_groups` gives those ids once, as integers, so every method groups
on the same keys without strings per row.
"""

from __future__ import annotations

from typing import NamedTuple

import numpy as np
import pandas as pd


class BoardGroups(NamedTuple):
    """Per row: the id of its board (within its section), its comparison group, its section."""

    board: np.ndarray
    group: np.ndarray
    section: np.ndarray


def _codes(values: pd.Series) -> np.ndarray:
    """Integer codes of a text column, a missing value sharing the code of ""."""
    codes, uniques = pd.factorize(values)
    if (codes < 0).any():
        empty = np.flatnonzero(np.asarray(uniques, dtype=object) == "")
        codes = np.where(codes < 0, empty[0] if len(empty) else len(uniques), codes)
    return codes.astype(np.int64)


def board_groups(frame: pd.DataFrame, by_section: bool = True) -> BoardGroups:
    """Ids of each row's board and comparison group; ordered by board, then section.

    ``by_section=False`` compares a board across the whole field (one section).
    The comparison group splits a board further by its ``fouled`` group, when
    the frame has that column. A missing board number gets the id of board 0.

    >>> df = pd.DataFrame({"section": ["A", "B", "A"], "board": [2, 2, 1]})
    >>> board_groups(df).board.tolist(), board_groups(df, by_section=False).board.tolist()
    ([4, 5, 2], [2, 2, 1])
    """
    board = frame["board"].to_numpy(dtype=np.int64, na_value=0)
    if by_section and "section" in frame:
        section = _codes(frame["section"])
    else:
        section = np.zeros(len(frame), dtype=np.int64)
    ids = board * (int(section.max(initial=0)) + 1) + section
    if "fouled" not in frame:
        return BoardGroups(ids, ids, section)
    fouled = _codes(frame["fouled"].astype("string").fillna(""))
    return BoardGroups(ids, ids * (int(fouled.max(initial=0)) + 1) + fouled, section)


def dense(ids: np.ndarray) -> tuple[np.ndarray, int]:
    """Ids renumbered 0..n-1 in their order, and n.

    >>> dense(np.array([7, 3, 7]))[0].tolist()
    [1, 0, 1]
    """
    uniques, codes = np.unique(ids, return_inverse=True)
    return codes.astype(np.int64), len(uniques)
