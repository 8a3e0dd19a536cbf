"""Progress bars: drawn on a terminal only, never under -q or without a TTY, and the
stages report done of total (issue 25, point 4)."""

from __future__ import annotations

import io
import json
import subprocess
import sys
from pathlib import Path

import pytest
from click.testing import CliRunner

from tests.test_sim import make_sim
from traveller.batch import cli as batch_cli
from traveller.batch.summary import Outcome
from traveller.cli import main
from traveller.pipeline import process
from traveller.progress import Bar, wanted
from traveller.publish.site import write_site
from traveller.publish.workbook import write_workbook
from traveller.sim.api import simultaneous

SAMPLE = Path(__file__).resolve().parents[1] / "sample_data" / "club_session.csv"


class FakeTTY(io.StringIO):
    def isatty(self) -> bool:
        return True


def test_a_bar_on_a_terminal_shows_done_of_total_and_rate() -> None:
    stream = FakeTTY()
    with Bar("pages", "page", stream=stream, delay=0) as bar:
        assert bar.on
        for done in range(1, 4):
            bar.update(done, 3)
        bar.bar.refresh()  # (tqdm redraws at most every 0.1 s)
        drawn = stream.getvalue()
    assert "3/3" in drawn and "page/s" in drawn and "pages" in drawn


def test_no_bar_without_a_terminal_or_when_quiet() -> None:
    for bar in (Bar("x", "file", 5, stream=io.StringIO(), delay=0),
                Bar("x", "file", 5, stream=FakeTTY(), quiet=True, delay=0)):
        bar.update(3, 5)
        bar.step()
        assert not bar.on and bar.bar is None
        bar.close()
    assert not wanted(stream=io.StringIO()) and wanted(stream=FakeTTY())
    assert not wanted(quiet=True, stream=FakeTTY())


def test_tqdm_is_not_imported_without_a_terminal() -> None:
    code = ("import sys, io; from traveller.progress import Bar; "
            "b = Bar('x', 'file', 3, stream=io.StringIO()); b.update(3, 3); b.close(); "
            "print('tqdm' in sys.modules)")
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True,
                         check=True)
    assert out.stdout.strip() == "False"


def test_batch_printer_draws_only_on_a_terminal(monkeypatch: pytest.MonkeyPatch,
                                                capsys: pytest.CaptureFixture[str]) -> None:
    tty = FakeTTY()
    monkeypatch.setattr(sys, "stderr", tty)
    done = Outcome("a.csv", "done", "new", "a_results.xlsx", 10, 4, 0, {})
    for quiet, drawn in ((False, True), (True, False)):
        tty.seek(0)
        tty.truncate()
        printer = batch_cli._Printer(quiet, to_stderr=False)
        printer.bar.delay = 0
        printer.start(2, [])
        printer.file(done)
        printer.file(done)
        if printer.bar.bar is not None:
            printer.bar.bar.refresh()
        printer.stop()
        assert ("2/2" in tty.getvalue()) is drawn
        assert capsys.readouterr().out.count("a.csv -> a_results.xlsx") == 2


def test_batch_json_summary_is_the_same_without_a_terminal(tmp_path: Path) -> None:
    inbox = tmp_path / "in"
    inbox.mkdir()
    (inbox / "s.csv").write_bytes(SAMPLE.read_bytes())
    runner = CliRunner()
    out = runner.invoke(batch_cli.batch, [str(inbox), "-o", str(tmp_path / "out"), "--debug",
                                          "--summary", "-"])
    summary = json.loads(out.stdout[out.stdout.index("{"):])
    assert summary["files"][0]["status"] in ("done", "problems")
    assert "traveller batch" not in out.output  # no bar text when not a terminal


def test_workbook_and_site_count_to_their_total(tmp_path: Path) -> None:
    result = process(SAMPLE, dd=False)
    seen: list[tuple[int, int]] = []
    write_workbook(result, tmp_path / "r.xlsx", progress=lambda d, t: seen.append((d, t)))
    assert seen[-1][0] == seen[-1][1] and [d for d, _ in seen] == sorted(d for d, _ in seen)
    pages: list[tuple[int, int]] = []
    write_site(result, tmp_path / "site", progress=lambda d, t: pages.append((d, t)))
    assert pages[-1][0] == pages[-1][1] == len([p for p in (tmp_path / "site").iterdir()
                                                if p.suffix == ".html"])


def test_sim_reports_clubs_scored_then_written(tmp_path: Path) -> None:
    make_sim(tmp_path / "inbox", 3)
    seen: list[tuple[str, int, int]] = []
    simultaneous(tmp_path / "inbox", output=tmp_path / "out", clubs_per_task=1,
                 progress=lambda *a: seen.append(a))
    assert [s for s in seen if s[0] == "scored"][-1] == ("scored", 3, 3)
    assert [s for s in seen if s[0] == "written"][-1] == ("written", 3, 3)
    assert seen.index(("scored", 3, 3)) < [s[0] for s in seen].index("written")


def test_scoring_reports_each_step_in_order() -> None:
    from traveller.pipeline import STEPS

    steps: list[tuple[int, int]] = []
    process(SAMPLE, dd=False, progress=lambda d, t: steps.append((d, t)))
    assert steps == [(d, STEPS) for d in range(1, STEPS + 1)]
    method: list[int] = []  # a method without matchpoints reports the same steps, less one
    process(SAMPLE, dd=False, method="butler", progress=lambda d, t: method.append(d))
    assert method == [1, 2, 3, 5, 6]


def test_the_workbook_counts_rows_side_csvs_included(tmp_path: Path) -> None:
    result = process(SAMPLE, dd=False)
    seen: list[tuple[int, int]] = []
    write_workbook(result, tmp_path / "r.xlsx", row_limit=150,
                   progress=lambda d, t: seen.append((d, t)))
    sides = sorted(p.name for p in tmp_path.glob("r.*.csv"))
    assert sides == ["r.score_cards.csv", "r.travellers.csv"]  # over 150 rows each
    total = seen[0][1]
    assert all(t == total for _, t in seen) and seen[-1] == (total, total)
    done = [d for d, _ in seen]
    assert done == sorted(done) and len(set(done)) >= len(sides) + 2  # each CSV, then sheets
    assert done[0] == len(result.travellers)  # the first CSV's rows, before any sheet
    assert total >= len(result.ranking) + 3 * len(result.travellers)  # + the cards' 2 a result


def test_score_draws_its_bars_on_a_terminal_and_none_with_quiet(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    import traveller.progress as progress

    monkeypatch.setattr(progress, "wanted", lambda quiet=False, stream=None: not quiet)
    drawn: list[tuple[str, bool]] = []
    real_init = Bar.__init__

    def spy(self: Bar, label: str, *args: object, **kwargs: object) -> None:
        real_init(self, label, *args, **kwargs)  # type: ignore[arg-type]
        drawn.append((label, self.on))

    monkeypatch.setattr(Bar, "__init__", spy)
    for flags, on in (([], True), (["-q"], False), (["--quiet"], False)):
        drawn.clear()
        out = CliRunner().invoke(main, [
            "score", str(SAMPLE), "-o", str(tmp_path / "r.xlsx"), "--html",
            str(tmp_path / "site"), *flags])
        assert out.exit_code in (0, 3), out.output
        assert [label for label, _ in drawn] == ["scoring", "workbook", "website"]
        assert {shown for _, shown in drawn} == {on}
