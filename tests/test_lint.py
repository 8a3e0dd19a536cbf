"""The code stays ruff-clean (the configuration is in pyproject.toml)."""

from __future__ import annotations

import shutil
import subprocess
import sys
from pathlib import Path

import pytest

REPO = Path(__file__).resolve().parents[1]


def test_ruff_is_clean() -> None:
    if shutil.which("ruff") is None and subprocess.run(
            [sys.executable, "-m", "ruff", "--version"], capture_output=True,
            check=False).returncode:
        pytest.skip("ruff is not installed (pip install '.[test]')")
    done = subprocess.run([sys.executable, "-m", "ruff", "check", "traveller", "tests",
                           "benchmarks", "sample_data"], cwd=REPO, capture_output=True,
                          text=True, check=False)
    assert done.returncode == 0, done.stdout + done.stderr
