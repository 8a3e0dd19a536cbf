"""Files -> raw tables: find the traveller table(s) in a CSV or workbook.

Nothing here interprets bridge notation: the loader finds the header row
(which need not be the first row), maps the headers it knows to canonical field
names, keeps every other column, and records the row number the user sees.
"""

from __future__ import annotations

import csv
import io
import re
import unicodedata
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import numpy as np
import pandas as pd

from traveller.errors import UnreadableFileError
from traveller.schema import HEADER_ALIASES, NAMES_ALIASES, NAMES_SHEETS


@dataclass
class RawTable:
    """One table of results as read, before any notation is interpreted.

    ``frame`` has one row per input result. Columns the loader recognised carry
    the canonical field names (``board``, ``ns_pair``, ``ew_pair``, ``contract``,
    ``declarer``, ``tricks``, ``result``, ``lead``, ``score``, ``score_ew``,
    ``section``); every other input column is kept under its own header. Values
    are as read (text or numbers). Column ``row`` holds the row number the user
    sees (spreadsheet row, or line of a text file).
    """

    file: str
    sheet: str
    frame: pd.DataFrame
    board: int | None = None  # board number stated in a title above the table
    notation: str | None = None  # fixed by the format (e.g. "en" for PBN/USEBIO)
    names: pd.DataFrame | None = None  # pair names: section, pair, line, names, ...
    meta: dict[str, str] = field(default_factory=dict)  # event name, date, method, ...
    original_columns: dict[str, str] = field(default_factory=dict)  # field -> header as written


EXCEL_SUFFIXES = {".xlsx", ".xlsm", ".xlsb", ".xls", ".ods"}
TEXT_SUFFIXES = {".csv", ".txt", ".tsv", ""}
HEADER_SCAN_ROWS = 40
ENCODINGS = ("utf-8-sig", "cp1250", "cp1251")


def header_key(text: object) -> str:
    """Case- and punctuation-insensitive key of a header cell ("N-S" -> "ns")."""
    folded = unicodedata.normalize("NFKC", str(text)).casefold()
    return "".join(ch for ch in folded if ch.isalnum())


def _alias_index(aliases: dict[str, list[str]]) -> dict[str, str]:
    index: dict[str, str] = {}
    for name, names in aliases.items():
        for alias in names:
            key = header_key(alias)
            if index.setdefault(key, name) != name:
                raise AssertionError(f"header alias {alias!r} names both {index[key]} and {name}")
    return index


_FIELDS = _alias_index(HEADER_ALIASES)
_NAME_FIELDS = _alias_index(NAMES_ALIASES)
_PAIR_WORDS = ("pair", "para", "par", "пар", "номер")
_LINE_SUFFIX = {"ns": "ns_pair", "сю": "ns_pair", "ew": "ew_pair", "we": "ew_pair",
                "зв": "ew_pair", "вз": "ew_pair"}
_BOARD_TITLE = re.compile(
    r"(?:board|bd|brd|rozdanie|rozd|сдача|коробка|boards?)\s*(?:no\.?|nr\.?|#|№|:)?\s*:?\s*(\d{1,4})\b",
    re.IGNORECASE,
)


def field_for(header: object, index: dict[str, str] = _FIELDS) -> str | None:
    """Canonical field a header names, or None ("Para NS" -> "ns_pair")."""
    key = header_key(header)
    if not key:
        return None
    if key in index:
        return index[key]
    if index is _FIELDS and any(w in key for w in _PAIR_WORDS):
        for suffix, name in _LINE_SUFFIX.items():
            if key.endswith(suffix):
                return name
    return None


def board_in_title(text: object) -> int | None:
    """Board number stated in a title cell or sheet name ("Коробка: 8" -> 8)."""
    match = _BOARD_TITLE.search(str(text))
    return int(match.group(1)) if match else None


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
    has_result = bool(names & {"contract", "score"})
    has_board = "board" in names or board_known
    return has_result and has_board and "ns_pair" in names and len(names) >= 3


def _columns(header: list[Any], fields: dict[int, str]) -> tuple[list[str], dict[str, str]]:
    """Column names for a table: canonical field names, else the header as written."""
    names: list[str] = []
    original: dict[str, str] = {}
    for i, cell in enumerate(header):
        text = str(cell).strip() if _filled(cell) else ""
        name = fields.get(i) or text or f"column {i + 1}"
        base, n = name, 2
        while name in names:
            name, n = f"{base} ({n})", n + 1
        names.append(name)
        if i in fields:
            original[fields[i]] = text
    return names, original


def _filled(cell: Any) -> bool:
    if cell is None:
        return False
    if isinstance(cell, float) and np.isnan(cell):
        return False
    return not (isinstance(cell, str) and not cell.strip())


def _cell_masks(grid: pd.DataFrame) -> tuple[np.ndarray, np.ndarray]:
    """Per row: how many cells are known header words, and whether the row is blank.

    Works on each column's distinct values, so a million-row sheet costs a
    factorize per column rather than a Python call per cell.
    """
    words = np.zeros(len(grid), dtype=np.int64)
    blank = np.ones(len(grid), dtype=bool)
    for column in grid.columns:
        codes, uniques = pd.factorize(grid[column], use_na_sentinel=True)
        is_word = np.array([isinstance(u, str) and field_for(u) is not None for u in uniques]
                           + [False])
        is_filled = np.array([_filled(u) for u in uniques] + [False])
        words += is_word[codes]
        blank &= ~is_filled[codes]
    return words, blank


def _title_above(grid: pd.DataFrame, header: int, floor: int) -> tuple[int | None, int]:
    """Board number in a title row just above a header, and where that title starts."""
    for r in range(header - 1, max(floor, header - 6) - 1, -1):
        cells = [c for c in grid.iloc[r].tolist() if _filled(c)]
        if not cells:
            continue
        if len(cells) > 6 or not all(isinstance(c, str) for c in cells):
            break
        found = next((b for c in cells if (b := board_in_title(c)) is not None), None)
        if found is not None:
            return found, r
    return None, header


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
        grid = pd.DataFrame(grid, dtype=object)
    if grid.empty:
        return []
    words, blank = _cell_masks(grid)
    sheet_board = board_in_title(sheet)
    starts: list[tuple[int, int, int | None, dict[int, str]]] = []  # title row, header, board
    floor = 0
    for r in np.flatnonzero(words >= 3):
        fields = _header_fields(grid.iloc[r].tolist())
        board, title_row = _title_above(grid, int(r), floor)
        if _is_header(fields, (board or sheet_board) is not None):
            starts.append((title_row, int(r), board or sheet_board, fields))
            floor = int(r) + 1
    tables = []
    for i, (_, header, board, fields) in enumerate(starts):
        end = starts[i + 1][0] if i + 1 < len(starts) else len(grid)
        body = np.arange(header + 1, end)
        body = body[~blank[header + 1:end]]
        names, original = _columns(grid.iloc[header].tolist(), fields)
        frame = grid.iloc[body].copy()
        frame.columns = names
        frame.index = pd.RangeIndex(len(frame))
        frame["row"] = body + first_row
        tables.append(RawTable(file, sheet, frame, board=board, original_columns=original))
    return tables


# --------------------------------------------------------------------------
# Text files

def decode(data: bytes, encoding: str | None = None, file: str = "") -> str:
    """Decode a text file: UTF-8 (with or without BOM), else cp1250 or cp1251 by content."""
    if encoding:
        try:
            return data.decode(encoding)
        except (LookupError, UnicodeDecodeError) as exc:
            raise UnreadableFileError(
                f"{file}: cannot decode as {encoding} ({exc}); try another --encoding"
            ) from exc
    try:
        return data.decode("utf-8-sig")
    except UnicodeDecodeError:
        pass
    # Cyrillic text in cp1251 has most letters in 0xC0-0xFF; Polish text in
    # cp1250 is mostly ASCII with a few accented letters.
    letters = sum(1 for b in data if b >= 0xC0)
    ascii_letters = sum(1 for b in data if 0x41 <= b <= 0x7A)
    return data.decode("cp1251" if letters > ascii_letters else "cp1250", errors="replace")


def sniff_delimiter(sample: str) -> str:
    """The field delimiter of a CSV-like text: comma, semicolon, tab or pipe."""
    lines = [ln for ln in sample.splitlines()[:HEADER_SCAN_ROWS] if ln.strip()]
    best, best_score = ",", -1
    for delim in (",", ";", "\t", "|"):
        counts = [next(csv.reader([ln], delimiter=delim)).__len__() for ln in lines]
        multi = [c for c in counts if c > 1]
        if not multi:
            continue
        common = max(set(multi), key=multi.count)
        score = multi.count(common) * common
        if score > best_score:
            best, best_score = delim, score
    return best


def text_grid(text: str, delimiter: str) -> pd.DataFrame:
    """All cells of a delimited text as strings, one grid row per line."""
    width = max((len(r) for r in csv.reader(io.StringIO(text[:65536]), delimiter=delimiter)),
                default=1)
    try:
        return pd.read_csv(io.StringIO(text), sep=delimiter, header=None, names=range(width),
                           dtype=str, keep_default_na=False, skip_blank_lines=False,
                           engine="c", quoting=csv.QUOTE_MINIMAL)
    except pd.errors.ParserError:  # ragged rows wider than the first ones
        rows = list(csv.reader(io.StringIO(text), delimiter=delimiter))
        return pd.DataFrame(rows, dtype=object)


def read_text(path: Path, encoding: str | None = None) -> list[RawTable]:
    """Read a CSV/TSV/semicolon file: header found in its first rows, values kept as text."""
    data = path.read_bytes()
    if not data.strip():
        raise UnreadableFileError(f"{path}: the file is empty; export the travellers again")
    if b"\x00" in data[:4096]:
        raise UnreadableFileError(f"{path}: this is a binary file, not CSV text; "
                                  "export the travellers as CSV or xlsx")
    text = decode(data, encoding, str(path))
    grid = text_grid(text, sniff_delimiter(text[:65536]))
    return tables_from_grid(grid, str(path), "")


# --------------------------------------------------------------------------
# Workbooks

#: A workbook whose parts unpack to more than this is refused (a real session is a few MB).
MAX_UNPACKED = 1 << 30
MAX_RATIO = 200


def refuse_zip_bomb(path: Path) -> None:
    """Refuse an xlsx/xlsm/ods whose unpacked size is absurd for a traveller.

    Checked from the zip directory alone, before anything is decompressed.
    """
    import zipfile

    if not zipfile.is_zipfile(path):
        return
    with zipfile.ZipFile(path) as archive:
        unpacked = sum(i.file_size for i in archive.infolist())
    packed = max(path.stat().st_size, 1)
    if unpacked > MAX_UNPACKED or (unpacked > 50 << 20 and unpacked / packed > MAX_RATIO):
        raise UnreadableFileError(
            f"{path}: refused: the workbook unpacks to {unpacked / (1 << 20):,.0f} MB from "
            f"{packed / (1 << 20):,.1f} MB, far beyond any traveller; re-export it from the "
            "scoring program"
        )

def read_workbook(path: Path) -> tuple[list[RawTable], pd.DataFrame | None]:
    """Read every sheet of a workbook (xlsx/xlsm/xls/ods) with calamine.

    Returns the result tables and, when the workbook has a names sheet, its pairs.
    """
    from python_calamine import CalamineWorkbook

    refuse_zip_bomb(path)
    try:
        book = CalamineWorkbook.from_path(str(path))
    except Exception as exc:  # calamine raises its own error types per format
        raise UnreadableFileError(
            f"{path}: not a readable workbook ({exc}); save it again as xlsx or CSV"
        ) from exc
    tables: list[RawTable] = []
    names: pd.DataFrame | None = None
    for sheet in book.sheet_names:
        grid = book.get_sheet_by_name(sheet).to_python(skip_empty_area=False)
        if header_key(sheet) in NAMES_SHEETS:
            names = names_from_grid(grid, f"{path} [{sheet}]")
            continue
        tables.extend(tables_from_grid(grid, str(path), sheet))
    return tables, names


# --------------------------------------------------------------------------
# Pair names

def names_from_grid(grid: list[list[Any]], where: str) -> pd.DataFrame:
    """Pair names from a names sheet: pair, optional section/line, names or player1/player2."""
    for r, cells in enumerate(grid[:HEADER_SCAN_ROWS]):
        fields = {i: f for i, c in enumerate(cells) if (f := field_for(c, _NAME_FIELDS))}
        if "pair" in fields.values() and {"names", "player1"} & set(fields.values()):
            frame = pd.DataFrame([list(row) for row in grid[r + 1:]], dtype=object)
            frame = frame[list(fields)].rename(columns=fields)
            return _tidy_names(frame)
    raise UnreadableFileError(
        f"{where}: no header with a pair column and a names (or player1/player2) column "
        "found in the names sheet; add a header row such as 'Pair, Line, Names'"
    )


def _tidy_names(frame: pd.DataFrame) -> pd.DataFrame:
    frame = frame[frame["pair"].map(_filled)].copy()
    pair = pd.to_numeric(frame["pair"].astype(str).str.strip(), errors="coerce")
    if "names" not in frame:
        players = [frame[c].fillna("").astype(str).str.strip()
                   for c in ("player1", "player2") if c in frame]
        frame["names"] = players[0] if len(players) == 1 else players[0] + " – " + players[1]
    line = frame["line"].astype(str) if "line" in frame else pd.Series("", index=frame.index)
    section = frame["section"] if "section" in frame else pd.Series("", index=frame.index)
    out = pd.DataFrame({
        "section": section.fillna("").astype(str).str.strip().str.replace(r"\.0$", "", regex=True),
        "pair": pair.astype("Int64"),
        "line": line.map(_line_of),
        "names": frame["names"].fillna("").astype(str).str.strip(),
    })
    return out[out["pair"].notna()].reset_index(drop=True)


def _line_of(text: str) -> str:
    key = header_key(text)
    if key in {"ns", "nspair", "сю", "n"}:
        return "NS"
    if key in {"ew", "we", "зв", "вз", "e"}:
        return "EW"
    return ""


def read_names(path: Path, encoding: str | None = None) -> pd.DataFrame:
    """Read a names file (CSV or workbook): one row per pair."""
    path = Path(path)
    if not path.exists():
        raise UnreadableFileError(f"{path}: names file not found; check the --names path")
    if path.suffix.lower() in EXCEL_SUFFIXES:
        from python_calamine import CalamineWorkbook

        book = CalamineWorkbook.from_path(str(path))
        grid = book.get_sheet_by_index(0).to_python(skip_empty_area=False)
    else:
        text = decode(path.read_bytes(), encoding, str(path))
        rows = csv.reader(io.StringIO(text), delimiter=sniff_delimiter(text[:65536]))
        grid = [list(row) for row in rows]
    return names_from_grid(grid, str(path))


# --------------------------------------------------------------------------
# Entry point

@dataclass
class Loaded:
    """Everything read from one input file."""

    tables: list[RawTable]
    names: pd.DataFrame | None = None


def read(path: str | Path, encoding: str | None = None) -> Loaded:
    """Read a traveller file of any supported kind into raw tables.

    >>> loaded = read("sample_data/club_session.csv")  # doctest: +SKIP
    """
    path = Path(path)
    if not path.exists():
        raise UnreadableFileError(f"{path}: file not found; check the path")
    if path.is_dir():
        raise UnreadableFileError(f"{path}: is a folder; give a traveller file "
                                  "(or use 'traveller batch' for a folder)")
    if path.stat().st_size == 0:
        raise UnreadableFileError(f"{path}: the file is empty; export the travellers again")
    from traveller.formats import reader_for

    reader = reader_for(path)
    if reader is not None:
        tables = reader(path)
        names = next((t.names for t in tables if t.names is not None), None)
        loaded = Loaded(tables, names)
    elif path.suffix.lower() in EXCEL_SUFFIXES:
        loaded = Loaded(*read_workbook(path))
    else:
        loaded = Loaded(read_text(path, encoding))
    if not loaded.tables:
        raise UnreadableFileError(
            f"{path}: no traveller table found (looked for a header row naming at least "
            "the board, the N-S pair and a contract or score); check the file is a traveller"
        )
    return loaded
