"""The column helpers build what pandas' own constructor and lookups give."""

from __future__ import annotations

import numpy as np
import pandas as pd

from traveller.tidy.arrays import array_of, arrays_of, frame_from, with_columns


def _columns(n: int = 5) -> dict[str, object]:
    return {"text": pd.array([f"x{i}" for i in range(n)], dtype="string"),
            "count": pd.array(range(n), dtype="Int64"),
            "score": np.arange(n, dtype=np.float64),
            "flag": np.arange(n) % 2 == 0,
            "cells": np.array(["a", 1, None, 2.5, "b"][:n], dtype=object),
            "kind": pd.Categorical(["N", "E", "S", "W", "N"][:n]),
            "row": pd.array(np.arange(n, dtype=np.int64))}


def test_frame_from_matches_the_constructor() -> None:
    columns = _columns()
    index = pd.RangeIndex(5)
    built = frame_from(columns, index)
    expected = pd.DataFrame({k: pd.Series(v, index=index, dtype=object) if v.dtype == object
                             else v for k, v in columns.items()}, index=index)
    pd.testing.assert_frame_equal(built, expected)
    assert built.columns.dtype == expected.columns.dtype
    assert built["cells"].dtype == object  # text in an object array stays object


def test_frame_from_keeps_each_frames_column_names_apart() -> None:
    one = frame_from(_columns(), pd.RangeIndex(5))
    one.columns.name = "mine"
    assert frame_from(_columns(), pd.RangeIndex(5)).columns.name is None


def test_frame_from_falls_back_for_what_it_cannot_take_as_is() -> None:
    index = pd.Index([3, 4])
    built = frame_from({"when": np.array(["2024-01-01", "2024-01-02"], dtype="datetime64[s]"),
                        "n": np.array([1, 2])}, index)
    expected = pd.DataFrame({"when": np.array(["2024-01-01", "2024-01-02"],
                                              dtype="datetime64[s]"), "n": [1, 2]}, index=index)
    pd.testing.assert_frame_equal(built, expected)


def test_arrays_of_is_array_of_each_column() -> None:
    frame = frame_from(_columns(), pd.RangeIndex(5))
    got = arrays_of(frame)
    assert list(got) == list(frame.columns)
    for name, values in got.items():
        expected = array_of(frame[name])
        assert type(values) is type(expected)
        assert values.dtype == expected.dtype
        pd.testing.assert_extension_array_equal(pd.array(values), pd.array(expected))


def test_arrays_of_with_repeated_names_goes_column_by_column() -> None:
    frame = pd.DataFrame([[1, 2]], columns=["a", "a"])
    got = arrays_of(frame)
    assert list(got) == ["a"]
    assert isinstance(got["a"], pd.DataFrame)  # what frame["a"] is there: both columns
    assert got["a"].shape == (1, 2)


def test_with_columns_is_assign_and_shares_no_array() -> None:
    frame = frame_from(_columns(), pd.RangeIndex(5))
    new = {"score": np.zeros(5), "points": pd.array([1, None, 3, 4, 5], dtype="Int64"),
           "mine": pd.Series(np.ones(5), index=frame.index)}
    built = with_columns(frame, new)
    pd.testing.assert_frame_equal(built, frame.assign(**new))
    assert list(built.columns) == [*frame.columns, "points", "mine"]  # replaced where it stood
    built.loc[0, "count"] = 99
    built.loc[0, "points"] = 99
    assert frame.loc[0, "count"] == 0 and pd.isna(new["points"][1]) and new["points"][0] == 1


def test_with_columns_of_text_in_objects_or_unaligned_is_assign() -> None:
    frame = frame_from(_columns(), pd.RangeIndex(5))
    new = {"names": np.array(["a", "b", "c", "d", "e"], dtype=object),
           "late": pd.Series(range(5), index=range(4, -1, -1))}
    pd.testing.assert_frame_equal(with_columns(frame, new), frame.assign(**new))


def test_listed_is_tolist() -> None:
    from traveller.read.frames import listed

    for values in (pd.Index(["b", "a"]), pd.Index(["x", None], dtype="string"),
                   pd.array(["x", None], dtype="str"), pd.Categorical(["N", "E"]).categories,
                   pd.Index([1, 2]), pd.Series(["a", "b"], dtype="string"), np.array([1.5])):
        got, expected = listed(values), values.tolist()
        assert [type(v) for v in got] == [type(v) for v in expected]
        assert [repr(v) for v in got] == [repr(v) for v in expected]
