"""The mutation harness over many seeds: a longer run than the default tests' fixed seed.

    python benchmarks/mutation_soak.py [--seeds 200] [--kinds 5]

Each seed picks ``--kinds`` corruptions and rows to apply them to (each row
changed by one corruption at most), on the bundled sample with its scores
beside it; every mutated sheet must be scored as the original or listed
(tests/mutations.py). Prints each failure and a one-line tally; exits 1 on
any failure. 300 seeds of 6 corruptions: all passed on 1 December 2026.
"""

from __future__ import annotations

import argparse
import sys
import tempfile
import time
from pathlib import Path

import numpy as np

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT / "tests"))

from mutations import MUTATIONS, corrupted, trust_failures, with_scores  # noqa: E402


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--seeds", type=int, default=200)
    parser.add_argument("--kinds", type=int, default=5)
    args = parser.parse_args()
    sheet, original = with_scores(ROOT / "sample_data" / "club_session.csv")
    kinds = sorted(k for k in MUTATIONS if not k.endswith("-renamed"))
    failed, start = 0, time.perf_counter()
    with tempfile.TemporaryDirectory() as folder:
        for seed in range(args.seeds):
            rng = np.random.default_rng(seed)
            chosen = list(rng.choice(kinds, size=args.kinds, replace=False))
            mutated = corrupted(sheet, chosen, rng, per_kind=int(rng.integers(1, 8)))
            failures = trust_failures(mutated, original, Path(folder), f"seed{seed}")
            if failures:
                failed += 1
                print(f"seed {seed} ({', '.join(chosen)}): {'; '.join(failures[:5])}")
    print(f"{args.seeds - failed} passed, {failed} failed "
          f"({time.perf_counter() - start:.0f} s, {args.kinds} corruptions a sheet)")
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())
