"""A large site's pair pages written by a second, forked process: the same pages, and
failures on either side that leave nothing behind."""

from __future__ import annotations

import errno
import hashlib
import os
import signal
import time
from collections.abc import Callable
from dataclasses import replace
from pathlib import Path

import pytest
from click.testing import CliRunner
from conftest import SAMPLE_DATA

import traveller.publish.site as site_module
from traveller.cli import main
from traveller.pipeline import Result, process
from traveller.publish.forked import BothEnds, Forked, can_fork
from traveller.publish.meta import Publication
from traveller.publish.outputs import stamp
from traveller.publish.site import SiteWriter, Unit, pages_count, site_jobs, write_site

pytestmark = pytest.mark.skipif(not can_fork(), reason="the second process is forked (Linux)")


def files(folder: Path) -> dict[str, str]:
    return {p.name: hashlib.sha256(p.read_bytes()).hexdigest() for p in sorted(folder.iterdir())}


def stamped(path: Path, **keywords: object) -> Result:
    result = process(path, **keywords)  # type: ignore[arg-type]
    stamp(result, Publication(correction_minutes=0))
    return result


@pytest.mark.parametrize(("source", "keywords"), [
    ("club_session.xlsx", {}),  # a Mitchell, frequencies
    ("club_session.csv", {"names": SAMPLE_DATA / "names.csv", "method": "butler"}),
    ("individual_session.csv", {"names": SAMPLE_DATA / "individual_names.csv"}),
])
def test_two_processes_write_the_pages_one_writes(tmp_path: Path, source: str,
                                                  keywords: dict[str, object],
                                                  monkeypatch: pytest.MonkeyPatch) -> None:
    result = stamped(SAMPLE_DATA / source, **keywords)
    assert site_jobs(result, 2) == 2
    one = write_site(result, tmp_path / "one", jobs=1)
    total = pages_count(result)
    calls: list[tuple[int, int]] = []
    for size in (site_module.UNIT_RESULTS, 9):  # one unit of boards and one of pairs; many
        monkeypatch.setattr(site_module, "UNIT_RESULTS", size)
        assert len(site_module.units(result)) > (2 if size == 9 else 0)
        calls.clear()
        two = write_site(result, tmp_path / f"two{size}", jobs=2,
                         progress=lambda done, total: calls.append((done, total)))
        assert files(one) == files(two)
        assert calls[-1] == (total, total) and {t for _, t in calls} == {total}
        assert [d for d, _ in calls] == sorted(d for d, _ in calls)  # never backwards
    assert len(list(tmp_path.iterdir())) == 3  # no temporary folder left


def test_both_ends_give_each_unit_once_across_a_fork() -> None:
    shared = BothEnds(list(range(500)))

    def work(tick: Callable[[], None]) -> None:
        for _ in iter(shared.back, None):
            tick()

    helper = Forked(work)
    mine = list(iter(shared.front, None))
    helper.join()
    assert mine == list(range(len(mine)))  # from the front, in order
    assert helper.done == 500 - len(mine)  # the child took all the rest, from the back
    assert shared.front() is None and shared.back() is None
    shared.close()


def test_the_processes_are_chosen_by_the_session(monkeypatch: pytest.MonkeyPatch) -> None:
    small = process(SAMPLE_DATA / "club_session.csv")
    assert site_jobs(small, None) == 1  # a club session: well under a second in one
    assert site_jobs(small, 1) == 1
    assert site_jobs(small, 2) == 2
    monkeypatch.setattr(site_module, "PARALLEL_FROM", len(small.travellers))
    monkeypatch.setattr("traveller.publish.forked.cores", lambda: 1)
    assert site_jobs(small, None) == 1  # one core: nothing to gain
    monkeypatch.setattr("traveller.publish.forked.cores", lambda: 2)
    assert site_jobs(small, None) == 2
    monkeypatch.setattr("traveller.publish.forked.room_for_a_copy", lambda: False)
    assert site_jobs(small, None) == 1  # no memory to spare for it
    monkeypatch.undo()
    no_pairs = replace(small, ranking=small.ranking.drop(columns="pair"))  # (teams: teams)
    assert site_jobs(no_pairs, 2) == 1  # no pair pages to share out


def test_a_failure_in_the_second_process_is_raised_and_leaves_nothing(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    result = stamped(SAMPLE_DATA / "club_session.xlsx")
    old = write_site(result, tmp_path / "site")
    before = files(old)

    here, real = os.getpid(), site_module.frequency_pages

    def full(*args: object, **kwargs: object) -> object:
        if os.getpid() == here:  # (the frequencies are the second's alone)
            return real(*args, **kwargs)  # type: ignore[arg-type]
        raise OSError(errno.ENOSPC, "No space left on device")

    monkeypatch.setattr(site_module, "frequency_pages", full)
    with pytest.raises(OSError) as raised:
        write_site(result, old, jobs=2)
    assert raised.value.errno == errno.ENOSPC  # as the command line tells a full disk
    assert files(old) == before  # the site as it was
    assert sorted(p.name for p in tmp_path.iterdir()) == ["site"]


def test_a_second_process_killed_from_outside_leaves_its_pages_to_this_one(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """Killed (the out-of-memory killer's SIGKILL) after taking its pages, the second
    process's pages are written here: the site is the one a single process writes."""
    result = stamped(SAMPLE_DATA / "club_session.xlsx")
    one = files(write_site(result, tmp_path / "one"))
    here, real = os.getpid(), site_module.pair_pages
    monkeypatch.setattr(site_module, "UNIT_RESULTS", 9)  # many units: it takes one first
    taken: list[list[Unit]] = []
    real_taken = BothEnds.taken_from_back

    def spy(self: BothEnds[Unit]) -> list[Unit]:
        taken.append(real_taken(self))
        return taken[-1]

    monkeypatch.setattr(BothEnds, "taken_from_back", spy)

    def killed(*args: object, **kwargs: object) -> object:
        if os.getpid() == here:  # (it dies in the first unit of pair pages it takes)
            return real(*args, **kwargs)  # type: ignore[arg-type]
        os.kill(os.getpid(), signal.SIGKILL)
        raise AssertionError

    monkeypatch.setattr(site_module, "pair_pages", killed)
    boards, waited = site_module.board_pages, [False]

    def unhurried(*args: object, **kwargs: object) -> object:  # here, at first: the second
        if os.getpid() == here and not waited[0]:  # process takes its first unit meanwhile
            waited[0] = True
            time.sleep(1.0)
        return boards(*args, **kwargs)  # type: ignore[arg-type]

    monkeypatch.setattr(site_module, "board_pages", unhurried)
    assert files(write_site(result, tmp_path / "two", jobs=2)) == one
    assert taken and taken[0] and taken[0][0][0] == "pairs"  # its unit, written here
    assert sorted(p.name for p in tmp_path.iterdir()) == ["one", "two"]


def test_a_second_process_ended_otherwise_is_an_error_not_a_site(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    result = stamped(SAMPLE_DATA / "club_session.xlsx")
    here, real = os.getpid(), site_module.frequency_pages

    def crashed(*args: object, **kwargs: object) -> object:
        if os.getpid() == here:
            return real(*args, **kwargs)  # type: ignore[arg-type]
        signal.signal(signal.SIGUSR1, signal.SIG_DFL)  # (ends it: another signal than
        os.kill(os.getpid(), signal.SIGUSR1)  # the out-of-memory killer's is not redone)
        raise AssertionError

    monkeypatch.setattr(site_module, "frequency_pages", crashed)
    with pytest.raises(RuntimeError, match=f"killed by signal {int(signal.SIGUSR1)}"):
        write_site(result, tmp_path / "site", jobs=2)
    assert list(tmp_path.iterdir()) == []


def test_a_failure_here_stops_the_second_process(tmp_path: Path,
                                                 monkeypatch: pytest.MonkeyPatch) -> None:
    result = stamped(SAMPLE_DATA / "club_session.xlsx")

    here, real = os.getpid(), site_module.frequency_pages

    def slow(*args: object, **kwargs: object) -> object:
        if os.getpid() == here:  # (the frequencies are the second's alone)
            return real(*args, **kwargs)  # type: ignore[arg-type]
        time.sleep(60)
        return iter(())

    monkeypatch.setattr(site_module, "frequency_pages", slow)
    monkeypatch.setattr(site_module, "board_pages", lambda *a, **k: 1 / 0)
    clock = time.monotonic()
    with SiteWriter(result, tmp_path / "site", jobs=2) as writer:
        helper = writer.helper
        assert helper is not None
        with pytest.raises(ZeroDivisionError):
            writer.finish()
    assert time.monotonic() - clock < 30  # not left to sleep out its minute
    with pytest.raises(ChildProcessError):
        os.waitpid(helper.pid, os.WNOHANG)  # stopped and reaped
    assert list(tmp_path.iterdir()) == []


def test_score_begins_a_large_site_before_the_workbook(tmp_path: Path,
                                                       monkeypatch: pytest.MonkeyPatch) -> None:
    """The command line's site takes two processes from PARALLEL_FROM results on; a
    workbook that cannot be written stops it and leaves no site."""
    source = SAMPLE_DATA / "club_session.xlsx"
    monkeypatch.setattr(site_module, "PARALLEL_FROM", 1)
    monkeypatch.setattr("traveller.publish.forked.cores", lambda: 2)
    begun: list[int] = []
    real_init = SiteWriter.__init__

    def spy(self: SiteWriter, *args: object, **kwargs: object) -> None:
        real_init(self, *args, **kwargs)  # type: ignore[arg-type]
        begun.append(0 if self.helper is None else self.helper.pid)

    monkeypatch.setattr(SiteWriter, "__init__", spy)
    out = tmp_path / "out"
    done = CliRunner().invoke(main, ["score", str(source), "-o", str(out / "r.xlsx"),
                                     "--html", str(out / "site"), "--final"])
    assert done.exit_code == 0, done.output
    assert len(begun) == 1 and begun[0] > 0
    monkeypatch.setattr(site_module, "PARALLEL_FROM", 10**9)
    alone = CliRunner().invoke(main, ["score", str(source), "-o", str(tmp_path / "a.xlsx"),
                                      "--html", str(tmp_path / "alone"), "--final"])
    assert alone.exit_code == 0 and begun[-1] == 0
    assert files(out / "site") == files(tmp_path / "alone")
    monkeypatch.setattr(site_module, "PARALLEL_FROM", 1)

    def locked(*args: object, **kwargs: object) -> object:
        raise OSError(errno.EACCES, "Permission denied", str(out / "again.xlsx"))

    monkeypatch.setattr("traveller.publish.workbook.write_workbook", locked)
    again = CliRunner().invoke(main, ["score", str(source), "-o", str(out / "again.xlsx"),
                                      "--html", str(out / "site2"), "--final"])
    assert again.exit_code == 1 and "Permission denied" in again.output
    assert sorted(p.name for p in out.iterdir()) == ["r.director.html", "r.xlsx", "site"]
    with pytest.raises(ChildProcessError):
        os.waitpid(begun[-1], os.WNOHANG)

