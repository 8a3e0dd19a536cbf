"""Individual events: four player numbers per result instead of two pair numbers.

A club individual gives each player a partner who changes every round, so a
traveller names the four players (``north``, ``south``, ``east``, ``west``)
and no pairs. Every result is scored as in pairs; what differs is who gets
the score (N and S the N-S side's, E and W the E-W side's) and the ranking,
one line per player (:mod:`traveller.score.individual`).

To score the results with the pairs machinery, each table's partnership gets
a number of its own here: N-S partnerships 1, 2, ... and E-W ones after
them, so a partnership that met twice on one board is still a
``duplicate-result``. The player columns travel beside them.
"""

from __future__ import annotations

from typing import Any

import numpy as np
import pandas as pd

from traveller.tidy.cells import col, int_array, whole_floats

PLAYERS = ("north", "south", "east", "west")
SIDES = {"north": "ns", "south": "ns", "east": "ew", "west": "ew"}


def _blank(frame: pd.DataFrame, column: str) -> bool:
    if column not in frame:
        return True
    return bool(frame[column].astype("string").fillna("").str.strip().eq("").all())


def is_individual(frame: pd.DataFrame) -> bool:
    """True for a traveller with the four player columns and no pair numbers."""
    return (all(p in frame for p in PLAYERS) and not _blank(frame, "north")
            and _blank(frame, "ns_pair") and _blank(frame, "ew_pair"))


def _players(frame: pd.DataFrame) -> dict[str, np.ndarray]:
    """Each player column as whole floats (NaN: missing or unreadable)."""
    out = {}
    for seat in PLAYERS:
        number, bad = whole_floats(col(frame, seat))
        out[seat] = np.where(bad | (number <= 0), np.nan, number)
    return out


def with_partnerships(frame: pd.DataFrame) -> pd.DataFrame:
    """An individual traveller with ``ns_pair``/``ew_pair`` numbering each partnership.

    A row missing a player (or with one that is not a whole number) gets no
    partnership number on that side, so it is listed as a ``missing-pair`` or
    ``bad-pair`` problem naming the player columns (and the two cells as typed,
    "Smith/3"). Other tables are returned
    as they are.

    >>> df = pd.DataFrame({"north": ["1", "3"], "south": ["2", "4"],
    ...                    "east": ["5", "7"], "west": ["6", "8"]})
    >>> with_partnerships(df)[["ns_pair", "ew_pair"]].values.tolist()
    [['1', '3'], ['2', '4']]
    """
    if not is_individual(frame):
        return frame
    players = _players(frame)
    out = frame.copy()
    offset = 0
    for side, (a, b) in (("ns", ("north", "south")), ("ew", ("east", "west"))):
        known = ~np.isnan(players[a]) & ~np.isnan(players[b])
        key = pd.Series(np.where(known, players[a] * 1e6 + players[b], np.nan))
        codes, uniques = pd.factorize(key)
        number = np.where(codes >= 0, codes + 1 + offset, -1)
        offset += len(uniques)
        missing = _empty(col(frame, a)) | _empty(col(frame, b))
        typed = (col(frame, a).astype("string").fillna("") + "/"  # (what a problem shows)
                 + col(frame, b).astype("string").fillna("")).to_numpy(dtype=object)
        text = np.where(number > 0, number.astype(str), np.where(missing, "", typed))
        out[f"{side}_pair"] = pd.array([None if t == "" else t for t in text.tolist()],
                                       dtype="string")
    return out


def _empty(values: pd.Series) -> np.ndarray:
    return values.astype("string").fillna("").str.strip().eq("").to_numpy(dtype=bool)


def player_columns(frame: pd.DataFrame) -> dict[str, Any]:
    """The four player numbers of an individual traveller as Int64 columns (else nothing)."""
    if not all(p in frame for p in PLAYERS):
        return {}
    players = _players(frame)
    return {seat: pd.Series(int_array(players[seat]), index=frame.index) for seat in PLAYERS}
