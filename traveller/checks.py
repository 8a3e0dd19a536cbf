"""Whole-session checks: the movement (Mitchell or Howell) and pairs seen twice.

A Mitchell ranks each line on its own (pair 5 N-S and pair 5 E-W are two
pairs); a Howell ranks one field. The movement is told from the pair numbers:
when one number sits on both lines of the same board, the lines are numbered
separately (Mitchell); when most pairs change line between boards, it is a
Howell; otherwise each pair keeps its line (a Mitchell with its own numbers).
"""

from __future__ import annotations

import pandas as pd

from traveller.problems import combine, flag

MOVEMENTS = ("auto", "mitchell", "howell")


def _seats(frame: pd.DataFrame) -> pd.DataFrame:
    """One row per (result, side): section, board, line, pair and ``position`` (frame index)."""
    sides = []
    for line, column in (("NS", "ns_pair"), ("EW", "ew_pair")):
        side = frame[["section", "board", column]].rename(columns={column: "pair"})
        sides.append(side.assign(line=line, position=frame.index))
    return pd.concat(sides, ignore_index=True)


def shared_numbering(frame: pd.DataFrame) -> bool:
    """True when most boards have a pair number on both lines in different results.

    That is the mark of a Mitchell numbered 1..n on each line. A number on both
    sides of one result is not counted: that is a pair playing itself (an error).
    """
    seats = _seats(frame)
    per_seat = seats.groupby(["section", "board", "pair"], observed=True).agg(
        lines=("line", "nunique"), results=("position", "nunique"))
    both = per_seat[(per_seat["lines"] > 1) & (per_seat["results"] > 1)]
    boards = both.reset_index()[["section", "board"]].drop_duplicates()
    total = frame[["section", "board"]].drop_duplicates()
    return len(boards) * 2 >= len(total) and len(boards) > 0


def detect_movement(frame: pd.DataFrame) -> str:
    """"mitchell" or "howell", told from the pair numbers (see the module docstring).

    >>> df = pd.DataFrame({"section": "", "board": [1, 1, 2, 2], "ns_pair": [1, 2, 3, 4],
    ...                    "ew_pair": [3, 4, 1, 2]})
    >>> detect_movement(df)
    'howell'
    """
    if frame.empty or shared_numbering(frame):
        return "mitchell"
    lines = _seats(frame).groupby(["section", "pair"], observed=True)["line"].nunique()
    return "howell" if (lines > 1).mean() > 0.5 else "mitchell"


def session_checks(frame: pd.DataFrame, movement: str = "auto"
                   ) -> tuple[pd.DataFrame, pd.DataFrame, str]:
    """Drop and list results that cannot stand in the movement.

    Returns (rows kept, problems, movement decided).
    """
    if movement not in MOVEMENTS:
        raise ValueError(f"unknown movement {movement!r}; choose from {', '.join(MOVEMENTS)}")
    if frame.empty:
        return frame, combine([]), "mitchell" if movement == "auto" else movement
    if movement == "auto":
        movement = detect_movement(frame)
    problems = []
    if movement == "howell":
        itself = (frame["ns_pair"] == frame["ew_pair"]).fillna(False).astype(bool)
        problems.append(flag(frame[itself], "pair-plays-itself", "pairs",
                             frame.loc[itself, "ns_pair"]))
    else:
        problems.append(_wrong_line(frame))
    problems.append(_duplicates(frame, movement))
    found = combine(problems)
    listed = found["_position"].dropna() if "_position" in found else []
    kept = frame.loc[~frame.index.isin(listed)].reset_index(drop=True)
    return kept, found.drop(columns="_position", errors="ignore"), movement


def _listed(rows: pd.DataFrame, code: str, column: str, pairs: pd.Series,
            detail: pd.Series) -> pd.DataFrame:
    """Problems for ``rows`` (frame rows, in the order of ``pairs``/``detail``), with positions."""
    found = flag(rows, code, column, pd.Series(pairs.to_numpy(), index=rows.index),
                 pd.Series(detail.to_numpy(), index=rows.index))
    return found.assign(_position=rows.index.to_numpy())


def _wrong_line(frame: pd.DataFrame) -> pd.DataFrame:
    """With lines numbered across the field, a pair keeps one line: list its stray results."""
    if shared_numbering(frame):
        return combine([])
    seats = _seats(frame)
    counts = seats.groupby(["section", "pair", "line"], observed=True).size().unstack(fill_value=0)
    if not {"NS", "EW"} <= set(counts.columns):
        return combine([])
    home = counts.idxmax(axis=1).rename("home")
    seats = seats.join(home, on=["section", "pair"])
    stray = seats[seats["line"] != seats["home"]]
    rows = frame.loc[stray["position"]]
    detail = ("pair " + stray["pair"].astype("string") + " is "
              + stray["home"].map({"NS": "N-S", "EW": "E-W"}) + " on its other boards")
    return _listed(rows, "pair-on-both-lines", "pair", stray["pair"], detail)


def _duplicates(frame: pd.DataFrame, movement: str) -> pd.DataFrame:
    """Every result after the first of a pair on one board (per line in a Mitchell)."""
    seats = _seats(frame)
    if movement == "howell":
        seats = seats.assign(line="")
    key = ["section", "board", "line", "pair"]
    seats = seats.dropna(subset=["pair"]).sort_values("position", kind="stable")
    first = seats.groupby(key, observed=True)["position"].transform("min")
    later = seats[seats["position"] != first].drop_duplicates("position")
    if later.empty:
        return combine([])
    rows = frame.loc[later["position"]]
    first_row = frame.loc[first[later.index], "row"].astype("string").to_numpy()
    detail = ("pair " + later["pair"].astype("string") + " on board "
              + later["board"].astype("string") + ", first at row " + first_row)
    return _listed(rows, "duplicate-result", "pair", later["pair"], detail)
