"""Cells that Excel turned into dates, recovered when only one reading makes sense.

Typing ``4-1`` into a cell makes it 4 January (or 1 April, by locale), and a
column formatted as dates shows the trick count 10 as 10 January 1900. For each
such cell the readings it may have come from are tried against the column's
own rules: the date's serial number, ``d-m`` and ``m-d``. One valid reading:
the cell is recovered and listed as a warning; none or several: the cell is
listed as a problem and the row is left out.
"""

from __future__ import annotations

import datetime as dt
import re
from collections.abc import Callable

import pandas as pd

from traveller.problems import flag
from traveller.tidy.notation import per_unique

_EPOCH = dt.datetime(1899, 12, 30)
_RELATIVE = re.compile(r"^(?:=|[+-]\d{1,2})$")


def _whole(low: int, high: int) -> Callable[[str], bool]:
    return lambda text: text.isdigit() and low <= int(text) <= high


def _score(text: str) -> bool:
    return bool(re.fullmatch(r"-?\d{2,4}0", text)) and abs(int(text)) <= 7600


def _result(text: str) -> bool:
    return bool(_RELATIVE.match(text)) or _whole(0, 13)(text)


#: Column -> rule a recovered reading must satisfy.
RULES: dict[str, Callable[[str], bool]] = {
    "board": _whole(1, 9999), "ns_pair": _whole(1, 9999), "ew_pair": _whole(1, 9999),
    "tricks": _result, "result": _result, "score": _score, "score_ew": _score,
}


def readings(value: dt.date) -> list[str]:
    """Texts a date cell may have been typed as: its serial number, d-m and m-d."""
    stamp = dt.datetime(value.year, value.month, value.day)
    # Excel counts a 29 February 1900 that never was: before March 1900 serials are one less
    serial = (stamp - _EPOCH).days - (1 if stamp < dt.datetime(1900, 3, 1) else 0)
    return [str(serial), f"{value.day}-{value.month}", f"{value.month}-{value.day}"]


def _recover(value: object, rule: Callable[[str], bool]) -> str | None:
    if not isinstance(value, dt.date):
        return None
    valid = {r for r in readings(value) if rule(r)}
    return valid.pop() if len(valid) == 1 else None


def recover_dates(frame: pd.DataFrame, header: dict[str, str], src: pd.DataFrame
                  ) -> tuple[pd.DataFrame, list[pd.DataFrame]]:
    """Replace recoverable date cells by their text; problems for the rest."""
    problems: list[pd.DataFrame] = []
    out = frame
    for column, rule in RULES.items():
        if column not in frame:
            continue
        column_cells = frame[column]
        kinds = (column_cells.cat.categories
                 if isinstance(column_cells.dtype, pd.CategoricalDtype) else column_cells)
        if kinds.dtype != object or not any(isinstance(c, dt.date) for c in kinds.tolist()):
            continue  # text read from CSV holds no dates
        is_date = per_unique(column_cells, lambda u: u.map(lambda v: isinstance(v, dt.date)))
        is_date = is_date.fillna(False).astype(bool)
        if not is_date.any():
            continue
        cells = column_cells[is_date].astype(object)
        fixed = cells.map(lambda v, rule=rule: _recover(v, rule))
        shown = cells.map(lambda v: f"{v:%Y-%m-%d}")
        name = header.get(column, column)
        ok = fixed.notna()
        problems.append(flag(src.loc[ok.index[ok]], "excel-date-recovered", name, shown[ok],
                             "read as " + fixed[ok].astype(str), blocking=False))
        problems.append(flag(src.loc[ok.index[~ok]], "excel-date", name, shown[~ok]))
        out = out.copy() if out is frame else out
        out[column] = out[column].astype(object)
        out.loc[is_date, column] = fixed.where(ok, None).astype(object)
    return out, problems
