"""Shared fixtures: where the real published results live, and skipping when absent."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pandas as pd
import pytest
from hypothesis import settings

# Properties are about results, not speed: on a shared 2-core machine one example
# can take longer than hypothesis' 200 ms default without anything being wrong
# (timing is measured in benchmarks/). Examples stay reproducible in CI.
settings.register_profile("traveller", deadline=None, derandomize=True)
settings.load_profile("traveller")

REPO = Path(__file__).resolve().parents[1]
REAL_DATA = REPO.parent / "shared" / "data" / "real"
SAMPLE_DATA = REPO / "sample_data"


def row_at(table: Any, line: int) -> pd.Series:
    """The one result a RawTable read from line ``line`` of its file."""
    found = table.frame[table.frame["row"] == line]
    assert len(found) == 1, f"no single result at line {line}"
    return found.iloc[0]


def real_file(*parts: str) -> Path:
    """Path of a file under ../shared/data/real; skips the test when it is absent."""
    path = REAL_DATA.joinpath(*parts)
    if not path.exists():
        pytest.skip(f"real data not present: {path}")
    return path
