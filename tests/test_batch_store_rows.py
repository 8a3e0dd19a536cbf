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


def test_a_snapshot_table_read_without_a_frame_is_the_frame_read_back() -> None:
    from traveller.read.published import table_frame, table_records

    def shown(records: list[dict[str, object]]) -> list[list[tuple[str, str]]]:
        return [[(type(v).__name__, repr(v)) for v in r.values()] for r in records]

    plain = {"key": ["section", "pair"], "columns": ["names", "award", "pct"],
             "rows": [["", 1, "A - B", 2, 55.5], ["A", 2, "", 1.5, 44.5]]}
    records = table_records(plain)
    assert records is not None
    assert shown(records) == shown(table_frame(plain).to_dict("records"))
    assert records[0]["award"] == 2.0 and isinstance(records[0]["award"], float)
    # a missing cell or a truth value: left to the frame, which makes NaN of None
    for odd in (None, True):
        table = {**plain, "rows": [["", 1, "A - B", odd, 55.5], *plain["rows"][1:]]}
        assert table_records(table) is None
    empty = {**plain, "rows": []}
    assert table_records(empty) == table_frame(empty).to_dict("records") == []
