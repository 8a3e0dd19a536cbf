"""Write a scored session as USEBIO 1.2 XML, element by element as scoring programs
(Compscore) export it.

Layout: the ``<!DOCTYPE USEBIO SYSTEM ".../usebio_v1_2.dtd">`` line, then
``USEBIO/CLUB`` (``CLUB_NAME``, empty when unknown), ``EVENT`` (``EVENT_TYPE``
``MP_PAIRS``, ``CROSS_IMP``, ``BUTLER_PAIRS`` or ``AGGREGATE_PAIRS``) with
``EVENT_IDENTIFIER``, description, program, ``WINNER_TYPE``, ``DATE``
(``DD/MM/YYYY``, see :mod:`traveller.publish.dates`), ``MPS_AWARDED_FLAG``,
the counts, ``PARTICIPANTS`` (one ``PAIR`` per ranked pair: number, direction,
total, percentage, place, the master points awarded to each of its players
when a scale was given, and two ``PLAYER`` elements, each with ``PLAYER_NAME``
and ``NATIONAL_ID_NUMBER``, empty where unknown) and one
``BOARD`` per board (``TRAVELLER_LINE``: pairs, contract, declarer, lead,
tricks, N-S score, and ``NS_MATCH_POINTS``/``EW_MATCH_POINTS``,
``NS_CROSS_IMP_POINTS``/... or ``NS_BUTLER_POINTS``/...); last the
``HANDSET``: one ``BOARD`` per board played, with its four ``HAND`` elements
when the deal is known. In a Mitchell the pair numbers carry their line
(``1NS``, ``1EW``). An artificial score is written as its code (``A6040``:
60 % to N-S, 40 % to E-W; ``A5050``), other rulings as written, with no
contract. Several sections go in ``SESSION/SECTION``. The XML is built with
ElementTree, so every text is escaped.
"""

from __future__ import annotations

import hashlib
import xml.etree.ElementTree as ET
from pathlib import Path
from typing import TYPE_CHECKING

import pandas as pd

from traveller.publish import handrecord, shown
from traveller.publish.dates import DATE_SOURCES, session_date
from traveller.publish.pbn_out import check_exportable
from traveller.publish.usebio_parts import add, players, ruling_codes

if TYPE_CHECKING:
    from traveller.result import Result

DOCTYPE = '<!DOCTYPE USEBIO SYSTEM "http://www.ebu.co.uk/usebio/usebio_v1_2.dtd">'
EVENT_TYPES = {"mp": "MP_PAIRS", "ximp": "CROSS_IMP", "butler": "BUTLER_PAIRS",
               "total": "AGGREGATE_PAIRS"}
IMP_TAGS = {"ximp": "CROSS_IMP_POINTS", "butler": "BUTLER_POINTS"}
_ORDER = ["North", "East", "South", "West"]
#: First seat of a PBN deal -> the seats of its four hands in order.
SEATS = {s[0]: _ORDER[i:] + _ORDER[:i] for i, s in enumerate(_ORDER)}
#: The suits of a HAND in the order Compscore writes them; index into a PBN hand (S.H.D.C).
SUITS = (("CLUBS", 3), ("DIAMONDS", 2), ("HEARTS", 1), ("SPADES", 0))
def labels(pair: pd.Series, line: pd.Series) -> pd.Series:
    """Pair numbers as USEBIO writes them: ``1NS``/``1EW`` in a Mitchell, ``1`` in a Howell."""
    return shown.text(pair) + shown.text(line).where(shown.text(line).isin(["NS", "EW"]), "")


def _participants(parent: ET.Element, ranking: pd.DataFrame, event_type: str,
                  points: pd.DataFrame | None = None, individual: bool = False,
                  players_of: pd.DataFrame | None = None) -> None:
    """The PARTICIPANTS: each pair (or player) with its total, place and players, the
    players as ``players_of`` (``Result.players``) lists them where it does."""
    part = add(parent, "PARTICIPANTS")
    part.set("EVENT_TYPE", event_type)
    score = "mp" if "mp" in ranking else "imps" if "imps" in ranking else "points"
    rows = pd.DataFrame({
        "section": shown.text(ranking["section"]), "number": shown.text(ranking["pair"]),
        "pair": labels(ranking["pair"], ranking["line"]), "line": shown.text(ranking["line"]),
        "total": shown.numbers(ranking[score]) if score in ranking else "",
        "pct": shown.percents(ranking["pct"]) if "pct" in ranking else "",
        "place": shown.text(ranking["place"]), "names": shown.text(ranking["names"]),
        "award": shown.numbers(ranking["master_points"]) if "master_points" in ranking
        else ""})
    numbers = _player_numbers(points)
    listed = _players_listed(players_of)
    if individual:  # one PLAYER per player: number, name, id, total, %, place
        for row in rows.itertuples(index=False):
            player = add(part, "PLAYER")
            add(player, "PLAYER_NUMBER", row.number)
            add(player, "PLAYER_NAME", row.names)
            ids = numbers.get((row.section, row.line, row.number), {})
            add(player, "NATIONAL_ID_NUMBER", ids.get(row.names) or None)
            for tag, value in (("TOTAL_SCORE", row.total), ("PERCENTAGE", row.pct),
                               ("PLACE", row.place), ("MASTER_POINTS_AWARDED", row.award)):
                if value or tag in ("TOTAL_SCORE", "PLACE"):
                    add(player, tag, value)
        return
    for row in rows.itertuples(index=False):
        pair = add(part, "PAIR")
        add(pair, "PAIR_NUMBER", row.pair)
        add(pair, "DIRECTION", row.line)
        add(pair, "TOTAL_SCORE", row.total)
        if row.pct:
            add(pair, "PERCENTAGE", row.pct)
        add(pair, "PLACE", row.place)
        if row.award:  # each player of the pair is awarded this, as scoring programs write
            add(pair, "MASTER_POINTS_AWARDED", row.award)
        key = (row.section, row.line, row.number)
        players(pair, row.names, numbers.get(key), listed=listed.get(key))


def _players_listed(players_of: pd.DataFrame | None
                    ) -> dict[tuple[str, str, str], list[str]]:
    """(section, line, pair) -> its players' names in order, from ``Result.players``."""
    if players_of is None or players_of.empty:
        return {}
    cells = pd.DataFrame({c: shown.text(players_of[c])
                          for c in ("section", "line", "pair", "player")})
    out: dict[tuple[str, str, str], list[str]] = {}
    for section, line, pair, player in cells.itertuples(index=False):
        out.setdefault((section, line, pair), []).append(player)
    return out


def _player_numbers(points: pd.DataFrame | None) -> dict[tuple[str, str, str], dict[str, str]]:
    """(section, line, pair) -> player name -> federation number, from the points frame."""
    if points is None or points.empty:
        return {}
    cells = pd.DataFrame({c: shown.text(points[c]) for c in ("section", "line", "pair",
                                                                "player", "player_id")})
    out: dict[tuple[str, str, str], dict[str, str]] = {}
    for section, line, pair, player, ident in cells.itertuples(index=False):
        out.setdefault((section, line, pair), {})[player] = ident
    return out


def _lines(t: pd.DataFrame, method: str, apart: bool, individual: bool = False) -> pd.DataFrame:
    """One row of element texts per traveller line, in USEBIO's element order."""
    ruling = ruling_codes(t)
    ruled = ruling != ""
    ns, ew = (shown.text(t["ns_pair"]), shown.text(t["ew_pair"]))
    if {"north", "south", "east", "west"} <= set(t.columns) and individual:
        rows = {f"{seat.upper()}_PLAYER_NUMBER": shown.text(t[seat])
                for seat in ("north", "south", "east", "west")}  # an individual's players
    else:
        rows = {"NS_PAIR_NUMBER": ns + "NS" if apart else ns,
                "EW_PAIR_NUMBER": ew + "EW" if apart else ew}
    rows |= {"CONTRACT": shown.text(t["contract"]).where(~ruled, ""),
            "PLAYED_BY": shown.seats(t["declarer"]).where(~ruled, ""),
            "LEAD": shown.text(t["lead"]).str.replace(r"^([SHDC])(.+)$", r"\2\1", regex=True)
            .where(~ruled, ""),  # USEBIO writes the rank first: "KH"
            "TRICKS": shown.text(t["tricks"]).where(~ruled, ""),
            "SCORE": shown.numbers(t["ns_score"]).where(~ruled, ruling)}
    if "ns_mp" in t:
        rows |= {"NS_MATCH_POINTS": shown.numbers(t["ns_mp"]),
                 "EW_MATCH_POINTS": shown.numbers(t["ew_mp"])}
    if method in IMP_TAGS:
        rows |= {f"NS_{IMP_TAGS[method]}": shown.numbers(t["ns_imp"]),
                 f"EW_{IMP_TAGS[method]}": shown.numbers(t["ew_imp"])}
    return pd.DataFrame(rows, index=t.index)


def mitchell(ranking: pd.DataFrame) -> bool:
    """True when the lines are ranked apart (pair numbers then carry NS/EW)."""
    return "line" in ranking and bool(ranking["line"].astype(str).isin(["NS", "EW"]).any())


def _boards(parent: ET.Element, t: pd.DataFrame, method: str, event_type: str,
            apart: bool, individual: bool = False) -> None:
    lines = _lines(t, method, apart, individual)
    columns = list(lines.columns)
    for number, index in t.groupby(t["board"].astype(int), sort=True).indices.items():
        board = add(parent, "BOARD")
        board.set("EVENT_TYPE", event_type)
        add(board, "BOARD_NUMBER", number)
        if method == "butler" and "datum" in t:
            add(board, "BOARD_AVERAGE", shown.numbers(t["datum"].iloc[index[:1]]).iloc[0])
        for values in lines.iloc[index].itertuples(index=False, name=None):
            line = add(board, "TRAVELLER_LINE")
            for tag, value in zip(columns, values, strict=True):
                if value:
                    add(line, tag, value)


def board_deals(result: Result) -> pd.Series:
    """Board number -> its deal in PBN form (``N:AKQ.JT9.876.5432 ...``), "" when unknown.

    Every board played is listed; the deals are the hand record's (or the input's own),
    as :func:`traveller.publish.handrecord.deals` finds them.
    """
    boards = sorted(result.travellers["board"].astype(int).unique())
    known = handrecord.deals(result)
    return pd.Series([known.get(b, "") for b in boards], index=pd.Index(boards, name="board"),
                     dtype=object)


def handset(root: ET.Element, deals: pd.Series) -> None:
    """The HANDSET: a BOARD per board number, with its four HANDs when the deal is known."""
    element = add(root, "HANDSET")
    for number, deal in deals.items():
        board = add(element, "BOARD")
        add(board, "BOARD_NUMBER", number)
        first, _, rest = str(deal).partition(":")
        hands = rest.split()
        if first not in SEATS or len(hands) != 4 or any(h.count(".") != 3 for h in hands):
            continue
        for i, hand in enumerate(hands):
            suits = hand.split(".")
            seat = add(board, "HAND")
            add(seat, "DIRECTION", SEATS[first][i])
            for name, at in SUITS:
                add(seat, name, suits[at])


def event_identifier(meta: dict[str, str], day: str) -> str:
    """A number naming the event, the same for every publication of it (title, date, club)."""
    key = "\n".join((meta.get("title", ""), day, meta.get("club", ""))).encode("utf-8")
    return str(int(hashlib.sha256(key).hexdigest()[:12], 16) % 10**9)


def event_head(root: ET.Element, result: Result, event_type: str) -> ET.Element:
    """CLUB and the EVENT element with everything above the participants."""
    from traveller import __version__

    meta = result.meta
    add(add(root, "CLUB"), "CLUB_NAME", meta.get("club", ""))
    event = add(root, "EVENT")
    event.set("EVENT_TYPE", event_type)
    day, source = session_date(result)
    written = f"{day:%d/%m/%Y}" if day else ""
    add(event, "EVENT_IDENTIFIER", event_identifier(meta, written))
    add(event, "EVENT_DESCRIPTION", meta.get("title", "Results"))
    add(event, "PROGRAM_NAME", "traveller")
    add(event, "PROGRAM_VERSION", __version__)
    add(event, "WINNER_TYPE", 2 if mitchell(result.ranking) else 1)
    add(event, "DATE", written)
    event.append(ET.Comment(f" DATE: {DATE_SOURCES[source]} "))
    if meta.get("status"):  # a comment: USEBIO has no element for it, so validators pass
        event.append(ET.Comment(" " + meta["status"].replace("--", "-") + " "))
    add(event, "MPS_AWARDED_FLAG", "N" if getattr(result, "points", None) is None else "Y")
    return event


def usebio_tree(result: Result) -> ET.Element:
    """The USEBIO document as an element tree."""
    method = check_exportable(result, "USEBIO")
    root = ET.Element("USEBIO", Version="1.2")
    if method == "teams":
        from traveller.publish.usebio_teams import EVENT_TYPE, teams_event

        event = event_head(root, result, EVENT_TYPE)
        for tag, value in (("SESSION_COUNT", 1), ("SECTION_COUNT", 1),
                           ("SCORING_METHOD", "IMPS")):
            add(event, tag, value)
        teams_event(event, result)
        handset(root, board_deals(result))
        return root
    individual = bool(result.settings.get("individual"))
    event_type = "INDIVIDUAL" if individual else EVENT_TYPES.get(method, "MP_PAIRS")
    event = event_head(root, result, event_type)
    t = result.travellers.reset_index(drop=True)
    apart = mitchell(result.ranking)
    sections = sorted(shown.text(t["section"]).unique())
    add(event, "SESSION_COUNT", 1)
    add(event, "SECTION_COUNT", len(sections))
    if method in IMP_TAGS:
        add(event, "SCORING_METHOD", "IMPS")
    if sections == [""]:
        _participants(event, result.ranking, event_type, result.points, individual,
                      result.players)
        _boards(event, t, method, event_type, apart, individual)
    else:
        session = add(event, "SESSION")
        add(session, "SESSION_NUMBER", 1)
        r = result.ranking
        for name in sections:
            section = add(session, "SECTION")
            add(section, "SECTION_ID", name)
            _participants(section, r[shown.text(r["section"]) == name], event_type,
                          result.points, individual, result.players)
            part = t[shown.text(t["section"]) == name].reset_index(drop=True)
            _boards(section, part, method, event_type, apart, individual)
    handset(root, board_deals(result))
    return root


def usebio_bytes(root: ET.Element) -> bytes:
    """The document as UTF-8 bytes: XML declaration, DOCTYPE, indented elements."""
    ET.indent(root, space=" ")
    body = ET.tostring(root, encoding="unicode")
    return f'<?xml version="1.0" encoding="UTF-8"?>\n{DOCTYPE}\n{body}\n'.encode()


def write_usebio(result: Result, path: str | Path) -> Path:
    """Write the session as a USEBIO 1.2 XML file (UTF-8) at ``path``, atomically.

    >>> write_usebio(process("sample_data/club_session.csv"), "results.xml")  # doctest: +SKIP
    """
    from traveller.batch.manifest import write_atomic

    return write_atomic(Path(path), usebio_bytes(usebio_tree(result)))
