"""Conventions that differ between scoring programs (docs/conventions.md).

Each is an option of :class:`traveller.Options`, set by a profile
(:mod:`traveller.profiles`) or by hand:

- :func:`adjusted_imps`: artificial scores in cross-IMPs and Butler
  (average 0, average-plus +3, average-minus -3 IMPs, or an award in IMPs);
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


def _award(frame: pd.DataFrame, column: str) -> np.ndarray:
    if column not in frame:
        return np.full(len(frame), np.nan)
    return frame[column].to_numpy(dtype=float, na_value=np.nan)


def _phantom_side_awards(frame: pd.DataFrame, kind: np.ndarray, side: str,
                         phantom_award: float | None) -> np.ndarray:
    """The % of the real pair on each phantom line (NaN elsewhere and for the phantom)."""
    if phantom_award is None or "phantom" not in frame:
        return np.full(len(frame), np.nan)
    phantom = frame["phantom"].astype("string").fillna("").to_numpy()
    real = (kind == "phantom") & np.isin(phantom, ["NS", "EW"]) & (phantom != side.upper())
    return np.where(real, phantom_award, np.nan)


def awarded_tables(frame: pd.DataFrame, phantom_award: float | None = None) -> np.ndarray:
    """True on rows with no result where a pair was given an artificial score.

    An award written in the sheet (``A60/40``, ``+3 IMP``), or a phantom's table
    when ``phantom_award`` gives the real pair its %. A line where nobody
    scored (``NP``, a phantom line without an award) is no awarded table.
    """
    if "ruling_kind" not in frame:
        return np.zeros(len(frame), dtype=bool)
    kind = frame["ruling_kind"].astype("string").fillna("").to_numpy()
    given = np.zeros(len(frame), dtype=bool)
    for side in ("ns", "ew"):
        given |= ~np.isnan(_award(frame, f"{side}_award"))
        given |= ~np.isnan(_phantom_side_awards(frame, kind, side, phantom_award))
    return given & (kind != "") & frame["ns_score"].isna().to_numpy()


def award_factor(frame: pd.DataFrame, divisor: str, by_section: bool = True) -> np.ndarray:
    """What an artificial score's IMPs are multiplied by in cross-IMPs, per row.

    The award is a value per comparison, as a real result's IMPs are; an
    artificial score is compared with each of the board's ``m`` real results:
    divided by ``n - 1`` (``m``) it is worth the award itself, by ``n`` (m + 1
    results with it) ``m / (m + 1)`` of it, and as a plain sum (``"none"``,
    Ruter) ``m`` times it.

    >>> df = pd.DataFrame({"board": [1, 1, 1], "ns_pair": [1, 2, 3], "ew_pair": [4, 5, 6],
    ...                    "ns_score": [420, 450, None]})
    >>> award_factor(df, "none").tolist(), award_factor(df, "n").round(3).tolist()
    ([2.0, 2.0, 2.0], [0.667, 0.667, 0.667])
    """
    if divisor == "n-1":
        return np.ones(len(frame))
    from traveller.score.groups import board_groups, dense

    group, n_groups = dense(board_groups(frame, by_section).board)
    real = frame["ns_score"].notna().to_numpy()
    m = np.bincount(group[real], minlength=n_groups)[group].astype(float)
    return m if divisor == "none" else m / (m + 1)


def adjusted_imps(frame: pd.DataFrame, average_plus: float = 3.0,
                  phantom_award: float | None = None,
                  factor: np.ndarray | None = None) -> pd.DataFrame:
    """Give artificial scores their IMPs in a cross-IMP or Butler frame (``ns_imp``/``ew_imp``).

    A percentage award is worth ``(% - 50) / 10 × average_plus`` IMPs: average
    0, average-plus ``+average_plus``, average-minus ``-average_plus``; an
    award in IMPs (``+3 IMP``, ``2/-2 IMP``) is worth what it says. With a
    ``phantom_award`` the real pair of a phantom's table gets that % the same
    way (the phantom nothing). ``factor`` (per row, :func:`award_factor`)
    multiplies the percentage awards, for cross-IMPs not divided by n - 1.
    Rows with a real result keep their IMPs; the rest stay <NA>.

    >>> df = pd.DataFrame({"ns_imp": pd.array([2, None], dtype="Int64"),
    ...                    "ew_imp": pd.array([-2, None], dtype="Int64"),
    ...                    "ruling_kind": [None, "average"], "ns_award": [None, 60.0],
    ...                    "ew_award": [None, 40.0]})
    >>> adjusted_imps(df)[["ns_imp", "ew_imp"]].values.tolist()
    [[2, -2], [3, -3]]
    """
    if "ruling_kind" not in frame or not frame["ruling_kind"].notna().any():
        return frame
    kind = frame["ruling_kind"].astype("string").fillna("").to_numpy()
    out = frame.copy()
    times = np.ones(len(frame)) if factor is None else np.asarray(factor, dtype=float)
    for side in ("ns", "ew"):
        award = _award(frame, f"{side}_award")
        phantom = _phantom_side_awards(frame, kind, side, phantom_award)
        value = np.select([kind == "average", kind == "imps", ~np.isnan(phantom)],
                          [(award - 50) / 10 * average_plus * times, award,
                           (phantom - 50) / 10 * average_plus * times], np.nan)
        current = out[f"{side}_imp"].astype("Float64").to_numpy(dtype=float, na_value=np.nan)
        filled = np.where(np.isnan(current), value, current)
        whole = np.isnan(filled) | (np.abs(filled - np.round(filled)) < 1e-9)
        dtype = "Int64" if whole.all() and str(out[f"{side}_imp"].dtype) == "Int64" else "Float64"
        out[f"{side}_imp"] = pd.array(np.round(filled, 9), dtype="Float64").astype(dtype)
    return out


def sit_out_average(frame: pd.DataFrame, movement: str) -> pd.DataFrame:
    """Give the pair opposite a phantom its own average IMPs on each board it sat out.

    Ruter's way (verified on a real Butler session): the pair's total is then
    its IMPs factored up to every board, and its average is unchanged. Only
    phantom (TD/Bye) lines whose phantom is known are filled.
    """
    from traveller.score.imps import imp_totals
    from traveller.tidy.rulings import kinds

    if "phantom" not in frame or not (kinds(frame) == "phantom").any():
        return frame
    totals = imp_totals(frame, movement)  # type: ignore[arg-type]
    average = totals.set_index(["section", "line", "pair"])["average"].astype(float)
    out = frame.copy()
    phantom = out["phantom"].astype("string").fillna("").to_numpy()
    line_row = (kinds(out) == "phantom") & np.isin(phantom, ["NS", "EW"])
    section = out["section"].astype("string").fillna("") if "section" in out else ""
    for side, column in (("NS", "ns_pair"), ("EW", "ew_pair")):
        real = line_row & (phantom != side)
        line = side if movement == "mitchell" else ""
        keys = pd.MultiIndex.from_arrays([pd.Series(section, index=out.index).astype(str),
                                          pd.Series(line, index=out.index),
                                          out[column].astype("Int64")])
        value = average.reindex(keys).to_numpy(dtype=float)
        imp = out[f"{side.lower()}_imp"].astype("Float64").to_numpy(dtype=float, na_value=np.nan)
        out[f"{side.lower()}_imp"] = pd.array(np.where(real, value, imp), dtype="Float64")
    return out


def round_capped(totals: pd.DataFrame, frame: pd.DataFrame, movement: str,
                 cap: float | None) -> pd.DataFrame:
    """IMP totals with each pair's IMPs against one opponent (a round) counted at most ``cap``.

    Losses are not capped: a pair that wins 22 IMPs in a round scores 12 with
    ``cap=12``, its opponents keep their -22 (JFR Pary's setting, verified on a
    real Butler event). The average is the capped total over the boards played.
    """
    if cap is None or totals.empty:
        return totals
    from traveller.score.total import TOTAL_KEYS, pair_long

    imp = pair_long(frame, frame["ns_imp"].astype("Float64"), frame["ew_imp"].astype("Float64"),
                    movement)  # type: ignore[arg-type]
    opponent = pair_long(frame, frame["ew_pair"].astype("Float64"),
                         frame["ns_pair"].astype("Float64"), movement)  # type: ignore[arg-type]
    long = imp.assign(opponent=opponent["value"].to_numpy())
    long = long[long["pair"].notna() & long["value"].notna()]
    rounds = long.groupby([*TOTAL_KEYS, "opponent"], dropna=False)["value"].sum()
    excess = (rounds - cap).clip(lower=0).groupby(level=TOTAL_KEYS, dropna=False).sum()
    keys = pd.MultiIndex.from_frame(totals[TOTAL_KEYS].astype({"pair": "Int64"}))
    cut = excess.reindex(keys).fillna(0.0).to_numpy(dtype=float)
    out = totals.copy()
    out["imps"] = pd.array(np.round(out["imps"].to_numpy(dtype=float, na_value=np.nan) - cut, 9),
                           dtype="Float64")
    played = out["boards"].to_numpy(dtype=float, na_value=np.nan)
    with np.errstate(invalid="ignore", divide="ignore"):
        out["average"] = pd.array(np.where(played > 0, out["imps"].to_numpy(
            dtype=float, na_value=np.nan) / played, np.nan), dtype="Float64")
    return out


def without_phantoms(totals: pd.DataFrame, frame: pd.DataFrame, movement: str) -> pd.DataFrame:
    """Pair totals less the phantom pairs (every line of theirs is the phantom's side)."""
    if "phantom" not in frame or totals.empty:
        return totals
    from traveller.score.sides import result_sides

    phantom = frame["phantom"].astype("string").fillna("").to_numpy()
    sides = result_sides(frame, movement, {"phantom": (phantom == "NS", phantom == "EW")})
    sides = sides[sides["pair"].notna()]
    only = sides.groupby(["section", "line", "pair"])["phantom"].all()
    keys = pd.MultiIndex.from_arrays([totals["section"].astype(str), totals["line"].astype(str),
                                      totals["pair"].astype("int64")])
    is_phantom = only.reindex(keys).fillna(False).to_numpy(dtype=bool)
    return totals[~is_phantom].reset_index(drop=True)


def imp_awards_in_matchpoints(frame: pd.DataFrame) -> pd.Series:
    """True on rows whose ruling is an award in IMPs, which a matchpoint session cannot use."""
    if "ruling_kind" not in frame:
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
