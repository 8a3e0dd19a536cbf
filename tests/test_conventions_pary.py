"""Pary's Butler conventions: the datum over every table, halves up, a phantom's
table in IMPs, and the round cap (docs/conventions.md, section 7)."""

from __future__ import annotations

from pathlib import Path

import numpy as np
import pandas as pd
import pytest

from traveller import process
from traveller.score.butler import butler_datum
from traveller.score.imps import round_to


def sheet(tmp_path: Path, rows: list[str], **options: object) -> object:
    path = tmp_path / "s.csv"
    path.write_text("Board,NS,EW,Contract,Score\n" + "\n".join(rows) + "\n", encoding="utf-8")
    return process(path, method="butler", **options)


# +50, +50, -90 and pair 4 against the phantom, pair 9
PHANTOM_BOARD = ["1,1,11,,50", "1,2,12,,50", "1,3,13,,-90", "1,4,9,TD,"]


def test_the_table_median_counts_the_phantoms_table(tmp_path: Path) -> None:
    result = sheet(tmp_path, PHANTOM_BOARD, profile="pary", phantom=("9",))
    t = result.travellers.set_index("ns_pair")  # type: ignore[attr-defined]
    # tables -90, -50 (the phantom's), 50, 50: (-50 + 50) / 2 = 0; the plain median is 50
    assert set(t["datum"].dropna()) == {0}
    assert t.loc[1, "ns_imp"] == 2 and t.loc[3, "ns_imp"] == -3   # 50 -> 2, 90 -> 3 IMPs
    assert float(t.loc[4, "ns_imp"]) == pytest.approx(1.2)       # 60 % at 1.2 IMPs a 10 %
    assert 9 not in set(result.ranking["pair"])  # type: ignore[attr-defined]
    plain = sheet(tmp_path, PHANTOM_BOARD, profile="pary", phantom=("9",), datum="median")
    assert set(plain.travellers["datum"].dropna()) == {50}  # type: ignore[attr-defined]


def test_a_table_nobody_scored_on_is_not_counted(tmp_path: Path) -> None:
    rows = ["1,1,11,,50", "1,2,12,,50", "1,3,13,,-90", "1,4,14,NP,"]
    result = sheet(tmp_path, rows, profile="pary")
    assert set(result.travellers["datum"].dropna()) == {50}  # type: ignore[attr-defined]


def test_halves_up() -> None:
    assert round_to(np.array([-95.0, -625.0, 65.0, -445.0]), 10, "half-up").tolist() == [
        -90.0, -620.0, 70.0, -440.0]
    frame = pd.DataFrame({"board": [1, 1], "ns_pair": [1, 2], "ew_pair": [3, 4],
                          "ns_score": [-100, -90]})
    assert butler_datum(frame, datum="median", rounding="half-up")["datum"].tolist() == [-90]
    assert butler_datum(frame, datum="median")["datum"].tolist() == [-100]  # halves away


def test_a_round_counts_at_most_the_cap(tmp_path: Path) -> None:
    # boards 2 and 5 (N-S vulnerable), pair 1 v 11 both times:
    # +620 against a datum of -100 is 720 = 12 IMPs a board
    rows = [f"{b},{ns},{ew},,{s}" for b in (2, 5)
            for ns, ew, s in ((1, 11, 620), (2, 12, -100), (3, 13, -100))]
    capped = sheet(tmp_path, rows, datum="median", round_cap=12).ranking  # type: ignore[attr-defined]
    imps = dict(zip(capped["pair"], capped["imps"].astype(float), strict=True))
    assert imps[1] == 12.0 and imps[11] == -24.0  # the winner capped, the loser not
    assert imps[2] == imps[12] == 0.0
    free = sheet(tmp_path, rows, datum="median").ranking  # type: ignore[attr-defined]
    assert dict(zip(free["pair"], free["imps"].astype(float), strict=True))[1] == 24.0
