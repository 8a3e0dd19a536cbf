"""The batch's end of run: every session in the results store, the named ladder updated."""

from __future__ import annotations

import json
import sqlite3
from pathlib import Path

import pytest
from click.testing import CliRunner
from test_ladder import write_session

from traveller.cli import main


def batch(inbox: Path, outdir: Path) -> dict[str, object]:
    done = CliRunner().invoke(main, ["batch", str(inbox), "-o", str(outdir), "--debug"])
    assert done.exit_code == 0, done.output
    summary: dict[str, object] = json.loads(
        (outdir / "traveller-batch-summary.json").read_text(encoding="utf-8"))
    return summary


@pytest.mark.slow  # several seconds: in .ci/run's slow part
def test_store_and_ladder_follow_a_correction(tmp_path: Path) -> None:
    inbox, outdir, club = tmp_path / "in", tmp_path / "out", tmp_path / "in" / "club"
    club.mkdir(parents=True)
    for day in (1, 2, 3):
        _, names = write_session(club, day, seed=day)
        if day == 1:
            names.rename(tmp_path / "names.csv")  # one names file for the club's season
        else:
            names.unlink()
    (club / "traveller.toml").write_text(
        'ladder = "Club 2026"\nladder_rule = "best=2,min_sessions=2"\npoints = "abf"\n'
        'names = "../../names.csv"\nhtml = true\n', encoding="utf-8")
    first = batch(inbox, outdir)
    assert "results store: 3 sessions stored or corrected" in first["notes"]
    store = outdir / "traveller-results.sqlite"
    with sqlite3.connect(store) as db:
        assert db.execute("select count(*) from sessions").fetchone() == (3,)
        assert db.execute("select count(*) from players").fetchone() == (48,)
        ids = {r[0] for r in db.execute("select player_id from players")}
        assert "" not in ids  # every player known by their federation number
    ladder = outdir / "ladders" / "club-2026.xlsx"
    assert ladder.exists() and (outdir / "ladders" / "club-2026" / "ladder.html").exists()
    index = (outdir / "index.html").read_text(encoding="utf-8")
    assert '<a href="ladders/club-2026/ladder.html">Club 2026</a>' in index
    stamp = ladder.stat().st_mtime_ns

    again = batch(inbox, outdir)  # nothing new: nothing changes
    assert not any("ladder" in str(n) or "store" in str(n) for n in again["notes"])
    assert ladder.stat().st_mtime_ns == stamp

    session = club / "2026-01-02.csv"
    lines = session.read_text(encoding="utf-8").splitlines()
    board, ns, ew, contract, by, tricks = lines[1].split(",")
    lines[1] = ",".join([board, ns, ew, contract, by, "13" if tricks != "13" else "6"])
    session.write_text("\n".join(lines) + "\n", encoding="utf-8")
    third = batch(inbox, outdir)
    assert "results store: 1 session stored or corrected" in third["notes"]
    assert any("ladder 'Club 2026':" in str(n) and "changed" in str(n)
               for n in third["notes"])
    report = (outdir / "ladders" / "club-2026_changes.txt").read_text(encoding="utf-8")
    assert "club/2026-01-02.csv corrected" in report
    with sqlite3.connect(store) as db:
        assert db.execute("select revision from sessions where key = 'club/2026-01-02.csv'"
                          ).fetchone() == (2,)
        assert db.execute("select count(*) from corrections").fetchone() == (4,)

    # the same season read from the batch's snapshots by traveller ladder
    done = CliRunner().invoke(main, ["ladder", str(outdir), "-o", str(tmp_path / "l.xlsx"),
                                     "--best", "2", "--min-sessions", "2"])
    assert done.exit_code == 0, done.output
    ours = json.loads((tmp_path / "l.json").read_text(encoding="utf-8"))["players"]
    batch_state = json.loads((outdir / "ladders" / "club-2026.json").read_text(
        encoding="utf-8"))["players"]
    assert {k: (v["rank"], v["total"]) for k, v in ours.items()} == {
        k: (v["rank"], v["total"]) for k, v in batch_state.items()}
    assert all(key.startswith("id:") for key in ours)


def test_the_store_library_loads_while_the_workers_score() -> None:
    """A run that stores sessions imports SQLAlchemy in a thread; one that stores none
    does not start it."""
    import sys
    from types import SimpleNamespace

    from traveller.batch.seasons import warm_store

    nothing = [SimpleNamespace(settings={"store": "none"}), SimpleNamespace(settings=None)]
    assert warm_store(nothing) is None  # type: ignore[arg-type]
    thread = warm_store([*nothing, SimpleNamespace(settings={})])  # type: ignore[arg-type]
    assert thread is not None
    thread.join(timeout=60)
    assert not thread.is_alive() and "sqlalchemy.dialects.sqlite" in sys.modules
