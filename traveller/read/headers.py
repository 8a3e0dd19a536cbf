"""Header cells: which canonical field a column is, and titles that name a board.

Matching is on a key with case, spaces and punctuation removed, so "N-S",
"n/s" and "NS" are one alias (the aliases are in :mod:`traveller.schema`).
"""

from __future__ import annotations

import re
import unicodedata
from functools import lru_cache
from typing import Any

import numpy as np

from traveller.schema import HEADER_ALIASES, NAMES_ALIASES

#: How many rows of a sheet are searched for a header (names sheets, delimiters).
HEADER_SCAN_ROWS = 40


def header_key(text: object) -> str:
    """Case- and punctuation-insensitive key of a header cell ("N-S" -> "ns")."""
    return _key(str(text))


@lru_cache(maxsize=8192)
def _key(text: str) -> str:
    """:func:`header_key` of a text, worked out once per text (a session asks for the
    same few headers over a hundred times)."""
    folded = unicodedata.normalize("NFKC", text).casefold()
    return "".join(ch for ch in folded if ch.isalnum())


def alias_index(aliases: dict[str, list[str]]) -> dict[str, str]:
    """Header key -> field, from field -> the header words that name it."""
    index: dict[str, str] = {}
    for name, names in aliases.items():
        for alias in names:
            key = header_key(alias)
            if index.setdefault(key, name) != name:
                raise AssertionError(f"header alias {alias!r} names both {index[key]} and {name}")
    return index


#: Hand-kept (ACBL-style) traveller columns: the level made, the undertricks, and the
#: score split by sign and side ("NS +", "EW +", "N-S -").
LAYOUT_ALIASES: dict[str, list[str]] = {
    "made": ["made", "madelevel", "levelmade", "making"],
    "down": ["down", "set", "undertricks", "off"],
    "made_down": ["made/down", "madeordown", "madeset", "madedn", "md"],
    # twins of what the board number or the score's sign says
    "score_side": ["side", "dir", "scoreside", "scoredby", "scorefor", "strona", "сторона"],
    "vul": ["vul", "vuln", "vulnerability", "vulnerable", "zone", "założenia", "zalozenia",
            "zał", "zal", "strefa", "зона", "уязвимость", "вузоне"],
    "dealer": ["dealer", "dlr", "dealt", "rozdający", "rozdajacy", "сдающий", "раздающий"],
    # the contract written in two columns, its level and its strain ("4", "S"), read as one
    "level": ["level", "lvl", "contractlevel", "wysokość", "wysokosc", "poziom", "уровень"],
    "strain": ["suit", "strain", "denomination", "denom", "den", "trumps", "trump", "kolor",
               "miano", "масть", "деноминация", "козырь"],
    # the contract's doubling in a column of its own beside it ("4S" and "X")
    "doubled": ["dbl", "double", "doubled", "dbld", "x", "x/xx", "dbl/rdbl", "dbl/redbl",
                "doubled/redoubled", "kontra", "k/rk", "kontra/rekontra", "контра", "к/рк",
                "контра/реконтра"],
}
SPLIT_SCORES = ("ns_plus", "ns_minus", "ew_plus", "ew_minus")
LAYOUT_FIELDS = (*LAYOUT_ALIASES, *SPLIT_SCORES)
_SPLIT_SCORE = re.compile(r"^\s*(?:pts?|points|score)?\s*(n\W*s|e\W*w)\s*(\+|-|−|plus|minus)\s*$")

#: A sheet's own scores of each line, as the program (or the scorer) that made it worked
#: them out: kept beside the result as ``published_*`` and compared with ours, as a PBN
#: or USEBIO file's are (traveller.score.published). A bare "MP" or "%" names no line.
PUBLISHED_ALIASES: dict[str, list[str]] = {
    "published_ns_mp": ["nsmp", "mpns", "nsmps", "nsmatchpoints", "matchpointsns",
                        "nsmatchpts"],
    "published_ew_mp": ["ewmp", "mpew", "ewmps", "ewmatchpoints", "matchpointsew",
                        "ewmatchpts"],
    "published_ns_pct": ["nspct", "pctns", "nspercent", "nspercentage", "percentns"],
    "published_ew_pct": ["ewpct", "pctew", "ewpercent", "ewpercentage", "percentew"],
    "published_ns_imp": ["nsimp", "nsimps", "impns", "impsns"],
    "published_ew_imp": ["ewimp", "ewimps", "impew", "impsew"],
    "published_datum": ["datum"],
}
#: "N-S %", "% EW": a percentage column by its sign (the sign is no letter of a key).
_PERCENT = re.compile(r"^\s*(?:%\s*(n\W*s|e\W*w)|(n\W*s|e\W*w)\s*%)\s*$")

FIELDS = alias_index({**HEADER_ALIASES, **LAYOUT_ALIASES, **PUBLISHED_ALIASES})
NAME_FIELDS = alias_index(NAMES_ALIASES)
_PAIR_WORDS = ("pair", "para", "par", "пар", "номер")
_LINE_SUFFIX = {"ns": "ns_pair", "сю": "ns_pair", "ew": "ew_pair", "we": "ew_pair",
                "зв": "ew_pair", "вз": "ew_pair"}
_BOARD_TITLE = re.compile(
    r"(?:board|bd|brd|rozdanie|rozd|сдача|коробка|boards?)\s*(?:no\.?|nr\.?|#|№|:)?\s*:?\s*(\d{1,4})\b",
    re.IGNORECASE,
)


def field_for(header: object, index: dict[str, str] = FIELDS) -> str | None:
    """Canonical field a header names, or None ("Para NS" -> "ns_pair")."""
    if index is FIELDS and type(header) is str:
        return _traveller_field(header)
    return _field_in(header, index)


@lru_cache(maxsize=8192)
def _traveller_field(header: str) -> str | None:
    """:func:`field_for` a text among the traveller's fields, worked out once per text."""
    return _field_in(header, FIELDS)


def _field_in(header: object, index: dict[str, str]) -> str | None:
    key = header_key(header)
    if not key:
        return None
    split = _SPLIT_SCORE.match(unicodedata.normalize("NFKC", str(header)).casefold())
    if index is FIELDS and split:
        side = "ns" if split.group(1).startswith("n") else "ew"
        return f"{side}_{'plus' if split.group(2) in ('+', 'plus') else 'minus'}"
    percent = _PERCENT.match(str(header).casefold()) if index is FIELDS else None
    if percent:
        return f"published_{'ns' if (percent.group(1) or percent.group(2))[0] == 'n' else 'ew'}_pct"
    if key in index:
        return index[key]
    if index is FIELDS and any(w in key for w in _PAIR_WORDS):
        for suffix, name in _LINE_SUFFIX.items():
            if key.endswith(suffix):
                return name
    return None


def board_in_title(text: object) -> int | None:
    """Board number stated in a title cell or sheet name ("Коробка: 8" -> 8)."""
    match = _BOARD_TITLE.search(str(text))
    return int(match.group(1)) if match else None


def filled(cell: Any) -> bool:
    """True when a cell holds something (not None, NaN or blank text)."""
    if cell is None:
        return False
    if isinstance(cell, float) and np.isnan(cell):
        return False
    return not (isinstance(cell, str) and not cell.strip())
