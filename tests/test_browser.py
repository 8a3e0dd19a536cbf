"""The results website in a real browser: headless Chromium driven over the DevTools protocol.

One site (the sample session, with a hostile pair name) and a handful of page
loads: the DOM shows every pair's percentage and links every board, nothing
logs an error, no request leaves the machine (every URL is file://), no
script runs (an alert would open a dialog), and screenshots at 390 px and
desktop width go to ``test-artifacts/browser/`` (or $TRAVELLER_ARTIFACTS).

Needs Debian's ``chromium``; skipped without it, except when
``TRAVELLER_REQUIRE_BROWSER`` is set (.ci/run sets it, so CI never skips).
"""

from __future__ import annotations

import base64
import contextlib
import itertools
import json
import os
import shutil
import subprocess
import time
import urllib.request
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from conftest import REPO, SAMPLE_DATA

pytestmark = pytest.mark.browser

HOSTILE = "<script>alert(1)</script>"
LINK_NAME = "http://example.com/x"


def chromium_path() -> str:
    found = shutil.which("chromium") or shutil.which("chromium-browser")
    if found is None:
        if os.environ.get("TRAVELLER_REQUIRE_BROWSER"):
            pytest.fail("chromium is not installed and TRAVELLER_REQUIRE_BROWSER is set")
        pytest.skip("chromium not installed (apt-get install chromium)")
    return found


class Browser:
    """A headless Chromium and one page, spoken to over a DevTools websocket."""

    def __init__(self, binary: str, profile: Path) -> None:
        import websocket  # websocket-client, a test dependency

        self.proc = subprocess.Popen(
            [binary, "--headless", "--no-sandbox", "--disable-gpu", "--no-first-run",
             "--disable-extensions", "--disable-background-networking", "--disable-sync",
             "--remote-debugging-port=0", f"--user-data-dir={profile}", "about:blank"],
            stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
        port_file = profile / "DevToolsActivePort"
        deadline = time.monotonic() + 30
        while not port_file.exists() or not port_file.read_text().strip():
            if time.monotonic() > deadline or self.proc.poll() is not None:
                self.close()
                raise RuntimeError("chromium did not start its DevTools endpoint")
            time.sleep(0.05)
        port = port_file.read_text().split()[0]
        with urllib.request.urlopen(f"http://127.0.0.1:{port}/json/list", timeout=10) as r:
            pages = [t for t in json.load(r) if t.get("type") == "page"]
        self.ws = websocket.create_connection(pages[0]["webSocketDebuggerUrl"], timeout=30,
                                              suppress_origin=True)
        self.ids = itertools.count(1)
        self.events: list[dict[str, Any]] = []
        for method in ("Page.enable", "Runtime.enable", "Network.enable", "Log.enable"):
            self.send(method)

    def send(self, method: str, **params: Any) -> dict[str, Any]:
        """Call a DevTools method and return its result (events seen meanwhile are kept)."""
        number = next(self.ids)
        self.ws.send(json.dumps({"id": number, "method": method, "params": params}))
        while True:
            message = json.loads(self.ws.recv())
            if message.get("id") == number:
                if "error" in message:
                    raise RuntimeError(f"{method}: {message['error']}")
                return message.get("result", {})
            self.events.append(message)

    def load(self, url: str, width: int) -> None:
        """Open ``url`` at ``width`` CSS pixels and wait for its load event."""
        self.send("Emulation.setDeviceMetricsOverride", width=width, height=900,
                  deviceScaleFactor=1, mobile=width < 500)
        self.events.clear()
        self.send("Page.navigate", url=url)
        deadline = time.monotonic() + 30
        while not any(e.get("method") == "Page.loadEventFired" for e in self.events):
            if time.monotonic() > deadline:
                raise TimeoutError(f"{url} did not load")
            event = json.loads(self.ws.recv())
            self.events.append(event)
            if event.get("method") == "Page.javascriptDialogOpening":  # a script ran: noted
                self.send("Page.handleJavaScriptDialog", accept=True)  # in problems()

    def evaluate(self, expression: str) -> Any:
        result = self.send("Runtime.evaluate", expression=expression, returnByValue=True)
        return result["result"].get("value")

    def screenshot(self, path: Path) -> None:
        data = self.send("Page.captureScreenshot", format="png", captureBeyondViewport=True)
        path.write_bytes(base64.b64decode(data["data"]))

    def problems(self) -> list[str]:
        """Console errors, exceptions, dialogs and requests that are not file:// URLs."""
        found = []
        for e in self.events:
            method, params = e.get("method"), e.get("params", {})
            if method == "Network.requestWillBeSent":
                url = params["request"]["url"]
                if not url.startswith(("file://", "data:")):
                    found.append(f"request left the machine: {url}")
            elif method == "Runtime.consoleAPICalled" and params.get("type") in ("error",
                                                                                "warning"):
                found.append(f"console {params['type']}: {params.get('args')}")
            elif method == "Log.entryAdded" and params["entry"]["level"] in ("error",
                                                                            "warning"):
                found.append(f"log: {params['entry'].get('text')}")
            elif method in ("Runtime.exceptionThrown", "Page.javascriptDialogOpening"):
                found.append(f"{method}: {params}")
        return found

    def close(self) -> None:
        if getattr(self, "ws", None) is not None:
            with contextlib.suppress(Exception):
                self.ws.close()
        self.proc.terminate()
        try:
            self.proc.wait(timeout=10)
        except subprocess.TimeoutExpired:
            self.proc.kill()


@pytest.fixture(scope="module")
def site(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """The sample session's website, pair NS 1 named with a script tag and a link."""
    from traveller.pipeline import process
    from traveller.publish.meta import Publication
    from traveller.publish.outputs import stamp
    from traveller.publish.site import write_site

    folder = tmp_path_factory.mktemp("site")
    names = folder / "names.csv"
    text = (SAMPLE_DATA / "names.csv").read_text(encoding="utf-8")
    names.write_text(text.replace("Anna Nowak,Piotr Smith", f'"{HOSTILE}",{LINK_NAME}'),
                     encoding="utf-8")
    result = process(SAMPLE_DATA / "club_session.csv", names=names)
    stamp(result, Publication(title="Riverside <b>Tuesday</b>", club="Riverside BC"))
    return write_site(result, folder / "site")


@pytest.fixture(scope="module")
def browser(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Browser]:
    binary = chromium_path()
    b = Browser(binary, tmp_path_factory.mktemp("chromium-profile"))
    try:
        yield b
    finally:
        b.close()


@pytest.fixture(scope="module")
def artefacts() -> Path:
    folder = Path(os.environ.get("TRAVELLER_ARTIFACTS", REPO / "test-artifacts")) / "browser"
    folder.mkdir(parents=True, exist_ok=True)
    return folder


RANKING_DOM = """(() => {
  const rows = [...document.querySelectorAll('table.ranking tbody tr')].map(tr =>
      [...tr.cells].map(td => td.textContent.trim()));
  return {rows, boards: [...document.querySelectorAll('ul.boards a')].map(a =>
      a.getAttribute('href')), scripts: document.scripts.length,
      bars: document.querySelectorAll('figure.chart rect').length,
      external: [...document.querySelectorAll('a[href^=http]')].length,
      width: document.documentElement.scrollWidth, title: document.querySelector('h1').textContent,
      status: document.querySelector('.status').textContent,
      css: getComputedStyle(document.body).maxWidth}; })()"""


def test_ranking_page_in_chromium(browser: Browser, site: Path, artefacts: Path) -> None:
    for width in (390, 1280):
        browser.load((site / "index.html").as_uri(), width)
        dom = browser.evaluate(RANKING_DOM)
        assert browser.problems() == []
        assert len(dom["rows"]) == 16  # every pair, each with its % (2 decimals) and place
        assert all(r[-1].count(".") == 1 and r[-1].replace(".", "").isdigit() for r in dom["rows"])
        assert all(r[0].rstrip("=").isdigit() for r in dom["rows"])
        assert dom["boards"] == [f"board-{n}.html" for n in range(1, 25)]
        assert dom["bars"] == 16
        assert dom["scripts"] == 0 and dom["external"] == 0
        assert dom["title"] == "Riverside <b>Tuesday</b>"  # shown as text
        assert dom["status"].startswith("Provisional results — corrections until ")
        assert dom["css"] != "none"  # the stylesheet loaded (file://, no CDN)
        assert dom["width"] <= width  # nothing wider than the screen
        browser.screenshot(artefacts / f"ranking-{width}.png")
        names = [r[2] for r in dom["rows"]]
        assert f"{HOSTILE} – {LINK_NAME}" in names  # the script tag is text, the URL no link


def test_board_and_pair_pages_in_chromium(browser: Browser, site: Path, artefacts: Path) -> None:
    browser.load((site / "board-5.html").as_uri(), 390)
    board = browser.evaluate("""(() => ({
      rows: document.querySelectorAll('table.traveller tbody tr').length,
      head: [...document.querySelectorAll('table.traveller th')].map(th => th.textContent),
      conditions: document.querySelector('.conditions').textContent,
      red: document.querySelectorAll('table.traveller .red').length,
      pairs: document.querySelectorAll('table.traveller a[href^="pair-"]').length,
      width: document.documentElement.scrollWidth}))()""")
    assert browser.problems() == []
    assert board["rows"] == 8 and board["pairs"] == 16
    assert board["width"] <= 390  # the traveller scrolls inside its box, the page does not
    assert board["head"][:8] == ["N-S", "E-W", "Contract", "By", "Lead", "Result", "N-S +",
                                 "E-W +"]
    assert board["conditions"] == "Dealer North · Vulnerable: N-S"
    browser.screenshot(artefacts / "board-390.png")
    browser.load((site / "pair-NS1.html").as_uri(), 1280)
    card = browser.evaluate("""(() => ({
      rows: document.querySelectorAll('table.scorecard tbody tr').length,
      bars: document.querySelectorAll('figure.chart rect').length,
      heading: document.querySelector('h2').textContent,
      boards: document.querySelectorAll('table.scorecard a[href^="board-"]').length}))()""")
    assert browser.problems() == []
    assert card["rows"] == 24 and card["boards"] == 24 and card["bars"] == 24
    assert card["heading"] == f"Pair N-S 1: {HOSTILE} – {LINK_NAME}"
    browser.screenshot(artefacts / "pair-1280.png")


def test_director_page_is_outside_the_site(browser: Browser, site: Path) -> None:
    from traveller.pipeline import process
    from traveller.publish.director_page import write_director_page

    page = write_director_page(process(SAMPLE_DATA / "club_session.csv"),
                               site.parent / "results.director.html", site=site)
    browser.load(page.as_uri(), 1280)
    assert browser.problems() == []  # its styles are inside it (the CSP allows no other)
    assert "No problems" in browser.evaluate("document.body.textContent")
    assert browser.evaluate("getComputedStyle(document.body).maxWidth") != "none"
    assert browser.evaluate("document.querySelector('main a').href") == (site / "index.html"
                                                                          ).as_uri()
    for html in site.glob("*.html"):
        assert "director" not in html.read_text(encoding="utf-8"), html.name


@pytest.mark.dd
def test_board_page_with_deal_dd_and_par_in_chromium(browser: Browser, artefacts: Path,
                                                     tmp_path: Path) -> None:
    from test_hands_session import DEAL_1, DEAL_2, hand_record, session

    from traveller.pipeline import process
    from traveller.publish.site import write_site

    result = process(session(), hands=hand_record(tmp_path, {1: DEAL_1, 2: DEAL_2}))
    site = write_site(result, tmp_path / "site")
    for width in (390, 1280):
        browser.load((site / "board-1.html").as_uri(), width)
        page = browser.evaluate("""(() => ({
          hands: document.querySelectorAll('.deal .hand').length,
          dd: [...document.querySelectorAll('table.dd tbody tr')].map(tr =>
              [...tr.cells].map(td => td.textContent)),
          par: document.querySelector('p.par').textContent,
          parRow: [...document.querySelector('tr.par-row').cells].map(td => td.textContent),
          vsdd: [...document.querySelectorAll('tr:not(.par-row) td.vsdd')].map(t => t.textContent),
          width: document.documentElement.scrollWidth}))()""")
        assert browser.problems() == []
        assert page["hands"] == 4 and page["width"] <= width
        assert page["dd"][0] == ["N", "7", "4", "7", "7", "5"]  # N: C D H S NT
        assert page["par"] == "Par E-W +120: 2NT by E/W"
        assert page["parRow"][:2] == ["Par", "2NT by E/W"]
        assert sorted(page["vsdd"]) == ["=", "=", "=", "−1"]  # 8, 8, 8, 7 tricks; W makes 8 in NT
        browser.screenshot(artefacts / f"board-dd-{width}.png")
