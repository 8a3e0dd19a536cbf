"""The results website as files: pages, escaping, links, hands, methods, the command line."""

from __future__ import annotations

import re
from dataclasses import replace
from html.parser import HTMLParser
from pathlib import Path

import numpy as np
import pandas as pd
import pytest
from click.testing import CliRunner
from conftest import SAMPLE_DATA, real_file

from traveller.cli import main
from traveller.pipeline import Result, process
from traveller.publish.meta import Publication
from traveller.publish.outputs import stamp
from traveller.publish.site import MARKER, site_pages, write_site


class Links(HTMLParser):
    """Every href/src of a page, and its text."""

    def __init__(self) -> None:
        super().__init__()
        self.links: list[str] = []
        self.scripts = 0
        self.text: list[str] = []

    def handle_starttag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        self.scripts += tag == "script"
        self.links += [v.split("#")[0] for k, v in attrs if k in ("href", "src") and v]

    def handle_data(self, data: str) -> None:
        self.text.append(data)


def parse(html: str) -> Links:
    found = Links()
    found.feed(html)
    return found


@pytest.fixture(scope="module")
def pages() -> dict[str, str]:
    result = process(SAMPLE_DATA / "club_session.xlsx")
    stamp(result, Publication(correction_minutes=0))
    return site_pages(result)


def test_every_page_and_every_link_resolves(pages: dict[str, str]) -> None:
    names = set(pages) | {"style.css"}
    assert {"index.html", "frequencies.html"} <= names and "director.html" not in names
    assert sum(n.startswith("board-") for n in pages) == 24
    assert sum(n.startswith("pair-") for n in pages) == 16  # a Mitchell: 8 N-S, 8 E-W
    for name, html in pages.items():
        page = parse(html)
        assert page.scripts == 0, name
        for link in page.links:
            assert link in names, f"{name} links to missing {link}"
    assert "director.html" not in "".join(pages.values())


def test_ranking_shows_every_pair_place_and_percentage(pages: dict[str, str]) -> None:
    result = process(SAMPLE_DATA / "club_session.xlsx")
    text = " ".join(parse(pages["index.html"]).text)
    assert "Riverside Bridge Club - Tuesday pairs, 3 November 2026" in text  # title row
    assert "Final results" in text and "Matchpoints, 2 for each pair beaten" in text
    for row in result.ranking.itertuples():
        assert f"{row.pct:.2f}" in text and row.names in text
    assert pages["index.html"].count("<rect") == 16  # the field's chart


def test_board_page_lists_each_result(pages: dict[str, str]) -> None:
    html = pages["board-7.html"]
    text = " ".join(parse(html).text)
    assert "Dealer South" in text and "Vulnerable: Both" in text
    assert html.count("<tr>") == 9  # header + 8 results
    assert "♠" in text or "♥" in text or "♦" in text or "♣" in text or "NT" in text


def test_pair_card_has_opponents_names_and_total(pages: dict[str, str]) -> None:
    result = process(SAMPLE_DATA / "club_session.xlsx")
    card = result.score_cards
    first = card[(card["line"] == "NS") & (card["pair"] == 2)]
    text = " ".join(parse(pages["pair-NS2.html"]).text)
    assert "Maria Ivanova – John Kowalski" in text and "Place 1" in text
    opponents = result.ranking[result.ranking["line"] == "EW"].set_index("pair")["names"]
    for opponent in first["opponent"].unique():
        assert opponents[opponent] in text
    assert "191" in text and "56.85" in text
    assert pages["pair-NS2.html"].count("<rect") == 24


def test_names_are_escaped_and_links_stay_text(tmp_path: Path) -> None:
    names = tmp_path / "names.csv"
    text = (SAMPLE_DATA / "names.csv").read_text(encoding="utf-8")
    hostile = '<script>alert(1)</script>'
    names.write_text(text.replace("Anna Nowak,Piotr Smith", f'"{hostile}",https://x.example/"a'),
                     encoding="utf-8")
    result = process(SAMPLE_DATA / "club_session.csv", names=names)
    stamp(result, Publication(title='<img src=x onerror="alert(2)">', club="A & B"))
    for name, html in site_pages(result).items():
        assert "<script" not in html and "<img" not in html, name
        assert "https://x.example" not in " ".join(parse(html).links), name
    index = site_pages(result)["index.html"]
    assert "&lt;script&gt;alert(1)&lt;/script&gt;" in index and "A &amp; B" in index


def test_hands_from_a_pbn_deal_and_a_howell_site() -> None:
    result = process(real_file("pbn-ruter", "sm1.pbn"))
    pages = site_pages(result)
    assert sum(n.startswith("pair-") for n in pages) == 36 and "pair-23.html" in pages
    for name, page in pages.items():
        for link in parse(page).links:
            assert link in set(pages) | {"style.css"}, f"{name} links to missing {link}"
    html = pages["board-1.html"]
    # [Deal "N:J63.AKQ8762.92.6 KT754.3.QJ763.87 AQ8.T94.K85.AKQ9 92.J5.AT4.JT5432"]
    assert re.search(r"North.*♠.*J63.*AKQ8762", html, re.S)
    assert "AKQ9" in html and "JT5432".replace("T", "10") in html


@pytest.mark.parametrize("method", ["ximp", "butler", "total"])
def test_other_methods_publish(method: str) -> None:
    result = process(SAMPLE_DATA / "club_session.csv", method=method)
    pages = site_pages(result)
    text = " ".join(parse(pages["index.html"]).text)
    assert ("IMPs" if method != "total" else "Points") in text
    assert "frequencies.html" not in pages  # matchpoint frequencies only
    if method != "total":
        assert "IMPs N-S" in "".join(parse(pages["board-1.html"]).text)


def test_method_line_is_the_ranking_sheets() -> None:
    """The site's index and the workbook's Ranking sheet say the method and movement in
    the same words: an individual is no Mitchell, a teams match has no pairs' movement."""
    from traveller.publish.titles import method_line

    for result, said, unsaid in [
            (process(SAMPLE_DATA / "individual_session.csv"), "; individual;", "movement"),
            (process(SAMPLE_DATA / "club_session.csv"), "; Mitchell movement;", "individual"),
            (process(real_file("pbn-teams-itt1998", "98ITTF1.PBN"), method="teams"),
             "Teams: IMPs per board", "movement")]:
        text = " ".join(parse(site_pages(result)["index.html"]).text)
        assert said in method_line(result) and said in text and unsaid not in text


def test_a_butler_method_line_says_when_the_datum_is_the_plain_mean() -> None:
    """A board of 8 results cannot drop its 99 highest and lowest: the datum is then their
    plain mean, and the line said "mean without the 99 highest and lowest" all the same."""
    from traveller.publish.titles import method_words

    said = method_words("butler", {"trim": 99, "datum": "mean", "datum_rounding": "half-away"})
    assert "mean without the 99 highest and lowest (the plain mean on a board of fewer than " \
        "199 results)" in said
    assert "plain mean" not in method_words("butler", {"trim": "20%", "datum": "mean"})
    assert "plain mean" not in method_words("butler", {"trim": 0, "datum": "mean"})
    assert "plain mean" not in method_words("butler", {"trim": 1, "datum": "median"})
    result = process(SAMPLE_DATA / "club_session.csv", method="butler", trim=4)  # 8 a board
    boards = result.travellers.groupby("board")["ns_score"]
    assert (boards.count() == 8).all()
    datum = result.travellers.groupby("board")["datum"].first()
    mean = boards.mean().astype(float)
    plain = np.sign(mean) * np.floor(mean.abs() / 10 + 0.5) * 10  # (to 10, halves away)
    assert (datum.astype(float) == plain).all()


def _ranking_tables(result: Result) -> list[tuple[list[str], list[list[str]]]]:
    """The index page's ranking tables (one a line in a Mitchell): each one's header cells
    and its rows' cells, as text."""
    html = site_pages(result)["index.html"]
    out = []
    for table in re.split(r'<table class="ranking[^"]*">', html)[1:]:
        rows = re.findall(r"<tr>(.*?)</tr>", table.split("</table>", 1)[0], re.S)
        cells = [[re.sub(r"<[^>]+>", "", c) for c in re.findall(r"<t[hd][^>]*>(.*?)</t[hd]>", r)]
                 for r in rows]
        out.append((cells[0], cells[1:]))
    return out


def test_the_ranking_shows_factored_matchpoints_when_some_pair_played_fewer_boards() -> None:
    """Places follow the factored matchpoints: a pair that played fewer boards can rank
    above one with more matchpoints, so the page shows the figure it ranks by (as the
    Ranking sheet does), and no column of blank names."""
    result = process(SAMPLE_DATA / "problems_session.csv")  # a Mitchell: a table a line
    tables = _ranking_tables(result)
    ranking = result.ranking
    assert (ranking["boards"] < ranking["boards"].max()).any()  # (so factoring matters)
    assert len(tables) == 2 and sum(len(rows) for _, rows in tables) == len(ranking)
    expected = {(str(p), f"{f:.2f}", f"{pct:.2f}") for p, f, pct in
                zip(ranking["pair"], ranking["mp_factored"], ranking["pct"], strict=True)}
    shown = set()
    for header, rows in tables:
        assert header == ["Place", "Pair", "Boards", "MP", "MP (factored)", "%"]
        factored = [float(row[4]) for row in rows]
        assert factored == sorted(factored, reverse=True)  # the column the places follow
        shown |= {(row[1], f"{float(row[4]):.2f}", row[5]) for row in rows}
    assert shown == expected
    header, _ = _ranking_tables(process(SAMPLE_DATA / "club_session.csv"))[0]
    assert header == ["Place", "Pair", "Boards", "MP", "%"]  # every pair played every board
    header, rows = _ranking_tables(process(SAMPLE_DATA / "club_session.csv",
                                           names=SAMPLE_DATA / "names.csv"))[0]
    assert header == ["Place", "Pair", "Names", "Boards", "MP", "%"] and rows[0][2]


def test_the_ranking_names_what_it_ranks() -> None:
    teams = process(real_file("pbn-teams-itt1998", "98ITTF1.PBN"), method="teams")
    header, rows = _ranking_tables(teams)[0]
    assert header == ["Place", "Team", "Names", "Boards", "VP", "Matches", "IMPs won",
                      "IMPs lost", "IMP quotient"]  # the Ranking sheet's figures
    assert rows == [["1", "2", "Cayne", "15", "15.88", "1", "30", "6", "5"],
                    ["2", "1", "Nickell", "15", "4.12", "1", "6", "30", "0.20"]]
    whitewash = pd.DataFrame([dict(Board=b, NS=ns, EW=3 - ns, Room=room, Contract=c, By=by,
                                   Tricks=t) for b in (1, 2) for ns, room, c, by, t in
                              ((1, "Open", "4S", "N", 10), (2, "Closed", "3NT", "E", 8))])
    _, rows = _ranking_tables(process(whitewash, method="teams"))[0]
    assert [row[-1] for row in rows] == ["", "0"]  # no IMP lost: no quotient, as the sheet
    players = process(SAMPLE_DATA / "individual_session.csv")
    assert _ranking_tables(players)[0][0][:2] == ["Place", "Player"]


class Card(HTMLParser):
    """A pair page's score card: its header cells, and each body row's cells as text."""

    def __init__(self) -> None:
        super().__init__()
        self.head: list[str] = []
        self.rows: list[list[str]] = []
        self.part = ""
        self.cell: list[str] | None = None

    def handle_starttag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        if tag in ("thead", "tbody", "tfoot"):
            self.part = tag
        elif tag == "tr" and self.part == "tbody":
            self.rows.append([])
        elif tag in ("td", "th") and self.part in ("thead", "tbody"):
            self.cell = []

    def handle_endtag(self, tag: str) -> None:
        if tag in ("td", "th") and self.cell is not None:
            text = "".join(self.cell).strip()
            (self.head if self.part == "thead" else self.rows[-1]).append(text)
            self.cell = None

    def handle_data(self, data: str) -> None:
        if self.cell is not None:
            self.cell.append(data)


@pytest.mark.parametrize("method", ["mp", "ximp", "butler"])
def test_pair_pages_show_the_methods_figures_for_every_board(method: str) -> None:
    result = process(SAMPLE_DATA / "club_session.csv", method=method, dd=False)
    cards = result.score_cards
    pages = site_pages(result)
    for (line, pair), mine in cards.groupby(["line", "pair"]):
        card = Card()
        card.feed(pages[f"pair-{line}{pair}.html"])
        assert len(card.rows) == len(mine) and all(len(r) == len(card.head) for r in card.rows)
        column = dict(zip(card.head, zip(*card.rows, strict=True), strict=True))
        if method == "mp":
            assert "IMPs" not in column
            assert [float(v) for v in column["MP"]] == mine["mp"].tolist()
        else:  # the pair's IMPs on each board, as its workbook card has them
            assert "MP" not in column and "%" not in column
            assert [float(v.replace("−", "-")) for v in column["IMPs"]] == pytest.approx(
                mine["imp"].astype(float).tolist(), abs=0.005)  # as printed, to 2 decimals
    # the pair's total under its heading says what its second figure is
    total = re.search(r'<p class="total">(.*?)</p>', pages["pair-NS1.html"]).group(1)
    assert total.endswith(" %" if method == "mp" else " a board"), total


class Tables(HTMLParser):
    """Every table of a page: its header rows', body rows' and footer rows' widths in
    columns (a cell's colspan counted)."""

    def __init__(self) -> None:
        super().__init__()
        self.tables: list[dict[str, list[int]]] = []
        self.part = "body"

    def handle_starttag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        if tag == "table":
            self.tables.append({"head": [], "body": [], "foot": []})
        elif tag in ("thead", "tbody", "tfoot"):
            self.part = tag[1:]
        elif tag == "tr" and self.tables:
            self.tables[-1][self.part].append(0)
        elif tag in ("td", "th") and self.tables and self.tables[-1][self.part]:
            self.tables[-1][self.part][-1] += int(dict(attrs).get("colspan") or 1)

    def handle_endtag(self, tag: str) -> None:
        if tag in ("thead", "tbody", "tfoot"):
            self.part = "body"


@pytest.mark.parametrize(("source", "options"), [
    ("club_session.csv", {}), ("club_session.csv", {"method": "ximp"}),
    ("club_session.csv", {"method": "butler"}), ("club_session.csv", {"method": "total"}),
    ("chicago_russian.csv", {"method": "russian", "chicago": True}),
    ("individual_session.csv", {}), ("rulings_session.csv", {}), ("problems_session.csv", {}),
    ("club_session.xlsx", {"hands": str(SAMPLE_DATA / "club_session_hands.pbn")})])
def test_every_tables_rows_are_as_wide_as_its_header(source: str, options: dict[str, object]
                                                     ) -> None:
    # (a cell too many or too few shifts every figure after it under the wrong heading)
    _tables_fit(process(SAMPLE_DATA / source, dd=False, **options))  # type: ignore[arg-type]


def test_a_teams_match_s_tables_are_as_wide_as_their_headers() -> None:
    _tables_fit(process(real_file("pbn-teams-itt1998", "98ITTF1.PBN"), method="teams",
                        dd=False))


def test_a_session_without_leads_has_no_lead_column() -> None:
    """No result with a lead: no Lead column on the board and pair pages (the par line's
    row too); one lead written brings the column back."""
    frame = pd.read_csv(SAMPLE_DATA / "club_session.csv", dtype=str)
    hands = str(SAMPLE_DATA / "club_session_hands.pbn")
    bare = process(frame.drop(columns="Lead"), hands=hands, dd=False)
    pages = site_pages(bare)
    for name in ("board-1.html", "pair-NS1.html"):
        assert ">Lead<" not in pages[name] and 'class="lead"' not in pages[name], name
    _tables_fit(bare)
    one = frame.assign(Lead="")
    one.loc[0, "Lead"] = "C3"
    pages = site_pages(process(one, dd=False))
    assert all(">Lead<" in pages[n] for n in ("board-1.html", "pair-NS1.html"))
    assert "♣3" in pages["board-1.html"]
    from traveller.publish.site_rows import par_html  # (a par line needs double dummy)

    with_lead, without = (par_html("4♠ N", "620", "", True, True, False, lead)
                          for lead in (True, False))
    assert with_lead.count("<td") == without.count("<td") + 1
    assert 'class="lead"' in with_lead and 'class="lead"' not in without


def _tables_fit(result: Result) -> None:
    for name, html in site_pages(result).items():
        page = Tables()
        page.feed(html)
        for table in page.tables:
            if table["head"]:
                width = table["head"][-1]
                assert set(table["body"] + table["foot"]) <= {width}, (name, width, table)


@pytest.mark.parametrize(("source", "options"), [
    ("club_session.csv", {}), ("club_session.csv", {"method": "butler"}),
    ("individual_session.csv", {}), ("club_session.xlsx", {"sections": "field"})])
def test_pair_pages_made_a_pair_at_a_time_are_the_same(
        source: str, options: dict[str, object], monkeypatch: pytest.MonkeyPatch) -> None:
    # the cards are formatted a chunk of pairs at a time: a chunk of one row makes
    # every pair a chunk of its own, and every page must come out the same
    from traveller.publish import site, site_cards

    result = process(SAMPLE_DATA / source, dd=False, **options)  # type: ignore[arg-type]
    whole = site_pages(result)
    monkeypatch.setattr(site, "pair_pages", lambda r, f, g: site_cards.pair_pages(r, f, g, 1))
    assert site_pages(result) == whole


def test_write_site_replaces_only_its_own_folder(tmp_path: Path) -> None:
    result = process(SAMPLE_DATA / "club_session.csv")
    site = write_site(result, tmp_path / "site")
    assert (site / MARKER).exists() and (site / "style.css").exists()
    (site / "stale.html").write_text("old")
    write_site(result, site)
    assert not (site / "stale.html").exists()
    mine = tmp_path / "documents"
    mine.mkdir()
    (mine / "letter.txt").write_text("keep me")
    with pytest.raises(FileExistsError, match="no site written by traveller"):
        write_site(result, mine)
    assert (mine / "letter.txt").read_text() == "keep me"
    assert [p.name for p in tmp_path.iterdir() if p.name.startswith(".")] == []


def test_cli_writes_every_output(tmp_path: Path) -> None:
    out = tmp_path / "r.xlsx"
    args = ["score", str(SAMPLE_DATA / "club_session.csv"), "-o", str(out), "--html",
            str(tmp_path / "site"), "--pbn", str(tmp_path / "r.pbn"), "--usebio",
            str(tmp_path / "r.xml"), "--title", "Club night", "--date", "2026-11-03",
            "--club", "Riverside", "--correction-minutes", "0"]
    result = CliRunner().invoke(main, args)
    assert result.exit_code == 0, result.output
    index = (tmp_path / "site" / "index.html").read_text(encoding="utf-8")
    assert "Club night" in index and "Riverside · 2026-11-03" in index
    assert "Final results" in index
    pbn = (tmp_path / "r.pbn").read_text(encoding="utf-8")
    assert '[Event "Club night"]' in pbn and '[Date "2026.11.03"]' in pbn
    assert "<CLUB_NAME>Riverside</CLUB_NAME>" in (tmp_path / "r.xml").read_text(encoding="utf-8")


def test_cli_refuses_an_output_over_the_input(tmp_path: Path) -> None:
    source = tmp_path / "s.csv"
    source.write_bytes((SAMPLE_DATA / "club_session.csv").read_bytes())
    result = CliRunner().invoke(main, ["score", str(source), "-o", str(tmp_path / "r.xlsx"),
                                       "--pbn", str(source)])
    assert result.exit_code == 2 and "overwrite the input" in result.output
    assert source.read_bytes() == (SAMPLE_DATA / "club_session.csv").read_bytes()


def test_sections_get_their_own_pages_and_links(tmp_path: Path) -> None:
    from test_publish_formats import two_sections

    pages = site_pages(process(two_sections(tmp_path)))
    assert {"board-A-1.html", "board-B-24.html", "pair-A-NS1.html", "pair-B-EW8.html"} <= set(pages)
    for name, html in pages.items():
        for link in parse(html).links:
            assert link in set(pages) | {"style.css"}, f"{name} links to missing {link}"
    text = " ".join(parse(pages["index.html"]).text)
    assert "Section A N-S" in text and "Section B E-W" in text


def test_cli_checks_outputs_before_writing_anything(tmp_path: Path) -> None:
    mine = tmp_path / "documents"
    mine.mkdir()
    (mine / "letter.txt").write_text("keep me")
    out = tmp_path / "r.xlsx"
    result = CliRunner().invoke(main, ["score", str(SAMPLE_DATA / "club_session.csv"), "-o",
                                       str(out), "--html", str(mine)])
    assert result.exit_code == 1 and "no site written by traveller" in result.output
    assert not out.exists() and (mine / "letter.txt").read_text() == "keep me"
    event = ["score", str(SAMPLE_DATA / "club_session.csv"), "--session",
             str(SAMPLE_DATA / "club_session_pl.csv"), "-o", str(out), "--usebio",
             str(tmp_path / "e.xml")]
    result = CliRunner().invoke(main, event)  # a file USEBIO cannot hold: the rest is written
    assert result.exit_code == 3 and "export each session" in result.output
    assert out.exists() and not (tmp_path / "e.xml").exists()


def test_director_page_beside_the_workbook_without_local_paths(tmp_path: Path) -> None:
    source = tmp_path / "private" / "inbox" / "problems_session.csv"
    source.parent.mkdir(parents=True)
    source.write_bytes((SAMPLE_DATA / "problems_session.csv").read_bytes())
    out = tmp_path / "out" / "night.xlsx"
    result = CliRunner().invoke(main, ["score", str(source), "-o", str(out), "--html",
                                       str(tmp_path / "out" / "site")])
    assert result.exit_code == 3, result.output
    director = tmp_path / "out" / "night.director.html"
    assert director.exists() and str(director) in result.output  # said where it is
    site = tmp_path / "out" / "site"
    assert not list(site.glob("*director*"))  # not in the folder that gets uploaded
    page = director.read_text(encoding="utf-8")
    assert "problems_session.csv" in page and 'href="site/index.html"' in page
    assert re.search(r"<h3>\d+ problems</h3>", page)
    for html in [page, *(p.read_text(encoding="utf-8") for p in site.glob("*.html"))]:
        assert str(tmp_path) not in html and "/private/inbox" not in html
    (tmp_path / "out" / "mine.director.html").write_text("my notes")
    mine = CliRunner().invoke(main, ["score", str(source), "-o", str(tmp_path / "out" /
                                                                        "mine.xlsx"),
                                     "--html", str(tmp_path / "out" / "site2")])
    assert mine.exit_code == 1 and "not a director's page written by traveller" in mine.output
    assert (tmp_path / "out" / "mine.director.html").read_text() == "my notes"


def test_write_site_reports_progress_page_by_page(tmp_path: Path) -> None:
    from traveller.publish.site import pages_count

    result = process(SAMPLE_DATA / "club_session.csv")
    calls: list[tuple[int, int]] = []
    site = write_site(result, tmp_path / "site", progress=lambda done, total: calls.append(
        (done, total)))
    pages = sorted(site.glob("*.html"))
    assert len(pages) == pages_count(result) == 1 + 24 + 16 + 1
    assert calls == [(n, len(pages)) for n in range(1, len(pages) + 1)]


@pytest.mark.slow  # several seconds: in .ci/run's slow part
def test_pages_written_in_chunks_are_the_pages_written_at_once(tmp_path: Path) -> None:
    """Boards and pairs are formatted a chunk at a time: the chunk size changes nothing."""
    from traveller.publish import site_cards, site_model

    result = process(SAMPLE_DATA / "club_session.csv", names=SAMPLE_DATA / "names.csv")
    whole = site_pages(result)
    board_pages, pair_pages = site_model.board_pages, site_cards.pair_pages
    try:
        site_model.board_pages = lambda *a, **k: board_pages(*a, chunk=5)  # type: ignore
        site_cards.pair_pages = lambda *a, **k: pair_pages(*a, chunk=7)  # type: ignore
        import traveller.publish.site as site_module

        site_module.board_pages, site_module.pair_pages = (site_model.board_pages,
                                                           site_cards.pair_pages)
        assert site_pages(result) == whole
    finally:
        site_model.board_pages, site_cards.pair_pages = board_pages, pair_pages
        site_module.board_pages, site_module.pair_pages = board_pages, pair_pages


def test_board_pages_link_before_and_after_and_name_the_pairs(pages: dict[str, str]) -> None:
    five = pages["board-5.html"]
    assert '<a href="board-4.html" rel="prev">' in five and 'href="board-6.html" rel="next"' in five
    assert five.count('aria-current="page"') == 1  # board 5 in the strip, nothing else
    assert '<a href="board-5.html" aria-current="page">' in five
    assert 'rel="prev"' not in pages["board-1.html"] and 'rel="next"' not in pages["board-24.html"]
    text = "".join(parse(five).text)
    assert "Maria Ivanova – John Kowalski" in text  # N-S 2's names beside the number
    leads = re.findall(r'<td class="lead">(.*?)</td>', "".join(pages.values()))
    assert any("10" in lead for lead in leads)  # the ten as the hand diagram writes it
    assert not any(re.search(r"</span>T$", lead) for lead in leads)


def test_pair_page_headings_and_chart_marks(pages: dict[str, str]) -> None:
    card = pages["pair-NS1.html"]
    head = re.search(r"<thead>(.*?)</thead>", card, re.S).group(1)  # type: ignore[union-attr]
    assert "Cards" not in head and "Sitting" not in head  # a Mitchell pair never changes line
    chart = re.search(r"<svg.*?</svg>", card, re.S).group(0)  # type: ignore[union-attr]
    numbers = re.findall(r'class="axis">(\d+)</text>', chart)
    assert numbers[:12] == [str(n) for n in range(1, 25, 2)]  # 24 boards: every other one
    zero = card.count(">0.00</td>")
    assert zero and chart.count('class="zero"') == zero  # each 0 % board has its mark
    index = pages["index.html"]
    field = re.search(r"<svg.*?</svg>", index, re.S).group(0)  # type: ignore[union-attr]
    mid = float(re.search(r'<line x1="([\d.]+)"', field).group(1))  # type: ignore[union-attr]
    values = [float(x) for x in re.findall(r'<text x="([\d.]+)"[^>]*class="value"', field)]
    assert values and min(values) - 40 > mid  # the labels (end-anchored) clear the 50 % line


def test_pair_card_shows_each_result_beside_its_contract(pages: dict[str, str]) -> None:
    result = process(SAMPLE_DATA / "club_session.xlsx")
    card = result.score_cards
    first = card[(card["line"] == "NS") & (card["pair"] == 3)].iloc[0]
    page = pages["pair-NS3.html"]
    head = re.search(r"<thead>(.*?)</thead>", page, re.S).group(1)  # type: ignore[union-attr]
    assert ">Result</th>" in head
    row = re.search(r"<tbody>\s*(<tr>.*?</tr>)", page, re.S).group(1)  # type: ignore[union-attr]
    assert f'<td class="result">{first["result"]}</td>' in row  # its own column (desktop)
    assert f'<span class="fold"> {first["declarer"]} {first["result"]}</span>' in row  # phone


def test_a_howell_pair_page_says_where_the_pair_sat(tmp_path: Path) -> None:
    result = process(SAMPLE_DATA / "club_session.csv", movement="howell")
    pages = site_pages(result)
    card = next(html for name, html in pages.items() if name.startswith("pair-"))
    assert '<th scope="col" class="held">Sitting</th>' in card and 'colspan="2">Total (' in card
    assert '<span class="fold"> N-S</span>' in card or '<span class="fold"> E-W</span>' in card


def test_one_board_is_a_board_on_every_page(tmp_path: Path) -> None:
    lines = (SAMPLE_DATA / "club_session.csv").read_text(encoding="utf-8").splitlines()
    one = tmp_path / "one.csv"
    one.write_text("\n".join([lines[0], *(x for x in lines[1:] if x.startswith("1,"))]) + "\n",
                   encoding="utf-8")
    pages = site_pages(process(one))
    text = "".join("".join(parse(html).text) for html in pages.values())
    assert "1 board" in text and "1 boards" not in text and "(s)" not in text


def test_director_page_names_one_file_once_and_folds_on_a_phone(tmp_path: Path) -> None:
    from traveller.publish.director_page import director_html

    result = process(SAMPLE_DATA / "problems_session.csv")
    page = director_html(result)
    assert "Problems found in problems_session.csv" in page
    assert '<th scope="col" class="detail">File</th>' not in page  # said once, above
    assert '<td class="code detail">duplicate-result</td>' in page
    two = replace(result, problems=pd.concat([result.problems, result.problems.assign(
        file="other.csv")], ignore_index=True))
    page = director_html(two)
    assert '<th scope="col" class="detail">File</th>' in page and "found in the input" in page


def test_a_long_card_charts_a_bar_for_each_block_of_boards() -> None:
    """Past 100 boards a bar would be under 3 px: each bar is then the mean of a block of
    consecutive boards, titled with its boards; a card up to 100 boards keeps a bar each."""
    import numpy as np

    from traveller.publish.site_rows import MAX_BARS, chart_block

    boards = 210  # 12 tables, each pair on every board: 210 boards a card, blocks of 3
    board = np.arange(boards * 12) // 12 + 1
    ns = np.arange(boards * 12) % 12 + 1
    rng = np.random.default_rng(3)
    frame = pd.DataFrame({"Board": board, "NS": ns, "EW": (ns + board) % 12 + 1,
                          "Contract": "3NT", "By": rng.choice(list("NS"), len(board)),
                          "Tricks": rng.integers(6, 12, len(board))})
    result = process(frame)
    stamp(result, Publication(correction_minutes=0))
    html = site_pages(result)["pair-NS1.html"]
    assert chart_block(boards) == 3 and chart_block(MAX_BARS) == 1
    titles = re.findall(r"<title>Boards (\d+)–(\d+): ([\d.]+) %</title>", html)
    assert len(titles) == 70 and "<title>Board " not in html
    assert "Mean percentage of each 3 boards" in html
    card = result.score_cards
    card = card[(card["line"] == "NS") & (card["pair"].astype(str) == "1")]
    pct = pd.to_numeric(card["pct"]).to_numpy()
    for k, (first, last, mean) in enumerate(titles):
        assert (int(first), int(last)) == (3 * k + 1, 3 * k + 3)
        assert float(mean) == pytest.approx(pct[3 * k:3 * k + 3].mean(), abs=0.005)
    short = process(frame[frame["Board"] <= MAX_BARS])
    stamp(short, Publication(correction_minutes=0))
    assert len(re.findall(r"<title>Board \d+: ", site_pages(short)["pair-NS1.html"])) == 100


def test_a_pairs_chart_leaves_a_gap_where_it_has_no_result() -> None:
    """Pair 5 N-S has no result on boards 1 and 3: its bars stand over their own numbers
    (the second bar is board 4's, after a gap), not packed so that 4 sits where 2 is."""
    result = process(SAMPLE_DATA / "problems_session.csv")
    stamp(result, Publication(correction_minutes=0))
    html = site_pages(result)["pair-NS5.html"]
    bars = re.findall(r'<rect x="([\d.]+)"[^>]*><title>Board (\d+):', html)
    assert [b for _, b in bars][:3] == ["2", "4", "5"]
    step = 330 / 24  # 24 boards in the section: a slot each
    x = {int(b): float(at) for at, b in bars}
    assert x[2] == pytest.approx(26 + step * 1.1, abs=0.1)
    assert x[4] == pytest.approx(26 + step * 3.1, abs=0.1)
    labels = re.findall(r'class="axis">(\d+)</text>', html)
    assert labels[:3] == ["1", "3", "5"]  # the axis numbers every board, played or not


def test_a_long_sessions_board_strip_is_the_one_the_loop_makes() -> None:
    """A board page's strip of a long session is made from slices of finished links; it is
    the strip the general loop makes, at every position (the ends and their gaps too)."""
    from traveller.publish.site import NAV_ALL, BoardStrip

    for n in (NAV_ALL + 1, NAV_ALL + 2, NAV_ALL + 3, 100, 300):
        strip = BoardStrip([{"href": f"board-{i}.html", "session": "", "section": "A",
                             "board": i + 1} for i in range(n)])
        assert not strip.all and strip.unique
        fast = [strip(at) for at in range(n)]
        strip.unique = False  # (hrefs not told apart: the loop, for every page)
        assert fast == [strip(at) for at in range(n)]
        assert fast[5].count('aria-current="page"') == 1 and "A6<" in fast[5]
