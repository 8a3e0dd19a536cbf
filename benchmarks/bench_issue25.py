"""Issue 25's table, each row a ratio against a baseline measured in the same run.

    python benchmarks/bench_issue25.py                          # every row, small sizes
    python benchmarks/bench_issue25.py --rows batch,cold --repeat 3
    python benchmarks/bench_issue25.py --rows sim --sim-results 5000000 --repeat 1
    python benchmarks/bench_issue25.py --rows sim --sim-results 5000000 --repeat 1 \
        --sim-sides ours                                        # ours alone (an hour less)

Both codes are exported from git (``--ours``, default HEAD, and ``--baseline``)
and run alike, each from a virtual environment of its own that sees this
Python's packages but not the editable install of the checkout.

Rows (each side a fresh process; seconds are wall time, peaks the process's
maximum resident memory from ``wait4``; the two sides alternate, best of
``--repeat``):

- ``batch``: ``traveller batch`` of ``--batch-files`` 297-result sessions
  (bench_batch.py's, every third xlsx) on ``--jobs`` workers, cold, against the
  same command of the baseline code (``--baseline``, a git revision exported
  to a temporary folder: the previous code);
- ``html``: ``traveller score --html`` on a ``--html-results`` session against
  ``traveller score`` of the same file (the workbook-only run), same code;
- ``sim``: ``traveller sim --engine dask --workers 2`` of ``--sim-results``
  results (bench_sim.py's clubs) against the baseline code, with the driver's
  and the busiest worker's peaks (through bench_sim.py's child runner);
- ``cold``: ``traveller score`` on the bundled sample against
  ``python -c "import pandas"``, and the same ratio for the baseline code.

Sizes default small (the machine may be shared); the 5-million-result sim
takes an hour or more a side on two cores.
"""

from __future__ import annotations

import argparse
import json
import os
import shutil
import subprocess
import sys
import tempfile
import time
from collections.abc import Callable
from pathlib import Path

REPO = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(REPO / "benchmarks"))

#: The code before issue 25's work (its first commit's parent).
BASELINE = "19de025"


def export(rev: str, into: Path) -> Path:
    """The package and benchmarks of ``rev`` in a folder of their own."""
    into.mkdir(parents=True, exist_ok=True)
    archive = subprocess.run(["git", "-C", str(REPO), "archive", rev, "traveller",
                              "benchmarks", "sample_data"], capture_output=True, check=True)
    subprocess.run(["tar", "-x", "-C", str(into)], input=archive.stdout, check=True)
    return into


def interpreter(code: Path) -> str:
    """A Python that imports traveller from ``code`` and everything else from this one.

    A new virtual environment whose only ``.pth`` lists ``code`` and this Python's
    site-packages: the editable install of this checkout (a ``.pth`` there) is not
    read, so neither the command nor its worker processes can reach this checkout.
    """
    import sysconfig

    home = code / "venv"
    if not home.exists():
        subprocess.run([sys.executable, "-m", "venv", "--without-pip", str(home)], check=True)
        found = subprocess.run([str(home / "bin" / "python"), "-c",
                                "import sysconfig; print(sysconfig.get_path('purelib'))"],
                               capture_output=True, text=True, check=True).stdout.strip()
        ours = {sysconfig.get_path("purelib"), sysconfig.get_path("platlib")}
        Path(found, "_bench25.pth").write_text("\n".join([str(code), *sorted(ours)]) + "\n",
                                               encoding="utf-8")
    return str(home / "bin" / "python")


def timed(args: list[str], code: Path, cwd: Path | None = None, *,
          every_process: bool = False) -> tuple[float, float]:
    """(seconds, peak MiB) of one fresh process importing traveller from ``code``
    (``args[0]`` the Python: replaced by :func:`interpreter`). The peak is the process's
    own, or with ``every_process`` that of it and its children together (their summed
    proportional set sizes every 20 ms, bench_site.py: a large site's second process)."""
    from bench_site import wait_sampled

    args = [interpreter(code), *args[1:]] if args[0] == sys.executable else args
    env = {**os.environ, "PYTHONPATH": str(code)}
    start = time.perf_counter()
    proc = subprocess.Popen(args, env=env, cwd=cwd or code, stdout=subprocess.DEVNULL,
                            stderr=subprocess.PIPE)
    status, usage, peak = wait_sampled(proc, every_process)
    seconds = time.perf_counter() - start
    stderr = proc.stderr.read().decode() if proc.stderr else ""
    proc.returncode = os.waitstatus_to_exitcode(status)
    if proc.returncode not in (0, 3):
        raise SystemExit(f"{' '.join(args)} failed ({proc.returncode}):\n{stderr[-2000:]}")
    return seconds, peak if every_process else usage.ru_maxrss / 1024


def best(sides: dict[str, Callable[[], tuple[float, float]]], repeat: int
         ) -> dict[str, tuple[float, float]]:
    """Each side's best (seconds, its peak), the sides alternating."""
    found: dict[str, list[tuple[float, float]]] = {name: [] for name in sides}
    for _ in range(repeat):
        for name, run in sides.items():
            found[name].append(run())
    return {name: min(runs) for name, runs in found.items()}


def batch_row(tmp: Path, new: Path, old: Path, files: int, jobs: int, repeat: int) -> None:
    from bench_batch import generate

    inbox = tmp / "inbox"
    generate(inbox, files)

    def side(code: Path) -> Callable[[], tuple[float, float]]:
        def run() -> tuple[float, float]:
            out = tmp / "batch_out"
            shutil.rmtree(out, ignore_errors=True)
            return timed([sys.executable, "-m", "traveller", "batch", str(inbox), "-o",
                          str(out), "-q", "--jobs", str(jobs)], code)
        return run

    got = best({"ours": side(new), "baseline": side(old)}, repeat)
    rate = {k: files / v[0] for k, v in got.items()}
    print(f"batch, {files} sessions of 297 results, --jobs {jobs}: {rate['ours']:.1f} files/s, "
          f"baseline {rate['baseline']:.1f} files/s: {rate['ours'] / rate['baseline']:.2f}x "
          "(goal >= 60 files/s)", flush=True)
    shutil.rmtree(inbox, ignore_errors=True)


def html_row(tmp: Path, new: Path, results: int, repeat: int) -> None:
    import bench_batch as b
    import numpy as np

    # a Mitchell of about ``results`` results: 20 rounds of 10 boards
    b.TABLES, b.ROUNDS, b.PER_ROUND = max(20, round(results / 200)), 20, 10
    path = tmp / "big.csv"
    rows = b.session(np.random.default_rng(5))
    b.write_session(path, rows)
    args = [sys.executable, "-m", "traveller", "score", str(path), "--no-dd", "-o",
            str(tmp / "big.xlsx")]

    def site() -> tuple[float, float]:
        shutil.rmtree(tmp / "site", ignore_errors=True)
        return timed([*args, "--html", str(tmp / "site")], new)

    got = best({"workbook": lambda: timed(args, new), "html": site}, repeat)
    (w, _), (h, _) = got["workbook"], got["html"]
    # the memory of every process of a run, in one more run each (sampling slows them)
    wm = timed(args, new, every_process=True)[1]
    shutil.rmtree(tmp / "site", ignore_errors=True)
    hm = timed([*args, "--html", str(tmp / "site")], new, every_process=True)[1]
    print(f"score --html, {len(rows):,} results: {h:.1f} s / {hm:.0f} MiB peak, workbook only "
          f"{w:.1f} s / {wm:.0f} MiB: {h / w:.2f}x the time (goal <= 2x, <= 500 MiB; peaks "
          "of all the run's processes together)", flush=True)


def sim_row(tmp: Path, new: Path, old: Path, results: int, repeat: int,
            sides: tuple[str, ...] = ("ours", "baseline")) -> None:
    from bench_sim import generate

    inbox = tmp / "sim_in"
    count = generate(inbox, results)

    def side(code: Path) -> Callable[[], dict[str, float]]:
        def run() -> dict[str, float]:
            out = tmp / "sim_out"
            shutil.rmtree(out, ignore_errors=True)
            env = {**os.environ, "PYTHONPATH": str(code)}
            done = subprocess.run([interpreter(code), str(code / "benchmarks" / "bench_sim.py"),
                                   "--child", "dask2", str(inbox), str(out)], env=env, cwd=code,
                                  capture_output=True, text=True, check=True)
            return json.loads(done.stdout.strip().splitlines()[-1])  # type: ignore[no-any-return]
        return run

    runs: dict[str, list[dict[str, float]]] = {name: [] for name in sides}
    for _ in range(repeat):
        for name, code in (("ours", new), ("baseline", old)):
            if name in runs:
                runs[name].append(side(code)())
    got = {k: min(v, key=lambda r: r["seconds"]) for k, v in runs.items()}
    for name, r in got.items():
        print(f"sim {name}, {count:,} results, 2 Dask workers: {r['seconds']:.1f} s "
              f"({count / r['seconds']:,.0f} results/s; driver peak {r['driver_mb']:.0f} MiB, "
              f"busiest worker {r['worker_mb']:.0f} MiB)", flush=True)
    if len(got) == 2:
        print(f"sim: {got['ours']['seconds'] / got['baseline']['seconds']:.2f}x the time of "
              "the baseline (goal: 5 million results in <= 600 s)", flush=True)
    shutil.rmtree(inbox, ignore_errors=True)


def cold_row(tmp: Path, new: Path, old: Path, repeat: int) -> None:
    for code in (new, old):  # bytecode, as an installed package has it (bench_end_to_end.py)
        subprocess.run([interpreter(code), "-m", "compileall", "-q", str(code / "traveller")],
                       check=True, capture_output=True)
    def score(code: Path) -> Callable[[], tuple[float, float]]:
        return lambda: timed([sys.executable, "-m", "traveller", "score",
                              "sample_data/club_session.xlsx", "-o",
                              str(tmp / "sample.xlsx")], code)

    got = best({"pandas": lambda: timed([sys.executable, "-c", "import pandas"], new),
                "ours": score(new), "baseline": score(old)}, max(repeat, 7))
    p = got["pandas"][0]
    print(f"cold start, best of {max(repeat, 7)}: traveller score on the sample "
          f"{got['ours'][0]:.2f} s, import pandas {p:.2f} s: {got['ours'][0] / p:.2f}x; "
          f"baseline code {got['baseline'][0] / p:.2f}x (goal <= 1.2x)", flush=True)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--rows", default="batch,html,sim,cold")
    parser.add_argument("--baseline", default=BASELINE, help="git revision of the previous "
                        f"code [default: {BASELINE}]")
    parser.add_argument("--ours", default="HEAD", help="git revision of the code measured "
                        "[default: HEAD; both sides are exported and run alike]")
    parser.add_argument("--batch-files", type=int, default=200)
    parser.add_argument("--jobs", type=int, default=2)
    parser.add_argument("--html-results", type=int, default=20_000)
    parser.add_argument("--sim-results", type=int, default=200_000)
    parser.add_argument("--sim-sides", default="ours,baseline",
                        help="the sim's sides to run (ours alone for a long run)")
    parser.add_argument("--repeat", type=int, default=2)
    args = parser.parse_args()
    rows = args.rows.split(",")
    with tempfile.TemporaryDirectory(prefix="bench25_") as name:
        tmp = Path(name)
        old = export(args.baseline, tmp / "baseline")
        ours = export(args.ours, tmp / "ours")
        print(f"ours: {args.ours}; baseline: {args.baseline}", flush=True)
        if "batch" in rows:
            batch_row(tmp, ours, old, args.batch_files, args.jobs, args.repeat)
        if "html" in rows:
            html_row(tmp, ours, args.html_results, args.repeat)
        if "sim" in rows:
            sim_row(tmp, ours, old, args.sim_results, args.repeat,
                    tuple(args.sim_sides.split(",")))
        if "cold" in rows:
            cold_row(tmp, ours, old, args.repeat)


if __name__ == "__main__":
    main()
