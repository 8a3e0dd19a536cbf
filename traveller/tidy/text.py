"""Cell text per distinct value, in plain Python: the primitives the parsers share.

A session has a few hundred distinct contracts, leads or pair numbers however
many rows it has. Parsing those with plain ``str`` methods and compiled regular
expressions, then spreading the answers back to the rows with one numpy take,
costs microseconds where a pandas string operation on a small Series costs a
fraction of a millisecond each. The rules here are the ones pandas' string
methods apply (``astype("string")``, ``str.strip``, ``str.upper``,
``pd.to_numeric``), so a cell reads the same whichever way it is processed.
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from typing import Any

import numpy as np
import pandas as pd
import pyarrow as pa
import pyarrow.compute as pc

from traveller.read.frames import listed

_WHOLE_FLOAT = re.compile(r"^([+-]?\d+)\.0+$")
_ASCII_INT = re.compile(r"[+-]?[0-9]{1,15}")


def distinct(values: pd.Series) -> tuple[np.ndarray, list[Any]]:
    """(code per row, distinct values as Python objects); -1 codes a missing cell.

    A categorical column is already coded, so this costs nothing for it;
    any other column is hashed once.
    """
    if isinstance(values.dtype, pd.CategoricalDtype):
        return values.array.codes, listed(values.array.categories)  # type: ignore[attr-defined]
    if isinstance(values.array, pd.arrays.ArrowStringArray):
        return factorized(values.array)
    codes, uniques = pd.factorize(values, use_na_sentinel=True)
    return codes, list(uniques.tolist() if hasattr(uniques, "tolist") else uniques)


def factorized(values: Any) -> tuple[np.ndarray, list[Any]]:
    """``values.factorize()`` of a pandas array as (codes, distinct values as a list).

    Arrow's own dictionary encoding of its text, without pandas' wrapping of
    it (which costs some 50 us a column however short); other arrays as
    pandas factorizes them. Distinct values in order of first appearance, -1
    codes a missing cell, as in pandas.
    """
    if isinstance(values, pd.arrays.ArrowStringArray) and len(values):
        encoded = values.__arrow_array__().dictionary_encode().combine_chunks()
        indices = encoded.indices
        if indices.null_count:
            indices = indices.fill_null(-1)
        return (np.asarray(indices).astype(np.intp, copy=False),
                encoded.dictionary.to_pylist())
    codes, uniques = values.factorize()
    return codes, uniques.tolist()


def spread(codes: np.ndarray, mapped: Sequence[Any] | np.ndarray, missing: Any = None,
           dtype: Any = object) -> np.ndarray:
    """One answer per row from one answer per distinct value (``missing`` for code -1)."""
    table = np.empty(len(mapped) + 1, dtype=dtype)
    for i, value in enumerate(mapped):
        table[i] = value
    table[len(mapped)] = missing
    return table[codes]


#: ``str | None`` as a tuple: a union written in a loop is built again at every test.
_TEXT = (str, type(None))


def spread_array(codes: np.ndarray, mapped: Sequence[Any] | np.ndarray, dtype: str) -> Any:
    """One answer per row as a pandas array of ``dtype`` (missing for code -1).

    The small array of distinct answers is built first and then taken, so a
    million rows cost one take, not a million conversions.
    """
    if dtype == "string" and _ARROW_STRINGS and all(isinstance(m, _TEXT) for m in mapped):
        # texts: Arrow takes them itself, with no pandas conversion or take
        table = pa.array([*mapped, None], type=pa.large_string())  # pandas keeps large_string
        at = np.asarray(codes, dtype=np.int64)
        return pd.arrays.ArrowStringArray(table.take(np.where(at < 0, len(mapped), at)))
    return pd.array([*mapped, None], dtype=dtype).take(codes)


#: Categories of texts already made, by (dtype, texts in order): a batch's sessions share
#: most of theirs (board and pair numbers, N/E/S/W), and pandas checks each new
#: categories index it is given (some 0.1 ms however few the texts). A dtype is immutable.
_CATEGORIES: dict[tuple[Any, tuple[str, ...]], pd.CategoricalDtype] = {}
_CATEGORIES_KEPT = 4096


def text_categories(texts: Sequence[str], dtype: Any) -> pd.CategoricalDtype:
    """``pd.CategoricalDtype(pd.Index(texts, dtype=dtype))`` for distinct texts, made once."""
    key = (dtype, tuple(texts))
    found = _CATEGORIES.get(key)
    if found is None:
        if len(_CATEGORIES) >= _CATEGORIES_KEPT:
            _CATEGORIES.clear()
        found = _CATEGORIES[key] = pd.CategoricalDtype(pd.Index(list(texts), dtype=dtype))
    return found


#: Whether the "string" dtype is Arrow's here (the package's default, with pyarrow installed).
_ARROW_STRINGS = pd.StringDtype().storage == "pyarrow"


def is_missing(value: object) -> bool:
    """True for the values pandas treats as a missing cell (None, NaN, NA, NaT)."""
    if value is None or value is pd.NA or value is pd.NaT:
        return True
    return isinstance(value, float) and value != value


def as_str(value: object) -> str | None:
    """A value as ``astype("string")`` writes it (12.0 -> "12.0"); None when missing."""
    if isinstance(value, str):
        return value
    return None if is_missing(value) else str(value)


def cell_text(value: object) -> str | None:
    """A cell as stripped text; 12.0 (how Excel stores 12) loses its .0; blank -> None."""
    text = as_str(value)
    if text is None:
        return None
    text = text.strip()
    whole = _WHOLE_FLOAT.match(text)
    if whole and whole.end() == len(text):
        text = whole.group(1)
    return text or None


def upper(texts: list[str | None]) -> list[str | None]:
    """``str.upper`` as pandas does it (Arrow's per-character rule: ß stays one letter)."""
    if all(t is None or t.isascii() for t in texts):
        return [None if t is None else t.upper() for t in texts]
    return pc.utf8_upper(pa.array(texts, type=pa.string())).to_pylist()


def numbers(texts: list[str | None]) -> list[float]:
    """``pd.to_numeric(..., errors="coerce")`` of each text as a float; NaN where unreadable.

    Plain ASCII whole numbers are read here; anything else goes to pandas in one call.
    """
    out = [np.nan] * len(texts)
    rest = []
    for i, text in enumerate(texts):
        if text is None:
            continue
        if _ASCII_INT.fullmatch(text):
            out[i] = float(int(text))
        else:
            rest.append(i)
    if rest:
        parsed = pd.to_numeric(pd.Series([texts[i] for i in rest], dtype="string"),
                               errors="coerce").astype("float64")
        for i, value in zip(rest, parsed.tolist(), strict=True):
            out[i] = value
    return out
