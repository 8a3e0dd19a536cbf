"""Words every stage prints: a count with its noun in the right number.

``1 board``, ``24 boards``, ``1 rubber``, ``0 problems`` — never ``1 boards`` or
``problem(s)``. Shared vocabulary: imports nothing of traveller, so any stage,
the command line and the page templates (as a filter) can call it.
"""

from __future__ import annotations

__all__ = ["noun", "plural"]

#: Nouns whose plural is not the noun with an ``s``.
IRREGULAR = {"party": "parties", "match": "matches", "entry": "entries", "body": "bodies",
             "penalty": "penalties", "copy": "copies", "box": "boxes", "pass": "passes"}


def noun(count: int | float, one: str, many: str | None = None) -> str:
    """``one`` when ``count`` is exactly one, else its plural (``many``, or the usual
    English plural of ``one``)."""
    if count == 1:
        return one
    if many is not None:
        return many
    return IRREGULAR.get(one, f"{one}s")


def plural(count: int | float, one: str, many: str | None = None, *,
           thousands: bool = False) -> str:
    """``count`` and its noun: ``plural(1, "board")`` is ``"1 board"``, ``plural(3,
    "party", "parties")`` is ``"3 parties"``; ``thousands`` writes ``12,000``.

    A whole float is written without its decimal point (``2.0`` -> ``2``).
    """
    if isinstance(count, float) and count.is_integer():
        count = int(count)
    shown = f"{count:,}" if thousands else f"{count}"
    return f"{shown} {noun(count, one, many)}"
