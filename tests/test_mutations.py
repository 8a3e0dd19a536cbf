"""The mutation harness: every realistic corruption of a correct session is scored as the
original or listed, never changed without a word (fixed seed; benchmarks/mutation_soak.py
runs many seeds)."""

from __future__ import annotations

from pathlib import Path

import numpy as np
import pytest
from mutations import MUTATIONS, corrupted, trust_failures, with_scores

SAMPLE = Path(__file__).resolve().parent.parent / "sample_data" / "club_session.csv"
SEED = 20261201


@pytest.fixture(scope="module")
def correct() -> tuple[object, dict[int, int]]:
    return with_scores(SAMPLE)


def test_there_are_at_least_thirty_kinds() -> None:
    assert len(MUTATIONS) >= 30


@pytest.mark.parametrize("kind", sorted(MUTATIONS))
def test_each_corruption_is_scored_as_the_original_or_listed(tmp_path: Path, correct: tuple,
                                                             kind: str) -> None:
    sheet, original = correct
    rng = np.random.default_rng([SEED, sorted(MUTATIONS).index(kind)])
    rows = rng.choice(len(sheet), size=3, replace=False)
    mutated = MUTATIONS[kind](sheet, rng, rows)
    assert trust_failures(mutated, original, tmp_path, kind) == []


@pytest.mark.parametrize("seed", range(3))
def test_several_corruptions_at_once(tmp_path: Path, correct: tuple, seed: int) -> None:
    sheet, original = correct
    rng = np.random.default_rng([SEED, 1000 + seed])
    cell_kinds = sorted(k for k in MUTATIONS if not k.endswith("-renamed"))  # (names stay)
    kinds = list(rng.choice(cell_kinds, size=5, replace=False))
    sheet = corrupted(sheet, kinds, rng, per_kind=4)
    assert trust_failures(sheet, original, tmp_path, "mixed") == [], list(kinds)


def test_the_check_catches_a_score_changed_without_a_word(tmp_path: Path, correct: tuple
                                                          ) -> None:
    """Without the Score column a swapped declarer reads one way only: the check must fail."""
    sheet, original = correct
    rows = np.array([0, 1, 2])
    mutated = MUTATIONS["declarer-swapped-seat"](sheet.drop(columns="Score"), None, rows)
    failures = trust_failures(mutated, original, tmp_path, "silent")
    assert failures and all("without a problem row" in f for f in failures)
