"""The same figure reads the same in every output: the website's ranking is the
workbook's Ranking sheet, as a spreadsheet shows its cells, for the samples and the
real published files (every method the files are scored by).

A page and a printed sheet that disagree by a hundredth are two published results;
this found a page that printed 1352.99 matchpoints as 1353 and one that rounded
158.625 to 158.62 beside the sheet's 158.63.
"""

from __future__ import annotations

import re
from decimal import ROUND_HALF_UP, Decimal
from pathlib import Path
from typing import Any

import openpyxl
import pytest
from conftest import REAL_DATA, SAMPLE_DATA

from traveller.pipeline import process
from traveller.publish.site import site_pages

pytestmark = pytest.mark.slow

SAMPLES: list[tuple[Path, dict[str, Any]]] = [(SAMPLE_DATA / n, {}) for n in (
    "club_session.csv", "club_session_pl.xlsx", "problems_session.csv",
    "rulings_session.csv", "individual_session.csv", "board8_protocol.csv")]
SAMPLES += [(SAMPLE_DATA / "club_session.csv", {"method": m}) for m in ("ximp", "butler",
                                                                        "total")]
SAMPLES += [(SAMPLE_DATA / "chicago_russian.csv", {"method": "russian"})]
REAL: list[tuple[str, dict[str, Any]]] = [
        ("pary-jfr-szczyrk-butler/input.csv", {}), ("pary-jfr-warsaw/wb120802.csv", {}),
        ("pary-jfr-warsaw/html/wb120802.pbn", {}), ("pbn-ruter/sm1.pbn", {}),
        ("pbn-ruter/butler.pbn", {}), ("usebio-compscore/mp_pairs_mitchell.xml", {}),
        ("usebio-compscore/mp_pairs_howell.xml", {}),
        ("usebio-compscore/mp_pairs_mitchell_adjusted_02.xml", {}),
        ("usebio-compscore/butler_mitchell.xml", {}),
        ("usebio-compscore/cross_imp_howell.xml", {}),
        ("pbn-teams-itt1998/98ITTF2.PBN", {"method": "teams"})]

_NUMBER = re.compile(r"[+-]?[\d,]+(\.\d+)?")


def _page_rows(result: Any) -> list[dict[str, str]]:
    """The index page's ranking rows, each as {header: cell text}."""
    page = site_pages(result)["index.html"]
    rows = []
    for table in re.split(r'<table class="ranking[^"]*">', page)[1:]:  # (teams: "ranking teams")
        lines = re.findall(r"<tr>(.*?)</tr>", table.split("</table>", 1)[0], re.S)
        cells = [[re.sub(r"<[^>]+>", "", c).strip() for c in
                  re.findall(r"<t[hd][^>]*>(.*?)</t[hd]>", line)] for line in lines]
        rows += [dict(zip(cells[0], row, strict=True)) for row in cells[1:]]
    assert rows, "no ranking table found on the index page"  # (never a comparison of none)
    return rows


def _shown(value: Any, number_format: str) -> float | str:
    """A cell's number as a spreadsheet shows it under ``number_format``."""
    if not isinstance(value, int | float) or isinstance(value, bool):
        return "" if value is None else str(value)
    places = len(number_format.split(".")[1].split(";")[0]) if "." in number_format else 0
    if number_format == "General":
        return float(value)
    step = Decimal(1).scaleb(-places)
    return float(Decimal(f"{float(value):.15g}").quantize(step, ROUND_HALF_UP))


def _sheet_rows(result: Any, tmp_path: Path) -> list[dict[str, float | str]]:
    """The Ranking sheet's pair rows, each as {header: value as shown}."""
    book = openpyxl.load_workbook(result.to_excel(tmp_path / "r.xlsx"))
    rows: list[dict[str, float | str]] = []
    header: list[str] = []
    for line in book["Ranking"].iter_rows():
        first = line[0].value
        if first == "Place":
            header = [str(c.value or "") for c in line]
        elif header and first not in (None, "") and len(line) >= len(header) and (
                line[1].value not in (None, "")):
            rows.append({h: _shown(c.value, c.number_format)
                         for h, c in zip(header, line, strict=False) if h})
    book.close()
    return rows


def _cases() -> list[Any]:
    cases = [pytest.param(p, kw, id=f"{p.name}-{kw.get('method', 'mp')}") for p, kw in SAMPLES]
    for name, kw in REAL:
        path = REAL_DATA / name
        cases.append(pytest.param(path, kw, id=path.name, marks=pytest.mark.skipif(
            not path.exists(), reason=f"real data not present: {path}")))
    return cases


@pytest.mark.parametrize(("path", "options"), _cases())
def test_the_ranking_page_shows_the_ranking_sheets_figures(path: Path, options: dict[str, Any],
                                                           tmp_path: Path) -> None:
    result = process(path, dd=False, **options)
    page, sheet = _page_rows(result), _sheet_rows(result, tmp_path)
    assert len(page) == len(sheet) == len(result.ranking)
    compared = 0
    for shown, written in zip(page, sheet, strict=True):
        for header, text in shown.items():
            if header not in written or header == "Names":
                continue
            value = written[header]
            if isinstance(value, float):
                assert _NUMBER.fullmatch(text), (header, shown, written)
                assert float(text.replace(",", "")) == value, (header, shown, written)
            else:  # text on both: the place ("6="), the team
                assert text == value, (header, shown, written)
            compared += 1
    assert compared >= 3 * len(page)  # place, pair and the figures, on every line


def _words(header: str) -> frozenset[str]:
    """A header's words ("MP N-S" and "N-S MP" name one column)."""
    return frozenset(header.replace("%", " % ").split())


def _board_rows(result: Any) -> dict[tuple[int, str, str], dict[frozenset[str], str]]:
    """Every board page's result rows: (board, N-S, E-W) -> {header words: cell text}."""
    rows = {}
    for name, page in site_pages(result).items():
        found = re.fullmatch(r"board-(\d+)\.html", name)
        if found is None or '<table class="traveller"' not in page:
            continue
        table = page.split('<table class="traveller"', 1)[1].split("</table>", 1)[0]
        lines = re.findall(r"<tr[^>]*>(.*?)</tr>", table, re.S)
        cells = [[re.sub(r"<[^>]+>", "", c).strip() for c in
                  re.findall(r"<t[hd][^>]*>(.*?)</t[hd]>", line, re.S)] for line in lines]
        header = [_words(h) for h in cells[0]]
        for row in cells[1:]:
            shown = dict(zip(header, row, strict=True))
            ns, ew = (re.sub(r"\D.*", "", shown[_words(s)]) for s in ("N-S", "E-W"))
            rows[(int(found.group(1)), ns, ew)] = shown  # (the pair's number, not names)
    return rows


def _travellers_rows(result: Any, tmp_path: Path
                     ) -> dict[tuple[int, str, str], dict[frozenset[str], float | str]]:
    """The Travellers sheet's result rows: (board, N-S, E-W) -> {header words: as shown}."""
    book = openpyxl.load_workbook(result.to_excel(tmp_path / "t.xlsx"))
    rows = {}
    header: list[frozenset[str]] = []
    for line in book["Travellers"].iter_rows():
        if line[0].value == "Board":
            header = [_words(str(c.value or "")) for c in line]
        elif header and isinstance(line[0].value, int):
            shown = {h: _shown(c.value, c.number_format) for h, c in zip(header, line,
                                                                         strict=False)}
            ns, ew = (str(shown[_words(s)]).removesuffix(".0") for s in ("N-S", "E-W"))
            rows[(line[0].value, ns, ew)] = shown
    book.close()
    return rows


BOARD_CASES = [c for c in _cases() if "individual" not in str(c.values[0])]


@pytest.mark.parametrize(("path", "options"), BOARD_CASES)
def test_every_board_page_shows_the_travellers_sheets_figures(path: Path,
                                                               options: dict[str, Any],
                                                               tmp_path: Path) -> None:
    """Each result's score, matchpoints, IMPs and percentages on its board's page are the
    Travellers sheet's (a single-section session: a board page per board number)."""
    result = process(path, dd=False, **options)
    if result.travellers["section"].nunique() > 1:
        pytest.skip("sections: a board page per section and board")
    pages, sheet = _board_rows(result), _travellers_rows(result, tmp_path)
    assert pages.keys() <= sheet.keys() and len(pages) >= len(result.travellers) - 5
    compared = 0
    for key, shown in pages.items():
        written = sheet[key]
        plus = {s: shown.get(_words(f"{s} +"), "") for s in ("N-S", "E-W")}
        if any(_NUMBER.fullmatch(v) for v in plus.values()) and isinstance(
                written.get(_words("N-S score")), float):
            score = (float(plus["N-S"].replace(",", "")) if plus["N-S"]
                     else -float(plus["E-W"].replace(",", "")))
            assert score == written[_words("N-S score")], (key, shown, written)
            compared += 1
        for words, text in shown.items():
            value = written.get(words)
            if isinstance(value, float) and _NUMBER.fullmatch(text) and words != _words("N-S") \
                    and words != _words("E-W"):
                assert float(text.replace(",", "")) == value, (key, words, shown, written)
                compared += 1
    # the score; its MP or IMPs (a teams match's IMPs are its boards', not a row's)
    figures = 1 if options.get("method") in ("total", "teams") else 3
    assert compared >= figures * len(pages)
