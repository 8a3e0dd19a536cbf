"""Benchmark: double dummy and par of a session's deals, against calling DDS directly.

    python benchmarks/bench_dd.py                  # 27 boards; 120 clubs sharing them
    python benchmarks/bench_dd.py --boards 16 --clubs 40

Each figure is a ratio against a baseline measured in the same run, on the
same random deals (a seeded shuffle per board):

- **session**: ``traveller.score.dd.analyse`` (tables, par, the frames) on a
  session's hands, cold (nothing cached), against endplay's own
  ``calc_all_tables`` plus ``par`` on the same deals: what our layer costs.
- **simultaneous**: the same hand record analysed once per club, ``--clubs``
  times (each club's own ``analyse`` call, the deals kept in memory after the
  first), against the direct call once: the deals must be solved once.
- **re-run**: a new process's view, the memory cache emptied and the tables
  read back from a cache folder, against the direct call: no solving.
- **no hands**: ``with_hands`` on a session without deals (what every session
  without a hand record now pays) against the whole ``process`` of that session.

endplay is imported before the clock starts (about a second of matplotlib).
"""

from __future__ import annotations

import argparse
import random
import tempfile
import time
from pathlib import Path

import pandas as pd

RANKS = "AKQJT98765432"


def deals(boards: int, seed: int = 24) -> list[str]:
    """``boards`` random deals in PBN's form, from North."""
    rng = random.Random(seed)
    out = []
    for _ in range(boards):
        cards = [s + r for s in "SHDC" for r in RANKS]
        rng.shuffle(cards)
        hands = [set(cards[i * 13:(i + 1) * 13]) for i in range(4)]
        out.append("N:" + " ".join(".".join("".join(r for r in RANKS if s + r in h)
                                            for s in "SHDC") for h in hands))
    return out


def hands_frame(texts: list[str]) -> pd.DataFrame:
    from traveller.schema import board_dealer, board_vulnerability

    return pd.DataFrame({"board": pd.array(range(1, len(texts) + 1), dtype="Int64"),
                         "dealer": [board_dealer(b) for b in range(1, len(texts) + 1)],
                         "vulnerable": [board_vulnerability(b) for b in range(1, len(texts) + 1)],
                         "deal": texts, "complete": True})


def direct(texts: list[str]) -> float:
    """Seconds for endplay alone: calc_all_tables (40 deals a call) and par per deal."""
    from endplay.dds import calc_all_tables, par
    from endplay.types import Deal, Player, Vul

    clock = time.perf_counter()
    for start in range(0, len(texts), 40):
        chunk = [Deal(t) for t in texts[start:start + 40]]
        for i, table in enumerate(calc_all_tables(chunk)):
            board = start + i + 1
            par(table, Vul.from_board(board), Player.find("NESW"[(board - 1) % 4]))
    return time.perf_counter() - clock


def timed(step) -> float:  # type: ignore[no-untyped-def]
    clock = time.perf_counter()
    step()
    return time.perf_counter() - clock


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--boards", type=int, default=27)
    parser.add_argument("--clubs", type=int, default=120)
    args = parser.parse_args()

    import endplay.dds  # noqa: F401  (its import is not what is measured)

    import traveller
    from traveller.pipeline import with_hands
    from traveller.score import dd

    texts = deals(args.boards)
    hands = hands_frame(texts)
    base = direct(texts)
    dd.forget()
    solved = dd.SOLVED["deals"]
    ours = timed(lambda: dd.analyse(hands))
    print(f"direct DDS (endplay), {args.boards} deals: {base:.2f} s")
    print(f"session, cold:            {ours:.2f} s = {ours / base:.2f}x direct "
          f"({dd.SOLVED['deals'] - solved} deals solved)")
    dd.forget()
    solved = dd.SOLVED["deals"]
    sim = timed(lambda: [dd.analyse(hands) for _ in range(args.clubs)])
    print(f"simultaneous, {args.clubs} clubs: {sim:.2f} s = {sim / base:.2f}x direct once "
          f"({dd.SOLVED['deals'] - solved} deals solved)")
    with tempfile.TemporaryDirectory() as folder:
        dd.forget()
        dd.tables(texts, folder)
        dd.forget()
        solved = dd.SOLVED["deals"]
        again = timed(lambda: dd.analyse(hands, folder))
        print(f"re-run from the cache:    {again:.3f} s = {again / base:.3f}x direct "
              f"({dd.SOLVED['deals'] - solved} deals solved)")
    sample = Path(__file__).resolve().parents[1] / "sample_data" / "club_session.csv"
    whole = min(timed(lambda: traveller.process(sample, dd=False)) for _ in range(3))
    result = traveller.process(sample)
    extra = min(timed(lambda: with_hands(result)) for _ in range(3))
    print(f"no hands: with_hands {extra * 1e6:.0f} µs = {extra / whole:.5f}x the session's "
          f"process ({whole * 1000:.0f} ms)")


if __name__ == "__main__":
    main()
