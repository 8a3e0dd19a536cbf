"""The hostile-sheet fuzz property of tests/test_fuzz.py, run long and with fresh seeds.

    python benchmarks/fuzz_hostile.py                 # 500 sheets
    python benchmarks/fuzz_hostile.py --examples 5000 --seed 7

Each sheet has junk cells, Excel-mangled numbers (a lost + sign, 10.0),
control characters and a random encoding; the run stops at the first sheet
where an exception escapes, a row is lost or phantom, or a wrong score is not
listed, and hypothesis prints that sheet, shrunk to its smallest form.
"""

from __future__ import annotations

import argparse
import sys
import tempfile
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "tests"))
sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from hypothesis import HealthCheck, given, seed, settings
from test_fuzz import Sheet, check, sheets


def main() -> None:
    """Run the property on ``--examples`` generated sheets."""
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--examples", type=int, default=500)
    parser.add_argument("--seed", type=int, default=None)
    args = parser.parse_args()

    @settings(max_examples=args.examples, deadline=None, database=None,
              suppress_health_check=list(HealthCheck))
    @given(sheet=sheets())
    def prop(sheet: Sheet) -> None:
        with tempfile.TemporaryDirectory() as folder:
            check(sheet, Path(folder))

    if args.seed is not None:
        prop = seed(args.seed)(prop)
    start = time.perf_counter()
    prop()
    print(f"{args.examples} hostile sheets: no escape, no lost row, no unlisted wrong score "
          f"({time.perf_counter() - start:.0f} s)")


if __name__ == "__main__":
    main()
