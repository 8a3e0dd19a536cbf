"""The pairs of each row against its Round and Table cells: in one round the same two
pairs sit at a table for every board there, and a pair at one table."""

from __future__ import annotations

from pathlib import Path

import pandas as pd
from conftest import SAMPLE_DATA, real_file

from traveller import process
from traveller.tidy.seating import _all_fit, seating_problems


def _edited(tmp_path: Path, edit: dict[tuple[int, int], dict[str, int]]) -> pd.DataFrame:
    """The sample session's problems with the rows at (board, table) changed as given."""
    sheet = pd.read_csv(SAMPLE_DATA / "club_session.csv")
    for (board, table), cells in edit.items():
        at = sheet.index[(sheet["Board"] == board) & (sheet["Table"] == table)][0]
        for column, value in cells.items():
            sheet.loc[at, column] = value
    path = tmp_path / "edited.csv"
    sheet.to_csv(path, index=False)
    problems = process(path, dd=False).problems
    return problems[problems["code"] == "seat-disagrees"]


def test_the_sample_session_fits_its_round_and_table_columns() -> None:
    problems = process(SAMPLE_DATA / "club_session.csv", dd=False).problems
    assert "seat-disagrees" not in set(problems["code"])


def test_a_pair_number_typed_wrong_is_named_beside_the_tables_pair(tmp_path: Path) -> None:
    """Board 2 at table 3 (round 7, N-S 3, E-W 4; file row 12) with N-S typed 13: the round's
    other rows at table 3 (boards 1 and 3) say N-S 3. Scored as written, and listed."""
    found = _edited(tmp_path, {(2, 3): {"NS": 13}})
    assert found["row"].tolist() == [12] and found["severity"].tolist() == ["warning"]
    message = found["message"].iloc[0]
    assert "round 7, table 3: N-S 13 here, N-S 3 on the table's other rows 4, 20" in message
    assert "(boards 1, 3)" in message and found["value"].iloc[0] == "7/3"
    assert found["column"].iloc[0] == "Round/Table"  # as the file heads them
    assert "few-boards" in set(process(tmp_path / "edited.csv", dd=False).problems["code"])


def test_a_table_typed_wrong_is_named_by_where_the_pairs_sat(tmp_path: Path) -> None:
    """Board 7 at table 2 typed as table 13 (no such table): N-S 2 and E-W 1 sit at
    table 2 on the round's other boards. Into an existing table (board 4 at table 6
    typed 4): the other two pairs of table 4 are named."""
    found = _edited(tmp_path, {(7, 2): {"Table": 13}, (4, 6): {"Table": 4}})
    by_row = dict(zip(found["row"], found["message"], strict=True))
    assert len(by_row) == 2
    into_none = next(m for m in by_row.values() if "table 13:" in m)
    assert "N-S 2 and E-W 1 sit at table 2 in the same round" in into_none
    into_other = next(m for m in by_row.values() if ", table 4:" in m)
    assert "N-S 6 and E-W 1 here, N-S 4 and E-W 7 on the table's other rows" in into_other


def test_two_rows_that_disagree_are_both_listed(tmp_path: Path) -> None:
    """Two boards a round: a table whose two rows name two N-S pairs cannot tell which."""
    path = tmp_path / "two.csv"
    path.write_text("Board,Round,Table,NS,EW,Contract,By,Tricks\n"
                    "1,1,1,1,2,4S,N,10\n2,1,1,3,2,4S,N,10\n1,1,2,3,4,4S,N,9\n"
                    "2,1,2,1,4,4S,N,9\n", encoding="utf-8")
    problems = process(path).problems
    found = problems[problems["code"] == "seat-disagrees"]
    assert sorted(found["row"]) == [2, 3, 4, 5]  # each table's two rows disagree


def test_a_teams_match_seats_both_teams_at_one_table_once_in_each_room(tmp_path: Path) -> None:
    path = tmp_path / "match.csv"
    path.write_text("Board,Round,Table,Room,NS,EW,Contract,By,Tricks\n"
                    "1,1,1,Open,1,2,4S,N,10\n1,1,1,Closed,2,1,4S,N,10\n"
                    "2,1,1,Open,1,2,3NT,S,9\n2,1,1,Closed,2,1,3NT,S,8\n", encoding="utf-8")
    problems = process(path, method="teams").problems
    assert "seat-disagrees" not in set(problems["code"])


def test_a_real_pbns_round_and_table_tags_agree_and_an_edit_is_found() -> None:
    """Ruter's national final (22 rounds, 1188 results) states each result's round and
    table: every one fits. One N-S pair changed is listed at its row, and the check by
    text agrees with the one by codes."""
    travellers = process(real_file("pbn-ruter", "sm1.pbn"), dd=False).travellers
    assert _all_fit(travellers, "round", "table")
    assert seating_problems(travellers).empty
    edited = travellers.copy()
    edited.loc[7, "ns_pair"] = 99
    assert not _all_fit(edited, "round", "table")
    found = seating_problems(edited)
    assert found["row"].tolist() == [edited.loc[7, "row"]]
    assert "N-S 99 here" in found["message"].iloc[0]


def test_of_a_pairs_two_results_on_a_board_the_one_that_fits_its_table_is_scored(
        tmp_path: Path) -> None:
    """Board 2 at table 3 (file row 12) with N-S typed 5: pair 5 also has its own result
    on board 2, at table 5 (row 14). The first in the file is usually the one scored; here
    the Round and Table cells say row 12 is the stray, so row 14 is scored."""
    sheet = pd.read_csv(SAMPLE_DATA / "club_session.csv")
    sheet.loc[10, "NS"] = 5  # (file row 12: board 2, round 7, table 3)
    path = tmp_path / "typo.csv"
    sheet.to_csv(path, index=False)
    result = process(path, dd=False)
    scored = result.travellers
    assert scored.loc[(scored["board"] == 2) & (scored["ns_pair"] == 5), "row"].tolist() == [14]
    listed = result.problems[result.problems["code"] == "duplicate-result"].set_index("row")
    assert listed.loc[12, "severity"] == "error" and listed.loc[14, "severity"] == "warning"
    assert ("scored at row 14: this row's pairs do not sit at its round and table"
            in listed.loc[12, "message"])
    unedited = process(SAMPLE_DATA / "club_session.csv", dd=False).travellers
    assert len(scored) == len(unedited) - 1  # (pair 3's board 2 is the one lost)
