"""A teams match in PBN as team trials publish it (one record per table) and in USEBIO,
and the files a format cannot hold (an event of sessions) left out with the reason while
everything else is written."""

from __future__ import annotations

from pathlib import Path

import pandas as pd
import pytest
from click.testing import CliRunner
from conftest import SAMPLE_DATA, real_file

from traveller.cli import main
from traveller.pipeline import process
from traveller.publish.outputs import write_outputs
from traveller.publish.pbn_out import write_pbn
from traveller.read.pbn import parse_games

COLUMNS = ["board", "ns_team", "ew_team", "room", "contract", "declarer", "tricks", "lead",
           "ns_score", "north", "east", "south", "west", "published_deal"]


@pytest.mark.parametrize("segment", [1, 8])
def test_itt_match_round_trips(segment: int, tmp_path: Path) -> None:
    first = process(real_file("pbn-teams-itt1998", f"98ITTF{segment}.PBN"), method="teams")
    second = process(write_pbn(first, tmp_path / "t.pbn"), method="teams")
    assert second.problems.empty
    order = ["board", "room"]
    a = first.travellers[COLUMNS].sort_values(order).reset_index(drop=True)
    b = second.travellers[COLUMNS].sort_values(order).reset_index(drop=True)
    pd.testing.assert_frame_equal(a.astype(str), b.astype(str))
    pd.testing.assert_frame_equal(first.ranking, second.ranking)
    pd.testing.assert_frame_equal(first.tables["Boards"], second.tables["Boards"])
    t = second.travellers  # what the file states is what we computed
    closed = t[t["room"] == "Closed"]
    boards = first.tables["Boards"].set_index("board")
    assert (closed["published_ns_imp"].astype(float).to_numpy()
            == boards.loc[closed["board"], "away_imp"].astype(float).to_numpy()).all()


def test_itt_records_tag_by_tag(tmp_path: Path) -> None:
    source = real_file("pbn-teams-itt1998", "98ITTF1.PBN")
    theirs, _ = parse_games(source.read_bytes().decode("latin-1"))
    result = process(source, method="teams")
    ours, _ = parse_games(write_pbn(result, tmp_path / "t.pbn").read_bytes().decode("latin-1"))
    t = result.travellers  # a score as typed that the contract cannot make (-690 for 3NT
    disputed = set(t.loc[t["row"].isin(result.problems["row"]), "board"].astype(str))  # +5)
    key = {(g.get("Board"), g.get("Room")): g for g in theirs}
    assert len(ours) == len(theirs) == 30 and disputed == {"13"}
    for game in ours:
        real = key[(game.get("Board"), game.get("Room"))]
        for tag in ("West", "North", "East", "South", "Dealer", "Vulnerable", "Deal",
                    "Declarer", "Contract", "Result", "Room"):
            same = {"Both": "All"}  # the standard's two words for it; Ruter writes All
            assert game.get(tag) == same.get(real.get(tag), real.get(tag)), (
                game.get("Board"), tag)
        assert game.get("Play").split() == real.get("Play").split()  # the leader
        lead = game.tags["Play"].rows[0][1].split()[0]
        assert lead == real.tags["Play"].rows[0][1].split()[0]
        if game.get("Room") == "Closed" and game.get("Board") not in disputed:
            assert game.get("ScoreIMP") == real.get("ScoreIMP"), game.get("Board")
        assert list(game.tags)[:15] == ["Event", "Site", "Date", "Board", "West", "North", "East",
                                        "South", "Dealer", "Vulnerable", "Deal", "Scoring",
                                        "Declarer", "Contract", "Result"]


def test_cli_writes_a_teams_match_in_every_format(tmp_path: Path) -> None:
    source = real_file("pbn-teams-itt1998", "98ITTF1.PBN")
    out = tmp_path / "t.xlsx"
    done = CliRunner().invoke(main, ["score", str(source), "--method", "teams", "-o", str(out),
                                     "--pbn", str(tmp_path / "t.pbn"), "--usebio",
                                     str(tmp_path / "t.xml"), "--html", str(tmp_path / "site")])
    assert "not written" not in done.output
    assert out.exists() and (tmp_path / "t.pbn").exists() and (tmp_path / "site").is_dir()
    again = process(tmp_path / "t.xml", method="teams")  # USEBIO's teams event, read back
    pd.testing.assert_frame_equal(again.tables["Boards"],
                                  process(source, method="teams").tables["Boards"])


def test_an_event_of_sessions_is_left_out_of_both(tmp_path: Path) -> None:
    from traveller.events import process_event

    source = SAMPLE_DATA / "club_session.csv"
    result = process_event([source, source])
    notes: list[str] = []
    written = write_outputs(result, pbn=tmp_path / "e.pbn", usebio=tmp_path / "e.xml",
                            not_written=notes)
    assert written == [] and len(notes) == 2
    assert all("several sessions" in n for n in notes)
