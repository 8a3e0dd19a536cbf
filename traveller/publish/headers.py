"""Readable headers and number formats of the workbook's columns."""

from __future__ import annotations

import re
from collections.abc import Mapping

from traveller.publish.sheet import DECIMAL, MP_FORMAT, SIGNED

#: Column -> number format; other columns are written as they are.
FORMATS = {
    "ns_score": SIGNED, "ns_mp": MP_FORMAT, "ew_mp": MP_FORMAT,
    "ns_pct": DECIMAL, "ew_pct": DECIMAL, "pct": DECIMAL, "mp": MP_FORMAT,
    "mp_factored": MP_FORMAT, "possible": MP_FORMAT, "ns_award": DECIMAL,
    "ew_award": DECIMAL, "score": SIGNED,
    "ns_mp_scaled": MP_FORMAT, "ew_mp_scaled": MP_FORMAT,
    # IMPs as matchpoints: whole where a board's (a card's, a block's) all are, else 2 places
    "ns_imp": MP_FORMAT, "ew_imp": MP_FORMAT, "imps": MP_FORMAT, "average": DECIMAL,
    "datum": SIGNED, "points": SIGNED, "target": SIGNED,
    # victory points too: a discrete scale's whole (15), the continuous scale's to 2 places
    "vp": MP_FORMAT, "home_vp": MP_FORMAT, "away_vp": MP_FORMAT, "quotient": DECIMAL,
}

#: Readable headers for canonical columns.
HEADERS = {
    "section": "Section", "board": "Board", "ns_pair": "N-S", "ew_pair": "E-W",
    "contract": "Contract", "declarer": "By", "tricks": "Tricks", "lead": "Lead",
    "ns_score": "N-S score", "ns_mp": "N-S MP", "ew_mp": "E-W MP", "ns_pct": "N-S %",
    "ew_pct": "E-W %", "line": "Line", "pair": "Pair", "player": "Player",
    "north": "North", "south": "South", "east": "East", "west": "West", "names": "Names",
    "boards": "Boards",
    "mp": "MP", "pct": "%", "place": "Place", "file": "File", "sheet": "Sheet", "row": "Row",
    "column": "Column", "value": "Value", "code": "Code", "severity": "Severity",
    "message": "Message",
    "results": "Results", "top": "Top", "ns_mp_scaled": "N-S MP (Neuberg)",
    "ew_mp_scaled": "E-W MP (Neuberg)", "common_top": "Common top", "notation": "Notation",
    "ns_imp": "N-S IMPs", "ew_imp": "E-W IMPs", "datum": "Datum", "imps": "IMPs",
    "average": "Average", "points": "Points", "target": "Target", "vp": "VP", "team": "Team",
    "matches": "Matches", "imps_for": "IMPs won", "imps_against": "IMPs lost",
    "quotient": "IMP quotient", "match": "Match", "home_team": "Home team",
    "away_team": "Away team", "played": "Played", "missing": "Missing",
    "home_imps": "Home IMPs", "away_imps": "Away IMPs", "margin": "Margin",
    "home_vp": "Home VP", "away_vp": "Away VP", "status": "Status",
    "home_ns_score": "Home N-S score", "away_ns_score": "Away N-S score",
    "home_diff": "Home difference", "home_imp": "Home IMPs", "away_imp": "Away IMPs",
    "mp_factored": "MP (factored)", "possible": "MP possible", "ruling": "Ruling",
    "ruling_kind": "Ruling kind",
    "ns_award": "N-S award %", "ew_award": "E-W award %", "ruling_applied": "Ruling applied",
    "phantom": "Phantom", "arrow": "Arrow switched", "fouled": "Fouled group",
    "held": "Cards", "opponent": "Opponents", "score": "Score", "count": "Times",
    "item": "Item", "sessions": "Sessions", "carry": "Carry-over",
    "score_total": "Score", "session": "Session", "master_points": "Master points",
    "player_id": "Federation number", "award": "Award", "scale": "Scale",
    # a simultaneous pairs' field-wide figures beside a club's own (traveller.sim)
    "national_ns_mp": "National N-S MP", "national_ew_mp": "National E-W MP",
    "national_ns_pct": "National N-S %", "national_ew_pct": "National E-W %",
    "national_top": "National top", "national_ns_imp": "National N-S IMPs",
    "national_ew_imp": "National E-W IMPs", "national_datum": "National datum",
    "national_pct": "National %", "national_average": "National IMPs per board",
    "national_place": "National place",
    # a teams traveller's seats
    "room": "Room", "ns_team": "N-S team", "ew_team": "E-W team",
    # a PBN ScoreTable's own columns, and the adjustment markers an export gives a line
    "table": "Table", "round": "Round", "multiplicity": "Multiplicity",
    "adjusted_ns": "N-S adjustment (as written)", "adjusted_ew": "E-W adjustment (as written)",
}

#: Readable names of the fields kept as typed (``<field>_as_written``) that
#: :data:`HEADERS` does not name.
_TYPED = {"declarer": "Declarer", "result": "Result", "score_ew": "Score E-W", "made": "Made",
          "down": "Down", "made_down": "Made/down", "score_side": "Side", "vul": "Vul",
          "dealer": "Dealer", "doubled": "Doubled", "ns_plus": "N-S plus", "ns_minus": "N-S minus",
          "ew_plus": "E-W plus", "ew_minus": "E-W minus"}
_AS_WRITTEN = "_as_written"
#: Readable names of the figures an input publishes (``published_<field>``, a PBN or
#: USEBIO file's own matchpoints, deal, ...) that :data:`HEADERS` does not name.
_PUBLISHED_FIELDS = {"vulnerable": "Vul", "dealer": "Dealer", "deal": "Deal",
                     "total": "Total", "north_mp": "North MP", "east_mp": "East MP",
                     "south_mp": "South MP", "west_mp": "West MP"}
_PUBLISHED = "published_"


def heading(column: object) -> str:
    """The sheets' heading of a frame column: the frames use snake_case names
    (``contract_as_written``), the sheets readable ones ("Contract (as written)", and "N-S
    MP (published)" for the matchpoints a PBN or USEBIO file gives); a column of the
    input's own keeps its header as typed.

    >>> heading("published_ns_mp"), heading("published_deal"), heading("Remarks")
    ('N-S MP (published)', 'Deal (published)', 'Remarks')
    >>> heading("room"), heading("ns_team"), heading("table"), heading("adjusted_ns")
    ('Room', 'N-S team', 'Table', 'N-S adjustment (as written)')
    """
    name = str(column)
    if name in HEADERS:
        return HEADERS[name]
    if name.endswith(_AS_WRITTEN) and len(name) > len(_AS_WRITTEN):
        field = name[:-len(_AS_WRITTEN)]
        readable = (HEADERS.get(field) if field in ("contract", "tricks", "lead") else None
                    ) or _TYPED.get(field) or field.replace("_", " ").capitalize()
        return f"{readable} (as written)"
    if name.startswith(_PUBLISHED) and len(name) > len(_PUBLISHED):
        field = name[len(_PUBLISHED):]
        readable = (HEADERS.get(field) or _PUBLISHED_FIELDS.get(field)
                    or field.replace("_", " ").capitalize())
        return f"{readable} (published)"
    return name


#: Text printed right of right-aligned numbers, set off from them by an indent (the E-W %
#: never runs into the ruling).
INDENTED = frozenset({"ruling", "ruling_applied", "ruling_kind", "Ruling_as_written"})

#: Short codes and small numbers, centred so neighbouring columns do not run together.
CENTERED = frozenset({"board", "ns_pair", "ew_pair", "declarer", "tricks", "pair", "line",
                      "boards", "place", "results", "top", "row"})


#: An event's column of each session's percentage: ``pct_1``, ``pct_2``, ...
_SESSION_PCT = re.compile(r"pct_(\d+)")


def event_column(column: str, settings: Mapping[str, object]) -> str | None:
    """What an event's own ranking column is: "average" (its Score when the places follow
    the mean of the session percentages), "total" (when they follow the total
    matchpoints), "session" (a session's percentage); None for any other column."""
    if column == "score" and settings.get("combine") in ("average", "total"):
        return str(settings["combine"])
    return "session" if _SESSION_PCT.fullmatch(column) else None


def ranking_heading(column: str, settings: Mapping[str, object]) -> str:
    """A ranking column's heading (:data:`HEADERS`); an event's Score says what the places
    follow, carry-over included ("Average %" of the session percentages, or "Total"
    matchpoints), and each session's percentage is "Session 2 %".

    >>> ranking_heading("score", {"combine": "average"}), ranking_heading("pct_2", {})
    ('Average %', 'Session 2 %')
    """
    kind = event_column(column, settings)
    if kind == "session":
        return f"Session {column.removeprefix('pct_')} %"
    return {"average": "Average %", "total": "Total"}.get(kind or "", HEADERS.get(column, column))


def event_figure(ranking: Mapping[str, object], settings: Mapping[str, object]) -> str:
    """An event's heading of the figure its places follow ("Average %", "Total"), the
    ``score`` of its ``ranking`` (a frame, or its columns by name); "" for a session."""
    if "score" in ranking and event_column("score", settings):
        return ranking_heading("score", settings)
    return ""
