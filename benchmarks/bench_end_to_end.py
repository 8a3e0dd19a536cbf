"""Benchmark: ``traveller score`` end to end against independent floors, in one run.

    python benchmarks/bench_end_to_end.py                  # 100,000 results
    python benchmarks/bench_end_to_end.py --rows 20000 --repeat 1

Everything runs as a fresh child process under ``/usr/bin/time`` (wall time
and peak RSS of that process), on the same generated xlsx session:

- ``traveller``: ``python -m traveller score IN.xlsx -o OUT.xlsx``;
- ``naive``: what a pandas user writes first, importing nothing of ours:
  ``pd.read_excel(engine="openpyxl")``, a per-row ``DataFrame.apply`` scorer,
  ``groupby().rank()`` matchpoints, ``to_excel(engine="openpyxl")`` of the
  Ranking and Travellers sheets;
- ``lean``: the floor, also independent of our code: python-calamine read,
  vectorised parsing and one numpy score computation, sort-based matchpoints,
  and the fastest writer measured (rustpy-xlsxwriter when installed, else
  xlsxwriter in constant-memory mode) writing the same sheets as ours
  (Ranking, Travellers, Score cards at two rows per result, Frequencies);
- ``writer``: our writer against the one of commit f254d0e (read from git)
  on the same scored session, in one child;
- cold start: ``traveller score`` on the bundled sample against
  ``python -c "import pandas"``, alternating, best of 7 (``--cold-only``: just this),
  with our package compiled to bytecode first, as an install leaves it.

Prints each ratio with the goal of issue 11; repeat and read the spread.
"""

from __future__ import annotations

import argparse
import os
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

HERE = Path(__file__).resolve().parent
REPO = HERE.parent
sys.path.insert(0, str(HERE))


def timed(args: list[str], cwd: Path = REPO) -> tuple[float, float, str]:
    """(seconds, peak MiB, stdout) of one child process, measured by /usr/bin/time."""
    with tempfile.NamedTemporaryFile("r", suffix=".time") as out:
        env = {**os.environ, "PYTHONPATH": str(REPO)}
        done = subprocess.run(["/usr/bin/time", "-o", out.name, "-f", "%e %M", *args], cwd=cwd,
                              capture_output=True, text=True, env=env, check=False)
        if done.returncode not in (0, 3):
            raise SystemExit(f"{args[:4]} failed ({done.returncode}):\n{done.stderr[-2000:]}")
        seconds, kib = out.read().split()[-2:]
    return float(seconds), float(kib) / 1024, done.stdout


def session_xlsx(rows: int, folder: Path) -> Path:
    """The generated session (bench_pipeline.generate) as an xlsx workbook."""
    import pandas as pd
    import xlsxwriter
    from bench_pipeline import generate

    csv = folder / "session.csv"
    generate(rows, csv)
    frame = pd.read_csv(csv, dtype=str, keep_default_na=False)
    path = folder / "session.xlsx"
    book = xlsxwriter.Workbook(path, {"constant_memory": True})
    sheet = book.add_worksheet("Travellers")
    sheet.write_row(0, 0, list(frame.columns))
    for i, row in enumerate(frame.itertuples(index=False), 1):
        sheet.write_row(i, 0, [int(v) if v.isdigit() else v for v in row])
    book.close()
    return path


def median_runs(args: list[str], repeat: int) -> tuple[float, float]:
    runs = [timed(args) for _ in range(repeat)]
    return statistics.median(r[0] for r in runs), max(r[1] for r in runs)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--rows", type=int, default=100_000)
    parser.add_argument("--repeat", type=int, default=1)
    parser.add_argument("--skip-naive", action="store_true", help="leave out the slow naive run")
    parser.add_argument("--cold-only", action="store_true", help="only the cold-start ratio")
    args = parser.parse_args()
    py = sys.executable
    if args.cold_only:
        with tempfile.TemporaryDirectory(prefix="bench_e2e_") as tmp:
            cold_start(py, Path(tmp), max(args.repeat, 7))
        return
    with tempfile.TemporaryDirectory(prefix="bench_e2e_") as tmp:
        folder = Path(tmp)
        src = session_xlsx(args.rows, folder)
        print(f"{args.rows:,} results, xlsx input; each figure a fresh child process "
              f"(median of {args.repeat}); peak = max RSS of that process")
        ours, ours_mem = median_runs([py, "-m", "traveller", "score", str(src), "-o",
                                      str(folder / "ours.xlsx")], args.repeat)
        lean, lean_mem = median_runs([py, str(HERE / "floors.py"), "lean", str(src),
                                     str(folder / "lean.xlsx")], args.repeat)
        print(f"  traveller score   {ours:8.2f} s  peak {ours_mem:6.0f} MiB")
        print(f"  lean floor        {lean:8.2f} s  peak {lean_mem:6.0f} MiB")
        if not args.skip_naive:
            naive, naive_mem = median_runs([py, str(HERE / "floors.py"), "naive", str(src),
                                            str(folder / "naive.xlsx")], args.repeat)
            print(f"  naive (openpyxl + apply) {naive:8.2f} s  peak {naive_mem:6.0f} MiB")
            print(f"vs naive: {naive / ours:5.2f}x faster      (goal >= 8x)")
        print(f"vs lean floor: {ours / lean:5.2f}x its time   (goal <= 1.5x)")
        _, _, out = timed([py, str(HERE / "floors.py"), "writers", str(src), str(folder)])
        print(out.rstrip())
        cold_start(py, folder, max(args.repeat, 7))


def cold_start(py: str, folder: Path, runs: int) -> None:
    """``traveller score`` on the sample vs ``import pandas``, fresh processes, best of ``runs``.

    The two alternate, so a busy moment of the machine hits both alike; the
    best (least disturbed) run of each is compared. Our package is first
    compiled to bytecode, as ``pip install .`` does: pandas is, and with
    ``PYTHONDONTWRITEBYTECODE`` set (or a read-only checkout) every run would
    otherwise compile our modules afresh, which no installed user pays.
    """
    subprocess.run([py, "-m", "compileall", "-q", str(REPO / "traveller")], check=True,
                   capture_output=True)
    env = {**os.environ, "PYTHONPATH": str(REPO)}
    commands = {"ours": [py, "-m", "traveller", "score", "sample_data/club_session.xlsx", "-o",
                         str(folder / "sample.xlsx")], "pandas": [py, "-c", "import pandas"]}
    best = dict.fromkeys(commands, float("inf"))
    for _ in range(runs):
        for name, command in commands.items():
            clock = time.perf_counter()
            subprocess.run(command, cwd=REPO, env=env, capture_output=True, check=True)
            best[name] = min(best[name], time.perf_counter() - clock)
    print(f"cold start (best of {runs}, alternating): traveller score on the sample "
          f"{best['ours']:.2f} s, import pandas {best['pandas']:.2f} s: "
          f"{best['ours'] / best['pandas']:.2f}x   (goal <= 1.3x)")


if __name__ == "__main__":
    main()
