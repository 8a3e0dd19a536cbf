"""traveller batch --jobs: worker processes change nothing but the speed; one file fails alone."""

from __future__ import annotations

import json
import os
import re
import shutil
import subprocess
import sys
import time
from pathlib import Path
from typing import Any

import openpyxl
import pytest
from click.testing import CliRunner
from conftest import SAMPLE_DATA

from traveller.batch import publishing
from traveller.batch.run import LOG_NAME, PAUSE_ENV, STATE_DIR, SUMMARY_NAME
from traveller.batch.task import Task
from traveller.batch.worker import Pool
from traveller.cli import main

FILES = ["club_session.csv", "problems_session.csv", "club_session.xlsx", "club_session_pl.csv",
         "club_session_ru.csv", "board8_protocol.csv"]


def make_inbox(tmp_path: Path) -> Path:
    """Two clubs, six sessions (one with problems), and a file that is no traveller at all."""
    inbox = tmp_path / "inbox"
    for i, name in enumerate(FILES):
        folder = inbox / f"club{i % 2}"
        folder.mkdir(parents=True, exist_ok=True)
        shutil.copy(SAMPLE_DATA / name, folder / name)
    (inbox / "club1" / "broken.csv").write_text("x,y\n1,2\n", encoding="utf-8")
    when = time.time() - 3600
    for path in inbox.rglob("*"):
        os.utime(path, (when, when))
    return inbox


def run(*args: str | Path) -> tuple[int, str]:
    result = CliRunner().invoke(main, ["batch", *map(str, args)])
    if result.exception and not isinstance(result.exception, SystemExit):
        raise result.exception
    return result.exit_code, result.stdout


def ranking(path: Path) -> list[tuple[Any, ...]]:
    book = openpyxl.load_workbook(path)
    try:
        return [tuple(r) for r in book["Ranking"].iter_rows(values_only=True)]
    finally:
        book.close()


def state(out: Path) -> dict[str, Any]:
    """Everything a run leaves that does not depend on the clock or the process."""
    summary = json.loads((out / SUMMARY_NAME).read_text(encoding="utf-8"))
    files = [{k: v for k, v in f.items() if k != "seconds"} for f in summary["files"]]
    manifest = {}
    for line in (out / STATE_DIR).rglob("*"):
        if line.is_file() and line.suffix in (".json", ".jsonl") and "lock" not in line.name:
            manifest[line.relative_to(out).as_posix()] = _without_times(line)
    log = [line.split("] ", 1)[1] for line in
           (out / LOG_NAME).read_text(encoding="utf-8").splitlines()
           if "] " in line and not line.split("] ", 1)[1].startswith(("start:", "end:"))]
    # each Ranking from its method line on: the status line under it names the deadline
    books = {p.relative_to(out).as_posix(): [r for r in ranking(p)
                                             if not str(r[0]).startswith("Provisional")]
             for p in sorted(out.rglob("*.xlsx"))}
    return {"files": files, "exit": summary.get("exit_code"), "manifest": manifest,
            "log": [_strip_seconds(line) for line in log], "books": books}


def _without_times(path: Path) -> Any:
    text = path.read_text(encoding="utf-8")
    try:
        data = json.loads(text)
    except json.JSONDecodeError:
        data = [json.loads(line) for line in text.splitlines() if line.strip()]
    return _drop(data, {"published", "updated", "saved", "seconds", "written", "started",
                        "finished", "first_published", "deadline", "finalised"})


def _drop(data: Any, keys: set[str]) -> Any:
    if isinstance(data, dict):
        return {k: _drop(v, keys) for k, v in data.items() if k not in keys}
    if isinstance(data, list):
        return [_drop(v, keys) for v in data]
    return data


def _strip_seconds(line: str) -> str:
    return re.sub(r"\d+(?:\.\d+)? s\)", "s)", line)


@pytest.mark.slow  # two whole batch runs (about 6 s): in .ci/run's slow part
def test_jobs_1_and_jobs_2_leave_the_same_results_manifest_and_order(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    # one clock for both runs: a provisional session's status names its deadline to the
    # minute, so two runs either side of a minute's turn would keep different snapshots
    now = publishing.now_local()
    monkeypatch.setattr(publishing, "now_local", lambda: now)
    inbox = make_inbox(tmp_path)
    one, two = tmp_path / "one", tmp_path / "two"
    code1, out1 = run(inbox, "-o", one, "--jobs", "1")
    code2, out2 = run(inbox, "-o", two, "--jobs", "2")
    assert code1 == code2 == 1  # broken.csv failed; every other file published
    assert [_strip_seconds(line) for line in out1.splitlines()[:-1]] == \
        [_strip_seconds(line) for line in out2.splitlines()[:-1]]  # the last: run's time
    first, second = state(one), state(two)
    assert first == second
    statuses = [f["status"] for f in first["files"]]
    assert statuses.count("failed") == 1 and len(statuses) == len(FILES) + 1
    assert len(first["books"]) == len(FILES) + 1  # broken.csv's: its Problems sheet says why
    [listed] = [rows for name, rows in first["books"].items() if "broken" in name]
    assert any("Nothing could be scored" in str(r[0]) for r in listed)


@pytest.mark.slow  # a worker left to run past its time limit
def test_a_file_over_its_time_limit_fails_alone(tmp_path: Path) -> None:
    inbox = make_inbox(tmp_path)
    out = tmp_path / "out"
    os.environ[PAUSE_ENV] = "2:60"  # the second workbook hangs before it is renamed
    try:
        code, _ = run(inbox, "-o", out, "--jobs", "2", "--file-timeout", "8")
    finally:
        del os.environ[PAUSE_ENV]
    files = json.loads((out / SUMMARY_NAME).read_text(encoding="utf-8"))["files"]
    failed = [f for f in files if f["status"] == "failed"]
    assert code == 1
    assert sorted(f["code"] for f in failed) == ["timeout", "unreadable"]
    timed_out = next(f for f in failed if f["code"] == "timeout")
    assert "per-file limit of 8 s" in timed_out["error"]
    assert not (out / timed_out["output"]).exists()
    assert list(out.rglob("*.tmp")) == []  # the stopped worker's temporary file removed
    done = [f for f in files if f["status"] in ("done", "problems")]
    assert len(done) == len(FILES) - 1  # the batch went on
    # the next run does the file that timed out, and only it
    code, _ = run(inbox, "-o", out)
    again = json.loads((out / SUMMARY_NAME).read_text(encoding="utf-8"))["files"]
    redone = [f["input"] for f in again if f["status"] in ("done", "problems")]
    assert redone == [timed_out["input"]]


@pytest.mark.slow  # a worker grows until its limit stops it: seconds of real allocation
def test_a_file_over_its_memory_limit_fails_alone(tmp_path: Path) -> None:
    inbox = make_inbox(tmp_path)
    big = inbox / "club0" / "huge.csv"  # 600,000 results: far more than 400 MiB to score
    big.write_text("Board,NS,EW,Contract,By,Tricks\n" + "".join(
        f"{b % 30 + 1},{t},{t},4S,N,10\n" for b in range(30000) for t in range(1, 21)),
        encoding="utf-8")
    when = time.time() - 3600
    os.utime(big, (when, when))
    # the limit is the address space of a worker: what a fresh process has mapped once it
    # has imported what a worker imports and scored a small file (not this test process,
    # whose earlier tests may have mapped much more), and 400 MiB for the file
    loaded = int(subprocess.run(
        [sys.executable, "-c", "import traveller.batch.worker as w, importlib; "
         "[importlib.import_module(m) for m in w.PRELOAD]; import traveller; "
         f"traveller.process({str(SAMPLE_DATA / 'club_session.csv')!r}).to_excel("
         f"{str(tmp_path / 'warm.xlsx')!r}); "
         "print(open('/proc/self/status').read().split('VmSize:')[1].split()[0])"],
        capture_output=True, text=True, check=True).stdout) // 1024
    code, _ = run(inbox, "-o", out := tmp_path / "out", "--jobs", "1",
                  "--file-memory", str(loaded + 400))
    files = {f["input"]: f for f in
             json.loads((out / SUMMARY_NAME).read_text(encoding="utf-8"))["files"]}
    assert code == 1 and len(files) == len(FILES) + 2
    assert files["club0/huge.csv"]["code"] == "memory"
    assert "per-file limit" in files["club0/huge.csv"]["error"]
    failed = {name for name, f in files.items() if f["status"] == "failed"}
    assert failed == {"club0/huge.csv", "club1/broken.csv"}  # the others scored, after it too


def test_a_worker_killed_while_it_waits_is_replaced_and_no_file_is_lost(tmp_path: Path) -> None:
    tasks = [Task(SAMPLE_DATA / "club_session.csv", {}, tmp_path / f"{i}.xlsx", i + 1)
             for i in range(3)]
    pool = Pool(1)
    outcomes = pool.run(tasks)
    first = next(outcomes)
    idle = pool.workers[0]
    idle.proc.kill()  # between two files: the next one is sent to a dead worker
    idle.proc.join()
    rest = list(outcomes)
    assert [o.get("failed") for o in [first, *rest]] == [None] * 3
    assert [o["results"] for o in rest] == [first["results"]] * 2
    assert sorted(p.name for p in tmp_path.glob("*.xlsx")) == ["0.xlsx", "1.xlsx", "2.xlsx"]


def test_a_program_read_from_standard_input_is_told_why_it_has_no_workers(
        tmp_path: Path) -> None:
    inbox = make_inbox(tmp_path)
    program = f"""
from pathlib import Path
from traveller.batch.run import BatchUsageError, run_batch
from traveller.batch.task import Task
from traveller.batch.worker import Pool
try:
    run_batch(Path({str(inbox)!r}), Path({str(tmp_path / 'out')!r}))
except BatchUsageError as exc:
    print("usage:", exc)
# the pool itself, asked anyway: every file fails as crashed, and nothing raises
tasks = [Task(p, {{}}, Path({str(tmp_path)!r}) / (p.stem + ".xlsx"), 1)
         for p in sorted(Path({str(inbox)!r}).rglob("*.csv"))]
print("codes:", sorted({{o["failed"]["code"] for o in Pool(2).run(tasks)}}), len(tasks))
"""
    done = subprocess.run([sys.executable, "-"], input=program, capture_output=True,
                          text=True, timeout=120, cwd=tmp_path)
    assert done.returncode == 0, done.stderr
    usage, codes = done.stdout.splitlines()
    assert usage.startswith("usage: worker processes cannot start from a program read from "
                            "standard input (<stdin>)") and "Save the program to a file" in usage
    assert codes == "codes: ['crashed'] 6"
    assert not (tmp_path / "out").exists()  # refused before any work
    assert list(tmp_path.glob("*.xlsx")) == []
