"""A simultaneous pairs as a static website (``traveller sim --html``).

- ``OUTDIR/index.html`` and ``ranking-N.html``: the national ranking, a page
  of :data:`PAGE_SIZE` places each (a national field can hold hundreds of
  thousands of pairs); each pair's club links to the club's own site;
- ``OUTDIR/clubs.html``: every club file with its results, pairs, status (the
  reason when it failed) and links to its site and workbook;
- ``OUTDIR/clubs/CLUB/``: each club's session site (ranking, boards, pair
  cards, frequencies), written by :func:`traveller.publish.site.write_site`
  beside the club's workbook, by the worker that wrote the workbook.

The pages are those of ``traveller score --html``: Jinja2 with autoescaping,
no JavaScript, nothing loaded from elsewhere, one stylesheet.
"""

from __future__ import annotations

from importlib import resources
from pathlib import Path
from typing import Any

import pandas as pd

from traveller.batch.manifest import write_atomic
from traveller.publish.shown import counted
from traveller.publish.site import STYLESHEET, environment
from traveller.sim.outputs import national_header
from traveller.words import places

#: Places per national ranking page.
PAGE_SIZE = 500
CLUBS_PAGE = "clubs.html"
RANKING_TITLE = "Simultaneous pairs: national ranking"


def club_site(book: str) -> str:
    """A club's site folder under OUTDIR, from its workbook's name."""
    return f"clubs/{Path(book).stem}"


def _site_href(outdir: Path, book: str) -> str:
    """The link to a club's site from OUTDIR, or "" when its site was not written."""
    site = club_site(book)
    return f"{site}/index.html" if book and (outdir / site / "index.html").exists() else ""


def _page_name(number: int) -> str:
    return "index.html" if number == 1 else f"ranking-{number}.html"


def _nav(current: str) -> str:
    mark = ' aria-current="page"' if current == "clubs" else ""
    return f'<a href="{CLUBS_PAGE}"{mark}>Clubs</a>'


def _common(title: str, method: str, page: str) -> dict[str, Any]:
    return {"meta": {"title": title, "date": "", "club": "", "status": ""},
            "method": method, "stylesheet": STYLESHEET, "page": page, "freq": False,
            "boards_nav": _nav(page)}


def _rows(frame: pd.DataFrame, links: dict[int, str]) -> list[dict[str, Any]]:
    out = frame.assign(
        national=frame["national"].astype(float).map(lambda v: "" if pd.isna(v) else places(v)),
        href=frame["club_id"].map(lambda i: links.get(i, "")))
    return out.astype({"section": str, "names": str}).to_dict("records")


def write_pages(ranking: pd.DataFrame, clubs: pd.DataFrame, books: dict[int, str],
                outdir: Path, method: str, method_line: str) -> list[Path]:
    """The national ranking pages and the clubs page; returns the files written.

    ``ranking`` is the national ranking with ``club_id``; ``clubs`` the summary
    (one line per club file); ``books`` each club's workbook name by club id.
    A club links to its site only when the site was written.
    """
    links = {i: _site_href(outdir, book) for i, book in books.items()}
    ok = int((clubs["status"] != "failed").sum())
    counts = (f"{counted(len(ranking), 'pair')} from {counted(ok, 'club')}, "
              f"{counted(int(clubs['results'].sum()), 'result')}")
    numbers = range(1, max(1, -(-len(ranking) // PAGE_SIZE)) + 1)
    pages: list[dict[str, Any]] = [
        {"number": n, "href": _page_name(n),
         "label": f"{(n - 1) * PAGE_SIZE + 1}\u2013{min(n * PAGE_SIZE, len(ranking))}"}
        for n in numbers]
    template = environment().get_template("sim_ranking.html")
    sections = bool(ranking["section"].ne("").any())
    written = []
    for number in numbers:
        part = ranking.iloc[(number - 1) * PAGE_SIZE:number * PAGE_SIZE]
        text = template.render(**_common(RANKING_TITLE, method_line, "ranking"), counts=counts,
                               pages=pages, number=number, rows=_rows(part, links),
                               sections=sections, figure_heading=national_header(method))
        written.append(write_atomic(outdir / _page_name(number), text))
    written.append(write_atomic(outdir / CLUBS_PAGE,
                                _clubs_page(clubs, outdir, counts, method_line)))
    css = resources.files("traveller.publish").joinpath("templates", STYLESHEET)
    written.append(write_atomic(outdir / STYLESHEET, css.read_text(encoding="utf-8")))
    return written


def _clubs_page(clubs: pd.DataFrame, outdir: Path, counts: str, method_line: str) -> str:
    rows = []
    for row in clubs.itertuples():
        book = Path(row.workbook).name if row.workbook else ""
        rows.append({"club": row.club, "results": row.results, "pairs": row.pairs,
                     "status": f"failed: {row.reason}" if row.status == "failed" else row.status,
                     "book": book, "workbook": f"clubs/{book}" if book else "",
                     "site": _site_href(outdir, book)})
    return environment().get_template("sim_clubs.html").render(
        **_common("Simultaneous pairs: clubs", method_line, "clubs"), counts=counts,
        clubs=rows)


def method_text(method: str, scale: str) -> str:
    """The line under the title: how the field was scored."""
    return {"mp": f"Matchpoints ({scale}) over the whole field",
            "ximp": "Cross-IMPs over the whole field",
            "butler": "Butler IMPs over the whole field"}[method]
