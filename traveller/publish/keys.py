"""Array glue for the publications: group numbers, runs and plain values of key columns.

Keys are factorised as arrays (no Index of their values is built), texts held
by Arrow encoded by Arrow itself; values are listed as the Python objects an
object array would hold. tests/test_publish_glue.py compares each with the
pandas operation it stands for.
"""

from __future__ import annotations

from typing import Any

import numpy as np
import pandas as pd
import pyarrow as pa

from traveller.tidy.arrays import array_of

__all__ = ["Lookups", "arrow_of", "change_starts", "floats", "group_ids", "key_codes",
           "masked_list", "numbered", "plain"]


def plain(values: Any) -> list[Any]:
    """Values as a list of Python objects (missing ones as the array holds them)."""
    array = values.array if isinstance(values, pd.Series) else values
    if isinstance(array, pd.arrays.NumpyExtensionArray):
        array = array.to_numpy()
    if isinstance(array, np.ndarray) and array.dtype.kind in "biufO":
        return array.tolist()  # the same Python objects, without an object array first
    if isinstance(array, pd.arrays.ArrowStringArray):
        arrow = pa.array(array)
        if not arrow.null_count:  # (a missing one is the dtype's own NA: left to numpy)
            return arrow.to_pylist()
    elif isinstance(array, (pd.arrays.IntegerArray, pd.arrays.FloatingArray)) \
            and not array._mask.any():  # its numbers, as the cast to their numpy dtype gives
        return array._data.tolist()
    return np.asarray(values, dtype=object).tolist()


def masked_list(array: Any, missing: Any = None) -> list[Any]:
    """A nullable array's cells (numbers or flags) as Python objects, ``missing`` where
    missing: ``array.to_numpy(dtype=object, na_value=missing).tolist()`` without the
    conversion's per-call set-up."""
    if not isinstance(array, _MASKED):
        return array.to_numpy(dtype=object, na_value=missing).tolist()
    values = array._data.tolist()
    for i in np.flatnonzero(array._mask).tolist():
        values[i] = missing
    return values


def floats(values: Any) -> np.ndarray:
    """``values.to_numpy(dtype=float, na_value=np.nan)`` (a Series or an array): a nullable
    column's numbers cast and its missing cells made NaN directly, without the conversion's
    per-call set-up (which costs ten times the work on a session's few hundred rows)."""
    array = array_of(values)
    if isinstance(array, np.ndarray) and array.dtype.kind in "biuf":
        return array.astype(float)
    if isinstance(array, _MASKED):
        out = array._data.astype(float)  # the numbers under the mask, as the cast reads them
        out[array._mask] = np.nan
        return out
    series = values if isinstance(values, pd.Series) else pd.Series(array, copy=False)
    return series.to_numpy(dtype=float, na_value=np.nan)


#: Nullable numbers and flags: numbers (``_data``) and where they are missing (``_mask``).
_MASKED = (pd.arrays.IntegerArray, pd.arrays.FloatingArray, pd.arrays.BooleanArray)


class Lookups:
    """A frame's columns by name, each looked up once: the frame's stand-in for the sheets of
    one workbook, which read the same travellers' columns many times (a lookup builds a
    Series, ~25 us whatever its length). ``len`` is the frame's rows, ``in`` its columns.

    Made afresh for each workbook (it keeps what it looked up: never share one across
    frames, nor keep it past the frame's use).
    """

    def __init__(self, frame: pd.DataFrame) -> None:
        self.frame = frame
        self.index = frame.index
        self._got: dict[Any, pd.Series] = {}
        self._all: dict[Any, pd.Series] | None = None
        self._codes: dict[Any, tuple[np.ndarray, int]] = {}
        self._groups: dict[tuple[Any, ...], np.ndarray] = {}

    def __getitem__(self, name: Any) -> pd.Series:
        got = self._got.get(name)
        if got is None:
            got = self._got[name] = self.frame[name]
        return got

    def __contains__(self, name: Any) -> bool:
        return name in self.frame

    def codes(self, name: Any) -> tuple[np.ndarray, int]:
        """:func:`key_codes` of a column, made once."""
        if name not in self._codes:
            self._codes[name] = key_codes(self[name])
        return self._codes[name]

    def groups(self, *names: Any) -> np.ndarray:
        """:func:`group_ids` of these columns, made once."""
        if names not in self._groups:
            self._groups[names] = grouped([self.codes(name) for name in names])
        return self._groups[names]

    def __len__(self) -> int:
        return len(self.frame)

    def items(self) -> dict[Any, pd.Series]:
        """Every column by name, as ``dict(frame.items())`` (a new dict each time)."""
        if self._all is None:
            if self.frame.columns.is_unique:  # those looked up already are not looked up again
                self._all = {name: self[name] for name in self.frame.columns}
            else:  # (a repeated name looks up several columns)
                self._all = dict(self.frame.items())
        return dict(self._all)


def numbered(frame: pd.DataFrame) -> pd.DataFrame:
    """``frame.reset_index(drop=True)``, or ``frame`` itself when its rows are already numbered
    0, 1, 2, ... (the usual case: the copy would be the same frame, for a millisecond)."""
    index = frame.index
    if isinstance(index, pd.RangeIndex) and index.start == 0 and index.step == 1 \
            and index.name is None:
        return frame
    return frame.reset_index(drop=True)


def group_ids(*keys: pd.Series) -> np.ndarray:
    """Each row's group by the values of ``keys`` (missing ones alike), numbered by first row."""
    return grouped([key_codes(key) for key in keys])


def grouped(coded: list[tuple[np.ndarray, int]]) -> np.ndarray:
    """:func:`group_ids` of keys given as their :func:`key_codes`."""
    ids, bound = np.zeros(len(coded[0][0]), dtype=np.int64), 1
    for codes, distinct in coded:
        if bound * (distinct + 1) >= 2**62:  # renumber before the product could overflow
            ids = pd.factorize(ids)[0]
            bound = int(ids.max()) + 1 if len(ids) else 1
        ids = ids * (distinct + 1) + codes + 1  # each key combination: one number
        bound *= distinct + 1
    return pd.factorize(ids)[0]


def key_codes(values: Any) -> tuple[np.ndarray, int]:
    """Integer codes of ``values`` (equal values alike, missing ones -1) and how many distinct
    values there are (missing not counted); texts held by Arrow are encoded by Arrow itself."""
    array = array_of(values)
    if isinstance(array, pd.arrays.ArrowStringArray):
        encoded = arrow_of(array).dictionary_encode()  # numbered by first appearance, as factorize
        indices = encoded.indices
        codes = indices.fill_null(-1).to_numpy() if indices.null_count else indices.to_numpy()
        return codes.astype(np.int64), len(encoded.dictionary)
    codes, uniques = pd.factorize(array)  # as an array: no Index of its values is built
    return codes, len(uniques)


def arrow_of(array: pd.arrays.ArrowStringArray) -> pa.Array:
    """The Arrow array of texts that Arrow holds, in one piece (chunks combined)."""
    arrow = pa.array(array)
    return arrow.combine_chunks() if isinstance(arrow, pa.ChunkedArray) else arrow


def change_starts(*keys: Any) -> list[int]:
    """Positions where the values of ``keys`` (columns alike in length) change, 0 first."""
    if not len(keys[0]):
        return []
    changed = np.zeros(len(keys[0]) - 1, dtype=bool)
    for key in keys:  # a missing value is a value of its own (-1); factorized as an array
        codes = key_codes(key)[0]
        changed |= codes[1:] != codes[:-1]
    return np.flatnonzero(np.r_[True, changed]).tolist()
