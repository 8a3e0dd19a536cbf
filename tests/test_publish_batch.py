"""The batch's publications: sites, the index of sessions, the correction period."""

from __future__ import annotations

import json
import re
import shutil
from datetime import datetime, timedelta
from pathlib import Path

import pytest
from conftest import SAMPLE_DATA

from traveller.batch import publishing
from traveller.batch.run import STATE_DIR, BatchOptions, run_batch
from traveller.batch.settings import SettingsError, SettingsTree

#: The evening of the sessions (friday.xlsx is titled "..., 3 November 2026": a run weeks
#: later would publish it as final at once).
START = datetime(2026, 11, 3, 21, 40).astimezone()


@pytest.fixture
def clock(monkeypatch: pytest.MonkeyPatch) -> list[datetime]:
    """The batch's clock, set by the test (``clock[0] = ...``)."""
    now = [START]
    monkeypatch.setattr(publishing, "now_local", lambda: now[0])
    return now


def inbox(tmp_path: Path, toml: str = "") -> Path:
    folder = tmp_path / "in" / "riverside"
    folder.mkdir(parents=True)
    shutil.copy(SAMPLE_DATA / "club_session.csv", folder / "tuesday.csv")
    shutil.copy(SAMPLE_DATA / "club_session.xlsx", folder / "friday.xlsx")
    (folder / "traveller.toml").write_text(toml, encoding="utf-8")
    return tmp_path / "in"


def entries(out: Path) -> dict[str, dict[str, object]]:
    data = json.loads((out / STATE_DIR / "manifest.json").read_text(encoding="utf-8"))
    return data["entries"]


def page(out: Path, name: str) -> str:
    return (out / "riverside" / name / "index.html").read_text(encoding="utf-8")


def test_html_sites_and_the_index_newest_first(tmp_path: Path, clock: list[datetime]) -> None:
    source = inbox(tmp_path, 'html = true\nclub = "Riverside BC"\ndate = "2026-11-03"\n')
    (source / "riverside" / "late").mkdir()
    shutil.copy(SAMPLE_DATA / "club_session.csv", source / "riverside" / "late" / "nov10.csv")
    (source / "riverside" / "late" / "traveller.toml").write_text('date = "2026-11-10"\n')
    out = tmp_path / "out"
    summary = run_batch(source, out)
    assert summary.exit_code == 0
    index = (out / "index.html").read_text(encoding="utf-8")
    hrefs = [part.split('"')[0] for part in index.split('href="')[1:]]
    assert hrefs[0] == "riverside/late/nov10_results/index.html"  # 2026-11-10 first
    assert set(hrefs) == {"riverside/late/nov10_results/index.html",
                          "riverside/tuesday_results/index.html",
                          "riverside/friday_results/index.html"}
    until = (START + timedelta(minutes=30)).strftime("%H:%M")
    assert f"Provisional results — corrections until {until}" in page(out, "tuesday_results")
    assert "Riverside BC · 2026-11-03" in page(out, "friday_results")
    assert "<script" not in index


def test_after_the_deadline_the_same_session_is_republished_final(
        tmp_path: Path, clock: list[datetime]) -> None:
    source, out = inbox(tmp_path, "html = true\ncorrection_minutes = 20\n"), tmp_path / "out"
    run_batch(source, out)
    before = entries(out)["riverside/tuesday.csv"]
    assert before["final"] is False
    clock[0] = START + timedelta(minutes=19)
    assert {f.status for f in run_batch(source, out).files} == {"skipped"}
    clock[0] = START + timedelta(minutes=21)
    again = run_batch(source, out)
    assert {f.reason for f in again.files} == {"correction period over: final results"}
    assert all(f.changes is None for f in again.files)  # nothing else changed
    after = entries(out)["riverside/tuesday.csv"]
    assert after["final"] is True and after["finalised"] == clock[0].isoformat()
    assert after["deadline"] == before["deadline"] and after["sha256"] == before["sha256"]
    assert "Final results" in page(out, "tuesday_results")
    assert "Provisional" not in page(out, "tuesday_results")
    assert not list(out.rglob("*_changes.*"))
    assert {f.status for f in run_batch(source, out).files} == {"skipped"}


def test_zero_minutes_is_final_at_once(tmp_path: Path, clock: list[datetime]) -> None:
    source, out = inbox(tmp_path, "html = true\ncorrection_minutes = 0\n"), tmp_path / "out"
    run_batch(source, out)
    assert all(e["final"] is True for e in entries(out).values())
    assert "Final results" in page(out, "tuesday_results")


def test_a_late_correction_is_processed_and_says_so(tmp_path: Path,
                                                    clock: list[datetime]) -> None:
    source, out = inbox(tmp_path), tmp_path / "out"
    run_batch(source, out)
    clock[0] = START + timedelta(minutes=45)
    run_batch(source, out)  # final now
    session = source / "riverside" / "tuesday.csv"
    lines = session.read_text(encoding="utf-8").splitlines()
    lines[1] = lines[1].replace(",9", ",10") if lines[1].endswith(",9") else lines[1][:-1] + "8"
    session.write_text("\n".join(lines) + "\n", encoding="utf-8")
    summary = run_batch(source, out)
    done = next(f for f in summary.files if f.input == "riverside/tuesday.csv")
    assert done.status == "done" and done.changes is not None
    report = (out / "riverside" / "tuesday_changes.txt").read_text(encoding="utf-8")
    assert "came after the correction period" in report
    assert entries(out)["riverside/tuesday.csv"]["final"] is True


@pytest.mark.parametrize(("toml", "message"), [
    ('html = "yes"', "html must be true or false"),
    ("correction_minutes = -5", "correction_minutes must be a whole number"),
    ("title = 3", "title must be a non-empty text"),
    ('start = "7pm"', "start must be the time the sessions start")])
def test_publication_keys_are_checked(tmp_path: Path, toml: str, message: str) -> None:
    (tmp_path / "traveller.toml").write_text(toml + "\n", encoding="utf-8")
    with pytest.raises(SettingsError, match=message):
        SettingsTree(tmp_path).for_folder(tmp_path)


def test_a_title_change_republishes(tmp_path: Path, clock: list[datetime]) -> None:
    source, out = inbox(tmp_path), tmp_path / "out"
    run_batch(source, out)
    run_batch(source, out, BatchOptions(overrides={"title": "Club night"}))
    assert entries(out)["riverside/tuesday.csv"]["title"] == "Club night"


def test_batch_html_flag_on_the_command_line(tmp_path: Path, clock: list[datetime]) -> None:
    from click.testing import CliRunner

    from traveller.cli import main

    source, out = inbox(tmp_path), tmp_path / "out"
    result = CliRunner().invoke(main, ["batch", str(source), "-o", str(out), "--html"])
    assert result.exit_code == 0, result.output
    assert (out / "index.html").exists()
    assert (out / "riverside/friday_results/board-1.html").exists()
    assert entries(out)["riverside/friday.xlsx"]["site"] == "riverside/friday_results"


def test_a_session_dated_weeks_ago_is_final_at_once(tmp_path: Path,
                                                   clock: list[datetime]) -> None:
    source = inbox(tmp_path, 'date = "2026-11-03"\nstart = "19:30"\nclub = "Riverside BC"\n')
    out = tmp_path / "out"
    clock[0] = START + timedelta(days=28)  # scored on 1 December
    run_batch(source, out)
    assert all(e["final"] is True for e in entries(out).values())
    clock[0] = START  # the same evening (a fresh output): provisional
    run_batch(source, tmp_path / "out2")
    manifest = json.loads((tmp_path / "out2" / STATE_DIR / "manifest.json").read_text(
        encoding="utf-8"))["entries"]
    assert all(e["final"] is False for e in manifest.values())


def test_the_index_by_folder_with_dates_from_titles_and_failed_files(
        tmp_path: Path, clock: list[datetime]) -> None:
    source = inbox(tmp_path, "html = true\n")
    other = source / "hillside"
    other.mkdir()
    shutil.copy(SAMPLE_DATA / "club_session.csv", other / "monday.csv")
    (other / "traveller.toml").write_text("html = true\n", encoding="utf-8")
    (other / "broken.csv").write_text("Board,NS\n\x00\x01,\n", encoding="utf-8")
    out = tmp_path / "out"
    summary = run_batch(source, out)
    assert any(f.status == "failed" for f in summary.files)
    index = (out / "index.html").read_text(encoding="utf-8")
    assert "<th scope=\"col\">Folder</th>" in index
    assert "<td>hillside</td>" in index and index.count("<td>riverside</td>") == 2
    # no date in the settings: the workbook's title row says "…, 3 November 2026"
    assert re.search(r'friday_results/index.html">[^<]*3 November 2026</a></td><td>riverside'
                     r'</td><td class="date">2026-11-03</td>', index)
    assert "<h2>Not published</h2>" in index and "<li>hillside/broken.csv: " in index
    assert str(tmp_path) not in index  # no local path on a public page
    directors = sorted(p.relative_to(out).as_posix() for p in out.rglob("*.director.html"))
    assert directors == ["hillside/monday_results.director.html",
                         "riverside/friday_results.director.html",
                         "riverside/tuesday_results.director.html"]  # beside the workbooks
