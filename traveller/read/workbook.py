"""Workbooks (xlsx/xlsm/xls/ods) -> raw tables, read with calamine behind the guards."""

from __future__ import annotations

from collections.abc import Callable, Iterable
from functools import partial
from pathlib import Path
from typing import Any

import pandas as pd

from traveller.errors import UnreadableFileError
from traveller.read.grid import tables_from_grid
from traveller.read.guard import open_workbook, sheet_cells
from traveller.read.headers import header_key
from traveller.read.names import names_from_grid, second_names_sheet
from traveller.read.raw import RawTable
from traveller.schema import NAMES_SHEETS


def read_workbook(path: Path
                  ) -> tuple[list[RawTable], pd.DataFrame | None, list[pd.DataFrame]]:
    """Read every sheet of a workbook (xlsx/xlsm/xls/ods) with calamine.

    Returns the result tables, the pairs of the names sheet (when there is one)
    and the problems of that sheet's rows (see :func:`names_from_grid`). A second
    names sheet is not read; it is listed as ``second-names-sheet``.
    """
    book = open_workbook(path)
    if set(book.sheet_names) >= OUR_SHEETS:
        raise UnreadableFileError(
            f"{path}: this is a results workbook written by traveller, not a traveller; "
            "give the session's own traveller file")
    return read_sheets(((sheet, partial(sheet_cells, book, path, sheet))
                        for sheet in book.sheet_names), str(path))


def read_sheets(sheets: Iterable[tuple[str, Callable[[], Any]]], file: str, first_row: int = 1
                ) -> tuple[list[RawTable], pd.DataFrame | None, list[pd.DataFrame]]:
    """Each sheet's result tables, or the pairs of the first names sheet, and its problems.

    ``sheets``: (name, a function giving its cells), read only when used: a
    second names sheet is listed as ``second-names-sheet`` and its cells never
    read. ``first_row``: the row number of a sheet's first row (1 in a
    workbook, -1 for a DataFrame, whose header row comes before its row 0).
    """
    tables: list[RawTable] = []
    names: pd.DataFrame | None = None
    problems: list[pd.DataFrame] = []
    names_sheet = ""
    for sheet, cells in sheets:
        if header_key(sheet) not in NAMES_SHEETS:
            tables.extend(tables_from_grid(cells(), file, sheet, first_row=first_row))
        elif names is None:
            names_sheet = sheet
            names = names_from_grid(cells(), f"{file} [{sheet}]", problems, file=file,
                                    sheet=sheet, first_row=first_row)
        else:  # (named by its first row: a DataFrame's row 0)
            problems.append(second_names_sheet(file, sheet, names_sheet, max(first_row, 0)))
    return tables, names, problems


#: The sheets every results workbook traveller writes has (to refuse one given as input;
#: a Problems sheet is written only when there are problems).
OUR_SHEETS = {"Ranking", "Travellers", "Summary"}
