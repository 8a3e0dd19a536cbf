"""Hints about the session as a whole: columns that say another scoring method is meant."""

from __future__ import annotations

from functools import cache

import pandas as pd

from traveller.problems import flag
from traveller.tidy.arrays import NO_ROWS

#: Method-specific input columns -> the method they belong to.
_METHOD_OF = {"hcp": "russian", "ns_hcp": "russian", "ew_hcp": "russian",
              "room": "teams", "home_team": "teams", "ns_team": "teams"}


def method_hints(travellers: pd.DataFrame, method: str,
                 headers: dict[str, str] | None = None) -> pd.DataFrame:
    """A ``method-suggested`` warning when the columns suggest a method other than ``method``.

    An HCP column belongs to Russian scoring, a Room (or team) column to a
    teams match; scored as matchpoints, such a session is silently something
    else. One warning per column, at the first result of the file, naming the
    column as ``headers`` (field -> the file's header) does.
    """
    from traveller.read.headers import header_key

    if travellers.empty:
        return flag(travellers, "method-suggested", "")
    index = _method_columns()
    found = []
    for column in travellers.columns:
        name = index.get(header_key(column))
        wanted = _METHOD_OF.get(name or "")
        if wanted and wanted != method:
            first = travellers.loc[[travellers["row"].astype("int64").idxmin()]]
            shown = (headers or {}).get(str(column), str(column))
            found.append(flag(first, "method-suggested", shown, None,
                              f"the {shown} column belongs to --method {wanted}; scored as "
                              f"{method}", blocking=False))
    return pd.concat(found) if found else flag(NO_ROWS, "method-suggested", "")


@cache
def _method_columns() -> dict[str, str]:
    """Header key -> the method column it names (folded once per process, not per session)."""
    from traveller.read.headers import header_key
    from traveller.schema import METHOD_COLUMNS

    return {header_key(a): name for name, aliases in METHOD_COLUMNS.items() for a in aliases}
