"""The per-file fast paths give what the general paths give (issue 11: small sessions).

Reading: the C parser fed a file's bytes, columns hashed per distinct value
(numbers apart); ranking places by one sort; the command loading only what
it runs.
"""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

import pandas as pd
import pytest
from conftest import REPO, SAMPLE_DATA

from traveller.read.grid import tables_from_grid
from traveller.read.load import read
from traveller.read.text import text_grid
from traveller.score.rank import places

TEXTS = [
    "Board,NS,EW,Contract\n1,1,2,3NT\n2,1,2,4S\n",
    "Board,NS,EW,Contract\r\n1,1,2,3NT\r\n",  # CRLF: the text path
    "Board,NS,EW,Contract\n1,1,2,3NT\n\n\n",  # blank lines at the end
    'Board,NS,EW,Contract\n1,1,2,"3NT\n2,1,2,4S\n3,1,2,2H\n',  # a stray quote
    "Board;NS;EW;Contract\n1;1;2;3BA\n",
    "Board,NS,EW\n1,2\n1,2,3,4,5\n",  # a row wider than the header
]


@pytest.mark.parametrize("text", TEXTS)
def test_text_grid_from_the_bytes_is_the_grid_from_the_text(text: str) -> None:
    delimiter = ";" if ";" in text else ","
    by_text = text_grid(text, delimiter)
    by_bytes = text_grid(text, delimiter, text.encode("utf-8"))
    pd.testing.assert_frame_equal(by_text, by_bytes)


def test_a_stray_quote_still_keeps_every_line(tmp_path: Path) -> None:
    path = tmp_path / "quote.csv"
    path.write_text('Board,NS,EW,Contract,By,Tricks\n1,1,2,"3NT,S,9\n2,1,2,4S,N,10\n'
                    "3,1,2,2H,E,8\n", encoding="ascii")
    table = read(path).tables[0]
    assert table.frame["row"].tolist() == [2, 3, 4]


def test_headers_are_found_in_columns_of_numbers() -> None:
    """Stacked tables: each header row sits in columns that are otherwise numbers.

    Over 40,000 cells, so each column is hashed apart (cellcodes.SMALL).
    """
    rows = [["Board 1", "", "", ""], ["Board", "NS", "EW", "Contract"]]
    rows += [[str(b), str(p), str(p + 1), "3NT"] for b in (1, 1) for p in (1, 3)]
    rows += [["", "", "", ""], ["Board", "NS", "EW", "Contract"]]
    rows += [[str(b), str(p), str(p + 1), "4S"] for b in range(2, 5200) for p in (1, 3)]
    grid = pd.DataFrame(rows, dtype="str")
    tables = tables_from_grid(grid, "f.csv", "")
    assert grid.size > 40_000
    assert [len(t.frame) for t in tables] == [4, 10_396]
    assert tables[1].frame["row"].iloc[0] == 9
    assert list(tables[1].frame.columns[:4]) == ["board", "ns_pair", "ew_pair", "contract"]


def test_places_share_ties_within_each_group() -> None:
    values = pd.Series([50.0, 60.0, 50.0, 40.0000001, 40.0, 70.0], index=[5, 6, 7, 8, 9, 10])
    groups = pd.Series(["a", "a", "a", "a", "a", "b"], index=values.index)
    assert places(values, groups).tolist() == ["2=", "1", "2=", "4=", "4=", "1"]
    assert places(values, groups).index.tolist() == values.index.tolist()


def test_score_loads_neither_the_batch_nor_the_site(tmp_path: Path) -> None:
    code = ("import sys\nfrom traveller.cli import main\n"
            f"try:\n    main(['score', {str(SAMPLE_DATA / 'club_session.xlsx')!r}, '-o', "
            f"{str(tmp_path / 'out.xlsx')!r}])\nexcept SystemExit:\n    pass\n"
            "print(sorted(m for m in ('traveller.batch.run', 'jinja2', 'traveller.read.usebio',"
            " 'traveller.sim.cli') if m in sys.modules))")
    done = subprocess.run([sys.executable, "-c", code], cwd=REPO, capture_output=True,
                          text=True, check=True)
    assert done.stdout.strip().splitlines()[-1] == "[]"
    assert (tmp_path / "out.xlsx").exists()
