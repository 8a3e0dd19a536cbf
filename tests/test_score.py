"""Scoring: the vectorised scorer against an independent scalar reference, and docs/scoring.md."""

from __future__ import annotations

import itertools

import numpy as np
import pandas as pd
import pytest

from traveller.score.table import (
    SCORE_TABLE,
    dealer,
    declarer_score,
    possible_ns_score,
    score_frame,
    vulnerable,
)

STRAINS = ["C", "D", "H", "S", "NT"]


def reference_score(level: int, strain: str, doubled: int, vul: bool, tricks: int) -> int:
    """A plain textbook scorer written apart from the package (the Laws, 2017, Law 77)."""
    if level == 0:
        return 0
    target = level + 6
    mult = [1, 2, 4][doubled]
    if tricks >= target:
        per_trick = 20 if strain in "CD" else 30
        below = per_trick * level + (10 if strain == "NT" else 0)
        below *= mult
        total = below
        total += (500 if vul else 300) if below >= 100 else 50
        if level == 6:
            total += 750 if vul else 500
        if level == 7:
            total += 1500 if vul else 1000
        total += {0: 0, 1: 50, 2: 100}[doubled]
        extra = tricks - target
        if doubled:
            total += extra * (200 if vul else 100) * (2 if doubled == 2 else 1)
        else:
            total += extra * per_trick
        return total
    down = target - tricks
    if not doubled:
        return -down * (100 if vul else 50)
    penalty = 0
    for k in range(1, down + 1):
        if vul:
            penalty += 200 if k == 1 else 300
        else:
            penalty += 100 if k == 1 else (200 if k <= 3 else 300)
    return -penalty * (2 if doubled == 2 else 1)


COMBOS = list(itertools.product(range(1, 8), STRAINS, range(3), (False, True), range(14)))


def test_combination_count() -> None:
    assert len(COMBOS) == 2940


def test_vectorised_scorer_equals_reference_on_every_combination() -> None:
    # Boards 1 (nobody vul) and 4 (all vul) give both vulnerabilities to either side.
    rows = []
    for level, strain, doubled, vul, tricks in COMBOS:
        board = 4 if vul else 1
        for seat in "NESW":
            rows.append((board, level, strain, doubled, seat, tricks,
                         reference_score(level, strain, doubled, vul, tricks)
                         * (1 if seat in "NS" else -1)))
    frame = pd.DataFrame(rows, columns=["board", "level", "strain", "doubled", "declarer",
                                        "tricks", "expected"])
    scored = score_frame(frame)
    mismatch = scored[scored["ns_score"] != scored["expected"]]
    assert mismatch.empty, mismatch.head()


def test_scalar_scorer_equals_reference() -> None:
    for level, strain, doubled, vul, tricks in COMBOS:
        expected = reference_score(level, strain, doubled, vul, tricks)
        got = declarer_score(level, STRAINS.index(strain), doubled, vul, tricks)
        assert got == expected, (level, strain, doubled, vul, tricks)
    assert SCORE_TABLE.shape == (8, 5, 3, 2, 14)


@pytest.mark.parametrize(("contract", "vul", "tricks", "score"), [
    ((6, "C", 2), False, 12, 1380),
    ((6, "C", 0), False, 12, 920),
    ((3, "NT", 0), False, 10, 430),
    ((5, "C", 0), False, 12, 420),
    ((6, "NT", 0), False, 11, -50),
    ((4, "S", 1), True, 8, -500),
    ((1, "NT", 2), False, 7, 560),
    ((7, "NT", 2), True, 13, 2980),
    ((5, "D", 1), False, 2, -2300),
])
def test_rules_md_checks(contract: tuple[int, str, int], vul: bool, tricks: int,
                         score: int) -> None:
    level, strain, doubled = contract
    assert declarer_score(level, STRAINS.index(strain), doubled, vul, tricks) == score


def test_vulnerability_and_dealer_from_board_number() -> None:
    assert [vulnerable(b) for b in (1, 2, 3, 4, 8, 13, 16, 17)] == [
        (False, False), (True, False), (False, True), (True, True), (False, False),
        (True, True), (False, True), (False, False)]
    assert "".join(dealer(b) for b in range(1, 9)) == "NESWNESW"


def test_vulnerability_decides_the_declarers_side() -> None:
    # Board 2: N-S vulnerable. 4S by N made is 620, 4S by E made is -420.
    frame = pd.DataFrame({"board": [2, 2], "level": [4, 4], "strain": ["S", "S"],
                          "doubled": [0, 0], "declarer": ["N", "E"], "tricks": [10, 10]})
    assert score_frame(frame)["ns_score"].tolist() == [620, -420]


def test_passed_out_and_recorded_scores() -> None:
    frame = pd.DataFrame({"board": [1, 1], "level": pd.array([0, pd.NA], dtype="Int8"),
                          "strain": [None, None], "doubled": [0, pd.NA],
                          "declarer": [None, None], "tricks": pd.array([pd.NA, pd.NA], "Int64"),
                          "recorded_score": pd.array([pd.NA, -100], dtype="Int64")})
    out = score_frame(frame)
    assert out["ns_score"].tolist() == [0, -100]
    assert "ns_score" not in frame  # the caller's frame is untouched


def test_possible_scores() -> None:
    board = pd.Series([1, 1, 1, 2, 2], dtype="Int64")
    score = pd.Series([420, -430, 425, 620, -620], dtype="Int64")
    # 4S vul by N-S (620) is possible on board 2; -620 needs E-W vulnerable: not on board 2.
    assert possible_ns_score(board, score).tolist() == [True, True, False, True, False]
    assert np.all(possible_ns_score(pd.Series([pd.NA], dtype="Int64"),
                                    pd.Series([5], dtype="Int64")))
