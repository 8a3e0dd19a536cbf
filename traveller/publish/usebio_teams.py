"""A teams match or teams event in USEBIO 1.2: the teams, then each match with both rooms.

Under ``EVENT EVENT_TYPE="TEAMS_OF_FOUR"`` (after the head every USEBIO file
has, see :mod:`traveller.publish.usebio_out`):

- ``PARTICIPANTS``: a ``TEAM`` per ranked team with ``TEAM_NUMBER``,
  ``TEAM_NAME`` (empty when the input names none), ``TOTAL_SCORE`` (its VPs),
  ``PLACE`` and a ``PLAYER`` per player who sat for it (name and
  ``NATIONAL_ID_NUMBER``; four empty ones when the input has no names);
- a ``MATCH`` per match: ``MATCH_NUMBER``, the home team's then the visitors'
  ``TEAM`` (``TEAM_NUMBER``, ``IMPS``, ``VICTORY_POINTS``), then a ``BOARD``
  per board with a ``TRAVELLER_LINE`` per room: ``NS_TEAM_NUMBER``,
  ``EW_TEAM_NUMBER``, ``ROOM`` (``Open``: the home team sits N-S;
  ``Closed``: the visitors do), the contract, declarer, lead, tricks and the
  N-S ``SCORE`` as in a pairs traveller line, and ``NS_IMPS``/``EW_IMPS``:
  what the board gave each side of that table (from the comparison of the
  two rooms; absent when the board was not scored).
"""

from __future__ import annotations

import xml.etree.ElementTree as ET
from typing import TYPE_CHECKING

import pandas as pd

from traveller.publish import shown
from traveller.publish.pbn_teams import table_rooms
from traveller.publish.usebio_parts import add, ruling_codes

if TYPE_CHECKING:
    from traveller.result import Result

EVENT_TYPE = "TEAMS_OF_FOUR"
#: Players written for a team whose names are not known (empty PLAYER elements).
TEAM_PLAYERS = 4


def team_players(result: Result) -> dict[int, list[str]]:
    """Team number -> the names of the players who sat for it, in the order they sat."""
    t = result.travellers
    if not {"north", "south", "east", "west"} <= set(t.columns):
        return {}
    seated = pd.concat([pd.DataFrame({"team": pd.to_numeric(t[side], errors="coerce"),
                                      "name": shown.text(t[seat])})
                        for side, seat in (("ns_team", "north"), ("ns_team", "south"),
                                           ("ew_team", "east"), ("ew_team", "west"))])
    seated = seated[seated["team"].notna() & (seated["name"] != "")].drop_duplicates()
    return {int(team): names.tolist() for team, names
            in seated.groupby("team", sort=False)["name"]}


def _participants(event: ET.Element, result: Result) -> None:
    part = add(event, "PARTICIPANTS")
    part.set("EVENT_TYPE", EVENT_TYPE)
    r = result.ranking
    players = team_players(result)
    rows = pd.DataFrame({"team": pd.to_numeric(r["team"], errors="coerce").astype("Int64"),
                         "name": shown.text(r["names"]) if "names" in r else "",
                         "vp": shown.numbers(r["vp"]), "place": shown.text(r["place"])})
    for row in rows.itertuples(index=False):
        team = add(part, "TEAM")
        add(team, "TEAM_NUMBER", row.team)
        add(team, "TEAM_NAME", row.name if row.name != str(row.team) else "")
        add(team, "TOTAL_SCORE", row.vp)
        add(team, "PLACE", row.place)
        names = players.get(int(row.team), []) if pd.notna(row.team) else []
        for name in names + [""] * max(0, TEAM_PLAYERS - len(names)):
            player = add(team, "PLAYER")
            add(player, "PLAYER_NAME", name)
            add(player, "NATIONAL_ID_NUMBER")


def _lines(result: Result) -> pd.DataFrame:
    """One row of element texts per traveller line, with its match, board and room."""
    t = result.travellers.reset_index(drop=True)
    rooms = table_rooms(result)
    is_open = rooms["open"].fillna(True).astype(bool)
    ruling = ruling_codes(t)
    ruled = ruling != ""
    return pd.DataFrame({
        "match": shown.text(rooms["match"]), "board": rooms["board"].astype(int),
        "home": rooms["home"], "away": rooms["away"],
        "NS_TEAM_NUMBER": shown.text(t["ns_team"]), "EW_TEAM_NUMBER": shown.text(t["ew_team"]),
        "ROOM": is_open.map({True: "Open", False: "Closed"}),
        "CONTRACT": shown.text(t["contract"]).where(~ruled, ""),
        "PLAYED_BY": shown.seats(t["declarer"]).where(~ruled, ""),
        "LEAD": shown.text(t["lead"]).str.replace(r"^([SHDC])(.+)$", r"\2\1", regex=True)
        .where(~ruled, ""),
        "TRICKS": shown.text(t["tricks"]).where(~ruled, ""),
        "SCORE": shown.numbers(t["ns_score"]).where(~ruled, ruling),
        "NS_IMPS": shown.numbers(t["ns_imp"]), "EW_IMPS": shown.numbers(t["ew_imp"]),
        "open": is_open}, index=t.index)


LINE_TAGS = ["NS_TEAM_NUMBER", "EW_TEAM_NUMBER", "ROOM", "CONTRACT", "PLAYED_BY", "LEAD",
             "TRICKS", "SCORE", "NS_IMPS", "EW_IMPS"]


def _match_teams(match: ET.Element, result: Result, label: str, home: object,
                 away: object) -> None:
    """The two TEAM elements of a match: number, IMPs and VPs (home team first)."""
    matches = result.tables.get("Matches", pd.DataFrame())
    found = matches[shown.text(matches["match"]) == label] if not matches.empty else matches
    row = found.iloc[0] if len(found) else None
    for side, number in (("home", home), ("away", away)):
        team = add(match, "TEAM")
        add(team, "TEAM_NUMBER", number)
        if row is not None:
            add(team, "IMPS", shown.numbers(pd.Series([row[f"{side}_imps"]])).iloc[0])
            add(team, "VICTORY_POINTS", shown.numbers(pd.Series([row[f"{side}_vp"]])).iloc[0])


def teams_event(event: ET.Element, result: Result) -> None:
    """The teams and every match with its boards, into ``event`` (after its head)."""
    _participants(event, result)
    lines = _lines(result).sort_values(["match", "board", "open"],
                                       ascending=[True, True, False], kind="stable")
    for number, (label, part) in enumerate(lines.groupby("match", sort=False), start=1):
        match = add(event, "MATCH")
        add(match, "MATCH_NUMBER", number)
        first = part.iloc[0]
        _match_teams(match, result, str(label), first["home"], first["away"])
        for board_number, rows in part.groupby("board", sort=True):
            board = add(match, "BOARD")
            board.set("EVENT_TYPE", EVENT_TYPE)
            add(board, "BOARD_NUMBER", board_number)
            for values in rows[LINE_TAGS].itertuples(index=False, name=None):
                line = add(board, "TRAVELLER_LINE")
                for tag, value in zip(LINE_TAGS, values, strict=True):
                    if value:
                        add(line, tag, value)
