"""Master points: the federations' published examples to the hundredth, ties, scale files."""

from __future__ import annotations

import itertools
from decimal import Decimal
from pathlib import Path

import pandas as pd
import pytest
from conftest import examples
from hypothesis import given, settings
from hypothesis import strategies as st

import traveller
from traveller.read.scales import ScaleError, read_scale
from traveller.score.points import field_awards, first_award, place_numbers

SAMPLE = Path(__file__).resolve().parents[1] / "sample_data" / "club_session.csv"


def shown(awards: list[Decimal]) -> list[str]:
    return [str(a) for a in awards if a > 0]


def test_abf_ten_table_mitchell_line_pays_five_places() -> None:
    awards = field_awards(read_scale("abf"), list(range(1, 11)), "mitchell")
    assert shown(awards) == ["0.20", "0.14", "0.10", "0.07", "0.05"]


def test_abf_seven_table_howell_weight_one_and_a_half_both_roundings() -> None:
    places = list(range(1, 15))
    half_up = field_awards(read_scale("abf:weight=1.5"), places, "howell")
    up = field_awards(read_scale("abf:weight=1.5,rounding=up"), places, "howell")
    assert shown(half_up) == ["0.42", "0.29", "0.21", "0.14", "0.11", "0.08", "0.07"]
    assert shown(up) == ["0.42", "0.30", "0.21", "0.14", "0.11", "0.09", "0.07"]


def test_abf_first_place_past_thirty_tables_follows_the_exponential() -> None:
    # 40 tables, W = 1: 1 - e^(-40/32) = 0.7135...
    assert round(first_award(read_scale("abf"), "mitchell", 40), 4) == Decimal("0.7135")
    assert first_award(read_scale("abf"), "mitchell", 30) == Decimal("0.60")


def test_acbl_howells() -> None:
    acbl = read_scale("acbl")
    assert shown(field_awards(acbl, list(range(1, 9)), "howell")) == ["0.80", "0.56", "0.40"]
    assert shown(field_awards(acbl, list(range(1, 15)), "howell")) == [
        "1.40", "0.98", "0.70", "0.49", "0.28", "0.23"]


def test_acbl_first_place_is_capped_and_exact_decimals_round_half_up() -> None:
    acbl = read_scale("acbl")
    assert first_award(acbl, "howell", 30) == Decimal("1.50")
    # 1.50 x 0.35 = 0.525 exactly: half up is 0.53 (binary floats give 0.52)
    assert field_awards(acbl, list(range(1, 31)), "howell")[3] == Decimal("0.53")


def test_ebu_six_table_individual_with_its_minimum() -> None:
    awards = field_awards(read_scale("ebu"), list(range(1, 25)), "individual", boards=24)
    assert shown(awards) == ["24", "21", "18", "15", "12", "9", "6", "6"]


def test_ebu_without_a_table_entry_asks_for_the_first_place_award() -> None:
    with pytest.raises(ScaleError, match="first=24"):
        field_awards(read_scale("ebu"), list(range(1, 17)), "howell", boards=24)
    given = field_awards(read_scale("ebu:first=12"), list(range(1, 13)), "howell")
    assert shown(given) == ["12", "9", "6", "6"]  # 4 places, steps of 3, minimum 6


def test_a_tie_shares_the_places_it_occupies() -> None:
    # ACBL 4-table Howell, 2nd and 3rd tied: (0.56 + 0.40) / 2 = 0.48 each
    awards = field_awards(read_scale("acbl"), [1, 2, 2, 4, 5, 6, 7, 8], "howell")
    assert shown(awards) == ["0.80", "0.48", "0.48"]
    # ABF 10-table line, 5th and 6th tied: 0.05 shared with an unpaid place
    abf = field_awards(read_scale("abf"), [1, 2, 3, 4, 5, 5, 7, 8, 9, 10], "mitchell")
    assert shown(abf) == ["0.20", "0.14", "0.10", "0.07", "0.03", "0.03"]


def test_pzbs_needs_its_first_place_award_as_an_input() -> None:
    with pytest.raises(ScaleError, match="pzbs:first="):
        field_awards(read_scale("pzbs"), list(range(1, 11)), "howell")
    awards = field_awards(read_scale("pzbs:first=50"), list(range(1, 51)), "howell")
    assert awards[0] == 50 and awards[1] == 45  # 0.9 x PZ at 2 % of the field
    assert awards[10] == 10  # 0.2 x PZ at 20 %
    assert set(awards[25:]) == {Decimal(1)}  # the lower half: 1 point


@settings(max_examples=examples(60), deadline=None)
@given(st.lists(st.integers(0, 5), min_size=1, max_size=30),
       st.sampled_from(["abf", "acbl", "ebu:first=20", "pzbs:first=30", "abf:rounding=up"]),
       st.sampled_from(["mitchell", "howell"]))
def test_awards_never_rise_with_the_place_and_ties_share_exactly(
        gaps: list[int], spec: str, kind: str) -> None:
    scores = pd.Series([sum(gaps[:i + 1]) for i in range(len(gaps))], dtype=float)
    places = scores.rank(method="min", ascending=False).astype(int).tolist()
    scale = read_scale(spec)
    awards = field_awards(scale, places, kind)
    by_place = sorted(zip(places, awards, strict=True))
    assert all(a >= b for (_, a), (_, b) in itertools.pairwise(by_place))
    unrounded = [field_awards(read_scale(spec + (",decimals=9" if ":" in spec
                                                 else ":decimals=9")),
                              list(range(1, len(places) + 1)), kind)]
    for place in set(places):
        tied = [a for p, a in by_place if p == place]
        assert len(set(tied)) == 1  # every tied contestant gets the same
        k = len(tied)
        exact = sum(unrounded[0][place - 1:place - 1 + k], Decimal(0)) / k
        if scale.minimum == 0:
            assert abs(tied[0] - exact) <= Decimal(1).scaleb(-scale.decimals)


def test_a_scale_file_describes_a_club_scale(tmp_path: Path) -> None:
    club = tmp_path / "club.toml"
    club.write_text('name = "Club ladder points"\ndecimals = 1\n[first.any]\nrate = 1\n'
                    '[places]\nshare = "1/2"\n[award]\nshares = [1, 0.5]\nthen = "first/n"\n',
                    encoding="utf-8")
    assert shown(field_awards(read_scale(club), list(range(1, 9)), "howell")) == [
        "8.0", "4.0", "2.7", "2.0"]
    assert shown(field_awards(read_scale(f"{club}:first=3"), [1, 2], "howell")) == ["3.0"]


@pytest.mark.parametrize(("spec", "message"), [
    ("fifa", "not a built-in scale"), ("abf:weight=heavy", "weight = 'heavy'"),
    ("abf:colour=green", "KEY=VALUE"), ("abf:rounding=sideways", "rounding")])
def test_a_bad_scale_is_a_clear_error(spec: str, message: str) -> None:
    with pytest.raises(ScaleError, match=message):
        read_scale(spec)


def test_a_bad_scale_file_names_the_file_and_the_key(tmp_path: Path) -> None:
    bad = tmp_path / "bad.toml"
    bad.write_text('[first.any]\nrate = -1\n', encoding="utf-8")
    with pytest.raises(ScaleError, match=r"bad\.toml: first rate = -1"):
        read_scale(bad)


def test_process_awards_each_player_of_each_pair() -> None:
    result = traveller.process(SAMPLE, points="abf")
    points = result.points
    assert points is not None
    assert list(points.columns) == ["section", "line", "pair", "player", "player_id", "place",
                                    "award", "scale"]
    ranking = result.ranking
    assert "master_points" in ranking
    # an 8-table Mitchell: each line pays 4 places, 0.16 0.11 0.08 0.05
    for line in ("NS", "EW"):
        got = ranking[ranking["line"] == line].sort_values("master_points", ascending=False)
        assert got["master_points"].tolist()[:5] == [0.16, 0.11, 0.08, 0.05, 0.0]
    assert (points.groupby(["line", "pair"]).size() == 2).all()  # both players
    assert points["award"].sum() == pytest.approx(2 * 2 * (0.16 + 0.11 + 0.08 + 0.05))


def test_place_numbers_read_shared_places() -> None:
    assert place_numbers(pd.Series(["1", "2=", "2=", "", None])).tolist() == [1, 2, 2, 0, 0]


def test_sections_ranked_as_one_field_are_awarded_as_one() -> None:
    from traveller.score.players import players_of
    from traveller.score.points import session_points

    ranking = pd.DataFrame({"section": ["A"] * 4 + ["B"] * 4, "line": "NS",
                            "pair": pd.array([1, 2, 3, 4] * 2, dtype="Int64"),
                            "names": [f"P{i} – Q{i}" for i in range(8)]})
    apart = ranking.assign(place=["1", "2", "3", "4"] * 2)
    field = ranking.assign(place=["1", "3", "5", "7", "2", "4", "6", "8"])
    abf = read_scale("abf")
    _, by_section = session_points(apart, players_of(apart, None), abf)
    assert by_section.tolist() == [0.08, 0.06, 0.0, 0.0] * 2  # two 4-table lines
    _, one = session_points(field, players_of(field, None), abf, by_section=False)
    assert one.tolist() == [0.16, 0.08, 0.0, 0.0, 0.11, 0.05, 0.0, 0.0]  # one 8-table line


def test_abf_butler_pays_the_top_third_rounded_up() -> None:
    from traveller.score.points import places_paid

    abf = read_scale("abf")
    assert [places_paid(abf, n, "butler") for n in (9, 10, 12)] == [3, 4, 4]
    assert [places_paid(abf, n, "mp") for n in (9, 10, 12)] == [4, 5, 6]
    assert places_paid(read_scale("acbl"), 14) == 6  # 0.40 x 14 = 5.6, .5 up
