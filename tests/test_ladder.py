"""Season ladders: a dozen generated sessions against a plain reference, then a correction."""

from __future__ import annotations

import random
import shutil
from pathlib import Path
from typing import Any

import openpyxl
import pandas as pd
import pytest
from click.testing import CliRunner

import traveller
from traveller.cli import main
from traveller.publish.site import write_site
from traveller.season import LadderError, LadderRule, write_ladder

POOL = [(f"Player {chr(65 + i)}{i}", str(1000 + i)) for i in range(20)]
SESSIONS = 12


def write_session(folder: Path, day: int, seed: int, flip: bool = False) -> tuple[Path, Path]:
    """A 4-table Mitchell of 8 boards, its names file: 16 of the pool, paired at random."""
    rng = random.Random(seed)
    rows = []
    for r in range(4):
        for t in range(4):
            for board in (2 * r + 1, 2 * r + 2):
                tricks = rng.randint(6, 12)
                if flip and day == 5 and r == 0 and t == 0 and board == 1:
                    tricks = 13 if tricks < 13 else 6  # the correction
                rows.append(f"{board},{t + 1},{(t + r) % 4 + 1},3NT,N,{tricks}")
    travellers = folder / f"2026-01-{day:02d}.csv"
    travellers.write_text("Board,NS,EW,Contract,By,Tricks\n" + "\n".join(rows) + "\n",
                          encoding="utf-8")
    chosen = rng.sample(POOL, 16)
    names = folder / f"names-{day:02d}.csv"
    lines = [f"{p},{line},{a[0]},{a[1]},{b[0]},{b[1]}"
             for i, (a, b) in enumerate(zip(chosen[::2], chosen[1::2], strict=True))
             for p, line in [(i % 4 + 1, "NS" if i < 4 else "EW")]]
    names.write_text("Pair,Line,Player 1,ID 1,Player 2,ID 2\n" + "\n".join(lines) + "\n",
                     encoding="utf-8")
    return travellers, names


def publish_all(inputs: Path, results: Path, flip: bool = False,
                only: int | None = None) -> dict[int, traveller.Result]:
    out = {}
    for day in range(1, SESSIONS + 1):
        if only is not None and day != only:
            continue
        travellers, names = write_session(inputs, day, seed=day, flip=flip)
        result = traveller.process(travellers, names=names, points="abf")
        result.to_excel(results / f"2026-01-{day:02d}_results.xlsx")
        out[day] = result
    return out


def reference(results: dict[int, traveller.Result], best: int, latest: int,
              min_sessions: int, min_partners: int) -> dict[str, tuple[float, set[int]]]:
    """The ladder worked out plainly: federation number -> (total, days counted)."""
    played: dict[str, list[tuple[int, float, str]]] = {}
    for day, result in results.items():
        points = result.points
        assert points is not None
        pct = {(str(r.line), int(r.pair)): float(r.pct) for r in result.ranking.itertuples()}
        for (line, pair), group in points.groupby(["line", "pair"]):
            ids = list(group["player_id"])
            for me, partner in ((ids[0], ids[1]), (ids[1], ids[0])):
                played.setdefault(me, []).append((day, round(pct[(line, int(pair))], 6),
                                                  partner))
    out = {}
    for player, sessions in played.items():
        window = sorted(sessions, key=lambda s: -s[0])[:latest]
        if len(window) < min_sessions or len({s[2] for s in sessions}) < min_partners:
            continue
        counted = sorted(window, key=lambda s: (-s[1], -s[0]))[:best]
        out[player] = (round(sum(s[1] for s in counted), 2), {s[0] for s in counted})
    return out


@pytest.fixture(scope="module")
def season(tmp_path_factory: pytest.TempPathFactory) -> tuple[Path, Path, dict[int, Any]]:
    inputs = tmp_path_factory.mktemp("inputs")
    results = tmp_path_factory.mktemp("results")
    return inputs, results, publish_all(inputs, results)


def test_a_dozen_sessions_match_the_plain_reference(season: tuple[Path, Path, Any]) -> None:
    _, results, published = season
    rule = LadderRule(best=6, of=10, min_sessions=4, min_partners=3)
    got = traveller.ladder([results], rule)
    expected = reference(published, best=6, latest=10, min_sessions=4, min_partners=3)
    table = got.standings[got.standings["qualified"]]
    assert set(table["player_id"]) == set(expected)  # by number, from the Master points sheet
    for row in table.itertuples():
        total, days = expected[row.player_id]
        assert row.total == pytest.approx(total, abs=0.01)
        counted = got.sessions[(got.sessions["player_id"] == row.player_id)
                               & got.sessions["counted"]]
        assert {int(s[8:10]) for s in counted["session"]} == days
    ranks = table.sort_values("total", ascending=False)["rank"].str.rstrip("=").astype(int)
    assert ranks.is_monotonic_increasing
    assert not got.notes  # every player has a number: no look-alike names


def test_points_ladder_adds_the_master_points(season: tuple[Path, Path, Any]) -> None:
    _, results, published = season
    got = traveller.ladder([results], LadderRule(by="points"))
    totals: dict[str, float] = {}
    for result in published.values():
        for name, award in zip(result.points["player"], result.points["award"],
                               strict=True):
            totals[name] = totals.get(name, 0.0) + award
    for row in got.standings.itertuples():
        assert row.total == pytest.approx(totals[row.player], abs=0.005)


def test_a_correction_moves_players_and_the_report_says_why(
        tmp_path: Path, season: tuple[Path, Path, Any]) -> None:
    inputs, results = tmp_path / "in", tmp_path / "out"
    inputs.mkdir()
    shutil.copytree(season[1], results)  # the season as published
    output = tmp_path / "ladder.xlsx"
    runner = CliRunner()
    args = ["ladder", str(results), "-o", str(output), "--best", "6", "--html",
            str(tmp_path / "site")]
    first = runner.invoke(main, args)
    assert first.exit_code == 0, first.output
    stamp = output.stat().st_mtime_ns
    again = runner.invoke(main, args)
    assert "nothing changed" in again.output
    assert output.stat().st_mtime_ns == stamp  # re-run with nothing new: nothing rewritten
    publish_all(inputs, results, flip=True, only=5)  # session 5 corrected and re-published
    third = runner.invoke(main, args)
    assert third.exit_code == 0, third.output
    report = (tmp_path / "ladder_changes.txt").read_text(encoding="utf-8")
    assert "2026-01-05_results.xlsx corrected" in report
    assert "→" in report
    sheet = openpyxl.load_workbook(output)["Ladder"]
    header = [c.value for c in sheet[4]]
    assert header[:3] == ["Rank", "Player", "ID"] and len(header) == 9 + SESSIONS
    pages = sorted(p.name for p in (tmp_path / "site").glob("player-*.html"))
    assert len(pages) == len(POOL)
    history = (tmp_path / "site" / "player-1.html").read_text(encoding="utf-8")
    assert "Partner" in history and "2026-01-" in history


def test_imp_sessions_need_the_clubs_k(tmp_path: Path) -> None:
    rows = pd.DataFrame({
        "session": ["a", "a", "b", "b"], "title": "", "date": ["2026-01-01"] * 2 +
        ["2026-01-08"] * 2, "method": ["mp", "mp", "ximp", "ximp"],
        "player_key": ["id:1", "id:2"] * 2, "player": ["A", "B"] * 2,
        "player_id": ["1", "2"] * 2, "partner": ["B", "A"] * 2,
        "partner_key": ["id:2", "id:1"] * 2, "place": ["1"] * 4,
        "pct": [60.0, 60.0, None, None], "average": [None, None, 1.5, 1.5],
        "award": [None] * 4})
    with pytest.raises(LadderError, match="k of"):
        traveller.ladder(rows=rows)
    got = traveller.ladder(rows=rows, rule=LadderRule(imp_k=6.0))
    assert got.standings["total"].tolist() == [119.0, 119.0]  # 60 + (50 + 6 x 1.5)
    dated = traveller.ladder(rows=rows, rule=LadderRule(imp_k=6, date_from="2026-01-05"))
    assert dated.standings["total"].tolist() == [59.0, 59.0]


def test_look_alike_spellings_are_noted(tmp_path: Path) -> None:
    rows = pd.DataFrame({
        "session": ["a", "a", "b", "b"], "title": "", "date": "", "method": "mp",
        "player_key": ["name:Jan Kowalski", "name:Ewa Nowak", "name:KOWALSKI Jan",
                       "name:Ewa Nowak"],
        "player": ["Jan Kowalski", "Ewa Nowak", "KOWALSKI Jan", "Ewa Nowak"],
        "player_id": "", "partner": "", "partner_key": "", "place": "1",
        "pct": 55.0, "average": None, "award": None})
    got = traveller.ladder(rows=rows)
    assert len(got.notes) == 1 and "'Jan Kowalski' and 'KOWALSKI Jan'" in got.notes[0]
    write_ladder(got, tmp_path / "l.xlsx", site=tmp_path / "site")
    cells = [c.value for row in openpyxl.load_workbook(tmp_path / "l.xlsx")["Ladder"]
             for c in row if c.value]
    assert any(str(c).startswith("Note: two spellings") for c in cells)
    assert "KOWALSKI Jan" in (tmp_path / "site" / "ladder.html").read_text(encoding="utf-8")


def test_nothing_written_when_nothing_changed(tmp_path: Path,
                                              season: tuple[Path, Path, Any]) -> None:
    got = traveller.ladder([season[1]], "best=3")
    out = tmp_path / "l.xlsx"
    assert write_ladder(got, out)
    assert write_ladder(traveller.ladder([season[1]], "best=3"), out) == []


@pytest.mark.parametrize(("text", "key", "date"), [
    ("Riverside · 2026-11-03 · Final results", "x.xlsx", "2026-11-03"),
    ("EL Wed 10.00am Open (27/07/2022)", "", "2022-07-27"),
    ("Tuesday pairs, 3 November 2026", "", "2026-11-03"),
    ("Tuesday pairs", "club/2026-01-05.csv", "2026-01-05"),
    ("Tuesday pairs", "club/tuesday.csv", "")])
def test_a_sessions_date_is_found_where_it_is_written(text: str, key: str, date: str) -> None:
    from traveller.score.sessions import session_date

    assert session_date(text, key) == date


def test_ladder_command_refuses_an_output_that_is_not_a_workbook(tmp_path: Path) -> None:
    done = CliRunner().invoke(main, ["ladder", str(tmp_path), "-o", str(tmp_path / "l.csv")])
    assert done.exit_code == 2 and "written as .xlsx" in done.output
    points = CliRunner().invoke(main, ["ladder", str(tmp_path), "-o", str(tmp_path / "l.xlsx"),
                                       "--best", "0"])
    assert points.exit_code == 2  # a count of at least 1


def test_a_total_and_average_at_a_half_hundredth_round_away_from_zero() -> None:
    """55.125 % and 60 %: a total of 115.125 shows as 115.13 and ranks above 115.12 (numpy
    rounded it to even, 115.12, and called the two level); the average 57.5625 is 57.56,
    rounded once from the exact total."""
    from traveller.score.ladder import standings

    rows = pd.DataFrame({
        "player": ["Ann", "Ann", "Bob", "Bob"], "player_key": ["a", "a", "b", "b"],
        "player_id": ["1", "1", "2", "2"], "partner_key": ["x", "y", "x", "y"],
        "session": ["s1", "s2", "s1", "s2"], "date": ["2026-01-01", "2026-01-08"] * 2,
        "method": ["mp"] * 4, "pct": [55.125, 60.0, 55.12, 60.0], "average": [None] * 4,
        "award": [None] * 4})
    table, _ = standings(rows, LadderRule())
    got = table.set_index("player")
    assert got.loc["Ann", "total"] == 115.13 and got.loc["Bob", "total"] == 115.12
    assert got.loc["Ann", "average"] == 57.56 and got.loc["Bob", "average"] == 57.56
    assert got.loc["Ann", "rank"] == "1" and got.loc["Bob", "rank"] == "2"


SAMPLES = Path(__file__).parents[1] / "sample_data"


def ladder_run(*args: object) -> Any:
    """``traveller ladder ARGS`` (its notes are warnings on ``stderr``)."""
    return CliRunner().invoke(main, ["ladder", *map(str, args)])


def named_session(folder: Path, day: int) -> Path:
    """A pairs session's results workbook with every player named (:func:`write_session`)."""
    travellers, names = write_session(folder, day, seed=day)
    book = folder / f"2026-01-{day:02d}_results.xlsx"
    traveller.process(travellers, names=names).to_excel(book)
    travellers.unlink()
    names.unlink()
    return book


def ladder_cells(book: Path) -> list[str]:
    return [str(c.value) for row in openpyxl.load_workbook(book)["Ladder"] for c in row
            if c.value is not None]


def test_an_individual_sessions_workbook_counts_each_players_percentage(tmp_path: Path
                                                                        ) -> None:
    """The README's ladder over a batch of the samples raised "data type 'Int64' not
    understood" on the individual's workbook (its Ranking heads the numbers Player, not
    Pair), then stopped the whole ladder with an error: now each player's own % counts."""
    folder = tmp_path / "results"
    folder.mkdir()
    result = traveller.process(SAMPLES / "individual_session.csv",
                               names=SAMPLES / "individual_names.csv")
    result.to_excel(folder / "individual.xlsx")
    named_session(folder, 1)
    run = ladder_run(folder, "-o", tmp_path / "ladder.xlsx")
    assert run.exit_code == 0, (run.output, run.stderr, run.exception)
    got = traveller.ladder([folder / "individual.xlsx"])
    expected = dict(zip(result.ranking["names"], result.ranking["pct"].round(2), strict=True))
    assert dict(zip(got.standings["player"], got.standings["total"], strict=True)) == expected
    assert "28 players over 2 sessions" in run.stdout  # 12 and 16: both sessions count
    cells = ladder_cells(tmp_path / "ladder.xlsx")
    assert "Anna Nowak" in cells and "Player A0" in cells
    assert any("individual.xlsx: an individual session" in c for c in cells)
    assert "an individual session" in run.stderr


def test_a_workbook_that_cannot_count_is_named_and_the_others_still_count(tmp_path: Path
                                                                          ) -> None:
    """An individual scored without names and a broken workbook: each named with why in
    the notes, on the page and on stderr (exit 3), never a traceback, and the named
    session still ranked (one such workbook stopped the whole ladder)."""
    folder = tmp_path / "results"
    folder.mkdir()
    traveller.process(SAMPLES / "individual_session.csv").to_excel(folder / "individual.xlsx")
    (folder / "broken.xlsx").write_bytes(b"not a workbook")
    named_session(folder, 1)
    output = tmp_path / "ladder.xlsx"
    run = ladder_run(folder, "-o", output, "--html", tmp_path / "site")
    assert run.exit_code == 3, (run.output, run.exception)
    assert "16 players over 1 session (2 sessions not counted" in run.stdout
    for name in ("individual.xlsx: its ranking names no players", "broken.xlsx: not a "
                 "readable workbook"):
        assert name in run.stderr
        assert any(name in c and c.startswith("Note: not counted: ") for c in ladder_cells(
            output))
        assert name in (tmp_path / "site" / "ladder.html").read_text(encoding="utf-8")
    season = traveller.ladder([folder])  # the Python API is told the same
    assert len(season.uncounted) == 2 and len(season.standings) == 16
    for name in ("individual.xlsx: its ranking names no players", "broken.xlsx: not a "
                 "readable workbook"):
        assert any(name in n and n.startswith("not counted: ") for n in season.notes)


def test_a_rerun_rewrites_the_ladder_when_only_its_notes_or_rule_changed(tmp_path: Path
                                                                         ) -> None:
    """The standings alone decided whether to rewrite: a broken workbook added to the
    folder, or another --best that changes no total, left the ladder saying the old notes
    and the old rule (the run said "see the notes under the ladder")."""
    folder = tmp_path / "results"
    folder.mkdir()
    named_session(folder, 1)
    output = tmp_path / "ladder.xlsx"
    assert ladder_run(folder, "-o", output).exit_code == 0
    (folder / "broken.xlsx").write_bytes(b"not a workbook")
    run = ladder_run(folder, "-o", output)
    assert run.exit_code == 3 and "nothing changed" not in run.stdout, run.output
    assert any("broken.xlsx: not a readable workbook" in c for c in ladder_cells(output))
    (folder / "broken.xlsx").unlink()
    run = ladder_run(folder, "-o", output, "--best", "4")
    assert run.exit_code == 0 and "nothing changed" not in run.stdout, run.output
    cells = ladder_cells(output)
    assert not any("broken.xlsx" in c for c in cells)
    assert any("best 4" in c for c in cells), cells
    assert "nothing changed" in ladder_run(folder, "-o", output, "--best", "4").stdout


def test_a_results_workbook_with_nothing_scored_is_named_as_such(tmp_path: Path) -> None:
    """The workbook of a file that could not be read (or none of whose rows scored) has
    an empty ranking: the ladder says nothing was scored there, not that no pair was."""
    folder = tmp_path / "results"
    folder.mkdir()
    named_session(folder, 1)
    broken = tmp_path / "tue.csv"
    broken.write_text("Board,NS,EW,Contract,By,Tricks\n", encoding="utf-8")
    assert CliRunner().invoke(main, ["score", str(broken), "-o",
                                     str(folder / "tue_results.xlsx")]).exit_code == 1
    season = traveller.ladder([folder])
    assert len(season.standings) == 16
    assert [n for n in season.notes if "tue_results.xlsx" in n] == [
        f"not counted: {folder / 'tue_results.xlsx'}: nothing is ranked in it (nothing could "
        "be scored; its Problems sheet says why)"]


def test_sessions_without_names_are_named_not_silently_dropped(tmp_path: Path) -> None:
    """club_session and rulings_session scored without names gave "32 players over 1
    session", the two sessions dropped without a word; from a batch's OUTDIR too."""
    folder = tmp_path / "results"
    folder.mkdir()
    for sample in ("club_session", "rulings_session"):
        traveller.process(SAMPLES / f"{sample}.csv").to_excel(folder / f"{sample}.xlsx")
    named_session(folder, 1)
    run = ladder_run(folder, "-o", tmp_path / "ladder.xlsx")
    assert run.exit_code == 3, (run.output, run.stderr)
    assert "16 players over 1 session (2 sessions not counted" in run.stdout
    for sample in ("club_session", "rulings_session"):
        why = f"{folder / sample}.xlsx: its ranking names no players"
        assert why in run.stderr
        assert any(why in c for c in ladder_cells(tmp_path / "ladder.xlsx"))
    inbox, outdir = tmp_path / "inbox", tmp_path / "out"
    inbox.mkdir()
    shutil.copy(SAMPLES / "club_session.csv", inbox)
    batch = CliRunner().invoke(main, ["batch", str(inbox), "-o", str(outdir), "-j", "1", "-q"])
    assert batch.exit_code == 0, batch.output
    run = ladder_run(outdir, "-o", tmp_path / "batch-ladder.xlsx")
    assert run.exit_code == 3
    assert f"{outdir / 'club_session_results.xlsx'}: its ranking names no players" in run.stderr


def test_the_ladder_never_overwrites_a_workbook_it_reads(tmp_path: Path) -> None:
    """-o naming one of the results workbooks (given, or inside a folder given) replaced
    it with the ladder; a ladder already in the folder (no Ranking sheet) is rewritten."""
    folder = tmp_path / "results"
    folder.mkdir()
    book = folder / "tuesday.xlsx"
    traveller.process(Path(__file__).parents[1] / "sample_data" / "club_session.csv"
                      ).to_excel(book)
    before = book.read_bytes()
    for given in (folder, book):
        run = CliRunner().invoke(main, ["ladder", str(given), "-o", str(book)])
        assert run.exit_code == 2 and "the ladder would overwrite it" in run.output
        assert book.read_bytes() == before
    run = CliRunner().invoke(main, ["ladder", str(folder), "-o", str(folder / "ladder.xlsx")])
    assert run.exit_code in (0, 3), run.output
    again = CliRunner().invoke(main, ["ladder", str(folder), "-o", str(folder / "ladder.xlsx")])
    assert again.exit_code in (0, 3), again.output


def test_the_ladder_never_overwrites_a_file_it_reads_or_did_not_write(tmp_path: Path) -> None:
    """Beyond a session's workbook: a broken workbook in the folder (still read, to be
    named), the batch's record, and the standings JSON beside -o over a file the ladder
    did not write; each a usage error before anything is written."""
    folder = tmp_path / "results"
    folder.mkdir()
    named_session(folder, 1)
    broken = folder / "broken.xlsx"
    broken.write_bytes(b"not a workbook")
    mine = tmp_path / "club.json"
    mine.write_text('{"members": 40}', encoding="utf-8")
    state = folder / ".traveller-batch"
    state.mkdir()
    for output, said in ((broken, "the ladder would overwrite it"),
                         (state / "manifest.xlsx", "the ladder would overwrite it"),
                         (tmp_path / "club.xlsx", "was not written by the ladder")):
        run = ladder_run(folder, "-o", output)
        assert run.exit_code == 2 and said in run.stderr and str(output) in run.stderr
    assert broken.read_bytes() == b"not a workbook"
    assert mine.read_text(encoding="utf-8") == '{"members": 40}'
    assert not (state / "manifest.json").exists() and not (tmp_path / "club.xlsx").exists()
    ok = ladder_run(folder, "-o", tmp_path / "ladder.xlsx")
    assert ok.exit_code == 3, ok.stderr  # (broken.xlsx named)
    assert ladder_run(folder, "-o", tmp_path / "ladder.xlsx").exit_code == 3  # its own JSON


def test_html_refuses_a_folder_of_other_files(tmp_path: Path) -> None:
    """--html sample_data dropped the ladder's pages among the samples: like score --html,
    only a new or empty folder or the ladder's own site, checked before anything is read;
    a session's website is refused too (it is replaced as a whole when re-published)."""
    folder = tmp_path / "results"
    folder.mkdir()
    named_session(folder, 1)
    samples = tmp_path / "samples"
    samples.mkdir()
    (samples / "club_session.csv").write_text("Board,NS,EW\n", encoding="utf-8")
    session_site = tmp_path / "session-site"
    write_site(traveller.process(SAMPLES / "club_session.csv"), session_site)
    for site, said in ((samples, "holds other files"), (folder, "the ladder reads"),
                       (session_site, "a session's website")):
        before = sorted(p.name for p in site.rglob("*"))
        run = ladder_run(folder, "-o", tmp_path / "ladder.xlsx", "--html", site)
        assert run.exit_code == 2 and said in run.stderr and str(site) in run.stderr
        assert sorted(p.name for p in site.rglob("*")) == before
        assert not (tmp_path / "ladder.xlsx").exists()
    site = tmp_path / "site"
    for _ in range(2):  # its own site, again
        run = ladder_run(folder, "-o", tmp_path / "ladder.xlsx", "--html", site)
        assert run.exit_code == 0, run.stderr
    (tmp_path / "ladder.json").unlink()  # (so it is written again)
    (site / ".traveller-site").unlink()  # a ladder's site written before the marker
    (site / "player-99.html").write_text("a player who left", encoding="utf-8")
    run = ladder_run(folder, "-o", tmp_path / "ladder.xlsx", "--html", site)
    assert run.exit_code == 0, run.stderr
    assert (site / ".traveller-site").is_file() and not (site / "player-99.html").exists()
