"""Pairs that could not be identified (``???``, blank or 0), kept in the comparison.

Exports of online events write ``???``, nothing or ``0`` for a pair that could
not be identified (a substitute). The result is real and the rest of the
field was compared with it, so with ``unknown_pairs="field"`` such a row stays
in the scoring, its unknown pair is not ranked, and the row is listed as an
``unknown-pair`` warning. :func:`unidentified` is called from one place, the
pair checks of :mod:`traveller.tidy.normalise`.
"""

from __future__ import annotations

import pandas as pd

from traveller.problems import flag
from traveller.tidy.arrays import NO_ROWS
from traveller.tidy.notation import cell_text

#: How an export writes a pair it could not identify (after stripping; blank too).
UNKNOWN_MARKS = frozenset({"", "?", "??", "???", "0", "-"})


def unidentified(cells: pd.Series, src: pd.DataFrame, column: str, keep: bool,
                 sit_out: pd.Series | None = None) -> tuple[pd.Series, pd.DataFrame]:
    """(mask of cells naming an unidentified pair, their warnings); nothing unless ``keep``.

    ``src`` carries each row's file, sheet and row; ``column`` is the header
    as written; ``sit_out`` marks Bye lines, whose blank pair is the phantom.

    >>> src = pd.DataFrame({"file": "f", "sheet": "", "row": [2, 3, 4]})
    >>> unidentified(pd.Series(["???", "7", None]), src, "NS", True)[0].tolist()
    [True, False, True]
    """
    if not keep:
        return pd.Series(False, index=cells.index), flag(NO_ROWS, "unknown-pair", column)
    text = cell_text(cells).fillna("").str.strip()
    unknown = text.isin(UNKNOWN_MARKS).fillna(False).astype(bool)
    if sit_out is not None:
        unknown &= ~sit_out
    problems = flag(src[unknown], "unknown-pair", column, cells[unknown].astype("string"),
                    "compared with the field, not ranked", blocking=False)
    return unknown, problems
