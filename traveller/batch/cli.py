"""``traveller batch``: the command line of :func:`traveller.batch.run.run_batch`."""

from __future__ import annotations

import signal
import sys
from pathlib import Path
from typing import Any

import click

from traveller.batch.lock import LockedError
from traveller.batch.run import SUMMARY_NAME, BatchOptions, BatchUsageError, run_batch
from traveller.batch.settings import MOVEMENTS, SettingsError, parse_assignment
from traveller.batch.summary import (
    EXIT_FAILED,
    EXIT_USAGE,
    Outcome,
    RunSummary,
    describe,
)
from traveller.options import NOTATIONS, SCALES


class _Terminated(BaseException):
    """SIGTERM (systemd stop, kill): finish the current file's cleanup and stop."""


def _terminate(signum: int, frame: Any) -> None:
    raise _Terminated


def _on_sigterm(handler: Any) -> Any:
    """Install a SIGTERM handler (only possible in the main thread); the previous one."""
    try:
        return signal.signal(signal.SIGTERM, handler)
    except ValueError:
        return None


def _overrides(scale: str | None, movement: str | None, notation: str | None,
               names: Path | None, encoding: str | None,
               assignments: tuple[str, ...]) -> dict[str, Any]:
    given: dict[str, Any] = dict(parse_assignment(a) for a in assignments)
    for key, value in (("scale", scale), ("movement", movement), ("notation", notation),
                       ("names", str(names) if names else None), ("encoding", encoding)):
        if value is not None:
            given[key] = value
    return given


class _Printer:
    """Per-file lines on stdout, and a progress bar on stderr when it is a terminal
    (never with -q: a cron run prints only what it always printed)."""

    def __init__(self, quiet: bool, to_stderr: bool) -> None:
        from traveller.progress import Bar

        self.quiet = quiet
        self.to_stderr = to_stderr  # stdout carries the JSON summary
        self.bar = Bar("traveller batch", "file", quiet=quiet)
        self.noted = 0  # notes printed so far

    def start(self, total: int, notes: list[str]) -> None:
        self.noted = len(notes)
        for note in notes:
            click.echo(f"note: {note}", err=True)
        self.bar.start(total)

    def file(self, outcome: Outcome) -> None:
        if not (self.quiet and outcome.status == "skipped"):
            if self.bar.bar is not None:
                self.bar.write(describe(outcome), err=self.to_stderr)
            else:
                click.echo(describe(outcome), err=self.to_stderr)
        self.bar.step()

    def stop(self) -> None:
        self.bar.close()


def _write_summary_copy(summary: RunSummary, path: Path | None) -> None:
    if path is None:
        return
    if str(path) == "-":
        click.echo(summary.to_json(), nl=False)
    else:
        from traveller.batch.summary import write_summary

        write_summary(summary, path)


@click.command()
@click.argument("inbox", type=click.Path(exists=True, file_okay=False, path_type=Path))
@click.option("-o", "--outdir", required=True, type=click.Path(file_okay=False, path_type=Path),
              help="Folder for the workbooks (INBOX's layout mirrored), the manifest, "
              "the log and the run summary.")
@click.option("--scale", type=click.Choice(list(SCALES)), default=None,
              help="Matchpoint scale for every file [default: traveller.toml, else 2/1/0].")
@click.option("--movement", type=click.Choice(list(MOVEMENTS)), default=None,
              help="Movement for every file [default: traveller.toml, else auto].")
@click.option("--notation", type=click.Choice(["auto", *NOTATIONS]), default=None,
              help="Notation for every file [default: traveller.toml, else detected per "
              "sheet].")
@click.option("--names", type=click.Path(dir_okay=False, exists=True, path_type=Path),
              help="Names file for every file [default: traveller.toml's names].")
@click.option("--encoding", default=None, help="CSV encoding for every file, e.g. cp1250.")
@click.option("--set", "assignments", multiple=True, metavar="KEY=VALUE",
              help="Override any traveller.toml key, e.g. --set changes=txt (repeatable).")
@click.option("--html", is_flag=True, help="Also write each session's website beside its "
              "workbook, and OUTDIR/index.html listing them, newest first (html = true).")
@click.option("--dry-run", is_flag=True, help="Show what would be done; write nothing.")
@click.option("--move-done", type=click.Path(file_okay=False, path_type=Path),
              help="Move each input processed without failure to this folder (same layout).")
@click.option("--wait", type=click.FloatRange(min=0), default=0, metavar="SECONDS",
              help="Wait up to SECONDS for a run already working on OUTDIR [default: "
              "refuse at once].")
@click.option("--summary", "summary_path", type=click.Path(dir_okay=False, path_type=Path,
              allow_dash=True), help=f"Also write the JSON run summary here ('-' for stdout); "
              f"it is always written to OUTDIR/{SUMMARY_NAME}.")
@click.option("-j", "--jobs", type=click.IntRange(min=0), default=0, show_default="all cores",
              help="Files scored at once, each in a worker process (0: one per core).")
@click.option("--file-timeout", type=click.FloatRange(min=0), default=600, show_default=True,
              metavar="SECONDS", help="Stop a file that takes longer and fail it alone (0: no "
              "limit).")
@click.option("--file-memory", type=click.IntRange(min=0), default=8192, show_default=True,
              metavar="MIB", help="Memory limit per worker; a file that needs more fails alone "
              "(0: no limit).")
@click.option("-q", "--quiet", is_flag=True, help="Do not print the files that are up to date.")
@click.option("--debug", is_flag=True, help="Stop with the full traceback on an unexpected error.")
def batch(inbox: Path, outdir: Path, scale: str | None, movement: str | None,
          notation: str | None, names: Path | None, encoding: str | None,
          assignments: tuple[str, ...], html: bool, dry_run: bool, move_done: Path | None,
          wait: float, summary_path: Path | None, jobs: int, file_timeout: float,
          file_memory: int, quiet: bool, debug: bool) -> None:
    """Score every traveller file under INBOX into OUTDIR, doing only what is new.

    Each file (csv, tsv, txt, xlsx, xlsm, xls, ods, USEBIO xml, pbn) gets its
    results workbook at the same place under OUTDIR. Settings come from a
    traveller.toml in the file's folder or above it; options here override
    them. A file whose input and settings are unchanged since it was
    published is skipped; a changed one is redone, with a report of what
    changed. Safe to run from cron: one run at a time per OUTDIR, outputs
    replaced atomically, inputs never changed (moved only with --move-done).
    Files are scored --jobs at a time in worker processes; a file that
    crashes its worker or passes --file-timeout / --file-memory fails alone
    and the run goes on (--debug scores in this process, with tracebacks).

    \b
    Example (crontab, every 10 minutes):
      */10 * * * *  traveller batch /srv/bridge/inbox -o /srv/bridge/results -q
      traveller batch inbox -o results --html --set correction_minutes=15
    Exit codes: 0 all good, 1 some file failed (or OUTDIR busy), 2 usage error,
    3 some file written with problems. See docs/batch.md.
    """
    printer = _Printer(quiet, to_stderr=str(summary_path) == "-")
    options = BatchOptions(dry_run=dry_run, move_done=move_done, wait=wait, debug=debug,
                           jobs=jobs, file_timeout=file_timeout, file_memory=file_memory)
    previous = _on_sigterm(_terminate)
    try:
        options.overrides = _overrides(scale, movement, notation, names, encoding, assignments)
        if html:
            options.overrides["html"] = True
        summary = run_batch(inbox, outdir, options, printer.file, printer.start)
    except (BatchUsageError, SettingsError) as exc:
        click.echo(f"error: {exc}", err=True)
        sys.exit(EXIT_USAGE)
    except (LockedError, OSError) as exc:  # OSError: OUTDIR cannot be written, say
        if debug and not isinstance(exc, LockedError):
            raise
        click.echo(f"error: {exc}", err=True)
        sys.exit(EXIT_FAILED)
    except (KeyboardInterrupt, _Terminated):
        printer.stop()
        click.echo("interrupted: every file finished so far is recorded; the next run "
                   "completes the work", err=True)
        sys.exit(EXIT_FAILED)
    finally:
        printer.stop()
        if previous is not None:
            _on_sigterm(previous)
    for note in summary.notes[printer.noted:]:  # the end of the run's: store and ladders
        click.echo(f"note: {note}", err=True)
    click.echo(summary.headline(), err=printer.to_stderr)
    _write_summary_copy(summary, summary_path)
    sys.exit(summary.exit_code)
