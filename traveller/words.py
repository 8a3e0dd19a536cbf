"""Words every stage prints: a count with its noun in the right number, and a number
to its places as the workbook shows it.

``1 board``, ``24 boards``, ``1 rubber``, ``0 problems`` — never ``1 boards`` or
``problem(s)``. Shared vocabulary: imports nothing of traveller (nor pandas), so any
stage, the command line and the page templates (as a filter) can call it.
"""

from __future__ import annotations

import math
from decimal import ROUND_HALF_UP, Decimal

__all__ = ["noun", "places", "plural"]


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


def places(value: float, decimals: int = 2, signed: bool = False) -> str:
    """``value`` to ``decimals`` places as a spreadsheet shows its cell: from the value's
    15 significant digits, a half rounded away from zero (``places(158.625)`` is
    ``"158.63"``, ``places(79.975)`` ``"79.98"``, where printf writes 158.62 and 79.97);
    ``signed`` puts a sign on every number but zero (a signed format shows 0, not +0).
    Infinities and NaN as printf writes them."""
    sign = "+" if signed and value != 0 else ""
    value = value or 0.0  # (-0.0 as 0: a spreadsheet shows either as 0)
    if not math.isfinite(value):
        return f"{value:{sign}.{decimals}f}"
    exact = Decimal(f"{value:.15g}").quantize(Decimal(1).scaleb(-decimals), ROUND_HALF_UP)
    return f"{exact:{sign}.{decimals}f}"
