"""Team matches: two-room board IMPs, match totals, VPs and standings (docs/scoring.md)."""

from __future__ import annotations

import numpy as np
import pandas as pd
import pytest
from conftest import SAMPLE_DATA, real_file
from test_imps import canonical

from traveller.score.teams import BOARD_COLUMNS, match_totals, seating, standings, team_boards
from traveller.score.vp import read_vp_scale, vp_wbf


def rooms(
    scores: list[tuple[int, int | None, int | None]],
    home: str = "A",
    away: str = "B",
    match: str | None = None,
) -> pd.DataFrame:
    """(board, open N-S score, closed N-S score) -> one row per room that has a row."""
    rows = []
    for board, open_score, closed_score in scores:
        for room, score in (("Open", open_score), ("Closed", closed_score)):
            rows.append({"board": board, "room": room, "ns_score": score})
    frame = pd.DataFrame(rows).astype({"board": "Int64", "ns_score": "Int64"})
    frame["home_team"] = home
    frame["away_team"] = away
    if match is not None:
        frame["match"] = match
    return frame


def test_seed_000_board_1520_v_940() -> None:
    # team B bid 6NT in one room (+1520 to B sitting N-S in the Closed room),
    # team A only 6C (+940 to A sitting N-S in the Open room)
    boards = team_boards(rooms([(1, 940, 1520)]))
    assert boards[["home_diff", "home_imp", "away_imp", "status"]].values.tolist() == [
        [-580, -11, 11, "played"],
    ]  # fmt: skip


def test_board_imps_from_both_rooms() -> None:
    boards = team_boards(rooms([(1, -150, 130), (2, 620, 650), (3, 420, -50)]))
    assert list(boards.columns) == BOARD_COLUMNS
    assert boards["home_imp"].tolist() == [-7, -1, 10]
    assert boards["away_imp"].tolist() == [7, 1, -10]


def test_missing_board_is_reported_not_scored() -> None:
    frame = rooms([(1, -150, 130), (2, 620, None), (3, 420, -50)])
    frame = frame[~((frame["board"] == 3) & (frame["room"] == "Closed"))]  # no row at all
    boards = team_boards(frame)
    assert boards["status"].tolist() == ["played", "missing", "missing"]
    assert boards["home_imp"].tolist() == [-7, pd.NA, pd.NA]
    assert boards["home_ns_score"].tolist() == [-150, 620, 420]
    assert boards["away_ns_score"].tolist() == [130, pd.NA, pd.NA]

    match = match_totals(boards)
    columns = ["boards", "played", "missing", "home_imps", "away_imps", "margin"]
    assert match[columns].values.tolist() == [[3, 1, 2, 0.0, 7.0, -7.0]]
    # the scale is chosen by the 3 boards scheduled, not the 1 played
    assert match["home_vp"].iloc[0] == vp_wbf(-7, 3)
    assert match_totals(boards, boards_scheduled=4)["home_vp"].iloc[0] == vp_wbf(-7, 4)


def test_duplicate_result_is_reported_not_scored() -> None:
    frame = rooms([(1, -150, 130)])
    frame = pd.concat([frame, frame.iloc[[0]]], ignore_index=True)
    assert team_boards(frame)["status"].tolist() == ["duplicate"]


def test_tie_is_10_10_and_vp_sides_add_to_20() -> None:
    match = match_totals(team_boards(rooms([(1, 420, 420), (2, 100, -100), (3, -100, 100)])))
    assert match[["home_imps", "away_imps", "margin", "home_vp", "away_vp"]].values.tolist() == [
        [5.0, 5.0, 0.0, 10.0, 10.0],
    ]  # fmt: skip


def test_fractional_imps_are_kept() -> None:
    boards = team_boards(rooms([(b, 420, 420) for b in range(1, 17)] + [(17, 450, 420)]))
    boards["home_imp"] = boards["home_imp"].astype("Float64")
    boards.loc[0, "home_imp"] = 0.5  # a director's adjustment
    match = match_totals(boards)
    assert match["margin"].iloc[0] == 1.5
    assert match["home_vp"].iloc[0] == vp_wbf(1.5, 17)


def test_discrete_scale() -> None:
    scale = read_vp_scale(SAMPLE_DATA / "vp_scale_24_boards.csv")
    scores = [(b, 420, 420) for b in range(1, 24)] + [(24, 1430, -100)]  # 1530 -> 17 IMPs
    match = match_totals(team_boards(rooms(scores)), scale=scale)
    assert match[["boards", "margin", "home_vp", "away_vp"]].values.tolist() == [
        [24, 17.0, 14.0, 6.0],
    ]  # fmt: skip
    with pytest.raises(ValueError, match="scale"):
        match_totals(team_boards(rooms(scores)), scale="acbl")


def test_team_numbers_instead_of_rooms() -> None:
    frame = pd.DataFrame({"round": [1, 1, 1, 1], "board": [1, 1, 2, 2],
                          "ns_team": [3, 1, 1, 3], "ew_team": [1, 3, 3, 1],
                          "ns_score": [-150, 130, 620, 650]})  # fmt: skip
    seats = seating(frame)
    assert seats["home_team"].tolist() == ["1"] * 4
    assert seats["home_ns"].tolist() == [False, True, True, False]
    boards = team_boards(frame)
    assert boards["match"].tolist() == ["round 1: 1 v 3"] * 2
    # team 1 is N-S at the second row (+130) and E-W at the first (-150 to N-S)
    assert boards["home_imp"].tolist() == [7, -1]


def test_seating_needs_rooms_or_teams() -> None:
    with pytest.raises(ValueError, match="room"):
        seating(pd.DataFrame({"board": [1], "ns_score": [1]}))
    with pytest.raises(ValueError, match="unknown room"):
        seating(pd.DataFrame({"room": ["Lobby"], "home_team": ["A"], "away_team": ["B"]}))


def test_standings_by_vp_then_quotient_with_shared_places() -> None:
    frame = pd.concat(
        [
            rooms([(1, 620, -100)], "A", "B", "r1 A-B"),  # A +12
            rooms([(1, 620, -100)], "C", "D", "r1 C-D"),  # C +12
            rooms([(1, -100, 620)], "A", "C", "r2 A-C"),  # C +12
            rooms([(1, 620, -100)], "B", "D", "r2 B-D"),  # B +12
        ],
        ignore_index=True,
    )
    matches = match_totals(team_boards(frame))
    table = standings(matches)
    assert table[["place", "team", "matches", "imps_for", "imps_against"]].values.tolist() == [
        ["1", "C", 2, 24.0, 0.0],
        ["2=", "A", 2, 12.0, 12.0],
        ["2=", "B", 2, 12.0, 12.0],
        ["4", "D", 2, 0.0, 24.0],
    ]
    assert np.isinf(table["quotient"].iloc[0])
    assert table["quotient"].iloc[1] == 1.0
    assert table["vp"].iloc[0] == 2 * vp_wbf(12, 1)


def test_standings_quotient_breaks_a_vp_tie() -> None:
    matches = pd.DataFrame({"home_team": ["A", "B"], "away_team": ["X", "Y"],
                            "home_imps": [30.0, 10.0], "away_imps": [10.0, 2.0],
                            "home_vp": [15.0, 15.0], "away_vp": [5.0, 5.0]})  # fmt: skip
    table = standings(matches)
    assert table["team"].tolist()[:2] == ["B", "A"]  # 10/2 = 5 beats 30/10 = 3
    assert table["place"].tolist() == ["1", "2", "3", "4"]


def test_no_mutation() -> None:
    frame = rooms([(1, -150, 130)])
    before = frame.copy()
    match_totals(team_boards(frame))
    pd.testing.assert_frame_equal(frame, before)


# --------------------------------------------------------------------------
# Golden: 1998 USA International Team Trials final, 8 segments x 15 boards


def _itt() -> pd.DataFrame:
    pbn = pytest.importorskip("traveller.read.pbn")
    frames = []
    for number in range(1, 9):
        (table,) = pbn.read_pbn(real_file("pbn-teams-itt1998", f"98ITTF{number}.PBN"))
        frame = canonical(table.frame)
        frame["published_score"] = pd.to_numeric(frame["score"]).astype("Int64")
        frame["match"] = f"segment {number}"
        frame["home_team"] = table.meta["home_team"]
        frame["away_team"] = table.meta["visit_team"]
        frames.append(frame)
    return pd.concat(frames, ignore_index=True)


def test_golden_itt1998_board_imps() -> None:
    frame = _itt()
    assert len(frame) == 240
    closed = frame[frame["room"] == "Closed"].set_index(["match", "board"])
    published = closed["published_ns_imp"].astype(float)  # IMPs to the Closed N-S = Cayne

    # 1. From the published scores: every one of the 120 boards matches.
    by_score = team_boards(frame.assign(ns_score=frame["published_score"]))
    assert (by_score["status"] == "played").all()
    got = by_score.set_index(["match", "board"])["away_imp"].astype(float)
    assert len(got) == 120
    assert got.tolist() == published.reindex(got.index).tolist()

    # 2. From our scores of the contracts: 119 boards match. Excluded: segment 1
    # board 13, whose Closed record says 3NT by W with [Result "11"] (-660) but
    # [Score "NS -690"] (12 tricks); the published [ScoreIMP "EW 1"] follows
    # the printed score, so our 0 IMPs differ there and nowhere else.
    disagree = frame["ns_score"] != frame["published_score"]
    assert frame.loc[disagree, ["match", "board", "room"]].values.tolist() == [
        ["segment 1", 13, "Closed"],
    ]  # fmt: skip
    by_contract = team_boards(frame).set_index(["match", "board"])["away_imp"].astype(float)
    differs = by_contract != published.reindex(by_contract.index)
    assert differs[differs].index.tolist() == [("segment 1", 13)]
    assert by_contract.loc[("segment 1", 13)] == 0.0
    assert published.loc[("segment 1", 13)] == -1.0


def test_golden_itt1998_match_and_standings() -> None:
    frame = _itt()
    matches = match_totals(team_boards(frame.assign(ns_score=frame["published_score"])))
    assert len(matches) == 8
    assert (matches["boards"] == 15).all()
    assert (matches["home_vp"] + matches["away_vp"]).round(2).eq(20).all()
    table = standings(matches)
    assert table["team"].tolist() == ["Nickell", "Cayne"]
    published = frame.loc[frame["room"] == "Closed", "published_ns_imp"].astype(float)
    cayne, nickell = published.clip(lower=0).sum(), (-published).clip(lower=0).sum()
    assert table["imps_for"].tolist() == [nickell, cayne] == [260.0, 248.0]
