"""Each result seen from its two pairs: who held which cards and what they scored.

A traveller row holds one result for two pairs. :func:`pair_sides` turns it
into two rows, one per pair, with the pair's identity (section, line, number:
the line is the column the pair is written in, in a Mitchell, and "" in a
Howell), the cards it held (N-S or E-W: the other line's on an arrow-switched
board) and the matchpoints credited to it. Rankings, score cards and the
session-percentage rule all read these rows.
"""

from __future__ import annotations

from collections.abc import Callable, Collection
from typing import Any

import numpy as np
import pandas as pd

SIDE_COLUMNS = ["position", "section", "board", "line", "pair", "opponent", "held",
                "mp", "top", "pct", "phantom", "compared"]


def arrow_held(frame: pd.DataFrame) -> np.ndarray:
    """Per result: True where the arrow was switched (the N-S pair held the E-W cards)."""
    if "arrow" not in frame:
        return np.zeros(len(frame), dtype=bool)
    return frame["arrow"].astype("boolean").fillna(False).to_numpy(dtype=bool)


def float_column(frame: pd.DataFrame, name: str, dtype: type = float) -> np.ndarray:
    """A column as a numpy array with NaN for missing values (all NaN when it is absent)."""
    if name not in frame:
        return np.full(len(frame), np.nan)
    return frame[name].to_numpy(dtype=dtype, na_value=np.nan)


def _text(column: pd.Series) -> np.ndarray:
    """A column as an object array of text, missing values as ""."""
    if isinstance(column.dtype, pd.StringDtype):  # text already: no conversion of its own
        return column.to_numpy(dtype=object, na_value="")
    return column.astype("string").fillna("").to_numpy()


def result_sides(frame: pd.DataFrame, movement: str = "mitchell",
                 values: dict[str, tuple[Any, Any]] | None = None, *,
                 section_codes: bool = False) -> pd.DataFrame:
    """One row per (result, side): the N-S rows of ``frame`` then its E-W rows.

    Columns: ``position`` (row of ``frame``, by position), ``section`` (text,
    missing as ""; integer codes with ``section_codes``), ``board``, ``line``
    (the column the pair is written in, "NS"/"EW", in a Mitchell; "" in a
    Howell), ``pair``, ``opponent``, then one column per entry of ``values``
    (name -> (N-S side's values, E-W side's values), aligned with ``frame``).

    >>> df = pd.DataFrame({"section": "", "board": [1], "ns_pair": [1], "ew_pair": [2]})
    >>> result_sides(df)[["line", "pair", "opponent"]].values.tolist()
    [['NS', 1, 2], ['EW', 2, 1]]
    """
    if "section" not in frame:
        section: np.ndarray = np.full(len(frame), "", dtype=object)
    elif section_codes:
        section = pd.factorize(frame["section"])[0]
    else:
        section = _text(frame["section"])
    board = frame["board"].to_numpy() if "board" in frame else np.full(len(frame), None)
    ns_pair, ew_pair = frame["ns_pair"].to_numpy(), frame["ew_pair"].to_numpy()
    # the two words as a text column infers them, then taken per row (not converted per cell)
    lines = pd.Series(["NS", "EW"] if movement == "mitchell" else ["", ""]).array
    line = lines.take(np.repeat([0, 1], len(frame)))
    columns = {"position": np.tile(np.arange(len(frame)), 2),
               "section": np.concatenate([section, section]),
               "board": np.concatenate([board, board]), "line": line,
               "pair": np.concatenate([ns_pair, ew_pair]),
               "opponent": np.concatenate([ew_pair, ns_pair])}
    for name, (ns, ew) in (values or {}).items():  # one frame built once: no concat
        columns[name] = np.concatenate([np.asarray(ns), np.asarray(ew)])
    return pd.DataFrame(columns)


def pair_sides(frame: pd.DataFrame, movement: str = "mitchell",
               columns: Collection[str] = SIDE_COLUMNS) -> pd.DataFrame:
    """One row per (result, pair): see the module docstring.

    Columns: ``position`` (row of ``frame``), section, board, line, pair,
    opponent, held ("NS"/"EW" cards), mp (Neuberg-scaled to the common top,
    NaN when the board does not count for the pair), top (common), pct (on the
    board's top), phantom (the pair is the phantom), compared (a result or a
    weighted/split score, not an award). Of held .. compared, only those in
    ``columns`` are computed (the first six always are).
    """
    arrow = arrow_held(frame)
    held = {"NS": np.where(arrow, "EW", "NS"), "EW": np.where(arrow, "NS", "EW")}
    is_ns = {line: cards == "NS" for line, cards in held.items()}
    values = {name: _SIDE_VALUES[name](frame, held, is_ns)
              for name in SIDE_COLUMNS[6:] if name in columns}
    return result_sides(frame, movement, values)


def _by_cards(frame: pd.DataFrame, is_ns: dict[str, np.ndarray], ns: str, ew: str
              ) -> tuple[np.ndarray, np.ndarray]:
    """Each side's value of the N-S column ``ns`` or the E-W column ``ew``, by the cards held."""
    ns_values, ew_values = float_column(frame, ns), float_column(frame, ew)
    return (np.where(is_ns["NS"], ns_values, ew_values),
            np.where(is_ns["EW"], ns_values, ew_values))


def _phantom(frame: pd.DataFrame) -> tuple[np.ndarray, np.ndarray]:
    phantom = _text(frame["phantom"]) if "phantom" in frame else np.full(len(frame), "")
    return phantom == "NS", phantom == "EW"


def _compared(frame: pd.DataFrame) -> tuple[np.ndarray, np.ndarray]:
    from traveller.tidy.rulings import COMPARED, kinds

    compared = np.isin(kinds(frame), COMPARED)
    return compared, compared


def _top(frame: pd.DataFrame) -> tuple[np.ndarray, np.ndarray]:
    top = float_column(frame, "common_top")
    return top, top


#: How each side column after the first six is computed (frame, cards held, held N-S).
_SIDE_VALUES: dict[str, Callable[..., tuple[np.ndarray, np.ndarray]]] = {
    "held": lambda frame, held, is_ns: (held["NS"], held["EW"]),
    "mp": lambda frame, held, is_ns: _by_cards(frame, is_ns, "ns_mp_scaled", "ew_mp_scaled"),
    "top": lambda frame, held, is_ns: _top(frame),
    "pct": lambda frame, held, is_ns: _by_cards(frame, is_ns, "ns_pct", "ew_pct"),
    "phantom": lambda frame, held, is_ns: _phantom(frame),
    "compared": lambda frame, held, is_ns: _compared(frame),
}
