"""traveller batch under stress: killed mid-write, two runs at once, a stale lock."""

from __future__ import annotations

import os
import shutil
import signal
import subprocess
import sys
import threading
import time
from pathlib import Path
from typing import Any

import pytest
from conftest import REPO, SAMPLE_DATA
from test_batch import age, correct, make_inbox, ranking_values, run, summary_of

from traveller import process, write_workbook
from traveller.batch.lock import OutdirLock
from traveller.batch.run import PAUSE_ENV, STATE_DIR

CORRECTED = ["clubA/club_session.csv", "clubA/problems_session.csv", "clubB/second.csv"]


def output_of(name: str) -> str:
    return name.rsplit(".", 1)[0] + "_results.xlsx"


def start_paused_run(inbox: Path, out: Path, after: int) -> subprocess.Popen[str]:
    """``python -m traveller batch`` that stops before renaming its ``after``-th workbook."""
    env = {**os.environ, PAUSE_ENV: f"{after}:60",
           "PYTHONPATH": os.pathsep.join([str(REPO), os.environ.get("PYTHONPATH", "")])}
    # one worker: the files before the paused one are finished and recorded when it pauses
    proc = subprocess.Popen([sys.executable, "-m", "traveller", "batch", str(inbox), "-o",
                             str(out), "--jobs", "1"], stdout=subprocess.DEVNULL,
                            stderr=subprocess.PIPE,
                            text=True, env=env)
    assert proc.stderr is not None
    seen = []
    for line in proc.stderr:
        if line.startswith(f"{PAUSE_ENV}: paused"):
            return proc
        seen.append(line)
    proc.wait()
    proc.stderr.close()
    raise AssertionError(f"the batch run ended without pausing (exit {proc.returncode}):\n"
                         + "".join(seen))


def table(books: dict[str, list[tuple[Any, ...]]]) -> dict[str, list[tuple[Any, ...]]]:
    """Each Ranking from its header row on: the batch's title lines add the correction
    period's status, which a workbook written outside the batch does not have."""
    return {name: rows[next(i for i, r in enumerate(rows) if "Place" in r):]
            for name, rows in books.items()}


@pytest.mark.slow  # kills real batch processes at many points of their writing
def test_killed_mid_write_leaves_old_or_new_and_next_run_completes(tmp_path: Path) -> None:
    inbox, out, ref = make_inbox(tmp_path), tmp_path / "out", tmp_path / "ref"
    (inbox / "clubB" / "club_session.xlsx").unlink()
    shutil.copy(SAMPLE_DATA / "club_session.csv", inbox / "clubB" / "second.csv")
    age(inbox)
    assert run(inbox, "-o", out)[0] == 3
    old = {name: ranking_values(out / output_of(name)) for name in CORRECTED}
    new = {}
    for name in CORRECTED:
        correct(inbox / name)
        new[name] = ranking_values(write_workbook(process(inbox / name), ref / output_of(name)))
        assert new[name][4:] != old[name][4:]

    proc = start_paused_run(inbox, out, after=2)
    try:
        # a second run while the first holds the lock: refused, clearly, exit 1
        code, stdout, err = run(inbox, "-o", out)
        assert code == 1 and stdout == ""
        assert "another traveller batch run is working on this folder (PID " \
               f"{proc.pid} on " in err and "use --wait SECONDS" in err
        proc.send_signal(signal.SIGKILL)
        assert proc.wait(timeout=30) == -signal.SIGKILL
    finally:
        if proc.poll() is None:
            proc.kill()
            proc.wait()
        if proc.stderr:
            proc.stderr.close()
    # killed while writing the second workbook: the first is new, the others old, none partial
    found = {name: ranking_values(out / output_of(name)) for name in CORRECTED}
    found, new, old = table(found), table(new), table(old)
    assert found == {CORRECTED[0]: new[CORRECTED[0]], CORRECTED[1]: old[CORRECTED[1]],
                     CORRECTED[2]: old[CORRECTED[2]]}
    assert [p.name for p in (out / "clubA").glob(".*.tmp")] != []
    assert (out / STATE_DIR / "lock").read_text() != ""  # the dead run's PID is still there

    code, stdout, err = run(inbox, "-o", out)
    assert code == 3, err
    assert f"took over the lock left by an interrupted run (PID {proc.pid} on " in err
    assert "no longer running" in err and "removed 1 temporary file" in err
    assert "recovered 1 file finished by an interrupted run" in err
    assert list(out.rglob("*.tmp")) == []
    assert table({name: ranking_values(out / output_of(name)) for name in CORRECTED}) == new
    statuses = {f["input"]: f["status"] for f in summary_of(out)["files"]}
    assert statuses == {"clubA/club_session.csv": "skipped",  # finished before the kill
                        "clubA/problems_session.csv": "problems", "clubB/second.csv": "done"}
    for name in CORRECTED:  # every correction reported, the killed run's one included
        report = (out / (name.rsplit(".", 1)[0] + "_changes.csv")).read_text(encoding="utf-8")
        assert "result,changed,,10,8,3,,,,tricks,6,9" in report
    assert (out / STATE_DIR / "lock").read_text() == ""
    assert run(inbox, "-o", out)[0] == 0


def test_wait_for_a_running_batch(tmp_path: Path) -> None:
    inbox, out = make_inbox(tmp_path), tmp_path / "out"
    (inbox / "clubA" / "problems_session.csv").unlink()
    (inbox / "clubB" / "club_session.xlsx").unlink()
    lock = OutdirLock(out / STATE_DIR / "lock")
    lock.acquire()
    release = threading.Timer(0.3, lock.release)
    try:
        clock = time.monotonic()
        code, _, err = run(inbox, "-o", out, "--wait", "0.4")
        assert code == 1 and time.monotonic() - clock >= 0.4
        assert f"(PID {os.getpid()} on " in err and "(waited 0.4 s)" in err
        assert not (out / "clubA").exists()
        release.start()
        code, _, err = run(inbox, "-o", out, "--wait", "30")
        assert code == 0, err
        assert "took over" not in err  # released cleanly: not a stale lock
    finally:
        release.cancel()
        if release.is_alive():
            release.join()
        lock.release()


def test_sigterm_stops_cleanly_and_records_what_was_finished(tmp_path: Path) -> None:
    inbox, out = make_inbox(tmp_path), tmp_path / "out"
    proc = start_paused_run(inbox, out, after=2)
    try:
        proc.send_signal(signal.SIGTERM)  # systemd stopping the service
        assert proc.wait(timeout=30) == 1
        assert proc.stderr is not None and "interrupted: every file finished so far is " \
            "recorded" in proc.stderr.read()
    finally:
        if proc.poll() is None:
            proc.kill()
            proc.wait()
        if proc.stderr:
            proc.stderr.close()
    assert list(out.rglob("*.tmp")) == [] and (out / STATE_DIR / "lock").read_text() == ""
    summary = summary_of(out)
    assert summary["interrupted"] is True and summary["exit_code"] == 1
    assert [f["input"] for f in summary["files"]] == ["clubA/club_session.csv"]
    code, stdout, err = run(inbox, "-o", out)
    assert code == 3 and "took over" not in err
    assert stdout.count("skipped  ") == 1
