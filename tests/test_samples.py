"""The bundled sample sessions and a Russian club's board-8 protocol."""

from __future__ import annotations

import pandas as pd
from conftest import SAMPLE_DATA

from traveller import process


def test_seed_000_protocol_in_russian_with_damaged_suit_font() -> None:
    result = process(SAMPLE_DATA / "board8_protocol.csv")
    assert result.problems.empty, result.problems["message"].tolist()
    t = result.travellers.sort_values("ns_pair")
    assert t["board"].unique().tolist() == [8]
    assert t["contract"].tolist() == ["6CXX", "6C", "6NT", "6NT", "3NT", "5C"]
    assert t["declarer"].tolist() == ["S", "S", "N", "N", "N", "S"]
    assert t["lead"].tolist() == ["DJ", "DJ", "HQ", "DQ", "DQ", "DJ"]
    assert t["ns_score"].tolist() == [1380, 920, -50, -100, 430, 420]
    assert t["ns_mp"].tolist() == [10, 8, 2, 0, 6, 4]
    # the protocol's own printed matchpoints ("очки" columns) agree
    assert t["очки"].astype(int).tolist() == [10, 8, 2, 0, 6, 4]
    assert t["очки (2)"].astype(int).tolist() == t["ew_mp"].astype(int).tolist()


def test_club_session_xlsx_and_csv_give_the_same_results() -> None:
    xlsx = process(SAMPLE_DATA / "club_session.xlsx")
    csv = process(SAMPLE_DATA / "club_session.csv", names=SAMPLE_DATA / "names.csv")
    assert xlsx.problems.empty and csv.problems.empty
    assert xlsx.settings["movement"] == "mitchell"
    assert len(xlsx.travellers) == 8 * 24
    columns = ["board", "ns_pair", "ew_pair", "contract", "ns_score", "ns_mp", "ew_mp"]
    pd.testing.assert_frame_equal(xlsx.travellers[columns], csv.travellers[columns])
    pd.testing.assert_frame_equal(xlsx.ranking, csv.ranking)
    assert (xlsx.ranking["names"] != "").all()
    assert sorted(xlsx.ranking.groupby("line").size().tolist()) == [8, 8]


def test_rulings_sample_applies_every_ruling_it_shows() -> None:
    result = process(SAMPLE_DATA / "rulings_session.csv")
    assert result.problems.empty, result.problems["message"].tolist()
    ruled = result.travellers[result.travellers["ruling"].notna()].sort_values("board")
    assert ruled["ruling"].tolist() == ["A60/40", "A=", "A+-", "30%+650/70%-100", "NP"]
    assert ruled["ns_pct"].tolist()[:3] == [60.0, 50.0, 60.0]
    assert ruled["ew_pct"].tolist()[:3] == [40.0, 50.0, 40.0]
    assert ruled["ns_pct"].isna().tolist() == [False, False, False, False, True]  # NP: not played
