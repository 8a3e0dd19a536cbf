"""The ranking of an individual event: one line per player (docs/scoring.md).

Each result is matchpointed as in pairs; North and South each get the N-S
side's (Neuberg-scaled) matchpoints, East and West the E-W side's, an
artificial score going to both players of its side. A player's percentage is
their matchpoints over the most they could have scored on the boards they
played, and the players are ranked together, as a Howell's pairs are.
"""

from __future__ import annotations

from typing import Any

import pandas as pd

from traveller.score.rank import rank_pairs
from traveller.tidy.individual import PLAYERS


def is_individual(frame: pd.DataFrame) -> bool:
    """True for scored travellers of an individual: the four player columns hold the players'
    numbers (a pairs or teams file's player columns hold their names, as text)."""
    return (all(p in frame and pd.api.types.is_integer_dtype(frame[p]) for p in PLAYERS)
            and bool(frame["north"].notna().any()))


def player_rows(frame: pd.DataFrame) -> pd.DataFrame:
    """Each result twice, as two Howell "pairs": (N, E) and (S, W) in the pair columns.

    A player then has one row per board they played, on the side they sat,
    which is all a pairs ranking needs.

    >>> df = pd.DataFrame({"board": [1], "north": [1], "south": [2], "east": [3], "west": [4],
    ...                    "ns_pair": [1], "ew_pair": [2]})
    >>> player_rows(df)[["ns_pair", "ew_pair"]].values.tolist()
    [[1, 3], [2, 4]]
    """
    first = frame.assign(ns_pair=frame["north"].astype("Int64"),
                         ew_pair=frame["east"].astype("Int64"))
    second = frame.assign(ns_pair=frame["south"].astype("Int64"),
                          ew_pair=frame["west"].astype("Int64"))
    return pd.concat([first, second], ignore_index=True)


def rank_players(frame: pd.DataFrame, names: pd.DataFrame | None = None, *,
                 by_section: bool = True) -> pd.DataFrame:
    """One line per player: section, line (blank), pair (the player's number), names,
    boards, mp, mp_factored, pct, place; ranked by percentage across the field."""
    ranking = rank_pairs(player_rows(frame), movement="howell", names=names,
                         by_section=by_section, one_ranking=True)
    return ranking.assign(line="")


def card_travellers(travellers: pd.DataFrame, settings: dict[str, Any]
                    ) -> tuple[pd.DataFrame, str]:
    """The travellers and movement score cards are made from: an individual's give one card
    per player (each result twice, North with East and South with West, as a Howell's
    pairs, so a card names the player's right-hand opponent)."""
    if settings.get("individual"):
        return player_rows(travellers), "howell"
    return travellers, str(settings.get("movement", "mitchell"))
