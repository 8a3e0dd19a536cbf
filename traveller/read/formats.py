"""Readers for the interchange formats of scoring programs (USEBIO XML, PBN, ...).

Each reader takes a path and returns a list of :class:`traveller.read.load.RawTable`,
the same shape the spreadsheet loader produces, so every format flows through
the same normalise -> score -> rank pipeline.

Every reader writes the canonical columns it knows (``section``, ``board``,
``ns_pair``, ``ew_pair``, ``contract``, ``declarer``, ``tricks``, ``lead``,
``score``, ``score_ew``, ``row``) and keeps the values the program published
beside each result as ``published_*`` columns (``published_ns_mp``,
``published_ew_mp``, ``published_ns_pct``, ``published_ew_pct``,
``published_ns_imp``, ``published_ew_imp``, ``published_datum``), so that a
golden test can compare what traveller computes with what was published.
Adjusted and artificial results are kept as rows with their marker text in
``contract`` exactly as the file writes it (``A6040``, ``A+``, ``Bye``).
"""

from __future__ import annotations

import re
from collections.abc import Callable
from pathlib import Path

from traveller.read.raw import RawTable

Reader = Callable[[Path], list[RawTable]]

SNIFF_BYTES = 4096
_FIRST_ELEMENT = re.compile(rb"<([A-Za-z_][\w.:-]*)")


def reader_for(path: Path) -> Reader | None:
    """The reader for a scoring program's export, or None for a spreadsheet/CSV.

    By suffix first (``.pbn``; ``.xml``/``.usebio`` whose root element is
    ``USEBIO``), then by the first bytes of the file (``<?xml ... <USEBIO`` or
    a PBN ``% PBN`` / ``[Event`` opening).

    >>> reader_for(Path("session.csv")) is None  # doctest: +SKIP
    True
    """
    path = Path(path)
    kind = path.suffix.lower()
    if kind not in (".pbn", ".usebio"):
        head = _head(path)
        kind = (".usebio" if _is_usebio(head) else
                ".pbn" if kind != ".xml" and _is_pbn(head) else "")
    if kind == ".pbn":  # each reader is imported only for its own kind of file
        from traveller.read.pbn import read_pbn

        return read_pbn
    if kind == ".usebio":
        from traveller.read.usebio import read_usebio

        return read_usebio
    return None


def _head(path: Path) -> bytes:
    try:
        with open(path, "rb") as handle:
            return handle.read(SNIFF_BYTES)
    except OSError:
        return b""


def _is_usebio(head: bytes) -> bool:
    """True when the first element of an XML text is <USEBIO>."""
    text = head.removeprefix(b"\xef\xbb\xbf").lstrip()
    if not text.startswith(b"<"):
        return False
    # skip the declaration, comments and the DOCTYPE: they start with <? or <!
    match = _FIRST_ELEMENT.search(re.sub(rb"<[?!][^>]*>", b"", text))
    return match is not None and match.group(1).upper() == b"USEBIO"


def _is_pbn(head: bytes) -> bool:
    """True when a text opens like a PBN file (% PBN header or a first [Event/[Board tag)."""
    text = head.removeprefix(b"\xef\xbb\xbf").decode("latin-1")
    if re.match(r"\s*%\s*PBN\b", text):
        return True
    for line in text.splitlines():
        stripped = line.strip()
        if stripped and not stripped.startswith("%"):
            return bool(re.match(r'\[(Event|Board)\s+"', stripped))
    return False


# --------------------------------------------------------------------------
# Value helpers shared by the readers
