"""The pairs at a table, against the Round and Table columns that say where they sat.

A sheet exported from the table's scoring device (or kept with the movement
card beside it) states each result's round and table as well as its pair
numbers: a second statement of who played. In one round the same two pairs
sit at a table for every board they play there, and a pair sits at one table.
So a row whose N-S (or E-W) pair is not the one the round's other rows at its
table name, or a pair found at two tables in one round, has a pair number, a
round or a table typed wrong. Which one the sheet cannot say: the row is
scored as its pair numbers read and listed as ``seat-disagrees`` (a warning)
naming the rows it disagrees with, where the pair number is the first thing to
check (the score goes to the pair the row names).

The check is made per file, section and room (a teams match seats both teams
at one table number, once in each room) and only where both columns are
there; an individual's partnerships change every round, so it is not checked.
"""

from __future__ import annotations

import numpy as np
import pandas as pd

from traveller.problems import combine, flag
from traveller.read.headers import header_key
from traveller.schema import METHOD_COLUMNS
from traveller.tidy.cells import as_text

#: Header keys of the two columns (case and punctuation aside).
ROUND_KEYS = frozenset({"round", "rnd", "rd", "runda", "tur", "тур", "раунд"})
TABLE_KEYS = frozenset({"table", "tbl", "tab", "stół", "stol", "stolik", "стол"})
_LINES = (("ns_pair", "N-S"), ("ew_pair", "E-W"))


def _column(frame: pd.DataFrame, keys: frozenset[str]) -> str | None:
    return next((c for c in frame.columns if isinstance(c, str) and header_key(c) in keys),
                None)


#: Each row that does not fit, by its label: what it disagrees with, per line.
_Said = dict[object, list[tuple[str, str, str, str]]]


def seating_problems(frame: pd.DataFrame) -> pd.DataFrame:
    """``seat-disagrees`` warnings for the rows of ``frame`` (the rows kept) whose pairs
    and Round and Table cells do not fit together (see the module)."""
    found = _disagreements(frame)
    if found is None:
        return combine([])
    said, place, round_col, table_col = found
    rows = frame.loc[list(said)]
    words = round_col.lower(), table_col.lower()
    details = [_said(place.loc[i], lines, *words) for i, lines in said.items()]
    # (named by the two cells it holds the pairs against: the pair columns' own problems,
    # a pair of few boards say, stay listed beside it)
    typed = place.loc[list(said), "round"] + "/" + place.loc[list(said), "table"]
    return flag(rows, "seat-disagrees", f"{round_col}/{table_col}", typed,
                pd.Series(details, index=rows.index), blocking=False)


def misfits(frame: pd.DataFrame) -> np.ndarray:
    """True for each row of ``frame`` whose pairs do not fit its Round and Table cells (the
    rows :func:`seating_problems` lists), by position."""
    found = _disagreements(frame)
    return (np.zeros(len(frame), dtype=bool) if found is None
            else np.asarray(frame.index.isin(list(found[0]))))


def _disagreements(frame: pd.DataFrame) -> tuple[_Said, pd.DataFrame, str, str] | None:
    """The rows that do not fit, the rounds and tables as text, and the two columns' names;
    None where nothing is to be said (no such columns, an individual, every row fits)."""
    round_col, table_col = _column(frame, ROUND_KEYS), _column(frame, TABLE_KEYS)
    if round_col is None or table_col is None or frame.empty or "north" in frame:
        return None
    if _all_fit(frame, round_col, table_col):  # (the usual session: one pass of integers)
        return None
    rounds, tables = as_text(frame[round_col]), as_text(frame[table_col])
    place = pd.DataFrame({"file": frame["file"].astype("string"),
                          "section": frame["section"].astype("string").fillna("")
                          if "section" in frame else "",
                          "room": "", "round": rounds, "table": tables,
                          "sheet": frame["sheet"].astype("string").fillna(""),
                          "row": frame["row"], "board": frame["board"]}, index=frame.index)
    room = _column(frame, frozenset(header_key(k) for k in METHOD_COLUMNS["room"]))
    if room is not None:
        place["room"] = as_text(frame[room]).fillna("").str.casefold()
    said: _Said = {}
    for pair, line in _LINES:
        seated = place.assign(pair=frame[pair]).dropna(subset=["round", "table", "pair"])
        if seated.empty:
            continue
        at_table = ["file", "section", "room", "round", "table"]
        in_round = ["file", "section", "room", "round", "pair"]
        others = seated.groupby(at_table, sort=False)["pair"].transform("nunique") > 1
        tables_of = seated.groupby(in_round, sort=False)["table"].transform("nunique") > 1
        for i in seated.index[(others | tables_of).to_numpy()]:
            found = _disagreement(seated, at_table, in_round, i, line)
            if found is not None:
                said.setdefault(i, []).append(found)
    return (said, place, round_col, table_col) if said else None


def _all_fit(frame: pd.DataFrame, round_col: str, table_col: str) -> bool:
    """True when no table of a round has two pairs of a line and no pair two tables, by the
    cells' codes (cells alike but typed apart, ``5`` and ``5.0``, are told apart here and
    matched as text by the check proper)."""
    place = np.zeros(len(frame), dtype=np.int64)
    for name in ("file", "section", round_col):
        if name in frame:
            codes, uniques = pd.factorize(frame[name].array, use_na_sentinel=False)
            place = place * (len(uniques) + 1) + codes
    table, tables = pd.factorize(frame[table_col].array, use_na_sentinel=False)
    at_table = place * (len(tables) + 1) + table
    for pair in ("ns_pair", "ew_pair"):
        who, pairs = pd.factorize(frame[pair].array, use_na_sentinel=False)
        width = len(pairs) + 1
        seated = np.unique(at_table * width + who)
        if len(seated) != len(np.unique(at_table)):  # a table with two pairs of the line
            return False
        if len(np.unique(place * width + who)) != len(seated):  # a pair at two tables
            return False
    return True


def _said(me: pd.Series, lines: list[tuple[str, str, str, str]],
          round_word: str, table_word: str) -> str:
    """'round 5, table 4: N-S 6 and E-W 1 here, N-S 4 and E-W 7 on the table's other rows
    173, 181 (boards 22, 23)', a line's part said once where both lines' are alike."""
    parts: dict[tuple[str, str], tuple[list[str], list[str]]] = {}
    for kind, mine, theirs, rows in lines:
        here, there = parts.setdefault((kind, rows), ([], []))
        here.append(mine)
        there.append(theirs)
    texts = []
    for (kind, rows), (here, there) in parts.items():
        if kind == "table":
            texts.append(f"{' and '.join(here)} here, {' and '.join(there)} on the table's "
                         f"other {rows}")
        else:
            verb = "sit" if len(here) > 1 else "sits"
            texts.append(f"{' and '.join(here)} {verb} at {table_word} {there[0]} in the same "
                         f"{round_word}, {rows}")
    return f"{round_word} {me['round']}, {table_word} {me['table']}: " + "; ".join(texts)


def _disagreement(seated: pd.DataFrame, at_table: list[str], in_round: list[str], i: object,
                  line: str) -> tuple[str, str, str, str] | None:
    """What row ``i`` of one line disagrees with: ("table", "N-S 6", "N-S 4", its rows) where
    another pair holds its table as often or more, ("elsewhere", "N-S 2", the tables, its
    rows) where the pair sits at another table of the round more often; None where it is
    the table's usual pair and sits at no other table (a row beside the one mistyped)."""
    me = seated.loc[i]
    same = (seated[at_table] == me[at_table]).all(axis=1).to_numpy()
    table = seated[same & (seated["pair"] != me["pair"]).to_numpy()]
    mine = int(same.sum()) - len(table)
    counts = table["pair"].value_counts()
    if len(table) and (len(counts) > 1 or counts.iloc[0] >= mine):
        pair = counts.index[0]
        return ("table", f"{line} {me['pair']}", f"{line} {pair}",
                _rows(table[table["pair"] == pair], me["sheet"]))
    same_round = (seated[in_round] == me[in_round]).all(axis=1).to_numpy()
    elsewhere = seated[same_round & (seated["table"] != me["table"]).to_numpy()]
    if len(elsewhere) and len(elsewhere) >= int(same_round.sum()) - len(elsewhere):
        tables = ", ".join(dict.fromkeys(elsewhere["table"].astype(str)))
        return ("elsewhere", f"{line} {me['pair']}", tables, _rows(elsewhere, me["sheet"]))
    return None


def _rows(rows: pd.DataFrame, sheet: str) -> str:
    """"rows 7, 8 (boards 4, 5)": the rows by their number as the user sees them (on another
    sheet than ``sheet``, the row's: "B4 row 7"), and their boards."""
    numbers = ", ".join(str(r) if s == sheet else f"{s} row {r}"
                        for s, r in zip(rows["sheet"], rows["row"], strict=True))
    boards = ", ".join(str(b) for b in dict.fromkeys(rows["board"]))
    many = "s" if len(rows) > 1 else ""
    return f"row{many} {numbers} (board{'s' if rows['board'].nunique() > 1 else ''} {boards})"
