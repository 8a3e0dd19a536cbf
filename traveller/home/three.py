"""Three-handed (Phillips) bridge: each player keeps an own score, rubber by rubber.

The declarer plays with the dummy against the other two. A contract made
scores for the declarer (below and above the line, as in rubber bridge); a
contract defeated pays the undertrick penalty to EACH defender, its size set
by the declarer's vulnerability. Honours score for the player holding them.
A game by anyone wipes every part-score; the first player to two games wins
the rubber (+700 when neither other player has a game, else +500), and all
three start a new one. Nullo (n nullo: at most 7 - n tricks at no trump) is
scored as described in :mod:`traveller.home.values`.

Settlement: each player settles with each of the other two, the difference
in whole hundreds; a player's net is the sum of the two (the three nets sum
to zero).
"""

from __future__ import annotations

from itertools import permutations

import numpy as np
import pandas as pd

from traveller.errors import TravellerError
from traveller.home.result import (
    HomeResult,
    HomeSource,
    ledger_frame,
    parse_source,
    public_problems,
)
from traveller.home.rubber import check_rules, group_keys, play, rubber_totals
from traveller.home.values import settle


def net_settlement(points: pd.DataFrame, players: list[str], rounding: str) -> pd.DataFrame:
    """Each player's net in hundreds: the sum of the settlements with the two others.

    >>> pts = pd.DataFrame({"A": [1450], "B": [100], "C": [300]})
    >>> net_settlement(pts, ["A", "B", "C"], "half-up").iloc[0].tolist()
    [26, -16, -10]
    """
    out = pd.DataFrame(0, index=points.index, columns=players, dtype="int64")
    for a, b in permutations(players, 2):
        out[a] += settle((points[a] - points[b]).to_numpy(), rounding)
    return out


def three_handed(source: HomeSource, players: list[str] | str | None = None,
                 rules: str = "modern", unfinished_partscore: int = 100,
                 settle_rounding: str = "half-up", notation: str | None = None,
                 encoding: str | None = None) -> HomeResult:
    """Score a three-handed sheet: ledger per deal, and each player's points and net.

    ``players`` names the three players (a list or "A,B,C"); by default a
    ``Players`` row above the header, else the declarers in order of first
    appearance. ``totals`` has one row per player (``player, points,
    settlement``); ``rubbers`` the same per rubber with ``finished``.

    >>> three_handed("sample_data/home_three.csv").totals  # doctest: +SKIP
    """
    check_rules(rules, settle_rounding)
    if isinstance(players, str):
        players = [p.strip() for p in players.split(",") if p.strip()]
    if players is not None and len({p.casefold() for p in players}) != 3:
        raise ValueError(f"three-handed bridge needs three different players, got {players}")
    parsed = parse_source(source, three=True, players=players, notation=notation,
                          encoding=encoding)
    names = parsed.players
    if len(names) != 3:
        raise TravellerError(
            f"{source if isinstance(source, str) else '<sheet>'}: found the players "
            f"{', '.join(names) or 'none'}; name all three with --players A,B,C or a "
            "'Players' row above the header")
    played = play(parsed.deals, names, rules, unfinished_partscore, group_keys(parsed.written))
    ledger = ledger_frame(parsed, played, {n: n for n in names})
    per_rubber = rubber_totals(played, names) if len(played) else _empty(names)
    nets = net_settlement(per_rubber, names, settle_rounding)
    rubbers = _long(per_rubber, nets, names)
    totals = rubbers.groupby("player", sort=False)[["points", "settlement"]].sum()
    totals = totals.reindex(names).fillna(0).astype("int64").reset_index()
    settings = {"rules": rules, "unfinished_partscore": unfinished_partscore,
                "settle_rounding": settle_rounding, "notation": parsed.notation,
                "notation_why": parsed.notation_why,
                "players": ", ".join(names)}
    return HomeResult("three-handed", ledger, totals, public_problems(parsed.problems), names,
                      settings, rubbers=rubbers, source=str(source)
                      if not isinstance(source, pd.DataFrame | dict) else "<DataFrame>")


def _empty(names: list[str]) -> pd.DataFrame:
    return pd.DataFrame({"rubber": pd.Series(dtype="int64"),
                         **{n: pd.Series(dtype="int64") for n in names},
                         "finished": pd.Series(dtype=bool), "winner": pd.Series(dtype=object)})


def _long(per_rubber: pd.DataFrame, nets: pd.DataFrame, names: list[str]) -> pd.DataFrame:
    """One row per (rubber, player): points, settlement, finished."""
    n = len(per_rubber)
    return pd.DataFrame({
        "rubber": np.repeat(per_rubber["rubber"].to_numpy(), len(names)),
        "player": np.tile(np.array(names, dtype=object), n),
        "points": per_rubber[names].to_numpy().ravel(),
        "settlement": nets[names].to_numpy().ravel(),
        "finished": np.repeat(per_rubber["finished"].to_numpy(), len(names)),
    })
