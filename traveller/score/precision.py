"""Printed precision that changes the numbers: rounding before dividing (KoPS) and
percentages to the decimals a publication prints them with (OKbridge).

Both are conventions of :class:`traveller.Options` (docs/conventions.md, section 10).
"""

from __future__ import annotations

import numpy as np
import pandas as pd

from traveller.score.imps import round_half_away


def _floats(frame: pd.DataFrame, column: str) -> np.ndarray:
    return frame[column].to_numpy(dtype=float, na_value=np.nan)


def rounded_before_dividing(ranked: pd.DataFrame, decimals: int | None) -> pd.DataFrame:
    """Each result's Neuberg-scaled matchpoints rounded before its percentage is taken.

    KoPS rounds a result's matchpoints on a board with an artificial score to
    ``decimals`` (0.01) and computes the percentage from the rounded value: 21
    real results and an ``A60/40`` on 22 tables, a result beating 17 and
    losing to 3 scores (34 + 1) × 22/21 − 1 = 35.667 of 42, printed 35.67 and
    84.93 % where the exact value is 84.92 %. Artificial scores keep their
    awarded %; the totals add up the rounded values.

    >>> df = pd.DataFrame({"ns_mp": [35 + 2 / 3], "ew_mp": [42 - 35 - 2 / 3], "top": [42.0],
    ...                    "ns_mp_scaled": [35 + 2 / 3], "ew_mp_scaled": [6 + 1 / 3],
    ...                    "ns_pct": [84.9206], "ew_pct": [15.0794]})
    >>> rounded_before_dividing(df, 2)[["ns_mp", "ns_pct"]].round(4).values.tolist()
    [[35.67, 84.9286]]
    """
    if decimals is None or ranked.empty:
        return ranked
    plain = (ranked["ruling_kind"].isna().to_numpy() if "ruling_kind" in ranked
             else np.ones(len(ranked), dtype=bool))
    top = _floats(ranked, "top")
    out = ranked.copy()
    for side in ("ns", "ew"):
        for column in (f"{side}_mp", f"{side}_mp_scaled"):
            value = _floats(ranked, column)
            out[column] = np.where(plain, round_half_away(value, decimals), value)
        with np.errstate(invalid="ignore", divide="ignore"):
            pct = 100 * _floats(out, f"{side}_mp") / top
        keep = ~plain | np.isnan(pct) | (top <= 0)
        out[f"{side}_pct"] = np.where(keep, _floats(ranked, f"{side}_pct"), pct)
    return out


def frequency_printed(travellers: pd.DataFrame, decimals: tuple[int, int] | None
                      ) -> pd.DataFrame:
    """A frequency table's percentages to the decimals OKbridge prints them with.

    ``decimals`` is (shared, single): a result several tables had (its
    ``multiplicity`` above 1) to the first, one only one table had to the
    second, halves away from zero. OKbridge (``(1, 2)``) prints 94.6 for a
    result three tables share and 99.02 for one alone.

    >>> df = pd.DataFrame({"multiplicity": [3, 1], "ns_pct": [94.6429, 99.0196],
    ...                    "ew_pct": [5.3571, 0.9804]})
    >>> frequency_printed(df, (1, 2))[["ns_pct", "ew_pct"]].values.tolist()
    [[94.6, 5.4], [99.02, 0.98]]
    """
    if decimals is None or "multiplicity" not in travellers or travellers.empty:
        return travellers
    from traveller.score.frequency import counts

    shared = counts(travellers) > 1
    out = travellers.copy()
    for column in ("ns_pct", "ew_pct"):
        if column in out:
            value = _floats(out, column)
            out[column] = np.where(shared, round_half_away(value, decimals[0]),
                                   round_half_away(value, decimals[1]))
    return out
