"""The end of a batch run: the results store and the ladders brought up to date.

Every published session goes into the results store (``store``: by default
``OUTDIR/traveller-results.sqlite``; a database URL such as
``postgresql+psycopg://user@host/bridge``; ``"none"``: no store). Each
``ladder`` a ``traveller.toml`` names is worked out again from the store and
written to ``OUTDIR/ladders/<name>.xlsx`` (with its pages under
``OUTDIR/ladders/<name>/`` when ``html`` is on), with its rule from
``ladder_rule`` (``"best=8,min_sessions=5,min_partners=2"``). Nothing is done
when the run published nothing and every ladder is there, so a re-run with
nothing new stays fast and changes nothing.
"""

from __future__ import annotations

import contextlib
import re
import threading
from pathlib import Path
from typing import TYPE_CHECKING, Any

from traveller.words import plural

if TYPE_CHECKING:
    from traveller.batch.manifest import Manifest
    from traveller.batch.plan import Job

LADDER_DIR = "ladders"
DEFAULT_STORE = "sqlite"
#: The SQLite store's file under OUTDIR (publish/store.py has the same name; this module
#: does not import it, so a run with nothing new loads neither pandas nor SQLAlchemy).
STORE_NAME = "traveller-results.sqlite"


def warm_store(jobs: list[Job]) -> threading.Thread | None:
    """Import the store's database library (SQLAlchemy) in a thread, while the workers
    score; None when no job stores its sessions.

    Loading SQLAlchemy takes about a quarter of a second, which the end of a run would
    otherwise spend after the last file, with every worker idle. The thread only
    imports (no database is opened); :func:`update_seasons` waits for it first.
    """
    if not any(job.settings is not None and (job.settings.get("store") or DEFAULT_STORE)
               != "none" for job in jobs):
        return None
    thread = threading.Thread(target=_import_store, name="traveller-warm-store")
    thread.start()
    return thread


def _import_store() -> None:
    # (missing: update_seasons reports it, as it would without this thread)
    with contextlib.suppress(ImportError):
        import sqlalchemy.dialects.sqlite  # noqa: F401  (the default store's dialect)


def _facts(jobs: list[Job], manifest: Manifest) -> dict[str, dict[str, Any]]:
    """Per published session: its ladder, ladder rule, store and html settings."""
    found = {job.name: job for job in jobs if job.settings is not None}
    out = {}
    for key, entry in manifest.entries.items():
        if not entry.get("snapshot"):
            continue
        job = found.get(key)
        get = job.settings.get if job is not None and job.settings is not None else entry.get
        out[key] = {"ladder": get("ladder"), "ladder_rule": get("ladder_rule") or "",
                    "store": get("store") or DEFAULT_STORE, "html": bool(get("html"))}
    return out


def _ladder_path(outdir: Path, name: str) -> Path:
    """``OUTDIR/ladders/<name>.xlsx`` ("Club championship 2026" -> club-championship-2026)."""
    safe = re.sub(r"[^0-9a-z]+", "-", name.casefold()).strip("-") or "ladder"
    return outdir / LADDER_DIR / f"{safe}.xlsx"


def store_facts(key: str, snap: dict[str, Any]) -> dict[str, Any]:
    """What the store keeps of a session, from its snapshot: its player rows (one record
    of ``SESSION_COLUMNS`` each), title, method and points scale.

    The batch's workers make it beside the snapshot, in parallel, so that the end of
    the run only writes the rows; the same function reads a snapshot kept from an
    earlier run.
    """
    from traveller.read.published import from_snapshot, snapshot_info
    from traveller.score.ladder import SESSION_COLUMNS
    from traveller.score.sessions import session_records

    info = snapshot_info(snap)
    rows = _plain_records(key, snap, info)
    if rows is None:  # a cell the snapshot's frames decide (a missing one, a truth value)
        found = from_snapshot(key, snap)
        rows = session_records(key, found.ranking, found.players, found.info)
    return {"records": [dict(zip(SESSION_COLUMNS, row, strict=True)) for row in rows],
            "title": info.get("title") or key, "method": info.get("method"),
            "points_scale": info.get("points")}


def _plain_records(key: str, snap: dict[str, Any], info: dict[str, Any]
                   ) -> list[tuple[Any, ...]] | None:
    """:func:`session_records` of a snapshot whose cells are all plain, from its rows as
    they are (no frame built and read back); None for any other snapshot."""
    from traveller.read.published import table_records
    from traveller.score.sessions import record_rows

    ranking = table_records(snap["ranking"])
    table = snap.get("players", {"key": [], "columns": [], "rows": []})
    players = table_records(table)
    if ranking is None or players is None:
        return None
    named = bool(players) and "player" in [*table["key"], *table["columns"]]
    return record_rows(key, ranking, [*snap["ranking"]["key"], *snap["ranking"]["columns"]],
                       players if named else None, info)


def update_seasons(outdir: Path, manifest: Manifest, jobs: list[Job],
                   outcomes: list[Any], fresh: dict[str, dict[str, Any]] | None = None
                   ) -> list[str]:
    """Store the published sessions and update the ladders; notes for the summary.

    ``fresh``: :func:`store_facts` of the sessions this run published, by key (made by
    the workers); any other session is read from its snapshot.
    """
    facts = _facts(jobs, manifest)
    ladders = {f["ladder"]: f for f in facts.values() if f["ladder"]}
    stores = {f["store"] for f in facts.values()} - {"none"}
    published = any(o.status in ("done", "problems") for o in outcomes)
    missing = [n for n in ladders if not _ladder_path(outdir, n).exists()]
    store_missing = DEFAULT_STORE in stores and not (outdir / _store_file()).exists()
    if not facts or not (published or missing or store_missing):
        return []
    notes: list[str] = []
    try:
        for store in stores:
            notes.extend(_store(outdir, manifest, facts, store, fresh or {}))
        for name, first in ladders.items():
            notes.extend(_ladder(outdir, name, first))
    except Exception as exc:  # a store or ladder problem never fails the run's sessions
        notes.append(f"results store / ladders not updated: {type(exc).__name__}: {exc}")
    return notes


def _store_file() -> str:
    return STORE_NAME


def _url(outdir: Path, store: str) -> str:
    from traveller.publish.store import store_url

    return store_url(outdir / _store_file() if store == DEFAULT_STORE else store)


def _store(outdir: Path, manifest: Manifest, facts: dict[str, dict[str, Any]],
           store: str, fresh: dict[str, dict[str, Any]]) -> list[str]:
    from traveller.publish.store import store_sessions, stored_snapshots

    sessions = []
    unread = []
    url = _url(outdir, store)
    stored = stored_snapshots(url)  # a session stored as it is now is not read again
    for key, fact in sorted(facts.items()):
        if fact["store"] != store:
            continue
        entry = manifest.entries[key]
        if key in stored and stored[key] == (entry.get("snapshot"), fact["ladder"]):
            continue
        made = fresh.get(key)
        if made is None:
            snap = manifest.read_snapshot(entry.get("snapshot"))
            if snap is None:
                unread.append(key)
                continue
            made = store_facts(key, snap)
        rows = made["records"]  # (no pandas in the run's own process for this)
        sessions.append(({"key": key, "title": made["title"],
                          "date": rows[0]["date"] if rows else "",
                          "method": made["method"], "points_scale": made["points_scale"],
                          "ladder": fact["ladder"], "snapshot": entry.get("snapshot"),
                          "published": entry.get("published")}, rows))
    changed = store_sessions(url, sessions)
    notes = ([f"results store: {plural(len(changed), 'session')} stored or corrected"]
             if changed else [])
    if unread:
        notes.append(f"results store: no snapshot readable for {', '.join(unread[:5])}")
    return notes


def _ladder(outdir: Path, name: str, fact: dict[str, Any]) -> list[str]:
    from traveller.publish.store import read_store
    from traveller.season import ladder, write_ladder

    if fact["store"] == "none":
        return [f"ladder {name!r}: needs the results store (store = \"none\" is set)"]
    rows = read_store(_url(outdir, fact["store"]), ladder=name)
    season = ladder(rows=rows, rule=fact["ladder_rule"])
    path = _ladder_path(outdir, name)
    path.parent.mkdir(parents=True, exist_ok=True)
    site = path.with_suffix("") if fact["html"] else None
    written = write_ladder(season, path, title=name, site=site)
    notes = [f"ladder {name!r}: {note}" for note in season.notes]
    if written:
        what = f"{plural(len(season.changes), 'player')} changed" if season.changes else "updated"
        notes.append(f"ladder {name!r}: {what}, {path.relative_to(outdir).as_posix()}")
    return notes
