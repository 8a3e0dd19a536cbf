"""A static results website for one session: ranking, boards, pairs, frequencies.

``write_site(result, folder)`` writes plain HTML pages and one stylesheet:

- ``index.html``: the ranking (names, score, %, places, ties as ``2=``), the
  method line, a bar chart of the field's percentages and links to every board;
- ``board-<section>-<n>.html``: dealer, vulnerability, the hands when the input
  has them, and each result: contract in suit symbols, declarer, lead, result,
  N-S + and E-W + scores, matchpoints (or IMPs) and percentages;
- ``pair-<section>-<line><n>.html``: the pair's score card with opponents'
  names, a chart of its board-by-board percentages, and its total;
- ``frequencies.html``: each board's scores, how often, their matchpoints;
- ``director.html``: the problems found and the session summary. No public
  page links to it.

Pages are rendered by Jinja2 with autoescaping (every text from the input
shows as text), need no JavaScript, load nothing from elsewhere (works from a
USB stick or ``file://``), fit a 390 px phone and print without navigation.
The site is written into a temporary folder beside ``folder`` and swapped in.
"""

from __future__ import annotations

import functools
import os
import shutil
import tempfile
from collections.abc import Callable
from importlib import resources
from pathlib import Path
from typing import TYPE_CHECKING, Any

import jinja2
import markupsafe
import pandas as pd

from traveller.publish import cards, shown
from traveller.publish.meta import META_KEYS
from traveller.publish.site_model import (
    LINES,
    boards,
    card_rows,
    grouped,
    method_line,
    pair_label,
    ranking_groups,
    traveller_rows,
)

if TYPE_CHECKING:
    from traveller.result import Result

STYLESHEET = "style.css"
DIRECTOR_PAGE = "director.html"
#: Marks a folder as a site written here, so that only such a folder is ever replaced.
MARKER = ".traveller-site"


@functools.cache
def environment() -> jinja2.Environment:
    """The template environment: package templates, autoescaping on, strict variables."""
    env = jinja2.Environment(loader=jinja2.PackageLoader("traveller.publish", "templates"),
                             autoescape=True, undefined=jinja2.StrictUndefined,
                             trim_blocks=True, lstrip_blocks=True)
    env.filters["suits"] = suit_markup
    return env


def suit_markup(value: object) -> markupsafe.Markup:
    """Escape a text, then colour its red suit symbols (hearts, diamonds)."""
    html = str(markupsafe.escape(str(value)))  # escaped first: only our span is markup
    for symbol in ("♥", "♦"):
        html = html.replace(symbol, f'<span class="red">{symbol}</span>')
    return markupsafe.Markup(html)


def _pairs(result: Result, groups: dict[str, Any], cards: pd.DataFrame) -> list[dict[str, Any]]:
    """One dict per ranked pair: its ranking row and its card rows."""
    by_key = {part[0]["key"]: part for part in grouped(cards.to_dict("records"),
                                                        lambda r: r["key"])}
    pairs = []
    for group in groups["groups"] if "pair" in result.ranking else []:
        for row in group["rows"]:
            key = f"{row['section']}|{row['line']}|{row['pair']}"
            label = " ".join(x for x in (row["section"], LINES[row["line"]], row["pair"]) if x)
            pairs.append({**row, "label": label, "cards": by_key.get(key, [])})
    return pairs


def _frequencies(result: Result, board_links: dict[tuple[str, int], str]) -> list[dict[str, Any]]:
    if "ns_mp" not in result.travellers or "session" in result.travellers:
        return []
    f = cards.result_frequencies(result)
    rows = pd.DataFrame({
        "section": shown.text(f["section"]), "board": f["board"].astype(int),
        "score": shown.numbers(f["ns_score"], signed=True), "ruling": shown.text(f["ruling"]),
        "count": shown.text(f["count"]), "ns_mp": shown.numbers(f["ns_mp"]),
        "ew_mp": shown.numbers(f["ew_mp"]), "ns_pct": shown.percents(f["ns_pct"]),
        "ew_pct": shown.percents(f["ew_pct"])})
    parts = grouped(rows.to_dict("records"), lambda r: (r["section"], r["board"]))
    return [{"section": part[0]["section"], "board": part[0]["board"], "rows": part,
             "href": board_links.get((part[0]["section"], part[0]["board"]), "")}
            for part in parts]


def _director(result: Result) -> dict[str, Any]:
    problems = result.problems.astype("string").fillna("").to_dict("records")
    try:
        summary = cards.result_summary(result).astype("string").fillna("").to_dict("records")
    except (KeyError, ValueError):  # a method without matchpoints has no common top
        summary = []
    return {"problems": problems, "summary": summary}


def site_pages(result: Result) -> dict[str, str]:
    """Every page of the site: file name -> HTML text."""
    env = environment()
    rows = traveller_rows(result)
    board_list = boards(result, rows)
    groups = ranking_groups(result)
    pairs = _pairs(result, groups, card_rows(result, rows))
    common = {"meta": {k: result.meta.get(k, "") for k in META_KEYS},
              "method": method_line(result), "boards": board_list,
              "stylesheet": STYLESHEET, "score_heading": groups["score_heading"],
              "has_imps": "ns_imp" in rows,
              "has_mp": "ns_mp" in rows, "sessions": "session" in rows,
              "freq": "ns_mp" in rows and "session" not in rows,
              "who": "Player" if result.settings.get("individual") else "Pair"}
    common["boards_nav"] = env.get_template("nav.html").render(**common)  # once, not per page
    links = {(b["section"], b["board"]): b["href"] for b in board_list}
    pages = {"index.html": env.get_template("ranking.html").render(
        **common, ranking=groups, page="ranking")}
    board_page = env.get_template("board.html")
    for board in board_list:
        pages[board["href"]] = board_page.render(**common, board=board, page="board")
    pair_page = env.get_template("pair.html")
    for pair in pairs:
        pages[pair["href"]] = pair_page.render(**common, pair=pair, page="pair", links=links)
    if common["freq"]:
        pages["frequencies.html"] = env.get_template("frequencies.html").render(
            **common, frequencies=_frequencies(result, links), page="frequencies")
    pages[DIRECTOR_PAGE] = env.get_template("director.html").render(
        **common, page="director", source=result.source, **_director(result))
    return pages


def write_site(result: Result, folder: str | Path,
               progress: Callable[[int, int], None] | None = None) -> Path:
    """Write the session's website into ``folder`` (replaced as a whole); returns it.

    ``progress(pages done, pages)`` is called as the pages are written.

    >>> write_site(process("sample_data/club_session.xlsx"), "site")  # doctest: +SKIP
    """
    folder = Path(folder)
    check_site_folder(folder)
    pages = site_pages(result)
    folder.parent.mkdir(parents=True, exist_ok=True)
    tmp = Path(tempfile.mkdtemp(prefix=f".{folder.name}.", suffix=".tmp", dir=folder.parent))
    try:
        for done, (name, html) in enumerate(pages.items(), start=1):
            (tmp / name).write_text(html, encoding="utf-8")
            if progress is not None:
                progress(done, len(pages))
        css = resources.files("traveller.publish").joinpath("templates", STYLESHEET)
        (tmp / STYLESHEET).write_text(css.read_text(encoding="utf-8"), encoding="utf-8")
        (tmp / MARKER).write_text("written by traveller; replaced as a whole on each run\n",
                                  encoding="utf-8")
        os.chmod(tmp, 0o755)  # mkdtemp makes it private; a website is for reading
        _swap(tmp, folder)
    except BaseException:
        shutil.rmtree(tmp, ignore_errors=True)
        raise
    return folder


def check_site_folder(folder: str | Path) -> None:
    """Raise FileExistsError unless ``folder`` is new, empty, or a site written here."""
    folder = Path(folder)
    if folder.exists() and not folder.is_dir():
        raise FileExistsError(f"{folder}: exists and is not a folder; choose another --html")
    if folder.is_dir() and any(folder.iterdir()) and not (folder / MARKER).exists():
        raise FileExistsError(f"{folder}: the folder holds other files and no site written "
                              "by traveller; give a new or empty folder for --html")


def _swap(new: Path, folder: Path) -> None:
    """Put ``new`` in place of ``folder``: the old site is moved aside, then removed."""
    check_site_folder(folder)
    old = None
    if folder.exists():
        old = Path(tempfile.mkdtemp(prefix=f".{folder.name}.", suffix=".old", dir=folder.parent))
        os.replace(folder, old / "site")
    os.replace(new, folder)
    if old is not None:
        shutil.rmtree(old, ignore_errors=True)


__all__ = ["DIRECTOR_PAGE", "pair_label", "site_pages", "write_site"]
