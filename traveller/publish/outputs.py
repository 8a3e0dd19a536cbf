"""Every publication of one scored session besides the workbook: site, PBN, USEBIO.

:func:`stamp` sets what they all print above the results (``Result.meta``:
title, date, club, status); :func:`write_outputs` writes the ones asked for.
The command line (``traveller score``) and the batch both go through here.
"""

from __future__ import annotations

from datetime import datetime
from pathlib import Path
from typing import TYPE_CHECKING

from traveller.publish.meta import Publication, publication_meta

if TYPE_CHECKING:
    from traveller.pipeline import Result


def stamp(result: Result, publication: Publication, *, first_published: datetime | None = None,
          now: datetime | None = None) -> datetime | None:
    """Set ``result.meta`` for publishing now; returns the end of the correction period.

    ``first_published`` is when the session was first published (a correction
    keeps the first publication's deadline); by default now.
    """
    now = now or datetime.now().astimezone()
    deadline = publication.deadline(first_published or now)
    result.meta = publication_meta(result.meta, publication, deadline, now)
    return deadline


def check_outputs(result: Result, *, html: object = None, pbn: object = None,
                  usebio: object = None) -> None:
    """Before anything is written: ValueError when PBN/USEBIO cannot hold the result,
    FileExistsError when the site folder holds other files."""
    from traveller.publish.pbn_out import check_exportable
    from traveller.publish.site import check_site_folder

    if isinstance(html, str | Path):
        check_site_folder(html)
    for what, given in (("PBN", pbn), ("USEBIO", usebio)):
        if given is not None:
            check_exportable(result, what)


def write_outputs(result: Result, *, html: str | Path | None = None,
                  pbn: str | Path | None = None,
                  usebio: str | Path | None = None) -> list[Path]:
    """Write the website, PBN and USEBIO files asked for; the paths written.

    >>> write_outputs(result, html="site", pbn="results.pbn")  # doctest: +SKIP
    """
    written = []
    if html is not None:
        from traveller.publish.site import write_site

        written.append(write_site(result, html))
    if pbn is not None:
        from traveller.publish.pbn_out import write_pbn

        written.append(write_pbn(result, pbn))
    if usebio is not None:
        from traveller.publish.usebio_out import write_usebio

        written.append(write_usebio(result, usebio))
    return written
