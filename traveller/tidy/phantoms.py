"""Phantom (sit-out) pairs: which side of a TD/Bye line is the phantom."""

from __future__ import annotations

from collections.abc import Iterable

import numpy as np
import pandas as pd

from traveller.problems import combine, flag
from traveller.tidy.arrays import NO_ROWS
from traveller.tidy.ruling_text import AVERAGE_PLUS, kinds


def _pair_key(frame: pd.DataFrame, column: str, line: str, movement: str) -> pd.Series:
    section = frame["section"].astype("string").fillna("")
    line_part = line if movement == "mitchell" else ""
    return section + "|" + line_part + "|" + frame[column].astype("string").fillna("?")


def _named(frame: pd.DataFrame, column: str, line: str, phantoms: Iterable[str]) -> pd.Series:
    names = {str(p).upper().replace(" ", "").replace("-", "") for p in phantoms}
    pair = frame[column].astype("string")
    return (pair.isin(names) | (line + pair).isin(names)).fillna(False).astype(bool)


def resolve_phantoms(frame: pd.DataFrame, movement: str, phantoms: Iterable[str | int] = ()
                     ) -> tuple[pd.DataFrame, pd.DataFrame]:
    """Mark the phantom side of every row in a ``phantom`` column ("NS", "EW" or "").

    A side is the phantom when its pair is named in ``phantoms`` ("18", or
    "EW18" for one line of a Mitchell) or its pair number is missing on a
    TD/Bye line; failing that, on a TD/Bye line, when every row of its pair
    is a TD/Bye line and it has more of them than the pair opposite (the
    phantom sits at every such table, a real pair only now and then). A
    TD/Bye line whose phantom cannot be told is returned as a ``bad-ruling``
    problem and left out. A TD line between two real pairs (each has results
    elsewhere, neither is named) is no phantom line: it is the director's
    60 % to both pairs (as ``A+/A+``). Returns (frame, problems).
    """
    named = tuple(str(p) for p in phantoms)
    line_rows = pd.Series(kinds(frame) == "phantom", index=frame.index)
    if not named and not line_rows.any():
        return frame, flag(NO_ROWS, "bad-ruling", "ruling")
    strong, count = {}, {}
    for line, column in (("NS", "ns_pair"), ("EW", "ew_pair")):
        key = _pair_key(frame, column, line, movement).to_numpy()
        only_lines = line_rows.groupby(key).transform("all").to_numpy(dtype=bool)
        count[line] = np.where(only_lines, line_rows.groupby(key).transform("sum"), 0)
        strong[line] = (_named(frame, column, line, named) | frame[column].isna()).to_numpy(bool)
    ns = strong["NS"] | (~strong["EW"] & (count["NS"] > count["EW"]))
    ew = strong["EW"] | (~strong["NS"] & (count["EW"] > count["NS"]))
    on_line = line_rows.to_numpy()
    both_real = on_line & ~strong["NS"] & ~strong["EW"] & (count["NS"] == 0) & (count["EW"] == 0)
    unclear = on_line & (ns == ew) & ~both_real
    out = _both_average_plus(frame, both_real).loc[~unclear].copy()
    named_side = np.select([strong["NS"], strong["EW"]], ["NS", "EW"], "")
    out["phantom"] = np.where(on_line, np.select([ns, ew], ["NS", "EW"], ""), named_side)[~unclear]
    out["phantom"] = out["phantom"].astype("string")
    rows = frame.loc[unclear]
    problems = flag(rows, "bad-ruling", "ruling", rows.get("ruling"),
                    "cannot tell which pair is the phantom; name it with --phantom")
    return out.reset_index(drop=True), combine([problems, _not_found(frame, named)])


def _not_found(frame: pd.DataFrame, named: tuple[str, ...]) -> pd.DataFrame:
    """A ``phantom-not-found`` warning, about the file, for each named phantom that names
    no pair of the session (its phantom is then ranked as a pair, its opponents scored as
    having played it)."""
    missing = [p for p in named if not any(
        _named(frame, column, line, (p,)).any()
        for line, column in (("NS", "ns_pair"), ("EW", "ew_pair")))]
    if not missing or frame.empty:
        return NO_ROWS
    about = pd.DataFrame({"file": frame["file"].iloc[0], "sheet": pd.NA, "row": pd.NA},
                         index=range(len(missing)))
    return flag(about, "phantom-not-found", "--phantom", pd.Series(missing), blocking=False)


def _both_average_plus(frame: pd.DataFrame, rows: np.ndarray) -> pd.DataFrame:
    """The frame with ``rows`` (TD lines between two real pairs) scored 60 % to each side."""
    if not rows.any():
        return frame
    out = frame.copy()
    out["ruling_kind"] = out["ruling_kind"].astype("string").mask(rows, "average")
    for column in ("ns_award", "ew_award"):
        values = out[column] if column in out else pd.Series(pd.NA, index=out.index)
        out[column] = values.astype("Float64").mask(rows, AVERAGE_PLUS)
    return out
