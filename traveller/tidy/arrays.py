"""Columns as arrays: typing, ordering and one frame built at the end.

A pandas operation on a small frame costs tens of microseconds whatever its
size; a session's glue does hundreds of them. These helpers do the same work
on the columns' arrays and build the frame once.
"""

from __future__ import annotations

from collections.abc import Collection, Mapping
from typing import Any

import numpy as np
import pandas as pd
import pyarrow as pa

from traveller.read.frames import array_of as array_of  # (re-exported: the stages' helpers)
from traveller.read.frames import arrays_of as arrays_of
from traveller.read.frames import frame_from as frame_from
from traveller.read.frames import plain
from traveller.tidy.text import spread_array

#: No rows and no columns: ``flag(NO_ROWS, ...)`` is a problem table of none, without
#: slicing a wide frame to no rows first.
NO_ROWS = pd.DataFrame()

_DTYPES: dict[str, Any] = {}


def _dtype(name: str) -> Any:
    """``pandas_dtype(name)``, looked up once per name."""
    if name not in _DTYPES:
        _DTYPES[name] = pd.api.types.pandas_dtype(name)
    return _DTYPES[name]


def typed(values: Any, dtype: str) -> Any:
    """A column's array as ``Series.astype(dtype)`` gives it (as is when already typed).

    A categorical of text converts its few categories, then takes them.
    """
    target = _dtype(dtype)
    if values.dtype == target:
        return values
    if (isinstance(values, pd.Categorical) and isinstance(target, pd.StringDtype)
            and isinstance(values.categories.dtype, pd.StringDtype)):
        if target == _dtype("string"):
            return spread_array(values.codes, values.categories.tolist(), "string")
        return values.categories.array.astype(target).take(values.codes, allow_fill=True)
    if (isinstance(values, np.ndarray) and values.dtype == np.float64
            and target == _dtype("Float64")):
        return pd.arrays.FloatingArray(values.copy(), np.isnan(values))  # NaN: missing
    return pd.Series(values, copy=False).astype(target).array


def conformed(frame: pd.DataFrame, dtypes: dict[str, str], drop: Collection[str] = ()
              ) -> dict[str, Any]:
    """The arrays of :func:`traveller.schema.conform` (``dtypes`` first, then the rest).

    Columns missing from ``frame`` are all missing; ``drop`` names columns left out.
    """
    have = {name: values for name, values in arrays_of(frame).items() if name not in drop}
    out = {name: (typed(have[name], dtype) if name in have else missing(dtype, len(frame)))
           for name, dtype in dtypes.items()}
    out.update((name, values) for name, values in have.items() if name not in dtypes)
    return out


def missing(dtype: str, length: int) -> Any:
    """An array of ``length`` missing values of ``dtype``.

    Text held by Arrow is Arrow's all-null column, which costs nothing at any
    length (no per-row work).
    """
    target = _dtype(dtype)
    if dtype == "string" and target.storage == "pyarrow":
        return pd.arrays.ArrowStringArray(pa.nulls(length, pa.large_string()))
    return pd.array([], dtype=target).take(np.full(length, -1, dtype=np.intp), allow_fill=True)


def rows_of(columns: Mapping[str, Any]) -> int:
    """How many rows columns of one length have (0 for no columns)."""
    return len(next(iter(columns.values()))) if columns else 0


def frame_of(arrays: dict[str, Any], order: np.ndarray | None = None,
             index: pd.Index | None = None) -> pd.DataFrame:
    """One frame of ``arrays`` (rows taken in ``order``) on ``index``, else a fresh RangeIndex.

    Columns keep their dtypes: text in an object array stays object.
    """
    if order is not None:
        arrays = _taken(arrays, order)
    if index is None:
        index = pd.RangeIndex(rows_of(arrays))
    return frame_from(arrays, index)


def with_columns(frame: pd.DataFrame, columns: Mapping[str, Any]) -> pd.DataFrame:
    """``frame.assign(**columns)``, the new columns added in one step.

    ``assign`` inserts one column at a time, and each insert into a wide frame
    costs a fraction of a millisecond. Arrays (or Series on the frame's index)
    make a new frame of copies of the frame's columns and the new ones, a
    column the frame has replaced where it stands, as ``assign`` does; other
    values that are all new go in with one ``concat``, the rest by ``assign``.
    """
    if not columns or frame.columns.name is not None or not frame.columns.is_unique:
        return frame.assign(**columns)
    new = {name: _as_is(values, frame.index) for name, values in columns.items()}
    if all(values is not None for values in new.values()):
        # copies: the new frame shares no array with the caller's (as assign's own copies);
        # pandas stacks numpy columns into new blocks, so only the others are copied here
        return frame_from({name: values if isinstance(values, np.ndarray) else values.copy()
                           for name, values in {**arrays_of(frame), **new}.items()},
                          frame.index)
    if any(name in frame.columns for name in columns):
        return frame.assign(**columns)
    return pd.concat([frame, pd.DataFrame(dict(columns), index=frame.index)], axis=1)


def _as_is(values: Any, index: pd.Index) -> Any:
    """A new column's array, when the frame takes it as it is (not text in an object array)."""
    if isinstance(values, pd.Series):
        values = values.array if values.index.equals(index) else None
    values = array_of(values)
    if isinstance(values, np.ndarray) and values.dtype == object:
        return None  # (the constructor reads text in one as strings)
    return values if plain(values, len(index)) else None


def _taken(arrays: dict[str, Any], order: np.ndarray) -> dict[str, Any]:
    """Each array's rows in ``order``; the Arrow text ones in one Arrow take.

    An Arrow take costs some 30-50 us per call however short the column; one
    take of a table of all the text columns costs about one.
    """
    texts = [name for name, values in arrays.items()
             if isinstance(values, pd.arrays.ArrowStringArray)]
    table = pa.Table.from_arrays([arrays[n].__arrow_array__() for n in texts],
                                 names=[str(i) for i in range(len(texts))]).take(order)
    taken = {name: pd.arrays.ArrowStringArray(table.column(i), dtype=arrays[name].dtype)
             for i, name in enumerate(texts)}
    return {name: taken[name] if name in taken else values.take(order)
            for name, values in arrays.items()}

