"""Hand records: reading PBN deal files and every hand-record problem, listed, never a crash."""

from __future__ import annotations

from pathlib import Path

import pandas as pd
import pytest

from traveller.errors import UnreadableFileError
from traveller.read.hands import hands_in_travellers, read_hands
from traveller.tidy.hands import card_faults, check_hands, completed, parse_deal

DEAL_1 = "N:AJ9643.K98.62.83 QT5.JT7.AT74.AK5 87.AQ53.98.Q9742 K2.642.KQJ53.JT6"
#: The same deal written from East's seat, as some dealing programs do.
DEAL_1_FROM_E = "E:QT5.JT7.AT74.AK5 87.AQ53.98.Q9742 K2.642.KQJ53.JT6 AJ9643.K98.62.83"
DEAL_2 = "N:JT74.AJ9.QJ2.832 62.52.876543.AQJ 9853.Q743.9.KT65 AKQ.KT86.AKT.974"


def pbn(tmp_path: Path, games: list[tuple[str, str, str, str]]) -> Path:
    """A hand-record file of (board, dealer, vulnerable, deal) games."""
    text = "% PBN 2.1\n" + "\n".join(
        f'[Board "{b}"]\n[Dealer "{d}"]\n[Vulnerable "{v}"]\n[Deal "{deal}"]\n'
        for b, d, v, deal in games)
    path = tmp_path / "deals.pbn"
    path.write_text(text, encoding="utf-8")
    return path


def travellers(boards: list[int]) -> pd.DataFrame:
    return pd.DataFrame({"file": "club.csv", "sheet": "", "row": range(2, 2 + len(boards)),
                         "board": pd.array(boards, dtype="Int64")})


def test_read_hands_keeps_tags_as_written_and_lines(tmp_path: Path) -> None:
    path = pbn(tmp_path, [("1", "N", "None", DEAL_1), ("2", "E", "NS", DEAL_2)])
    record = read_hands(path)
    assert record["board"].tolist() == ["1", "2"]
    assert record["vulnerable"].tolist() == ["None", "NS"]
    assert record["row"].tolist() == [5, 10]  # the [Deal] lines


def test_a_file_without_deals_is_refused_in_one_line(tmp_path: Path) -> None:
    path = tmp_path / "notes.pbn"
    path.write_text("just some text\n", encoding="utf-8")
    with pytest.raises(UnreadableFileError, match="no deals found"):
        read_hands(path)
    with pytest.raises(UnreadableFileError, match="cannot be read"):
        read_hands(tmp_path / "absent.pbn")


def test_any_first_seat_reads_to_the_same_deal() -> None:
    assert parse_deal(DEAL_1_FROM_E) == parse_deal(DEAL_1)
    hands, _ = parse_deal("n:AJ9643.K98.62.83 - 87.AQ53.98.Q9742 K2.642.KQJ53.JT6")
    assert hands is not None and hands["E"] is None
    assert completed(hands) == parse_deal(DEAL_1)[0]


def test_good_record_gives_hands_and_no_problems(tmp_path: Path) -> None:
    record = read_hands(pbn(tmp_path, [("1", "N", "None", DEAL_1_FROM_E),
                                        ("2", "E", "NS", DEAL_2)]))
    hands, problems = check_hands(record, travellers([1, 1, 2]))
    assert problems.empty
    assert hands["deal"].tolist() == [DEAL_1, DEAL_2]
    assert hands["dealer"].tolist() == ["N", "E"] and hands["complete"].all()
    assert hands.loc[0, "north"] == "AJ9643.K98.62.83"


@pytest.mark.parametrize(("deal", "code", "words"), [
    ("N:AJ9643.K98.62.8 QT5.JT7.AT74.AK5 87.AQ53.98.Q9742 K2.642.KQJ53.JT6", "deal-card-count",
     "North holds 12 cards"),
    ("N:AJ9643.K98.62.83 QT5.JT7.AT74.AK5 87.AQ53.98.Q9742 K2.642.KQJ53.JT63",
     "deal-duplicate-card", "C3 is in North's and West's hands"),
    ("N:AJ9643.K98.62.83 QT5.JT7.AT74.AK5 87.AQ53.98.Q9742", "bad-deal", "four hands"),
    ("N:AJ9643.K98.62.83 QT5.JT7.AT74.AK5 87.AQ53.98.Q9742 K2.642.KQJ53.JX6", "bad-deal",
     "four suits"),
])
def test_card_problems_are_listed_and_the_deal_not_analysed(tmp_path: Path, deal: str,
                                                            code: str, words: str) -> None:
    record = read_hands(pbn(tmp_path, [("1", "N", "None", deal)]))
    hands, problems = check_hands(record, travellers([1]))
    assert problems["code"].tolist() == [code]
    assert words in problems["message"].iloc[0]
    assert "deals.pbn row 5, Deal" in problems["message"].iloc[0]
    assert not hands["complete"].any()


def test_a_card_twice_in_one_hand() -> None:
    hands, _ = parse_deal("N:AA9643.K98.62.83 QT5.JT7.AT74.AK5 87.AQ53.98.Q9742 K2.642.KQJ53.JT6")
    assert hands is not None
    assert card_faults(hands) == ("deal-duplicate-card", "SA is in North's hand twice")


def test_dealer_or_vulnerability_disagreeing_with_the_board(tmp_path: Path) -> None:
    record = read_hands(pbn(tmp_path, [("1", "N", "EW", DEAL_1), ("2", "S", "NS", DEAL_2)]))
    hands, problems = check_hands(record, travellers([1, 2]))
    assert problems["code"].tolist() == ["deal-conditions-differ"] * 2
    assert problems["value"].tolist() == ["dealer N, vulnerable EW", "dealer S, vulnerable NS"]
    assert "scored as dealer E, vulnerable NS" in problems["message"].iloc[1]
    assert hands["vulnerable"].tolist() == ["None", "NS"]  # the board's, as scored
    assert hands["complete"].all()  # still analysed


def test_boards_missing_from_the_record_are_listed_at_their_first_result(
        tmp_path: Path) -> None:
    record = read_hands(pbn(tmp_path, [("1", "N", "None", DEAL_1)]))
    _, problems = check_hands(record, travellers([1, 2, 3, 3]))
    assert problems["code"].tolist() == ["deal-missing"] * 2
    assert problems["row"].tolist() == [3, 4]
    assert "no deal for this board in deals.pbn" in problems["message"].iloc[0]


def test_two_deals_for_one_board_and_an_unreadable_board(tmp_path: Path) -> None:
    record = read_hands(pbn(tmp_path, [("1", "N", "None", DEAL_1), ("1", "N", "None", DEAL_2),
                                        ("x", "N", "None", DEAL_2)]))
    hands, problems = check_hands(record, travellers([1]))
    assert sorted(problems["code"]) == ["bad-board", "deal-board-twice"]
    assert hands["deal"].tolist() == [DEAL_1]


def test_deals_inside_a_traveller_are_a_hand_record() -> None:
    t = travellers([1, 1, 2]).assign(published_deal=[DEAL_1, DEAL_1, None])
    record = hands_in_travellers(t)
    assert record["board"].tolist() == ["1"] and record["row"].tolist() == [2]
    hands, problems = check_hands(record, t)
    assert hands["deal"].tolist() == [DEAL_1]
    assert problems["code"].tolist() == ["deal-missing"]
    assert hands_in_travellers(travellers([1])).empty


def test_a_travellers_own_deal_that_is_not_the_hand_records() -> None:
    from traveller.tidy.hands import differing_deals

    t = travellers([1, 1, 2, 2]).assign(published_deal=[DEAL_1_FROM_E, DEAL_1_FROM_E,
                                                        DEAL_1, DEAL_1])
    record = pd.DataFrame({"file": "deals.pbn", "sheet": "", "row": pd.array([2, 7], "Int64"),
                           "board": ["1", "2"], "dealer": "", "vulnerable": "",
                           "deal": [DEAL_1, DEAL_2]}).astype({"board": "string"})
    hands, problems = check_hands(record, t)
    assert problems.empty
    found = differing_deals(hands, t)
    assert found["code"].tolist() == ["deal-differs"] and found["row"].tolist() == [4]


def dup_record(deal: str, lowest: int = 1) -> bytes:
    """One 156-byte Duplimate record of a PBN deal from North (the DGE part left blank)."""
    hands = deal[2:].split()
    numbers = ""
    for hand in hands[:3]:
        for suit, cards in enumerate(hand.split(".")):
            numbers += "".join(f"{suit * 13 + 'AKQJT98765432'.index(c) + 1:02d}" for c in cards)
    trailer = f"YN{lowest:<3}1 {24:<3}"
    return (numbers + " " * 68 + trailer).encode("ascii")


def test_duplimate_dup_file_reads_to_the_same_deals(tmp_path: Path) -> None:
    path = tmp_path / "set.DUP"
    path.write_bytes(dup_record(DEAL_1, lowest=5) + dup_record(DEAL_2, lowest=5))
    record = read_hands(path)
    assert record["board"].tolist() == ["5", "6"] and record["row"].tolist() == [1, 2]
    hands, problems = check_hands(record, travellers([5, 6]))
    assert problems.empty and hands["deal"].tolist() == [DEAL_1, DEAL_2]


def test_a_damaged_dup_file_is_listed_or_refused(tmp_path: Path) -> None:
    twice = dup_record(DEAL_1).replace(b"01", b"10", 1)  # the spade ace becomes a second 4
    path = tmp_path / "set.dup"
    path.write_bytes(twice)
    _, problems = check_hands(read_hands(path), travellers([1]))
    assert problems["code"].tolist() == ["deal-duplicate-card"]
    path.write_bytes(b"not a dup file")
    with pytest.raises(UnreadableFileError, match=r"not a Duplimate \.dup hand record"):
        read_hands(path)
