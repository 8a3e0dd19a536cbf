"""Per-column cell parsing: whole numbers, tricks or relative results, text.

Every parser works per distinct value (the columns are categoricals), so a
million rows cost what their few hundred distinct cells cost.
"""

from __future__ import annotations

import numpy as np
import pandas as pd

from traveller.schema import STRAINS
from traveller.score.table import codes
from traveller.tidy.notation import cell_text, per_unique

_RELATIVE = r"^(?:=|M|[+-]\d{1,2})$"


def col(frame: pd.DataFrame, name: str) -> pd.Series:
    if name in frame:
        return frame[name]
    return pd.Series(pd.NA, index=frame.index, dtype="object")


def first(cells: pd.Series, other: pd.Series) -> pd.Series:
    """Each row's cell from ``cells``, else from ``other`` (as read, for messages)."""
    return cells.astype(object).fillna(other.astype(object))


def as_text(values: pd.Series) -> pd.Series:
    """Cells as stripped text; numbers lose a trailing .0 (Excel stores 12 as 12.0)."""
    return per_unique(values, cell_text).astype("string")


#: The largest board or pair number taken as one (larger ones are listed as bad).
MAX_NUMBER = 99_999


def integers(values: pd.Series) -> tuple[pd.Series, pd.Series]:
    """Whole numbers from cells; returns (numbers, bad) where bad marks unreadable non-blanks."""
    parsed = per_unique(values, _integers_unique)
    return parsed["number"].astype("Int64"), parsed["bad"].fillna(False).astype(bool)


def _integers_unique(values: pd.Series) -> pd.DataFrame:
    text = cell_text(values).str.replace("−", "-").str.replace(r"^\+", "", regex=True)
    number = pd.to_numeric(text, errors="coerce").astype("float64")
    # beyond a billion is no board, pair or score: read as unreadable, not overflowed
    whole = number.notna() & (number == np.floor(number.fillna(0))) & (number.abs() < 1e9)
    return pd.DataFrame({"number": number.where(whole).astype("Int64"),
                         "bad": text.notna() & ~whole})


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
    parsed = per_unique(values, _tricks_unique)
    return (parsed["tricks"].astype("Int64"), parsed["rel"].astype("Int64"),
            parsed["bad"].fillna(False).astype(bool))


#: Result words: made (exactly) and n down, as directors write them.
_MADE = r"^(?:MADE|MAKING|MADE IT|M|=)$"
_DOWN = r"^(?:(?:D|DOWN|OFF)\s*(\d{1,2})|(\d{1,2})\s*(?:D|DN|DOWN|OFF))$"


def _result_words(text: pd.Series) -> pd.Series:
    """'made', 'making' -> '='; '1 down', 'd1', 'down 1', '1 off' -> '-1'; others as they are."""
    down = text.str.extract(_DOWN)
    count = down[0].fillna(down[1])
    text = text.mask(count.notna(), "-" + count)
    return text.mask(text.str.match(_MADE).fillna(False).astype(bool), "=")


def _tricks_unique(values: pd.Series) -> pd.DataFrame:
    text = _result_words(cell_text(values).str.upper().str.replace("−", "-")
                         .str.replace(r"\s+", " ", regex=True))
    relative = text.str.match(_RELATIVE).fillna(False).astype(bool)
    numbers = pd.to_numeric(text.where(~relative), errors="coerce")
    rel = pd.to_numeric(text.where(relative).replace({"=": "0", "M": "0"}), errors="coerce")
    tricks = numbers.where(numbers == np.floor(numbers.fillna(0)))
    return pd.DataFrame({
        "tricks": tricks.astype("Int64"), "rel": rel.astype("Int64"),
        "bad": text.notna() & tricks.isna() & rel.isna(),
    })


def display(level: pd.Series, strain: pd.Series, doubled: pd.Series) -> pd.Series:
    """Canonical contract text: 4S, 3NTX, 2HXX, PASS (built once per distinct contract)."""
    key = ((level.to_numpy(dtype=np.int64, na_value=-1) + 1) * 100
           + (codes(strain, STRAINS).astype(np.int64) + 1) * 10
           + doubled.to_numpy(dtype=np.int64, na_value=0))
    index, uniques = pd.factorize(key)
    labels: list[str | None] = []
    for k in uniques.tolist():
        lvl, s, dbl = k // 100 - 1, (k // 10) % 10 - 1, k % 10
        labels.append(None if lvl < 0 else "PASS" if lvl == 0 else
                      f"{lvl}{STRAINS[s]}{'X' * dbl}")
    return pd.Series(pd.array(labels, dtype="string").take(index), index=level.index)
