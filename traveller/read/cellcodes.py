"""What each cell of a sheet is (blank, a header word, something), hashed per distinct value.

The header search and the blank-row and empty-column tests look at every
cell. Each column's values are hashed once (``pd.factorize``: pyarrow's
dictionary encoding for text read from CSV) and each distinct value is
looked at once, so a million-row sheet costs a factorize per column rather
than a Python call per cell. Columns of plain numbers (a board, a pair, a
score) are told apart in one vectorised match; a grid held as one block of
objects (a 16,384-column sheet) is hashed in one go rather than per column.
"""

from __future__ import annotations

import re
from typing import Any

import numpy as np
import pandas as pd

from traveller.read.headers import FIELDS, field_for, filled

#: True when some header word has no letter: then every text cell is looked up. (An
#: empty key never matches: field_for looks up no cell whose key is empty.)
_LETTERLESS_KEYS = any(key and not any(ch.isalpha() for ch in key) for key in FIELDS)
_NO_ASCII_LETTER = re.compile(r"[^A-Za-z]*")
#: A cell of decimal digits only ("12", a board or a pair) has no letter, so it is
#: no header word (see above); it is not empty and it is filled.
NUMBER = (False, False, True)


class Part:
    """Some columns' codes (rows x columns) and, per code, what its value is.

    Code -1 (a missing cell) reads the last entry of each lookup; with
    ``numbers``, the entry before it stands for every cell of digits only.
    """

    def __init__(self, codes: np.ndarray, uniques: Any, numbers: bool = False) -> None:
        self.codes = codes
        values = uniques.tolist() if hasattr(uniques, "tolist") else list(uniques)
        known = [NUMBER] * len(values) + [NUMBER] * numbers + [(True, False, False)]
        for i in np.flatnonzero(~_decimal(uniques)):
            known[i] = describe(values[i])
        self.empty, self.word, self.filled = (np.array(k, dtype=bool)
                                              for k in zip(*known, strict=True))


def _decimal(values: Any) -> np.ndarray:
    """Which values are texts of decimal digits only (vectorised for pyarrow text)."""
    if isinstance(getattr(values, "dtype", None), pd.StringDtype) and len(values):
        return pd.Series(values).str.isdecimal().to_numpy(dtype=bool, na_value=False)
    return np.zeros(len(values), dtype=bool)


def column_part(column: pd.Series) -> Part:
    """One column's codes: a column of mostly numbers hashes only its other cells."""
    decimal = _decimal(column.array)
    if decimal.sum() * 2 > len(column):
        rest = np.flatnonzero(~decimal)
        codes, uniques = pd.factorize(column.iloc[rest], use_na_sentinel=True)
        full = np.full(len(column), len(uniques), dtype=np.intp)  # the NUMBER entry
        full[rest] = codes
        return Part(full.reshape(-1, 1), uniques, numbers=True)
    codes, uniques = pd.factorize(column, use_na_sentinel=True)
    return Part(codes.reshape(-1, 1), uniques)


def describe(value: Any) -> tuple[bool, bool, bool]:
    """Is a cell value empty (missing or ""), a known header word, filled (headers.filled)?

    Whitespace is something for the first (a column of spaces is kept) and
    nothing for the last (a row of spaces is blank).
    """
    if isinstance(value, str):
        return value == "", header_word(value), bool(value.strip())
    return bool(pd.isna(value)), False, filled(value)


def header_word(value: str) -> bool:
    """A cell naming a known field; plain ASCII without a letter (numbers) is not looked up."""
    if not _LETTERLESS_KEYS and value.isascii() and _NO_ASCII_LETTER.fullmatch(value):
        return False
    return field_for(value) is not None


#: Up to this many cells, a grid is hashed as one block (a club session's few thousand).
SMALL = 40_000


class Cells:
    """Every cell of a grid as a code into its column's distinct values (see the module)."""

    def __init__(self, grid: pd.DataFrame, wide: int) -> None:
        # a small or a very wide grid as one block of objects: per-column work would dominate
        #: (the grid's cells as that block, when it was made; else None)
        self.values: np.ndarray | None = None
        if grid.shape[1] > wide or grid.size <= SMALL:
            values = self.values = grid.to_numpy(dtype=object)
            codes, uniques = pd.factorize(values.ravel(), use_na_sentinel=True)
            self.parts = [Part(codes.reshape(values.shape), uniques)]
        else:
            self.parts = [column_part(grid.iloc[:, i]) for i in range(grid.shape[1])]

    def keep(self, columns: np.ndarray) -> None:
        """Keep only these columns (a boolean mask over every column)."""
        if self.values is not None:
            self.values = self.values[:, columns]
        kept, start = [], 0
        for part in self.parts:
            width = part.codes.shape[1]
            mask = columns[start:start + width]
            start += width
            if mask.any():
                part.codes = part.codes[:, mask]
                kept.append(part)
        self.parts = kept

    def masks(self, rows: int) -> tuple[np.ndarray, np.ndarray]:
        """Per row: how many cells are known header words, and whether the row is blank."""
        words = np.zeros(rows, dtype=np.int64)
        something = np.zeros(rows, dtype=bool)
        for part in self.parts:
            one = part.codes.shape[1] == 1  # a column: no reduction across columns
            codes = part.codes[:, 0] if one else part.codes
            if part.word.any():
                words += part.word[codes] if one else part.word[codes].sum(axis=1)
            something |= part.filled[codes] if one else part.filled[codes].any(axis=1)
        return words, ~something

    def used(self, below: int | None = None) -> np.ndarray:
        """Per column: does any cell (below row ``below``) hold something (not "")?"""
        out = []
        for part in self.parts:
            codes = part.codes if below is None else part.codes[below + 1:]
            out.append(~part.empty[codes].all(axis=0) if len(codes)
                       else np.zeros(codes.shape[1], dtype=bool))
        return np.concatenate(out) if out else np.zeros(0, dtype=bool)
