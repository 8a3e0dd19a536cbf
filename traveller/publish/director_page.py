"""The director's page of a session: the problems found and the summary, kept out of the site.

:func:`write_director_page` writes one self-contained HTML file (its styles
inside it) beside the workbook, never into the public site folder, so
uploading the site never publishes it. No page shows a local path: files are
named by their name alone.
"""

from __future__ import annotations

import os
import tempfile
from importlib import resources
from pathlib import Path, PurePath
from typing import TYPE_CHECKING, Any

import markupsafe

from traveller.publish.meta import META_KEYS
from traveller.publish.site import STYLESHEET, environment
from traveller.publish.titles import method_line

if TYPE_CHECKING:
    from traveller.result import Result

#: The director's page of ``RESULTS.xlsx`` is ``RESULTS.director.html``.
SUFFIX = ".director.html"
GENERATOR = '<meta name="generator" content="traveller">'


def director_path(workbook: str | Path) -> Path:
    """Where the director's page of a workbook goes: beside it, ``NAME.director.html``."""
    workbook = Path(workbook)
    return workbook.with_name(workbook.stem + SUFFIX)


def file_name(value: object) -> str:
    """A file as the pages name it: its name alone, never the folders it sits in."""
    text = "" if value is None else str(value)
    return PurePath(text.replace("\\", "/")).name if text else ""


def check_director_path(path: str | Path) -> None:
    """FileExistsError when ``path`` holds something other than a page traveller wrote."""
    path = Path(path)
    if path.is_symlink() or (path.exists() and (not path.is_file() or GENERATOR not in
                                                 path.read_text(encoding="utf-8",
                                                                errors="replace")[:2000])):
        raise FileExistsError(f"{path}: exists and is not a director's page written by "
                              "traveller; move it away or choose another output name")


def director_html(result: Result, site: str = "") -> str:
    """The page: problems (file, sheet, row, board, column, value, code, what to do; the file and
    sheet named once above them when all are of one), summary;
    ``site`` is the public ranking's address from the page ("" for no link)."""
    from traveller.publish import summary as session_summary

    problems = result.problems.astype("string").fillna("")
    if "file" in problems:
        problems["file"] = problems["file"].map(file_name)
    place = ""  # one file and sheet: said once above the table, its columns left out
    if len(problems) and {"file", "sheet"} <= set(problems) and (
            problems["file"].nunique() == problems["sheet"].nunique() == 1):
        sheet = problems["sheet"].iloc[0]
        place = problems["file"].iloc[0] + (f", sheet {sheet}" if sheet else "")
    try:
        summary: list[dict[str, Any]] = (session_summary.result_summary(result).astype("string")
                                         .fillna("").to_dict("records"))
    except (KeyError, ValueError):  # a method without matchpoints has no common top
        summary = []
    css = resources.files("traveller.publish").joinpath("templates", STYLESHEET)
    return environment().get_template("director.html").render(
        meta={k: result.meta.get(k, "") for k in META_KEYS}, method=method_line(result),
        css=markupsafe.Markup(css.read_text(encoding="utf-8")),  # our own file
        source=file_name(result.source), site=site,
        problems=problems.to_dict("records"), place=place, summary=summary)


def write_director_page(result: Result, path: str | Path, site: str | Path | None = None
                        ) -> Path:
    """Write the director's page to ``path`` (through a temporary file); returns it.

    ``site`` is the session's site folder, linked from the page. A file at
    ``path`` that traveller did not write is never replaced (FileExistsError).
    """
    path = Path(path)
    check_director_path(path)
    href = ""
    if site is not None:
        try:
            href = Path(os.path.relpath(Path(site) / "index.html", path.parent)).as_posix()
        except ValueError:  # another drive: no link
            href = ""
    html = director_html(result, href)
    path.parent.mkdir(parents=True, exist_ok=True)
    fd, tmp = tempfile.mkstemp(prefix=f".{path.name}.", suffix=".tmp", dir=path.parent)
    try:
        with os.fdopen(fd, "w", encoding="utf-8") as handle:
            handle.write(html)
        os.chmod(tmp, 0o644)
        os.replace(tmp, path)
    except BaseException:
        Path(tmp).unlink(missing_ok=True)
        raise
    return path
