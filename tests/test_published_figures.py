"""The publication an input carries (another program's matchpoints, percentages, IMPs,
datum) is compared with ours on every line: real files agree, edited lines are listed,
a publication made with other settings is listed once per column."""

from __future__ import annotations

from pathlib import Path

import numpy as np
import pandas as pd
import pytest
from conftest import real_file

from traveller.pipeline import process
from traveller.score.published import differences

CODES = {"published-differs", "publication-settings"}

#: (folder, file, method, the program's conventions where the plain scoring differs)
AGREE = [("usebio-compscore", "mp_pairs_mitchell.xml", "mp", "compscore"),
         ("usebio-compscore", "mp_pairs_howell.xml", "mp", None),
         ("usebio-compscore", "butler_mitchell.xml", "butler", None),
         ("usebio-compscore", "cross_imp_howell.xml", "ximp", None),
         ("pbn-ruter", "sm1.pbn", "mp", None), ("pbn-ruter", "butler.pbn", "butler", "ruter"),
         *[("pbn-teams-itt1998", f"98ITTF{n}.PBN", "teams", None) for n in range(2, 9)]]


@pytest.mark.parametrize(("folder", "name", "method", "profile"), AGREE)
def test_real_publications_agree_with_ours(folder: str, name: str, method: str,
                                           profile: str | None) -> None:
    """Every line's figures, and every pair's total, percentage and place."""
    result = process(real_file(folder, name), method=method, dd=False,
                     **({"profile": profile} if profile else {}))
    t = result.travellers
    assert [c for c in t if c.startswith("published_") and c[10:] in t]  # something compared
    assert not result.problems["code"].isin(CODES).any(), result.problems["message"].tolist()
    assert not result.problems["code"].eq("profile-suggested").any()


def test_the_program_that_wrote_it_is_named_when_its_profile_agrees() -> None:
    # Compscore rounds a pair's total to 2 decimals: 456.95 where ours is 456.9444
    result = process(real_file("usebio-compscore", "mp_pairs_mitchell.xml"), dd=False)
    p = result.problems
    assert p["code"].value_counts()[["published-differs", "profile-suggested"]].tolist() \
        == [2, 1]
    hint = p[p["code"] == "profile-suggested"].iloc[0]
    assert (hint["column"], hint["value"], hint["severity"]) \
        == ("PROGRAM_NAME", "Compscore3", "warning")
    assert pd.isna(hint["row"])  # the file's, not a result's
    assert "(with --as compscore, none of the 2 warnings about them here remains)" \
        in hint["message"]
    # the scores are the ones asked for: the totals unrounded (Compscore's: 596.22)
    assert result.settings["profile"] is None
    assert result.ranking["mp"].round(2).ne(result.ranking["mp"]).any()


@pytest.mark.parametrize(("name", "method"), [("butler_mitchell.xml", "mp"),
                                              ("mp_pairs_mitchell_adjusted_02.xml", "mp")])
def test_no_profile_is_suggested_where_it_changes_nothing(name: str, method: str) -> None:
    # Butler scored as matchpoints, or ten lines whose results changed after Compscore
    # scored them: Compscore's conventions do not bring the figures closer
    result = process(real_file("usebio-compscore", name), method=method, dd=False)
    assert result.problems["code"].isin(CODES).any()
    assert not result.problems["code"].eq("profile-suggested").any()


def test_without_its_conventions_the_publication_is_listed() -> None:
    # Ruter counts a Butler pair's byes at its own average: every total differs
    result = process(real_file("pbn-ruter", "butler.pbn"), method="butler", dd=False)
    p = result.problems
    assert p["code"].tolist() == ["publication-settings", "profile-suggested"]
    hint = p.iloc[1]
    assert (hint["column"], hint["value"]) == ("Generator", "Magic Contest")
    assert "with --as ruter, the warning about them here goes away" in hint["message"]
    p = p.iloc[:1]
    assert p["column"].tolist() == ["published total"] and p["row"].isna().all()
    assert "7 of the 7 pairs differ; the first, pair 5 (Riku Mattila – Patrik Eriksson): " \
        "ours 36" in p["message"][0]


def test_a_teams_line_scored_from_another_score_is_listed() -> None:
    # board 13's Closed room recorded -690 for 3NT by W making 11 (-660): the trials
    # published -1 IMP from -690; from -660 against the Open room's +660 it is 0
    result = process(real_file("pbn-teams-itt1998", "98ITTF1.PBN"), method="teams", dd=False)
    p = result.problems
    assert p["code"].tolist() == ["score-disagrees", "published-differs", "published-differs"]
    assert p["row"].nunique() == 1
    assert p["column"].tolist()[1:] == ["published N-S IMPs", "published E-W IMPs"]
    assert p["value"].tolist()[1:] == ["-1", "1"]
    assert p["message"].str.contains(r"ours are used \(ours 0\)").tolist()[1:] == [True, True]


def test_a_publication_on_the_other_scale_is_listed_once_a_column() -> None:
    # Ruter's matchpoints are on the 2/1/0 scale: scored 1/0.5, ours are half of them
    result = process(real_file("pbn-ruter", "sm1.pbn"), scale="1/0.5", dd=False)
    p = result.problems[result.problems["code"] != "lead-not-held"].reset_index(drop=True)
    assert p["code"].tolist() == ["publication-settings"] * 3
    assert p["column"].tolist() == ["published N-S matchpoints", "published E-W matchpoints",
                                    "published total"]
    lines = p["message"][:2]
    assert lines.str.contains("of the 1188 lines differ").all()
    assert lines.str.contains(r"double ours: the 2/1/0 scale \(--scale 2/1/0\)").all()
    assert "36 of the 36 pairs differ" in p["message"][2]
    assert (p["severity"] == "warning").all()  # the percentages agree: not listed


def test_butler_published_and_scored_as_cross_imps() -> None:
    result = process(real_file("pbn-ruter", "butler.pbn"), method="ximp", dd=False)
    hint = result.problems["code"] == "method-suggested"  # the file says Butler
    assert "--method butler; scored as ximp" in result.problems.loc[hint, "message"].iloc[0]
    p = result.problems[~hint].reset_index(drop=True)
    assert p["code"].tolist() == ["publication-settings"] * 3
    assert p["message"][:2].str.contains("42 of the 84 lines differ").all()
    assert not p["message"].str.contains("scale").any()


def frame(published: list[float | None], ours: list[float]) -> pd.DataFrame:
    n = len(ours)
    return pd.DataFrame({"file": "s.pbn", "sheet": "", "row": range(2, n + 2),
                         "ns_mp": ours, "published_ns_mp": pd.array(published, "Float64")})


def test_compared_at_the_printed_precision_either_way_at_a_half() -> None:
    # printed to one decimal: 33.65 may be 33.6 or 33.7, 33.66 must be 33.7
    assert differences(frame([33.6, 33.7, 4.0], [33.65, 33.65, 4.0])).empty
    found = differences(frame([33.6, 12.5, 4.0], [33.66, 12.5, 4.04]))
    assert found["row"].tolist() == [2] and found["value"].tolist() == ["33.6"]
    assert "(ours 33.66)" in found["message"].iloc[0]


def test_a_missing_figure_is_not_compared() -> None:
    assert differences(frame([None, 5.0], [3.0, 5.0])).empty
    assert differences(pd.DataFrame({"ns_mp": [1.0]})).empty  # nothing published


def test_a_few_lines_are_listed_one_by_one_many_once() -> None:
    ours = list(np.arange(20.0))
    few = differences(frame([*ours[:15], *(v + 1 for v in ours[15:])], ours))
    assert few["code"].tolist() == ["published-differs"] * 5  # 5 of 20: each line
    many = differences(frame([*ours[:14], *(v + 1 for v in ours[14:])], ours))
    assert many["code"].tolist() == ["publication-settings"]  # 6 of 20: the column
    assert many["row"].tolist() == [16] and "6 of the 20 lines differ" in many["message"][0]


def test_a_teams_line_shows_the_board_imps_of_its_own_two_teams() -> None:
    result = process(real_file("pbn-teams-itt1998", "98ITTF2.PBN"), method="teams", dd=False)
    t = result.travellers
    boards = result.tables["Boards"].set_index("board")
    open_room, closed = t[t["room"] == "Open"], t[t["room"] == "Closed"]
    # Open room: the home team sits N-S; Closed room: the visitors do
    assert (open_room["ns_imp"].to_numpy() == boards.loc[open_room["board"], "home_imp"]
            .to_numpy()).all()
    assert (closed["ns_imp"].to_numpy() == boards.loc[closed["board"], "away_imp"]
            .to_numpy()).all()
    assert (t["ew_imp"] == -t["ns_imp"]).all()
    frequencies = result.frequencies  # a score's IMPs depend on the other room's result
    assert "ns_imp" not in frequencies and frequencies["count"].sum() == len(t)


def ranked(**published: list[object]) -> tuple[pd.DataFrame, pd.DataFrame]:
    ranking = pd.DataFrame({"section": "", "line": "NS", "pair": [1, 2, 3],
                            "names": ["Ann – Bob", "", "Cy – Di"], "mp": [30.0, 20.0, 20.0],
                            "mp_factored": [30.0, 20.0, 20.0], "pct": [60.0, 40.0, 40.0],
                            "place": ["1", "2=", "2="]})
    names = pd.DataFrame({"section": "", "line": "NS", "pair": [1, 2, 3], **published})
    return ranking, names


def test_a_published_place_is_compared_by_its_number_where_the_total_agrees() -> None:
    from traveller.score.published import ranking_differences

    ranking, names = ranked(published_total=[30.0, 20.0, 21.0],
                            published_place=["2", "2", "3"])
    found = ranking_differences(ranking, names, "mitchell", "dir/s.pbn", "Tuesday")
    assert found["column"].tolist() == ["published total, pair 3 N-S",
                                        "published place, pair 1 N-S"]
    assert found["message"].tolist()[1].startswith(
        "s.pbn [Tuesday], published place of pair 1 N-S (Ann – Bob) '2': ")
    assert "(ours 1)" in found["message"].tolist()[1] and found["row"].isna().all()


def test_a_ranking_publication_that_cannot_be_matched_is_left_alone() -> None:
    from traveller.score.published import ranking_differences

    ranking, names = ranked(published_total=["abc", None, "?"])
    assert ranking_differences(ranking, names, "mitchell", "s.pbn", "").empty  # no figures
    ranking, names = ranked(published_total=[1.0, 1.0, 1.0])
    twice = pd.concat([names, names])  # two lines for each pair: which is it?
    assert ranking_differences(ranking, twice, "mitchell", "s.pbn", "").empty
    assert ranking_differences(ranking, names.drop(columns="line"), "mitchell", "s.pbn",
                               "").empty  # no line to match a Mitchell's pairs by


def test_a_teams_score_card_is_a_teams_and_shows_the_board_imps(tmp_path: Path) -> None:
    from openpyxl import load_workbook

    result = process(real_file("pbn-teams-itt1998", "98ITTF2.PBN"), method="teams", dd=False)
    sheet = load_workbook(result.to_excel(tmp_path / "t.xlsx"))["Score cards"]
    rows = list(sheet.iter_rows(min_row=1, max_row=3, values_only=True))
    assert rows[0][0] == "Team 1 N-S" and rows[1][-1] == "IMPs"
    board = result.travellers.set_index(["board", "room"]).loc[(rows[2][0], "Open")]
    assert rows[2][-1] == board["ns_imp"]  # team 1 sits N-S in the Open room


#: The real files that say how they were scored, and the method they name.
STATED = {"mp_pairs_mitchell.xml": "mp", "mp_pairs_howell.xml": "mp",
          "butler_mitchell.xml": "butler", "cross_imp_howell.xml": "ximp",
          "sm1.pbn": "mp", "butler.pbn": "butler"}


@pytest.mark.parametrize(("folder", "name", "method"),
                         [(f, n, m) for f, n, m, _ in AGREE if n in STATED])
def test_a_file_that_says_how_it_was_scored_is_listed_when_scored_otherwise(
        folder: str, name: str, method: str) -> None:
    # a Compscore Butler file (EVENT_TYPE BUTLER_PAIRS) scored with the default
    # matchpoints was said only as "published with other settings", naming none
    assert STATED[name] == method
    for used in ("mp", "butler"):
        result = process(real_file(folder, name), method=used, dd=False)
        hints = result.problems[result.problems["code"] == "method-suggested"]
        if used == method:
            assert hints.empty, hints["message"].tolist()
            continue
        assert len(hints) == 1 and hints["row"].isna().all()
        assert hints["column"].iloc[0] in ("EVENT_TYPE", "Scoring")
        message = hints["message"].iloc[0]
        assert f"scored with --method {method}; scored as {used}" in message
        assert " row " not in message


def test_a_sheets_own_matchpoints_and_percentages_are_compared(tmp_path: Path) -> None:
    """A club sheet exported with its old program's scores beside each result: N-S MP,
    E-W MP and N-S % columns are that program's publication, compared as a PBN's are.
    Three results of board 1 (2/1/0 per opponent, top 4): the two 420s take 3 and 1 each,
    400 takes 0 for N-S, 4 for E-W; the sheet gives the second 420 four matchpoints."""
    path = tmp_path / "sheet.csv"
    path.write_text("Board,NS,EW,Contract,By,Tricks,N-S MP,E-W MP,N-S %,% EW\n"
                    "1,1,2,4S,N,10,3,1,75,25\n1,3,4,4S,N,10,4,0,75,25\n"
                    "1,5,6,4S,N,9,0,4,0,100\n", encoding="utf-8")
    result = process(path)
    listed = result.problems[result.problems["code"] == "published-differs"]
    assert listed["row"].tolist() == [3, 3]
    assert sorted(listed["column"]) == ["E-W MP", "N-S MP"]  # as the sheet heads them
    ns = listed[listed["column"] == "N-S MP"].iloc[0]
    assert ns["value"] == "4" and "(ours 3)" in ns["message"]
    assert ns["message"].startswith("sheet.csv row 3, N-S MP '4': ")
    t = result.travellers
    assert t["published_ew_pct"].astype(float).tolist() == [25, 25, 100]  # "% EW" read
    assert t["ns_mp"].tolist() == [3, 3, 0]  # ours are used


def test_a_real_sheets_percentages_are_compared_and_agree() -> None:
    """Pary's own transcription of a Warsaw session carries each line's percentages
    (pct_ns, pct_ew): they are compared with ours, and every scored line agrees."""
    result = process(real_file("pary-jfr-warsaw", "wb120802.csv"), profile="pary")
    t = result.travellers
    assert t["published_ns_pct"].notna().sum() == 243
    assert not result.problems["code"].isin(CODES).any()
    edited = differences(t.assign(published_ns_pct=t["published_ns_pct"].where(
        t.index != t.index[5], 12.5)))
    assert edited["code"].tolist() == ["published-differs"]
