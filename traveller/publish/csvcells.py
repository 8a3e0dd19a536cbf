"""CSV cells that a spreadsheet opens as the text they are, never as a formula.

Every CSV traveller writes (the side files of a huge workbook, the batch's
changes report, the simultaneous pairs' rankings) goes through here, following
OWASP's advice on CSV injection: a text cell starting with ``=``, ``+``,
``-``, ``@``, a tab or a carriage return gets a leading ``'``, so ``=1+1 –
Anna`` is written ``'=1+1 – Anna`` and LibreOffice or Excel shows it as typed
instead of computing it. A plain number (``-420``, ``+150``, ``2.5``) is left
as it is: it is not a formula, and the column stays numeric. The CSV writer's
own quoting keeps a comma or quote inside a cell from starting a new one.
"""

from __future__ import annotations

import re
from collections.abc import Callable
from pathlib import Path
from typing import Any

import numpy as np
import pandas as pd

#: First characters a spreadsheet may read as the start of a formula.
FORMULA_START = ("=", "+", "-", "@", "\t", "\r")
_PLAIN_NUMBER = re.compile(r"[+-]?(?:\d+(?:[.,]\d+)?|\.\d+)")


def inert(value: Any) -> Any:
    """One cell: a text that could start a formula gets a leading ``'``; others as given."""
    if not isinstance(value, str):
        return value
    if value.startswith(FORMULA_START) and not _PLAIN_NUMBER.fullmatch(value):
        return "'" + value
    return value


def inert_column(column: pd.Series) -> pd.Series:
    """A column with :func:`inert` applied to its text cells (numbers untouched).

    Done in Arrow: a million cells take a fraction of a second.
    """
    import pyarrow as pa
    import pyarrow.compute as pc

    if not (pd.api.types.is_object_dtype(column) or pd.api.types.is_string_dtype(column)):
        return column
    cells = column.astype(object)
    try:
        text = pa.array(cells, type=pa.string(), from_pandas=True)
    except (pa.ArrowInvalid, pa.ArrowTypeError):  # numbers among the texts: those stay
        text = pa.array([v if isinstance(v, str) else None for v in cells], type=pa.string())
    first = pc.utf8_slice_codeunits(text, 0, 1)
    risky = pc.and_(pc.is_in(first, value_set=pa.array(FORMULA_START)),
                    pc.invert(pc.match_substring_regex(text, f"^(?:{_PLAIN_NUMBER.pattern})$")))
    mask = np.asarray(pc.fill_null(risky, False).to_numpy(zero_copy_only=False), dtype=bool)
    if not mask.any():
        return column
    quoted = pc.binary_join_element_wise("'", pc.filter(text, pa.array(mask)), "")
    out = cells.to_numpy(dtype=object, copy=True)
    out[mask] = quoted.to_numpy(zero_copy_only=False)
    return pd.Series(out, index=column.index, name=column.name, dtype=object)


def inert_frame(frame: pd.DataFrame) -> pd.DataFrame:
    """Every text column of ``frame`` through :func:`inert_column` (headers too)."""
    out = frame.copy() if len(frame.columns) else frame
    for name in frame.columns:
        out[name] = inert_column(frame[name])
    out.columns = [inert(c) for c in frame.columns]
    return out


#: Rows made safe and converted at a time when a frame is written as CSV.
CSV_ROWS = 65_536


def write_csv(frame: pd.DataFrame, path: str | Path, rows: int = CSV_ROWS,
              progress: Callable[[int], None] | None = None) -> None:
    """``frame`` as CSV at ``path``, every cell through :func:`inert`, ``rows`` at a time:
    the file one pass over the whole frame writes, without a copy of the whole frame.
    ``progress(rows written)`` is called after each part (from 0 again should pyarrow
    give up on a column and pandas write the file instead)."""
    import pyarrow as pa
    import pyarrow.csv as pa_csv

    try:  # pyarrow writes a million rows in a second, pandas in ten
        schema = _arrow_schema(frame)
        with pa_csv.CSVWriter(path, schema) as out:
            for at in range(0, len(frame), rows):
                part = inert_frame(frame.iloc[at:at + rows])
                out.write_table(pa.Table.from_pandas(part, preserve_index=False).cast(schema))
                if progress is not None:
                    progress(min(at + rows, len(frame)))
    except (pa.ArrowInvalid, pa.ArrowTypeError, pa.ArrowNotImplementedError):
        # a column of numbers and texts: pandas writes each cell as it is
        with open(path, "w", newline="", encoding="utf-8") as handle:
            for at in range(0, max(len(frame), 1), rows):
                inert_frame(frame.iloc[at:at + rows]).to_csv(handle, index=False,
                                                             header=at == 0)
                if progress is not None:
                    progress(min(at + rows, len(frame)))


def _arrow_schema(frame: pd.DataFrame) -> Any:
    """Each column's Arrow type as the whole frame would convert (texts as ``string``, a
    column of Python objects as their values say), the headers made safe."""
    import pyarrow as pa

    fields = []
    for name, values in frame.items():
        if pd.api.types.is_object_dtype(values.dtype):
            kind = pa.infer_type(values.to_numpy(dtype=object), from_pandas=True)
        elif pd.api.types.is_string_dtype(values.dtype):
            kind = pa.string()
        else:
            kind = pa.Schema.from_pandas(values.iloc[:0].to_frame(),
                                         preserve_index=False).field(0).type
        fields.append(pa.field(str(inert(name)), kind))
    return pa.schema(fields)
