"""The formatted results workbook: Ranking (ranking_sheet.py), Travellers, Hands (when
there are deals), Problems, then Score cards,
Frequencies and Summary sheets (and Sessions for a multi-session event).

Written with xlsxwriter row by row (sheet.py), in constant-memory mode for
a large session (memory stays flat however large it is) and in memory for a
club session (no temporary file per sheet); every text cell is text (never a
formula or a link), and the library does every format the printout needs
(bold frozen header, autofilter, number formats, banding, page breaks, print
area, page header). Only what a director reads is written (layout.py); the
Problems sheet is left out when there are none; a sheet longer than
ROW_BUDGET rows (and so anything past Excel's row limit) is written as CSV
beside the workbook, with a note on the Ranking sheet, never truncated. The
file is written beside the target and renamed into place, so an interrupted
run never leaves a half-written workbook.
"""

from __future__ import annotations

import os
import sys
import tempfile
from collections.abc import Callable
from pathlib import Path
from typing import TYPE_CHECKING, Any

import numpy as np
import pandas as pd
from xlsxwriter.exceptions import FileCreateError

from traveller.publish import handrecord
from traveller.publish.book import Workbook, mark_input
from traveller.publish.book_reads import Reads, card_columns, frequency_columns
from traveller.publish.cards import result_frequencies, result_score_cards
from traveller.publish.hands_sheet import BLOCK, has_hands, write_hands_sheet
from traveller.publish.headers import (
    CENTERED,
    FORMATS,
    HEADERS,
    INDENTED,
    event_figure,
    heading,
)
from traveller.publish.keys import group_ids
from traveller.publish.ranking_sheet import write_ranking
from traveller.publish.sheet import Table, blank, column, styles, write_table
from traveller.publish.shown import carry_shown, factored_shown
from traveller.publish.summary import result_summary
from traveller.publish.titles import page_footer, page_header
from traveller.tidy.arrays import rows_of

if TYPE_CHECKING:
    from traveller.result import Result

__all__ = ["EXCEL_ROWS", "HEADERS", "ROW_BUDGET", "extra_sheets", "write_workbook"]

#: Excel's rows per sheet.
EXCEL_ROWS = 1_048_576
#: Rows a sheet of the workbook holds (about 1,700 printed pages); a longer one
#: (the travellers, score cards or frequencies of a session of tens of thousands
#: of results) is written as CSV beside the workbook, every row, and the Ranking
#: sheet says where. Writing it cell by cell would cost minutes and nobody prints it.
ROW_BUDGET = 50_000
BOOK_OPTIONS = {"constant_memory": True, "nan_inf_to_errors": True,
                "strings_to_formulas": False, "strings_to_urls": False,
                "strings_to_numbers": False}
#: Rows (all sheets) up to which the workbook is built in memory instead: a club
#: session's few thousand rows take a few MiB there, and the per-sheet temporary
#: files of constant-memory mode would cost more than writing its cells.
IN_MEMORY_ROWS = 5_000

Writer = Callable[[Any, dict[str, Any], tuple[str, str]], None]
#: A sheet to write: name, rows it needs, how to write it, its frame (for a CSV).
Planned = tuple[str, int, Writer, Callable[[], pd.DataFrame]]


def write_workbook(result: Result, path: str | Path, *, more_sheets: bool = True,
                   final: str | Path | None = None, row_limit: int = ROW_BUDGET,
                   progress: Callable[[int, int], None] | None = None) -> Path:
    """Write ``result`` as a formatted xlsx workbook at ``path`` (atomically).

    ``more_sheets`` adds Score cards, Frequencies and Summary after Problems.
    A sheet longer than ``row_limit`` rows (at most Excel's 1,048,576) is
    written as ``NAME.sheet.csv`` beside the workbook (named after ``final``,
    the workbook's published path, when ``path`` is a temporary name) and the
    Ranking sheet says so. ``progress(rows done, rows)`` is called as the sheets
    and side CSVs are written (a progress bar's callback): after each sheet, and
    after each part of a side CSV.

    >>> write_workbook(process("sample_data/club_session.csv"), "results.xlsx")  # doctest: +SKIP
    """
    path = Path(path)
    path.parent.mkdir(parents=True, exist_ok=True)
    final = Path(final) if final is not None else path
    plan = _plan(result, more_sheets)
    row_limit = min(row_limit, EXCEL_ROWS)
    counted = _Rows(progress, len(result.ranking) + sum(rows for _, rows, _, _ in plan))
    notes = []
    for name, rows, _, dump in plan:
        if rows > row_limit:
            side = final.with_name(f"{final.stem}.{name.lower().replace(' ', '_')}.csv")
            _csv(dump(), side, counted.part(rows))
            notes.append(f"The {name} sheet would need {rows:,} rows, more than the {row_limit:,} "
                         f"a sheet of this workbook holds: all of it is in {side.name} beside "
                         "this workbook.")
    fd, tmp = tempfile.mkstemp(prefix=f".{path.name}.", suffix=".tmp", dir=path.parent)
    os.close(fd)
    try:
        book = Workbook(tmp, _book_options(result, plan, row_limit))
        mark_input(book, result.source)
        st = styles(book)
        header = (page_header(result), page_footer(result))
        write_ranking(book, result, _ranking_frame(result), notes)
        counted.add(len(result.ranking))
        for _, rows, write, _ in plan:
            if rows <= row_limit:
                write(book, st, header)
                counted.add(rows)
        failed = _close(book)
        counted.done()
        if failed:
            raise OSError(f"could not write {final}: {failed}; nothing was written there")
        os.chmod(tmp, 0o644)  # mkstemp makes it private; results are for publishing
        os.replace(tmp, path)
    except BaseException:
        Path(tmp).unlink(missing_ok=True)
        raise
    return path


class _Rows:
    """The rows a workbook has written so far, told to ``progress(done, total)``."""

    def __init__(self, progress: Callable[[int, int], None] | None, total: int) -> None:
        self.progress, self.total, self.count = progress, max(total, 1), 0

    def add(self, rows: int) -> None:
        self.count += rows
        if self.progress is not None:
            self.progress(min(self.count, self.total), self.total)

    def part(self, rows: int) -> Callable[[int], None] | None:
        """A side CSV's ``progress(rows written of it)``, counted into these ``rows``."""
        report, start, total = self.progress, self.count, self.total
        if report is None:
            return None
        self.count += rows

        def written(done: int) -> None:
            report(min(start + done, total), total)
        return written

    def done(self) -> None:
        self.count = self.total
        self.add(0)


def _close(book: Workbook) -> str:
    """Close ``book``: "" when it is written, else why not (a full disk, say).

    xlsxwriter's own error is no OSError; and the half-written zip it leaves
    behind fails again as it is freed, which Python would print as "Exception
    ignored in ZipFile.__del__" below our one line: that second report is not shown.
    """
    hook = sys.unraisablehook
    sys.unraisablehook = lambda _: None
    try:
        try:
            book.close()
        except FileCreateError as exc:
            return str(exc)
        return ""
    finally:
        sys.unraisablehook = hook


def _book_options(result: Result, plan: list[Planned], row_limit: int) -> dict[str, bool]:
    """Constant-memory mode, or in memory for a small workbook (the same cells either way)."""
    rows = len(result.ranking) + sum(rows for _, rows, _, _ in plan if rows <= row_limit)
    if rows > IN_MEMORY_ROWS:
        return BOOK_OPTIONS
    return {**BOOK_OPTIONS, "constant_memory": False, "in_memory": True}


def _plan(result: Result, more_sheets: bool) -> list[Planned]:
    """The sheets after the Ranking, in order."""
    reads = Reads(result)
    extra = _sheets(result, lambda: card_columns(result, reads),
                    lambda: frequency_columns(result, reads),
                    lambda: result_summary(result, reads.travellers, reads.kind,
                                           reads.counted_columns)
                    ) if more_sheets else []
    facts = _facts(reads, extra)
    t = reads.columns
    keys = [c for c in ("session", "section", "board") if c in t]
    boards = int(t.groups(*keys).max()) + 1 if keys and len(t) else 0
    plan: list[Planned] = [("Travellers", len(t) + boards + 1,
                            lambda b, st, h: _write_travellers(b, st, h, reads, extra, facts),
                            lambda: result.travellers)]
    if has_hands(result):
        plan.append(("Hands", len(handrecord.deals(result)) * BLOCK,
                     lambda b, st, h: write_hands_sheet(b, st, h, result),
                     lambda: result.hands if result.hands is not None else pd.DataFrame()))
    if len(result.problems):
        plan.append(("Problems", len(result.problems) + 1,
                     lambda b, st, h: write_table(b, st, _problems_table(result.problems, h)),
                     lambda: result.problems))
    for name, sheet in extra:
        plan.append(_extra(result, name, sheet, facts, reads))
    return plan


def _write_travellers(book: Any, st: dict[str, Any], header: tuple[str, str], reads: Reads,
                      extra: list[tuple[str, pd.DataFrame]],
                      facts: list[tuple[str, str]]) -> None:
    from traveller.publish.layout import travellers_layout

    frame, printed, headings, _ = travellers_layout(reads.result, _has_summary(extra), facts,
                                                    reads.columns)
    write_table(book, st, _table("Travellers", frame, band="board", printed=printed,
                                 headings=headings, header=header))


def _has_summary(extra: list[tuple[str, pd.DataFrame]]) -> bool:
    return any(name == "Summary" for name, _ in extra)


def _facts(reads: Reads, extra: list[tuple[str, pd.DataFrame]]) -> list[tuple[str, str]]:
    """The travellers' constant columns, listed on the Summary instead of on every row."""
    from traveller.publish.layout import constant_facts

    columns = reads.columns
    return constant_facts(columns, list(columns.frame.columns)) if _has_summary(extra) else []


def _extra(result: Result, name: str, frame: pd.DataFrame,
           facts: list[tuple[str, str]], reads: Reads) -> Planned:
    if name == "Score cards":
        from traveller.publish.scorecards import write_score_cards

        rows = len(frame["pair"])  # (a frame, or its columns by name)
        pairs = (int(group_ids(*(frame[k] for k in ("section", "line", "pair"))).max()) + 1
                 if rows else 0)
        return (name, rows + 5 * pairs,
                lambda b, st, h: write_score_cards(
                    b, st, name, frame, result.ranking, h, reads.names,
                    result.ranked_as.capitalize(),  # Pair, Player or Team
                    event_figure(result.ranking, result.settings)),
                lambda: pd.DataFrame(frame))
    columns = dict(frame.items())  # each column once
    if name == "Summary" and facts:  # the facts (texts) below, with the dtype concat gives
        columns = {c: pd.Series(columns[c].tolist() + [f[j] for f in facts],
                                dtype="str" if columns[c].dtype == "str" else object)
                   for j, c in enumerate(("item", "value"))}
    if name == "Frequencies":  # no empty Section or Ruling column
        columns = {c: v for c, v in columns.items()
                   if c not in ("section", "ruling") or not blank(v)}
    band = "board" if "board" in columns else None
    rows = rows_of(columns) if columns else len(frame)
    return (name, rows + 1,
            lambda b, st, h: write_table(b, st, _table(name, columns, header=h, band=band)),
            lambda: pd.DataFrame(columns) if columns else frame.loc[:, []])


def _csv(frame: pd.DataFrame, side: Path,
         progress: Callable[[int], None] | None = None) -> None:
    """``frame`` as CSV at ``side``, written to a temporary name and renamed into place;
    text that a spreadsheet would read as a formula is protected (csvcells);
    ``progress(rows written)`` after each part."""
    from traveller.publish.csvcells import write_csv

    fd, tmp = tempfile.mkstemp(prefix=f".{side.name}.", suffix=".tmp", dir=side.parent)
    os.close(fd)
    try:
        write_csv(frame, tmp, progress=progress)
        os.chmod(tmp, 0o644)
        os.replace(tmp, side)
    except BaseException:
        Path(tmp).unlink(missing_ok=True)
        raise


def _table(name: str, frame: pd.DataFrame | dict[str, pd.Series], *, band: str | None = None,
           printed: int | None = None, headings: dict[int, str] | None = None,
           title: list[str] | None = None, header: tuple[str, str] = ("", "")) -> Table:
    """A sheet of ``frame``'s columns (a frame, or its columns by name, in order)."""
    columns = frame if isinstance(frame, dict) else dict(frame.items())
    rows = len(frame) if isinstance(frame, pd.DataFrame) else rows_of(frame)
    cols = []
    for c, series in columns.items():  # each column once, without a lookup by name
        style = ("center" if c in CENTERED else "indent" if c in INDENTED
                 else FORMATS.get(str(c)))
        cols.append(column(heading(c), series, style))
    index = list(columns).index(band) if band in columns and rows else None
    return Table(name, cols, title or [], headings or {}, index, printed, header)


def _problems_table(problems: pd.DataFrame, header: tuple[str, str]) -> Table:
    """Problems, the message and value wrapped so that the sheet prints legibly."""
    table = _table("Problems", problems, header=header)
    lines = np.ones(len(problems))
    for c in table.columns:
        if c.header in ("Message", "Value"):
            c.style, c.width = "wrap", (60 if c.header == "Message" else min(c.width, 30))
            chars = np.array([len(str(v or "")) for v in c.values], dtype=float)
            lines = np.maximum(lines, np.ceil(chars * 1.15 / (c.width - 2)))
        elif c.style is None:
            c.style = "top"
    table.heights = (15.0 * lines).tolist()
    return table


def extra_sheets(result: Result) -> list[tuple[str, pd.DataFrame]]:
    """The sheets after Problems: Score cards, Frequencies, Summary (and Sessions for an event,
    Master points when awarded)."""
    return _sheets(result, lambda: result_score_cards(result),
                   lambda: result_frequencies(result), lambda: result_summary(result))


def _sheets(result: Result, cards: Callable[[], Any], frequencies: Callable[[], Any],
            summary: Callable[[], pd.DataFrame]) -> list[tuple[str, Any]]:
    """The sheets after Problems, the score cards from ``cards()``, the frequencies from
    ``frequencies()`` (each a frame or its columns) and the summary from ``summary()``."""
    points = getattr(result, "points", None)  # each player's award, with their number
    if points is not None and result.settings.get("individual"):
        points = points.rename(columns={"pair": "player", "player": "names"})  # as ranked
    awarded = [("Master points", points)] if points is not None else []
    sheets = [("Score cards", cards()), ("Frequencies", frequencies()),
              ("Summary", summary()), *result.tables.items()]
    if result.settings.get("frequency_table"):  # no pairs, so no cards to print
        sheets = sheets[1:]
    sessions = getattr(result, "session_rankings", None)
    if sessions is not None and not sessions.empty:
        sheets.append(("Sessions", _session_columns(sessions)))
    return sheets + awarded


#: The Sessions sheet's columns first, in this order (any others after them).
_SESSION_ORDER = ("session", "section", "line", "pair", "names", "boards", "mp",
                  "mp_factored", "pct", "place", "possible")


def _session_columns(sessions: pd.DataFrame) -> dict[str, pd.Series]:
    """Every session's ranking as the Sessions sheet shows it: the session first, no empty
    section, line or names column, factored matchpoints only where they differ."""
    order = [c for c in _SESSION_ORDER if c in sessions]
    columns = {c: sessions[c] for c in [*order, *(c for c in sessions if c not in order)]}
    drop = {c for c in ("section", "line", "names") if c in columns and blank(columns[c])}
    if "mp_factored" in columns and not factored_shown(columns):
        drop.add("mp_factored")
    return {c: v for c, v in columns.items() if c not in drop}


def _ranking_frame(result: Result) -> dict[str, pd.Series]:
    """The ranking's columns to write: no empty line or section, no factored MP equal to MP,
    no event carry-over column of zeros."""
    columns = dict(result.ranking.items())  # each column once, compared as arrays
    drop = [name for name in ("line", "section")  # blank for a Howell / a single section
            if name in columns and bool((columns[name].array == "").all())]
    if "mp_factored" in columns and not factored_shown(columns):
        drop.append("mp_factored")  # every pair played every board
    if "carry" in columns and not carry_shown(columns):
        drop.append("carry")  # an event without carry-over
    kept = {c: series for c, series in columns.items() if c not in drop}
    if result.settings.get("individual") and "pair" in kept:  # one line per player
        kept = {("player" if c == "pair" else c): v for c, v in kept.items()}
    return kept
