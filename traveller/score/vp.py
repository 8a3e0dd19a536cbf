"""Victory points: the WBF continuous 20-point scale and discrete VP tables (docs/scoring.md).

WBF scale (2013). With ``tau = (sqrt(5) - 1) / 2`` and ``B = 15 * sqrt(boards)``
the winner of a margin of ``m`` IMPs gets
``10 + 10 * (1 - tau ** (3 * m / B)) / (1 - tau ** 3)``, and 20 from ``m >= B``.
The published tables hold these values, for whole IMP margins, rounded to
0.01; they are then nudged so that each additional IMP is never worth more
than the one before: scanning margins 1, 2, ... while any step is larger
than the step before it, the value in between is raised by 0.01 (the scan is
repeated until no step grows). :func:`wbf_table` builds that table in whole
hundredths, so sums and ``20 - vp`` are exact.

Fractional margins (IMP adjustments, cross-IMP carry-overs) are interpolated
linearly between the two whole-margin values of the table and rounded to 0.01.
A signed margin gives the VPs of side A; side B gets ``20 - vp``.

A discrete scale is a small CSV table, one band per row::

    imps_from,imps_to,vp_winner,vp_loser
    0,2,10,10
    3,6,11,9
    ...
    55,,20,0

(an empty ``imps_to`` on the last band means "and more"). A fractional margin
falls in the band whose ``imps_from`` it has reached (2.5 IMPs is still 0-2).
"""

from __future__ import annotations

import math
from functools import lru_cache
from pathlib import Path
from typing import IO, Any

import numpy as np
import numpy.typing as npt
import pandas as pd

from traveller.errors import UnreadableFileError

TAU = (math.sqrt(5) - 1) / 2
VP_TOTAL = 20
SCALE_COLUMNS = ["imps_from", "imps_to", "vp_winner", "vp_loser"]


def blitz(boards: float) -> float:
    """The margin (in IMPs) from which the WBF scale gives 20-0: ``15 * sqrt(boards)``.

    >>> blitz(16)
    60.0
    """
    return 15 * math.sqrt(boards)


def wbf_formula(margin: np.ndarray, boards: float) -> np.ndarray:
    """The winner's VPs by the WBF formula, unrounded (margin >= 0).

    >>> round(float(wbf_formula(np.array(10.0), 16)), 4)
    12.7993
    """
    m = np.minimum(np.asarray(margin, dtype=np.float64), blitz(boards))
    return 10 + 10 * (1 - TAU ** (3 * m / blitz(boards))) / (1 - TAU**3)


def _convex_nudge(hundredths: np.ndarray) -> np.ndarray:
    """Raise values by one hundredth until no step is larger than the step before it."""
    v = hundredths.copy()
    changed = True
    while changed:
        changed = False
        for i in range(1, len(v) - 1):  # over table entries, not over results
            if v[i + 1] - v[i] > v[i] - v[i - 1]:
                v[i] += 1
                changed = True
    return v


@lru_cache(maxsize=64)
def _wbf_hundredths(boards: int) -> np.ndarray:
    margins = np.arange(math.ceil(blitz(boards)) + 1)
    raw = np.floor(wbf_formula(margins, boards) * 100 + 0.5).astype(np.int64)
    table = _convex_nudge(np.minimum(raw, VP_TOTAL * 100))
    table.flags.writeable = False
    return table


def wbf_table(boards: int) -> pd.DataFrame:
    """The WBF 20-point table for a match of ``boards`` boards: ``imps, vp_winner, vp_loser``.

    One row per whole margin from 0 to the first margin that gives 20-0.

    >>> t = wbf_table(16)
    >>> t.loc[[0, 10, 15, 20, 60], "vp_winner"].tolist()
    [10.0, 12.8, 13.97, 15.0, 20.0]
    """
    if boards < 1:
        raise ValueError("a match has at least one board")
    h = _wbf_hundredths(int(boards))
    return pd.DataFrame(
        {"imps": np.arange(len(h)), "vp_winner": h / 100, "vp_loser": (VP_TOTAL * 100 - h) / 100}
    )


def _wbf_side_a(margin: np.ndarray, boards: int) -> np.ndarray:
    """Side A's VPs in hundredths for signed margins, one board count."""
    h = _wbf_hundredths(boards).astype(np.float64)
    m = np.minimum(np.abs(margin), len(h) - 1)
    lo = np.floor(m).astype(np.int64)
    hi = np.minimum(lo + 1, len(h) - 1)
    winner = np.floor(h[lo] + (h[hi] - h[lo]) * (m - lo) + 0.5)
    return np.where(margin >= 0, winner, VP_TOTAL * 100 - winner)


def vp_wbf(margin: npt.ArrayLike, boards: npt.ArrayLike) -> np.ndarray:
    """VPs of side A on the WBF 20-point scale, for a signed IMP margin (A - B).

    ``margin`` and ``boards`` are scalars or arrays (one board count per
    match); NaN margins give NaN. Side B gets ``20 - vp``.

    >>> vp_wbf(np.array([10, -10, 0, 60, 75.0]), 16).tolist()
    [12.8, 7.2, 10.0, 20.0, 20.0]
    """
    m = np.atleast_1d(np.asarray(margin, dtype=np.float64))
    b = np.broadcast_to(np.asarray(boards, dtype=np.int64), m.shape)
    out = np.full(m.shape, np.nan)
    known = ~np.isnan(m)
    for count in np.unique(b[known]):
        rows = known & (b == count)
        out[rows] = _wbf_side_a(m[rows], int(count)) / 100
    return out if np.ndim(margin) or np.ndim(boards) else out.reshape(())


def victory_points(margin: npt.ArrayLike, boards: npt.ArrayLike) -> tuple[Any, Any]:
    """Both sides' victory points on the WBF continuous 20-point scale.

    ``margin`` is side A's IMPs minus side B's (a scalar, array or Series);
    ``boards`` the number of boards in the match (a scalar or one per match).
    Returns ``(vp_a, vp_b)``, each to two decimals, always adding up to 20; a
    margin of ``15 * sqrt(boards)`` or more is 20-0.

    >>> victory_points(10, 16)
    (12.8, 7.2)
    >>> a, b = victory_points(np.array([0, 20, -75]), 16)
    >>> a.tolist(), b.tolist()
    ([10.0, 15.0, 0.0], [10.0, 5.0, 20.0])
    """
    a = vp_wbf(margin, boards)
    b = np.round(VP_TOTAL - a, 2)
    if isinstance(margin, pd.Series):
        return (pd.Series(a, index=margin.index, name="vp_a"),
                pd.Series(b, index=margin.index, name="vp_b"))
    if a.ndim == 0:
        return float(a), float(b)
    return a, b


def read_vp_scale(path: str | Path | IO[str]) -> pd.DataFrame:
    """Read and check a discrete VP scale (CSV with :data:`SCALE_COLUMNS`).

    The bands must start at 0, follow on without gaps or overlaps, and give
    both sides ``VP_TOTAL`` between them; only the last band may be open.

    >>> import io
    >>> text = "imps_from,imps_to,vp_winner,vp_loser\\n0,2,10,10\\n3,,11,9\\n"
    >>> read_vp_scale(io.StringIO(text)).iloc[1].tolist()
    [3.0, nan, 11.0, 9.0]
    """
    where = path if isinstance(path, str | Path) else getattr(path, "name", "the VP scale")
    try:
        table = pd.read_csv(path, dtype=np.float64)
    except (ValueError, OSError) as exc:  # (empty, a cell that is no number, unreadable)
        raise VpScaleError(f"{where}: not a VP scale table of numbers ({exc}); give a CSV with "
                           f"the columns {', '.join(SCALE_COLUMNS)}") from None
    missing = [c for c in SCALE_COLUMNS if c not in table]
    if missing:
        has = ", ".join(map(str, table.columns)) or "none"
        raise VpScaleError(f"{where}: a VP scale needs the columns {', '.join(SCALE_COLUMNS)}; "
                           f"missing {', '.join(missing)} (its columns: {has})")
    table = table[SCALE_COLUMNS].reset_index(drop=True)
    try:
        check_vp_scale(table, str(where))
    except ValueError as exc:
        raise VpScaleError(str(exc)) from None
    return table


class VpScaleError(UnreadableFileError, ValueError):
    """A VP scale file that cannot be used: the input of the run it was given to (its
    Problems sheet lists it), and a ValueError as the checks of a table raise."""


def check_vp_scale(scale: pd.DataFrame, where: str = "VP scale") -> None:
    """Raise ValueError unless ``scale`` is a well-formed discrete VP table."""
    start = scale["imps_from"].to_numpy()
    end = scale["imps_to"].to_numpy()
    problems = []
    if len(scale) == 0 or start[0] != 0:
        problems.append("the first band must start at 0 IMPs")
    if np.isnan(end[:-1]).any():
        problems.append("only the last band may have an empty imps_to")
    if (start[1:] != end[:-1] + 1).any():
        problems.append("each band must start one IMP after the previous one ends")
    if (np.diff(scale["vp_winner"]) < 0).any():
        problems.append("vp_winner must not fall as the margin grows")
    if problems:
        raise ValueError(f"{where}: " + "; ".join(problems))


def vp_from_scale(margin: npt.ArrayLike, scale: pd.DataFrame) -> np.ndarray:
    """VPs of side A from a discrete scale, for a signed IMP margin (A - B).

    >>> scale = pd.DataFrame({"imps_from": [0, 3, 7], "imps_to": [2, 6, float("nan")],
    ...                       "vp_winner": [10, 11, 12], "vp_loser": [10, 9, 8]})
    >>> vp_from_scale(np.array([0, 2.5, 3, -5, 40]), scale).tolist()
    [10.0, 10.0, 11.0, 9.0, 12.0]
    """
    m = np.asarray(margin, dtype=np.float64)
    band = np.searchsorted(scale["imps_from"].to_numpy(), np.abs(np.nan_to_num(m)), side="right")
    band = np.maximum(band - 1, 0)
    winner = scale["vp_winner"].to_numpy(dtype=np.float64)[band]
    loser = scale["vp_loser"].to_numpy(dtype=np.float64)[band]
    return np.where(np.isnan(m), np.nan, np.where(m >= 0, winner, loser))
