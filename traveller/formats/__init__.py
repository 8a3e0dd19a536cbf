"""Readers for the interchange formats of scoring programs (USEBIO XML, PBN, ...).

Each reader takes a path and returns a list of :class:`traveller.load.RawTable`,
the same shape the spreadsheet loader produces, so every format flows through
the same normalise -> score -> rank pipeline.
"""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path

from traveller.load import RawTable

Reader = Callable[[Path], list[RawTable]]


def reader_for(path: Path) -> Reader | None:
    """The reader for a scoring program's export, or None for a spreadsheet/CSV."""
    return None
