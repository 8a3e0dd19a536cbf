"""Simultaneous pairs (traveller sim): field-wide scoring checked against a plain reference."""

from __future__ import annotations

import json
import random
from collections import defaultdict
from pathlib import Path

import numpy as np
import openpyxl
import pandas as pd
import pytest
from click.testing import CliRunner
from conftest import ranking_rows

from traveller import process
from traveller.cli import main
from traveller.sim.api import simultaneous
from traveller.sim.field import field_rows, score_boards, to_common_top

#: N-S scores possible on every board whatever the vulnerability (part scores).
SCORES = [90, 110, 120, 130, 140, 150, 170, 180, -90, -110, -120, -130, -140, -150]
BOARDS = 6


def write_club(path: Path, tables: int, rng: random.Random, skip: tuple[int, ...] = ()
               ) -> list[tuple[str, int, int, int, int]]:
    """A Mitchell club file of score-only rows; returns (club, board, ns, ew, score)."""
    rows, lines = [], ["Board,NS,EW,Score"]
    for b in range(1, BOARDS + 1):
        if b in skip:
            continue
        for t in range(1, tables + 1):
            ew, score = (t - 1 + b) % tables + 1, rng.choice(SCORES)
            lines.append(f"{b},{t},{ew},{score}")
            rows.append((path.stem, b, t, ew, score))
    path.write_text("\n".join(lines) + "\n", encoding="utf-8")
    return rows


def make_sim(folder: Path, clubs: int, seed: int = 7) -> list[tuple[str, int, int, int, int]]:
    rng = random.Random(seed)
    folder.mkdir(parents=True, exist_ok=True)
    rows: list[tuple[str, int, int, int, int]] = []
    for i in range(clubs):
        rows += write_club(folder / f"club{i:03d}.csv", rng.randint(3, 7), rng)
    return rows


def reference(rows: list[tuple[str, int, int, int, int]]) -> dict[tuple[str, str, int], float]:
    """National % per (club, line, pair): matchpoints per board over the whole field,
    2 per score beaten and 1 per tie, Neuberg (M + 1)·E/A − 1 to the most-played board."""
    by_board: dict[int, list[int]] = defaultdict(list)
    for _, board, _, _, score in rows:
        by_board[board].append(score)
    most = max(len(v) for v in by_board.values())
    common = 2 * (most - 1)
    got: dict[tuple[str, str, int], list[float]] = defaultdict(list)
    for club, board, ns, ew, score in rows:
        field = by_board[board]
        mp = 2 * sum(s < score for s in field) + (sum(s == score for s in field) - 1)
        scaled = (mp + 1) * most / len(field) - 1
        got[(club, "NS", ns)].append(scaled)
        got[(club, "EW", ew)].append(common - scaled)
    return {k: 100 * sum(v) / (len(v) * common) for k, v in got.items()}


def national(ranking: pd.DataFrame) -> dict[tuple[str, str, int], float]:
    return {(r.club, r.line, int(r.pair)): float(r.national) for r in ranking.itertuples()}


@pytest.fixture(scope="module", params=[
    pytest.param(30, id="30-clubs"),
    pytest.param(100, id="100-clubs", marks=pytest.mark.slow)])  # the same at 3x the field
def many(request: pytest.FixtureRequest, tmp_path_factory: pytest.TempPathFactory
         ) -> tuple[int, Path, list, object]:
    """A sim of many small clubs and its local-engine result (no files written)."""
    inbox = tmp_path_factory.mktemp("sim") / "inbox"
    rows = make_sim(inbox, request.param)
    return request.param, inbox, rows, simultaneous(inbox)


def test_many_clubs_match_the_plain_reference(many: tuple) -> None:
    clubs, inbox, rows, result = many
    expected = reference(rows)
    got = national(result.ranking)
    assert got.keys() == expected.keys()
    assert max(abs(got[k] - expected[k]) for k in expected) < 1e-9
    # one list, best first; the place in the club is the club's own, within its line
    figures = result.ranking["national"].to_numpy()
    assert (np.diff(figures) <= 1e-12).all() and result.ranking["place"].iloc[0] == "1"
    one = result.ranking[result.ranking["club"] == "club012"]
    own = process(next(inbox.glob("club012.*")))
    expected = {(r.line, int(r.pair)): r.place for r in own.ranking.itertuples()}
    assert {(r.line, int(r.pair)): r.club_place for r in one.itertuples()} == expected
    for _, line in one.groupby("line")["club_place"]:  # each line ranked on its own
        assert "1" in set(line.str.rstrip("="))
    assert set(result.clubs["status"]) == {"ok"} and len(result.clubs) == clubs
    assert (result.clubs["workbook"] == "").all()  # no output folder: nothing written


def test_one_club_with_rulings_scores_as_its_own_session(tmp_path: Path) -> None:
    # A60/40, not played, a weighted and a split score, a fouled board: the field of one
    # club is the club's session, so the national figures are the club's own
    lines = ["Board,NS,EW,Contract,Score,Fouled"]
    cells = {1: ["+420", "+420", "A60/40", "+450", "-50"], 2: ["+100", "NP", "+50", "0", "-50"],
             3: ["30%+650/70%-100", "+620", "-100", "+170", "+420/-450"],
             4: ["+100", "+200", "+300", "-100", "-200"]}
    for b, row in cells.items():
        for k, cell in enumerate(row, start=1):
            score = cell.lstrip("+-").isdigit()
            fouled = ("A" if k <= 3 else "B") if b == 4 else ""
            lines.append(f"{b},{k},{(k + b) % 5 + 1},{'' if score else cell},"
                         f"{cell if score else ''},{fouled}")
    path = tmp_path / "inbox" / "solo.csv"
    path.parent.mkdir()
    path.write_text("\n".join(lines) + "\n", encoding="utf-8")
    own = process(path, phantom_award=60)
    sim = simultaneous(path.parent, phantom_award=60)
    mine = own.ranking.set_index(["line", "pair"])["pct"]
    theirs = sim.ranking.set_index(["line", "pair"])["national"]
    assert len(mine) == len(theirs) == 10
    assert np.allclose(theirs.reindex(mine.index).to_numpy(), mine.to_numpy(), atol=1e-9)


def test_board_partitions_score_as_the_whole_field(tmp_path: Path) -> None:
    rows = make_sim(tmp_path / "in", 6, seed=3)
    assert rows
    frames = []
    for i, path in enumerate(sorted((tmp_path / "in").iterdir())):
        t = process(path).travellers
        if i == 2:  # a club with a ruling and a board fewer
            t = t[t["board"] != 5].copy()
            t.loc[t.index[0], ["ns_score", "ruling", "ruling_kind", "ns_award", "ew_award"]] = [
                pd.NA, "A60/40", "average", 60.0, 40.0]
        frames.append(field_rows(t, i, "mitchell"))
    field = pd.concat(frames, ignore_index=True)
    whole = score_boards(field)
    whole = to_common_top(whole, int(whole["results"].max()))
    parts = [score_boards(field[field["board"].isin(b)]) for b in ([1, 2], [3, 5], [4, 6])]
    tables = max(int(p["results"].max()) for p in parts)
    split = pd.concat([to_common_top(p, tables) for p in parts])
    key = ["club_id", "row_id"]
    a = whole.sort_values(key).reset_index(drop=True)
    b = split.sort_values(key).reset_index(drop=True)
    pd.testing.assert_frame_equal(a, b)
    assert (whole["results"][whole["board"] == 5] < tables).all()  # Neuberg on board 5


def test_bad_file_missing_board_and_colliding_pairs(tmp_path: Path) -> None:
    inbox = tmp_path / "inbox"
    inbox.mkdir()
    rng = random.Random(11)
    rows = write_club(inbox / "alpha.csv", 4, rng) + write_club(inbox / "beta.csv", 4, rng)
    rows += write_club(inbox / "gamma.csv", 5, rng, skip=(3,))  # board 3 not played there
    (inbox / "broken.xlsx").write_bytes(b"this is not a workbook")
    out = tmp_path / "out"
    run = CliRunner().invoke(main, ["sim", str(inbox), "-o", str(out)])
    assert run.exit_code == 3, run.output
    assert "failed: broken" in run.output
    summary = json.loads((out / "summary.json").read_text(encoding="utf-8"))
    assert [f["club"] for f in summary["failed"]] == ["broken"]
    assert summary["failed"][0]["reason"]
    ranking = pd.read_csv(out / "national_ranking.csv")
    # pair 1 N-S of alpha and of beta are two pairs; the broken club is not in the field
    ones = ranking[(ranking["Pair"] == 1) & (ranking["Line"] == "NS")]
    assert sorted(ones["Club"]) == ["alpha", "beta", "gamma"]
    expected = reference(rows)
    for r in ranking.itertuples():
        assert abs(r[7] - round(expected[(r.Club, r.Line, r.Pair)], 2)) < 0.006
    gamma = ranking[ranking["Club"] == "gamma"]
    assert (gamma["Boards"] == BOARDS - 1).all()
    clubs = pd.read_csv(out / "clubs.csv").set_index("club")
    assert clubs.loc["broken", "status"] == "failed" and clubs.loc["gamma", "status"] == "ok"
    book = out / "clubs" / "broken.xlsx"  # its director still gets what to fix
    assert clubs.loc["broken", "workbook"] == str(book)
    assert f"(listed on the Problems sheet of {book})" in run.output
    problems = pd.read_excel(book, sheet_name="Problems", engine="calamine")
    assert problems["Code"].tolist() == ["unreadable-file"]
    assert "not a readable workbook" in problems["Message"].iloc[0]


def test_club_workbook_has_both_figures(tmp_path: Path) -> None:
    make_sim(tmp_path / "inbox", 4, seed=5)
    result = simultaneous(tmp_path / "inbox", output=tmp_path / "out")
    book = tmp_path / "out" / "clubs" / "club001.xlsx"
    sheet = openpyxl.load_workbook(book)["Ranking"]
    lines = {"N-S": "NS", "E-W": "EW"}
    ranking = pd.DataFrame([{k: (lines[v] if k == "Block" else v[0]) for k, v in row.items()}
                            for row in ranking_rows(sheet)]).rename(columns={"Block": "Line"})
    assert {"%", "Place", "National %", "National place"} <= set(ranking.columns)
    mine = result.ranking[result.ranking["club"] == "club001"].set_index(["line", "pair"])
    shown = ranking.set_index(["Line", "Pair"])["National %"]
    assert np.allclose(shown.to_numpy(), mine["national"].reindex(shown.index).round(2))
    travellers = pd.read_excel(book, sheet_name="Travellers", engine="calamine")
    # results only, not the heading row above each board's results
    travellers = travellers[pd.to_numeric(travellers["Board"], errors="coerce").notna()]
    assert travellers[["N-S MP", "National N-S MP", "National E-W %"]].notna().all().all()
    assert (travellers["National top"] > travellers["N-S MP"].max()).all()


def test_club_named_in_settings_and_bad_settings(tmp_path: Path) -> None:
    rng = random.Random(2)
    (tmp_path / "in" / "a").mkdir(parents=True)
    (tmp_path / "in" / "b").mkdir()
    write_club(tmp_path / "in" / "a" / "session.csv", 3, rng)
    write_club(tmp_path / "in" / "b" / "session.csv", 3, rng)
    (tmp_path / "in" / "a" / "traveller.toml").write_text('club = "Riverside BC"\n')
    (tmp_path / "in" / "b" / "traveller.toml").write_text('club = "Oak"\nmethod = "ximp"\n')
    result = simultaneous(tmp_path / "in")
    assert set(result.ranking["club"]) == {"Riverside BC"}
    failed = result.failed
    assert list(failed["club"]) == ["Oak"] and "method" in failed["reason"].iloc[0]


@pytest.mark.parametrize("method", ["ximp", "butler"])
def test_imp_methods_rank_by_imps_per_board(tmp_path: Path, method: str) -> None:
    rows = make_sim(tmp_path / "inbox", 5, seed=9)
    result = simultaneous(tmp_path / "inbox", method=method)
    assert len(result.ranking) == len({(c, "NS", n) for c, _, n, _, _ in rows}) * 2
    assert abs(result.ranking["national"].mean()) < 1.0  # IMPs balance across the field


def test_usage_errors(tmp_path: Path) -> None:
    make_sim(tmp_path / "inbox", 2)
    inside = CliRunner().invoke(main, ["sim", str(tmp_path / "inbox"), "-o",
                                       str(tmp_path / "inbox" / "out")])
    assert inside.exit_code == 2 and "inside the inbox" in inside.output
    around = CliRunner().invoke(main, ["sim", str(tmp_path / "inbox"), "-o", str(tmp_path)])
    assert around.exit_code == 2 and "overwrite an input" in around.output
    scheduler = CliRunner().invoke(main, ["sim", str(tmp_path / "inbox"), "-o",
                                          str(tmp_path / "o"), "--scheduler", "tcp://x:1"])
    assert scheduler.exit_code == 2


def test_commands_load_neither_dask_nor_pandas() -> None:
    import subprocess
    import sys

    code = ("import sys, traveller, traveller.cli, traveller.sim.cli; "
            "print(sorted({m.split('.')[0] for m in sys.modules} & {'dask', 'distributed', "
            "'pandas'}))")
    done = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True,
                          timeout=120, check=True, cwd=Path(__file__).resolve().parents[1])
    assert done.stdout.strip() == "[]"


def test_sample_sim(tmp_path: Path) -> None:
    sample = Path(__file__).resolve().parents[1] / "sample_data" / "sim"
    run = CliRunner().invoke(main, ["sim", str(sample), "-o", str(tmp_path / "out")])
    assert run.exit_code == 0, run.output
    ranking = pd.read_csv(tmp_path / "out" / "national_ranking.csv")
    assert set(ranking["Club"]) == {"Harbour BC", "oakwood", "riverside"}
    assert len(ranking) == 2 * (7 + 6 + 8) and (ranking["Boards"] == 24).all()
    assert sorted(p.name for p in (tmp_path / "out" / "clubs").iterdir()) == [
        "Harbour_BC.xlsx", "oakwood.xlsx", "riverside.xlsx"]


def test_html_site_pages_every_pair_and_links_every_club(tmp_path: Path,
                                                          monkeypatch: pytest.MonkeyPatch) -> None:
    import re

    from traveller.sim import pages

    monkeypatch.setattr(pages, "PAGE_SIZE", 7)  # several ranking pages from a small sim
    inbox = tmp_path / "inbox"
    make_sim(inbox, 4, seed=3)
    (inbox / "named").mkdir()
    write_club(inbox / "named" / "session.csv", 3, random.Random(4))
    (inbox / "named" / "traveller.toml").write_text('club = "<b>Oak</b> & Co"\n')
    (inbox / "broken.csv").write_bytes(b"\x00\x01 not a traveller")
    out = tmp_path / "out"
    result = simultaneous(inbox, output=out, html=True)
    ranked = result.ranking
    html_pages = sorted(out.glob("ranking-*.html"), key=lambda p: int(p.stem.split("-")[1]))
    assert len(html_pages) == -(-len(ranked) // 7) - 1  # index.html is page 1
    rows = []
    for page in [out / "index.html", *html_pages]:
        text = page.read_text(encoding="utf-8")
        rows += re.findall(r'<tr><td class="place">([^<]+)</td>', text)
        for href in re.findall(r'href="([^"]+)"', text):
            assert (page.parent / href).exists(), href  # every link lands on a file
    assert rows == list(ranked["place"])  # every pair once, in national order
    index = (out / "index.html").read_text(encoding="utf-8")
    assert "&lt;b&gt;Oak&lt;/b&gt; &amp; Co" in index and "<b>Oak" not in index
    clubs = (out / "clubs.html").read_text(encoding="utf-8")
    assert "failed: " in clubs and "broken" in clubs
    for club in result.clubs.itertuples():
        if club.status != "failed":
            site = Path(club.workbook).with_suffix("")
            assert (site / "index.html").exists() and (site / "style.css").exists()
            assert f'href="clubs/{site.name}/index.html"' in clubs


def test_html_needs_an_output_folder(tmp_path: Path) -> None:
    make_sim(tmp_path / "inbox", 2)
    with pytest.raises(ValueError, match="output"):
        simultaneous(tmp_path / "inbox", html=True)


def test_each_group_gets_its_clubs_rows_of_the_national_ranking() -> None:
    """The Dask engine sends each task its clubs' rows of the ranking: those rows, in the
    ranking's order, for groups of any size (a club with no ranked pair included)."""
    from types import SimpleNamespace

    from traveller.sim.engine import _per_group

    rng = np.random.default_rng(1)
    groups = [[SimpleNamespace(club_id=i) for i in ids]
              for ids in ([0, 1, 2], [3, 4, 5, 6], [7], [8, 9, 10, 11], [12])]
    ranking = pd.DataFrame({"club_id": rng.integers(0, 12, 300), "place": np.arange(300)})
    parts = _per_group(ranking, groups)  # type: ignore[arg-type]
    assert len(parts) == len(groups) and parts[-1].empty  # club 12: no pair ranked
    for group, part in zip(groups, parts, strict=True):
        ids = [c.club_id for c in group]
        pd.testing.assert_frame_equal(part, ranking[ranking["club_id"].isin(ids)])


def test_closing_our_cluster_is_quiet_and_the_callers_logging_is_kept() -> None:
    """While our own cluster closes, Dask's loggers say nothing here or on the workers
    (a late heartbeat prints a traceback under a run that went well); a cluster given
    by --scheduler keeps its logging, and this process gets its level back."""
    import logging

    from traveller.sim.engine import _closing_logs, _quiet_close

    class Client:
        def __init__(self, fails: bool = False) -> None:
            self.ran: list[object] = []
            self.fails = fails

        def run(self, function: object) -> None:
            self.ran.append(function)
            if self.fails:
                raise OSError("the cluster is gone")

    log = logging.getLogger("distributed")
    before = log.level
    log.setLevel(logging.WARNING)
    try:
        client = Client()
        with _quiet_close(client, ours=True):
            assert log.level == logging.CRITICAL
        assert client.ran == [_closing_logs] and log.level == logging.WARNING
        theirs = Client()
        with _quiet_close(theirs, ours=False):
            assert log.level == logging.WARNING
        assert theirs.ran == []
        with _quiet_close(Client(fails=True), ours=True):  # a broken cluster: no new error
            pass
        assert log.level == logging.WARNING
    finally:
        log.setLevel(before)
