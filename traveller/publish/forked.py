"""A share of the publishing work done beside this process, in a forked child (Linux).

A large session's website is mostly Python string work, which one process
does on one core. :class:`Forked` runs part of it in a child made with
``os.fork``: the child starts with this process's memory as it was at the fork
(shared copy-on-write, so the scored frames are not pickled or copied), does
its share and leaves with ``os._exit`` (no clean-up of the parent's state, no
buffered output printed twice). It sends a byte for each unit of work done (a
page; the bytes gathered and sent every 50 ms), so a progress bar counts its
pages too, and then its outcome: an exception raised in the child is raised
again by :meth:`Forked.join`.

Only the command line's own runs use it (``traveller score --html`` on a large
session); the library's functions fork nothing unless asked to.
"""

from __future__ import annotations

import contextlib
import gc
import os
import pickle
import select
import signal
import struct
import sys
import tempfile
import time
import traceback
import warnings
from collections.abc import Callable, Iterator, Sequence
from pathlib import Path
from typing import Generic, TypeVar

T = TypeVar("T")

__all__ = ["BothEnds", "Forked", "Lost", "can_fork", "cores", "room_for_a_copy"]

#: What the child sends: one byte a unit done, then the end mark and a pickled exception
#: (nothing after the mark: done).
_TICK, _END = b".", b"!"


def can_fork() -> bool:
    """True where a child may be forked safely: Linux (macOS's frameworks are not
    fork-safe, and Windows has no fork)."""
    return sys.platform == "linux" and hasattr(os, "fork")


def cores() -> int:
    """The CPU cores this process may run on."""
    try:
        return len(os.sched_getaffinity(0))
    except (AttributeError, OSError):
        return os.cpu_count() or 1


def room_for_a_copy() -> bool:
    """True when the machine's available memory could hold this process twice over.

    A forked child shares this process's pages until either writes to them; the
    site's second process mostly reads, but it must never push the machine into
    swapping, so it is forked only with room for a full copy (and 256 MiB more).
    """
    try:
        available = next(int(line.split()[1]) * 1024
                         for line in Path("/proc/meminfo").read_text().splitlines()
                         if line.startswith("MemAvailable:"))
        resident = int(Path("/proc/self/statm").read_text().split()[1]) * os.sysconf(
            "SC_PAGE_SIZE")
    except (OSError, StopIteration, ValueError, IndexError):
        return False
    return available >= 2 * resident + (256 << 20)


class Lost(RuntimeError):
    """The child ended without saying how (killed by a signal: ``signal``, else 0)."""

    def __init__(self, message: str, signal: int = 0) -> None:
        super().__init__(message)
        self.signal = signal


class BothEnds(Generic[T]):
    """Units of work shared by this process and a child forked after it is made: one
    takes them from the front, the other from the back, until they meet; each unit is
    taken once, so whichever side finishes its own work first does more of these.

    The two ends are kept in an unlinked temporary file under a POSIX record lock,
    which is each process's own and ends with it: a child killed while holding it
    cannot leave the parent waiting.
    """

    def __init__(self, units: Sequence[T]) -> None:
        self.units = list(units)
        self._file = tempfile.TemporaryFile()  # noqa: SIM115 (closed by close())
        os.pwrite(self._file.fileno(), struct.pack("qq", 0, len(self.units)), 0)

    def front(self) -> T | None:
        """The first unit nobody has taken (None: none left)."""
        return self._take(front=True)

    def back(self) -> T | None:
        """The last unit nobody has taken (None: none left)."""
        return self._take(front=False)

    def taken_from_back(self) -> list[T]:
        """The units taken from the back so far, last first (as they were taken)."""
        with self._locked() as fd:
            _, stop = struct.unpack("qq", os.pread(fd, 16, 0))
        return self.units[stop:][::-1]

    def _take(self, front: bool) -> T | None:
        with self._locked() as fd:
            first, stop = struct.unpack("qq", os.pread(fd, 16, 0))
            if first >= stop:
                return None
            at = first if front else stop - 1
            os.pwrite(fd, struct.pack("qq", *((first + 1, stop) if front else (first, at))), 0)
        return self.units[at]

    @contextlib.contextmanager
    def _locked(self) -> Iterator[int]:
        """The ends' file descriptor, under the record lock for the block."""
        import fcntl  # (Unix only, as fork is)

        fd = self._file.fileno()
        fcntl.lockf(fd, fcntl.LOCK_EX)
        try:
            yield fd
        finally:
            fcntl.lockf(fd, fcntl.LOCK_UN)

    def close(self) -> None:
        self._file.close()


class Forked:
    """``work(tick)`` running in a forked child; the child calls ``tick()`` per unit done.

    >>> helper = Forked(lambda tick: [tick() for _ in range(3)])  # doctest: +SKIP
    >>> helper.join()  # waits; raises what the child raised  # doctest: +SKIP
    """

    def __init__(self, work: Callable[[Callable[[], None]], None]) -> None:
        read_end, write_end = os.pipe()
        with warnings.catch_warnings():
            # Python 3.12+ warns on forking a process with threads (pyarrow's idle pool):
            # the child takes no lock another thread could hold (it renders and writes files)
            warnings.simplefilter("ignore", DeprecationWarning)
            try:
                pid = os.fork()
            except OSError:  # (no process to be had: the caller does the work itself)
                os.close(read_end)
                os.close(write_end)
                raise
        if pid == 0:  # the child: never returns
            os.close(read_end)
            _child(work, write_end)
        os.close(write_end)
        self.pid, self._fd = pid, read_end
        self.done = 0  # units the child has reported
        self._outcome: bytes | None = None  # after the end mark
        self._status: int | None = None
        os.set_blocking(read_end, False)

    def poll(self) -> int:
        """The units done so far (reads what the child sent, without waiting)."""
        self._read(wait=False)
        return self.done

    def join(self, tick: Callable[[int], None] | None = None) -> None:
        """Wait for the child to end (``tick(units done)`` as its reports arrive); raise the
        exception it raised, or :class:`Lost` when it ended without saying how."""
        while self._outcome is None and self._read(wait=True, tick=tick):
            pass
        self._reap()
        if self._outcome:
            raise pickle.loads(self._outcome)
        if self._outcome is None or self._status != 0:
            how = (f"was killed by signal {-self._status}" if self._status and self._status < 0
                   else f"ended with status {self._status}")
            raise Lost(f"the second process writing the pages {how} before it finished; "
                       "run again (or look for what stopped it: memory?)",
                       -self._status if self._status and self._status < 0 else 0)

    def kill(self) -> None:
        """End the child now (the parent failed or was interrupted); nothing is raised."""
        if self._status is None:
            with contextlib.suppress(ProcessLookupError):
                os.kill(self.pid, signal.SIGKILL)
            self._reap()

    def _read(self, wait: bool, tick: Callable[[int], None] | None = None) -> bool:
        """Read what is there (with ``wait``, block until something is or the pipe ends);
        False once the pipe has ended."""
        if self._fd < 0:
            return False
        if wait:
            select.select([self._fd], [], [])
        try:
            data = os.read(self._fd, 1 << 16)
        except BlockingIOError:
            return True
        if not data:
            os.close(self._fd)
            self._fd = -1
            return False
        if self._outcome is not None:
            self._outcome += data
            return True
        ticks, end, rest = data.partition(_END)
        self.done += len(ticks)
        if end:
            self._outcome = rest
        if tick is not None:
            tick(self.done)
        return True

    def _reap(self) -> None:
        if self._status is None:
            _, status = os.waitpid(self.pid, 0)
            self._status = os.waitstatus_to_exitcode(status)
        if self._fd >= 0:
            os.close(self._fd)
            self._fd = -1

    def __del__(self) -> None:  # a helper never joined (an error between start and join)
        with contextlib.suppress(Exception):  # (at interpreter exit, say: nothing to print)
            self.kill()


def _child(work: Callable[[Callable[[], None]], None], fd: int) -> None:
    code = 0
    outcome = b""
    try:
        signal.signal(signal.SIGINT, signal.SIG_DFL)  # Ctrl-C: the parent cleans up
        gc.freeze()  # the inherited objects are never walked: their pages stay shared

        held, sent = 0, time.monotonic()

        def tick() -> None:  # sent a few times a second, not a write per unit
            nonlocal held, sent
            held += 1
            if time.monotonic() - sent >= 0.05:
                os.write(fd, _TICK * held)
                held, sent = 0, time.monotonic()

        work(tick)
        os.write(fd, _TICK * held)
    except BaseException as exc:  # sent to the parent, raised there
        code = 1
        try:
            exc.add_note("(in the second process writing the pages)\n"
                         + "".join(traceback.format_exception(exc)))
            outcome = pickle.dumps(exc)
        except Exception:  # an exception that does not pickle: its text
            outcome = pickle.dumps(RuntimeError("".join(traceback.format_exception(exc))))
    finally:
        try:
            os.set_blocking(fd, True)
            view = memoryview(_END + outcome)
            while view:
                view = view[os.write(fd, view):]
        finally:
            os._exit(code)
