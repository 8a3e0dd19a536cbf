"""IMPs for pairs: the IMP scale, cross-IMPs and pair totals, vectorised (docs/scoring.md).

Butler scoring (IMPs against a datum) is in :mod:`traveller.score.butler`.

All functions take a canonical traveller frame (``section``, ``board``,
``ns_pair``, ``ew_pair``, ``ns_score``) and return a new frame; the caller's
frame is never changed. A row whose ``ns_score`` is <NA> (not a real result:
an adjusted score, a bye, not played) takes no part in any comparison and gets
<NA> in every column added here.

Boards are compared within their section (``by_section=True``), so that two
sections playing the same board numbers with different deals stay apart.

Conventions checked against real published results (tests/test_imps.py):

- Compscore3 (Australia): Butler datum = mean without the single highest and
  lowest score, rounded to 10 (its SOURCE.txt says halves away from zero; the
  real session has no mean ending in exactly 5, so that part is untested
  there); cross-IMPs = sum over every other result divided by n - 1, printed
  to 2 decimals with halves away from zero.
- Ruter / Magic Contest (Finland, "IMP;Butler-2;Mean"): with 3 results the
  highest and lowest are still dropped, so the datum is the middle score.
  Hence the trim applies whenever at least ``2 * trim + 1`` results remain
  (``min_results``); below that the plain mean is used.
"""

from __future__ import annotations

from typing import Any, Literal

import numpy as np
import numpy.typing as npt
import pandas as pd

from traveller.score.groups import board_groups
from traveller.score.total import Movement, pair_totals

#: Lowest score difference worth 1, 2, ..., 24 IMPs (10 -> 0, 20 -> 1, 3990 -> 23, 4000 -> 24).
IMP_THRESHOLDS = np.array(
    [20, 50, 90, 130, 170, 220, 270, 320, 370, 430, 500, 600, 750, 900,
     1100, 1300, 1500, 1750, 2000, 2250, 2500, 3000, 3500, 4000]
)  # fmt: skip
IMP_THRESHOLDS.flags.writeable = False

Divisor = Literal["n-1", "n", "none"]
Rounding = Literal["half-away", "half-even", "half-up"]
DIVISORS = ("n-1", "n", "none")
ROUNDINGS = ("half-away", "half-even", "half-up")

#: Largest number of score differences held in memory at once by :func:`cross_imps`.
CHUNK_CELLS = 1 << 22
#: Boards with more results than this are cross-IMPed by sorting, not by an n x n broadcast.
LARGE_BOARD = 256


def imps(diff: npt.ArrayLike | pd.Series) -> Any:
    """IMPs for a score difference (scalar, numpy array or pandas Series), antisymmetric.

    Differences are compared with :data:`IMP_THRESHOLDS` (a difference must
    reach a threshold to earn it, so 19 is still 0). A Series comes back as
    ``Int64`` with <NA> kept; an array as ``int64`` (``float64`` with NaN kept
    when it has NaN); a scalar as ``int``.

    >>> imps(1520 - 940), imps(-580), imps(10), imps(4000)
    (11, -11, 0, 24)
    """
    if isinstance(diff, pd.Series):
        values = diff.astype("Float64").to_numpy(dtype=np.float64, na_value=np.nan)
        return pd.Series(pd.array(imps(values), dtype="Int64"), index=diff.index, name=diff.name)
    d = np.asarray(diff, dtype=np.float64)
    steps = np.searchsorted(IMP_THRESHOLDS, np.abs(np.nan_to_num(d)), side="right")
    result = np.sign(d) * steps
    if np.ndim(d) == 0:
        return float(result) if np.isnan(d) else int(result)
    if np.isnan(d).any():
        return result
    return result.astype(np.int64)


def round_half_away(values: np.ndarray, decimals: int = 0) -> np.ndarray:
    """Round to ``decimals`` places with halves away from zero (how Compscore prints).

    >>> round_half_away(np.array([0.125, -0.125, 2.5]), 2).tolist()
    [0.13, -0.13, 2.5]
    """
    scale = 10.0**decimals
    x = np.asarray(values, dtype=np.float64) * scale
    return np.sign(x) * np.floor(np.abs(x) + 0.5 + 1e-9) / scale


def round_to(values: np.ndarray, step: float, rounding: Rounding = "half-away") -> np.ndarray:
    """Round to the nearest multiple of ``step``, halves away from zero, to even or up.

    ``"half-up"`` takes halves towards plus infinity (-25 -> -20, 25 -> 30).

    >>> round_to(np.array([-25.0, 15.0, 25.0]), 10, "half-even").tolist()
    [-20.0, 20.0, 20.0]
    >>> round_to(np.array([-25.0, 25.0]), 10, "half-up").tolist()
    [-20.0, 30.0]
    """
    if rounding not in ROUNDINGS:
        raise ValueError(f"rounding must be one of {ROUNDINGS}, not {rounding!r}")
    q = np.asarray(values, dtype=np.float64) / step
    if rounding == "half-away":
        return np.sign(q) * np.floor(np.abs(q) + 0.5) * step
    if rounding == "half-up":
        return np.floor(q + 0.5) * step
    return np.round(q) * step


def _valid_scores(frame: pd.DataFrame) -> tuple[np.ndarray, np.ndarray]:
    """N-S scores as float (NaN for <NA>) and the mask of rows that take part."""
    score = frame["ns_score"].astype("Float64").to_numpy(dtype=np.float64, na_value=np.nan)
    valid = ~np.isnan(score) & frame["board"].notna().to_numpy()
    return score, valid


def _counted_cross_sums(score: np.ndarray) -> np.ndarray:
    """Sum of IMPs of each score against every other score of one board, in O(n log n).

    IMPs(d) for d >= 0 is the number of thresholds d reaches, so the sum over
    the board is, threshold by threshold, the number of scores at least that
    much lower minus the number at least that much higher.
    """
    s = np.sort(score)
    total = np.zeros(len(score))
    for threshold in IMP_THRESHOLDS:
        total += np.searchsorted(s, score - threshold, side="right")
        total -= len(s) - np.searchsorted(s, score + threshold, side="left")
    return total


def _cross_sums(group: np.ndarray, score: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """Per row: sum of IMPs against every other row of its group, and the group size.

    Rows are sorted by group; groups of one size are stacked into a
    (groups, n) matrix and compared by an n x n broadcast, in chunks of at most
    :data:`CHUNK_CELLS` differences. Boards with more than :data:`LARGE_BOARD`
    results are counted by sorting instead.
    """
    order = np.argsort(group, kind="stable")
    _, starts, sizes = np.unique(group[order], return_index=True, return_counts=True)
    sums = np.zeros(len(group))
    for n in np.unique(sizes):
        first = starts[sizes == n]
        if n > LARGE_BOARD:
            for lo in first:
                rows = order[lo : lo + n]
                sums[rows] = _counted_cross_sums(score[rows])
            continue
        step = max(1, CHUNK_CELLS // (n * n))
        for lo in range(0, len(first), step):
            rows = order[first[lo : lo + step, None] + np.arange(n)]
            s = score[rows]
            sums[rows] = imps(s[:, :, None] - s[:, None, :]).sum(axis=2)
    size = np.repeat(sizes, sizes)[np.argsort(order, kind="stable")]
    return sums, size


def cross_imps(
    frame: pd.DataFrame, divisor: Divisor = "n-1", by_section: bool = True
) -> pd.DataFrame:
    """Cross-IMPs: each result IMPed against every other on its board, summed and divided.

    Adds ``ns_imp`` and ``ew_imp`` (= -ns_imp), Float64 at full precision;
    present them with :func:`round_half_away` to 2 decimals (as Compscore
    prints). ``divisor`` is ``"n-1"`` (default), ``"n"`` or ``"none"``, with
    n the number of results on the board; a board with one result scores 0.

    >>> df = pd.DataFrame({"board": [1, 1, 1, 1], "ns_pair": [1, 2, 3, 4],
    ...                    "ew_pair": [5, 6, 7, 8], "ns_score": [420, 420, 450, -50]})
    >>> cross_imps(df)["ns_imp"].round(2).tolist()  # 420: (0 - 1 + 10) / 3
    [3.0, 3.0, 4.33, -10.33]
    """
    if divisor not in DIVISORS:
        raise ValueError(f"divisor must be one of {DIVISORS}, not {divisor!r}")
    out = frame.copy()
    score, valid = _valid_scores(out)
    group = board_groups(out, by_section).board
    result = np.full(len(out), np.nan)
    if valid.any():
        sums, n = _cross_sums(group[valid], score[valid])
        by = {"n-1": np.maximum(n - 1, 1), "n": n, "none": np.ones_like(n)}[divisor]
        result[valid] = sums / by
    out["ns_imp"] = pd.array(result, dtype="Float64")
    out["ew_imp"] = -out["ns_imp"]
    return out


def imp_totals(frame: pd.DataFrame, movement: Movement = "mitchell") -> pd.DataFrame:
    """Each pair's IMPs over the session from ``ns_imp``/``ew_imp`` columns.

    Mitchell: per (section, line, pair); Howell: per (section, pair), a pair's
    E-W rows counting ``ew_imp``. Returns ``section, line, pair, boards,
    imps, average`` (average = IMPs per board played).

    >>> from traveller.score.butler import butler
    >>> df = butler(pd.DataFrame({"board": [1, 1, 1], "ns_pair": [1, 2, 3],
    ...                           "ew_pair": [3, 1, 2], "ns_score": [50, -50, -100]}))
    >>> imp_totals(df, "howell")[["pair", "imps"]].values.tolist()
    [[1, 3.0], [2, 2.0], [3, -5.0]]
    """
    return pair_totals(
        frame,
        frame["ns_imp"].astype("Float64"),
        frame["ew_imp"].astype("Float64"),
        movement,
        name="imps",
    )
