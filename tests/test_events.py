"""Multi-session events (traveller.events) and the CLI options of rulings and structure."""

from __future__ import annotations

import html
import re
from pathlib import Path

import openpyxl
import pandas as pd
import pytest
from click.testing import CliRunner
from conftest import real_file

from traveller.cli import board_list, main
from traveller.events import combine_sessions, process_event, read_carry_over

HEADER = "Board,NS,EW,Score\n"


def write(tmp_path: Path, name: str, rows: list[str]) -> Path:
    path = tmp_path / name
    path.write_text(HEADER + "\n".join(rows) + "\n", encoding="utf-8")
    return path


@pytest.fixture
def two_sessions(tmp_path: Path) -> list[Path]:
    # session 1: pair 1 N-S tops both boards; session 2 (one board only): pair 2 N-S tops it
    one = write(tmp_path, "s1.csv", ["1,1,11,+100", "1,2,12,+50", "1,3,13,0",
                                     "8,1,11,+100", "8,2,12,+50", "8,3,13,0"])
    two = write(tmp_path, "s2.csv", ["1,1,11,0", "1,2,12,+100", "1,3,13,+50"])
    return [one, two]


def test_event_by_average_percentage(two_sessions: list[Path]) -> None:
    event = process_event(two_sessions)
    ranking = event.ranking.set_index(["line", "pair"])
    assert ranking.loc[("NS", 1), ["pct_1", "pct_2"]].tolist() == [100, 0]
    assert ranking.loc[("NS", 1), "score"] == 50 and ranking.loc[("NS", 2), "score"] == 75
    assert ranking.loc[("NS", 2), "place"] == "1" and ranking.loc[("NS", 1), "place"] == "2"
    assert ranking.loc[("NS", 1), "boards"] == 3 and ranking.loc[("NS", 1), "sessions"] == 2
    assert event.settings["sessions"] == 2 and "session" in event.travellers
    assert event.session_rankings["session"].tolist().count(2) == 6


def test_event_by_total_with_carry_over(two_sessions: list[Path], tmp_path: Path) -> None:
    carry = tmp_path / "carry.csv"
    carry.write_text("Pair,Line,Carry\n3,N-S,5\n", encoding="utf-8")
    event = process_event(two_sessions, method="total", carry_over=carry)
    ranking = event.ranking.set_index(["line", "pair"])
    assert ranking.loc[("NS", 1), "mp"] == 8 and ranking.loc[("NS", 2), "mp"] == 8
    assert ranking.loc[("NS", 3), ["mp", "carry", "score"]].tolist() == [2, 5, 7]
    assert ranking.loc[("NS", 1), "pct"] == pytest.approx(100 * 8 / 12)


def test_pairs_matched_by_names_across_renumbered_sessions(tmp_path: Path) -> None:
    one = write(tmp_path, "a.csv", ["1,1,11,+100", "1,2,12,0"])
    two = write(tmp_path, "b.csv", ["1,5,15,+100", "1,6,16,0"])
    names = {one: {1: "Ann – Bob", 2: "Cy – Di"}, two: {5: "Cy – Di", 6: "Ann – Bob"}}
    from traveller import process

    results = []
    for path, table in names.items():
        result = process(path)
        result.ranking["names"] = result.ranking["pair"].map(table).fillna("")
        results.append(result)
    event = combine_sessions(results, key="names")
    got = event.set_index("names")
    assert got.loc["Ann – Bob", "score"] == 50 and got.loc["Cy – Di", "score"] == 50
    assert got["sessions"].tolist() == [2, 2]


def test_carry_over_file_needs_its_columns(tmp_path: Path) -> None:
    bad = tmp_path / "c.csv"
    bad.write_text("Who,Points\n1,2\n", encoding="utf-8")
    with pytest.raises(Exception, match="carry column"):
        read_carry_over(bad)
    with pytest.raises(ValueError, match="method"):
        combine_sessions([], method="median")


def test_cli_event_and_ruling_options(two_sessions: list[Path], tmp_path: Path) -> None:
    out = tmp_path / "event.xlsx"
    result = CliRunner().invoke(main, ["score", str(two_sessions[0]), "--session",
                                       str(two_sessions[1]), "--combine", "total",
                                       "-o", str(out)])
    assert result.exit_code == 0, result.output
    book = openpyxl.load_workbook(out)
    assert book.sheetnames[-1] == "Sessions" and book.sheetnames[:3] == [
        "Ranking", "Travellers", "Score cards"]  # no Problems sheet: there are none


def test_carry_over_without_sessions_ranks_the_one_session_with_its_carry(
        two_sessions: list[Path], tmp_path: Path) -> None:
    """A final of one session with a carry-over from the qualifying: the carry is added,
    not dropped without a word as it once was."""
    carry = tmp_path / "carry.csv"
    carry.write_text("Pair,Line,Carry\n3,N-S,5\n", encoding="utf-8")
    out = tmp_path / "final.xlsx"
    result = CliRunner().invoke(main, ["score", str(two_sessions[0]), "--carry-over", str(carry),
                                       "--combine", "total", "-o", str(out)])
    assert result.exit_code == 0, result.output
    sheet = openpyxl.load_workbook(out)["Ranking"]
    rows = [[c.value for c in row] for row in sheet.iter_rows()]
    head = next(r for r in rows if "Carry-over" in r)
    pair3 = next(r for r in rows[rows.index(head):] if r[head.index("Pair")] == 3)
    assert pair3[head.index("Carry-over")] == 5 and pair3[head.index("Total")] == 5


def test_a_phantom_that_is_no_pair_number_is_a_usage_error(two_sessions: list[Path]) -> None:
    result = CliRunner().invoke(main, ["score", str(two_sessions[0]), "--phantom", "abc"])
    assert result.exit_code == 2
    assert "phantom 'abc' is no pair number" in result.output


def test_each_session_keeps_the_vulnerability_its_boards_were_played_at(
        tmp_path: Path) -> None:
    """Board 1 of session 2 was played at the Vul column's Both (its number says nobody),
    board 1 of session 1 by its number: the event's Travellers headings and board pages
    say each, as board numbers repeat across sessions."""
    from traveller.publish.layout import board_headings
    from traveller.publish.site import site_pages

    rows = ["1,1,11,4S,N,10,420", "1,2,12,4S,N,10,420", "2,1,11,3N,S,9,600",
            "2,2,12,3N,S,9,600"]
    header = "Board,NS,EW,Contract,By,Tricks,Score\n"
    one = tmp_path / "s1.csv"
    one.write_text(header + "\n".join(rows) + "\n", encoding="utf-8")
    two = tmp_path / "s2.csv"
    two.write_text(header.replace("\n", ",Vul\n") + "\n".join(
        [r.replace(",420", ",620,All") if r.startswith("1,") else r + "," for r in rows])
        + "\n", encoding="utf-8")
    event = process_event([one, two])
    assert event.settings["session_vulnerable"] == {"2": {1: "All"}}
    t = event.travellers
    headings = [h for h in board_headings({c: t[c] for c in t.columns}, event).values()
                if "Board 1 " in h + " "]
    assert [h.split(" · ")[0] for h in headings] == ["Session 1", "Session 2"]
    assert "Vul: None" in headings[0] and "Vul: Both" in headings[1]
    pages = site_pages(event)
    (first,) = [p for name, p in pages.items() if name.startswith("board-1-1")]
    (second,) = [p for name, p in pages.items() if name.startswith("board-2-1")]
    assert "Vulnerable: None" in first and "Vulnerable: Both" in second


@pytest.mark.parametrize("combine", ["average", "total"])
def test_the_event_ranking_shows_what_its_places_follow(
        two_sessions: list[Path], tmp_path: Path, combine: str) -> None:
    """N-S 1 and 2 both have 66.67 % of the event's matchpoints, but the places follow the
    average of the session percentages (75 against 50): the Ranking sheet and the page
    show it as "Average %" (to two places, not "+75"), each session's percentage as
    "Session 1 %", and say so under the ranking; no Carry-over column of zeros. Placed
    by the total, the figure is "Total", the matchpoints with any carry-over."""
    from conftest import ranking_rows

    from traveller import write_workbook
    from traveller.publish.site import site_pages

    carry = tmp_path / "carry.csv"
    carry.write_text("Pair,Line,Carry\n3,N-S,1.5\n", encoding="utf-8")
    event = process_event(two_sessions, method=combine,
                          carry_over=carry if combine == "total" else None)
    book = openpyxl.load_workbook(write_workbook(event, tmp_path / "e.xlsx"))
    rows = {r["Pair"][0]: r for r in ranking_rows(book["Ranking"]) if r["Block"] == "N-S"}
    figure = "Average %" if combine == "average" else "Total"
    if combine == "average":
        assert [rows[p]["Place"][0] for p in (2, 1)] == ["1", "2"]
        assert rows[2][figure] == (75, "0.00") and rows[1][figure] == (50, "0.00")
        assert rows[2]["%"][0] == pytest.approx(rows[1]["%"][0])  # level on the total %
        assert "Carry-over" not in rows[2]
    else:
        assert rows[3][figure] == (3.5, "0.00") and rows[3]["Carry-over"] == (1.5, "0.00")
        assert rows[1][figure] == (8, "0.00")  # beside 3.50 in its block, as matchpoints
    assert rows[1]["Session 1 %"] == (100, "0.00") and rows[1]["Session 2 %"] == (0, "0.00")
    foot = "placed by " + ("the average of each session's percentage (Average %)"
                           if combine == "average" else "the total matchpoints (Total)")
    assert foot in "\n".join(str(c.value) for c in book["Ranking"]["A"] if c.value)
    page = html.unescape(site_pages(event)["index.html"])
    assert f">{figure}</th>" in page and ">Session 2 %</th>" in page and foot in page
    if combine == "average":
        assert re.search(r">75\.00</td>", page) and "Carry-over" not in page
    # each pair's card (sheet and page) says its place and that figure
    cards = [str(c.value) for c in book["Score cards"]["A"] if c.value]
    pair_page = html.unescape(site_pages(event)["pair-NS1.html"])
    assert re.search(r'>2/1</a>', pair_page)  # board 1 of session 2, as the strip names it
    assert re.search(r'<td class="num total">66\.67</td></tr></tfoot>', pair_page)  # its %
    if combine == "average":
        assert "Ranking: place 2 · Average % 50.00" in cards
        assert "Place 2 · 8 MP · Average % 50.00" in pair_page
    else:
        assert "Ranking: place 1= · Total 8" in cards and "· Total 8<" in pair_page


def test_the_sessions_sheet_lists_each_session_s_ranking_readably(
        two_sessions: list[Path], tmp_path: Path) -> None:
    """The session first, no empty Section or Names column, no factored MP equal to the
    MP, whole matchpoints as 8 (not 8.00), and every pair of every session listed."""
    from traveller import write_workbook

    event = process_event(two_sessions)
    sheet = openpyxl.load_workbook(write_workbook(event, tmp_path / "e.xlsx"))["Sessions"]
    rows = list(sheet.iter_rows(values_only=False))
    assert [c.value for c in rows[0]] == ["Session", "Line", "Pair", "Boards", "MP", "%",
                                          "Place", "MP possible"]
    assert len(rows) - 1 == len(event.session_rankings)
    assert {r[4].number_format for r in rows[1:]} == {"0"}
    assert [(r[0].value, r[2].value, r[4].value) for r in rows[1:3]] == [(1, 1, 8), (1, 2, 4)]


def test_cli_warsaw_phantom_award(tmp_path: Path) -> None:
    out = tmp_path / "w.xlsx"
    path = real_file("pary-jfr-warsaw", "wb120802.csv")
    result = CliRunner().invoke(main, ["score", str(path), "--phantom-award", "60",
                                       "--phantom", "18", "-o", str(out)])
    assert result.exit_code == 0, result.output
    assert "17 pairs ranked" in result.output
    travellers = pd.read_excel(out, sheet_name="Travellers", engine="openpyxl")
    td = travellers[travellers["Ruling"] == "TD"]
    assert len(td) == 27 and (td["N-S %"] == 60).all() and (td["E-W %"] == 0).all()


def test_cli_usage_errors() -> None:
    runner = CliRunner()
    assert runner.invoke(main, ["score", "x.csv", "--phantom-award", "160"]).exit_code == 2
    assert runner.invoke(main, ["score", "x.csv", "--sections", "mixed"]).exit_code == 2
    assert board_list("19-21,25") == (19, 20, 21, 25) and board_list("") == ()
