"""The package reads as the pipeline: the README's layout table matches the folders."""

from __future__ import annotations

import importlib
import re
import subprocess
import sys
from pathlib import Path

import pytest

REPO = Path(__file__).resolve().parents[1]
PACKAGE = REPO / "traveller"


def layout_section() -> str:
    readme = (REPO / "README.md").read_text(encoding="utf-8")
    return readme.split("## How the code is laid out", 1)[1].split("\n## ", 1)[0]


def test_readme_names_every_sub_package_and_no_other() -> None:
    named = set(re.findall(r"`traveller/(\w+)/`", layout_section()))
    folders = {p.parent.name for p in PACKAGE.glob("*/__init__.py")}
    assert named == folders


def test_readme_names_every_top_level_module() -> None:
    named = set(re.findall(r"`(\w+)\.py`", layout_section()))
    modules = {p.stem for p in PACKAGE.glob("*.py") if not p.stem.startswith("_")}
    assert named == modules


@pytest.mark.parametrize("folder", sorted(p.parent.name for p in PACKAGE.glob("*/__init__.py")))
def test_each_stage_says_what_it_takes_and_gives(folder: str) -> None:
    doc = importlib.import_module(f"traveller.{folder}").__doc__ or ""
    assert "Takes" in doc and "gives" in doc


@pytest.mark.slow  # a minute and a half of a 2-core machine: .ci/run's slow run checks it
def test_mypy_is_clean() -> None:
    pytest.importorskip("mypy", reason="mypy is not installed (pip install '.[test]')")
    done = subprocess.run([sys.executable, "-m", "mypy", "traveller"], cwd=REPO,
                          capture_output=True, text=True, check=False)
    assert done.returncode == 0, done.stdout + done.stderr
