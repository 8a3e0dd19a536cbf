"""Chicago: vulnerability and dealer by deal, part-score bonus, rounds and settlement."""

from __future__ import annotations

from pathlib import Path

import pandas as pd
import pytest

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
