"""The printed workbook as a club pins it up and players read it (issue 26, points 1-3, 11).

Read back with openpyxl: the Ranking's blocks, headings, number formats and foot;
the Travellers' headers, formats per board and the rulings; the score cards' Result
column and their figures as numbers.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

import openpyxl
import pytest
from click.testing import CliRunner
from conftest import SAMPLE_DATA, header_row, ranking_rows, sheet_text

from traveller import process, write_workbook
from traveller.cli import main
from traveller.pipeline import Options
from traveller.words import noun, plural


def _book(tmp_path: Path, name: str, **kwargs: Any) -> Any:
    result = process(SAMPLE_DATA / name, **kwargs)
    return openpyxl.load_workbook(write_workbook(result, tmp_path / "r.xlsx")), result


def test_the_ranking_is_a_block_per_line_with_its_own_places(tmp_path: Path) -> None:
    book, _ = _book(tmp_path, "club_session.xlsx")
    sheet = book["Ranking"]
    rows = ranking_rows(sheet)
    assert [r["Block"] for r in rows] == ["N-S"] * 8 + ["E-W"] * 8
    for block in ("N-S", "E-W"):  # places from 1 under each heading
        assert next(r["Place"][0] for r in rows if r["Block"] == block) == "1"
    assert {r["MP"] for r in rows} == {(r["MP"][0], "0") for r in rows}  # 191, not 191.00
    assert all(isinstance(r["MP"][0], int | float) and r["%"][1] == "0.00" for r in rows)
    text = sheet_text(sheet)
    title = "Riverside Bridge Club - Tuesday pairs, 3 November 2026"
    assert text.count(title) == 1 and not sheet.oddHeader.left.text  # the title once
    assert "problem" not in text and "(s)" not in text
    assert text.splitlines()[-1].endswith("; Mitchell movement; 24 boards.")
    # other sheets keep the title in their page header
    assert book["Travellers"].oddHeader.left.text == title
    # readable from a step back: larger type, portrait, one page wide
    h = header_row(sheet)
    assert sheet.cell(h + 1, 3).font.sz >= 12 and sheet["A1"].font.sz >= 18
    assert sheet.page_setup.orientation == "portrait"
    assert sheet.sheet_properties.pageSetUpPr.fitToPage
    assert sum(d.width for d in sheet.column_dimensions.values()) >= 75


def test_a_block_with_fractions_prints_two_decimals_throughout(tmp_path: Path) -> None:
    book, _ = _book(tmp_path, "rulings_session.csv")
    rows = ranking_rows(book["Ranking"])
    for block in ("N-S", "E-W"):
        formats = {r["MP"][1] for r in rows if r["Block"] == block}
        assert formats == {"0.00"}  # a board not played: factored matchpoints


def test_problems_are_listed_at_the_foot_only_when_there_are_some(tmp_path: Path) -> None:
    book, result = _book(tmp_path, "problems_session.csv")
    n = len(result.problems)
    assert n > 1
    assert sheet_text(book["Ranking"]).splitlines()[-1] == (
        f"{n} problems listed on the Problems sheet.")


@pytest.mark.parametrize(("name", "options", "column", "words"), [
    ("club_session.csv", Options(method="ximp"), "IMPs", "Cross-IMPs"),
    ("club_session.csv", Options(method="butler"), "IMPs", "Butler IMPs"),
    ("club_session.csv", Options(method="total"), "Points", "Total points"),
    ("chicago_russian.csv", Options(method="russian", chicago=True), "IMPs", "Russian"),
    ("individual_session.csv", None, "MP", "; individual; "),
])
def test_every_method_s_ranking_renders(tmp_path: Path, name: str, options: Options | None,
                                         column: str, words: str) -> None:
    book, result = _book(tmp_path, name, **({"options": options} if options else {}))
    sheet = book["Ranking"]
    rows = ranking_rows(sheet)
    assert len(rows) == len(result.ranking)
    assert all(r[column][0] is not None for r in rows)
    assert words in sheet_text(sheet).splitlines()[-1]
    head = [c.value for c in sheet[header_row(sheet)]]
    assert head[0] == "Place" and len(head) == len(set(head))
    if result.settings.get("individual"):
        assert {r["Block"] for r in rows} == {""}  # one block, no heading
        assert "Player" in head


def test_travellers_with_rulings_have_one_heading_each_and_one_format_per_board(
        tmp_path: Path) -> None:
    book, _ = _book(tmp_path, "rulings_session.csv")
    sheet = book["Travellers"]
    head = [c.value for c in sheet[1]]
    assert len(head) == len(set(head))  # never two columns headed "Ruling"
    assert head.count("Ruling") == 1 and "Ruling (as written)" not in head  # the same as ours
    ruling = head.index("Ruling") + 1
    assert sheet.cell(1, ruling).alignment.indent == 1  # set off from the E-W %
    assert sheet.column_dimensions[openpyxl.utils.get_column_letter(ruling)].width >= 8
    mp = head.index("N-S MP") + 1
    board_formats: dict[str, set[str]] = {}
    board = ""
    for row in sheet.iter_rows(min_row=2):
        first = row[0].value
        if isinstance(first, str):  # a board's heading
            board = first
        elif row[mp - 1].value is not None:
            board_formats.setdefault(board, set()).add(row[mp - 1].number_format)
    assert all(len(f) == 1 for f in board_formats.values())  # never 8.4 beside 13.86
    assert board_formats[next(b for b in board_formats if b.startswith("Board 1 "))] == {"0.00"}
    assert {"0"} in board_formats.values()  # a board of whole matchpoints


@pytest.mark.parametrize("method", ["butler", "ximp"])
def test_imps_are_whole_without_decimals_else_to_two_places_per_board(
        tmp_path: Path, method: str) -> None:
    """Butler's IMPs are whole: 5, not 5.00, on the Travellers, the score cards (their
    totals and ranking line too) and the Ranking. Cross-IMPs divided by n-1 have fractions:
    every IMP of such a board (a card, a block) to two places, whole ones included."""
    book, _ = _book(tmp_path, "club_session.csv", options=Options(method=method))
    formats: dict[str, set[str]] = {}
    sheet = book["Travellers"]
    head = [c.value for c in sheet[1]]
    board = ""
    for row in sheet.iter_rows(min_row=2):
        if isinstance(row[0].value, str):
            board = row[0].value
        for name in ("N-S IMPs", "E-W IMPs"):
            cell = row[head.index(name)]
            if isinstance(cell.value, int | float):
                formats.setdefault(board, set()).add(cell.number_format)
    cards = book["Score cards"]
    imps = [c.value for c in cards[2]].index("IMPs")
    card_formats = {r[imps].number_format for r in cards.iter_rows(min_row=3)
                    if isinstance(r[imps].value, int | float)}
    ranked = {r["IMPs"][1] for r in ranking_rows(book["Ranking"])}
    if method == "butler":
        assert set().union(*formats.values()) == card_formats == ranked == {"0"}
    else:
        assert all(len(f) == 1 for f in formats.values())  # never 5 beside 0.43
        assert {"0.00"} in formats.values() and "0.00" in card_formats and "0.00" in ranked


@pytest.mark.parametrize(("scale", "shown"), [("wbf", "0.00"), ("table", "0")])
def test_victory_points_are_whole_on_a_discrete_scale(tmp_path: Path, scale: str,
                                                      shown: str) -> None:
    """The team trials' match: 15.88 to 4.12 on the WBF scale, 15 to 5 on a 24-board
    table, which the Ranking and the Matches sheet print as 15, not 15.00."""
    from conftest import real_file

    vp_scale = "wbf" if scale == "wbf" else str(SAMPLE_DATA / "vp_scale_24_boards.csv")
    result = process(real_file("pbn-teams-itt1998", "98ITTF1.PBN"), dd=False,
                     options=Options(method="teams", vp_scale=vp_scale))
    book = openpyxl.load_workbook(write_workbook(result, tmp_path / "t.xlsx"))
    ranked = {r["VP"] for r in ranking_rows(book["Ranking"])}
    matches = book["Matches"]
    head = [c.value for c in matches[1]]
    cells = [row[head.index(h)] for row in matches.iter_rows(min_row=2)
             for h in ("Home VP", "Away VP")]
    assert {f for _, f in ranked} == {c.number_format for c in cells} == {shown}
    assert sorted(v for v, _ in ranked) == ([4.12, 15.88] if scale == "wbf" else [5, 15])
    # the scale in words, a table by its file's name: no local folder on a public page
    from traveller.publish.site import site_pages

    words = ("on the WBF continuous 20-point scale" if scale == "wbf"
             else "from the table vp_scale_24_boards.csv")
    pages = site_pages(result)
    assert words in pages["index.html"]
    assert not any(str(SAMPLE_DATA) in page for page in pages.values())


def test_the_input_s_own_ruling_is_shown_as_written_where_it_differs() -> None:
    import pandas as pd

    from traveller.publish.headers import heading
    from traveller.publish.layout import _as_written, _input_twins

    series = {"ruling": pd.Series(["A+", None, "A="], dtype="string"),
              "Ruling": pd.Series(["A+", "", "ave"], dtype="string")}
    renamed, names = _input_twins(series, list(series))
    assert names == ["ruling", "Ruling_as_written"] and heading(names[1]) == "Ruling (as written)"
    kept, dropped = _as_written(renamed, names)
    assert kept["Ruling_as_written"].tolist() == [pd.NA, "", "ave"] and not dropped
    same = {"ruling": series["ruling"], "Ruling": pd.Series(["A+", "", "A="], dtype="string")}
    renamed, names = _input_twins(same, list(same))
    assert _as_written(renamed, names)[1] == {"Ruling_as_written"}  # nothing to add: left out


def test_columns_the_readers_name_are_headed_readably() -> None:
    from traveller.publish.headers import heading

    # a PBN or USEBIO file's own figures, a teams traveller's seats, a ScoreTable's columns
    assert [heading(c) for c in ("published_ns_mp", "published_ew_pct", "published_deal",
                                 "published_vulnerable", "published_total", "room",
                                 "ns_team", "table", "round", "adjusted_ew", "Remarks")] == [
        "N-S MP (published)", "E-W % (published)", "Deal (published)", "Vul (published)",
        "Total (published)", "Room", "N-S team", "Table", "Round",
        "E-W adjustment (as written)", "Remarks"]


def test_cells_as_written_show_a_workbook_s_numbers_as_typed() -> None:
    travellers = process(SAMPLE_DATA / "club_session.xlsx").travellers
    tricks = travellers["tricks_as_written"].dropna()
    assert len(tricks) and not tricks.str.endswith(".0").any()
    assert set(tricks) - {""} <= {str(n) for n in range(14)}


def test_score_cards_show_the_result_and_figures_as_numbers(tmp_path: Path) -> None:
    book, result = _book(tmp_path, "rulings_session.csv")
    sheet = book["Score cards"]
    rows = list(sheet.iter_rows())
    head = [c.value for c in rows[1]]
    assert head[head.index("Contract") + 2] == "Result" and head[head.index("By") + 1] == "Result"
    j = head.index("Result")
    shown = {r[j].value for r in rows[2:26]}
    assert shown <= {None, "=", *(f"{d:+d}" for d in range(-7, 7) if d)} and "=" in shown
    total = next(r for r in rows if r[0].value == "Total")
    ranked = rows[rows.index(total) + 1]
    mp, pct = head.index("MP"), head.index("%")
    assert str(ranked[0].value).startswith("Ranking: place ")
    for row in (total, ranked):
        assert isinstance(row[mp].value, float) and isinstance(row[pct].value, float)
        assert row[mp].number_format in ("0", "0.00") and row[pct].number_format == "0.00"
    assert sheet.cell(2, mp + 1).alignment.horizontal == "right"  # the header over its numbers
    first = result.ranking.iloc[0]
    assert not str(rows[0][0].value).count("MP")  # no figures in the heading's text
    assert first is not None


def test_plurals() -> None:
    assert plural(1, "board") == "1 board" and plural(24, "board") == "24 boards"
    assert plural(0, "problem") == "0 problems" and plural(2.0, "rubber") == "2 rubbers"
    assert plural(3, "party", "parties") == "3 parties" and noun(1, "hundred") == "hundred"
    assert plural(12000, "result", thousands=True) == "12,000 results"


def test_the_terminal_counts_in_the_right_number(tmp_path: Path) -> None:
    src = tmp_path / "one.csv"
    src.write_text("Board,NS,EW,Contract,By,Tricks\n1,1,2,3NT,N,9\n", encoding="utf-8")
    done = CliRunner().invoke(main, ["score", str(src), "-o", str(tmp_path / "r.xlsx")])
    assert "1 result on 1 board, 2 pairs ranked" in done.stdout, done.output
    assert "give one with --title" in done.stderr  # a CSV without a title row
    assert "(s)" not in done.output


def test_score_final_and_start(tmp_path: Path) -> None:
    out = tmp_path / "r.xlsx"
    src = str(SAMPLE_DATA / "club_session.csv")
    done = CliRunner().invoke(main, ["score", src, "-o", str(out), "--final"])
    assert done.exit_code == 0 and openpyxl.load_workbook(out)["Ranking"]["A2"].value == (
        "Final results")
    done = CliRunner().invoke(main, ["score", src, "-o", str(out), "--start", "25:00"])
    assert done.exit_code == 2 and "--start" in done.stderr
    done = CliRunner().invoke(main, ["score", src, "-o", str(out), "--final",
                                     "--correction-minutes", "10"])
    assert done.exit_code == 2 and "--final" in done.stderr
    done = CliRunner().invoke(main, ["score", src, "-o", str(out), "--date", "3 November 2026",
                                     "--start", "19:30"])  # weeks ago: final
    assert done.exit_code == 0
    status = openpyxl.load_workbook(out)["Ranking"]["A3"].value
    assert status == "Final results" or status.endswith(" on 4 November 2026")
    for day in ("31/02/2026", "2026-13-01"):  # written as dates, but no such day
        done = CliRunner().invoke(main, ["score", src, "-o", str(out), "--date", day])
        assert done.exit_code == 2 and "no such day" in done.stderr
    done = CliRunner().invoke(main, ["score", src, "-o", str(out), "--date", "Tuesday evening"])
    assert done.exit_code == 0  # a date in words stays text


HOWELL = """Board,NS,EW,Contract,By,Tricks
1,1,2,4S,N,10
1,3,4,4S,N,9
2,2,3,3NT,S,9
2,4,1,3NT,S,10
3,1,3,2H,E,8
3,4,2,2H,E,9
4,3,1,1NT,N,7
4,2,4,1NT,N,8
"""


def test_a_howell_is_one_block_and_its_foot_says_howell(tmp_path: Path) -> None:
    src = tmp_path / "howell.csv"
    src.write_text(HOWELL, encoding="utf-8")
    result = process(src)
    assert result.settings["movement"] == "howell"
    sheet = openpyxl.load_workbook(write_workbook(result, tmp_path / "r.xlsx"))["Ranking"]
    rows = ranking_rows(sheet)
    assert {r["Block"] for r in rows} == {""} and len(rows) == 4
    assert [r["Place"][0] for r in rows] == ["1", "2=", "2=", "4"]
    assert "; Howell movement; 4 boards." in sheet_text(sheet).splitlines()[-1]


def test_summary_numbers_are_numbers(tmp_path: Path) -> None:
    book, _ = _book(tmp_path, "rulings_session.csv")
    values = dict(book["Summary"].iter_rows(min_row=2, values_only=True))
    for item in ("sections", "tables", "pairs ranked", "boards", "results scored",
                 "top (common)", "rulings", "problems"):
        assert isinstance(values[item], int), item


def test_a_ladder_reads_the_ranking_blocks_back(tmp_path: Path) -> None:
    from traveller.read.published import workbook_session

    result = process(SAMPLE_DATA / "club_session.xlsx")
    read = workbook_session(write_workbook(result, tmp_path / "r.xlsx"))
    assert read.ranking[["line", "pair", "place"]].values.tolist() == [
        [line, int(pair), place] for line, pair, place in
        result.ranking[["line", "pair", "place"]].itertuples(index=False)]
    assert read.info["title"] == result.meta["title"] and read.info["method"] == "mp"
    old = workbook_session(Path(__file__).parent / "data" / "workbook_ref" /
                           "club_session_xlsx.xlsx")  # a workbook of the one-table layout
    assert len(old.ranking) == 16 and set(old.ranking["line"]) == {"NS", "EW"}


def _two_sections(tmp_path: Path) -> Path:
    lines = (SAMPLE_DATA / "club_session.csv").read_text(encoding="utf-8").splitlines()
    start = next(i for i, line in enumerate(lines) if line.lower().startswith("board"))
    body = [line for line in lines[start + 1:] if line.strip()]
    src = tmp_path / "sections.csv"
    src.write_text("\n".join([f"Section,{lines[start]}"] + [f"{s},{line}" for s in "AB"
                                                             for line in body]) + "\n",
                   encoding="utf-8")
    return src


@pytest.mark.parametrize(("options", "blocks", "section_column"), [
    (None, ["Section A · N-S", "Section A · E-W", "Section B · N-S", "Section B · E-W"], False),
    (Options(sections="field"), ["N-S", "E-W"], True),  # ranked across the sections
])
def test_sections_are_blocks_or_a_column(tmp_path: Path, options: Options | None,
                                         blocks: list[str], section_column: bool) -> None:
    result = process(_two_sections(tmp_path), **({"options": options} if options else {}))
    sheet = openpyxl.load_workbook(write_workbook(result, tmp_path / "r.xlsx"))["Ranking"]
    rows = ranking_rows(sheet)
    assert list(dict.fromkeys(r["Block"] for r in rows)) == blocks and len(rows) == 32
    assert ("Section" in rows[0]) is section_column
