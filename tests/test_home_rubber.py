"""Rubber bridge: worked examples written out, and random sheets against a plain reference."""

from __future__ import annotations

import pandas as pd
import pytest
from conftest import examples
from hypothesis import given, settings
from hypothesis import strategies as st

import traveller
from traveller.home.values import CLASSIC_DIFFERENCES, deal_values, settle
from traveller.score.table import declarer_score


def sheet(*deals: tuple[object, ...]) -> pd.DataFrame:
    """A score sheet from (declarer, contract, tricks[, honours]) tuples."""
    rows = [(i + 1, d[0], d[1], d[2], d[3] if len(d) > 3 else None) for i, d in enumerate(deals)]
    return pd.DataFrame(rows, columns=["Deal", "Declarer", "Contract", "Tricks", "Honours"])


def side_points(result: traveller.HomeResult, deal: int, side: str) -> dict[str, int]:
    row = result.ledger[result.ledger["deal"] == deal].iloc[0]
    return {w: int(row[f"{side}_{w}"]) for w in ("below", "above", "honours", "bonus")}


# --------------------------------------------------------------------------
# Worked examples

def test_textbook_rubber() -> None:
    """2S part-score, 3NT game, 4H+1 game, a doubled set, 5C game for the rubber."""
    r = traveller.rubber(sheet(("S", "2S", 8), ("E", "3NT", 9), ("N", "4H", "+1"),
                               ("W", "3SX", "-2"), ("S", "5C", "=")))
    assert side_points(r, 1, "ns") == {"below": 60, "above": 0, "honours": 0, "bonus": 0}
    assert r.ledger["game"].tolist() == ["", "ew", "ns", "", "ns"]
    assert side_points(r, 3, "ns")["above"] == 30  # the overtrick, not vulnerable
    assert r.ledger.loc[3, "ew_vul"] and r.ledger.loc[3, "ns_vul"]
    assert side_points(r, 4, "ns")["above"] == 500  # 3SX-2 vulnerable: 200 + 300
    assert side_points(r, 5, "ns") == {"below": 100, "above": 0, "honours": 0, "bonus": 500}
    assert r.totals[["rubber", "ns", "ew", "settlement", "finished"]].values.tolist() == [
        [1, 1310, 100, 12, True]]
    assert r.problems.empty


def test_a_game_wipes_the_opponents_part_score() -> None:
    r = traveller.rubber(sheet(("N", "2H", 8), ("E", "4S", 10), ("S", "2D", 8),
                               ("N", "2NT", 8)))
    # without the wipe N-S would have 60 + 40 = 100 (game) on deal 3
    assert r.ledger["game"].tolist()[:4] == ["", "ew", "", "ns"]
    assert r.ledger.loc[3, "ns_total"] == 60 + 40 + 70


@pytest.mark.parametrize(("partscore", "ew"), [(100, 140), (50, 90)])
def test_unfinished_rubber(partscore: int, ew: int) -> None:
    r = traveller.rubber(sheet(("N", "4S", 10), ("E", "2C", 8)), unfinished_partscore=partscore)
    last = r.ledger.iloc[-1]
    assert last["entry"] == "unfinished"
    assert (last["ns_bonus"], last["ew_bonus"]) == (300, partscore)
    assert r.totals[["ns", "ew", "finished"]].values.tolist() == [[420, ew, False]]
    assert r.totals["settlement"].tolist() == [round((420 - ew) / 100)]


@pytest.mark.parametrize(("rules", "bonus", "settlement"), [("modern", 1000, 15),
                                                            ("classic", 750, 13)])
def test_grand_slam_under_each_rule_set(rules: str, bonus: int, settlement: int) -> None:
    r = traveller.rubber(sheet(("N", "7NT", 13), ("E", "7S", 13)), rules=rules)
    assert side_points(r, 1, "ns") == {"below": 220, "above": bonus, "honours": 0, "bonus": 0}
    assert side_points(r, 2, "ew")["above"] == 1000 if rules == "modern" else 750
    vul = traveller.rubber(sheet(("N", "1NT", 7), ("N", "3NT", 9), ("N", "7NT", 13)),
                           rules=rules)
    assert side_points(vul, 3, "ns")["above"] == 1500  # vulnerable: 1500 in both
    alone = traveller.rubber(sheet(("N", "7NT", 13)), rules=rules)
    assert alone.totals["settlement"].tolist() == [settlement]  # 220 + bonus + 300 unfinished


def test_seed_004_redoubled_lines() -> None:
    """Redoubling doubles the doubled entries; the classic insult stays 50."""
    assert deal_values(2, 3, 2, False, 9, "classic") == (240, 250, 0)  # 2SXX+1: 200 + 50
    assert deal_values(2, 3, 2, False, 9, "modern") == (240, 300, 0)  # 200 + 100
    assert deal_values(2, 3, 2, True, 9, "classic") == (240, 450, 0)  # 400 + 50
    assert deal_values(4, 3, 2, False, 6, "classic") == (0, 0, 1400)  # 4 down: (100+200*3)*2
    assert deal_values(4, 3, 2, False, 6, "modern") == (0, 0, 1600)  # (100+200+200+300)*2
    assert deal_values(4, 3, 2, True, 6, "classic") == (0, 0, 2200)  # (200+300*3)*2
    assert deal_values(4, 3, 1, False, 6, "classic") == (0, 0, 700)
    assert deal_values(1, 0, 0, False, 12, "classic") == (20, 100, 0)  # overtricks at trick value


def test_seed_004_honours_lines() -> None:
    r = traveller.rubber(sheet(("N", "4S", 9, "N 100"), ("E", "3NT", 10, "EW 150"),
                               ("S", "2H", 8, "W 150"), ("W", "1C", 8, "S 100")))
    assert [side_points(r, d, s)["honours"] for d, s in [(1, "ns"), (2, "ew"), (3, "ew"),
                                                         (4, "ns")]] == [100, 150, 150, 100]
    # honours score whoever declares and whether or not the contract makes
    assert side_points(r, 1, "ew")["above"] == 50


def test_classic_differs_only_where_the_table_says() -> None:
    differ = set()
    for level in range(1, 8):
        for strain in range(5):
            for doubled in range(3):
                for vul in (False, True):
                    for tricks in range(14):
                        a = deal_values(level, strain, doubled, vul, tricks, "modern")
                        b = deal_values(level, strain, doubled, vul, tricks, "classic")
                        if a != b:
                            differ.add((doubled, vul, tricks >= level + 6, level == 7))
    assert differ == {(1, False, False, False), (2, False, False, False), (1, False, False, True),
                      (2, False, False, True), (2, False, True, False), (2, True, True, False),
                      (2, False, True, True), (2, True, True, True), (0, False, True, True),
                      (1, False, True, True)}
    assert len(CLASSIC_DIFFERENCES) == 3


def test_modern_values_are_duplicate_without_game_and_part_score_bonuses() -> None:
    for level in range(1, 8):
        for strain in range(5):
            for doubled in range(3):
                for vul in (False, True):
                    for tricks in range(14):
                        below, above, penalty = deal_values(level, strain, doubled, vul, tricks)
                        dup = declarer_score(level, strain, doubled, vul, tricks)
                        if penalty:
                            assert dup == -penalty
                        else:
                            bonus = (500 if vul else 300) if below >= 100 else 50
                            assert dup == below + above + bonus


@pytest.mark.parametrize(("diff", "up", "down"), [(450, 5, 4), (-450, -5, -4), (449, 4, 4),
                                                  (451, 5, 5), (50, 1, 0), (0, 0, 0),
                                                  (1210, 12, 12), (-1250, -13, -12)])
def test_settlement_rounding(diff: int, up: int, down: int) -> None:
    assert int(settle(diff, "half-up")) == up
    assert int(settle(diff, "half-down")) == down


# --------------------------------------------------------------------------
# Random sheets against a plain reference scorer written here

TRICK = {"C": 20, "D": 20, "H": 30, "S": 30, "NT": 30}


def ref_deal(level: int, strain: str, dbl: int, vul: bool, tricks: int, rules: str
             ) -> tuple[int, int, int]:
    """(below, above, to defenders), straight from the rubber-bridge scoring table."""
    mult = [1, 2, 4][dbl]
    if tricks >= level + 6:
        below = (TRICK[strain] * level + (10 if strain == "NT" else 0)) * mult
        over = tricks - level - 6
        each = TRICK[strain] if dbl == 0 else (200 if vul else 100) * dbl
        above = over * each
        if dbl:
            above += 50 if rules == "classic" else 50 * dbl
        if level == 6:
            above += 750 if vul else 500
        if level == 7:
            above += 1500 if vul else (750 if rules == "classic" else 1000)
        return below, above, 0
    down = level + 6 - tricks
    if dbl == 0:
        return 0, 0, down * (100 if vul else 50)
    if vul:
        pen = 200 + 300 * (down - 1)
    elif rules == "classic":
        pen = 100 + 200 * (down - 1)
    else:
        pen = 100 + 200 * min(down - 1, 2) + 300 * max(down - 3, 0)
    return 0, 0, pen * dbl


def ref_rubbers(deals: list[tuple], rules: str, unfinished: int) -> list[tuple[int, int, bool]]:
    """Each rubber's (N-S total, E-W total, finished) for a list of deals."""
    out, pts, games, part = [], [0, 0], [0, 0], [0, 0]
    started = False
    for side, level, strain, dbl, tricks, hon in deals:
        started = True
        if hon:
            pts[hon[0]] += hon[1]
        if level == 0:
            continue
        below, above, pen = ref_deal(level, strain, dbl, games[side] > 0, tricks, rules)
        pts[side] += below + above
        pts[1 - side] += pen
        part[side] += below
        if part[side] >= 100:
            games[side] += 1
            part = [0, 0]
            if games[side] == 2:
                pts[side] += 700 if games[1 - side] == 0 else 500
                out.append((pts[0], pts[1], True))
                pts, games, started = [0, 0], [0, 0], False
    if started:
        for s in (0, 1):
            pts[s] += 300 * (games[s] > 0) + unfinished * (part[s] > 0)
        out.append((pts[0], pts[1], False))
    return out


@st.composite
def deals(draw: st.DrawFn) -> tuple:
    level = draw(st.integers(0, 7))
    strain = draw(st.sampled_from(list(TRICK)))
    hon = None
    if level and draw(st.booleans()):
        amounts = [150] if strain == "NT" else [100, 150]
        hon = (draw(st.integers(0, 1)), draw(st.sampled_from(amounts)))
    return (draw(st.integers(0, 1)), level, strain, draw(st.integers(0, 2)),
            draw(st.integers(0, 13)), hon)


def as_sheet(played: list[tuple]) -> pd.DataFrame:
    rows = []
    for i, (side, level, strain, dbl, tricks, hon) in enumerate(played):
        contract = "PASS" if level == 0 else f"{level}{strain}{'X' * dbl}"
        seat = ["N", "E"][side] if i % 2 else ["S", "W"][side]
        honours = f"{['NS', 'EW'][hon[0]]} {hon[1]}" if hon else None
        rows.append((i + 1, seat if level else None, contract, tricks if level else None,
                     honours))
    return pd.DataFrame(rows, columns=["Deal", "Declarer", "Contract", "Tricks", "Honours"])


@settings(max_examples=examples(60), deadline=None)
@given(st.lists(deals(), min_size=1, max_size=14), st.sampled_from(["modern", "classic"]),
       st.sampled_from([100, 50]))
def test_random_rubbers_match_the_reference(played: list[tuple], rules: str,
                                            unfinished: int) -> None:
    # a random sheet of 1C and 2C alone could be Polish (C = hearts): say it is English
    result = traveller.rubber(as_sheet(played), rules=rules, unfinished_partscore=unfinished,
                              notation="en")
    assert result.problems.empty
    got = result.totals[["ns", "ew", "finished"]].values.tolist()
    assert [tuple(r) for r in got] == ref_rubbers(played, rules, unfinished)
    expected = [settle(ns - ew) for ns, ew, _ in ref_rubbers(played, rules, unfinished)]
    assert result.totals["settlement"].tolist() == expected
    assert (result.ledger["entry"] == "deal").sum() == len(played)
