"""Whole-session checks: the movement (Mitchell or Howell) and pairs seen twice.

A Mitchell ranks each line on its own (pair 5 N-S and pair 5 E-W are two
pairs); a Howell ranks one field. The movement is told from the pair numbers:
when one number sits on both lines of the same board, the lines are numbered
separately (Mitchell); when most pairs change line between boards, it is a
Howell; otherwise each pair keeps its line (a Mitchell with its own numbers).
"""

from __future__ import annotations

import numpy as np
import pandas as pd

from traveller.problems import combine, flag
from traveller.schema import LINE_WORDS
from traveller.score.sides import result_sides
from traveller.tidy import seating
from traveller.tidy.few_boards import few_boards

MOVEMENTS = ("auto", "mitchell", "howell")


def _seat_keys(frame: pd.DataFrame) -> tuple[np.ndarray, np.ndarray, int]:
    """Integer keys of (section, board, pair) for the N-S and E-W side of every result."""
    cells = frame["section"].array  # (a categorical's own codes: no hashing)
    section = cells.codes if isinstance(cells, pd.Categorical) else pd.factorize(cells)[0]
    board = frame["board"].to_numpy(dtype=np.int64)
    ns = frame["ns_pair"].to_numpy(dtype=np.int64, na_value=0)
    ew = frame["ew_pair"].to_numpy(dtype=np.int64, na_value=0)
    pairs = int(max(ns.max(initial=0), ew.max(initial=0))) + 1
    slot = (section.astype(np.int64) * (int(board.max(initial=0)) + 1) + board) * pairs
    return slot + ns, slot + ew, pairs


def shared_numbering(frame: pd.DataFrame,
                     keys: tuple[np.ndarray, np.ndarray, int] | None = None) -> bool:
    """True when most boards have a pair number on both lines in different results.

    That is the mark of a Mitchell numbered 1..n on each line. A number on both
    sides of one result only is not counted: that may be a pair playing itself.
    ``keys`` are the frame's :func:`_seat_keys` when the caller has them.
    """
    ns, ew, pairs = _seat_keys(frame) if keys is None else keys
    # hashing (no sort) on plain arrays: counts from factorize codes, no value_counts Series
    codes, seats = pd.factorize(np.concatenate([ns, ew[ns != ew]]))
    both = ns[np.isin(ns, ew)]
    shared = both[np.isin(both, seats[np.bincount(codes) > 1])]
    boards = len(pd.unique(shared // pairs))  # (hashing: a sort is slower at 1M rows)
    return boards > 0 and boards * 2 >= len(pd.unique(ns // pairs))


def detect_movement(frame: pd.DataFrame, shared: bool | None = None) -> str:
    """"mitchell" or "howell", told from the pair numbers (see the module docstring).

    >>> df = pd.DataFrame({"section": "", "board": [1, 1, 2, 2], "ns_pair": [1, 2, 3, 4],
    ...                    "ew_pair": [3, 4, 1, 2]})
    >>> detect_movement(df)
    'howell'
    """
    if frame.empty or (shared_numbering(frame) if shared is None else shared):
        return "mitchell"
    distinct = result_sides(frame, section_codes=True).drop_duplicates(["section", "pair", "line"])
    pairs = distinct.drop_duplicates(["section", "pair"])
    on_both = len(distinct) - len(pairs)
    return "howell" if on_both * 2 > len(pairs) else "mitchell"


def session_checks(frame: pd.DataFrame, movement: str = "auto"
                   ) -> tuple[pd.DataFrame, pd.DataFrame, str]:
    """Drop and list results that cannot stand in the movement.

    Returns (rows kept, problems, movement decided).
    """
    if movement not in MOVEMENTS:
        raise ValueError(f"unknown movement {movement!r}; choose from {', '.join(MOVEMENTS)}")
    if frame.empty:
        return frame, combine([]), "mitchell" if movement == "auto" else movement
    keys = _seat_keys(frame)  # once for the numbering and the duplicate checks
    # a Mitchell the user names is numbered per line: N-S 3 against E-W 3 is no pair
    # playing itself, even in a one-board file where nothing else shows the numbering
    shared = shared_numbering(frame, keys) or (
        movement == "mitchell" and bool((frame["ns_pair"] == frame["ew_pair"]).any()))
    if movement == "auto":
        movement = detect_movement(frame, shared)
    problems = []
    if movement == "howell" or not shared:
        # one number on both sides of a result: in a Mitchell numbered 1..n per line
        # that is pair n N-S against pair n E-W; otherwise it cannot be
        itself = (frame["ns_pair"] == frame["ew_pair"]).fillna(False).astype(bool)
        if itself.any():
            pairs = frame.loc[itself, "ns_pair"]
            problems.append(_listed(frame[itself], "pair-plays-itself", "pairs", pairs,
                                    "pair " + pairs.astype("string") + " on both sides"))
    if movement != "howell" and not shared:
        problems.append(_wrong_line(frame))
    problems.append(_duplicates(frame, movement, keys))
    found = combine(problems)
    per_line = shared and movement != "howell"  # N-S 4 and E-W 4 are two pairs
    if "_position" not in found:  # nothing listed (dropping an absent column still costs)
        kept = frame.reset_index(drop=True)
        return kept, combine([found, few_boards(kept, movement, per_line)]), movement
    listed = found["_position"].dropna()
    kept = frame.loc[~frame.index.isin(listed)] if len(listed) else frame
    kept = kept.reset_index(drop=True)
    found = combine([found.drop(columns="_position"), few_boards(kept, movement, per_line)])
    return kept, found, movement


def _any_seat_twice(frame: pd.DataFrame, movement: str,
                    keys: tuple[np.ndarray, np.ndarray, int]) -> bool:
    """Does some pair sit twice on one board (per line in a Mitchell)? One sort of integers."""
    ns, ew, _ = keys
    sides = [ns[~np.asarray(frame["ns_pair"].array.isna())],
             ew[~np.asarray(frame["ew_pair"].array.isna())]]
    if movement != "howell":  # a Mitchell tells the lines apart
        sides = [sides[0] * 2, sides[1] * 2 + 1]
    seats = np.sort(np.concatenate(sides))
    return bool((seats[1:] == seats[:-1]).any())


def _listed(rows: pd.DataFrame, code: str, column: str, pairs: pd.Series,
            detail: pd.Series) -> pd.DataFrame:
    """Problems for ``rows`` (frame rows, in the order of ``pairs``/``detail``), with positions."""
    found = flag(rows, code, column, pd.Series(pairs.to_numpy(), index=rows.index),
                 pd.Series(detail.to_numpy(), index=rows.index))
    return found.assign(_position=rows.index.to_numpy())


def _wrong_line(frame: pd.DataFrame) -> pd.DataFrame:
    """With lines numbered across the field, a pair keeps one line: list its stray results."""
    # a Bye line names only the sit-out pair
    seats = result_sides(frame, section_codes=True).dropna(subset=["pair"])
    counts = seats.groupby(["section", "pair", "line"], observed=True).size().unstack(fill_value=0)
    if not {"NS", "EW"} <= set(counts.columns):
        return combine([])
    home = counts.idxmax(axis=1).rename("home")
    seats = seats.join(home, on=["section", "pair"])
    stray = seats[seats["line"] != seats["home"]]
    rows = frame.iloc[stray["position"]]
    detail = ("pair " + stray["pair"].astype("string") + " is "
              + stray["home"].map(LINE_WORDS) + " on its other boards")
    return _listed(rows, "pair-on-both-lines", "pair", stray["pair"], detail)


def _duplicates(frame: pd.DataFrame, movement: str,
                keys: tuple[np.ndarray, np.ndarray, int]) -> pd.DataFrame:
    """Every result after the first of a pair on one board (per line in a Mitchell).

    A result both of whose pairs have another result on the board, each with a
    different row, is the one out of place (its pairs written on each other's
    lines, or on the wrong board): it is listed (``lines-swapped``) and the
    other rows are kept. The first result of a pair seen twice is listed too,
    as a warning: it is the one scored; unless the sheet's Round and Table cells
    say it is out of place (its pair does not sit at its table that round) and
    another of the pair's results on the board is not: that one is scored.
    """
    if not _any_seat_twice(frame, movement, keys):
        return combine([])
    seats = result_sides(frame, section_codes=True)
    if movement == "howell":
        seats = seats.assign(line="")
    key = ["section", "board", "line", "pair"]
    seats = seats.dropna(subset=["pair"]).sort_values("position", kind="stable")
    misplaced = _misplaced(seats, key) if movement != "howell" else []
    parts = []
    if misplaced:
        parts.append(_lines_swapped(frame, seats, key, misplaced))
        seats = seats[~seats["position"].isin(misplaced)]
    misfit = seating.misfits(frame)[seats["position"].to_numpy()]
    if misfit.any():  # a result seated where its pair was not comes after the one that fits
        seats = seats.assign(_misfit=misfit).sort_values(["_misfit", "position"],
                                                         kind="stable")
    first = seats.groupby(key, observed=True)["position"].transform("first")
    later = seats[seats["position"] != first].drop_duplicates("position")
    if later.empty:
        return combine(parts)
    rows = frame.iloc[later["position"]]
    first_row = frame["row"].iloc[first[later.index]].astype("string").to_numpy()
    before = (first[later.index] < later["position"]).to_numpy()
    detail = ("pair " + later["pair"].astype("string") + " on board "
              + later["board"].astype("string")
              + np.where(before, ", first at row ", ", scored at row ") + first_row
              + np.where(before, "", ": this row's pairs do not sit at its round and table "
                                     "on the round's other rows"))
    parts.append(_listed(rows, "duplicate-result", "pair", later["pair"], detail))
    kept = first[later.index].drop_duplicates()
    firsts = frame.iloc[kept.to_numpy()]
    again = (frame["row"].iloc[later["position"]].astype("string")
             .groupby(first[later.index].to_numpy()).agg(", ".join))
    found = flag(firsts, "duplicate-result", "pair", None,
                 pd.Series(("this result is scored; the pair's other result on the board (row "
                            + again.reindex(kept.to_numpy()).to_numpy() + ") is not"),
                           index=firsts.index), blocking=False)
    parts.append(found)  # (no _position: this row is kept)
    return combine(parts)


def _misplaced(seats: pd.DataFrame, key: list[str]) -> list[int]:
    """Positions of results whose two pairs each clash with a different other result."""
    size = seats.groupby(key, observed=True)["position"].transform("size")
    clash = seats[size > 1]
    if clash.empty:
        return []
    groups = clash.groupby(key, observed=True)["position"].agg(list)
    others: dict[int, list[set[int]]] = {}
    for members in groups:
        for p in members:
            others.setdefault(p, []).append(set(members) - {p})
    return sorted(p for p, sets in others.items()
                  if len(sets) == 2 and sets[0] and sets[1] and not sets[0] & sets[1])


def _lines_swapped(frame: pd.DataFrame, seats: pd.DataFrame, key: list[str],
                   misplaced: list[int]) -> pd.DataFrame:
    """``lines-swapped`` errors for the results :func:`_misplaced` found."""
    rows = frame.iloc[misplaced]
    ns, ew = rows["ns_pair"].astype("string"), rows["ew_pair"].astype("string")
    detail = ("N-S " + ns + " and E-W " + ew + " each have another result on board "
              + rows["board"].astype("string") + "; N-S " + ew + " against E-W " + ns
              + " may be what was played")
    return _listed(rows, "lines-swapped", "pairs", ns, detail)
