"""Files -> raw tables: find the traveller table(s) in a CSV or workbook.

Nothing here interprets bridge notation: the loader finds the header row
(which need not be the first row), maps the headers it knows to canonical field
names, keeps every other column, and records the row number the user sees.
"""

from __future__ import annotations

from functools import partial
from pathlib import Path
from typing import TypeAlias

import pandas as pd

from traveller.errors import TravellerError, UnreadableFileError
from traveller.read.formats import reader_for
from traveller.read.grid import frame_grid, tables_from_grid
from traveller.read.headers import board_in_title, field_for, header_key
from traveller.read.names import read_names
from traveller.read.paths import printable
from traveller.read.raw import Loaded, RawTable
from traveller.read.text import decode, looks_binary, sniff_delimiter, text_grid
from traveller.read.workbook import read_sheets, read_workbook
from traveller.schema import EXCEL_SUFFIXES

__all__ = ["Loaded", "RawTable", "Source", "board_in_title", "field_for", "header_key", "read",
           "read_frames", "read_names", "read_text", "read_workbook", "sniff_delimiter",
           "tables_from_grid"]


# --------------------------------------------------------------------------
# Text files

def read_text(path: Path, encoding: str | None = None) -> list[RawTable]:
    """Read a CSV/TSV/semicolon file: header found in its first rows, values kept as text."""
    data = path.read_bytes()
    if not data or data.isspace():  # (no copy of a large file, unlike strip)
        raise UnreadableFileError(f"{path}: the file is empty; export the travellers again")
    if looks_binary(data):
        raise UnreadableFileError(f"{path}: this is a binary file, not CSV text; "
                                  "export the travellers as CSV or xlsx")
    text = decode(data, encoding, str(path)).replace("\x00", "")
    # the auto-detected encodings (UTF-8, cp1250, cp1251) all read ASCII bytes as ASCII
    grid = text_grid(text, sniff_delimiter(text[:65536]), None if encoding else data)
    return tables_from_grid(grid, str(path), "")


# --------------------------------------------------------------------------
# Workbooks

# --------------------------------------------------------------------------
# Entry point

#: What :func:`read` takes: a path, a DataFrame, or sheet name -> DataFrame.
Source: TypeAlias = str | Path | pd.DataFrame | dict[str, pd.DataFrame]


def read_frames(frames: pd.DataFrame | dict[str, pd.DataFrame]) -> Loaded:
    """Read results already in memory: a DataFrame, or a dict of sheet name -> DataFrame.

    Each frame is read as a sheet whose first row holds its column names (so a
    frame from ``pd.read_excel`` or built by hand reads like the file would); a
    ``Names`` frame gives the pair names (a second one is listed as
    ``second-names-sheet``, not read). ``row`` is the position in the frame
    (0 for its first row), and ``file`` is ``<DataFrame>``.
    """
    if isinstance(frames, pd.DataFrame):
        frames = {"DataFrame": frames}
    for sheet, frame in frames.items():
        if not isinstance(frame, pd.DataFrame):
            raise UnreadableFileError(f"sheet {sheet!r}: expected a DataFrame, got "
                                      f"{type(frame).__name__}")
    tables, names, problems = read_sheets(
        ((str(sheet), partial(frame_grid, frame)) for sheet, frame in frames.items()),
        "<DataFrame>", first_row=-1)
    if not tables:
        raise UnreadableFileError(
            "<DataFrame>: no traveller table found; the columns must name at least the "
            "board, the N-S pair (or an individual's four players) and a contract or score")
    return Loaded(tables, names, problems)


def read(path: Source, encoding: str | None = None) -> Loaded:
    """Read a traveller file of any supported kind (or frames in memory) into raw tables.

    >>> loaded = read("sample_data/club_session.csv")  # doctest: +SKIP
    """
    if isinstance(path, pd.DataFrame | dict):
        return read_frames(path)
    try:
        loaded = _read_path(Path(path), encoding)
    except TravellerError as exc:  # a file name that is not UTF-8 must still print
        raise type(exc)(printable(str(exc))) from exc
    for table in loaded.tables:
        table.file = printable(table.file)
    return loaded


def _read_path(path: Path, encoding: str | None) -> Loaded:
    """:func:`read` for a path."""
    if not path.exists():
        raise UnreadableFileError(f"{path}: file not found; check the path")
    if path.is_dir():
        raise UnreadableFileError(f"{path}: is a folder; give a traveller file "
                                  "(or use 'traveller batch' for a folder)")
    if path.stat().st_size == 0:
        raise UnreadableFileError(f"{path}: the file is empty; export the travellers again")
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
            "the board, the N-S pair (or an individual's four players) and a contract or "
            "score); check the file is a traveller"
        )
    if not any(len(t.frame) or t.outside for t in loaded.tables):
        raise UnreadableFileError(f"{path}: the traveller has a header but no results under it; "
                                  "export the travellers again")
    return loaded
