"""Directors' rulings written in the traveller itself (docs/rulings.md).

A ruling is written in the contract cell, in a score cell, or in a column
headed "Ruling": :func:`markers` finds it and reads it with
:mod:`traveller.tidy.ruling_text` (the notations); phantom lines are resolved
by :mod:`traveller.tidy.phantoms`. Fouled boards and arrow switches are
markers in their own columns (``Fouled``/``Group`` and ``Arrow``), read here
too; :func:`parts` and :func:`describe` say what each ruling is scored on and
how it was applied.
"""

from __future__ import annotations

import re
from collections.abc import Iterable
from typing import Any

import numpy as np
import pandas as pd

from traveller.read.headers import header_key
from traveller.tidy import text as tx
from traveller.tidy.arrays import missing
from traveller.tidy.notation import cell_text, clean, cleaned_texts
from traveller.tidy.phantoms import resolve_phantoms
from traveller.tidy.ruling_text import (
    AVERAGE,
    AVERAGE_MINUS,
    AVERAGE_PLUS,
    COMPARED,
    KINDS,
    MAX_PARTS,
    TABLES,
    Ruling,
    kinds,
    read_ruling,
    read_rulings,
    ruling_arrays,
)

__all__ = ["AVERAGE", "AVERAGE_MINUS", "AVERAGE_PLUS", "COMPARED", "KINDS", "MAX_PARTS",
           "TABLES", "Ruling", "describe", "is_phantom_line", "kinds", "marker_arrays", "markers",
           "parts",
           "read_ruling", "read_rulings", "resolve_phantoms", "ruling_cells", "switch_arrows"]

#: Header keys (see :func:`traveller.read.headers.header_key`) of the marker columns.
RULING_HEADERS = {"ruling", "rulings", "adjusted", "adjustment", "adjustedscore", "award",
                  "td", "director"}
FOULED_HEADERS = {"fouled", "foul", "fouledgroup", "group", "dealgroup"}
ARROW_HEADERS = {"arrow", "arrowswitch", "arrowswitched", "switched", "switch"}
_FALSE = {"", "0", "N", "NO", "FALSE", "F", "-", "NIE", "НЕТ"}


def _marker_column(frame: pd.DataFrame, keys: set[str]) -> pd.Series | None:
    for column in frame.columns:
        if header_key(column) in keys:
            return frame[column]
    return None


_PLAIN = re.compile(r"[+-]?\d+")


def _ruling_texts(values: pd.Series, column: str) -> tuple[np.ndarray, list[str | None]]:
    """(codes, the distinct cells' text where it is a ruling) of one column."""
    codes, uniques = tx.distinct(values)
    text = [tx.cell_text(u) for u in uniques]
    if column in ("score", "score_ew"):  # a plain number is a score, not a ruling
        text = [None if t is None or _PLAIN.fullmatch(t.replace("−", "-")) else t for t in text]
    elif column == "contract":
        read = [read_ruling(t or "") for t in cleaned_texts(text)]
        text = [t if r.kind is not None or r.error else None
                for t, r in zip(text, read, strict=True)]
    elif column in ("result", "tricks"):  # only what reads as a ruling (BBO's A+=)
        read = [read_ruling(t or "") for t in cleaned_texts(text)]
        text = [t if r.kind is not None and not r.error else None
                for t, r in zip(text, read, strict=True)]
    return codes, text


def ruling_cells(frame: pd.DataFrame) -> tuple[pd.Series, pd.Series]:
    """The cell each row's ruling is written in, as written, and that cell's column.

    Looked for in a Ruling column, then the contract, then the result or
    tricks cell (only a cell that reads as a ruling, such as BBO's ``A+=``
    with an empty score), then the score cells (a score cell counts only
    when it is not a plain number). Works on the distinct cells of each column.
    """
    found, source, _ = _ruling_cells(frame)
    return _strings(found, frame.index), _strings(source, frame.index)


def _ruling_cells(frame: pd.DataFrame
                  ) -> tuple[np.ndarray, np.ndarray, dict[int, tuple[str, str]]]:
    """:func:`ruling_cells` as arrays, and each row's second ruling cell that reads
    otherwise than its first (position -> (text as written, column))."""
    found = np.full(len(frame), None, dtype=object)
    source = np.full(len(frame), None, dtype=object)
    other: dict[int, tuple[str, str]] = {}
    candidates = [c for c in frame.columns if header_key(c) in RULING_HEADERS][:1]
    candidates += [c for c in ("contract", "result", "tricks", "score", "score_ew") if c in frame]
    for column in candidates:
        codes, text = _ruling_texts(frame[column], str(column))
        if all(t is None for t in text):  # the usual column: no ruling in it
            continue
        values = tx.spread(codes, text)
        given = pd.notna(values)
        new = pd.isna(found) & given
        for at in np.flatnonzero(given & ~new):  # (the few rows a ruling is written twice in)
            if int(at) not in other and _reads_otherwise(found[at], values[at]):
                other[int(at)] = (str(values[at]), str(column))
        found[new] = values[new]
        source[new] = str(column)
    return found, source, other


def _reads_otherwise(first: object, second: object) -> bool:
    """True when two ruling cells of a row say different things (``A60/40`` and
    ``A40/60``), not the same one written twice (``A+`` and ``AVE+``); a second cell
    that reads as no ruling (BBO's ``N/A`` score beside its ``A+=``) says nothing else."""
    one, two = (read_ruling(t or "") for t in cleaned_texts([first, second]))
    return one.kind is not None and two.kind is not None and one != two


def _strings(values: np.ndarray, index: pd.Index) -> pd.Series:
    """Text cells (None: missing) as a Series of strings; an all-missing one costs nothing."""
    if pd.isna(values).all():
        return pd.Series(missing("string", len(values)), index=index)
    return pd.Series(pd.array(values, dtype="string"), index=index)


def markers(frame: pd.DataFrame) -> pd.DataFrame:
    """Rulings plus the fouled-board group and arrow-switch marker of every raw row.

    Columns: ``ruling`` (as written), ``ruling_kind``, ``ns_award``,
    ``ew_award``, ``ruling_error``, ``ruling_column`` (where it was written),
    and ``fouled`` / ``arrow`` when the sheet has such a column.
    """
    return pd.DataFrame(marker_arrays(frame), index=frame.index)


def marker_arrays(frame: pd.DataFrame) -> dict[str, Any]:
    """The columns of :func:`markers` as arrays, by name (no frame built)."""
    found, where, other = _ruling_cells(frame)
    written, source = _strings(found, frame.index), _strings(where, frame.index)
    columns = {"ruling": written.array, **ruling_arrays(written), "ruling_column": source.array}
    if other:  # a row whose two ruling cells disagree: neither is applied
        _refuse_twins(columns, other)
    fouled = _marker_column(frame, FOULED_HEADERS)
    if fouled is not None:
        columns["fouled"] = cell_text(fouled).fillna("").astype("string").array
    arrow = _marker_column(frame, ARROW_HEADERS)
    if arrow is not None:
        columns["arrow"] = (~clean(arrow.astype("string")).fillna("").isin(_FALSE)).array
    return columns


def _refuse_twins(columns: dict[str, Any], other: dict[int, tuple[str, str]]) -> None:
    """Each row of ``other`` refused (``ruling_error``): its ruling is written in two cells
    that read differently, and which one the director meant the sheet does not say."""
    errors = pd.array(columns["ruling_error"], dtype="string").copy()
    kind = pd.array(columns["ruling_kind"], dtype="string").copy()
    for at, (text, column) in other.items():
        first = columns["ruling"][at]
        errors[at] = (f"the {columns['ruling_column'][at]} cell says {first} and the {column} "
                      f"cell {text}, which read differently, so neither is applied; write "
                      "the ruling once, or the same in both")
        kind[at] = pd.NA
    columns["ruling_error"], columns["ruling_kind"] = errors, kind
    for award in ("ns_award", "ew_award"):  # (nothing awarded on a refused row)
        values = pd.array(columns[award], dtype="Float64").copy()
        values[list(other)] = pd.NA
        columns[award] = values


def is_phantom_line(frame: pd.DataFrame) -> pd.Series:
    """True on rows whose ruling is a phantom / sit-out line (TD, Bye, ...)."""
    if frame.empty:
        return pd.Series(False, index=frame.index, dtype="boolean")
    return (read_rulings(ruling_cells(frame)[0])["ruling_kind"] == "phantom").fillna(False)



def switch_arrows(frame: pd.DataFrame, boards: Iterable[int] = ()) -> pd.DataFrame:
    """Mark the rows of ``boards`` as arrow-switched (besides an Arrow column already read)."""
    boards = list(boards)
    if not boards:
        return frame
    out = frame.copy()
    before = (out["arrow"].astype("boolean").fillna(False) if "arrow" in out
              else pd.Series(False, index=out.index))
    out["arrow"] = before | out["board"].isin(boards).fillna(False)
    return out




# --------------------------------------------------------------------------
# What is compared: one entry per (row, side, part)


def parts(frame: pd.DataFrame, compared: np.ndarray) -> dict[str, tuple[np.ndarray, ...]]:
    """The scores each compared row is matchpointed on, per side.

    Returns ``{"NS": (position, weight, score), "EW": (...)}``: a played result
    is one part of weight 1 on both sides; a weighted score its parts (weight
    as a fraction) on both sides; a split score its N-S score on the N-S side
    and its E-W score on the E-W side. Scores are from N-S's view.
    """
    kind = kinds(frame)
    plain = np.flatnonzero(compared & (kind == "result"))
    scores = frame["ns_score"].to_numpy(dtype=float, na_value=0)
    out = {side: ([plain], [np.ones(len(plain))], [scores[plain]]) for side in ("NS", "EW")}
    ruled = np.flatnonzero(compared & (kind != "result"))
    texts = (clean(frame["ruling"].astype("string")).to_numpy() if len(ruled)
             else np.array([], dtype=object))
    for position in ruled:  # the few weighted and split rulings of a session
        ruling = read_ruling(str(texts[position]))
        if ruling.kind == "split":
            sided = {"NS": [ruling.parts[0]], "EW": [ruling.parts[1]]}
        else:
            sided = {"NS": list(ruling.parts), "EW": list(ruling.parts)}
        for side, entries in sided.items():
            out[side][0].append(np.full(len(entries), position))
            out[side][1].append(np.array([w / 100 for w, _ in entries]))
            out[side][2].append(np.array([float(s) for _, s in entries]))
    return {side: tuple(np.concatenate(v) for v in lists) for side, lists in out.items()}


def describe(frame: pd.DataFrame) -> pd.Series:
    """How each ruling was applied, in words (for the Travellers sheet); <NA> for results."""
    text = pd.Series(pd.NA, index=frame.index, dtype="string")
    has_ruling = frame["ruling_kind"].notna().to_numpy(dtype=bool)
    if not has_ruling.any():  # the usual session: no subset of the frame to build
        return text
    ruled = frame[has_ruling]  # the few rows with a ruling
    kind = ruled["ruling_kind"].astype("string")
    ns = ruled["ns_pct"].astype("Float64").round(2).astype("string")
    ew = ruled["ew_pct"].astype("Float64").round(2).astype("string")
    awarded = "N-S " + ns + " %, E-W " + ew + " %"
    phantom = (ruled["phantom"].astype("string").fillna("") if "phantom" in ruled
               else pd.Series("", index=ruled.index, dtype="string"))
    scored = ruled["ns_pct"].notna()
    words = pd.Series(pd.NA, index=ruled.index, dtype="string")
    words = words.mask(kind == "average", "artificial: " + awarded)
    words = words.mask(kind == "weighted", "weighted score: " + awarded)
    words = words.mask(kind == "split", "split score: " + awarded)
    words = words.mask(kind == "not-played", "not played: left out, the pairs' totals factored")
    table = "phantom (" + phantom + ") table: "
    words = words.mask((kind == "phantom") & scored, table + awarded)
    words = words.mask((kind == "phantom") & ~scored,
                       table + "not played, the pair's total factored")
    text.loc[ruled.index] = words
    return text

