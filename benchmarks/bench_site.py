"""Benchmark: ``traveller score --html`` on a large session against the workbook-only run.

    python benchmarks/bench_site.py                  # 100,000 results
    python benchmarks/bench_site.py --rows 20000
    python benchmarks/bench_site.py --dir /dev/shm   # written to memory: no disk

Generates one session (bench_pipeline.generate: 12 results a board, so
100,000 results make 8,334 board pages and 24 pair pages of 8,334 boards each),
then runs, each as a fresh child process, ``python -m traveller score IN.csv
-o OUT.xlsx`` (the baseline) and the same with ``--html SITE``, and prints the
wall time and the peak memory of each run, the time ratio and the site's size.
A large site's pair pages are written by a second process forked from the
first, so the peak counted is of every process of the run together: their
proportional set sizes (``Pss`` in ``/proc/PID/smaps_rollup``: memory shared
by the two is counted once) summed every 20 ms in one more run of each (reading
them slows the processes, so the timed runs are not sampled), beside the
largest single process's peak (``os.wait4``). The goal: the site run within 2x the
workbook-only run's time and under 500 MiB at 100,000 results.
"""

from __future__ import annotations

import argparse
import contextlib
import os
import resource
import subprocess
import sys
import tempfile
import threading
import time
from pathlib import Path

HERE = Path(__file__).resolve().parent
REPO = HERE.parent
sys.path.insert(0, str(HERE))


def _tree(pid: int) -> list[int]:
    """``pid`` and every process below it."""
    found, todo = [], [pid]
    while todo:
        p = todo.pop()
        found.append(p)
        with contextlib.suppress(OSError):  # (ended meanwhile)
            todo += [int(c) for c in Path(f"/proc/{p}/task/{p}/children").read_text().split()]
    return found


def _pss(pids: list[int]) -> float:
    """The processes' proportional set sizes together, MiB (0 for one that has ended)."""
    total = 0
    for p in pids:
        try:
            for line in Path(f"/proc/{p}/smaps_rollup").read_text().splitlines():
                if line.startswith("Pss:"):
                    total += int(line.split()[1])
                    break
        except OSError:
            pass
    return total / 1024


def wait_sampled(proc: subprocess.Popen[bytes], sample: bool
                 ) -> tuple[int, resource.struct_rusage, float]:
    """Wait for ``proc``: its wait status, its resource usage, and with ``sample`` the peak
    of it and its children together (summed PSS every 20 ms; 0 without)."""
    peak, ended = [0.0], threading.Event()

    def measure() -> None:
        while not ended.wait(0.02):
            peak[0] = max(peak[0], _pss(_tree(proc.pid)))

    sampler = threading.Thread(target=measure, daemon=True)
    if sample:
        sampler.start()
    _, status, usage = os.wait4(proc.pid, 0)
    ended.set()
    if sample:
        sampler.join()
    return status, usage, peak[0]


def child(args: list[str], sample: bool = False) -> tuple[float, float, float]:
    """(seconds, peak MiB of all its processes together or 0 unless ``sample``, peak MiB
    of the largest one). Sampling reads each process's page tables, which slows it, so
    the timed runs are not sampled."""
    env = {**os.environ, "PYTHONPATH": str(REPO)}
    clock = time.perf_counter()
    proc = subprocess.Popen(args, cwd=REPO, env=env, stdout=subprocess.DEVNULL,
                            stderr=subprocess.PIPE)
    status, usage, peak = wait_sampled(proc, sample)
    seconds = time.perf_counter() - clock
    code = os.waitstatus_to_exitcode(status)
    if code not in (0, 3):
        raise SystemExit(f"{args[3:6]} failed ({code}): {proc.stderr.read().decode()[-2000:]}"
                         if proc.stderr else f"failed ({code})")
    if proc.stderr:
        proc.stderr.close()
    proc.returncode = code  # reaped above
    return seconds, peak, usage.ru_maxrss / 1024  # KiB on Linux


def main() -> None:
    from bench_pipeline import generate

    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--rows", type=int, default=100_000)
    parser.add_argument("--repeat", type=int, default=1)
    parser.add_argument("--dir", type=Path, default=None,
                        help="where the session and its outputs go [default: the system's "
                        "temporary folder]; /dev/shm (memory) shows the time without the disk")
    args = parser.parse_args()
    py = sys.executable
    with tempfile.TemporaryDirectory(prefix="bench_site_", dir=args.dir) as tmp:
        folder = Path(tmp)
        source = folder / "session.csv"
        generate(args.rows, source)
        base = [py, "-m", "traveller", "score", str(source), "-o", str(folder / "r.xlsx")]
        runs: dict[str, list[tuple[float, float, float]]] = {"workbook": [], "html": []}
        for _ in range(args.repeat):  # alternating, so a busy moment hits both alike
            runs["workbook"].append(child(base))
            runs["html"].append(child([*base, "--html", str(folder / "site")]))
        memory = {"workbook": child(base, sample=True)[1],  # one run each for the memory
                  "html": child([*base, "--html", str(folder / "site")], sample=True)[1]}
        pages = list((folder / "site").glob("*.html"))
        size = sum(p.stat().st_size for p in pages) / 2**20
        best = {k: (min(r[0] for r in v), memory[k], max(r[2] for r in v))
                for k, v in runs.items()}
    print(f"{args.rows:,} results; best of {args.repeat}, fresh child processes")
    for name, (seconds, peak, largest) in best.items():
        print(f"  {name:<9} {seconds:8.2f} s   peak {peak:7.0f} MiB all processes "
              f"(largest one {largest:.0f} MiB)")
    print(f"  site: {len(pages):,} pages, {size:,.0f} MiB")
    ratio = best["html"][0] / best["workbook"][0]
    print(f"--html / workbook only: {ratio:.2f}x the time (goal <= 2x), "
          f"peak {best['html'][1]:.0f} MiB (goal <= 500 MiB at 100,000 results)")


if __name__ == "__main__":
    main()
