"""Benchmark: ``traveller score --html`` on a large session against the workbook-only run.

    python benchmarks/bench_site.py                  # 100,000 results
    python benchmarks/bench_site.py --rows 20000

Generates one session (bench_pipeline.generate: 12 results a board, so
100,000 results make 8,334 board pages and 24 pair pages of 8,334 boards each),
then runs, each as a fresh child process, ``python -m traveller score IN.csv
-o OUT.xlsx`` (the baseline) and the same with ``--html SITE``, and prints the
wall time and the peak resident memory of each child (``os.wait4``), the time
ratio and the site's size. The goal: the site run within 2x the workbook-only
run's time and under 500 MiB at 100,000 results.
"""

from __future__ import annotations

import argparse
import os
import subprocess
import sys
import tempfile
import time
from pathlib import Path

HERE = Path(__file__).resolve().parent
REPO = HERE.parent
sys.path.insert(0, str(HERE))


def child(args: list[str]) -> tuple[float, float]:
    """(seconds, peak MiB) of one child process."""
    env = {**os.environ, "PYTHONPATH": str(REPO)}
    clock = time.perf_counter()
    proc = subprocess.Popen(args, cwd=REPO, env=env, stdout=subprocess.DEVNULL,
                            stderr=subprocess.PIPE)
    _, status, usage = os.wait4(proc.pid, 0)
    seconds = time.perf_counter() - clock
    code = os.waitstatus_to_exitcode(status)
    if code not in (0, 3):
        raise SystemExit(f"{args[3:6]} failed ({code}): {proc.stderr.read().decode()[-2000:]}"
                         if proc.stderr else f"failed ({code})")
    if proc.stderr:
        proc.stderr.close()
    proc.returncode = code  # reaped above
    return seconds, usage.ru_maxrss / 1024  # KiB on Linux


def main() -> None:
    from bench_pipeline import generate

    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--rows", type=int, default=100_000)
    parser.add_argument("--repeat", type=int, default=1)
    args = parser.parse_args()
    py = sys.executable
    with tempfile.TemporaryDirectory(prefix="bench_site_") as tmp:
        folder = Path(tmp)
        source = folder / "session.csv"
        generate(args.rows, source)
        base = [py, "-m", "traveller", "score", str(source), "-o", str(folder / "r.xlsx")]
        runs: dict[str, list[tuple[float, float]]] = {"workbook": [], "html": []}
        for _ in range(args.repeat):  # alternating, so a busy moment hits both alike
            runs["workbook"].append(child(base))
            runs["html"].append(child([*base, "--html", str(folder / "site")]))
        pages = list((folder / "site").glob("*.html"))
        size = sum(p.stat().st_size for p in pages) / 2**20
        best = {k: (min(r[0] for r in v), max(r[1] for r in v)) for k, v in runs.items()}
    print(f"{args.rows:,} results; best of {args.repeat}, fresh child processes")
    for name, (seconds, peak) in best.items():
        print(f"  {name:<9} {seconds:8.2f} s   peak {peak:7.0f} MiB")
    print(f"  site: {len(pages):,} pages, {size:,.0f} MiB")
    ratio = best["html"][0] / best["workbook"][0]
    print(f"--html / workbook only: {ratio:.2f}x the time (goal <= 2x), "
          f"peak {best['html'][1]:.0f} MiB (goal <= 500 MiB at 100,000 results)")


if __name__ == "__main__":
    main()
