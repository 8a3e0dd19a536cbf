"""Reading contracts, seats, results and leads written in any supported notation.

Every parser works on the distinct values of a column (a session has a few
hundred distinct contracts however many rows it has), with one anchored
regular expression per notation built from the tables in
:mod:`traveller.schema`. Notation is detected per sheet from its own content;
a sheet that reads equally well two different ways, or nearly as well (the
cells only one notation reads fewer than those the two read differently),
is refused, never guessed.
"""

from __future__ import annotations

import re
from collections.abc import Callable, Iterable, Sequence
from dataclasses import dataclass
from typing import Any, TypeVar

import numpy as np
import pandas as pd

from traveller.schema import GLYPH_REPAIR, NOTATIONS, SEATS, STRAINS, Notation
from traveller.tidy import text as tx
from traveller.tidy.cells import int_array

T = TypeVar("T", pd.Series, pd.DataFrame)

_CLEAN = str.maketrans({**GLYPH_REPAIR, "×": "X", "−": "-", "–": "-", "\u00a0": " "})
#: A director's adjusted score (A+, A60/40, AVE-, NP, ...), as cleaned text.
ADJUSTED = re.compile(r"^(A[+=\-]{0,2}|A\d{2,4}(/\d{2,3})?|\d{2}%-\d{2}%|AVE[+\-]?|NP|\^.*|TD)$")


def per_unique(values: pd.Series, fn: Callable[[pd.Series], T]) -> T:
    """Apply a column function to the distinct values only, then spread the result back.

    A session has a few hundred distinct contracts, leads or pair numbers
    however many rows it has, so string work costs per distinct value.
    Missing cells give missing results.
    """
    codes, uniques = tx.distinct(values)
    mapped = fn(pd.Series(uniques, dtype=object))
    spread = mapped.reindex(codes)
    spread.index = values.index
    return spread  # type: ignore[return-value]


def cell_text(values: pd.Series) -> pd.Series:
    """Cells as stripped text; numbers lose a trailing .0 (Excel stores 12 as 12.0); blank -> NA."""
    if isinstance(values.dtype, pd.CategoricalDtype):
        codes, uniques = tx.distinct(values)
        texts = tx.spread_array(codes, [tx.cell_text(u) for u in uniques], "string")
    else:  # cell by cell: hashing would take 0 for False and 0.0 for -0.0
        texts = pd.array([tx.cell_text(v) for v in values.tolist()], dtype="string")
    return pd.Series(texts, index=values.index)


_SPACE = re.compile(r"\s+")


def cleaned_texts(values: Sequence[object]) -> list[str | None]:
    """:func:`clean` of each value of a list (None stays None)."""
    texts = [None if (t := tx.as_str(v)) is None else t.translate(_CLEAN) for v in values]
    return [None if t is None else _SPACE.sub("", t) for t in tx.upper(texts)]


def clean(values: pd.Series) -> pd.Series:
    """Upper-case text with suit-font damage repaired and all white space removed.

    Returned as a categorical of the cleaned texts, so that the parsers after it
    work per distinct text without hashing every row again.
    """
    codes, uniques = tx.distinct(values)
    position: dict[str, int] = {}
    inner = [-1 if t is None else position.setdefault(t, len(position))
             for t in cleaned_texts(uniques)]
    remapped = np.append(np.asarray(inner, dtype=np.int64), -1)[codes]
    dtype = tx.text_categories(list(position), "string")
    # the codes come from ``position`` itself: nothing to validate
    return pd.Series(pd.Categorical.from_codes(remapped, dtype=dtype, validate=False),
                     index=values.index)


def _alternatives(tokens: Iterable[str]) -> str:
    return "|".join(re.escape(t) for t in sorted(tokens, key=len, reverse=True))


@dataclass(frozen=True)
class _Patterns:
    contract: re.Pattern[str]
    lead: re.Pattern[str]


def _patterns(n: Notation) -> _Patterns:
    seat, strain = _alternatives(n.seats), _alternatives(n.strains)
    dbl, rank = _alternatives(n.doubles), _alternatives(n.ranks)
    contract = re.compile(
        rf"^(?P<pre>{seat})?(?P<level>[1-7])(?P<strain>{strain})(?P<dbl>{dbl})?"
        rf"(?P<post>{seat})?(?(dbl)|(?P<dbl2>{dbl})?)(?P<res>=|M|[+-]\d{{1,2}})?$",
        re.ASCII,  # a result in other digits (+١) is listed as unreadable, never a crash
    )
    suits = _alternatives(t for t, s in n.strains.items() if s != "NT")
    lead = re.compile(rf"^(?:(?P<s1>{suits})(?P<r1>{rank})|(?P<r2>{rank})(?P<s2>{suits}))$")
    return _Patterns(contract, lead)


PATTERNS = {name: _patterns(n) for name, n in NOTATIONS.items()}

CONTRACT_PARTS = ["level", "strain", "doubled", "seat", "rel"]


def parse_contracts(cleaned: pd.Series, notation: str) -> pd.DataFrame:
    """Parse cleaned contract text into level/strain/doubled/seat/rel columns.

    ``level`` is 0 for a passed-out board and <NA> where the text does not
    parse; ``seat`` is a declarer written inside the contract ("4SN",
    "N4SX-3") and ``rel`` a result written inside it ("3NT=", "4S+1").

    >>> parse_contracts(clean(pd.Series(["4Px-2"])), "pl").iloc[0].tolist()
    [4, 'S', 1, <NA>, -2]
    """
    codes, uniques = tx.distinct(cleaned)
    if not uniques:
        out = _empty_parts(len(cleaned))
        out.index = cleaned.index
        return out
    arrays = _parts_of(codes, uniques, notation)
    return pd.DataFrame({
        name: tx.spread_array(arrays[name], _PART_WORDS[name], "string") if dtype == "string"
        else int_array(arrays[name], dtype)
        for name, dtype in zip(CONTRACT_PARTS, _PART_DTYPES, strict=True)
    }, index=cleaned.index)


_PART_DTYPES = ["Int8", "string", "Int8", "string", "Int8"]
#: The words of the text parts, whose arrays hold positions in them.
_PART_WORDS = {"strain": STRAINS, "seat": SEATS}


def contract_arrays(cleaned: pd.Series, notation: str) -> dict[str, np.ndarray]:
    """The columns of :func:`parse_contracts` as plain arrays, worked out per distinct text.

    ``level``, ``doubled`` and ``rel`` as floats (NaN: none), ``strain`` and
    ``seat`` as positions in STRAINS and SEATS (-1: none).
    """
    return _parts_of(*tx.distinct(cleaned), notation)


def _parts_of(codes: np.ndarray, uniques: list[Any], notation: str) -> dict[str, np.ndarray]:
    """:func:`contract_arrays` from the column's distinct texts and each row's code."""
    n = NOTATIONS[notation]
    parsed = (list(zip(*(contract_parts(tx.as_str(u), n) for u in uniques), strict=True))
              or [()] * len(CONTRACT_PARTS))
    return {name: tx.spread(codes, [-1 if v is None else _PART_WORDS[name].index(v)
                                    for v in values],
                            -1, np.int64) if dtype == "string" else
            tx.spread(codes, [np.nan if v is None else v for v in values], np.nan, np.float64)
            for name, values, dtype in zip(CONTRACT_PARTS, parsed, _PART_DTYPES, strict=True)}


def _empty_parts(n: int) -> pd.DataFrame:
    return pd.DataFrame({c: pd.Series(pd.NA, index=range(n), dtype="object")
                         for c in CONTRACT_PARTS})


Parts = tuple[int | None, str | None, int | None, str | None, int | None]


def contract_parts(text: str | None, n: Notation) -> Parts:
    """(level, strain, doubled, seat, rel) of one cleaned contract text; None where absent."""
    if text is None:
        return None, None, None, None, None
    found = PATTERNS[n.name].contract.match(text)
    if found is None:
        level = doubled = rel = None
        strain = seat = None
    else:
        level = int(found["level"])
        strain = n.strains[found["strain"]]
        dbl = found["dbl"] if found["dbl"] is not None else found["dbl2"]
        doubled = 0 if dbl is None else n.doubles[dbl]
        seat_token = found["pre"] if found["pre"] is not None else found["post"]
        seat = None if seat_token is None else n.seats[seat_token]
        res = found["res"]
        rel = None if res is None else 0 if res in ("=", "M") else int(res)
    if text in n.passes:
        level, doubled = 0, 0
    return level, strain, doubled, seat, rel


#: Declarers written as words, in any notation (the words cannot be mistaken).
SEAT_WORDS = {
    **dict.fromkeys(["NORTH", "NORD", "NOORD", "NORTE", "PÓŁNOC", "POLNOC", "СЕВЕР"], "N"),
    **dict.fromkeys(["EAST", "EST", "OST", "OOST", "ESTE", "WSCHÓD", "WSCHOD", "ВОСТОК"], "E"),
    **dict.fromkeys(["SOUTH", "SUD", "SÜD", "ZUID", "SUR", "POŁUDNIE", "POLUDNIE", "ЮГ"], "S"),
    **dict.fromkeys(["WEST", "OUEST", "OVEST", "OESTE", "ZACHÓD", "ZACHOD", "ЗАПАД"], "W"),
}


def parse_seats(values: pd.Series, notation: str) -> pd.Series:
    """Declarer column -> N/E/S/W (<NA> where blank or unknown); words such as North too."""
    return pd.Series(tx.spread_array(seat_codes(values, notation), SEATS, "string"),
                     index=values.index)


def seat_codes(values: pd.Series, notation: str) -> np.ndarray:
    """:func:`parse_seats` as positions in SEATS (-1: blank or unknown), per distinct cell."""
    seats = NOTATIONS[notation].seats
    codes, uniques = tx.distinct(values)
    words = tx.upper([None if (t := tx.as_str(u)) is None else t.strip() for u in uniques])
    found = [seats.get(c) if c is not None and c in seats else
             None if w is None else SEAT_WORDS.get(w)
             for c, w in zip(cleaned_texts(uniques), words, strict=True)]
    return tx.spread(codes, [-1 if f is None else SEATS.index(f) for f in found], -1, np.int64)


#: What a doubling column's cell says, by its text without case, spaces or dots: 0 not
#: doubled, 1 doubled, 2 redoubled (English, Polish and Russian; Cyrillic х looks like x).
DOUBLE_WORDS = {
    **dict.fromkeys(["0", "NO", "N", "NONE", "UNDOUBLED", "NIE", "НЕТ"], 0),
    **dict.fromkeys(["1", "X", "*", "D", "DB", "DBL", "DOUBLE", "DOUBLED", "Y", "YES", "K",
                     "KTR", "KONTRA", "TAK", "К", "КОНТРА", "Х", "×", "ДА"], 1),
    **dict.fromkeys(["2", "XX", "**", "R", "RD", "RDBL", "REDBL", "REDOUBLE", "REDOUBLED",
                     "RK", "REKONTRA", "РК", "РЕКОНТРА", "ХХ", "××"], 2),
}
#: Cells of a doubling column that say nothing: blank, or a dash.
_NO_DOUBLE = {"", "-", "–", "—"}
_NUMBER = re.compile(r"[012](?:\.0*)?")


def double_codes(values: pd.Series) -> np.ndarray:
    """A doubling column's cells as 0 (not doubled), 1 (doubled) or 2 (redoubled); NaN
    where the cell says nothing (blank, ``-``), -1 where it cannot be read; per distinct
    cell. A spreadsheet's ``1.0`` reads as 1."""
    codes, uniques = tx.distinct(values)
    found: list[float] = []
    for u in uniques:
        text = tx.cell_text(u)
        key = "" if text is None else re.sub(r"\s", "", text).upper()
        if _NUMBER.fullmatch(key):  # (0, 1, 2; a spreadsheet's 1.0)
            key = key[0]
        key = key.replace(".", "")
        found.append(np.nan if key in _NO_DOUBLE else float(DOUBLE_WORDS.get(key, -1)))
    return tx.spread(codes, found, np.nan, np.float64)


#: A declaring side written where a seat belongs ("NS", "N/S", "E-W", "СЮ"), as 0 (N-S)
#: or 1 (E-W), by its letters without case, spaces or punctuation.
SIDE_WORDS = {**dict.fromkeys(["NS", "SN", "СЮ", "ЮС"], 0),
              **dict.fromkeys(["EW", "WE", "ЗВ", "ВЗ"], 1)}


def side_codes(values: pd.Series) -> np.ndarray:
    """Cells that name a declaring side rather than a seat, as 0 (N-S) or 1 (E-W); -1 for
    any other cell; per distinct cell."""
    codes, uniques = tx.distinct(values)
    found = [SIDE_WORDS.get(re.sub(r"\W", "", t).upper(), -1) if (t := tx.cell_text(u))
             else -1 for u in uniques]
    return tx.spread(codes, found, -1, np.int64)


def parse_leads(values: pd.Series, notation: str) -> pd.Series:
    """Opening leads ("SA", "♠A", "H10", "¨В") -> suit letter + rank ("SA", "HT", "DJ")."""
    codes, uniques = tx.distinct(clean(values))
    return pd.Series(tx.spread_array(codes, _leads(uniques, notation), "string"),
                     index=values.index)


def read_leads(values: pd.Series, notation: str) -> tuple[Any, np.ndarray]:
    """Each row's lead as :func:`parse_leads` reads it, else its cell as typed; and bad cells.

    Returns (a string array: the lead, or the stripped cell where it reads as
    none; True where a non-blank cell reads as no lead), worked out once per
    distinct cell.
    """
    codes, uniques = tx.distinct(values)
    typed = [tx.cell_text(u) for u in uniques]
    leads = _leads(cleaned_texts(uniques), notation)
    shown = [t if lead is None else lead for t, lead in zip(typed, leads, strict=True)]
    bad = [t is not None and lead is None for t, lead in zip(typed, leads, strict=True)]
    return tx.spread_array(codes, shown, "string"), tx.spread(codes, bad, False, bool)


def _leads(cleaned: list[str | None], notation: str) -> list[str | None]:
    """The lead (suit letter + rank) of each cleaned text; None where it reads as none."""
    n = NOTATIONS[notation]
    pattern = PATTERNS[notation].lead
    leads: list[str | None] = []
    for text in cleaned:
        found = None if text is None else pattern.match(text)
        if found is None:
            leads.append(None)
            continue
        suit = found["s1"] if found["s1"] is not None else found["s2"]
        rank = found["r1"] if found["r1"] is not None else found["r2"]
        leads.append(n.strains[suit] + n.ranks[rank])
    return leads


def adjusted(text: object) -> bool:
    """True when one cleaned cell holds a director's adjusted score (A+, A60/40, NP, ...)."""
    return isinstance(text, str) and ADJUSTED.fullmatch(text) is not None


def is_adjusted(cleaned: pd.Series) -> pd.Series:
    """True where a cell holds a director's adjusted score (A+, A60/40, AVE-, NP, ...)."""
    return pd.Series([adjusted(t) for t in cleaned.tolist()], index=cleaned.index, dtype=bool)


def _distinct(values: pd.Series | None) -> dict[str, int]:
    """The distinct non-blank texts of a column, in order of appearance, with how many
    cells hold each."""
    if values is None:
        return {}
    codes, uniques = tx.distinct(values)
    used, first, counts = np.unique(codes[codes >= 0], return_index=True, return_counts=True)
    out: dict[str, int] = {}
    for at in np.argsort(first).tolist():
        text = tx.as_str(uniques[used[at]])
        if text is not None and text != "":
            out[text] = out.get(text, 0) + int(counts[at])
    return out


Cells = tuple[pd.Series, pd.Series | None, pd.Series | None]  # contracts, seats, leads


@dataclass(frozen=True)
class _Reading:
    """How one notation reads the session's distinct cells."""

    parts: dict[str, Parts]  # contract -> its parts
    contracts: set[str]  # contracts it reads
    seats: set[str]  # declarers it reads
    leads: set[str]  # leads it reads


def detect(contracts: pd.Series, seats: pd.Series | None = None,
           leads: pd.Series | None = None) -> tuple[str | None, list[str]]:
    """Pick the notation a sheet is written in, from its cleaned cells.

    Each notation scores the distinct contracts, declarers and leads it can
    read. Returns ``(name, [])`` when one notation reads the most (or all the
    best ones read every contract identically), or ``(None, candidates)`` when
    two read the sheet equally well but differently, or one reads it barely better
    (see :func:`_close_rival`), which the caller must refuse.
    """
    return detect_each([(contracts, seats, leads)])[0]


def detect_each(sheets: list[Cells]) -> list[tuple[str | None, list[str]]]:
    """:func:`detect` for many sheets, parsing each distinct value once for all of them."""
    distinct = [(_distinct(c), _distinct(s), _distinct(x)) for c, s, x in sheets]
    every = [list(dict.fromkeys(t for d in distinct for t in d[k])) for k in range(3)]
    contracts = [c for c in every[0] if not adjusted(c)]
    tables = {}
    for name, n in NOTATIONS.items():
        parts = {c: contract_parts(c, n) for c in contracts}
        tables[name] = _Reading(
            parts, {c for c, p in parts.items() if p[0] is not None},
            {s for s in every[1] if s in n.seats},
            {t for t in every[2] if PATTERNS[name].lead.fullmatch(t)},
        )
    return [_decide(contracts, seats, leads, tables) for contracts, seats, leads in distinct]


def _decide(contracts: dict[str, int], seats: dict[str, int], leads: dict[str, int],
            tables: dict[str, _Reading]) -> tuple[str | None, list[str]]:
    contracts = {c: k for c, k in contracts.items() if not adjusted(c)}
    if not contracts and not seats:
        return "en", []
    counts = {name: (sum(c in t.contracts for c in contracts) + sum(s in t.seats for s in seats)
                     + sum(x in t.leads for x in leads))
              for name, t in tables.items()}
    best = max(counts.values())
    candidates = [name for name, c in counts.items() if c == best]
    readings = [[tables[c].parts[x] for x in contracts] for c in candidates]
    if not all(r == readings[0] for r in readings[1:]):
        return None, candidates
    rival = _close_rival(candidates[0], contracts, leads, tables)
    return (None, [candidates[0], rival]) if rival else (candidates[0], [])


def _close_rival(chosen: str, contracts: dict[str, int], leads: dict[str, int],
                 tables: dict[str, _Reading]) -> str | None:
    """Another notation the sheet reads almost as well as ``chosen`` but differently.

    The choice counts distinct cells, so one stray cell can tip it: an English
    sheet of ``2C`` and ``5C`` with one typed ``3P`` reads more distinct
    contracts in Polish, where ``2C`` is two hearts. When the cells only the
    chosen notation reads (counted in rows) are fewer than the rows the two
    read differently, the sheet reads two ways and is refused, never guessed.
    """
    mine = tables[chosen]
    for name, other in tables.items():
        if name == chosen:
            continue
        differ = sum(k for c, k in contracts.items() if c in mine.contracts
                     and c in other.contracts and mine.parts[c] != other.parts[c])
        if not differ:
            continue
        only = (sum(k for c, k in contracts.items()
                    if c in mine.contracts and c not in other.contracts)
                + sum(k for x, k in leads.items() if x in mine.leads and x not in other.leads))
        if only < differ:
            return name
    return None
