"""USEBIO as other programs read it: a validating parser, a results platform's reader
(xmltodict, as the ABF's open platform parses uploads), and Compscore's own files."""

from __future__ import annotations

from datetime import datetime
from pathlib import Path

import pytest
from conftest import SAMPLE_DATA, real_file

from traveller.pipeline import process
from traveller.publish.meta import Publication
from traveller.publish.outputs import stamp
from traveller.publish.usebio_out import write_usebio

etree = pytest.importorskip("lxml.etree")
xmltodict = pytest.importorskip("xmltodict")

# The element model of USEBIO 1.2 as the files we are held against use it (the DTD itself,
# usebio_v1_2.dtd, is only named by the DOCTYPE, not shipped): what Compscore writes, in
# its order, with what a reader needs (every PAIR has PLAYERs with a NATIONAL_ID_NUMBER).
# Teams (TEAM, MATCH, a line per room) and individuals (a PLAYER per player, each line's
# four players) are in it as traveller writes them: no such real file is in the test data.
LEAVES = ["CLUB_NAME", "CLUB_ID_NUMBER", "EVENT_IDENTIFIER", "EVENT_DESCRIPTION", "PROGRAM_NAME",
          "PROGRAM_VERSION", "WINNER_TYPE", "TITLE", "DATE", "VENUE", "MASTER_POINT_SCALE",
          "MASTER_POINT_TYPE", "MPS_AWARDED_FLAG", "SESSION_COUNT", "SECTION_COUNT",
          "P2P_CHARGE_RATE", "SCORING_METHOD", "FULL_NAME", "SCORER", "TELEPHONE", "EMAIL",
          "SESSION_NUMBER", "SECTION_ID", "PAIR_NUMBER", "DIRECTION", "TOTAL_SCORE", "PERCENTAGE",
          "PLACE", "MASTER_POINTS_AWARDED", "PLAYER_NAME", "NATIONAL_ID_NUMBER", "BOARD_NUMBER",
          "BOARD_AVERAGE", "NS_PAIR_NUMBER", "EW_PAIR_NUMBER", "CONTRACT", "PLAYED_BY", "LEAD",
          "TRICKS", "SCORE", "NS_MATCH_POINTS", "EW_MATCH_POINTS", "NS_CROSS_IMP_POINTS",
          "EW_CROSS_IMP_POINTS", "NS_BUTLER_POINTS", "EW_BUTLER_POINTS", "CLUBS", "DIAMONDS",
          "HEARTS", "SPADES",
          # teams: the team, its match, each room's line; individuals: each player's number
          "TEAM_NUMBER", "TEAM_NAME", "MATCH_NUMBER", "IMPS", "VICTORY_POINTS",
          "NS_TEAM_NUMBER", "EW_TEAM_NUMBER", "ROOM", "NS_IMPS", "EW_IMPS", "PLAYER_NUMBER",
          "NORTH_PLAYER_NUMBER", "SOUTH_PLAYER_NUMBER", "EAST_PLAYER_NUMBER",
          "WEST_PLAYER_NUMBER"]
DTD = "\n".join([
    "<!ELEMENT USEBIO (CLUB, EVENT, HANDSET)>",
    "<!ATTLIST USEBIO Version CDATA #REQUIRED>",
    "<!ELEMENT CLUB (CLUB_NAME, CLUB_ID_NUMBER?)>",
    "<!ELEMENT EVENT (EVENT_IDENTIFIER, EVENT_DESCRIPTION, PROGRAM_NAME, PROGRAM_VERSION,"
    " WINNER_TYPE, TITLE?, DATE, VENUE?, MASTER_POINT_SCALE?, MASTER_POINT_TYPE?,"
    " MPS_AWARDED_FLAG, SESSION_COUNT, SECTION_COUNT, P2P_CHARGE_RATE?, SCORING_METHOD?,"
    " CONTACT?, ((PARTICIPANTS, (BOARD+ | MATCH+)) | SESSION+))>",
    "<!ATTLIST EVENT EVENT_TYPE (MP_PAIRS | CROSS_IMP | BUTLER_PAIRS | AGGREGATE_PAIRS"
    " | TEAMS_OF_FOUR | INDIVIDUAL) #REQUIRED>",
    "<!ELEMENT CONTACT (FULL_NAME?, SCORER?, TELEPHONE?, EMAIL?)>",
    "<!ELEMENT SESSION (SESSION_NUMBER, SECTION+)>",
    "<!ELEMENT SECTION (SECTION_ID, PARTICIPANTS, BOARD+)>",
    "<!ELEMENT PARTICIPANTS (PAIR+ | TEAM+ | PLAYER+)>",
    "<!ATTLIST PARTICIPANTS EVENT_TYPE CDATA #IMPLIED>",
    "<!ELEMENT PAIR (PAIR_NUMBER, DIRECTION, TOTAL_SCORE, PERCENTAGE?, PLACE,"
    " MASTER_POINTS_AWARDED?, MASTER_POINT_TYPE?, PLAYER, PLAYER+)>",
    # a pair's or team's PLAYER has a name and number; an individual's also its results
    "<!ELEMENT PLAYER (PLAYER_NUMBER?, PLAYER_NAME, NATIONAL_ID_NUMBER, CLUB_ID_NUMBER?,"
    " TOTAL_SCORE?, PERCENTAGE?, PLACE?, MASTER_POINTS_AWARDED?)>",
    "<!ELEMENT TEAM (TEAM_NUMBER, ((TEAM_NAME, TOTAL_SCORE, PLACE, MASTER_POINTS_AWARDED?,"
    " PLAYER, PLAYER, PLAYER, PLAYER+) | (IMPS, VICTORY_POINTS)))>",
    "<!ELEMENT MATCH (MATCH_NUMBER, TEAM, TEAM, BOARD+)>",
    "<!ELEMENT BOARD (BOARD_NUMBER, BOARD_AVERAGE?, (TRAVELLER_LINE+ | HAND*))>",
    "<!ATTLIST BOARD EVENT_TYPE CDATA #IMPLIED>",
    "<!ELEMENT TRAVELLER_LINE (((NS_PAIR_NUMBER, EW_PAIR_NUMBER)"
    " | (NS_TEAM_NUMBER, EW_TEAM_NUMBER, ROOM) | (NORTH_PLAYER_NUMBER, SOUTH_PLAYER_NUMBER,"
    " EAST_PLAYER_NUMBER, WEST_PLAYER_NUMBER)), CONTRACT?, PLAYED_BY?, LEAD?,"
    " TRICKS?, SCORE, (NS_MATCH_POINTS, EW_MATCH_POINTS)?,"
    " (NS_CROSS_IMP_POINTS, EW_CROSS_IMP_POINTS)?, (NS_BUTLER_POINTS, EW_BUTLER_POINTS)?,"
    " (NS_IMPS, EW_IMPS)?)>",
    "<!ELEMENT HANDSET (BOARD+)>",
    "<!ELEMENT HAND (DIRECTION, (CLUBS | DIAMONDS | HEARTS | SPADES)+)>",  # a void: last
    *(f"<!ELEMENT {leaf} (#PCDATA)>" for leaf in LEAVES)])
#: Compscore's files as they were exported (mp_pairs_mitchell_adjusted_02.xml was edited by
#: hand for another program's tests and does not keep the element order).
COMPSCORE = ("mp_pairs_mitchell.xml", "mp_pairs_howell.xml", "butler_mitchell.xml",
             "cross_imp_howell.xml")


def parsed(path: Path) -> object:
    parser = etree.XMLParser(load_dtd=False, no_network=True, resolve_entities=False)
    return etree.parse(str(path), parser)


def invalid(path: Path) -> list[str]:
    dtd = etree.DTD(__import__("io").StringIO(DTD))
    return [] if dtd.validate(parsed(path)) else [str(e) for e in dtd.error_log]


def session(method: str, tmp_path: Path, names: bool = True) -> Path:
    source = SAMPLE_DATA / "club_session.csv"
    result = process(source, method=method, names=SAMPLE_DATA / "names.csv" if names else None)
    stamp(result, Publication(title="Riverside pairs 3 November 2026", correction_minutes=0))
    return write_usebio(result, tmp_path / f"{method}.xml")


@pytest.mark.parametrize("method", ["mp", "ximp", "butler", "total"])
@pytest.mark.parametrize("names", [True, False])
def test_ours_validates_against_the_element_model(method: str, names: bool,
                                                  tmp_path: Path) -> None:
    path = session(method, tmp_path, names)
    assert invalid(path) == []
    assert path.read_text(encoding="utf-8").splitlines()[1] == (
        '<!DOCTYPE USEBIO SYSTEM "http://www.ebu.co.uk/usebio/usebio_v1_2.dtd">')


def test_rulings_and_sections_validate(tmp_path: Path) -> None:
    from test_publish_formats import two_sections

    for source in (SAMPLE_DATA / "rulings_session.csv", two_sections(tmp_path)):
        assert invalid(write_usebio(process(source), tmp_path / "r.xml")) == []


def test_the_element_model_fits_compscore_and_refuses_a_pair_without_players(
        tmp_path: Path) -> None:
    for name in COMPSCORE:
        assert invalid(real_file("usebio-compscore", name)) == [], name
    path = session("mp", tmp_path)
    text = path.read_text(encoding="utf-8")
    start, end = text.index("    <PLAYER>"), text.index("</PAIR>")
    broken = tmp_path / "broken.xml"
    broken.write_text(text[:start] + text[end:], encoding="utf-8")  # the first pair's players
    assert any("PAIR" in e for e in invalid(broken))


def platform_read(path: Path) -> dict[str, object]:
    """What a results platform takes from an upload, failing where such a reader fails."""
    lists = ("PAIR", "PLAYER", "BOARD", "TRAVELLER_LINE", "HAND", "SECTION")
    doc = xmltodict.parse(path.read_bytes(), force_list=lists)["USEBIO"]
    event = doc["EVENT"]
    boards = [b["BOARD_NUMBER"] for b in doc["HANDSET"]["BOARD"]]
    played = datetime.strptime(event["DATE"], "%d/%m/%Y").date()
    players = [(pair["PAIR_NUMBER"], player["PLAYER_NAME"], player["NATIONAL_ID_NUMBER"])
               for pair in event["PARTICIPANTS"]["PAIR"] for player in pair["PLAYER"]]
    lines = [line for board in event["BOARD"] for line in board["TRAVELLER_LINE"]]
    return {"club": doc["CLUB"]["CLUB_NAME"], "id": event["EVENT_IDENTIFIER"], "date": played,
            "boards": boards, "players": players, "lines": lines,
            "flag": event["MPS_AWARDED_FLAG"], "type": event["@EVENT_TYPE"]}


@pytest.mark.parametrize("names", [True, False])
def test_a_results_platform_reads_every_pair_and_board(names: bool, tmp_path: Path) -> None:
    read = platform_read(session("ximp", tmp_path, names))
    assert read["date"] == datetime(2026, 11, 3).date()  # from the title
    assert read["type"] == "CROSS_IMP" and read["flag"] == "N" and read["id"]
    assert read["boards"] == [str(n) for n in range(1, 25)]
    players = read["players"]
    assert len(players) == 2 * 16 and all(p[2] is None for p in players)  # ids: unknown
    assert {p[0] for p in players} == {f"{n}{line}" for n in range(1, 9) for line in ("NS", "EW")}
    assert ("1NS", "Anna Nowak", None) in players if names else all(p[1] is None for p in players)
    assert {line["NS_PAIR_NUMBER"][-2:] for line in read["lines"]} == {"NS"}


def test_the_date_says_where_it_came_from(tmp_path: Path) -> None:
    result = process(SAMPLE_DATA / "club_session.csv")
    stamp(result, Publication(date="2026-11-03", correction_minutes=0))
    text = write_usebio(result, tmp_path / "d.xml").read_text(encoding="utf-8")
    assert "<DATE>03/11/2026</DATE>" in text and "DATE: the session's date" in text
    result.meta.pop("date")
    text = write_usebio(result, tmp_path / "d.xml").read_text(encoding="utf-8")
    assert "DATE: the input file's date" in text
    import pandas as pd

    frame = pd.read_csv(SAMPLE_DATA / "club_session.csv")  # no file: the day it is published
    text = write_usebio(process(frame), tmp_path / "f.xml").read_text(encoding="utf-8")
    assert f"<DATE>{datetime.now():%d/%m/%Y}</DATE>" in text
    assert "DATE: the day of publication" in text


def paths(root: object) -> dict[str, list[str]]:
    """Each element path -> the tags of its children, in the order first seen."""
    found: dict[str, list[str]] = {}

    def walk(element: object, path: str) -> None:
        here = f"{path}/{element.tag}"
        order = found.setdefault(here, [])
        for child in element:
            if isinstance(child.tag, str):
                if child.tag not in order:
                    order.append(child.tag)
                walk(child, here)
    walk(root, "")
    return found


#: What Compscore writes that traveller does not know (ids, master points, venue, contact).
NOT_KNOWN = {"CLUB_ID_NUMBER", "TITLE", "VENUE", "MASTER_POINT_SCALE", "MASTER_POINT_TYPE",
             "P2P_CHARGE_RATE", "CONTACT", "MASTER_POINTS_AWARDED"}
REAL = [("mp_pairs_mitchell.xml", "mp"), ("mp_pairs_howell.xml", "mp"),
        ("butler_mitchell.xml", "butler"), ("cross_imp_howell.xml", "ximp"),
        ("mp_pairs_mitchell_adjusted_02.xml", "mp")]


@pytest.mark.parametrize(("name", "method"), REAL)
def test_compscore_files_re_exported_tag_by_tag(name: str, method: str, tmp_path: Path) -> None:
    source = real_file("usebio-compscore", name)
    theirs = parsed(source).getroot()
    ours = parsed(write_usebio(process(source, method=method), tmp_path / "o.xml")).getroot()
    mine, real = paths(ours), paths(theirs)
    assert set(mine) <= set(real), set(mine) - set(real)
    for path, order in real.items():
        kept = [t for t in order if t not in NOT_KNOWN]
        if path in mine and name in COMPSCORE:  # (the hand-edited file: no order)
            assert mine[path] == [t for t in kept if t in mine[path]], path  # same order
            assert set(kept) - set(mine[path]) <= {"CLUB_ID_NUMBER", "PERCENTAGE"} | (
                {"CONTRACT", "PLAYED_BY", "LEAD", "TRICKS"} if "TRAVELLER_LINE" in path
                else set()), path
    for xpath in ("EVENT", "EVENT/PARTICIPANTS", "EVENT/BOARD"):
        assert ours.find(xpath).get("EVENT_TYPE") == theirs.find(xpath).get("EVENT_TYPE")
    assert ours.findtext("EVENT/DATE") == theirs.findtext("EVENT/DATE")
    for xpath in ("EVENT/PARTICIPANTS/PAIR/PAIR_NUMBER", "EVENT/BOARD/TRAVELLER_LINE/SCORE",
                  "EVENT/BOARD/TRAVELLER_LINE/NS_PAIR_NUMBER", "HANDSET/BOARD/BOARD_NUMBER"):
        assert sorted(e.text for e in ours.iterfind(xpath)) == sorted(
            e.text for e in theirs.iterfind(xpath)), xpath


def test_a_teams_match_validates_and_reads_back(tmp_path: Path) -> None:
    import pandas as pd

    source = real_file("pbn-teams-itt1998", "98ITTF1.PBN")
    first = process(source, method="teams")
    path = write_usebio(first, tmp_path / "t.xml")
    assert invalid(path) == []
    root = parsed(path).getroot()
    assert root.find("EVENT").get("EVENT_TYPE") == "TEAMS_OF_FOUR"
    teams = {t.findtext("TEAM_NUMBER"): t for t in root.iterfind("EVENT/PARTICIPANTS/TEAM")}
    assert {n: t.findtext("TEAM_NAME") for n, t in teams.items()} == {"1": "Nickell",
                                                                      "2": "Cayne"}
    assert [p.findtext("PLAYER_NAME") for p in teams["2"].iterfind("PLAYER")] == [
        "Passell", "Seamon", "Berkowitz", "Cohen"]  # the Closed room's N-S, the Open's E-W
    match = root.find("EVENT/MATCH")
    assert [(t.findtext("TEAM_NUMBER"), t.findtext("IMPS"), t.findtext("VICTORY_POINTS"))
            for t in match.iterfind("TEAM")] == [("1", "6", "4.12"), ("2", "30", "15.88")]
    board = match.find("BOARD")  # board 1: 1NT by E -150 (Open), 3D by S +130 (Closed)
    assert [(line.findtext("ROOM"), line.findtext("NS_TEAM_NUMBER"), line.findtext("SCORE"),
             line.findtext("NS_IMPS")) for line in board.iterfind("TRAVELLER_LINE")] == [
        ("Open", "1", "-150", "-7"), ("Closed", "2", "130", "7")]
    second = process(path, method="teams")
    pd.testing.assert_frame_equal(first.ranking, second.ranking)
    pd.testing.assert_frame_equal(first.tables["Matches"], second.tables["Matches"])
    pd.testing.assert_frame_equal(first.tables["Boards"], second.tables["Boards"])
    t = second.travellers
    assert (t["published_ns_imp"].astype(float).sum(), len(t)) == (0.0, 30)


def test_a_teams_event_of_several_matches_reads_back(tmp_path: Path) -> None:
    import pandas as pd

    sheet = tmp_path / "teams.csv"  # teams 1 v 2 and 3 v 4, two boards, no names
    sheet.write_text("Board,Room,NS,EW,Contract,By,Tricks\n"
                     "1,Open,1,2,4S,N,10\n1,Closed,2,1,4S,N,9\n2,Open,1,2,3NT,S,9\n"
                     "2,Closed,2,1,2H,E,8\n1,Open,3,4,4S,N,11\n1,Closed,4,3,4S,N,10\n"
                     "2,Open,3,4,3NT,N,8\n2,Closed,4,3,3NT,S,9\n", encoding="utf-8")
    first = process(sheet, method="teams")
    path = write_usebio(first, tmp_path / "t.xml")
    assert invalid(path) == []
    root = parsed(path).getroot()
    assert [m.findtext("MATCH_NUMBER") for m in root.iterfind("EVENT/MATCH")] == ["1", "2"]
    # 1 v 2 for team 1: 420 and +50 in the other room (470: 10 IMPs), then 3NT vulnerable
    # 600 and 2H by E-W 110 (710: 12 IMPs), 22 in all
    assert [t.findtext("IMPS") for t in root.iterfind("EVENT/MATCH/TEAM")][:2] == ["22", "0"]
    assert {p.findtext("PLAYER_NAME") for p in root.iter("PLAYER")} == {""}  # no names
    second = process(path, method="teams")
    pd.testing.assert_frame_equal(first.ranking, second.ranking)
    pd.testing.assert_frame_equal(first.tables["Boards"], second.tables["Boards"])


def test_an_individual_validates_and_reads_back(tmp_path: Path) -> None:
    import pandas as pd

    for method in ("mp", "ximp", "butler"):
        first = process(SAMPLE_DATA / "individual_session.csv", method=method,
                        names=SAMPLE_DATA / "individual_names.csv")
        path = write_usebio(first, tmp_path / f"{method}.xml")
        assert invalid(path) == [], method
        root = parsed(path).getroot()
        assert root.find("EVENT").get("EVENT_TYPE") == "INDIVIDUAL"
        players = root.findall("EVENT/PARTICIPANTS/PLAYER")
        assert len(players) == 12 and not root.findall(".//PAIR")
        seated = {tuple(line.findtext(f"{s}_PLAYER_NUMBER") for s in ("NORTH", "SOUTH",
                                                                      "EAST", "WEST"))
                  for line in root.iterfind("EVENT/BOARD/TRAVELLER_LINE")}
        assert ("1", "2", "3", "4") in seated and ("5", "6", "7", "8") in seated
        second = process(path, method=method)
        assert second.settings["individual"] and second.problems.empty
        pd.testing.assert_frame_equal(first.ranking, second.ranking)


def test_each_player_of_names_joined_by_ampersand_is_one_player(tmp_path: Path) -> None:
    """Names written "Anna Nowak & Piotr Smith" (on the traveller's rows here; a names
    sheet may write them so too) go out as two players, not one player of both names."""
    result = process(SAMPLE_DATA / "names_on_rows.csv", dd=False)
    stamp(result, Publication(title="Riverside pairs 3 November 2026", correction_minutes=0))
    path = write_usebio(result, tmp_path / "names.xml")
    assert invalid(path) == []
    players = platform_read(path)["players"]
    assert [p[1] for p in players if p[0] == "1NS"] == ["Anna Nowak", "Piotr Smith"]
    assert all(p[1] and "&" not in p[1] for p in players)  # type: ignore[operator]
