"""What the interchange readers (USEBIO, PBN) have in common: canonical columns, cell
values as the exports write them, and the frames every reader returns.

Below both readers and the dispatcher (:mod:`traveller.read.formats`), which
imports a reader only for its own kind of file.
"""

from __future__ import annotations

import re
from collections.abc import Iterable
from typing import Any

import numpy as np
import pandas as pd

#: Canonical result columns, in the order the readers write them.
RESULT_COLUMNS = ["section", "board", "ns_pair", "ew_pair", "contract", "declarer",
                  "tricks", "lead", "score", "score_ew"]
NAMES_COLUMNS = ["section", "pair", "line", "names"]
NAMES_DTYPES: dict[str, Any] = {
    "published_total": pd.Float64Dtype(), "published_pct": pd.Float64Dtype(),
    "published_place": pd.StringDtype(), "published_boards": pd.Int64Dtype()}

#: Line names seen in results (EN/FR/DE/SV, NL noord-zuid/oost-west, FI pohjoinen-etelä
#: and itä-länsi, SV öst-väst, DA/NO øst-vest, FR/ES est-ouest), punctuation removed.
NS_WORDS = {"ns", "sn", "nz", "zn", "pe", "ep"}
EW_WORDS = {"ew", "we", "ow", "wo", "eo", "oe", "öv", "vö", "øv", "vø", "il", "li"}
_INT = re.compile(r"[+-]?\d+")
_FLOAT = re.compile(r"[+-]?(?:\d+(?:[.,]\d*)?|[.,]\d+)")
_RANKS = "AKQJT98765432"
_SUITS = "SHDC"


def blank(value: object) -> bool:
    """True for a missing value: None, empty text, or PBN's ``-`` / ``?``."""
    return value is None or (isinstance(value, str) and value.strip() in {"", "-", "?"})


def int_or_text(value: str | None) -> int | str | None:
    """A whole number as int; other text kept as written (for the pipeline to report)."""
    if blank(value):
        return None
    text = str(value).strip()
    return int(text) if _INT.fullmatch(text) else text


def float_or_text(value: str | None) -> float | str | None:
    """A number as float (decimal comma accepted); other text kept as written."""
    if blank(value):
        return None
    text = str(value).strip()
    return float(text.replace(",", ".")) if _FLOAT.fullmatch(text) else text


INT_COLUMNS = {"board", "ns_pair", "ew_pair", "tricks", "score", "score_ew"}


def value_for(column: str, text: str | None) -> Any:
    """A value as read, typed by its column: whole numbers, published numbers, or text."""
    if column in INT_COLUMNS:
        return int_or_text(text)
    if column.startswith("published_"):
        return float_or_text(text)
    return text_or_none(text)


def is_number(value: object) -> bool:
    """True for an int or float (not bool)."""
    return isinstance(value, int | float) and not isinstance(value, bool)


def text_or_none(value: str | None) -> str | None:
    """Stripped text, or None when blank."""
    return None if blank(value) else str(value).strip()


def lead_suit_first(card: str | None) -> str | None:
    """A lead card written rank-first (``KH``, ``TD``) turned suit-first (``HK``, ``DT``).

    Suit letters and rank letters do not overlap in English, so the turn is
    unambiguous; anything else is kept as written.
    """
    text = text_or_none(card)
    if text is None:
        return None
    upper = text.upper()
    if len(upper) >= 2 and upper[-1] in _SUITS and upper[:-1] in {*_RANKS, "10"}:
        return upper[-1] + upper[:-1]
    return text


def results_frame(rows: list[dict[str, Any]]) -> pd.DataFrame:
    """Rows of result values -> frame: canonical columns first, extras, then ``row``."""
    extras: list[str] = []
    for record in rows:
        extras.extend(k for k in record if k not in RESULT_COLUMNS and k != "row"
                      and k not in extras)
    columns = [c for c in RESULT_COLUMNS
               if c != "score_ew" or any(r.get(c) is not None for r in rows)] + extras
    frame = pd.DataFrame([[r.get(c) for c in columns] for r in rows],
                         columns=columns, dtype=object)
    frame["row"] = np.asarray([r["row"] for r in rows], dtype=np.int64)
    return frame


def names_frame(records: Iterable[dict[str, Any]]) -> pd.DataFrame:
    """Pair records -> names frame: section, pair (Int64), line, names, published totals."""
    records = list(records)
    extras = [c for c in NAMES_DTYPES if any(c in r for r in records)]
    others: list[str] = []
    for record in records:
        others.extend(k for k in record if k not in NAMES_COLUMNS and k not in NAMES_DTYPES
                      and k not in others)
    frame = pd.DataFrame({c: [r.get(c) for r in records]
                          for c in NAMES_COLUMNS + extras + others}, dtype=object)
    frame["section"] = frame["section"].fillna("").astype(str)
    frame["pair"] = pd.to_numeric(frame["pair"], errors="coerce").astype("Int64")
    frame["line"] = frame["line"].fillna("").astype(str)
    frame["names"] = frame["names"].fillna("").astype(str)
    for column in extras:
        values = frame[column]
        if not isinstance(NAMES_DTYPES[column], pd.StringDtype):
            values = pd.to_numeric(values, errors="coerce")
        frame[column] = values.astype(NAMES_DTYPES[column])
    return frame


def line_of(direction: str | None) -> str:
    """A line as written ("N-S", "Ö-V", "P-E", "EW") -> "NS" / "EW"; "" when not a line."""
    key = re.sub(r"\W", "", (direction or "").casefold())
    return "NS" if key in NS_WORDS else "EW" if key in EW_WORDS else ""


def move_markers(row: dict[str, Any], sides: bool = True) -> None:
    """Move adjusted-score markers written as the score ("A5050", "A+", "Bye") to ``contract``.

    Only when the row has no contract and no numeric score. ``contract`` gets
    the marker, or "NS/EW" ("A+/A-") when the sides differ; with ``sides``
    each side's marker is also kept in ``adjusted_ns`` / ``adjusted_ew``. The
    scores are emptied.
    """
    ns, ew = row.get("score"), row.get("score_ew")
    markers = [v for v in (ns, ew) if isinstance(v, str)]
    if not markers or row.get("contract") is not None or is_number(ns) or is_number(ew):
        return
    if sides:
        row["adjusted_ns"], row["adjusted_ew"] = ns, ew
    row["contract"] = markers[0] if len(set(markers)) == 1 else f"{ns}/{ew}"
    row["score"] = row["score_ew"] = None
