"""Pairs' names written on the traveller's own rows ("NS Names", "EW Players"), checked.

Some clubs' sheets carry the names of each result's pairs beside their numbers.
Every row then states the pair's names again, so each statement is compared
with the others: a pair (section, line and number) whose rows name it two ways
has one of them wrong (a pair number typed wrong, or a name), and is listed
(``names-disagree``); so is a row that writes a pair's names beside another pair's
number (``names-of-another-pair``). Both are warnings: the result is scored as its
pair numbers read.

The names a session is ranked with are those of the names sheet or file where
it names the pair, else those of the first row that names it. The same names
written otherwise (case, spacing, the players' order, ``&`` or ``-`` between
them) are the same names. In a Howell a pair keeps its number on both lines, so
its N-S and E-W rows are one pair's.
"""

from __future__ import annotations

from functools import cache

import numpy as np
import pandas as pd

from traveller.problems import combine, flag
from traveller.read.headers import header_key
from traveller.schema import LINE_WORDS, PLAYERS_SPLIT, ROW_NAMES_LINES, ROW_NAMES_WORDS
from traveller.score.names import attach_columns
from traveller.tidy.text import is_missing

#: The given names table's columns of single players, and the names row's own.
_PLAYERS = ("player1", "player2")
_IDS = ("id1", "id2")


@cache
def _line_of_key() -> dict[str, str]:
    """Header key -> the line whose names the column writes ("nsnames" -> "NS")."""
    return {key: line for line, words in ROW_NAMES_LINES.items() for w in words
            for n in ROW_NAMES_WORDS for key in (w + n, n + w)}


def names_columns(columns: pd.Index | list[object]) -> dict[str, str]:
    """The columns that write names on each row: line ("NS", "EW") -> the column's name.

    >>> names_columns(["Board", "NS", "NS Names", "EW", "Players E-W"])
    {'NS': 'NS Names', 'EW': 'Players E-W'}
    """
    found: dict[str, str] = {}
    index = _line_of_key()
    for column in columns:
        line = index.get(header_key(str(column)))
        if line is not None:
            found.setdefault(line, str(column))
    return found


def session_names(travellers: pd.DataFrame, movement: str, given: pd.DataFrame | None
                  ) -> tuple[pd.DataFrame | None, pd.DataFrame]:
    """The names the session is ranked with, and the problems of the rows' names.

    ``travellers`` are the rows as normalised (section, ns_pair, ew_pair, file, sheet,
    row, and each input column kept under its header); ``given`` the names table read
    from a names sheet or file (None: none). Where the rows write no names,
    ``given`` is returned as it is. Otherwise each pair the rows name and ``given``
    does not is added to it, named as its first row names it.

    A row is listed where the pair it names is named otherwise by ``given`` (whose
    names are used) or by an earlier row (whose are); a pair is compared within
    its section and, in a Mitchell, its line (``names-disagree``). A row is listed too
    where its pair's names are those the rows give another pair more often, or as
    often and first: its pair number may be typed wrong (``names-of-another-pair``).
    Both are warnings; the results are scored as their pair numbers read.
    """
    columns = names_columns(travellers.columns)
    if not columns or travellers.empty or "north" in travellers:  # (an individual: players)
        return given, combine([])
    keys, texts, places = _statements(travellers, columns, movement == "mitchell")
    if not keys:
        return given, combine([])
    first: dict[tuple[str, str, int], int] = {}
    for i, key in enumerate(keys):
        first.setdefault(key, i)
    pairs = list(first)
    named = _given_names(pairs, given)
    said = [_said(t) for t in texts]
    later, details = [], []
    for i, key in enumerate(keys):
        theirs = named.get(key)
        if theirs is not None:
            if said[i] != _said(theirs):
                later.append(i)
                details.append(f"the names sheet or file names pair {_who(key)} '{theirs}', "
                               "and those names are used")
        elif said[i] != said[j := first[key]]:
            later.append(i)
            details.append(f"pair {_who(key)} is named '{texts[j]}' on "
                           f"{_place(places[j], places[i])}, and those names are used")
    extra = [k for k in pairs if k not in named]
    names = _with_rows(given, extra, [texts[first[k]] for k in extra])
    other, others = _another_pairs(keys, texts, said, places)
    return names, combine([_listed("names-disagree", later, details, texts, places),
                           _listed("names-of-another-pair", other, others, texts, places)])


def _another_pairs(keys: list[tuple[str, str, int]], texts: list[str],
                   said: list[frozenset[str]], places: list[_Place]
                   ) -> tuple[list[int], list[str]]:
    """The statements whose names the rows give more often (or as often, and first) to
    another pair: each statement's index and what the message adds.

    Names without a letter (``?``, ``-``) name nobody and are not compared.
    """
    rows_of: dict[frozenset[str], dict[tuple[str, str, int], list[int]]] = {}
    for i, (key, names) in enumerate(zip(keys, said, strict=True)):
        if any(c.isalpha() for c in "".join(names)):
            rows_of.setdefault(names, {}).setdefault(key, []).append(i)
    listed: list[tuple[int, str]] = []
    for by_pair in rows_of.values():
        if len(by_pair) < 2:
            continue
        theirs = max(by_pair, key=lambda k: len(by_pair[k]))  # (the first of a tie)
        rows = by_pair[theirs]
        shown = ", ".join(str(places[j][2]) for j in rows[:3])
        more = f" and {len(rows) - 3} more" if len(rows) > 3 else ""
        for key, mine in by_pair.items():
            if key != theirs:
                listed += [(i, f"'{texts[rows[0]]}' are pair {_who(theirs)} on row"
                               f"{'s' if len(rows) > 1 else ''} {shown}{more}"
                               f"{_elsewhere(places[rows[0]], places[i])}; here they are "
                               f"pair {_who(key)}") for i in mine]
    listed.sort()
    return [i for i, _ in listed], [d for _, d in listed]


def _listed(code: str, at: list[int], details: list[str], texts: list[str],
            places: list[_Place]) -> pd.DataFrame:
    """Problems ``code`` on the statements ``at``, each named by its names column."""
    if not at:
        return combine([])
    where = [places[i] for i in at]
    rows = pd.DataFrame({"file": [p[0] for p in where], "sheet": [p[1] for p in where],
                         "row": [p[2] for p in where], "board": [p[3] for p in where]})
    column_of = np.array([p[4] for p in where], dtype=object)
    values = pd.Series([texts[i] for i in at], index=rows.index, dtype=object)
    said = pd.Series(details, index=rows.index, dtype=object)
    return combine([flag(rows[mine], code, column, values[mine], said[mine], blocking=False)
                    for column in dict.fromkeys(column_of.tolist())
                    if (mine := column_of == column).any()])


#: A row's place: file, sheet, row number, board and the names column.
_Place = tuple[str, str, int, object, str]


def _statements(travellers: pd.DataFrame, columns: dict[str, str], by_line: bool
                ) -> tuple[list[tuple[str, str, int]], list[str], list[_Place]]:
    """Each names cell written for a numbered pair, in the sheet's order (N-S before E-W
    on a row): the pair's key (section, line or "" in a Howell, number), the names as
    written and where they are written."""
    sections = travellers["section"].astype("string").fillna("").tolist()
    files = travellers["file"].astype("string").fillna("").tolist()
    sheets = travellers["sheet"].astype("string").fillna("").tolist()
    numbers = travellers["row"].tolist()
    boards = travellers["board"].tolist() if "board" in travellers else [pd.NA] * len(files)
    cells = {line: (travellers[column].tolist(),
                    travellers[f"{line.lower()}_pair"].to_numpy(dtype=float, na_value=np.nan))
             for line, column in columns.items() if f"{line.lower()}_pair" in travellers}
    keys: list[tuple[str, str, int]] = []
    texts: list[str] = []
    places: list[_Place] = []
    for i in range(len(travellers)):
        for line, (names, pairs) in cells.items():
            text = _text(names[i])
            if not text or np.isnan(pairs[i]) or pairs[i] <= 0:
                continue
            keys.append((sections[i], line if by_line else "", int(pairs[i])))
            texts.append(text)
            places.append((files[i], sheets[i], numbers[i], boards[i], columns[line]))
    return keys, texts, places


def _text(cell: object) -> str:
    """A names cell as text without surrounding blanks; a missing cell as the empty text."""
    return "" if is_missing(cell) else str(cell).strip()


def _said(text: str) -> frozenset[str]:
    """What names say, case, spacing and the players' order aside."""
    return frozenset(p for part in PLAYERS_SPLIT.split(text)
                     if (p := " ".join(part.split()).casefold()))


def _who(key: tuple[str, str, int]) -> str:
    section, line, pair = key
    return " ".join(p for p in (section, LINE_WORDS.get(line, ""), str(pair)) if p)


def _place(there: _Place, here: _Place) -> str:
    """Where ``there`` is, said from ``here``: "row 4", "row 4 of sheet 'Board 2'"."""
    return f"row {there[2]}{_elsewhere(there, here)}"


def _elsewhere(there: _Place, here: _Place) -> str:
    """The file or sheet of ``there`` where it is not ``here``'s (" of sheet 'Board 2'")."""
    if there[0] != here[0]:
        return f" of {there[0]}" + (f" [{there[1]}]" if there[1] else "")
    return f" of sheet '{there[1]}'" if there[1] != here[1] else ""


def _given_names(pairs: list[tuple[str, str, int]], given: pd.DataFrame | None
                 ) -> dict[tuple[str, str, int], str]:
    """The names ``given`` has for each of ``pairs`` (the pairs it does not name left out),
    looked up as the ranking looks a pair's names up."""
    if given is None or given.empty or "names" not in given:
        return {}
    wanted = pd.DataFrame({"section": [k[0] for k in pairs], "line": [k[1] for k in pairs],
                           "pair": pd.array([k[2] for k in pairs], dtype="Int64")})
    found = attach_columns(wanted, given, ["names"])[0].tolist()
    return {k: str(n) for k, n in zip(pairs, found, strict=True) if str(n).strip()}


def _with_rows(given: pd.DataFrame | None, pairs: list[tuple[str, str, int]],
               names: list[str]) -> pd.DataFrame | None:
    """``given`` with a names row for each of ``pairs`` (none given: the rows' alone)."""
    if not pairs:
        return given
    parts = [[p.strip() for p in PLAYERS_SPLIT.split(n)] for n in names]
    rows = pd.DataFrame({
        "section": pd.array([k[0] for k in pairs], dtype="str"),
        "pair": pd.array([k[2] for k in pairs], dtype="Int64"),
        "line": pd.array([k[1] for k in pairs], dtype="str"),
        "names": pd.array(names, dtype="str"),
    })
    if given is None or given.empty:
        return rows
    for i, column in enumerate(_PLAYERS):
        if column in given:
            rows[column] = pd.array([p[i] if len(p) > i else "" for p in parts], dtype="str")
    for column in _IDS:
        if column in given:
            rows[column] = pd.array([""] * len(rows), dtype="str")
    return pd.concat([given, rows], ignore_index=True)
