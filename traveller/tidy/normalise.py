"""Raw tables -> canonical traveller rows plus a problems table.

Each table's notation is detected from its own content (or forced), then every
column is parsed vectorised. A row with a blocking problem is left out of the
scoring and listed; a warning (an unreadable lead, say) is listed and the row
is still scored. Every input row ends up in exactly one of the two outputs.
"""

from __future__ import annotations

import re
from dataclasses import dataclass, replace
from typing import Any

import numpy as np
import pandas as pd

from traveller.problems import combine, flag, with_boards
from traveller.read.frames import listed
from traveller.read.headers import LAYOUT_FIELDS
from traveller.read.raw import Loaded, RawTable
from traveller.schema import HEADER_ALIASES, NOTATIONS
from traveller.tidy import checks, individual, seating, twins
from traveller.tidy.arrays import arrays_of, frame_from
from traveller.tidy.cells import coded_array, coded_cells, col, score_in_result_column
from traveller.tidy.dates import recover_dates
from traveller.tidy.identity import parse_identity
from traveller.tidy.notation import clean, detect, detect_each
from traveller.tidy.play import parse_play
from traveller.tidy.text import distinct, spread_array

#: Recognised fields whose cells are also kept as written, beside the parsed value, in a
#: column ``<field>_as_written`` (``contract_as_written``); the sheets head it with the
#: field's readable name (publish.headers.heading: "Contract (as written)").
AS_WRITTEN = ("contract", "declarer", "tricks", "result", "lead", "score", "score_ew",
              *LAYOUT_FIELDS)


@dataclass
class Normalised:
    """Canonical rows ready to score, and every problem found on the way."""

    travellers: pd.DataFrame
    problems: pd.DataFrame
    movement: str = "mitchell"


def normalise(
    tables: Loaded | list[RawTable],
    notation: str | None = None,
    movement: str = "auto",
    unknown_pairs: str = "problem",
) -> Normalised:
    """Parse raw tables into canonical traveller rows and a problems table.

    ``notation`` forces one of :data:`traveller.schema.NOTATIONS` for every
    sheet; ``movement`` is "auto", "mitchell" or "howell"; ``unknown_pairs="field"``
    keeps results whose pair is ``???``, blank or 0 (see :mod:`traveller.tidy.unknown_pairs`).

    >>> from traveller.read.load import read
    >>> n = normalise(read("sample_data/board8_protocol.csv"))  # doctest: +SKIP
    """
    if notation is not None and notation not in NOTATIONS:
        raise ValueError(f"unknown notation {notation!r}; choose from {', '.join(NOTATIONS)}")
    raw = [_categorised(t) for t in (tables.tables if isinstance(tables, Loaded) else tables)]
    notations, cleaned = _notations(raw, notation)
    parts = [_table(t, n, unknown_pairs, c) for t, n, c in _merged(raw, notations, cleaned)]
    good = (parts[0][0].reset_index(drop=True) if len(parts) == 1
            else pd.concat([p[0] for p in parts], ignore_index=True) if parts else pd.DataFrame())
    problems = [p[1] for p in parts]
    good, session_problems, movement = checks.session_checks(good, movement)
    problems.append(_pair_columns_named(combine([session_problems,
                                                 seating.seating_problems(good)]), raw))
    return Normalised(good, combine(problems), movement)


def _pair_columns_named(problems: pd.DataFrame, raw: list[RawTable]) -> pd.DataFrame:
    """Session problems name the pair columns as each file's header does ("NS/EW", "Para NS")."""
    return named_as_the_file(problems, raw, ("pair", "pairs"), ("ns_pair", "ew_pair"))


def named_as_the_file(problems: pd.DataFrame, raw: list[RawTable] | Loaded,
                      columns: tuple[str, ...], fields: tuple[str, ...]) -> pd.DataFrame:
    """Problems a later stage names by our field (``columns``: "score", "pair") renamed as
    each file's header names ``fields`` ("NS Score"; "NS/EW" for the two pair columns),
    in the Column cell and in the message."""
    if problems.empty:
        return problems
    tables = raw.tables if isinstance(raw, Loaded) else raw
    problems = problems.copy()
    said = "|".join(re.escape(c) for c in columns)
    for file in problems["file"].unique():
        table = next((t for t in tables if t.file == file), None)
        if table is None:
            continue
        names = "/".join(table.original_columns.get(f) or f for f in fields)
        mine = (problems["file"] == file) & problems["column"].isin(list(columns))
        if names in columns or not mine.any():
            continue
        shown = names.replace("\\", "\\\\")
        problems.loc[mine, "message"] = problems.loc[mine, "message"].str.replace(
            rf"^(.*? row -?\d+), (?:{said})\b", rf"\1, {shown}", n=1, regex=True)
        problems.loc[mine, "column"] = names
    return problems


def _without_blocked(rows: pd.DataFrame, problems: list[pd.DataFrame]) -> pd.DataFrame:
    """The rows no blocking problem names (problem rows keep their row's index)."""
    blocked = [p.index[p["blocking"].astype(bool).to_numpy()] for p in problems if not p.empty]
    if not blocked:
        return rows
    return rows.loc[~rows.index.isin(np.concatenate(blocked))]


def _notations(raw: list[RawTable], forced: str | None
               ) -> tuple[list[str | list[str]], list[tuple[pd.Series, ...] | None]]:
    """Each table's notation, or the notations it could be read in when it is ambiguous.

    Detected per sheet from its own contracts, declarers and leads; a sheet too
    small to tell (a board sheet whose only contracts are 4C and 3C) takes the
    notation of its file when the file as a whole reads one way only. Also
    returns each table's cleaned contract and declarer cells (None when forced).
    """
    if forced:
        return [forced] * len(raw), [None] * len(raw)
    texts = [tuple(clean(col(t.frame, f)) for f in ("contract", "declarer", "lead"))
             for t in raw]
    found: list[str | list[str]] = [
        table.notation or name or choices
        for table, (name, choices) in zip(raw, detect_each(texts), strict=True)]  # type: ignore[arg-type]
    for file in {t.file for t, n in zip(raw, found, strict=True) if isinstance(n, list)}:
        mine = [i for i, t in enumerate(raw) if t.file == file]
        name, _ = detect(*(pd.concat([texts[i][k] for i in mine]) for k in range(3)))
        for i in mine:
            if name and isinstance(found[i], list):
                found[i] = name
    return found, [t[:2] for t in texts]


def _categorised(table: RawTable) -> RawTable:
    """The table with its recognised columns as categoricals of the cells as read.

    Every later step works per distinct value; hashing a million cells once
    here, instead of once per step, is most of the cost of normalising.
    """
    frame = table.frame
    if not frame.columns.is_unique:
        columns = {c: coded_array(frame[c]) if c in HEADER_ALIASES else frame[c]
                   for c in frame.columns}
        return replace(table, frame=pd.DataFrame(columns, index=frame.index))
    # (the other columns copied, as the frame's constructor copies them)
    arrays = {c: coded_cells(v) if c in HEADER_ALIASES else v.copy()
              for c, v in arrays_of(frame).items()}
    return replace(table, frame=frame_from(arrays, frame.index))


#: Columns that carry a merged table's per-row sheet name and title board.
_MERGED = ("_sheet", "_board")


def _merged(raw: list[RawTable], notations: list[str | list[str]],
            cleaned: list[tuple[pd.Series, ...] | None]
            ) -> list[tuple[RawTable, str | list[str], tuple[pd.Series, ...] | None]]:
    """Tables of one file laid out alike (one sheet per board, stacked boards) as one.

    Parsing cost is per call, not per row, so 27 board sheets parse as one
    table; each row keeps its own sheet name and title board. A table on its
    own keeps its ``cleaned`` cells; a merged one has them cleaned again.
    """
    groups: dict[tuple[object, ...], list[int]] = {}
    for i, (table, notation) in enumerate(zip(raw, notations, strict=True)):
        key = (table.file, tuple(table.frame.columns), tuple(table.original_columns.items()),
               str(notation), table.notation)
        groups.setdefault(key, []).append(i)
    merged = []
    for members in groups.values():
        first = raw[members[0]]
        if len(members) == 1:
            merged.append((first, notations[members[0]], cleaned[members[0]]))
            continue
        frame = pd.concat([raw[i].frame.assign(_sheet=raw[i].sheet, _board=raw[i].board)
                           for i in members], ignore_index=True)
        outside = [row for i in members for row in raw[i].outside]
        merged.append((replace(first, frame=frame, board=None, outside=outside),
                       notations[members[0]], None))
    return merged


def _table(table: RawTable, notation: str | list[str], unknown_pairs: str = "problem",
           cleaned: tuple[pd.Series, ...] | None = None) -> tuple[pd.DataFrame, pd.DataFrame]:
    frame = score_in_result_column(table.frame)
    players = individual.player_columns(frame) if individual.is_individual(frame) else {}
    frame = individual.with_partnerships(frame)
    header = {**{f: f for f in frame.columns}, **table.original_columns}
    if players:  # an individual: its partnerships are named by their player columns
        seat = {s: table.original_columns.get(s, s) for s in individual.PLAYERS}
        header["ns_pair"] = f"{seat['north']}/{seat['south']}"
        header["ew_pair"] = f"{seat['east']}/{seat['west']}"
    if "score" in frame and "score" not in table.original_columns:
        header["score"] = table.original_columns.get("result", "score")
    sheet = frame["_sheet"].astype(str) if "_sheet" in frame else table.sheet
    row = frame["row"]  # (already whole numbers: no copy)
    src = pd.DataFrame({"file": table.file, "sheet": sheet,
                        "row": row.to_numpy() if row.dtype == np.int64 else row.astype("int64")},
                       index=frame.index)
    read, date_problems = recover_dates(frame, header, src)
    date_problems.append(_outside(table))
    if cleaned is None or read is not frame:  # cells replaced: clean them again
        cleaned = clean(col(read, "contract")), clean(col(read, "declarer"))
    frame = read
    contract_text, declarer_text = cleaned[0], cleaned[1]
    if isinstance(notation, list):
        detail = ("could be " + " or ".join(NOTATIONS[c].description for c in notation)
                  + f"; --notation {'|'.join(notation)}")
        return _no_rows(table, frame, header, src), flag(
            src, "ambiguous-notation", header.get("contract", "contract"),
            col(frame, "contract"), detail)
    out = _kept(src, frame, notation) | players
    problems: list[pd.DataFrame] = date_problems
    if table.twin_columns:  # (read, the second columns say nothing more: none is unknown)
        twins.check_twin_columns(frame, table.twin_columns, header, src, notation, problems)
        frame = frame.drop(columns=list(table.twin_columns))
    out = parse_identity(out, frame, table, header, src, problems, unknown_pairs == "field")
    out = parse_play(out, frame, notation, header, src, contract_text, declarer_text, problems)
    parsed = _frame(out, src.index)  # (every row, each problem's board read from its own)
    return _without_blocked(parsed, problems), with_boards(combine(problems), parsed)


def _no_rows(table: RawTable, frame: pd.DataFrame, header: dict[str, str],
             src: pd.DataFrame) -> pd.DataFrame:
    """No rows, but every column a parsed table has (so later stages need no special case)."""
    empty, none = frame.iloc[:0], src.iloc[:0]
    out = parse_identity(_kept(none, empty, "en"), empty, table, header, none, [])
    nothing = clean(col(empty, "contract"))
    return _frame(parse_play(out, empty, "en", header, none, nothing, nothing, []), none.index)


def _frame(columns: dict[str, Any], index: pd.Index) -> pd.DataFrame:
    """One frame of the parsed columns, built once.

    A Series on ``index`` goes in as (a copy of) its array: nothing to align, and
    an object column of the input stays object; a single value fills its column.
    Anything else (a Series to align) goes through the frame's constructor.
    """
    arrays = {name: _column(v, index) for name, v in columns.items()}
    if all(a is not None for a in arrays.values()):
        return frame_from(arrays, index)
    return pd.DataFrame({name: v.array if isinstance(v, pd.Series) and v.dtype != object
                         and v.index.equals(index) else v for name, v in columns.items()},
                        index=index)


def _column(values: Any, index: pd.Index) -> Any:
    """A column's copied array as the frame's constructor makes it; None when it must align."""
    if isinstance(values, pd.Series):
        if not values.index.equals(index):
            return None
        return (values.to_numpy(copy=True) if values.dtype == object
                else values.array.copy())
    if isinstance(values, pd.api.extensions.ExtensionArray):
        return values.copy()
    if isinstance(values, np.ndarray):  # (object: the constructor would read text as strings)
        return None if values.dtype == object else values.copy()
    return pd.Series(values, index=index).array  # one value, typed as the constructor does


def _outside(table: RawTable) -> pd.DataFrame:
    """``outside-table`` problems for result-like rows above the table's header."""
    if not table.outside:
        return combine([])
    rows = pd.DataFrame({"file": table.file, "sheet": [s for s, _ in table.outside],
                         "row": [r for _, r in table.outside]}, dtype=object)
    return flag(rows, "outside-table", "", blocking=False)


def written_text(values: Any) -> Any:
    """A column's cells as text as the sheet showed them: a workbook's number cell
    ``10`` (read as the float 10.0) is ``"10"``, never ``"10.0"``; other cells as text.

    Each distinct cell is converted once (a traveller has few).
    """
    if isinstance(getattr(values, "dtype", None), pd.StringDtype):
        return values
    if isinstance(values, pd.Categorical):  # (a categorised column: coded already)
        codes, cells = values.codes, listed(values.categories)
    else:
        codes, cells = distinct(pd.Series(values, copy=False))
    shown = [_cell_text(v) for v in cells]
    return spread_array(np.asarray(codes), shown, "string")


_FLOATS = (float, np.floating)  # (a tuple: a union is built again at every call)


def _cell_text(value: Any) -> str | None:
    """One cell as the sheet showed it (a whole number without ``.0``)."""
    if isinstance(value, _FLOATS):
        number = float(value)
        if number != number:
            return None
        return str(int(number)) if number.is_integer() else repr(number)
    return None if value is None else str(value)


def _kept(src: pd.DataFrame, frame: pd.DataFrame, notation: str) -> dict[str, Any]:
    """Source columns, the notation, cells as written, and the input's other columns.

    As a dict of columns (the frame is built once, when every column is parsed).
    """
    columns: dict[str, Any] = {c: src[c] for c in src.columns}
    columns["notation"] = notation
    for f in AS_WRITTEN:
        if f in frame:
            columns[f"{f}_as_written"] = written_text(frame[f].array)
    # (the player columns are kept as written: an individual's replace them as numbers,
    # and a teams or pairs file's are its players' names)
    known = {*HEADER_ALIASES, *LAYOUT_FIELDS, "row", *_MERGED} - set(individual.PLAYERS)
    columns.update((c, frame[c]) for c in frame.columns if c not in known)
    return columns
