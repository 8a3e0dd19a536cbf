"""Who played which board: board numbers, sections and the two pair numbers."""

from __future__ import annotations

from typing import Any

import numpy as np
import pandas as pd

from traveller.problems import flag
from traveller.tidy import rulings
from traveller.tidy.cells import MAX_NUMBER, as_text, coded, col, int_array, whole_floats
from traveller.tidy.unknown_pairs import unidentified


def parse_identity(out, frame, table, header, src, problems,  # type: ignore[no-untyped-def]
                   keep_unknown=False) -> dict[str, Any]:
    """``out`` (a dict of columns) with section, board and pair numbers; list their problems.

    ``keep_unknown`` keeps results whose pair is ``???``, blank or 0 in the field
    (each listed as an ``unknown-pair`` warning) instead of refusing them.
    """
    section = _sections(frame)
    number, bad = whole_floats(col(frame, "board"))
    if "_board" in frame or table.board is not None:
        board = pd.Series(int_array(number), index=frame.index)
        title = frame["_board"] if "_board" in frame else pd.Series(table.board, index=frame.index)
        title = pd.to_numeric(title).astype("Int64")
        mismatch = (board.notna() & title.notna() & (board != title)).fillna(False).to_numpy(bool)
        if mismatch.any():
            problems.append(flag(src[mismatch], "board-mismatch", header.get("board", "board"),
                                 col(frame, "board")[mismatch],
                                 "the title says board " + title[mismatch].astype("string")))
        number = board.fillna(title).to_numpy(dtype=np.float64, na_value=np.nan)
    blank = np.isnan(number) & ~bad
    with np.errstate(invalid="ignore"):
        bad = bad | (~np.isnan(number) & ((number < 1) | (number > MAX_NUMBER)))
    if bad.any():
        problems.append(flag(src[bad], "bad-board", header.get("board", "board"),
                             col(frame, "board")[bad]))
    if blank.any():
        problems.append(flag(src[blank], "missing-board", header.get("board", "board")))
    columns = {"section": section, "board": int_array(np.where(bad, np.nan, number))}
    return {**out, **columns, **check_pairs(frame, header, src, problems, keep_unknown)}


def _sections(frame: pd.DataFrame) -> pd.Series:
    """Each row's section as a categorical of its text; "" everywhere when there is no column."""
    if "section" in frame:
        return coded(as_text(frame["section"]).fillna("").astype("string"))
    # what coded() makes of a column of "": one category (none for no rows), every code 0
    blank = _BLANK if len(frame) else _NO_SECTION
    return pd.Series(pd.Categorical.from_codes(np.zeros(len(frame), dtype=np.int64), dtype=blank,
                                               validate=False), index=frame.index)


#: The sections of a table with no section column (built once: a dtype is immutable).
_BLANK = pd.CategoricalDtype(pd.Index([""], dtype="string"))
_NO_SECTION = pd.CategoricalDtype(pd.Index([], dtype="string"))


def check_pairs(frame: pd.DataFrame, header: dict[str, str], src: pd.DataFrame,
                problems: list[pd.DataFrame], keep_unknown: bool = False
                ) -> dict[str, Any]:
    """The N-S and E-W pair number columns; missing and unreadable ones are listed.

    The one place that decides which pair cells are usable, so rules about
    unidentified pairs live here.
    """
    pairs = {side: whole_floats(col(frame, side)) for side in ("ns_pair", "ew_pair")}
    # a Bye line may name only the pair sitting out: the missing side is the phantom
    one_missing = np.isnan(pairs["ns_pair"][0]) ^ np.isnan(pairs["ew_pair"][0])
    sit_out = pd.Series(False, index=frame.index)
    if one_missing.any():
        sit_out = pd.Series(one_missing, index=frame.index) & rulings.is_phantom_line(
            frame[one_missing]).reindex(frame.index, fill_value=False)
    columns: dict[str, Any] = {}
    for side in ("ns_pair", "ew_pair"):
        number, bad = pairs[side]
        with np.errstate(invalid="ignore"):
            bad = bad | (~np.isnan(number) & ((number < 1) | (number > MAX_NUMBER)))
        name = header.get(side, side)
        unknown, warned = unidentified(col(frame, side), src, name, keep_unknown, sit_out)
        unknown_a = unknown.to_numpy(dtype=bool)
        bad &= ~unknown_a
        problems.append(warned)
        if bad.any():
            problems.append(flag(src[bad], "bad-pair", name, col(frame, side)[bad]))
        missing = np.isnan(number) & ~bad & ~sit_out.to_numpy(dtype=bool) & ~unknown_a
        if missing.any():
            problems.append(flag(src[missing], "missing-pair", name))
        columns[side] = int_array(np.where(bad | unknown_a, np.nan, number))
    return columns
