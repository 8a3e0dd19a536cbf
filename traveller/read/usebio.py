"""USEBIO 1.0-1.2 XML (EBU/ABF results interchange) -> raw traveller tables.

The file is parsed with defusedxml (:mod:`traveller.read.xmlsafe`): entity
declarations (billion laughs, external entities) are refused with
:class:`UnreadableFileError`; the
``<!DOCTYPE USEBIO SYSTEM "...usebio_v1_2.dtd">`` line every export carries is
not fetched.

One :class:`RawTable` per (session, section) holding BOARD/TRAVELLER_LINE
results; ``sheet`` is "Session 1 Section A" (or the event description when
the file has neither). Columns of ``frame``:

- ``section``, ``board`` (BOARD_NUMBER), ``ns_pair`` / ``ew_pair``
  (NS_PAIR_NUMBER / EW_PAIR_NUMBER as int: a Mitchell writes "1NS"/"1EW", a
  Howell plain "1"; the NS/EW suffix is dropped because the column gives the
  line), ``contract`` (CONTRACT, e.g. "4SX", "PASS"), ``declarer``
  (PLAYED_BY), ``tricks`` (TRICKS taken), ``lead`` (LEAD, turned from
  USEBIO's rank-first "KH" to suit-first "HK"), ``score`` (SCORE, N-S view);
- ``published_ns_mp`` / ``published_ew_mp`` (NS/EW_MATCH_POINTS),
  ``published_ns_imp`` / ``published_ew_imp`` (NS/EW_CROSS_IMP_POINTS or
  NS/EW_BUTLER_POINTS), ``published_datum`` (the board's BOARD_AVERAGE, Butler);
- ``published_deal``: the board's hands from the file's HAND elements (a
  HANDSET), in PBN's "N:AKQ.JT9.876.5432 ..." form;
- a teams event (``MATCH/BOARD``): ``ns_pair``/``ew_pair`` are the team numbers
  (NS/EW_TEAM_NUMBER), ``room`` (ROOM: Open/Closed), ``published_ns_imp`` /
  ``published_ew_imp`` (NS/EW_IMPS); an individual: ``north`` .. ``west``
  (NORTH_PLAYER_NUMBER .. WEST_PLAYER_NUMBER) in place of the pair numbers;
- any other element of a TRAVELLER_LINE under its tag in lower case;
- ``row``: the line of the ``<TRAVELLER_LINE>`` start tag in the file.

Adjusted results have no CONTRACT and the marker in SCORE ("A5050", "A6040",
"A6060"): the marker goes to ``contract`` and ``score`` is left empty.

``names``: section, pair, line ("NS"/"EW" from DIRECTION or the pair number's
suffix, "" in a Howell), names (PLAYER_NAMEs joined by " – "; a TEAM's number
and TEAM_NAME, an individual's PLAYER_NUMBER and PLAYER_NAME),
``published_total`` (TOTAL_SCORE), ``published_pct`` (PERCENTAGE),
``published_place`` (PLACE). ``meta``: format, event, title, date, club,
program, program_version, scoring (EVENT_TYPE: MP_PAIRS, BUTLER_PAIRS,
CROSS_IMP, ...), board_scoring (SCORING_METHOD), sessions, sections and
winner_type (1 = one ranking, 2 = N-S and E-W ranked apart).
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field, replace
from pathlib import Path
from typing import Any
from xml.etree.ElementTree import Element

from traveller.errors import UnreadableFileError
from traveller.read.exports import (
    lead_suit_first,
    line_of,
    move_markers,
    names_frame,
    results_frame,
    text_or_none,
    value_for,
)
from traveller.read.raw import RawTable
from traveller.read.xmlsafe import parse_xml

#: TRAVELLER_LINE element -> column
LINE_FIELDS = {
    "NS_PAIR_NUMBER": "ns_pair", "EW_PAIR_NUMBER": "ew_pair", "CONTRACT": "contract",
    "PLAYED_BY": "declarer", "TRICKS": "tricks", "LEAD": "lead", "SCORE": "score",
    "NS_MATCH_POINTS": "published_ns_mp", "EW_MATCH_POINTS": "published_ew_mp",
    "NS_CROSS_IMP_POINTS": "published_ns_imp", "EW_CROSS_IMP_POINTS": "published_ew_imp",
    "NS_BUTLER_POINTS": "published_ns_imp", "EW_BUTLER_POINTS": "published_ew_imp",
    # a teams event's line: the teams at the table and the IMPs the board gave each
    "NS_TEAM_NUMBER": "ns_pair", "EW_TEAM_NUMBER": "ew_pair",
    "NS_IMPS": "published_ns_imp", "EW_IMPS": "published_ew_imp",
    # an individual's line: the four players
    "NORTH_PLAYER_NUMBER": "north", "SOUTH_PLAYER_NUMBER": "south",
    "EAST_PLAYER_NUMBER": "east", "WEST_PLAYER_NUMBER": "west",
}
#: The participants a PARTICIPANTS element lists: pairs, teams, or (an individual) players.
PARTICIPANT_TAGS = ("PAIR", "TEAM", "PLAYER")
META_FIELDS = {"EVENT_DESCRIPTION": "event", "TITLE": "title", "DATE": "date",
               "PROGRAM_NAME": "program", "PROGRAM_VERSION": "program_version",
               "SCORING_METHOD": "board_scoring", "SESSION_COUNT": "sessions",
               "SECTION_COUNT": "sections", "WINNER_TYPE": "winner_type"}
SECTION_KEYS = ("SECTION_ID", "SECTION_LETTER", "SECTION_NAME", "SECTION_NUMBER")
SESSION_KEYS = ("SESSION_NUMBER", "SESSION_ID", "SESSION_NAME")
_PAIR = re.compile(r"(\d+)\s*(NS|EW|N-S|E-W)?", re.IGNORECASE)


@dataclass(frozen=True)
class _Context:
    session: str = ""
    section: str = ""


@dataclass
class _Found:
    boards: list[tuple[_Context, Element]] = field(default_factory=list)
    pairs: list[tuple[_Context, Element]] = field(default_factory=list)
    sessions: int = 0


def _label(element: Element, keys: tuple[str, ...], fallback: str) -> str:
    for key in keys:
        text = element.findtext(key) or element.get(key) or element.get(key.lower())
        if text and text.strip():
            return text.strip()
    return fallback


def _walk(element: Element, ctx: _Context, found: _Found) -> None:
    """Collect result boards and pairs with the session/section they sit in."""
    if element.tag == "SESSION":
        found.sessions += 1
        ctx = replace(ctx, session=_label(element, SESSION_KEYS, str(found.sessions)))
    elif element.tag == "SECTION":
        ctx = replace(ctx, section=_label(element, SECTION_KEYS, ""))
    if element.tag == "BOARD" and element.find("TRAVELLER_LINE") is not None:
        found.boards.append((ctx, element))
        return
    if element.tag == "PARTICIPANTS":
        listed = list(element.iter("PAIR")) or [p for p in element if p.tag in PARTICIPANT_TAGS]
        found.pairs.extend((ctx, p) for p in listed)  # pairs at any depth, else teams/players
        return
    for child in element:
        _walk(child, ctx, found)


def _pair_number(text: str | None) -> int | str | None:
    value = text_or_none(text)
    if value is None:
        return None
    match = _PAIR.fullmatch(value)
    return int(match.group(1)) if match else value


def _line_row(line: Element, board: Element, ctx: _Context, row: int) -> dict[str, Any]:
    """One TRAVELLER_LINE -> a row of canonical and published values."""
    values: dict[str, Any] = {"section": ctx.section,
                              "board": value_for("board", board.findtext("BOARD_NUMBER")),
                              "contract": None, "declarer": None, "tricks": None,
                              "lead": None, "score": None}
    for child in line:
        column = LINE_FIELDS.get(child.tag, child.tag.lower())
        values[column] = (_pair_number(child.text) if column in NUMBERED
                          else lead_suit_first(child.text) if column == "lead"
                          else value_for(column, child.text))
    move_markers(values, sides=False)  # adjusted: no CONTRACT, SCORE "A5050", "A6040", ...
    datum = board.find("BOARD_AVERAGE")
    if datum is not None:
        values["published_datum"] = value_for("published_datum", datum.text)
    values["row"] = row
    return values


#: Line columns holding a pair's, team's or player's number.
NUMBERED = ("ns_pair", "ew_pair", "north", "south", "east", "west")


def _team_or_player(ctx: _Context, element: Element) -> dict[str, Any]:
    """A TEAM (number, name) or an individual's PLAYER (number, name, federation number)."""
    team = element.tag == "TEAM"
    number = _pair_number(element.findtext("TEAM_NUMBER" if team else "PLAYER_NUMBER"))
    name = (element.findtext("TEAM_NAME" if team else "PLAYER_NAME") or "").strip()
    record: dict[str, Any] = {"section": ctx.section, "pair": number, "line": "",
                              "names": name}
    if not team and name:
        record |= {"player1": name,
                   "id1": (element.findtext("NATIONAL_ID_NUMBER") or "").strip()}
    for tag, column in (("TOTAL_SCORE", "published_total"), ("PERCENTAGE", "published_pct"),
                        ("PLACE", "published_place")):
        if element.find(tag) is not None:
            record[column] = text_or_none(element.findtext(tag))
    return record


def _pair_record(ctx: _Context, pair: Element) -> dict[str, Any]:
    if pair.tag != "PAIR":
        return _team_or_player(ctx, pair)
    number = text_or_none(pair.findtext("PAIR_NUMBER")) or ""
    match = _PAIR.fullmatch(number)
    direction = text_or_none(pair.findtext("DIRECTION")) or (match and match.group(2)) or ""
    names = [n.strip() for n in (p.findtext("PLAYER_NAME") for p in pair.iter("PLAYER")) if n]
    record: dict[str, Any] = {
        "section": ctx.section, "pair": int(match.group(1)) if match else None,
        "line": line_of(direction), "names": " – ".join(names)}
    players = [p for p in pair.iter("PLAYER") if (p.findtext("PLAYER_NAME") or "").strip()]
    for i, player in enumerate(players[:2], start=1):  # each player, and their number
        record[f"player{i}"] = (player.findtext("PLAYER_NAME") or "").strip()
        record[f"id{i}"] = (player.findtext("NATIONAL_ID_NUMBER") or "").strip()
    for tag, column in (("TOTAL_SCORE", "published_total"), ("PERCENTAGE", "published_pct"),
                        ("PLACE", "published_place")):
        if pair.find(tag) is not None:
            record[column] = text_or_none(pair.findtext(tag))
    return record


SEATS = {"north": "N", "east": "E", "south": "S", "west": "W"}


def hand_records(root: Element) -> dict[str, str]:
    """Board number -> the deal in PBN form ("N:AKQ.JT9.876.5432 ...") from HAND elements."""
    deals = {}
    for board in root.iter("BOARD"):
        hands = {SEATS.get((h.findtext("DIRECTION") or "").strip().lower()): h
                 for h in board.findall("HAND")}
        if not all(seat in hands for seat in "NESW"):
            continue
        text = " ".join(".".join((hands[seat].findtext(suit) or "").strip().replace("10", "T")
                                 for suit in ("SPADES", "HEARTS", "DIAMONDS", "CLUBS"))
                        for seat in "NESW")
        deals[(board.findtext("BOARD_NUMBER") or "").strip()] = f"N:{text}"
    return deals


def _meta(root: Element) -> dict[str, str]:
    meta = {"format": f"USEBIO {root.get('Version', '')}".strip()}
    event = root.find("EVENT")
    if event is not None:
        for tag, key in META_FIELDS.items():
            text = text_or_none(event.findtext(tag))
            if text is not None:
                meta[key] = text
        event_type = event.get("EVENT_TYPE") or text_or_none(event.findtext("EVENT_TYPE"))
        if event_type:
            meta["scoring"] = event_type
    club = text_or_none(root.findtext("CLUB/CLUB_NAME"))
    if club:
        meta["club"] = club
    return meta


def _sheet(ctx: _Context, meta: dict[str, str]) -> str:
    parts = ([f"Session {ctx.session}"] if ctx.session else []) + (
        [f"Section {ctx.section}"] if ctx.section else [])
    return " ".join(parts) or meta.get("event", "USEBIO")


def read_usebio(path: Path) -> list[RawTable]:
    """Read a USEBIO XML results file into one raw table per session and section.

    >>> tables = read_usebio(Path("mp_pairs_mitchell.xml"))  # doctest: +SKIP
    >>> tables[0].frame[["board", "ns_pair", "contract", "score"]].head(1)  # doctest: +SKIP
    """
    path = Path(path)
    root, lines = parse_xml(path)
    if root.tag != "USEBIO":
        raise UnreadableFileError(f"{path}: the root element is <{root.tag}>, not <USEBIO>; "
                                  "give a USEBIO results export")
    meta = _meta(root)
    found = _Found()
    _walk(root, _Context(), found)
    if not found.boards:
        raise UnreadableFileError(f"{path}: the USEBIO file has no TRAVELLER_LINE results; "
                                  "export it again with the travellers included")
    groups: dict[_Context, list[dict[str, Any]]] = {}
    original: dict[str, str] = {}
    deals = hand_records(root)
    for ctx, board in found.boards:
        rows = groups.setdefault(ctx, [])
        for n, line in enumerate(board.iter("TRAVELLER_LINE"), start=len(rows) + 1):
            rows.append(_line_row(line, board, ctx, lines.get(line, n)))
            rows[-1]["published_deal"] = deals.get(str(rows[-1]["board"]))
            for child in line:
                original.setdefault(LINE_FIELDS.get(child.tag, child.tag.lower()), child.tag)
    tables = []
    for ctx, rows in groups.items():
        pairs = ([p for c, p in found.pairs if c == ctx]
                 or [p for c, p in found.pairs if c.section == ctx.section]
                 or [p for c, p in found.pairs if not c.section])
        unnamed = all(p.tag == "TEAM" and not (p.findtext("TEAM_NAME") or "").strip()
                      for p in pairs)  # teams known by their numbers only: no names
        names = names_frame(_pair_record(ctx, p) for p in pairs) if not unnamed else None
        tables.append(RawTable(str(path), _sheet(ctx, meta), results_frame(rows), board=None,
                               notation="en", names=names, meta=dict(meta),
                               original_columns=dict(original)))
    return tables
