"""Write a scored session as USEBIO 1.2 XML: the event, its participants with totals
and places, and every board's traveller lines with their matchpoints or IMPs.

Layout as scoring programs export it: ``USEBIO/CLUB``, then ``EVENT`` holding
``PARTICIPANTS`` (one ``PAIR`` per ranked pair: number, direction, total,
percentage, place, the master points awarded to each of its players, players with
their federation numbers when known) and one ``BOARD`` per board (``TRAVELLER_LINE``:
pairs, contract, declarer, lead, tricks, N-S score, and ``NS_MATCH_POINTS``/
``EW_MATCH_POINTS``, ``NS_CROSS_IMP_POINTS``/... or ``NS_BUTLER_POINTS``/...).
A session of several sections puts each section's participants and boards in
``SESSION/SECTION``; the hands, when known, go in a ``HANDSET``. A ruling goes
in ``SCORE`` as written, with no contract. The XML is built with ElementTree, so
every text is escaped.
"""

from __future__ import annotations

import xml.etree.ElementTree as ET
from pathlib import Path
from typing import TYPE_CHECKING

import pandas as pd

from traveller.publish import shown
from traveller.publish.pbn_out import check_exportable

if TYPE_CHECKING:
    from traveller.pipeline import Result

EVENT_TYPES = {"mp": "MP_PAIRS", "ximp": "CROSS_IMPS", "butler": "BUTLER_PAIRS",
               "total": "AGGREGATE_PAIRS"}
IMP_TAGS = {"ximp": "CROSS_IMP_POINTS", "butler": "BUTLER_POINTS"}
_ORDER = ["North", "East", "South", "West"]
#: First seat of a PBN deal -> the seats of its four hands in order.
SEATS = {s[0]: _ORDER[i:] + _ORDER[:i] for i, s in enumerate(_ORDER)}


def _add(parent: ET.Element, tag: str, text: object = None) -> ET.Element:
    child = ET.SubElement(parent, tag)
    if text is not None and str(text) != "":
        child.text = str(text)
    return child


def _participants(parent: ET.Element, ranking: pd.DataFrame,
                  points: pd.DataFrame | None = None) -> None:
    part = _add(parent, "PARTICIPANTS")
    score = "mp" if "mp" in ranking else "imps" if "imps" in ranking else "points"
    rows = pd.DataFrame({
        "section": shown.text(ranking["section"]),
        "pair": shown.text(ranking["pair"]), "line": shown.text(ranking["line"]),
        "total": shown.numbers(ranking[score]) if score in ranking else "",
        "pct": shown.percents(ranking["pct"]) if "pct" in ranking else "",
        "place": shown.text(ranking["place"]), "names": shown.text(ranking["names"]),
        "award": shown.numbers(ranking["master_points"]) if "master_points" in ranking
        else ""})
    numbers = _player_numbers(points)
    for row in rows.itertuples(index=False):
        pair = _add(part, "PAIR")
        _add(pair, "PAIR_NUMBER", row.pair)
        _add(pair, "DIRECTION", row.line)
        _add(pair, "TOTAL_SCORE", row.total)
        if row.pct:
            _add(pair, "PERCENTAGE", row.pct)
        _add(pair, "PLACE", row.place)
        if row.award:  # each player of the pair is awarded this, as scoring programs write
            _add(pair, "MASTER_POINTS_AWARDED", row.award)
        ids = numbers.get((row.section, row.line, row.pair), {})
        for name in filter(None, (n.strip() for n in row.names.replace(" - ", " – ")
                                  .split(" – "))):
            player = _add(pair, "PLAYER")
            _add(player, "PLAYER_NAME", name)
            if ids.get(name):
                _add(player, "NATIONAL_ID_NUMBER", ids[name])


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


def _lines(t: pd.DataFrame, method: str) -> pd.DataFrame:
    """One row of element texts per traveller line, in USEBIO's element order."""
    ruling = shown.text(t["ruling"]) if "ruling" in t else pd.Series("", index=t.index)
    ruled = ruling != ""
    rows = {"NS_PAIR_NUMBER": shown.text(t["ns_pair"]),
            "EW_PAIR_NUMBER": shown.text(t["ew_pair"]),
            "CONTRACT": shown.text(t["contract"]).where(~ruled, ""),
            "PLAYED_BY": shown.text(t["declarer"]).where(~ruled, ""),
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


def _boards(parent: ET.Element, t: pd.DataFrame, method: str) -> None:
    lines = _lines(t, method)
    columns = list(lines.columns)
    for number, index in t.groupby(t["board"].astype(int), sort=True).indices.items():
        board = _add(parent, "BOARD")
        _add(board, "BOARD_NUMBER", number)
        for values in lines.iloc[index].itertuples(index=False, name=None):
            line = _add(board, "TRAVELLER_LINE")
            for tag, value in zip(columns, values, strict=True):
                if value:
                    _add(line, tag, value)


def _handset(root: ET.Element, t: pd.DataFrame) -> None:
    """The hands of the boards whose deal is known, as HANDSET/BOARD/HAND."""
    if "published_deal" not in t:
        return
    deals = t.groupby(t["board"].astype(int))["published_deal"].first().dropna()
    handset = None
    for number, deal in deals.items():
        first, _, rest = str(deal).partition(":")
        hands = rest.split()
        if first not in SEATS or len(hands) != 4 or any(h.count(".") != 3 for h in hands):
            continue
        handset = handset if handset is not None else _add(root, "HANDSET")
        board = _add(handset, "BOARD")
        _add(board, "BOARD_NUMBER", number)
        for i, hand in enumerate(hands):
            element = _add(board, "HAND")
            _add(element, "DIRECTION", SEATS[first][i])
            for suit, cards in zip(("SPADES", "HEARTS", "DIAMONDS", "CLUBS"), hand.split("."),
                                   strict=True):
                _add(element, suit, cards)


def usebio_tree(result: Result) -> ET.Element:
    """The USEBIO document as an element tree."""
    from traveller import __version__

    method = check_exportable(result, "USEBIO")
    meta = result.meta
    root = ET.Element("USEBIO", Version="1.2")
    if meta.get("club"):
        _add(_add(root, "CLUB"), "CLUB_NAME", meta["club"])
    event = _add(root, "EVENT")
    event.set("EVENT_TYPE", EVENT_TYPES.get(method, "MP_PAIRS"))
    _add(event, "EVENT_DESCRIPTION", meta.get("title", "Results"))
    _add(event, "PROGRAM_NAME", "traveller")
    _add(event, "PROGRAM_VERSION", __version__)
    _add(event, "WINNER_TYPE", 2 if result.ranking["line"].astype(str).ne("").any() else 1)
    if meta.get("date"):
        _add(event, "DATE", meta["date"])
    if meta.get("status"):  # a comment: USEBIO has no element for it, so validators pass
        event.append(ET.Comment(" " + meta["status"].replace("--", "-") + " "))
    t = result.travellers.reset_index(drop=True)
    sections = sorted(shown.text(t["section"]).unique())
    _add(event, "SESSION_COUNT", 1)
    _add(event, "SECTION_COUNT", len(sections))
    _handset(root, t)
    if sections == [""]:
        _participants(event, result.ranking, result.points)
        _boards(event, t, method)
        return root
    session = _add(event, "SESSION")
    _add(session, "SESSION_NUMBER", 1)
    r = result.ranking
    for name in sections:
        section = _add(session, "SECTION")
        _add(section, "SECTION_ID", name)
        _participants(section, r[shown.text(r["section"]) == name], result.points)
        _boards(section, t[shown.text(t["section"]) == name].reset_index(drop=True), method)
    return root


def write_usebio(result: Result, path: str | Path) -> Path:
    """Write the session as a USEBIO 1.2 XML file (UTF-8) at ``path``, atomically.

    >>> write_usebio(process("sample_data/club_session.csv"), "results.xml")  # doctest: +SKIP
    """
    from traveller.batch.manifest import write_atomic

    root = usebio_tree(result)
    ET.indent(root, space=" ")
    data = ET.tostring(root, encoding="utf-8", xml_declaration=True)
    return write_atomic(Path(path), data)
