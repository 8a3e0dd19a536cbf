"""Score cards and frequency tables (publish/cards.py), and the session summary."""

from __future__ import annotations

from pathlib import Path

import openpyxl
from conftest import SAMPLE_DATA, real_file

from traveller import process, write_workbook
from traveller.pipeline import Options

HEADER = "Board,NS,EW,Contract,By,Tricks,Lead,Score\n"


def small(tmp_path: Path):  # type: ignore[no-untyped-def]
    rows = ["1,1,11,4S,N,10,HK,", "1,2,12,4S,N,9,DA,", "1,3,13,,,,,A60/40",
            "8,1,12,3NT,S,10,SQ,", "8,2,13,3NT,S,9,S4,", "8,3,11,1NT,E,7,C2,"]
    path = tmp_path / "s.csv"
    path.write_text(HEADER + "\n".join(rows) + "\n", encoding="utf-8")
    return process(path)


def test_score_card_of_a_pair_from_its_own_view(tmp_path: Path) -> None:
    cards = small(tmp_path).score_cards
    east = cards[(cards["line"] == "EW") & (cards["pair"] == 11)]
    assert east["board"].tolist() == [1, 8]
    assert east["opponent"].tolist() == [1, 3]
    assert east["held"].tolist() == ["E-W", "E-W"]
    assert east["score"].tolist() == [-420, 90]  # E-W's view: N-S made 420; E-W 1NT= 90
    assert east["contract"].tolist() == ["4S", "1NT"] and east["lead"].tolist() == ["HK", "C2"]
    # board 1: two results and an A60/40, Neuberg (M + 1)·3/2 − 1 on top 4: 3.5 and 0.5
    assert east["mp"].tolist() == [0.5, 4] and east["pct"].tolist() == [12.5, 100]
    ruled = cards[(cards["line"] == "NS") & (cards["pair"] == 3) & (cards["board"] == 1)]
    assert ruled["ruling"].tolist() == ["A60/40"] and ruled["pct"].tolist() == [60]
    assert len(cards) == 2 * 6


def test_frequencies_count_each_score_and_list_rulings(tmp_path: Path) -> None:
    freq = small(tmp_path).frequencies
    board1 = freq[freq["board"] == 1]
    assert board1["ns_score"].astype("string").fillna("-").tolist() == ["420", "-50", "-"]
    assert board1["ruling"].fillna("").tolist() == ["", "", "A60/40"]
    assert board1["count"].tolist() == [1, 1, 1]
    assert board1["ns_pct"].round(2).tolist() == [87.5, 12.5, 60]


def test_summary_counts(tmp_path: Path) -> None:
    summary = dict(small(tmp_path).summary.itertuples(index=False))
    assert summary["tables"] == 3 and summary["boards"] == 2 and summary["pairs ranked"] == 6
    assert summary["rulings"] == 1 and summary["rulings: average"] == 1
    assert summary["top (common)"] == 4 and summary["problems"] == 0  # a number


def test_workbook_has_the_new_sheets_after_the_old_ones(tmp_path: Path) -> None:
    result = process(real_file("pary-jfr-warsaw", "wb120802.csv"),
                     options=Options(phantom_award=60))
    out = write_workbook(result, tmp_path / "w.xlsx")
    book = openpyxl.load_workbook(out)
    problems = ["Problems"] if len(result.problems) else []  # left out when there are none
    assert book.sheetnames == ["Ranking", "Travellers", *problems, "Score cards",
                               "Frequencies", "Summary"]
    head = [c.value for c in book["Travellers"][1]]
    assert {"Ruling", "Ruling applied", "N-S award %", "E-W award %"} <= set(head)
    col = head.index("Ruling applied")
    applied = {r[col] for r in book["Travellers"].iter_rows(min_row=2, values_only=True)}
    assert "phantom (EW) table: N-S 60.0 %, E-W 0.0 %" in applied
    # a card per pair: its heading (pair, names, total), then the column headers
    assert "Pair " in book["Score cards"]["A1"].value
    cards = [c.value for c in book["Score cards"][2]]
    assert {"Board", "Opponents", "Contract", "Lead", "Score", "MP", "%"} <= set(cards)
    assert book["Summary"]["A1"].value == "Item"


def test_clean_session_card_and_frequency_shapes() -> None:
    result = process(SAMPLE_DATA / "club_session.csv")
    assert len(result.score_cards) == 2 * len(result.travellers)
    assert result.frequencies["count"].sum() == len(result.travellers)


def test_a_card_adds_up_to_the_ranking_when_a_board_was_played_fewer_times(
        tmp_path: Path) -> None:
    """Board 1 played 5 times, the others 8: the ranking adds Neuberg's matchpoints on the
    common top 14, and so do the cards (8 of 8 on board 1 shows as 13.4 of 14)."""
    lines = (SAMPLE_DATA / "club_session.csv").read_text(encoding="utf-8").splitlines()
    board_one = [i for i, line in enumerate(lines) if line.startswith("1,")]
    path = tmp_path / "short.csv"
    path.write_text("\n".join(r for i, r in enumerate(lines) if i not in board_one[:3]) + "\n",
                    encoding="utf-8")
    result = process(path)
    cards, ranking = result.score_cards, result.ranking
    totals = cards.groupby(["line", "pair"])[["mp", "pct"]].agg({"mp": "sum", "pct": "mean"})
    ranked = ranking.set_index(["line", "pair"])[["mp", "pct"]]
    joined = totals.join(ranked.add_suffix("_ranked"))
    assert len(joined) == len(ranking) == 16
    assert (joined["mp"] - joined["mp_ranked"]).abs().max() < 1e-9
    assert (joined["pct"] - joined["pct_ranked"]).abs().max() < 1e-9
    first = cards[cards["board"] == 1]
    assert set(first["top"]) == {14} and sorted(first["mp"])[-1] == 13.4
    assert set(cards[cards["board"] == 2]["top"]) == {14}
    book = openpyxl.load_workbook(write_workbook(result, tmp_path / "short.xlsx"))
    rows = list(book["Score cards"].iter_rows(values_only=True))
    col = rows[1].index("MP")
    total = next(r for r in rows if r[0] == "Total")  # the first card's Total row...
    ranked_row = rows[rows.index(total) + 1]  # ...and the ranking's figures under it
    assert str(ranked_row[0]).startswith("Ranking") and total[col] == ranked_row[col]
