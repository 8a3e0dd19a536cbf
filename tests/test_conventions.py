"""Conventions of other programs (docs/conventions.md), each on a small hand-built sheet.

Every expected number is worked out in the test from the rules: matchpoints
2 per result beaten and 1 per tie, Neuberg (M + 1)·E/A − 1, IMPs from the
WBF scale (20 -> 1, 50 -> 2, 90 -> 3, 430 -> 10, 500 -> 11).
"""

from __future__ import annotations

from pathlib import Path

import numpy as np
import pandas as pd
import pytest
from conftest import examples
from hypothesis import given, settings
from hypothesis import strategies as st

from traveller import process
from traveller.pipeline import Result
from traveller.score.butler import butler_datum
from traveller.score.conventions import mean_of_boards, printed, rounded_matchpoints
from traveller.score.rank import matchpoints, rank_pairs


def sheet(tmp_path: Path, rows: list[str], header: str = "Board,NS,EW,Contract,Score",
          **options: object) -> Result:
    path = tmp_path / "s.csv"
    path.write_text(header + "\n" + "\n".join(rows) + "\n", encoding="utf-8")
    return process(path, **options)


def line(result: Result, board: int, ns: int) -> pd.Series:
    t = result.travellers
    return t[(t["board"] == board) & (t["ns_pair"] == ns)].iloc[0]


def imps_of(result: Result, line_: str, pair: int) -> float:
    ranking = result.ranking.set_index(["line", "pair"])
    return float(ranking.loc[(line_, pair), "imps"])


# 1. sections="field" for cross-IMPs and Butler

SECTIONS = ["A,1,1,11,,420", "A,1,2,12,,450", "B,1,1,11,,-50", "B,1,2,12,,420"]


def test_cross_imps_across_the_field(tmp_path: Path) -> None:
    header = "Section,Board,NS,EW,Contract,Score"
    apart = sheet(tmp_path, SECTIONS, header, method="ximp")
    # within A: 420 v 450 = -30 -> -1 IMP; within B: -50 v 420 = -470 -> -10
    t = apart.travellers.set_index(["section", "ns_pair"])["ns_imp"].astype(float)
    assert t.to_dict() == {("A", 1): -1.0, ("A", 2): 1.0, ("B", 1): -10.0, ("B", 2): 10.0}
    field = sheet(tmp_path, SECTIONS, header, method="ximp", sections="field")
    t = field.travellers.set_index(["section", "ns_pair"])["ns_imp"].astype(float)
    # 420: v 450 -1, v -50 +10 (470), v 420 0 -> 9 / 3; 450: +1 +11 +1 -> 13 / 3
    assert t[("A", 1)] == pytest.approx(3.0) and t[("B", 2)] == pytest.approx(3.0)
    assert t[("A", 2)] == pytest.approx(13 / 3)
    assert t[("B", 1)] == pytest.approx(-31 / 3)  # -10 -11 -10


def test_butler_across_the_field(tmp_path: Path) -> None:
    header = "Section,Board,NS,EW,Contract,Score"
    field = sheet(tmp_path, SECTIONS, header, method="butler", sections="field")
    t = field.travellers.set_index(["section", "ns_pair"])
    # four results -50 420 420 450, one dropped at each end: datum (420 + 420) / 2 = 420
    assert (t["datum"] == 420).all()
    assert t["ns_imp"].astype(int).to_dict() == {("A", 1): 0, ("A", 2): 1, ("B", 1): -10,
                                                  ("B", 2): 0}


# 2. unidentified pairs kept in the field

UNKNOWN = ["1,1,11,,420", "1,2,???,,450", "1,3,13,,-50", "1,4,,,400", "1,5,0,,430"]


def test_unknown_pairs_are_compared_not_ranked_and_listed(tmp_path: Path) -> None:
    result = sheet(tmp_path, UNKNOWN, unknown_pairs="field")
    t = result.travellers
    assert len(t) == 5 and (t["results"] == 5).all()
    # 450 beats 4 results: 8; 430: 6; 420: 4; 400: 2; -50: 0 (top 8)
    assert t.set_index("ns_pair")["ns_mp"].to_dict() == {2: 8, 5: 6, 1: 4, 4: 2, 3: 0}
    ew = result.ranking[result.ranking["line"] == "EW"]
    assert sorted(ew["pair"].tolist()) == [11, 13]
    assert result.problems["code"].tolist() == ["unknown-pair"] * 3
    assert result.problems["value"].tolist() == ["???", "", "0"]


def test_by_default_an_unknown_pair_is_a_problem(tmp_path: Path) -> None:
    result = sheet(tmp_path, UNKNOWN)
    assert len(result.travellers) == 2
    assert sorted(result.problems["code"]) == ["bad-pair", "bad-pair", "missing-pair"]


def test_unknown_pairs_in_cross_imps(tmp_path: Path) -> None:
    rows = ["1,1,11,,420", "1,2,???,,450", "1,3,13,,-50"]
    result = sheet(tmp_path, rows, method="ximp", unknown_pairs="field")
    # 420 v 450 (-1) and v -50 (+10): 9 / 2, all three results compared
    assert line(result, 1, 1)["ns_imp"] == pytest.approx(4.5)
    assert 0 not in result.ranking["pair"].tolist() and len(result.ranking) == 5


# 3. BBO's adjusted tokens, the score cell empty or N/A


@pytest.mark.parametrize(("token", "ns", "ew"), [
    ("A==", 50, 50), ("A+=", 60, 50), ("A=+", 50, 60), ("A-=", 40, 50), ("A=-", 50, 40),
    ("A+-", 60, 40), ("A-+", 40, 60), ("A++", 60, 60), ("A--", 40, 40),
])
def test_bbo_tokens(tmp_path: Path, token: str, ns: float, ew: float) -> None:
    rows = ["1,1,11,,420", "1,2,12,,450", "1,3,13,,-50", f"1,4,14,{token},N/A",
            f"2,4,14,{token},", "2,1,11,,100", "2,2,12,,110"]
    result = sheet(tmp_path, rows)
    assert result.problems.empty, result.problems["message"].tolist()
    ruled = line(result, 1, 4)
    # four tables: top 6; the award is its % of it
    assert (ruled["ns_pct"], ruled["ew_pct"]) == (ns, ew)
    assert ruled["ns_mp"] == pytest.approx(ns / 100 * 6)
    assert line(result, 2, 4)["ew_pct"] == ew


# 4. BBO's adjusted board (among the real results) and mean of board percentages

ADJUSTED = ["1,1,11,,420", "1,2,12,,450", "1,3,13,,-50", "1,4,14,A60/40,",
            "2,1,11,,100", "2,2,12,,-100"]


def test_neuberg_versus_among_real(tmp_path: Path) -> None:
    neuberg = sheet(tmp_path, ADJUSTED)
    # 3 real results on 4 tables: 450 = 4 raw -> (4 + 1)·4/3 − 1 = 5.67 of 6
    assert line(neuberg, 1, 2)["ns_mp"] == pytest.approx(17 / 3)
    assert line(neuberg, 1, 4)["ns_mp"] == pytest.approx(3.6)
    among = sheet(tmp_path, ADJUSTED, adjusted_board="among-real")
    # among themselves: top 2·(3 − 1) = 4; 450 100 %, 420 50 %, -50 0 %
    assert [line(among, 1, n)["ns_pct"] for n in (2, 1, 3)] == [100, 50, 0]
    assert line(among, 1, 4)["ns_mp"] == pytest.approx(0.6 * 4)  # 60 % of that top


def test_session_percentage_as_the_mean_of_board_percentages(tmp_path: Path) -> None:
    plain = sheet(tmp_path, ADJUSTED).ranking.set_index(["line", "pair"])
    # N-S 1: board 1 Neuberg 3 of 6, board 2 (2 tables) 2 -> (2 + 1)·4/2 − 1 = 5 of 6
    assert plain.loc[("NS", 1), "pct"] == pytest.approx(100 * 8 / 12)
    bbo = sheet(tmp_path, ADJUSTED, profile="bbo").ranking.set_index(["line", "pair"])
    # among the real results: 50 % and 100 % -> mean 75 %; N-S 4: its award, 60 %
    assert bbo.loc[("NS", 1), "pct"] == pytest.approx(75)
    assert bbo.loc[("NS", 4), "pct"] == pytest.approx(60)
    assert bbo.loc[("NS", 1), "place"] == "1"


# 5. percentages with decimals, and 60 % to both real pairs


@pytest.mark.parametrize(("text", "ns", "ew"), [
    ("61.8%-38.2%", 61.8, 38.2), ("61,8%-38,2%", 61.8, 38.2), ("60%-60%", 60, 60),
    ("A+/A+", 60, 60), ("55.5%/44.5%", 55.5, 44.5),
])
def test_percent_rulings(tmp_path: Path, text: str, ns: float, ew: float) -> None:
    cell = f'"{text}"' if "," in text else text  # a decimal comma is quoted in a CSV
    rows = ["1,1,11,,420", "1,2,12,,450", f"1,3,13,{cell},"]
    result = sheet(tmp_path, rows, "Board,NS,EW,Ruling,Score")
    assert result.problems.empty, result.problems["message"].tolist()
    ruled = line(result, 1, 3)
    assert (ruled["ns_pct"], ruled["ew_pct"]) == (ns, ew)
    assert ruled["ns_mp"] == pytest.approx(ns / 100 * 4)  # three tables: top 4


def test_a_single_percentage_is_refused_not_guessed(tmp_path: Path) -> None:
    result = sheet(tmp_path, ["1,1,11,,420", "1,2,12,,450", "1,3,13,\"61,8%\","],
                   "Board,NS,EW,Ruling,Score")
    assert result.problems["code"].tolist() == ["bad-ruling"]


# 6. adjusted scores in IMP methods

IMP_ROWS = ["1,1,11,,420", "1,2,12,,450", "1,3,13,A+,", "1,4,14,-1.5 IMP,",
            "2,1,11,,100", "2,5,15,2/-2 IMP,", "2,2,12,A-,"]


def test_adjusted_scores_in_cross_imps(tmp_path: Path) -> None:
    result = sheet(tmp_path, IMP_ROWS, method="ximp")
    assert result.problems.empty, result.problems["message"].tolist()
    # board 1: 420 v 450 -> -1 / (2 − 1); A+ +3 each side; -1.5 IMP to N-S, +1.5 to E-W
    assert line(result, 1, 1)["ns_imp"] == -1 and line(result, 1, 2)["ns_imp"] == 1
    assert (line(result, 1, 3)["ns_imp"], line(result, 1, 3)["ew_imp"]) == (3, 3)
    assert (line(result, 1, 4)["ns_imp"], line(result, 1, 4)["ew_imp"]) == (-1.5, 1.5)
    # pair 5 N-S has only an award (2 IMPs): ranked on it, 1 board
    ranking = result.ranking.set_index(["line", "pair"])
    assert ranking.loc[("NS", 5), "boards"] == 1 and ranking.loc[("NS", 5), "imps"] == 2
    assert imps_of(result, "NS", 2) == 1 - 3  # +1 on board 1, A- on board 2
    assert imps_of(result, "EW", 15) == -2


def test_average_plus_is_configurable_and_butler_uses_it(tmp_path: Path) -> None:
    result = sheet(tmp_path, IMP_ROWS, method="butler", adjusted_imps=2)
    # two real results (too few to trim): datum (420 + 450) / 2 = 435 -> 440
    assert line(result, 1, 1)["ns_imp"] == -1 and line(result, 1, 2)["ns_imp"] == 0
    assert line(result, 1, 3)["ns_imp"] == 2 and line(result, 2, 2)["ns_imp"] == -2


def test_an_imp_award_in_a_matchpoint_session_is_a_problem(tmp_path: Path) -> None:
    result = sheet(tmp_path, IMP_ROWS)
    wrong = result.problems[result.problems["code"] == "bad-ruling"]
    assert len(wrong) == 2 and wrong["message"].str.contains("IMPs").all()


SIT_OUT = ["1,1,11,,420", "1,2,12,,450", "1,3,13,TD,", "2,2,11,,100", "2,3,12,,140",
           "2,1,13,TD,"]


def test_a_sit_out_board_at_the_pairs_own_average(tmp_path: Path) -> None:
    # E-W 13 only has TD lines: the phantom. Board 1: 420 v 450, -1 / +1; board 2: 100 v 140
    plain = sheet(tmp_path, SIT_OUT, method="ximp").ranking.set_index(["line", "pair"])
    assert (plain.loc[("NS", 3), "boards"], plain.loc[("NS", 3), "imps"]) == (1, 1)
    ruter = sheet(tmp_path, SIT_OUT, method="ximp", sit_out="average")
    ranking = ruter.ranking.set_index(["line", "pair"])
    # N-S 3 sat out board 1: its average (+1) counts there too; N-S 1 sat out board 2: -1
    assert (ranking.loc[("NS", 3), "boards"], ranking.loc[("NS", 3), "imps"]) == (2, 2)
    assert (ranking.loc[("NS", 1), "boards"], ranking.loc[("NS", 1), "imps"]) == (2, -2)
    assert ("EW", 13) not in ranking.index
    assert ranking.loc[("NS", 3), "average"] == plain.loc[("NS", 3), "average"]


# 7. Butler datum variants

TEN = [-50, 100, 110, 140, 620, 650, 700, 1000, 1100, 1400]


def board(scores: list[int]) -> pd.DataFrame:
    n = len(scores)
    return pd.DataFrame({"board": [1] * n, "ns_pair": range(1, n + 1),
                         "ew_pair": range(11, 11 + n), "ns_score": scores})


@pytest.mark.parametrize(("options", "datum"), [
    ({"trim": 2}, 540),          # 110..1000: 3220 / 6 = 536.7
    ({"trim": "20%"}, 540),      # 20 % of 10 = 2 at each end
    ({"trim": "25%"}, 540),      # 2.5 rounded down to 2
    ({"trim": "30%"}, 530),      # 3 at each end: 2110 / 4 = 527.5, halves away
    ({"datum": "median"}, 640),  # (620 + 650) / 2 = 635 -> 640
    ({"datum": "median", "rounding": "half-even"}, 640),  # 63.5 -> 64 (even)
])
def test_datum_variants(options: dict[str, object], datum: int) -> None:
    assert butler_datum(board(TEN), **options)["datum"].tolist() == [datum]  # type: ignore[arg-type]


def test_median_of_an_odd_board_and_bad_trims(tmp_path: Path) -> None:
    assert butler_datum(board([-50, 100, 110, 140, 620]), datum="median")["datum"].tolist() == [
        110]
    for bad in ("50%", "x", "-1"):
        with pytest.raises(ValueError):
            process(tmp_path / "missing.csv", trim=bad)


# 8. rank by total or by average

RANK_ROWS = ["1,1,11,,420", "1,2,12,,450", "1,3,13,,-50", "2,1,11,,140", "2,3,13,,50"]


def test_rank_by_total_or_average(tmp_path: Path) -> None:
    # board 1: 420 -> (-1 + 10) / 2 = 4.5, 450 -> (1 + 11) / 2 = 6; board 2: 140 v 50 -> 3
    average = sheet(tmp_path, RANK_ROWS, method="ximp").ranking
    ns = average[average["line"] == "NS"].set_index("pair")
    assert ns["imps"].to_dict() == {2: 6.0, 1: 7.5, 3: -13.5}
    assert ns["place"].to_dict() == {2: "1", 1: "2", 3: "3"}  # 6 a board beats 3.75
    total = sheet(tmp_path, RANK_ROWS, method="ximp", rank_by="total").ranking
    ns = total[total["line"] == "NS"].set_index("pair")
    assert ns["place"].to_dict() == {1: "1", 2: "2", 3: "3"}  # 7.5 beats 6
    assert sheet(tmp_path, RANK_ROWS, method="ximp", profile="pary").settings[
        "rank_by"] == "total"


# 10. printed precision


def test_matchpoints_rounded_before_totalling_as_compscore_does() -> None:
    # a board played at 18 of 19 tables, N-S top: 34 of 34 -> (34 + 1)·19/18 − 1 = 35.944
    frame = pd.DataFrame({"results": [18, 18], "common_top": [36.0, 36.0],
                          "ns_mp": [34.0, 21.0], "ew_mp": [0.0, 13.0],
                          "ns_mp_scaled": [35 * 19 / 18 - 1, 22 * 19 / 18 - 1],
                          "ew_mp_scaled": [1 * 19 / 18 - 1, 14 * 19 / 18 - 1]})
    out = rounded_matchpoints(frame, 2)
    # factor 1.0556: 35 × 1.0556 − 1 = 35.946 -> 35.95; E-W the rest, 0.05
    assert out["ns_mp_scaled"].tolist() == [35.95, 22.22]
    assert out["ew_mp_scaled"].round(9).tolist() == [0.05, 13.78]


def test_percentages_as_printed_tie_pairs() -> None:
    ranking = pd.DataFrame({"section": "", "line": "NS", "pair": [1, 2, 3],
                            "pct": [55.04, 54.96, 50.0], "place": ["1", "2", "3"]})
    out = printed(pd.DataFrame(), ranking, pct_decimals=1)
    assert out["pct"].tolist() == [55.0, 55.0, 50.0]
    assert out["place"].tolist() == ["1=", "1=", "3"]
    assert np.isclose(printed(pd.DataFrame(), ranking)["pct"], ranking["pct"]).all()


# properties: on plain boards with one number of results, the conventions agree

SCORES = [-200, -100, -50, 110, 140, 420, 450, 620]


@settings(max_examples=examples(25), deadline=None)
@given(st.lists(st.lists(st.sampled_from(SCORES), min_size=4, max_size=4), min_size=1,
                max_size=4))
def test_mean_of_boards_equals_matchpoints_when_every_board_has_one_top(
        boards: list[list[int]]) -> None:
    rows = pd.DataFrame([{"section": "", "board": b + 1, "ns_pair": k + 1, "ew_pair": k + 11,
                          "ns_score": score}
                         for b, scores in enumerate(boards) for k, score in enumerate(scores)])
    ranked = matchpoints(rows.astype({"board": "Int64", "ns_pair": "Int64", "ew_pair": "Int64",
                                      "ns_score": "Int64"}))
    ranking = rank_pairs(ranked)
    mean = mean_of_boards(ranked, ranking, "mitchell")
    merged = ranking.merge(mean, on=["section", "line", "pair"], suffixes=("", "_mean"))
    assert np.allclose(merged["pct"].astype(float), merged["pct_mean"].astype(float))
    assert (merged["place"] == merged["place_mean"]).all()


@settings(max_examples=examples(25), deadline=None)
@given(st.lists(st.sampled_from(SCORES), min_size=2, max_size=7))
def test_among_real_boards_add_up_to_their_own_top(scores: list[int]) -> None:
    rows = pd.DataFrame({"section": "", "board": 1, "ns_pair": range(1, len(scores) + 2),
                         "ew_pair": range(11, len(scores) + 12),
                         "ns_score": [*scores, None],
                         "ruling_kind": [None] * len(scores) + ["average"],
                         "ns_award": [None] * len(scores) + [60.0],
                         "ew_award": [None] * len(scores) + [40.0]})
    rows = rows.astype({"board": "Int64", "ns_pair": "Int64", "ew_pair": "Int64",
                        "ns_score": "Int64", "ruling_kind": "string", "ns_award": "Float64",
                        "ew_award": "Float64"})
    out = matchpoints(rows, adjusted_board="among-real")
    real = out["ruling_kind"].isna()
    top = 2 * (len(scores) - 1)
    assert (out["top"] == top).all()
    assert np.allclose(out.loc[real, "ns_mp"] + out.loc[real, "ew_mp"], top)
    assert np.isclose(out.loc[~real, "ns_mp"].iloc[0], 0.6 * top)
