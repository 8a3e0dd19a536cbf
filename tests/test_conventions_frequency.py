"""PBN frequency score tables: distinct results with a Multiplicity, no pair numbers.

The file is built here in the PBN standard's layout (tags, a ScoreTable whose
header names each column with its width and alignment, one line per distinct
result). Board 1, nobody vulnerable, 7 tables (top 12): +450 once, +420 three
times, +400 once, -50 twice. Board 2, N-S vulnerable, 5 tables (top 8): +600
twice, -100 twice, -110 once.
"""

from __future__ import annotations

from pathlib import Path

import pandas as pd
import pytest

from traveller import process
from traveller.pipeline import Result

HEADER = ("Contract\\4R;Declarer\\1R;Result\\2R;Score_NS\\5R;Score_EW\\5R;"
          "Multiplicity\\2R;MP_NS\\4R;MP_EW\\4R;Percentage_NS\\3R")
PBN = """% PBN 2.1
% EXPORT
[Event "Simultaneous pairs"]
[Site "Online"]
[Date "2026.11.30"]
[Board "1"]
[Dealer "N"]
[Vulnerable "None"]
[Scoring "MP"]
{table}
4S   N 11  450    -  1   12    0 100
4S   N 10  420    -  3    8    4  67
3NT  S  9  400    -  1    4    8  33
4S   N  9    -   50  2    1   11   8

[Event "#"]
[Board "2"]
[Dealer "E"]
[Vulnerable "NS"]
[Scoring "MP"]
{table}
3NT  N  9  600    -  2    7    1  88
3NT  N  8    -  100  2    3    5  38
2S   E  8    -  110  1    0    8   0
""".replace("{table}", f'[ScoreTable "{HEADER}"]')


@pytest.fixture
def pbn_file(tmp_path: Path) -> Path:
    path = tmp_path / "simultaneous.pbn"
    path.write_text(PBN, encoding="utf-8")
    return path


def test_each_result_counted_as_often_as_given(pbn_file: Path) -> None:
    result = process(pbn_file)
    assert result.problems.empty, result.problems["message"].tolist()
    t = result.travellers
    assert len(t) == 7  # one row per published result
    assert t["multiplicity"].astype(int).tolist() == [1, 3, 1, 2, 2, 2, 1]
    # board 1: +450 beats 6 -> 12; +420 beats 3, ties 2 -> 8; +400 beats 2 -> 4; -50 ties 1 -> 1
    # board 2: +600 beats 3, ties 1 -> 7; -100 beats 1, ties 1 -> 3; -110 -> 0
    assert t["ns_mp"].tolist() == [12, 8, 4, 1, 7, 3, 0]
    assert t["top"].tolist() == [12] * 4 + [8] * 3
    assert (t["ns_mp"] == t["published_ns_mp"].astype(float)).all()
    assert (t["ew_mp"] == t["published_ew_mp"].astype(float)).all()
    assert (t["ns_pct"].round(0) == t["published_ns_pct"].astype(float)).all()


def test_no_pair_ranking_and_the_summary_says_so(pbn_file: Path) -> None:
    result = process(pbn_file)
    assert result.ranking.empty
    summary = dict(zip(result.summary["item"], result.summary["value"], strict=True))
    assert "no pair numbers" in str(summary["pairs ranked"])
    assert (summary["tables"], summary["results scored"]) == (7, 12)
    counts = result.frequencies.set_index(["board", "ns_score"])["count"]
    assert counts[(1, 420)] == 3 and counts[(1, -50)] == 2 and counts[(2, -110)] == 1


def test_cross_imps_of_a_frequency_table(pbn_file: Path) -> None:
    t = process(pbn_file, method="ximp").travellers
    top = t[(t["board"] == 1) & (t["ns_score"] == 450)].iloc[0]
    # +450 v three +420 (30: 1 each), two -50 (500: 11 each), +400 (50: 2) = 27 over 6
    assert float(top["ns_imp"]) == pytest.approx(27 / 6)
    assert len(t) == 7 and process(pbn_file, method="ximp").ranking.empty


def test_a_published_value_that_differs_is_listed(tmp_path: Path) -> None:
    path = tmp_path / "wrong.pbn"
    # the publication gives the single +400 5 matchpoints; it beats only the two -50s: 4
    path.write_text(PBN.replace("3NT  S  9  400    -  1    4    8  33",
                                "3NT  S  9  400    -  1    5    7  33"), encoding="utf-8")
    result = process(path)
    problems = result.problems
    assert problems["code"].tolist() == ["published-differs"] * 2
    assert problems["column"].tolist() == ["published N-S matchpoints",
                                           "published E-W matchpoints"]
    assert problems["value"].tolist() == ["5", "7"]  # as the file writes them
    assert line_of(result, 400)["ns_mp"] == 4  # ours are used


def line_of(result: Result, score: int) -> pd.Series:
    t = result.travellers
    return t[t["ns_score"] == score].iloc[0]
