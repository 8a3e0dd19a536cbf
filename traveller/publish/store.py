"""The results store: every published session in one SQL database (schema in docs/points.md).

By default an SQLite file beside the batch's output (``traveller-results.sqlite``),
which any SQL tool can open; a federation can give any database URL that
SQLAlchemy knows instead (``postgresql+psycopg://user@host/bridge``). Three tables:

- ``sessions``: one row per published session (its key is its input's path),
  with its title, date, method, points scale, ladder, revision and snapshot;
- ``players``: one row per player per session: pair, partner, place, %,
  IMPs per board, master points (replaced when a correction is stored);
- ``corrections``: one row per publication of a session: revision, when,
  the snapshot before and after (the history of its corrections).

Storing a session whose snapshot is the one stored already changes nothing.
SQLAlchemy is imported only here, so a run without a store does not load it; storing
rows given as plain records (a batch's) does not load pandas either.
"""

from __future__ import annotations

from collections.abc import Iterable
from datetime import UTC, datetime
from pathlib import Path
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    import pandas as pd

STORE_NAME = "traveller-results.sqlite"


def store_url(target: str | Path) -> str:
    """A database URL: a URL as given, or an SQLite file's path."""
    text = str(target)
    return text if "://" in text else f"sqlite:///{Path(text).resolve()}"


def _schema() -> tuple[Any, Any, Any, Any]:
    import sqlalchemy as sa

    meta = sa.MetaData()
    sessions = sa.Table(
        "sessions", meta,
        sa.Column("key", sa.String(500), primary_key=True),
        sa.Column("title", sa.Text), sa.Column("date", sa.String(10)),
        sa.Column("method", sa.String(20)), sa.Column("points_scale", sa.Text),
        sa.Column("ladder", sa.Text), sa.Column("revision", sa.Integer, nullable=False),
        sa.Column("snapshot", sa.String(100)), sa.Column("published", sa.String(40)))
    players = sa.Table(
        "players", meta,
        sa.Column("session", sa.String(500), sa.ForeignKey("sessions.key"), index=True,
                  nullable=False),
        sa.Column("player_key", sa.Text, nullable=False), sa.Column("player", sa.Text),
        sa.Column("player_id", sa.Text), sa.Column("partner", sa.Text),
        sa.Column("partner_key", sa.Text), sa.Column("place", sa.String(10)),
        sa.Column("pct", sa.Float), sa.Column("average", sa.Float),
        sa.Column("award", sa.Float))
    corrections = sa.Table(
        "corrections", meta,
        sa.Column("session", sa.String(500), index=True, nullable=False),
        sa.Column("revision", sa.Integer, nullable=False),
        sa.Column("stored", sa.String(40)), sa.Column("published", sa.String(40)),
        sa.Column("snapshot_before", sa.String(100)), sa.Column("snapshot", sa.String(100)))
    return meta, sessions, players, corrections


def _engine(url: str) -> Any:
    import sqlalchemy as sa

    return sa.create_engine(url)


def store_sessions(url: str,
                   sessions: Iterable[tuple[dict[str, Any], pd.DataFrame | list[dict[str, Any]]]]
                   ) -> list[str]:
    """Store each (session facts, its player rows); the keys stored anew or corrected.

    The rows are a frame of :data:`traveller.score.ladder.SESSION_COLUMNS`, or
    the same as one record (column -> value) per row.

    The facts are ``key``, ``title``, ``date``, ``method``, ``points_scale``,
    ``ladder``, ``snapshot`` (a content key) and ``published``. A session whose
    snapshot is already stored is left as it is. The new rows of all the
    sessions go in with one statement per table (a batch stores hundreds at once).
    """
    import sqlalchemy as sa

    meta, s_table, p_table, c_table = _schema()
    engine = _engine(url)
    changed = []
    try:
        meta.create_all(engine)
        with engine.begin() as db:
            known = {r.key: r for r in db.execute(sa.select(s_table))}
            new: list[dict[str, Any]] = []
            players: list[dict[str, Any]] = []
            history: list[dict[str, Any]] = []
            for facts, rows in sessions:
                old = known.get(facts["key"])
                if old is not None and old.snapshot == facts.get("snapshot") and \
                        old.ladder == facts.get("ladder"):
                    continue
                revision = 1 if old is None else old.revision + 1
                values = {c.name: facts.get(c.name) for c in s_table.columns}
                values["revision"] = revision
                if old is None:
                    new.append(values)
                else:
                    db.execute(s_table.update().where(s_table.c.key == facts["key"])
                               .values(**values))
                    db.execute(p_table.delete().where(p_table.c.session == facts["key"]))
                if len(rows):
                    players.extend(_records(rows, facts["key"]))
                history.append({
                    "session": facts["key"], "revision": revision,
                    "published": facts.get("published"),
                    "stored": datetime.now(UTC).isoformat(timespec="seconds"),
                    "snapshot_before": None if old is None else old.snapshot,
                    "snapshot": facts.get("snapshot")})
                changed.append(facts["key"])
            for table, values_list in ((s_table, new), (p_table, players), (c_table, history)):
                if values_list:  # (sessions first: the players' rows refer to them)
                    db.execute(table.insert(), values_list)
    finally:
        engine.dispose()
    return changed


def stored_snapshots(url: str) -> dict[str, tuple[str | None, str | None]]:
    """Each stored session's key -> (its snapshot, its ladder): what :func:`store_sessions`
    would leave as it is, asked before any session's rows are made."""
    import sqlalchemy as sa

    meta, s_table, _, _ = _schema()
    engine = _engine(url)
    try:
        meta.create_all(engine)
        with engine.connect() as db:
            found = db.execute(sa.select(s_table.c.key, s_table.c.snapshot,
                                         s_table.c.ladder)).all()
    finally:
        engine.dispose()
    return {r.key: (r.snapshot, r.ladder) for r in found}


_PLAYER_COLUMNS = ["player_key", "player", "player_id", "partner", "partner_key", "place",
                   "pct", "average", "award"]


def _records(rows: pd.DataFrame | list[dict[str, Any]], key: str) -> list[dict[str, Any]]:
    """The players table's rows: missing values (NaN, NA) as NULL."""
    if isinstance(rows, list):
        return [{"session": key, **{c: _value(r.get(c)) for c in _PLAYER_COLUMNS}}
                for r in rows]
    frame = rows[_PLAYER_COLUMNS].astype(object).where(rows[_PLAYER_COLUMNS].notna(), None)
    return [{"session": key, **r} for r in frame.to_dict("records")]


def _value(value: Any) -> Any:
    """A record's value as the frame path stores it: None for a missing one."""
    if value is None or (isinstance(value, float) and value != value):
        return None
    if type(value).__name__ in ("NAType", "NaTType"):
        return None
    return value.item() if hasattr(value, "item") else value


def read_store(url: str, ladder: str | None = None) -> pd.DataFrame:
    """The player rows of every stored session (of ``ladder`` when given), as the
    ladder reads them (:data:`traveller.score.ladder.SESSION_COLUMNS`)."""
    import pandas as pd
    import sqlalchemy as sa

    from traveller.score.ladder import SESSION_COLUMNS

    meta, s_table, p_table, _ = _schema()
    engine = _engine(url)
    try:
        meta.create_all(engine)
        query = sa.select(p_table.c.session, s_table.c.title, s_table.c.date, s_table.c.method,
                          *(p_table.c[c] for c in SESSION_COLUMNS[4:])).join(
            s_table, s_table.c.key == p_table.c.session)
        if ladder is not None:
            query = query.where(s_table.c.ladder == ladder)
        with engine.connect() as db:
            found = db.execute(query.order_by(s_table.c.date, p_table.c.session)).all()
    finally:
        engine.dispose()
    return pd.DataFrame([tuple(r) for r in found], columns=SESSION_COLUMNS)


def corrections(url: str) -> pd.DataFrame:
    """The stored history: one row per publication of each session."""
    import pandas as pd
    import sqlalchemy as sa

    meta, _, _, c_table = _schema()
    engine = _engine(url)
    try:
        meta.create_all(engine)
        with engine.connect() as db:
            rows = db.execute(sa.select(c_table).order_by(c_table.c.session,
                                                         c_table.c.revision)).all()
    finally:
        engine.dispose()
    return pd.DataFrame([tuple(r) for r in rows], columns=[c.name for c in c_table.columns])
