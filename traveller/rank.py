"""Matchpoints per board and the pairs' ranking (rules.md §5), by sort and groupby.

Matchpoints are computed from one stable sort of (board group, N-S score): a
result's matchpoints are twice the number of lower scores plus the number of
equal ones, which fall out of the positions of each run of equal scores. No
Python loop runs over rows or boards.
"""

from __future__ import annotations

import numpy as np
import pandas as pd

SCALES = {"2/1/0": 2.0, "1/0.5": 1.0}


def _group_ids(frame: pd.DataFrame, by_section: bool) -> np.ndarray:
    board = frame["board"].to_numpy(dtype=np.int64)
    if not by_section or "section" not in frame:
        return board
    section, _ = pd.factorize(frame["section"].astype("string").fillna(""))
    return section.astype(np.int64) * (int(board.max(initial=0)) + 1) + board


def board_matchpoints(groups: np.ndarray, scores: np.ndarray, win: float = 2.0
                      ) -> tuple[np.ndarray, np.ndarray]:
    """Matchpoints of each score against the others of its group, and the group sizes.

    ``win`` is 2 on the European 2/1/0 scale, 1 on the ACBL 1/½ scale.

    >>> mp, n = board_matchpoints(np.zeros(6, int), np.array([1380, 920, -50, -100, 430, 420]))
    >>> mp.tolist()
    [10.0, 8.0, 2.0, 0.0, 6.0, 4.0]
    """
    order = np.lexsort((scores, groups))
    g, s = groups[order], scores[order]
    n = len(order)
    new_group = np.r_[True, g[1:] != g[:-1]] if n else np.zeros(0, bool)
    new_run = new_group | np.r_[True, s[1:] != s[:-1]] if n else new_group
    group_start = np.maximum.accumulate(np.where(new_group, np.arange(n), 0))
    run_start = np.flatnonzero(new_run)
    run_len = np.diff(np.r_[run_start, n])
    run_of = np.cumsum(new_run) - 1
    below = run_start[run_of] - group_start
    equal = run_len[run_of] - 1
    group_len = np.diff(np.r_[np.flatnonzero(new_group), n])
    size = group_len[np.cumsum(new_group) - 1]
    mp = np.empty(n)
    count = np.empty(n, dtype=np.int64)
    mp[order] = win * below + (win / 2) * equal
    count[order] = size
    return mp, count


def neuberg(mp: np.ndarray, results: np.ndarray, expected: np.ndarray | int,
            win: float = 2.0) -> np.ndarray:
    """Neuberg: matchpoints among ``results`` scaled to a board played ``expected`` times.

    On the 2/1/0 scale ``M' = (M + 1)·E/A − 1`` (1/½: ``(M + ½)·E/A − ½``).
    """
    half = win / 2
    return (mp + half) * np.asarray(expected) / results - half


def matchpoints(frame: pd.DataFrame, scale: str = "2/1/0", by_section: bool = True
                ) -> pd.DataFrame:
    """Add matchpoint columns to a scored traveller frame; returns a new frame.

    Adds ``results`` and ``top`` (of the board as played), ``ns_mp``, ``ew_mp``,
    ``ns_pct``, ``ew_pct`` (on that top, as a traveller prints them) and
    ``ns_mp_scaled``/``ew_mp_scaled``: Neuberg-scaled to the session's common top,
    which the pair totals use.
    """
    if scale not in SCALES:
        raise ValueError(f"unknown scale {scale!r}; choose from {', '.join(SCALES)}")
    win = SCALES[scale]
    out = frame.copy()
    if out.empty:
        for c in ("results", "top", "ns_mp", "ew_mp", "ns_pct", "ew_pct",
                  "ns_mp_scaled", "ew_mp_scaled"):
            out[c] = pd.Series(dtype="Float64")
        return out
    groups = _group_ids(out, by_section)
    mp, n = board_matchpoints(groups, out["ns_score"].to_numpy(dtype=np.int64), win)
    top = win * (n - 1)
    out["results"] = n
    out["top"] = top
    out["ns_mp"] = mp
    out["ew_mp"] = top - mp
    with np.errstate(invalid="ignore", divide="ignore"):
        pct = np.where(top > 0, 100 * mp / np.where(top > 0, top, 1), 50.0)
    out["ns_pct"] = pct
    out["ew_pct"] = 100 - pct
    key = out["section"] if by_section and "section" in out else pd.Series("", index=out.index)
    # The common top is that of the boards played most often, so that Neuberg
    # only ever scales a board up and stays within 0..top.
    expected = out.groupby(key.to_numpy())["results"].transform("max").to_numpy()
    scaled = neuberg(mp, n, expected, win)
    out["ns_mp_scaled"] = scaled
    out["ew_mp_scaled"] = win * (expected - 1) - scaled
    out["common_top"] = win * (expected - 1)
    return out


def _pair_rows(frame: pd.DataFrame, movement: str) -> pd.DataFrame:
    """One row per (result, side) with the side's pair key and its scaled matchpoints."""
    sides = []
    for line, pair, mp in (("NS", "ns_pair", "ns_mp_scaled"), ("EW", "ew_pair", "ew_mp_scaled")):
        side = pd.DataFrame({
            "section": frame["section"].astype("string").fillna("").to_numpy(),
            "line": line if movement == "mitchell" else "",
            "pair": frame[pair].to_numpy(),
            "mp": frame[mp].to_numpy(dtype=float),
            "top": frame["common_top"].to_numpy(dtype=float),
        })
        sides.append(side)
    return pd.concat(sides, ignore_index=True)


def places(values: pd.Series, groups: pd.Series) -> pd.Series:
    """Places by ``values`` descending within each group, ties shared and written "2="."""
    key = values.round(6)
    rank = key.groupby(groups.to_numpy()).rank(method="min", ascending=False).astype(int)
    tied = key.groupby([groups.to_numpy(), key.to_numpy()]).transform("size") > 1
    return rank.astype(str).where(~tied, rank.astype(str) + "=")


def rank_pairs(frame: pd.DataFrame, movement: str = "mitchell",
               names: pd.DataFrame | None = None) -> pd.DataFrame:
    """The ranking: total (Neuberg-scaled) matchpoints and percentage per pair.

    Lines are ranked separately in a Mitchell; pairs are placed by percentage,
    which also ranks pairs that played different numbers of boards fairly.
    Columns: section, line, pair, names, boards, mp, pct, place.
    """
    columns = ["section", "line", "pair", "names", "boards", "mp", "pct", "place"]
    if frame.empty:
        return pd.DataFrame(columns=columns)
    sides = _pair_rows(frame, movement)
    totals = sides.groupby(["section", "line", "pair"], as_index=False).agg(
        boards=("mp", "size"), mp=("mp", "sum"), possible=("top", "sum"))
    totals["pct"] = 100 * totals["mp"] / totals["possible"].where(totals["possible"] > 0)
    totals["pct"] = totals["pct"].fillna(50.0)
    totals["place"] = places(totals["pct"], totals["section"] + "|" + totals["line"])
    totals["names"] = attach_names(totals, names)
    totals["pair"] = totals["pair"].astype("Int64")
    order = totals.assign(_p=totals["place"].str.rstrip("=").astype(int))
    order = order.sort_values(["section", "line", "_p", "pair"],
                              key=lambda c: c.map({"NS": 0, "EW": 1}) if c.name == "line" else c)
    return order[columns].reset_index(drop=True)


def attach_names(totals: pd.DataFrame, names: pd.DataFrame | None) -> pd.Series:
    """Names for each (section, line, pair): exact line first, then a names row with no line."""
    if names is None or names.empty:
        return pd.Series("", index=totals.index, dtype="string")
    table = names.copy()
    table["pair"] = table["pair"].astype("Int64")
    if not table["section"].astype(bool).any():
        table["section"] = None
    result = pd.Series(pd.NA, index=totals.index, dtype="string")
    for keys in (["section", "line", "pair"], ["section", "pair"], ["line", "pair"], ["pair"]):
        usable = table.dropna(subset=[k for k in keys if k == "section"])
        if "line" not in keys:
            usable = usable[usable["line"] == ""]
        lookup = usable.drop_duplicates(keys).set_index(keys)["names"]
        index = pd.MultiIndex.from_frame(totals[keys]) if len(keys) > 1 else totals[keys[0]]
        found = pd.Series(lookup.reindex(index).to_numpy(), index=totals.index, dtype="string")
        result = result.fillna(found)
    return result.fillna("")
