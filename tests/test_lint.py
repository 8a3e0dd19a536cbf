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


def test_every_problem_code_has_a_fix_and_is_in_the_readme() -> None:
    from traveller.errors import PROBLEM_CODES
    from traveller.problems import FIXES

    readme = (REPO / "README.md").read_text(encoding="utf-8")
    assert set(FIXES) == set(PROBLEM_CODES)
    assert [c for c in PROBLEM_CODES if f"`{c}`" not in readme] == []
