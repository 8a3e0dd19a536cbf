"""Pairs with results on far fewer boards than the rest of their field.

A pair number typed wrong on one traveller (14 for 4) makes a pair of its
own with one board, which the ranking would place, perhaps first with a top,
while pair 4 quietly lacks that board. A pair that played part of the session
(late, or a substitute numbered apart) looks the same. Neither is an error in
itself, so each such pair is listed once, as a warning on its first row,
naming its boards and the pairs of its line that have no result on them (the
pair it may have been written for).

"Far fewer" is under half the number of boards most pairs of the section have
(the median), in a section whose pairs have four or more; a session whose file
holds only a few travellers has no such field, and nothing is listed.
"""

from __future__ import annotations

import re
from collections.abc import Callable

import numpy as np
import pandas as pd

from traveller.errors import PROBLEM_CODES
from traveller.problems import FIXES, combine, flag
from traveller.score.sides import result_sides

#: A section whose pairs have fewer boards than this (the median) is not checked.
SMALLEST_FIELD = 4
#: How many pairs that lack a short pair's boards the warning names.
NAMED = 3


def few_boards(frame: pd.DataFrame, movement: str, per_line: bool) -> pd.DataFrame:
    """``few-boards`` warnings for the short pairs of ``frame`` (rows kept, checked).

    ``per_line`` is true when the two lines are numbered apart (a Mitchell
    numbered 1..n on each line): N-S 4 and E-W 4 are then two pairs.

    >>> rows = [(b, p, p + 10) for b in range(1, 9) for p in (1, 2, 3)]
    >>> rows[5] = (2, 4, 13)  # pair 3 written 4 on board 2
    >>> df = pd.DataFrame(rows, columns=["board", "ns_pair", "ew_pair"]).assign(
    ...     section="", file="s.csv", sheet="", row=range(2, 26))
    >>> found = few_boards(df, "mitchell", False)
    >>> print(found["message"].iloc[0])  # doctest: +NORMALIZE_WHITESPACE
    s.csv row 7, pair '4': the pair has results on far fewer boards than most pairs of the
    session (pair 4 has a result on board 2 only (row 7), where most pairs have results on 8;
    pair 3 has none on board 2); check the pair number on the original traveller; nothing,
    if the pair did play only these boards
    """
    if frame.empty or not _any_short(frame, per_line):
        return combine([])
    seats = result_sides(frame, "mitchell" if per_line else "howell").dropna(subset=["pair"])
    played = seats.drop_duplicates(["section", "line", "pair", "board"])
    counts = played.groupby(["section", "line", "pair"], observed=True).size()
    typical = counts.groupby(level="section", observed=True).transform("median")
    short = counts[(typical >= SMALLEST_FIELD) & (counts * 2 < typical)]
    if short.empty:
        return combine([])
    boards = played.groupby(["section", "line", "pair"], observed=True)["board"].agg(frozenset)
    sections = len(seats["section"].unique()) > 1
    parts = []
    for section, line, pair in short.index:
        mine = seats[(seats["section"] == section) & (seats["line"] == line)
                     & (seats["pair"] == pair)].sort_values("position")
        first = frame.iloc[[int(mine["position"].iloc[0])]]
        rows = frame["row"].iloc[mine["position"].drop_duplicates()].astype("string").tolist()
        field = round(typical[(section, line, pair)])
        named = _who(section, line, sections, per_line)
        own = sorted(boards[(section, line, pair)])
        detail = (f"{named(pair)} has {_boards(own, rows)}, where most pairs have results "
                  f"on {field}")
        lacking = _lacking(boards, counts, section, line, pair, field)
        if lacking:
            detail += "; " + " and ".join(
                f"{named(q)} has none on {f'board {own[0]}' if len(own) == 1 else 'them'}"
                for q in lacking)
        parts.append(flag(first, "few-boards", "pair", pd.Series([str(pair)], index=first.index),
                          detail, blocking=False))
    return combine(parts)


def ranked_on_few(problems: pd.DataFrame) -> list[str]:
    """A sentence per ``few-boards`` pair for the foot of the ranking, where the pair is
    placed: its boards against the field's, without the rows (the Problems sheet has them).

    >>> found = pd.DataFrame({"code": ["few-boards"], "message": [
    ...     "s.csv row 7, pair '4': " + PROBLEM_CODES["few-boards"] + " (pair 4 has a result "
    ...     "on board 2 only (row 7), where most pairs have results on 8; pair 3 has none on "
    ...     "board 2); " + FIXES["few-boards"]]})
    >>> ranked_on_few(found)
    ['Pair 4 has a result on board 2 only, where most pairs have results on 8.']
    """
    if problems.empty or "code" not in problems:
        return []
    opening, closing = f": {PROBLEM_CODES['few-boards']} (", f"); {FIXES['few-boards']}"
    lines = []
    for message in problems.loc[problems["code"] == "few-boards", "message"].astype(str):
        start, end = message.find(opening), message.rfind(closing)
        if start < 0 or end < start:  # (not this module's message)
            continue
        detail = message[start + len(opening):end].split("; pair ")[0]  # (the pairs lacking)
        detail = _ROWS.sub("", _ROWS_AFTER.sub(")", detail))
        lines.append(detail[:1].upper() + detail[1:] + ".")
    return lines


#: The rows in a short pair's detail: "(row 7)" after one board, "; rows 12, 40)" after more.
_ROWS = re.compile(r" \(rows? [^()]*\)")
_ROWS_AFTER = re.compile(r"; rows? [^;()]*\)")


def _any_short(frame: pd.DataFrame, per_line: bool) -> bool:
    """Is some pair short of boards? On integer keys: most sessions have no such pair, and
    every session is checked (the messages are built with pandas only when one is)."""
    cells = frame["section"].array
    codes = cells.codes if isinstance(cells, pd.Categorical) else pd.factorize(cells)[0]
    section = np.tile(codes.astype(np.int64) + 1, 2)  # (a missing section's code is -1)
    board = np.tile(frame["board"].to_numpy(dtype=np.int64), 2)
    pair = np.concatenate([frame["ns_pair"].to_numpy(dtype=np.int64, na_value=-1),
                           frame["ew_pair"].to_numpy(dtype=np.int64, na_value=-1)])
    line = np.repeat([0, 1 if per_line else 0], len(frame))
    seen = pair >= 0
    pairs, boards = int(pair.max(initial=0)) + 1, int(board.max(initial=0)) + 1
    owner = ((section * 2 + line) * pairs + pair)[seen]
    owners, counts = np.unique(np.unique(owner * boards + board[seen]) // boards,
                               return_counts=True)
    of_section = owners // (2 * pairs)
    for code in np.unique(of_section):
        mine = counts[of_section == code]
        typical = float(np.median(mine))
        if typical >= SMALLEST_FIELD and bool((mine * 2 < typical).any()):
            return True
    return False


def _boards(own: list[int], rows: list[str]) -> str:
    """'a result on board 7 only (row 12)' / 'results on 3 boards (7, 8, 9; rows 12, 40, 77)'."""
    at = f"{'row' if len(rows) == 1 else 'rows'} {', '.join(rows)}"
    if len(own) == 1:
        return f"{'a result' if len(rows) == 1 else 'results'} on board {own[0]} only ({at})"
    return f"results on {len(own)} boards ({', '.join(str(b) for b in own)}; {at})"


def _who(section: str, line: str, sections: bool,
         per_line: bool) -> Callable[[object], str]:
    """A function naming a pair of this section and line as the message does."""
    where = f" in section {section}" if sections and section else ""
    side = {"NS": " N-S", "EW": " E-W"}.get(line, "") if per_line else ""
    return lambda p: f"pair {p}{side}{where}"


def _lacking(boards: pd.Series, counts: pd.Series, section: str, line: str, pair: object,
             field: int) -> list[object]:
    """Pairs of the line that have no result on any of ``pair``'s boards and miss some of
    the field's, those whose boards with ``pair``'s come nearest the field's first."""
    own = boards[(section, line, pair)]
    found = []
    for (s, ln, q), theirs in boards.items():
        if s == section and ln == line and q != pair and counts[(s, ln, q)] < field \
                and not own & theirs:
            found.append((abs(counts[(s, ln, q)] + len(own) - field), q))
    return [q for _, q in sorted(found, key=lambda t: (t[0], str(t[1])))[:NAMED]]
