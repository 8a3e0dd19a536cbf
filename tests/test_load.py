"""Finding the traveller table in CSV and workbook files."""

from __future__ import annotations

from pathlib import Path

import pandas as pd
import pytest
import xlsxwriter

from traveller.errors import UnreadableFileError
from traveller.read.load import board_in_title, field_for, read, read_names, sniff_delimiter

CSV = "Board,NS,EW,Contract,By,Tricks,Lead,Comment\n1,1,2,4S,N,10,HA,fine\n1,3,4,3NT,S,9,,\n"


def test_headers_in_three_languages() -> None:
    assert field_for("Bd") == "board"
    assert field_for("Rozdanie") == "board"
    assert field_for("Сдача") == "board"
    assert field_for("N-S") == "ns_pair"
    assert field_for("Para NS") == "ns_pair"
    assert field_for("С-Ю") == "ns_pair"
    assert field_for("номера пар на ли-нии З-В") == "ew_pair"
    assert field_for("Rozgrywający") == "declarer"
    assert field_for("1-й ход") == "lead"
    assert field_for("Zapis") == "score"
    assert field_for("Wynik") == "result"
    assert field_for("Table") is None


def test_board_from_titles() -> None:
    assert board_in_title("Board 7") == 7
    assert board_in_title("Rozdanie 12") == 12
    assert board_in_title("Коробка: 8") == 8
    assert board_in_title("Сдача 3") == 3
    assert board_in_title("Tuesday pairs") is None


def test_delimiters() -> None:
    assert sniff_delimiter("a;b;c\n1;2;3\n") == ";"
    assert sniff_delimiter("a\tb\tc\n1\t2\t3\n") == "\t"
    assert sniff_delimiter("a,b,c\n1,2,3\n") == ","


def test_header_below_a_title_and_extra_columns_kept(tmp_path: Path) -> None:
    path = tmp_path / "t.csv"
    path.write_text("Club pairs 3 Nov\n\n" + CSV, encoding="utf-8")
    (table,) = read(path).tables
    assert list(table.frame["row"]) == [4, 5]
    assert {"board", "ns_pair", "ew_pair", "contract", "declarer", "tricks", "lead",
            "Comment"} <= set(table.frame.columns)
    assert table.original_columns["ns_pair"] == "NS"


@pytest.mark.parametrize("encoding", ["utf-8", "utf-8-sig", "cp1250", "cp1251"])
def test_encodings(tmp_path: Path, encoding: str) -> None:
    text = ("Rozdanie;Para NS;Para EW;Kontrakt;Rozgrywający;Lewy;Uwagi\n1;1;2;4P;N;10;Łódź\n"
            if encoding != "cp1251" else
            "Сдача;С-Ю;З-В;Контракт;Разыгрывающий;Взятки;Заметки\n1;1;2;4П;С;10;Щука\n")
    path = tmp_path / "t.csv"
    path.write_bytes(text.encode(encoding))
    (table,) = read(path).tables
    assert table.frame.iloc[0, -2] in {"Łódź", "Щука"}
    assert table.frame["contract"].iloc[0] in {"4P", "4П"}


def test_forced_encoding_that_fails_is_a_clear_error(tmp_path: Path) -> None:
    path = tmp_path / "t.csv"
    path.write_bytes("Board,NS,EW,Contract\n1,1,2,4S Ł\n".encode("cp1250"))
    with pytest.raises(UnreadableFileError, match="--encoding"):
        read(path, encoding="utf-8")


def test_workbook_with_names_sheet_and_stacked_boards(tmp_path: Path) -> None:
    path = tmp_path / "t.xlsx"
    book = xlsxwriter.Workbook(path)
    sheet = book.add_worksheet("Results")
    sheet.write_row(0, 0, ["Board 7"])
    sheet.write_row(1, 0, ["NS", "EW", "Contract", "By", "Tricks"])
    sheet.write_row(2, 0, [1, 2, "4S", "N", 10])
    sheet.write_row(4, 0, ["Board 8"])
    sheet.write_row(5, 0, ["NS", "EW", "Contract", "By", "Tricks"])
    sheet.write_row(6, 0, [1, 2, "3NT", "S", 9])
    names = book.add_worksheet("Names")
    names.write_row(0, 0, ["Pair", "Line", "Player 1", "Player 2"])
    names.write_row(1, 0, [1, "NS", "Ann Lee", "Bob Ray"])
    book.close()
    loaded = read(path)
    assert [t.board for t in loaded.tables] == [7, 8]
    assert [list(t.frame["row"]) for t in loaded.tables] == [[3], [7]]
    assert loaded.names is not None
    assert loaded.names.iloc[0].tolist() == ["", 1, "NS", "Ann Lee – Bob Ray",
                                             "Ann Lee", "Bob Ray"]  # and each player


def test_names_sheet_with_a_bad_pair_cell_or_no_rows_is_read_not_a_crash() -> None:
    from traveller.read.names import names_from_grid

    grid = [["Pair", "Section", "Line", "Player 1", "Player 2"],
            [3.5, "A", "NS", "Ann", "Bob"],  # not a pair number: left out (was a TypeError)
            ["2", 1.0, " e-w ", "Cy", None],  # a section stored as 1.0 reads 1
            [4]]  # a row shorter than the header
    names = names_from_grid(grid, "book [Names]")
    assert names.values.tolist() == [["1", 2, "EW", "Cy", "Cy", ""], ["", 4, "", "", "", ""]]
    assert names.dtypes.astype(str).tolist() == ["str", "Int64", "str", "str", "str", "str"]
    empty = names_from_grid([["Pair", "Names"]], "book [Names]")  # was a KeyError
    assert empty.empty and list(empty.columns) == ["section", "pair", "line", "names"]


def test_names_file(tmp_path: Path) -> None:
    path = tmp_path / "names.csv"
    path.write_text("Pair,Names\n1,Ann Lee - Bob Ray\n2,Cy Doe - Di Fox\n", encoding="utf-8")
    names = read_names(path)
    assert names["names"].tolist() == ["Ann Lee - Bob Ray", "Cy Doe - Di Fox"]
    assert names["line"].tolist() == ["", ""]


@pytest.mark.parametrize(("content", "message"), [
    (b"", "empty"),
    (b"\x00\x01\x02binary", "binary"),
    (b"just,some,words\nno,table,here\n", "no traveller table"),
])
def test_unusable_files(tmp_path: Path, content: bytes, message: str) -> None:
    path = tmp_path / "bad.csv"
    path.write_bytes(content)
    with pytest.raises(UnreadableFileError, match=message):
        read(path)


def test_missing_file_and_corrupt_workbook(tmp_path: Path) -> None:
    with pytest.raises(UnreadableFileError, match="not found"):
        read(tmp_path / "nope.csv")
    bad = tmp_path / "bad.xlsx"
    bad.write_bytes(b"PK\x03\x04 this is not really a zip")
    with pytest.raises(UnreadableFileError, match="not a readable workbook"):
        read(bad)


def test_a_stray_quote_swallows_no_line(tmp_path: Path) -> None:
    path = tmp_path / "t.csv"
    path.write_text('Board,NS,EW,Contract,By,Tricks\n1,1,2,"4S,N,10\n1,3,4,3NT,S,9\n'
                    '2,1,2,2H,E,8\n', encoding="utf-8")
    (table,) = read(path).tables
    assert list(table.frame["row"]) == [2, 3, 4]
    assert table.frame["contract"].tolist()[1:] == ["3NT", "2H"]


def test_results_above_the_header_are_listed_not_dropped(tmp_path: Path) -> None:
    from traveller import process

    path = tmp_path / "t.csv"
    path.write_text("Club pairs, Tuesday\n1,5,6,4S,N,10\nBoard,NS,EW,Contract,By,Tricks\n"
                    "1,1,2,4S,N,10\n1,3,4,3NT,S,9\n", encoding="utf-8")
    result = process(path)
    assert len(result.travellers) == 2
    assert result.problems[["row", "code"]].values.tolist() == [[2, "outside-table"]]
    assert "t.csv row 2: the row looks like a result" in result.problems["message"].iloc[0]


def test_a_names_row_with_an_unreadable_pair_is_listed_not_dropped_unseen(tmp_path: Path) -> None:
    import traveller

    book_path = tmp_path / "session.xlsx"
    book = xlsxwriter.Workbook(book_path)
    sheet = book.add_worksheet("Travellers")
    sheet.write_row(0, 0, ["Board", "NS", "EW", "Contract", "By", "Tricks"])
    for i, (ns, ew) in enumerate([(1, 2), (3, 4)]):
        sheet.write_row(i + 1, 0, [1, ns, ew, "3NT", "N", 9 + i])
    names = book.add_worksheet("Names")
    names.write_row(0, 0, ["Title of the names sheet"])
    names.write_row(1, 0, ["Pair", "Names"])
    names.write_row(2, 0, [1, "Ann Lee – Bob Ray"])
    names.write_row(3, 0, ["3,5", "Cy Doe – Di Fox"])
    names.write_row(4, 0, [3.5, "Ed Poe – Flo Hart"])
    book.close()
    result = traveller.process(book_path)
    listed = result.problems[result.problems["code"] == "bad-names-pair"]
    assert listed[["sheet", "row", "column", "value"]].values.tolist() == [
        ["Names", 4, "Pair", "3,5"], ["Names", 5, "Pair", "3.5"]]
    assert "session.xlsx [Names] row 4, Pair '3,5'" in listed["message"].iloc[0]
    assert len(result.travellers) == 2  # every result is still scored

    csv_names = tmp_path / "names.csv"
    csv_names.write_text("Pair,Names\n1,Ann Lee - Bob Ray\nx,Cy Doe\n", encoding="utf-8")
    with_file = traveller.process(book_path, names=csv_names)
    listed = with_file.problems[with_file.problems["code"] == "bad-names-pair"]
    assert listed[["file", "sheet", "row", "value"]].values.tolist() == [
        [str(csv_names), "", 3, "x"]]


def test_a_names_frame_row_with_an_unreadable_pair_is_listed_by_its_position() -> None:
    import traveller

    frames = {"Travellers": pd.DataFrame({"Board": [1, 1], "NS": [1, 3], "EW": [2, 4],
                                          "Contract": ["3NT", "3NT"], "By": ["N", "N"],
                                          "Tricks": [9, 10]}),
              "Names": pd.DataFrame({"Pair": [1, "two"], "Names": ["Ann – Bob", "Cy – Di"]})}
    listed = traveller.process(frames).problems.query("code == 'bad-names-pair'")
    assert listed[["file", "sheet", "row", "value"]].values.tolist() == [
        ["<DataFrame>", "Names", 1, "two"]]


def test_a_second_names_sheet_is_listed_and_the_first_one_used(tmp_path: Path) -> None:
    import traveller

    book_path = tmp_path / "session.xlsx"
    book = xlsxwriter.Workbook(book_path)
    sheet = book.add_worksheet("Travellers")
    sheet.write_row(0, 0, ["Board", "NS", "EW", "Contract", "By", "Tricks"])
    sheet.write_row(1, 0, [1, 1, 2, "3NT", "N", 9])
    for title, who in (("Names", "Ann Lee – Bob Ray"), ("Pairs", "Cy Doe – Di Fox")):
        names = book.add_worksheet(title)
        names.write_row(0, 0, ["Pair", "Names"])
        names.write_row(1, 0, [1, who])
        names.write_row(2, 0, ["x", "never read"])
    book.close()
    result = traveller.process(book_path)
    assert result.ranking["names"].tolist()[:1] == ["Ann Lee – Bob Ray"]
    listed = result.problems[result.problems["code"].isin(["second-names-sheet",
                                                           "bad-names-pair"])]
    assert listed[["sheet", "row", "code"]].values.tolist() == [
        ["Names", 3, "bad-names-pair"], ["Pairs", 1, "second-names-sheet"]]
    assert "sheet 'Names' are used" in listed["message"].iloc[1]

    frames = {"Travellers": pd.DataFrame({"Board": [1], "NS": [1], "EW": [2],
                                          "Contract": ["3NT"], "By": ["N"], "Tricks": [9]}),
              "Names": pd.DataFrame({"Pair": [1], "Names": ["Ann – Bob"]}),
              "Players": pd.DataFrame({"Pair": [1], "Names": ["Cy – Di"]})}
    from_frames = traveller.process(frames)
    assert from_frames.ranking["names"].tolist()[:1] == ["Ann – Bob"]
    assert from_frames.problems[["sheet", "code"]].values.tolist() == [
        ["Players", "second-names-sheet"]]


def test_a_pair_named_twice_otherwise_is_listed(tmp_path: Path) -> None:
    """A names file names pair 1 twice: the first names are used and the second row is
    listed beside the first; the same names written again (case aside) say nothing, and
    a Line column tells an N-S and an E-W pair of one number apart."""
    import traveller

    sheet = tmp_path / "t.csv"
    sheet.write_text("Board,NS,EW,Contract,By,Tricks\n1,1,2,4S,N,10\n1,3,4,4S,N,9\n")
    names = tmp_path / "names.csv"
    names.write_text("Pair,Names\n1,Ann & Bob\n2,Cat & Dan\n1,Eve & Fay\n3,Gil & Hal\n"
                     "3,gil &  hal\n4,Ida & Jo\n")
    result = traveller.process(sheet, names=names, dd=False)
    listed = result.problems[result.problems["code"] == "names-twice"]
    assert listed[["row", "column", "value", "severity"]].values.tolist() == [
        [4, "Names", "Eve & Fay", "warning"]]
    assert "pair 1 is named 'Ann & Bob' on row 2" in listed["message"].iloc[0]
    assert result.ranking.set_index("pair").loc[1, "names"] == "Ann & Bob"
    assert len(result.travellers) == 2  # no result is left out
    lines = tmp_path / "lines.csv"
    lines.write_text("Pair,Line,Names\n1,NS,Ann & Bob\n1,EW,Eve & Fay\n1,EW,Kim & Lu\n")
    found = traveller.process(sheet, names=lines, dd=False).problems
    twice = found[found["code"] == "names-twice"]
    assert twice["row"].tolist() == [4]
    assert "pair E-W 1 is named 'Eve & Fay' on row 3" in twice["message"].iloc[0]
