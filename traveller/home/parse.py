"""Home-sheet cells -> contracts, declarers, tricks and honours, plus problems.

Contracts are read by the traveller's parser (:mod:`traveller.tidy.notation`),
in the notation detected from the sheet's own contracts and declarers.
Nullo (three-handed) is written ``3 nullo``, ``3NL``, ``3 нулло``; it is read
as a no-trump contract of that level and marked as nullo. A row that cannot
be scored is a problem with the fix, and is skipped; the rest is scored.
"""

from __future__ import annotations

import re

import numpy as np
import pandas as pd

from traveller.home.values import HOME_STRAINS, NULLO
from traveller.problems import combine, flag
from traveller.schema import NOTATIONS
from traveller.tidy.notation import cell_text, clean, detect, parse_contracts

_NULLO = re.compile(r"(?<=[1-7])(?:NULLO|NULO|NUL|NL|НУЛЛО|НУЛО|НУЛЬ|НЛ)")
_RELATIVE = re.compile(r"^(?:=|M|[+-]\d{1,2})$")
_HONOURS = re.compile(r"^(?:(?P<who>.*?)[\s:=-]*(?P<amt>\d+)|(?P<amt2>\d+)[\s:=-]*(?P<who2>.+))$")
#: Sides written as a declarer or honours holder ("NS", "N-S", "СЮ").
SIDES = {"NS": "ns", "SN": "ns", "EW": "ew", "WE": "ew", "СЮ": "ns", "ЮС": "ns", "ЗВ": "ew",
         "ВЗ": "ew"}
_SEAT_SIDE = {"N": "ns", "S": "ns", "E": "ew", "W": "ew"}


def _nullo(contracts: pd.Series, notation: str) -> tuple[pd.Series, pd.Series]:
    """(contracts with nullo written as no trump, True where the contract was nullo)."""
    cleaned = clean(contracts).astype("string")
    nullo = cleaned.str.contains(_NULLO, na=False)
    nt = next(t for t, s in NOTATIONS[notation].strains.items() if s == "NT")
    return cleaned.str.replace(_NULLO, nt, regex=True), nullo


#: Header words of one language only (case and punctuation ignored), for a sheet whose
#: contracts read two ways: "Deal, Declarer, Contract, Tricks" is an English sheet.
HEADER_LANGUAGE = {
    "en": {"deal", "declarer", "contract", "tricks", "result", "by", "honours", "honors",
           "score", "board", "player", "players", "dealer"},
    "pl": {"rozdanie", "rozgrywający", "rozgrywajacy", "kontrakt", "lewy", "wynik", "honory",
           "zapis", "gracz", "gracze", "rozdający", "rozdajacy"},
}
#: Contract words of one language only: no trump as NT or BA, a pass as PASS or PAS.
_CONTRACT_LANGUAGE = {"en": re.compile(r"^[1-7]NT|^PASS$"), "pl": re.compile(r"^[1-7]BA|^PASY?$")}


def notation_of(deals: pd.DataFrame, three: bool, forced: str | None,
                header: dict[str, str] | None = None) -> tuple[str | None, str]:
    """The sheet's notation and why (when the contracts alone do not tell), or (None, why).

    Where the contracts and seats read two ways (``3C`` is clubs in English and
    hearts in Polish), the sheet's own words decide when they all point one
    way: the language of its headers, no trump written ``NT`` or ``BA``, a pass
    written ``PASS`` or ``PAS``. Mixed or no such words: nothing decides.
    """
    if forced:
        return forced, ""
    cleaned = clean(deals["contract"]).astype("string")
    plain = cleaned[~cleaned.str.contains(_NULLO, na=False)]
    seats = None if three else clean(deals["declarer"])
    name, choices = detect(plain, seats)
    if name:
        return name, ""
    cues = _language_cues(plain, header or {})
    told = {c for c in cues if c in choices}
    if len(told) == 1 and len(cues) == 1:
        chosen = told.pop()
        return chosen, (f"read as {NOTATIONS[chosen].description}, as the sheet's "
                        + " and ".join(cues[chosen]) + " say")
    return None, ("could be " + " or ".join(NOTATIONS[c].description for c in choices)
                  + ("; its words point both ways (" + "; ".join(
                      f"{c}: {', '.join(w)}" for c, w in cues.items()) + ")" if cues else "")
                  + f"; notation {'|'.join(choices)}")


def _language_cues(contracts: pd.Series, header: dict[str, str]) -> dict[str, list[str]]:
    """Each language the sheet's words point to, with the words ('headers', 'NT', ...)."""
    cues: dict[str, list[str]] = {}
    keys = {re.sub(r"\W", "", str(h).casefold()) for h in header.values()}
    for language, words in HEADER_LANGUAGE.items():
        if keys & words:
            cues.setdefault(language, []).append("headers (" + ", ".join(sorted(
                h for h in header.values()
                if re.sub(r"\W", "", str(h).casefold()) in words)) + ")")
    texts = contracts.dropna().str.upper().str.replace(" ", "", regex=False)
    for language, pattern in _CONTRACT_LANGUAGE.items():
        found = texts[texts.str.contains(pattern)].unique().tolist()
        if found:
            cues.setdefault(language, []).append("contracts (" + ", ".join(found[:3]) + ")")
    return cues


def _party(text: pd.Series, notation: str, players: list[str] | None) -> pd.Series:
    """Declarer or honours holder -> party: "ns"/"ew" (four-handed) or a player's name."""
    if players is not None:
        lookup = {p.casefold(): p for p in players}
        return text.str.strip().str.casefold().map(lookup).astype("string")
    key = clean(text).astype("string").str.replace(r"[-/.]", "", regex=True)
    seat = key.map(NOTATIONS[notation].seats).map(_SEAT_SIDE)
    return seat.fillna(key.map(SIDES)).astype("string")


def _whole(text: pd.Series) -> tuple[pd.Series, pd.Series]:
    """(whole numbers, True where a cell is neither blank nor a whole number)."""
    shown = cell_text(text.astype(object))
    number = pd.to_numeric(shown.str.replace(r"^\+", "", regex=True), errors="coerce")
    whole = number.notna() & (number == np.floor(number.fillna(0)))
    return number.where(whole).astype("Int64"), shown.notna() & ~whole


def _read_results(cells: pd.Series) -> tuple[pd.Series, pd.Series, pd.Series, pd.Series]:
    """One Tricks or Result column -> (tricks taken, relative result, unreadable, doubtful).

    In a column of results written relative to the contract (+1, -2), a bare
    0 means made exactly, and a bare 1-6 (Excel turns "+1" into 1) could be
    tricks taken or an overtrick: doubtful, so listed rather than guessed.
    """
    text = cells.str.strip().str.upper().str.replace("−", "-")
    relative = text.str.fullmatch(_RELATIVE).fillna(False).astype(bool)
    rel = pd.to_numeric(text.where(relative).replace({"=": "0", "M": "0"}),
                        errors="coerce").astype("Int64")
    number, unread = _whole(cells.where(~relative))
    doubtful = pd.Series(False, index=cells.index)
    if (relative & text.str.match(r"^[+-]").fillna(False)).any():
        rel = rel.fillna(number.where(number == 0))
        doubtful = number.between(1, 6).fillna(False).astype(bool)
        number = number.where((number != 0) & ~doubtful)
    return number, rel, unread, doubtful


def _tricks(deals: pd.DataFrame, parts: pd.DataFrame, nullo: pd.Series
            ) -> tuple[pd.Series, pd.Series, pd.Series, pd.Series]:
    """(tricks taken, unreadable, doubtful, disagree) from Tricks, Result or the contract."""
    level = parts["level"].astype("Int64")
    made = (7 - level).where(nullo, level + 6)  # tricks for "=" (nullo: the most allowed)
    taken = pd.Series(pd.NA, index=deals.index, dtype="Int64")
    bad = pd.Series(False, index=deals.index)
    doubt = pd.Series(False, index=deals.index)
    disagree = pd.Series(False, index=deals.index)
    readings = [_read_results(deals[c]) for c in ("tricks", "result")]
    none = pd.Series(pd.NA, index=deals.index, dtype="Int64")
    readings.append((none, parts["rel"].astype("Int64"), bad, doubt))  # "4S+1"
    for number, rel, unread, doubtful in readings:
        this = number.fillna((made - rel).where(nullo, made + rel))
        disagree |= (taken.notna() & this.notna() & (taken != this)).fillna(False).astype(bool)
        taken = taken.fillna(this)
        bad = bad | unread
        doubt = doubt | doubtful
    return taken, bad, doubt & taken.isna(), disagree


def _honours(deals: pd.DataFrame, notation: str, players: list[str] | None
             ) -> tuple[pd.Series, pd.Series, pd.Series]:
    """(holder, amount, unreadable) of the Honours column; blank is no honours."""
    text = deals["honours"].str.strip()
    found = text.str.extract(_HONOURS)
    who = found["who"].fillna(found["who2"]).str.strip()
    amount = pd.to_numeric(found["amt"].fillna(found["amt2"]), errors="coerce")
    holder = _party(who.fillna(""), notation, players)
    bad = text.notna() & (holder.isna() | ~amount.isin([100, 150]))
    return holder, amount.fillna(0).astype("int64"), bad.fillna(False).astype(bool)


def parse_deals(deals: pd.DataFrame, header: dict[str, str], notation: str,
                players: list[str] | None = None) -> tuple[pd.DataFrame, pd.DataFrame]:
    """Canonical deals (party keys, level, strain code, doubled, tricks, honours) and problems.

    ``players`` names the three players of a three-handed sheet (None for
    four-handed games). The frame keeps every row; ``skip`` holds the code of
    the problem that keeps a row out of the scoring (<NA> for a good row).
    """
    contracts, nullo = _nullo(deals["contract"], notation)
    parts = parse_contracts(pd.Series(pd.Categorical(contracts), index=deals.index), notation)
    declarer = _party(deals["declarer"], notation, players)
    if players is None:
        declarer = declarer.fillna(parts["seat"].map(_SEAT_SIDE).astype("string"))
    taken, bad_tricks, doubtful, disagree = _tricks(deals, parts, nullo)
    holder, amount, bad_honours = _honours(deals, notation, players)
    strain = parts["strain"].map({s: i for i, s in enumerate(HOME_STRAINS)})
    strain = strain.where(~nullo, NULLO).fillna(-1).astype("int64")
    bad_honours |= (amount == 100) & strain.isin([HOME_STRAINS.index("NT"), NULLO])
    passed = parts["level"].eq(0).fillna(False).astype(bool)
    played = parts["level"].notna() & ~passed
    tc = "tricks" if "tricks" in header or "result" not in header else "result"
    cells = deals["tricks"].fillna(deals["result"])
    checks = [
        ("missing-result", "contract", deals["contract"].isna(), None, ""),
        ("unknown-contract", "contract", deals["contract"].notna() & parts["level"].isna(),
         deals["contract"], ""),
        ("unknown-contract", "contract", nullo & (players is None), deals["contract"],
         "nullo is bid only in three-handed bridge"),
        ("missing-declarer", "declarer", played & deals["declarer"].isna() & declarer.isna(),
         None, ""),
        ("unknown-player" if players is not None else "unknown-declarer", "declarer",
         played & deals["declarer"].notna() & declarer.isna(), deals["declarer"],
         "players: " + ", ".join(players) if players else "N, E, S, W or the side NS, EW"),
        ("bad-tricks", tc, played & bad_tricks, cells, ""),
        ("bad-tricks", tc, played & disagree, cells, "the tricks and the result written disagree"),
        ("bad-tricks", tc, played & doubtful, cells,
         "beside results written +1/-2 a bare number could be tricks or overtricks; "
         "write +1 or the tricks taken"),
        ("missing-tricks", tc, played & taken.isna() & ~bad_tricks, None, ""),
        ("tricks-out-of-range", tc, played & ~taken.between(0, 13).fillna(True).astype(bool),
         cells, ""),
        ("honours-on-pass", "honours", passed & deals["honours"].notna(), deals["honours"], ""),
        ("bad-honours", "honours", played & bad_honours, deals["honours"],
         "four trump honours 100; five, or four aces at no trump or nullo, 150"),
    ]
    problems, skip = _problems(deals[["file", "sheet", "row"]], header, checks)
    out = deals[["file", "sheet", "row"]].assign(
        deal=_whole(deals["deal"])[0], level=parts["level"].fillna(0).astype("int64"),
        strain=strain, doubled=parts["doubled"].fillna(0).astype("int64"),
        tricks=taken.clip(0, 13).fillna(0).astype("int64"),
        declarer=declarer, holder=holder.where(amount > 0), honours=amount.where(
            holder.notna(), 0), passed=passed, skip=skip)
    return out, problems


Check = tuple[str, str, pd.Series, "pd.Series | None", str]


def _problems(src: pd.DataFrame, header: dict[str, str], checks: list[Check]
              ) -> tuple[pd.DataFrame, pd.Series]:
    """Problem rows for every check, and each row's first blocking code (its ``skip``)."""
    problems, skip = [], pd.Series(pd.NA, index=src.index, dtype="string")
    for code, column, mask, values, detail in checks:
        mask = mask.fillna(False).astype(bool)
        if not mask.any():
            continue
        shown = values[mask] if values is not None else None
        problems.append(flag(src[mask], code, header.get(column, column.capitalize()), shown,
                             detail))
        skip = skip.mask(mask & skip.isna(), code)
    return combine(problems), skip
