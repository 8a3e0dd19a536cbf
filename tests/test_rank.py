"""Matchpoints, Neuberg and the ranking (docs/scoring.md)."""

from __future__ import annotations

import numpy as np
import pandas as pd
import pytest
from conftest import examples
from hypothesis import given, settings
from hypothesis import strategies as st

from traveller.score.rank import board_matchpoints, matchpoints, neuberg, places, rank_pairs

SEED_000 = [1380, 920, -50, -100, 430, 420]


def board(scores: list[int], number: int = 8, section: str = "") -> pd.DataFrame:
    n = len(scores)
    return pd.DataFrame({"section": section, "board": number, "ns_pair": range(1, n + 1),
                         "ew_pair": range(n + 1, 2 * n + 1), "ns_score": scores})


def test_seed_000_board_8() -> None:
    out = matchpoints(board(SEED_000))
    assert out["ns_mp"].tolist() == [10, 8, 2, 0, 6, 4]
    assert out["ew_mp"].tolist() == [0, 2, 8, 10, 4, 6]
    assert out["top"].unique().tolist() == [10]


def test_acbl_scale_and_ties() -> None:
    out = matchpoints(board([100, 100, 50, -50]), scale="1/0.5")
    assert out["ns_mp"].tolist() == [2.5, 2.5, 1, 0]
    assert out["ns_pct"].tolist() == pytest.approx([250 / 3, 250 / 3, 100 / 3, 0])


def test_rules_md_neuberg_worked_example() -> None:
    # 7 tables, one result replaced by an artificial score: 6 real results on top 10.
    mp, n = board_matchpoints(np.zeros(6, int), np.array([420, 420, 420, 450, 400, -50]))
    assert mp.tolist() == [6, 6, 6, 10, 2, 0]
    scaled = neuberg(mp, n, 7)
    assert scaled.round(4).tolist() == [7.1667, 7.1667, 7.1667, 11.8333, 2.5, 0.1667]


def test_short_board_is_scaled_to_the_common_top_in_the_totals() -> None:
    frame = pd.concat([board([100, 50, 0, -50], 1), board([200, 100, 0], 2)],
                      ignore_index=True)
    out = matchpoints(frame)
    short = out[out["board"] == 2]
    assert short["top"].unique().tolist() == [4]  # as played
    assert short["ns_mp"].tolist() == [4, 2, 0]
    # (M + 1) * 4/3 - 1 on the common top of 6
    assert short["ns_mp_scaled"].round(4).tolist() == [5.6667, 3.0, 0.3333]
    assert (short["ns_mp_scaled"] + short["ew_mp_scaled"]).round(9).unique().tolist() == [6]


def test_sections_are_matchpointed_apart() -> None:
    frame = pd.concat([board([100, 50], 1, "A"), board([0, -50], 1, "B")], ignore_index=True)
    assert matchpoints(frame)["ns_mp"].tolist() == [2, 0, 2, 0]
    assert matchpoints(frame, by_section=False)["ns_mp"].tolist() == [6, 4, 2, 0]


def test_places_with_ties() -> None:
    values = pd.Series([60.0, 55.0, 55.0, 40.0, 70.0])
    assert places(values, pd.Series(["x"] * 5)).tolist() == ["2", "3=", "3=", "5", "1"]


def test_mitchell_ranks_each_line_and_howell_one_field() -> None:
    frame = matchpoints(pd.concat([board([100, 50], 1), board([0, 50], 2)], ignore_index=True))
    mitchell = rank_pairs(frame, "mitchell")
    assert sorted(mitchell["line"].unique()) == ["EW", "NS"]
    assert mitchell.groupby("line")["place"].apply(lambda p: p.str.startswith("1").any()).all()
    howell = rank_pairs(frame, "howell")
    assert howell["line"].unique().tolist() == [""]
    assert len(howell) == 4


def test_names_attached_by_line_then_by_pair() -> None:
    frame = matchpoints(board([100, 50]))
    names = pd.DataFrame({"section": "", "pair": pd.array([1, 3], "Int64"),
                          "line": ["NS", ""], "names": ["Ann – Bob", "Cy – Di"]})
    ranking = rank_pairs(frame, "mitchell", names)
    got = dict(zip(ranking["pair"], ranking["names"], strict=True))
    assert got[1] == "Ann – Bob" and got[3] == "Cy – Di" and got[2] == ""


scores = st.lists(st.sampled_from([-1100, -200, -100, -50, 0, 90, 110, 140, 420, 450, 620, 1430]),
                  min_size=1, max_size=12)


@settings(max_examples=examples(60), deadline=None)
@given(st.lists(scores, min_size=1, max_size=5), st.randoms(use_true_random=False))
def test_properties(boards: list[list[int]], rnd) -> None:  # type: ignore[no-untyped-def]
    frame = pd.concat([board(s, i + 1) for i, s in enumerate(boards)], ignore_index=True)
    out = matchpoints(frame)
    # N-S + E-W = top on every result; the N-S sum on a board is top * results / 2
    assert np.allclose(out["ns_mp"] + out["ew_mp"], out["top"])
    sums = out.groupby("board").agg(mp=("ns_mp", "sum"), top=("top", "first"),
                                    n=("results", "first"))
    assert np.allclose(sums["mp"], sums["top"] * sums["n"] / 2)
    # Neuberg never goes above the common top or below zero
    assert (out["ns_mp_scaled"] >= -1e-9).all()
    assert (out["ns_mp_scaled"] <= out["common_top"] + 1e-9).all()
    # row order changes nothing
    order = list(range(len(frame)))
    rnd.shuffle(order)
    shuffled = matchpoints(frame.iloc[order]).sort_index()
    pd.testing.assert_frame_equal(shuffled, out)
