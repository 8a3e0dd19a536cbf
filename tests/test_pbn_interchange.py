"""PBN as other programs read it: endplay's PBN parser, python-chess's reader of the
tag-pair grammar PBN takes from PGN, the export format's byte rules, and Ruter's files."""

from __future__ import annotations

import io
import re
from datetime import datetime
from pathlib import Path

import pytest
from conftest import SAMPLE_DATA, real_file

from traveller.pipeline import process
from traveller.publish.meta import Publication
from traveller.publish.outputs import stamp
from traveller.publish.pbn_out import latin1, write_pbn
from traveller.read.pbn import parse_games, table_columns, table_fields

MANDATORY = ["Event", "Site", "Date", "Board", "West", "North", "East", "South", "Dealer",
             "Vulnerable", "Deal", "Scoring", "Declarer", "Contract", "Result"]


def session(method: str, tmp_path: Path, source: Path | None = None) -> tuple[object, Path]:
    result = process(source or SAMPLE_DATA / "club_session.csv", method=method,
                     names=None if source else SAMPLE_DATA / "names.csv")
    stamp(result, Publication(title="Riverside pairs 3 November 2026", correction_minutes=30),
          now=datetime(2026, 11, 3, 22, 0).astimezone())  # the session's evening
    return result, write_pbn(result, tmp_path / f"{method}.pbn")


@pytest.mark.parametrize("method", ["mp", "ximp", "butler", "total"])
def test_export_format_bytes(method: str, tmp_path: Path) -> None:
    _, path = session(method, tmp_path)
    data = path.read_bytes()
    assert data.count(b"\n") == data.count(b"\r\n") > 0  # every line ends CRLF, no lone CR/LF
    assert data.replace(b"\r\n", b"").count(b"\r") == 0
    assert not any(0x7F <= b <= 0x9F for b in data) and b"\t" not in data
    text = data.decode("latin-1")
    lines = text.split("\r\n")
    assert lines[:3] == ["% PBN 2.1", "% EXPORT", "%Content-type: text/x-pbn; charset=ISO-8859-1"]
    assert "Provisional results - corrections until" in text  # the status' dash, in Latin-1
    assert "Tomasz Wisniewska - Helen Taylor" in text  # "ś" has no Latin-1 form
    assert all(len(line) + 2 <= 255 for line in lines if not line.startswith(" "))


@pytest.mark.parametrize("method", ["mp", "ximp", "butler", "total"])
def test_every_game_has_the_mandatory_tags_in_order(method: str, tmp_path: Path) -> None:
    result, path = session(method, tmp_path)
    games, _ = parse_games(path.read_bytes().decode("latin-1"))
    assert len(games) == result.travellers["board"].nunique()
    for game in games:
        assert list(game.tags)[:len(MANDATORY)] == MANDATORY
        assert game.get("Date") == "2026.11.03"  # from the title
    contracts = [table_fields(line)[2] for g in games for _, line in g.tags["ScoreTable"].rows]
    assert "PASS" not in {c.upper() if c != "Pass" else c for c in contracts}


endplay_pbn = pytest.importorskip("endplay.parsers.pbn")


@pytest.mark.parametrize("method", ["mp", "ximp", "butler", "total"])
def test_endplay_reads_every_board_and_table(method: str, tmp_path: Path) -> None:
    result, path = session(method, tmp_path)
    with path.open(encoding="latin-1", newline="") as handle:
        boards = endplay_pbn.load(handle)
    t = result.travellers
    assert [b.board_num for b in boards] == sorted(t["board"].unique())
    for board in boards:
        assert board.info["Event"] == "Riverside pairs 3 November 2026"
        assert board.info["Date"] == "2026.11.03"
        table = board.info["ScoreTable"]
        assert [h["name"] for h in table["headers"]][:2] == ["PairId_NS", "PairId_EW"]
        assert len(table["rows"]) == (t["board"] == board.board_num).sum()
    totals = boards[0].info["TotalScoreTable"]
    assert [h["name"] for h in totals["headers"]][:3] == ["Rank", "RankTie", "PairId"]
    assert len(totals["rows"]) == len(result.ranking)


def test_endplay_reads_the_deals(tmp_path: Path) -> None:
    first = process(real_file("pbn-ruter", "sm1.pbn"))
    with write_pbn(first, tmp_path / "d.pbn").open(encoding="latin-1", newline="") as handle:
        boards = endplay_pbn.load(handle)
    from endplay.types import Deal

    source = first.travellers.groupby("board")["published_deal"].first()
    assert len(boards) == 66
    for board in boards:  # the same hands, whichever seat the text starts from
        assert board.deal.to_pbn() == Deal(source[board.board_num]).to_pbn()


chess_pgn = pytest.importorskip("chess.pgn")


def test_a_pgn_tag_reader_reads_the_same_tags(tmp_path: Path) -> None:
    """PBN's tag pairs are PGN's: python-chess's reader must see the same games and values."""
    _, path = session("mp", tmp_path)
    handle = io.StringIO(path.read_bytes().decode("latin-1"))
    ours, _ = parse_games(path.read_bytes().decode("latin-1"))
    read = []
    while (headers := chess_pgn.read_headers(handle)) is not None:
        read.append(dict(headers))
    assert len(read) == len(ours)
    for theirs, game in zip(read, ours, strict=True):
        for tag in MANDATORY:
            assert theirs[tag] == game.get(tag), tag


def _tables(path: Path) -> tuple[list, dict, dict]:
    """Games, and per board {(ns, ew): row} and the totals {pair: row}, by column name."""
    games, _ = parse_games(path.read_bytes().decode("latin-1"))
    boards = {}
    for game in games:
        names = table_columns(game.get("ScoreTable"))
        rows = [dict(zip(names, table_fields(line), strict=True))
                for _, line in game.tags["ScoreTable"].rows]
        boards[game.get("Board")] = {(r["PairId_NS"], r["PairId_EW"]): r for r in rows}
    tag = games[0].tags["TotalScoreTable"]
    names = table_columns(tag.value)
    totals = {}
    for _, line in tag.rows:
        row = dict(zip(names, table_fields(line), strict=True))
        totals[row["PairId"]] = row  # (a Howell: Ruter's Direction is where the pair began)
    return games, boards, totals


def _close(a: str, b: str, within: float) -> bool:
    return abs(float(a) - float(b)) <= within


def test_ruter_file_re_exported_tag_by_tag(tmp_path: Path) -> None:
    source = real_file("pbn-ruter", "sm1.pbn")
    ours = write_pbn(process(source), tmp_path / "sm1.pbn")
    their_games, theirs, their_totals = _tables(source)
    our_games, mine, my_totals = _tables(ours)
    for a, b in zip(their_games, our_games, strict=True):
        for tag in ("Board", "Dealer", "Vulnerable", "Deal", "Date", "Event"):
            assert a.get(tag) == b.get(tag), tag
        assert set(MANDATORY) <= set(a.tags) and set(MANDATORY) <= set(b.tags)
    for board, rows in theirs.items():
        assert rows.keys() == mine[board].keys()
        for key, row in rows.items():
            our = mine[board][key]
            assert set(our) <= set(row) | {"Score_NS", "Score_EW"}
            contract = re.sub(r"^(\d)N", r"\1NT", row["Contract"])  # Ruter's 6N is 6NT
            assert our["Contract"] == contract, (board, key)
            for column in ("Declarer", "Result", "Lead", "Score_NS", "Score_EW"):
                assert our[column] == row[column], (board, key, column)
            for column in ("MP_NS", "MP_EW"):
                assert _close(our[column], row[column], 0.051), (board, key, column)
            for column in ("Percentage_NS", "Percentage_EW"):
                assert _close(our[column], row[column], 0.5), (board, key, column)
    assert my_totals.keys() == their_totals.keys()
    for key, row in their_totals.items():
        our = my_totals[key]
        for column in ("Rank", "RankTie", "Names", "NrBoards"):
            assert our[column] == row[column], (key, column)
        assert _close(our["TotalScoreMP"], row["TotalScoreMP"], 0.051)
        assert _close(our["TotalPercentage"], row["TotalPercentage"], 0.0051)


def test_latin1_fallbacks() -> None:
    assert latin1("Wiśniewska – Dąbrowski — “A” …") == 'Wisniewska - Dabrowski - "A" ...'
    assert latin1("Łukasz Żółć Ærø 北") == "Lukasz Zólc Ærø ?"  # ó, Æ, ø are Latin-1
