"""The raw-table types every reader returns (the spreadsheet loader and the
USEBIO/PBN readers alike), kept apart so those readers need not import each other.
"""

from __future__ import annotations

from dataclasses import dataclass, field

import pandas as pd

__all__ = ["Loaded", "RawTable"]


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
    #: A second column of a field (two Contract columns): its name -> the field, whose
    #: first column is the one read; the two are compared row by row.
    twin_columns: dict[str, str] = field(default_factory=dict)
    outside: list[tuple[str, int]] = field(default_factory=list)  # (sheet, row) of results
    # found above the header, which no table holds: listed as problems, never dropped unseen


@dataclass
class Loaded:
    """Everything read from one input file."""

    tables: list[RawTable]
    names: pd.DataFrame | None = None
    #: Problems found while reading (a names row whose pair number cannot be read):
    #: problem tables as :func:`traveller.problems.flag` builds them, listed with the rest.
    problems: list[pd.DataFrame] = field(default_factory=list)
