"""A hostile inbox or state folder (issue 10): colliding names, planted links, odd names,
a damaged manifest. Each is handled or refused in one line, and the night's batch goes on."""

from __future__ import annotations

import os
import shutil
from pathlib import Path

import pytest
from conftest import SAMPLE_DATA
from test_batch import age, run, statuses, summary_of

from traveller.batch.run import LOG_NAME, STATE_DIR, SUMMARY_NAME

CSV = SAMPLE_DATA / "club_session.csv"


def _inbox(tmp_path: Path, *names: str) -> Path:
    inbox = tmp_path / "inbox"
    inbox.mkdir()
    for name in names:
        shutil.copy(CSV, inbox / name)
    age(inbox)
    return inbox


def test_inputs_whose_outputs_would_collide_get_distinct_names(tmp_path: Path) -> None:
    """tue.csv, tue.txt and tue_csv.txt; a.CSV and a.csv: one workbook each, every time."""
    inbox = _inbox(tmp_path, "tue.csv", "tue.txt", "tue_csv.txt", "a.CSV", "a.csv")
    out = tmp_path / "out"
    run(inbox, "-o", out)
    outputs = {f["input"]: f["output"] for f in summary_of(out)["files"]}
    assert len(outputs) == 5
    assert len({o.casefold() for o in outputs.values()}) == 5, outputs
    assert all((out / o).exists() for o in outputs.values())
    run(inbox, "-o", out)
    assert set(statuses(out).values()) == {"skipped"}
    assert {f["input"]: f["output"] for f in summary_of(out)["files"]} == outputs


@pytest.mark.parametrize("state", ["lock", "manifest.json", "journal.jsonl"])
def test_a_planted_link_in_the_state_folder_is_refused(tmp_path: Path, state: str) -> None:
    inbox = _inbox(tmp_path, "mon.csv")
    out = tmp_path / "out"
    victim = tmp_path / "victim.txt"
    victim.write_text("precious\n")
    (out / STATE_DIR).mkdir(parents=True)
    os.symlink(victim, out / STATE_DIR / state)
    code, _, err = run(inbox, "-o", out)
    assert victim.read_text() == "precious\n"
    assert code == 1 and "symbolic link" in err, err
    assert len(err.strip().splitlines()) == 1


def test_a_planted_link_at_the_summary_is_refused(tmp_path: Path) -> None:
    inbox = _inbox(tmp_path, "mon.csv")
    out = tmp_path / "out"
    out.mkdir()
    victim = tmp_path / "victim.txt"
    victim.write_text("precious\n")
    os.symlink(victim, out / SUMMARY_NAME)
    code, _, err = run(inbox, "-o", out)
    assert victim.read_text() == "precious\n"
    assert code == 1 and "symbolic link" in err


def test_a_file_name_that_is_not_utf8_is_processed_once(tmp_path: Path) -> None:
    inbox = _inbox(tmp_path, "mon.csv")
    odd = os.fsencode(inbox) + b"/caf\xe9.csv"
    shutil.copy(CSV, odd)
    age(inbox)
    out = tmp_path / "out"
    code, _, err = run(inbox, "-o", out)
    assert code == 0, err
    assert sorted(statuses(out).values()) == ["done", "done"]
    run(inbox, "-o", out)
    assert set(statuses(out).values()) == {"skipped"}


@pytest.mark.parametrize("line", ['{"input": "mon.csv", "entry": 5}', '[1, 2]', '"text"',
                                  '{"input": 7, "entry": {}}', "{broken"])
def test_a_malformed_journal_line_is_skipped(tmp_path: Path, line: str) -> None:
    inbox = _inbox(tmp_path, "mon.csv")
    out = tmp_path / "out"
    (out / STATE_DIR).mkdir(parents=True)
    (out / STATE_DIR / "journal.jsonl").write_text(line + "\n")
    code, _, err = run(inbox, "-o", out)
    assert code == 0, err
    assert statuses(out) == {"mon.csv": "done"}


@pytest.mark.parametrize("text", ['{"entries": [1]}', '{"entries": {"mon.csv": 3}}', "[]"])
def test_a_malformed_manifest_is_a_note_not_a_crash(tmp_path: Path, text: str) -> None:
    inbox = _inbox(tmp_path, "mon.csv")
    out = tmp_path / "out"
    (out / STATE_DIR).mkdir(parents=True)
    (out / STATE_DIR / "manifest.json").write_text(text)
    code, _, err = run(inbox, "-o", out)
    assert code == 0, err
    assert statuses(out) == {"mon.csv": "done"}


def test_the_changes_report_csv_holds_no_formula() -> None:
    """Names and results from the input reach the change report: they must stay text."""
    from traveller.batch.changes import Changes, report_csv

    changes = Changes(pairs=[{"change": "changed", "pair": 3, "line": "NS",
                              "fields": {"names": ("Smith", '=HYPERLINK("http://x","y")'),
                                         "place": ("@SUM(A1)", "+SUM(A1)")}}])
    cells = [c for line in report_csv(changes).splitlines()[1:] for c in line.split(",")]
    assert not [c for c in cells if c.lstrip('"').startswith(("=", "@", "+"))], cells
    assert "'=HYPERLINK" in report_csv(changes)


def test_an_output_that_would_overwrite_an_input_is_refused(tmp_path: Path) -> None:
    """INBOX inside OUTDIR: INBOX/in/a.csv publishes to OUTDIR/in/a_results.xlsx, which is
    the input INBOX/a_results.xlsx. That job fails; the input is untouched."""
    out = tmp_path / "out"
    inbox = out / "in"
    (inbox / "in").mkdir(parents=True)
    shutil.copy(CSV, inbox / "in" / "a.csv")
    victim = inbox / "a_results.xlsx"
    shutil.copy(SAMPLE_DATA / "club_session.xlsx", victim)
    before = victim.read_bytes()
    age(inbox)
    code, _, _ = run(inbox, "-o", out)
    assert victim.read_bytes() == before
    assert code == 1 and statuses(out)["in/a.csv"] == "failed"


def test_a_planted_link_at_the_log_is_refused(tmp_path: Path) -> None:
    inbox, out = _inbox(tmp_path, "mon.csv"), tmp_path / "out"
    out.mkdir()
    victim = tmp_path / "victim.txt"
    victim.write_text("precious", encoding="utf-8")
    os.symlink(victim, out / LOG_NAME)
    code, _, err = run(inbox, "-o", out)
    assert code == 1 and "symbolic link" in err
    assert victim.read_text(encoding="utf-8") == "precious"
