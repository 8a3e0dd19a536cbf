"""A pair's names (and players) from the names table: looked up by section, line and pair.

A names table has one row per pair, so the lookups are plain dicts over its rows.
"""

from __future__ import annotations

import pandas as pd

from traveller.tidy import text as tx

#: The keys names are looked up by, most exact first.
_NAME_KEYS = (("section", "line", "pair"), ("section", "pair"), ("line", "pair"), ("pair",))
#: A missing key cell (equal only to itself, as a missing cell matches a missing one).
_MISSING = object()


def attach_names(totals: pd.DataFrame, names: pd.DataFrame | None) -> pd.Series:
    """Names for each (section, line, pair): exact line first, then a names row with no line.

    A names row without a section is looked up by line and pair only; one
    without a line (written "") by section and pair, then by pair; a Howell
    pair (no line) last by its number alone. The first
    names row of each key counts. Looked up in plain dicts: a names table has
    one row per pair.
    """
    if names is None or names.empty:
        return pd.Series("", index=totals.index, dtype="string")
    return attach_columns(totals, names, ["names"])[0]


def attach_columns(totals: pd.DataFrame, names: pd.DataFrame, columns: list[str]
                   ) -> list[pd.Series]:
    """:func:`attach_names` of each of the names table's ``columns`` in turn (a player's
    name, a federation number), the table's keys read once for all of them."""
    table = names.copy()
    table["pair"] = table["pair"].astype("Int64")
    if not table["section"].astype(bool).any():
        table["section"] = None
    cells = {c: _keys(table[c]) for c in ("section", "line", "pair")}
    wanted = {c: _keys(totals[c]) for c in ("section", "line", "pair")}
    return [pd.Series(_looked_up(names[c].tolist(), cells, wanted), index=totals.index,
                      dtype="string").fillna("") for c in columns]


def _looked_up(given: list[object], cells: dict[str, list[object]],
               wanted: dict[str, list[object]]) -> list[object]:
    """Per wanted key, the first given value of its names row (None: none found)."""
    found: list[object] = [None] * len(wanted["pair"])
    for keys in _NAME_KEYS:
        lookup: dict[tuple[object, ...], object] = {}
        for i, name in enumerate(given):
            if "section" in keys and cells["section"][i] is _MISSING:
                continue
            if "line" not in keys and cells["line"][i] != "":
                continue
            lookup.setdefault(tuple(cells[k][i] for k in keys), name)
        for j, name in enumerate(found):
            if name is None:
                name = lookup.get(tuple(wanted[k][j] for k in keys))
                found[j] = None if name is None or tx.is_missing(name) else name
    _howell_names(found, wanted, cells, given)
    return found


def _howell_names(found: list[object], wanted: dict[str, list[object]],
                  cells: dict[str, list[object]], given: list[object]) -> None:
    """A pair of a Howell (no line) still without names takes its pair number's names row
    whatever line that row gives (Ruter lists a Howell pair under the line it began on)."""
    lookup: dict[object, object] = {}
    for i, name in enumerate(given):
        lookup.setdefault(cells["pair"][i], name)
    for j, name in enumerate(found):
        if name is None and wanted["line"][j] == "":
            name = lookup.get(wanted["pair"][j])
            found[j] = None if name is None or tx.is_missing(name) else name


def _keys(values: pd.Series) -> list[object]:
    """A key column's cells as Python values, missing ones as :data:`_MISSING`."""
    return [_MISSING if tx.is_missing(v) else v for v in values.tolist()]
