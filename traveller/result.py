"""A scored session, as the publishers, the batch and the simultaneous take it.

It lives below all of them (and below :mod:`traveller.pipeline`, which makes it),
so that every import points down: the publishers type their argument with it
and never import the pipeline.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field

import pandas as pd

from traveller.words import plural


@dataclass
class Result:
    """A scored session: travellers, ranking and problems, plus what was decided.

    What every stage after scoring takes (the publishers, the batch, the
    simultaneous); :class:`traveller.pipeline.Result`, which :func:`traveller.process`
    returns, adds ``to_excel`` and the score cards, frequencies and summary frames.
    """

    travellers: pd.DataFrame
    ranking: pd.DataFrame
    problems: pd.DataFrame
    settings: dict[str, object] = field(default_factory=dict)
    source: str = ""
    session_rankings: pd.DataFrame | None = None  # a multi-session event's own rankings
    tables: dict[str, pd.DataFrame] = field(default_factory=dict)  # a method's own tables
    #: What the publications print above the results: ``title``, ``date``, ``club``,
    #: ``status`` (e.g. provisional until a time); absent keys are not printed.
    meta: dict[str, str] = field(default_factory=dict)
    #: One row per board with a deal: board, dealer, vulnerable, north..west, deal, complete
    #: (None when the session has no deals: a session without them builds nothing).
    hands: pd.DataFrame | None = None
    #: Double dummy: board, declarer (N E S W), strain (C D H S NT), tricks; 20 rows a deal
    #: (empty when the deals were not analysed; None without deals).
    dd: pd.DataFrame | None = None
    #: Par: board, par_score (N-S's view), par_contract (as ``dd``).
    par: pd.DataFrame | None = None
    #: Master points per player (section, line, pair, player, player_id, place, award,
    #: scale) when a scale was given (``process(..., points="abf")``), else None.
    points: pd.DataFrame | None = None
    #: The players of each ranked pair (section, line, pair, player, player_id), from
    #: the names; what a season's ladder and the results store know each player by.
    players: pd.DataFrame | None = None
    #: The pairs' names the session was ranked with (section, pair, line, names, ...): the
    #: names sheet or file, and the names the traveller's rows write for the pairs it
    #: does not name; None when neither names a pair.
    names: pd.DataFrame | None = None

    def __repr__(self) -> str:
        t = self.travellers
        boards = int(t["board"].nunique()) if "board" in t and len(t) else 0
        method = str(self.settings.get("method", "mp"))
        how = (f"matchpoints {self.settings.get('scale', '2/1/0')}" if method == "mp"
               else f"method {method}")
        shown = self.movement_shown
        movement = "" if shown == method else shown.capitalize()  # (a teams match: once)
        n = len(self.problems)
        return (f"Result: {plural(len(self.ranking), self.ranked_as)}, {plural(boards, 'board')}, "
                f"{plural(len(t), 'result')}, {plural(n, 'problem')}; {how}"
                + (f", {movement}" if movement else ""))

    @property
    def movement_shown(self) -> str:
        """The movement as the results name it (see :func:`movement_shown`)."""
        return movement_shown(self.settings)

    @property
    def ranked_as(self) -> str:
        """What a line of the ranking is (see :func:`ranked_as`)."""
        return ranked_as(self.settings)

    @property
    def ok(self) -> bool:
        """True when no problem at all was found."""
        return self.problems.empty


def ranked_as(settings: Mapping[str, object]) -> str:
    """What a line of the ranking is: "team" (a teams match), "player" (an individual)
    or "pair"."""
    if settings.get("method") == "teams":
        return "team"
    return "player" if settings.get("individual") else "pair"


def movement_shown(settings: Mapping[str, object]) -> str:
    """The movement as the results name it: "teams" for a teams match (two rooms, the
    teams on opposite lines: no pairs' movement), "individual" for an individual, else
    the movement setting ("mitchell", "howell"; "" when there is none)."""
    if settings.get("method") == "teams":
        return "teams"
    return "individual" if settings.get("individual") else str(settings.get("movement", ""))
