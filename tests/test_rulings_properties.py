"""Properties of matchpointing with rulings (hypothesis), on frames built directly."""

from __future__ import annotations

import numpy as np
import pandas as pd
from conftest import examples
from hypothesis import given, settings
from hypothesis import strategies as st

from traveller.score import adjusted
from traveller.score.rank import matchpoints
from traveller.tidy.rulings import read_rulings

SCORES = [-1100, -200, -100, -50, 0, 90, 110, 140, 420, 450, 620, 1430]
RULINGS = ["A+", "A60/40", "A-", "A=", "A+-", "NP", "30%+620/70%-100", "+420/-450",
           "50%+110/25%-50/25%+1430"]

cells = st.one_of(st.sampled_from(SCORES), st.sampled_from(RULINGS))
boards_strategy = st.lists(st.lists(cells, min_size=1, max_size=9), min_size=1, max_size=5)


def frame_of(boards: list[list[object]]) -> pd.DataFrame:
    rows = []
    for number, cells_ in enumerate(boards, start=1):
        for k, cell in enumerate(cells_, start=1):
            ruled = isinstance(cell, str)
            rows.append({"section": "", "board": number, "ns_pair": k, "ew_pair": 20 + k,
                         "ns_score": None if ruled else cell, "ruling": cell if ruled else None})
    frame = pd.DataFrame(rows)
    frame["ns_score"] = frame["ns_score"].astype("Int64")
    frame["ruling"] = frame["ruling"].astype("string")
    return frame.join(read_rulings(frame["ruling"]))


def plain(boards: list[list[object]]) -> list[list[object]]:
    return [[c for c in b if not isinstance(c, str)] or [0] for b in boards]


@settings(max_examples=examples(80), deadline=None)
@given(st.lists(st.lists(st.sampled_from(SCORES), min_size=1, max_size=9), min_size=1,
                max_size=5))
def test_without_rulings_the_board_sums_are_top_times_results_over_two(
        boards: list[list[int]]) -> None:
    frame = frame_of(boards)  # type: ignore[arg-type]
    general = pd.DataFrame(adjusted.score_boards(frame, 2.0, True, None))
    sums = general.assign(board=frame["board"]).groupby("board").agg(
        mp=("ns_mp", "sum"), top=("top", "first"), n=("results", "first"))
    assert np.allclose(sums["mp"], sums["top"] * sums["n"] / 2)
    fast = matchpoints(frame.drop(columns=["ruling_kind", "ns_award", "ew_award"]))
    for column in ("ns_mp", "ew_mp", "ns_pct", "ns_mp_scaled", "ew_mp_scaled", "common_top"):
        assert np.allclose(general[column], fast[column].astype(float)), column


@settings(max_examples=examples(120), deadline=None)
@given(boards_strategy)
def test_neuberg_and_awards_stay_within_zero_and_the_top(boards: list[list[object]]) -> None:
    out = matchpoints(frame_of(boards))
    for side in ("ns", "ew"):
        mp = out[f"{side}_mp"].astype(float)
        scored = mp.notna()
        assert (mp[scored] >= -1e-9).all() and (mp[scored] <= out["top"][scored] + 1e-9).all()
        scaled = out[f"{side}_mp_scaled"].astype(float)[scored]
        assert (scaled >= -1e-9).all() and (scaled <= out["common_top"][scored] + 1e-9).all()
        pct = out[f"{side}_pct"].astype(float)[scored]
        assert ((pct >= -1e-9) & (pct <= 100 + 1e-9)).all()
    not_played = (out["ruling_kind"] == "not-played").fillna(False).astype(bool)
    assert out.loc[not_played, "ns_mp"].isna().all()
    awarded = (out["ruling_kind"] == "average").fillna(False).astype(bool)
    assert (out.loc[awarded, "ns_pct"] == out.loc[awarded, "ns_award"]).all()


@settings(max_examples=examples(120), deadline=None)
@given(boards_strategy, st.data())
def test_a_ruling_on_one_board_changes_no_other_board(boards: list[list[object]],
                                                      data: st.DataObject) -> None:
    target = data.draw(st.integers(0, len(boards) - 1))
    changed = [list(b) for b in boards]
    changed[target] = data.draw(st.lists(cells, min_size=1, max_size=9))
    before, after = matchpoints(frame_of(boards)), matchpoints(frame_of(changed))
    other_before = before[before["board"] != target + 1].reset_index(drop=True)
    other_after = after[after["board"] != target + 1].reset_index(drop=True)
    columns = ["ns_mp", "ew_mp", "ns_pct", "ew_pct", "top"]
    if before["common_top"].max() == after["common_top"].max():
        columns += ["ns_mp_scaled", "ew_mp_scaled"]
    for column in columns:
        a = other_before[column].astype(float).to_numpy()
        b = other_after[column].astype(float).to_numpy()
        assert np.allclose(a, b, equal_nan=True), column


@settings(max_examples=examples(60), deadline=None)
@given(boards_strategy, st.randoms(use_true_random=False))
def test_row_order_changes_nothing(boards: list[list[object]], rnd) -> None:  # type: ignore[no-untyped-def]
    frame = frame_of(boards)
    order = list(range(len(frame)))
    rnd.shuffle(order)
    out = matchpoints(frame)
    shuffled = matchpoints(frame.iloc[order]).sort_index()
    for column in ("ns_mp", "ew_mp", "ns_mp_scaled", "ew_mp_scaled", "ns_pct"):
        assert np.allclose(out[column].astype(float), shuffled[column].astype(float),
                           equal_nan=True)


@settings(max_examples=examples(60), deadline=None)
@given(boards_strategy)
def test_without_split_scores_each_compared_table_shares_the_top(
        boards: list[list[object]]) -> None:
    frame = frame_of([[c for c in b if c != "+420/-450"] or [0] for b in boards])
    out = matchpoints(frame)
    compared = out["ruling_kind"].isna() | (out["ruling_kind"] == "weighted")
    total = (out["ns_mp"] + out["ew_mp"]).astype(float)[compared]
    assert np.allclose(total, out["top"][compared])
