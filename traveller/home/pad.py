"""The score-pad workbook: the We/They sheet players know, one printed page per rubber.

Each rubber (or Chicago round) gets its own worksheet, fitted to one A4 page:
a column per side (or per three-handed player), entries above the line
written upwards from it, trick points below the line with a line drawn under
each game, the rubber bonus, the totals and the settlement. Each entry
carries its deal number. Then the Ledger, Totals and Problems sheets.
Every cell is written as a value (text stays text, never a formula), and the
file is written to a temporary name and renamed into place.
"""

from __future__ import annotations

import os
import tempfile
from pathlib import Path

import pandas as pd

from traveller.home.padsheets import (
    HomeResult,
    chicago_pad,
    data_sheet,
    pad_formats,
    rubber_pad,
)
from traveller.publish.book import Workbook, mark_input

#: Sheet names: a few words, never more than Excel's 31 characters.
MAX_SHEET_NAME = 31
GAME_TITLES = {"rubber": "Rubber bridge", "chicago": "Chicago",
               "three-handed": "Three-handed bridge"}


def write_pad(result: HomeResult, path: str | Path) -> Path:
    """Write ``result`` as the score-pad workbook at ``path`` (atomically).

    >>> rubber("sample_data/home_rubber.csv").to_excel("pad.xlsx")  # doctest: +SKIP
    """
    path = Path(path)
    path.parent.mkdir(parents=True, exist_ok=True)
    fd, tmp = tempfile.mkstemp(prefix=f".{path.name}.", suffix=".tmp", dir=path.parent)
    os.close(fd)
    try:
        book = Workbook(tmp, {"strings_to_formulas": False, "strings_to_urls": False,
                                         "strings_to_numbers": False, "nan_inf_to_errors": True})
        mark_input(book, result.source)
        formats = pad_formats(book)
        title = _title(result)
        for name, block in _blocks(result):
            sheet = book.add_worksheet(name)
            if result.game == "chicago":
                chicago_pad(sheet, formats, block, f"{title} - {name}", result)
            else:
                rubber_pad(sheet, formats, block, result, f"{title} - {name}")
        parties = result.parties
        data_sheet(book, formats, "Ledger", _ledger_shown(result.ledger), parties)
        data_sheet(book, formats, "Totals", result.totals, parties)
        if result.rubbers is not None:
            data_sheet(book, formats, "Rubbers", result.rubbers, parties)
        problems = result.problems  # (a pad's rows are deals: no board to name)
        if "board" in problems and problems["board"].isna().all():
            problems = problems.drop(columns="board")
        data_sheet(book, formats, "Problems", problems)
        book.close()
        os.chmod(tmp, 0o644)  # mkstemp makes it private; a score pad is for sharing
        os.replace(tmp, path)
    except BaseException:
        Path(tmp).unlink(missing_ok=True)
        raise
    return path


def _title(result: HomeResult) -> str:
    name = Path(result.source).name if result.source else ""
    return GAME_TITLES[result.game] + (f": {name}" if name else "")


def _blocks(result: HomeResult) -> list[tuple[str, pd.DataFrame]]:
    """(sheet name, ledger rows) per rubber or Chicago round."""
    ledger = result.ledger
    if ledger.empty:
        return []
    key = "round_number" if result.game == "chicago" else "rubber"
    word = "Round" if result.game == "chicago" else "Rubber"
    out = []
    for number, block in ledger.groupby(key, sort=True):
        prefix = _table_prefix(block)
        out.append((f"{prefix}{word} {number}"[:MAX_SHEET_NAME], block))
    return out


def _table_prefix(block: pd.DataFrame) -> str:
    if "table" in block and block["table"].notna().any():
        return f"Table {block['table'].dropna().iloc[0]} "
    return ""


def _ledger_shown(ledger: pd.DataFrame) -> pd.DataFrame:
    """The ledger without columns that are empty throughout (a sheet with no Result column)."""
    keep = [c for c in ledger.columns if ledger[c].notna().any()
            or c in ("deal", "row")]
    return ledger[keep]


