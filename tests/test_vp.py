"""Victory points: the WBF continuous scale and discrete tables (docs/scoring.md)."""

from __future__ import annotations

import io
import math

import numpy as np
import pandas as pd
import pytest
from conftest import SAMPLE_DATA
from hypothesis import given
from hypothesis import strategies as st

from traveller.score.vp import (
    blitz,
    check_vp_scale,
    read_vp_scale,
    vp_from_scale,
    vp_wbf,
    wbf_formula,
    wbf_table,
)

# --------------------------------------------------------------------------
# WBF continuous scale


@pytest.mark.parametrize(("margin", "vp"), [(10, 12.80), (15, 13.97), (20, 15.00)])
def test_rules_checks_16_boards(margin: int, vp: float) -> None:
    assert vp_wbf(margin, 16) == vp
    assert vp_wbf(-margin, 16) == round(20 - vp, 2)


def test_tie_is_10_10() -> None:
    assert vp_wbf(0, 16) == 10.0
    assert vp_wbf(0.0, 7) == 10.0


@pytest.mark.parametrize("boards", [8, 12, 14, 16, 20, 24, 28, 32])
def test_at_and_beyond_the_cap_20_0(boards: int) -> None:
    cap = math.ceil(blitz(boards))
    margins = np.array([cap, cap + 1, 500, -cap, -500.5])
    assert vp_wbf(margins, boards).tolist() == [20.0, 20.0, 20.0, 0.0, 0.0]


@pytest.mark.parametrize("boards", range(8, 33))
def test_each_extra_imp_never_worth_more_than_the_previous(boards: int) -> None:
    table = wbf_table(boards)
    hundredths = np.round(table["vp_winner"].to_numpy() * 100).astype(int)
    steps = np.diff(hundredths)
    assert hundredths[0] == 1000
    assert hundredths[-1] == 2000
    assert (steps >= 0).all()
    assert (np.diff(steps) <= 0).all()
    # the nudge only ever adds a hundredth or two to the rounded formula
    formula = np.floor(wbf_formula(table["imps"].to_numpy(), boards) * 100 + 0.5)
    assert (hundredths - formula >= 0).all()
    assert (hundredths - formula <= 2).all()
    assert (table["vp_winner"] + table["vp_loser"]).round(2).eq(20).all()


def test_known_16_board_values() -> None:
    table = wbf_table(16).set_index("imps")["vp_winner"]
    assert table.loc[0:5].tolist() == [10.0, 10.31, 10.61, 10.91, 11.20, 11.48]
    # the formula rounds to 13.52, 13.74, 13.97 at 13-15 IMPs: the 15th IMP
    # (0.23) would be worth more than the 14th (0.22), so 14 is lifted to 13.75
    assert np.floor(wbf_formula(np.arange(13, 16), 16) * 100 + 0.5).tolist() == [1352, 1374, 1397]
    assert table.loc[13:15].tolist() == [13.52, 13.75, 13.97]


def test_fractional_margins_interpolate() -> None:
    assert vp_wbf(10.5, 16) == round((12.80 + 13.04) / 2, 2)
    assert vp_wbf(-0.5, 16) == round(20 - (10.00 + 10.31) / 2, 2)


def test_arrays_with_different_board_counts_and_missing() -> None:
    out = vp_wbf(np.array([10, 10, np.nan, -20]), np.array([16, 32, 16, 16]))
    assert out[0] == 12.80
    assert out[1] == wbf_table(32).loc[10, "vp_winner"]
    assert np.isnan(out[2])
    assert out[3] == 5.0


@given(st.floats(-200, 200, allow_nan=False), st.integers(1, 64))
def test_sides_add_to_20_and_signs_mirror(margin: float, boards: int) -> None:
    a = float(vp_wbf(margin, boards))
    b = float(vp_wbf(-margin, boards))
    assert a + b == pytest.approx(20.0, abs=0.011)
    assert 0.0 <= a <= 20.0
    assert a >= 10.0 if margin >= 0 else a <= 10.0


# --------------------------------------------------------------------------
# Discrete scale (seed 000's 24-board table)

SEED_24 = [(0, 10), (2, 10), (3, 11), (6, 11), (7, 12), (11, 12), (12, 13), (16, 13), (17, 14),
           (21, 14), (22, 15), (27, 15), (28, 16), (33, 16), (34, 17), (39, 17), (40, 18),
           (46, 18), (47, 19), (54, 19), (55, 20), (90, 20)]  # fmt: skip


def test_sample_scale_file_is_seed_000() -> None:
    scale = read_vp_scale(SAMPLE_DATA / "vp_scale_24_boards.csv")
    assert len(scale) == 11
    assert scale.iloc[0].tolist() == [0, 2, 10, 10]
    assert np.isnan(scale["imps_to"].iloc[-1])
    assert (scale["vp_winner"] + scale["vp_loser"] == 20).all()


@pytest.mark.parametrize(("margin", "vp"), SEED_24)
def test_discrete_scale_bands(margin: int, vp: int) -> None:
    scale = read_vp_scale(SAMPLE_DATA / "vp_scale_24_boards.csv")
    assert vp_from_scale(margin, scale) == vp
    assert vp_from_scale(-margin, scale) == 20 - vp


def test_seed_000_example_13_imps_is_13_7() -> None:
    scale = read_vp_scale(SAMPLE_DATA / "vp_scale_24_boards.csv")
    assert vp_from_scale(np.array([13, -13]), scale).tolist() == [13.0, 7.0]


def test_discrete_fraction_needs_the_whole_imp() -> None:
    scale = read_vp_scale(SAMPLE_DATA / "vp_scale_24_boards.csv")
    assert vp_from_scale(np.array([2.5, 3.0, np.nan]), scale)[:2].tolist() == [10.0, 11.0]
    assert np.isnan(vp_from_scale(np.array([np.nan]), scale)[0])


@pytest.mark.parametrize(
    ("text", "message"),
    [
        ("imps_from,imps_to,vp_winner,vp_loser\n1,2,10,10\n", "start at 0"),
        ("imps_from,imps_to,vp_winner,vp_loser\n0,2,10,10\n4,,11,9\n", "one IMP after"),
        ("imps_from,imps_to,vp_winner,vp_loser\n0,,10,10\n3,,11,9\n", "only the last"),
        ("imps_from,imps_to,vp_winner,vp_loser\n0,2,12,8\n3,,11,9\n", "must not fall"),
        ("imps_from,vp_winner\n0,10\n", "missing"),
    ],
)
def test_bad_scales_are_refused(text: str, message: str) -> None:
    with pytest.raises(ValueError, match=message):
        read_vp_scale(io.StringIO(text))


def test_check_vp_scale_accepts_a_frame() -> None:
    scale = pd.DataFrame({"imps_from": [0.0, 3.0], "imps_to": [2.0, np.nan],
                          "vp_winner": [10.0, 11.0], "vp_loser": [10.0, 9.0]})  # fmt: skip
    check_vp_scale(scale)
