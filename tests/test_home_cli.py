"""The rubber / chicago / three-handed commands and the score-pad workbook they write."""

from __future__ import annotations

import shutil
import subprocess
from pathlib import Path

import openpyxl
import pytest
from click.testing import CliRunner

from traveller.cli import main

SAMPLES = Path(__file__).resolve().parents[1] / "sample_data"


def run(*args: str) -> tuple[int, str]:
    result = CliRunner().invoke(main, [str(a) for a in args])
    return result.exit_code, result.output


@pytest.mark.parametrize(("command", "sample", "sheets"), [
    ("rubber", "home_rubber.csv", ["Rubber 1", "Rubber 2", "Ledger", "Totals", "Problems"]),
    ("chicago", "home_chicago_ru.xlsx", ["Round 1", "Round 2", "Ledger", "Totals", "Problems"]),
    ("three-handed", "home_three.csv", ["Rubber 1", "Ledger", "Totals", "Rubbers", "Problems"]),
])
def test_each_command_writes_a_pad_with_a_sheet_per_rubber(tmp_path: Path, command: str,
                                                           sample: str, sheets: list[str]) -> None:
    out = tmp_path / "pad.xlsx"
    code, text = run(command, SAMPLES / sample, "-o", out)
    assert code == 0, text
    assert f"wrote {out}" in text
    book = openpyxl.load_workbook(out)
    assert book.sheetnames == sheets
    pad = book[sheets[0]]
    assert pad.sheet_properties.pageSetUpPr.fitToPage
    # one page wide and one page tall (1 is the default, which xlsx leaves unwritten)
    assert (pad.page_setup.fitToWidth or 1, pad.page_setup.fitToHeight or 1) == (1, 1)


def test_rubber_pad_shows_the_totals_and_settlement(tmp_path: Path) -> None:
    out = tmp_path / "pad.xlsx"
    assert run("rubber", SAMPLES / "home_rubber.csv", "-o", out)[0] == 0
    cells = [[c for c in row] for row in openpyxl.load_workbook(out)["Rubber 1"].values]
    total = next(r for r in cells if r[0] == "Total")
    assert (total[1], total[3]) == (1410, 100)
    settle = next(r for r in cells if r[0] == "Settle")
    assert (settle[1], settle[3]) == ("+13", "-13")
    assert any(r[0] == "Rubber won by We (N-S)." for r in cells)
    ledger = openpyxl.load_workbook(out)["Ledger"]
    header = [c.value for c in ledger[1]]
    result = ledger.cell(row=6, column=header.index("Result (as written)") + 1)
    assert (result.value, result.data_type) == ("=", "s")  # text stays text, not a formula
    # every sheet headed in words, as the pad's players read it
    assert header[:4] == ["File", "Sheet", "Row", "Deal"] and "N-S below the line" in header
    totals = openpyxl.load_workbook(out)["Totals"]
    assert [c.value for c in totals[1]] == ["Rubber", "N-S", "E-W", "Settlement", "Finished"]


def test_options_reach_the_scoring(tmp_path: Path) -> None:
    csv = tmp_path / "r.csv"
    csv.write_text("Deal,Declarer,Contract,Tricks\n1,N,7NT,13\n2,E,2D,8\n", encoding="utf-8")
    code, text = run("rubber", csv, "--rules", "classic", "--unfinished-partscore", "50")
    assert code == 0, text
    book = openpyxl.load_workbook(tmp_path / "r_pad.xlsx")
    totals = list(book["Totals"].values)
    assert totals[1][1:3] == (220 + 750 + 300, 40 + 50)
    code, text = run("chicago", SAMPLES / "home_chicago.csv", "-o", tmp_path / "c.xlsx",
                     "--partscore-bonus", "100", "--settle-rounding", "half-down")
    assert code == 0 and "N-S +21" in text
    code, text = run("three-handed", SAMPLES / "home_three.csv", "-o", tmp_path / "t.xlsx",
                     "--players", "Vera,Boris,Anna")
    assert code == 0 and "settle Vera -7, Boris -1, Anna +8" in text


def test_the_default_pad_replaces_only_a_pad_of_the_same_sheet(tmp_path: Path) -> None:
    """r.csv and r.xlsx both default to r_pad.xlsx; a re-run of r.csv replaces its own."""
    csv, xlsx = tmp_path / "r.csv", tmp_path / "r.xlsx"
    shutil.copy(SAMPLES / "home_rubber.csv", csv)
    shutil.copy(SAMPLES / "home_rubber_ru.xlsx", xlsx)
    assert run("rubber", csv)[0] == 0 and run("rubber", csv)[0] == 0
    code, text = run("rubber", xlsx)
    assert code == 2 and "was written from r.csv, not from r.xlsx" in text
    assert "r_xlsx_pad.xlsx" in text


def test_exit_codes(tmp_path: Path) -> None:
    bad = tmp_path / "bad.csv"
    bad.write_text("Deal,Declarer,Contract,Tricks\n1,N,9S,10\n2,N,4S,10\n", encoding="utf-8")
    code, text = run("rubber", bad, "-o", tmp_path / "o.xlsx")
    assert code == 3 and "1 unknown-contract" in text
    assert run("rubber", bad, "-o", bad)[0] == 2  # would overwrite the input
    assert run("rubber", bad, "--rules", "ancient")[0] == 2
    assert run("chicago", bad, "-o", tmp_path / "o.txt")[0] == 2
    code, text = run("three-handed", tmp_path / "missing.csv")
    assert code == 2 and "does not exist" in text and not list(tmp_path.glob("missing*"))
    for command in ("rubber", "chicago", "three-handed"):
        code, text = run(command, "--help")
        assert code == 0 and "Example:" in text


@pytest.mark.parametrize("command", ["rubber", "chicago", "three-handed"])
def test_a_sheet_that_cannot_be_read_still_gets_its_problems_sheet(tmp_path: Path,
                                                                   command: str) -> None:
    """An empty file, or one with no score sheet in it: exit 1 with one line, and the pad
    written all the same, its Problems sheet saying why (nothing was written before)."""
    for content in ("", "foo,bar\n1,2\n"):
        sheet = tmp_path / "sheet.csv"
        sheet.write_text(content, encoding="utf-8")
        code, text = run(command, sheet)
        pad = tmp_path / "sheet_pad.xlsx"
        assert code == 1 and text.startswith("error: ") and len(text.splitlines()) == 1
        assert f"listed on the Problems sheet of {pad}" in text
        book = openpyxl.load_workbook(pad, read_only=True)
        rows = list(book["Problems"].iter_rows(values_only=True))
        book.close()
        assert rows[0][:3] == ("File", "Sheet", "Row") and "Board" not in rows[0]  # deals
        assert [r[5] for r in rows[1:]] == ["unreadable-file"]
        assert str(rows[1][0]).endswith("sheet.csv") and "nothing is scored" in rows[1][7]


@pytest.mark.skipif(shutil.which("soffice") is None or shutil.which("pdfinfo") is None,
                    reason="LibreOffice and poppler are needed to print the pad")
@pytest.mark.slow  # several seconds: in .ci/run's slow part
def test_the_pad_prints_one_page_per_rubber(tmp_path: Path) -> None:
    out = tmp_path / "pad.xlsx"
    assert run("rubber", SAMPLES / "home_rubber.csv", "-o", out)[0] == 0
    profile = f"-env:UserInstallation=file://{tmp_path / 'lo'}"
    subprocess.run(["soffice", profile, "--headless", "--convert-to", "pdf", "--outdir",
                    str(tmp_path), str(out)], check=True, capture_output=True, timeout=180)
    info = subprocess.run(["pdfinfo", str(tmp_path / "pad.pdf")], check=True,
                          capture_output=True, text=True).stdout
    pages = int(next(line.split()[-1] for line in info.splitlines() if line.startswith("Pages")))
    assert pages == 2 + 3  # two rubbers, then Ledger, Totals, Problems on a page each
