"""Matchpoints of boards that carry rulings (docs/scoring.md, docs/rulings.md), vectorised.

What a board is scored on:

- the rows compared with each other: played results, weighted scores (each
  part compared with the field, then weighted) and split scores (N-S's and
  E-W's scores each compared on their own side); a fouled board's groups are
  compared apart;
- the board's tables ``E``: the compared rows plus the artificial scores;
  a not-played row and a phantom's table are no table;
- Neuberg scales the compared rows' matchpoints from the ``A`` compared to
  the ``E`` tables (``(M + 1)·E/A − 1``), then to the section's common top
  for the totals;
- an artificial score gets its percentage of the board's top (and of the
  common top in the totals); a phantom's table the ``phantom_award`` for
  the real pair and 0 for the phantom, or nothing when no award is set.

A comparison is a sort: each part's matchpoints are twice the weight of the
parts below it plus the weight of the parts equal to it, minus what its own
row contributes. No Python loop runs over rows or boards.
"""

from __future__ import annotations

import numpy as np
import pandas as pd

from traveller.score.groups import board_groups
from traveller.tidy import rulings


def weighted_matchpoints(groups: np.ndarray, scores: np.ndarray, weights: np.ndarray,
                         win: float = 2.0) -> np.ndarray:
    """Per entry: ``win`` × weight of the lower scores + ``win/2`` × weight of the equal ones.

    Counts the entry itself among the equal ones (the caller takes its own row out).

    >>> weighted_matchpoints(np.zeros(3, int), np.array([10., 20., 20.]), np.ones(3)).tolist()
    [1.0, 4.0, 4.0]
    """
    n = len(scores)
    if n == 0:
        return np.zeros(0)
    order = np.lexsort((scores, groups))
    g, s, w = groups[order], scores[order], weights[order]
    new_group = np.r_[True, g[1:] != g[:-1]]
    new_run = new_group | np.r_[True, s[1:] != s[:-1]]
    before = np.cumsum(w) - w  # weight of the entries sorted before each one
    group_start = np.flatnonzero(new_group)
    run_start = np.flatnonzero(new_run)
    run_end = np.r_[run_start[1:], n]
    run_weight = np.cumsum(w)[run_end - 1] - before[run_start]
    run_of = np.cumsum(new_run) - 1
    below = before[run_start][run_of] - before[group_start][np.cumsum(new_group) - 1]
    out = np.empty(n)
    out[order] = win * below + (win / 2) * run_weight[run_of]
    return out


def raw_matchpoints(frame: pd.DataFrame, groups: np.ndarray, compared: np.ndarray,
                    win: float = 2.0) -> tuple[np.ndarray, np.ndarray]:
    """N-S and E-W matchpoints of each compared row among the compared rows of its group.

    ``groups`` holds each row's comparison group (board, or fouled-board
    group). Rows not compared get NaN.
    """
    result = {}
    for side, sign in (("NS", 1.0), ("EW", -1.0)):
        position, weight, score = rulings.parts(frame, compared)[side]
        score = sign * score
        field = weighted_matchpoints(groups[position], score, weight, win)
        own = weighted_matchpoints(position, score, weight, win)
        mp = np.bincount(position, weights=weight * (field - own), minlength=len(frame))
        result[side] = np.where(compared, mp, np.nan)
    return result["NS"], result["EW"]


def neuberg(mp: np.ndarray, results: np.ndarray, expected: np.ndarray, win: float = 2.0
            ) -> np.ndarray:
    """Neuberg's formula ``(M + win/2)·E/A − win/2`` (identity when ``A == E``)."""
    half = win / 2
    with np.errstate(invalid="ignore", divide="ignore"):
        return (mp + half) * expected / results - half


def _per_group(ids: np.ndarray, values: np.ndarray, how: str = "sum") -> np.ndarray:
    """A group aggregate (sum or max) spread back to each row."""
    codes, dense = np.unique(ids, return_inverse=True)
    if how == "sum":
        return np.bincount(dense, weights=values, minlength=len(codes))[dense]
    top = np.full(len(codes), -np.inf)
    np.maximum.at(top, dense, values)
    return top[dense]


def needed(frame: pd.DataFrame) -> bool:
    """True when a frame has anything but plain results: rulings, fouled groups, phantoms."""
    # the same test as rulings.kinds(frame) != "result", without a string per row:
    # a ruling is written, or a row has no score (not played)
    ruled = "ruling_kind" in frame and not frame["ruling_kind"].array.isna().all()
    unscored = "ns_score" in frame and bool(frame["ns_score"].array.isna().any())
    fouled = "fouled" in frame and bool((frame["fouled"].astype("string").fillna("") != "").any())
    return ruled or unscored or fouled


def score_boards(frame: pd.DataFrame, win: float, by_section: bool,
                 phantom_award: float | None, among_real: bool = False) -> dict[str, np.ndarray]:
    """Every matchpoint column of a session, as arrays aligned with ``frame``'s rows.

    ``among_real``: a board's top is that of its compared results alone (no
    Neuberg on the board; artificial scores get their % of that top).
    """
    kind = rulings.kinds(frame)
    compared = np.isin(kind, rulings.COMPARED)
    board, group, section = board_groups(frame, by_section)
    results = _per_group(group, compared.astype(float))
    tables = (results if among_real
              else _per_group(board, np.isin(kind, rulings.TABLES).astype(float)))
    common = np.maximum(_per_group(section, tables, "max"), 1)
    ns_raw, ew_raw = raw_matchpoints(frame, group, compared, win)
    cols = {"results": tables.astype(np.int64), "top": win * np.maximum(tables - 1, 0),
            "common_top": win * (common - 1)}
    for side, raw in (("ns", ns_raw), ("ew", ew_raw)):
        cols[f"{side}_mp"] = neuberg(raw, results, tables, win)
        cols[f"{side}_mp_scaled"] = neuberg(raw, results, common, win)
    awards = _awards(frame, kind, phantom_award)
    for side in ("ns", "ew"):
        award = awards[side]
        given = ~np.isnan(award)
        cols[f"{side}_mp"] = np.where(given, award / 100 * cols["top"], cols[f"{side}_mp"])
        cols[f"{side}_mp_scaled"] = np.where(given, award / 100 * cols["common_top"],
                                             cols[f"{side}_mp_scaled"])
        with np.errstate(invalid="ignore", divide="ignore"):
            pct = 100 * cols[f"{side}_mp"] / cols["top"]
        pct = np.where(cols["top"] > 0, pct,
                       np.where(np.isnan(cols[f"{side}_mp"]), np.nan, 50.0))
        cols[f"{side}_pct"] = np.where(given, award, pct)  # an award is its percentage exactly
        cols[f"{side}_award"] = award
    return cols


def _awards(frame: pd.DataFrame, kind: np.ndarray, phantom_award: float | None
            ) -> dict[str, np.ndarray]:
    """The percentage each side is awarded (NaN where the row is compared or not scored)."""
    out = {}
    phantom = (frame["phantom"].astype("string").fillna("").to_numpy()
               if "phantom" in frame else np.full(len(frame), ""))
    if "arrow" in frame:  # the phantom held the other line's cards
        arrow = frame["arrow"].astype("boolean").fillna(False).to_numpy(dtype=bool)
        phantom = np.where(arrow, pd.Series(phantom).map({"NS": "EW", "EW": "NS", "": ""}),
                           phantom)
    for side in ("ns", "ew"):
        column = f"{side}_award"
        award = (frame[column].to_numpy(dtype=float, na_value=np.nan) if column in frame
                 else np.full(len(frame), np.nan))
        award = np.where(kind == "average", award, np.nan)
        if phantom_award is not None:
            line_row = (kind == "phantom") & np.isin(phantom, ["NS", "EW"])  # phantom told
            award = np.where(line_row & (phantom == side.upper()), 0.0, award)
            award = np.where(line_row & (phantom != side.upper()), phantom_award, award)
        out[side] = award
    return out


def session_awards(frame: pd.DataFrame, movement: str) -> pd.DataFrame:
    """Raise average-plus to the pair's session % when higher, lower average-minus likewise.

    The EBU/WBF option (Law 12C2): a pair awarded 60 % whose percentage on the
    boards it played (results, weighted and split scores; not the awards) is
    higher gets that percentage; a pair awarded 40 % whose percentage is lower
    gets its own. Takes a frame already matchpointed; returns it with new
    ``ns_award``/``ew_award`` for :func:`traveller.score.rank.matchpoints` to apply.
    """
    from traveller.score.sides import pair_sides

    kind = rulings.kinds(frame)
    if not (kind == "average").any():
        return frame
    sides = pair_sides(frame, movement)
    key = ["section", "line", "pair"]
    played = sides[sides["compared"] & sides["mp"].notna()]
    totals = played.groupby(key)[["mp", "top"]].sum()
    own = 100 * totals["mp"] / totals["top"].where(totals["top"] > 0)
    ruled = sides[kind[sides["position"].to_numpy()] == "average"]
    pct = own.reindex(pd.MultiIndex.from_frame(ruled[key])).to_numpy()
    out = frame.copy()
    for held in ("NS", "EW"):
        mine = ruled[(ruled["held"] == held).to_numpy()]
        column = f"{held.lower()}_award"
        position = mine["position"].to_numpy()
        award = out[column].to_numpy(dtype=float, na_value=np.nan)[position]
        session = pct[(ruled["held"] == held).to_numpy()]
        better = np.where(award == rulings.AVERAGE_PLUS, np.fmax(award, session), award)
        better = np.where(award == rulings.AVERAGE_MINUS, np.fmin(award, session), better)
        values = out[column].astype("Float64").to_numpy(dtype=float, na_value=np.nan)
        values[position] = better
        out[column] = pd.array(values, dtype="Float64")
    return out
