"""The site's long tables' rows, each cell made once per distinct value of what it shows.

A board page's traveller and a pair page's score card have a row per result,
and a large session has hundreds of thousands of them; but a cell shows only
a few columns (a pair cell its section and pair number, a contract cell the
contract, declarer, tricks and ruling), whose combinations repeat: a session
of 100,000 results has a few hundred distinct contract cells. Each cell's
HTML is made (site_rows.py) for the first row of each distinct combination
of the columns it reads, then spread to every row, and the row is the cells
joined.

:func:`spread` tells values apart as their text would: ``0.0`` from ``-0.0``
(printed "-0"), ``1`` from ``1.0`` and from ``"1"``; missing values, which
every cell shows as nothing, alike.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from typing import TYPE_CHECKING, Any

import numpy as np
import pandas as pd

from traveller.publish import handrecord, shown
from traveller.publish.keys import group_ids
from traveller.publish.site_links import board_href, pair_href, pair_label, side_links
from traveller.publish.site_rows import (
    TEXT,
    cat,
    contract_cell,
    esc,
    num,
    pair_cell,
    suits,
    when,
)

if TYPE_CHECKING:
    from traveller.publish.site_links import Field

#: A cell: the columns it reads, and how it is made from rows holding them.
Cell = tuple[Sequence[str], Callable[[pd.DataFrame], Any]]


def spread(frame: pd.DataFrame, columns: Sequence[str],
           make: Callable[[pd.DataFrame], Any], codes: dict[str, Any] | None = None
           ) -> np.ndarray:
    """``make(rows)`` of the first row of each distinct combination of ``columns`` (rows
    holding those columns alone), spread to every row of ``frame`` (an array of Python
    strings); ``codes`` keeps each column's values as :func:`_key` gives them, for the
    next cell of the same rows."""
    if not len(frame):
        return _texts(make(frame.loc[:, list(columns)]))
    if not columns:  # the same for every row
        return np.repeat(_texts(make(frame.iloc[:1, :0])), len(frame))
    codes = {} if codes is None else codes
    for c in columns:
        if c not in codes:
            codes[c] = _key(frame[c])
    ids = group_ids(*(codes[c] for c in columns))
    firsts = np.unique(ids, return_index=True)[1]  # ids are numbered by first row
    return _texts(make(frame[list(columns)].iloc[firsts].reset_index(drop=True)))[ids]


def _texts(made: Any) -> np.ndarray:
    """A cell's texts as an array of Python strings (taken by row without copying text)."""
    return np.asarray(made, dtype=TEXT).astype(object)


def _key(column: pd.Series) -> Any:
    """The column as values that are equal when their text is (see the module)."""
    dtype = column.dtype
    if dtype.kind == "f" or isinstance(dtype, pd.Float64Dtype | pd.Float32Dtype):
        values = column.to_numpy(dtype=float, na_value=np.nan)
        bits = values.view(np.int64).copy()
        bits[np.isnan(values)] = 0x7FF8000000000000  # every missing value alike
        return bits
    if isinstance(dtype, np.dtype) and dtype.kind == "O":  # Python objects of any kind
        return pd.Series([(type(v).__name__, v) if not pd.isna(v) else None
                          for v in column.tolist()], dtype=object)
    return column  # numbers of one kind, texts, missing values


def rows_html(frame: pd.DataFrame, cells: Sequence[Cell], end: str = "</tr>\n",
              codes: dict[str, Any] | None = None) -> list[str]:
    """Each row of ``frame`` as its cells joined, then ``end`` (``codes``: :func:`spread`'s)."""
    codes = {} if codes is None else codes
    parts = [spread(frame, columns, make, codes).tolist() for columns, make in cells]
    return ["".join(row) + end for row in zip(*parts, strict=True)]


def traveller_cells(t: pd.DataFrame, field: Field, dd: pd.DataFrame | None,
                    dd_boards: Sequence[int], has_mp: bool, has_imps: bool,
                    has_lead: bool = True) -> list[Cell]:
    """A board page's traveller row, cell by cell (the first opens the ``<tr>``), from ``t``:
    the pairs, contract, declarer, lead (unless no result of the session has one:
    ``has_lead``) and result, tricks against double dummy on an analysed board (``dd``,
    ``dd_boards``), the scores, matchpoints and percentages, IMPs."""
    ruling = ["ruling"] if "ruling" in t else []
    play = ["contract", "declarer", "tricks"]

    def side(key: str) -> Callable[[pd.DataFrame], np.ndarray]:
        def make(s: pd.DataFrame) -> np.ndarray:
            href, names = side_links(s, field, key)
            return cat("<tr>" if key == "ns" else "", pair_cell(href, shown.text(s[f"{key}_pair"]),
                                                                 names))
        return make

    def contract(s: pd.DataFrame) -> np.ndarray:
        return contract_cell(shown.contracts(s["contract"]), shown.text(s["declarer"]),
                             shown.results(s["contract"], s["tricks"]),
                             shown.text(s["ruling"]) if ruling else "")

    def played(s: pd.DataFrame) -> np.ndarray:
        return cat('<td class="by">', esc(shown.text(s["declarer"])), "</td>",
                   _lead_cell(s, has_lead),
                   '<td class="result">', esc(shown.results(s["contract"], s["tricks"])),
                   "</td>")

    def vs_dd(s: pd.DataFrame) -> np.ndarray:
        analysed = s["board"].astype(int).isin(list(dd_boards)).to_numpy()
        return when(analysed, cat('<td class="vsdd">', esc(handrecord.vs_dd(s, dd)), "</td>"))

    def scores(s: pd.DataFrame) -> np.ndarray:
        ns_plus, ew_plus = shown.signed_sides(s["ns_score"])
        return cat(num(ns_plus), num(ew_plus))

    cells: list[Cell] = [(["section", "ns_pair"], side("ns")), (["section", "ew_pair"], side("ew")),
                         ([*play, *ruling], contract),
                         ([*play, "lead"] if has_lead else play, played)]
    if len(dd_boards):
        cells.append((["board", *play], vs_dd))
    cells.append((["ns_score"], scores))
    if has_mp:
        cells += [_number(c, shown.numbers) for c in ("ns_mp", "ew_mp")]
        cells += [_number(c, shown.percents) for c in ("ns_pct", "ew_pct")]
    if has_imps:
        cells += [_number(c, shown.numbers) for c in ("ns_imp", "ew_imp")]
    return cells


def _number(column: str, formatted: Callable[[pd.Series], pd.Series]) -> Cell:
    return [column], lambda s: num(formatted(s[column]))


def _lead_cell(s: pd.DataFrame, has_lead: bool) -> np.ndarray | str:
    """Each row's Lead cell, as the hand diagrams write the card; none at all when no
    result of the session has a lead (``has_lead``)."""
    return cat('<td class="lead">', suits(shown.leads(s["lead"])), "</td>") if has_lead else ""


def board_label(s: pd.DataFrame) -> pd.Series:
    """Each row's board as a page names it: its number, after its session in an event
    of several ("2/1": board 1 of session 2), as the board strip does."""
    number = shown.text(s["board"])
    return shown.text(s["session"]) + "/" + number if "session" in s else number


def card_cells(c: pd.DataFrame, field: Field, has_mp: bool, has_imps: bool,
               has_lead: bool = True) -> tuple[list[Cell], Cell, list[Cell]]:
    """A pair page's score card row in three parts, which site_rows.card_rows_html joins:
    the board and opponents cells, the Sitting cell, the contract to the end (no Lead
    cell when no result of the session has one: ``has_lead``); from score card rows ``c``.

    The Sitting cell comes after the opponents so that the total's heading spans the
    board and opponents alone whichever cells a narrow screen leaves out; there the
    line sat is folded beside the board number instead.
    """
    ruling = ["ruling"] if "ruling" in c else []
    result = ["result"] if "result" in c else []
    session = ["session"] if "session" in c else []

    def board(s: pd.DataFrame) -> np.ndarray:
        href = board_href(s.assign(board=s["board"].astype("Int64")))
        return cat('<tr><td><a href="', href, '">', esc(board_label(s)), "</a>")

    def opponent(s: pd.DataFrame) -> np.ndarray:
        other = s["line"].map({"NS": "EW", "EW": "NS"}).fillna("")
        label = pair_label(s["section"], other, s["opponent"])
        href = pair_href(s["section"], other, s["opponent"]).where(label.isin(field.known), "")
        names = label.map(field.names).astype(object).fillna("")
        return cat("</td>", pair_cell(href, shown.text(s["opponent"]), names))

    def contract(s: pd.DataFrame) -> np.ndarray:
        return contract_cell(shown.contracts(s["contract"]), shown.text(s["declarer"]),
                             shown.text(s["result"]) if result else "",
                             shown.text(s["ruling"]) if ruling else "")

    def played(s: pd.DataFrame) -> np.ndarray:
        return cat('<td class="by">', esc(shown.text(s["declarer"])), '</td><td class="result">',
                   esc(shown.text(s["result"]) if result else ""), "</td>",
                   _lead_cell(s, has_lead))

    front: list[Cell] = [([*session, "section", "board"], board),
                         (["section", "line", "opponent"], opponent)]
    sat: Cell = (["held"], lambda s: cat('<td class="held">', esc(shown.text(s["held"])),
                                         "</td>"))
    rest: list[Cell] = [(["contract", "declarer", *result, *ruling], contract),
                        (["declarer", *result, *(["lead"] if has_lead else [])], played),
                        (["score"], lambda s: num(shown.numbers(s["score"], signed=True)))]
    if has_mp:
        rest += [_number("mp", shown.numbers), _number("pct", shown.percents)]
    if has_imps:
        rest += [_number("imp", shown.numbers)]
    return front, sat, rest


def frequency_cells() -> list[Cell]:
    """A frequency table's row, cell by cell (the first opens the ``<tr>``): the N-S
    score (or the ruling instead), how many times, the matchpoints and percentages."""

    def score(s: pd.DataFrame) -> np.ndarray:
        ruling = esc(shown.text(s["ruling"]))
        return cat('<tr><td class="num">', when(ruling != "", ruling,
                                                esc(shown.numbers(s["ns_score"], signed=True))),
                   "</td>")

    return [(["ns_score", "ruling"], score),
            (["count"], lambda s: num(shown.text(s["count"]))),
            *(_number(c, shown.numbers) for c in ("ns_mp", "ew_mp")),
            *(_number(c, shown.percents) for c in ("ns_pct", "ew_pct"))]
