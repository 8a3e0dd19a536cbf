"""Scoring methods other than matchpoints, on the same scored travellers.

``--method`` picks one: ``mp`` (matchpoints, the default, in :mod:`traveller.score.rank`),
``ximp`` (cross-IMPs), ``butler`` (IMPs against a trimmed-mean datum), ``total``
(total points), ``russian`` (IMPs against a high-card-points target) or
``teams`` (two-room matches, victory points and standings). Each returns the
travellers with the method's columns, the ranking, and any extra tables
(teams: the matches and the board-by-board IMPs), so the workbook and the
library see them alike.
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass, field
from pathlib import Path

import numpy as np
import pandas as pd

from traveller.options import DIVISORS, METHODS
from traveller.read.headers import header_key
from traveller.schema import METHOD_COLUMNS
from traveller.score.butler import butler
from traveller.score.imp_conventions import (
    adjusted_imps,
    award_factor,
    awarded_tables,
    round_capped,
    sit_out_average,
    without_phantoms,
)
from traveller.score.imps import cross_imps, imp_totals, round_half_away
from traveller.score.individual import is_individual, player_rows
from traveller.score.names import attach_names
from traveller.score.rank import places
from traveller.score.russian import russian_imps
from traveller.score.teams import line_imps, match_totals, standings, team_boards
from traveller.score.total import total_points
from traveller.score.vp import read_vp_scale

_INDEX = {header_key(a): name for name, aliases in METHOD_COLUMNS.items() for a in aliases}


@dataclass
class MethodOptions:
    """Options of the IMP and teams methods (see the README for each)."""

    divisor: str = "n-1"  # cross-IMPs: n-1 (BBO, Compscore), n, or none (Ruter's sums)
    trim: int | str = 1  # Butler: results (or "20%" of them) dropped at each end for the datum
    rounding: str = "half-away"  # Butler datum to 10: halves away from zero, or to even
    vp_scale: str | Path = "wbf"  # teams: WBF continuous scale, or a table file
    chicago: bool = False  # russian: vulnerability by Chicago deal (1-4), not board number
    by_section: bool = True  # compare each section apart (False: across the field)
    datum: str = "mean"  # Butler: trimmed "mean" or "median"
    adjusted_imps: float = 3.0  # IMPs of average-plus (average 0, average-minus minus this)
    rank_by: str = "average"  # IMP methods: rank by "average" per board or "total"
    pct_decimals: int | None = None  # averages as printed; ties decided on them
    sit_out: str = "not-played"  # IMP methods: "average": a sit-out board at the pair's average
    phantom_award: float | None = None  # IMP methods: the % of a pair against the phantom
    round_cap: float | None = None  # IMP methods: most IMPs a pair scores against one opponent


@dataclass
class Scored:
    """What a method gives: travellers with its columns, the ranking, extra tables."""

    travellers: pd.DataFrame
    ranking: pd.DataFrame
    tables: dict[str, pd.DataFrame] = field(default_factory=dict)


def method_headers(columns: Iterable[object]) -> dict[str, str]:
    """The input columns a method reads, as :func:`method_columns` names them -> each
    header as typed (``{"hcp": "HCP NS"}``)."""
    found: dict[str, str] = {}
    for c in columns:
        name = _INDEX.get(header_key(str(c)))
        if name is not None:
            found.setdefault(name, str(c))
    return found


def method_columns(frame: pd.DataFrame) -> pd.DataFrame:
    """Name the input columns a method reads (HCP, room, teams) by their canonical names."""
    rename = {c: _INDEX[header_key(c)] for c in frame.columns
              if header_key(c) in _INDEX and _INDEX[header_key(c)] not in frame}
    out = frame.rename(columns=rename)
    if "ew_hcp" in out and "hcp" in out:
        out = out.rename(columns={"hcp": "ns_hcp"})
    for column in ("hcp", "ns_hcp", "ew_hcp", "deal"):
        if column in out:
            out[column] = pd.to_numeric(out[column], errors="coerce")
    return out


def pair_ranking(totals: pd.DataFrame, value: str, names: pd.DataFrame | None,
                 rank_by: str = "average", decimals: int | None = None) -> pd.DataFrame:
    """Places by average per board (fair when pairs played different numbers of boards).

    ``rank_by="total"`` places by the total instead; ``decimals`` rounds the
    average as printed (halves away from zero) and ties pairs on it.
    """
    out = totals.copy()
    if decimals is not None:
        out["average"] = pd.array(round_half_away(out["average"].to_numpy(
            dtype=float, na_value=np.nan), decimals), dtype="Float64")
    out["section"] = out["section"].astype("string").fillna("")
    out["line"] = out["line"].astype("string").fillna("")
    out["names"] = attach_names(out, names)
    groups = out["section"] + "|" + out["line"]
    key = out[value if rank_by == "total" else "average"].astype(float)
    out["place"] = places(key.fillna(float("-inf")), groups)
    out["_p"] = out["place"].str.rstrip("=").astype(int)
    out = out.sort_values(["section", "line", "_p", "pair"], kind="stable",
                          key=lambda c: c.map({"NS": 0, "EW": 1}) if c.name == "line" else c)
    return out[["section", "line", "pair", "names", "boards", value, "average", "place"]
               ].reset_index(drop=True)


def apply_method(scored: pd.DataFrame, method: str, movement: str,
                 names: pd.DataFrame | None = None,
                 options: MethodOptions | None = None) -> Scored:
    """Score ``scored`` travellers (with ``ns_score``) by one of the non-matchpoint methods."""
    options = options or MethodOptions()
    frame = method_columns(scored)
    if method == "ximp":
        if options.divisor not in DIVISORS:
            raise ValueError(f"unknown divisor {options.divisor!r}; choose from n-1, n, none")
        out = cross_imps(frame, divisor=options.divisor,  # type: ignore[arg-type]
                         by_section=options.by_section)
        out = adjusted_imps(out, options.adjusted_imps, options.phantom_award,
                            award_factor(frame, options.divisor, options.by_section))
    elif method == "butler":
        out = butler(frame, trim=options.trim, rounding=options.rounding,  # type: ignore[arg-type]
                     by_section=options.by_section, datum=options.datum,
                     awarded=awarded_tables(frame, options.phantom_award))
        out = adjusted_imps(out, options.adjusted_imps, options.phantom_award)
    elif method == "russian":
        out = russian_imps(_need(frame, ["hcp", "ns_hcp"], "russian"), chicago=options.chicago)
    elif method == "total":
        totals = total_points(frame, movement)  # type: ignore[arg-type]
        return Scored(frame, pair_ranking(totals, "points", names, options.rank_by))
    elif method == "teams":
        return _teams(frame, names, options)
    else:
        raise ValueError(f"unknown method {method!r}; choose from {', '.join(METHODS)}")
    if options.sit_out == "average" and method in ("ximp", "butler"):
        out = sit_out_average(out, movement)
    if is_individual(out):  # one line per player: the rows as a Howell's pairs
        out_rows, movement = player_rows(out), "howell"
    else:
        out_rows = out
    totals = round_capped(imp_totals(out_rows, movement), out_rows,  # type: ignore[arg-type]
                          movement, options.round_cap)
    totals = without_phantoms(totals, out_rows, movement)
    if out_rows is not out:
        totals = totals.assign(line="")
    return Scored(out, pair_ranking(totals, "imps", names, options.rank_by,
                                    options.pct_decimals))


def _need(frame: pd.DataFrame, columns: list[str], method: str) -> pd.DataFrame:
    if not any(c in frame for c in columns):
        raise ValueError(
            f"--method {method} needs a high-card points column (HCP for N-S, or HCP NS and "
            "HCP EW); add one to the traveller")
    return frame


def _teams(frame: pd.DataFrame, names: pd.DataFrame | None, options: MethodOptions) -> Scored:
    """Two-room matches: the pair numbers are the team numbers unless team columns say more."""
    if "room" in frame and "home_team" not in frame and "ns_team" not in frame:
        frame = frame.assign(ns_team=frame["ns_pair"], ew_team=frame["ew_pair"])
    if "room" not in frame and "ns_team" not in frame:
        raise ValueError("--method teams needs a Room column (Open/Closed) or team columns "
                         "(NS team, EW team) on every row")
    boards = team_boards(frame)
    frame = frame.assign(**line_imps(frame, boards))  # the board's IMPs on each line
    scale = "wbf" if str(options.vp_scale) == "wbf" else read_vp_scale(options.vp_scale)
    matches = match_totals(boards, scale=scale)
    table = standings(matches)
    lookup = (dict(zip(names["pair"].astype(str), names["names"], strict=False))
              if names is not None and not names.empty else {})
    table.insert(2, "names", pd.array([lookup.get(t, "") for t in table["team"].astype(str)],
                                      dtype="string"))
    return Scored(frame, table, {"Matches": matches, "Boards": boards})
