"""One batch run per output folder: a lock file holding the owner's PID.

The lock is an operating-system lock on ``OUTDIR/.traveller-batch/lock``
(``flock`` on POSIX), so it is released by the kernel the moment its process
ends, however it ends: a lock left by a killed run is never mistaken for a live
one. The file also holds the owner's PID, host and start time, for the message
a second run prints, and a clean exit empties it; a run that finds it locked by
nobody but not empty knows the previous run was killed and says so.
"""

from __future__ import annotations

import json
import os
import socket
import sys
import time
from datetime import UTC, datetime
from pathlib import Path
from typing import Any

from traveller.batch.manifest import open_nofollow
from traveller.errors import TravellerError

if sys.platform == "win32":  # pragma: no cover - the batch is meant for cron/systemd
    import msvcrt

    def _try_lock(fd: int) -> bool:
        try:
            os.lseek(fd, 1 << 20, os.SEEK_SET)
            msvcrt.locking(fd, msvcrt.LK_NBLCK, 1)
            return True
        except OSError:
            return False

    def _unlock(fd: int) -> None:
        os.lseek(fd, 1 << 20, os.SEEK_SET)
        msvcrt.locking(fd, msvcrt.LK_UNLCK, 1)
else:
    import fcntl

    def _try_lock(fd: int) -> bool:
        try:
            fcntl.flock(fd, fcntl.LOCK_EX | fcntl.LOCK_NB)
            return True
        except BlockingIOError:
            return False

    def _unlock(fd: int) -> None:
        fcntl.flock(fd, fcntl.LOCK_UN)


class LockedError(TravellerError):
    """Another run holds the output folder's lock."""


def _holder(fd: int) -> dict[str, Any]:
    """What the lock file says about its owner ({} when empty or unreadable)."""
    try:
        os.lseek(fd, 0, os.SEEK_SET)
        data = os.read(fd, 4096)
        found = json.loads(data) if data.strip() else {}
        return found if isinstance(found, dict) else {}
    except (OSError, ValueError):
        return {}


def _alive(pid: object) -> bool:
    if not isinstance(pid, int) or pid <= 0 or sys.platform == "win32":
        return False
    try:
        os.kill(pid, 0)
    except ProcessLookupError:
        return False
    except PermissionError:
        return True
    return True


class OutdirLock:
    """Hold the lock of an output folder; ``wait`` seconds for a running one to end.

    >>> with OutdirLock(Path("out/.traveller-batch/lock"), wait=60) as lock:  # doctest: +SKIP
    ...     print(lock.stale)  # the owner of a lock left by a killed run, or None
    """

    def __init__(self, path: Path, wait: float = 0.0) -> None:
        self.path = path
        self.wait = wait
        self.stale: dict[str, Any] | None = None
        self._fd: int | None = None

    def acquire(self) -> None:
        """Take the lock or raise :class:`LockedError` naming the run that holds it."""
        self.path.parent.mkdir(parents=True, exist_ok=True)
        fd = open_nofollow(self.path, os.O_RDWR | os.O_CREAT)
        deadline = time.monotonic() + self.wait
        while not _try_lock(fd):
            if time.monotonic() >= deadline:
                holder = _holder(fd)
                os.close(fd)
                raise LockedError(self._busy_message(holder))
            time.sleep(min(0.2, max(deadline - time.monotonic(), 0.01)))
        previous = _holder(fd)
        if previous:
            previous["alive"] = _alive(previous.get("pid")) and previous.get(
                "host") == socket.gethostname()
            self.stale = previous
        me = {"pid": os.getpid(), "host": socket.gethostname(),
              "started": datetime.now(UTC).isoformat(timespec="seconds"),
              "argv": sys.argv}
        os.ftruncate(fd, 0)
        os.lseek(fd, 0, os.SEEK_SET)
        os.write(fd, json.dumps(me).encode())
        self._fd = fd

    def _busy_message(self, holder: dict[str, Any]) -> str:
        outdir = self.path.parent.parent
        who = (f"PID {holder.get('pid')} on {holder.get('host')}, started "
               f"{holder.get('started')}" if holder else "PID not known yet")
        waited = f" (waited {self.wait:g} s)" if self.wait else ""
        return (f"{outdir}: another traveller batch run is working on this folder ({who})"
                f"{waited}; not starting a second one. Let it finish, or use --wait SECONDS "
                f"to wait for it.")

    def release(self) -> None:
        """Empty the lock file and let go (the file itself stays)."""
        if self._fd is None:
            return
        fd, self._fd = self._fd, None
        try:
            os.ftruncate(fd, 0)
            _unlock(fd)
        finally:
            os.close(fd)

    def __enter__(self) -> OutdirLock:
        self.acquire()
        return self

    def __exit__(self, *exc: object) -> None:
        self.release()


def stale_note(stale: dict[str, Any]) -> str:
    """A line telling the operator the lock of a killed run was taken over."""
    state = ("still running but no longer holding the lock" if stale.get("alive")
             else "no longer running")
    return (f"took over the lock left by an interrupted run (PID {stale.get('pid')} on "
            f"{stale.get('host')}, started {stale.get('started')}, {state}); "
            "its unfinished work is redone")
