"""``traveller.simultaneous``: a simultaneous pairs across many clubs, in one call."""

from __future__ import annotations

import csv
import json
import os
import time
from collections.abc import Callable
from dataclasses import dataclass, field, replace
from pathlib import Path
from typing import Any

import pandas as pd

from traveller.publish.csvcells import inert
from traveller.sim.clubs import STATE_DIR, SimSettings, chunks, cpu_count, find_clubs
from traveller.words import plural

ENGINES = ("local", "dask")
SUMMARY_COLUMNS = ["club", "file", "status", "results", "pairs", "problems", "workbook",
                   "reason"]


@dataclass
class SimResult:
    """A scored simultaneous pairs: the national ranking and one summary line per club."""

    ranking: pd.DataFrame
    clubs: pd.DataFrame
    settings: dict[str, Any] = field(default_factory=dict)
    outputs: list[str] = field(default_factory=list)

    @property
    def failed(self) -> pd.DataFrame:
        """The clubs that could not be read or scored, with the reason."""
        return self.clubs[self.clubs["status"] == "failed"].reset_index(drop=True)

    def __repr__(self) -> str:
        return (f"SimResult: {plural(len(self.ranking), 'pair')} from "
                f"{plural(int((self.clubs['status'] != 'failed').sum()), 'club')}, "
                f"{plural(len(self.failed), 'club file')} failed")


def simultaneous(paths: str | Path | list[str | Path], *, engine: str = "local",
                 scheduler: str | None = None, workers: int | None = None,
                 output: str | Path | None = None, clubs_per_task: int | None = None,
                 timeout: float = 60.0, html: bool = False,
                 progress: Callable[[str, int, int], None] | None = None,
                 **scoring_options: Any) -> SimResult:
    """Score a simultaneous pairs: every club's results against the whole field.

    Args:
        paths: club traveller files, or folders holding them (one file per club;
            the club is the file's stem or the ``club`` of a ``traveller.toml``
            beside it).
        engine: "local" (this process) or "dask" (a Dask cluster).
        scheduler: with engine="dask", the address of a running scheduler
            ("tcp://host:8786"); None starts a LocalCluster on this machine.
        workers: the LocalCluster's worker processes (default: one per core).
        output: a folder for national_ranking.csv/.xlsx, summary.json,
            clubs.csv and clubs/CLUB.xlsx (None: nothing is written).
        clubs_per_task: clubs read and written by one task (default: about
            four tasks per core, at most 50 clubs each).
        timeout: seconds to wait for the cluster's connection.
        html: with ``output``, also a website: ``index.html`` (the national
            ranking, 500 places a page), ``clubs.html`` and each club's site
            in ``clubs/CLUB/`` beside its workbook.
        progress: called as ``progress(stage, clubs done, clubs)`` as the clubs
            are scored (stage "scored") and then written (stage "written").
        **scoring_options: ``method`` ("mp", "ximp", "butler"), ``scale``,
            ``divisor``, ``trim``, ``datum_rounding``, ``phantom_award``,
            ``movement``, ``notation``, ``encoding``.

    >>> sim = simultaneous("inbox/", engine="dask", output="results/")  # doctest: +SKIP
    >>> sim.ranking.head()  # doctest: +SKIP
    """
    if engine not in ENGINES:
        raise ValueError(f"unknown engine {engine!r}; choose from {', '.join(ENGINES)}")
    if scheduler and engine != "dask":
        raise ValueError("a scheduler address needs engine='dask'")
    if html and output is None:
        raise ValueError("html=True needs an output folder")
    sim = SimSettings(**scoring_options)
    if output is not None:  # the deals' double-dummy tables kept for the next run
        sim = replace(sim, dd_folder=str(Path(output) / STATE_DIR / "dd"))
    clubs = find_clubs(paths)
    if not clubs:
        raise ValueError(f"no traveller file found in {paths}")
    size = clubs_per_task or max(1, min(50, -(-len(clubs) // (4 * (workers or cpu_count())))))
    groups = chunks(clubs, size)
    outdir = Path(output) if output is not None else None
    writer = _Summary(outdir, len(clubs), progress)
    on_scored = _Count("scored", len(clubs), progress)
    start = time.perf_counter()
    written: list[str] = []

    def ranked(ranking: pd.DataFrame) -> None:
        if outdir is not None and not ranking.empty:
            from traveller.sim.outputs import write_national

            title = f"Simultaneous pairs: national ranking ({len(ranking)} pairs)"
            written.extend(map(str, write_national(ranking, outdir, sim.method, title)))

    try:
        if engine == "dask":
            from traveller.sim.engine import run_dask

            ranking = run_dask(groups, sim, outdir, writer.emit, ranked, scheduler=scheduler,
                               workers=workers, timeout=timeout, html=html,
                               on_scored=on_scored)
        else:
            from traveller.sim.engine import run_local

            ranking = run_local(groups, sim, outdir, writer.emit, ranked, html=html,
                                on_scored=on_scored)
    finally:
        writer.close()
    settings = {"engine": engine, "scheduler": scheduler, "workers": workers,
                "clubs_per_task": size, "seconds": round(time.perf_counter() - start, 3),
                **vars(sim)}
    summary = writer.finish(settings, ranking)
    if html and outdir is not None:
        from traveller.sim.pages import method_text, write_pages

        books = {c.club_id: c.book for group in groups for c in group}
        written += map(str, write_pages(ranking, summary, books, outdir, sim.method,
                                        method_text(sim.method, sim.scale)))
    return SimResult(ranking.drop(columns="club_id"), summary, settings,
                     written + writer.paths)


class _Count:
    """Clubs done of a stage, told to ``progress(stage, done, total)`` (when given)."""

    def __init__(self, stage: str, total: int,
                 progress: Callable[[str, int, int], None] | None) -> None:
        self.stage, self.total, self.progress, self.done = stage, total, progress, 0

    def __call__(self, clubs: int) -> None:
        self.done += clubs
        if self.progress is not None:
            self.progress(self.stage, self.done, self.total)


class _Summary:
    """One line per club, streamed to ``clubs.csv`` as the clubs are written."""

    def __init__(self, outdir: Path | None, clubs: int = 0,
                 progress: Callable[[str, int, int], None] | None = None) -> None:
        self.outdir = outdir
        self.written = _Count("written", clubs, progress)
        self.lines: list[dict[str, Any]] = []
        self.paths: list[str] = []
        self.handle = None
        if outdir is not None:
            outdir.mkdir(parents=True, exist_ok=True)
            # open across emit() calls, closed by close() in simultaneous()'s finally
            self.handle = open(outdir / "clubs.csv.tmp", "w", newline="",  # noqa: SIM115
                               encoding="utf-8")
            self.csv = csv.DictWriter(self.handle, SUMMARY_COLUMNS)
            self.csv.writeheader()

    def emit(self, lines: list[dict[str, Any]]) -> None:
        self.lines.extend(lines)
        if self.handle is not None:
            self.csv.writerows({k: inert(v) for k, v in line.items()} for line in lines)
            self.handle.flush()
        self.written(len(lines))

    def close(self) -> None:
        if self.handle is not None and not self.handle.closed:
            self.handle.close()

    def finish(self, settings: dict[str, Any], ranking: pd.DataFrame) -> pd.DataFrame:
        frame = pd.DataFrame(self.lines, columns=SUMMARY_COLUMNS).sort_values(
            "club", kind="stable").reset_index(drop=True)
        if self.outdir is None:
            return frame
        os.replace(self.outdir / "clubs.csv.tmp", self.outdir / "clubs.csv")
        failed = frame[frame["status"] == "failed"]
        record = {"clubs": len(frame), "scored": len(frame) - len(failed),
                  "failed": [{"club": r.club, "file": r.file, "reason": r.reason}
                             for r in failed.itertuples()],
                  "with_problems": int((frame["status"] == "problems").sum()),
                  "pairs_ranked": len(ranking), "results": int(frame["results"].sum()),
                  "settings": settings}
        path = self.outdir / "summary.json"
        path.write_text(json.dumps(record, indent=2, default=str), encoding="utf-8")
        self.paths = [str(self.outdir / "clubs.csv"), str(path)]
        return frame
