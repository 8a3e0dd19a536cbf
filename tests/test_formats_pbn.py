"""PBN reader: Ruter ScoreTables, one-record-per-table teams files, encodings and bad lines."""

from __future__ import annotations

import shlex
from pathlib import Path

import numpy as np
import pandas as pd
import pytest
from conftest import real_file, row_at

from traveller.errors import UnreadableFileError
from traveller.pipeline import process
from traveller.read.formats import reader_for
from traveller.read.load import read
from traveller.read.pbn import read_pbn

RUTER = "pbn-ruter"
TEAMS = "pbn-teams-itt1998"
IMP_STEPS = [20, 50, 90, 130, 170, 220, 270, 320, 370, 430, 500, 600, 750, 900, 1100, 1300,
             1500, 1750, 2000, 2250, 2500, 3000, 3500, 4000]


def imps(difference: int) -> int:
    """WBF IMP scale (docs/scoring.md), signed."""
    return int(np.sign(difference)) * int(np.searchsorted(IMP_STEPS, abs(difference), "right"))


def one_table(*parts: str):
    tables = read_pbn(real_file(*parts))
    assert len(tables) == 1
    return tables[0]




def write(tmp_path: Path, text: str, name: str = "t.pbn", encoding: str = "latin-1") -> Path:
    path = tmp_path / name
    path.write_bytes(text.encode(encoding))
    return path


# --------------------------------------------------------------------------
# Ruter pairs session (sm1.pbn): ScoreTable + TotalScoreTable, Latin-1


def test_sm1_counts_and_meta() -> None:
    table = one_table(RUTER, "sm1.pbn")
    frame = table.frame
    assert len(frame) == 66 * 18 and frame["board"].nunique() == 66
    assert set(frame.groupby("board").size()) == {18}
    assert table.meta["scoring"] == "MatchPoints;MP1" and table.meta["program"] == "Ruter"
    assert table.meta["sessions"] == "2" and table.meta["layout"] == "scoretable"
    assert table.meta["site"] == "SBL 0901 Kati Sandström, Åbo, Finland"  # Latin-1 decoded
    assert table.sheet == "SM-parikilpailu - Session 1" and table.notation == "en"
    assert "read_problem" not in frame


def test_sm1_rows_match_the_file_text() -> None:
    """Every row's ``row`` is its table line; pairs, contract and scores are the ones there."""
    path = real_file(RUTER, "sm1.pbn")
    lines = path.read_bytes().decode("latin-1").splitlines()
    for _, row in one_table(RUTER, "sm1.pbn").frame.iterrows():
        fields = shlex.split(lines[row["row"] - 1])
        assert fields[2:4] == [str(row["ns_pair"]), str(row["ew_pair"])]
        assert fields[8] == ("-" if pd.isna(row["score"]) else str(row["score"])) or (
            row["contract"] == fields[8])


@pytest.mark.parametrize(("line", "expected"), [
    (101, dict(board=1, table="5", round="1", ns_pair=5, ew_pair=32, contract="6N",
               declarer="S", tricks=13, lead="S9", score=1020, score_ew=None,
               published_ns_mp=32.0, published_ew_mp=2.0, published_ns_pct=94.0,
               published_ew_pct=6.0, vul="None", dealer="N")),
    (1057, dict(board=16, ns_pair=36, ew_pair=6, contract="2S", declarer="E", tricks=8,
                lead="DA", score=None, score_ew=110, published_ns_mp=9.1,
                published_ew_mp=24.9)),
    (678, dict(board=10, ns_pair=6, ew_pair=2, contract="Pass", declarer=None, tricks=None,
               lead=None, score=0, published_ns_mp=11.0, published_ew_mp=23.0)),
])
def test_sm1_spot_rows(line: int, expected: dict) -> None:
    row = row_at(one_table(RUTER, "sm1.pbn"), line)
    for column, value in expected.items():
        assert (pd.isna(row[column]) if value is None else row[column] == value), column


def test_sm1_adjusted_a_plus_lines_are_kept() -> None:
    frame = one_table(RUTER, "sm1.pbn").frame
    adjusted = frame[frame["contract"] == "A+"]
    assert adjusted["row"].tolist() == [1062, 1063]
    assert adjusted[["ns_pair", "ew_pair"]].values.tolist() == [[19, 28], [26, 21]]
    assert adjusted[["adjusted_ns", "adjusted_ew"]].values.tolist() == [["A+", "A+"]] * 2
    assert adjusted["score"].isna().all() and adjusted["score_ew"].isna().all()
    assert (adjusted["published_ns_mp"] == 20.4).all()
    assert (adjusted["published_ew_pct"] == 60).all()


def test_sm1_published_matchpoints_are_not_swapped() -> None:
    frame = one_table(RUTER, "sm1.pbn").frame
    total = frame["published_ns_mp"].astype(float) + frame["published_ew_mp"].astype(float)
    real = frame["contract"] != "A+"
    # board 16 (two A+) is Neuberg-scaled and each side rounded to 0.1: 28.3 + 5.8
    assert np.allclose(total[real], 34.0, atol=0.1)
    assert (abs(total[real] - 34.0) > 1e-9).sum() == 4
    ns_view = pd.to_numeric(frame["score"]).fillna(-pd.to_numeric(frame["score_ew"]))
    for _, board in frame[real].assign(ns=ns_view).groupby("board"):
        order = board.sort_values("ns")
        assert order["published_ns_mp"].is_monotonic_increasing


def test_sm1_names_from_total_score_table() -> None:
    names = one_table(RUTER, "sm1.pbn").names
    assert len(names) == 36 and sorted(names["pair"]) == list(range(1, 37))
    assert names.groupby("line").size().to_dict() == {"EW": 18, "NS": 18}  # "N-S" / "Ö-V"
    top = names[names["pair"] == 23].iloc[0]
    assert top[["line", "names", "published_total", "published_pct", "published_place",
                "published_boards"]].tolist() == [
        "EW", "Lasse Bergroth – Mikko Nieminen", 1337.0, 59.58, "1", 66]
    assert names.loc[names["pair"] == 19, "names"].item() == "Vesa Leskelä – Jussi Tamminen"
    tied = names[names["published_place"] == "25="]
    assert sorted(tied["pair"]) == [16, 25]
    assert names.loc[names["pair"] == 25, "names"].item() == "Pirjo Juuri-Oja – Erkki Juuri-Oja"


# --------------------------------------------------------------------------
# Ruter club Butler (butler.pbn): IMP_NS/EW, ButlerDatum, Bye rows


def test_butler_counts_rows_and_datum() -> None:
    table = one_table(RUTER, "butler.pbn")
    frame = table.frame
    assert len(frame) == 28 * 4 and frame["board"].nunique() == 28
    first = row_at(table, 68)
    assert first[["board", "ns_pair", "ew_pair", "contract", "declarer", "tricks", "lead",
                  "score", "published_ns_imp", "published_ew_imp", "published_datum"]].tolist(
    ) == [1, 8, 1, "2H", "W", 7, "SA", 50, 3.0, -3.0, -50.0]
    ew_scored = row_at(table, 70)
    assert pd.isna(ew_scored["score"]) and ew_scored["score_ew"] == 100
    assert table.meta["scoring"] == "IMP;Butler-2;Mean" and table.meta["phantoms"] == "1"


def test_butler_bye_rows_are_kept() -> None:
    frame = one_table(RUTER, "butler.pbn").frame
    byes = frame[frame["contract"] == "Bye"]
    assert len(byes) == 28 and set(byes.groupby("board").size()) == {1}
    first = byes[byes["row"] == 71].iloc[0]
    assert pd.isna(first["ns_pair"]) and first["ew_pair"] == 3
    assert pd.isna(first["published_ns_imp"]) and first["published_ew_imp"] == 0.2
    assert pd.isna(first["published_datum"]) and pd.isna(first["score"])
    sitting_out = byes["ns_pair"].fillna(byes["ew_pair"])
    assert sitting_out.value_counts().to_dict() == {p: 4 for p in (1, 2, 3, 4, 5, 6, 8)}


def test_butler_names() -> None:
    names = one_table(RUTER, "butler.pbn").names
    assert sorted(names["pair"]) == [1, 2, 3, 4, 5, 6, 8]
    assert names.loc[names["pair"] == 5, ["line", "published_total", "published_place"]
                     ].values.tolist() == [["NS", 42.0, "1"]]
    assert names["published_pct"].isna().all()


# --------------------------------------------------------------------------
# Teams: one record per table (1998 USA trials)


@pytest.mark.parametrize("segment", range(1, 9))
def test_teams_rows_and_published_imps(segment: int) -> None:
    table = one_table(TEAMS, f"98ITTF{segment}.PBN")
    frame = table.frame
    assert len(frame) == 30 and frame["board"].nunique() == 15
    assert table.meta["layout"] == "records"
    for _, board in frame.groupby("board"):
        rooms = board.set_index("room")
        assert rooms.loc["Open", ["ns_pair", "ew_pair"]].tolist() == [1, 2]
        assert rooms.loc["Closed", ["ns_pair", "ew_pair"]].tolist() == [2, 1]
        assert pd.isna(rooms.loc["Open", "published_ns_imp"])
        swing = rooms.loc["Closed", "score"] - rooms.loc["Open", "score"]
        assert rooms.loc["Closed", "published_ns_imp"] == imps(swing)
        assert rooms.loc["Closed", "published_ew_imp"] == -imps(swing)


def test_teams_first_records() -> None:
    table = one_table(TEAMS, "98ITTF1.PBN")
    open_room = row_at(table, 18)
    assert open_room[["board", "room", "contract", "declarer", "tricks", "lead", "score",
                      "north", "west", "vul", "dealer"]].tolist() == [
        1, "Open", "1NT", "E", 9, "C9", -150, "Nickell", "Cohen", "None", "N"]
    closed = row_at(table, 51)
    assert closed[["contract", "declarer", "tricks", "lead", "score", "published_ns_imp"]
                  ].tolist() == ["3D", "S", 10, "D6", 130, 7.0]
    assert table.meta["home_team"] == "Nickell" and table.meta["visit_team"] == "Cayne"
    assert table.names[["pair", "names"]].values.tolist() == [[1, "Nickell"], [2, "Cayne"]]
    assert table.sheet == "1998 USA International Team Trials"  # inherited by "#"
    assert table.meta["stage"] == "Finals: Nickell vs Cayne"


# --------------------------------------------------------------------------
# Small files: encodings, sided scores, comments, malformed lines


HEADER = '% PBN 2.1\n% EXPORT\n[Event "Club"]\n[Board "{board}"]\n[Dealer "N"]\n'
TABLE = ('[ScoreTable "PairId_NS\\2R;PairId_EW\\2R;Contract\\4L;Declarer\\1R;Result\\2R;'
         'Score_NS\\6R;Score_EW\\6R"]\n')


def test_latin1_and_utf8_names_decode(tmp_path: Path) -> None:
    body = (HEADER.format(board=1) + TABLE + ' 1  2 4S   N 10 "420" -\n'
            '[TotalScoreTable "PairId\\2R;Direction\\5R;Names\\30L"]\n'
            ' 1 "N-S" "Jörg Müller - Åsa Øst"\n 2 "Ö-V" "Zoë Lindén - Pål Ærø"\n')
    for encoding in ("latin-1", "utf-8"):
        table = read_pbn(write(tmp_path, body, encoding=encoding))[0]
        assert table.names["names"].tolist() == ["Jörg Müller – Åsa Øst", "Zoë Lindén – Pål Ærø"]
        assert table.names["line"].tolist() == ["NS", "EW"]


def test_malformed_table_lines_become_reportable_rows(tmp_path: Path) -> None:
    body = (HEADER.format(board=7) + TABLE + ' 1  2 4S   N 10 "420" -\n'
            ' 3  4 4S   N "420" -\n'   # Result missing: 6 fields for 7 columns
            ' 5  6 3N   S  9 "400 -\n')  # unclosed quote
    table = read_pbn(write(tmp_path, body))[0]
    assert len(table.frame) == 3
    good, short, unclosed = (table.frame.iloc[i] for i in range(3))
    assert good["score"] == 420 and pd.isna(good["read_problem"])
    assert good["row"] == 7 and short["board"] == 7 and short["row"] == 8
    assert pd.isna(short["ns_pair"])
    assert "6 fields" in short["read_problem"] and "names 7" in short["read_problem"]
    assert unclosed["row"] == 9 and "unclosed quote" in unclosed["read_problem"]


def test_broken_tag_line_becomes_a_reportable_row(tmp_path: Path) -> None:
    body = '[Event "Teams"]\n[Board "3"]\n[Room "Open"]\n[Contract "4S]\n[Declarer "N"]\n' \
           '[Result "10"]\n[Score "NS 420"]\n'
    frame = read_pbn(write(tmp_path, body))[0].frame
    broken = frame[frame["read_problem"].notna()].iloc[0]
    assert broken["row"] == 4 and broken["board"] == 3
    assert "cannot read" in broken["read_problem"]
    played = frame[frame["read_problem"].isna()].iloc[0]
    assert pd.isna(played["contract"]) and played["score"] == 420


def test_sided_scores_markers_and_comments(tmp_path: Path) -> None:
    records = [('{a comment with [Board "99"]\n spanning lines}\n[Board "1"]\n[Room "Open"]\n'
                '[Declarer "E"]\n[Contract "3NT"]\n[Result "9"]\n[Score "400"]\n'),
               '[Board "1"]\n[Room "Closed"]\n[Declarer "S"]\n[Contract "4S"]\n[Result "8"]\n'
               '[Score "EW 100"]\n[ScoreIMP "EW 11"]\n',
               '[Board "2"]\n[Room "Open"]\n[Contract ""]\n[Score_NS "x"]\n[Score "A+"]\n']
    body = '[Event "Home v Away"]\n' + "\n".join(records)
    table = read_pbn(write(tmp_path, body))[0]
    first, second, third = (table.frame.iloc[i] for i in range(3))
    assert (first["board"], pd.isna(first["score"]), first["score_ew"]) == (1, True, 400)
    assert (second["score_ew"], second["published_ns_imp"], second["published_ew_imp"]) == (
        100, -11.0, 11.0)
    assert (third["contract"], third["adjusted_ns"]) == ("A+", "A+")
    assert (table.meta["home_team"], table.meta["visit_team"]) == ("Home", "Away")


def test_records_whose_seats_name_their_pair_are_pairs_results(tmp_path: Path) -> None:
    """A record without a Room is a pairs result when both partners' seats name their pair
    by number (pbntools' "Para-1"); seats that do not (names, partners apart) give no pair
    number, and the row is listed with its seats as typed, never scored by a guess."""
    def record(board: int, north: str, south: str, east: str, west: str) -> str:
        return (f'[Board "{board}"]\n[North "{north}"]\n[South "{south}"]\n[East "{east}"]\n'
                f'[West "{west}"]\n[Declarer "N"]\n[Contract "4S"]\n[Result "10"]\n')
    body = '[Event "Pairs"]\n' + "\n".join([
        record(1, "Para-1", "Para-1", "Para-2", "Para-2"),
        record(1, "Pair 3", "Pair 3", "Pair 4", "Pair 4"),
        record(1, "Para-5", "Para-7", "Para-6", "Para-6"),  # partners apart
        record(1, "Smith", "Smith", "Jones", "Jones")])  # no number
    frame = read_pbn(write(tmp_path, body))[0].frame
    assert frame["ns_pair"].tolist() == [1, 3, "Para-5/Para-7", "Smith/Smith"]
    assert frame["ew_pair"].tolist() == [2, 4, 6, "Jones/Jones"] and "room" not in frame
    result = process(write(tmp_path, body), dd=False)
    assert result.travellers["ns_pair"].tolist() == [1, 3]
    listed = result.problems
    assert listed["code"].tolist() == ["bad-pair"] * 3
    assert listed["row"].tolist() == sorted(frame["row"].iloc[[2, 3, 3]].tolist())
    assert sorted(listed["value"]) == ["Jones/Jones", "Para-5/Para-7", "Smith/Smith"]
    # seats that name no pair anywhere in the file are an individual's players, as before
    names = '[Event "Individual"]\n' + record(1, "Smith", "Brown", "Jones", "Green")
    assert read_pbn(write(tmp_path, names))[0].frame["ns_pair"].isna().all()


def test_split_adjusted_score(tmp_path: Path) -> None:
    body = HEADER.format(board=2) + TABLE + ' 1  2 -   -  - "A+" "A-"\n'
    row = read_pbn(write(tmp_path, body))[0].frame.iloc[0]
    assert (row["contract"], row["adjusted_ns"], row["adjusted_ew"]) == ("A+/A-", "A+", "A-")


def test_deals_only_file_is_refused(tmp_path: Path) -> None:
    body = '% PBN 2.1\n[Event ""]\n[Board "1"]\n[Deal "N:AKQJ.T98.765.432 - - -"]\n' \
           '[Contract ""]\n[Result ""]\n'
    with pytest.raises(UnreadableFileError, match=r"t\.pbn: .*no results"):
        read_pbn(write(tmp_path, body))


# --------------------------------------------------------------------------
# The reader seam


def test_reader_for_pbn(tmp_path: Path) -> None:
    assert reader_for(real_file(TEAMS, "98ITTF3.PBN")) is read_pbn  # upper-case suffix
    assert reader_for(write(tmp_path, "% PBN 2.1\n[Event \"x\"]\n", "export")) is read_pbn
    assert reader_for(write(tmp_path, '[Event "x"]\n[Board "1"]\n', "no_header")) is read_pbn
    assert reader_for(write(tmp_path, "Board;NS;EW;Contract\n1;1;2;3NT\n", "data.txt")) is None


def test_load_read_goes_through_the_pbn_reader() -> None:
    loaded = read(real_file(RUTER, "butler.pbn"))
    assert len(loaded.tables[0].frame) == 112
    assert loaded.names is not None and len(loaded.names) == 7


def test_problems_name_the_files_own_columns_and_tags(tmp_path: Path) -> None:
    # a ScoreTable's columns as its header writes them; a record's tags
    text = real_file("pbn-ruter", "sm1.pbn").read_bytes().decode("latin-1")
    path = tmp_path / "table.pbn"
    path.write_bytes(text.replace(' 5  1  5 32 6N   S 13 S9 ', ' 5  1  5 32 6N   Q 13 S9 ', 1)
                     .encode("latin-1"))
    problems = process(path, dd=False).problems
    assert problems.loc[problems["code"] == "unknown-declarer", "column"].tolist() == [
        "Declarer"]
    text = real_file("pbn-teams-itt1998", "98ITTF2.PBN").read_bytes().decode("latin-1")
    path = tmp_path / "records.pbn"
    path.write_bytes(text.replace('[Result "9"]', '[Result "19"]', 1).encode("latin-1"))
    problems = process(path, method="teams", dd=False).problems
    assert problems.loc[problems["code"] == "tricks-out-of-range", "column"].tolist() == [
        "Result"]
    hint = process(real_file("pbn-teams-itt1998", "98ITTF2.PBN"), dd=False).problems
    assert hint.loc[hint["code"] == "method-suggested", "column"].tolist() == ["Room"]
