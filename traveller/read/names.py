"""Pair names from a names sheet or file: pair, optional section and line, names."""

from __future__ import annotations

import csv
import re
from pathlib import Path
from typing import Any

import numpy as np
import pandas as pd

from traveller.errors import UnreadableFileError
from traveller.problems import combine, flag
from traveller.read.headers import HEADER_SCAN_ROWS, NAME_FIELDS, field_for, filled, header_key
from traveller.read.text import decode, lines_of, looks_binary, rectangular, sniff_delimiter
from traveller.schema import EXCEL_SUFFIXES, LINE_WORDS


def second_names_sheet(file: str, sheet: str, used: str, first_row: int = 1) -> pd.DataFrame:
    """The ``second-names-sheet`` problem: ``sheet`` also lists names; ``used`` is the one read."""
    rows = pd.DataFrame({"file": [file], "sheet": [sheet], "row": [first_row]})
    return flag(rows, "second-names-sheet", "", detail=f"the names of sheet {used!r} are used",
                blocking=False)


def names_from_grid(grid: list[list[Any]], where: str,
                    problems: list[pd.DataFrame] | None = None, *, file: str = "",
                    sheet: str = "", first_row: int = 1) -> pd.DataFrame:
    """Pair names from a names sheet: pair, optional section/line, names or player1/player2.

    A sheet of single players (``Player 1, ID 1, Player 2, ID 2``) also keeps
    each player and their federation number as the columns player1, id1,
    player2, id2 (a number written as 1234.0 by a spreadsheet reads 1234).

    A row whose pair cell holds something that is not a whole number (``abc``,
    ``3.5``) gets no name; it is added to ``problems`` as ``bad-names-pair``
    (``file``, ``sheet``, and the row number of ``grid[0]`` as ``first_row``).
    """
    for r, cells in enumerate(grid[:HEADER_SCAN_ROWS]):
        fields = {i: f for i, c in enumerate(cells) if (f := field_for(c, NAME_FIELDS))}
        if "pair" in fields.values() and {"names", "player1"} & set(fields.values()):
            frame = rectangular(grid[r:]).iloc[1:]  # as wide as the header, rows or not
            frame = frame[list(fields)].rename(columns=fields)
            names, unread = _tidy_names(frame)
            if problems is not None:
                header = {f: str(cells[i]).strip() for i, f in fields.items()}
                if len(unread):
                    rows = pd.DataFrame({"file": file, "sheet": sheet,
                                         "row": unread.index.to_numpy() + r + first_row})
                    problems.append(flag(rows, "bad-names-pair", header["pair"],
                                         pd.Series(unread.to_numpy(), index=rows.index),
                                         blocking=False))
                problems.append(_named_twice(names, header, file, sheet, r + first_row))
            return names.reset_index(drop=True)
    raise UnreadableFileError(
        f"{where}: no header with a pair column and a names (or player1/player2) column "
        "found in the names sheet; add a header row such as 'Pair, Line, Names'"
    )


def _tidy_names(frame: pd.DataFrame) -> tuple[pd.DataFrame, pd.Series]:
    """Rows with a whole pair number (section, pair, line NS/EW/blank, names), and the
    pair cells of the rows left out because theirs is not one ("abc", 3.5).

    A names sheet is a few dozen rows, so each cell is tidied as a Python
    string (pandas' text methods cost more to start than the whole sheet).
    Rows with a blank pair cell are not names rows at all.
    """
    frame = frame[np.array([filled(v) for v in frame["pair"].tolist()], dtype=bool)]
    pair = pd.to_numeric(pd.Series(_texts(frame["pair"]), dtype=object), errors="coerce")
    whole = pair.notna().to_numpy() & (pair.to_numpy(dtype=float, na_value=0.5) % 1 == 0)
    if "names" in frame:
        names = _texts(frame["names"])
    else:
        players = [_texts(frame[c]) for c in ("player1", "player2") if c in frame]
        names = [" – ".join(p for p in pair_of if p)  # a missing player: no dangling dash
                 for pair_of in zip(*players, strict=True)]
    blank = [""] * len(frame)
    out = pd.DataFrame({
        "section": pd.array([_NUMBER_END.sub("", t) for t in _texts(frame["section"])]
                            if "section" in frame else blank, dtype="str"),
        "pair": pd.array(np.where(whole, pair.to_numpy(dtype=float, na_value=0), 0),
                         dtype="Int64"),
        "line": pd.array([_line_of(t) for t in _texts(frame["line"])] if "line" in frame
                         else blank, dtype="str"),
        "names": pd.array(names, dtype="str"),
        # each player as written and their federation number, when the sheet has them
        **{c: pd.array([_NUMBER_END.sub("", t) if c.startswith("id") else t
                        for t in _texts(frame[c])], dtype="str")
           for c in _PLAYER_COLUMNS if "names" not in frame and c in frame},
    })
    out.index = frame.index  # (each row's place in the sheet, for its problems)
    return out[whole], frame["pair"][~whole]


def _named_twice(names: pd.DataFrame, header: dict[str, str], file: str, sheet: str,
                 header_row: int) -> pd.DataFrame:
    """``names-twice`` (a warning) on each names row that names a pair (section, line and
    number) an earlier row named otherwise: the first row's names are the ones used.

    Names written alike but for case and spacing are the same names; a second row
    with the same names says nothing new. Without a Line column, an N-S and an E-W
    pair of one number look alike: the problem's fix says to add one.
    """
    said = [" ".join(n.split()).casefold() for n in names["names"].tolist()]
    keys = list(zip(names["section"].tolist(), names["line"].tolist(),
                    names["pair"].tolist(), strict=True))
    first: dict[tuple[object, ...], int] = {}
    later: list[int] = []
    for i, key in enumerate(keys):
        j = first.setdefault(key, i)
        if j != i and said[i] != said[j]:
            later.append(i)
    if not later:
        return combine([])
    at = names.iloc[later]
    rows = pd.DataFrame({"file": file, "sheet": sheet,
                         "row": at.index.to_numpy() + header_row}, index=at.index)
    details = []
    for i in later:
        j = first[keys[i]]
        section, line, pair = keys[i]
        who = " ".join(p for p in (section, LINE_WORDS.get(line, ""),
                                   str(pair)) if p)
        details.append(f"pair {who} is named '{names['names'].iloc[j]}' on row "
                       f"{names.index[j] + header_row}, and those names are used")
    column = header.get("names") or header.get("player1", "names")
    return flag(rows, "names-twice", column, at["names"].astype(object),
                pd.Series(details, index=rows.index, dtype=object), blocking=False)


#: A names sheet's columns of single players: names and federation numbers.
_PLAYER_COLUMNS = ("player1", "id1", "player2", "id2")


def _texts(values: pd.Series) -> list[str]:
    """Each cell as text without surrounding blanks; a missing cell as the empty text."""
    return ["" if _missing(v) else str(v).strip() for v in values.tolist()]


def _missing(cell: Any) -> bool:
    return cell is None or (not isinstance(cell, str) and bool(pd.isna(cell)))


#: A section written as a number that a spreadsheet stored as a float ("1.0").
_NUMBER_END = re.compile(r"\.0$")


def _line_of(text: str) -> str:
    key = header_key(text)
    if key in {"ns", "nspair", "сю", "n"}:
        return "NS"
    if key in {"ew", "we", "зв", "вз", "e"}:
        return "EW"
    return ""


def read_names(path: Path, encoding: str | None = None,
               problems: list[pd.DataFrame] | None = None) -> pd.DataFrame:
    """Read a names file (CSV or workbook): one row per pair.

    Rows whose pair number cannot be read are added to ``problems`` (when given).
    """
    path = Path(path)
    if not path.exists():
        raise UnreadableFileError(f"{path}: names file not found; check the --names path")
    if path.suffix.lower() in EXCEL_SUFFIXES:
        from traveller.read.guard import open_workbook, sheet_cells

        book = open_workbook(path)
        if not book.sheet_names:
            raise UnreadableFileError(f"{path}: the names workbook has no sheet")
        sheet = book.sheet_names[0]
        grid = sheet_cells(book, path, sheet)
    else:
        sheet = ""
        data = path.read_bytes()
        if looks_binary(data):
            raise UnreadableFileError(f"{path}: the names file is a binary file, not text; "
                                      "give a CSV or xlsx names file")
        text = decode(data, encoding, str(path)).replace("\x00", "")
        delimiter = sniff_delimiter(text[:65536])
        grid = [next(csv.reader([line], delimiter=delimiter), []) for line in lines_of(text)]
    return names_from_grid(grid, str(path), problems, file=str(path), sheet=sheet)
