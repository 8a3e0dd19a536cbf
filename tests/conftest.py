"""Shared fixtures: where the real published results live, and skipping when absent."""

from __future__ import annotations

from pathlib import Path

import pytest

REPO = Path(__file__).resolve().parents[1]
REAL_DATA = REPO.parent / "shared" / "data" / "real"
SAMPLE_DATA = REPO / "sample_data"


def real_file(*parts: str) -> Path:
    """Path of a file under ../shared/data/real; skips the test when it is absent."""
    path = REAL_DATA.joinpath(*parts)
    if not path.exists():
        pytest.skip(f"real data not present: {path}")
    return path
