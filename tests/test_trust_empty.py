"""A file in which no row can be scored still ends with its workbook and Problems sheet.

Every method, every publisher: a director who typed every contract wrongly, or
wrote every pair number as ``A1``, gets the list of what to fix, never a crash.
"""

from __future__ import annotations

from pathlib import Path

import openpyxl
import pytest
from click.testing import CliRunner

from traveller import process, write_workbook
from traveller.cli import main
from traveller.publish.pbn_out import write_pbn
from traveller.publish.site import write_site
from traveller.publish.usebio_out import write_usebio

#: Sheets in which no row scores, each for its own reason.
UNSCORABLE = {
    "contracts": "Board,NS,EW,Contract,By,Tricks\n1,1,2,ZZ,N,10\n1,3,4,QQ,N,9\n",
    "board-zero": "Board,NS,EW,Contract,By,Tricks\n0,1,2,4S,N,10\n0,3,4,3NT,S,9\n",
    "plays-itself": "Board,NS,EW,Contract,By,Tricks\n1,1,1,4S,N,10\n1,2,2,3NT,S,9\n"
                    "2,1,1,4S,N,10\n2,2,2,3NT,S,9\n",
    "no-pairs": "Board,NS,EW,Contract,By,Tricks\n1,,,4S,N,10\n1,,,3NT,S,9\n",
}
EXTRA = {"russian": ",HCP", "teams": ",Room"}
METHODS = ["mp", "ximp", "butler", "total", "russian", "teams"]


def _sheet(tmp_path: Path, kind: str, method: str) -> Path:
    lines = UNSCORABLE[kind].splitlines()
    if method in EXTRA:  # the method's own column, filled in, so only the rows are bad
        value = {"russian": "22", "teams": "Open"}[method]
        lines = [lines[0] + EXTRA[method]] + [f"{line},{value}" for line in lines[1:]]
    path = tmp_path / f"{kind}_{method}.csv"
    path.write_text("\n".join(lines) + "\n", encoding="utf-8")
    return path


@pytest.mark.parametrize("method", METHODS)
@pytest.mark.parametrize("kind", sorted(UNSCORABLE))
def test_every_publisher_writes_a_result_with_no_scored_row(tmp_path: Path, kind: str,
                                                             method: str) -> None:
    path = _sheet(tmp_path, kind, method)
    result = process(path, method=method)
    assert result.travellers.empty or (method == "teams" and result.ranking.empty)
    assert not result.problems.empty
    book = write_workbook(result, tmp_path / "out.xlsx")
    sheets = openpyxl.load_workbook(book).sheetnames
    assert "Problems" in sheets and "Ranking" in sheets
    write_site(result, tmp_path / "site")
    assert (tmp_path / "site" / "index.html").exists()
    if method != "teams":  # (a teams match in PBN/USEBIO is a publishing issue of its own)
        write_pbn(result, tmp_path / "out.pbn")
        write_usebio(result, tmp_path / "out.xml")


@pytest.mark.parametrize("kind", sorted(UNSCORABLE))
def test_the_command_writes_the_workbook_and_exits_3(tmp_path: Path, kind: str) -> None:
    path = _sheet(tmp_path, kind, "mp")
    out = tmp_path / "results.xlsx"
    run = CliRunner().invoke(main, ["score", str(path), "-o", str(out),
                                    "--html", str(tmp_path / "site")])
    assert run.exit_code == 3, run.output
    book = openpyxl.load_workbook(out)
    assert "Problems" in book.sheetnames
    foot = [r[0] for r in book["Ranking"].iter_rows(values_only=True) if r[0]]
    assert foot[-2] == "Nothing could be scored: the Problems sheet says why."
    assert "wrote" in run.output and "error:" not in run.output
    page = (tmp_path / "site" / "index.html").read_text(encoding="utf-8")
    assert "No result could be scored from the travellers, so there is no ranking yet" in page


def test_the_batch_and_the_simultaneous_write_the_unscorable_files_workbook(tmp_path: Path
                                                                            ) -> None:
    import shutil

    from traveller import simultaneous
    from traveller.batch.run import run_batch

    samples = Path(__file__).resolve().parent.parent / "sample_data" / "sim"
    inbox = tmp_path / "inbox"
    shutil.copytree(samples, inbox)
    (inbox / "badclub.csv").write_text(UNSCORABLE["contracts"], encoding="utf-8")
    summary = run_batch(inbox, tmp_path / "batch")
    bad = next(f for f in summary.files if f.input == "badclub.csv")
    assert bad.status == "problems"
    assert "Problems" in openpyxl.load_workbook(tmp_path / "batch" / bad.output).sheetnames
    sim = simultaneous(inbox, output=tmp_path / "sim")
    assert "Problems" in openpyxl.load_workbook(
        tmp_path / "sim" / "clubs" / "badclub.xlsx").sheetnames
    assert len(sim.ranking) > 0  # the other clubs are ranked as ever
