"""Russian (IMP) scoring against the HCP target (docs/scoring.md)."""

from __future__ import annotations

import numpy as np
import pandas as pd
import pytest

from traveller.score.russian import TARGET, russian_imps, target, vulnerability


def deal(board: int, ns_score: int | None, **hcp: int) -> pd.DataFrame:
    return pd.DataFrame({"board": pd.array([board], dtype="Int64"),
                         "ns_score": pd.array([ns_score], dtype="Int64"),
                         **{k: [v] for k, v in hcp.items()}})  # fmt: skip


def test_seed_000_example() -> None:
    # Chicago deal 2: E-W vulnerable, E-W hold 24 HCP, 3H+1 by E-W = E-W +170;
    # target 290 (vulnerable row), -120 -> E-W -3 IMPs, N-S +3
    out = russian_imps(deal(2, -170, ns_hcp=16, ew_hcp=24), chicago=True)
    assert out[["target", "ns_imp", "ew_imp"]].values.tolist() == [[290, 3, -3]]


def test_target_table_rows_follow_the_erratum() -> None:
    assert TARGET.shape == (2, 21)
    assert target(np.array([24]), np.array([True])).tolist() == [290]  # vulnerable
    assert target(np.array([24]), np.array([False])).tolist() == [200]  # not vulnerable
    assert (TARGET[1] >= TARGET[0]).all()
    assert (np.diff(TARGET, axis=1) >= 0).all()
    with pytest.raises(ValueError, match="20-40"):
        target(np.array([19]), np.array([False]))


@pytest.mark.parametrize(
    ("board", "ns_score", "hcp", "chicago", "goal", "expected"),
    [
        (1, 420, 26, True, 350, 2),  # deal 1 none vul: N-S 26 -> 350; +70 -> 2
        (2, 620, 26, True, 350, 7),  # deal 2 E-W vul, N-S not: 620 - 350 = 270 -> 7
        (3, 620, 26, True, 520, 3),  # deal 3 N-S vul (dealer S): 620 - 520 = 100 -> 3
        (4, 620, 26, True, 520, 3),  # deal 4 both vul
        (6, 620, 26, True, 350, 7),  # deal 6 of a longer Chicago = deal 2
        (1, 0, 20, True, 0, 0),  # 20-20: target 0
        (1, -100, 20, True, 0, -3),  # 20-20: the N-S score itself
        (2, 100, 10, False, 490, 11),  # duplicate board 2: E-W not vul with 30 HCP,
        #                                E-W -100 - 490 = -590 -> E-W -11, N-S +11
        (3, 100, 10, False, 690, 13),  # duplicate board 3: E-W vul, 30 -> 690; -790 -> 13
    ],
)
def test_russian_cases(
    board: int, ns_score: int, hcp: int, chicago: bool, goal: int, expected: int
) -> None:
    out = russian_imps(deal(board, ns_score, hcp=hcp), chicago=chicago)
    assert out["target"].iloc[0] == goal
    assert out["ns_imp"].iloc[0] == expected
    assert out["ew_imp"].iloc[0] == -expected


def test_deal_column_wins_over_board_and_vul_columns_win_over_both() -> None:
    frame = deal(1, -170, hcp=16).assign(deal=2)
    assert russian_imps(frame, chicago=True)["target"].tolist() == [290]
    frame = frame.assign(ns_vul=[False], ew_vul=[False])
    assert russian_imps(frame, chicago=True)["target"].tolist() == [200]


def test_missing_score_or_hcp_gives_na_and_leaves_frame_alone() -> None:
    frame = pd.DataFrame({"board": pd.array([1, 2, 3], dtype="Int64"),
                          "ns_score": pd.array([None, 420, 420], dtype="Int64"),
                          "hcp": pd.array([25, None, 25], dtype="Int64")})  # fmt: skip
    before = frame.copy()
    out = russian_imps(frame)
    assert out["ns_imp"].isna().tolist() == [True, True, False]
    assert out["target"].isna().tolist() == [True, True, False]
    pd.testing.assert_frame_equal(frame, before)


@pytest.mark.parametrize(
    ("columns", "message"),
    [
        ({"ns_hcp": [25], "ew_hcp": [14]}, "must be 40"),
        ({"hcp": [41]}, "0-40"),
        ({}, "needs an 'hcp'"),
    ],
)
def test_bad_hcp_is_refused(columns: dict[str, list[int]], message: str) -> None:
    frame = pd.DataFrame({"board": [1], "ns_score": [420], **columns})
    with pytest.raises(ValueError, match=message):
        russian_imps(frame)


def test_vulnerability_cycles() -> None:
    boards = pd.DataFrame({"board": range(1, 17)})
    ns, ew = vulnerability(boards)
    assert ns.tolist()[:4] == [False, True, False, True]
    assert ew.tolist()[:4] == [False, False, True, True]
    ns, ew = vulnerability(boards, chicago=True)
    assert list(zip(ns[:4].tolist(), ew[:4].tolist(), strict=True)) == [
        (False, False), (False, True), (True, False), (True, True),
    ]  # fmt: skip
