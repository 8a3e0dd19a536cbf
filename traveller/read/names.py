"""Pair names from a names sheet or file: pair, optional section and line, names."""

from __future__ import annotations

import csv
from pathlib import Path
from typing import Any

import pandas as pd

from traveller.errors import UnreadableFileError
from traveller.read.headers import HEADER_SCAN_ROWS, NAME_FIELDS, field_for, filled, header_key
from traveller.read.text import decode, lines_of, looks_binary, rectangular, sniff_delimiter
from traveller.schema import EXCEL_SUFFIXES


def names_from_grid(grid: list[list[Any]], where: str) -> pd.DataFrame:
    """Pair names from a names sheet: pair, optional section/line, names or player1/player2."""
    for r, cells in enumerate(grid[:HEADER_SCAN_ROWS]):
        fields = {i: f for i, c in enumerate(cells) if (f := field_for(c, NAME_FIELDS))}
        if "pair" in fields.values() and {"names", "player1"} & set(fields.values()):
            frame = rectangular(grid[r + 1:])
            frame = frame[list(fields)].rename(columns=fields)
            return _tidy_names(frame)
    raise UnreadableFileError(
        f"{where}: no header with a pair column and a names (or player1/player2) column "
        "found in the names sheet; add a header row such as 'Pair, Line, Names'"
    )


def _tidy_names(frame: pd.DataFrame) -> pd.DataFrame:
    frame = frame[frame["pair"].map(filled)].copy()
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
        from traveller.read.workbook import open_workbook, sheet_cells

        book = open_workbook(path)
        if not book.sheet_names:
            raise UnreadableFileError(f"{path}: the names workbook has no sheet")
        grid = sheet_cells(book, path, book.sheet_names[0])
    else:
        data = path.read_bytes()
        if looks_binary(data):
            raise UnreadableFileError(f"{path}: the names file is a binary file, not text; "
                                      "give a CSV or xlsx names file")
        text = decode(data, encoding, str(path)).replace("\x00", "")
        delimiter = sniff_delimiter(text[:65536])
        grid = [next(csv.reader([line], delimiter=delimiter), []) for line in lines_of(text)]
    return names_from_grid(grid, str(path))
