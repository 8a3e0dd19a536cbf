"""Conventions that differ between scoring programs (docs/conventions.md).

Each is an option of :class:`traveller.Options`, set by a profile
(:mod:`traveller.profiles`) or by hand:

- (the IMP methods' conventions are in :mod:`traveller.score.imp_conventions`);
- :func:`mean_of_boards`: a pair's session % as the mean of its board
  percentages (BBO, ACBL clubs) instead of its matchpoints over its possible;
- :func:`printed`: matchpoints rounded per board before totalling, and
  percentages as printed, ties decided on the printed value.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

import numpy as np
import pandas as pd

from traveller import profiles
from traveller.options import PROCESS_DEFAULTS
from traveller.problems import combine, flag
from traveller.score.imps import round_half_away
from traveller.score.rank import SCALES, places, rank_pairs
from traveller.score.sides import pair_sides

if TYPE_CHECKING:
    from traveller.options import Options


def imp_awards_in_matchpoints(frame: pd.DataFrame) -> pd.Series:
    """True on rows whose ruling is an award in IMPs, which a matchpoint session cannot use."""
    if "ruling_kind" not in frame or frame["ruling_kind"].array.isna().all():  # no ruling
        return pd.Series(False, index=frame.index)
    imps = (frame["ruling_kind"] == "imps").to_numpy(dtype=bool, na_value=False)
    return pd.Series(imps, index=frame.index)


def _groups(ranking: pd.DataFrame, by_section: bool, one_ranking: bool) -> pd.Series:
    section = ranking["section"].astype("string") if by_section else ""
    line = "" if one_ranking else ranking["line"].astype("string")
    return pd.Series(section + "|" + line, index=ranking.index)


def _order(ranking: pd.DataFrame, by_section: bool, one_ranking: bool) -> pd.DataFrame:
    """The ranking sorted as :func:`traveller.score.rank.rank_pairs` sorts it."""
    keys = ranking.assign(_p=ranking["place"].str.rstrip("=").astype(int),
                          _s=ranking["section"] if by_section else "",
                          _l=ranking["line"].map({"NS": 0, "EW": 1, "": 0}) * (not one_ranking))
    keys = keys.sort_values(["_s", "_l", "_p", "section", "line", "pair"], kind="stable",
                            key=lambda c: c.map({"NS": 0, "EW": 1}) if c.name == "line" else c)
    return keys[ranking.columns].reset_index(drop=True)


def mean_of_boards(ranked: pd.DataFrame, ranking: pd.DataFrame, movement: str,
                   by_section: bool = True, one_ranking: bool = False) -> pd.DataFrame:
    """The ranking with each pair's % the mean of its board percentages, placed again.

    A board counts at the percentage the pair got on it (an artificial score
    at its awarded %); boards that do not count for the pair (not played, a
    sit-out) are left out, as in the matchpoint total.
    """
    if ranking.empty:
        return ranking
    sides = pair_sides(ranked, movement)
    sides = sides[sides["mp"].notna() & ~sides["phantom"] & sides["pair"].notna()]
    mean = sides.groupby(["section", "line", "pair"])["pct"].mean()
    keys = pd.MultiIndex.from_arrays([ranking["section"], ranking["line"],
                                      ranking["pair"].astype("int64")])
    out = ranking.copy()
    out["pct"] = mean.reindex(keys).to_numpy()
    out["place"] = places(out["pct"].astype(float).fillna(-1.0),
                          _groups(out, by_section, one_ranking))
    return _order(out, by_section, one_ranking)


def printed(ranked: pd.DataFrame, ranking: pd.DataFrame, *, by_section: bool = True,
            one_ranking: bool = False, pct_decimals: int | None = None) -> pd.DataFrame:
    """The ranking with percentages as printed (halves away from zero), ties on them."""
    if ranking.empty or pct_decimals is None:
        return ranking
    out = ranking.copy()
    out["pct"] = round_half_away(out["pct"].to_numpy(dtype=float), pct_decimals)
    out["place"] = places(out["pct"].astype(float), _groups(out, by_section, one_ranking))
    return _order(out, by_section, one_ranking)


def rounded_matchpoints(ranked: pd.DataFrame, decimals: int | None, win: float = 2.0
                        ) -> pd.DataFrame:
    """Each board's Neuberg-scaled matchpoints rounded before they are totalled.

    Reproduces how Compscore counts a board played fewer times: the Neuberg
    factor ``E/A`` is rounded to ``decimals + 2`` places, N-S's scaled
    matchpoints to ``decimals`` (halves up) and E-W gets the rest of the
    common top (on board 15 of a real session: 35 × 1.0556 − 1 = 35.946 ->
    35.95 for N-S, 0.05 for E-W). Only plain results are rounded; rulings
    keep their exact values.
    """
    if decimals is None or ranked.empty:
        return ranked
    out = ranked.copy()
    tables = out["results"].to_numpy(dtype=float, na_value=np.nan)
    common = out["common_top"].to_numpy(dtype=float, na_value=np.nan)
    with np.errstate(invalid="ignore", divide="ignore"):
        factor = round_half_away((common / win + 1) / tables, decimals + 2)
    ns_mp = out["ns_mp"].to_numpy(dtype=float, na_value=np.nan)
    half = win / 2
    ns = round_half_away((ns_mp + half) * factor - half, decimals)
    plain = (out["ruling_kind"].isna().to_numpy() if "ruling_kind" in out
             else np.ones(len(out), dtype=bool))
    real = plain & ~np.isnan(ns)
    out["ns_mp_scaled"] = np.where(real, ns, out["ns_mp_scaled"].to_numpy(dtype=float))
    out["ew_mp_scaled"] = np.where(real, common - ns, out["ew_mp_scaled"].to_numpy(dtype=float))
    return out


def profile_scale(opts: Options, scale: str) -> str:
    """The matchpoint scale: the profile's when the scale was left at its default."""
    if opts.profile is None or scale != PROCESS_DEFAULTS["scale"]:
        return scale
    return str(profiles.settings(opts.profile).get("scale", scale))


def imp_awards_problems(frame: pd.DataFrame, method: str) -> tuple[pd.DataFrame, pd.DataFrame]:
    """Awards in IMPs (``+3 IMP``) are for IMP methods: elsewhere they are listed and left out."""
    wrong = imp_awards_in_matchpoints(frame) if method not in ("ximp", "butler") else None
    if wrong is None or not wrong.any():
        return frame, combine([])
    rows = frame[wrong]
    problems = flag(rows, "bad-ruling", "ruling", rows.get("ruling"),
                    f"an award in IMPs cannot be scored by --method {method}")
    return frame[~wrong].reset_index(drop=True), problems


def conventional_ranking(ranked: pd.DataFrame, ranking: pd.DataFrame, movement: str,
                         opts: Options, scale: str = "2/1/0") -> pd.DataFrame:
    """The matchpoint ranking with the total and printed precision the options ask for.

    With ``mp_decimals`` the totals (``mp``, ``mp_factored``) add up the rounded
    board values while the percentage stays that of the exact matchpoints
    (as Compscore prints them).
    """
    by_section = opts.sections == "apart"
    if opts.mp_decimals is not None and not ranking.empty:
        rounded = rounded_matchpoints(ranked, opts.mp_decimals, SCALES[scale])
        again = rank_pairs(rounded, movement=movement, by_section=by_section,
                           one_ranking=opts.one_ranking).set_index(["section", "line", "pair"])
        keys = pd.MultiIndex.from_frame(ranking[["section", "line", "pair"]])
        ranking = ranking.assign(**{c: again[c].reindex(keys).to_numpy()
                                    for c in ("mp", "mp_factored")})
    if opts.total == "mean-of-boards":
        ranking = mean_of_boards(ranked, ranking, movement, by_section, opts.one_ranking)
    return printed(ranked, ranking, by_section=by_section, one_ranking=opts.one_ranking,
                   pct_decimals=opts.pct_decimals)
