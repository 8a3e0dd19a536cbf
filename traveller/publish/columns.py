"""A sheet's columns as the cells written: plain Python values, how to write them, widths.

:func:`column` reads a Series, or the array of one (numbers or flags held by numpy, a
pandas extension array), as the cells of that Series: missing values and empty text as
None; :func:`width` fits a column to its header and first cells; :func:`blank` says
whether a column has anything to show. Whole numbers and texts held by Arrow are listed
and measured from their arrays (the cells, and so the widths, are those of the generic
path: tests/test_publish_speed.py, tests/test_publish_glue.py).
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

import numpy as np
import pandas as pd
import pyarrow as pa
import pyarrow.compute as pc

from traveller.publish.keys import arrow_of, floats, masked_list

#: Matchpoints' number format: whole without decimals, else to two places.
MP_FORMAT = '0.##'
#: Cells a column's width is measured on (the first ones).
WIDTH_SAMPLE = 2000


@dataclass
class Column:
    """One column ready to write: header, cells as plain Python values, how to write them."""

    header: str
    values: list[Any]
    kind: str  # "text", "number", "mp" (whole numbers shown without decimals), "any"
    style: str | None = None  # a key of styles(): the column's format
    width: float = 8.0


def column(header: str, series: pd.Series | Any, style: str | None) -> Column:
    """Plain Python cells of ``series`` (None for missing or empty text) and how to write them.

    ``series``: a Series, or the array of one (a numpy array of numbers or flags, or a
    pandas extension array): the cells are those of its Series.
    """
    series = as_column(series)
    measured = _measured(series, style)
    if measured is not None:  # listed and measured from the array: as width() would
        values, kind, longest = measured
        if style == MP_FORMAT and kind == "number":  # whole numbers held as integers
            style = "0"
        return Column(header, values, kind, style, _fitted(header, longest))
    values, kind = _cells(series, style)
    return Column(header, values, kind, style, width(header, values, kind != "any"))


def _measured(series: Any, style: str | None) -> tuple[list[Any], str, int] | None:
    """Whole numbers, decimals and texts held by Arrow: their cells, kind and the length of
    the longest one :func:`width` measures, from their arrays; None for any other column."""
    whole = _whole_numbers(series)
    if whole is not None:  # whole numbers: the longer of the least and greatest
        values, known = whole
        return values, "number", max(len(str(known.min())), len(str(known.max()))) \
            if len(known) else 0
    dtype = series.dtype
    if pd.api.types.is_float_dtype(dtype) and not pd.api.types.is_bool_dtype(dtype):
        values, kind = _cells(series, style)
        array = floats(series)
        head = array[:WIDTH_SAMPLE][np.isfinite(array[:WIDTH_SAMPLE])]
        if (np.signbit(head) & (head == 0)).any():  # -0.0 and 0.0: a set keeps either
            return None
        return values, kind, max(map(len, map(_shown, np.unique(head).tolist())), default=0)
    array = _array(series)
    if isinstance(dtype, pd.StringDtype) and isinstance(array, pd.arrays.ArrowStringArray):
        longest = pc.max(pc.utf8_length(arrow_of(array)[:WIDTH_SAMPLE])).as_py()
        return [v or None for v in _texts(series)], "text", longest or 0
    return None


def _cells(series: Any, style: str | None) -> tuple[list[Any], str]:
    """The column's cells as plain Python values, and their kind."""
    dtype = series.dtype
    if isinstance(series, np.ndarray) and dtype.kind in "biu":  # no missing cells
        return series.tolist(), "any" if dtype.kind == "b" else "number"
    if pd.api.types.is_bool_dtype(dtype):
        return (masked_list(series.array) if isinstance(series, pd.Series) and isinstance(
            dtype, pd.BooleanDtype) else series.to_numpy(dtype=object, na_value=None).tolist()
                ), "any"
    if pd.api.types.is_integer_dtype(dtype):
        # a NumPy integer column has no missing cells: its own Python ints
        return (series.to_numpy().tolist() if isinstance(dtype, np.dtype) else
                masked_list(_array(series))), "number"
    if pd.api.types.is_float_dtype(dtype):
        array = floats(series)
        shown = array.astype(object)
        shown[~np.isfinite(array)] = None
        return shown.tolist(), "mp" if style == MP_FORMAT else "number"
    if isinstance(dtype, pd.StringDtype):
        return [v or None for v in _texts(series)], "text"
    return [None if isinstance(v, str) and not v else v.item() if isinstance(v, np.generic)
            else v for v in series.to_numpy(dtype=object, na_value=None).tolist()], "any"


def _whole_numbers(series: Any) -> tuple[list[Any], np.ndarray] | None:
    """An integer column's cells (None where missing) and its known numbers among the cells
    :func:`width` measures, else None (not integers)."""
    dtype = series.dtype
    if isinstance(dtype, np.dtype) and dtype.kind in "iu":  # no missing cells
        numbers = series if isinstance(series, np.ndarray) else series.to_numpy()
        return numbers.tolist(), numbers[:WIDTH_SAMPLE]
    array = _array(series)
    if isinstance(array, pd.arrays.IntegerArray):
        known = ~array._mask[:WIDTH_SAMPLE]
        return masked_list(array), array._data[:WIDTH_SAMPLE][known]
    return None


def as_column(values: Any) -> Any:
    """A Series, or an array read as a Series' cells would be: numbers or flags held by numpy,
    or a pandas extension array, as they are; any other array (objects) as its Series."""
    if isinstance(values, pd.Series):
        return values
    if isinstance(values, pd.arrays.NumpyExtensionArray):
        values = values.to_numpy()
    if isinstance(values, np.ndarray) and values.dtype.kind not in "biuf":
        return pd.Series(values, copy=False)
    return values


def _array(values: Any) -> Any:
    """A Series' array, or the array itself."""
    return values.array if isinstance(values, pd.Series) else values


def _texts(series: pd.Series) -> list[str | None]:
    """A text column's cells as Python texts, None where missing."""
    array = _array(series)
    if isinstance(array, pd.arrays.ArrowStringArray):  # Arrow's own list: 2-4x faster
        return pa.array(array).to_pylist()
    return array.to_numpy(dtype=object, na_value=None).tolist()


def blank(series: pd.Series | Any) -> bool:
    """True when every cell of ``series`` (a Series, or an array as :func:`column` takes) is
    missing or empty text (nothing to show)."""
    series = as_column(series)
    if isinstance(series, np.ndarray):  # numbers or flags: missing only where NaN
        return bool(np.isnan(series).all()) if series.dtype.kind == "f" else not len(series)
    array = _array(series)  # its own array: far cheaper per call than Series methods
    if isinstance(array, pd.arrays.ArrowStringArray):  # texts held by Arrow: asked of Arrow
        arrow = pa.array(array)
        return arrow.null_count == len(arrow) or pc.max(pc.utf8_length(arrow)).as_py() == 0
    missing = np.asarray(array.isna(), dtype=bool)
    if missing.all():
        return True
    first = array[int(np.argmin(missing))]  # the first cell holding something
    if not isinstance(first, str) or first:
        return False
    if isinstance(series.dtype, pd.StringDtype):  # texts only: is any of them not empty?
        return not any(array.to_numpy(dtype=object, na_value=""))
    return bool((series.astype("string") == "").all())


def _shown(value: Any) -> str:
    return f"{value:.2f}" if isinstance(value, float) else str(value)


def width(header: str, values: list[Any], alike: bool = False) -> float:
    """A column width that fits the header and the first 2,000 cells (at most 40).

    ``alike``: the cells are all of one type (text, whole numbers or decimals),
    so each distinct value is measured once.
    """
    sample: Any = set(values[:WIDTH_SAMPLE]) if alike else values[:WIDTH_SAMPLE]
    sample = [v for v in sample if v is not None]
    types = set(map(type, sample))
    if types <= {str}:  # text (the common case): its length
        longest = max(map(len, sample), default=0)
    elif alike and types == {int}:  # whole numbers: the least or greatest
        longest = max(len(str(min(sample))), len(str(max(sample))))
    else:
        longest = max(map(len, map(_shown, sample)), default=0)
    return _fitted(header, longest)


def _fitted(header: str, longest: int) -> float:
    """The width of a column whose longest cell is ``longest`` characters (at most 40)."""
    return min(max(len(header), longest) + 2, 40)
