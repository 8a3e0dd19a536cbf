"""Benchmark: the national ranking of a simultaneous written as CSV and xlsx, against a floor.

    python benchmarks/bench_national.py                  # 437,000 pairs (a 5-million-result sim)
    python benchmarks/bench_national.py --pairs 50000 --repeat 3

Each side runs in a fresh child process that builds the same ranking (one row
per pair: place, club, section, line, pair, names, boards, national %, place
in club), then writes ``national_ranking.csv`` and ``national_ranking.xlsx``;
the time and the peak resident memory of the write are printed (the memory
the frame and the libraries hold before it, too).

- ``ours``: :func:`traveller.sim.outputs.write_national` (every text made safe
  to open, the formatted sheet written in constant-memory mode a block of rows
  at a time);
- ``floor``: the plainest fast way a script would write the same two files,
  importing nothing of traveller's: pyarrow's CSV writer, and xlsxwriter in
  constant-memory mode fed ``write_row`` per row (bold header, the figure to two
  decimals, widths, frozen header, filters, landscape A4).
"""

from __future__ import annotations

import argparse
import json
import os
import resource
import subprocess
import sys
import tempfile
import time
from pathlib import Path

REPO = Path(__file__).resolve().parents[1]


def ranking(pairs: int):  # type: ignore[no-untyped-def]
    """A national ranking as traveller.sim.outputs.national_ranking makes it."""
    import numpy as np
    import pandas as pd

    rng = np.random.default_rng(4)
    clubs = rng.integers(0, pairs // 22 + 1, pairs)
    return pd.DataFrame({
        "club_id": clubs.astype("int64"),
        "place": pd.array([str(i + 1) for i in range(pairs)], dtype="string"),
        "club": pd.array([f"Club {c}" for c in clubs], dtype="string"),
        "section": pd.array([""] * pairs, dtype="string"),
        "line": pd.array(rng.choice(["NS", "EW"], pairs), dtype="string"),
        "pair": rng.integers(1, 13, pairs).astype("int64"),
        "names": pd.array([f"Player {i} - Partner {i}" for i in range(pairs)], dtype="string"),
        "boards": np.full(pairs, 24, "int64"), "national": rng.random(pairs) * 100,
        "club_place": pd.array([str(i % 11 + 1) for i in range(pairs)], dtype="string")})


def floor(frame, out: Path) -> None:  # type: ignore[no-untyped-def]
    """The two files the plain way (nothing of traveller's)."""
    import pyarrow as pa
    import pyarrow.csv as pa_csv
    import xlsxwriter

    shown = frame.drop(columns=["club_id", "section"])
    shown["national"] = shown["national"].round(2)
    pa_csv.write_csv(pa.Table.from_pandas(shown, preserve_index=False),
                     str(out / "national_ranking.csv"))
    book = xlsxwriter.Workbook(str(out / "national_ranking.xlsx"), {"constant_memory": True})
    sheet = book.add_worksheet("National ranking")
    bold = book.add_format({"bold": True, "bottom": 1, "bg_color": "#DDEBF7"})
    number = book.add_format({"num_format": "0.00"})
    for j, name in enumerate(shown.columns):
        sheet.set_column(j, j, 12, number if name == "national" else None)
    sheet.write_string(0, 0, "National ranking", bold)
    sheet.write_row(2, 0, list(shown.columns), bold)
    for i, row in enumerate(shown.itertuples(index=False, name=None), start=3):
        sheet.write_row(i, 0, row)
    sheet.freeze_panes(3, 0)
    sheet.autofilter(2, 0, 2 + len(shown), len(shown.columns) - 1)
    sheet.set_landscape()
    sheet.set_paper(9)
    sheet.fit_to_pages(1, 0)
    book.close()


def child(side: str, pairs: int, out: str) -> None:
    frame = ranking(pairs)
    before = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024
    clock = time.perf_counter()
    if side == "ours":
        sys.path.insert(0, str(REPO))
        from traveller.sim.outputs import write_national

        write_national(frame, Path(out), "mp", "National ranking")
    else:
        floor(frame, Path(out))
    seconds = time.perf_counter() - clock
    peak = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024
    print(json.dumps({"seconds": seconds, "peak": peak, "before": before}))


def run(side: str, pairs: int, out: Path) -> dict[str, float]:
    env = {**os.environ, "PYTHONPATH": str(REPO)}
    done = subprocess.run([sys.executable, __file__, "--child", side, str(pairs), str(out)],
                          env=env, capture_output=True, text=True, check=True)
    return json.loads(done.stdout.strip().splitlines()[-1])  # type: ignore[no-any-return]


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--pairs", type=int, default=437_000)
    parser.add_argument("--repeat", type=int, default=1)
    parser.add_argument("--child", nargs=3, help=argparse.SUPPRESS)
    args = parser.parse_args()
    if args.child:
        child(args.child[0], int(args.child[1]), args.child[2])
        return
    runs: dict[str, list[dict[str, float]]] = {"ours": [], "floor": []}
    with tempfile.TemporaryDirectory(prefix="bench_national_") as tmp:
        for _ in range(args.repeat):  # alternating, so a busy moment hits both alike
            for side, got in runs.items():
                got.append(run(side, args.pairs, Path(tmp)))
    print(f"national ranking of {args.pairs:,} pairs, CSV and xlsx; best of {args.repeat}, "
          "fresh child processes")
    best = {side: min(got, key=lambda r: r["seconds"]) for side, got in runs.items()}
    for side, r in best.items():
        print(f"  {side:<6} {r['seconds']:7.1f} s   peak {max(x['peak'] for x in runs[side]):6.0f}"
              f" MiB ({r['before']:.0f} MiB before the write)")
    print(f"ours / floor: {best['ours']['seconds'] / best['floor']['seconds']:.2f}x the time")


if __name__ == "__main__":
    main()
