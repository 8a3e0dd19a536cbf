"""Drawing the sheets of the score-pad workbook (see :mod:`traveller.home.pad`)."""

from __future__ import annotations

from collections.abc import Callable, Sequence
from typing import Any, Protocol

import pandas as pd

from traveller.home.values import settle
from traveller.publish.headers import heading as workbook_heading


class HomeResult(Protocol):
    """What a score pad is drawn from: a :class:`traveller.home.result.HomeResult`.

    Said by its shape, so that the pad needs nothing from the module that scores
    (which imports the pad for ``to_excel``): every import points down.
    """

    game: str
    ledger: pd.DataFrame
    totals: pd.DataFrame
    problems: pd.DataFrame
    parties: list[str]
    settings: dict[str, object]
    rubbers: pd.DataFrame | None
    source: str


Formats = Callable[..., Any]
SIDE_TITLES = {"ns": "We (N-S)", "ew": "They (E-W)"}
#: Long texts wrapped in their column rather than shrinking the printed page.
WRAPPED = ("message", "read_as")
PAD_MIN_ROWS = 3  # rows above the line even when little was scored there

#: The headings of the pad's own columns on its Ledger, Totals and Rubbers sheets (the
#: rest, the Problems sheet's among them, are headed as the traveller workbook heads them).
HEADINGS = {"deal": "Deal", "chicago_deal": "Chicago deal", "round_number": "Round",
            "read_as": "Read as", "rubber": "Rubber", "game": "Game",
            "rubber_won": "Rubber won", "dealer": "Dealer", "vulnerable": "Vulnerable",
            "entry": "Entry", "ns": "N-S", "ew": "E-W", "settlement": "Settlement",
            "finished": "Finished", "deals": "Deals"}
#: A party's columns (``ns_below``, ``Anna_vul``) by what follows its name.
_PARTY_WORDS = {"vul": "vulnerable", "below": "below the line", "above": "above the line",
                "honours": "honours", "bonus": "bonus", "total": "total", "score": "score"}


def heading(column: object, parties: Sequence[str]) -> str:
    """A column's heading on the pad's sheets: "Deal", "Contract (as written)", "N-S
    below the line", "Anna vulnerable" (``parties``: the three-handed players' names).

    >>> heading("declarer_written", []), heading("ns_vul", []), heading("Anna_total", ["Anna"])
    ('Declarer (as written)', 'N-S vulnerable', 'Anna total')
    """
    name = str(column)
    if name in HEADINGS:
        return HEADINGS[name]
    if name.endswith("_written"):
        return f"{name[:-len('_written')].capitalize()} (as written)"
    party, _, what = name.rpartition("_")
    if what in _PARTY_WORDS and (party in SIDE_TITLES or party in parties):
        return f"{HEADINGS.get(party, party)} {_PARTY_WORDS[what]}"
    return workbook_heading(name)
A4 = 9


def pad_formats(book: Any) -> Formats:
    """A format factory: ``fmt(bold=True, bottom=2)`` -> one shared xlsxwriter format."""
    cache: dict[tuple[tuple[str, Any], ...], Any] = {}

    def fmt(**props: Any) -> Any:
        key = tuple(sorted(props.items()))
        if key not in cache:
            cache[key] = book.add_format({"font_name": "Arial", "font_size": 11, **props})
        return cache[key]

    return fmt


def cell(value: Any) -> Any:
    """A value xlsxwriter writes as is: None for missing, Python ints, bools, text."""
    if value is None or (not isinstance(value, str) and pd.isna(value)):
        return None
    if hasattr(value, "item"):
        return value.item()
    return value


def _write(sheet: Any, r: int, c: int, value: Any, style: Any) -> None:
    value = cell(value)
    if value is None:
        sheet.write_blank(r, c, None, style)
    elif isinstance(value, str):
        sheet.write_string(r, c, value, style)
    elif isinstance(value, bool):
        sheet.write_boolean(r, c, value, style)
    else:
        sheet.write_number(r, c, value, style)


def _label(row: dict[str, Any]) -> str:
    deal, line = row.get("deal"), row.get("row")
    if deal is not None and not pd.isna(deal):
        return str(int(deal))
    return f"row {int(line)}" if line is not None and not pd.isna(line) else ""


def _entries(rows: list[dict[str, Any]], party: str) -> tuple[list[tuple[str, int]],
                                                                list[list[tuple[str, int]]]]:
    """Above-the-line entries (oldest first) and below-the-line entries per game."""
    above: list[tuple[str, int]] = []
    games: list[list[tuple[str, int]]] = [[]]
    for row in rows:
        label = _label(row)
        if row[f"{party}_above"]:
            above.append((label, int(row[f"{party}_above"])))
        if row[f"{party}_honours"]:
            above.append((f"{label} hon.", int(row[f"{party}_honours"])))
        if row[f"{party}_bonus"]:
            above.append(("rubber" if row["rubber_won"] else "unfin.",
                          int(row[f"{party}_bonus"])))
        if row[f"{party}_below"]:
            games[-1].append((label, int(row[f"{party}_below"])))
        if row["game"]:
            games.append([])
    return above, games


def rubber_pad(sheet: Any, fmt: Formats, block: pd.DataFrame, result: HomeResult,
               title: str) -> None:
    """One rubber as a We/They pad (a column pair per side or player) on one page."""
    parties = result.parties
    rows = block.to_dict("records")
    entries = {p: _entries(rows, p) for p in parties}
    _heading(sheet, fmt, title, _options_line(result), parties)
    r = _above(sheet, fmt, {p: e[0] for p, e in entries.items()}, parties, top=4)
    r = _below(sheet, fmt, {p: e[1] for p, e in entries.items()}, parties, r)
    _footer(sheet, fmt, r + 1, block, result, parties)


def _above(sheet: Any, fmt: Formats, above: dict[str, list[tuple[str, int]]],
           parties: list[str], top: int) -> int:
    """Entries above the line, the first just above it; returns the first row below it."""
    height = max(PAD_MIN_ROWS, *(len(e) for e in above.values()))
    line = top + height - 1
    for k, p in enumerate(parties):
        for r in range(top, top + height):
            j = line - r  # the j-th entry counted up from the line
            label, value = above[p][j] if j < len(above[p]) else (None, None)
            _pair(sheet, fmt, r, k, label, value, r == line)
    return top + height


def _below(sheet: Any, fmt: Formats, games: dict[str, list[list[tuple[str, int]]]],
           parties: list[str], r: int) -> int:
    """Trick points below the line, game by game, a line drawn under each game won."""
    n_games = max(len(e) for e in games.values())
    while n_games > 1 and not any(e[n_games - 1] for e in games.values()):
        n_games -= 1  # nothing below the line yet after the last game
    ended = len(games[parties[0]])  # segments so far; all but the last end in a game
    for g in range(n_games):
        span = max(1, *(len(e[g]) if g < len(e) else 0 for e in games.values()))
        for k, p in enumerate(parties):
            game = games[p][g] if g < len(games[p]) else []
            for i in range(span):
                label, value = game[i] if i < len(game) else (None, None)
                _pair(sheet, fmt, r + i, k, label, value, g < ended - 1 and i == span - 1,
                      line=1)
        r += span
    return r


def _pair(sheet: Any, fmt: Formats, r: int, k: int, label: str | None, value: int | None,
          underline: bool, line: int = 5) -> None:
    """One entry of party ``k``: the deal number (small, grey) and the points."""
    border = {"bottom": line} if underline else {}
    left = {"left": 2} if k else {}
    _write(sheet, r, 2 * k, label, fmt(font_size=8, font_color="#808080", align="right",
                                       **border, **left))
    _write(sheet, r, 2 * k + 1, value, fmt(align="right", **border))


def _heading(sheet: Any, fmt: Formats, title: str, options: str, parties: list[str]) -> None:
    sheet.write_string(0, 0, title, fmt(bold=True, font_size=14))
    sheet.write_string(1, 0, options, fmt(font_size=9, italic=True))
    for k, p in enumerate(parties):
        sheet.merge_range(3, 2 * k, 3, 2 * k + 1, SIDE_TITLES.get(p, p),
                          fmt(bold=True, align="center", bottom=2, **({"left": 2} if k else {})))
        sheet.set_column(2 * k, 2 * k, 8)
        sheet.set_column(2 * k + 1, 2 * k + 1, 12)
    sheet.set_portrait()
    sheet.set_paper(A4)
    sheet.fit_to_pages(1, 1)
    sheet.center_horizontally()
    sheet.hide_gridlines(2)
    sheet.set_footer("&L&A&RPage &P of &N")


def _options_line(result: HomeResult) -> str:
    s = result.settings
    if result.game == "chicago":
        return (f"Part-score bonus {s['partscore_bonus']}; settlement in hundreds, "
                f"an exact 50 {'up' if s['settle_rounding'] == 'half-up' else 'down'}")
    return (f"{str(s['rules']).capitalize()} rules; unfinished part-score "
            f"{s['unfinished_partscore']}; settlement in hundreds, an exact 50 "
            f"{'up' if s['settle_rounding'] == 'half-up' else 'down'}")


def _footer(sheet: Any, fmt: Formats, r: int, block: pd.DataFrame, result: HomeResult,
            parties: list[str]) -> None:
    last = block.iloc[-1]
    totals = {p: int(last[f"{p}_total"]) for p in parties}
    nets = _nets(totals, parties, str(result.settings["settle_rounding"]))
    for k, p in enumerate(parties):
        left = {"left": 2} if k else {}
        _write(sheet, r, 2 * k, "Total", fmt(bold=True, top=6, align="right", **left))
        _write(sheet, r, 2 * k + 1, totals[p], fmt(bold=True, top=6, align="right"))
        _write(sheet, r + 1, 2 * k, "Settle", fmt(italic=True, align="right", **left))
        _write(sheet, r + 1, 2 * k + 1, f"{nets[p]:+d}" if nets[p] else "0",
               fmt(bold=True, align="right"))
    for i, line in enumerate(_notes(block, parties)):
        sheet.write_string(r + 3 + i, 0, line, fmt(font_size=9))


def _nets(totals: dict[str, int], parties: list[str], rounding: str) -> dict[str, int]:
    """Each party's settlement in hundreds: the sum over the others of the rounded difference."""
    return {p: int(sum(settle(totals[p] - totals[q], rounding) for q in parties if q != p))
            for p in parties}


def _notes(block: pd.DataFrame, parties: list[str]) -> list[str]:
    """What the pad does not show by itself: who won, unfinished bonuses, skipped rows."""
    shown = {p: SIDE_TITLES.get(p, p) for p in parties}
    notes = []
    won = block.loc[block["rubber_won"] != "", "rubber_won"]
    if len(won):
        notes.append(f"Rubber won by {shown[won.iloc[0]]}.")
    elif (block["entry"] == "unfinished").any():
        notes.append(str(block.loc[block["entry"] == "unfinished", "read_as"].iloc[0]) + ".")
    for row in block[block["entry"] == "skipped"].to_dict("records"):
        why = str(row["read_as"]).removeprefix("skipped: ")
        notes.append(f"Deal {_label(row)} (row {int(row['row'])}) was not scored: {why}.")
    return notes


def chicago_pad(sheet: Any, fmt: Formats, block: pd.DataFrame, title: str,
                result: HomeResult) -> None:
    """One Chicago round: deal, dealer, vulnerability, contract, We and They, totals."""
    rounding = str(result.settings["settle_rounding"])
    sheet.write_string(0, 0, title, fmt(bold=True, font_size=14))
    sheet.write_string(1, 0, _options_line(result), fmt(font_size=9, italic=True))
    heads = ["Deal", "Dealer", "Vulnerable", "Contract", "We (N-S)", "They (E-W)"]
    for c, (head, width) in enumerate(zip(heads, (6, 7, 11, 40, 11, 11), strict=True)):
        sheet.write_string(2, c, head, fmt(bold=True, bottom=2, align="center"))
        sheet.set_column(c, c, width)
    r = 3
    for row in block.to_dict("records"):
        score = int(row["ns_score"])
        values = [row.get("chicago_deal"), row["dealer"], row["vulnerable"], row["read_as"],
                  max(score, 0) or None, max(-score, 0) or None]
        for c, v in enumerate(values):
            _write(sheet, r, c, v, fmt(align="left" if c == 3 else "center", bottom=4))
        r += 1
        for c, side in ((4, "ns"), (5, "ew")):
            if row[f"{side}_honours"]:
                _write(sheet, r, 3, "honours", fmt(italic=True, align="right"))
                _write(sheet, r, c, int(row[f"{side}_honours"]), fmt(align="center"))
                r += 1
    ns, ew = int(block["ns_total"].iloc[-1]), int(block["ew_total"].iloc[-1])
    _write(sheet, r, 3, "Total", fmt(bold=True, top=6, align="right"))
    _write(sheet, r, 4, ns, fmt(bold=True, top=6, align="center"))
    _write(sheet, r, 5, ew, fmt(bold=True, top=6, align="center"))
    s = int(settle(ns - ew, rounding))
    _write(sheet, r + 1, 3, "Settle", fmt(italic=True, align="right"))
    _write(sheet, r + 1, 4, f"{s:+d}" if s else "0", fmt(bold=True, align="center"))
    _write(sheet, r + 1, 5, f"{-s:+d}" if s else "0", fmt(bold=True, align="center"))
    sheet.set_landscape()
    sheet.set_paper(A4)
    sheet.fit_to_pages(1, 1)
    sheet.hide_gridlines(2)


def data_sheet(book: Any, fmt: Formats, name: str, frame: pd.DataFrame,
               parties: Sequence[str] = ()) -> None:
    """A plain table: bold frozen header (each column's :func:`heading`, wrapped at its
    words so that "N-S below the line" widens no column of numbers), autofilter, fitted
    widths, landscape to page width."""
    sheet = book.add_worksheet(name)
    head = fmt(bold=True, bottom=1, bg_color="#DDEBF7", text_wrap=True, valign="bottom")
    lines = 1  # the header row's, at its most wrapped heading
    for c, column in enumerate(frame.columns):
        shown = heading(column, parties)
        sheet.write_string(0, c, shown, head)
        values = frame[column].tolist()
        word = max(len(w) for w in shown.split()) if shown.strip() else 0
        width = max([word, *(len(str(v)) for v in values[:500])]) + 2
        wrap = fmt(text_wrap=True, valign="top") if column in WRAPPED else None
        width = min(width, 80 if wrap else 50)
        sheet.set_column(c, c, width)
        lines = max(lines, -(-len(shown) // max(width - 2, 1)))
        for r, v in enumerate(values, start=1):
            _write(sheet, r, c, v, wrap)
    if lines > 1:
        sheet.set_row(0, 15 * min(lines, 4))
    _row_heights(sheet, frame)
    sheet.freeze_panes(1, 0)
    sheet.autofilter(0, 0, max(len(frame), 1), max(len(frame.columns) - 1, 0))
    sheet.set_landscape()
    sheet.set_paper(A4)
    sheet.fit_to_pages(1, 0)


def _row_heights(sheet: Any, frame: pd.DataFrame) -> None:
    """Rows tall enough for their wrapped texts (spreadsheets do not grow them on opening)."""
    wrapped = [c for c in WRAPPED if c in frame]
    if not wrapped or frame.empty:
        return
    lengths = pd.concat([frame[c].astype("string").str.len().fillna(0) for c in wrapped], axis=1)
    lines = (lengths.max(axis=1).to_numpy() // 76 + 1).astype(int)
    for r, n in enumerate(lines, start=1):
        if n > 1:
            sheet.set_row(r, 15 * n)
