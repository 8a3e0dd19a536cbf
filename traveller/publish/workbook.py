"""The formatted results workbook: Ranking, Travellers, Problems, then Score cards,
Frequencies and Summary sheets (and Sessions for a multi-session event).

Written with xlsxwriter (about twice as fast as openpyxl here, see
../shared/measurements.md), column by column, with formats set per column so a
director can print it as it is: bold frozen header, autofilter, widths that fit
the content, signed scores, two-decimal percentages, fit to page width.
The file is written beside the target and renamed into place, so an
interrupted run never leaves a half-written workbook.
"""

from __future__ import annotations

import os
import tempfile
from pathlib import Path
from typing import TYPE_CHECKING, Any

import numpy as np
import pandas as pd
import xlsxwriter

if TYPE_CHECKING:
    from traveller.pipeline import Result

SIGNED = '+#,##0;-#,##0;0'
DECIMAL = '0.00'
MP_FORMAT = '0.##'

#: Column -> number format; other columns are written as they are.
FORMATS = {
    "ns_score": SIGNED, "ns_mp": MP_FORMAT, "ew_mp": MP_FORMAT,
    "ns_pct": DECIMAL, "ew_pct": DECIMAL, "pct": DECIMAL, "mp": '0.00',
    "mp_factored": '0.00', "ns_award": DECIMAL, "ew_award": DECIMAL, "score": SIGNED,
    "ns_mp_scaled": MP_FORMAT, "ew_mp_scaled": MP_FORMAT,
    "ns_imp": DECIMAL, "ew_imp": DECIMAL, "imps": DECIMAL, "average": DECIMAL,
    "datum": SIGNED, "points": SIGNED, "target": SIGNED, "vp": DECIMAL,
    "home_vp": DECIMAL, "away_vp": DECIMAL, "quotient": DECIMAL,
}

#: Readable headers for canonical columns.
HEADERS = {
    "section": "Section", "board": "Board", "ns_pair": "N-S", "ew_pair": "E-W",
    "contract": "Contract", "declarer": "By", "tricks": "Tricks", "lead": "Lead",
    "ns_score": "N-S score", "ns_mp": "N-S MP", "ew_mp": "E-W MP", "ns_pct": "N-S %",
    "ew_pct": "E-W %", "line": "Line", "pair": "Pair", "names": "Names", "boards": "Boards",
    "mp": "MP", "pct": "%", "place": "Place", "file": "File", "sheet": "Sheet", "row": "Row",
    "column": "Column", "value": "Value", "code": "Code", "message": "Message",
    "results": "Results", "top": "Top", "ns_mp_scaled": "N-S MP (Neuberg)",
    "ew_mp_scaled": "E-W MP (Neuberg)", "common_top": "Common top", "notation": "Notation",
    "ns_imp": "N-S IMPs", "ew_imp": "E-W IMPs", "datum": "Datum", "imps": "IMPs",
    "average": "Average", "points": "Points", "target": "Target", "vp": "VP", "team": "Team",
    "matches": "Matches", "imps_for": "IMPs won", "imps_against": "IMPs lost",
    "quotient": "IMP quotient", "match": "Match", "home_team": "Home team",
    "away_team": "Away team", "played": "Played", "missing": "Missing",
    "home_imps": "Home IMPs", "away_imps": "Away IMPs", "margin": "Margin",
    "home_vp": "Home VP", "away_vp": "Away VP", "status": "Status",
    "home_ns_score": "Home N-S score", "away_ns_score": "Away N-S score",
    "home_diff": "Home difference", "home_imp": "Home IMPs", "away_imp": "Away IMPs",
    "mp_factored": "MP (factored)", "ruling": "Ruling", "ruling_kind": "Ruling kind",
    "ns_award": "N-S award %", "ew_award": "E-W award %", "ruling_applied": "Ruling applied",
    "phantom": "Phantom", "arrow": "Arrow switched", "fouled": "Fouled group",
    "held": "Cards", "opponent": "Opponents", "score": "Score", "count": "Times",
    "item": "Item", "sessions": "Sessions", "carry": "Carry-over",
    "score_total": "Score", "session": "Session",
}


def write_workbook(result: Result, path: str | Path, *, more_sheets: bool = True) -> Path:
    """Write ``result`` as a formatted xlsx workbook at ``path`` (atomically).

    ``more_sheets`` adds Score cards, Frequencies and Summary after Problems
    (the score cards have two rows per result: skip them to write a huge
    session faster).

    >>> write_workbook(process("sample_data/club_session.csv"), "results.xlsx")  # doctest: +SKIP
    """
    path = Path(path)
    path.parent.mkdir(parents=True, exist_ok=True)
    fd, tmp = tempfile.mkstemp(prefix=f".{path.name}.", suffix=".tmp", dir=path.parent)
    os.close(fd)
    try:
        book = xlsxwriter.Workbook(tmp, {"nan_inf_to_errors": True})
        styles = _styles(book)
        _sheet(book, styles, "Ranking", _ranking_frame(result), _title(result))
        travellers, printed = _travellers_frame(result)
        _sheet(book, styles, "Travellers", travellers, band="board", printed=printed)
        _sheet(book, styles, "Problems", result.problems)
        for name, frame in extra_sheets(result) if more_sheets else []:
            _sheet(book, styles, name, frame, band="board" if "board" in frame else None)
        book.close()
        os.chmod(tmp, 0o644)  # mkstemp makes it private; results are for publishing
        os.replace(tmp, path)
    except BaseException:
        Path(tmp).unlink(missing_ok=True)
        raise
    return path


def extra_sheets(result: Result) -> list[tuple[str, pd.DataFrame]]:
    """The sheets after Problems: Score cards, Frequencies, Summary (and Sessions for an event)."""
    if result.settings.get("method", "mp") != "mp":
        return list(result.tables.items())
    sheets = [("Score cards", result.score_cards), ("Frequencies", result.frequencies),
              ("Summary", result.summary)]
    sessions = getattr(result, "session_rankings", None)
    if sessions is not None and not sessions.empty:
        sheets.append(("Sessions", sessions))
    return sheets


def _ranking_frame(result: Result) -> pd.DataFrame:
    ranking = result.ranking
    for column in ("line", "section"):  # blank for a Howell / a single section
        if column in ranking and ranking[column].eq("").all():
            ranking = ranking.drop(columns=column)
    if "mp_factored" in ranking and np.allclose(ranking["mp_factored"].astype(float),
                                                ranking["mp"].astype(float)):
        ranking = ranking.drop(columns="mp_factored")  # every pair played every board
    return ranking


def _title(result: Result) -> list[str]:
    s = result.settings
    title = f"Results: {Path(result.source).name}" if result.source else "Results"
    method = str(s.get("method", "mp"))
    movement = "" if method == "teams" else f"{s.get('movement', '')} movement; "
    detail = (f"{_method_line(method, s)}; {movement}{s.get('boards', 0)} boards; "
              f"{len(result.problems)} problem(s) listed")
    return [title, detail]


def _method_line(method: str, s: dict[str, object]) -> str:
    """The method and its options, in words, for the top of the Ranking sheet."""
    if method == "ximp":
        return f"Cross-IMPs, divided by {s.get('divisor')}; ranked by IMPs per board"
    if method == "butler":
        return (f"Butler IMPs against a datum: mean without the {s.get('trim')} highest and "
                f"lowest, rounded to 10 ({s.get('datum_rounding')}); ranked by IMPs per board")
    if method == "total":
        return "Total points; ranked by points per board"
    if method == "russian":
        vul = "Chicago deal" if s.get("chicago") else "board number"
        return f"Russian scoring: IMPs against the HCP target, vulnerability by {vul}"
    if method == "teams":
        return (f"Teams: IMPs per board, victory points on the {s.get('vp_scale')} scale; "
                "standings by VP, ties by IMP quotient")
    return (f"Matchpoints, scale {s.get('scale', '2/1/0')}; Neuberg to the common top where "
            "a board has fewer results")


def _styles(book: Any) -> dict[str, Any]:
    styles = {key: book.add_format({"num_format": fmt}) for key, fmt in
              {SIGNED: SIGNED, DECIMAL: DECIMAL, MP_FORMAT: MP_FORMAT, "0.00": "0.00"}.items()}
    styles["header"] = book.add_format({"bold": True, "bottom": 1, "text_wrap": True,
                                        "valign": "top", "bg_color": "#DDEBF7"})
    styles["title"] = book.add_format({"bold": True, "font_size": 14})
    styles["band"] = book.add_format({"bg_color": "#F2F2F2"})
    styles["center"] = book.add_format({"align": "center"})
    return styles


def _cells(column: pd.Series) -> list[Any]:
    """Plain Python values for xlsxwriter: None for missing, ints for whole numbers."""
    values = column.astype(object).where(column.notna(), None)
    if pd.api.types.is_integer_dtype(column.dtype):
        return [None if v is None else int(v) for v in values]
    return [v.item() if isinstance(v, np.generic) else v for v in values]


def _shown(value: Any) -> str:
    """A cell as the sheet shows it (floats to 2 decimals), for the column width."""
    return f"{value:.2f}" if isinstance(value, float) else str(value)


def _width(header: str, values: list[Any]) -> float:
    longest = max((len(_shown(v)) for v in values[:2000] if v is not None), default=0)
    return min(max(len(header), longest) + 2, 40)


#: Short codes and small numbers, centred so neighbouring columns do not run together.
CENTERED = frozenset({"board", "ns_pair", "ew_pair", "declarer", "tricks", "pair", "line",
                      "boards", "place", "results", "top", "row"})

#: Travellers columns printed (the rest stay on screen, beyond the print area).
PRINTED = ("section", "board", "ns_pair", "ew_pair", "contract", "declarer", "tricks", "lead",
           "ns_score", "ns_mp", "ew_mp", "ns_pct", "ew_pct", "ns_imp", "ew_imp", "datum",
           "target", "ruling", "ruling_applied")


def _travellers_frame(result: Result) -> tuple[pd.DataFrame, int]:
    """Travellers without columns that are empty throughout, the printed ones first.

    Returns the frame and how many leading columns form the print area.
    """
    frame = result.travellers
    frame = frame.loc[:, [c for c in frame.columns if frame[c].notna().any()
                          and not (frame[c].astype("string") == "").all()]]
    printed = [c for c in PRINTED if c in frame.columns]
    return frame[printed + [c for c in frame.columns if c not in printed]], len(printed)


def _sheet(book: Any, styles: dict[str, Any], name: str, frame: pd.DataFrame,
           title: list[str] | None = None, band: str | None = None,
           printed: int | None = None) -> None:
    sheet = book.add_worksheet(name)
    top = 0
    for i, line in enumerate(title or []):
        sheet.write(i, 0, line, styles["title"] if i == 0 else None)
        top = i + 2
    headers = [HEADERS.get(str(c), str(c)) for c in frame.columns]
    sheet.write_row(top, 0, headers, styles["header"])
    for j, column in enumerate(frame.columns):
        values = _cells(frame[column])
        fmt = "center" if column in CENTERED else FORMATS.get(str(column))
        sheet.set_column(j, j, _width(headers[j], values), styles[fmt] if fmt else None)
        sheet.write_column(top + 1, j, values)
    last_row = top + len(frame)
    last_col = max(len(frame.columns) - 1, 0)
    sheet.freeze_panes(top + 1, 0)
    sheet.autofilter(top, 0, last_row, last_col)
    if band is not None and band in frame.columns and len(frame):
        letter = xlsxwriter.utility.xl_col_to_name(list(frame.columns).index(band))
        sheet.conditional_format(top + 1, 0, last_row, last_col, {
            "type": "formula", "criteria": f"=ISODD(${letter}{top + 2})", "format": styles["band"]})
    sheet.repeat_rows(top)
    if printed:
        sheet.print_area(0, 0, last_row, printed - 1)
    sheet.set_landscape()
    sheet.fit_to_pages(1, 0)
    sheet.set_paper(9)
    sheet.set_footer("&L&A&RPage &P of &N")
