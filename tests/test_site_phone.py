"""Every page of the website on a 390 px phone, in headless Chromium: nothing is wider
than the screen and no table needs sideways scrolling (each page kind: the ranking,
boards, pairs, frequencies; IMPs; a batch's index; a simultaneous' ranking and clubs).

Needs Debian's ``chromium``; skipped without it unless ``TRAVELLER_REQUIRE_BROWSER``
is set.
"""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path

import pytest
from conftest import SAMPLE_DATA
from test_browser import Browser, chromium_path

pytestmark = pytest.mark.browser

PHONE = 390
#: The widest box of the page: the document, and each table's scrolling box.
WIDTHS = """(() => ({page: document.documentElement.scrollWidth,
  view: document.documentElement.clientWidth,
  boxes: [...document.querySelectorAll('.scroll, table')].map(e =>
      [e.tagName + '.' + e.className, e.scrollWidth, e.clientWidth,
       e.getBoundingClientRect().right])}))()"""


@pytest.fixture(scope="module")
def browser(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Browser]:
    b = Browser(chromium_path(), tmp_path_factory.mktemp("chromium-phone"))
    try:
        yield b
    finally:
        b.close()


def too_wide(browser: Browser, page: Path, width: int = PHONE) -> list[str]:
    """What on ``page`` is wider than the screen (empty when it all fits)."""
    browser.load(page.as_uri(), width)
    found = browser.evaluate(WIDTHS)
    out = []
    if found["page"] > width:
        out.append(f"{page.name}: the page is {found['page']} px wide")
    for name, scroll, client, right in found["boxes"]:
        if scroll > client + 1 or right > found["view"] + 1:
            out.append(f"{page.name}: {name} needs {scroll} px in {client} px (right {right})")
    return out


def session_site(folder: Path, **options: object) -> Path:
    from traveller.pipeline import process
    from traveller.publish.meta import Publication
    from traveller.publish.outputs import stamp
    from traveller.publish.site import write_site

    result = process(SAMPLE_DATA / "club_session.xlsx", names=SAMPLE_DATA / "names.csv",
                     **options)  # type: ignore[arg-type]
    stamp(result, Publication(title="Riverside Bridge Club - Tuesday pairs, 3 November 2026"))
    return write_site(result, folder)


# every page kind of both methods; the cross-IMP site (the same page kinds with IMP columns)
# in the slow run
@pytest.mark.parametrize("method", ["mp", pytest.param("ximp", marks=pytest.mark.slow)])
def test_every_page_fits_a_phone(browser: Browser, tmp_path: Path, method: str) -> None:
    site = session_site(tmp_path / "site", method=method,
                        hands=SAMPLE_DATA / "club_session_hands.pbn")
    pages = sorted(site.glob("*.html"))
    kinds = {p.name.split("-")[0].removesuffix(".html") for p in pages}
    assert {"index", "board", "pair"} <= kinds and ("frequencies" in kinds) == (method == "mp")
    wide = [line for page in pages for line in too_wide(browser, page)]
    assert wide == []
    desktop = [p for p in pages if p.name in ("index.html", "board-5.html", "pair-NS1.html")]
    assert [line for page in desktop for line in too_wide(browser, page, 1280)] == []
    # a tablet or a narrow window: the traveller with its names beside the pair numbers
    # once scrolled sideways from 481 to some 900 px
    between = [line for page in desktop for width in (600, 760, 900, 1000)
               for line in too_wide(browser, page, width)]
    assert between == []


@pytest.mark.slow  # several seconds: in .ci/run's slow part
def test_the_batch_index_and_a_simultaneous_fit_a_phone(browser: Browser,
                                                        tmp_path: Path) -> None:
    import shutil

    from test_sim import make_sim

    from traveller.batch.run import run_batch
    from traveller.sim.api import simultaneous

    inbox = tmp_path / "in" / "riverside"
    inbox.mkdir(parents=True)
    shutil.copy(SAMPLE_DATA / "club_session.xlsx", inbox / "tuesday.xlsx")
    (inbox / "traveller.toml").write_text('html = true\nclub = "Riverside Bridge Club"\n')
    (inbox / "broken.csv").write_text("Board,NS\n\x00,\n", encoding="utf-8")
    run_batch(tmp_path / "in", tmp_path / "out")
    sim = tmp_path / "sim"
    make_sim(sim / "in", 6)
    simultaneous(sim / "in", output=sim / "out", html=True)
    pages = [tmp_path / "out" / "index.html", sim / "out" / "index.html",
             sim / "out" / "clubs.html", *sorted((sim / "out" / "clubs").glob("*/index.html"))[:1],
             *sorted((sim / "out" / "clubs").glob("*/pair-*.html"))[:1]]
    assert all(p.exists() for p in pages)
    assert [line for page in pages for line in too_wide(browser, page)] == []


@pytest.mark.slow  # a browser sweep of a real 36-pair event: every page at two widths
def test_a_real_howell_with_deals_fits_a_phone_and_a_desktop(browser: Browser,
                                                            tmp_path: Path) -> None:
    """66 boards with deals, double dummy and par, 36 pairs who change lines."""
    from conftest import real_file

    from traveller.pipeline import process
    from traveller.publish.site import write_site

    site = write_site(process(real_file("pbn-ruter", "sm1.pbn")), tmp_path / "site")
    pages = sorted(site.glob("*.html"))
    assert [line for page in pages for line in too_wide(browser, page)] == []
    some = [p for p in pages if p.name in ("index.html", "board-21.html", "pair-23.html")]
    assert [line for page in some for line in too_wide(browser, page, 1280)] == []


@pytest.mark.slow  # a real teams match's pages at two widths
def test_a_teams_match_fits_a_phone(browser: Browser, tmp_path: Path) -> None:
    """The ranking of teams has more figures (matches, IMPs won and lost, quotient); a
    phone keeps the VP and the IMPs and folds the rest."""
    from conftest import real_file

    from traveller.pipeline import process
    from traveller.publish.site import write_site

    result = process(real_file("pbn-teams-itt1998", "98ITTF1.PBN"), method="teams")
    site = write_site(result, tmp_path / "site")
    pages = [site / "index.html", site / "board-1.html"]
    assert [line for page in pages for line in too_wide(browser, page)] == []
    assert [line for page in pages for line in too_wide(browser, page, 1280)] == []


def test_a_teams_match_fits_a_phone_with_whole_headings(browser: Browser,
                                                         tmp_path: Path) -> None:
    """The team trials' ranking and a board at 390 px: nothing too wide, and the Names
    heading on one line (it broke as "Name" over "s")."""
    from conftest import real_file

    from traveller.pipeline import Options, process
    from traveller.publish.site import write_site

    result = process(real_file("pbn-teams-itt1998", "98ITTF1.PBN"), dd=False,
                     options=Options(method="teams"))
    site = write_site(result, tmp_path / "site")
    pages = [site / "index.html", site / "board-1.html"]
    assert [line for page in pages for line in too_wide(browser, page)] == []
    browser.load(pages[0].as_uri(), PHONE)
    lines = browser.evaluate("""(() => { const r = document.createRange();
      r.selectNodeContents(document.querySelector('th.names'));
      return new Set([...r.getClientRects()].map(b => Math.round(b.top))).size; })()""")
    assert lines == 1
