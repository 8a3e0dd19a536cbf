"""One batch file's whole work: read, score, publish its workbook, the snapshot for
corrections.

:func:`score_file` never raises for a problem of its file; it returns a plain,
picklable dict (what the run records of the file), so a worker process
(:mod:`traveller.batch.worker`) can send it back and go on with the next file.
"""

from __future__ import annotations

import os
import time
from collections import Counter
from dataclasses import dataclass
from pathlib import Path
from typing import TYPE_CHECKING, Any

from traveller.errors import TravellerError
from traveller.read.paths import printable

if TYPE_CHECKING:
    from datetime import datetime

    from traveller.batch.plan import Job

__all__ = ["Task", "failure", "score_file"]


@dataclass
class Task:
    """One file to do: where it is, its options, where its workbook goes, its publish number."""

    path: Path
    kwargs: dict[str, Any]
    out: Path
    count: int
    #: The test hook's setting (files.PAUSE_ENV) when the run started: a worker's
    #: environment is the fork server's, fixed when the server started.
    pause: str | None = None
    #: The batch job and its manifest entry, for the title, the correction-period
    #: status and the website (publishing.py); None scores the file alone.
    job: Job | None = None
    entry: dict[str, Any] | None = None
    outdir: Path | None = None
    #: The run's clock (publishing.now_local), read once by the run: every file of a
    #: run is judged against the same time, in whichever process it is scored.
    now: datetime | None = None


def failure(path: Path, exc: BaseException, code: str | None = None) -> dict[str, str]:
    """Why a file failed, as ``{"code", "error"}`` (one line, for the summary)."""
    shown = printable(str(path))
    if isinstance(exc, FileNotFoundError) and code in (None, "unreadable"):
        return {"code": "vanished", "error": f"{shown}: the file disappeared before it could be "
                "read (moved or deleted during the run)"}
    if isinstance(exc, MemoryError):
        return {"code": "memory", "error": f"{shown}: needs more memory than the per-file limit "
                "(--file-memory)"}
    if isinstance(exc, TravellerError):
        message = str(exc)
    elif isinstance(exc, OSError):
        message = f"{exc.filename or path}: {exc.strerror or exc}"
    else:
        message = f"{path}: {type(exc).__name__}: {exc}"
    return {"code": code or "unreadable", "error": printable(message)}


def score_file(task: Task, debug: bool = False) -> dict[str, Any]:
    """Score ``task``'s file and publish its workbook; what the run records (never raises).

    With ``debug`` an unexpected error (not a TravellerError or OSError) is raised.
    """
    from traveller.batch.changes import snapshot
    from traveller.batch.files import PAUSE_ENV, publish
    from traveller.batch.publishing import stamp_job, write_site_for
    from traveller.batch.settings import file_sha256
    from traveller.pipeline import process

    clock = time.perf_counter()
    if task.pause:
        os.environ[PAUSE_ENV] = task.pause
    else:
        os.environ.pop(PAUSE_ENV, None)
    try:
        before = os.stat(task.path)
        sha = file_sha256(task.path)
        result = process(task.path, **_with_dd_cache(task.kwargs, task.outdir))
        _under_inbox(result, task)
        # title and status (correction period): what the manifest records of it
        published = ({} if task.job is None else
                     stamp_job(result, task.job, task.entry, now=task.now))
    except Exception as exc:
        if debug and not isinstance(exc, TravellerError | OSError | MemoryError):
            raise
        failed = failure(task.path, exc)
        if isinstance(exc, TravellerError) and failed["code"] == "unreadable":
            failed["error"] += _listed_unreadable(task, exc)
        return {"failed": failed}
    try:
        snap = snapshot(result)
        publish(result, task.out, task.count)
        if task.job is not None and task.outdir is not None:
            write_site_for(result, task.job, task.outdir)
        stored = _store_facts(task, snap)
    except Exception as exc:
        if debug and not isinstance(exc, OSError | MemoryError):
            raise
        return {"failed": failure(task.path, exc, "write")}
    # most_common(): value_counts' order (most first, ties as first seen), without pandas
    counts = Counter(result.problems["code"].tolist()).most_common()
    return {"before": before, "sha": sha, "snap": snap, "results": len(result.travellers),
            "pairs": len(result.ranking), "ranked": result.ranked_as,
            "problems": len(result.problems),
            "counts": {str(k): n for k, n in counts},
            "published": published, "store": stored, "seconds": time.perf_counter() - clock}


def _under_inbox(result: Any, task: Task) -> None:
    """Name the files of the result's rows and problems by their path under INBOX, as the
    run's log and summary do: the club's workbook showed the server's whole path
    (``/srv/bridge/inbox/riverside/tue.csv``) in its Problems and Summary sheets."""
    if task.job is None or not str(task.path).endswith(task.job.name):
        return
    root = str(task.path)[:len(str(task.path)) - len(task.job.name)]
    for name in ("travellers", "problems"):
        frame = getattr(result, name)
        if "file" in frame and len(frame):
            files = frame["file"].astype("string")
            inside = files.str.startswith(root, na=False)
            shown = files.where(~inside, files.str.slice(len(root)))
            setattr(result, name, frame.assign(file=shown.astype(frame["file"].dtype)))


def _listed_unreadable(task: Task, error: TravellerError) -> str:
    """A file that cannot be read gets its workbook, the Problems sheet saying why, as
    ``traveller score`` writes it; but results published from an earlier version of the
    file are kept (a broken re-export does not take them down). What the failure's line
    adds: where it is listed, or that the earlier workbook is kept."""
    from traveller.batch.files import publish
    from traveller.pipeline import unreadable

    if task.entry is not None and task.out.exists():  # (a manifest entry: it was scored)
        return f" (the workbook published before, {task.out.name}, is kept)"
    result = unreadable(error, [task.path])
    if result is None:
        return ""
    _under_inbox(result, task)
    try:
        publish(result, task.out, task.count, more_sheets=False)
    except Exception:  # (the file's failure is already what the run reports)
        return ""
    return f" (listed on the Problems sheet of {task.out.name})"


def _store_facts(task: Task, snap: dict[str, Any]) -> dict[str, Any] | None:
    """The results store's rows of the session (batch/seasons.py), made here, in parallel,
    from the snapshot as the run keeps it (through JSON, as it is read back); None when
    the folder has no store, or when they cannot be made here (the end of the run then
    reads the snapshot, and says so if that fails too)."""
    if task.job is None or task.job.settings is None or task.job.settings.get("store") == "none":
        return None
    import json

    from traveller.batch.seasons import store_facts

    try:
        kept = json.loads(json.dumps(snap, ensure_ascii=False))
        return store_facts(task.job.name, kept)
    except Exception:  # never the file's failure: the run's end reads the snapshot instead
        return None


def _with_dd_cache(kwargs: dict[str, Any], outdir: Path | None) -> dict[str, Any]:
    """The analysis of each deal kept in the batch's state folder, unless it is off."""
    if kwargs.get("dd", True) is False or outdir is None:
        return kwargs
    from traveller.read.paths import STATE_DIR

    return {**kwargs, "dd": outdir / STATE_DIR / "dd"}
