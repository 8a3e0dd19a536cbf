"""Per-column cell parsing: whole numbers, tricks or relative results, text.

Every parser works per distinct value (the columns are categoricals), so a
million rows cost what their few hundred distinct cells cost.
"""

from __future__ import annotations

import re
from typing import Any

import numpy as np
import pandas as pd

from traveller.schema import STRAINS
from traveller.tidy import text as tx


def col(frame: pd.DataFrame, name: str) -> pd.Series:
    if name in frame:
        return frame[name]
    return pd.Series(pd.NA, index=frame.index, dtype="object")


def coded(values: pd.Series) -> pd.Series:
    """``values.astype("category")``, sorting a column's few distinct cells in Python.

    Sorting through pandas costs about a millisecond per column however small;
    Python sorts text (code point order) and numbers the same way. A column of
    other or mixed cells goes through pandas.
    """
    cells = coded_array(values)
    return cells if isinstance(cells, pd.Series) else pd.Series(
        cells, index=values.index, name=values.name)


def coded_array(values: pd.Series) -> pd.Categorical | pd.Series:
    """:func:`coded` as its Categorical (no Series to build); a Series when pandas coded it."""
    cells = _sorted_codes(values.array)
    return values.astype("category") if cells is None else cells


def coded_cells(values: Any) -> pd.Categorical:
    """:func:`coded` of a column's array (a numpy or pandas array), as its Categorical."""
    cells = _sorted_codes(values)
    if cells is None:  # (its own dtype: an object array of text is not read as strings)
        return pd.Series(values, dtype=values.dtype, copy=False).astype("category").array
    return cells


def _sorted_codes(values: Any) -> pd.Categorical | None:
    """The Categorical of text or number cells, sorted in Python; None for other cells."""
    if isinstance(values, pd.arrays.NumpyExtensionArray):
        values = values.to_numpy()
    if isinstance(values.dtype, pd.StringDtype):
        codes, cells = tx.factorized(values)  # the array's own: no Index of uniques
        dtype = values.dtype
    elif values.dtype == object:  # a workbook's cells: text, or numbers as floats
        codes, found = pd.factorize(values, use_na_sentinel=True)
        cells, kinds = found.tolist(), {type(u) for u in found.tolist()}
        if kinds not in ({str}, {float}):
            return None
        dtype = None if kinds == {str} else np.float64
    else:
        return None
    order = sorted(range(len(cells)), key=cells.__getitem__)
    rank = np.empty(len(order) + 1, dtype=np.int64)
    rank[order] = np.arange(len(order))
    rank[-1] = -1
    texts = [cells[i] for i in order]
    categories = (tx.text_categories(texts, dtype) if dtype is not np.float64
                  else pd.CategoricalDtype(pd.Index(texts, dtype=dtype)))
    # every code is a position in ``order``: nothing to validate
    return pd.Categorical.from_codes(rank[codes], dtype=categories, validate=False)


def first(cells: pd.Series, other: pd.Series) -> pd.Series:
    """Each row's cell from ``cells``, else from ``other`` (as read, for messages)."""
    return cells.astype(object).fillna(other.astype(object))


def as_text(values: pd.Series) -> pd.Series:
    """Cells as stripped text; numbers lose a trailing .0 (Excel stores 12 as 12.0)."""
    codes, uniques = tx.distinct(values)
    texts = [tx.cell_text(u) for u in uniques]
    return pd.Series(tx.spread_array(codes, texts, "string"), index=values.index)


#: The largest board or pair number taken as one (larger ones are listed as bad).
MAX_NUMBER = 99_999


def integers(values: pd.Series) -> tuple[pd.Series, pd.Series]:
    """Whole numbers from cells; returns (numbers, bad) where bad marks unreadable non-blanks."""
    number, bad = whole_floats(values)
    return (pd.Series(int_array(number), index=values.index, name="number"),
            pd.Series(bad, index=values.index, name="bad"))


def whole_floats(values: pd.Series) -> tuple[np.ndarray, np.ndarray]:
    """:func:`integers` as arrays: the numbers as floats (NaN: none; exact, all within 1e9)."""
    codes, uniques = tx.distinct(values)
    texts = [None if (t := tx.cell_text(u)) is None else t.replace("−", "-") for u in uniques]
    texts = [t[1:] if t is not None and t.startswith("+") else t for t in texts]
    number = np.asarray(tx.numbers(texts), dtype=np.float64)
    # beyond a billion is no board, pair or score: read as unreadable, not overflowed
    with np.errstate(invalid="ignore"):
        whole = ~np.isnan(number) & (number == np.floor(number)) & (np.abs(number) < 1e9)
    bad = np.array([t is not None for t in texts], dtype=bool) & ~whole
    return (tx.spread(codes, np.where(whole, number, np.nan), np.nan, np.float64),
            tx.spread(codes, bad, False, bool))


def _whole_numbers(codes: np.ndarray, number: np.ndarray, index: pd.Index, name: str
                   ) -> pd.Series:
    """An Int64 Series, one row per code, of per-distinct whole numbers (NaN: missing).

    A number beyond the 64-bit range (1e20, inf) becomes the most negative
    integer, as a numpy cast makes it: far out of any range checked later.
    """
    return pd.Series(int_array(tx.spread(codes, number, np.nan, np.float64)), index=index,
                     name=name)


def int_array(values: np.ndarray, dtype: str = "Int64") -> Any:
    """Whole floats (NaN: missing) as a nullable integer array of ``dtype``."""
    missing = np.isnan(values)
    with np.errstate(invalid="ignore"):
        ints = np.where(missing, 0, values).astype(np.int64)
    if dtype in _NARROW:  # cast here when every value fits (pandas' cast costs ~80 us)
        narrow = ints.astype(_NARROW[dtype])
        if np.array_equal(narrow, ints):
            return pd.arrays.IntegerArray(narrow, missing)
    array = pd.arrays.IntegerArray(ints, missing)
    return array if dtype == "Int64" else pd.array(array, dtype=dtype)


#: The narrower nullable integer dtypes, by the numpy type of their values.
_NARROW = {"Int8": np.int8, "Int16": np.int16, "Int32": np.int32}


def score_in_result_column(frame: pd.DataFrame) -> pd.DataFrame:
    """A "Result" column that holds scores (+1380, -50) beside a Tricks column is the score."""
    if "result" not in frame or "tricks" not in frame or "score" in frame:
        return frame
    numbers, _ = integers(frame["result"])
    if numbers.notna().sum() and (numbers.abs() > 13).mean() > 0.5:
        return frame.rename(columns={"result": "score"})
    return frame


def parse_tricks(values: pd.Series) -> tuple[pd.Series, pd.Series, pd.Series]:
    """Cells of a tricks/result column -> (bare numbers, relative results, bad).

    Cells written relative (``+1``, ``-2``, ``=``, ``M``) give ``rel``; how bare
    numbers are read is decided in :mod:`traveller.tidy.results`.
    """
    codes, uniques = tx.distinct(values)
    texts = [_result_words(t) for t in _tricks_texts(uniques)]
    relative = [t is not None and _RELATIVE.match(t) is not None for t in texts]
    number = np.asarray(tx.numbers([None if r else t for t, r in zip(texts, relative,
                                                                      strict=True)]))
    rel = np.asarray(tx.numbers([("0" if t in ("=", "M") else t) if r else None
                                 for t, r in zip(texts, relative, strict=True)]))
    with np.errstate(invalid="ignore"):
        tricks = np.where(number == np.floor(np.where(np.isnan(number), 0, number)), number, np.nan)
    bad = np.array([t is not None for t in texts], dtype=bool) & np.isnan(tricks) & np.isnan(rel)
    index = values.index
    return (_whole_numbers(codes, tricks, index, "tricks"),
            _whole_numbers(codes, rel, index, "rel"),
            pd.Series(tx.spread(codes, bad, False, bool), index=index, name="bad"))


#: Result words: made (exactly) and n down, as directors write them.
_MADE = re.compile(r"^(?:MADE|MAKING|MADE IT|M|=)$")
_MADE_LEVEL = re.compile(r"^(?:MADE|MAKING|M)\s*([1-7])$")  # "Made 4": level 4 made, 10 tricks
_DOWN = re.compile(r"^(?:(?:D|DOWN|OFF)\s*(\d{1,2})|(\d{1,2})\s*(?:D|DN|DOWN|OFF))$")
_RELATIVE = re.compile(r"^(?:=|M|[+-]\d{1,2})$")
_SPACES = re.compile(r"\s+")


def _tricks_texts(uniques: list[object]) -> list[str | None]:
    """Cell text, upper case, with its minus sign and spaces made plain."""
    texts = tx.upper([tx.cell_text(u) for u in uniques])
    return [None if t is None else _SPACES.sub(" ", t.replace("−", "-")) for t in texts]


def _result_words(text: str | None) -> str | None:
    """'made', 'making' -> '='; '1 down', 'd1', 'down 1', '1 off' -> '-1'; others as they are."""
    if text is None:
        return None
    made = _MADE_LEVEL.match(text)
    if made is not None:
        return str(int(made.group(1)) + 6)
    down = _DOWN.search(text)
    if down is not None:
        text = "-" + (down.group(1) if down.group(1) is not None else down.group(2))
    return "=" if _MADE.match(text) else text


def display(level: np.ndarray, strain: np.ndarray, doubled: np.ndarray) -> Any:
    """Canonical contract text: 4S, 3NTX, 2HXX, PASS (built once per distinct contract).

    ``level`` and ``doubled`` are floats (NaN: none), ``strain`` codes into STRAINS
    (-1: none); returns a string array, missing where there is no level.
    """
    with np.errstate(invalid="ignore"):
        key = ((np.where(np.isnan(level), -1, level).astype(np.int64) + 1) * 100
               + (strain.astype(np.int64) + 1) * 10
               + np.where(np.isnan(doubled), 0, doubled).astype(np.int64))
    index, uniques = pd.factorize(key)
    labels: list[str | None] = []
    for k in uniques.tolist():
        lvl, s, dbl = k // 100 - 1, (k // 10) % 10 - 1, k % 10
        labels.append(None if lvl < 0 else "PASS" if lvl == 0 else
                      f"{lvl}{STRAINS[s]}{'X' * dbl}")
    return tx.spread_array(index, labels, "string")
