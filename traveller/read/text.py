"""Text files: decoding (UTF-8, cp1250, cp1251) and the cells of delimited text."""

from __future__ import annotations

import csv
import io
import re
from typing import Any

import pandas as pd

from traveller.errors import UnreadableFileError
from traveller.read.headers import HEADER_SCAN_ROWS

# A cell may be as long as the file (a pasted report in one cell): the csv module's
# default limit of 131,072 characters would end the read with a traceback.
csv.field_size_limit(2**31 - 1)


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
    return data.decode("cp1251" if _cyrillic(data) else "cp1250", errors="replace")


_LATIN_NEIGHBOUR = re.compile(rb"(?<=[A-Za-z])[\xc0-\xff]|[\xc0-\xff](?=[A-Za-z])")


def _cyrillic(data: bytes) -> bool:
    """True when the non-ASCII letters of a single-byte text read as Cyrillic.

    Polish in cp1250 has an accented letter here and there inside ASCII words
    ("Rozgrywający"); Cyrillic in cp1251 is written in whole words of bytes
    from 0xC0 up ("Контракт", "БК", "Т3"), which touch no ASCII letter. So
    the test is how many of those bytes stand beside an ASCII letter, whatever
    the share of Latin contracts and numbers in the file.
    """
    high = sum(1 for b in data if b >= 0xC0)
    beside_latin = len(_LATIN_NEIGHBOUR.findall(data))
    return high > 0 and beside_latin * 2 < high


def lines_of(text: str) -> list[str]:
    """The lines of a text file, split on CR, LF or CRLF only.

    ``str.splitlines`` also splits on form feeds, U+0085 and U+2028, which can
    stand inside a cell; those would add phantom rows and shift every later row
    number, so they stay in their cell.
    """
    return _line_feeds(text).removesuffix("\n").split("\n") if text else []


def _line_feeds(text: str) -> str:
    """``text`` with each CR LF and each lone CR written as LF (one string operation)."""
    return text.replace("\r\n", "\n").replace("\r", "\n") if "\r" in text else text


def looks_binary(data: bytes) -> bool:
    """True for a file that is not text: NULs or control bytes beyond a stray one in a cell."""
    head = data[:4096]
    control = sum(head.count(bytes([b])) for b in _CONTROL)
    return head.count(b"\x00") * 100 > len(head) or control * 20 > len(head)


_CONTROL = [*range(0, 9), *range(14, 32), 127]


def sniff_delimiter(sample: str) -> str:
    """The field delimiter of a CSV-like text: comma, semicolon, tab or pipe."""
    lines = [ln for ln in lines_of(sample)[:HEADER_SCAN_ROWS] if ln.strip()]
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


def text_grid(text: str, delimiter: str, data: bytes | None = None) -> pd.DataFrame:
    """All cells of a delimited text as strings, one grid row per line of the file.

    The C parser reads the usual file. A file it cannot read (rows wider than
    the first ones), or where a stray quote made a cell run over several lines,
    is read again line by line, so that no line is swallowed and every row
    number is the line the user sees. ``data``, the bytes ``text`` was decoded
    from by an ASCII-compatible encoding, lets the parser read a plain-ASCII
    file from its bytes (no copy of the text).
    """
    plain = _line_feeds(text)  # old-Mac CR line ends read like any other
    size = len(plain) - plain.endswith("\n")  # the text without its last line end
    count = plain.count("\n", 0, size) + 1 if text else 0  # len(lines_of(text)), without the list
    # (a last empty piece split off here adds a width of 0, which changes no maximum)
    head = plain.split("\n", HEADER_SCAN_ROWS * 50)[:HEADER_SCAN_ROWS * 50] if text else []
    width = max((len(r) for r in csv.reader(head, delimiter=delimiter)), default=1)
    # an ASCII text of as many characters as bytes, with LF line ends: the bytes say the same
    same = plain is text and text.isascii() and len(data or b"") == len(text)
    raw = data if same else None
    try:
        # the C parser costs per column: a very wide file is read line by line below
        if width <= WIDE_TEXT:
            source = (io.StringIO(plain[:size]) if raw is None
                      else io.BytesIO(raw if size == len(text) else raw[:size]))
            grid = pd.read_csv(source, sep=delimiter, header=None,
                               names=range(width), dtype=str, keep_default_na=False,
                               skip_blank_lines=False, engine="c", quoting=csv.QUOTE_MINIMAL)
            if len(grid) == count:
                return grid
    except pd.errors.ParserError:
        pass
    return rectangular([next(csv.reader([line], delimiter=delimiter), [])
                        for line in lines_of(text)])


#: Wider than this, a text file is split with the csv module (pandas costs per column).
WIDE_TEXT = 256


def rectangular(rows: list[list[Any]]) -> pd.DataFrame:
    """A grid from rows of any lengths, short rows padded with blanks."""
    widest = max((len(r) for r in rows), default=0)
    return pd.DataFrame([list(r) + [""] * (widest - len(r)) for r in rows], dtype=object)
