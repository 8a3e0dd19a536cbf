"""A group of clubs' field frame, made at once, is each club's made alone, one after another."""

from __future__ import annotations

import pandas as pd
from conftest import SAMPLE_DATA

from traveller import process
from traveller.sim.field import FIELD_DTYPES, field_frame, field_rows


def test_clubs_at_once_are_the_clubs_one_by_one() -> None:
    mitchell = process(SAMPLE_DATA / "club_session.csv", dd=False)
    rulings = process(SAMPLE_DATA / "rulings_session.csv", dd=False)  # awards, phantoms
    howell = process(SAMPLE_DATA / "individual_session.csv", dd=False)
    fouled = mitchell.travellers.assign(fouled=pd.Series(
        ["A" if i % 5 == 0 else None for i in range(len(mitchell.travellers))],
        dtype="string"))
    lean = rulings.travellers.drop(columns=[c for c in ("fouled", "phantom", "arrow")
                                            if c in rulings.travellers])
    no_board = mitchell.travellers.assign(board=mitchell.travellers["board"].where(
        mitchell.travellers.index % 7 != 3))
    clubs = [(mitchell.travellers, 3, "mitchell"), (fouled, 4, "mitchell"),
             (lean, 5, "mitchell"), (howell.travellers, 6, "howell"),
             (no_board, 7, "mitchell"), (mitchell.travellers.iloc[:0], 8, "mitchell"),
             (mitchell.travellers.assign(ns_score=mitchell.travellers["ns_score"].astype(
                 "float64")), 9, "mitchell")]  # a column of another type: converted alone
    together = field_frame(clubs)
    alone = pd.concat([field_rows(*club) for club in clubs], ignore_index=True)
    pd.testing.assert_frame_equal(together, alone, check_exact=True)
    assert dict(together.dtypes.astype(str)) == FIELD_DTYPES
    assert set(together["fouled"].unique()) == {"", "4|A"}  # named with its club
    assert together["howell"].tolist() == [c == 6 for c in together["club_id"]]
    dropped = int(no_board["board"].isna().sum())
    assert (together["club_id"] == 7).sum() == len(no_board) - dropped > 0
    assert field_frame([]).empty and list(field_frame([]).columns) == list(FIELD_DTYPES)
