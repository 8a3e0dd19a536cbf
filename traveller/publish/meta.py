"""What every publication prints above the results: title, date, club and status.

The defaults come from the input (the title row above a spreadsheet's header,
a PBN [Event]/[Date], a USEBIO event description, date and club), else the
file name; :class:`Publication` holds what the director gives instead
(``--title``, ``--date``, ``--club``) and the correction period.

The status is worked out when the results are published: within the
correction period they are "Provisional results — corrections until 21:45 on
3 November 2026" (local time), after it (or with a period of 0) "Final
results". The period runs from the first publication; when the session's
date is known (and its start time, ``--start``), from no later than a day
after the session started (the end of its day when the start is not known):
a session scored days later is published as final.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from datetime import date as Day
from datetime import datetime, time, timedelta
from pathlib import Path
from typing import TYPE_CHECKING, Any

from traveller.read.paths import printable

if TYPE_CHECKING:
    from traveller.read.raw import Loaded

#: Default length of the correction period, in minutes.
CORRECTION_MINUTES = 30
FINAL = "Final results"

#: Keys of ``Result.meta``, in the order publications print them.
META_KEYS = ("title", "date", "club", "status")


@dataclass(frozen=True)
class Publication:
    """How to title and date the published results, and how long corrections are open.

    ``None`` for title, date or club means: as the input says (see the module
    docstring). ``correction_minutes`` 0 publishes final results at once.
    """

    title: str | None = None
    date: str | None = None
    club: str | None = None
    correction_minutes: int = CORRECTION_MINUTES
    start: str | None = None  # the session's start, "19:30"

    def __post_init__(self) -> None:
        if not isinstance(self.correction_minutes, int) or isinstance(
                self.correction_minutes, bool) or self.correction_minutes < 0:
            raise ValueError(f"correction_minutes must be a whole number of minutes, 0 or "
                             f"more, not {self.correction_minutes!r}")
        for name in ("title", "date", "club"):
            value = getattr(self, name)
            if value is not None and not isinstance(value, str):
                raise ValueError(f"{name} must be text, not {value!r}")
        if self.start is not None and start_time(self.start) is None:
            raise ValueError(f"start must be a time of day such as 19:30, not {self.start!r}")

    def deadline(self, published: datetime, session: Day | None = None) -> datetime | None:
        """End of the correction period for results first published at ``published``.

        ``session``: the session's date, when known: the period then starts no later
        than a day after the session's start (``start``; else the end of its day).
        """
        if self.correction_minutes == 0:
            return None
        begins = published
        if session is not None:
            clock = start_time(self.start) if self.start else None
            started = (datetime.combine(session, clock) if clock else
                       datetime.combine(session + timedelta(days=1), time()))
            latest = started.replace(tzinfo=published.tzinfo) + SESSION_DAY
            begins = min(published, latest)
        return begins + timedelta(minutes=self.correction_minutes)


#: How long after a session starts its results can first go up with a correction period
#: of their own; a later first publication counts the period from then.
SESSION_DAY = timedelta(days=1)


def start_time(text: str | None) -> time | None:
    """ "19:30", "19.30", "7:30" -> that time of day; anything else None."""
    found = re.fullmatch(r"\s*([01]?\d|2[0-3])[:.h]([0-5]\d)\s*", text or "")
    return time(int(found.group(1)), int(found.group(2))) if found else None


def input_meta(loaded: Loaded, source: Any) -> dict[str, str]:
    """Title, date and club as the input states them; the title falls back to the file name."""
    found: dict[str, str] = {}
    for table in loaded.tables:
        for key, names in (("title", ("event", "title")), ("date", ("date", "contest_date")),
                           ("club", ("club",))):
            value = next((table.meta[n] for n in names
                          if str(table.meta.get(n) or "").strip("?.- ")), None)  # "????.??.??"
            if value and key not in found:
                found[key] = str(value).strip()
    if "title" not in found and isinstance(source, str | Path):
        found["title"] = printable(Path(source).stem)  # a name that is not UTF-8 shows \xNN
    return found


def titled_by_file(meta: dict[str, str], source: Any) -> bool:
    """True when the title is only the input file's name (the input states none)."""
    return (isinstance(source, str | Path) and bool(meta.get("title"))
            and meta.get("title") == printable(Path(source).stem))


def untitled_meta(meta: dict[str, str], publication: Publication) -> dict[str, str]:
    """An input without a title of its own (titled by its file's name): a file named by its
    date (``2026-11-03.csv``, as a batch inbox often names them) is dated by it when no
    date is given, and titled by the club when one is given (else by its name still)."""
    from traveller.publish.dates import parse_date

    out = dict(meta)
    stem = meta.get("title", "")
    if not parse_date(stem):
        return out
    if publication.date is None and not meta.get("date"):
        out["date"] = stem
    club = publication.club or meta.get("club")
    if publication.title is None and club:
        out["title"] = club
    return out


def status_text(deadline: datetime | None, now: datetime | None = None) -> str:
    """ "Provisional results — corrections until 21:45 on 3 November 2026" before
    ``deadline`` (local time), else final."""
    now = now or datetime.now().astimezone()
    if deadline is None or now >= deadline:
        return FINAL
    local = deadline.astimezone()
    return f"Provisional results — corrections until {local:%H:%M} on {local.day} {local:%B %Y}"


def publication_meta(meta: dict[str, str], publication: Publication,
                     deadline: datetime | None, now: datetime | None = None) -> dict[str, str]:
    """``meta`` with the director's title, date and club, and the status at ``now``."""
    out = {k: v for k, v in meta.items() if v}
    for key in ("title", "date", "club"):
        given = getattr(publication, key)
        if given is not None:
            out[key] = given.strip()
    out["status"] = status_text(deadline, now)
    return {k: out[k] for k in META_KEYS if out.get(k)}
