"""``traveller score`` never writes over what it was given, nor two outputs on one path.

Every refusal is a usage error (exit 2) before anything is written, naming the option,
the path and what to do; the files given are byte for byte as they were.
"""

from __future__ import annotations

import shutil
from pathlib import Path

import pytest
from click.testing import CliRunner
from conftest import SAMPLE_DATA

from traveller.cli import main

GIVEN = ("club_session.csv", "club_session_hands.pbn", "names.csv", "vp_scale_24_boards.csv")


@pytest.fixture
def here(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    """A folder holding copies of the sample files, the current folder of the run."""
    for name in GIVEN:
        shutil.copy(SAMPLE_DATA / name, tmp_path / name)
    monkeypatch.chdir(tmp_path)
    return tmp_path


def run(*args: str) -> tuple[int, str]:
    result = CliRunner().invoke(main, ["score", *args, "-q"])
    return result.exit_code, result.stderr


def refused(here: Path, args: list[str], *said: str) -> str:
    """Run, and check the refusal: exit 2, ``said`` in the message, nothing written or
    changed in ``here``."""
    before = {p.name: p.read_bytes() for p in here.iterdir() if p.is_file()}
    code, stderr = run(*args)
    assert code == 2, stderr
    for text in said:
        assert text in stderr, stderr
    assert {p.name: p.read_bytes() for p in here.iterdir() if p.is_file()} == before
    assert not any(p.is_dir() for p in here.iterdir())  # (no site either)
    return stderr


@pytest.mark.parametrize(("args", "option", "what"), [
    # the tester's: XML written into the sheet, the hand record replaced by --pbn
    (["club_session.csv", "--usebio", "club_session.csv"], "--usebio", "the input sheet"),
    (["club_session.csv", "--pbn", "./club_session.csv"], "--pbn", "the input sheet"),
    (["club_session.csv", "--hands", "club_session_hands.pbn", "--pbn",
      "club_session_hands.pbn"], "--pbn", "the --hands file"),
    (["club_session.csv", "--names", "names.csv", "--usebio", "names.csv"], "--usebio",
     "the --names file"),
    (["club_session.csv", "--carry-over", "names.csv", "--pbn", "names.csv"], "--pbn",
     "the --carry-over file"),
    (["club_session.csv", "--session", "names.csv", "--usebio", "names.csv"], "--usebio",
     "the --session file"),
    (["club_session.csv", "--method", "teams", "--vp-scale", "vp_scale_24_boards.csv",
      "--pbn", "vp_scale_24_boards.csv"], "--pbn", "the --vp-scale file"),
    (["club_session.csv", "--names", "names.csv", "-o", "names.csv"], "-o",
     "the --names file"),
])
def test_an_output_over_an_input_is_refused_naming_the_option(
        here: Path, args: list[str], option: str, what: str) -> None:
    stderr = refused(here, args, f"{option} ", what, "overwrite the input",
                     f"give another name with {option}")
    assert "club_session" in stderr or "names.csv" in stderr or "vp_scale" in stderr


def test_an_input_given_by_another_path_is_still_refused(here: Path) -> None:
    # absolute against relative, and a link to the sheet
    (here / "link.pbn").symlink_to(here / "club_session.csv")
    refused(here, ["club_session.csv", "--pbn", str(here / "link.pbn")], "--pbn",
            "the input sheet", "overwrite the input")
    refused(here, [str(here / "club_session.csv"), "--usebio", "../" + here.name +
                   "/club_session.csv"], "--usebio", "overwrite the input")


def test_the_points_scale_file_is_an_input(here: Path) -> None:
    (here / "club.toml").write_text("# a club's scale\n")
    refused(here, ["club_session.csv", "--points", "club.toml:weight=1.5", "--pbn",
                   "club.toml"], "--pbn club.toml", "the --points scale file",
            "overwrite the input")


def test_the_default_workbook_over_an_input_is_refused(here: Path) -> None:
    shutil.copy(here / "names.csv", here / "club_session_results.xlsx")
    refused(here, ["club_session.csv", "--names", "club_session_results.xlsx"],
            "the workbook (by default", "club_session_results.xlsx", "overwrite the input",
            "give another name with -o")


def test_the_directors_page_over_an_input_is_refused(here: Path) -> None:
    shutil.copy(here / "names.csv", here / "r.director.html")
    refused(here, ["club_session.csv", "-o", "r.xlsx", "--html", "site", "--names",
                   "r.director.html"], "the director's page", "overwrite the input", "-o")


def test_a_side_csv_name_of_the_workbook_is_refused_as_an_input(here: Path) -> None:
    # a sheet too long for the workbook goes to r.travellers.csv beside it
    shutil.copy(here / "club_session.csv", here / "r.travellers.csv")
    refused(here, ["r.travellers.csv", "-o", "r.xlsx"], "r.travellers.csv",
            "NAME.SHEET.csv", "overwrite the input", "-o")


def test_a_site_folder_holding_an_input_is_refused(here: Path) -> None:
    # the site replaces its folder as a whole: an input inside it would go
    site = here / "site"
    site.mkdir()
    (site / ".traveller-site").write_text("written by traveller\n")  # (an old site)
    shutil.copy(here / "club_session.csv", site / "club_session.csv")
    before = (site / "club_session.csv").read_bytes()
    code, stderr = run("site/club_session.csv", "-o", "r.xlsx", "--html", "site")
    assert code == 2 and "--html site holds the input sheet" in stderr, stderr
    assert "give --html a new or empty folder" in stderr
    assert (site / "club_session.csv").read_bytes() == before
    assert not (here / "r.xlsx").exists()
    code, stderr = run("club_session.csv", "-o", "r.xlsx", "--html", ".")
    assert code == 2 and "--html . holds the input sheet" in stderr, stderr


@pytest.mark.parametrize(("outputs", "said"), [
    (["-o", "r.xlsx", "--pbn", "r.pbn", "--usebio", "r.pbn"], "(--pbn and --usebio)"),
    (["-o", "r.xlsx", "--html", "r.xlsx"], "(-o and --html)"),
    (["-o", "r.xlsx", "--html", "./r.xlsx"], "(-o and --html)"),
])
def test_two_outputs_on_one_path_name_both_options(here: Path, outputs: list[str],
                                                   said: str) -> None:
    refused(here, ["club_session.csv", *outputs], "given for two outputs of this run", said,
            "give each its own name")


@pytest.mark.parametrize("option", ["-o", "--pbn", "--usebio"])
def test_an_output_inside_the_site_folder_is_refused(here: Path, option: str) -> None:
    name = {"-o": "r.xlsx", "--pbn": "r.pbn", "--usebio": "r.xml"}[option]
    args = ["club_session.csv", "--html", "site", option, f"site/{name}"]
    refused(here, args if option == "-o" else [*args, "-o", "r.xlsx"],
            f"{option} site/{name} is inside the --html folder site", "outside the folder")


@pytest.mark.parametrize(("option", "name", "expected"), [
    ("--usebio", "x.csv", ".xml"), ("--usebio", "x.xlsx", ".xml"), ("--usebio", "x.pbn", ".xml"),
    ("--pbn", "x.xls", ".pbn"), ("--pbn", "x.ods", ".pbn"), ("--pbn", "x.txt", ".pbn"),
    ("--pbn", "x", ".pbn"), ("--usebio", "x.tsv", ".xml"),
])
def test_pbn_and_usebio_take_their_own_extension(here: Path, option: str, name: str,
                                                 expected: str) -> None:
    refused(here, ["club_session.csv", "-o", "r.xlsx", option, name], f"{option} {name}",
            f"give a name ending in {expected}")


def test_every_output_of_its_own_kind_is_written_and_inputs_kept(here: Path) -> None:
    before = {n: (here / n).read_bytes() for n in GIVEN}
    result = CliRunner().invoke(main, [
        "score", "club_session.csv", "--hands", "club_session_hands.pbn", "--names",
        "names.csv", "-o", "out/r.xlsx", "--html", "site", "--pbn", "R.PBN", "--usebio",
        "r.XML", "--no-dd", "-q"])
    assert result.exit_code in (0, 3), result.output
    assert (here / "out" / "r.xlsx").exists() and (here / "site").is_dir()
    assert (here / "R.PBN").exists() and (here / "r.XML").exists()
    assert {n: (here / n).read_bytes() for n in GIVEN} == before
