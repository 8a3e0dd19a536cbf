"""A season's ladder: players ranked over their sessions (docs/points.md, "Ladders").

The input is one row per player per published session (:data:`SESSION_COLUMNS`),
as the results store or the published results give it. A player's value of a
session is their master points, or their percentage; an IMP session's average
IMPs per board join a percentage ladder as 50 + k x IMPs (k is the club's).
Of each player's sessions in the date range, the latest M count at most
(``of``), and of those the best N (``best``); the score is the sum of the
counted values. A player qualifies with at least ``min_sessions`` sessions and
``min_partners`` different partners; qualified players are ranked first.
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np
import pandas as pd

from traveller.errors import TravellerError
from traveller.score.imps import round_half_away

#: One row per player per session.
SESSION_COLUMNS = ["session", "title", "date", "method", "player_key", "player", "player_id",
                   "partner", "partner_key", "place", "pct", "average", "award"]
#: Methods whose sessions give IMPs per board instead of a percentage.
IMP_METHODS = ("ximp", "butler")
STANDING_COLUMNS = ["rank", "player", "player_id", "sessions", "partners", "counted", "total",
                    "average", "qualified", "note", "player_key"]


class LadderError(TravellerError):
    """A ladder cannot be worked out as asked (a missing input, a bad rule)."""


@dataclass(frozen=True)
class LadderRule:
    """How a ladder ranks players (see the module docs).

    ``by``: "pct" or "points"; ``best``: N sessions counted (None: all);
    ``of``: only the latest M sessions of each player (None: all);
    ``imp_k``: the club's k for IMP sessions on a percentage ladder;
    ``date_from``/``date_to``: ISO dates, inclusive.
    """

    by: str = "pct"
    best: int | None = None
    of: int | None = None
    min_sessions: int = 1
    min_partners: int = 1
    imp_k: float | None = None
    date_from: str | None = None
    date_to: str | None = None

    def __post_init__(self) -> None:
        if self.by not in ("pct", "points"):
            raise LadderError(f"ladder by {self.by!r}: rank by \"pct\" or \"points\"")
        for name in ("best", "of", "min_sessions", "min_partners"):
            value = getattr(self, name)
            if value is not None and (not isinstance(value, int) or value < 0):
                raise LadderError(f"ladder {name} = {value!r}: give a whole number, 0 or more")


def session_values(rows: pd.DataFrame, rule: LadderRule) -> pd.DataFrame:
    """The rows of the season (date range, named players) with each one's ``value``."""
    rows = rows[rows["player"].astype("string").fillna("").str.strip() != ""].copy()
    dates = pd.to_datetime(rows["date"], errors="coerce")
    inside = pd.Series(True, index=rows.index)
    if rule.date_from:
        inside &= dates >= pd.Timestamp(rule.date_from)
    if rule.date_to:
        inside &= dates <= pd.Timestamp(rule.date_to)
    rows = rows[inside.to_numpy()]
    if rule.by == "points":
        missing = rows.loc[rows["award"].isna(), "session"].unique().tolist()
        if missing:
            raise LadderError(f"sessions without master points on a points ladder: "
                              f"{', '.join(map(str, missing[:5]))}; score them with a "
                              "points scale (--points, or the batch points key)")
        value = rows["award"].astype(float)
    else:
        imp = rows["method"].isin(IMP_METHODS).to_numpy()
        if imp.any() and rule.imp_k is None:
            named = rows.loc[imp, "session"].unique().tolist()
            raise LadderError(f"IMP sessions on a percentage ladder ({', '.join(named[:5])}): "
                              "give the club's k of % = 50 + k x IMPs per board "
                              "(--imp-k 6, or imp_k in the ladder rule)")
        average = pd.to_numeric(rows["average"], errors="coerce").to_numpy(dtype=float)
        pct = pd.to_numeric(rows["pct"], errors="coerce").to_numpy(dtype=float)
        value = pd.Series(np.where(imp, 50 + (rule.imp_k or 0) * average, pct),
                          index=rows.index)
    rows = rows.assign(value=value.round(6), when=dates[inside.to_numpy()])
    return rows[rows["value"].notna()]  # a pair not ranked that session: nothing to count


def standings(rows: pd.DataFrame, rule: LadderRule) -> tuple[pd.DataFrame, pd.DataFrame]:
    """The ladder (one row per player) and each player-session with ``counted`` and ``why``."""
    detail = session_values(rows, rule)
    detail = detail.sort_values(["player_key", "when", "session"],
                                ascending=[True, False, False], kind="stable")
    latest = detail.groupby("player_key", sort=False).cumcount()
    window = (latest < rule.of) if rule.of is not None else pd.Series(True, index=detail.index)
    order = detail[window].sort_values(["player_key", "value", "when"],
                                       ascending=[True, False, False], kind="stable")
    best = order.groupby("player_key", sort=False).cumcount()
    counted_index = order.index[(best < rule.best) if rule.best is not None
                                else np.ones(len(order), dtype=bool)]
    detail["counted"] = detail.index.isin(counted_index)
    detail["why"] = np.where(detail["counted"], "counted",
                             np.where(window, "dropped: not among the best", "dropped: "
                                      "not among the latest"))
    table = _per_player(detail, rule)
    return table, detail.reset_index(drop=True)


def _per_player(detail: pd.DataFrame, rule: LadderRule) -> pd.DataFrame:
    groups = detail.groupby("player_key", sort=True)
    counted = detail[detail["counted"]].groupby("player_key")["value"]
    table = pd.DataFrame({
        "player": groups["player"].last(), "player_id": groups["player_id"].last(),
        "sessions": groups.size(),
        "partners": detail[detail["partner_key"].astype(bool)].groupby("player_key")[
            "partner_key"].nunique(),
        "counted": counted.size(), "total": counted.sum()})
    table = table.fillna({"partners": 0, "counted": 0, "total": 0.0})
    table = table.astype({"partners": int, "counted": int})
    # rounded once, from the exact sum, halves away from zero as a spreadsheet shows them
    # (numpy rounds 115.125 to even, 115.12)
    exact = table["total"].to_numpy(dtype=float)
    table["total"] = round_half_away(exact, 2)
    table["average"] = round_half_away(
        exact / table["counted"].where(table["counted"] > 0).to_numpy(dtype=float), 2)
    short = table["sessions"] < rule.min_sessions
    few = table["partners"] < rule.min_partners
    table["qualified"] = ~(short | few)
    table["note"] = np.where(short, f"fewer than {rule.min_sessions} sessions",
                             np.where(few, f"fewer than {rule.min_partners} partners", ""))
    table = table.reset_index().sort_values(
        ["qualified", "total", "player"], ascending=[False, False, True], kind="stable")
    table["rank"] = _ranks(table)
    return table[STANDING_COLUMNS].reset_index(drop=True)


def _ranks(table: pd.DataFrame) -> list[str]:
    """Places of the qualified players ("3=" shared); "" for the others."""
    qualified = table["qualified"].to_numpy()
    totals = table["total"].where(qualified)  # (to two places already: ties as printed)
    place = totals.rank(method="min", ascending=False)
    shared = totals.duplicated(keep=False) & qualified
    return [("" if not q else f"{int(p)}=" if s else str(int(p)))
            for p, s, q in zip(place.fillna(0), shared, qualified, strict=True)]
