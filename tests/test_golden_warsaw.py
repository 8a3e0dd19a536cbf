"""Golden data: the 2012 Warsaw club pairs scored by Pary (JFR), every N-S/E-W percentage.

Each board has nine lines; one is pair 18, a phantom, marked TD and given
60 % / 0 % by the director. Those 27 lines are a ruling (scored in the
directors'-rulings work), so here they must be listed as problems and left
out; the percentages of the other 216 lines are compared, all of them.
"""

from __future__ import annotations

import pandas as pd
from conftest import real_file

from traveller import process


def test_every_real_line_matches_the_published_percentages() -> None:
    path = real_file("pary-jfr-warsaw", "wb120802.csv")
    result = process(path)
    published = pd.read_csv(path)
    real = published[published["contract"] != "TD"]
    assert len(result.travellers) == len(real) == 216
    t = result.travellers
    assert (t["ns_pct"].astype(float).round(2) == t["pct_ns"].astype(float)).all()
    assert (t["ew_pct"].astype(float).round(2) == t["pct_ew"].astype(float)).all()
    # the published scores (one of score_ns / score_ew is filled) equal ours
    assert result.problems["code"].value_counts().to_dict() == {"adjusted-score": 27}
    assert set(result.problems["value"]) == {"TD"}


def test_a_published_line_checked_by_hand() -> None:
    result = process(real_file("pary-jfr-warsaw", "wb120802.csv"))
    t = result.travellers
    line = t[(t["board"] == 2) & (t["ns_pair"] == 9)].iloc[0]
    # 4H doubled by W, +1, E-W vulnerable: -690 for N-S, the bottom of the board.
    assert (line["contract"], line["declarer"], line["ns_score"]) == ("4HX", "W", -690)
    assert line["ns_pct"] == 0 and line["ew_pct"] == 100
