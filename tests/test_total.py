"""Total points per pair, and the per-pair helper shared with IMP totals (docs/scoring.md)."""

from __future__ import annotations

import pandas as pd
import pytest
from hypothesis import given
from hypothesis import strategies as st

from traveller.score.total import pair_long, pair_totals, total_points


def session() -> pd.DataFrame:
    return pd.DataFrame(
        {
            "section": pd.array(["A", "A", "A", "A", "B"], dtype="string"),
            "board": pd.array([1, 1, 2, 2, 1], dtype="Int64"),
            "ns_pair": pd.array([1, 2, 1, 2, 1], dtype="Int64"),
            "ew_pair": pd.array([1, 2, 2, 1, 1], dtype="Int64"),
            "ns_score": pd.array([420, -50, 100, None, 620], dtype="Int64"),
        }
    )


def test_total_points_mitchell() -> None:
    totals = total_points(session())
    assert totals[["section", "line", "pair", "boards", "points"]].values.tolist() == [
        ["A", "NS", 1, 2, 520.0],
        ["A", "NS", 2, 1, -50.0],
        ["A", "EW", 1, 1, -420.0],  # board 2 v NS 2 has no result: not counted
        ["A", "EW", 2, 2, -50.0],
        ["B", "NS", 1, 1, 620.0],
        ["B", "EW", 1, 1, -620.0],
    ]


def test_total_points_howell_merges_lines() -> None:
    totals = total_points(session(), movement="howell")
    assert totals[["section", "line", "pair", "boards", "points", "average"]].values.tolist() == [
        ["A", "", 1, 3, 100.0, pytest.approx(100 / 3)],
        ["A", "", 2, 3, -100.0, pytest.approx(-100 / 3)],
        ["B", "", 1, 2, 0.0, 0.0],
    ]


def test_pair_with_no_real_result_is_listed_with_zero_boards() -> None:
    frame = session()
    frame.loc[4, "ns_score"] = pd.NA
    totals = total_points(frame)
    last = totals[totals["section"] == "B"]
    assert last["boards"].tolist() == [0, 0]
    assert last["points"].tolist() == [0.0, 0.0]
    assert last["average"].isna().all()


def test_no_section_column_and_no_mutation() -> None:
    frame = session().drop(columns="section")
    before = frame.copy()
    totals = total_points(frame)
    assert set(totals["section"]) == {""}
    pd.testing.assert_frame_equal(frame, before)


def test_pair_long_and_bad_movement() -> None:
    frame = session()
    long = pair_long(frame, frame["ns_score"], -frame["ns_score"])
    assert len(long) == 10
    assert long["line"].tolist() == ["NS"] * 5 + ["EW"] * 5
    with pytest.raises(ValueError, match="movement"):
        pair_totals(frame, frame["ns_score"], frame["ns_score"], "swiss")  # type: ignore[arg-type]


@given(st.lists(st.integers(-200, 200), min_size=1, max_size=30))
def test_totals_sum_to_zero_in_a_howell(scores: list[int]) -> None:
    n = len(scores)
    frame = pd.DataFrame({"board": range(1, n + 1),
                          "ns_pair": [1 + i % 4 for i in range(n)],
                          "ew_pair": [5 + i % 3 for i in range(n)],
                          "ns_score": [s * 10 for s in scores]})  # fmt: skip
    totals = total_points(frame, "howell")
    assert totals["points"].sum() == 0
    assert totals["boards"].sum() == 2 * n
