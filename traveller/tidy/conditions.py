"""Cells that state a board's conditions or a score's side, read per distinct cell.

A traveller may say again what the board number already says (a Vul or
Dealer column), or whose score a number is (a Side column beside an unsigned
score, ``NS 420`` or ``EW 50`` in one cell). Each reader here returns codes,
with -1 where a cell is blank and -2 where it holds text that says nothing
readable; :mod:`traveller.tidy.twins` compares them with their twins.
"""

from __future__ import annotations

import re

import numpy as np
import pandas as pd

from traveller.schema import PBN_VULNERABLE_WORDS, SEATS
from traveller.score.table import VULNERABILITY
from traveller.tidy import text as tx

#: Vulnerability codes: 0 nobody, 1 N-S, 2 E-W, 3 both (the board number's classes).
VUL_NAMES = ("None", "N-S", "E-W", "Both")
_VUL_WORDS = {
    0: ("NONE", "NIL", "LOVE", "NO", "NOBODY", "NEITHER", "O", "0", "-", "NIKT", "NIKT NIE",
        "NIKOGO", "НИКТО", "НЕТ"),
    1: ("NS", "N-S", "N/S", "N S", "NS VUL", "С-Ю", "СЮ", "С/Ю", "МЫ"),
    2: ("EW", "E-W", "E/W", "E W", "WE", "W-E", "EW VUL", "З-В", "ЗВ", "В-З", "ВЗ", "З/В"),
    3: ("ALL", "BOTH", "B", "VUL", "OBIE", "OBAJ", "WSZYSCY", "ВСЕ", "ОБЕ", "ОБА"),
}
_VUL = {word: code for code, words in _VUL_WORDS.items() for word in words}
_PL_RU_SEATS = {"N": "N", "E": "E", "S": "S", "W": "W", "NORTH": "N", "EAST": "E",
                "SOUTH": "S", "WEST": "W", "NORD": "N", "PÓŁNOC": "N", "POLNOC": "N",
                "WSCHÓD": "E", "WSCHOD": "E", "POŁUDNIE": "S", "POLUDNIE": "S",
                "ZACHÓD": "W", "ZACHOD": "W", "С": "N", "В": "E", "Ю": "S", "З": "W",
                "СЕВЕР": "N", "ВОСТОК": "E", "ЮГ": "S", "ЗАПАД": "W"}
#: A line word: N-S (+1) or E-W (-1), as a Side column or a score cell's prefix writes it.
_SIDES = {**{w: 1 for w in _VUL_WORDS[1]}, **{w: -1 for w in _VUL_WORDS[2]},
          "N": 1, "S": 1, "E": -1, "W": -1}
_SIDED_SCORE = re.compile(r"^(N\W?S|E\W?W|С\W?Ю|З\W?В)\s*:?\s*([+-]?\d{1,5})$"
                          r"|^([+-]?\d{1,5})\s*(N\W?S|E\W?W|С\W?Ю|З\W?В)$")


def _words(values: pd.Series) -> tuple[np.ndarray, list[str | None]]:
    codes, uniques = tx.distinct(values)
    texts = tx.upper([tx.cell_text(u) for u in uniques])
    return codes, [None if t is None else " ".join(t.replace("−", "-").split()) for t in texts]


def played_vulnerabilities(frame: pd.DataFrame) -> dict[int, str]:
    """Board -> vulnerability (PBN's word) for each board every result of which was scored
    at a vulnerability its Vul column states and its board number does not (the scored
    travellers' ``vul`` codes: -1 where the number's was used). A board some of whose
    rows follow the number, or which the rows tell two ways, is not here: its number's
    stands (the rows that disagree are listed as vulnerability-disagrees)."""
    if "vul" not in frame or frame.empty:
        return {}
    board = frame["board"].to_numpy(dtype=np.int64, na_value=0)
    vul = frame["vul"].to_numpy(dtype=np.int64, na_value=-1)
    keep = board > 0
    board, vul = board[keep], vul[keep]
    other = (vul >= 0) & (vul != board_vulnerability(board.astype(float)))
    out: dict[int, str] = {}
    for b in np.unique(board[other]).tolist():
        stated = vul[board == b]
        if (stated == stated[0]).all():
            out[int(b)] = PBN_VULNERABLE_WORDS[int(stated[0])]
    return out


def vulnerability_codes(values: pd.Series) -> np.ndarray:
    """A Vul column's cells as codes 0-3 (-1 blank, -2 unreadable)."""
    codes, texts = _words(values)
    mapped = [-1 if t is None else _VUL.get(t, _VUL.get(t.replace(" ", ""), -2)) for t in texts]
    return tx.spread(codes, mapped, -1, np.int64)


def dealer_codes(values: pd.Series) -> np.ndarray:
    """A Dealer column's cells as positions in SEATS (-1 blank, -2 unreadable)."""
    codes, texts = _words(values)
    mapped = [-1 if t is None else SEATS.index(_PL_RU_SEATS[t]) if t in _PL_RU_SEATS else -2
              for t in texts]
    return tx.spread(codes, mapped, -1, np.int64)


def side_signs(values: pd.Series) -> np.ndarray:
    """A Side column's cells as +1 (N-S's score) or -1 (E-W's); 0 blank, -2 unreadable."""
    codes, texts = _words(values)
    mapped = [0 if t is None else _SIDES.get(t, _SIDES.get(t.replace(" ", ""), -2))
              for t in texts]
    return tx.spread(codes, mapped, 0, np.int64)


def sided_scores(values: pd.Series) -> np.ndarray:
    """N-S's score of cells that name their side (``NS 420``, ``EW 50``, ``420 NS``); NaN else.

    A score named for E-W is E-W's: ``EW 50`` is N-S -50, ``EW -100`` N-S +100.
    """
    codes, texts = _words(values)
    mapped = []
    for t in texts:
        match = None if t is None else _SIDED_SCORE.match(t)
        if match is None:
            mapped.append(np.nan)
            continue
        side = re.sub(r"\W", "", match.group(1) or match.group(4))
        mapped.append(float(match.group(2) or match.group(3)) * _SIDES[side])
    return tx.spread(codes, mapped, np.nan, np.float64)


def board_vulnerability(board: np.ndarray) -> np.ndarray:
    """The code 0-3 of each board number's vulnerability (board numbers as floats, NaN: none)."""
    classes = np.array([int(ns) + 2 * int(ew) for ns, ew in VULNERABILITY])
    known = ~np.isnan(board) & (board >= 1)
    index = (np.where(known, board, 1).astype(np.int64) - 1) % 16
    return np.where(known, classes[index], -1)


def board_dealer(board: np.ndarray) -> np.ndarray:
    """Each board number's dealer as a position in SEATS (N on 1, E on 2, ...); -1 none."""
    known = ~np.isnan(board) & (board >= 1)
    return np.where(known, (np.where(known, board, 1).astype(np.int64) - 1) % 4, -1)
