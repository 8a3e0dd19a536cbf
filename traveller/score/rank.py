"""Matchpoints per board and the pairs' ranking (docs/scoring.md), by sort and groupby.

Matchpoints are computed from one stable sort of (board group, N-S score): a
result's matchpoints are twice the number of lower scores plus the number of
equal ones, which fall out of the positions of each run of equal scores. No
Python loop runs over rows or boards.
"""

from __future__ import annotations

import numpy as np
import pandas as pd

from traveller.score import adjusted
from traveller.score.groups import board_groups
from traveller.score.names import attach_names
from traveller.tidy import text as tx
from traveller.tidy.arrays import frame_of, with_columns

SCALES = {"2/1/0": 2.0, "1/0.5": 1.0}


def _run_bounds(starts: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """For sorted positions flagged where a run starts: each position's run start and end."""
    n = len(starts)
    idx = np.arange(n)
    first = np.maximum.accumulate(np.where(starts, idx, 0))
    ends = np.empty(n, dtype=bool)
    ends[:-1] = starts[1:]
    ends[-1:] = True
    last = np.minimum.accumulate(np.where(ends, idx, n)[::-1])[::-1]
    return first, last


def _starts(values: np.ndarray) -> np.ndarray:
    out = np.empty(len(values), dtype=bool)
    out[:1] = True
    np.not_equal(values[1:], values[:-1], out=out[1:])
    return out


def board_matchpoints(groups: np.ndarray, scores: np.ndarray, win: float = 2.0
                      ) -> tuple[np.ndarray, np.ndarray]:
    """Matchpoints of each score against the others of its group, and the group sizes.

    ``win`` is 2 on the European 2/1/0 scale, 1 on the ACBL 1/½ scale. One
    stable sort of the combined (group, score) key; in sorted order a result
    beats everything between its group's start and its run of equal scores,
    and ties with the rest of that run.

    >>> mp, n = board_matchpoints(np.zeros(6, int), np.array([1380, 920, -50, -100, 430, 420]))
    >>> mp.tolist()
    [10.0, 8.0, 2.0, 0.0, 6.0, 4.0]
    """
    scores = np.asarray(scores, dtype=np.int64)
    groups = np.asarray(groups, dtype=np.int64)
    low = int(scores.min(initial=0))
    span = int(scores.max(initial=0)) - low + 1
    key = groups * span + (scores - low)
    order = np.argsort(key, kind="stable")
    ordered = key[order]
    run_first, run_last = _run_bounds(_starts(ordered))
    group_first, group_last = _run_bounds(_starts(groups[order]))
    mp = np.empty(len(key))
    size = np.empty(len(key), dtype=np.int64)
    mp[order] = win * (run_first - group_first) + (win / 2) * (run_last - run_first)
    size[order] = group_last - group_first + 1
    return mp, size


def neuberg(mp: np.ndarray, results: np.ndarray, expected: np.ndarray | int,
            win: float = 2.0) -> np.ndarray:
    """Neuberg: matchpoints among ``results`` scaled to a board played ``expected`` times.

    On the 2/1/0 scale ``M' = (M + 1)·E/A − 1`` (1/½: ``(M + ½)·E/A − ½``).
    """
    half = win / 2
    return (mp + half) * np.asarray(expected) / results - half


def matchpoints(frame: pd.DataFrame, scale: str = "2/1/0", by_section: bool = True,
                phantom_award: float | None = None, adjusted_board: str = "neuberg"
                ) -> pd.DataFrame:
    """Add matchpoint columns to a scored traveller frame; returns a new frame.

    Adds ``results`` and ``top`` (of the board as played), ``ns_mp``, ``ew_mp``,
    ``ns_pct``, ``ew_pct`` (on that top, as a traveller prints them) and
    ``ns_mp_scaled``/``ew_mp_scaled``: Neuberg-scaled to the session's common top,
    which the pair totals use. A frame with rulings (``ruling_kind``), fouled
    groups or phantom lines is scored by :func:`traveller.score.adjusted.score_boards`
    (``phantom_award``: the % a pair gets against the phantom; None = not played;
    ``adjusted_board="among-real"``: a board's real results compared among
    themselves on their own top, not Neuberg-scaled to its artificial scores).
    """
    if scale not in SCALES:
        raise ValueError(f"unknown scale {scale!r}; choose from {', '.join(SCALES)}")
    win = SCALES[scale]
    out = frame.copy(deep=False)  # copy-on-write: new columns never reach the caller
    if not out.empty and adjusted.needed(out):
        return with_columns(out, adjusted.score_boards(out, win, by_section, phantom_award,
                                                       adjusted_board == "among-real"))
    if out.empty:
        for c in ("results", "top", "ns_mp", "ew_mp", "ns_pct", "ew_pct",
                  "ns_mp_scaled", "ew_mp_scaled", "common_top"):
            out[c] = pd.Series(dtype="float64")
        return out
    groups, _, sections = board_groups(out, by_section)
    mp, n = board_matchpoints(groups, out["ns_score"].to_numpy(dtype=np.int64), win)
    top = win * (n - 1)
    pct = 100 * mp / np.maximum(top, 1e-300)
    pct[top == 0] = 50.0
    # The common top is that of the boards played most often in the section, so
    # that Neuberg only ever scales a board up and stays within 0..top.
    if sections.min(initial=0) == sections.max(initial=0):
        expected = np.full(len(n), n.max(initial=0))
    else:
        expected = pd.Series(n).groupby(sections).transform("max").to_numpy()
    scaled = neuberg(mp, n, expected, win)
    common = win * (expected - 1)
    return with_columns(out, {"results": n, "top": top, "ns_mp": mp, "ew_mp": top - mp,
                              "ns_pct": pct, "ew_pct": 100 - pct, "ns_mp_scaled": scaled,
                              "ew_mp_scaled": common - scaled, "common_top": common})


def places(values: pd.Series, groups: pd.Series) -> pd.Series:
    """Places by ``values`` descending within each group, ties shared and written "2="."""
    key = values.round(6)
    codes, _ = pd.factorize(groups.to_numpy())
    numbers = key.to_numpy(dtype=float, na_value=np.nan)
    if (codes < 0).any() or np.isnan(numbers).any():  # what pandas' rank does with gaps
        rank = key.groupby(groups.to_numpy()).rank(method="min", ascending=False).astype(int)
        tied = key.groupby([groups.to_numpy(), key.to_numpy()]).transform("size") > 1
        return rank.astype(str).where(~tied, rank.astype(str) + "=")
    return pd.Series(_labels(*_places(numbers, codes)), index=values.index, dtype="str")


def _places(numbers: np.ndarray, codes: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """(place, shared) per value: one sort by (group, value descending), no gaps."""
    # a place is 1 + the values above it in its group
    order = np.lexsort((-numbers, codes))
    group_first, _ = _run_bounds(_starts(codes[order]))
    ordered = numbers[order]
    run_first, run_last = _run_bounds(_starts(codes[order]) | _starts(ordered))
    place = np.empty(len(order), dtype=np.int64)
    shared = np.empty(len(order), dtype=bool)
    place[order] = run_first - group_first + 1
    shared[order] = run_last > run_first
    return place, shared


def _labels(place: np.ndarray, shared: np.ndarray) -> list[str]:
    """Places as written: "3", or "2=" when shared."""
    return [f"{p}=" if t else str(p) for p, t in zip(place.tolist(), shared.tolist(),
                                                      strict=True)]


def rank_pairs(frame: pd.DataFrame, movement: str = "mitchell",
               names: pd.DataFrame | None = None, *, by_section: bool = True,
               one_ranking: bool = False) -> pd.DataFrame:
    """The ranking: total (Neuberg-scaled) matchpoints and percentage per pair.

    Lines are ranked separately in a Mitchell (``one_ranking`` ranks them
    together) and sections apart (``by_section=False``: across the field);
    pairs are placed by percentage, which also ranks pairs that played
    different numbers of boards fairly. Boards not played (NP, a phantom's
    table without an award) do not count; phantom pairs are not ranked; on an
    arrow-switched board a pair is credited with the cards it held.
    Columns: section, line, pair, names, boards, mp, mp_factored (the total
    scaled to the most boards any pair of the section played), pct, place.
    """
    if frame.empty:
        return pd.DataFrame(columns=["section", "line", "pair", "names", "boards", "mp",
                                     "mp_factored", "pct", "place"])
    totals = _pair_arrays(frame, movement)
    mp, possible, pair = totals["mp"], totals["possible"], totals["pair"]
    played = possible > 0
    sections, section_names = pd.factorize(totals["section"], sort=True)
    full = np.full(len(section_names), np.nan)
    np.fmax.at(full, sections, possible)  # the most any pair of the section could score
    full = full[sections]
    with np.errstate(divide="ignore", invalid="ignore"):
        pct = 100 * mp / np.where(played, possible, np.nan)
        factored = mp * full / np.where(played, possible, full)
    pct[np.isnan(pct)] = 50.0
    line_code = np.array([{"NS": 0, "EW": 1}.get(li, 2) for li in totals["line"].tolist()],
                         dtype=np.int64)
    # one code per (section, line) ranked apart
    place, shared = _places(np.round(pct, 6), sections * by_section * 3
                            + line_code * (not one_ranking))
    columns = {"section": pd.array(totals["section"], dtype="str"),
               "line": pd.array(totals["line"], dtype="str"),
               "pair": pd.arrays.IntegerArray(pair.astype(np.int64),
                                              np.zeros(len(pair), dtype=bool)),
               "names": None, "boards": totals["boards"], "mp": mp, "mp_factored": factored,
               "pct": pct, "place": pd.array(_labels(place, shared), dtype="str")}
    columns["names"] = (attach_names(pd.DataFrame({c: columns[c] for c in ("section", "line",
                                                                          "pair")}), names).array
                        if names is not None and not names.empty
                        else tx.spread_array(np.zeros(len(pct), dtype=np.int64), [""], "string"))
    # by section, line (N-S first), place, then section, line and pair
    order = np.lexsort((pair, line_code, sections, place,
                        (line_code == 1) * (not one_ranking), sections * by_section))
    return frame_of(columns, order)


def _pair_totals(frame: pd.DataFrame, movement: str) -> pd.DataFrame:
    """Per (section, line, pair): boards that count, matchpoints and possible matchpoints.

    The same figures as grouping :func:`pair_sides` (the pair's Neuberg-scaled
    matchpoints for the cards it held, the common top; boards that do not count
    and the phantom left out), summed with one sort of integer keys instead of
    a two-rows-per-result frame and a groupby on strings.
    """
    totals = _pair_arrays(frame, movement)
    return pd.DataFrame({**totals, "section": pd.Series(totals["section"], dtype="str"),
                         "line": pd.Series(totals["line"], dtype="str")})


def _pair_arrays(frame: pd.DataFrame, movement: str) -> dict[str, np.ndarray]:
    """The columns of :func:`_pair_totals` as arrays (section and line as object arrays)."""
    from traveller.score.sides import arrow_held, float_column

    arrow = arrow_held(frame)
    section_codes, section_names = pd.factorize(frame["section"].fillna(""), sort=True)
    ns_mp, ew_mp = float_column(frame, "ns_mp_scaled"), float_column(frame, "ew_mp_scaled")
    top = float_column(frame, "common_top")
    lines = ("NS", "EW") if movement == "mitchell" else ("", "")
    parts = []
    for k, (line, column) in enumerate((("NS", "ns_pair"), ("EW", "ew_pair"))):
        held_ns = ~arrow if line == "NS" else arrow
        pair = frame[column].to_numpy(dtype=float, na_value=np.nan)
        mp = np.where(held_ns, ns_mp, ew_mp)
        keep = ~np.isnan(mp) & ~np.isnan(pair)
        if "phantom" in frame:
            keep &= ~frame["phantom"].eq(line).fillna(False).to_numpy(dtype=bool)
        # "EW" sorts before "NS", as a groupby on the line's text would
        line_code = np.full(int(keep.sum()), 1 - k if lines[k] else 0, dtype=np.int64)
        parts.append((section_codes[keep], line_code, pair[keep], mp[keep], top[keep]))
    sec, line_code, pair, mp, possible = (np.concatenate(p) for p in zip(*parts, strict=True))
    if not len(pair):
        nothing = np.array([], dtype=object)
        return {"section": nothing, "line": nothing, "pair": np.array([], dtype="float64"),
                "boards": np.array([], dtype=int), "mp": np.array([], dtype=float),
                "possible": np.array([], dtype=float)}
    pair_codes, pair_values = pd.factorize(pair.astype(np.int64), sort=True)
    key = (sec.astype(np.int64) * 2 + line_code) * len(pair_values) + pair_codes
    inverse, unique = pd.factorize(key, sort=True)  # (hashing: a sort is slower at 1M rows)
    unique = np.asarray(unique)
    line_names = np.array(["EW", "NS"] if lines[0] else ["", ""], dtype=object)
    return {
        "section": np.asarray(section_names, dtype=object)[unique // len(pair_values) // 2],
        "line": line_names[unique // len(pair_values) % 2],
        "pair": np.asarray(pair_values)[unique % len(pair_values)],
        "boards": np.bincount(inverse, minlength=len(unique)).astype(np.int64),
        "mp": np.bincount(inverse, weights=mp, minlength=len(unique)),
        "possible": np.bincount(inverse, weights=possible, minlength=len(unique))}
