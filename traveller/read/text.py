"""Text files: decoding (UTF-8, cp1250, cp1251) and the cells of delimited text."""

from __future__ import annotations

import csv
import io
from typing import Any

import pandas as pd

from traveller.errors import UnreadableFileError
from traveller.read.headers import HEADER_SCAN_ROWS


def decode(data: bytes, encoding: str | None = None, file: str = "") -> str:
    """Decode a text file: UTF-8 (with or without BOM), else cp1250 or cp1251 by content."""
    if encoding:
        try:
            return data.decode(encoding)
        except (LookupError, UnicodeDecodeError) as exc:
            raise UnreadableFileError(
                f"{file}: cannot decode as {encoding} ({exc}); try another --encoding"
            ) from exc
    try:
        return data.decode("utf-8-sig")
    except UnicodeDecodeError:
        pass
    # Cyrillic text in cp1251 has most letters in 0xC0-0xFF; Polish text in
    # cp1250 is mostly ASCII with a few accented letters.
    letters = sum(1 for b in data if b >= 0xC0)
    ascii_letters = sum(1 for b in data if 0x41 <= b <= 0x7A)
    return data.decode("cp1251" if letters > ascii_letters else "cp1250", errors="replace")


def sniff_delimiter(sample: str) -> str:
    """The field delimiter of a CSV-like text: comma, semicolon, tab or pipe."""
    lines = [ln for ln in sample.splitlines()[:HEADER_SCAN_ROWS] if ln.strip()]
    best, best_score = ",", -1
    for delim in (",", ";", "\t", "|"):
        counts = [next(csv.reader([ln], delimiter=delim)).__len__() for ln in lines]
        multi = [c for c in counts if c > 1]
        if not multi:
            continue
        common = max(set(multi), key=multi.count)
        score = multi.count(common) * common
        if score > best_score:
            best, best_score = delim, score
    return best


def text_grid(text: str, delimiter: str) -> pd.DataFrame:
    """All cells of a delimited text as strings, one grid row per line of the file.

    The C parser reads the usual file. A file it cannot read (rows wider than
    the first ones), or where a stray quote made a cell run over several lines,
    is read again line by line, so that no line is swallowed and every row
    number is the line the user sees.
    """
    lines = text.splitlines()
    width = max((len(r) for r in csv.reader(io.StringIO(text[:65536]), delimiter=delimiter)),
                default=1)
    try:
        grid = pd.read_csv(io.StringIO(text), sep=delimiter, header=None, names=range(width),
                           dtype=str, keep_default_na=False, skip_blank_lines=False,
                           engine="c", quoting=csv.QUOTE_MINIMAL)
        if len(grid) == len(lines):
            return grid
    except pd.errors.ParserError:
        pass
    return rectangular([next(csv.reader([line], delimiter=delimiter), []) for line in lines])


def rectangular(rows: list[list[Any]]) -> pd.DataFrame:
    """A grid from rows of any lengths, short rows padded with blanks."""
    widest = max((len(r) for r in rows), default=0)
    return pd.DataFrame([list(r) + [""] * (widest - len(r)) for r in rows], dtype=object)
