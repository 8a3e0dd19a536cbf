"""Conventions found on real publications, second round (docs/conventions.md):
Ruter's plain-sum cross-IMP awards, KoPS rounding before it divides, OKbridge's
printed precision and BBO's adjusted results in a Result column."""

from __future__ import annotations

from pathlib import Path

import pytest

from traveller import process


def write(tmp_path: Path, header: str, rows: list[str], name: str = "s.csv") -> Path:
    path = tmp_path / name
    path.write_text(header + "\n" + "\n".join(rows) + "\n", encoding="utf-8")
    return path


def test_ruter_plain_sum_average_plus_follows_the_divisor(tmp_path: Path) -> None:
    # 39 real results and an A60/40 line: 40 results, the A+ compared with 39 of them
    rows = [f"1,{p},{p + 100},,420" for p in range(1, 40)] + ["1,40,140,A60/40,"]
    path = write(tmp_path, "Board,NS,EW,Contract,Score", rows)
    ruter = process(path, profile="ruter", method="ximp").travellers
    award = ruter[ruter["ns_pair"] == 40]
    assert float(award["ns_imp"].iloc[0]) == pytest.approx(58.5)  # 1.5 IMP x 39, as printed
    assert float(award["ew_imp"].iloc[0]) == pytest.approx(-58.5)
    # the same award divided by n - 1 is worth the award itself, by n 39/40 of it
    plain = process(path, method="ximp", adjusted_imps=1.5).travellers
    assert float(plain.loc[plain["ns_pair"] == 40, "ns_imp"].iloc[0]) == pytest.approx(1.5)
    by_n = process(path, method="ximp", adjusted_imps=1.5, divisor="n").travellers
    assert float(by_n.loc[by_n["ns_pair"] == 40, "ns_imp"].iloc[0]) == pytest.approx(
        1.5 * 39 / 40)


@pytest.mark.parametrize(("token", "ns", "ew"), [
    ("A==", 50, 50), ("A+=", 60, 50), ("A-+", 40, 60), ("A+-", 60, 40), ("A--", 40, 40),
])
def test_bbo_adjusted_results_in_the_result_column(tmp_path: Path, token: str, ns: float,
                                                   ew: float) -> None:
    # as BBO's traveller pages print them: the token as the result, the score empty or N/A
    rows = ["1,1,11,4S,N,=,420", "1,2,12,4S,N,+1,450", "1,3,13,3NT,S,-1,-50",
            f"1,4,14,,,{token},", f"3,4,14,,,{token},N/A", "3,1,11,4S,N,=,420",
            "3,2,12,4S,N,+1,450"]
    path = write(tmp_path, "Board,NS,EW,Contract,Declarer,Result,Score", rows)
    result = process(path)
    assert result.problems.empty, result.problems["message"].tolist()
    t = result.travellers
    ruled = t[t["ns_pair"] == 4]
    assert ruled["ruling"].tolist() == [token, token]
    assert ruled["ns_pct"].tolist() == [ns, ns] and ruled["ew_pct"].tolist() == [ew, ew]
    # four tables on board 1: top 6, the award its % of it
    assert float(ruled["ns_mp"].iloc[0]) == pytest.approx(ns / 100 * 6)


def test_a_plain_result_is_still_a_result(tmp_path: Path) -> None:
    path = write(tmp_path, "Board,NS,EW,Contract,Declarer,Result,Score",
                 ["1,1,11,4S,N,=,420", "1,2,12,4S,N,+1,450"])
    assert process(path).travellers["ruling"].isna().all()


SCORES = [270, 260, 250, 240, 230, 210, 200, 190, 180, 170, 160, 150, 140, 130, 120, 110,
          100, 90, 80, 70, 50]  # 21 different scores, best first


def test_kops_rounds_each_scaled_matchpoint_before_the_percentage(tmp_path: Path) -> None:
    # 21 real results and an A60/40: 22 tables, top 42 on the board
    rows = [f"1,{p},{p + 100},,{s}" for p, s in enumerate(SCORES, start=1)]
    path = write(tmp_path, "Board,NS,EW,Contract,Score", [*rows, "1,22,122,A60/40,"])
    exact = process(path).travellers
    kops = process(path, profile="kops").travellers
    # pair 4 beats 17 and loses to 3 of the 21: raw 34 of 40, (34 + 1) x 22/21 - 1 = 35.667
    row = exact[exact["ns_pair"] == 4].iloc[0]
    assert float(row["ns_mp"]) == pytest.approx(35 + 2 / 3)
    assert round(float(row["ns_pct"]), 2) == 84.92  # 35.667 / 42
    ruled = kops[kops["ns_pair"] == 4].iloc[0]
    assert float(ruled["ns_mp"]) == 35.67
    assert round(float(ruled["ns_pct"]), 2) == 84.93  # 35.67 / 42, as KoPS prints it
    assert round(float(ruled["ew_pct"]), 2) == 15.07  # 6.33 / 42
    award = kops[kops["ns_pair"] == 22].iloc[0]
    assert (float(award["ns_pct"]), float(award["ew_pct"])) == (60.0, 40.0)  # as awarded


OKBRIDGE = """% PBN 2.1
[Event "OKbridge pairs"]
[Board "1"]
[Dealer "N"]
[Vulnerable "None"]
[Scoring "MP"]
[ScoreTable "Contract\\\\4R;Declarer\\\\1R;Result\\\\2R;Score_NS\\\\5R;Score_EW\\\\5R;\
Multiplicity\\\\2R;Percentage_NS\\\\6R"]
4S   N 11  450    -  1 100.00
4S   N 10  420    -  3   66.7
3NT  S  9  400    -  1  33.33
4S   N  9    -   50  2    8.3
"""


def test_okbridge_prints_a_shared_result_to_one_decimal(tmp_path: Path) -> None:
    # 7 tables, top 12: +450 12 (100 %), +420 three times 8 (66.667 %), +400 4 (33.333 %),
    # -50 twice 1 (8.333 %); OKbridge prints the shared ones to 1 decimal, the others to 2
    path = tmp_path / "okbridge.pbn"
    path.write_text(OKBRIDGE, encoding="utf-8")
    plain = process(path)
    differ = plain.problems[plain.problems["code"] == "published-differs"]
    assert sorted(differ["value"].tolist()) == ["66.7", "8.3"]  # 66.67 and 8.33 as we print
    ok = process(path, profile="okbridge")
    assert ok.problems.empty, ok.problems["message"].tolist()
    assert ok.travellers["ns_pct"].tolist() == [100.0, 66.7, 33.33, 8.3]
    assert ok.travellers["ew_pct"].tolist() == [0.0, 33.3, 66.67, 91.7]


def test_a_frequency_table_writes_its_workbook_without_score_cards(tmp_path: Path) -> None:
    from openpyxl import load_workbook

    from traveller.publish.workbook import write_workbook

    path = tmp_path / "okbridge.pbn"
    path.write_text(OKBRIDGE, encoding="utf-8")
    out = tmp_path / "okbridge.xlsx"
    write_workbook(process(path, profile="okbridge"), out)  # it crashed on the score cards
    book = load_workbook(out, read_only=True)
    names = book.sheetnames
    book.close()  # (read-only: open until closed)
    assert "Score cards" not in names and "Frequencies" in names
