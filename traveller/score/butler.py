"""Butler scoring: IMPs against a datum per board (docs/scoring.md), vectorised.

The datum is the mean N-S score of the board without its highest and lowest
results (``trim`` of them, or a share such as ``"20%"``), the median, or
the median over every table (``"table-median"``, JFR Pary's), rounded to 10;
each result scores the IMPs of its difference from the datum.
The conventions checked against real publications are listed in
:mod:`traveller.score.imps`.
"""

from __future__ import annotations

import numpy as np
import pandas as pd

from traveller.options import trim_fraction
from traveller.score.groups import board_groups, dense
from traveller.score.imps import Rounding, _valid_scores, imps, round_to

DATUMS = ("mean", "median", "table-median")

#: The N-S score a table with an artificial score counts as in the ``"table-median"``
#: datum. Found, not documented: on a real JFR Pary Butler event (30 boards, 20 of them
#: with a pair against the phantom) 0 misses one board's printed average (0, where 0
#: gives 30) and every value from -60 to -41 reproduces it; the tables are counted, as
#: the averages of four other boards show.
ARTIFICIAL_TABLE_SCORE = -50.0


def _datums(
    group: np.ndarray, score: np.ndarray, n_groups: int, trim: int | str, min_results: int | None,
    datum: str = "mean",
) -> tuple[np.ndarray, np.ndarray]:
    """Unrounded datum per group (NaN when empty), and results per group.

    ``datum="mean"``: the mean without the ``trim`` highest and lowest results
    (``"20%"``: that share of the results at each end, rounded down), when
    the group has at least ``min_results`` (default: enough to keep one);
    ``"median"``: the middle result, or the mean of the two middle ones.
    """
    count, share = trim_fraction(trim)
    order = np.lexsort((score, group))
    g, s = group[order], score[order]
    counts = np.bincount(g, minlength=n_groups)
    starts = np.cumsum(counts) - counts
    rank = np.arange(len(g)) - starts[g]
    n = counts[g]
    if datum in ("median", "table-median"):
        keep = (rank == (n - 1) // 2) | (rank == n // 2)
    else:
        cut = count + np.floor(n * share + 1e-9).astype(np.int64)
        need = 2 * cut + 1 if min_results is None else np.full(len(n), min_results)
        cut = np.where(n >= need, cut, 0)
        keep = (rank >= cut) & (rank < n - cut)
    total = np.bincount(g[keep], weights=s[keep], minlength=n_groups)
    used = np.bincount(g[keep], minlength=n_groups)
    with np.errstate(invalid="ignore", divide="ignore"):
        return total / used, counts


def _board_datum(
    frame: pd.DataFrame, trim: int | str, rounding: Rounding, min_results: int | None,
    by_section: bool, datum: str = "mean", awarded: np.ndarray | None = None,
) -> tuple[np.ndarray, np.ndarray, np.ndarray, np.ndarray]:
    """Per-row group code, rounded datum per group, results per group, valid mask.

    ``datum="table-median"`` also counts each ``awarded`` row (a table given an
    artificial score) as an N-S score of :data:`ARTIFICIAL_TABLE_SCORE`.
    """
    if datum not in DATUMS:
        raise ValueError(f"datum must be one of {DATUMS}, not {datum!r}")
    score, valid = _valid_scores(frame)
    group, n_groups = dense(board_groups(frame, by_section).board)
    counted, value = valid, score
    if datum == "table-median" and awarded is not None:
        extra = np.asarray(awarded, dtype=bool) & ~valid & frame["board"].notna().to_numpy()
        counted, value = valid | extra, np.where(extra, ARTIFICIAL_TABLE_SCORE, score)
    mean, counts = _datums(group[counted], value[counted], n_groups, trim, min_results, datum)
    return group, round_to(mean, 10, rounding), counts, valid


def butler_datum(
    frame: pd.DataFrame,
    trim: int | str = 1,
    rounding: Rounding = "half-away",
    min_results: int | None = None,
    by_section: bool = True,
    datum: str = "mean",
    awarded: np.ndarray | None = None,
) -> pd.DataFrame:
    """The Butler datum of each board: ``section, board, results, datum``.

    The mean N-S score after dropping the ``trim`` highest and ``trim`` lowest
    results, when the board has at least ``min_results`` results (default
    ``2 * trim + 1``; fewer: the plain mean), rounded to the nearest 10 with
    halves away from zero (``rounding="half-away"``) or to even. ``trim`` may
    be a share of the results at each end (``"20%"``, rounded down), and
    ``datum="median"`` takes the middle result (the mean of the two middle
    ones when their number is even); ``"table-median"`` the median over every
    table, a passed-out board 0 and a table given an artificial score (the
    ``awarded`` rows) :data:`ARTIFICIAL_TABLE_SCORE` (JFR Pary's board
    average). A board with no real result has an <NA> datum.

    >>> df = pd.DataFrame({"board": [1] * 5, "ns_pair": [1, 2, 3, 4, 5],
    ...                    "ew_pair": [6, 7, 8, 9, 10], "ns_score": [-50, 100, 110, 140, 620]})
    >>> int(butler_datum(df)["datum"].iloc[0])  # (100 + 110 + 140) / 3 = 116.7
    120
    """
    group, value, counts, _ = _board_datum(frame, trim, rounding, min_results, by_section,
                                           datum, awarded)
    first = np.unique(group, return_index=True)[1]
    out = pd.DataFrame(
        {
            "section": frame["section"].astype("string").fillna("").to_numpy()[first]
            if by_section and "section" in frame
            else "",
            "board": frame["board"].astype("Int64").to_numpy()[first],
            "results": counts,
            "datum": pd.array(value, dtype="Float64").astype("Int64"),
        }
    )
    out["section"] = out["section"].astype("string")
    return out[out["board"].notna()].reset_index(drop=True)


def butler(
    frame: pd.DataFrame,
    trim: int | str = 1,
    rounding: Rounding = "half-away",
    min_results: int | None = None,
    by_section: bool = True,
    datum: str = "mean",
    awarded: np.ndarray | None = None,
) -> pd.DataFrame:
    """Butler scoring: adds ``datum``, ``ns_imp`` = IMPs(ns_score - datum) and ``ew_imp``.

    Options as in :func:`butler_datum`; all three columns are Int64 and <NA> on
    rows without a real result.

    >>> df = pd.DataFrame({"board": [1, 1, 1], "ns_pair": [1, 2, 3], "ew_pair": [4, 5, 6],
    ...                    "ns_score": [50, -50, -100]})
    >>> butler(df)[["datum", "ns_imp"]].values.tolist()
    [[-50, 3], [-50, 0], [-50, -2]]
    """
    out = frame.copy()
    group, value, _, valid = _board_datum(out, trim, rounding, min_results, by_section, datum,
                                          awarded)
    row_datum = np.where(valid, value[group], np.nan)
    score, _ = _valid_scores(out)
    out["datum"] = pd.array(row_datum, dtype="Float64").astype("Int64")
    out["ns_imp"] = pd.array(imps(score - row_datum), dtype="Float64").astype("Int64")
    out["ew_imp"] = -out["ns_imp"]
    return out
