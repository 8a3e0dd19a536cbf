"""Double dummy and par against an independent solver (BCalc), and the cache per deal."""

from __future__ import annotations

from pathlib import Path

import pandas as pd
import pytest
from conftest import real_file

from traveller.read.hands import read_hands
from traveller.read.pbn import decode, parse_games
from traveller.score import dd
from traveller.tidy.hands import check_hands

GOLDEN = ("dd-bcalc-pybcdd", "test-pybcdd.pbn")
DEAL_1 = "N:AJ9643.K98.62.83 QT5.JT7.AT74.AK5 87.AQ53.98.Q9742 K2.642.KQJ53.JT6"
#: Board 1 of the golden file as BCalc solved it: N E S W x C D H S NT.
TABLE_1 = (7, 4, 7, 7, 5, 6, 9, 6, 6, 8, 7, 4, 7, 7, 5, 6, 9, 5, 6, 8)
#: Board 2: West makes 9 tricks in NT (par 3NT by W, -400 with E-W not vulnerable).
TABLE_2 = (6, 3, 5, 6, 4, 7, 10, 8, 6, 8, 6, 3, 5, 6, 4, 7, 10, 8, 6, 9)


def golden(path: Path) -> dict[int, tuple[dict[tuple[str, str], int], int]]:
    """Board -> (BCalc's 20 trick counts, its par score from N-S's view)."""
    games, _ = parse_games(decode(path.read_bytes()))
    out = {}
    for game in games:
        cells = {}
        for _, line in game.tags["OptimumResultTable"].rows:
            seat, strain, tricks = line.split()
            cells[(seat, strain)] = int(tricks)
        side, score = game.get("OptimumScore").split()
        out[int(game.get("Board"))] = (cells, int(score) * (1 if side == "NS" else -1))
    return out


def compare(boards: list[int] | None) -> None:
    path = real_file(*GOLDEN)
    expected = golden(path)
    record = read_hands(path)
    if boards is not None:
        record = record[record["board"].astype(int).isin(boards)]
    hands, problems = check_hands(record, pd.DataFrame({"board": pd.Series(dtype="Int64")}))
    assert problems.empty and hands["complete"].all()
    table, par = dd.analyse(hands)
    assert len(table) == 20 * len(hands)
    for board, part in table.groupby("board"):
        cells = dict(zip(zip(part["declarer"], part["strain"], strict=True), part["tricks"],
                         strict=True))
        assert cells == expected[int(board)][0], f"board {board}"
    scores = dict(zip(par["board"].astype(int), par["par_score"].astype(int), strict=True))
    assert scores == {b: expected[b][1] for b in scores}
    assert len(scores) == len(hands)


def test_golden_dd_and_par_fast_subset() -> None:
    compare([1, 2, 50])


@pytest.mark.slow
def test_golden_dd_and_par_all_99_deals() -> None:
    compare(None)


def test_par_from_a_table_with_the_board_conditions() -> None:
    assert dd.par(TABLE_1, "N", "None") == (-120, ["2NT EW"])
    assert dd.par(TABLE_2, "E", "NS") == (-400, ["3NT W"])
    assert dd.par(TABLE_2, "E", "EW") == (-600, ["3NT W"])
    assert dd.tricks_of(TABLE_1, "E", "D") == 9


def test_a_deal_is_solved_once_in_memory_and_once_per_cache_folder(tmp_path: Path) -> None:
    dd.forget()
    before = dd.SOLVED["deals"]
    assert dd.tables([DEAL_1, DEAL_1], tmp_path)[DEAL_1] == TABLE_1
    assert dd.SOLVED["deals"] == before + 1
    assert dd.tables([DEAL_1])[DEAL_1] == TABLE_1  # memory
    dd.forget()
    assert dd.tables([DEAL_1], tmp_path)[DEAL_1] == TABLE_1  # the folder
    assert dd.SOLVED["deals"] == before + 1
    cached = next(tmp_path.rglob("*.txt"))
    cached.write_text("damaged", encoding="ascii")
    dd.forget()
    assert dd.tables([DEAL_1], tmp_path)[DEAL_1] == TABLE_1  # solved again, not trusted
    assert dd.SOLVED["deals"] == before + 2
