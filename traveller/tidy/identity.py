"""Who played which board: board numbers, sections and the two pair numbers."""

from __future__ import annotations

import re
from typing import Any

import numpy as np
import pandas as pd

from traveller.problems import flag
from traveller.tidy import rulings
from traveller.tidy import text as tx
from traveller.tidy.cells import MAX_NUMBER, as_text, coded, col, int_array, whole_floats
from traveller.tidy.unknown_pairs import unidentified


def parse_identity(out, frame, table, header, src, problems,  # type: ignore[no-untyped-def]
                   keep_unknown=False) -> dict[str, Any]:
    """``out`` (a dict of columns) with section, board and pair numbers; list their problems.

    ``keep_unknown`` keeps results whose pair is ``???``, blank or 0 in the field
    (each listed as an ``unknown-pair`` warning) instead of refusing them.
    """
    frame, from_pairs = _sections_in_pairs(frame, header, src, problems)
    section = _sections(frame) if from_pairs is None else from_pairs
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
    if blank.any() and "_board" not in frame and table.board is None:
        number, blank = _filled_down(number, blank, frame, header, src, problems)
    with np.errstate(invalid="ignore"):
        bad = bad | (~np.isnan(number) & ((number < 1) | (number > MAX_NUMBER)))
    if bad.any():
        problems.append(flag(src[bad], "bad-board", header.get("board", "board"),
                             col(frame, "board")[bad]))
    if blank.any():
        problems.append(flag(src[blank], "missing-board", header.get("board", "board")))
    columns = {"section": section, "board": int_array(np.where(bad, np.nan, number))}
    return {**out, **columns, **check_pairs(frame, header, src, problems, keep_unknown)}


def _filled_down(number: np.ndarray, blank: np.ndarray, frame: pd.DataFrame,
                 header: dict[str, str], src: pd.DataFrame, problems: list[pd.DataFrame]
                 ) -> tuple[np.ndarray, np.ndarray]:
    """Board numbers written only on the first row of each board, filled down.

    Only where that is plainly the sheet's layout: every written number has blank
    rows below it, there are at least as many blank rows as written ones (two at
    the least), and no number is written on two separate blocks. Each filled
    block is listed once (``board-filled``); elsewhere blanks stay blanks.
    """
    written = ~np.isnan(number)
    sheet = (frame["_sheet"].astype(str).to_numpy() if "_sheet" in frame
             else np.zeros(len(frame), dtype=object))
    changed = np.r_[True, number[1:] != number[:-1]] | np.r_[True, sheet[1:] != sheet[:-1]]
    starts = written & changed
    followed = starts & np.r_[blank[1:], False]  # a written number with a blank row below
    if (blank.sum() < max(written.sum(), 2) or followed.sum() < starts.sum()
            or len(np.unique(number[starts])) < starts.sum()):
        return number, blank
    filled = pd.Series(number).groupby(sheet).ffill().to_numpy(dtype=np.float64)
    got = blank & ~np.isnan(filled)
    first = got & ~np.r_[False, got[:-1]]  # each filled block's first and last row
    if first.any():
        rows = src["row"].to_numpy()
        at = np.flatnonzero(first)
        last = rows[got & ~np.r_[got[1:], False]].tolist()
        detail = [f"rows {rows[i]}-{end} read as board {int(filled[i])}, the number above them"
                  if end != rows[i] else f"read as board {int(filled[i])}, the number above"
                  for i, end in zip(at.tolist(), last, strict=True)]
        problems.append(flag(src.iloc[at], "board-filled", header.get("board", "board"),
                             None, pd.Series(detail, index=src.index[at], dtype="string"),
                             blocking=False))
    return np.where(got, filled, number), blank & ~got


#: A pair number with its section letter in front: A1, B12, C-3.
_SECTION_PAIR = r"^\s*([A-Za-z])\s*-?\s*(\d{1,5})\s*$"


def _sections_in_pairs(frame: pd.DataFrame, header: dict[str, str], src: pd.DataFrame,
                       problems: list[pd.DataFrame]) -> tuple[pd.DataFrame, pd.Series | None]:
    """Pair numbers written with their section (``A1``, ``B12``) -> section and number.

    Returns the frame with the pair cells as numbers, and each row's section
    (None where no pair cell has a letter). The two pairs of a result sit in
    one section: a row whose letters differ, or differ from its Section
    column, is listed (``section-disagrees``) and left out.
    """
    if not {"ns_pair", "ew_pair"} <= set(frame.columns) or not any(
            _has_section(frame[side]) for side in ("ns_pair", "ew_pair")):
        return frame, None
    parts = {side: frame[side].astype("string").str.extract(_SECTION_PAIR)
             for side in ("ns_pair", "ew_pair")}
    if not any(p[0].notna().any() for p in parts.values()):
        return frame, None
    letters = [parts[side][0].str.upper() for side in ("ns_pair", "ew_pair")]
    section = letters[0].fillna(letters[1])
    stated = as_text(frame["section"]).str.upper() if "section" in frame else None
    differ = (letters[0].notna() & letters[1].notna() & (letters[0] != letters[1])).fillna(False)
    if stated is not None:
        differ |= (section.notna() & stated.notna() & (section != stated)).fillna(False)
        section = section.fillna(stated)
    if differ.any():
        said = ("N-S " + frame["ns_pair"].astype("string").fillna("-") + ", E-W "
                + frame["ew_pair"].astype("string").fillna("-"))
        if stated is not None:
            said = said + ", Section " + stated.fillna("-")
        problems.append(flag(src[differ.to_numpy()], "section-disagrees",
                             header.get("ns_pair", "ns_pair"), None,
                             said[differ] + "; the two pairs of a result sit in one section"))
    out = frame.copy()
    for side in ("ns_pair", "ew_pair"):
        out[side] = parts[side][1].where(parts[side][1].notna(), frame[side].astype("string"))
    return out, coded(section.fillna("").astype("string"))


def _has_section(cells: pd.Series) -> bool:
    """Whether any distinct cell reads as a pair number with its section letter (``A1``).

    The test ``str.extract`` makes of each cell's text, once per distinct cell.
    """
    found = _SECTION_PAIR_RE.search
    return any(text is not None and found(text) is not None
               for text in map(tx.as_str, tx.distinct(cells)[1]))


_SECTION_PAIR_RE = re.compile(_SECTION_PAIR)


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
    cells = {side: col(frame, side) for side in ("ns_pair", "ew_pair")}  # as typed
    pairs = {side: whole_floats(cells[side]) for side in ("ns_pair", "ew_pair")}
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
        unknown, warned = unidentified(cells[side], src, name, keep_unknown, sit_out)
        unknown_a = unknown.to_numpy(dtype=bool)
        bad &= ~unknown_a
        problems.append(warned)
        if bad.any():
            problems.append(flag(src[bad], "bad-pair", name, cells[side][bad]))
        missing = np.isnan(number) & ~bad & ~sit_out.to_numpy(dtype=bool) & ~unknown_a
        if missing.any():
            problems.append(flag(src[missing], "missing-pair", name))
        columns[side] = int_array(np.where(bad | unknown_a, np.nan, number))
    return columns
