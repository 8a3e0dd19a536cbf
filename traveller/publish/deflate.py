"""The deflate level our workbooks are packed at: 4, where xlsxwriter leaves zlib's 6.

An xlsx file is a zip of XML parts. Packing a club session's parts (about
430 KB of XML) at zlib's default level 6 took 7 ms, a tenth of a batch file's
whole cost; level 4 takes 3.6 ms for a file 8 % larger (64 KB against 59 KB).
The XML inside is the same at any level, so the cells, formats and pages
a reader shows are too.

xlsxwriter opens its zip file through the name ``ZipFile`` of its workbook
module and gives the members no level. :func:`install` puts :class:`LeveledZipFile`
under that name: it packs at :data:`LEVEL` only while :func:`packing` is active in
the same thread (our :class:`traveller.publish.book.Workbook` closes inside it), and
exactly as the stock class does for anyone else's workbook in the same program.
"""

from __future__ import annotations

import zipfile
from collections.abc import Iterator
from contextlib import contextmanager
from contextvars import ContextVar
from typing import Any

from xlsxwriter import workbook as xlsx_workbook

#: zlib's level for our workbooks (1 fastest ... 9 smallest; zlib's default is 6).
LEVEL = 4

_ACTIVE: ContextVar[int | None] = ContextVar("traveller_deflate_level", default=None)


class LeveledZipFile(zipfile.ZipFile):
    """A ``ZipFile`` that packs at the level :func:`packing` set (none set: the stock one)."""

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        level = _ACTIVE.get()
        if level is not None and kwargs.get("compresslevel") is None:
            kwargs["compresslevel"] = level
        super().__init__(*args, **kwargs)

    def writestr(self, zinfo_or_arcname: Any, data: Any, compress_type: int | None = None,
                 compresslevel: int | None = None) -> None:
        # a ready-made ZipInfo (xlsxwriter's, in memory) would not take the file's level
        super().writestr(zinfo_or_arcname, data, compress_type,
                         self.compresslevel if compresslevel is None else compresslevel)


def install() -> bool:
    """Put :class:`LeveledZipFile` where xlsxwriter opens its zip; False when its workbook
    module does not open it by that name (then workbooks keep zlib's level)."""
    found = getattr(xlsx_workbook, "ZipFile", None)
    if found is LeveledZipFile:
        return True
    if found is not zipfile.ZipFile:
        return False
    xlsx_workbook.ZipFile = LeveledZipFile  # type: ignore[misc]
    return True


@contextmanager
def packing(level: int | None = None) -> Iterator[None]:
    """Zip files opened by xlsxwriter in this block (this thread) pack at ``level``
    (default :data:`LEVEL`)."""
    token = _ACTIVE.set(LEVEL if level is None else level)
    try:
        yield
    finally:
        _ACTIVE.reset(token)
