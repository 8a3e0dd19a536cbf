"""Cells as published pages show them: contracts in suit symbols, signed scores, places.

Every function takes whole columns (pandas Series) and returns text columns,
so a page of a thousand results is formatted in a few vectorised steps.
Text from the input stays plain text here; the templates escape it.
"""

from __future__ import annotations

import re
from collections.abc import Callable

import numpy as np
import pandas as pd

from traveller.publish.keys import arrow_of, floats
from traveller.schema import DECLARERS, SEATS, board_vulnerability
from traveller.score.table import DEALERS
from traveller.words import noun, places

SUIT_SYMBOLS = {"S": "♠", "H": "♥", "D": "♦", "C": "♣"}
SEAT_NAMES = {"N": "North", "E": "East", "S": "South", "W": "West"}
_CONTRACT = r"^(?P<level>[1-7])(?P<strain>NT|[SHDC])(?P<doubled>X{0,2})$"
_CONTRACT_TEXT = re.compile(_CONTRACT)
_LEAD = re.compile(r"^([SHDC])(.+)$")


def text(column: pd.Series) -> pd.Series:
    """Any column as text, missing values as ""."""
    return column.astype("string").fillna("").astype(object)


def seats(column: pd.Series, side_as: str = "") -> pd.Series:
    """A declarer column as text for a format that takes a seat (N, E, S, W) only: the
    declaring side alone (``NS``, ``EW``: no seat named on the traveller) as ``side_as``."""
    out = text(column)
    return out.where(~out.isin(DECLARERS[len(SEATS):]), side_as)


def _by_distinct(column: pd.Series, shown: Callable[[pd.Series], pd.Series]) -> pd.Series:
    """``shown`` worked out once per distinct text of ``column`` (a session has a few
    hundred distinct contracts or leads in a hundred thousand rows)."""
    codes, uniques = pd.factorize(text(column))
    if not len(uniques):
        return pd.Series("", index=column.index, dtype=object)
    done = shown(pd.Series(np.asarray(uniques, dtype=object), dtype=object))
    return pd.Series(done.to_numpy(dtype=object)[codes], index=column.index, dtype=object)


def contracts(contract: pd.Series) -> pd.Series:
    """ "4SX" -> "4♠X", "3NT" -> "3NT", "PASS" -> "Pass"; other text as written."""
    return _by_distinct(contract, _contracts)


def _contracts(contract: pd.Series) -> pd.Series:
    raw = text(contract)
    parts = raw.str.extract(_CONTRACT).fillna("").astype(str)
    symbol = parts["strain"].map(SUIT_SYMBOLS).fillna(parts["strain"]).astype(str)
    built = parts["level"] + symbol + parts["doubled"]
    shown = built.where(parts["level"] != "", raw)
    return shown.where(raw != "PASS", "Pass")


def any_lead(travellers: pd.DataFrame) -> bool:
    """True when some result has a lead written: else the pages show no Lead column."""
    return "lead" in travellers and bool((text(travellers["lead"]).str.strip() != "").any())


def leads(lead: pd.Series) -> pd.Series:
    """ "HK" -> "♥K", "DT" -> "♦10" (suit first, the ten as the hand diagrams write it);
    other text as written."""
    return _by_distinct(lead, _leads)


def _leads(lead: pd.Series) -> pd.Series:
    raw = text(lead)
    parts = raw.str.extract(_LEAD.pattern).fillna("").astype(str)
    symbol = parts[0].map(SUIT_SYMBOLS)
    rank = parts[1].where(parts[1] != "T", "10")
    return (symbol.fillna("").astype(str) + rank).where(symbol.notna(), raw)


def overtricks(contract: pd.Series, tricks: pd.Series) -> np.ndarray:
    """Tricks against the contract as numbers (0 made exactly, 1 one over, -2 two down;
    NaN for a pass or no contract)."""
    if isinstance(contract.array, pd.arrays.ArrowStringArray):  # encoded by Arrow (missing:
        encoded = arrow_of(contract.array).dictionary_encode()  # -1, as "" reads: no level)
        uniques = encoded.dictionary.to_pylist()
        codes = encoded.indices.fill_null(-1).to_numpy(zero_copy_only=False)
    else:
        codes, uniques = pd.factorize(text(contract))  # a few dozen distinct contracts
    found = (_CONTRACT_TEXT.search(u) for u in uniques)
    levels = np.array([float(m["level"]) if m else np.nan for m in found] + [np.nan])
    if pd.api.types.is_numeric_dtype(tricks.dtype) and not pd.api.types.is_bool_dtype(
            tricks.dtype):  # numbers already: as to_numeric leaves them
        return floats(tricks) - levels[codes] - 6
    taken = pd.to_numeric(tricks, errors="coerce")
    return np.asarray(taken, dtype=float) - levels[codes] - 6


def results(contract: pd.Series, tricks: pd.Series) -> pd.Series:
    """Tricks against the contract: "=", "+1", "-2" ("" for a pass or no contract)."""
    diff = overtricks(contract, tricks)
    out = np.where(np.isnan(diff), "", np.where(diff == 0, "=", np.char.mod(
        "%+d", np.nan_to_num(diff).astype(int))))
    return pd.Series(out, index=contract.index, dtype=object)


def signed_sides(ns_score: pd.Series) -> tuple[pd.Series, pd.Series]:
    """The N-S + and E-W + columns of a traveller: each score on the side that made it."""
    score = pd.to_numeric(ns_score, errors="coerce").to_numpy(dtype=float)
    ns = np.where(score > 0, np.char.mod("%d", np.nan_to_num(score).astype(int)), "")
    ew = np.where(score < 0, np.char.mod("%d", -np.nan_to_num(score).astype(int)), "")
    zero = score == 0
    ns = np.where(zero, "0", ns)
    return (pd.Series(ns, index=ns_score.index, dtype=object),
            pd.Series(ew, index=ns_score.index, dtype=object))


def fixed(values: np.ndarray, decimals: int = 2, signed: bool = False) -> np.ndarray:
    """Numbers to ``decimals`` places (a sign on every one but zero when ``signed``: the
    workbook's signed format shows 0, not +0), as the workbook shows them: made from
    whole numbers (no format call per number), and a value half way between two
    (158.625, or 79.975 as a float holds it) rounded away from zero, as a spreadsheet
    rounds its cell's decimal value (158.63, 79.98; printf would write 158.62 and
    79.97); NaN as "nan" (callers blank it)."""
    values = np.asarray(values, dtype=float)
    scaled = np.round(np.abs(np.nan_to_num(values)) * 10 ** decimals)
    if not len(values) or scaled.max() >= 2 ** 53:  # beyond exact whole numbers: printf
        out = np.char.mod(f"%{'+' if signed else ''}.{decimals}f", values).astype(object)
        out[values == 0] = f"{0:.{decimals}f}"
        return out
    units = scaled.astype(np.int64)
    whole = (units // 10 ** decimals).astype(str).astype(object)
    if decimals:
        part = np.char.zfill((units % 10 ** decimals).astype(str), decimals).astype(object)
        whole = whole + "." + part
    sign = np.where(np.signbit(values), "-", "+" if signed else "").astype(object)
    sign[values == 0] = ""  # (-0.0 too: a spreadsheet shows either as 0)
    out = np.where(np.isnan(values), "nan", sign + whole)
    half = np.abs(np.abs(np.nan_to_num(values)) * 10 ** decimals % 1 - 0.5) < 1e-6
    if half.any():  # (a few: each through its decimal digits)
        out[half] = [places(v, decimals, signed) for v in values[half].tolist()]
    return out


def numbers(column: pd.Series, decimals: int = 2, signed: bool = False,
            together: bool = False) -> pd.Series:
    """Numbers to text: to ``decimals`` places (as :func:`fixed`), without the decimals
    when they are all 0 (191, not 191.00; but 1352.99, which is no whole number however
    close to one). ``together``: a column of a table keeps its decimals on every cell when
    one cell needs them (22.00 above 22.33, as the Ranking sheet prints a block)."""
    values = pd.to_numeric(column, errors="coerce").to_numpy(dtype=float)
    text = fixed(values, decimals, signed)
    if decimals and len(text):
        tail = "." + "0" * decimals
        whole = np.char.endswith(text.astype(str), tail)
        if together and not whole[~np.isnan(values)].all():
            whole[:] = False
        if whole.any():
            text[whole] = [t[: -len(tail)] for t in text[whole].tolist()]
    out = np.where(np.isnan(values), "", text)
    return pd.Series(out, index=column.index, dtype=object)


def carry_shown(ranking: pd.DataFrame | dict[str, pd.Series]) -> bool:
    """True when an event's ranking has a carry-over worth a column: some pair's is not 0."""
    return "carry" in ranking and bool(ranking["carry"].fillna(0).astype(float).any())


def factored_shown(ranking: pd.DataFrame | dict[str, pd.Series]) -> bool:
    """True when a ranking's factored matchpoints are worth a column: some pair played
    fewer boards, so they differ from its matchpoints (and the places follow them)."""
    if "mp_factored" not in ranking or "mp" not in ranking:
        return False
    return not np.allclose(ranking["mp_factored"].to_numpy(dtype=float, na_value=np.nan),
                           ranking["mp"].to_numpy(dtype=float, na_value=np.nan))


def percents(column: pd.Series) -> pd.Series:
    """Percentages to two decimals ("" when missing)."""
    values = pd.to_numeric(column, errors="coerce").to_numpy(dtype=float)
    out = np.where(np.isnan(values), "", fixed(values, 2))
    return pd.Series(out, index=column.index, dtype=object)


def board_conditions(board: int, vulnerable: str | None = None) -> tuple[str, str]:
    """Dealer and vulnerability of a board number, in words ("North", "N-S"); the
    vulnerability the board was played at instead when given (PBN's word: "NS")."""
    vul = vulnerability_words(vulnerable or board_vulnerability(board))
    return SEAT_NAMES[DEALERS[(board - 1) % 4]], vul


def vulnerability_words(vulnerable: str) -> str:
    """PBN's vulnerability word as the pages write it: "NS" -> "N-S", "All" -> "Both"."""
    return {"NS": "N-S", "EW": "E-W", "All": "Both"}.get(vulnerable, vulnerable)


def hands(deal: str | None) -> dict[str, list[tuple[str, str]]] | None:
    """A PBN deal ("N:AKQ.JT9.876.5432 ...") -> seat -> [(suit symbol, cards)], or None."""
    if not deal or not isinstance(deal, str) or ":" not in deal:
        return None
    first, _, rest = deal.strip().partition(":")
    parts = rest.split()
    if first.upper() not in DEALERS or len(parts) != 4:
        return None
    start = DEALERS.index(first.upper())
    out = {}
    for i, hand in enumerate(parts):
        suits = hand.split(".")
        if len(suits) != 4:
            return None
        out[DEALERS[(start + i) % 4]] = [(SUIT_SYMBOLS[s], cards.replace("T", "10") or "—")
                                         for s, cards in zip("SHDC", suits, strict=True)]
    return out


def slug(value: object) -> str:
    """A file-name-safe form of a section, line or pair label (letters and digits only)."""
    label = str(value)
    if re.fullmatch(r"[A-Za-z0-9]*", label):
        return label
    return "x" + label.encode("utf-8").hex()


def counted(number: object, word: str, many: str | None = None) -> str:
    """ "1 board", "2 boards", "0 problems": a count as a page holds it (a number, or its
    text) with its word in the right number (:func:`traveller.words.noun`)."""
    text = str(number).strip()
    try:
        count = float(text)
    except ValueError:
        count = float("nan")
    return f"{text} {noun(count, word, many)}"
