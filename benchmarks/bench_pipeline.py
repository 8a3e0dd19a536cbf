"""Benchmark: read -> normalise -> score -> matchpoints on a large generated session.

    python benchmarks/bench_pipeline.py            # 1M rows (about a minute)
    python benchmarks/bench_pipeline.py --rows 100000 --apply-rows 20000

Two references are measured in the same run, so the ratios hold on a noisy
shared machine: a per-row ``DataFrame.apply`` scorer (what a pandas user writes
first; measured on ``--apply-rows`` rows and scaled to rows/s) and a bare numpy
floor (one table lookup on pre-parsed integer codes plus a sort-based ranking:
no parsing, no checks, no DataFrame). Prints rows/s per step and the ratios.
"""

from __future__ import annotations

import argparse
import sys
import tempfile
import time
from collections.abc import Callable
from pathlib import Path

import numpy as np
import pandas as pd

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))  # this checkout's traveller

from traveller import matchpoints, normalise, read, score_frame
from traveller.schema import STRAINS
from traveller.score.rank import board_matchpoints, rank_pairs
from traveller.score.table import SCORE_TABLE, VULNERABILITY, declarer_score, flat_index

RESULTS_PER_BOARD = 12


def generate(rows: int, path: Path, seed: int = 1) -> None:
    """A CSV of ``rows`` plausible results, 12 per board, pairs numbered per line."""
    rng = np.random.default_rng(seed)
    board = np.arange(rows) // RESULTS_PER_BOARD + 1
    ns = np.arange(rows) % RESULTS_PER_BOARD + 1
    ew = (ns + board) % RESULTS_PER_BOARD + 1  # a Mitchell: each line numbered 1..12
    level = rng.integers(1, 8, rows)
    strain = rng.choice(["C", "D", "H", "S", "NT"], rows)
    dbl = rng.choice(["", "", "", "", "", "", "", "X", "XX"], rows)
    tricks = np.clip(level + 6 + rng.integers(-3, 3, rows), 0, 13)
    frame = pd.DataFrame({
        "Board": board, "NS": ns, "EW": ew, "Contract": np.char.add(
            np.char.add(level.astype(str), strain), dbl),
        "By": rng.choice(list("NESW"), rows), "Tricks": tricks.astype(object),
    })
    passed = rng.random(rows) < 0.01
    frame.loc[passed, ["Contract", "By", "Tricks"]] = ["PASS", "", ""]
    frame.to_csv(path, index=False)


def timed(fn: Callable[[], object], repeat: int = 1) -> tuple[float, object]:
    best, out = float("inf"), None
    for _ in range(repeat):
        start = time.perf_counter()
        out = fn()
        best = min(best, time.perf_counter() - start)
    return best, out


def apply_scorer(frame: pd.DataFrame) -> pd.Series:
    """The per-row scorer a pandas user would write first."""
    def one(row: pd.Series) -> int:
        if row["level"] == 0:
            return 0
        ns_side = row["declarer"] in ("N", "S")
        vul = VULNERABILITY[(row["board"] - 1) % 16][0 if ns_side else 1]
        score = declarer_score(int(row["level"]), STRAINS.index(row["strain"]),
                               int(row["doubled"]), vul, int(row["tricks"]))
        return score if ns_side else -score
    return frame.apply(one, axis=1)


def floor(board: np.ndarray, level: np.ndarray, strain: np.ndarray, dbl: np.ndarray,
          ns_side: np.ndarray, tricks: np.ndarray) -> np.ndarray:
    """Bare numpy on integer codes: one table lookup, then the sort-based matchpoints."""
    vul_ns = np.array([v[0] for v in VULNERABILITY])
    vul_ew = np.array([v[1] for v in VULNERABILITY])
    idx = (board - 1) % 16
    vul = np.where(ns_side, vul_ns[idx], vul_ew[idx]).astype(np.intp)
    score = SCORE_TABLE.ravel()[flat_index(level, strain, dbl, vul, tricks)]
    score = np.where(ns_side, score, -score)
    return board_matchpoints(board, score)[0]


def parse_floor(raw: pd.DataFrame) -> pd.DataFrame:
    """The normalise floor: each column's distinct values parsed once with pandas, mapped back.

    Numbers through ``pd.to_numeric``; contracts by one regular expression over
    the distinct strings (level, strain, doubling); seats by a dict. No checks,
    no problems, no notations: what normalise does at the least.
    """
    out = {}
    for column in ("Board", "NS", "EW", "Tricks"):
        distinct = pd.Series(raw[column].unique())
        values = pd.to_numeric(distinct, errors="coerce")
        out[column] = values.to_numpy()[pd.Index(distinct).get_indexer(raw[column])]
    distinct = pd.Series(raw["Contract"].unique())
    parts = distinct.str.upper().str.extract(r"^([1-7])(NT|[CDHS])(X{0,2})$")
    where = pd.Index(distinct).get_indexer(raw["Contract"])
    out["level"] = pd.to_numeric(parts[0]).to_numpy()[where]
    out["strain"] = parts[1].to_numpy()[where]
    out["doubled"] = parts[2].str.len().to_numpy()[where]
    out["declarer"] = raw["By"].map({"N": "N", "E": "E", "S": "S", "W": "W"}).to_numpy()
    return pd.DataFrame(out)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--rows", type=int, default=1_000_000)
    parser.add_argument("--apply-rows", type=int, default=100_000,
                        help="rows for the slow DataFrame.apply reference")
    parser.add_argument("--repeat", type=int, default=3)
    args = parser.parse_args()
    with tempfile.TemporaryDirectory() as tmp:
        path = Path(tmp) / "session.csv"
        generate(args.rows, path)
        t_read, loaded = timed(lambda: read(path), args.repeat)
        t_csv, raw = timed(lambda: pd.read_csv(path, dtype=str, keep_default_na=False),
                           args.repeat)
        t_norm, norm = timed(lambda: normalise(loaded))  # type: ignore[arg-type]
    t_parse, _ = timed(lambda: parse_floor(raw), args.repeat)  # type: ignore[arg-type]
    rows = norm.travellers  # type: ignore[attr-defined]
    t_score, scored = timed(lambda: score_frame(rows), args.repeat)
    t_mp, ranked = timed(lambda: matchpoints(scored), args.repeat)  # type: ignore[arg-type]
    t_both, _ = timed(lambda: matchpoints(score_frame(rows)), args.repeat)
    t_rank, _ = timed(lambda: rank_pairs(ranked), args.repeat)  # type: ignore[arg-type]

    codes = {s: i for i, s in enumerate(STRAINS)}
    arrays = (rows["board"].to_numpy(np.int64), rows["level"].to_numpy(np.intp),
              rows["strain"].map(codes).fillna(0).to_numpy(np.intp),
              rows["doubled"].to_numpy(np.intp), rows["declarer"].isin(["N", "S"]).to_numpy(),
              rows["tricks"].fillna(0).to_numpy(np.intp))
    t_floor, floor_mp = timed(lambda: floor(*arrays), args.repeat)
    assert np.array_equal(np.asarray(floor_mp), ranked["ns_mp"].to_numpy()), "floor disagrees"

    sample = rows.head(args.apply_rows)
    t_apply, applied = timed(lambda: apply_scorer(sample))
    assert (applied.to_numpy() == scored["ns_score"].head(args.apply_rows).to_numpy()).all()
    n = len(rows)
    apply_rate = len(sample) / t_apply
    print(f"rows: {n:,} scored of {args.rows:,} generated ({RESULTS_PER_BOARD} per board)")
    for name, t in [("read CSV", t_read), ("normalise", t_norm), ("score", t_score),
                    ("matchpoints", t_mp), ("score + matchpoints", t_both),
                    ("read -> matchpoints", t_read + t_norm + t_both),
                    ("numpy floor", t_floor)]:
        print(f"  {name:22s} {t:8.3f} s  {n / t:14,.0f} rows/s")
    print(f"  {'DataFrame.apply score':22s} {n / apply_rate:8.3f} s  {apply_rate:14,.0f} rows/s"
          f"  (measured on {len(sample):,} rows)")
    print(f"score + matchpoints vs apply scorer: {(n / t_both) / apply_rate:8.1f}x faster")
    print(f"score + matchpoints vs numpy floor:  {t_both / t_floor:8.2f}x the floor's time")
    print(f"read CSV vs pd.read_csv(dtype=str):  {t_read / t_csv:8.2f}x   (goal <= 1.5x)")
    print(f"normalise vs parsing distinct values: {t_norm / t_parse:8.2f}x   (goal <= 5x)")
    print(f"rank_pairs vs matchpoints:           {t_rank / t_mp:8.2f}x   (goal <= 2x)")


if __name__ == "__main__":
    main()
