"""What a batch run tells the operator: one line per file and a JSON run summary.

Every file ends in one status: ``done`` (workbook written, no problem),
``problems`` (written, with problems listed on its Problems sheet), ``failed``
(nothing written for it; the previous workbook, if any, is untouched) or
``skipped`` (up to date). A dry run reports ``todo`` for what it would do.
The exit code for cron: 1 when any file failed, else 3 when any file had
problems, else 0.
"""

from __future__ import annotations

import json
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from traveller.read.paths import printable
from traveller.words import plural

STATUSES = ("done", "problems", "failed", "skipped", "todo")
EXIT_OK, EXIT_FAILED, EXIT_USAGE, EXIT_PROBLEMS = 0, 1, 2, 3


@dataclass
class Outcome:
    """What happened to one input file."""

    input: str
    status: str
    reason: str = ""
    output: str | None = None
    results: int | None = None
    pairs: int | None = None  # the ranking's lines: pairs, or players or teams (ranked)
    problems: int = 0
    problem_counts: dict[str, int] = field(default_factory=dict)
    seconds: float = 0.0
    code: str | None = None  # why it failed: settings, vanished, unreadable, write,
    # timeout, memory, crashed (worker.py), error
    error: str | None = None
    changes: dict[str, Any] | None = None  # corrections: reports, results, pairs
    moved_to: str | None = None
    note: str | None = None
    ranked: str = "pair"  # what a ranking line is: "pair", "player" (an individual), "team"


@dataclass
class RunSummary:
    """A whole run: every file's outcome, counts, timings, notes."""

    inbox: str
    outdir: str
    version: str
    dry_run: bool = False
    started: str = ""
    finished: str = ""
    seconds: float = 0.0
    interrupted: bool = False
    notes: list[str] = field(default_factory=list)
    files: list[Outcome] = field(default_factory=list)

    def counts(self) -> dict[str, int]:
        """Files per status, plus ``corrected`` (files with a corrections report)."""
        counts = dict.fromkeys(STATUSES, 0)
        for outcome in self.files:
            counts[outcome.status] += 1
        counts["corrected"] = sum(1 for o in self.files if o.changes)
        return counts

    def problem_counts(self) -> dict[str, int]:
        """Problems per code over every file written in this run."""
        total: dict[str, int] = {}
        for outcome in self.files:
            for code, n in outcome.problem_counts.items():
                total[code] = total.get(code, 0) + n
        return dict(sorted(total.items()))

    @property
    def exit_code(self) -> int:
        counts = self.counts()
        if counts["failed"] or self.interrupted:
            return EXIT_FAILED
        return EXIT_PROBLEMS if counts["problems"] else EXIT_OK

    def as_dict(self) -> dict[str, Any]:
        data = {k: v for k, v in vars(self).items() if k != "files"}
        data.update(exit_code=self.exit_code, counts=self.counts(),
                    problem_counts=self.problem_counts(),
                    files=[dict(vars(o)) for o in self.files])
        return data

    def to_json(self) -> str:
        """The summary as JSON, one line per file (so it also greps well)."""
        data = self.as_dict()
        files = data.pop("files")
        head = json.dumps(data, ensure_ascii=False)[:-1]
        lines = ",\n".join(json.dumps(f, ensure_ascii=False) for f in files)
        return printable(f'{head}, "files": [\n{lines}\n]}}\n')  # odd file names as \xe9

    def headline(self) -> str:
        """The last line a run prints."""
        c = self.counts()
        total = len(self.files)
        if self.dry_run:
            return (f"dry run: {plural(total, 'file')}: {c['todo']} to do, "
                    f"{c['skipped']} up to date, {c['failed']} failed; nothing written")
        if total and c["skipped"] == total:
            return (f"nothing new: {'' if total == 1 else 'all '}{plural(total, 'file')} "
                    "up to date; nothing written "
                    f"({self.seconds:.2f} s)")
        if not total:
            return f"nothing to do: no traveller file under {self.inbox}"
        corrected = f", {c['corrected']} corrected" if c["corrected"] else ""
        stop = "; INTERRUPTED" if self.interrupted else ""
        return (f"{plural(total, 'file')}: {c['done']} done, {c['problems']} with problems, "
                f"{c['failed']} failed, {c['skipped']} up to date{corrected} "
                f"({self.seconds:.1f} s){stop}")


def describe(outcome: Outcome) -> str:
    """One log line for a file: status, input, what was written or why not."""
    o = outcome
    head = f"{o.status:<8} {o.input}"
    if o.status == "failed":
        text = f"{head}: {o.error}"
    elif o.status == "skipped":
        text = f"{head}: up to date ({o.output})"
    elif o.status == "todo":
        text = f"{head} -> {o.output}: would be done ({o.reason})"
    else:
        text = (f"{head} -> {o.output} ({o.reason}; {plural(o.results or 0, 'result')}, "
                f"{plural(o.pairs or 0, o.ranked)}, "
                f"{o.seconds:.2f} s)")
        if o.problems:
            listed = ", ".join(f"{n} {code}" for code, n in o.problem_counts.items())
            text += f"; {plural(o.problems, 'problem')}: {listed}"
        if o.changes:
            text += (f"; corrected: {plural(len(o.changes['results']), 'result')}, "
                     f"{plural(len(o.changes['pairs']), 'pair')} changed, see "
                     f"{', '.join(o.changes['reports']) or 'the summary'}")
    if o.moved_to:
        text += f"; input moved to {o.moved_to}"
    if o.note:
        text += f"; {o.note}"
    return printable(text)


def write_summary(summary: RunSummary, path: Path) -> None:
    """Write the JSON run summary atomically."""
    from traveller.batch.manifest import write_atomic

    write_atomic(path, summary.to_json())
