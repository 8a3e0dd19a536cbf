"""Guards run before a workbook is unpacked: zip bombs, and sheets too big to hold.

The sheet reader holds a sheet as a dense grid from its first to its last
cell, so one cell written at XFD1048576 asks for seventeen billion cells. Each
sheet's true extent is therefore measured first, by a stream over its cell
references (never holding the sheet), and a sheet whose grid is beyond the
cell budget is refused with a message naming it. Zip parts are judged one by
one: padding the archive with incompressible data cannot hide a part that
unpacks to a gigabyte.
"""

from __future__ import annotations

import re
import zipfile
import zlib
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from traveller.errors import UnreadableFileError

#: A workbook whose parts unpack to more than this in all is refused.
MAX_UNPACKED = 1 << 30
#: No single part may unpack to more than this (a 1M-result sheet is ~150 MB).
MAX_PART = 512 << 20
#: The shared strings (every distinct text of the workbook) may not exceed this.
MAX_SHARED_STRINGS = 64 << 20
#: A part above ``RATIO_FLOOR`` bytes may not unpack more than this many times its size.
MAX_RATIO = 200
RATIO_FLOOR = 50 << 20
#: The most cells (rows x columns from A1 to the last cell) a sheet's grid may hold.
CELL_BUDGET = 60_000_000
#: Excel's own grid: 1,048,576 rows by 16,384 columns (XFD).
MAX_ROWS, MAX_COLUMNS = 1 << 20, 1 << 14

_CELL_REF = re.compile(rb"<(?:\w+:)?c\b[^>]*?\sr=\"([A-Za-z]+)(\d+)\"")
_CHUNK = 1 << 22


@dataclass
class Extent:
    """The last row and column that hold a cell in one sheet part."""

    rows: int = 0
    columns: int = 0

    @property
    def cells(self) -> int:
        """Cells of the dense grid from A1 to the last cell."""
        return self.rows * self.columns


def column_number(letters: bytes) -> int:
    """Excel column letters -> 1-based number ("A" -> 1, "XFD" -> 16384)."""
    number = 0
    for ch in letters.upper():
        number = number * 26 + ch - 64
    return number


def refuse_zip_bomb(path: Path) -> None:
    """Refuse an xlsx/xlsm/ods whose parts unpack to an absurd size for a traveller.

    Checked from the zip directory alone, before anything is decompressed.
    """
    if not zipfile.is_zipfile(path):
        return
    try:
        with zipfile.ZipFile(path) as archive:
            parts = archive.infolist()
    except (zipfile.BadZipFile, OSError, ValueError) as exc:
        raise UnreadableFileError(f"{path}: not a readable workbook ({exc}); save it again "
                                  "as xlsx or CSV") from exc
    total = sum(p.file_size for p in parts)
    for part in parts:
        limit = MAX_SHARED_STRINGS if part.filename.endswith("sharedStrings.xml") else MAX_PART
        ratio = part.file_size / max(part.compress_size, 1)
        if part.file_size > limit or (part.file_size > RATIO_FLOOR and ratio > MAX_RATIO):
            _refuse(path, f"its part {part.filename} unpacks to "
                    f"{part.file_size / (1 << 20):,.0f} MB")
    if total > MAX_UNPACKED:
        _refuse(path, f"it unpacks to {total / (1 << 20):,.0f} MB")


def _refuse(path: Path, why: str) -> None:
    raise UnreadableFileError(f"{path}: refused: {why}, far beyond any traveller; re-export "
                              "it from the scoring program")


def sheet_extent(archive: zipfile.ZipFile, part: str) -> Extent:
    """The last row and column of a sheet part, streamed: memory stays a few MB."""
    extent = Extent()
    tail = b""
    with archive.open(part) as stream:
        while chunk := stream.read(_CHUNK):
            text = tail + chunk
            cut = text.rfind(b"<")
            text, tail = (text[:cut], text[cut:]) if cut > 0 else (text, b"")
            _extend(extent, text)
            if len(tail) > _CHUNK:  # one tag longer than a chunk: not a sheet
                raise ValueError("a tag longer than 4 MB")
        _extend(extent, tail)
    return extent


def _extend(extent: Extent, text: bytes) -> None:
    refs = _CELL_REF.findall(text)
    if not refs:
        return
    columns, rows = ({*parts} for parts in zip(*refs, strict=True))  # each distinct one once
    if max(map(len, columns)) > 3 or max(map(len, rows)) > 7:
        letters, digits = next((c, r) for c, r in refs if len(c) > 3 or len(r) > 7)
        raise ValueError(f"the cell reference {(letters + digits).decode()[:30]} is outside "
                         "Excel's grid")
    extent.columns = max(extent.columns, *map(column_number, columns))
    extent.rows = max(extent.rows, *map(int, rows))


_SHEET = re.compile(rb"<(?:\w+:)?sheet\b[^>]*?\bname=\"([^\"]*)\"[^>]*?\bid=\"([^\"]*)\"")
_TARGET = re.compile(rb"<Relationship\b[^>]*?\bId=\"([^\"]*)\"[^>]*?\bTarget=\"([^\"]*)\"")


def _sheet_names(archive: zipfile.ZipFile) -> dict[str, str]:
    """Worksheet part -> the sheet's name as the workbook shows it (empty when unknown)."""
    try:
        book = archive.read("xl/workbook.xml")[:1 << 20]
        rels = archive.read("xl/_rels/workbook.xml.rels")[:1 << 20]
    except (KeyError, zipfile.BadZipFile, zlib.error, OSError):
        return {}
    target = {rid: "xl/" + t.decode(errors="replace").removeprefix("/xl/").lstrip("/")
              for rid, t in _TARGET.findall(rels)}
    return {target[rid]: name.decode(errors="replace")
            for name, rid in _SHEET.findall(book) if rid in target}


def check_sheets(path: Path) -> None:
    """Refuse a workbook with a sheet beyond Excel's grid or the cell budget.

    Only xlsx/xlsm (zip with worksheet parts); other formats pass unchecked.
    """
    if not zipfile.is_zipfile(path):
        return
    with zipfile.ZipFile(path) as archive:
        names = _sheet_names(archive)
        for part in [n for n in archive.namelist()
                     if n.startswith("xl/worksheets/") and n.endswith(".xml")]:
            sheet = f"sheet {names[part]!r}" if part in names else f"part {part}"
            try:
                extent = sheet_extent(archive, part)
            except (ValueError, zipfile.BadZipFile, zlib.error, OSError, EOFError) as exc:
                raise UnreadableFileError(f"{path}: the {sheet} cannot be read ({exc}); "
                                          "save the workbook again as xlsx or CSV") from exc
            if extent.rows > MAX_ROWS or extent.columns > MAX_COLUMNS:
                raise UnreadableFileError(f"{path}: the {sheet} has a cell outside Excel's "
                                          "grid; save the workbook again as xlsx or CSV")
            if extent.cells > CELL_BUDGET:
                raise UnreadableFileError(
                    f"{path}: refused: the {sheet} spans {extent.rows:,} rows by "
                    f"{extent.columns:,} columns ({extent.cells:,} cells, the limit is "
                    f"{CELL_BUDGET:,}); delete the stray cells far right or below the table, "
                    "or save it as CSV")


def open_workbook(path: Path) -> Any:
    """A calamine workbook, after the zip-bomb and sheet-size guards; one-line errors."""
    from python_calamine import CalamineWorkbook

    refuse_zip_bomb(path)
    check_sheets(path)
    try:
        return CalamineWorkbook.from_path(str(path))
    except Exception as exc:  # calamine raises its own error types per format
        raise UnreadableFileError(
            f"{path}: not a readable workbook ({_first_line(exc)}); save it again as xlsx or CSV"
        ) from exc


def sheet_cells(book: Any, path: Path, sheet: str) -> list[list[Any]]:
    """Every cell of one sheet as Python values (a corrupt sheet is a one-line error)."""
    try:
        return book.get_sheet_by_name(sheet).to_python(skip_empty_area=False)  # type: ignore[no-any-return]
    except Exception as exc:  # corrupt XML, a shared string that is not there, ...
        raise UnreadableFileError(
            f"{path}: the sheet {sheet!r} cannot be read ({_first_line(exc)}); save the "
            "workbook again as xlsx or CSV") from exc


def _first_line(exc: BaseException) -> str:
    return (str(exc).strip().splitlines() or [type(exc).__name__])[0][:200]
