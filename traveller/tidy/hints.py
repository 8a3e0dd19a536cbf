"""Hints about the session as a whole: columns, or the input's own word, that say another
scoring method is meant."""

from __future__ import annotations

from functools import cache
from typing import TYPE_CHECKING

import pandas as pd

from traveller.problems import flag
from traveller.tidy.arrays import NO_ROWS

if TYPE_CHECKING:
    from traveller.read.raw import Loaded

#: Method-specific input columns -> the method they belong to.
_METHOD_OF = {"hcp": "russian", "ns_hcp": "russian", "ew_hcp": "russian",
              "room": "teams", "home_team": "teams", "ns_team": "teams"}


#: How USEBIO's EVENT_TYPE names the methods (only those that say one plainly: an
#: ``INDIVIDUAL`` may be matchpointed or scored in IMPs).
_USEBIO_EVENTS = {"MP_PAIRS": "mp", "BUTLER_PAIRS": "butler", "CROSS_IMP": "ximp",
                  "AGGREGATE_PAIRS": "total", "TEAMS_OF_FOUR": "teams"}
#: How a PBN file's Scoring tag names them, by its first word (``MatchPoints;MP1``); ``IMP``
#: alone (cross-IMPs, Butler or a match) says none.
_PBN_SCORING = {"MP": "mp", "MATCHPOINTS": "mp", "MATCHPOINT": "mp", "BUTLER": "butler",
                "CROSS-IMP": "ximp", "CROSSIMP": "ximp", "CROSS-IMPS": "ximp",
                "CROSSIMPS": "ximp", "IMP-ACROSS": "ximp", "TOTAL": "total",
                "TOTALPOINTS": "total"}


def stated_method(scoring: str | None) -> str | None:
    """The method an input's own statement of its scoring names (USEBIO's EVENT_TYPE, a PBN
    file's Scoring tag), or None where it names none plainly.

    >>> stated_method("BUTLER_PAIRS"), stated_method("IMP;Butler-2;Mean")
    ('butler', 'butler')
    >>> stated_method("MatchPoints;MP1"), stated_method("IMP"), stated_method(None)
    ('mp', None, None)
    """
    if not scoring:
        return None
    text = scoring.strip().upper()
    if text in _USEBIO_EVENTS:
        return _USEBIO_EVENTS[text]
    words = [w.strip() for w in text.split(";")]
    if words[0] == "IMP" and len(words) > 1 and words[1].startswith("BUTLER"):
        return "butler"
    return _PBN_SCORING.get(words[0])


def stated_scoring(loaded: Loaded) -> tuple[str, str] | None:
    """Where the input says how it was scored and what it says (``("EVENT_TYPE",
    "BUTLER_PAIRS")``, ``("Scoring", "IMP;Butler-2;Mean")``), from its first table that
    says it; None when none does."""
    return _stated(loaded, "scoring", "EVENT_TYPE", "Scoring")


def stated_program(loaded: Loaded) -> tuple[str, str] | None:
    """Where the input names the program that wrote it and the name (``("PROGRAM_NAME",
    "Compscore3")``, ``("Application", "Ruter")``), from its first table that does; None
    when none does."""
    return _stated(loaded, "program", "PROGRAM_NAME", "Generator")


def _stated(loaded: Loaded, key: str, usebio_tag: str, pbn_tag: str) -> tuple[str, str] | None:
    """(the tag, its value) of the first table whose meta has ``key``: USEBIO's tag, or
    PBN's (the meta's ``KEY_tag`` where the reader found it under another)."""
    for table in loaded.tables:
        said = str(table.meta.get(key) or "").strip()
        if said:
            if str(table.meta.get("format", "")).startswith("USEBIO"):
                return usebio_tag, said
            return str(table.meta.get(f"{key}_tag") or pbn_tag), said
    return None


def method_hints(travellers: pd.DataFrame, method: str,
                 headers: dict[str, str] | None = None,
                 stated: tuple[str, str] | None = None) -> pd.DataFrame:
    """A ``method-suggested`` warning when the columns, or the input's own statement of how
    it was scored, suggest a method other than ``method``.

    An HCP column belongs to Russian scoring, a Room (or team) column to a
    teams match; scored as matchpoints, such a session is silently something
    else. One warning per column, at the first result of the file, naming the
    column as ``headers`` (field -> the file's header) does. ``stated`` is (where
    the input says it, what it says): a USEBIO file's EVENT_TYPE ``BUTLER_PAIRS``
    scored as matchpoints is listed once, for the file (no row).
    """
    from traveller.read.headers import header_key

    if travellers.empty:
        return flag(travellers, "method-suggested", "")
    index = _method_columns()
    found = []
    said = stated_method(stated[1]) if stated else None
    if stated and said and said != method:
        file = travellers.iloc[:1].assign(row=pd.array([pd.NA], dtype="Int64"))  # not a row
        found.append(flag(file, "method-suggested", stated[0],
                          pd.Series([stated[1]], index=file.index, dtype="string"),
                          f"the input says it was scored with --method {said}; scored as "
                          f"{method}", blocking=False))
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
