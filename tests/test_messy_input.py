"""Real-world mess (issue 3): other workbook formats, Bridgemate tables, Excel's dates,
merged titles, formulas, numbers stored as text, zip bombs; and round trips through
English, Polish and Russian notation, long sheets and sheets per board."""

from __future__ import annotations

import datetime as dt
import shutil
import zipfile
from pathlib import Path

import pandas as pd
import pytest
import xlsxwriter
from conftest import SAMPLE_DATA

from traveller import process
from traveller.errors import UnreadableFileError
from traveller.read.load import read

DATA = Path(__file__).parent / "data"
COLUMNS = ["board", "ns_pair", "ew_pair", "contract", "declarer", "tricks", "lead", "ns_score",
           "ns_mp", "ew_mp", "ns_pct"]


@pytest.fixture(scope="module")
def english() -> pd.DataFrame:
    return process(SAMPLE_DATA / "club_session.xlsx").travellers[COLUMNS]


@pytest.mark.parametrize("name", [
    "club_session.csv", "club_session_pl.xlsx", "club_session_pl.csv", "club_session_ru.xlsx",
    "club_session_ru.csv",
])
def test_same_session_in_every_notation_and_layout(english: pd.DataFrame, name: str) -> None:
    """English long sheet = Polish per-board sheets = Polish cp1250 CSV = Russian stacked
    tables = Russian cp1251 CSV."""
    result = process(SAMPLE_DATA / name)
    assert result.problems.empty, result.problems["message"].head().tolist()
    pd.testing.assert_frame_equal(result.travellers[COLUMNS], english)


@pytest.mark.parametrize("suffix", ["xls", "ods", "xlsm"])
def test_legacy_and_open_document_workbooks(english: pd.DataFrame, suffix: str) -> None:
    """The Russian stacked-table workbook saved by LibreOffice as xls, ods and xlsm."""
    result = process(DATA / f"club_session_ru.{suffix}")
    assert result.problems.empty
    pd.testing.assert_frame_equal(result.travellers[COLUMNS], english)


def test_tab_separated(tmp_path: Path, english: pd.DataFrame) -> None:
    frame = pd.read_csv(SAMPLE_DATA / "club_session.csv")
    path = tmp_path / "session.tsv"
    frame.to_csv(path, sep="\t", index=False)
    pd.testing.assert_frame_equal(process(path).travellers[COLUMNS], english)


def test_bridgemate_received_data(tmp_path: Path) -> None:
    path = tmp_path / "ReceivedData.csv"
    path.write_text(
        "ID,Section,Table,Round,Board,PairNS,PairEW,NS/EW,Contract,Result,LeadCard\n"
        "1,A,1,1,1,1,1,N,4 S x,-1,HA\n"
        "2,A,2,1,1,2,3,E,3 NT,=,S5\n"
        "3,A,3,1,1,3,2,S,PASS,,\n", encoding="utf-8")
    result = process(path)
    assert result.problems.empty
    t = result.travellers.sort_values("ns_pair")
    assert t["contract"].tolist() == ["4SX", "3NT", "PASS"]
    assert t["ns_score"].tolist() == [-100, -400, 0]
    assert t["section"].unique().tolist() == ["A"]
    assert "ID" in t and "Table" in t and "Round" in t


def write_messy(path: Path) -> None:
    book = xlsxwriter.Workbook(path)
    sheet = book.add_worksheet("Wtorek")
    date = book.add_format({"num_format": "d-mmm"})
    sheet.merge_range("A1:F1", "Board 3 - E-W vulnerable", book.add_format({"bold": True}))
    sheet.write_row(2, 0, ["NS ", " EW", "Contract", "By", "Tricks", "Score"])
    sheet.write_row(3, 0, ["1", "2 ", "4S ", "N", "10", None])
    sheet.write_row(4, 0, [3.0, 4.0, "3NT", "S", 9.0])
    sheet.write_formula(5, 0, "=2+3", None, 5)
    sheet.write_row(5, 1, [6, "2H", "E"])
    sheet.write_datetime(5, 4, dt.datetime(1900, 1, 8), date)  # 8 tricks shown as a date
    sheet.write_row(6, 0, [7, 8, "4H", "W"])
    sheet.write_datetime(6, 4, dt.datetime(2026, 1, 4), date)  # "4-1" typed: no sense
    book.close()


def test_merged_titles_formulas_text_numbers_and_dates(tmp_path: Path) -> None:
    path = tmp_path / "messy.xlsx"
    write_messy(path)
    result = process(path)
    t = result.travellers.sort_values("ns_pair")
    assert t["board"].unique().tolist() == [3]
    assert t["ns_pair"].tolist() == [1, 3, 5]  # "1" as text, 3.0, and a formula's value
    assert t["contract"].tolist() == ["4S", "3NT", "2H"]
    assert t["tricks"].tolist() == [10, 9, 8]
    codes = dict(zip(result.problems["row"], result.problems["code"], strict=True))
    assert codes == {6: "excel-date-recovered", 7: "excel-date"}
    recovered = result.problems.set_index("row").loc[6]
    assert recovered["value"] == "1900-01-08" and "read as 8" in recovered["message"]


def test_zip_bomb_workbook_is_refused(tmp_path: Path) -> None:
    path = tmp_path / "bomb.xlsx"
    with zipfile.ZipFile(path, "w", zipfile.ZIP_DEFLATED) as archive:
        archive.writestr("xl/worksheets/sheet1.xml", b"\0" * (60 << 20))
    with pytest.raises(UnreadableFileError, match="unpacks to"):
        read(path)


def test_binary_file_named_csv_and_workbook_named_csv(tmp_path: Path) -> None:
    path = tmp_path / "fake.csv"
    path.write_bytes(b"\x89PNG\r\n\x1a\n\x00\x00binary")
    with pytest.raises(UnreadableFileError, match="binary"):
        read(path)
    real = tmp_path / "real.xlsx"
    shutil.copy(SAMPLE_DATA / "club_session.xlsx", real)
    assert len(read(real).tables) == 1


def test_a_contract_in_a_level_and_a_suit_column_reads_as_one(tmp_path: Path) -> None:
    """Level ``4`` and Suit ``S`` are the contract 4S (with a Dbl column, 4SX); a
    workbook's levels are numbers (4.0); an unreadable pair is listed naming both
    columns; beside a Contract column of their own the two are kept as typed."""
    sheet = tmp_path / "split.csv"
    sheet.write_text("Board,NS,EW,Level,Suit,Dbl,By,Tricks\n1,1,2,4,S,,N,10\n"
                     "1,3,4,3,NT,X,S,8\n1,5,6,Pass,,,,\n1,7,8,4,Z,,N,10\n")
    result = process(sheet, dd=False)
    t = result.travellers.set_index("row")
    assert t["contract"].to_dict() == {2: "4S", 3: "3NTX", 4: "PASS"}
    assert t["ns_score"].to_dict() == {2: 420, 3: -100, 4: 0}
    bad = result.problems.iloc[0]
    assert (bad["row"], bad["code"], bad["column"], bad["value"]) == (
        5, "unknown-contract", "Level/Suit", "4Z")

    book = tmp_path / "split.xlsx"
    pd.DataFrame({"Rozdanie": [1, 1], "NS": [1, 3], "EW": [2, 4], "Wysokość": [4.0, 3.0],
                  "Kolor": ["P", "BA"], "Rozgrywający": ["N", "S"], "Lewy": [10, 9]}
                 ).to_excel(book, index=False)
    polish = process(book, dd=False).travellers
    assert polish["contract"].tolist() == ["4S", "3NT"]
    assert polish["ns_score"].tolist() == [420, 400]

    both = tmp_path / "both.csv"
    both.write_text("Board,NS,EW,Contract,Level,Suit,By,Tricks\n1,1,2,4S,4,S,N,10\n")
    kept = process(both, dd=False).travellers
    assert kept["contract"].tolist() == ["4S"]
    assert kept[["Level", "Suit"]].astype(str).values.tolist() == [["4", "S"]]
