"""Reading a home-game score sheet: one row per deal, under a header row anywhere.

The cells come from the project's readers (calamine for workbooks, the CSV
decoder and delimiter sniffer for text), so a home sheet is read exactly as a
traveller is: xlsx/xls/ods/csv, UTF-8 or cp1250/cp1251, the header row below
titles and notes. Only the header words differ: home sheets have ``Deal``
and ``Honours`` where travellers have ``Board`` and pair numbers, so the
aliases are kept here (:data:`HOME_ALIASES`), matched like the traveller's.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pandas as pd

from traveller.errors import UnreadableFileError
from traveller.read.grid import frame_grid
from traveller.read.guard import open_workbook, sheet_cells
from traveller.read.headers import alias_index, field_for, filled, header_key
from traveller.read.text import decode, rectangular, sniff_delimiter, text_grid
from traveller.schema import EXCEL_SUFFIXES, HEADER_ALIASES

#: Home-sheet field -> header words seen in EN/PL/RU score sheets.
HOME_ALIASES: dict[str, list[str]] = {
    "deal": ["deal", "dealno", "hand", "board", "no", "nr", "rozdanie", "rozd", "сдача",
             "раздача", "номер"],
    "declarer": [*HEADER_ALIASES["declarer"], "side", "strona", "сторона", "player", "gracz",
                 "игрок"],
    "contract": HEADER_ALIASES["contract"],
    "tricks": HEADER_ALIASES["tricks"],
    "result": [a for a in HEADER_ALIASES["result"] if a != "+/-"],
    "honours": ["honours", "honors", "honour", "honor", "honory", "honoury", "онёры", "онеры",
                "онер", "онёр", "короны"],
    "rubber": ["rubber", "robber", "роббер", "робер"],
    "round": ["round", "runda", "тур", "раунд", "круг", "evening", "вечер"],
    "table": ["table", "stół", "stol", "стол"],
}
FIELDS = alias_index(HOME_ALIASES)
#: Words that start a row naming the players of a three-handed sheet.
PLAYERS_WORDS = {header_key(w) for w in ("players", "gracze", "игроки", "spieler")}
#: Fields kept as written (texts), in ledger order.
TEXT_FIELDS = ["deal", "declarer", "contract", "tricks", "result", "honours"]
GROUP_FIELDS = ["table", "round", "rubber"]
HEADER_SCAN_ROWS = 40


def _grids_from_path(path: Path, encoding: str | None) -> list[tuple[str, str, list[Any], int]]:
    if not path.exists():
        raise UnreadableFileError(f"{path}: file not found; check the path")
    if path.is_dir() or path.stat().st_size == 0:
        raise UnreadableFileError(f"{path}: not a score sheet (a folder or an empty file)")
    if path.suffix.lower() in EXCEL_SUFFIXES:
        book = open_workbook(path)  # the same size and zip-bomb guards as travellers
        return [(str(path), s, sheet_cells(book, path, s), 1) for s in book.sheet_names]
    text = decode(path.read_bytes(), encoding, str(path))
    grid = text_grid(text, sniff_delimiter(text[:65536]))
    return [(str(path), "", grid.to_numpy().tolist(), 1)]


def _grids(source: str | Path | pd.DataFrame | dict[str, pd.DataFrame],
           encoding: str | None) -> list[tuple[str, str, list[Any], int]]:
    """(file, sheet, cells, number of the first row) for every sheet of the source."""
    if isinstance(source, pd.DataFrame):
        source = {"DataFrame": source}
    if isinstance(source, dict):
        return [("<DataFrame>", str(name), frame_grid(f), -1) for name, f in source.items()]
    return _grids_from_path(Path(source), encoding)


def _header(cells: list[Any]) -> dict[int, str]:
    found: dict[int, str] = {}
    for i, cell in enumerate(cells):
        name = field_for(cell, FIELDS) if isinstance(cell, str) else None
        if name and name not in found.values():
            found[i] = name
    return found


def _is_header(fields: dict[int, str]) -> bool:
    names = set(fields.values())
    return "contract" in names and len(names & {"deal", "declarer", "tricks", "result",
                                                "honours"}) >= 2


def _players_row(cells: list[Any]) -> list[str] | None:
    shown = [str(c).strip() for c in cells if filled(c)]
    if shown and header_key(shown[0].rstrip(":")) in PLAYERS_WORDS:
        names = [n for s in shown[1:] for n in s.replace(";", ",").split(",") if n.strip()]
        return [n.strip() for n in names]
    return None


def _table(file: str, sheet: str, cells: list[Any], first_row: int
           ) -> tuple[pd.DataFrame | None, list[str]]:
    """The deals under a sheet's header row, and the players named above it."""
    grid = rectangular(cells)
    players: list[str] = []
    for r in range(min(len(grid), HEADER_SCAN_ROWS)):
        row = grid.iloc[r].tolist()
        players = _players_row(row) or players
        fields = _header(row)
        if not _is_header(fields):
            continue
        body = grid.iloc[r + 1:]
        blank = body.map(lambda c: not filled(c)).all(axis=1)
        body = body[~blank.to_numpy()]
        out = pd.DataFrame({"file": file, "sheet": sheet,
                            "row": body.index.to_numpy() + first_row}, index=body.index)
        for i, name in fields.items():
            out[name] = body[i].map(lambda c: str(c).strip() if filled(c) else None)
        header = {name: str(grid.iat[r, i]).strip() for i, name in fields.items()}
        out.attrs["header"] = header
        return out.reset_index(drop=True), players
    return None, players


def read_sheet(source: str | Path | pd.DataFrame | dict[str, pd.DataFrame],
               encoding: str | None = None) -> tuple[pd.DataFrame, list[str], dict[str, str]]:
    """Every deal of a home score sheet as text, the players row, and the headers as written.

    Rows keep ``file``, ``sheet`` and ``row`` (the row number the user sees)
    and one text column per recognised field (:data:`HOME_ALIASES`); missing
    fields are absent columns. Sheets without a header row (notes) are skipped.

    >>> deals, players, header = read_sheet("sample_data/home_rubber.csv")  # doctest: +SKIP
    """
    frames: list[pd.DataFrame] = []
    players: list[str] = []
    header: dict[str, str] = {}
    for file, sheet, cells, first in _grids(source, encoding):
        found, named = _table(file, sheet, cells, first)
        players = players or named
        if found is not None:
            header = {**found.attrs.pop("header"), **header}
            frames.append(found)
    if not frames:
        raise UnreadableFileError(
            f"{_name(source)}: no score sheet found (looked for a header row naming the "
            "contract and two of deal, declarer, tricks/result, honours); check the file")
    deals = pd.concat(frames, ignore_index=True)
    if deals.empty:
        raise UnreadableFileError(f"{_name(source)}: the score sheet has a header row but no "
                                  "deals under it; fill in one row per deal")
    for name in [*TEXT_FIELDS, *GROUP_FIELDS]:
        if name not in deals:
            deals[name] = None
    return deals.astype({n: "string" for n in [*TEXT_FIELDS, *GROUP_FIELDS]}), players, header


def _name(source: object) -> str:
    return "<DataFrame>" if isinstance(source, pd.DataFrame | dict) else str(source)
