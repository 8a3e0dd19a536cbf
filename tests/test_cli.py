"""The command line (through click's CliRunner) and the workbook it writes, read back."""

from __future__ import annotations

import hashlib
import shutil
import subprocess
import sys
from pathlib import Path

import openpyxl
import pytest
from click.testing import CliRunner
from conftest import SAMPLE_DATA, header_row, ranking_rows, real_file, sheet_text

from traveller.cli import main


def run(*args: str) -> tuple[int, str, str]:
    result = CliRunner().invoke(main, list(args))
    return result.exit_code, result.stdout, result.stderr


def test_clean_session_exit_0_and_workbook_layout(tmp_path: Path) -> None:
    out = tmp_path / "results.xlsx"
    code, stdout, stderr = run("score", str(SAMPLE_DATA / "club_session.xlsx"), "-o", str(out),
                               "--final")
    assert code == 0, stdout
    assert "192 results on 24 boards, 16 pairs ranked (mitchell, mp)" in stdout
    assert "--title" not in stderr  # the sheet has a title row
    book = openpyxl.load_workbook(out)
    # no Problems sheet when there are none (nothing empty to print)
    assert book.sheetnames == ["Ranking", "Travellers", "Score cards", "Frequencies",
                               "Summary"]
    ranking = book["Ranking"]
    # the title row above the sheet's header is the title, printed once (no page header);
    # --final: no correction period
    assert ranking["A1"].value == "Riverside Bridge Club - Tuesday pairs, 3 November 2026"
    assert ranking["A2"].value == "Final results"
    assert not ranking.oddHeader.left.text and "Final" not in str(ranking.oddFooter.center.text)
    h = header_row(ranking)
    header = [c.value for c in ranking[h]]
    assert header == ["Place", "Pair", "Names", "Boards", "MP", "%"]
    assert ranking[f"A{h - 1}"].value == "N-S" and ranking[f"A{h}"].font.b
    # the headers stand over their numbers
    assert [ranking.cell(h, j).alignment.horizontal for j in (1, 2, 3, 5, 6)] == [
        "center", "center", "left", "right", "right"]
    foot = sheet_text(ranking).splitlines()[-1]
    assert foot == ("Matchpoints, 2 for each pair beaten and 1 for each tie; Neuberg's formula "
                    "for boards played fewer times; Mitchell movement; 24 boards.")
    # fit to one page wide (fitToWidth 1 is the schema default, so it is not written)
    assert ranking.sheet_properties.pageSetUpPr.fitToPage
    assert ranking.page_setup.fitToWidth in (None, 1) and ranking.page_setup.fitToHeight == 0
    travellers = book["Travellers"]
    head = [c.value for c in travellers[1]]
    score_col = head.index("N-S score") + 1
    pct_col = head.index("N-S %") + 1
    # row 2 is board 1's heading, row 3 its first result
    assert travellers.cell(3, score_col).number_format == "+#,##0;-#,##0;0"
    assert travellers.cell(3, pct_col).number_format == "0.00"
    assert travellers.freeze_panes == "A2"
    assert {"Round", "Table", "Lead (as written)"} <= set(head)  # input columns kept
    # cells as written only where they differ: every contract reads as typed here
    assert "Contract (as written)" not in head
    assert "Ruling" not in head  # columns empty throughout are left out
    # the print area holds the traveller itself, up to the E-W percentage
    last = openpyxl.utils.get_column_letter(head.index("E-W %") + 1)
    assert travellers.print_area == f"'Travellers'!$A$1:${last}${travellers.max_row}"
    cells = [travellers.cell(r, head.index("Board") + 1).value
             for r in range(2, travellers.max_row + 1)]
    boards = [v for v in cells if isinstance(v, int)]
    assert boards == sorted(boards) and len(boards) == 192
    # a heading above each board: its dealer and vulnerability
    headings = [v for v in cells if isinstance(v, str)]
    assert len(headings) == 24 and headings[0].startswith("Board 1 · Dealer N · Vul: None")


def test_problems_exit_3_and_every_row_accounted_for(tmp_path: Path) -> None:
    src = SAMPLE_DATA / "problems_session.csv"
    before = hashlib.sha256(src.read_bytes()).hexdigest()
    out = tmp_path / "r.xlsx"
    code, stdout, _ = run("score", str(src), "-o", str(out))
    assert code == 3
    assert "problems listed on the Problems sheet" in stdout
    book = openpyxl.load_workbook(out)
    problems = list(book["Problems"].iter_rows(min_row=2, values_only=True))
    codes = sorted(p[6] for p in problems)
    assert codes == sorted(["unknown-contract", "tricks-out-of-range", "missing-pair",
                            "unknown-lead", "duplicate-result", "duplicate-result"])
    # each row's board, to find its paper traveller by (row 6 of the file is board 1's 4Z)
    assert [c.value for c in book["Problems"][1]][2:4] == ["Row", "Board"]
    assert {p[2]: p[3] for p in problems} == {6: 1, 12: 2, 22: 3, 32: 4, 42: 6, 43: 6}
    head = [c.value for c in book["Travellers"][1]]
    row_col = head.index("Row")
    scored_rows = {r[row_col] for r in book["Travellers"].iter_rows(min_row=2, values_only=True)
                   if r[row_col] is not None}  # not the board headings
    blocking = {p[2] for p in problems if p[7] == "error"}  # (Severity: the row is left out)
    data_rows = set(range(2, 2 + 193))
    assert scored_rows | blocking == data_rows and not scored_rows & blocking
    assert hashlib.sha256(src.read_bytes()).hexdigest() == before  # input untouched


@pytest.mark.parametrize(("content", "needle"), [(b"", "empty"), (b"x,y\n1,2\n", "no traveller")])
def test_unreadable_input_one_line_error_exit_1(tmp_path: Path, content: bytes,
                                                needle: str) -> None:
    bad = tmp_path / "bad.csv"
    bad.write_bytes(content)
    code, _, stderr = run("score", str(bad), "-o", str(tmp_path / "r.xlsx"))
    assert code == 1
    assert stderr.startswith("error: ") and needle in stderr
    assert "Traceback" not in stderr and len(stderr.strip().splitlines()) == 1
    assert f"listed on the Problems sheet of {tmp_path / 'r.xlsx'}" in stderr
    book = openpyxl.load_workbook(tmp_path / "r.xlsx", read_only=True)  # what to fix, even so
    problems = list(book["Problems"].iter_rows(values_only=True))
    ranking = [r[0] for r in book["Ranking"].iter_rows(values_only=True) if r[0]]
    book.close()
    assert [p[6] for p in problems[1:]] == ["unreadable-file"] and needle in problems[1][8]
    assert str(problems[1][0]).endswith("bad.csv") and problems[1][7] == "error"
    assert ranking[0] == "Results: bad.csv" and ranking[-2:] == [
        "Nothing could be scored: the Problems sheet says why.",
        "1 problem listed on the Problems sheet."]
    assert not list(tmp_path.glob("*.html")) and not (tmp_path / "site").exists()
    code, _, again = run("score", str(bad), "--html", str(tmp_path / "site"))  # its own name
    assert code == 1 and "listed on the Problems sheet of" in again
    assert (tmp_path / "bad_results.xlsx").exists() and not (tmp_path / "site").exists()
    assert "earlier run" not in again
    # a site the last good run published stays, and the director is told it is that run's
    good = tmp_path / "good.csv"
    good.write_bytes((SAMPLE_DATA / "club_session.csv").read_bytes())
    assert run("score", str(good), "-o", str(tmp_path / "g.xlsx"), "--html",
               str(tmp_path / "site"))[0] == 0
    good.write_bytes(content)
    code, _, stale = run("score", str(good), "-o", str(tmp_path / "g.xlsx"), "--html",
                         str(tmp_path / "site"))
    assert code == 1 and (tmp_path / "site" / "index.html").exists()
    assert stale.rstrip().endswith(f"nothing else written; {tmp_path / 'site'} and "
                                   f"{tmp_path / 'g.director.html'} are an earlier run's, "
                                   "as it left them)")


def test_a_bad_points_value_is_a_usage_error_and_a_bad_scale_file_is_listed(tmp_path: Path) -> None:
    """Only a file that cannot be read is listed: a scale missing its input, or one that
    does not exist, is the command's usage (exit 2, before anything is read), and nothing
    is written; a scale file that exists but cannot be used is listed as its problem."""
    code, _, stderr = run("score", str(SAMPLE_DATA / "club_session.csv"), "-o",
                          str(tmp_path / "r.xlsx"), "--points", "pzbs")
    assert code == 2 and "pzbs:first=" in stderr and "Problems sheet" not in stderr
    assert not (tmp_path / "r.xlsx").exists()
    for value in ("nosuch", "abf:weight=x", "missing.toml"):
        code, _, stderr = run("score", str(SAMPLE_DATA / "club_session.csv"), "-o",
                              str(tmp_path / "r.xlsx"), "--points", value)
        assert code == 2 and "--points" in stderr and not (tmp_path / "r.xlsx").exists()
    broken = tmp_path / "club.toml"
    broken.write_text("[first\n", encoding="utf-8")  # a scale file that cannot be used
    code, _, stderr = run("score", str(SAMPLE_DATA / "club_session.csv"), "-o",
                          str(tmp_path / "r.xlsx"), "--points", str(broken))
    assert code == 1 and "not a valid TOML scale file" in stderr
    book = openpyxl.load_workbook(tmp_path / "r.xlsx", read_only=True)
    [row] = list(book["Problems"].iter_rows(values_only=True))[1:]
    book.close()
    assert str(row[0]).endswith("club.toml") and row[6] == "unreadable-file"


def test_a_missing_file_given_to_an_option_is_a_usage_error(tmp_path: Path) -> None:
    """A typo in --names, --hands, --session, --carry-over or --vp-scale is the command's
    usage (exit 2, before anything is read or written): it used to end as a failure, or
    for --hands a session scored without its deals, and would now replace the session's
    workbook by a Problems sheet about a file that is not there."""
    session = str(SAMPLE_DATA / "club_session.csv")
    out = tmp_path / "r.xlsx"
    for option in ("--names", "--hands", "--session", "--carry-over"):
        code, _, stderr = run("score", session, "-o", str(out), option,
                              str(tmp_path / "nosuch.csv"))
        assert code == 2 and "does not exist" in stderr and not out.exists(), (option, stderr)
    code, _, stderr = run("score", session, "-o", str(out), "--method", "teams",
                          "--vp-scale", str(tmp_path / "nosuch.csv"))
    assert code == 2 and "--vp-scale" in stderr and not out.exists()


def test_a_vp_table_that_cannot_be_used_is_listed_as_its_file_s_problem(tmp_path: Path
                                                                          ) -> None:
    table = tmp_path / "vp.csv"
    table.write_text("a,b\n1,2\n", encoding="utf-8")
    out = tmp_path / "r.xlsx"
    code, _, stderr = run("score", str(real_file("pbn-teams-itt1998", "98ITTF1.PBN")), "-o",
                          str(out), "--method", "teams", "--vp-scale", str(table))
    assert code == 1 and "missing imps_from, imps_to, vp_winner, vp_loser (its columns: a, b)" \
        in stderr
    book = openpyxl.load_workbook(out, read_only=True)
    [row] = list(book["Problems"].iter_rows(values_only=True))[1:]
    book.close()
    assert str(row[0]).endswith("vp.csv") and row[6] == "unreadable-file"


def test_debug_shows_the_traceback(tmp_path: Path) -> None:
    bad = tmp_path / "bad.csv"
    bad.write_bytes(b"")
    result = CliRunner().invoke(main, ["score", str(bad), "--debug"])
    assert result.exit_code == 1 and result.exception is not None


def test_usage_error_exit_2_and_help_has_an_example() -> None:
    assert run("score", "x.csv", "--scale", "3/2/1")[0] == 2
    code, stdout, _ = run("score", "--help")
    assert code == 0 and "Example:" in stdout and "traveller score" in stdout


def test_options_reach_the_scoring(tmp_path: Path) -> None:
    out = tmp_path / "r.xlsx"
    code, stdout, _ = run("score", str(SAMPLE_DATA / "club_session.csv"), "-o", str(out),
                          "--scale", "1/0.5", "--movement", "mitchell",
                          "--names", str(SAMPLE_DATA / "names.csv"))
    assert code == 0, stdout
    assert "(mitchell, mp)" in stdout
    assert "1 for each pair beaten and ½ for each tie" in sheet_text(
        openpyxl.load_workbook(out)["Ranking"])


def test_default_output_name_and_refusing_to_overwrite_input(tmp_path: Path) -> None:
    src = tmp_path / "club.csv"
    shutil.copy(SAMPLE_DATA / "club_session.csv", src)
    assert run("score", str(src))[0] == 0
    assert (tmp_path / "club_results.xlsx").exists()
    code, _, stderr = run("score", str(src), "-o", str(src))
    assert code == 2 and "overwrite the input" in stderr


def test_the_default_workbook_replaces_only_results_of_the_same_input(tmp_path: Path) -> None:
    """x.csv and x.xlsx both default to x_results.xlsx: the second run once replaced the
    first's results without a word, as it did a workbook of the user's own of that name."""
    csv, xlsx = tmp_path / "x.csv", tmp_path / "x.xlsx"
    shutil.copy(SAMPLE_DATA / "club_session.csv", csv)
    shutil.copy(SAMPLE_DATA / "club_session.xlsx", xlsx)
    results = tmp_path / "x_results.xlsx"
    assert run("score", str(csv))[0] == 0
    assert run("score", str(csv))[0] == 0  # a re-run of the same input replaces its own
    before = results.read_bytes()
    code, _, stderr = run("score", str(xlsx))
    assert code == 2 and "was written from x.csv, not from x.xlsx" in stderr
    assert f"-o {tmp_path / 'x_xlsx_results.xlsx'}" in stderr
    assert results.read_bytes() == before
    assert run("score", str(xlsx), "-o", str(results))[0] == 0  # named: the user's call
    results.write_bytes(b"my own notes")
    code, _, stderr = run("score", str(csv))
    assert code == 2 and "is not a workbook traveller wrote" in stderr
    assert results.read_bytes() == b"my own notes"


@pytest.mark.parametrize("flag", ["--names", "--session", "--carry-over"])
def test_output_that_is_another_input_is_refused(tmp_path: Path, flag: str) -> None:
    other = tmp_path / "other.xlsx"
    other.write_bytes(b"precious")
    code, _, stderr = run("score", str(SAMPLE_DATA / "club_session.csv"), flag, str(other),
                          "-o", str(tmp_path / "." / "other.xlsx"))
    assert code == 2 and "overwrite the input" in stderr
    assert other.read_bytes() == b"precious"


@pytest.mark.parametrize("outputs", [["--pbn", "r.pbn", "--usebio", "./r.pbn"],
                                     ["--html", "r.xlsx"]])
def test_two_outputs_on_one_path_are_refused_before_writing(tmp_path: Path,
                                                            outputs: list[str]) -> None:
    # --pbn r.pbn --usebio r.pbn wrote both to one file; -o r.xlsx --html r.xlsx wrote
    # the workbook, then failed on the folder
    given = [str(tmp_path / v) if v.endswith((".pbn", ".xlsx")) else v for v in outputs]
    code, _, stderr = run("score", str(SAMPLE_DATA / "club_session.csv"),
                          "-o", str(tmp_path / "r.xlsx"), *given)
    assert code == 2 and "given for two outputs of this run" in stderr
    assert list(tmp_path.iterdir()) == []


def test_installed_entry_point_runs_on_sample_data(tmp_path: Path) -> None:
    exe = shutil.which("traveller")
    if exe is None:
        pytest.skip("the traveller console script is not installed (pip install .)")
    out = tmp_path / "r.xlsx"
    done = subprocess.run([exe, "score", str(SAMPLE_DATA / "club_session.xlsx"), "-o", str(out)],
                          capture_output=True, text=True, check=False)
    assert done.returncode == 0, done.stderr
    assert out.exists()


def test_python_dash_m(tmp_path: Path) -> None:
    done = subprocess.run([sys.executable, "-m", "traveller", "--version"],
                          capture_output=True, text=True, check=False,
                          cwd=Path(__file__).parents[1])
    assert done.returncode == 0 and "traveller" in done.stdout


@pytest.mark.parametrize(("method", "column", "words"), [
    ("ximp", "IMPs", "Cross-IMPs, divided by n-1"),
    ("butler", "IMPs", "Butler IMPs against a datum"),
    ("total", "Points", "Total points"),
])
def test_methods_write_their_columns_and_say_so(tmp_path: Path, method: str, column: str,
                                                words: str) -> None:
    out = tmp_path / "r.xlsx"
    code, stdout, _ = run("score", str(SAMPLE_DATA / "club_session.csv"), "-o", str(out),
                          "--method", method)
    assert code == 0, stdout
    ranking = openpyxl.load_workbook(out)["Ranking"]
    assert words in sheet_text(ranking)
    assert column in [c.value for c in ranking[header_row(ranking)]]
    travellers = [c.value for c in openpyxl.load_workbook(out)["Travellers"][1]]
    assert "N-S MP" not in travellers
    if method == "butler":
        assert "Datum" in travellers


def test_teams_workbook_has_matches_and_boards(tmp_path: Path) -> None:
    from conftest import real_file

    src = real_file("pbn-teams-itt1998", "98ITTF1.PBN")
    out = tmp_path / "r.xlsx"
    code, stdout, _ = run("score", str(src), "-o", str(out), "--method", "teams")
    assert code in (0, 3), stdout
    assert "2 teams ranked" in stdout
    book = openpyxl.load_workbook(out)
    assert {"Matches", "Boards"} <= set(book.sheetnames)


def test_discrete_vp_scale_file(tmp_path: Path) -> None:
    from conftest import real_file

    src = real_file("pbn-teams-itt1998", "98ITTF1.PBN")
    out = tmp_path / "r.xlsx"
    code, stdout, _ = run("score", str(src), "-o", str(out), "--method", "teams",
                          "--vp-scale", str(SAMPLE_DATA / "vp_scale_24_boards.csv"))
    assert code in (0, 3), stdout
    ranking = openpyxl.load_workbook(out)["Ranking"]
    vps = sorted(r["VP"][0] for r in ranking_rows(ranking, "VP"))
    assert vps in ([10, 10], *[[20 - v, v] for v in range(11, 21)])  # the discrete table


def test_cli_choices_match_the_library() -> None:
    from traveller import options as cli
    from traveller.schema import NOTATIONS
    from traveller.score.methods import METHODS
    from traveller.score.rank import SCALES

    assert tuple(SCALES) == cli.SCALES
    assert tuple(NOTATIONS) == cli.NOTATIONS
    assert cli.METHODS == METHODS


def test_command_line_starts_without_pandas() -> None:
    code = "import sys, traveller.cli; print('pandas' in sys.modules)"
    done = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True,
                          check=True, cwd=Path(__file__).parents[1])
    assert done.stdout.strip() == "False"
