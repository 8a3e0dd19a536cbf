"""The collector policy of our commands, and the library API leaving the collector alone."""

from __future__ import annotations

import gc
from collections.abc import Iterator
from pathlib import Path

import pytest

import traveller
from traveller.gc_policy import THRESHOLD, loading

SAMPLE = Path(__file__).resolve().parents[1] / "sample_data" / "club_session.csv"


@pytest.fixture
def collector() -> Iterator[None]:
    """Put the collector back as the test process had it."""
    threshold, enabled = gc.get_threshold(), gc.isenabled()
    yield
    gc.unfreeze()
    gc.set_threshold(*threshold)
    (gc.enable if enabled else gc.disable)()


def test_loading_holds_collection_then_freezes_and_collects_less_often(collector: None) -> None:
    gc.enable()
    gc.set_threshold(700, 10, 10)
    with loading():
        assert not gc.isenabled()
        made = [[i] for i in range(1000)]
    assert gc.isenabled()
    assert gc.get_threshold() == (THRESHOLD, 10, 10)
    assert gc.get_freeze_count() >= len(made)


def test_loading_keeps_a_collector_the_program_turned_off_off(collector: None) -> None:
    gc.disable()
    with loading():
        pass
    assert not gc.isenabled()


def test_the_library_api_leaves_the_collector_alone(collector: None, tmp_path: Path) -> None:
    before = gc.get_threshold(), gc.isenabled(), gc.get_freeze_count()
    traveller.process(SAMPLE).to_excel(tmp_path / "results.xlsx")
    assert (gc.get_threshold(), gc.isenabled(), gc.get_freeze_count()) == before
