"""Each result seen from its two pairs: who held which cards and what they scored.

A traveller row holds one result for two pairs. :func:`pair_sides` turns it
into two rows, one per pair, with the pair's identity (section, line, number:
the line is the column the pair is written in, in a Mitchell, and "" in a
Howell), the cards it held (N-S or E-W: the other line's on an arrow-switched
board) and the matchpoints credited to it. Rankings, score cards and the
session-percentage rule all read these rows.
"""

from __future__ import annotations

import numpy as np
import pandas as pd

SIDE_COLUMNS = ["position", "section", "board", "line", "pair", "opponent", "held",
                "mp", "top", "pct", "phantom", "compared"]


def _arrow(frame: pd.DataFrame) -> np.ndarray:
    if "arrow" not in frame:
        return np.zeros(len(frame), dtype=bool)
    return frame["arrow"].astype("boolean").fillna(False).to_numpy(dtype=bool)


def _column(frame: pd.DataFrame, name: str, dtype: type = float) -> np.ndarray:
    if name not in frame:
        return np.full(len(frame), np.nan)
    return frame[name].to_numpy(dtype=dtype, na_value=np.nan)


def pair_sides(frame: pd.DataFrame, movement: str = "mitchell") -> pd.DataFrame:
    """One row per (result, pair): see the module docstring.

    Columns: ``position`` (row of ``frame``), section, board, line, pair,
    opponent, held ("NS"/"EW" cards), mp (Neuberg-scaled to the common top,
    NaN when the board does not count for the pair), top (common), pct (on the
    board's top), phantom (the pair is the phantom), compared (a result or a
    weighted/split score, not an award).
    """
    from traveller.tidy.rulings import COMPARED, kinds

    arrow = _arrow(frame)
    phantom = (frame["phantom"].astype("string").fillna("").to_numpy()
               if "phantom" in frame else np.full(len(frame), ""))
    compared = np.isin(kinds(frame), COMPARED)
    parts = []
    for line, column, other in (("NS", "ns_pair", "ew_pair"), ("EW", "ew_pair", "ns_pair")):
        held = np.where(arrow, "EW" if line == "NS" else "NS", line)
        is_ns = held == "NS"
        parts.append(pd.DataFrame({
            "position": np.arange(len(frame)),
            "section": frame["section"].astype("string").fillna("").to_numpy(),
            "board": frame["board"].to_numpy(),
            "line": line if movement == "mitchell" else "",
            "pair": frame[column].to_numpy(),
            "opponent": frame[other].to_numpy(),
            "held": held,
            "mp": np.where(is_ns, _column(frame, "ns_mp_scaled"), _column(frame, "ew_mp_scaled")),
            "top": _column(frame, "common_top"),
            "pct": np.where(is_ns, _column(frame, "ns_pct"), _column(frame, "ew_pct")),
            "phantom": phantom == line,
            "compared": compared,
        }))
    return pd.concat(parts, ignore_index=True)
