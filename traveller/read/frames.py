"""Frames from columns' arrays and back, without pandas' per-column checks.

A pandas operation on a small frame costs tens of microseconds whatever its
size: ``frame[name]`` builds a Series, the frame constructor checks and
converts every column. Every stage reads and builds frames of a few hundred
rows many times per session; these do the same through pandas' own builder
from arrays and its iterator over the columns' arrays, falling back to the
public API for anything those do not take as it is. (Here, in the first
stage, so that every stage can use them.)
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

import numpy as np
import pandas as pd


def array_of(values: Any) -> Any:
    """A Series' values (or an array's): its numpy array, or its pandas extension array.

    What pandas' functions (``factorize``, ``take``) accept without building an Index.
    """
    array = values.array if isinstance(values, pd.Series) else values
    return array.to_numpy() if isinstance(array, pd.arrays.NumpyExtensionArray) else array


_ARRAYS = (np.ndarray, pd.api.extensions.ExtensionArray)


def listed(values: Any) -> list[Any]:
    """``values.tolist()`` of an Index, Series or array; Arrow text with no missing value
    straight from Arrow (pandas' own goes through an object array: some 30 us)."""
    array = values.array if isinstance(values, pd.Index | pd.Series) else values
    if isinstance(array, pd.arrays.ArrowStringArray):
        texts = array.__arrow_array__()
        if texts.null_count == 0:  # (a missing one is pandas' own NA or NaN: its way)
            return texts.to_pylist()  # type: ignore[no-any-return]
    return values.tolist()  # type: ignore[no-any-return]


def arrays_of(frame: pd.DataFrame) -> dict[Any, Any]:
    """Every column's :func:`array_of`, by name, without a Series built per column.

    ``frame[name]`` costs some 30 us however short the column (a Series, its
    name looked up in the text index of the columns); pandas' own iterator over
    the columns' arrays costs a few. A frame with repeated column names, or a
    pandas without the iterator, goes column by column.
    """
    columns = listed(frame.columns)
    iterate = getattr(frame, "_iter_column_arrays", None)
    if iterate is None or not frame.columns.is_unique:
        return {name: array_of(frame[name]) for name in columns}
    return {name: values if isinstance(values, _ARRAYS)
            and not isinstance(values, pd.arrays.NumpyExtensionArray)
            else array_of(frame[name]) for name, values in zip(columns, iterate(), strict=True)}


def frame_from(columns: Mapping[str, Any], index: pd.Index) -> pd.DataFrame:
    """``pd.DataFrame(columns, index=index, copy=False)`` of arrays kept as they are.

    Each value is a numpy or pandas array as long as ``index``; an object array
    stays object (the constructor would read one holding text as strings). The
    constructor checks and converts every column (some 10 us each); arrays of
    the plain kinds go into pandas' own builder from arrays unchecked.
    """
    arrays = [values.to_numpy() if isinstance(values, pd.arrays.NumpyExtensionArray)
              else values for values in columns.values()]
    if (arrays and all(type(name) is str for name in columns)
            and all(plain(values, len(index)) for values in arrays)):
        build = getattr(pd.DataFrame, "_from_arrays", None)
        if build is not None:
            return build(arrays, columns=_names(tuple(columns)), index=index,
                         verify_integrity=False)
    # an object array would be read as text: as a Series it keeps its dtype
    return pd.DataFrame({name: pd.Series(values, index=index, dtype=object, copy=False)
                         if values.dtype == object else values
                         for name, values in columns.items()}, index=index, copy=False)


#: Column indexes already made, by their names: a batch's sessions have a few shapes, and
#: an index of text costs some 50 us to build (its names read into Arrow). Each frame gets
#: its own view (the values are immutable; a name set on one stays on that one).
_NAMES: dict[tuple[str, ...], pd.Index] = {}
_NAMES_KEPT = 1024


def _names(names: tuple[str, ...]) -> pd.Index:
    """``pd.Index(list(names))``, made once per distinct tuple of names."""
    found = _NAMES.get(names)
    if found is None:
        if len(_NAMES) >= _NAMES_KEPT:
            _NAMES.clear()
        found = _NAMES[names] = pd.Index(list(names))
    return found.view()


def plain(values: Any, length: int) -> bool:
    """An array the frame holds as it is: numbers, booleans or objects, or a pandas array."""
    if isinstance(values, np.ndarray):
        return values.ndim == 1 and values.dtype.kind in "biufO" and len(values) == length
    return (isinstance(values, pd.api.extensions.ExtensionArray) and len(values) == length
            and not isinstance(values, pd.arrays.NumpyExtensionArray))
