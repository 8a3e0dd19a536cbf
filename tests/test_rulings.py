"""Directors' rulings written in the sheet (docs/rulings.md)."""

from __future__ import annotations

from pathlib import Path

import numpy as np
import pandas as pd
import pytest

from traveller import process
from traveller.pipeline import Options, Result
from traveller.score.adjusted import weighted_matchpoints
from traveller.score.rank import matchpoints
from traveller.tidy.rulings import read_ruling, read_rulings

HEADER = "Board,NS,EW,Contract,Score\n"
WORKED = ["+420", "+420", "+420", "+450", "+400", "-50"]


def session(tmp_path: Path, rows: list[str], header: str = HEADER,
            options: Options | None = None) -> Result:
    path = tmp_path / "s.csv"
    path.write_text(header + "\n".join(rows) + "\n", encoding="utf-8")
    return process(path, options=options)


def board(number: int, cells: list[str], first_pair: int = 1) -> list[str]:
    """One board's rows: pair k N-S v pair 10 + k E-W; a cell is a score or a ruling."""
    rows = []
    for k, cell in enumerate(cells, start=first_pair):
        is_score = cell.lstrip("+-").isdigit()
        rows.append(f"{number},{k},{10 + k},{'' if is_score else cell},"
                    f"{cell if is_score else ''}")
    return rows


@pytest.mark.parametrize(("text", "kind", "ns", "ew"), [
    ("A+", "average", 60, 60), ("A=", "average", 50, 50), ("A", "average", 50, 50),
    ("A-", "average", 40, 40), ("A+-", "average", 60, 40), ("A-+", "average", 40, 60),
    ("A+=", "average", 60, 50), ("A60/40", "average", 60, 40), ("A6040", "average", 60, 40),
    ("A5050", "average", 50, 50), ("A6060", "average", 60, 60), ("60%-40%", "average", 60, 40),
    ("AVE+", "average", 60, 60), ("AVE", "average", 50, 50), ("AVE-", "average", 40, 40),
    ("A+/A-", "average", 60, 40), ("AVE-/AVE+", "average", 40, 60),
    ("NP", "not-played", None, None), ("TD", "phantom", None, None),
    ("BYE", "phantom", None, None),
])
def test_notations(text: str, kind: str, ns: float | None, ew: float | None) -> None:
    ruling = read_ruling(text)
    assert (ruling.kind, ruling.ns_award, ruling.ew_award, ruling.error) == (kind, ns, ew, "")


def test_weighted_and_split_notations() -> None:
    assert read_ruling("30%+650/70%-100").parts == ((30, 650), (70, -100))
    assert read_ruling("33.33%+420/33.33%+450/33.34%-50").kind == "weighted"
    assert read_ruling("+420/-450").parts == ((100, 420), (100, -450))
    # one sign says the numbers are N-S's view; E-W's 0 is 0 from either side
    assert read_ruling("+420/450").parts == ((100, 420), (100, 450))
    assert read_ruling("420/-450").parts == ((100, 420), (100, -450))
    assert read_ruling("420/0").parts == ((100, 420), (100, 0))
    assert read_ruling("4S").kind is None and read_ruling("").kind is None


@pytest.mark.parametrize(("text", "error"), [
    ("30%+650/60%-100", "add up to 90"), ("30%+655/70%-100", "+655 is not a score"),
    ("20%+50/20%+100/20%+110/20%+120/10%+130/10%+140", "at most 5 parts"),
    ("60/40", "for N-S 60 % and E-W 40 % write A60/40"),
    ("60-40", "percentages need an A or % signs"), ("A70", "not a ruling notation"),
    ("50/50", "it reads two ways"), ("100/50", "write +100/+50"),
    ("420/450", "write +420/+450"), ("420/450", "write +420/-450"),
    ("0/450", "write +0/-450"),
    ("10.123%+50/89.877%+100", "not a ruling notation"),
])
def test_unreadable_rulings_say_why(text: str, error: str) -> None:
    ruling = read_ruling(text)
    assert ruling.kind is None and error in ruling.error


def test_bare_fifty_fifty_is_listed_not_read_as_a_split_score(tmp_path: Path) -> None:
    # "50/50" read as a split score (N-S +50, E-W compared on +50) gave N-S 0 % and
    # E-W the top where the director had surely meant average to both
    rows = ["1,1,11,4S,N,10,", "1,2,12,4S,N,10,", "1,3,13,50/50,,,", "1,4,14,60-40,,,",
            "1,5,15,+50/+50,,,", "1,6,16,420/450,,,"]
    result = session(tmp_path, rows, "Board,NS,EW,Contract,By,Tricks,Score\n")
    problems = result.problems.set_index("value")
    assert problems.loc["50/50", "code"] == "bad-ruling"
    assert "write A50/50" in problems.loc["50/50", "message"]
    assert "write +50/+50" in problems.loc["50/50", "message"]
    assert "write A60/40" in problems.loc["60-40", "message"]
    assert "+50/+50" not in problems.index  # signed: a split score as written
    assert problems.loc["420/450", "code"] == "bad-ruling"  # no sign: whose 450?
    t = result.travellers.set_index("ns_pair")
    assert 3 not in t.index and 4 not in t.index and 6 not in t.index
    assert t.loc[5, "ruling_kind"] == "split"


def test_rulings_are_read_from_contract_score_or_a_ruling_column(tmp_path: Path) -> None:
    rows = ["1,1,11,4S,N,10,,", "1,2,12,,,,,A60/40", "1,3,13,a + -,,,,",
            "1,4,14,,,,30%+650/70%-100,", "1,5,15,4S,N,10,,NP"]
    result = session(tmp_path, rows, "Board,NS,EW,Contract,By,Tricks,Score,Ruling\n")
    assert result.problems.empty, result.problems["message"].tolist()
    t = result.travellers.set_index("ns_pair")
    assert t.loc[2, "ruling"] == "A60/40" and t.loc[3, "ruling"] == "a + -"
    assert t.loc[3, ["ns_award", "ew_award"]].tolist() == [60, 40]
    assert t.loc[4, "ruling_kind"] == "weighted" and t.loc[5, "ruling_kind"] == "not-played"
    assert pd.isna(t.loc[1, "ruling"])


def test_a_bad_ruling_is_a_problem_in_its_own_column(tmp_path: Path) -> None:
    result = session(tmp_path, ["1,1,11,,+420", "1,2,12,,30%+420/60%-50", "1,3,13,A70,"])
    problems = result.problems.set_index("row")
    assert problems["code"].tolist() == ["bad-ruling", "bad-ruling"]
    assert problems.loc[3, "column"] == "Score" and "add up to 90 %" in problems.loc[3, "message"]
    assert problems.loc[4, "column"] == "Contract"
    assert len(result.travellers) == 1


def test_rules_md_worked_example(tmp_path: Path) -> None:
    result = session(tmp_path, board(1, [*WORKED, "A60/40"]))
    t = result.travellers.sort_values("ns_pair")
    assert t["ns_mp"].round(4).tolist() == [7.1667, 7.1667, 7.1667, 11.8333, 2.5, 0.1667, 7.2]
    assert t["ew_mp"].round(4).iloc[-1] == 4.8 and (t["top"] == 12).all()
    adjusted = t.iloc[-1]
    assert (adjusted["ns_pct"], adjusted["ew_pct"]) == (60, 40)
    assert adjusted["ruling_applied"] == "artificial: N-S 60.0 %, E-W 40.0 %"


def test_a_ruling_row_built_by_hand_gives_the_same() -> None:
    frame = pd.DataFrame({"section": "", "board": 1, "ns_pair": range(1, 8),
                          "ew_pair": range(1, 8),
                          "ns_score": pd.array([420, 420, 420, 450, 400, -50, None], "Int64")})
    frame = frame.join(read_rulings(pd.Series([None] * 6 + ["A60/40"])))
    frame["ruling"] = [None] * 6 + ["A60/40"]
    out = matchpoints(frame)
    assert out["ns_mp_scaled"].round(4).tolist()[:6] == [7.1667, 7.1667, 7.1667, 11.8333,
                                                        2.5, 0.1667]


def test_acbl_scale_neuberg_and_awards(tmp_path: Path) -> None:
    path = tmp_path / "s.csv"
    path.write_text(HEADER + "\n".join(board(1, [*WORKED, "A+-"])) + "\n", encoding="utf-8")
    t = process(path, scale="1/0.5").travellers.sort_values("ns_pair")
    # (M + 1/2)·7/6 − 1/2 on top 6; 60 % of 6 = 3.6
    assert t["ns_mp"].round(4).tolist() == [3.5833, 3.5833, 3.5833, 5.9167, 1.25, 0.0833, 3.6]


def test_weighted_score_checked_by_hand(tmp_path: Path) -> None:
    # board 2: N-S vulnerable, so +620 and +650 are scores
    result = session(tmp_path, board(2, ["+650", "+620", "-100", "+170", "30%+650/70%-100"]))
    t = result.travellers.sort_values("ns_pair")
    # the weighted table: vs +650 0.3, vs +620 0.6, vs -100 0.6 + 0.7, vs +170 0.6
    assert t["ns_mp"].round(9).tolist() == [7.7, 5.4, 0.7, 3.4, 2.8]
    assert t["ns_mp"].sum() == pytest.approx(8 * 5 / 2)
    assert (t["ns_mp"] + t["ew_mp"]).round(9).eq(8).all()
    assert t.iloc[-1]["ruling_applied"] == "weighted score: N-S 35.0 %, E-W 65.0 %"


def test_split_score_each_side_on_its_own(tmp_path: Path) -> None:
    result = session(tmp_path, board(1, ["+420", "+450", "+400", "+420/-450"]))
    t = result.travellers.sort_values("ns_pair")
    assert t["ns_mp"].tolist() == [3, 6, 0, 3]  # N-S compared with +420
    assert t["ew_mp"].tolist() == [2, 0, 4, 6]  # E-W compared with -450 (E-W +450)


@pytest.mark.parametrize(("number", "ruling", "wrong"), [
    (2, "+420/-420", "+420 is not a score on board 2 (N-S vulnerable)"),  # 4S vul is +620
    (3, "50%+420;50%+620", "+620 is not a score on board 3 (E-W vulnerable)"),
    (4, "+420/-620", "+420 is not a score on board 4 (both sides vulnerable)"),
])
def test_a_ruling_with_the_other_vulnerabilitys_score_is_refused(
        tmp_path: Path, number: int, ruling: str, wrong: str) -> None:
    played = ["+420", "+450", "+400"] if number == 3 else ["+620", "+650", "+600"]
    result = session(tmp_path, board(number, [*played, ruling]))
    problems = result.problems
    assert problems["code"].tolist() == ["bad-ruling"] and problems["value"].tolist() == [ruling]
    assert wrong in problems["message"].iloc[0]
    assert len(result.travellers) == 3  # the three results, compared among themselves


def test_a_ruling_whose_scores_fit_the_vulnerability_is_applied(tmp_path: Path) -> None:
    """Board 1, nobody vulnerable: +420 and -420 are 4S either way; board 2 N-S
    vulnerable: +620 and -420 (E-W's 4S, not vulnerable) fit it."""
    result = session(tmp_path, [*board(1, ["+420", "+450", "+420/-420"]),
                                *board(2, ["+620", "+650", "+620/-420"])])
    assert result.problems.empty
    assert result.travellers["ruling_applied"].notna().sum() == 2


def test_a_ruling_is_checked_at_the_vul_column_s_vulnerability(tmp_path: Path) -> None:
    """A Vul column says what the table played: +620 (and E-W's 4S, -420) fit board 1
    played N-S vulnerable, not its number's nobody vulnerable."""
    rows = ["1,1,11,4S,N,10,NS,", "1,2,12,4S,N,10,NS,", "1,3,13,,,,NS,+620/-420"]
    result = session(tmp_path, rows, header="Board,NS,EW,Contract,By,Tricks,Vul,Score\n")
    assert "bad-ruling" not in set(result.problems["code"])
    assert result.travellers["ruling_kind"].eq("split").sum() == 1


def test_weighted_matchpoints_by_sorting() -> None:
    groups = np.array([0, 0, 0, 1])
    scores = np.array([50.0, 50.0, 100.0, 7.0])
    weights = np.array([0.5, 1.0, 1.0, 1.0])
    # itself counted among the equal ones: 50 (w .5) ties 50 and itself; 100 beats 1.5
    assert weighted_matchpoints(groups, scores, weights).tolist() == [1.5, 1.5, 4.0, 1.0]


def test_not_played_board_scored_on_the_results_that_exist(tmp_path: Path) -> None:
    rows = board(1, ["+100", "+50", "0", "-50"]) + board(8, ["+200", "+100", "0", "NP"])
    result = session(tmp_path, rows)
    t = result.travellers
    short = t[t["board"] == 8].sort_values("ns_pair")
    assert short["ns_mp"].tolist()[:3] == [4, 2, 0] and (short["top"] == 4).all()
    assert short["ns_mp_scaled"].round(4).tolist()[:3] == [5.6667, 3.0, 0.3333]
    assert short["ns_mp"].isna().tolist() == [False, False, False, True]
    ranking = result.ranking.set_index(["line", "pair"])
    assert ranking.loc[("NS", 4), "boards"] == 1 and ranking.loc[("NS", 1), "boards"] == 2
    assert ranking.loc[("NS", 4), "mp_factored"] == ranking.loc[("NS", 4), "mp"] * 2


def test_fouled_board_groups_are_scored_apart_on_the_full_top(tmp_path: Path) -> None:
    rows = ["1,1,11,+100,A", "1,2,12,+200,A", "1,3,13,+300,A", "1,4,14,+400,A",
            "1,5,15,-100,B", "1,6,16,-200,B"]
    result = session(tmp_path, rows, "Board,NS,EW,Score,Fouled\n")
    t = result.travellers.sort_values("ns_pair")
    assert (t["top"] == 10).all()
    # group A: 0 2 4 6 -> (M + 1)·6/4 − 1; group B: 2 0 -> (M + 1)·6/2 − 1
    assert t["ns_mp"].tolist() == [0.5, 3.5, 6.5, 9.5, 8.0, 2.0]
    assert (t["fouled"] == pd.Series(list("AAAABB"), index=t.index)).all()


def test_phantom_lines_with_and_without_an_award(tmp_path: Path) -> None:
    # pair 19 (E-W) is the phantom: every line of it is a TD line; 4 and 1 sit out once
    rows = [*board(1, ["+100", "+50", "0"]), "1,4,19,TD,",
            *board(8, ["+200", "+100", "0"], first_pair=2), "8,1,19,TD,"]
    plain = session(tmp_path, rows)
    assert plain.problems.empty, plain.problems["message"].tolist()
    t = plain.travellers
    td = t[t["ruling"] == "TD"]
    assert len(td) == 2 and td["ns_mp"].isna().all() and (td["phantom"] == "EW").all()
    assert (t["results"] == 3).all()
    ranking = plain.ranking.set_index(["line", "pair"])
    assert ("EW", 19) not in ranking.index
    assert ranking.loc[("NS", 4), "boards"] == 1 and ranking.loc[("NS", 1), "boards"] == 1
    awarded = session(tmp_path, rows, options=Options(phantom_award=60))
    td = awarded.travellers[awarded.travellers["ruling"] == "TD"]
    assert td["ns_mp"].round(9).tolist() == [2.4, 2.4] and td["ew_pct"].tolist() == [0, 0]
    ranking = awarded.ranking.set_index(["line", "pair"])
    assert ("EW", 19) not in ranking.index and ranking.loc[("NS", 4), "boards"] == 2
    assert td["ruling_applied"].iloc[0] == "phantom (EW) table: N-S 60.0 %, E-W 0.0 %"


def test_a_bye_row_names_only_the_pair_sitting_out(tmp_path: Path) -> None:
    rows = [*board(1, ["+100", "+50", "0"]), "1,,14,Bye,"]
    result = session(tmp_path, rows, options=Options(phantom_award=50))
    assert result.problems.empty, result.problems["message"].tolist()
    bye = result.travellers[result.travellers["ruling"] == "Bye"].iloc[0]
    assert (bye["phantom"], bye["ew_pct"], bye["ns_pct"]) == ("NS", 50, 0)


def test_a_phantom_that_cannot_be_told_is_a_problem_unless_named(tmp_path: Path) -> None:
    # pairs 4 and 14 meet only on one TD line each: either could be the phantom
    rows = [*board(1, ["+100", "+50", "0"]), "1,4,14,TD,",
            *board(8, ["+100", "+50", "0"])]
    result = session(tmp_path, rows)
    assert result.problems["code"].tolist() == ["bad-ruling"]
    assert "--phantom" in result.problems["message"].iloc[0]
    named = session(tmp_path, rows, options=Options(phantom=("EW14",), phantom_award=60))
    assert named.problems.empty
    ranking = named.ranking.set_index(["line", "pair"])
    assert ("EW", 14) not in ranking.index and ranking.loc[("NS", 4), "boards"] == 1
    wrong = session(tmp_path, rows, options=Options(phantom=("EW41",), phantom_award=60))
    listed = wrong.problems.set_index("code")
    assert sorted(listed.index) == ["bad-ruling", "phantom-not-found"]
    assert listed.loc["phantom-not-found", "row"] is pd.NA
    assert listed.loc["phantom-not-found", "message"].startswith(
        "s.csv, --phantom 'EW41': the pair named as the phantom (--phantom) has no result")


def test_a_td_line_between_two_real_pairs_gives_both_60(tmp_path: Path) -> None:
    # 4 and 14 both play board 8: the TD line on board 1 is no phantom's table
    rows = [*board(1, ["+100", "+50", "0"]), "1,4,14,TD,",
            *board(8, ["+100", "+50", "0", "-50"])]
    result = session(tmp_path, rows)
    assert result.problems.empty, result.problems["message"].tolist()
    td = result.travellers[result.travellers["ruling"] == "TD"].iloc[0]
    # board 1 has 4 tables (3 results + the ruling): top 6, 60 % = 3.6 each
    assert (td["ns_pct"], td["ew_pct"]) == (60, 60)
    assert td["ns_mp"] == pytest.approx(3.6) and td["ew_mp"] == pytest.approx(3.6)
    assert td["phantom"] == ""
    ranking = result.ranking.set_index(["line", "pair"])
    assert ranking.loc[("NS", 4), "boards"] == 2 and ranking.loc[("EW", 14), "boards"] == 2


def test_arrow_switch_credits_the_cards_each_pair_held(tmp_path: Path) -> None:
    rows = board(1, ["+100", "+50", "0", "-50"]) + board(8, ["+100", "+50", "0", "-50"])
    plain = session(tmp_path, rows).ranking.set_index(["line", "pair"])
    switched = session(tmp_path, rows, options=Options(arrow_switch=(8,)))
    ranking = switched.ranking.set_index(["line", "pair"])
    # pair 1 N-S: top on board 1, bottom on board 8 (it held the E-W cards there)
    assert plain.loc[("NS", 1), "mp"] == 12 and ranking.loc[("NS", 1), "mp"] == 6
    assert ranking.loc[("EW", 11), "mp"] == 6
    column = session(tmp_path, [r + ("," + ("Y" if r.startswith("8") else "")) for r in rows],
                     HEADER.strip() + ",Arrow\n")
    pd.testing.assert_frame_equal(column.ranking, switched.ranking)


def test_session_percentage_option_raises_average_plus(tmp_path: Path) -> None:
    rows = (board(1, ["+100", "+50", "0", "-50"]) + board(8, ["+100", "+50", "0", "-50"])
            + board(11, ["A+-", "+50", "0", "-50"]))
    plain = session(tmp_path, rows)
    better = session(tmp_path, rows, options=Options(adjusted_session_pct=True))
    ruled = better.travellers[better.travellers["ruling"].notna()].iloc[0]
    # pair 1 N-S scored 100 % on boards 1-2 and gets it for A+; E-W pair 11 had 0 %
    assert (ruled["ns_pct"], ruled["ew_pct"]) == (100, 0)
    assert plain.travellers[plain.travellers["ruling"].notna()]["ns_pct"].tolist() == [60]
    other = better.travellers[better.travellers["ruling"].isna()]
    pd.testing.assert_series_equal(
        other["ns_mp"], plain.travellers[plain.travellers["ruling"].isna()]["ns_mp"])


def test_sections_apart_or_across_the_field(tmp_path: Path) -> None:
    rows = ["A,1,1,11,+100", "A,1,2,12,+50", "B,1,1,11,0", "B,1,2,12,-50"]
    header = "Section,Board,NS,EW,Score\n"
    apart = session(tmp_path, rows, header)
    assert apart.travellers["ns_mp"].tolist() == [2, 0, 2, 0]
    assert apart.ranking["place"].tolist() == ["1", "2", "1", "2", "1", "2", "1", "2"]
    field = session(tmp_path, rows, header, Options(sections="field"))
    assert field.travellers.sort_values("ns_score", ascending=False)["ns_mp"].tolist() == [
        6, 4, 2, 0]
    assert sorted(field.ranking["place"]) == ["1", "1", "2", "2", "3", "3", "4", "4"]


def test_options_are_checked() -> None:
    with pytest.raises(ValueError, match="sections"):
        Options(sections="together")
    with pytest.raises(ValueError, match="percentage"):
        Options(phantom_award=160)
    for pair in ("abc", "18a", "0", "NS"):
        with pytest.raises(ValueError, match="no pair number"):
            Options(phantom=(pair,))
    assert Options(phantom=("18", "EW 18", "n-s 3")).phantom == ("18", "EW 18", "n-s 3")


def test_a_ruling_written_twice_two_ways_is_refused_naming_both(tmp_path: Path) -> None:
    """A60/40 in the contract cell and A40/60 in the Ruling column read two ways: neither
    is applied; the same ruling written twice (AVE+ and A+) is applied."""
    rows = ["1,1,11,4S,+420,", "1,2,12,4S,+450,", "1,3,13,A60/40,,A40/60", "1,4,14,AVE+,,A+",
            "1,5,15,+420/-450,,A+"]
    result = session(tmp_path, rows, header="Board,NS,EW,Contract,Score,Ruling\n")
    bad = result.problems[result.problems["code"] == "bad-ruling"]
    assert bad["row"].tolist() == [4, 6] and bad["column"].tolist() == ["Ruling", "Ruling"]
    message = bad["message"].iloc[0]
    assert "the Ruling cell says A40/60 and the contract cell A60/40" in message
    assert "(the column Ruling was not recognised)" not in " ".join(result.problems["message"])
    t = result.travellers
    assert sorted(t["ns_pair"]) == [1, 2, 4]  # pairs 3 and 5 not scored
    assert t.loc[t["ns_pair"] == 4, "ns_award"].tolist() == [60]
