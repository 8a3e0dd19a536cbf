"""The results store: SQLite beside the output, and PostgreSQL by URL (a real server)."""

from __future__ import annotations

import os
import sqlite3
import uuid
from pathlib import Path

import pandas as pd
import pytest

from traveller.publish.store import corrections, read_store, store_sessions, store_url
from traveller.score.ladder import SESSION_COLUMNS

#: The server .ci/run starts; override with TRAVELLER_POSTGRES_URL.
POSTGRES_URL = os.environ.get(
    "TRAVELLER_POSTGRES_URL",
    "postgresql+psycopg://postgres:traveller@127.0.0.1:5432/traveller_test")


def rows(session: str, pct: float) -> pd.DataFrame:
    return pd.DataFrame([(session, "Tuesday", "2026-01-06", "mp", f"id:{i}", f"P{i}", str(i),
                          f"P{i ^ 1}", f"id:{i ^ 1}", "1", pct, None, 0.5) for i in range(4)],
                        columns=SESSION_COLUMNS)


def facts(key: str, snapshot: str) -> dict[str, object]:
    return {"key": key, "title": "Tuesday", "date": "2026-01-06", "method": "mp",
            "points_scale": "ABF green points", "ladder": "Club", "snapshot": snapshot,
            "published": "2026-01-06T21:00:00+00:00"}


def round_trip(url: str, key: str) -> None:
    assert store_sessions(url, [(facts(key, "a.json"), rows(key, 55.0))]) == [key]
    assert store_sessions(url, [(facts(key, "a.json"), rows(key, 55.0))]) == []  # unchanged
    assert store_sessions(url, [(facts(key, "b.json"), rows(key, 61.5))]) == [key]  # corrected
    stored = read_store(url, ladder="Club")
    mine = stored[stored["session"] == key]
    assert list(mine.columns) == SESSION_COLUMNS
    assert mine["pct"].tolist() == [61.5] * 4 and mine["award"].tolist() == [0.5] * 4
    history = corrections(url)
    history = history[history["session"] == key]
    assert history["revision"].tolist() == [1, 2]
    assert history["snapshot_before"].fillna("").tolist() == ["", "a.json"]


def test_sqlite_store_keeps_sessions_and_their_corrections(tmp_path: Path) -> None:
    path = tmp_path / "traveller-results.sqlite"
    round_trip(store_url(path), "club/2026-01-06.csv")
    with sqlite3.connect(path) as db:  # any SQL tool can read it
        tables = {r[0] for r in db.execute("select name from sqlite_master where type='table'")}
        assert tables == {"sessions", "players", "corrections"}
        assert db.execute("select revision from sessions").fetchall() == [(2,)]


def test_postgresql_store_against_a_real_server() -> None:
    pytest.importorskip("psycopg")
    import sqlalchemy as sa

    engine = sa.create_engine(POSTGRES_URL, connect_args={"connect_timeout": 3})
    try:
        with engine.connect() as db:
            db.execute(sa.text("select 1"))
    except sa.exc.OperationalError as exc:
        pytest.skip(f"no PostgreSQL server reachable at {engine.url!r}: {exc.orig}")
    finally:
        engine.dispose()
    key = f"club/{uuid.uuid4().hex}.csv"
    round_trip(POSTGRES_URL, key)
    from traveller import ladder

    stored = read_store(POSTGRES_URL, ladder="Club")
    season = ladder(rows=stored[stored["session"] == key], rule="by=points")
    assert season.standings["total"].tolist() == [0.5] * 4  # the ladder reads the server


def test_the_batch_names_the_store_file_as_the_store_does() -> None:
    from traveller.batch import seasons
    from traveller.publish import store

    assert seasons.STORE_NAME == store.STORE_NAME
