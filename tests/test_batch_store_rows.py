"""The results store's rows made by the batch's workers are the rows the snapshots give
(issue 25: the end of a run no longer works them out one session after another)."""

from __future__ import annotations

import sqlite3
from pathlib import Path

from test_batch_seasons import batch
from test_ladder import write_session


def _tables(store: Path) -> dict[str, list[tuple[object, ...]]]:
    with sqlite3.connect(store) as db:
        return {"sessions": sorted(db.execute("select * from sessions")),
                "players": sorted(db.execute("select * from players"), key=repr),
                "corrections": sorted(db.execute(
                    "select session, revision, published, snapshot_before, snapshot "
                    "from corrections"))}


def test_store_rows_from_the_workers_equal_those_from_the_snapshots(tmp_path: Path) -> None:
    inbox, outdir, club = tmp_path / "in", tmp_path / "out", tmp_path / "in" / "club"
    club.mkdir(parents=True)
    for day in (1, 2):
        _, names = write_session(club, day, seed=day)
        if day == 1:
            names.rename(tmp_path / "names.csv")
        else:
            names.unlink()
    (club / "traveller.toml").write_text('points = "abf"\nnames = "../../names.csv"\n',
                                         encoding="utf-8")
    (inbox / "other").mkdir()  # a folder without names or points: names split from the pair
    write_session(inbox / "other", 3, seed=3)[1].unlink()
    first = batch(inbox, outdir)  # the rows made beside each snapshot, in the run
    assert "results store: 3 sessions stored or corrected" in first["notes"]
    store = outdir / "traveller-results.sqlite"
    made = _tables(store)
    assert len(made["players"]) >= 32 and any(r[-1] for r in made["players"])  # awards too
    store.unlink()
    again = batch(inbox, outdir)  # nothing new, the store missing: read from the snapshots
    assert "results store: 3 sessions stored or corrected" in again["notes"]
    assert _tables(store) == made
