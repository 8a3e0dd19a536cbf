"""The array glue of the publications gives what the Series operations it replaced gave.

Score cards, frequencies, the summary and the workbook's sheets are built
from plain arrays (factorised keys, numeric sort keys, sums of NaN-as-0
columns, distinct texts parsed once). Each test compares one such step with
the pandas operation it stands for, on data where the two could part: missing
values, ties, mixed dtypes, huge numbers.
"""

from __future__ import annotations

import numpy as np
import pandas as pd
import pytest
from conftest import SAMPLE_DATA

from traveller import process
from traveller.publish import layout, scorecards
from traveller.publish.cards import _sort_key, score_cards
from traveller.publish.keys import change_starts, group_ids, key_codes, numbered, plain
from traveller.publish.sheet import blank
from traveller.score.sides import SIDE_COLUMNS, pair_sides
from traveller.tidy.ruling_text import kinds

RNG = np.random.default_rng(7)


def _sorted_like(a: np.ndarray, b: np.ndarray) -> bool:
    """True when ``a`` and ``b`` order every pair of positions alike (ties included)."""
    return bool(((a[:, None] < a[None, :]) == (b[:, None] < b[None, :])).all()
                and ((a[:, None] == a[None, :]) == (b[:, None] == b[None, :])).all())


def _factorize_key(values: pd.api.extensions.ExtensionArray, descending: bool) -> np.ndarray:
    """The sort key as a sorted factorize numbers it (missing last)."""
    codes, uniques = pd.Series(values).factorize(sort=True)
    if descending:
        codes = np.where(codes < 0, -1, len(uniques) - 1 - codes)
    return np.where(codes < 0, len(uniques), codes)


@pytest.mark.parametrize("make", [
    lambda v, gap: pd.array(np.where(gap, None, v).tolist(), dtype="Int64"),
    lambda v, gap: pd.array(v * 2**60, dtype="Int64"),  # past 2**53: factorized instead
    lambda v, gap: pd.array(np.where(gap, None, v > 0).tolist(), dtype="boolean"),
    lambda v, gap: pd.Series(v > 0).array,
    lambda v, gap: pd.array(np.where(gap, None, v.astype(str)).tolist(), dtype="string"),
])
def test_sort_keys_order_as_sorted_factorize(make) -> None:
    for _ in range(40):
        n = int(RNG.integers(0, 25))
        values = make(RNG.integers(-4, 5, n), RNG.random(n) < 0.2)
        for descending in (False, True):
            assert _sorted_like(_sort_key(values, descending=descending),
                                _factorize_key(values, descending))


def test_group_ids_number_groups_by_first_row() -> None:
    for _ in range(40):
        n = int(RNG.integers(1, 40))
        keys = [pd.Series(pd.array(np.where(RNG.random(n) < 0.2, None,
                                            RNG.integers(0, 3, n)).tolist(), dtype="Int64")),
                pd.Series(RNG.choice(["A", "B", ""], n), dtype="string"),
                pd.Series(RNG.random(n) < 0.5)]
        frame = pd.DataFrame({str(i): k for i, k in enumerate(keys)})
        expected = frame.groupby(list(frame.columns), sort=False, dropna=False).ngroup()
        assert group_ids(*keys).tolist() == expected.tolist()


_COLUMNS = [pd.Series(["b", "a", None, "b", "", "a"], dtype="string"),
            pd.Series(["x", None, "x", " x", "", "y"], dtype="str"),
            pd.Series(["", "", ""], dtype="str"), pd.Series([None, None], dtype="string"),
            pd.Series([], dtype="string"), pd.Series([3, None, 3, 1], dtype="Int64"),
            pd.Series([1.5, None], dtype="Float64"), pd.Series([2, 1, 2]),
            pd.Series([0.5, np.nan]), pd.Series([True, False]),
            pd.Series(["a", None], dtype=object),
            pd.Series(["\u00e9", "e\u0301", "\u00e9"], dtype="string")]


@pytest.mark.parametrize("column", _COLUMNS)
def test_key_codes_plain_and_blank_as_pandas_gives_them(column: pd.Series) -> None:
    """The shortcuts for Arrow texts and masked numbers give what factorize, an object
    array and the Series' own cells give."""
    codes, distinct = key_codes(column)
    expected, uniques = pd.factorize(column.array)
    assert codes.tolist() == expected.tolist() and distinct == len(uniques)
    got, listed = plain(column), np.asarray(column, dtype=object).tolist()
    assert [type(v) for v in got] == [type(v) for v in listed]
    assert all(a is b or a == b or (a != a and b != b)  # NaN: a float of its own each time
               for a, b in zip(got, listed, strict=True))
    cells = column.astype("string").fillna("")
    assert blank(column) == bool(column.isna().all() or (cells == "").all())


def test_as_written_texts_equal_as_their_stripped_values() -> None:
    written = pd.Series([" 3NT", "3nt", None, "4S ", "", "4S"], dtype="string")
    value = pd.Series(["3NT", "3NT", "3NT", "4S", None, None], dtype="string")
    cells = layout._Cells({"w": written, "v": value})
    same = (written.str.strip() == value.str.strip()).fillna(False).to_numpy(dtype=bool)
    assert cells.equal("w", "v").tolist() == same.tolist() == [True, False, False, True,
                                                               False, False]
    blank = (written.isna() | (written.str.strip() == "")).fillna(True)
    assert cells.missing("w").tolist() == blank.tolist()  # missing, or nothing but spaces


def test_change_starts_where_any_key_changes() -> None:
    section = pd.Series(["A", "A", "A", "B", "B", None, None], dtype="string")
    pair = pd.Series([1, 1, 2, 2, 2, 2, None], dtype="Int64")
    assert change_starts(section, pair) == [0, 2, 3, 5, 6]
    assert change_starts(section.iloc[:0], pair.iloc[:0]) == []
    frame = pd.DataFrame({"section": section, "pair": pair})
    assert layout.group_starts(frame, ["section", "pair"]) == [0, 2, 3, 5, 6]
    assert layout.group_starts(frame, []) == [0]


def _kinds_by_series(frame: pd.DataFrame) -> np.ndarray:
    if "ruling_kind" not in frame:
        kind = pd.Series("result", index=frame.index)
    else:
        kind = frame["ruling_kind"].astype("object").fillna("result")
    no_score = frame["ns_score"].isna().to_numpy() if "ns_score" in frame else False
    return np.where((kind == "result") & no_score, "not-played", kind).astype(object)


@pytest.mark.parametrize("dtype", ["string", "str", object])
def test_kinds_as_by_series(dtype) -> None:
    frame = pd.DataFrame({"ruling_kind": pd.array(["average", None, "result", None],
                                                  dtype=dtype),
                          "ns_score": pd.array([None, None, 420, 50], dtype="Int64")})
    for f in (frame, frame[["ns_score"]], frame[["ruling_kind"]], frame.iloc[:0]):
        got, expected = kinds(f), _kinds_by_series(f)
        assert got.dtype == expected.dtype and got.tolist() == expected.tolist()


def test_totals_add_up_as_nansum_and_nanmean() -> None:
    for _ in range(200):
        n = int(RNG.integers(1, 30))
        values = RNG.random(n) * RNG.integers(1, 100)
        values[RNG.random(n) < 0.25] = np.nan
        known = ~np.isnan(values)
        zeroed = np.where(known, values, 0.0)
        assert float(zeroed.sum()) == float(np.nansum(values))
        if known.any():
            assert float(zeroed.sum() / int(known.sum())) == float(np.nanmean(values))


def test_numbers_as_written_read_as_to_numeric() -> None:
    texts = ["7", " 8 ", "3H", "", None, "1e3", "inf", "-2", "+5", "1_0", "5.", "NaN",
             "9" * 400, "18446744073709551616", "7"]
    column = pd.Series(texts, dtype="string")
    cells = layout._Cells({"x": column})
    expected = pd.to_numeric(column.str.strip(), errors="coerce").to_numpy(
        dtype=float, na_value=np.nan)
    np.testing.assert_array_equal(cells.number("x"), expected)


def test_pair_sides_computes_only_the_columns_asked_for() -> None:
    t = process(SAMPLE_DATA / "rulings_session.csv").travellers
    every = pair_sides(t, "mitchell")
    some = pair_sides(t, "mitchell", ("pct", "held"))
    assert list(every.columns) == SIDE_COLUMNS
    assert list(some.columns) == [*SIDE_COLUMNS[:6], "held", "pct"]
    pd.testing.assert_frame_equal(some, every[list(some.columns)], check_exact=True)


@pytest.mark.parametrize(("name", "options"), [
    ("club_session.csv", {}), ("rulings_session.csv", {}), ("problems_session.csv", {}),
    ("club_session.xlsx", {"movement": "howell"})])
def test_score_cards_rows_and_names(name: str, options: dict[str, str]) -> None:
    """Each card row is one pair's board, sorted, named from the ranking; opponents named too."""
    result = process(SAMPLE_DATA / name, **options)
    cards = score_cards(result.travellers, str(result.settings.get("movement")), result.ranking)
    if cards.empty:
        return
    keys = ["section", "line", "pair", "board"]
    assert not cards.duplicated(keys).any()
    line = cards["line"].map({"NS": 0, "EW": 1, "": 0})
    order = pd.DataFrame({"s": cards["section"], "l": line, "p": cards["pair"],
                          "b": cards["board"]})
    assert order.equals(order.sort_values(["s", "l", "p", "b"], kind="stable"))
    named = result.ranking.drop_duplicates(["section", "line", "pair"]).set_index(
        ["section", "line", "pair"])["names"].fillna("")
    for key, names in cards.groupby(["section", "line", "pair"], sort=False)["names"]:
        assert set(names) == {named.get(key, "")}
    columns = scorecards.card_columns(cards, result.ranking)
    assert list(columns) == [*(c for c in cards.columns if c in columns), "opponent_names"]
    opponents = named.reindex(list(zip(cards["section"], cards["line"].map(
        {"NS": "EW", "EW": "NS", "": ""}), cards["opponent"], strict=True))).fillna("")
    assert columns["opponent_names"].tolist() == opponents.tolist()


@pytest.mark.parametrize("index", [pd.RangeIndex(3), pd.RangeIndex(1, 4), pd.RangeIndex(0, 6, 2),
                                   pd.RangeIndex(3, name="row"), pd.Index([2, 0, 1])])
def test_numbered_frame_as_reset_index_gives_it(index: pd.Index) -> None:
    frame = pd.DataFrame({"board": [1, 2, 3], "section": ["A", "B", "A"]}, index=index)
    got = numbered(frame)
    pd.testing.assert_frame_equal(got, frame.reset_index(drop=True))
    assert got.index.equals(pd.RangeIndex(3)) and got.index.name is None
    assert (got is frame) == (index.equals(pd.RangeIndex(3)) and index.name is None)
