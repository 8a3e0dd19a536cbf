"""Team matches: board IMPs from two rooms, match totals, VPs and standings (docs/scoring.md).

A teams traveller has each board of a match played at two tables with the
teams on opposite lines. Two ways to say who sat where:

- ``room`` (Open/Closed, O/C or 1/2) with ``home_team`` and ``away_team`` (and
  ``match``, else the match is named "home v away"): the home team sits N-S
  in the Open room (1) and E-W in the Closed room (2);
- ``ns_team`` and ``ew_team`` on every row (and ``match``, else the match is
  the pair of teams, within ``round`` when there is one): the home team is
  the one that sorts first.

The pipeline is three small steps, each a frame in and a new frame out:

1. :func:`team_boards`: one row per (match, board) with both N-S scores,
   ``home_diff`` = home N-S score - away N-S score (home team's net points),
   ``home_imp``/``away_imp`` and a ``status``: "played"; "missing" (one room
   has no real result: the board is listed, not scored); "duplicate" (a room
   has two results: listed, not scored).
2. :func:`match_totals`: per match, the IMPs each side won over the boards
   both rooms played, the margin and the VPs. The VP scale is chosen by the
   number of boards *scheduled* (every board listed for the match, played or
   missing), so a missing board does not change the scale; pass ``boards=``
   when a board is absent from both rooms. Margins may be fractional (IMPs
   edited by a director); a tie is 10-10.
3. :func:`standings`: per team over all matches (round robin or Swiss), by
   total VPs, ties broken by IMP quotient = IMPs won / IMPs lost.
"""

from __future__ import annotations

import numpy as np
import pandas as pd

from traveller.score.imps import imps
from traveller.score.vp import VP_TOTAL, vp_from_scale, vp_wbf

#: Room names (case-insensitive) -> 1 (home team N-S) or 2 (home team E-W).
ROOMS = {"open": 1, "o": 1, "1": 1, "closed": 2, "c": 2, "2": 2}
BOARD_COLUMNS = ["match", "board", "home_team", "away_team", "home_ns_score",
                 "away_ns_score", "home_diff", "home_imp", "away_imp", "status"]  # fmt: skip


def _seats_from_rooms(frame: pd.DataFrame) -> pd.DataFrame:
    room = frame["room"].astype("string").str.strip().str.lower().map(ROOMS)
    if room.isna().any():
        bad = sorted(set(frame.loc[room.isna(), "room"].astype(str)))
        raise ValueError(f"unknown room {bad}: use Open/Closed, O/C or 1/2")
    home = frame["home_team"].astype("string")
    away = frame["away_team"].astype("string")
    match = frame["match"].astype("string") if "match" in frame else home + " v " + away
    return pd.DataFrame({"match": match, "home_team": home, "away_team": away,
                         "home_ns": (room == 1).to_numpy()})  # fmt: skip


def _seats_from_teams(frame: pd.DataFrame) -> pd.DataFrame:
    ns = frame["ns_team"].astype("string")
    ew = frame["ew_team"].astype("string")
    home_ns = (ns <= ew).to_numpy(dtype=bool)
    home = ns.where(home_ns, ew)
    away = ew.where(home_ns, ns)
    if "match" in frame:
        match = frame["match"].astype("string")
    else:
        match = home + " v " + away
        if "round" in frame:
            match = "round " + frame["round"].astype("string") + ": " + match
    return pd.DataFrame({"match": match, "home_team": home, "away_team": away,
                         "home_ns": home_ns})  # fmt: skip


def seating(frame: pd.DataFrame) -> pd.DataFrame:
    """Per row: ``match, home_team, away_team, home_ns`` (True when home sits N-S).

    >>> df = pd.DataFrame({"room": ["Open", "Closed"], "home_team": "A", "away_team": "B"})
    >>> seating(df)["home_ns"].tolist()
    [True, False]
    """
    if "room" in frame and {"home_team", "away_team"} <= set(frame.columns):
        seats = _seats_from_rooms(frame)
    elif {"ns_team", "ew_team"} <= set(frame.columns):
        seats = _seats_from_teams(frame)
    else:
        raise ValueError(
            "a teams traveller needs room + home_team + away_team columns, "
            "or ns_team + ew_team columns"
        )
    seats.index = frame.index
    return seats


def _room_scores(long: pd.DataFrame, home_ns: bool, index: pd.Index) -> dict[str, np.ndarray]:
    """Per (match, board) of ``index``: one room's N-S score, row count and real-result count."""
    part = long[long["home_ns"] == home_ns].groupby(["match", "board"], sort=False)["ns_score"]
    return {
        "score": part.first().reindex(index).to_numpy(dtype=np.float64, na_value=np.nan),
        "rows": part.size().reindex(index, fill_value=0).to_numpy(),
        "real": part.count().reindex(index, fill_value=0).to_numpy(),
    }


def team_boards(frame: pd.DataFrame) -> pd.DataFrame:
    """One row per (match, board) with both rooms' scores and the board IMPs.

    Columns :data:`BOARD_COLUMNS`; IMPs are from each team's view and <NA>
    unless ``status`` is "played".

    >>> df = pd.DataFrame({"board": [1, 1, 2], "room": ["Open", "Closed", "Open"],
    ...                    "home_team": "A", "away_team": "B", "ns_score": [-150, 130, 420]})
    >>> team_boards(df)[["board", "home_imp", "status"]].values.tolist()
    [[1, -7, 'played'], [2, <NA>, 'missing']]
    """
    seats = seating(frame)
    long = seats.assign(board=frame["board"].astype("Int64"),
                        ns_score=frame["ns_score"].astype("Float64"))  # fmt: skip
    long = long[long["board"].notna()]
    keys = ["match", "board"]
    teams = long.groupby(keys, sort=True)[["home_team", "away_team"]].first()
    home_room = _room_scores(long, True, teams.index)
    away_room = _room_scores(long, False, teams.index)
    duplicate = (home_room["rows"] > 1) | (away_room["rows"] > 1)
    played = (home_room["real"] == 1) & (away_room["real"] == 1) & ~duplicate
    status = np.select([duplicate, played], ["duplicate", "played"], "missing")
    out = teams.reset_index()
    out["home_ns_score"] = pd.array(home_room["score"], dtype="Float64").astype("Int64")
    out["away_ns_score"] = pd.array(away_room["score"], dtype="Float64").astype("Int64")
    diff = np.where(status == "played", home_room["score"] - away_room["score"], np.nan)
    out["home_diff"] = pd.array(diff, dtype="Float64").astype("Int64")
    out["home_imp"] = imps(out["home_diff"])
    out["away_imp"] = -out["home_imp"]
    out["status"] = pd.array(status, dtype="string")
    return out[BOARD_COLUMNS]


def line_imps(frame: pd.DataFrame, boards: pd.DataFrame) -> dict[str, pd.Series]:
    """Each traveller line's ``ns_imp`` and ``ew_imp``: the IMPs the board gave the team
    sitting N-S at that table, and the team sitting E-W (<NA> unless the board is played).

    ``boards`` is :func:`team_boards` of ``frame``. Both tables of a board show the
    same two figures, each from its own line's view: in the Open room the home team
    sits N-S, in the Closed room the visitors do.

    >>> df = pd.DataFrame({"board": [1, 1], "room": ["Open", "Closed"],
    ...                    "home_team": "A", "away_team": "B", "ns_score": [-150, 130]})
    >>> line_imps(df, team_boards(df))["ns_imp"].tolist()
    [-7, 7]
    """
    seats = seating(frame)
    by_board = boards.set_index(["match", "board"])
    key = pd.MultiIndex.from_arrays([seats["match"], frame["board"].astype("Int64")])
    home = by_board["home_imp"].reindex(key).array
    away = by_board["away_imp"].reindex(key).array
    ns = pd.Series(home, index=frame.index).where(seats["home_ns"].to_numpy(),
                                                  pd.Series(away, index=frame.index))
    ns = ns.astype("Int64")
    return {"ns_imp": ns, "ew_imp": -ns}


def match_totals(
    boards: pd.DataFrame,
    scale: str | pd.DataFrame = "wbf",
    boards_scheduled: int | None = None,
) -> pd.DataFrame:
    """Per match: boards scheduled/played/missing, IMPs won by each side, margin and VPs.

    ``scale`` is "wbf" (continuous 20-point scale) or a discrete table from
    :func:`traveller.score.vp.read_vp_scale`; ``boards_scheduled`` overrides the
    board count the WBF scale is chosen by. ``home_imps``/``away_imps`` are
    the sums of the boards each side won (Float64, fractions kept).

    >>> df = pd.DataFrame({"board": [1, 1, 2, 2], "room": ["Open", "Closed"] * 2,
    ...                    "home_team": "A", "away_team": "B",
    ...                    "ns_score": [-150, 130, 420, 420]})
    >>> m = match_totals(team_boards(df))
    >>> m[["home_imps", "away_imps", "margin", "home_vp", "away_vp"]].values.tolist()
    [[0.0, 7.0, -7.0, 5.04, 14.96]]
    """
    imp = boards["home_imp"].astype("Float64").fillna(0).to_numpy(dtype=np.float64)
    parts = boards[["match", "home_team", "away_team"]].assign(
        scheduled=1,
        played=(boards["status"] == "played").to_numpy(dtype=int),
        home_imps=np.maximum(imp, 0),
        away_imps=np.maximum(-imp, 0),
    )
    out = parts.groupby("match", sort=True).agg(
        home_team=("home_team", "first"), away_team=("away_team", "first"),
        boards=("scheduled", "sum"), played=("played", "sum"),
        home_imps=("home_imps", "sum"), away_imps=("away_imps", "sum"),
    ).reset_index()  # fmt: skip
    if boards_scheduled is not None:
        out["boards"] = boards_scheduled
    out["missing"] = out["boards"] - out["played"]
    margin = (out["home_imps"] - out["away_imps"]).to_numpy(dtype=np.float64)
    out["margin"] = margin
    out["home_vp"], out["away_vp"] = match_vps(margin, out["boards"].to_numpy(), scale)
    for column in ("home_imps", "away_imps", "margin", "home_vp", "away_vp"):
        out[column] = out[column].astype("Float64")
    return out


def match_vps(
    margin: np.ndarray, boards: np.ndarray, scale: str | pd.DataFrame = "wbf"
) -> tuple[np.ndarray, np.ndarray]:
    """(home VPs, away VPs) for signed home margins, on the WBF scale or a discrete table.

    >>> match_vps(np.array([10.0, 0.0]), np.array([16, 16]))
    (array([12.8, 10. ]), array([ 7.2, 10. ]))
    """
    if isinstance(scale, pd.DataFrame):
        return vp_from_scale(margin, scale), vp_from_scale(-margin, scale)
    if scale != "wbf":
        raise ValueError(f"scale must be 'wbf' or a VP table, not {scale!r}")
    home = vp_wbf(margin, boards)
    return home, np.round(VP_TOTAL - home, 2)


def standings(matches: pd.DataFrame) -> pd.DataFrame:
    """Team standings over many matches.

    Columns ``place, team, boards, matches, vp, imps_for, imps_against, quotient``
    (``boards``: the boards the team played; a team's ``team`` stands where a pair's
    ``pair`` does in the pairs' rankings).
    Ranked by VPs, then by IMP quotient (IMPs won / IMPs lost; infinite when
    a team lost no IMPs, 1 when no IMPs changed hands). Tied teams share a
    place written "2=".

    >>> m = pd.DataFrame({"home_team": ["A", "A", "B"], "away_team": ["B", "C", "C"],
    ...                   "home_imps": [30, 10, 5], "away_imps": [10, 10, 25],
    ...                   "home_vp": [15.0, 10.0, 5.0], "away_vp": [5.0, 10.0, 15.0]})
    >>> standings(m)[["place", "team", "vp"]].values.tolist()
    [['1', 'C', 25.0], ['2', 'A', 25.0], ['3', 'B', 10.0]]
    """
    sides = [
        pd.DataFrame({"team": matches[f"{a}_team"].astype("string"),
                      "boards": (matches["played"] if "played" in matches
                                 else pd.Series(0, index=matches.index)).astype("int64"),
                      "vp": matches[f"{a}_vp"].astype("Float64"),
                      "imps_for": matches[f"{a}_imps"].astype("Float64"),
                      "imps_against": matches[f"{b}_imps"].astype("Float64")})
        for a, b in (("home", "away"), ("away", "home"))
    ]  # fmt: skip
    long = pd.concat(sides, ignore_index=True)
    table = long.groupby("team", sort=True).agg(
        boards=("boards", "sum"), matches=("vp", "size"), vp=("vp", "sum"),
        imps_for=("imps_for", "sum"), imps_against=("imps_against", "sum"),
    ).reset_index()  # fmt: skip
    won = table["imps_for"].to_numpy(dtype=np.float64)
    lost = table["imps_against"].to_numpy(dtype=np.float64)
    with np.errstate(divide="ignore", invalid="ignore"):
        table["quotient"] = np.where(lost > 0, won / lost, np.where(won > 0, np.inf, 1.0))
    table["vp"] = table["vp"].round(2)
    table = table.sort_values(["vp", "quotient", "team"], ascending=[False, False, True])
    return _with_places(table.reset_index(drop=True))


def _with_places(table: pd.DataFrame) -> pd.DataFrame:
    """Add ``place`` first: teams equal on VPs and quotient share it, written "2=".

    ``table`` must already be sorted best first.
    """
    vp, quotient = table["vp"].to_numpy(dtype=np.float64), table["quotient"].to_numpy()
    same = np.zeros(len(table), dtype=bool)
    same[1:] = (vp[1:] == vp[:-1]) & (quotient[1:] == quotient[:-1])
    rank = np.maximum.accumulate(np.where(same, 0, np.arange(1, len(table) + 1)))
    tied = same | np.append(same[1:], False)
    place = pd.Series(rank.astype(str), dtype="string") + np.where(tied, "=", "")
    return pd.concat([place.rename("place"), table], axis=1)
