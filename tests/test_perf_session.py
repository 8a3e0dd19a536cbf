"""The small-session fast paths of normalise and scoring give what pandas' general ones give.

Issue 11: a 300-result session must not pay for a groupby, a merge or a sort
of the whole frame where a few numpy passes do; these tests pin the rules
those passes implement (ordering, ties, blanks, sections).
"""

from __future__ import annotations

import numpy as np
import pandas as pd
import pytest

from traveller.pipeline import _by_board
from traveller.schema import SEATS, STRAINS, conform
from traveller.tidy.unusual import unusual_scores


def _sortable(seed: int) -> pd.DataFrame:
    rng = np.random.default_rng(seed)
    n = 60

    def ints(low: int, high: int) -> pd.array:
        values = pd.array(rng.integers(low, high, n), dtype="Int64")
        values[rng.random(n) < 0.1] = pd.NA
        return values

    section = pd.array(rng.choice(["B", "A", "", "Ä"], n), dtype="string")
    section[rng.random(n) < 0.1] = pd.NA
    return pd.DataFrame({"section": section, "board": ints(1, 4), "ns_score": ints(-3, 3),
                         "ns_pair": ints(1, 5)})


@pytest.mark.parametrize("seed", range(5))
def test_board_order_is_the_stable_sort_with_blanks_last(seed: int) -> None:
    frame = _sortable(seed)
    expected = frame.sort_values(["section", "board", "ns_score", "ns_pair"],
                                 ascending=[True, True, False, True], kind="stable")
    assert _by_board(frame).tolist() == expected.index.tolist()


def _scored(rows: list[tuple[str, int, int, str, str, int]]) -> pd.DataFrame:
    """A scored frame from (section, board, level, strain, declarer, tricks) rows."""
    section, board, level, strain, declarer, tricks = zip(*rows, strict=True)
    n = len(rows)
    return pd.DataFrame({
        "file": "f.csv", "sheet": "", "row": np.arange(n) + 2,
        "section": pd.Categorical(section, categories=pd.Index(sorted(set(section)),
                                                               dtype="string")),
        "board": pd.array(board, dtype="Int64"), "level": pd.array(level, dtype="Int8"),
        "strain": pd.Categorical(strain, categories=STRAINS),
        "declarer": pd.Categorical(declarer, categories=SEATS),
        "tricks": pd.array(tricks, dtype="Int64"),
        "contract": pd.array([f"{lv}{s}" for lv, s in zip(level, strain, strict=True)],
                             dtype="string"),
        "ns_score": pd.array(np.zeros(n, dtype=np.int64), dtype="Int64"),
    })


def test_a_lone_slam_is_matched_with_partscores_of_its_own_section_and_side() -> None:
    rows = [("A", 1, 6, "S", "N", 12), ("A", 1, 2, "S", "S", 12), ("A", 1, 4, "S", "N", 11),
            ("B", 1, 6, "S", "N", 12), ("B", 1, 4, "S", "N", 12),  # the partscore is in A
            ("A", 2, 6, "H", "E", 12), ("A", 2, 2, "H", "N", 12),  # other side
            ("A", 3, 6, "NT", "N", 12), ("A", 3, 6, "NT", "S", 12),  # two slams
            ("A", 3, 3, "NT", "N", 12), ("A", 4, 7, "C", "W", 13), ("A", 4, 1, "C", "E", 13)]
    listed = unusual_scores(_scored(rows))
    assert listed["row"].tolist() == [2, 12]
    assert listed["column"].tolist() == ["contract", "contract"]
    assert "the only slam on board 1, taking the 12 tricks" in listed["message"].iloc[0]


def test_no_slam_lists_nothing() -> None:
    listed = unusual_scores(_scored([("", 1, 4, "S", "N", 10), ("", 1, 2, "S", "N", 10)]))
    assert listed.empty


def test_conform_types_a_copy_and_leaves_the_input_alone() -> None:
    frame = pd.DataFrame({"extra": ["x"], "board": [1.0]})
    out = conform(frame, {"board": "Int64", "lead": "string"})
    assert out.columns.tolist() == ["board", "lead", "extra"]
    assert str(out["board"].dtype) == "Int64" and out["lead"].isna().all()
    out.loc[0, "extra"] = "y"
    assert frame["board"].dtype == np.float64 and frame.loc[0, "extra"] == "x"
