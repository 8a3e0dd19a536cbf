"""Per-pair totals: total points (PL "zapis sumaryczny", docs/scoring.md) and the shared helper.

Each result row belongs to two pairs: the N-S pair and the E-W pair. The helper
:func:`pair_totals` turns one value per side of each row into one total per
pair, and the movement decides what a "pair" is:

- ``"mitchell"``: pair 5 N-S and pair 5 E-W are different pairs, so the key is
  (section, line, pair) with ``line`` "NS" or "EW";
- ``"howell"``: every pair plays both lines, so the key is (section, pair) and
  ``line`` is "".

Rows whose value is <NA> (no real result) are not counted: they add nothing to
the total and are not counted as boards played. A pair with only such rows is
still listed, with 0 boards and an <NA> average, so every pair is accounted for.
"""

from __future__ import annotations

from typing import Literal

import numpy as np
import pandas as pd

Movement = Literal["mitchell", "howell"]
MOVEMENTS = ("mitchell", "howell")
TOTAL_KEYS = ["section", "line", "pair"]


def _section(frame: pd.DataFrame) -> pd.Series:
    if "section" not in frame:
        return pd.Series("", index=frame.index, dtype="string")
    return frame["section"].astype("string").fillna("")


def _floats(values: pd.Series) -> np.ndarray:
    """Values as float64 with NaN for <NA>, by position."""
    return pd.Series(values).astype("Float64").to_numpy(dtype=np.float64, na_value=np.nan)


def _line_order(column: pd.Series) -> pd.Series:
    """Sort key that puts the N-S line before the E-W line."""
    if column.name == "line":
        return column.map({"NS": 0, "EW": 1, "": 0})
    return column


def pair_long(
    frame: pd.DataFrame,
    ns_values: pd.Series,
    ew_values: pd.Series,
    movement: Movement = "mitchell",
) -> pd.DataFrame:
    """One row per (result, side): ``section, line, pair, board, value``.

    ``ns_values``/``ew_values`` are aligned with ``frame`` (the N-S and E-W
    pair's value for each result row).

    >>> df = pd.DataFrame({"board": [1], "ns_pair": [1], "ew_pair": [2]})
    >>> pair_long(df, pd.Series([3.0]), pd.Series([-3.0]))["line"].tolist()
    ['NS', 'EW']
    """
    if movement not in MOVEMENTS:
        raise ValueError(f"movement must be one of {MOVEMENTS}, not {movement!r}")
    from traveller.score.sides import result_sides

    frame = frame.assign(section=_section(frame))
    long = result_sides(frame, movement, {"value": (_floats(ns_values), _floats(ew_values))})
    long = long[["section", "line", "pair", "board", "value"]]
    long["pair"] = long["pair"].astype("Int64")
    long["board"] = long["board"].astype("Int64") if "board" in frame else None
    long["section"] = long["section"].astype("string")
    long["line"] = long["line"].astype("string")
    return long


def pair_totals(
    frame: pd.DataFrame,
    ns_values: pd.Series,
    ew_values: pd.Series,
    movement: Movement = "mitchell",
    name: str = "total",
) -> pd.DataFrame:
    """Sum a per-side value over each pair's boards.

    Returns ``section, line, pair, boards, <name>, average`` sorted by
    section, line and pair (``average`` = total per board played).

    >>> df = pd.DataFrame({"board": [1, 2], "ns_pair": [1, 1], "ew_pair": [2, 2]})
    >>> t = pair_totals(df, pd.Series([3.0, 1.0]), pd.Series([-3.0, -1.0]), "howell")
    >>> t[["pair", "boards", "total"]].values.tolist()
    [[1, 2, 4.0], [2, 2, -4.0]]
    """
    long = pair_long(frame, ns_values, ew_values, movement)
    long = long[long["pair"].notna()]
    grouped = long.groupby(TOTAL_KEYS, sort=True, dropna=False)["value"]
    out = pd.DataFrame({"boards": grouped.count(), name: grouped.sum()}).reset_index()
    out = out.sort_values(TOTAL_KEYS, key=_line_order, kind="stable", ignore_index=True)
    out["boards"] = out["boards"].astype("Int64")
    out[name] = out[name].astype("Float64")
    played = out["boards"].to_numpy(dtype=np.float64)
    with np.errstate(invalid="ignore", divide="ignore"):
        average = out[name].to_numpy(dtype=np.float64) / played
    out["average"] = pd.array(np.where(played > 0, average, np.nan), dtype="Float64")
    return out


def total_points(frame: pd.DataFrame, movement: Movement = "mitchell") -> pd.DataFrame:
    """Total points: each pair's score summed over its boards.

    N-S rows count ``ns_score``, E-W rows ``-ns_score``. Returns
    ``section, line, pair, boards, points, average``.

    >>> df = pd.DataFrame({"board": [1, 2], "ns_pair": [1, 1], "ew_pair": [1, 2],
    ...                    "ns_score": [420, -50]})
    >>> total_points(df)[["line", "pair", "points"]].values.tolist()
    [['NS', 1, 370.0], ['EW', 1, -420.0], ['EW', 2, 50.0]]
    """
    score = frame["ns_score"].astype("Float64")
    return pair_totals(frame, score, -score, movement, name="points")
