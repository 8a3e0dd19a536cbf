"""Facts a row states twice, compared: one reading used and said, or the row left out.

A traveller often says one thing in two places: the declarer in the contract
(``4SW``) and in the By column, the result in the contract (``4S+1``) and in a
Tricks, Result, Made or Down column, the score in an N-S and an E-W column,
the vulnerability in a Vul column and by the board number. Where two places
agree, nothing is said. Where they disagree, the rule for each fact is:

- **declarer and tricks**: when every reading scores the same (N or S, say),
  the first place's reading is used and the row is listed as a warning; when
  the recorded score fits exactly one reading, that reading is used and
  listed; otherwise nothing on the row says which is right, and the row is
  listed as an error and left out of the scoring.
- **score**: the contract's own score is used where the contract, declarer and
  tricks are known (the score is arithmetic, the contract is what was
  played); a score-only row whose score columns disagree is left out.
- **vulnerability**: a Vul column is what the table played, so it is used,
  and the row is listed with the board number's vulnerability beside it;
  unless the row's recorded score fits the board number's vulnerability and
  not the column's (a Vul column filled down wrongly): then the board
  number's is used, and the row is listed saying so.
- **dealer**: the dealer scores nothing; a Dealer column that contradicts the
  board number is listed, and the board number's dealer is shown.
- **a column headed twice** (two Contract columns, a Board column at each end
  of the sheet): the first is the one read, and a row whose second cell reads
  as something else (``North`` is ``N``), or says something where the first
  says nothing, reads two ways:
  it is listed as an error naming both cells and left out of the scoring. A
  contract whose twin adds the declarer or result (``4S`` and ``4SN``) agrees
  where the row's By, Tricks or Result column says that part as the twin does.

Every check appends its problem rows to the caller's list.
"""

from __future__ import annotations

import re
from dataclasses import dataclass, replace

import numpy as np
import pandas as pd

from traveller.problems import flag
from traveller.schema import DECLARERS, LINE_WORDS, NOTATIONS, SEATS
from traveller.score.table import ns_scores
from traveller.tidy import text as tx
from traveller.tidy.cells import as_text, col, parse_tricks, whole_floats
from traveller.tidy.conditions import VUL_NAMES, board_dealer, board_vulnerability
from traveller.tidy.notation import cleaned_texts, contract_parts, parse_leads, seat_codes


@dataclass
class Said:
    """One place a row states a fact: the column as headed, what it says (NaN: nothing),
    and its cells as typed (shown in the Value column of the problem)."""

    column: str
    values: np.ndarray  # floats, NaN where this place says nothing
    cells: pd.Series | None = None


def _typed(said: Said, src: pd.DataFrame, at: np.ndarray) -> pd.Series | None:
    """The cells of ``said`` at the positions ``at``, on ``src``'s index (None: not kept)."""
    if said.cells is None:
        return None
    return pd.Series(said.cells.to_numpy()[at], index=src.index[at])


def first_said(readings: list[Said], n: int) -> np.ndarray:
    """Each row's first stated value among ``readings`` (NaN where none says anything)."""
    out = np.full(n, np.nan)
    for said in readings:
        out = np.where(np.isnan(out), said.values, out)
    return out


def contradicted(readings: list[Said], first: np.ndarray) -> np.ndarray:
    """True where two of ``readings`` state different values for the row (``first``: its
    :func:`first_said`)."""
    out = np.zeros(len(first), dtype=bool)
    for said in readings[1:]:
        with np.errstate(invalid="ignore"):
            out |= ~np.isnan(said.values) & (said.values != first)
    return out


@dataclass
class Play:
    """The contract's parts, as float arrays (NaN: none), strain as a position (-1: none)."""

    board: np.ndarray
    level: np.ndarray
    strain: np.ndarray
    doubled: np.ndarray
    vulnerability: np.ndarray  # codes 0-3 of a Vul column, -1 where the board number says


def _scores_of(play: Play, rows: np.ndarray, seat: np.ndarray, tricks: np.ndarray
               ) -> np.ndarray:
    """N-S score of each of ``rows`` read with ``seat`` and ``tricks`` (NaN where unknown)."""
    level = play.level[rows]  # (NaN on a row with no contract: a ruling's, a score's)
    ok = ~np.isnan(seat) & ~np.isnan(tricks) & (tricks >= 0) & (tricks <= 13) & ~np.isnan(level)
    seat_i = np.where(ok, seat, 0).astype(np.int64)
    scores = ns_scores(np.where(np.isnan(play.board[rows]), 1, play.board[rows]).astype(np.int64),
                       np.where(ok, level, 0).astype(np.int64), np.maximum(play.strain[rows], 0),
                       np.nan_to_num(play.doubled[rows]).astype(np.int64),
                       seat_i % 2 == 0,
                       np.where(ok, tricks, 0).astype(np.int64), play.vulnerability[rows])
    return np.where(ok, scores, np.nan)


def settle_play(play: Play, seats: list[Said], tricks: list[Said], recorded: np.ndarray,
                src: pd.DataFrame, problems: list[pd.DataFrame]
                ) -> tuple[np.ndarray, np.ndarray]:
    """Each row's declarer (position in DECLARERS: a seat, or a side alone) and tricks.

    ``seats`` and ``tricks`` are the places the row states them, first place
    first; ``recorded`` the row's recorded N-S score (NaN: none, or its own
    columns disagree). Returns (seat, tricks) as float arrays; a row nothing decides
    is listed as a blocking problem, which leaves it out.
    """
    n = len(src)
    seat, taken = first_said(seats, n), first_said(tricks, n)
    with np.errstate(invalid="ignore"):
        played = play.level >= 1
    seat_twice, tricks_twice = (contradicted(seats, seat) & played,
                                contradicted(tricks, taken) & played)
    rows = np.flatnonzero(seat_twice | tricks_twice)
    blocked = np.zeros(n, dtype=bool)
    if not len(rows):
        return seat, taken
    options = [(s, t) for s in seats for t in tricks]
    scores = np.stack([_scores_of(play, rows, s.values[rows], t.values[rows])
                       for s, t in options], axis=1)
    known = ~np.isnan(scores)
    with np.errstate(invalid="ignore"):  # (no reading that scores at all: not "the same")
        same = known.any(axis=1) & (np.where(known, scores, -np.inf).max(axis=1)
                                    == np.where(known, scores, np.inf).min(axis=1))
        fits = scores == recorded[rows, None]
    chosen = np.where(same, -1, np.where(fits.any(axis=1), fits.argmax(axis=1), -2))
    for k, row in enumerate(rows.tolist()):
        if chosen[k] >= 0:
            s, t = options[chosen[k]]
            seat[row], taken[row] = s.values[row], t.values[row]
        blocked[row] = chosen[k] == -2
    decided = _decisions(chosen, seat[rows], taken[rows], recorded[rows])
    for mask, readings, what in ((seat_twice, seats, "declarer"),
                                 (tricks_twice, tricks, "tricks")):
        here = mask[rows]
        if here.any():
            detail = [_readings(readings, row, what) + "; " + decided[k]
                      for k, row in enumerate(rows.tolist()) if here[k]]
            at = rows[here]
            problems.append(flag(src.iloc[at], f"{what}-disagrees", readings[0].column,
                                 _typed(readings[0], src, at),
                                 pd.Series(detail, index=src.index[at], dtype="string"),
                                 blocking=pd.Series(blocked[at], index=src.index[at])))
    return seat, taken


def _shown(value: float, what: str) -> str:
    if what == "declarer":
        return _declarer_words(value)
    return f"{int(value)} trick{'' if value == 1 else 's'}"


def _declarer_words(position: float) -> str:
    """A position in DECLARERS as a message writes it: "N", or the side alone, "N-S"."""
    said = DECLARERS[int(position)]
    return LINE_WORDS.get(said, said)


def _readings(readings: list[Said], row: int, what: str) -> str:
    """'the Contract says W, By says N' for one row."""
    said = [f"{r.column} says {_shown(r.values[row], what)}" for r in readings
            if not np.isnan(r.values[row])]
    return ", ".join(said)


def _decisions(chosen: np.ndarray, seat: np.ndarray, tricks: np.ndarray,
               recorded: np.ndarray) -> list[str]:
    out = []
    for c, s, t, score in zip(chosen.tolist(), seat.tolist(), tricks.tolist(),
                              recorded.tolist(), strict=True):
        used = f"{_declarer_words(s)} making {int(t)}" if not np.isnan(s + t) else ""
        if c == -1:
            out.append(f"every reading scores the same; read as {used}")
        elif c >= 0:
            out.append(f"the recorded score {int(score):+d} fits one reading only; "
                       f"read as {used}")
        else:
            out.append("nothing on the row says which is right; not scored")
    return out


def settle_scores(readings: list[Said], src: pd.DataFrame, contract_scores: np.ndarray,
                  problems: list[pd.DataFrame]) -> tuple[np.ndarray, np.ndarray]:
    """The recorded N-S score of each row, and where the row states one at all.

    ``contract_scores`` is True where the contract, declarer and tricks give the
    score themselves (so the recorded one is only a check). Where the row's
    score columns disagree, the recorded score is NaN (it can check nothing);
    a score-only row among them is listed as a blocking problem, which leaves it out.
    """
    first = first_said(readings, len(src))
    twice = contradicted(readings, first)
    blocked = twice & ~contract_scores
    if twice.any():
        at = np.flatnonzero(twice)
        detail = [", ".join(f"{r.column} says N-S {int(r.values[i]):+d}" for r in readings
                            if not np.isnan(r.values[i]))
                  + ("; the contract's own score is used" if contract_scores[i]
                     else "; nothing on the row says which is right; not scored")
                  for i in at.tolist()]
        problems.append(flag(src.iloc[at], "scores-disagree", readings[0].column,
                             _typed(readings[0], src, at),
                             pd.Series(detail, index=src.index[at], dtype="string"),
                             blocking=pd.Series(blocked[at], index=src.index[at])))
    return np.where(twice, np.nan, first), ~np.isnan(first)


def settle_vulnerability(play: Play, vul_said: Said, seat: np.ndarray, tricks: np.ndarray,
                         recorded: np.ndarray, src: pd.DataFrame,
                         problems: list[pd.DataFrame]) -> np.ndarray:
    """The vulnerability each row is scored with; Vul cells that contradict the board
    number listed, with the reading used.

    ``play.vulnerability`` holds the Vul column's codes (-1: blank or unreadable, the
    board number's is used); ``seat`` and ``tricks`` the row's settled declarer and
    tricks, ``recorded`` its recorded N-S score (NaN: none). The column's is used
    unless the recorded score fits the board number's vulnerability and not the
    column's; -1 where the board number's is used.
    """
    vul = play.vulnerability.astype(np.int64)
    by_number = board_vulnerability(play.board)
    differ = (vul >= 0) & (by_number >= 0) & (vul != by_number)
    if not differ.any():
        return vul
    at = np.flatnonzero(differ)
    as_column = _scores_of(play, at, seat[at], tricks[at])
    as_number = _scores_of(replace(play, vulnerability=np.full(len(vul), -1)), at, seat[at],
                           tricks[at])
    with np.errstate(invalid="ignore"):
        number_fits = (as_number == recorded[at]) & (as_column != recorded[at])
        same = as_column == as_number
    out = vul.copy()
    out[at[number_fits]] = -1
    detail = []
    for k, i in enumerate(at.tolist()):
        said, number = VUL_NAMES[vul[i]], VUL_NAMES[by_number[i]]
        head = f"the column says {said}, board {int(play.board[i])} is {number} by its number"
        if number_fits[k]:
            detail.append(f"{head}; the recorded score {int(recorded[i]):+d} fits {number} and "
                          f"not {said}: scored with {number}")
        elif same[k]:
            detail.append(f"{head}; the result scores the same either way")
        else:
            detail.append(f"{head}; scored with {said}, as the column says the table played")
    problems.append(flag(src.iloc[at], "vulnerability-disagrees", vul_said.column,
                         _typed(vul_said, src, at),
                         pd.Series(detail, index=src.index[at], dtype="string"),
                         blocking=False))
    return out


#: A contract's doubling as a message says it.
_DOUBLINGS = ("not doubled", "doubled", "redoubled")


def settle_doubling(play: Play, double_said: Said, contract_column: str, seat: np.ndarray,
                    tricks: np.ndarray, recorded: np.ndarray, src: pd.DataFrame,
                    problems: list[pd.DataFrame]) -> np.ndarray:
    """The doubling each row is scored with, where a doubling column (``double_said``: 0,
    1, 2, NaN blank, -1 unread) and the contract (headed ``contract_column``) both state it.

    ``play.doubled`` is the contract's (the column's where the contract writes none);
    where a played contract writes its own (``4SX``) and the column says otherwise
    (``XX``, or ``0``), the recorded score decides when it fits one reading only,
    listed as a warning; otherwise the row is left out (``doubled-disagrees``, error).
    """
    column = double_said.values
    with np.errstate(invalid="ignore"):
        differ = (play.level > 0) & (play.doubled > 0) & (column >= 0) & (column != play.doubled)
    if not differ.any():
        return play.doubled
    at = np.flatnonzero(differ)
    as_contract = _scores_of(play, at, seat[at], tricks[at])
    as_column = _scores_of(replace(play, doubled=column), at, seat[at], tricks[at])
    with np.errstate(invalid="ignore"):
        column_fits = (as_column == recorded[at]) & (as_contract != recorded[at])
        contract_fits = (as_contract == recorded[at]) & (as_column != recorded[at])
    out = play.doubled.copy()
    out[at[column_fits]] = column[at[column_fits]]
    said, typed = contract_column, double_said.column
    detail = []
    for k, i in enumerate(at.tolist()):
        mine, theirs = _DOUBLINGS[int(play.doubled[i])], _DOUBLINGS[int(column[i])]
        head = f"{said} says {mine}, {typed} says {theirs}"
        if column_fits[k] or contract_fits[k]:
            used = theirs if column_fits[k] else mine
            detail.append(f"{head}; the recorded score {int(recorded[i]):+d} fits {used} only; "
                          f"read as {used}")
        else:
            detail.append(f"{head}; nothing on the row says which is right; not scored")
    blocked = ~(column_fits | contract_fits)
    problems.append(flag(src.iloc[at], "doubled-disagrees", typed,
                         _typed(double_said, src, at),
                         pd.Series(detail, index=src.index[at], dtype="string"),
                         blocking=pd.Series(blocked, index=src.index[at])))
    return out


def check_dealer(board: np.ndarray, dealer_said: Said, src: pd.DataFrame,
                 problems: list[pd.DataFrame]) -> None:
    """List Dealer cells that contradict the board number (``dealer_said``: positions in
    SEATS, -1 blank, -2 unreadable: the board number's is used, as for a blank)."""
    dealt_by = dealer_said.values.astype(np.int64)
    dealt = board_dealer(board)
    wrong = (dealt_by >= 0) & (dealt >= 0) & (dealt_by != dealt)
    if wrong.any():
        at = np.flatnonzero(wrong)
        detail = [f"the column says {SEATS[dealt_by[i]]}, board {int(board[i])} is dealt by "
                  f"{SEATS[dealt[i]]}; the board number's dealer is shown" for i in at.tolist()]
        problems.append(flag(src.iloc[at], "dealer-disagrees", dealer_said.column,
                             _typed(dealer_said, src, at),
                             pd.Series(detail, index=src.index[at], dtype="string"),
                             blocking=False))


def check_twin_columns(frame: pd.DataFrame, twins: dict[str, str], header: dict[str, str],
                       src: pd.DataFrame, notation: str, problems: list[pd.DataFrame]) -> None:
    """``second-column-disagrees`` (an error) on each row whose second column of a field
    (``twins``: its name -> the field) says other than the first column, the one read.

    Two cells agree when they read the same in ``notation`` (``N`` and ``North``,
    ``4S`` and ``4♠``, ``=`` and ``made``, ``1`` and ``01``); a cell that reads as
    nothing is compared as text, blanks, case and spacing aside (``4 S`` is ``4s``).
    A second cell left blank says nothing.
    """
    for name, field in twins.items():
        first, second = col(frame, field), frame[name]
        a, b = _cells_say(first, field, notation), _cells_say(second, field, notation)
        differs = np.array([y is not None and x != y for x, y in zip(a, b, strict=True)],
                           dtype=bool)
        notes: dict[int, str] = {}
        if field == "contract" and differs.any():
            differs &= ~_contracts_agree(frame, a, b, differs, notation, notes, header)
        if not differs.any():
            continue
        at = np.flatnonzero(differs)
        heading = header.get(field, field)
        said = as_text(first).iloc[at].astype(object)
        detail = pd.Series([(f"the first {heading} column says '{t}'" if isinstance(t, str)
                             else f"the first {heading} column is empty") + notes.get(i, "")
                            for i, t in zip(at.tolist(), said, strict=True)],
                           index=src.index[at], dtype=object)
        problems.append(flag(src.iloc[at], "second-column-disagrees", name,
                             as_text(second).iloc[at], detail))


def _contracts_agree(frame: pd.DataFrame, a: list[object], b: list[object],
                     rows: np.ndarray, notation: str, notes: dict[int, str],
                     header: dict[str, str]) -> np.ndarray:
    """True on each of ``rows`` where two contract cells that read differently say one
    row all the same: the same level, strain and doubling, and a declarer or result
    that the first leaves out (``4S`` and ``4SN``) is the one the row's By, Tricks or
    Result column says (one the second leaves out, it says nothing of). Where nothing
    else on the row says it, the second says something the first does not: they
    disagree, and ``notes`` gets what the message adds for the row ("; By says S")."""
    out = np.zeros(len(a), dtype=bool)
    at = np.flatnonzero(rows)
    both = [i for i in at.tolist() if isinstance(a[i], tuple) and isinstance(b[i], tuple)]
    if not both:
        return out
    here = frame.iloc[both]
    seats = _cells_say(col(here, "declarer"), "declarer", notation)
    in_tricks = _cells_say(col(here, "tricks"), "tricks", notation)
    taken = [t if t is not None else r for t, r in zip(
        in_tricks, _cells_say(col(here, "result"), "result", notation), strict=True)]
    for k, i in enumerate(both):
        x, y = a[i][1], b[i][1]  # type: ignore[index]
        if x[:3] != y[:3]:
            continue
        seat, rel = _read(seats[k]), _relative(_read(taken[k]), x[0])
        out[i] = _part_agrees(x[3], y[3], seat) and _part_agrees(x[4], y[4], rel)
        if not out[i]:
            notes[i] = "; " + ", ".join(
                _elsewhere(what, column, said) for what, column, said, x_part, y_part in (
                    ("declarer", header.get("declarer", "By"), seat, x[3], y[3]),
                    ("result", header.get("tricks" if in_tricks[k] is not None else "result",
                                          "Tricks"), _as_said(_read(taken[k])), x[4], y[4]))
                if x_part is None and y_part is not None)
    return out


def _elsewhere(what: str, column: str, said: object) -> str:
    """What the row's own By or Tricks column says of a part one contract cell leaves out."""
    if said is None:
        return f"nothing else on the row says the {what}"
    return f"{column} says {said}"


def _as_said(tricks: object) -> object:
    """A Tricks or Result cell's reading (tricks, relative) as a message shows it."""
    if not isinstance(tricks, tuple):
        return None
    taken, rel = tricks
    return taken if taken is not None else "=" if rel == 0 else f"{rel:+d}"


def _read(said: object) -> object:
    """What a cell reads as (None: nothing, or nothing this notation reads)."""
    return said[1] if isinstance(said, tuple) else None


def _relative(tricks: object, level: object) -> object:
    """A Tricks or Result cell's reading (tricks, relative) as the result relative to the
    contract of ``level`` (None: none)."""
    if not isinstance(tricks, tuple) or not isinstance(level, int):
        return None
    taken, rel = tricks
    return rel if rel is not None else None if taken is None else taken - level - 6


def _part_agrees(x: object, y: object, elsewhere: object) -> bool:
    """The first contract cell's declarer (or result) ``x`` and its twin's ``y`` agree:
    alike, or the twin silent on it (the first is the one read, and the row's other
    checks compare it with the By column), or the first silent and the twin's the one
    the row says ``elsewhere``."""
    if x == y or y is None:
        return True
    return x is None and y == elsewhere


def _cells_say(cells: pd.Series, field: str, notation: str) -> list[object]:
    """What each cell of a ``field`` column says, worked out once per distinct cell: what it
    reads as (a tuple), else its text without case or spacing; None where it is blank."""
    codes, uniques = tx.distinct(cells)
    texts = [None if (t := tx.cell_text(u)) is None else _SPACE.sub("", t).casefold()
             for u in uniques]
    read = _READERS[field](pd.Series(uniques, dtype=object), notation) if field in _READERS \
        else [None] * len(uniques)
    said = [None if t is None else t if r is None else ("read", r)
            for t, r in zip(texts, read, strict=True)]
    return [None if c < 0 else said[c] for c in codes]


def _seats(cells: pd.Series, notation: str) -> list[object]:
    return [None if c < 0 else SEATS[c] for c in seat_codes(cells, notation)]


def _contracts(cells: pd.Series, notation: str) -> list[object]:
    parts = [contract_parts(t, NOTATIONS[notation]) for t in cleaned_texts(list(cells))]
    return [None if p[0] is None else p for p in parts]


def _leads_read(cells: pd.Series, notation: str) -> list[object]:
    return [None if pd.isna(lead) else lead for lead in parse_leads(cells, notation)]


def _numbers(cells: pd.Series, notation: str) -> list[object]:
    number, _ = whole_floats(cells)
    return [None if np.isnan(n) else int(n) for n in number]


def _tricks(cells: pd.Series, notation: str) -> list[object]:
    tricks, rel, _ = parse_tricks(cells)
    return [None if pd.isna(t) and pd.isna(r) else (None if pd.isna(t) else int(t),
                                                     None if pd.isna(r) else int(r))
            for t, r in zip(tricks, rel, strict=True)]


#: How each field's cells are read, to compare a column with its twin.
_READERS = {"declarer": _seats, "contract": _contracts, "lead": _leads_read,
            "board": _numbers, "tricks": _tricks, "result": _tricks}
_SPACE = re.compile(r"\s+")
