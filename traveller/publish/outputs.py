"""Every publication of one scored session besides the workbook: site, PBN, USEBIO.

:func:`stamp` sets what they all print above the results (``Result.meta``:
title, date, club, status); :func:`write_outputs` writes the ones asked for.
The command line (``traveller score``) and the batch both go through here.
"""

from __future__ import annotations

from collections.abc import Callable
from datetime import datetime
from pathlib import Path
from typing import TYPE_CHECKING

from traveller.publish.meta import Publication, publication_meta, titled_by_file, untitled_meta

if TYPE_CHECKING:
    from traveller.publish.site import SiteWriter
    from traveller.result import Result


def stamp(result: Result, publication: Publication, *, first_published: datetime | None = None,
          now: datetime | None = None) -> datetime | None:
    """Set ``result.meta`` for publishing now; returns the end of the correction period.

    ``first_published`` is when the session was first published (a correction
    keeps the first publication's deadline); by default now. When the session's
    date is known (given, or written in the title), the period runs from the
    session at the latest (see :meth:`Publication.deadline`).
    """
    from traveller.publish.dates import date_in_text, meta_date

    now = now or datetime.now().astimezone()
    meta = (untitled_meta(result.meta, publication)
            if titled_by_file(result.meta, result.source) else result.meta)
    if publication.title is not None and publication.date is None and not meta.get("date"):
        # a title given in place of one that carried the session's date ("Tuesday pairs,
        # 3 November 2026") keeps that date: printed under it, and counted for the status
        dated = date_in_text(meta.get("title"))
        if dated is not None and date_in_text(publication.title) is None:
            meta = {**meta, "date": f"{dated.day} {dated:%B %Y}"}
    session = meta_date(publication_meta(meta, publication, None, now))
    deadline = publication.deadline(first_published or now, session)
    result.meta = publication_meta(meta, publication, deadline, now)
    return deadline


def check_outputs(result: Result, *, html: object = None, pbn: object = None,
                  usebio: object = None, director: object = None) -> None:
    """Before anything is written: FileExistsError when the site folder holds other files
    (or the director's page would replace a file traveller did not write).

    A PBN or USEBIO file the result cannot be written as is not an error here:
    :func:`write_outputs` leaves it out and says why (``not_written``).
    """
    from traveller.publish.site import check_site_folder

    if isinstance(html, str | Path):
        check_site_folder(html)
    if isinstance(director, str | Path):
        from traveller.publish.director_page import check_director_path

        check_director_path(director)


def write_outputs(result: Result, *, html: str | Path | SiteWriter | None = None,
                  pbn: str | Path | None = None, usebio: str | Path | None = None,
                  not_written: list[str] | None = None, director: str | Path | None = None,
                  progress: Callable[[int, int], None] | None = None) -> list[Path]:
    """Write the website, PBN and USEBIO files asked for; the paths written.

    ``html`` is the site's folder, or a :class:`SiteWriter` already begun on it
    (``traveller score`` begins the site before the workbook, so that a second
    process writes half a large session's pages meanwhile). With the website, ``director``
    is where the director's page goes (outside the site folder, beside the
    workbook: :func:`director_path`); ``progress`` is called after each page of
    the site (pages done, pages in all).

    A format that cannot hold the result (either for an event of several
    sessions) is not written; ``not_written`` (when given)
    gets "FILE: why" for each, and everything else is still written.

    >>> write_outputs(result, html="site", pbn="results.pbn")  # doctest: +SKIP
    """
    written = []
    if html is not None:
        from traveller.publish.site import SiteWriter

        with html if isinstance(html, SiteWriter) else SiteWriter(result, html) as site:
            written.append(site.finish(progress))
        if director is not None:
            from traveller.publish.director_page import write_director_page

            written.append(write_director_page(result, director, site=site.folder))
    for what, path in (("PBN", pbn), ("USEBIO", usebio)):
        if path is None:
            continue
        from traveller.publish.pbn_out import not_exportable  # (only for these files)

        reason = not_exportable(result, what)
        if reason is not None:
            if not_written is None:
                raise ValueError(f"{path}: {reason}")
            not_written.append(f"{path}: {reason}")
        elif what == "PBN":
            from traveller.publish.pbn_out import write_pbn

            written.append(write_pbn(result, path))
        else:
            from traveller.publish.usebio_out import write_usebio

            written.append(write_usebio(result, path))
    return written
