"""A sheet's cells -> result tables: the header row, titles, notes and stray rows.

Nothing here interprets bridge notation: the header row (which need not be the
first row) is found, the headers it knows are mapped to canonical field names,
every other column is kept, and each row keeps the row number the user sees.
"""

from __future__ import annotations

import re
from typing import Any

import numpy as np
import pandas as pd

from traveller.read.cellcodes import SMALL, Cells
from traveller.read.frames import arrays_of, frame_from
from traveller.read.headers import SPLIT_SCORES, board_in_title, field_for, filled
from traveller.read.raw import RawTable
from traveller.read.text import rectangular


def _header_fields(cells: list[Any]) -> dict[int, str]:
    """Column index -> field for a candidate header row (first column wins a field)."""
    found: dict[int, str] = {}
    for i, cell in enumerate(cells):
        name = field_for(cell) if isinstance(cell, str) else None
        if name and name not in found.values():
            found[i] = name
    return found


def _is_header(fields: dict[int, str], board_known: bool) -> bool:
    names = set(fields.values())
    has_result = bool(names & {"contract", "score", *SPLIT_SCORES}) or names >= SPLIT_CONTRACT
    has_board = "board" in names or board_known
    players = {"north", "south", "east", "west"} <= names  # an individual's four players
    return has_result and has_board and ("ns_pair" in names or players) and len(names) >= 3


#: Fields a second column of the same header states again, checked against the first
#: (two N-S pair or score columns headed alike are more likely the two sides').
TWIN_FIELDS = frozenset({"board", "contract", "declarer", "tricks", "result", "lead",
                         "section"})


def _columns(header: list[Any], fields: dict[int, str]
             ) -> tuple[list[str], dict[str, str], dict[str, str]]:
    """Column names for a table: canonical field names, else the header as written
    ("Contract (2)" for a second column headed as the first Contract column is); the
    headers as written of the fields; each second column of a field (a twin), by its
    name, with the field it states again."""
    names: list[str] = []
    seen: set[str] = set()
    original: dict[str, str] = {}
    twins: dict[str, str] = {}
    for i, cell in enumerate(header):
        text = str(cell).strip() if filled(cell) else ""
        again = None if i in fields or not text else field_for(text)
        again = again if again in TWIN_FIELDS else None
        name = fields.get(i) or text or f"column {i + 1}"
        base, n = name, 2
        if again is not None and text.casefold() == original.get(again, "").casefold():
            name = f"{base} ({n})"  # (the sheets would head the two alike)
        while name in seen:
            name, n = f"{base} ({n})", n + 1
        names.append(name)
        seen.add(name)
        if i in fields:
            original[fields[i]] = text
        elif again is not None:
            twins[name] = again
    return names, original, twins


class _Rows:
    """A grid's rows as lists, as ``grid.iloc[r].tolist()`` gives them.

    A row of a frame of columns costs some 100 us (a Series built across them);
    a grid of one kind of column (text, or objects) is turned into one block of
    objects once (the cell codes' own, when they made one) and its rows read from it.
    """

    def __init__(self, grid: pd.DataFrame, values: np.ndarray | None) -> None:
        kinds = {str(d) if d == np.dtype(object) or isinstance(d, pd.StringDtype) else None
                 for d in grid.dtypes.tolist()}
        self.grid, self.values = grid, values
        # (a big grid's few rows are read one by one: no block of all its cells for them)
        self.block = len(kinds) == 1 and None not in kinds and (
            values is not None or grid.size <= SMALL)
        if values is not None and values.shape != grid.shape:
            self.values = None

    def __call__(self, r: int) -> list[Any]:
        if not self.block:
            return self.grid.iloc[r].tolist()  # type: ignore[no-any-return]
        if self.values is None:
            self.values = self.grid.to_numpy(dtype=object)
        return self.values[r].tolist()  # type: ignore[no-any-return]


def _title_above(row: _Rows, header: int, floor: int) -> tuple[int | None, int]:
    """Board number in a title row just above a header, and where that title starts."""
    for r in range(header - 1, max(floor, header - 6) - 1, -1):
        cells = [c for c in row(r) if filled(c)]
        if not cells:
            continue
        if len(cells) > 6 or not all(isinstance(c, str) for c in cells):
            break
        found = next((b for c in cells if (b := board_in_title(c)) is not None), None)
        if found is not None:
            return found, r
    return None, header


#: Beyond this many columns a grid is held as one block (column-wise storage costs per column).
WIDE = 256


def _without_empty_columns(grid: pd.DataFrame, cells: Cells) -> pd.DataFrame:
    """The grid without columns that hold nothing: the cost of a sheet follows its data.

    A stray cell far to the right (or a CSV with 50,000 empty fields per line)
    would otherwise make every later step work through thousands of blank
    columns. Column positions carry no meaning after this point.
    """
    if grid.size == 0:
        return grid
    keep = cells.used()
    if keep.all():
        return grid
    cells.keep(keep)
    out = grid.loc[:, keep]
    out.columns = pd.RangeIndex(out.shape[1])
    return out


def frame_grid(frame: pd.DataFrame) -> list[list[Any]]:
    """A DataFrame as a sheet's cells: its column names as the first row, missing as None."""
    return [[str(c) for c in frame.columns],
            *frame.astype(object).where(frame.notna(), None).to_numpy().tolist()]


def tables_from_grid(
    grid: pd.DataFrame | list[list[Any]], file: str, sheet: str, first_row: int = 1
) -> list[RawTable]:
    """Split a sheet's cells into result tables under their header rows.

    A sheet may hold one long table, or several board tables stacked under
    their own title rows ("Board 7"); a title above a header gives that
    table's board number, as may the sheet name ("Rozdanie 7"). Blank rows are
    skipped; every other row below a header belongs to its table.
    """
    if not isinstance(grid, pd.DataFrame):
        grid = rectangular(grid)
    elif grid.shape[1] > WIDE:  # one block of objects: per-column work would dominate
        grid = pd.DataFrame(grid.to_numpy(dtype=object), dtype=object)
    cells = Cells(grid, WIDE)
    grid = _without_empty_columns(grid, cells)
    if grid.empty:
        return []
    words, blank = cells.masks(len(grid))
    row = _Rows(grid, cells.values)
    sheet_board = board_in_title(sheet)
    starts: list[tuple[int, int, int | None, dict[int, str]]] = []  # title row, header, board
    floor = 0
    for r in np.flatnonzero(words >= 3):
        fields = _header_fields(row(int(r)))
        board, title_row = _title_above(row, int(r), floor)
        if _is_header(fields, (board or sheet_board) is not None):
            starts.append((title_row, int(r), board or sheet_board, fields))
            floor = int(r) + 1
    tables = []
    outside = _outside_rows(row, blank, starts, sheet, first_row)
    title = _sheet_title(row, blank, starts[0][0]) if starts else None
    # columns that hold something below some header: only those are kept (plus the fields)
    used = cells.used(starts[0][1] if starts else len(grid))
    for i, (_, header, board, fields) in enumerate(starts):
        end = starts[i + 1][0] if i + 1 < len(starts) else len(grid)
        body = np.arange(header + 1, end)
        body = body[~blank[header + 1:end]]
        body = body[:_before_footer(row, body)]
        names, original, twins = _columns(row(header), fields)
        frame = _body(grid, body, {names[i]: i for i in range(len(names))
                                   if i in fields or used[i]}, first_row)
        twins = {name: f for name, f in twins.items() if name in frame and f in frame}
        frame = _joined_contract(frame, original)
        tables.append(RawTable(file, sheet, frame, board=board, original_columns=original,
                               twin_columns=twins,
                               outside=outside if i == 0 else [],
                               meta={"title": title} if title else {}))
    return tables


#: A contract written in two columns: its level ("4") and its strain ("S", "NT", "♠").
SPLIT_CONTRACT = frozenset({"level", "strain"})


def _joined_contract(frame: pd.DataFrame, original: dict[str, str]) -> pd.DataFrame:
    """A table whose contract is written in a Level and a Suit column, with the two cells
    of each row joined into its contract (``4`` and ``S``: ``4S``; ``Pass`` and blank:
    ``Pass``), headed as the two are ("Level/Suit"); ``original`` is updated.

    Beside a Contract column of their own, the two are kept as other columns are,
    under their headers as typed."""
    if not SPLIT_CONTRACT & set(frame.columns):
        return frame
    if "contract" in frame or not set(frame.columns) >= SPLIT_CONTRACT:
        return frame.rename(columns={f: original.pop(f) or f for f in SPLIT_CONTRACT
                                     if f in frame and original.get(f, f) not in frame})
    level, strain = (_cell_texts(frame[f]) for f in ("level", "strain"))
    joined = [None if a is None and b is None else (a or "") + (b or "")
              for a, b in zip(level, strain, strict=True)]
    at = list(frame.columns).index("level")
    out = frame.drop(columns=list(SPLIT_CONTRACT))
    out.insert(min(at, len(out.columns)), "contract", pd.Series(joined, index=frame.index,
                                                                dtype=object))
    original["contract"] = f"{original.pop('level')}/{original.pop('strain')}"
    return out


def _cell_texts(cells: pd.Series) -> list[str | None]:
    """Each cell as text without surrounding blanks (a spreadsheet's 4.0 as 4); None where
    blank."""
    out: list[str | None] = []
    for cell in cells.tolist():
        if not filled(cell):
            out.append(None)
        elif isinstance(cell, float) and cell.is_integer():
            out.append(str(int(cell)))
        else:
            out.append(str(cell).strip())
    return out


def _body(grid: pd.DataFrame, body: np.ndarray, columns: dict[str, int],
          first_row: int) -> pd.DataFrame:
    """The ``body`` rows of the grid's ``columns`` (name -> position), and their ``row``.

    Built from the columns' arrays in one step (each column keeps its dtype),
    not by slicing, copying and renaming the whole grid.
    """
    contiguous = len(body) and body[-1] - body[0] == len(body) - 1
    rows = slice(int(body[0]), int(body[-1]) + 1) if contiguous else body
    index = pd.RangeIndex(len(body))
    out: dict[str, Any] = {}
    if all(d == np.dtype(object) for d in grid.dtypes.tolist()):  # a workbook: one block
        cells = grid.to_numpy(dtype=object)[rows][:, list(columns.values())]
        out = {name: cells[:, j] for j, name in enumerate(columns)}
    else:
        arrays = (list(arrays_of(grid).values()) if grid.columns.is_unique
                  else [grid.iloc[:, i].array for i in range(grid.shape[1])])
        out = {name: arrays[i][rows] for name, i in columns.items()}
    out["row"] = body + first_row  # the row number the user sees
    # (pandas stacks the numpy columns into blocks of their own: never the grid's arrays)
    return frame_from(out, index)


def _sheet_title(row: _Rows, blank: np.ndarray, first: int) -> str | None:
    """The first text above a sheet's first table (its title row), when there is one.

    Rows that look like results are not titles (they are listed as outside-table).
    """
    for r in range(min(first, 10)):
        if blank[r]:
            continue
        cells = row(r)
        if _looks_like_result(cells):
            continue
        text = next((str(c).strip() for c in cells if isinstance(c, str) and c.strip()), None)
        if text:
            return text[:200]
    return None


def _looks_like_result(cells: list[Any]) -> bool:
    """Four or more filled cells, two of them numbers: a result, not a title or a note."""
    shown = [str(c).strip() for c in cells if filled(c)]
    numbers = sum(1 for c in shown if _NUMBER.fullmatch(c))
    return len(shown) >= 4 and numbers >= 2


_NUMBER = re.compile(r"[+-]?\d+(?:\.0+)?")


def _is_note(cells: list[Any]) -> bool:
    """A footer line such as "Checked by: AB" or "Director:", "J. Smith".

    A few words, no number, and a label with a colon: a lone "AP" or "x" at the
    end of the table is a result to list, not a note.
    """
    shown = [c for c in cells if filled(c)]
    return 0 < len(shown) <= 3 and any(
        isinstance(c, str) and _LABEL.match(c.strip()) for c in shown) and all(
        isinstance(c, str) and not _NUMBER.fullmatch(c.strip()) and any(ch.isalpha() for ch in c)
        for c in shown)


_LABEL = re.compile(r"[^\d:]*[^\W\d][^\d:]*:")


def _before_footer(row: _Rows, body: np.ndarray) -> int:
    """How many body rows stand before the notes written under the table (none are results)."""
    end = len(body)
    while end and _is_note(row(int(body[end - 1]))):
        end -= 1
    return end


def _outside_rows(row: _Rows, blank: np.ndarray, starts: list[Any], sheet: str,
                  first_row: int) -> list[tuple[str, int]]:
    """Rows above a table's header (or its title) that look like results: to be listed."""
    rows: list[tuple[str, int]] = []
    for i, (title_row, header, _, _) in enumerate(starts):
        # above the first table everything is outside; further down, the rows from
        # a table's title to its header (the table above ends at that title)
        for r in range(0 if i == 0 else title_row, header):
            if r != title_row and not blank[r] and _looks_like_result(row(r)):
                rows.append((sheet, r + first_row))
    return rows
