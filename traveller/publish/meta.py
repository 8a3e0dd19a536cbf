"""What every publication prints above the results: title, date, club and status.

The defaults come from the input (the title row above a spreadsheet's header,
a PBN [Event]/[Date], a USEBIO event description, date and club), else the
file name; :class:`Publication` holds what the director gives instead
(``--title``, ``--date``, ``--club``) and the correction period.

The status is worked out when the results are published: within the
correction period they are "Provisional results — corrections until HH:MM"
(local time), after it (or with a period of 0) "Final results".
"""

from __future__ import annotations

from dataclasses import dataclass
from datetime import datetime, timedelta
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

    def __post_init__(self) -> None:
        if not isinstance(self.correction_minutes, int) or isinstance(
                self.correction_minutes, bool) or self.correction_minutes < 0:
            raise ValueError(f"correction_minutes must be a whole number of minutes, 0 or "
                             f"more, not {self.correction_minutes!r}")
        for name in ("title", "date", "club"):
            value = getattr(self, name)
            if value is not None and not isinstance(value, str):
                raise ValueError(f"{name} must be text, not {value!r}")

    def deadline(self, published: datetime) -> datetime | None:
        """End of the correction period for results first published at ``published``."""
        if self.correction_minutes == 0:
            return None
        return published + timedelta(minutes=self.correction_minutes)


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


def status_text(deadline: datetime | None, now: datetime | None = None) -> str:
    """ "Provisional results — corrections until 21:45" before ``deadline``, else final."""
    now = now or datetime.now().astimezone()
    if deadline is None or now >= deadline:
        return FINAL
    return f"Provisional results — corrections until {deadline.astimezone():%H:%M}"


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
