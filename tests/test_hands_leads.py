"""A result's opening lead checked against the hand record: the leader must hold the card."""

from __future__ import annotations

from pathlib import Path

import pandas as pd
import pytest
from conftest import real_file

from traveller import process
from traveller.tidy.hands import leads_not_held

# board 1: North holds the top spades, East the 10-9-8-7, South the 6 to 3, West the 2 and
# four hearts to the jack (the H3 among them) and the top diamonds
DEAL = "N:AKQJ.T98.765.432 T987.654.432.AKQ 6543.AKQ.JT9.JT9 2.J732.AKQ8.8765"


def _hands(deal: str = DEAL, board: int = 1, complete: bool = True) -> pd.DataFrame:
    north, east, south, west = deal[2:].split()
    return pd.DataFrame({"board": pd.array([board], dtype="Int64"), "north": [north],
                         "east": [east], "south": [south], "west": [west], "deal": [deal],
                         "complete": [complete]})


def _results(*rows: tuple[str, str, str]) -> pd.DataFrame:
    """Travellers of board 1: (contract, declarer, lead) per row, rows 2, 3, ..."""
    return pd.DataFrame({
        "file": "club.csv", "sheet": "", "row": range(2, 2 + len(rows)), "section": "",
        "board": pd.array([1] * len(rows), dtype="Int64"),
        "contract": [r[0] for r in rows], "declarer": [r[1] for r in rows],
        "lead": pd.array([r[2] for r in rows], dtype="string")})


def test_a_lead_the_leader_holds_is_not_listed() -> None:
    # declarer S: West leads, and holds the H3 and the DA; declarer N: East leads the ST
    found = leads_not_held(_hands(), _results(("4S", "S", "H3"), ("3NT", "N", "ST"),
                                              ("2D", "W", "SA")))
    assert found.empty


def test_each_lead_not_held_names_who_holds_it_and_what_it_suggests() -> None:
    found = leads_not_held(_hands(), _results(
        ("4S", "S", "ST"),    # East's: West's partner, so the lead fits declarer N
        ("4S", "S", "SA"),    # North's: dummy
        ("4S", "S", "S6"),    # South's: declarer's own
        ("4S", "S", "H3"),    # West's: fine, as are the next three
        ("4S", "S", "HJ"), ("4S", "S", "DA"), ("4S", "S", "C8"),
        ("PASS", "", "SA"),   # a passed board: no lead to check
        ("4S", "S", "S"),     # a suit without its card: not checked
        ("4S", "S", "ZZ")))   # not a card (listed as unknown-lead where it is read)
    assert found["code"].tolist() == ["lead-not-held"] * 3
    assert found["row"].tolist() == [2, 3, 4]
    assert found["value"].tolist() == ["ST", "SA", "S6"]
    assert (found["severity"] == "warning").all() and not found["blocking"].any()
    messages = found["message"].tolist()
    assert messages[0] == (
        "club.csv row 2, lead 'ST': the opening lead is not a card of the opening leader's "
        "hand in the hand record; it is shown as written and no score depends on it (board "
        "1, declarer S: the S10 is in East's hand, not in West's, who is on lead; with "
        "declarer N, East would be on lead: was the declarer N?); check the lead and the "
        "declarer on the original traveller")
    assert "the SA is in North's hand (dummy), not in West's, who is on lead" in messages[1]
    assert "the S6 is in South's hand (declarer), not in West's" in messages[2]


def test_a_board_whose_leads_mostly_miss_is_listed_once_as_a_deal_in_doubt() -> None:
    # three of four leads miss: not four entry slips, but a deal that was not the one played
    found = leads_not_held(_hands(), _results(("4S", "S", "SA"), ("4S", "S", "SK"),
                                              ("4S", "S", "ST"), ("4S", "S", "H3")))
    assert found["row"].tolist() == [2] and found["column"].tolist() == ["board"]
    assert ("3 of the 4 leads on board 1 are not in the opening leader's hand: the hand "
            "record's deal may not be the one played") in found["message"].iloc[0]
    # two of four: each is listed on its own
    two = leads_not_held(_hands(), _results(("4S", "S", "SA"), ("4S", "S", "SK"),
                                            ("4S", "S", "H3"), ("4S", "S", "DA")))
    assert two["row"].tolist() == [2, 3] and (two["column"] == "lead").all()


def test_an_incomplete_deal_or_another_board_is_not_checked() -> None:
    results = _results(("4S", "S", "SA"))
    assert leads_not_held(_hands(complete=False), results).empty
    assert leads_not_held(_hands(board=2), results).empty


def test_a_sessions_leads_are_checked_against_its_hand_record(tmp_path: Path) -> None:
    deals = tmp_path / "deals.pbn"
    deals.write_text(f'[Board "1"]\n[Dealer "N"]\n[Vulnerable "None"]\n[Deal "{DEAL}"]\n',
                     encoding="utf-8")
    session = tmp_path / "club.csv"
    session.write_text("Board,NS,EW,Contract,By,Tricks,Lead\n1,1,2,4S,S,10,HJ\n"
                       "1,3,4,4S,S,11,ST\n", encoding="utf-8")
    result = process(session, hands=deals, dd=False)
    listed = result.problems[result.problems["code"] == "lead-not-held"]
    assert listed["row"].tolist() == [3]
    assert "was the declarer N?" in listed["message"].iloc[0]
    alone = process(session, dd=False)  # no hand record: nothing to check the leads with
    assert not alone.problems["code"].eq("lead-not-held").any()


@pytest.mark.parametrize(("folder", "name", "method"), [
    *[("pbn-teams-itt1998", f"98ITTF{n}.PBN", "teams") for n in range(1, 9)],
    ("usebio-compscore", "butler_mitchell.xml", "butler"),
    ("usebio-compscore", "cross_imp_howell.xml", "ximp")])
def test_real_files_whose_leads_all_fit_their_deals(folder: str, name: str,
                                                    method: str) -> None:
    # 590 leads in all: proof that the leader is read as declarer's left-hand opponent
    # from every file's seats and deals
    result = process(real_file(folder, name), method=method, dd=False)
    assert result.travellers["lead"].notna().sum() >= 30
    assert not result.problems["code"].eq("lead-not-held").any()


@pytest.mark.parametrize(("folder", "name", "listed", "partner"), [
    ("usebio-compscore", "mp_pairs_howell.xml", 31, 12),
    ("usebio-compscore", "mp_pairs_mitchell.xml", 50, 23),
    ("usebio-compscore", "mp_pairs_mitchell_adjusted_02.xml", 36, 21),
    ("pbn-ruter", "sm1.pbn", 90, 48)])
def test_real_club_entries_with_leads_their_leaders_do_not_hold(
        folder: str, name: str, listed: int, partner: int) -> None:
    result = process(real_file(folder, name), dd=False)
    found = result.problems[result.problems["code"] == "lead-not-held"]
    assert len(found) == listed and (found["severity"] == "warning").all()
    assert found["message"].str.contains("would be on lead: was the declarer").sum() == partner


def test_leads_not_held_follow_the_problems_that_touch_a_score(tmp_path: Path) -> None:
    deals = tmp_path / "deals.pbn"
    deals.write_text(f'[Board "1"]\n[Dealer "N"]\n[Vulnerable "None"]\n[Deal "{DEAL}"]\n',
                     encoding="utf-8")
    session = tmp_path / "club.csv"  # row 2's lead is East's; row 4's score is not 4S=
    session.write_text("Board,NS,EW,Contract,By,Tricks,Lead,Score\n1,1,2,4S,S,10,ST,420\n"
                       "1,3,4,4S,S,10,HJ,420\n1,5,6,4S,S,10,HJ,450\n", encoding="utf-8")
    result = process(session, hands=deals, dd=False)
    assert result.problems[["code", "row"]].values.tolist() == [["score-disagrees", 4],
                                                               ["lead-not-held", 2]]


def test_a_russian_hcp_cell_is_checked_against_the_hand_record(tmp_path: Path) -> None:
    """Russian scoring reads its target from the HCP column: a hand record states the same
    count. One suit a hand (N spades, S diamonds: 10 + 10) is N-S 20 on every board; a row
    saying 20 agrees, one saying 23 is listed and scored with its 23 (the IMPs worked out
    by hand: 23 HCP not vulnerable, target 110; 3NT made, +400, +290 -> 7 IMPs)."""
    from traveller import process

    deal = "N:AKQJT98765432... .AKQJT98765432.. ..AKQJT98765432. ...AKQJT98765432"
    hands = tmp_path / "h.pbn"
    hands.write_text("".join(f'[Board "{b}"]\n[Dealer "{d}"]\n[Vulnerable "{v}"]\n'
                             f'[Deal "{deal}"]\n\n' for b, d, v in ((1, "N", "None"),
                                                                   (2, "E", "NS"))),
                     encoding="utf-8")
    sheet = tmp_path / "r.csv"
    sheet.write_text("Board,NS,EW,Contract,By,Tricks,HCP NS\n1,1,2,3NT,N,9,23\n"
                     "2,1,2,2S,N,8,20\n", encoding="utf-8")
    result = process(sheet, method="russian", hands=hands, dd=False)
    found = result.problems[result.problems["code"] == "hcp-disagrees"]
    assert found["row"].tolist() == [2] and found["value"].tolist() == ["23"]
    assert found["column"].tolist() == ["HCP NS"]  # as the sheet heads it
    assert ", HCP NS '23'" in found["message"].iloc[0]
    assert "deal gives N-S 20 and E-W 20" in found["message"].iloc[0]
    assert found["severity"].iloc[0] == "warning"
    first = result.travellers.set_index("row").loc[2]
    assert (first["target"], first["ns_imp"]) == (110, 7)
    without = process(sheet, method="russian", dd=False)  # no hand record: nothing to say
    assert "hcp-disagrees" not in set(without.problems["code"])
