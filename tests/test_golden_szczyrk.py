"""JFR Pary's Butler IMP pairs (Szczyrk 2013) reproduced under ``--as pary``.

The travellers were transcribed from Pary's pages one line per result; a TD
line there prints no score, only the IMPs Pary gave, so it is written here as
the ruling those IMPs stand for: the pair against the phantom (94) +1.2 is
``TD`` (the profile's 60 % against the phantom), 0 / 0 is ``NP`` (pairs 71,
81, 91, 92 and 93 joined at board 11), 0 / +1.2 is ``50%-60%`` and
-1.2 / +1.2 ``40%-60%``. The event capped a pair's IMPs at 12 a round
(``round_cap``, an event setting rather than Pary's) and gave pair 44 a
procedural penalty of -1 (the ± column of the ranking), added here.
"""

from __future__ import annotations

import json
import re
from pathlib import Path

import numpy as np
import pandas as pd
import pytest
from conftest import real_file

from traveller import process

EVENT = "pary-jfr-szczyrk-butler"


def _rulings(published: pd.DataFrame) -> pd.Series:
    ns, ew = published["pub_ns"].astype(float), published["pub_ew"].astype(float)
    pct = {1.2: "60%", 0.0: "50%", -1.2: "40%"}
    split = ns.map(pct).fillna("?") + "-" + ew.map(pct).fillna("?")
    phantom = (published["ew_pair"] == 94) & (ns == 1.2)
    return pd.Series(np.select([phantom, (ns == 0) & (ew == 0)], ["TD", "NP"], split),
                     index=published.index)


@pytest.fixture(scope="module")
def scored(tmp_path_factory: pytest.TempPathFactory) -> tuple[pd.DataFrame, object]:
    published = pd.read_csv(real_file(EVENT, "input.csv"))
    td = published["contract"] == "TD"
    sheet = published.drop(columns=["pub_ns", "pub_ew", "note"])
    sheet.loc[td, "contract"] = _rulings(published[td])
    path = Path(tmp_path_factory.mktemp("szczyrk")) / "szczyrk.csv"
    sheet.to_csv(path, index=False)
    result = process(path, profile="pary", method="butler", phantom=("94",), round_cap=12)
    return published, result


def _penalties() -> dict[int, float]:
    page = real_file(EVENT, "html", "W-impy.html").read_text(encoding="utf-8")
    out = {}
    for row in re.findall(r"<tr>(.*?)</tr>", page, re.S):
        cells = [re.sub(r"<[^>]+>|&nbsp;", "", c).strip()
                 for c in re.findall(r"<td[^>]*>(.*?)</td>", row, re.S)]
        if len(cells) == 11 and cells[2].isdigit() and cells[7]:
            out[int(cells[2])] = float(cells[7])
    return out


def test_every_line_as_printed(scored: tuple[pd.DataFrame, object]) -> None:
    published, result = scored
    t = result.travellers  # type: ignore[attr-defined]
    assert result.problems.empty and len(t) == 1260  # type: ignore[attr-defined]
    keys = ["board", "ns_pair", "ew_pair"]
    merged = t.astype({"ns_pair": int, "ew_pair": int}).merge(published, on=keys,
                                                              validate="1:1")
    for side in ("ns", "ew"):
        ours = merged[f"{side}_imp"].astype(float).fillna(0.0)  # a board not played: 0
        assert np.allclose(ours, merged[f"pub_{side}"]), side


def test_board_averages_as_printed_but_one(scored: tuple[pd.DataFrame, object]) -> None:
    _, result = scored
    datum = result.travellers.groupby("board")["datum"].first()  # type: ignore[attr-defined]
    printed = json.loads(real_file(EVENT, "meta.json").read_text())["datum"]
    differ = [b for b in range(1, 31) if datum[b] != int(printed[str(b)])]
    # Board 24 prints -440 where we take -430; every one of its IMPs is the same
    # against either (its results jump from -460 to -430). Its 40 played results have
    # -460 and -430 in the middle (-445, -440 rounded half up), but its two artificial
    # tables (37 v the phantom, 60 % to N-S; 87 v 52, 40 % to N-S) cannot both count
    # at -50 as the 60 % tables of boards 11-30 must (-60 to -45, from board 17): -440
    # needs the 40 % table at -450 or below, a rule these pages do not show.
    assert differ == [24]


def test_every_total_and_place(scored: tuple[pd.DataFrame, object]) -> None:
    _, result = scored
    totals = pd.read_csv(real_file(EVENT, "totals.csv"))
    penalties = _penalties()
    assert penalties == {44: -1.0}
    ranking = result.ranking  # type: ignore[attr-defined]
    assert len(ranking) == len(totals) == 83  # the phantom is not ranked
    merged = ranking.merge(totals, on="pair", validate="1:1", suffixes=("", "_pub"))
    total = merged["imps"].astype(float) + merged["pair"].map(penalties).fillna(0.0)
    assert np.allclose(total, merged["total"])
    # Pary breaks one tie (56 and 39 at -1.60: 43 and 44) by a rule it does not print;
    # we place both 43=. Every other place is the published one.
    tied = merged["pair"].isin([56, 39])
    order = total.rank(method="min", ascending=False).astype(int)
    assert (order[~tied] == merged.loc[~tied, "place_pub"]).all()
    assert set(merged.loc[tied, "place"]) == {"43="}
    clean = ~merged["pair"].isin([44, 62, 73]) & ~tied  # 44's penalty puts it below 62, 73
    assert (merged.loc[clean, "place"].str.rstrip("=").astype(int)
            == merged.loc[clean, "place_pub"]).all()
