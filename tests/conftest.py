"""Shared fixtures: where the real published results live, and skipping when absent."""

from __future__ import annotations

import os
from pathlib import Path
from typing import Any

import pandas as pd
import pytest
from hypothesis import settings

#: Every property (and the fuzzed sheets) tries its full number of examples only in the
#: thorough run: TRAVELLER_THOROUGH=1, as .ci/run sets for its run of them alone
#: (``-m property``). The default run, which a newcomer
#: waits for, tries a quarter of them (derandomised, so each run tries the same ones), so
#: every property is still checked there.
THOROUGH = os.environ.get("TRAVELLER_THOROUGH", "") == "1"


def examples(full: int) -> int:
    """A property's number of hypothesis examples: ``full`` in the thorough run, else a
    quarter (at least 5)."""
    return full if THOROUGH else max(5, full // 4)


def pytest_collection_modifyitems(items: list[pytest.Item]) -> None:
    """Mark every hypothesis property ``property``, so that ``-m property`` selects them."""
    for item in items:
        if getattr(getattr(item, "obj", None), "is_hypothesis_test", False):
            item.add_marker(pytest.mark.property)


# Properties are about results, not speed: on a shared 2-core machine one example
# can take longer than hypothesis' 200 ms default without anything being wrong
# (timing is measured in benchmarks/). Examples stay reproducible in CI.
settings.register_profile("traveller", deadline=None, derandomize=True,
                          max_examples=examples(100))
settings.load_profile("traveller")

REPO = Path(__file__).resolve().parents[1]
REAL_DATA = REPO.parent / "shared" / "data" / "real"
SAMPLE_DATA = REPO / "sample_data"


@pytest.fixture(autouse=True)
def _no_double_dummy(request: pytest.FixtureRequest, monkeypatch: pytest.MonkeyPatch) -> None:
    """Tests not marked ``dd`` score without the double-dummy analysis.

    Solving deals costs tenths of a second each; the real PBN and USEBIO files
    carry hundreds of deals, and scoring never depends on them. The tests of the
    analysis are marked ``@pytest.mark.dd`` (hands are still read and checked).
    """
    if request.node.get_closest_marker("dd") is None:
        import traveller.pipeline

        monkeypatch.setattr(traveller.pipeline, "_analysed",
                            lambda result, folder, found: result)


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


def header_row(sheet: Any, word: str = "Place") -> int:
    """The row of a results sheet's table header: the first row with a cell reading ``word``.

    The title lines above it vary with the publication (date, club, the
    correction period's status), so tests look the header up.
    """
    for row in sheet.iter_rows(min_row=1, max_row=12):
        if any(c.value == word for c in row):
            return int(row[0].row)
    raise AssertionError(f"no header row with {word!r} on sheet {sheet.title}")


def ranking_rows(sheet: Any, word: str = "Place") -> list[dict[str, Any]]:
    """The Ranking sheet's rows, block by block: header -> (value, number format) per row,
    with ``"Block"`` the block's heading ("N-S", "Section A · E-W"; "" for one block).

    The sheet prints one block per line, each with its heading row, its header row
    (a cell reading ``word``) and its rows, a blank row after each.
    """
    rows = list(sheet.iter_rows())
    found: list[dict[str, Any]] = []
    for i, row in enumerate(rows):
        if not any(c.value == word for c in row):
            continue
        head = [c.value for c in row]
        above = rows[i - 1] if i else []
        block = (str(above[0].value) if above and above[0].value is not None
                 and all(c.value is None for c in above[1:]) and i >= 2
                 and rows[i - 2][0].value is None else "")
        for data in rows[i + 1:]:
            if all(c.value is None for c in data):
                break
            cells = {h: (c.value, c.number_format)
                     for h, c in zip(head, data, strict=False) if h is not None}
            found.append({"Block": block, **cells})
    return found


def sheet_text(sheet: Any) -> str:
    """Every text of a sheet's first column, one a line (the Ranking's title, status,
    block headings and the method at its foot)."""
    return "\n".join(str(c.value) for c in sheet["A"] if isinstance(c.value, str))
