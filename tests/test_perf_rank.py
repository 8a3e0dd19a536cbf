"""rank_pairs' integer-key totals give exactly what grouping pair_sides gave (the slow way)."""

from __future__ import annotations

from pathlib import Path

import pandas as pd
import pytest
from conftest import SAMPLE_DATA, real_file

from traveller import process
from traveller.options import Options
from traveller.score.rank import _pair_totals
from traveller.score.sides import pair_sides


def reference(frame: pd.DataFrame, movement: str) -> pd.DataFrame:
    """The totals as rank_pairs computed them before: two rows per result, then a groupby."""
    sides = pair_sides(frame, movement)
    sides = sides[sides["mp"].notna() & ~sides["phantom"] & sides["pair"].notna()]
    return sides.groupby(["section", "line", "pair"], as_index=False).agg(
        boards=("mp", "size"), mp=("mp", "sum"), possible=("top", "sum"))


def _check(path: Path, **options: object) -> None:
    result = process(path, **options)  # type: ignore[arg-type]
    movement = str(result.settings.get("movement", "mitchell"))
    got = _pair_totals(result.travellers, movement)
    want = reference(result.travellers, movement)
    assert len(got) == len(want) > 0
    for column in ("section", "line"):
        assert got[column].tolist() == want[column].astype(str).tolist()
    assert got["pair"].tolist() == want["pair"].astype(int).tolist()
    assert got["boards"].tolist() == want["boards"].tolist()
    for column in ("mp", "possible"):
        assert got[column].to_numpy() == pytest.approx(want[column].to_numpy(), abs=1e-9)


@pytest.mark.parametrize("name", ["club_session.csv", "problems_session.csv",
                                  "club_session_pl.xlsx", "board8_protocol.csv"])
def test_samples(name: str) -> None:
    _check(SAMPLE_DATA / name)


def test_rulings_phantom_and_arrow_switch() -> None:
    _check(real_file("pary-jfr-warsaw", "wb120802.csv"), options=Options(phantom_award=60))
    _check(SAMPLE_DATA / "club_session.csv", options=Options(arrow_switch="1-3"))


@pytest.mark.parametrize("name", ["mp_pairs_howell.xml", "mp_pairs_mitchell.xml",
                                  "mp_pairs_mitchell_adjusted_02.xml"])
def test_usebio_howell_and_mitchell(name: str) -> None:
    _check(real_file("usebio-compscore", name))
