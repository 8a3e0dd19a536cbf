"""Results that read two ways (issue 10): Excel's lost plus sign, implausible tricks."""

from __future__ import annotations

from pathlib import Path

import xlsxwriter

from traveller import process

HEADER = ["Board", "NS", "EW", "Contract", "By", "Result"]


def _xlsx(tmp_path: Path, rows: list[list[object]], header: list[str] = HEADER) -> Path:
    """A workbook as Excel stores what a director typed: "+2" becomes the number 2."""
    path = tmp_path / "typed.xlsx"
    book = xlsxwriter.Workbook(path)
    sheet = book.add_worksheet("Travellers")
    sheet.write_row(0, 0, header)
    for r, row in enumerate(rows, start=1):
        for c, value in enumerate(row):
            if isinstance(value, str) and value.startswith("+") and value[1:].isdigit():
                sheet.write_number(r, c, int(value))  # what Excel does to a typed +2
            elif isinstance(value, str) and value.lstrip("-").isdigit():
                sheet.write_number(r, c, int(value))
            else:
                sheet.write(r, c, value)
    book.close()
    return path


RELATIVE = [[1, 1, 2, "4H", "N", "+2"], [1, 3, 4, "4H", "N", "="], [1, 5, 6, "4H", "N", "-1"],
            [1, 7, 8, "4H", "N", "+1"], [2, 1, 4, "3NT", "S", "="], [2, 3, 6, "3NT", "S", "+1"],
            [2, 5, 8, "3NT", "S", "-2"], [2, 7, 2, "3NT", "S", "="]]


def test_lost_plus_sign_in_a_relative_column_reads_as_overtricks(tmp_path: Path) -> None:
    result = process(_xlsx(tmp_path, RELATIVE))
    t = result.travellers.set_index("row")
    assert t.loc[2, "tricks"] == 12 and t.loc[2, "ns_score"] == 480   # 4H+2, not 4H down 8
    assert t.loc[5, "tricks"] == 11 and t.loc[7, "tricks"] == 10
    assert t.loc[4, "tricks"] == 9
    assert result.problems.empty, result.problems["message"].tolist()


def test_column_of_bare_small_numbers_is_relative_by_its_contracts(tmp_path: Path) -> None:
    """No sign survives anywhere: 4H with 2 'tricks' is 4H+2, read from the whole column."""
    rows = [[1, 1, 2, "4H", "N", "+2"], [1, 3, 4, "4H", "N", "+1"], [1, 5, 6, "4S", "N", "0"],
            [2, 1, 4, "3NT", "S", "+1"]]
    t = process(_xlsx(tmp_path, rows)).travellers.set_index("row")
    assert t["tricks"].tolist() == [12, 11, 10, 10]


def test_bare_number_that_reads_well_both_ways_is_a_warning(tmp_path: Path) -> None:
    """1NT '2' in a relative column: 1NT+2 (9 tricks) or 2 tricks (down 5)."""
    rows = [*RELATIVE, [3, 1, 2, "1NT", "N", "+2"], [3, 3, 4, "1NT", "N", "="]]
    result = process(_xlsx(tmp_path, rows))
    listed = result.problems.set_index("row")
    assert listed.loc[10, "code"] == "result-reading"
    assert listed.loc[10, "column"] == "Result" and listed.loc[10, "value"] == "2"
    message = listed.loc[10, "message"]
    assert "read as +2, made 3; could be 2 tricks taken, down 5" in message
    assert result.travellers.set_index("row").loc[10, "tricks"] == 9  # scored, and listed


def test_implausible_tricks_in_a_tricks_column_are_listed(tmp_path: Path) -> None:
    header = [*HEADER[:5], "Tricks"]
    rows = [[1, 1, 2, "4H", "N", 10], [1, 3, 4, "4H", "N", 2], [1, 5, 6, "4H", "N", 9],
            [2, 1, 4, "3NT", "S", 9], [2, 3, 6, "3NT", "S", 8], [2, 5, 8, "3NT", "S", 10]]
    result = process(_xlsx(tmp_path, rows, header))
    listed = result.problems.set_index("row")
    assert listed["code"].tolist() == ["result-reading"]
    assert "read as 2 tricks taken, down 8; could be +2, made 6" in listed.loc[3, "message"]


def test_ordinary_tricks_columns_stay_quiet(tmp_path: Path) -> None:
    """Tricks 5 for 1NT (down 2) is ordinary: no warning, though +5 would fit too."""
    header = [*HEADER[:5], "Tricks"]
    rows = [[1, 1, 2, "1NT", "N", 5], [1, 3, 4, "1NT", "N", 7], [1, 5, 6, "2S", "N", 8]]
    result = process(_xlsx(tmp_path, rows, header))
    assert result.problems.empty
    assert result.travellers.sort_values("row")["tricks"].tolist() == [5, 7, 8]


def test_problems_show_the_value_as_typed_and_the_column_as_named(tmp_path: Path) -> None:
    """'-11' stays '-11' (not the -1 tricks it implies); 'EW score' keeps its own name."""
    path = tmp_path / "typed.csv"
    path.write_text("Board,NS,EW,Contract,By,Result,EW score\n1,1,2,4S,N,-11,\n"
                    "1,3,4,4S-11,N,,\n1,5,6,,,,12345\n1,7,8,4S,N,=,-420\n")
    listed = process(path).problems.set_index("row")
    assert listed.loc[2, ["column", "value"]].tolist() == ["Result", "-11"]
    assert listed.loc[3, ["column", "value"]].tolist() == ["Contract", "4S-11"]
    assert listed.loc[4, ["column", "value", "code"]].tolist() == [
        "EW score", "12345", "impossible-score"]


def test_result_and_declarer_words(tmp_path: Path) -> None:
    path = tmp_path / "words.csv"
    path.write_text("Board,NS,EW,Contract,Declarer,Result\n1,1,2,4S,North,made\n"
                    "1,3,4,4S,Nord,making\n1,5,6,4S,Północ,m\n1,7,8,4S,Север,1 down\n"
                    "1,9,10,4S,N,d1\n1,11,12,4S,East,down 1\n1,13,14,PASS,,-\n"
                    "1,15,16,4S,West,2 off\n", encoding="utf-8")
    result = process(path)
    assert result.problems.empty, result.problems["message"].tolist()
    t = result.travellers.set_index("row").sort_index()
    assert t["tricks"].tolist()[:6] == [10, 10, 10, 9, 9, 9]
    assert t["declarer"].tolist()[:6] == ["N", "N", "N", "N", "N", "E"]
    assert t.loc[8, "contract"] == "PASS" and t.loc[8, "ns_score"] == 0
    assert t.loc[9, "tricks"] == 8 and t.loc[9, "declarer"] == "W"


ACBL = """Board,NS,EW,Contract,By,Made,Down,NS +,EW +
1,1,2,4S,N,4,,420,
1,3,4,4S,N,5,,450,
1,5,6,4S,N,,1,,50
1,7,8,3NT,E,3,,,400
1,9,10,4SX,N,,2,,300
1,11,12,4S,N,4,,420,
1,13,14,5S,N,,1,,50
1,15,16,4S,N,6,,480,
1,17,18,3S,S,4,,170,
"""


def test_acbl_hand_traveller_with_made_down_and_split_scores(tmp_path: Path) -> None:
    path = tmp_path / "acbl.csv"
    path.write_text(ACBL)
    result = process(path)
    assert result.problems.empty, result.problems["message"].tolist()
    t = result.travellers.set_index("row").sort_index()
    assert t["tricks"].tolist() == [10, 11, 9, 9, 8, 10, 10, 12, 10]
    assert t["ns_score"].tolist() == [420, 450, -50, -400, -300, 420, -50, 480, 170]
    assert "made_as_written" in t and "made" not in t


def test_split_score_columns_with_minus_sides(tmp_path: Path) -> None:
    path = tmp_path / "split.csv"
    path.write_text("Board,NS,EW,N-S +,E-W -\n1,1,2,420,\n1,3,4,,-50\n1,5,6,,\n")
    result = process(path)
    t = result.travellers.set_index("row")
    assert t.loc[2, "ns_score"] == 420 and t.loc[3, "ns_score"] == 50  # E-W lost 50
    assert result.problems.set_index("row").loc[4, "code"] == "missing-result"


def test_missing_fields_name_the_columns_not_recognised(tmp_path: Path) -> None:
    path = tmp_path / "unknown.csv"
    path.write_text("Board,NS,EW,Contract,By,Tks made\n1,1,2,4S,N,10\n")
    message = process(path).problems["message"].iloc[0]
    assert "the column Tks made was not recognised" in message


def test_a_column_that_cannot_tell_lists_every_two_way_cell(tmp_path: Path) -> None:
    """1DX with a bare 1 and only passes beside it: 1 trick (down 6) or +1? Found by fuzzing."""
    rows = [[1, 1, 2, "1DX", "N", "+1"], [1, 3, 4, "PASS", "", ""], [1, 5, 6, "PASS", "", ""]]
    listed = process(_xlsx(tmp_path, rows)).problems.set_index("row")
    assert listed.loc[2, "code"] == "result-reading"


def test_bare_number_in_a_column_of_tricks_and_marks_is_a_warning(tmp_path: Path) -> None:
    """A Result column of trick counts with some '=', '+1', '-1' beside them: its bare 2
    beside 1NT is read as 2 tricks (the column's majority) but may be the +2 its
    neighbours write, so it is listed rather than scored without a word."""
    sheet = tmp_path / "mixed.csv"  # text as typed: the signs are kept
    sheet.write_text("Board,NS,EW,Contract,By,Result\n1,1,2,1NT,N,=\n1,2,3,1NT,N,-1\n"
                     "1,3,4,1NT,N,+1\n1,4,1,1NT,N,2\n2,1,3,3NT,N,9\n2,2,4,3NT,N,10\n"
                     "2,3,1,3NT,N,8\n2,4,2,3NT,S,9\n")
    result = process(sheet)
    listed = result.problems.set_index("row")
    assert listed["code"].tolist() == ["result-reading"]
    assert "read as 2 tricks taken, down 5; could be +2, made 3" in listed.loc[5, "message"]


def test_tricks_beside_a_passed_out_contract_are_listed(tmp_path: Path) -> None:
    """AP with 10 tricks says two things: a lost contract, or a stray cell. It is scored
    as a pass and listed; 0 tricks beside a pass, as some programs write, is quiet."""
    sheet = tmp_path / "pass.csv"
    sheet.write_text("Board,NS,EW,Contract,By,Tricks\n1,1,2,AP,N,10\n1,2,3,4S,N,10\n"
                     "1,3,4,PASS,,\n1,4,1,PASS,,0\n")
    result = process(sheet)
    listed = result.problems.set_index("row")
    assert listed["code"].tolist() == ["tricks-on-pass"]
    assert listed.loc[2, "column"] == "Tricks" and listed.loc[2, "value"] == "10"
    assert result.travellers.set_index("row").loc[2, "ns_score"] == 0


def test_a_dash_alone_for_a_contract_is_scored_as_a_pass_and_listed(tmp_path: Path) -> None:
    """``-`` is a pass in English and Polish notation, but a scorer also writes it for a
    board not played at a table: with nothing beside it to say which, it is listed."""
    sheet = tmp_path / "dash.csv"
    sheet.write_text("Board,NS,EW,Contract,By,Tricks,Score\n1,1,2,4S,N,10,420\n"
                     "1,3,4,-,,,\n1,5,6,-,,,0\n1,7,8,-,,0,\n1,9,10,PASS,,,\n")
    result = process(sheet)
    listed = result.problems.set_index("row")
    assert listed["code"].tolist() == ["pass-or-not-played"]  # only row 3: 0 says passed out
    assert listed.loc[3, "severity"] == "warning" and listed.loc[3, "value"] == "-"
    assert "passed-out board or for a board not played" in listed.loc[3, "message"]
    assert result.travellers.set_index("row").loc[3, "ns_score"] == 0
