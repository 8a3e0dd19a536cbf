"""What the Travellers sheet shows, in fewer cells: a heading per board, no repeated columns.

- a heading row above each board: the board, its dealer and vulnerability, how
  many results and the top;
- the cells *as written* only where they differ from the normalised value
  (``2NT`` read as ``2NT`` is left blank; ``3nt``, ``D10`` or ``=`` are kept), a Vul
  or Dealer cell only where it differs from the board's heading;
- the per-board figures (results, top, common top) in that heading instead of
  on every row; the Neuberg-scaled matchpoints only when they differ somewhere;
- the source file, sheet and notation, when the same on every row, moved to
  the Summary sheet.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import TYPE_CHECKING, Any

import numpy as np
import pandas as pd
import pyarrow as pa
import pyarrow.compute as pc

from traveller.publish.headers import HEADERS
from traveller.publish.keys import Lookups, arrow_of, change_starts, floats, numbered
from traveller.publish.sheet import blank
from traveller.publish.shown import vulnerability_words
from traveller.schema import PBN_VULNERABLE_WORDS, played_vulnerability
from traveller.score.table import DEALERS
from traveller.tidy.arrays import rows_of
from traveller.tidy.conditions import dealer_codes, vulnerability_codes
from traveller.words import plural

if TYPE_CHECKING:
    from traveller.result import Result

#: Travellers columns printed (the rest stay on screen, beyond the print area).
PRINTED = ("section", "board", "ns_pair", "ew_pair", "contract", "declarer", "tricks", "lead",
           "ns_score", "ns_mp", "ew_mp", "ns_mp_scaled", "ew_mp_scaled", "ns_pct", "ew_pct",
           "ns_imp", "ew_imp", "datum",
           "target", "ruling", "ruling_applied")
#: An individual's Travellers print the four players where a pairs session prints the pairs
#: (its partnership numbers are internal and not written).
PRINTED_INDIVIDUAL = tuple(c for p in PRINTED for c in (
    ("north", "south", "east", "west") if p == "ns_pair" else () if p == "ew_pair" else (p,)))
#: Printed too: the field-wide figures a simultaneous pairs adds beside a club's own
#: (traveller.sim: national_ns_mp, headed "National N-S MP", ...).
PRINTED_PREFIX = "national_"

#: Normalised columns an as-written column can repeat.
_PARTNERS = ("contract", "declarer", "tricks", "lead", "ns_score", "ruling")
#: Per-board figures shown in the board's heading.
_PER_BOARD = ("results", "top", "common_top")
#: Columns moved to the Summary when they hold one value throughout.
_CONSTANT = ("file", "sheet", "notation")
AS_WRITTEN = "_as_written"  # contract_as_written, ... (tidy.normalise)
_VUL, _DEALER = f"vul{AS_WRITTEN}", f"dealer{AS_WRITTEN}"



def travellers_layout(result: Result, summary: bool = True,
                      facts: list[tuple[str, str]] | None = None, columns: Lookups | None = None
                      ) -> tuple[dict[str, pd.Series], int, dict[int, str], list[tuple[str, str]]]:
    """The Travellers columns to write (in order), the print-area width, board headings and
    the moved facts (the columns are a dict: a frame of them would be built for nothing).

    The facts are (item, value) pairs for the Summary sheet (only when
    ``summary``: there is one to move them to); ``facts``: the travellers'
    :func:`constant_facts` when listed already (the same columns move); ``columns``: the
    travellers' columns looked up already (used when they are theirs).
    """
    frame = numbered(result.travellers)
    # each column once: a frame lookup costs more than its use
    series = columns.items() if columns is not None and columns.frame is frame \
        else dict(frame.items())
    names = [c for c, s in series.items() if not blank(s)]
    if facts is None or not summary:
        facts = constant_facts(series, names) if summary else []
    moved = {f.split(": ", 1)[1] for f, _ in facts}
    names = [c for c in names if c not in moved]
    series, names = _input_twins(series, names)
    kept, dropped = _as_written(series, names, result.settings)
    for scaled, plain in (("ns_mp_scaled", "ns_mp"), ("ew_mp_scaled", "ew_mp")):
        if scaled in names and plain in names and _same(series[scaled], series[plain]):
            dropped.add(scaled)
    names = [c for c in names if c not in dropped]
    headings = board_headings(series, result, names)
    names = [c for c in names if c not in _PER_BOARD]
    order: tuple[str, ...] = PRINTED
    if result.settings.get("individual"):
        names = [c for c in names if c not in ("ns_pair", "ew_pair")]
        order = PRINTED_INDIVIDUAL
    printed = [c for c in order if c in names] + [
        c for c in names if str(c).startswith(PRINTED_PREFIX)]
    out = {c: kept.get(c, series[c]) for c in printed + [c for c in names if c not in printed]}
    return out, len(printed), headings, facts


def _input_twins(series: dict[str, pd.Series], names: list[str]
                 ) -> tuple[dict[str, pd.Series], list[str]]:
    """The input's columns headed as one of ours (its ``Ruling`` beside our Ruling) renamed
    ``Ruling (as written)``: shown only where they say something else, never two columns
    with one heading."""
    ours = {HEADERS[c].casefold(): c for c in names if c in HEADERS}
    twins = {c: f"{c}{AS_WRITTEN}" for c in names
             if c not in HEADERS and str(c).casefold() in ours
             and f"{c}{AS_WRITTEN}" not in series}
    if not twins:
        return series, names
    renamed = {twins.get(c, c): v for c, v in series.items()}
    return renamed, [twins.get(c, c) for c in names]


def constant_facts(frame: pd.DataFrame | Mapping[str, pd.Series],
                   names: list[str] | None = None) -> list[tuple[str, str]]:
    """(item, value) for the source columns (of ``names``) that hold one value on every row.

    ``frame``: the travellers, or their columns by name.
    """
    names = list(frame) if names is None else names  # a frame's columns, or a dict's keys
    facts = []
    for name in _CONSTANT:
        if name in names:
            column = frame[name]
            if len(column) and column.nunique(dropna=False) == 1:
                facts.append((f"travellers: {name}", str(column.iloc[0])))
    return facts


def _same(a: pd.Series, b: pd.Series) -> bool:
    return bool(np.array_equal(floats(a), floats(b), equal_nan=True))


class _Cells:
    """The travellers' columns as stripped text, numbers read from it, and values, once each."""

    def __init__(self, series: dict[str, pd.Series]) -> None:
        self.series = series
        self._stripped: dict[str, pa.Array | pd.Series] = {}
        self._text: dict[str, tuple[np.ndarray, np.ndarray]] = {}
        self._number: dict[str, np.ndarray] = {}
        self._values: dict[str, np.ndarray] = {}

    def stripped(self, name: str) -> pa.Array | pd.Series:
        """The column as stripped text: an Arrow array when it is held as one (no Series)."""
        if name not in self._stripped:
            text = _as_text(self.series[name])
            if isinstance(text.array, pd.arrays.ArrowStringArray):  # as the travellers hold it
                # as .str.strip() does
                self._stripped[name] = pc.utf8_trim_whitespace(arrow_of(text.array))
            else:
                self._stripped[name] = text.str.strip()
        return self._stripped[name]

    def text(self, name: str) -> tuple[np.ndarray, np.ndarray]:
        """Each cell as stripped text (an object array) and where it is missing."""
        if name not in self._text:
            text = self.stripped(name)
            if isinstance(text, pa.Array):
                self._text[name] = (text.to_numpy(zero_copy_only=False),  # None where missing
                                    text.is_null().to_numpy(zero_copy_only=False))
            else:
                self._text[name] = (text.to_numpy(dtype=object, na_value=None),
                                    np.asarray(text.array.isna(), dtype=bool))
        return self._text[name]

    def number(self, name: str) -> np.ndarray:
        """Each cell's stripped text read as a number (NaN where it is not one)."""
        if name not in self._number:  # each distinct text read once (few on a traveller)
            text = self.stripped(name)
            if isinstance(text, pa.Array):
                encoded = pc.dictionary_encode(text)
                codes = encoded.indices.fill_null(-1).to_numpy(zero_copy_only=False)
                uniques = encoded.dictionary.to_numpy(zero_copy_only=False)
            else:
                codes, distinct = pd.factorize(text.array)
                uniques = distinct.to_numpy(dtype=object)
            read = np.asarray(pd.to_numeric(uniques, errors="coerce"),
                              dtype=float)  # parsed as plain objects: no masked array built
            self._number[name] = np.append(read, np.nan)[codes]  # missing (-1): NaN
        return self._number[name]

    def values(self, name: str) -> np.ndarray:
        """A numeric column's values as floats (NaN where missing)."""
        if name not in self._values:
            self._values[name] = floats(self.series[name])
        return self._values[name]

    def equal(self, written: str, value: str) -> np.ndarray:
        """Where the cell as written reads exactly as the normalised value (text or number)."""
        if pd.api.types.is_numeric_dtype(self.series[value].dtype):
            target = self.values(value)
            return (self.number(written) == target) & ~np.isnan(target)
        x, y = self.stripped(written), self.stripped(value)
        if isinstance(x, pa.Array) and isinstance(y, pa.Array) and x.type == y.type:
            return pc.equal(x, y).fill_null(False).to_numpy(zero_copy_only=False)  # missing: no
        (a, a_missing), (b, b_missing) = self.text(written), self.text(value)
        return np.asarray(a == b, dtype=bool) & ~a_missing & ~b_missing

    def missing(self, name: str) -> np.ndarray:
        """Where the cell is missing or blank."""
        text = self.stripped(name)
        if isinstance(text, pa.Array):
            empty = pc.equal(pc.utf8_length(text), 0).fill_null(True)
            return empty.to_numpy(zero_copy_only=False)
        values, missing = self.text(name)
        return missing | (values == "")


def _as_written(series: dict[str, pd.Series], names: list[str],
                settings: dict[str, Any] | None = None
                ) -> tuple[dict[str, pd.Series], set[str]]:
    """Each as-written column of ``names`` blanked where it equals its normalised value;
    a Vul or Dealer column where it states the board's (``settings``: the session's, for
    the vulnerability its boards were played at).

    The columns kept (with their blanked cells) and those left empty (dropped).
    """
    cells = _Cells(series)
    kept, dropped = {}, set()
    partners = [c for c in _PARTNERS if c in names]
    rows = rows_of(series) if series else 0
    for name in [c for c in names if str(c).endswith(AS_WRITTEN)]:
        best, same = 0, _stated_conditions(series, name, settings or {})
        for candidate in partners if same is None else ():
            equal = cells.equal(name, candidate)
            hits = int(equal.sum())
            if hits > best:
                best, same = hits, equal
            if best == rows:  # equal on every row: no later candidate can have more
                break
        if same is None:
            continue
        if (cells.missing(name) | same).all():
            dropped.add(name)
        else:
            kept[name] = _as_text(series[name]).mask(same)
    return kept, dropped


def _stated_conditions(series: dict[str, pd.Series], name: str,
                       settings: dict[str, Any]) -> np.ndarray | None:
    """Where a Vul (Dealer) column as written states the vulnerability the board is
    published at (its dealer), however spelled ("Both" for All, "-" for None); None for
    any other column, or without board numbers (a Chicago's vulnerability is the deal's)."""
    if name not in (_VUL, _DEALER) or "board" not in series or (
            name == _VUL and settings.get("chicago")):
        return None
    board = series["board"].to_numpy(dtype=float, na_value=np.nan)
    known = ~np.isnan(board)
    number = np.where(known, board, 1).astype(np.int64)
    if name == _DEALER:
        stated, board_code = dealer_codes(series[name]), (number - 1) % 4
    else:
        sessions: Any = [None]
        at = np.zeros(len(number), dtype=np.int64)
        if "session" in series:  # (an event: each session's boards played as it says)
            at, sessions = pd.factorize(series["session"].to_numpy(dtype=object))
        width = len(sessions) + 1  # (board, session) as one number: a board's session apart
        keys, inverse = np.unique(number * width + at + 1, return_inverse=True)
        board_code = np.array([PBN_VULNERABLE_WORDS.index(played_vulnerability(
            settings, int(k // width), sessions[k % width - 1] if k % width else None))
            for k in keys.tolist()], dtype=np.int64)[inverse.reshape(-1)]
        stated = vulnerability_codes(series[name])
    return known & (stated >= 0) & (stated == board_code)


def _as_text(series: pd.Series) -> pd.Series:
    """``series`` as the "string" dtype (itself when it already is)."""
    string = pd.StringDtype()  # as "string" reads now (its storage is an option)
    return series if series.dtype == string else series.astype(string)


def board_headings(columns: Mapping[str, pd.Series], result: Result,
                   names: list[str] | None = None) -> dict[int, str]:
    """A heading per board (section and session too): dealer, vulnerability, results, top.

    ``columns``: the travellers' columns by name; only those of ``names`` (default: all)
    are read.
    """
    names = list(columns) if names is None else names
    if "board" not in names:
        return {}
    starts = group_starts(columns, [c for c in ("session", "section", "board") if c in names])
    if not starts:  # no rows
        return {}
    chicago = bool(result.settings.get("chicago"))
    at = np.asarray(starts, dtype=np.intp)  # each board's first row, taken before converting
    cells = {c: columns[c].array[at].to_numpy(dtype=object, na_value=None).tolist()
             for c in ("session", "section", "board", "results", "top", "common_top")
             if c in names}
    return {start: _heading({c: v[i] for c, v in cells.items()}, chicago, result.settings)
            for i, start in enumerate(starts)}


def group_starts(columns: pd.DataFrame | Mapping[str, pd.Series], keys: list[str]) -> list[int]:
    """Positions where the value of ``keys`` changes (the first row included).

    ``columns``: a frame, or its columns by name.
    """
    if not (len(columns) if isinstance(columns, pd.DataFrame) else rows_of(columns)):
        return []
    return change_starts(*(columns[k] for k in keys)) if keys else [0]


def _heading(row: dict[str, object], chicago: bool, settings: dict[str, Any]) -> str:
    parts = []
    for key, word in (("session", "Session"), ("section", "Section")):
        if row.get(key) not in (None, ""):
            parts.append(f"{word} {row[key]}")
    board = row.get("board")
    if board is None:
        return " · ".join([*parts, "Board ?"])
    number = int(board)  # type: ignore[call-overload]
    parts.append(f"Board {number}")
    parts.append(f"Dealer {DEALERS[(number - 1) % 4]}")
    if not chicago:  # (the Vul column's where every result of the board was played at it)
        played = played_vulnerability(settings, number, row.get("session"))
        parts.append("Vul: " + vulnerability_words(played))
    results, top, common = row.get("results"), row.get("top"), row.get("common_top")
    if results is not None:
        parts.append(plural(int(results), "result"))  # type: ignore[call-overload]
    if top is not None:
        parts.append(f"top {float(top):g}")  # type: ignore[arg-type]
        if common is not None and float(common) != float(top):  # type: ignore[arg-type]
            parts.append(f"common top {float(common):g}")  # type: ignore[arg-type]
    return " · ".join(parts)
