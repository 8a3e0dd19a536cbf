"""Publishing benchmark: the website (and PBN, USEBIO) of a 30-table session against the workbook.

    python benchmarks/bench_publish.py              # 30 tables, 5 repeats
    python benchmarks/bench_publish.py --tables 60

Generates one Mitchell session (TABLES tables, 15 rounds of 2 boards: 900
results, 60 pairs, 60 boards for 30 tables), scores it once, then times
writing the results workbook (with every sheet) and the website (ranking, a
page per board and per pair, frequencies), PBN and USEBIO, each the median of
``--repeat`` runs in this process. The aim: the website costs no more than the
workbook (ratio <= 1), measured in the same run.
"""

from __future__ import annotations

import argparse
import statistics
import tempfile
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any

import numpy as np
import pandas as pd

from traveller.pipeline import process
from traveller.publish.pbn_out import write_pbn
from traveller.publish.site import write_site
from traveller.publish.usebio_out import write_usebio
from traveller.publish.workbook import write_workbook

ROUNDS, PER_ROUND = 15, 2
STRAINS = ["C", "D", "H", "S", "NT"]


def session(tables: int, seed: int = 13) -> pd.DataFrame:
    """A Mitchell session's results: board, NS, EW, contract, by, lead, tricks."""
    rng = np.random.default_rng(seed)
    boards = {b: (int(rng.integers(1, 6)), str(rng.choice(STRAINS)), str(rng.choice(list("NESW"))))
              for b in range(1, tables * PER_ROUND + 1)}
    rows = []
    for r in range(ROUNDS):
        for t in range(tables):
            for k in range(PER_ROUND):
                board = ((t + r) % tables) * PER_ROUND + k + 1
                level, strain, seat = boards[board]
                tricks = int(np.clip(level + 6 + rng.integers(-2, 2), 0, 13))
                lead = str(rng.choice(list("SHDC"))) + str(rng.choice(list("AKQJT98765432")))
                rows.append([board, t + 1, (t - r) % tables + 1, f"{level}{strain}", seat, lead,
                             tricks])
    return pd.DataFrame(rows, columns=["Board", "NS", "EW", "Contract", "By", "Lead", "Tricks"])


def median_seconds(write: Callable[[Any, Path], Any], result: Any, target: Path,
                   repeat: int) -> float:
    times = []
    for _ in range(repeat):
        start = time.perf_counter()
        write(result, target)
        times.append(time.perf_counter() - start)
    return statistics.median(times)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--tables", type=int, default=30)
    parser.add_argument("--repeat", type=int, default=5)
    args = parser.parse_args()
    result = process(session(args.tables))
    result.meta = {"title": f"{args.tables}-table benchmark", "status": "Final results"}
    t = result.travellers
    print(f"{args.tables} tables: {len(t)} results, {t['board'].nunique()} boards, "
          f"{len(result.ranking)} pairs; median of {args.repeat}")
    with tempfile.TemporaryDirectory() as tmp:
        folder = Path(tmp)
        write_site(result, folder / "warm")  # templates compiled once, as in a long run
        timings = {name: median_seconds(write, result, folder / target, args.repeat)
                   for name, write, target in [
                       ("workbook (all sheets)", write_workbook, "r.xlsx"),
                       ("website", write_site, "site"),
                       ("PBN", write_pbn, "r.pbn"), ("USEBIO", write_usebio, "r.xml")]}
        pages = len(list((folder / "site").glob("*.html")))
    base = timings["workbook (all sheets)"]
    for name, seconds in timings.items():
        print(f"  {name:<22} {seconds * 1000:8.1f} ms   {seconds / base:5.2f}x the workbook")
    ratio = timings["website"] / base
    print(f"website: {pages} pages; website / workbook = {ratio:.2f} (aim: <= 1)")


if __name__ == "__main__":
    main()
