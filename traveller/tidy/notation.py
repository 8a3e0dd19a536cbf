"""Reading contracts, seats, results and leads written in any supported notation.

Every parser works on the distinct values of a column (a session has a few
hundred distinct contracts however many rows it has), with one anchored
regular expression per notation built from the tables in
:mod:`traveller.schema`. Notation is detected per sheet from its own content;
a sheet that reads equally well two different ways is refused, never guessed.
"""

from __future__ import annotations

import re
from collections.abc import Callable, Iterable
from dataclasses import dataclass
from typing import TypeVar

import numpy as np
import pandas as pd

from traveller.schema import GLYPH_REPAIR, NOTATIONS, Notation

T = TypeVar("T", pd.Series, pd.DataFrame)

_CLEAN = str.maketrans({**GLYPH_REPAIR, "×": "X", "−": "-", "–": "-", "\u00a0": " "})
#: A director's adjusted score (A+, A60/40, AVE-, NP, ...), as cleaned text.
ADJUSTED = re.compile(r"^(A[+=\-]{0,2}|A\d{2,4}(/\d{2,3})?|\d{2}%-\d{2}%|AVE[+\-]?|NP|\^.*|TD)$")


def distinct(values: pd.Series) -> tuple[np.ndarray, pd.Index | np.ndarray]:
    """(code per row, distinct values); -1 codes a missing cell.

    A categorical column is already coded, so this costs nothing for it;
    any other column is hashed once.
    """
    if isinstance(values.dtype, pd.CategoricalDtype):
        return values.cat.codes.to_numpy(), values.cat.categories
    return pd.factorize(values, use_na_sentinel=True)


def per_unique(values: pd.Series, fn: Callable[[pd.Series], T]) -> T:
    """Apply a column function to the distinct values only, then spread the result back.

    A session has a few hundred distinct contracts, leads or pair numbers
    however many rows it has, so string work costs per distinct value.
    Missing cells give missing results.
    """
    codes, uniques = distinct(values)
    mapped = fn(pd.Series(uniques, dtype=object))
    spread = mapped.reindex(codes)
    spread.index = values.index
    return spread  # type: ignore[return-value]


def cell_text(values: pd.Series) -> pd.Series:
    """Cells as stripped text; numbers lose a trailing .0 (Excel stores 12 as 12.0); blank -> NA."""
    text = values.astype("string").str.strip()
    text = text.str.replace(r"^([+-]?\d+)\.0+$", r"\1", regex=True)
    return text.mask(text == "")


def _clean_unique(values: pd.Series) -> pd.Series:
    text = values.astype("string").str.translate(_CLEAN).str.upper()
    return text.str.replace(r"\s+", "", regex=True)


def clean(values: pd.Series) -> pd.Series:
    """Upper-case text with suit-font damage repaired and all white space removed.

    Returned as a categorical of the cleaned texts, so that the parsers after it
    work per distinct text without hashing every row again.
    """
    codes, uniques = distinct(values)
    cleaned = _clean_unique(pd.Series(uniques, dtype=object))
    inner, texts = pd.factorize(cleaned, use_na_sentinel=True)
    remapped = np.where(codes >= 0, np.append(inner, -1)[codes], -1)
    categories = pd.Index(texts, dtype="string") if len(texts) else pd.Index([], dtype="string")
    return pd.Series(pd.Categorical.from_codes(remapped, categories=categories),
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
        rf"(?P<post>{seat})?(?(dbl)|(?P<dbl2>{dbl})?)(?P<res>=|M|[+-]\d{{1,2}})?$"
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
    codes, uniques = distinct(cleaned)
    table = _parse_unique(pd.Series(uniques, dtype="string"), NOTATIONS[notation])
    out = table.iloc[codes].reset_index(drop=True) if len(table) else _empty_parts(len(codes))
    out.loc[codes < 0] = pd.NA
    out.index = cleaned.index
    return out


def _empty_parts(n: int) -> pd.DataFrame:
    return pd.DataFrame({c: pd.Series(pd.NA, index=range(n), dtype="object")
                         for c in CONTRACT_PARTS})


def _parse_unique(uniques: pd.Series, n: Notation) -> pd.DataFrame:
    parts = uniques.str.extract(PATTERNS[n.name].contract)
    passed = uniques.isin(n.passes)
    seat = parts["pre"].fillna(parts["post"]).map(n.seats, na_action="ignore")
    dbl = parts["dbl"].fillna(parts["dbl2"]).map(n.doubles, na_action="ignore")
    rel = parts["res"].replace({"=": "0", "M": "0"})
    out = pd.DataFrame({
        "level": pd.to_numeric(parts["level"]).astype("Int8"),
        "strain": parts["strain"].map(n.strains, na_action="ignore").astype("string"),
        "doubled": dbl.fillna(0).where(parts["level"].notna()).astype("Int8"),
        "seat": seat.astype("string"),
        "rel": pd.to_numeric(rel).astype("Int8"),
    })
    out.loc[passed, "level"] = 0
    out.loc[passed, "doubled"] = 0
    return out


#: Declarers written as words, in any notation (the words cannot be mistaken).
SEAT_WORDS = {
    **dict.fromkeys(["NORTH", "NORD", "NOORD", "NORTE", "PÓŁNOC", "POLNOC", "СЕВЕР"], "N"),
    **dict.fromkeys(["EAST", "EST", "OST", "OOST", "ESTE", "WSCHÓD", "WSCHOD", "ВОСТОК"], "E"),
    **dict.fromkeys(["SOUTH", "SUD", "SÜD", "ZUID", "SUR", "POŁUDNIE", "POLUDNIE", "ЮГ"], "S"),
    **dict.fromkeys(["WEST", "OUEST", "OVEST", "OESTE", "ZACHÓD", "ZACHOD", "ЗАПАД"], "W"),
}


def parse_seats(values: pd.Series, notation: str) -> pd.Series:
    """Declarer column -> N/E/S/W (<NA> where blank or unknown); words such as North too."""
    seats = NOTATIONS[notation].seats

    def unique(u: pd.Series) -> pd.Series:
        words = u.astype("string").str.strip().str.upper().map(SEAT_WORDS, na_action="ignore")
        return _clean_unique(u).map(seats, na_action="ignore").fillna(words)

    return per_unique(values, unique).astype("string")


def parse_leads(values: pd.Series, notation: str) -> pd.Series:
    """Opening leads ("SA", "♠A", "H10", "¨В") -> suit letter + rank ("SA", "HT", "DJ")."""
    n = NOTATIONS[notation]
    cleaned = clean(values)
    codes, uniques = distinct(cleaned)
    found = pd.Series(uniques, dtype="string").str.extract(PATTERNS[notation].lead)
    suit = found["s1"].fillna(found["s2"]).map(n.strains, na_action="ignore")
    rank = found["r1"].fillna(found["r2"]).map(n.ranks, na_action="ignore")
    lead = (suit + rank).astype("string")
    out = pd.Series(pd.array([pd.NA] * len(codes), dtype="string"), index=values.index)
    mask = codes >= 0
    out[mask] = lead.to_numpy()[codes[mask]]
    return out


def is_adjusted(cleaned: pd.Series) -> pd.Series:
    """True where a cell holds a director's adjusted score (A+, A60/40, AVE-, NP, ...)."""
    return cleaned.str.fullmatch(ADJUSTED).fillna(False).astype(bool)


def _distinct(values: pd.Series | None) -> pd.Series:
    if values is None:
        return pd.Series([], dtype="string")
    out = pd.Series(values.dropna().unique(), dtype="string")
    return out[out != ""]


Cells = tuple[pd.Series, pd.Series | None, pd.Series | None]  # contracts, seats, leads


def detect(contracts: pd.Series, seats: pd.Series | None = None,
           leads: pd.Series | None = None) -> tuple[str | None, list[str]]:
    """Pick the notation a sheet is written in, from its cleaned cells.

    Each notation scores the distinct contracts, declarers and leads it can
    read. Returns ``(name, [])`` when one notation reads the most (or all the
    best ones read every contract identically), or ``(None, candidates)`` when
    two read the sheet equally well but differently, which the caller must refuse.
    """
    return detect_each([(contracts, seats, leads)])[0]


def detect_each(sheets: list[Cells]) -> list[tuple[str | None, list[str]]]:
    """:func:`detect` for many sheets, parsing each distinct value once for all of them."""
    distinct = [tuple(_distinct(cells) for cells in sheet) for sheet in sheets]
    every = [pd.Series(pd.concat([d[k] for d in distinct]).unique(), dtype="string")
             for k in range(3)]
    every[0] = every[0][~is_adjusted(every[0])]
    tables = {}
    for name, n in NOTATIONS.items():
        parts = _parse_unique(every[0], n)
        parts.index = every[0]
        tables[name] = (
            parts.astype("string").fillna("?").agg("|".join, axis=1)
            if len(parts) else pd.Series([], dtype="string"),
            set(every[0][parts["level"].notna().to_numpy()]),
            set(every[1][every[1].isin(n.seats)]),
            set(every[2][every[2].str.fullmatch(PATTERNS[name].lead).fillna(False)]),
        )
    return [_decide(contracts, seats, leads, tables) for contracts, seats, leads in distinct]


def _decide(contracts: pd.Series, seats: pd.Series, leads: pd.Series,
            tables: dict[str, tuple[pd.Series, set[str], set[str], set[str]]]
            ) -> tuple[str | None, list[str]]:
    contracts = contracts[~is_adjusted(contracts)]
    if contracts.empty and seats.empty:
        return "en", []
    counts = {name: (int(contracts.isin(read).sum()) + int(seats.isin(seat_set).sum())
                     + int(leads.isin(lead_set).sum()))
              for name, (_, read, seat_set, lead_set) in tables.items()}
    best = max(counts.values())
    candidates = [name for name, c in counts.items() if c == best]
    readings = [tables[c][0].reindex(contracts).tolist() for c in candidates]
    if all(r == readings[0] for r in readings[1:]):
        return candidates[0], []
    return None, candidates
