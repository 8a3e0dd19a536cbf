"""The site's long tables made once per distinct cell (publish/site_cells.py): each row's
HTML is the same as when the row is made on its own."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import numpy as np
import pandas as pd
import pytest
from conftest import SAMPLE_DATA

from traveller import process
from traveller.publish import shown
from traveller.publish.site_cells import (
    card_cells,
    frequency_cells,
    rows_html,
    spread,
    traveller_cells,
)
from traveller.publish.site_links import Field


def _alone(frame: pd.DataFrame, columns: list[str], make: Any) -> list[str]:
    """Each row's cell made from that row alone."""
    return [next(iter(make(frame.iloc[[i]][columns].reset_index(drop=True))))
            for i in range(len(frame))]


def test_numbers_that_print_apart_are_kept_apart() -> None:
    # 0.0 and -0.0 (which a cache by value could mix up) both print "0", as a spreadsheet
    # shows them, with or without a sign on the others; every missing value prints nothing
    frame = pd.DataFrame({"v": pd.array([0.0, -0.0, None, 1.5, 0.0, -0.0, np.nan],
                                        dtype="Float64"),
                          "f": [0.0, -0.0, np.nan, 1.5, 0.0, -0.0, np.nan]})
    for column in ("v", "f"):
        def make(s: pd.DataFrame, c: str = column) -> pd.Series:
            return shown.numbers(s[c], signed=True)

        got = spread(frame, [column], make).tolist()
        assert got == make(frame).tolist() == _alone(frame, [column], make)
        assert got[:2] == ["0", "0"] and got[3] == "+1.50"


def test_python_objects_of_other_kinds_are_kept_apart() -> None:
    # 1, 1.0, True and "1" are equal as keys of a dict, not as texts
    frame = pd.DataFrame({"o": pd.Series([1, 1.0, "1", True, None, np.nan, 1], dtype=object)})

    def make(s: pd.DataFrame) -> list[str]:
        return [repr(v) if not pd.isna(v) else "" for v in s["o"]]

    assert spread(frame, ["o"], make).tolist() == ["1", "1.0", "'1'", "True", "", "", "1"]


def test_a_cell_of_several_columns_and_one_of_none() -> None:
    frame = pd.DataFrame({"a": ["x", "x", "y", "x"], "b": pd.array([1, 2, 1, 1], dtype="Int64")})

    def make(s: pd.DataFrame) -> pd.Series:
        return s["a"] + s["b"].astype(str)

    assert spread(frame, ["a", "b"], make).tolist() == ["x1", "x2", "y1", "x1"]
    assert spread(frame, [], lambda s: ["same"]).tolist() == ["same"] * 4
    assert spread(frame.iloc[:0], ["a"], lambda s: s["a"]).tolist() == []
    with pytest.raises(KeyError):  # a cell reads only the columns it names
        spread(frame, ["a"], lambda s: s["a"] + s["b"].astype(str))


def _undivided(frame: pd.DataFrame, cells: Any, end: str = "</tr>\n") -> list[str]:
    """The rows with every cell made for all rows at once (no value made once for many)."""
    parts = [list(make(frame[list(columns)])) for columns, make in cells]
    return ["".join(map(str, row)) + end for row in zip(*parts, strict=True)]


@pytest.mark.parametrize("name, options", [("club_session.xlsx", {}),
                                           ("rulings_session.csv", {"method": "ximp"}),
                                           ("problems_session.csv", {})])
def test_traveller_and_card_rows_are_the_rows_made_alone(name: str, options: Any) -> None:
    result = process(SAMPLE_DATA / name, dd=False, **options)
    t, field = result.travellers.reset_index(drop=True), Field.of(result)
    cells = traveller_cells(t, field, None, [], "ns_mp" in t, "ns_imp" in t)
    whole = rows_html(t, cells)
    assert len(set(whole)) == len(whole) == len(t)  # (a real session: every row differs)
    assert whole == _undivided(t, cells)
    assert [rows_html(t.iloc[[i]].reset_index(drop=True), cells)[0] for i in (0, 7, 50)] == [
        whole[0], whole[7], whole[50]]  # and a row alone is made as in the session
    c = result.score_cards  # (the cells a pair page has: the method's figures, as there)
    first, sat, rest = card_cells(c, field, "ns_mp" in t, "ns_imp" in t)
    assert rows_html(c, [*first, sat, *rest]) == _undivided(c, [*first, sat, *rest])
    if "ns_mp" in t:
        f = result.frequencies
        assert rows_html(f, frequency_cells()) == _undivided(f, frequency_cells())


def test_numbers_round_as_the_workbook_shows_them() -> None:
    """Text outputs (pages, PBN, USEBIO) print a number as a spreadsheet shows the
    workbook's cell: to two places, a half rounded away from zero on its decimal value
    (printf would round 158.625 to even, 158.62, and 79.975 down, its float being
    79.97499...)."""
    from decimal import ROUND_HALF_UP, Decimal

    rng = np.random.default_rng(7)
    values = np.concatenate([np.round(rng.uniform(-2000, 2000, 2000), 3),  # halves abound
                             rng.uniform(-100, 100, 2000), np.arange(-8, 9) / 8,
                             [158.625, 79.975, 1.005, 84.125, 0.0, 1e-12]])
    for signed in (False, True):
        expected = [format(Decimal(f"{v:.15g}").quantize(Decimal("0.01"), ROUND_HALF_UP),
                           "+.2f" if signed else ".2f") for v in values.tolist()]
        expected = [e.replace("+-", "-") if v else "0.00"  # 0 unsigned, as a sheet shows it
                    for e, v in zip(expected, values.tolist(), strict=True)]
        assert shown.fixed(values, 2, signed).tolist() == expected
    assert shown.percents(pd.Series([158.625, 14.125, None])).tolist() == ["158.63",
                                                                             "14.13", ""]


def test_the_page_and_the_workbook_print_the_same_factored_matchpoints(tmp_path: Path) -> None:
    """The Warsaw session's pair 6 played 24 of 27 boards: 141 MP factored to 158.625,
    which the Ranking sheet shows as 158.63; so does the page."""
    import openpyxl
    from conftest import real_file

    from traveller.publish.site import site_pages

    result = process(real_file("pary-jfr-warsaw", "wb120802.csv"))
    row = result.ranking.set_index("pair").loc[6]
    assert (row["boards"], row["mp"], row["mp_factored"]) == (24, 141, 158.625)
    page = site_pages(result)["index.html"]
    assert '<td class="num">158.63</td>' in page and "158.62" not in page
    book = openpyxl.load_workbook(result.to_excel(tmp_path / "w.xlsx"), read_only=True)
    cells = [c for r in book["Ranking"].iter_rows() for c in r if c.value == 158.625]
    book.close()
    assert [c.number_format for c in cells] == ["0.00"]  # shown as 158.63


def test_a_number_close_to_a_whole_one_keeps_its_decimals() -> None:
    """1352.99 is no whole number: the page printed it as 1353 (a relative tolerance of
    1e-5 called it whole), the workbook as 1352.99. A number loses its decimals only
    when they print as zeros."""
    column = pd.Series([1352.9886302294196, 99999.5, 191.0000000001, 2.999, 8.4, -16.0])
    assert shown.numbers(column).tolist() == ["1352.99", "99999.50", "191", "3", "8.40",
                                              "-16"]
    assert shown.numbers(pd.Series([420.0, 0.0, -50.0]), signed=True).tolist() == [
        "+420", "0", "-50"]  # zero unsigned, as the workbook's signed format shows it


def test_a_ranking_column_with_fractions_keeps_two_decimals_on_every_row(
        tmp_path: Path) -> None:
    """A board played fewer times gives fractional matchpoints: the page showed 22 above
    22.33 in one column, where the Ranking sheet prints 22.00."""
    from traveller.publish.site import site_pages

    assert shown.numbers(pd.Series([22.333, 22.0, float("nan")]), together=True).tolist() == [
        "22.33", "22.00", ""]
    assert shown.numbers(pd.Series([22.0, 17.0]), together=True).tolist() == ["22", "17"]
    rows = [[b, t, (t + b) % 4 + 1, "4S", "N", 10 - (t + b) % 3]
            for b in range(1, 9) for t in range(1, 5)][1:]  # board 1 played three times
    path = tmp_path / "t.csv"
    path.write_text("Board,NS,EW,Contract,By,Tricks\n"
                    + "".join(",".join(map(str, r)) + "\n" for r in rows), encoding="utf-8")
    result = process(path)
    mp = result.ranking["mp"]
    assert (mp != mp.round()).any() and (mp == mp.round()).any()
    page = site_pages(result)["index.html"]
    for value in mp:
        assert f'<td class="num">{value:.2f}</td>' in page


def test_places_is_the_one_rounding_of_every_text_output() -> None:
    from traveller.words import places

    assert [places(v) for v in (158.625, 79.975, -0.125, 2.675, 0.0)] == [
        "158.63", "79.98", "-0.13", "2.68", "0.00"]
    assert places(2.5, 0) == "3" and places(-2.5, 0) == "-3" and places(7.0, 0, True) == "+7"
    assert places(float("inf")) == "inf"
