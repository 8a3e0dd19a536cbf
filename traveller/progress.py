"""Progress bars for the commands' long work, on a terminal only.

A bar (done of total, rate, time left) is drawn on standard error by tqdm,
and only when standard error is a terminal and the command was not told to
be quiet: under cron, in a pipe or with ``-q`` nothing extra is printed, and
tqdm is not even imported. A bar shows itself only once the work has taken
``delay`` seconds, so a small session prints what it always printed.

The library's stages never draw anything: they take a plain callback
``progress(done, total)``, and the command line hands them :meth:`Bar.update`.
"""

from __future__ import annotations

import sys
import time
from typing import IO, Any

#: Seconds of work before a bar appears (a club session is done before that).
DELAY = 0.5


def wanted(quiet: bool = False, stream: IO[str] | None = None) -> bool:
    """True when a bar may be drawn: not quiet, and ``stream`` (stderr) is a terminal."""
    stream = sys.stderr if stream is None else stream
    try:
        return not quiet and stream.isatty()
    except (AttributeError, ValueError):  # a replaced or closed stream
        return False


class Bar:
    """One bar, or nothing at all when bars are not :func:`wanted` (every method then
    does nothing). ``unit`` names what is counted ("file", "board", "page", ...);
    ``thousands`` writes large counts short (``1.2M/2.2M``), for rows."""

    def __init__(self, label: str, unit: str, total: int | None = None, *,
                 quiet: bool = False, delay: float = DELAY,
                 stream: IO[str] | None = None, thousands: bool = False) -> None:
        self.label, self.unit, self.delay, self.thousands = label, unit, delay, thousands
        self.stream = sys.stderr if stream is None else stream
        self.on = wanted(quiet, self.stream)
        self.bar: Any = None
        self.began = time.monotonic()  # the delay counts from here, not from the first count
        if total is not None:
            self.start(total)

    def start(self, total: int, label: str | None = None) -> None:
        """Begin counting to ``total`` (closing a bar already drawn)."""
        self.close()
        if not self.on or total <= 0:
            return
        from tqdm import tqdm  # only on a terminal

        waited = time.monotonic() - self.began
        self.bar = tqdm(total=total, desc=label or self.label, unit=self.unit,
                        file=self.stream, delay=max(self.delay - waited, 0), leave=False,
                        dynamic_ncols=True, unit_scale=self.thousands)  # 1.2M/2.2M rows

    def update(self, done: int, total: int | None = None) -> None:
        """``done`` of ``total`` so far (a callback ``progress(done, total)``)."""
        if not self.on:
            return
        if self.bar is None or (total is not None and total != self.bar.total):
            if total is None:
                return
            self.start(total)
            if self.bar is None:
                return
        self.bar.update(done - self.bar.n)

    def step(self, n: int = 1) -> None:
        """``n`` more done."""
        if self.bar is not None:
            self.bar.update(n)

    def write(self, text: str, err: bool = False) -> None:
        """Print a line above the bar (the bar is redrawn below it)."""
        out = sys.stderr if err else sys.stdout
        if self.bar is None:
            print(text, file=out, flush=True)
            return
        self.bar.write(text, file=out)

    def close(self) -> None:
        if self.bar is not None:
            self.bar.close()
            self.bar = None

    def __enter__(self) -> Bar:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()
