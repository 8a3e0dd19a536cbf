"""The double-dummy audit on sheets with a flipped declarer, tricks off and a swapped board."""

from __future__ import annotations

import pandas as pd

from traveller.schema import SEATS, STRAINS
from traveller.tidy.dd_audit import dd_audit


def dd_frame(boards: dict[int, dict[str, int]]) -> pd.DataFrame:
    """Board -> {"NS S": 10, ...}: the tricks of both seats of a side; 6 where not given."""
    rows = []
    for board, cells in boards.items():
        for seat in SEATS:
            side = "NS" if seat in "NS" else "EW"
            rows += [(board, seat, strain, cells.get(f"{side} {strain}", 6)) for strain in STRAINS]
    return pd.DataFrame(rows, columns=["board", "declarer", "strain", "tricks"]).astype(
        {"board": "Int64", "declarer": "string", "strain": "string", "tricks": "Int64"})


def sheet(results: list[tuple[int, str, str, int]]) -> pd.DataFrame:
    """(board, contract, declarer, tricks) rows as scored travellers."""
    return pd.DataFrame({
        "file": "club.csv", "sheet": "", "row": range(2, 2 + len(results)), "section": "",
        "board": pd.array([r[0] for r in results], dtype="Int64"),
        "contract": pd.array([r[1] for r in results], dtype="string"),
        "declarer": pd.array([r[2] for r in results], dtype="string"),
        "tricks": pd.array([r[3] for r in results], dtype="Int64"),
        "ruling_kind": pd.array([None] * len(results), dtype="string")})


DD = dd_frame({1: {"NS S": 10, "EW S": 3}, 2: {"EW H": 10, "NS H": 3},
               3: {"NS NT": 9, "EW NT": 4}})
FIELD_1 = [(1, "4S", "N", 10), (1, "4S", "S", 10), (1, "4S", "N", 11), (1, "4S", "N", 10),
           (1, "4S", "S", 9)]


def test_a_clean_field_gives_no_warning() -> None:
    assert dd_audit(sheet(FIELD_1), DD).empty


def test_flipped_declarer_names_the_side_that_fits() -> None:
    found = dd_audit(sheet([*FIELD_1, (1, "4S", "E", 10)]), DD)
    assert found["code"].tolist() == ["unusual-score"]
    assert found["row"].tolist() == [7] and found["column"].tolist() == ["declarer"]
    assert "was the declarer N or S, not E?" in found["message"].iloc[0]


def test_tricks_off_by_a_number_the_field_does_not_support() -> None:
    found = dd_audit(sheet([*FIELD_1, (1, "4S", "N", 6)]), DD)
    assert found["column"].tolist() == ["tricks"]
    assert "were the tricks 10 (result off by -4)?" in found["message"].iloc[0]
    # three off at the table happens: not listed; nor when another table made as many
    assert dd_audit(sheet([*FIELD_1, (1, "4S", "N", 7)]), DD).empty
    assert dd_audit(sheet([*FIELD_1, (1, "4S", "N", 6), (1, "4S", "S", 6)]), DD).empty


def test_a_swapped_board_is_one_warning_naming_the_deal_that_fits() -> None:
    # board 2's results are 3NT by N making 9: board 3's deal, not board 2's
    swapped = [(2, "3NT", "N", 9), (2, "3NT", "S", 9), (2, "3NT", "N", 10), (2, "3NT", "N", 9),
               (2, "2NT", "S", 8)]
    found = dd_audit(sheet([*FIELD_1, *swapped]), DD)
    assert found["code"].tolist() == ["unusual-score"] and found["row"].tolist() == [7]
    message = found["message"].iloc[0]
    assert "4 of the 5 results on board 2 are 3 or more tricks from double dummy" in message
    assert "were boards 2 and 3 swapped?" in message


def test_rulings_passes_and_small_boards_are_not_judged() -> None:
    few = sheet([(1, "4S", "N", 10), (1, "4S", "E", 10), (1, "PASS", None, None)])
    assert dd_audit(few, DD).empty
    ruled = sheet([*FIELD_1, (1, "4S", "E", 10)])
    ruled.loc[5, "ruling_kind"] = "average"
    assert dd_audit(ruled, DD).empty
    assert dd_audit(sheet(FIELD_1), DD.iloc[:0]).empty


def test_the_lead_tells_which_of_the_other_side_declared() -> None:
    # 4S by E taking 10 tricks fits N and S alike; the lead, the HA, is East's, who
    # leads against N: so N, not S
    from traveller.tidy.hands import holders

    hands = pd.DataFrame({"board": pd.array([1], dtype="Int64"),
                          "north": ["AKQJ.T98.765.432"], "east": ["T987.AK4.432.AKQ"],
                          "south": ["6543.Q65.JT9.JT9"], "west": ["2.J732.AKQ8.8765"],
                          "complete": [True]})
    assert holders(hands)[1]["HA"] == "E"
    rows = sheet([*FIELD_1, (1, "4S", "E", 10)])
    rows["lead"] = pd.array(["SK"] * 5 + ["HA"], dtype="string")
    found = dd_audit(rows, DD, hands)
    assert ("with declarer N it fits, and the lead, the HA, is East's, who leads against N: "
            "was the declarer N, not E?") in found["message"].iloc[0]
    rows["lead"] = pd.array(["SK"] * 5 + ["H2"], dtype="string")  # West's: fits S
    assert "who leads against S: was the declarer S, not E?" in dd_audit(
        rows, DD, hands)["message"].iloc[0]
    rows["lead"] = pd.array(["SK"] * 5 + ["SA"], dtype="string")  # North's: tells nothing
    assert "was the declarer N or S, not E?" in dd_audit(rows, DD, hands)["message"].iloc[0]
    assert "was the declarer N or S, not E?" in dd_audit(rows, DD)["message"].iloc[0]
