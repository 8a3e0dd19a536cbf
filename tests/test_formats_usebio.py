"""USEBIO XML reader: real Compscore3 exports, hardening, sections and the reader seam."""

from __future__ import annotations

import re
from pathlib import Path

import pandas as pd
import pytest
from conftest import real_file, row_at

from traveller.errors import UnreadableFileError
from traveller.read.formats import reader_for
from traveller.read.load import read
from traveller.read.usebio import read_usebio

FOLDER = "usebio-compscore"


def one_table(name: str):
    tables = read_usebio(real_file(FOLDER, name))
    assert len(tables) == 1
    return tables[0]




@pytest.mark.parametrize(("name", "results", "boards", "pairs", "per_board"), [
    ("butler_mitchell.xml", 245, 35, 14, {7: 35}),
    ("cross_imp_howell.xml", 108, 27, 9, {4: 27}),
    ("mp_pairs_howell.xml", 161, 27, 12, {6: 26, 5: 1}),
    ("mp_pairs_mitchell.xml", 512, 27, 38, {19: 26, 18: 1}),
    ("mp_pairs_mitchell_adjusted_02.xml", 567, 27, 42, {21: 27}),
])
def test_counts(name: str, results: int, boards: int, pairs: int, per_board: dict) -> None:
    table = one_table(name)
    assert len(table.frame) == results
    assert table.frame["board"].nunique() == boards
    assert table.frame.groupby("board").size().value_counts().to_dict() == per_board
    assert len(table.names) == pairs
    assert table.notation == "en" and table.board is None


_BLOCK = re.compile(r"<TRAVELLER_LINE>(.*?)</TRAVELLER_LINE>", re.DOTALL)
_ELEMENT = re.compile(r"<(\w+)>([^<]*)</\1>")


@pytest.mark.parametrize("name", ["butler_mitchell.xml", "cross_imp_howell.xml",
                                  "mp_pairs_howell.xml", "mp_pairs_mitchell.xml",
                                  "mp_pairs_mitchell_adjusted_02.xml"])
def test_every_row_matches_the_file_text_at_its_line(name: str) -> None:
    """Each row's ``row`` points at its <TRAVELLER_LINE>; its values are the ones written there."""
    path = real_file(FOLDER, name)
    text = path.read_text()
    table = one_table(name)
    blocks = {text.count("\n", 0, m.start()) + 1: dict(_ELEMENT.findall(m.group(1)))
              for m in _BLOCK.finditer(text)}
    assert sorted(blocks) == sorted(table.frame["row"])
    for _, row in table.frame.iterrows():
        written = blocks[row["row"]]
        assert f"{row['ns_pair']}" == re.sub(r"\D", "", written["NS_PAIR_NUMBER"])
        assert f"{row['ew_pair']}" == re.sub(r"\D", "", written["EW_PAIR_NUMBER"])
        if "CONTRACT" in written:
            assert row["contract"] == written["CONTRACT"]
            assert str(row["score"]) == written["SCORE"]
        else:
            assert row["contract"] == written["SCORE"] and pd.isna(row["score"])


def test_butler_row_values_and_datum() -> None:
    table = one_table("butler_mitchell.xml")
    first = row_at(table, 287)
    assert first[["board", "ns_pair", "ew_pair", "contract", "declarer", "tricks",
                  "score"]].tolist() == [1, 1, 1, "3S", "E", 9, -140]
    assert first["lead"] == "DT"  # written rank-first as "TD"
    assert (first["published_ns_imp"], first["published_ew_imp"]) == (-3.0, 3.0)
    assert first["published_datum"] == -30.0
    datum = table.frame.groupby("board")["published_datum"].first()
    assert (datum[2], datum[35]) == (-10.0, -150.0)
    assert table.meta["scoring"] == "BUTLER_PAIRS" and table.meta["board_scoring"] == "IMPS"


@pytest.mark.parametrize(("name", "line", "board", "ns", "ew", "marker", "mps"), [
    ("butler_mitchell.xml", 1432, 15, 2, 1, "A5050", (0.0, 0.0)),
    ("mp_pairs_howell.xml", 1997, 26, 5, 10, "A5050", (5.0, 5.0)),
    ("mp_pairs_mitchell_adjusted_02.xml", 831, 1, 1, 1, "A5050", (20.0, 20.0)),
    ("mp_pairs_mitchell_adjusted_02.xml", 838, 1, 2, 15, "A6040", (24.0, 16.0)),
    ("mp_pairs_mitchell_adjusted_02.xml", 1145, 2, 9, 8, "A6060", (24.0, 24.0)),
])
def test_adjusted_lines_are_kept_with_their_marker(name, line, board, ns, ew, marker,
                                                   mps) -> None:
    row = row_at(one_table(name), line)
    assert (row["board"], row["ns_pair"], row["ew_pair"], row["contract"]) == (
        board, ns, ew, marker)
    assert pd.isna(row["score"]) and pd.isna(row["tricks"]) and pd.isna(row["declarer"])
    published = next(c for c in row.index if c.startswith("published_ns_"))
    assert (row[published], row[published.replace("_ns_", "_ew_")]) == mps


def test_adjusted_file_has_exactly_four_adjusted_lines() -> None:
    contracts = one_table("mp_pairs_mitchell_adjusted_02.xml").frame["contract"]
    assert sorted(contracts[contracts.str.startswith("A")]) == [
        "A5050", "A5050", "A6040", "A6060"]


def test_passed_out_lines() -> None:
    mitchell = row_at(one_table("mp_pairs_mitchell.xml"), 5953)
    assert mitchell[["board", "ns_pair", "ew_pair", "contract", "declarer", "tricks",
                     "score", "published_ns_mp", "published_ew_mp"]].tolist() == [
        25, 12, 6, "PASS", "N", 0, 0, 34.0, 2.0]
    cross = row_at(one_table("cross_imp_howell.xml"), 942)
    assert cross["contract"] == "PASS" and pd.isna(cross["tricks"]) and cross["score"] == 0
    assert (cross["published_ns_imp"], cross["published_ew_imp"]) == (-0.33, 0.33)


def test_mitchell_names_and_totals() -> None:
    names = one_table("mp_pairs_mitchell.xml").names
    assert names.groupby("line").size().to_dict() == {"EW": 19, "NS": 19}
    first = names[(names["pair"] == 1) & (names["line"] == "NS")].iloc[0]
    assert first["names"] == "PIETER KLIFFEN – PETER JONKER"
    assert (first["published_total"], first["published_pct"], first["published_place"]) == (
        442.22, 45.5, "15")
    assert names["pair"].dtype == "Int64"


def test_howell_names_have_no_line() -> None:
    table = one_table("cross_imp_howell.xml")
    assert set(table.names["line"]) == {""}
    assert sorted(table.names["pair"]) == [1, 2, 3, 5, 6, 7, 8, 9, 10]
    assert "published_pct" not in table.names  # cross-IMPs publish totals only
    top = table.names[table.names["published_place"] == "1"].iloc[0]
    assert (top["pair"], top["names"], top["published_total"]) == (
        2, "FATMA AHMET – JAN LONERGAN", 30.33)
    assert table.meta["winner_type"] == "1" and table.meta["scoring"] == "CROSS_IMP"


def test_meta() -> None:
    table = one_table("mp_pairs_mitchell.xml")
    assert table.meta["event"] == "EL Mon 1:00pm Open (11-Jul-22)"
    assert table.meta["date"] == "11/07/2022" and table.meta["program"] == "Compscore3"
    assert table.meta["scoring"] == "MP_PAIRS" and table.meta["sessions"] == "1"
    assert table.meta["format"] == "USEBIO 1.2" and table.meta["club"] == "NSBC@Lindfield"
    assert table.sheet == table.meta["event"]


# --------------------------------------------------------------------------
# Hardening


BOMB = """<?xml version="1.0"?>
<!DOCTYPE USEBIO [
 <!ENTITY a "aaaaaaaaaa">
 <!ENTITY b "&a;&a;&a;&a;&a;&a;&a;&a;&a;&a;">
 <!ENTITY c "&b;&b;&b;&b;&b;&b;&b;&b;&b;&b;">
]>
<USEBIO><EVENT><EVENT_DESCRIPTION>&c;</EVENT_DESCRIPTION></EVENT></USEBIO>
"""
EXTERNAL = """<?xml version="1.0"?>
<!DOCTYPE USEBIO [<!ENTITY secret SYSTEM "file:///etc/passwd">]>
<USEBIO><EVENT><EVENT_DESCRIPTION>&secret;</EVENT_DESCRIPTION></EVENT></USEBIO>
"""
PARAMETER = """<?xml version="1.0"?>
<!DOCTYPE USEBIO [<!ENTITY % remote SYSTEM "http://example.invalid/x.dtd"> %remote;]>
<USEBIO/>
"""


@pytest.mark.parametrize("text", [BOMB, EXTERNAL, PARAMETER], ids=["laughs", "xxe", "pe"])
def test_entities_are_refused(tmp_path: Path, text: str) -> None:
    path = tmp_path / "bomb.xml"
    path.write_text(text)
    assert reader_for(path) is read_usebio
    with pytest.raises(UnreadableFileError, match=r"bomb\.xml.*(?s:entit).*export"):
        read_usebio(path)


def test_malformed_xml_is_a_clear_error(tmp_path: Path) -> None:
    path = tmp_path / "broken.xml"
    path.write_text("<USEBIO><EVENT><BOARD></EVENT></USEBIO>")
    with pytest.raises(UnreadableFileError, match=r"broken\.xml: not well-formed"):
        read_usebio(path)


def test_other_root_and_no_results_are_refused(tmp_path: Path) -> None:
    other = tmp_path / "other.usebio"
    other.write_text("<RESULTS/>")
    with pytest.raises(UnreadableFileError, match="root element is <RESULTS>"):
        read_usebio(other)
    empty = tmp_path / "empty.xml"
    empty.write_text("<USEBIO><EVENT><PARTICIPANTS/></EVENT></USEBIO>")
    with pytest.raises(UnreadableFileError, match="no TRAVELLER_LINE"):
        read_usebio(empty)


# --------------------------------------------------------------------------
# Sessions and sections


SECTIONS = """<?xml version="1.0"?>
<USEBIO Version="1.2"><EVENT EVENT_TYPE="MP_PAIRS">
<EVENT_DESCRIPTION>Two sections</EVENT_DESCRIPTION>
<SESSION><SESSION_NUMBER>1</SESSION_NUMBER>
{sections}
</SESSION></EVENT></USEBIO>
"""
SECTION = """<SECTION><SECTION_ID>{sid}</SECTION_ID>
<PARTICIPANTS><PAIR><PAIR_NUMBER>1NS</PAIR_NUMBER><DIRECTION>NS</DIRECTION>
<PLAYER><PLAYER_NAME>{sid} North</PLAYER_NAME></PLAYER>
<PLAYER><PLAYER_NAME>{sid} South</PLAYER_NAME></PLAYER>
</PAIR></PARTICIPANTS>
<BOARD><BOARD_NUMBER>3</BOARD_NUMBER>
<TRAVELLER_LINE><NS_PAIR_NUMBER>1NS</NS_PAIR_NUMBER><EW_PAIR_NUMBER>1EW</EW_PAIR_NUMBER>
<CONTRACT>4SX</CONTRACT><PLAYED_BY>W</PLAYED_BY><TRICKS>8</TRICKS><SCORE>500</SCORE>
<LIN_DATA>x</LIN_DATA></TRAVELLER_LINE></BOARD></SECTION>"""


def test_sections_become_tables_with_their_own_names(tmp_path: Path) -> None:
    path = tmp_path / "sections"  # no suffix: found by sniffing
    text = SECTIONS.format(sections=SECTION.format(sid="A") + SECTION.format(sid="B"))
    path.write_text(text)
    line_b = [n for n, t in enumerate(text.splitlines(), 1) if "<TRAVELLER_LINE>" in t][1]
    assert reader_for(path) is read_usebio
    tables = read_usebio(path)
    assert [t.sheet for t in tables] == ["Session 1 Section A", "Session 1 Section B"]
    second = tables[1]
    assert second.frame.loc[0, ["section", "board", "ns_pair", "contract", "tricks",
                                "score", "lin_data", "row"]].tolist() == [
        "B", 3, 1, "4SX", 8, 500, "x", line_b]
    assert second.names.loc[0, ["section", "pair", "line", "names"]].tolist() == [
        "B", 1, "NS", "B North – B South"]


# --------------------------------------------------------------------------
# The reader seam


def test_reader_for_picks_usebio_only_for_usebio_xml(tmp_path: Path) -> None:
    assert reader_for(real_file(FOLDER, "mp_pairs_howell.xml")) is read_usebio
    other = tmp_path / "other.xml"
    other.write_text('<?xml version="1.0"?>\n<!-- USEBIO -->\n<catalog/>')
    assert reader_for(other) is None
    csv = tmp_path / "session.csv"
    csv.write_text("Board,NS,EW,Contract\n1,1,2,3NT\n")
    assert reader_for(csv) is None


def test_load_read_goes_through_the_usebio_reader() -> None:
    loaded = read(real_file(FOLDER, "mp_pairs_howell.xml"))
    assert len(loaded.tables) == 1 and len(loaded.tables[0].frame) == 161
    assert loaded.names is not None and len(loaded.names) == 12
