"""Batch benchmark: generated sessions processed cold, then re-run with nothing changed.

    python benchmarks/bench_batch.py               # 1,000 files (several minutes)
    python benchmarks/bench_batch.py --files 100   # a quick look

Writes N session files (about 300 results each: an 11-table Mitchell, 9
rounds of 3 boards; every third file xlsx, the rest CSV) into a temporary
inbox, 50 files per club folder, dated an hour back as a cron run finds them.
Then runs :func:`traveller.batch.run.run_batch` cold with ``--jobs 1`` and
with ``--jobs`` (default all cores) into two output folders, then once more
with nothing changed, printing files/s and the ratios, and once more as a fresh
``python -m traveller batch`` process, the way cron runs it (Python start-up
and imports included).
"""

from __future__ import annotations

import argparse
import csv
import os
import subprocess
import sys
import tempfile
import time
from pathlib import Path

import numpy as np
import xlsxwriter

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))  # this checkout's traveller

from traveller.batch.run import BatchOptions, run_batch

TABLES, ROUNDS, PER_ROUND = 11, 9, 3
STRAINS = ["C", "D", "H", "S", "NT"]
HEADER = ["Board", "NS", "EW", "Contract", "By", "Lead", "Tricks"]
PER_FOLDER = 50


def session(rng: np.random.Generator) -> list[list[object]]:
    """One Mitchell session's results (board, N-S, E-W, contract, by, lead, tricks)."""
    boards = {}
    for board in range(1, TABLES * PER_ROUND + 1):
        level = int(rng.integers(1, 6))
        boards[board] = (level, str(rng.choice(STRAINS)), str(rng.choice(list("NESW"))))
    rows: list[list[object]] = []
    for r in range(ROUNDS):
        for t in range(TABLES):
            ew = (t - r) % TABLES + 1
            for k in range(PER_ROUND):
                board = ((t + r) % TABLES) * PER_ROUND + k + 1
                level, strain, seat = boards[board]
                tricks = int(np.clip(level + 6 + rng.integers(-2, 2), 0, 13))
                lead = str(rng.choice(list("SHDC"))) + str(rng.choice(list("AKQJ98765432")))
                rows.append([board, t + 1, ew, f"{level}{strain}", seat, lead, tricks])
    return rows


def write_session(path: Path, rows: list[list[object]]) -> None:
    if path.suffix == ".xlsx":
        book = xlsxwriter.Workbook(path)
        sheet = book.add_worksheet("Travellers")
        sheet.write_row(0, 0, HEADER)
        for i, row in enumerate(rows, start=1):
            sheet.write_row(i, 0, row)
        book.close()
    else:
        with path.open("w", newline="", encoding="utf-8") as handle:
            writer = csv.writer(handle)
            writer.writerow(HEADER)
            writer.writerows(rows)


def generate(inbox: Path, files: int, seed: int = 6) -> None:
    """``files`` sessions under ``inbox``/clubNNN/, dated an hour back."""
    rng = np.random.default_rng(seed)
    past = time.time() - 3600
    for i in range(files):
        folder = inbox / f"club{i // PER_FOLDER:03d}"
        folder.mkdir(parents=True, exist_ok=True)
        path = folder / f"session{i:05d}.{'xlsx' if i % 3 == 2 else 'csv'}"
        write_session(path, session(rng))
        os.utime(path, (past, past))


def timed_run(inbox: Path, out: Path, expect: str, jobs: int = 0) -> float:
    clock = time.perf_counter()
    summary = run_batch(inbox, out, BatchOptions(jobs=jobs))
    seconds = time.perf_counter() - clock
    wrong = [f for f in summary.files if f.status != expect]
    if wrong:
        raise SystemExit(f"expected every file {expect}, got {wrong[0]}")
    return seconds


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--files", type=int, default=1000, help="number of session files")
    parser.add_argument("--jobs", type=int, default=0, help="worker processes (0: all cores)")
    args = parser.parse_args()
    with tempfile.TemporaryDirectory(prefix="bench_batch_") as tmp:
        inbox, out = Path(tmp) / "inbox", Path(tmp) / "out"
        clock = time.perf_counter()
        generate(inbox, args.files)
        print(f"generated {args.files} files ({TABLES * ROUNDS * PER_ROUND} results each, "
              f"1 in 3 xlsx) in {time.perf_counter() - clock:.1f} s")
        cold1 = timed_run(inbox, Path(tmp) / "out1", "done", jobs=1)
        print(f"cold run, --jobs 1: {cold1:8.2f} s  {args.files / cold1:10.1f} files/s")
        cold = timed_run(inbox, out, "done", jobs=args.jobs)
        print(f"cold run, --jobs {args.jobs or 'all cores'}: {cold:8.2f} s  "
              f"{args.files / cold:10.1f} files/s  ({cold1 / cold:.2f}x --jobs 1; "
              "goal >= 20 files/s)")
        warm = timed_run(inbox, out, "skipped")
        print(f"re-run:     {warm:8.3f} s  {args.files / warm:10.1f} files/s  "
              f"({warm / args.files * 1000:.3f} s per 1,000 files, nothing changed)")
        print(f"ratio:      re-run is {cold / warm:.0f}x faster than the cold run")
        clock = time.perf_counter()
        done = subprocess.run([sys.executable, "-m", "traveller", "batch", str(inbox), "-o",
                               str(out), "-q"], capture_output=True, text=True, check=False)
        fresh = time.perf_counter() - clock
        print(f"re-run as a fresh process (cron): {fresh:.2f} s, exit {done.returncode}: "
              f"{done.stdout.strip().splitlines()[-1]}")


if __name__ == "__main__":
    main()
