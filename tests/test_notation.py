"""Contract, seat, result and lead notation (README, "What it reads")."""

from __future__ import annotations

import pandas as pd
import pytest

from traveller.tidy.notation import (
    clean,
    detect,
    is_adjusted,
    parse_contracts,
    parse_leads,
    parse_seats,
)


def parsed(text: str, notation: str = "en") -> list[object]:
    row = parse_contracts(clean(pd.Series([text])), notation).iloc[0]
    return [None if pd.isna(v) else v for v in row.tolist()]


@pytest.mark.parametrize(("text", "expected"), [
    ("3NT", [3, "NT", 0, None, None]),
    ("3N", [3, "NT", 0, None, None]),
    ("3 NT", [3, "NT", 0, None, None]),
    ("4S", [4, "S", 0, None, None]),
    ("4♠", [4, "S", 0, None, None]),
    ("4SX", [4, "S", 1, None, None]),
    ("4Sx", [4, "S", 1, None, None]),
    ("4S*", [4, "S", 1, None, None]),
    ("4 S x", [4, "S", 1, None, None]),
    ("2HXX", [2, "H", 2, None, None]),
    ("2H**", [2, "H", 2, None, None]),
    ("2HR", [2, "H", 2, None, None]),
    ("PASS", [0, None, 0, None, None]),
    ("AP", [0, None, 0, None, None]),
    ("P/O", [0, None, 0, None, None]),
    ("4S+1", [4, "S", 0, None, 1]),
    ("4SX-2", [4, "S", 1, None, -2]),
    ("3NTW=", [3, "NT", 0, "W", 0]),
    ("N4SX-3", [4, "S", 1, "N", -3]),
    ("4SN", [4, "S", 0, "N", None]),
    ("3NT=", [3, "NT", 0, None, 0]),
    ("5H×", [5, "H", 1, None, None]),
    ("3SA", [3, "NT", 0, None, None]),
    ("6♦\ufe0f", [6, "D", 0, None, None]),
])
def test_english_forms(text: str, expected: list[object]) -> None:
    assert parsed(text) == expected


@pytest.mark.parametrize(("text", "notation", "expected"), [
    ("4Px-2", "pl", [4, "S", 1, None, -2]),
    ("3BA=", "pl", [3, "NT", 0, None, 0]),
    ("2C+1", "pl", [2, "H", 0, None, 1]),
    ("1T", "pl", [1, "C", 0, None, None]),
    ("5K", "pl", [5, "D", 0, None, None]),
    ("6§ с реконтрой", "ru", [6, "C", 2, None, None]),
    ("4П с контрой", "ru", [4, "S", 1, None, None]),
    ("6БК", "ru", [6, "NT", 0, None, None]),
    ("2Тр", "ru", [2, "C", 0, None, None]),
    ("3Ч", "ru", [3, "H", 0, None, None]),
    ("1Б", "ru", [1, "D", 0, None, None]),
])
def test_polish_and_russian_forms(text: str, notation: str, expected: list[object]) -> None:
    assert parsed(text, notation) == expected


@pytest.mark.parametrize("text", ["4Z", "8S", "0NT", "4SXXX", "S4", "4S+", "hello"])
def test_unreadable_contracts(text: str) -> None:
    assert parsed(text)[0] is None


def test_seats_and_leads() -> None:
    assert parse_seats(pd.Series(["n", " S", "Q", None]), "en").tolist() == ["N", "S", pd.NA,
                                                                            pd.NA]
    assert parse_seats(pd.Series(["Ю", "С", "З", "В"]), "ru").tolist() == list("SNWE")
    leads = parse_leads(pd.Series(["SA", "S4", "H10", "HT", "♠A", "A♠", "xx"]), "en")
    assert leads.tolist() == ["SA", "S4", "HT", "HT", "SA", "SA", pd.NA]
    assert parse_leads(pd.Series(["¨В", "©Д", "§Т"]), "ru").tolist() == ["DJ", "HQ", "CA"]


def test_adjusted_markers() -> None:
    marks = clean(pd.Series(["A+", "A=", "A-", "A60/40", "A6040", "60%-40%", "AVE+", "AVE",
                             "NP", "TD", "4S", "PASS"]))
    assert is_adjusted(marks).tolist() == [True] * 10 + [False, False]


def test_detection_picks_the_notation_that_reads_the_sheet() -> None:
    assert detect(clean(pd.Series(["2C", "3NT", "4S"])))[0] == "en"
    assert detect(clean(pd.Series(["4P", "2C", "3BA"])))[0] == "pl"
    assert detect(clean(pd.Series(["6§ с реконтрой", "6БК"])))[0] == "ru"


def test_a_sheet_read_two_ways_is_refused_not_guessed() -> None:
    name, choices = detect(clean(pd.Series(["2C", "3C", "1C"])))
    assert name is None
    assert choices == ["en", "pl"]


def test_one_stray_cell_does_not_switch_a_sheet_to_another_notation() -> None:
    # English 2C and 5C, one typed 3P: Polish reads one more distinct contract and
    # would score every 2C as two hearts; the rows only Polish reads (1) are fewer
    # than the rows the two read differently (3), so the sheet reads two ways
    english = ["2C", "3NT", "5C", "2C", "3NT", "3NT", "3NT", "3P"]
    assert detect(clean(pd.Series(english))) == (None, ["pl", "en"])
    # a Polish sheet with a few hearts contracts (C) is Polish: its spades and no
    # trumps outnumber the rows the two read differently
    polish = ["4P", "4P", "3BA", "2C", "4P", "3BA", "2K", "2C"]
    assert detect(clean(pd.Series(polish))) == ("pl", [])
    # leads only one notation reads are evidence too: an English lead column keeps
    # the sheet English whatever one stray contract says
    leads = clean(pd.Series(["SK", "HA", "D2", "C3", "SQ", "H4", "DA", "S5"]))
    assert detect(clean(pd.Series(english)), None, leads) == ("en", [])


def test_glyph_only_sheets_read_the_same_in_every_notation() -> None:
    assert detect(clean(pd.Series(["4♠", "3♥"]))) == ("en", [])
