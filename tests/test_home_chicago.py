"""Chicago: vulnerability and dealer by deal, part-score bonus, rounds and settlement."""

from __future__ import annotations

from pathlib import Path

import pandas as pd
import pytest
from conftest import examples
from hypothesis import given, settings
from hypothesis import strategies as st

import traveller

SAMPLES = Path(__file__).resolve().parents[1] / "sample_data"


def sheet(*deals: tuple[object, ...], deal_numbers: list[int] | None = None) -> pd.DataFrame:
    rows = [((deal_numbers or range(1, 99))[i], *d, *(None,) * (4 - len(d)))
            for i, d in enumerate(deals)]
    return pd.DataFrame(rows, columns=["Deal", "Declarer", "Contract", "Result", "Honours"])


ROUND = sheet(("N", "4S", "="), ("E", "3NT", "+1"), ("S", "2H", 8, "N 100"), ("W", "6DX", "-1"))


def test_a_round_with_every_vulnerability() -> None:
    r = traveller.chicago(ROUND)
    led = r.ledger
    assert led["vulnerable"].tolist() == ["None", "E-W", "N-S", "Both"]
    assert led["dealer"].tolist() == ["N", "E", "S", "W"]
    # 4S= not vul; 3NT+1 vul; 2H= vul part-score (+50); 6DX-1 vulnerable declarer
    assert led["ns_score"].tolist() == [420, -630, 110, 200]
    assert led["ns_honours"].tolist() == [0, 0, 100, 0]
    assert r.totals[["round", "ns", "ew", "deals", "settlement"]].values.tolist() == [
        [1, 830, 630, 4, 2]]
    assert r.problems.empty


@pytest.mark.parametrize(("bonus", "rounding", "settlement"), [
    (50, "half-up", 2), (100, "half-up", 3), (100, "half-down", 2)])
def test_part_score_bonus_and_rounding(bonus: int, rounding: str, settlement: int) -> None:
    r = traveller.chicago(ROUND, partscore_bonus=bonus, settle_rounding=rounding)
    assert r.ledger["ns_score"].tolist()[2] == 60 + bonus
    assert r.totals["settlement"].tolist() == [settlement]


def test_deal_five_is_deal_one_of_round_two() -> None:
    deals = [("N", "1NT", 7)] * 6
    r = traveller.chicago(sheet(*deals))
    assert r.ledger["round_number"].tolist() == [1, 1, 1, 1, 2, 2]
    assert r.ledger["chicago_deal"].tolist() == [1, 2, 3, 4, 1, 2]
    assert r.totals["deals"].tolist() == [4, 2]


def test_deals_numbered_within_each_round() -> None:
    r = traveller.chicago(sheet(*[("N", "1NT", 7)] * 6, deal_numbers=[1, 2, 3, 4, 1, 2]))
    assert r.ledger["round_number"].tolist() == [1, 1, 1, 1, 2, 2]
    assert r.ledger["vulnerable"].tolist()[4:] == ["None", "E-W"]


def test_a_bad_deal_number_is_a_problem_not_a_guess() -> None:
    frame = sheet(("N", "1NT", 7), ("N", "1NT", 7))
    frame["Deal"] = frame["Deal"].astype(object)
    frame.loc[1, "Deal"] = "two"
    r = traveller.chicago(frame)
    assert r.problems["code"].tolist() == ["bad-board"]
    assert r.ledger["entry"].tolist() == ["deal", "skipped"]
    assert r.ledger["ns_score"].tolist() == [90, 0]


def test_english_and_russian_samples_score_alike() -> None:
    en = traveller.chicago(SAMPLES / "home_chicago.csv")
    ru = traveller.chicago(SAMPLES / "home_chicago_ru.xlsx")
    assert ru.settings["notation"] == "ru"
    pd.testing.assert_frame_equal(en.totals, ru.totals)
    assert en.totals[["ns", "ew", "settlement"]].values.tolist() == [[830, 630, 2],
                                                                     [2130, 220, 19]]


# --------------------------------------------------------------------------
# Random rounds against a plain reference written here

TRICK = {"C": 20, "D": 20, "H": 30, "S": 30, "NT": 30}


def ref_score(level: int, strain: str, dbl: int, vul: bool, tricks: int, part: int) -> int:
    """Declarer's Chicago score, from the scoring table (part: the part-score bonus)."""
    if tricks < level + 6:
        down = level + 6 - tricks
        if dbl == 0:
            return -down * (100 if vul else 50)
        steps = [200, 300, 300, 300] if vul else [100, 200, 200, 300]
        return -sum(steps[min(i, 3)] for i in range(down)) * dbl
    points = (TRICK[strain] * level + (10 if strain == "NT" else 0)) * [1, 2, 4][dbl]
    score = points + ((500 if vul else 300) if points >= 100 else part)
    score += {6: 750 if vul else 500, 7: 1500 if vul else 1000}.get(level, 0)
    score += 50 * dbl
    each = TRICK[strain] if dbl == 0 else (200 if vul else 100) * dbl
    return score + (tricks - level - 6) * each


@settings(max_examples=examples(40), deadline=None)
@given(st.lists(st.tuples(st.integers(0, 1), st.integers(1, 7), st.sampled_from(list(TRICK)),
                          st.integers(0, 2), st.integers(0, 13)), min_size=1, max_size=8),
       st.sampled_from([50, 100]))
def test_random_rounds_match_the_reference(deals: list[tuple], part: int) -> None:
    frame = pd.DataFrame(
        [(i + 1, ["N", "E"][side], f"{lv}{st_}{'X' * d}", t)
         for i, (side, lv, st_, d, t) in enumerate(deals)],
        columns=["Deal", "Declarer", "Contract", "Tricks"])
    r = traveller.chicago(frame, partscore_bonus=part, notation="en")
    vul_by_deal = [(False, False), (False, True), (True, False), (True, True)]
    expected = []
    for i, (side, lv, st_, d, t) in enumerate(deals):
        vul = vul_by_deal[i % 4][side]
        score = ref_score(lv, st_, d, vul, t, part)
        expected.append(score if side == 0 else -score)
    assert r.ledger["ns_score"].tolist() == expected
    for k, (ns, ew) in enumerate(zip(r.totals["ns"], r.totals["ew"], strict=True)):
        chunk = expected[4 * k:4 * k + 4]
        assert (ns, ew) == (sum(s for s in chunk if s > 0), -sum(s for s in chunk if s < 0))
