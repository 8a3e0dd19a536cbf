"""Facts a row states twice are compared: one reading used and said, or the row left out.

Each case is a row as directors really write it; the expected score is worked
out by hand in the test (4S by N on board 1, nobody vulnerable: 10 tricks +420,
11 tricks +450, 9 tricks -50; by W it is E-W's contract).
"""

from __future__ import annotations

from pathlib import Path

import pandas as pd
import pytest
from conftest import real_file

from traveller import process


def _run(tmp_path: Path, text: str, **options: object) -> tuple[pd.DataFrame, pd.DataFrame]:
    path = tmp_path / "sheet.csv"
    path.write_text(text, encoding="utf-8")
    result = process(path, **options)  # type: ignore[arg-type]
    return result.travellers, result.problems


def _score(travellers: pd.DataFrame, row: int) -> object:
    found = travellers.loc[travellers["row"] == row, "ns_score"]
    return None if found.empty else int(found.iloc[0])


def _problem(problems: pd.DataFrame, row: int, code: str) -> pd.Series:
    found = problems[(problems["row"] == row) & (problems["code"] == code)]
    assert len(found) == 1, problems[["row", "code", "message"]].to_string()
    return found.iloc[0]


HEAD = "Board,NS,EW,Contract,By,Tricks\n"
FILLER = "1,7,8,4S,N,10\n1,9,10,4S,N,9\n"  # two ordinary results beside the one tested


@pytest.mark.parametrize(("contract", "by", "tricks", "severity", "score"), [
    ("4SW", "N", "10", "error", None),  # N or W: +420 or -420, nothing decides
    ("4S E", "N", "10", "error", None),
    ("4SS", "N", "10", "warning", 420),  # N or S: the same score either way
])
def test_declarer_in_the_contract_and_by_column(tmp_path: Path, contract: str, by: str,
                                                tricks: str, severity: str,
                                                score: int | None) -> None:
    travellers, problems = _run(tmp_path, HEAD + f"1,1,2,{contract},{by},{tricks}\n" + FILLER)
    found = _problem(problems, 2, "declarer-disagrees")
    assert found["severity"] == severity
    assert "By says N" in found["message"] and "Contract says" in found["message"]
    assert _score(travellers, 2) == score


def test_the_recorded_score_decides_between_two_declarers(tmp_path: Path) -> None:
    text = "Board,NS,EW,Contract,By,Tricks,Score\n1,1,2,4SW,N,10,-420\n1,3,4,4SW,N,10,420\n"
    travellers, problems = _run(tmp_path, text)
    assert _score(travellers, 2) == -420 and _score(travellers, 3) == 420
    assert travellers.loc[travellers["row"] == 2, "declarer"].iloc[0] == "W"
    for row, seat in ((2, "W"), (3, "N")):
        found = _problem(problems, row, "declarer-disagrees")
        assert found["severity"] == "warning"
        assert f"read as {seat} making 10" in found["message"]


def test_a_twin_read_one_way_on_a_row_another_error_blocks_says_it_is_not_scored(
        tmp_path: Path) -> None:
    # the declarer twins agree on the score, but the N-S pair cannot be read: the
    # message says how the row reads and that it is not scored, never "scored as"
    travellers, problems = _run(tmp_path, HEAD + "1,zz,2,4SS,N,10\n" + FILLER)
    found = _problem(problems, 2, "declarer-disagrees")
    assert found["severity"] == "error" and _score(travellers, 2) is None
    assert "read as N making 10" in found["message"]
    assert found["message"].endswith("(this row is not scored)")
    assert "scored as" not in found["message"]


@pytest.mark.parametrize(("contract", "tricks", "result"), [
    ("4S+1", "10", ""), ("4S=", "11", ""), ("4S-1", "10", ""), ("4S", "10", "+1"),
])
def test_the_result_in_the_contract_and_in_tricks_or_result(tmp_path: Path, contract: str,
                                                            tricks: str, result: str) -> None:
    text = (f"Board,NS,EW,Contract,By,Tricks,Result\n1,1,2,{contract},N,{tricks},{result}\n"
            "1,7,8,4S,N,10,\n1,9,10,4S,N,9,\n")
    travellers, problems = _run(tmp_path, text)
    found = _problem(problems, 2, "tricks-disagrees")
    assert found["severity"] == "error" and "not scored" in found["message"]
    assert _score(travellers, 2) is None
    assert _score(travellers, 3) == 420  # the rest of the board is scored


def test_made_and_down_both_filled(tmp_path: Path) -> None:
    text = "Board,NS,EW,Contract,By,Made,Down,Score\n1,1,2,4S,N,4,1,\n1,3,4,4S,N,4,1,-50\n"
    travellers, problems = _run(tmp_path, text)
    assert _problem(problems, 2, "tricks-disagrees")["severity"] == "error"
    assert _score(travellers, 2) is None
    assert _problem(problems, 3, "tricks-disagrees")["severity"] == "warning"
    assert _score(travellers, 3) == -50  # the score fits "down 1" only


def test_both_score_columns_filled(tmp_path: Path) -> None:
    text = ("Board,NS,EW,Contract,By,Tricks,NS Score,EW Score\n1,1,2,4S,N,10,420,420\n"
            "1,3,4,,,,420,420\n1,5,6,,,,420,-420\n")
    travellers, problems = _run(tmp_path, text)
    assert _problem(problems, 2, "scores-disagree")["severity"] == "warning"
    assert _score(travellers, 2) == 420  # the contract's own score
    assert _problem(problems, 3, "scores-disagree")["severity"] == "error"
    assert _score(travellers, 3) is None
    assert _score(travellers, 4) == 420  # E-W -420 is N-S +420: no disagreement
    assert problems[problems["row"] == 4].empty


def test_an_unsigned_score_beside_a_side_column(tmp_path: Path) -> None:
    text = "Board,NS,EW,Score,Side\n1,1,2,420,NS\n1,3,4,50,EW\n1,5,6,-50,EW\n"
    travellers, _ = _run(tmp_path, text)
    assert [_score(travellers, r) for r in (2, 3, 4)] == [420, -50, 50]


def test_scores_and_results_written_as_words(tmp_path: Path) -> None:
    text = ("Board,NS,EW,Contract,By,Result,Score\n1,1,2,4S,N,Made 4,NS 420\n"
            "1,3,4,4S,N,Down 1,EW 50\n1,5,6,,,,EW 100\n")
    travellers, problems = _run(tmp_path, text)
    assert [_score(travellers, r) for r in (2, 3, 4)] == [420, -50, -100]
    assert problems.empty, problems["message"].tolist()


def test_acbl_made_down_column(tmp_path: Path) -> None:
    text = "Board,NS,EW,Contract,By,Made/Down\n1,1,2,4S,N,4\n1,3,4,4S,N,5\n1,5,6,4S,N,-1\n"
    travellers, problems = _run(tmp_path, text)
    assert [_score(travellers, r) for r in (2, 3, 4)] == [420, 450, -50]
    assert problems.empty


def test_a_vulnerability_column_is_what_the_table_played(tmp_path: Path) -> None:
    # board 1 is nobody vulnerable by its number; the column says N-S: 4S+1 is +650
    text = "Board,NS,EW,Contract,By,Tricks,Vul\n1,1,2,4S,N,11,NS\n1,3,4,4S,N,11,None\n"
    travellers, problems = _run(tmp_path, text)
    assert _score(travellers, 2) == 650 and _score(travellers, 3) == 450
    found = _problem(problems, 2, "vulnerability-disagrees")
    assert found["severity"] == "warning"
    assert "the column says N-S" in found["message"] and "scored with N-S" in found["message"]


def test_the_recorded_score_decides_a_vulnerability_filled_down_wrongly(tmp_path: Path) -> None:
    # board 1 is nobody vulnerable; the Vul column says All on three rows. 4S+1 is +450
    # not vulnerable, +650 vulnerable: the recorded score says which was played
    text = ("Board,NS,EW,Contract,By,Tricks,Score,Vul\n1,1,2,4S,N,11,450,All\n"
            "1,3,4,4S,N,11,650,All\n1,5,6,4S,N,11,,All\n1,7,8,2S,N,8,110,All\n"
            "1,9,10,4S,N,11,420,All\n")
    travellers, problems = _run(tmp_path, text)
    assert [_score(travellers, r) for r in (2, 3, 4, 5, 6)] == [450, 650, 650, 110, 650]
    said = {r: _problem(problems, r, "vulnerability-disagrees")["message"] for r in range(2, 7)}
    assert "the recorded score +450 fits None and not Both: scored with None" in said[2]
    assert "scored with Both, as the column says the table played" in said[3]
    assert "scored with Both, as the column says" in said[4]  # no score: the column
    assert "the result scores the same either way" in said[5]  # 2S= is 110 either way
    assert "scored with Both, as the column says" in said[6]  # +420 fits neither
    assert _problem(problems, 6, "score-disagrees")["severity"] == "warning"
    assert (problems["severity"] == "warning").all()


def test_a_dealer_column_that_contradicts_the_board(tmp_path: Path) -> None:
    text = "Board,NS,EW,Contract,By,Tricks,Dealer\n1,1,2,4S,N,10,E\n1,3,4,4S,N,10,N\n"
    travellers, problems = _run(tmp_path, text)
    assert _problem(problems, 2, "dealer-disagrees")["severity"] == "warning"
    assert _score(travellers, 2) == 420
    assert problems[problems["row"] == 3].empty


def test_board_numbers_on_the_first_row_only_are_filled_down(tmp_path: Path) -> None:
    text = (HEAD + "1,1,1,4S,N,10\n,2,2,4S,N,9\n,3,3,4S,N,10\n2,1,2,3NT,S,9\n,2,3,3NT,S,8\n"
            ",3,1,3NT,S,10\n")
    travellers, problems = _run(tmp_path, text, movement="mitchell")
    assert len(travellers) == 6
    assert travellers.set_index("row")["board"].to_dict() == {2: 1, 3: 1, 4: 1, 5: 2, 6: 2,
                                                               7: 2}
    filled = problems[problems["code"] == "board-filled"]
    assert filled["row"].tolist() == [3, 6]  # one warning per filled block
    assert (filled["severity"] == "warning").all()
    assert "rows 3-4 read as board 1" in filled["message"].iloc[0]


def test_a_lone_blank_board_is_not_filled(tmp_path: Path) -> None:
    text = HEAD + "1,1,2,4S,N,10\n1,3,4,4S,N,9\n,5,6,4S,N,10\n2,1,2,4S,N,10\n2,3,4,4S,N,9\n"
    travellers, problems = _run(tmp_path, text)
    assert _problem(problems, 4, "missing-board")["severity"] == "error"
    assert len(travellers) == 4


def test_pair_numbers_with_a_section_letter(tmp_path: Path) -> None:
    text = HEAD + "1,A1,A1,4S,N,10\n1,A2,A2,4S,N,9\n1,B1,B1,4S,N,10\n1,B2,B2,4S,N,11\n" \
        "1,A3,B3,4S,N,11\n"
    travellers, problems = _run(tmp_path, text, movement="mitchell")
    assert sorted(set(zip(travellers["section"], travellers["ns_pair"], strict=True))) == [
        ("A", 1), ("A", 2), ("B", 1), ("B", 2)]
    assert _problem(problems, 6, "section-disagrees")["severity"] == "error"


def test_a_forced_mitchell_with_one_board(tmp_path: Path) -> None:
    text = HEAD + "1,1,1,4S,N,10\n1,2,2,4S,N,9\n1,3,3,4S,N,10\n"
    travellers, problems = _run(tmp_path, text, movement="mitchell")
    assert len(travellers) == 3 and problems.empty
    _, problems = _run(tmp_path, text)  # not forced: a pair cannot play itself
    assert set(problems["code"]) == {"pair-plays-itself"}


def _mitchell(tables: int = 5, per_round: int = 2) -> pd.DataFrame:
    """A Mitchell numbered per line: E-W pairs move up a table, boards down, every round."""
    rows = []
    for rnd in range(tables):
        for t in range(tables):
            boards = (t + rnd) % tables
            for b in range(per_round * boards + 1, per_round * boards + per_round + 1):
                rows.append((b, t + 1, (t - rnd) % tables + 1, "4S", "N", 9 + len(rows) % 3))
    return pd.DataFrame(rows, columns=["Board", "NS", "EW", "Contract", "By", "Tricks"])


def test_pairs_written_on_each_others_lines_are_listed(tmp_path: Path) -> None:
    sheet = _mitchell()
    at = sheet.index[sheet["NS"] != sheet["EW"]][5]
    ns, ew = int(sheet.at[at, "NS"]), int(sheet.at[at, "EW"])
    sheet.at[at, "NS"], sheet.at[at, "EW"] = ew, ns
    sheet.to_csv(tmp_path / "mitchell.csv", index=False)
    result = process(tmp_path / "mitchell.csv")
    row = at + 2  # (the header is row 1)
    found = _problem(result.problems, row, "lines-swapped")
    assert found["severity"] == "error"
    assert f"N-S {ns} against E-W {ew} may be what was played" in found["message"]
    assert len(result.travellers) == len(sheet) - 1  # the rows it clashed with are kept
    assert set(result.problems["code"]) == {"lines-swapped"}


def test_the_first_of_two_results_of_a_pair_is_listed_as_scored(tmp_path: Path) -> None:
    sheet = _mitchell()
    sheet = pd.concat([sheet, sheet.iloc[[3]]], ignore_index=True)
    sheet.to_csv(tmp_path / "mitchell.csv", index=False)
    problems = process(tmp_path / "mitchell.csv").problems
    first, again = _problem(problems, 5, "duplicate-result"), _problem(
        problems, len(sheet) + 1, "duplicate-result")
    assert first["severity"] == "warning" and "this result is scored" in first["message"]
    assert again["severity"] == "error"


@pytest.mark.parametrize(("cells", "code"), [
    ("4S,N,,420", "missing-tricks"), ("4S,Q,10,420", "unknown-declarer"),
    ("ZZ,N,10,420", "unknown-contract"),
])
def test_a_row_scored_from_its_score_is_a_warning_that_says_so(tmp_path: Path, cells: str,
                                                                code: str) -> None:
    text = "Board,NS,EW,Contract,By,Tricks,Score\n" + f"1,1,2,{cells}\n1,3,4,4S,N,10,\n"
    travellers, problems = _run(tmp_path, text)
    found = _problem(problems, 2, code)
    assert found["severity"] == "warning"
    assert found["message"].endswith("(scored from the recorded score +420)")
    assert _score(travellers, 2) == 420


def test_every_error_row_is_left_out_and_every_warning_row_is_scored(tmp_path: Path) -> None:
    text = ("Board,NS,EW,Contract,By,Tricks,Score\n1,1,2,4S,,,\n1,3,4,4S,N,10,\n"
            "1,5,6,4SW,N,10,\n1,7,8,ZZ,N,10,420\n1,9,10,4S,N,,\n")
    travellers, problems = _run(tmp_path, text)
    scored = set(travellers["row"])
    for _, p in problems.iterrows():
        assert (p["row"] in scored) == (p["severity"] == "warning"), p["message"]
        if p["severity"] == "error":
            assert "not scored" in p["message"]


def test_a_pbn_vulnerable_tag_is_checked_like_a_vul_column(tmp_path: Path) -> None:
    # Ruter's board 1 (nobody vulnerable) re-tagged [Vulnerable "All"]: every recorded
    # score fits None, so board 1 is scored as before, and each line is listed once (its
    # own deal's conditions are not listed again as a hand record's)
    source = real_file("pbn-ruter", "sm1.pbn").read_bytes().decode("latin-1")
    start = source.index('[Board "1"]')
    end = source.index('[Board "2"]')
    board = source[start:end].replace('[Vulnerable "None"]', '[Vulnerable "All"]')
    path = tmp_path / "tagged.pbn"
    path.write_bytes((source[:start] + board + source[end:]).encode("latin-1"))
    before = process(real_file("pbn-ruter", "sm1.pbn"), dd=False).travellers
    after = process(path, dd=False)
    listed = after.problems[after.problems["code"] != "lead-not-held"]  # (the file's own)
    assert listed["code"].tolist() == ["vulnerability-disagrees"] * 18
    assert (listed["column"] == "Vulnerable").all() and (listed["value"] == "All").all()
    assert listed["message"].str.contains("fits None and not Both: scored with None|the "
                                          "same either way").all()
    assert after.travellers["ns_score"].tolist() == before["ns_score"].tolist()


def test_a_score_that_differs_is_named_by_its_header(tmp_path: Path) -> None:
    text = "Board,NS,EW,Contract,By,Tricks,NS Score\n1,1,2,4S,N,10,450\n1,3,4,4S,N,10,420\n"
    travellers, problems = _run(tmp_path, text)
    found = _problem(problems, 2, "score-disagrees")
    assert found["column"] == "NS Score" and found["value"] == "450"
    assert found["message"].startswith("sheet.csv row 2, NS Score '450': ")
    assert _score(travellers, 2) == 420


@pytest.mark.parametrize(("tricks", "recorded", "reading"), [
    ("10", "-420", "-420 would be E-W's score of it, not N-S's"),
    ("10", "620", "620 would be 4S by N making 10 vulnerable"),
    ("10", "450", "450 would be 4S by N making 11"),
    ("10", "590", "590 would be 4SX by N making 10"),
    ("8", "-50", "-50 would be 4S by N making 9"),
    ("10", "400", None),  # no one fact changed gives 400
])
def test_a_score_that_differs_says_what_it_would_be_the_score_of(
        tmp_path: Path, tricks: str, recorded: str, reading: str | None) -> None:
    text = f"Board,NS,EW,Contract,By,Tricks,Score\n1,1,2,4S,N,{tricks},{recorded}\n" + FILLER
    travellers, problems = _run(tmp_path, text)
    message = _problem(problems, 2, "score-disagrees")["message"]
    computed = f"(computed {420 if tricks == '10' else -100} for 4S by N making {tricks}"
    assert computed + (f"; {reading})" if reading else ")") in message
    assert _score(travellers, 2) == (420 if tricks == "10" else -100)  # the contract's, still


def test_a_board_played_at_its_vul_columns_vulnerability_is_published_at_it(
        tmp_path: Path) -> None:
    """Every result of board 1 (nobody vulnerable by its number) was scored at the Vul
    column's Both: the workbook's heading, the board page, the PBN file and the hands
    (and so par) say Both. Board 2, whose rows tell two ways, keeps its number's."""
    from traveller.publish.layout import board_headings
    from traveller.publish.pbn_out import write_pbn
    from traveller.publish.site import site_pages

    sample = Path(__file__).resolve().parent.parent / "sample_data"
    frame = pd.read_csv(sample / "club_session.csv", dtype=str)
    frame["Vul"] = ""
    frame.loc[frame["Board"] == "1", "Vul"] = "All"
    two = frame.index[frame["Board"] == "2"]
    frame.loc[two[:2], "Vul"] = "EW"  # board 2 is N-S: two rows say E-W, the rest nothing
    result = process(frame, hands=sample / "club_session_hands.pbn", dd=False)
    assert result.settings["vulnerable"] == {1: "All"}
    t = result.travellers
    headings = board_headings({c: t[c] for c in t.columns}, result)
    assert {h.split(" · ")[0]: h for h in headings.values()}["Board 1"].count("Vul: Both") == 1
    assert "Vul: N-S" in {h.split(" · ")[0]: h for h in headings.values()}["Board 2"]
    pages = site_pages(result)
    assert "Vulnerable: Both" in pages["board-1.html"]
    assert "Vulnerable: N-S" in pages["board-2.html"]
    pbn = write_pbn(result, tmp_path / "s.pbn").read_text(encoding="utf-8")
    first = pbn[pbn.index('[Board "1"]'):pbn.index('[Board "2"]')]
    assert '[Vulnerable "All"]' in first
    hands = result.hands.set_index("board")
    assert hands.loc[1, "vulnerable"] == "All" and hands.loc[2, "vulnerable"] == "NS"
    differ = result.problems[result.problems["code"] == "deal-conditions-differ"]
    assert any("vulnerable All (its results' Vul column)" in m for m in differ["message"])
    # the Vul column as written shows only what differs from the board's heading
    from traveller.publish.layout import travellers_layout

    shown = travellers_layout(result)[0]["vul_as_written"].fillna("")
    assert shown[shown != ""].tolist() == ["EW", "EW"]  # (the sheet's blanks as typed)


def test_vul_and_dealer_columns_as_written_show_only_what_differs(tmp_path: Path) -> None:
    """A PBN file states each board's dealer and vulnerability: the same as its number's
    on every board of the team trials, so the Travellers sheet has no column repeating
    them; a Dealer cell that says another seat is shown (and listed)."""
    from traveller.publish.layout import travellers_layout

    path = real_file("pbn-teams-itt1998", "98ITTF1.PBN")
    result = process(path, dd=False)
    columns = travellers_layout(result)[0]
    assert "vul_as_written" not in columns and "dealer_as_written" not in columns
    text = path.read_text(encoding="latin-1").replace('[Dealer "E"]', '[Dealer "W"]', 1)
    edited = tmp_path / "dealer.pbn"
    edited.write_text(text, encoding="latin-1")
    other = process(edited, dd=False)
    dealer = travellers_layout(other)[0]["dealer_as_written"]
    assert dealer.dropna().tolist() == ["W"]
    assert (other.problems["code"] == "dealer-disagrees").sum() == 1


TWICE = "Board,NS,EW,Contract,By,Tricks,Contract\n"


def test_a_column_headed_twice_is_compared_row_by_row(tmp_path: Path) -> None:
    """Two Contract columns: the first is read; a second cell that says the same (case and
    spacing aside) or nothing is fine, one that says another contract, or a contract where
    the first is blank, makes the row read two ways: listed naming both, not scored."""
    travellers, problems = _run(tmp_path, TWICE + FILLER.replace("\n", ",\n")
                                + "1,11,12,4S,N,10,4 s\n"  # the same contract
                                + "1,13,14,4S,N,10,4H\n"  # another: which was played?
                                + "1,15,16,,N,10,4S\n")  # the first says nothing
    assert _score(travellers, 4) == 420
    assert _score(travellers, 5) is None and _score(travellers, 6) is None
    found = _problem(problems, 5, "second-column-disagrees")
    assert found["severity"] == "error" and found["column"] == "Contract (2)"
    assert found["value"] == "4H"
    assert "the first Contract column says '4S'" in found["message"]
    blank = _problem(problems, 6, "second-column-disagrees")
    assert "the first Contract column is empty" in blank["message"]
    assert set(problems.loc[problems["code"] == "second-column-disagrees", "row"]) == {5, 6}
    # the second column is the input's own, kept beside the rows scored
    assert travellers.loc[travellers["row"] == 4, "Contract (2)"].iloc[0] == "4 s"


def test_a_twin_column_headed_otherwise_keeps_its_header(tmp_path: Path) -> None:
    """A Board column and a Bd column at the sheet's other end: the same fact, compared
    (a workbook's number cells as the sheet shows them: 1.0 is 1)."""
    travellers, problems = _run(tmp_path, "Board,NS,EW,Contract,By,Tricks,Bd\n"
                                "1,7,8,4S,N,10,1.0\n1,9,10,4S,N,9,2\n")
    assert _score(travellers, 2) == 420 and _score(travellers, 3) is None
    found = _problem(problems, 3, "second-column-disagrees")
    assert found["column"] == "Bd" and "the first Board column says '1'" in found["message"]


def test_two_pair_columns_alike_are_not_taken_for_twins(tmp_path: Path) -> None:
    """Only facts a row states once are compared: two score columns headed alike are
    more likely the two sides' than one score written twice."""
    travellers, problems = _run(tmp_path, "Board,NS,EW,Contract,By,Tricks,Score,Score\n"
                                "1,7,8,4S,N,10,420,\n1,9,10,4S,N,9,,50\n")
    assert "second-column-disagrees" not in set(problems["code"])
    assert _score(travellers, 2) == 420 and _score(travellers, 3) == -50  # (E-W's 50)


@pytest.mark.parametrize(("head", "cells", "column", "typed"), [
    ("NS Score,EW Score", ",-50", "EW Score", "-50"),  # E-W's -50: N-S +50
    ("Score,Side", "-50,EW", "Score", "-50"),  # the same, by a Side column
    ("NS +,NS -,EW +,EW -", ",,,50", "EW -", "50"),  # a split column's size
    ("Score", "EW -50", "Score", "EW -50"),  # a cell naming its side
])
def test_a_score_that_differs_names_the_cell_it_was_read_from(
        tmp_path: Path, head: str, cells: str, column: str, typed: str) -> None:
    """4S by N one down is N-S -50; each row records N-S +50, written in a different cell:
    the problem names that cell as typed (never an N-S Score cell left blank, nor a
    number nobody typed) and says the N-S score read from it."""
    travellers, problems = _run(tmp_path, f"Board,NS,EW,Contract,By,Tricks,{head}\n"
                                f"1,7,8,4S,N,9,{cells}\n")
    assert _score(travellers, 2) == -50  # the contract's own score is used
    found = _problem(problems, 2, "score-disagrees")
    assert (found["column"], found["value"]) == (column, typed)
    assert f"{column} '{typed}'" in found["message"] and "read as N-S +50" in found["message"]


def test_twin_cells_that_read_the_same_agree(tmp_path: Path) -> None:
    """Two By columns, two Tricks columns, two Contract columns: cells written two ways
    that read the same (N and North, 10 and 10.0, = and made, 4S and 4♠) agree; cells
    that read otherwise still leave the row out."""
    travellers, problems = _run(tmp_path, "Board,NS,EW,Contract,By,Result,Contract,By,Result\n"
                                "1,1,2,4S=,N,=,4♠=,North,made\n"
                                "1,3,4,4S=,N,=,4 s =,n,M\n"
                                "1,5,6,4S=,N,=,4S=,South,=\n"  # another declarer
                                "1,7,8,4S=,N,=,4S=,N,-1\n")  # another result
    assert _score(travellers, 2) == 420 and _score(travellers, 3) == 420
    assert _score(travellers, 4) is None and _score(travellers, 5) is None
    flagged = problems.loc[problems["code"] == "second-column-disagrees"]
    assert sorted(zip(flagged["row"], flagged["column"], strict=True)) == [
        (4, "By (2)"), (5, "Result (2)")]
    assert _problem(problems, 4, "second-column-disagrees")["value"] == "South"


def test_a_contract_twin_that_leaves_a_part_out_agrees_where_the_row_says_it(
        tmp_path: Path) -> None:
    """Two Contract columns where one writes the declarer or the result and the other does
    not (``4S`` and ``4SN``, ``4S`` and ``4S-1``): they agree where the By, Tricks or
    Result column says that part the same, or where the second is the one silent on
    it; where the second states it and the row says otherwise, or nothing, the row
    reads two ways and the message says what the row's own column says."""
    travellers, problems = _run(tmp_path, "Board,NS,EW,Contract,By,Tricks,Contract\n"
                                "1,1,2,4S,N,10,4SN\n"   # By agrees
                                "1,3,4,4S,N,9,4S-1\n"   # Tricks agrees: 9 is one down
                                "1,5,6,4S,S,10,4SN\n"   # By says S
                                "1,7,8,4S,N,10,4S+1\n"  # Tricks says 10: made exactly
                                "1,9,10,4S,,10,4SN\n"   # nothing else says the declarer
                                "1,11,12,4SN,N,10,4S\n"  # the second leaves it out
                                "1,13,14,4SN,,10,4S\n")  # (the first is the one read)
    assert _score(travellers, 2) == 420 and _score(travellers, 3) == -50
    assert _score(travellers, 7) == 420 and _score(travellers, 8) == 420
    assert [_score(travellers, r) for r in (4, 5, 6)] == [None, None, None]
    flagged = problems.loc[problems["code"] == "second-column-disagrees"]
    assert sorted(flagged["row"]) == [4, 5, 6]
    assert "(the first Contract column says '4S'; By says S)" in _problem(
        problems, 4, "second-column-disagrees")["message"]
    assert "; Tricks says 10)" in _problem(problems, 5, "second-column-disagrees")["message"]
    assert "; nothing else on the row says the declarer)" in _problem(
        problems, 6, "second-column-disagrees")["message"]


def test_a_doubling_column_beside_the_contract_is_read_and_checked(tmp_path: Path) -> None:
    """A Dbl column (``X``, ``XX``) doubles a contract that writes no doubling of its own
    (4S X down one is -100, not -50); a contract that writes its own is compared with it:
    the recorded score decides where it fits one reading only, else the row is left
    out. A cell that cannot be read leaves the row to its recorded score."""
    travellers, problems = _run(tmp_path, "Board,NS,EW,Contract,Dbl,By,Tricks,Score\n"
                                "1,1,2,4S,X,N,9,\n"      # doubled by the column
                                "1,3,4,4S,,N,10,\n"      # blank: not doubled
                                "1,5,6,3NT,xx,S,9,\n"    # redoubled
                                "1,7,8,4SX,XX,N,10,590\n"  # the score says doubled
                                "1,9,10,4SX,XX,N,10,\n"  # nothing decides
                                "1,11,12,4S,Q,N,10,420\n"  # unread: the score is used
                                "1,13,14,4S,Q,N,10,\n"   # unread, no score
                                "1,15,16,4SX,x,N,10,\n"  # the same doubling twice
                                "1,17,18,4S,1.0,N,10,\n")  # a spreadsheet's 1.0
    assert [_score(travellers, r) for r in range(2, 11)] == [
        -100, 420, 800, 590, None, 420, None, 590, 590]
    assert travellers.loc[travellers["row"] == 2, "contract"].iloc[0] == "4SX"
    decided = _problem(problems, 5, "doubled-disagrees")
    assert decided["severity"] == "warning" and decided["value"] == "XX"
    assert ("Contract says doubled, Dbl says redoubled; the recorded score +590 fits "
            "doubled only") in decided["message"]
    assert _problem(problems, 6, "doubled-disagrees")["severity"] == "error"
    assert _problem(problems, 7, "unknown-double")["severity"] == "warning"
    assert "(scored from the recorded score +420)" in _problem(
        problems, 7, "unknown-double")["message"]
    assert _problem(problems, 8, "unknown-double")["severity"] == "error"
    assert set(problems["row"]) == {5, 6, 7, 8}


@pytest.mark.parametrize(("header", "cell", "notation"), [
    ("X", "X", "en"), ("Doubled", "Dbl", "en"), ("X/XX", "*", "en"),
    ("Kontra", "k", "pl"), ("Контра", "к", "ru")])
def test_doubling_columns_are_found_in_each_language(tmp_path: Path, header: str, cell: str,
                                                     notation: str) -> None:
    contract = {"en": "4S", "pl": "4P", "ru": "4П"}[notation]
    by = {"en": "N", "pl": "N", "ru": "С"}[notation]
    travellers, problems = _run(tmp_path, f"Board,NS,EW,Contract,{header},By,Tricks\n"
                                f"1,1,2,{contract},{cell},{by},9\n1,3,4,{contract},,{by},10\n",
                                notation=notation)
    assert _score(travellers, 2) == -100 and _score(travellers, 3) == 420
    assert problems.empty


def test_a_by_column_naming_the_side_agrees_with_the_contracts_seat(tmp_path: Path) -> None:
    """``NS`` in the By column beside ``4SN`` states the same declarer's side: the row is
    scored with the contract's N. Beside a contract that names no seat the row is scored
    with the side alone; beside a contract by the other side the two disagree, and with
    no score to decide the row is left out."""
    travellers, problems = _run(tmp_path, HEAD + "1,1,2,4SN,NS,10\n1,3,4,4SS,n/s,10\n"
                                "1,5,6,4S,E/W,9\n1,11,12,4SW,N-S,10\n" + FILLER)
    assert _score(travellers, 2) == 420 and _score(travellers, 3) == 420
    assert travellers.loc[travellers["row"] == 3, "declarer"].iloc[0] == "S"
    assert _score(travellers, 4) == 50  # E-W one down, not vulnerable on board 1
    assert travellers.loc[travellers["row"] == 4, "declarer"].iloc[0] == "EW"
    assert _score(travellers, 5) is None
    disagree = _problem(problems, 5, "declarer-disagrees")
    assert disagree["severity"] == "error"
    assert "By says N-S, Contract says W; nothing on the row says which is right" in (
        disagree["message"])
    assert _problem(problems, 4, "declarer-side-only")["severity"] == "warning"
    assert set(problems["row"]) == {4, 5}


def test_a_score_decides_between_a_side_and_the_contracts_other_seat(tmp_path: Path) -> None:
    """``4SW`` beside ``NS`` and a recorded N-S +420: only N-S's reading scores +420."""
    travellers, problems = _run(tmp_path, "Board,NS,EW,Contract,By,Tricks,Score\n"
                                "1,1,2,4SW,NS,10,420\n1,3,4,4S,N,10,420\n1,5,6,4S,N,9,-50\n")
    assert _score(travellers, 2) == 420
    assert travellers.loc[travellers["row"] == 2, "declarer"].iloc[0] == "NS"
    found = _problem(problems, 2, "declarer-disagrees")
    assert found["severity"] == "warning"
    assert "the recorded score +420 fits one reading only; read as N-S making 10" in (
        found["message"])
