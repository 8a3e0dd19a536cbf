"""Conventions of the IMP methods (cross-IMPs and Butler) that differ between programs.

- :func:`adjusted_imps`: artificial scores in IMPs (average 0, average-plus
  +3 by default, an award in IMPs as written, a phantom's table at its %),
  following the cross-IMP divisor (:func:`award_factor`);
- :func:`awarded_tables`: the tables Pary's Butler datum counts beside the
  played ones;
- :func:`sit_out_average`, :func:`without_phantoms`: the pair opposite a
  phantom, and the phantom left out of the totals;
- :func:`round_capped`: a cap on what a pair wins from one round.

See docs/conventions.md (sections 6 and 7).
"""

from __future__ import annotations

import numpy as np
import pandas as pd


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
