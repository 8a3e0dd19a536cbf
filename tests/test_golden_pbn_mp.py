"""Golden data: Ruter's Finnish Pairs Championship 2014 session (sm1.pbn), all of it.

66 boards, 18 tables, top 34. Board 16 has two lines "A+" for both sides:
60 % of the top (20.4) each, and its 16 real results Neuberg-scaled to 18
tables. Ruter ranks the whole field together (pairs change lines: a Howell
to us), prints each line's matchpoints to one decimal rounded half up per
side (board 16: 28.25 -> 28.3 and 5.75 -> 5.8, so N-S + E-W is 34.1 there)
and its percentage as a whole number; the TotalScoreTable gives each pair's
total to one decimal, its percentage to two and its place ("25=" for a tie).
Every value is compared at the precision Ruter prints it, rounding half up
as Ruter does; nothing is excluded.
"""

from __future__ import annotations

import numpy as np
import pandas as pd
import pytest
from conftest import real_file

from traveller.pipeline import Result, process_loaded
from traveller.read.load import read


def half_up(values: pd.Series, decimals: int) -> np.ndarray:
    scale = 10.0**decimals
    return np.floor(values.to_numpy(dtype=float) * scale + 0.5 + 1e-9) / scale


@pytest.fixture(scope="module")
def session() -> tuple[Result, pd.DataFrame]:
    loaded = read(real_file("pbn-ruter", "sm1.pbn"))
    result = process_loaded(loaded)
    assert result.problems.empty, result.problems["message"].tolist()
    return result, loaded.tables[0].names


def test_the_two_a_plus_lines(session: tuple[Result, pd.DataFrame]) -> None:
    result, _ = session
    t = result.travellers
    ruled = t[t["ruling"].notna()]
    assert ruled[["board", "ns_pair", "ew_pair", "ruling"]].values.tolist() == [
        [16, 19, 28, "A+"], [16, 26, 21, "A+"]]
    for column in ("ns_mp", "ew_mp"):
        assert (ruled[column].round(9) == 20.4).all()
    assert (ruled[["ns_pct", "ew_pct"]] == 60).all().all()
    assert (ruled[["ns_award", "ew_award"]] == 60).all().all()
    board = t[(t["board"] == 16) & t["ruling"].isna()]
    assert len(board) == 16 and (board["results"] == 18).all()
    top = board.loc[board["ns_score"].idxmax()]  # +200 beats the 15 other results
    assert top["ns_mp"] == pytest.approx((30 + 1) * 18 / 16 - 1)  # 33.875


def test_every_line_as_printed(session: tuple[Result, pd.DataFrame]) -> None:
    result, _ = session
    t = result.travellers
    assert len(t) == 66 * 18
    for side in ("ns", "ew"):
        assert (half_up(t[f"{side}_mp"], 1) == t[f"published_{side}_mp"].astype(float)).all()
        assert (half_up(t[f"{side}_pct"], 0) == t[f"published_{side}_pct"].astype(float)).all()


def test_every_total_percentage_and_place(session: tuple[Result, pd.DataFrame]) -> None:
    result, names = session
    assert result.settings["movement"] == "howell"
    merged = result.ranking.merge(names.drop(columns="line"), on=["section", "pair"],
                                  validate="1:1")
    assert len(merged) == len(names) == 36
    assert (merged["boards"] == merged["published_boards"]).all()
    assert (half_up(merged["mp"], 1) == merged["published_total"].astype(float)).all()
    assert (half_up(merged["pct"], 2) == merged["published_pct"].astype(float)).all()
    assert (merged["place"] == merged["published_place"]).all()
    assert merged.loc[merged["place"] == "25=", "pair"].tolist() == [16, 25]
