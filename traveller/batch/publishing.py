"""The batch's publications: the website per session, the index page, the correction period.

Each session is first published as "Provisional results — corrections until
HH:MM on DATE" (``correction_minutes`` after its first publication, 30 by default,
or after the session at the latest when its date is known: see publish/meta.py);
the manifest keeps that deadline. A later run after the deadline re-publishes
the unchanged session as "Final results" (nothing else changes; the manifest
records ``final`` and when). A correction that arrives after the deadline is
still processed; its changes report says it came after the correction period.
With ``html = true`` each session's website is written beside its workbook
(the workbook's name without ``.xlsx``), with the director's page beside it
(``NAME.director.html``, outside the site folder), and ``OUTDIR/index.html``
lists every session's site, newest first, with its folder (each club's sub-folder), and
the files that failed in the run.

Nothing here imports pandas: the decision to re-publish is made on the
manifest alone, so a run with nothing to do stays fast.
"""

from __future__ import annotations

from datetime import datetime
from pathlib import Path
from typing import TYPE_CHECKING, Any

from traveller.publish.meta import FINAL, Publication, status_text

if TYPE_CHECKING:
    from traveller.batch.manifest import Manifest
    from traveller.batch.plan import Job
    from traveller.result import Result

INDEX_NAME = "index.html"


def now_local() -> datetime:
    """The time now, with the machine's time zone (the status prints local HH:MM)."""
    return datetime.now().astimezone()


def publication(job: Job) -> Publication:
    """The publication settings of a job's folder."""
    assert job.settings is not None
    get = job.settings.get
    return Publication(get("title"), get("date"), get("club"), int(get("correction_minutes")),
                       start=get("start"))


def site_name(job: Job) -> str | None:
    """The site folder under OUTDIR (the workbook's path without .xlsx), when html is on."""
    assert job.settings is not None
    return job.output().removesuffix(".xlsx") if job.settings.get("html") else None


def due(job: Job, entry: dict[str, Any], outdir: Path, now: datetime | None = None) -> str | None:
    """Why an up-to-date session must be published again, or None.

    "correction period over" when it was published as provisional and the
    deadline has passed; "site missing" when html is on and its site is not there.
    """
    deadline = entry.get("deadline")
    if (deadline and not entry.get("final", True)
            and (now or now_local()) >= datetime.fromisoformat(deadline)):
        return "correction period over: final results"
    site = site_name(job)
    if site is not None and not (outdir / site / INDEX_NAME).exists():
        return "site missing"
    if entry.get("publication") != publication_key(job):
        return "publication settings changed"
    return None


def stamp_job(result: Result, job: Job, entry: dict[str, Any] | None,
              now: datetime | None = None) -> dict[str, Any]:
    """Set the result's title and status; the manifest fields of this publication.

    A session published before keeps its first deadline (a correction does not
    reopen the period).
    """
    from traveller.publish.outputs import stamp

    now = now or now_local()
    first = (entry or {}).get("first_published")
    first_time = datetime.fromisoformat(first) if first else now
    deadline = stamp(result, publication(job), first_published=first_time, now=now)
    final = result.meta.get("status") == FINAL
    fields: dict[str, Any] = {
        "first_published": first_time.isoformat(timespec="seconds"),
        "deadline": deadline.isoformat(timespec="seconds") if deadline else None,
        "final": final, "title": result.meta.get("title", ""),
        "date": result.meta.get("date", ""), "site": site_name(job),
        "publication": publication_key(job)}
    if final and not (entry or {}).get("final", False):
        fields["finalised"] = now.isoformat(timespec="seconds")
    elif entry and entry.get("finalised"):
        fields["finalised"] = entry["finalised"]
    return fields


def late_note(entry: dict[str, Any] | None, now: datetime | None = None) -> str:
    """" It came after the correction period (ended HH:MM)." for a late correction, else ""."""
    deadline = (entry or {}).get("deadline")
    if not deadline or (now or now_local()) < datetime.fromisoformat(deadline):
        return ""
    ended = datetime.fromisoformat(deadline).astimezone()
    return (f" This correction came after the correction period (ended {ended:%Y-%m-%d %H:%M});"
            " the results were already final.")


def write_site_for(result: Result, job: Job, outdir: Path) -> None:
    """Write the session's website when html is on, and the director's page beside the
    workbook (``NAME_results.director.html``, outside the site folder)."""
    site = site_name(job)
    if site is not None:
        from traveller.publish.director_page import director_path, write_director_page
        from traveller.publish.site import write_site

        write_site(result, outdir / site)
        write_director_page(result, director_path(outdir / job.output()), site=outdir / site)


def status_of(entry: dict[str, Any], now: datetime | None = None) -> str:
    """The status a session's pages show now (from its manifest entry)."""
    deadline = entry.get("deadline")
    if entry.get("final", True) or not deadline:
        return FINAL
    return status_text(datetime.fromisoformat(deadline), now)


def refresh_index(outdir: Path, manifest: Manifest, outcomes: list[Any]) -> list[str]:
    """Rewrite the index page when this run published a session with a site, or a file
    failed; notes."""
    if not any(o.status in ("done", "problems", "failed") for o in outcomes) or not any(
            e.get("site") for e in manifest.entries.values()):
        return []
    failed = [{"input": o.input, "why": FAILED_WORDS.get(o.code or "", FAILED_WORDS["error"])}
              for o in outcomes if o.status == "failed"]
    try:
        write_index(outdir, manifest, failed)
    except OSError as exc:
        return [f"{outdir / INDEX_NAME}: the index of sessions could not be written ({exc})"]
    return []


def publication_key(job: Job) -> str:
    """A short hash of the publication settings (a change re-publishes the session)."""
    import hashlib
    import json

    assert job.settings is not None
    values = {k: job.settings.get(k) for k in ("html", "title", "date", "club",
                                               "correction_minutes")}
    if job.settings.get("start") is not None:  # (an older manifest's key stays the same)
        values["start"] = job.settings.get("start")
    return hashlib.sha256(json.dumps(values, sort_keys=True).encode()).hexdigest()[:12]


def _ladders(outdir: Path) -> list[dict[str, str]]:
    """The ladders with pages under OUTDIR/ladders (batch/seasons.py), by title."""
    import json

    found = []
    for state in sorted((outdir / "ladders").glob("*.json")):
        page = state.with_suffix("") / "ladder.html"
        if page.exists():
            try:
                title = str(json.loads(state.read_text(encoding="utf-8")).get("title", ""))
            except (OSError, ValueError):
                title = ""
            found.append({"href": page.relative_to(outdir).as_posix(),
                          "title": title or state.stem})
    return sorted(found, key=lambda ladder: ladder["title"])


#: Why a file is listed as not published on the index page, by the batch's failure code
#: (the full reason, which names local paths, is in the batch's summary and log only).
FAILED_WORDS = {"settings": "the settings of its folder are not valid",
                "unreadable": "the file could not be read", "vanished": "the file went away",
                "write": "its results could not be written", "timeout": "scoring took too long",
                "memory": "scoring ran out of memory", "crashed": "scoring stopped unexpectedly",
                "error": "it could not be scored"}


def _session_row(name: str, entry: dict[str, Any], site: str) -> dict[str, Any]:
    """One line of the index: the session's link, title, date (from its title when the
    date field is empty), status and sort key."""
    from traveller.publish.dates import date_in_text
    from traveller.publish.pbn_out import pbn_date

    title = entry.get("title") or name
    date = entry.get("date") or ""
    if "?" in pbn_date(date):
        found = date_in_text(date) or date_in_text(title)
        date = f"{found:%Y-%m-%d}" if found else date
    known = pbn_date(date)
    key = known if "?" not in known else (entry.get("first_published") or "")[:10]
    return {"href": f"{site}/{INDEX_NAME}", "title": title, "date": date,
            "status": status_of(entry), "key": key.replace("-", "."),
            "published": entry.get("first_published") or ""}


def write_index(outdir: Path, manifest: Manifest, failed: list[dict[str, str]] | None = None
                ) -> Path | None:
    """``OUTDIR/index.html``: every session with a site, newest first, with its folder
    (a club's sub-folder), and the files of this run that failed (None when no session
    has a site)."""
    from importlib import resources
    from pathlib import PurePosixPath

    from markupsafe import Markup

    from traveller.batch.manifest import write_atomic
    from traveller.publish.site import STYLESHEET, environment

    sessions = []
    for name, entry in manifest.entries.items():
        site = entry.get("site")
        if site and (outdir / site / INDEX_NAME).exists():
            folder = PurePosixPath(site).parent.as_posix()
            sessions.append({**_session_row(name, entry, site),
                             "folder": "" if folder == "." else folder})
    if not sessions:
        return None
    sessions.sort(key=lambda s: (s["key"], s["published"]), reverse=True)
    css = resources.files("traveller.publish").joinpath("templates", STYLESHEET)
    html = environment().get_template("sessions.html").render(
        sessions=sessions, folders=any(s["folder"] for s in sessions),
        ladders=_ladders(outdir), failed=failed or [],
        css=Markup(css.read_text(encoding="utf-8")))  # our own file
    return write_atomic(outdir / INDEX_NAME, html)
