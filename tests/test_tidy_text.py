"""Cells read per distinct value in plain Python read exactly as pandas' string methods read them.

The normaliser parses each distinct cell with ``str`` methods and compiled
patterns (fast for small sessions). Each rule is restated here with the
vectorised pandas operations that define it (``astype("string")``,
``str.strip``, ``str.upper``, ``str.extract``, ``pd.to_numeric``) and both
are run on odd cells and on every distinct cell of the sample sessions.
"""

from __future__ import annotations

import datetime as dt

import numpy as np
import pandas as pd
import pyarrow as pa
import pytest
from conftest import SAMPLE_DATA

from traveller.read.load import read
from traveller.schema import NOTATIONS
from traveller.tidy import text as tx
from traveller.tidy.cells import integers, parse_tricks
from traveller.tidy.normalise import normalise
from traveller.tidy.notation import (
    PATTERNS,
    SEAT_WORDS,
    cell_text,
    clean,
    parse_contracts,
    parse_seats,
)

ODD = ["4S", " 4 s ", "4♠x", "3NT=", "N4SX-3", "4Px-2", "6§ с реконтрой", "6БК", "PASS", "-",
       "", "  ", "A+", "A60/40", "TD", "12", "12.0", " 7 ", "+3", "−2", "=", "M", "made",
       "1 down", "d1", "2 off", "inf", "-inf", "nan", "1e3", "1_000", "١٢", "٣.0", "10.5",
       "99999999999999999999", "-0", "00012", "1,000", "\t12\n", "12\x1c", "ß", "4ß", "ﬁ",
       "???", "North", "ЮГ", "С", "\u00a0", 12, 12.0, 12.5, -3, 0.0, 1e20, True, None, np.nan,
       dt.datetime(2024, 1, 4), float("inf")]
SESSIONS = ["club_session.xlsx", "club_session_pl.xlsx", "club_session_ru.csv",
            "problems_session.csv", "rulings_session.csv", "board8_protocol.csv"]


def pandas_cell_text(values: pd.Series) -> pd.Series:
    text = values.astype("string").str.strip()
    text = text.str.replace(r"^([+-]?\d+)\.0+$", r"\1", regex=True)
    return text.mask(text == "")


def distinct_cells() -> list[object]:
    """Every distinct cell of the sample sessions, plus the odd ones above."""
    cells: dict[object, None] = dict.fromkeys(str(c) if isinstance(c, str) else c for c in ODD
                                              if not isinstance(c, float) or c == c)
    for name in SESSIONS:
        for table in read(SAMPLE_DATA / name).tables:
            for column in table.frame.columns:
                if column != "row":
                    cells.update(dict.fromkeys(table.frame[column].dropna().tolist()))
    return [*cells, None]


CELLS = distinct_cells()


def test_upper_cases_every_character_as_pandas_does() -> None:
    letters = [chr(c) for c in range(0x20, 0x30000) if not 0xD800 <= c < 0xE000]
    texts = ["a" + c for c in letters]
    assert tx.upper(texts) == pd.Series(texts, dtype="string").str.upper().tolist()
    ascii_only = ["4s", "pass", "3nt=", None]
    assert tx.upper(ascii_only) == ["4S", "PASS", "3NT=", None]


def test_cell_text_as_pandas_strips_and_drops_a_trailing_zero() -> None:
    cells = pd.Series(CELLS, dtype=object)
    assert cell_text(cells).tolist() == pandas_cell_text(cells).tolist()


def test_whole_numbers_as_pandas_to_numeric_reads_them() -> None:
    cells = pd.Series(CELLS, dtype=object)
    text = pandas_cell_text(cells).str.replace("−", "-").str.replace(r"^\+", "", regex=True)
    number = pd.to_numeric(text, errors="coerce").astype("float64")
    whole = number.notna() & (number == np.floor(number.fillna(0))) & (number.abs() < 1e9)
    got, bad = integers(cells)
    assert got.tolist() == number.where(whole).astype("Int64").tolist()
    assert bad.tolist() == (text.notna() & ~whole).tolist()
    assert integers(pd.Series(["7", "+7", "7.0", " 7 ", "seven"]))[0].tolist() == [7, 7, 7, 7,
                                                                                   pd.NA]


def test_tricks_and_relative_results_as_written() -> None:
    cells = pd.Series(["10", "=", "M", "+1", "-2", "made", "1 down", "d3", "2 off", "10.5",
                       "x", None, "Made It", "13.0"])
    tricks, rel, bad = parse_tricks(cells)
    assert tricks.tolist() == [10] + [pd.NA] * 12 + [13]
    assert rel.tolist() == [pd.NA, 0, 0, 1, -2, 0, -1, -3, -2, pd.NA, pd.NA, pd.NA, 0, pd.NA]
    assert bad.tolist() == [False] * 9 + [True, True, False, False, False]


@pytest.mark.parametrize("notation", list(NOTATIONS))
def test_contracts_as_the_notation_pattern_extracts_them(notation: str) -> None:
    n = NOTATIONS[notation]
    cleaned = clean(pd.Series(CELLS, dtype=object))
    texts = cleaned.astype("string")
    parts = texts.str.extract(PATTERNS[notation].contract)
    got = parse_contracts(cleaned, notation)
    level = pd.to_numeric(parts["level"]).astype("Int8").mask(texts.isin(n.passes), 0)
    assert got["level"].tolist() == level.tolist()
    strain = parts["strain"].map(n.strains, na_action="ignore")
    assert got["strain"].tolist() == strain.astype("string").tolist()
    seat = parts["pre"].fillna(parts["post"]).map(n.seats, na_action="ignore")
    assert got["seat"].tolist() == seat.astype("string").tolist()
    cells = pd.Series(CELLS, dtype=object)
    words = cells.astype("string").str.strip().str.upper().map(SEAT_WORDS, na_action="ignore")
    seats = texts.map(n.seats, na_action="ignore").fillna(words)
    assert parse_seats(cells, notation).tolist() == seats.astype("string").tolist()


@pytest.mark.parametrize("name", SESSIONS)
def test_every_row_of_a_session_with_every_kind_of_cell_is_kept_or_listed(name: str) -> None:
    loaded = read(SAMPLE_DATA / name)
    norm = normalise(loaded)
    rows = {(t.file, r) for t in loaded.tables for r in t.frame["row"].tolist()}
    kept = set(zip(norm.travellers["file"], norm.travellers["row"], strict=True))
    blocked = norm.problems[norm.problems["blocking"].astype(bool)]
    listed = set(zip(blocked["file"], blocked["row"], strict=True))
    assert kept | listed == rows
    assert not kept & listed


def test_factorized_text_is_pandas_factorize() -> None:
    chunks = pa.chunked_array([pa.array(["4S", None, "3NT"], pa.large_string()),
                               pa.array(["3NT", "4S", "PASS"], pa.large_string())])
    for values in (pd.arrays.ArrowStringArray(chunks),
                   pd.array(["b", None, "a", "b"], dtype="str"),
                   pd.array([None, None], dtype="string"), pd.array([], dtype="string"),
                   pd.array([1, None, 1], dtype="Int64")):
        codes, uniques = values.factorize()
        got_codes, got_uniques = tx.factorized(values)
        assert got_codes.tolist() == codes.tolist()
        assert got_uniques == uniques.tolist()


def test_narrow_int_array_is_pandas_cast() -> None:
    from traveller.tidy.cells import int_array

    values = np.array([0.0, 7.0, np.nan, -3.0])
    for dtype in ("Int8", "Int16", "Int32"):
        got = int_array(values, dtype)
        expected = pd.array(int_array(values), dtype=dtype)
        assert got.dtype == expected.dtype
        pd.testing.assert_extension_array_equal(got, expected)
    with pytest.raises(TypeError):  # out of range: pandas' own cast refuses, as before
        int_array(np.array([300.0]), "Int8")
