"""Golden data: the 2012 Warsaw club pairs scored by Pary (JFR), every N-S/E-W percentage.

Each board has nine lines; one is pair 18, a phantom, marked TD and given
60 % / 0 % by the director: the pair meeting the phantom sits out and gets
60 % of the board's top, the phantom nothing. With ``phantom_award=60`` those
27 lines are scored as published too; the other 216 are compared on their
8 real results (top 14), so every one of the 243 published percentages is
checked. The final ranking page (html/wb120802WYN.html) was saved without
its Ajax content, so there are no published totals to compare.
"""

from __future__ import annotations

import pandas as pd
from conftest import real_file

from traveller import process
from traveller.pipeline import Options


def test_every_line_matches_the_published_percentages_td_lines_included() -> None:
    path = real_file("pary-jfr-warsaw", "wb120802.csv")
    result = process(path, options=Options(phantom_award=60))
    published = pd.read_csv(path)
    t = result.travellers
    assert len(t) == len(published) == 243
    assert result.problems.empty, result.problems["message"].tolist()
    assert (t["ns_pct"].astype(float).round(2) == t["published_ns_pct"].astype(float)).all()
    assert (t["ew_pct"].astype(float).round(2) == t["published_ew_pct"].astype(float)).all()
    td = t[t["ruling"] == "TD"]
    assert len(td) == 27 and (td["ew_pair"] == 18).all() and (td["phantom"] == "EW").all()
    assert (td["ns_pct"] == 60).all() and (td["ew_pct"] == 0).all()
    assert (td["top"] == 14).all() and (td["ns_mp"].round(9) == 8.4).all()
    real = t[t["ruling"].isna()]
    assert len(real) == 216 and (real["results"] == 8).all()


def test_the_phantom_is_not_ranked_and_sit_out_pairs_keep_their_boards() -> None:
    result = process(real_file("pary-jfr-warsaw", "wb120802.csv"),
                     options=Options(phantom_award=60))
    ranking = result.ranking
    assert 18 not in ranking["pair"].tolist() and len(ranking) == 17
    assert (ranking["boards"] == 27).all()  # the sit-out boards count, at 60 %


def test_without_an_award_the_td_lines_are_sit_outs_and_the_totals_are_factored() -> None:
    result = process(real_file("pary-jfr-warsaw", "wb120802.csv"))
    t = result.travellers
    td = t[t["ruling"] == "TD"]
    assert td["ns_mp"].isna().all() and td["ns_pct"].isna().all()
    boards = result.ranking.set_index("pair")["boards"]
    assert boards[9] == 21 and boards[17] == 24 and boards[1] == 27  # 9 sat out twice
    real = t[t["ruling"].isna()]
    assert (real["ns_pct"].astype(float).round(2) == real["published_ns_pct"].astype(float)).all()


def test_a_published_line_checked_by_hand() -> None:
    result = process(real_file("pary-jfr-warsaw", "wb120802.csv"))
    t = result.travellers
    line = t[(t["board"] == 2) & (t["ns_pair"] == 9)].iloc[0]
    # 4H doubled by W, +1, E-W vulnerable: -690 for N-S, the bottom of the board.
    assert (line["contract"], line["declarer"], line["ns_score"]) == ("4HX", "W", -690)
    assert line["ns_pct"] == 0 and line["ew_pct"] == 100


def test_the_sessions_pbn_from_pbntools_reads_as_the_same_pairs_and_percentages() -> None:
    """html/wb120802.pbn is the same session as pbntools wrote it from Pary's pages: one
    record a table, no pair numbers, each seat naming its pair ([North "Para-1"] [South
    "Para-1"]), and no phantom lines. Its 216 results are the transcription's real lines,
    and scored they give the published percentages and the ranking that the transcription
    gives when its TD lines are sit-outs."""
    pbn = process(real_file("pary-jfr-warsaw", "html", "wb120802.pbn"), dd=False)
    assert pbn.problems.empty, pbn.problems["message"].tolist()
    assert pbn.settings["movement"] == "howell" and "room" not in pbn.travellers
    csv = process(real_file("pary-jfr-warsaw", "wb120802.csv"), dd=False)
    keys = ["board", "ns_pair", "ew_pair"]
    real = csv.travellers[csv.travellers["ruling"].isna()].set_index(keys).sort_index()
    read = pbn.travellers.set_index(keys).sort_index()
    assert len(read) == 216 and read.index.equals(real.index)
    for column in ("contract", "declarer", "tricks", "ns_score"):
        assert read[column].astype(str).tolist() == real[column].astype(str).tolist(), column
    assert (read["ns_pct"].astype(float).round(2) == real["published_ns_pct"].astype(float)).all()
    assert (read["ew_pct"].astype(float).round(2) == real["published_ew_pct"].astype(float)).all()
    ranked = ["pair", "boards", "mp", "pct", "place"]
    pd.testing.assert_frame_equal(pbn.ranking[ranked], csv.ranking[ranked])
