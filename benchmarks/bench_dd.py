"""Benchmark: double dummy and par, against calling DDS directly on the same deals.

    python benchmarks/bench_dd.py                          # 27 boards; 120 clubs, 4 tables
    python benchmarks/bench_dd.py --boards 16 --clubs 40 --tables 3

Each figure is a ratio against a baseline measured in the same run, on the
same random deals (a seeded shuffle per board):

- **session**: ``traveller.score.dd.analyse`` (tables, par, the frames) on a
  session's hands, cold (nothing cached), against endplay's own
  ``calc_all_tables`` plus ``par`` on the same deals: what our layer costs.
- **simultaneous**: a real ``traveller.simultaneous`` (engine "local",
  workbooks written) of ``--clubs`` generated club files in one inbox whose
  ``traveller.toml`` gives them one hand record: the deals handed to DDS
  (counted), the time spent getting the tables (``dd.tables``) and in the
  whole analysis (tables, par, the audit; clocked around the library's own
  functions, not taken as a difference of two runs, which the machine's load
  would swamp), against the direct call once (measured before and after, the
  mean): the deals must be solved once for all the clubs. The same sim with
  ``dd = false`` gives the run's time without any of it.
- **re-run**: the same sim again after emptying the memory cache (a new
  process's view): nothing solved, the tables read back from
  ``OUTPUT/.traveller-sim/dd``.
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


CONTRACTS = ["1NT", "2H", "2S", "3C", "3D", "3NT", "4H", "4S", "5C", "5D", "6NT", "4SX"]


def inbox(folder: Path, texts: list[str], clubs: int, tables: int, dd: bool,
          seed: int = 30) -> Path:
    """``clubs`` club files (``tables`` tables, every board) and the hand record they share."""
    rng = random.Random(seed)
    folder.mkdir(parents=True)
    games = [f'[Board "{b}"]\n[Deal "{deal}"]\n' for b, deal in enumerate(texts, start=1)]
    (folder / "hands.pbn").write_text("% PBN 2.1\n" + "\n".join(games), encoding="utf-8")
    (folder / "traveller.toml").write_text(
        f'hands = "hands.pbn"\ndd = {"true" if dd else "false"}\n', encoding="utf-8")
    for club in range(clubs):
        lines = ["Board,NS,EW,Contract,By,Tricks"]
        for board in range(1, len(texts) + 1):
            for table in range(1, tables + 1):
                contract = rng.choice(CONTRACTS)
                tricks = min(13, max(0, int(contract[0]) + 6 + rng.choice((-1, 0, 0, 1))))
                lines.append(f"{board},{table},{(table + board) % tables + 1},{contract},"
                             f"{rng.choice('NESW')},{tricks}")
        (folder / f"club{club:03d}.csv").write_text("\n".join(lines) + "\n", encoding="utf-8")
    return folder


def sim_run(folder: Path, output: Path) -> dict[str, float]:
    """One ``traveller.simultaneous``: its seconds, the deals solved, the clubs scored, and
    the seconds spent getting the tables (``dd.tables``: solving or reading the cache) and
    in the whole analysis (``pipeline._analysed``: tables, par, the audit), summed."""
    import traveller
    import traveller.pipeline as pipeline
    from traveller.score import dd

    spent = {"tables": 0.0, "analysis": 0.0}
    originals = {"tables": dd.tables, "analysis": pipeline._analysed}

    def clocked(name: str):  # type: ignore[no-untyped-def]
        def run(*args, **kwargs):  # type: ignore[no-untyped-def]
            clock = time.perf_counter()
            try:
                return originals[name](*args, **kwargs)
            finally:
                spent[name] += time.perf_counter() - clock
        return run

    dd.tables, pipeline._analysed = clocked("tables"), clocked("analysis")
    solved = dd.SOLVED["deals"]
    try:
        clock = time.perf_counter()
        sim = traveller.simultaneous(folder, engine="local", output=output)
        seconds = time.perf_counter() - clock
    finally:
        dd.tables, pipeline._analysed = originals["tables"], originals["analysis"]
    return {"seconds": seconds, "solved": dd.SOLVED["deals"] - solved, **spent,
            "clubs": int((sim.clubs["status"] != "failed").sum())}


def simultaneous(texts: list[str], base: float, clubs: int, tables: int) -> None:
    """The simultaneous, its re-run from the cache, and the same without DD."""
    from traveller.score import dd
    from traveller.sim.clubs import STATE_DIR

    with tempfile.TemporaryDirectory() as tmp:
        root = Path(tmp)
        with_dd = inbox(root / "inbox", texts, clubs, tables, dd=True)
        without = inbox(root / "inbox-no-dd", texts, clubs, tables, dd=False)
        plain = sim_run(without, root / "out-no-dd")
        dd.forget()
        cold = sim_run(with_dd, root / "out")
        after = direct(texts)  # the baseline again, the machine's load being what it is
        files = sum(1 for _ in (root / "out" / STATE_DIR / "dd").rglob("*.txt"))
        dd.forget()  # what a new process sees: nothing in memory, the cache folder on disk
        again = sim_run(with_dd, root / "out")
    once = (base + after) / 2
    print(f"direct DDS again after the sim: {after:.2f} s (baseline: the mean, {once:.2f} s)")
    print(f"simultaneous, {cold['clubs']} clubs x {tables} tables x {len(texts)} boards "
          f"({clubs * tables * len(texts)} results), local engine, workbooks written:")
    print(f"  without DD (dd = false): {plain['seconds']:.1f} s")
    for name, run in (("with DD, cold:          ", cold), ("re-run from the cache:  ", again)):
        print(f"  {name} {run['seconds']:.1f} s; {run['solved']} deals solved for "
              f"{run['clubs']} clubs; getting the tables {run['tables']:.2f} s = "
              f"{run['tables'] / once:.3f}x direct once; the whole analysis (tables, par, "
              f"audit) {run['analysis']:.2f} s = {run['analysis'] / once:.2f}x")
    print(f"  {files} tables in OUTPUT/{STATE_DIR}/dd after the cold run")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--boards", type=int, default=27)
    parser.add_argument("--clubs", type=int, default=120)
    parser.add_argument("--tables", type=int, default=4)
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
    simultaneous(texts, base, args.clubs, args.tables)
    sample = Path(__file__).resolve().parents[1] / "sample_data" / "club_session.csv"
    whole = min(timed(lambda: traveller.process(sample, dd=False)) for _ in range(3))
    result = traveller.process(sample)
    extra = min(timed(lambda: with_hands(result)) for _ in range(3))
    print(f"no hands: with_hands {extra * 1e6:.0f} µs = {extra / whole:.5f}x the session's "
          f"process ({whole * 1000:.0f} ms)")


if __name__ == "__main__":
    main()
