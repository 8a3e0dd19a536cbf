"""How our commands use Python's cyclic garbage collector: a command is a short process.

CPython frees nearly every object by reference counting; its cyclic collector
exists for reference cycles only, yet it runs every 700 new container
objects and, every so often, walks every object alive. Importing pandas
creates a few hundred thousand objects that live until the process ends, and
scoring and writing a club session creates tens of thousands of small ones, so
a command spent about a tenth of its import time and 5-8 % of each file's
time walking objects that could never be garbage.

The ``traveller score`` command and each batch worker therefore load their
libraries with the collector off (:func:`loading`), then freeze what exists
(``gc.freeze``: those objects are never walked again) and collect the young
objects every :data:`THRESHOLD` new ones instead of every 700. Cycles are
still collected, a little later; nothing else changes. The library API
(``traveller.process`` and the stages) never touches the collector: a program
that imports traveller keeps its own settings.
"""

from __future__ import annotations

import gc
from collections.abc import Iterator
from contextlib import contextmanager

__all__ = ["THRESHOLD", "loaded", "loading"]

#: New container objects between two collections of the young generation
#: (CPython's default is 700). A club session's workbook makes about 20,000.
THRESHOLD = 10_000


@contextmanager
def loading() -> Iterator[None]:
    """Import a command's libraries in this block: no collection meanwhile, then :func:`loaded`."""
    enabled = gc.isenabled()
    gc.disable()
    try:
        yield
    finally:
        if enabled:
            loaded()


def loaded() -> None:
    """Freeze every object alive (the libraries just loaded) and collect less often from now on."""
    gc.freeze()
    first, *older = gc.get_threshold()
    gc.set_threshold(max(first, THRESHOLD), *older)
    gc.enable()
