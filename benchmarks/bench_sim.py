"""Benchmark a simultaneous pairs: the local engine and Dask with 1 and 2 workers.

Generates national sims of club files (CSV travellers with contracts, declarer
and tricks: 6-15 tables, 24 boards, Mitchell numbering), then runs
``traveller.simultaneous`` on each with each engine, every run in a fresh
process, and reports per run: results, seconds, results per second, the
driver's peak memory and the peak memory of the busiest worker.

    python benchmarks/bench_sim.py                       # 50k and 500k results
    python benchmarks/bench_sim.py --sizes 50000,500000,5000000
    python benchmarks/bench_sim.py --sizes 50000 --engines local,dask2 --no-books
    python benchmarks/bench_sim.py --sizes 50000,500000,5000000 --at 5000000=dask2

``--at SIZE=ENGINES`` runs only those engines at that size (the 5-million
run takes an hour or more per engine on two cores). After the table, the
growth of each engine's time from one size to the next is printed beside
the growth of the results (near-linear is the goal).

``--no-books`` writes nothing (no club workbooks, no national files: the
ranking stays in memory), to time reading and scoring apart from writing.
"""

from __future__ import annotations

import argparse
import itertools
import json
import os
import random
import resource
import shutil
import subprocess
import sys
import tempfile
import time
from pathlib import Path

REPO = Path(__file__).resolve().parents[1]
BOARDS = 24
CONTRACTS = ["1NT", "2H", "2S", "3C", "3D", "3NT", "4H", "4S", "5C", "5D", "6NT", "4SX", "3NTX"]
SEATS = "NESW"


def generate(inbox: Path, results: int, seed: int = 1) -> int:
    """Club files holding about ``results`` results in all; returns the exact count."""
    rng = random.Random(seed)
    inbox.mkdir(parents=True, exist_ok=True)
    written, club = 0, 0
    while written < results:
        tables = rng.randint(6, 15)
        lines = ["Board,NS,EW,Contract,By,Tricks"]
        for board in range(1, BOARDS + 1):
            for table in range(1, tables + 1):
                contract = rng.choice(CONTRACTS)
                level = int(contract[0])
                tricks = min(13, max(0, level + 6 + rng.choice((-2, -1, 0, 0, 0, 1, 1, 2))))
                lines.append(f"{board},{table},{(table + board) % tables + 1},{contract},"
                             f"{rng.choice(SEATS)},{tricks}")
        (inbox / f"club{club:05d}.csv").write_text("\n".join(lines) + "\n", encoding="utf-8")
        written += BOARDS * tables
        club += 1
    return written


def peak_mb() -> float:
    """This process's peak resident memory in MB (Linux reports KB)."""
    return resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024


def child(engine: str, inbox: str, output: str | None) -> dict[str, object]:
    """One run in this (fresh) process: the local engine, or dask1/dask2 workers."""
    sys.path.insert(0, str(REPO))
    from traveller.sim.api import simultaneous

    start = time.perf_counter()
    if engine == "local":
        result = simultaneous(inbox, output=output)
        workers: list[float] = []
    else:
        import logging

        from distributed import Client, LocalCluster

        n = int(engine.removeprefix("dask"))
        with LocalCluster(n_workers=n, threads_per_worker=1, dashboard_address=None,
                          memory_limit=0, silence_logs=logging.ERROR) as cluster:
            start = time.perf_counter()
            result = simultaneous(inbox, engine="dask", scheduler=cluster.scheduler_address,
                                  output=output, timeout=60)
            seconds = time.perf_counter() - start
            with Client(cluster) as client:
                workers = list(client.run(peak_mb).values())
        return {"engine": engine, "seconds": seconds, "results": int(result.clubs["results"].sum()),
                "clubs": len(result.clubs), "driver_mb": peak_mb(), "worker_mb": max(workers)}
    seconds = time.perf_counter() - start
    return {"engine": engine, "seconds": seconds, "results": int(result.clubs["results"].sum()),
            "clubs": len(result.clubs), "driver_mb": peak_mb(), "worker_mb": None}


def run(engine: str, inbox: Path, output: Path | None, limit: float) -> dict[str, object]:
    args = [sys.executable, __file__, "--child", engine, str(inbox)]
    args += [str(output)] if output else []
    # the workers are processes of their own: they import this checkout's traveller too
    env = {**os.environ, "PYTHONPATH": os.pathsep.join(
        p for p in (str(REPO), os.environ.get("PYTHONPATH", "")) if p)}
    done = subprocess.run(args, capture_output=True, text=True, timeout=limit, check=False,
                          env=env)
    if done.returncode != 0:
        raise SystemExit(f"{engine} failed:\n{done.stderr[-3000:]}")
    return json.loads(done.stdout.strip().splitlines()[-1])


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--sizes", default="50000,500000",
                        help="results per sim, comma-separated (default 50000,500000)")
    parser.add_argument("--scale", type=float, default=1.0,
                        help="multiply every size (0.1 for a quick look)")
    parser.add_argument("--engines", default="local,dask1,dask2")
    parser.add_argument("--no-books", action="store_true",
                        help="write nothing (time the scoring only)")
    parser.add_argument("--at", action="append", default=[], metavar="SIZE=ENGINES",
                        help="only these engines at this size, e.g. 5000000=dask2")
    parser.add_argument("--limit", type=float, default=14400, help="seconds per run at most")
    parser.add_argument("--child", nargs="+", help=argparse.SUPPRESS)
    args = parser.parse_args()
    if args.child:
        engine, inbox, *output = args.child
        print(json.dumps(child(engine, inbox, output[0] if output else None)))
        return
    print(f"{'results':>9} {'clubs':>6} {'engine':>6} {'seconds':>8} {'results/s':>10} "
          f"{'driver MB':>9} {'worker MB':>9}")
    only = {int(float(size)): engines.split(",") for size, engines in
            (item.split("=", 1) for item in args.at)}
    runs: list[dict[str, object]] = []
    with tempfile.TemporaryDirectory(prefix="bench_sim_") as tmp:
        for given in (int(float(s)) for s in args.sizes.split(",")):
            size = int(given * args.scale)
            inbox = Path(tmp) / f"inbox{size}"
            generate(inbox, size)
            for engine in only.get(given, args.engines.split(",")):
                out = None if args.no_books else Path(tmp) / f"out{size}{engine}"
                r = run(engine, inbox, out, args.limit)
                runs.append(r)
                worker = "" if r["worker_mb"] is None else f"{r['worker_mb']:.0f}"
                print(f"{r['results']:>9} {r['clubs']:>6} {engine:>6} {r['seconds']:>8.1f} "
                      f"{r['results'] / r['seconds']:>10.0f} {r['driver_mb']:>9.0f} "
                      f"{worker:>9}", flush=True)
            shutil.rmtree(inbox, ignore_errors=True)
    growth(runs)


def growth(runs: list[dict[str, object]]) -> None:
    """Each engine's time from one size to the next, beside the growth in results."""
    by_engine: dict[str, list[dict[str, object]]] = {}
    for r in runs:
        by_engine.setdefault(str(r["engine"]), []).append(r)
    for engine, mine in by_engine.items():
        for a, b in itertools.pairwise(mine):
            more = float(b["results"]) / float(a["results"])  # type: ignore[arg-type]
            slower = float(b["seconds"]) / float(a["seconds"])  # type: ignore[arg-type]
            print(f"{engine}: {a['results']} -> {b['results']} results ({more:.1f}x): "
                  f"time {slower:.1f}x", flush=True)


if __name__ == "__main__":
    main()
