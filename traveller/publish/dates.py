"""The date a publication gives the session, and where it was found.

PBN writes dates ``YYYY.MM.DD`` and USEBIO ``DD/MM/YYYY``; both need a real
date, not a text. :func:`session_date` takes, in this order:

1. ``session``: the date the input or the director gave (``Result.meta["date"]``,
   a PBN ``[Date]``, a USEBIO ``DATE``, ``--date``) when it reads as a date;
2. ``title``: a date written in the title (``Tuesday pairs 3 November 2026``,
   ``... (11-Jul-22)``, ``2026-11-03``, ``03/11/2026``);
3. ``file``: the day the input file was last changed;
4. ``published``: today, for an input with no file (a DataFrame);

and says which. Written dates with
slashes or dots are read day first (``03/11/2026`` is 3 November), as the
federations that use these formats write them.
"""

from __future__ import annotations

import re
from datetime import date, datetime
from pathlib import Path
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from traveller.result import Result

#: Whole-text date forms, tried in order.
DATE_FORMATS = ("%Y-%m-%d", "%Y.%m.%d", "%d/%m/%Y", "%d.%m.%Y", "%d-%m-%Y", "%d %B %Y",
                "%d %b %Y", "%B %d %Y", "%d-%b-%y", "%d-%b-%Y", "%d/%m/%y")
_MONTH = (r"(?:Jan|Feb|Mar|Apr|May|Jun|Jul|Aug|Sep|Sept|Oct|Nov|Dec)[a-z]*")
#: Dates as they stand inside a title.
_IN_TEXT = re.compile(
    rf"\b(\d{{4}}-\d{{1,2}}-\d{{1,2}}|\d{{4}}\.\d{{1,2}}\.\d{{1,2}}"
    rf"|\d{{1,2}}[/.]\d{{1,2}}[/.]\d{{4}}|\d{{1,2}}-{_MONTH}-\d{{2,4}}"
    rf"|\d{{1,2}}(?:st|nd|rd|th)?\s+{_MONTH}\s+\d{{4}}|{_MONTH}\s+\d{{1,2}},?\s+\d{{4}})\b",
    re.IGNORECASE)


def parse_date(text: str | None) -> date | None:
    """``text`` read as one date in a known form, else None (``"????.??.??"`` is None)."""
    cleaned = re.sub(r"(\d)(?:st|nd|rd|th)\b", r"\1", (text or "").strip().replace(",", ""))
    cleaned = re.sub(r"\bSept\b", "Sep", re.sub(r"\s+", " ", cleaned), flags=re.IGNORECASE)
    for fmt in DATE_FORMATS:
        try:
            return datetime.strptime(cleaned, fmt).date()
        except ValueError:
            continue
    return None


def impossible_date(text: str | None) -> bool:
    """True when ``text`` is written as a date but is none: ``31/02/2026``, ``2026-13-01``.

    >>> impossible_date("31/02/2026"), impossible_date("3 November 2026"), impossible_date("Tue")
    (True, False, False)
    """
    cleaned = (text or "").strip()
    return bool(_IN_TEXT.fullmatch(cleaned)) and parse_date(cleaned) is None


def date_in_text(text: str | None) -> date | None:
    """The first date written inside ``text`` (a title), else None."""
    for match in _IN_TEXT.finditer(text or ""):
        found = parse_date(match.group(1))
        if found is not None:
            return found
    return None


def meta_date(meta: dict[str, str]) -> date | None:
    """The session's date as its title lines state it (the date given, else one written
    in the title), else None."""
    return (parse_date(meta.get("date")) or date_in_text(meta.get("date"))
            or date_in_text(meta.get("title")))


def session_date(result: Result) -> tuple[date | None, str]:
    """The session's date and where it came from: ``session``, ``title``, ``file`` or
    ``published`` (the return type keeps None for callers that test it)."""
    meta = result.meta
    given = parse_date(meta.get("date")) or date_in_text(meta.get("date"))
    if given is not None:
        return given, "session"
    in_title = date_in_text(meta.get("title"))
    if in_title is not None:
        return in_title, "title"
    source = Path(result.source) if result.source else None
    try:
        if source is not None and source.is_file():
            return datetime.fromtimestamp(source.stat().st_mtime).date(), "file"
    except OSError:
        pass
    return date.today(), "published"


#: How each source is described in the files (a comment or META line).
DATE_SOURCES = {"session": "the session's date", "title": "the date in the title",
                "file": "the input file's date", "published": "the day of publication",
                "": "no date known"}
