"""Three-handed (Phillips) bridge: nullo, penalties to both defenders, players, settlement."""

from __future__ import annotations

from pathlib import Path

import pandas as pd
import pytest
from conftest import examples
from hypothesis import given, settings
from hypothesis import strategies as st

import traveller
from traveller.errors import TravellerError
from traveller.home.three import net_settlement

SAMPLES = Path(__file__).resolve().parents[1] / "sample_data"
PLAYERS = ["Anna", "Boris", "Vera"]


def sheet(*deals: tuple[object, ...]) -> pd.DataFrame:
    rows = [(i + 1, *d, *(None,) * (4 - len(d))) for i, d in enumerate(deals)]
    return pd.DataFrame(rows, columns=["Deal", "Declarer", "Contract", "Tricks", "Honours"])


WORKED = sheet(("Anna", "2 nullo", 3), ("Boris", "3 nullo X", 6), ("Vera", "4S", 8, "Anna 100"),
               ("Anna", "2H", 8), ("Boris", "4 nullo", 3), ("Anna", "1 nullo", 8))


def row(result: traveller.HomeResult, deal: int) -> pd.Series:
    return result.ledger[result.ledger["deal"] == deal].iloc[0]


def test_worked_sheet_with_nullo_made_and_failed() -> None:
    r = traveller.three_handed(WORKED)
    # 2 nullo with 3 tricks (at most 5 allowed): 60 below, two overtricks 60 above
    assert (row(r, 1)["Anna_below"], row(r, 1)["Anna_above"]) == (60, 60)
    # 3 nullo doubled with 6 tricks (at most 4): 2 down, not vulnerable: 300 to EACH defender
    assert [row(r, 2)[f"{p}_above"] for p in PLAYERS] == [300, 0, 300]
    # 4S two down, not vulnerable: 100 to each defender; Anna's honours scored too
    assert [row(r, 3)[f"{p}_above"] for p in PLAYERS] == [100, 100, 0]
    assert row(r, 3)["Anna_honours"] == 100
    assert row(r, 4)["game"] == "Anna"  # 60 + 60 below
    assert (row(r, 5)["game"], row(r, 5)["Boris_below"]) == ("Boris", 120)  # 4 nullo, 3 tricks
    # Anna is vulnerable now: 1 nullo with 8 tricks is 2 down at 100 each, to both defenders
    assert [row(r, 6)[f"{p}_above"] for p in PLAYERS] == [0, 200, 200]
    last = r.ledger.iloc[-1]
    assert [last[f"{p}_bonus"] for p in PLAYERS] == [300, 300, 0]  # unfinished: a game each
    assert r.totals.values.tolist() == [["Anna", 980, 8], ["Boris", 720, -1], ["Vera", 500, -7]]
    assert r.rubbers["finished"].tolist() == [False] * 3


def test_winning_the_rubber_when_neither_other_player_has_a_game() -> None:
    r = traveller.three_handed(sheet(("Anna", "4S", 10), ("Anna", "3NT", 9), ("Boris", "1C", 7)),
                               players="Anna,Boris,Vera", notation="en")
    assert row(r, 2)["rubber_won"] == "Anna"
    assert row(r, 2)["Anna_bonus"] == 700
    assert r.rubbers["rubber"].unique().tolist() == [1, 2]


def test_players_from_option_row_or_first_appearance() -> None:
    assert traveller.three_handed(WORKED).parties == PLAYERS  # first appearance
    r = traveller.three_handed(WORKED, players=["Vera", "Boris", "Anna"])
    assert r.totals["player"].tolist() == ["Vera", "Boris", "Anna"]
    ru = traveller.three_handed(SAMPLES / "home_three_ru.xlsx")
    assert ru.parties == ["Анна", "Борис", "Вера"]  # the Игроки row
    with pytest.raises(ValueError, match="three different players"):
        traveller.three_handed(WORKED, players="Anna,Boris")
    with pytest.raises(TravellerError, match="name all three"):
        traveller.three_handed(sheet(("Anna", "2S", 8), ("Boris", "2H", 8)))


def test_a_declarer_not_at_the_table_is_a_problem() -> None:
    r = traveller.three_handed(sheet(*WORKED.iloc[:, 1:].itertuples(index=False),
                                     ("Dmitri", "1C", 7)), players=PLAYERS)
    assert r.problems["code"].tolist() == ["unknown-player"]
    assert "Anna, Boris, Vera" in r.problems["message"].iloc[0]
    assert r.ledger["entry"].tolist()[-2:] == ["skipped", "unfinished"]


def test_nullo_honours_are_four_aces_only_and_nullo_needs_three_players() -> None:
    r = traveller.three_handed(sheet(("Anna", "2 nullo", 3, "Boris 100"),
                                     ("Boris", "3NL", 4, "Vera 150"), ("Vera", "2S", 8)))
    assert r.problems["code"].tolist() == ["bad-honours"]
    assert row(r, 2)["Vera_honours"] == 150
    four = traveller.rubber(pd.DataFrame({"Deal": [1], "Declarer": ["N"],
                                          "Contract": ["3 nullo"], "Tricks": [4]}))
    assert four.problems["code"].tolist() == ["unknown-contract"]
    assert "three-handed" in four.problems["message"].iloc[0]


def test_english_and_russian_samples_score_alike() -> None:
    en = traveller.three_handed(SAMPLES / "home_three.csv")
    ru = traveller.three_handed(SAMPLES / "home_three_ru.xlsx")
    assert en.totals[["points", "settlement"]].values.tolist() == \
        ru.totals[["points", "settlement"]].values.tolist() == [[980, 8], [720, -1], [500, -7]]


@settings(max_examples=examples(200), deadline=None)
@given(st.lists(st.tuples(*[st.integers(0, 5000)] * 3), min_size=1, max_size=5),
       st.sampled_from(["half-up", "half-down"]))
def test_nets_sum_to_zero_and_follow_the_pairwise_differences(
        points: list[tuple[int, int, int]], rounding: str) -> None:
    frame = pd.DataFrame(points, columns=PLAYERS)
    nets = net_settlement(frame, PLAYERS, rounding)
    assert (nets.sum(axis=1) == 0).all()
    for (_, p), (_, n) in zip(frame.iterrows(), nets.iterrows(), strict=True):
        for a in PLAYERS:
            expected = 0
            for b in PLAYERS:
                diff = abs(p[a] - p[b])
                hundreds = diff // 100 + (diff % 100 > 50 or (diff % 100 == 50
                                                              and rounding == "half-up"))
                expected += hundreds if p[a] > p[b] else -hundreds if p[a] < p[b] else 0
            assert n[a] == expected
