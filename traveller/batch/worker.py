"""Batch files scored in worker processes: ``--jobs N`` at once, and one file cannot stop a run.

:func:`traveller.batch.task.score_file` is one file's whole work, and never
raises for a problem of that file. :class:`Pool` runs it in
``jobs`` worker processes forked from a server that imported pandas and the
pipeline once (multiprocessing's ``forkserver``: the workers inherit no open
file of the run, so the output folder's lock still dies with the run). Each
file has a time limit (the worker is killed and the file fails with
``timeout``) and each worker a memory limit (``RLIMIT_AS``: the file fails with
``memory``); a worker that crashes fails its file alone (``crashed``) and is
replaced. Results come back in the order the files were given.
"""

from __future__ import annotations

import contextlib
import os
import signal
import sys
import time
from collections import deque
from collections.abc import Iterator
from multiprocessing import get_context
from multiprocessing import process as mp_process
from multiprocessing.connection import Connection, wait
from pathlib import Path
from typing import Any

from traveller.batch.task import Task, failure, score_file

__all__ = ["PRELOAD", "Pool", "default_jobs", "start_problem"]

#: Modules the fork server imports once, before it forks any worker: pandas, the
#: pipeline, the readers and the writer. Each worker starts with them loaded (shared
#: memory, no import per worker); a module missing here is imported by the worker
#: that first needs it, so the list changes only the speed.
PRELOAD = ("traveller.batch.worker", "traveller.pipeline", "traveller.publish.workbook",
           "traveller.publish.outputs", "traveller.batch.changes", "traveller.batch.files",
           "traveller.batch.publishing", "traveller.read.workbook", "traveller.read.pbn",
           "traveller.read.usebio", "traveller.batch.seasons", "traveller.read.published",
           "traveller.score.sessions", "traveller.batch.settings", "traveller.publish.layout",
           "traveller.publish.scorecards", "traveller.publish.shown", "python_calamine")


def start_problem() -> str | None:
    """Why this program cannot start worker processes, or None when it can.

    Python starts each worker by loading the running program's main file again
    (its ``__main__`` module), so a program read from standard input
    (``python - < script.py``, a heredoc) cannot have workers: its file,
    ``<stdin>``, does not exist. Every worker would die at start.
    """
    main = sys.modules.get("__main__")
    if getattr(getattr(main, "__spec__", None), "name", None) is not None:
        return None  # run as a module (python -m ...): loaded by its name
    path = getattr(main, "__file__", None)
    start_dir = getattr(mp_process, "ORIGINAL_DIR", None) or ""  # where a relative path starts
    if path is None or os.path.isfile(os.path.join(start_dir, path)):
        return None  # an interactive session, python -c, or a program file
    return (f"worker processes cannot start from a program read from standard input "
            f"({path}): Python starts each worker by loading the program's file again. Save "
            "the program to a file and run that, or run the `traveller batch` command")


def default_jobs() -> int:
    """The cores this process may use."""
    try:
        return max(len(os.sched_getaffinity(0)), 1)
    except AttributeError:  # not on Linux
        return os.cpu_count() or 1


def _serve(conn: Connection, memory_mib: int) -> None:
    """A worker's loop: take a task, send back its outcome, until told to stop."""
    from traveller.gc_policy import loaded

    loaded()  # what the fork server imported is never walked by the collector again
    _die_with_parent()
    if memory_mib > 0:
        import resource

        limit = memory_mib * 1024 * 1024
        resource.setrlimit(resource.RLIMIT_AS, (limit, limit))
    signal.signal(signal.SIGINT, signal.SIG_IGN)  # Ctrl-C: the run stops its workers
    while True:
        try:
            task = conn.recv()
        except EOFError:
            return
        if task is None:
            return
        try:
            conn.send(score_file(task))
        except MemoryError:
            conn.send({"failed": failure(task.path, MemoryError())})
            return  # a fresh worker for the next file


def _die_with_parent() -> None:
    """Ask Linux to kill this worker when its parent dies (a killed run leaves no worker)."""
    try:
        import ctypes

        ctypes.CDLL("libc.so.6", use_errno=True).prctl(1, signal.SIGKILL)  # PR_SET_PDEATHSIG
    except (OSError, AttributeError):
        pass


class _Worker:
    def __init__(self, ctx: Any, memory_mib: int) -> None:
        self.conn, child = ctx.Pipe()
        self.proc = ctx.Process(target=_serve, args=(child, memory_mib), daemon=True)
        self.proc.start()
        child.close()
        self.task: tuple[int, Task] | None = None
        self.deadline = 0.0
        self.served = 0  # files it has sent back

    def stop(self, kill: bool = False) -> None:
        if kill and self.proc.is_alive():
            self.proc.kill()
        else:
            with contextlib.suppress(OSError, ValueError):
                self.conn.send(None)
        self.proc.join(5)
        if self.proc.is_alive():
            self.proc.kill()
            self.proc.join()
        self.conn.close()


class Pool:
    """``jobs`` worker processes with per-file time and memory limits (see the module)."""

    def __init__(self, jobs: int, timeout: float = 0, memory_mib: int = 0) -> None:
        self.jobs, self.timeout, self.memory = max(jobs, 1), timeout, memory_mib
        self.ctx: Any
        try:
            self.ctx = get_context("forkserver")
            self.ctx.set_forkserver_preload(list(PRELOAD))
        except ValueError:  # no fork server on this system (Windows): fresh interpreters
            self.ctx = get_context("spawn")
        self.workers: list[_Worker] = []

    def run(self, tasks: list[Task]) -> Iterator[dict[str, Any]]:
        """Each task's outcome, in the order given, while up to ``jobs`` run at once."""
        queue = deque(enumerate(tasks))
        done: dict[int, dict[str, Any]] = {}
        try:
            for index in range(len(tasks)):
                while index not in done:
                    self._dispatch(queue, done)
                    if any(w.task is not None for w in self.workers):
                        self._collect(done)
                yield done.pop(index)
        finally:
            self.close(kill=True)

    def _dispatch(self, queue: deque[tuple[int, Task]], done: dict[int, dict[str, Any]]) -> None:
        idle = [w for w in self.workers if w.task is None]
        while queue and (idle or len(self.workers) < self.jobs):
            worker = idle.pop() if idle else self._spawn()
            worker.task = index, task = queue.popleft()
            worker.deadline = time.monotonic() + self.timeout if self.timeout else 0.0
            try:
                worker.conn.send(task)
            except OSError:  # the worker is gone (killed while it waited, or never started)
                if worker.served:  # the file was never started: a fresh worker takes it
                    queue.appendleft(worker.task)
                    worker.task = None
                    self._replace(worker, kill=True)
                else:  # a worker that cannot even start would fail every file the same way
                    done[index] = self._lost(worker, task, "crashed")

    def _spawn(self) -> _Worker:
        worker = _Worker(self.ctx, self.memory)
        self.workers.append(worker)
        return worker

    def _collect(self, done: dict[int, dict[str, Any]]) -> None:
        busy = [w for w in self.workers if w.task is not None]
        deadlines = [w.deadline for w in busy if w.deadline]
        wait_for = max(min(deadlines) - time.monotonic(), 0) if deadlines else None
        ready = wait([w.conn for w in busy] + [w.proc.sentinel for w in busy], wait_for)
        for worker in busy:
            assert worker.task is not None
            index, task = worker.task
            if worker.conn in ready:
                try:
                    done[index] = worker.conn.recv()
                    worker.task = None
                    worker.served += 1
                    if not worker.proc.is_alive() or _code(done[index]) == "memory":
                        self._replace(worker)
                    continue
                except (EOFError, OSError):
                    pass
            if worker.proc.sentinel in ready or worker.conn in ready:
                done[index] = self._lost(worker, task, "crashed")
            elif worker.deadline and time.monotonic() >= worker.deadline:
                done[index] = self._lost(worker, task, "timeout")

    def _lost(self, worker: _Worker, task: Task, code: str) -> dict[str, Any]:
        """The file of a worker that died or ran out of time: failed; the worker replaced."""
        worker.stop(kill=True)
        exit_code = worker.proc.exitcode
        self.workers.remove(worker)
        _remove_temps(task.out)
        if code == "timeout":
            error = (f"{task.path}: took longer than the per-file limit of {self.timeout:g} s "
                     "(--file-timeout); stopped")
        else:
            how = (f"signal {-exit_code}" if exit_code is not None and exit_code < 0
                   else f"exit code {exit_code}")
            error = f"{task.path}: the worker scoring it stopped unexpectedly ({how})"
        return {"failed": {"code": code, "error": error}}

    def _replace(self, worker: _Worker, kill: bool = False) -> None:
        worker.stop(kill)
        self.workers.remove(worker)

    def close(self, kill: bool = False) -> None:
        """Stop every worker (killing busy ones with ``kill``); remove their temporary files."""
        for worker in self.workers:
            busy = worker.task is not None
            worker.stop(kill=kill and busy)
            if busy and worker.task is not None:
                _remove_temps(worker.task[1].out)
        self.workers = []


def _code(outcome: dict[str, Any]) -> str | None:
    return outcome.get("failed", {}).get("code")


def _remove_temps(out: Path) -> None:
    """The temporary files a stopped worker left beside ``out`` (``.NAME.<8>.tmp``)."""
    for tmp in out.parent.glob(f".{out.name}.*.tmp"):
        tmp.unlink(missing_ok=True)
    for tmp in out.parent.glob(f".{out.stem}.*.csv.*.tmp"):
        tmp.unlink(missing_ok=True)
