"""The site's tables as a screen reader and an accessibility checker read them: every
header cell has a scope, every table a caption, a total is a data cell under a row
header; the pages pass html-validate and axe-core when those are installed."""

from __future__ import annotations

import json
import os
import shutil
import subprocess
from html.parser import HTMLParser
from pathlib import Path

import pytest
from conftest import REPO, SAMPLE_DATA

from traveller.pipeline import process
from traveller.publish.director_page import write_director_page
from traveller.publish.site import site_pages, write_site


class Tables(HTMLParser):
    """Per table: its caption text, the scope of each th, and the cells of its tfoot."""

    def __init__(self) -> None:
        super().__init__()
        self.tables: list[dict[str, list[str]]] = []
        self.part = ""
        self.in_caption = False

    def handle_starttag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        a = dict(attrs)
        if tag == "table":
            self.tables.append({"caption": [], "scopes": [], "foot": [], "first": []})
        elif not self.tables:
            return
        table = self.tables[-1]
        if tag in ("thead", "tbody", "tfoot"):
            self.part = tag
        if tag == "caption":
            self.in_caption = True
        if not table["first"] and tag not in ("table",):
            table["first"].append(tag)
        if tag == "th":
            table["scopes"].append(a.get("scope") or "")
        if tag in ("th", "td") and self.part == "tfoot":
            table["foot"].append(f"{tag}:{a.get('scope') or ''}")

    def handle_endtag(self, tag: str) -> None:
        if tag == "caption":
            self.in_caption = False
        if tag in ("thead", "tbody", "tfoot"):
            self.part = ""

    def handle_data(self, data: str) -> None:
        if self.in_caption and self.tables:
            self.tables[-1]["caption"].append(data.strip())


@pytest.mark.parametrize("method", ["mp", "ximp"])
def test_every_table_has_a_caption_and_scoped_headers(method: str) -> None:
    pages = site_pages(process(SAMPLE_DATA / "club_session.csv", method=method))
    seen = 0
    for name, html in pages.items():
        parser = Tables()
        parser.feed(html)
        for table in parser.tables:
            seen += 1
            assert table["first"] == ["caption"] and "".join(table["caption"]), name
            assert table["scopes"] and set(table["scopes"]) <= {"col", "row"}, name
            if table["foot"]:  # the total: one row header, the figures as data cells
                assert table["foot"][0] == "th:row", name
                assert all(c == "td:" for c in table["foot"][1:]), name
    assert seen > 40
    card = site_pages(process(SAMPLE_DATA / "club_session.csv"))["pair-NS1.html"]
    assert '<th scope="row" colspan="2">Total (24 boards)</th><td></td>' in card


def tool(name: str) -> Path:
    """An npm tool from node_modules ($TRAVELLER_NODE_MODULES or the repo's); the test is
    skipped without it, or fails when TRAVELLER_REQUIRE_A11Y is set (.ci/run sets it)."""
    for root in (os.environ.get("TRAVELLER_NODE_MODULES"), REPO / "node_modules"):
        if root and (Path(root) / name).exists() and shutil.which("node"):
            return Path(root) / name
    message = f"{name} not installed (npm install --no-save html-validate axe-core)"
    if os.environ.get("TRAVELLER_REQUIRE_A11Y"):
        pytest.fail(message + " and TRAVELLER_REQUIRE_A11Y is set")
    pytest.skip(message)


@pytest.fixture(scope="module")
def site(tmp_path_factory: pytest.TempPathFactory) -> Path:
    folder = tmp_path_factory.mktemp("a11y")
    result = process(SAMPLE_DATA / "problems_session.csv", names=SAMPLE_DATA / "names.csv")
    site = write_site(result, folder / "site")
    write_director_page(result, folder / "results.director.html", site=site)
    return site


def test_pages_pass_html_validate(site: Path, tmp_path: Path) -> None:
    binary = tool(".bin/html-validate")
    config = tmp_path / "htmlvalidate.json"  # the recommended rules, header scopes enforced
    config.write_text(json.dumps({"extends": ["html-validate:recommended"],
                                  "rules": {"wcag/h63": "error", "wcag/h32": "error"}}))
    pages = sorted(str(p) for p in [*site.glob("*.html"), *site.parent.glob("*.html")])
    done = subprocess.run([str(binary), "--config", str(config), *pages],
                          capture_output=True, text=True, timeout=300, check=False)
    assert done.returncode == 0, done.stdout + done.stderr


@pytest.mark.browser
def test_pages_pass_axe_core_in_chromium(site: Path) -> None:
    axe = tool("axe-core/axe.min.js")
    from test_browser import Browser, chromium_path

    browser = Browser(chromium_path(), site.parent / "profile")
    try:
        browser.send("Page.setBypassCSP", enabled=True)  # the pages forbid scripts; axe is ours
        for page in ("index.html", "board-1.html", "pair-NS1.html", "frequencies.html",
                     "../results.director.html"):
            browser.load((site / page).resolve().as_uri(), 1280)
            browser.evaluate(axe.read_text(encoding="utf-8"))
            found = browser.send("Runtime.evaluate", awaitPromise=True, returnByValue=True,
                                 expression="axe.run(document).then(r => r.violations.map("
                                            "v => v.id + ': ' + v.nodes.length))")
            assert found["result"]["value"] == [], page
    finally:
        browser.close()
