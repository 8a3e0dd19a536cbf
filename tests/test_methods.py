"""Scoring methods through the pipeline (issue 5): cross-IMPs, Butler, total, Russian, teams."""

from __future__ import annotations

import pandas as pd
import pytest
from conftest import SAMPLE_DATA, real_file

from traveller import process
from traveller.pipeline import Options
from traveller.score.methods import MethodOptions, apply_method


@pytest.fixture(scope="module")
def club() -> pd.DataFrame:
    return process(SAMPLE_DATA / "club_session.csv").travellers


def test_cross_imps_are_antisymmetric_and_rank_by_average(club: pd.DataFrame) -> None:
    scored = apply_method(club, "ximp", "mitchell")
    t = scored.travellers
    assert (t["ns_imp"] == -t["ew_imp"]).all()
    # on every board the N-S cross-IMPs sum to zero
    assert t.groupby("board")["ns_imp"].sum().abs().max() < 1e-9
    ranking = scored.ranking
    assert list(ranking.columns) == ["section", "line", "pair", "names", "boards", "imps",
                                     "average", "place"]
    ns = ranking[ranking["line"] == "NS"]
    assert ns["average"].is_monotonic_decreasing and ns["place"].iloc[0] == "1"


def test_divisor_options(club: pd.DataFrame) -> None:
    n1 = apply_method(club, "ximp", "mitchell").travellers["ns_imp"]
    plain = apply_method(club, "ximp", "mitchell",
                         options=MethodOptions(divisor="none")).travellers["ns_imp"]
    assert (plain / 7 - n1).abs().max() < 1e-9  # 8 results a board: n - 1 = 7


def test_butler_shows_the_datum_per_board(club: pd.DataFrame) -> None:
    t = apply_method(club, "butler", "mitchell").travellers
    assert (t.groupby("board")["datum"].nunique() == 1).all()
    assert (t["datum"] % 10 == 0).all()


def test_total_points(club: pd.DataFrame) -> None:
    ranking = apply_method(club, "total", "mitchell").ranking
    ns = ranking[ranking["line"] == "NS"]["points"].sum()
    ew = ranking[ranking["line"] == "EW"]["points"].sum()
    assert ns == -ew == club["ns_score"].sum()


def test_russian_chicago_reproduces_seed_000() -> None:
    result = process(SAMPLE_DATA / "chicago_russian.csv",
                     options=Options(method="russian", chicago=True))
    assert result.problems.empty
    deal2 = result.travellers.set_index("board").loc[2]
    # E-W vulnerable on Chicago deal 2, 24 HCP (N-S 16), 3H+1 = 170 against a target of 290
    assert (deal2["ns_score"], deal2["target"], deal2["ew_imp"]) == (-170, 290, -3)
    assert result.settings["method"] == "russian"


def test_russian_needs_hcp() -> None:
    with pytest.raises(ValueError, match="high-card points"):
        process(SAMPLE_DATA / "club_session.csv", options=Options(method="russian"))


def test_teams_itt_1998_segment_through_the_pipeline() -> None:
    path = real_file("pbn-teams-itt1998", "98ITTF2.PBN")
    result = process(path, options=Options(method="teams"))
    boards = result.tables["Boards"]
    assert len(boards) == 15 and (boards["status"] == "played").all()
    published = result.travellers.dropna(subset=["published_ns_imp"])
    closed = published.set_index("board")["published_ns_imp"].astype(float)
    # the Closed room's [ScoreIMP] is from its N-S pair's view: the away team in that room
    ours = boards.set_index("board")["away_imp"].astype(float)
    assert (ours.loc[closed.index] == closed).all()
    assert set(result.ranking.columns) >= {"place", "team", "vp", "imps_for", "imps_against"}
    assert result.ranking["vp"].sum() == pytest.approx(20)
