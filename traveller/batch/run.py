"""Scheduled batch runs: every traveller file under INBOX -> its workbook under OUTDIR.

:func:`run_batch` is the whole job; ``traveller batch`` (batch_cli.py) is its
command line. A run takes the output folder's lock, lists the inputs with
their folder's settings, skips those the manifest shows up to date, and for
each other file: scores it, writes the workbook to a temporary file and
renames it into place, writes a corrections report when it replaces a
published one, keeps a snapshot for the next correction, and records the file
in the manifest's journal. Files are scored in ``--jobs`` worker processes
(worker.py; a file's own work is task.py), each with a time and memory
limit: one file's failure, crash or runaway is that file's outcome; the
others go on. Outcomes, the log and the
manifest follow the order of the files whatever the number of jobs.
See docs/batch.md.

Test hook (for the test suite only): ``TRAVELLER_BATCH_TEST_PAUSE`` pauses a
run before it renames a workbook into place; see batch_files.py.
"""

from __future__ import annotations

import hashlib
import os
import time
from collections.abc import Callable, Iterator
from dataclasses import dataclass, field, replace
from pathlib import Path
from typing import IO, Any

from traveller.batch import publishing
from traveller.batch.files import PAUSE_ENV, clean_temps, free_name, move_file
from traveller.batch.lock import OutdirLock, stale_note
from traveller.batch.manifest import Manifest, now_iso, open_nofollow
from traveller.batch.plan import Job, find_jobs, stable_mtime, unchanged
from traveller.batch.publishing import due, late_note, refresh_index
from traveller.batch.seasons import update_seasons, warm_store
from traveller.batch.settings import SettingsTree
from traveller.batch.summary import Outcome, RunSummary, describe, write_summary
from traveller.batch.task import Task, failure, score_file
from traveller.batch.worker import Pool, default_jobs, start_problem
from traveller.errors import TravellerError
from traveller.read.paths import STATE_DIR
from traveller.words import plural

LOG_NAME = "traveller-batch.log"
SUMMARY_NAME = "traveller-batch-summary.json"
__all__ = ["PAUSE_ENV", "BatchOptions", "BatchUsageError", "run_batch"]


class BatchUsageError(TravellerError):
    """INBOX, OUTDIR or --move-done cannot be used as given."""


@dataclass
class BatchOptions:
    """How to run: command-line settings, dry run, where done inputs go, lock wait."""

    overrides: dict[str, Any] = field(default_factory=dict)
    dry_run: bool = False
    move_done: Path | None = None
    wait: float = 0.0
    debug: bool = False
    jobs: int = 0  # worker processes; 0: one per core
    file_timeout: float = 600.0  # seconds per file; 0: no limit
    file_memory: int = 8192  # MiB per worker; 0: no limit


@dataclass
class _Run:
    inbox: Path
    outdir: Path
    options: BatchOptions
    version: str
    manifest: Manifest
    log: IO[str] | None = None
    published: int = 0
    #: The results store's rows of each session scored in this run, made by the workers.
    fresh: dict[str, dict[str, Any]] = field(default_factory=dict)

    def log_line(self, text: str, flush: bool = True) -> None:
        if self.log is not None:
            self.log.write(f"{now_iso()} [{os.getpid()}] {_one_line(text)}\n")
            if flush:
                self.log.flush()


def _check_paths(inbox: Path, outdir: Path, move_done: Path | None) -> tuple[Path, Path, set[Path]]:
    """Resolved INBOX and OUTDIR, and the folders under INBOX not to list."""
    inbox, outdir = inbox.resolve(), outdir.resolve()
    if not inbox.is_dir():
        raise BatchUsageError(f"{inbox}: INBOX is not a folder")
    if outdir == inbox:
        raise BatchUsageError(f"{outdir}: OUTDIR must not be INBOX (the workbooks would be "
                              "read as travellers); choose another -o folder")
    if move_done is not None and move_done in (inbox, outdir):
        raise BatchUsageError(f"{move_done}: --move-done must be a folder of its own, "
                              "not INBOX or OUTDIR")
    return inbox, outdir, {outdir} if move_done is None else {outdir, move_done}


def run_batch(inbox: Path, outdir: Path, options: BatchOptions | None = None,
              on_file: Callable[[Outcome], None] | None = None,
              on_start: Callable[[int, list[str]], None] | None = None) -> RunSummary:
    """Process every traveller file under ``inbox`` into ``outdir``; the run summary.

    ``on_start(number of files, notes)`` and ``on_file(outcome)`` are called as
    the run goes (the command line prints from them). Raises
    :class:`BatchUsageError` (bad folders, or a program read from standard input,
    which cannot start worker processes), :class:`traveller.batch.settings.SettingsError`
    (a bad override) or :class:`traveller.batch.lock.LockedError` before any work starts.

    >>> summary = run_batch(Path("inbox"), Path("results"))  # doctest: +SKIP
    >>> summary.exit_code, summary.counts()  # doctest: +SKIP
    """
    from traveller import __version__

    options = options or BatchOptions()
    if options.move_done is not None:
        options = replace(options, move_done=options.move_done.resolve())
    inbox, outdir, skip = _check_paths(inbox, outdir, options.move_done)
    unstartable = None if options.dry_run or options.debug else start_problem()
    if unstartable:  # (--debug scores in this process)
        raise BatchUsageError(unstartable)
    tree = SettingsTree(inbox, options.overrides)
    summary = RunSummary(str(inbox), str(outdir), __version__, options.dry_run, now_iso())
    clock = time.perf_counter()
    if options.dry_run:
        run = _Run(inbox, outdir, options, __version__, Manifest.load(outdir / STATE_DIR))
        _loop(run, find_jobs(inbox, tree, skip, summary.notes), summary, on_file, on_start)
        _finish(summary, clock)
        return summary
    with OutdirLock(outdir / STATE_DIR / "lock", options.wait) as lock:
        if lock.stale:
            summary.notes.append(stale_note(lock.stale))
            summary.notes.extend(clean_temps(outdir))
        manifest = Manifest.load(outdir / STATE_DIR)
        summary.notes.extend(manifest.notes)
        log_fd = open_nofollow(outdir / LOG_NAME, os.O_WRONLY | os.O_CREAT | os.O_APPEND)
        with os.fdopen(log_fd, "a", encoding="utf-8") as log:  # never through a planted link
            run = _Run(inbox, outdir, options, __version__, manifest, log)
            _locked_run(run, find_jobs(inbox, tree, skip, summary.notes), summary, on_file,
                        on_start, clock)
    return summary


def _locked_run(run: _Run, jobs: list[Job], summary: RunSummary,
                on_file: Callable[[Outcome], None] | None,
                on_start: Callable[[int, list[str]], None] | None, clock: float) -> None:
    run.log_line(f"start: {run.inbox} -> {run.outdir}: {plural(len(jobs), 'file')}, "
                 f"traveller {run.version}")
    for note in summary.notes:
        run.log_line(f"note: {note}")
    try:
        _loop(run, jobs, summary, on_file, on_start)
        seasons = update_seasons(run.outdir, run.manifest, jobs, summary.files, run.fresh)
        for note in seasons:
            run.log_line(f"note: {note}")
        summary.notes.extend(seasons)  # (first: the index lists the ladders' pages)
        summary.notes.extend(refresh_index(run.outdir, run.manifest, summary.files))
    except BaseException:
        summary.interrupted = True
        raise
    finally:
        run.manifest.save(run.version)
        _finish(summary, clock)
        write_summary(summary, run.outdir / SUMMARY_NAME)
        run.log_line(f"end: {summary.headline()}; exit {summary.exit_code}")


def _finish(summary: RunSummary, clock: float) -> None:
    summary.finished = now_iso()
    summary.seconds = round(time.perf_counter() - clock, 3)


def _loop(run: _Run, jobs: list[Job], summary: RunSummary,
          on_file: Callable[[Outcome], None] | None,
          on_start: Callable[[int, list[str]], None] | None) -> None:
    """Every job's outcome, in order; the files to score are scored by worker processes."""
    if on_start:
        on_start(len(jobs), summary.notes)
    planned = [_one(run, job) for job in jobs]
    todo = [p for p in planned if not isinstance(p, Outcome)]
    tasks, now = [], publishing.now_local()
    for job, _, entry in todo:
        assert job.settings is not None
        run.published += 1
        tasks.append(Task(job.path, job.settings.pipeline_kwargs(),
                          run.outdir / job.output(), run.published, os.environ.get(PAUSE_ENV),
                          job, entry, run.outdir, now))
    warming = warm_store([job for job, _, _ in todo]) if todo else None
    scored = _scored(run, tasks)
    try:
        for item in planned:
            if isinstance(item, Outcome):
                outcome = item
            else:
                job, reason, entry = item
                outcome = _done(run, job, reason, entry, next(scored))
                if outcome.status != "failed":
                    outcome = _move_done(run, job, outcome)
            summary.files.append(outcome)
            run.log_line(describe(outcome), flush=outcome.status != "skipped")
            if on_file:
                on_file(outcome)
    finally:
        close = getattr(scored, "close", None)
        if close is not None:
            close()  # stops the workers, also when the run is interrupted
        if warming is not None:
            warming.join()  # (the store's library, loaded meanwhile: update_seasons uses it)


def _scored(run: _Run, tasks: list[Task]) -> Iterator[dict[str, Any]]:
    """What each task gave, in order: in worker processes, or here with --debug."""
    if not tasks:
        return iter(())
    if run.options.debug:
        return (score_file(task, debug=True) for task in tasks)
    jobs = run.options.jobs or default_jobs()
    pool = Pool(min(jobs, len(tasks)), run.options.file_timeout, run.options.file_memory)
    return pool.run(tasks)


def _failed(job: Job, exc: BaseException, code: str | None = None) -> Outcome:
    why = failure(job.path, exc, code)
    return Outcome(job.name, "failed", output=job.output(), code=why["code"], error=why["error"])


def _one(run: _Run, job: Job) -> Outcome | tuple[Job, str, dict[str, Any] | None]:
    """Skip or report a file, or (job, reason, manifest entry) when it is to be done."""
    if job.error is not None:
        return Outcome(job.name, "failed", code="settings", error=str(job.error))
    entry = run.manifest.entries.get(job.name)
    try:
        reason, _, refreshed = unchanged(job, entry, run.outdir, run.version)
    except OSError as exc:
        return _failed(job, exc)
    if reason is None and entry is not None:  # final after the correction period, site, title
        reason = due(job, entry, run.outdir)
    if reason is None and entry is not None:
        if refreshed is not None and not run.options.dry_run:
            run.manifest.record(job.name, refreshed)
        last = entry.get("status", "done")
        outcome = Outcome(job.name, "skipped", f"up to date (last run: {last})", job.output())
        return _move_done(run, job, outcome)
    if run.options.dry_run:
        return Outcome(job.name, "todo", reason or "", job.output())
    return job, reason or "", entry


def _done(run: _Run, job: Job, reason: str, entry: dict[str, Any] | None,
          scored: dict[str, Any]) -> Outcome:
    """Record a scored file: corrections report, snapshot, manifest; its outcome."""
    if "failed" in scored:
        return Outcome(job.name, "failed", output=job.output(), **scored["failed"])
    assert job.settings is not None
    clock = time.perf_counter()
    sha, snap = scored["sha"], scored["snap"]
    try:
        changes = _corrections(run, job, entry, snap, sha, reason)
        key = hashlib.sha256(f"{job.name}\0{sha}\0{job.settings.fingerprint}\0"
                             f"{run.version}".encode()).hexdigest()[:24]
        snap_name = run.manifest.write_snapshot(f"{key}.json", snap)
    except Exception as exc:
        if run.options.debug and not isinstance(exc, OSError):
            raise
        return _failed(job, exc, "write")
    outcome = Outcome(job.name, "problems" if scored["problems"] else "done", reason,
                      job.output(), scored["results"], scored["pairs"], scored["problems"],
                      scored["counts"], changes=changes, ranked=scored["ranked"])
    _record(run, job, outcome, scored["before"], sha, snap_name, scored["published"])
    if scored.get("store") is not None:
        run.fresh[job.name] = scored["store"]
    outcome.seconds = round(scored["seconds"] + time.perf_counter() - clock, 3)
    return outcome


def _record(run: _Run, job: Job, outcome: Outcome, before: os.stat_result, sha: str,
            snap_name: str, published: dict[str, Any]) -> None:
    assert job.settings is not None
    try:
        after = os.stat(job.path)
        moved = (after.st_size, after.st_mtime_ns) != (before.st_size, before.st_mtime_ns)
    except OSError:
        moved = True
    if moved:  # the file changed while it was read: what was read is published, redo next run
        outcome.note = "the input changed while it was read; it is done again next run"
    run.manifest.record(job.name, {
        "size": before.st_size, "mtime_ns": None if moved else stable_mtime(before),
        "sha256": None if moved else sha, "settings": job.settings.fingerprint,
        "version": run.version, "output": job.output(), "status": outcome.status,
        "problems": outcome.problems, "snapshot": snap_name, "published": now_iso(),
        **{k: v for k in ("ladder", "ladder_rule", "store", "html")
           if (v := job.settings.get(k))}, **published})


def _corrections(run: _Run, job: Job, entry: dict[str, Any] | None, snap: dict[str, Any],
                 sha: str, reason: str) -> dict[str, Any] | None:
    """Write the corrections report when this replaces a published, different session."""
    assert job.settings is not None
    if not entry or (entry.get("sha256") == sha and entry.get("version") == run.version
                     and entry.get("settings") == job.settings.fingerprint):
        return None
    from traveller.batch.changes import SNAPSHOT_FORMAT, diff, write_report

    old = run.manifest.read_snapshot(entry.get("snapshot"))
    if old is None or old.get("format") != SNAPSHOT_FORMAT:
        return None
    found = diff(old, snap)
    when = f"Published {entry.get('published')}, corrected {now_iso()} ({reason})."
    when += late_note(entry)
    paths = write_report(found, run.outdir / job.base, job.settings.get("changes"),
                         f"{job.name} -> {job.output()}", when)
    return {"reports": [p.relative_to(run.outdir).as_posix() for p in paths],
            "previous": entry.get("published"), **found.as_dict()}


def _move_done(run: _Run, job: Job, outcome: Outcome) -> Outcome:
    """With --move-done, move a processed input there (same path under it)."""
    if run.options.move_done is None or run.options.dry_run:
        return outcome
    dest = free_name(run.options.move_done / job.name)
    try:
        move_file(job.path, dest)
        outcome.moved_to = str(dest)
    except OSError as exc:
        outcome.note = f"not moved to {dest}: {exc.strerror or exc}"
    return outcome


def _one_line(text: str) -> str:
    """``text`` with its control characters escaped: a file named with a line feed in it
    cannot write a line of its own into the log."""
    if text.isprintable():
        return text
    return "".join(c if c.isprintable() else c.encode("unicode_escape").decode("ascii")
                   for c in text)
