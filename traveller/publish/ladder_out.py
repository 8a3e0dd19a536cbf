"""A ladder published: its workbook (one printable sheet), its pages, and what changed.

The workbook's Ladder sheet lists each player's rank, total and one column per
session, the counted values plain and the dropped ones grey in brackets, so a
player can check their score by hand. The pages are ``ladder.html`` and one
``player-<n>.html`` per player: their sessions, percentages, points and partners.
Beside the workbook a ``<name>.json`` keeps the standings for the next run's
change report: which players moved, and which of their sessions changed.

The pages go only into a new or empty folder or one of the ladder's own (marked
as the sessions' sites are, :data:`LADDER_MARK`): ``--html`` naming a folder of the
club's files once dropped the ladder's pages among them.
"""

from __future__ import annotations

import json
import re
from importlib import resources
from pathlib import Path
from typing import Any

import numpy as np
import pandas as pd

from traveller.publish.site import MARKER, STYLESHEET, check_site_folder, environment
from traveller.score.imps import round_half_away
from traveller.words import places


def state_of(table: pd.DataFrame, detail: pd.DataFrame) -> dict[str, Any]:
    """The standings as JSON: per player, rank, total and each session's value."""
    sessions: dict[str, dict[str, Any]] = {}
    for key, session, value, counted in zip(detail["player_key"], detail["session"],
                                            detail["value"], detail["counted"], strict=True):
        sessions.setdefault(key, {})[session] = [_hundredths(value), bool(counted)]
    return {"format": 1, "players": {
        key: {"player": player, "rank": rank, "total": _hundredths(total),
              "sessions": sessions.get(key, {})}
        for key, player, rank, total in zip(table["player_key"], table["player"], table["rank"],
                                            table["total"], strict=True)}}


def changes(old: dict[str, Any] | None, new: dict[str, Any]) -> list[str]:
    """What changed from ``old`` standings to ``new``: one line per player affected."""
    if old is None:
        return []
    before, after = old.get("players", {}), new["players"]
    lines = []
    for key in sorted(set(before) | set(after), key=lambda k: (after.get(k) or before[k])[
            "player"]):
        o, n = before.get(key), after.get(key)
        if o is None or n is None:
            who = (n or o or {})["player"]
            lines.append(f"{who}: {'joined' if o is None else 'left'} the ladder")
            continue
        why = _session_changes(o["sessions"], n["sessions"])
        if o["rank"] == n["rank"] and o["total"] == n["total"] and not why:
            continue
        moved = (f"{o['rank'] or 'unranked'} → {n['rank'] or 'unranked'}"
                 if o["rank"] != n["rank"] else f"still {n['rank'] or 'unranked'}")
        total = (f", total {o['total']:g} → {n['total']:g}" if o["total"] != n["total"]
                 else "")
        reason = "; ".join(why) if why else "others' totals changed"
        lines.append(f"{n['player']}: {moved}{total} ({reason})")
    return lines


def _session_changes(old: dict[str, Any], new: dict[str, Any]) -> list[str]:
    out = []
    for session in sorted(set(old) | set(new)):
        o, n = old.get(session), new.get(session)
        if o is None:
            assert n is not None
            out.append(f"{session} added ({n[0]:g})")
        elif n is None:
            out.append(f"{session} removed (was {o[0]:g})")
        elif o[0] != n[0]:
            out.append(f"{session} corrected {o[0]:g} → {n[0]:g}")
        elif o[1] != n[1]:
            out.append(f"{session} ({n[0]:g}) now {'counted' if n[1] else 'dropped'}")
    return out


def write_ladder_workbook(table: pd.DataFrame, detail: pd.DataFrame, path: Path,
                          title: str, rule_text: str, notes: list[str] | None = None) -> Path:
    """The ladder as one printable sheet (landscape, fitted to the page width); ``notes``
    (such as two spellings that look like one player) are listed under the table."""
    import xlsxwriter

    sessions = (detail[["session", "date", "title"]].drop_duplicates("session")
                .sort_values(["date", "session"], kind="stable"))
    tmp = path.with_name(f".{path.name}.tmp")
    book = xlsxwriter.Workbook(str(tmp), {"strings_to_formulas": False,
                                          "strings_to_urls": False})
    sheet = book.add_worksheet("Ladder")
    bold = book.add_format({"bold": True, "bottom": 1, "text_wrap": True, "valign": "top"})
    counted = book.add_format({"num_format": "0.00"})
    dropped = book.add_format({"num_format": "(0.00)", "font_color": "#808080", "italic": True})
    sheet.write_string(0, 0, title, book.add_format({"bold": True, "font_size": 14}))
    sheet.write_string(1, 0, rule_text + "; dropped sessions in grey brackets")
    heads = ["Rank", "Player", "ID", "Sessions", "Partners", "Counted", "Total", "Average",
             "Note", *(f"{d or s}" for s, d in zip(sessions["session"], sessions["date"],
                                                   strict=True))]
    for c, text in enumerate(heads):
        sheet.write_string(3, c, text, bold)
    values = {(k, s): (v, c) for k, s, v, c in zip(detail["player_key"], detail["session"],
                                                   detail["value"], detail["counted"],
                                                   strict=True)}
    for r, row in enumerate(table.itertuples(index=False), start=4):
        for c, cell in enumerate([row.rank, row.player, row.player_id]):
            sheet.write_string(r, c, str(cell))
        sheet.write_number(r, 3, int(row.sessions))
        sheet.write_number(r, 4, int(row.partners))
        sheet.write_number(r, 5, int(row.counted))
        sheet.write_number(r, 6, float(row.total), counted)
        if pd.notna(row.average):
            sheet.write_number(r, 7, float(row.average), counted)
        sheet.write_string(r, 8, str(row.note))
        for c, session in enumerate(sessions["session"], start=9):
            found = values.get((row.player_key, session))
            if found is not None:
                sheet.write_number(r, c, float(found[0]), counted if found[1] else dropped)
    below = 4 + len(table) + 1
    for i, note in enumerate(notes or []):
        sheet.write_string(below + i, 0, f"Note: {note}")
    sheet.set_column(0, 0, 6)
    sheet.set_column(1, 1, 24)
    sheet.set_column(2, 8, 9)
    sheet.set_column(9, 9 + len(sessions), 10)
    sheet.freeze_panes(4, 2)
    sheet.set_landscape()
    sheet.fit_to_pages(1, 0)
    sheet.repeat_rows(3)
    sheet.set_paper(9)
    book.close()
    tmp.replace(path)
    return path


#: The text of the marker file (:data:`~traveller.publish.site.MARKER`) in a ladder's site:
#: a session's site says "replaced as a whole", which a ladder's folder is not.
LADDER_MARK = "written by traveller ladder; its pages are rewritten on each run\n"
#: A page of a ladder's site, by name: what a folder written before the marker holds.
_LADDER_PAGE = re.compile(r"ladder\.html|player-\d+\.html|" + re.escape(STYLESHEET))
_PLAYER_PAGE = re.compile(r"player-\d+\.html")


def is_ladder_site(folder: Path) -> bool:
    """True when ``folder`` holds a ladder's pages: its marker, or (a site written before
    the marker) a ladder.html and nothing but ladder pages."""
    mark = folder / MARKER
    if mark.is_file():
        try:
            return mark.read_text(encoding="utf-8").startswith(LADDER_MARK.split(";")[0])
        except (OSError, UnicodeError):
            return False
    names = [p.name for p in folder.iterdir()] if folder.is_dir() else []
    return "ladder.html" in names and all(_LADDER_PAGE.fullmatch(n) for n in names)


def check_ladder_site(folder: str | Path) -> None:
    """Raise FileExistsError unless ``folder`` is new, empty, or a ladder's site: the check
    of a session's ``--html`` (:func:`~traveller.publish.site.check_site_folder`), and a
    session's own site refused too (its pages would mix with the ladder's, and the next
    publication of the session replaces the folder, ladder and all)."""
    folder = Path(folder)
    if folder.is_dir() and is_ladder_site(folder):
        return
    check_site_folder(folder)
    if folder.is_dir() and any(folder.iterdir()):
        raise FileExistsError(f"{folder}: the folder is a session's website (written by "
                              "traveller score or batch), which is replaced as a whole when "
                              "the session is published again; give the ladder a new or "
                              "empty folder for --html")


def player_pages(table: pd.DataFrame) -> dict[str, str]:
    """Each player's page name, ``player-<n>.html`` in ladder order."""
    return {key: f"player-{i}.html" for i, key in enumerate(table["player_key"], start=1)}


def write_ladder_pages(table: pd.DataFrame, detail: pd.DataFrame, folder: Path, title: str,
                       rule_text: str, changed: list[str], notes: list[str] | None = None
                       ) -> Path:
    """``ladder.html`` and one page per player (their history) into ``folder``; a player
    page of an earlier run that no player has now is removed.

    FileExistsError (before anything is written) when ``folder`` holds other files
    (:func:`check_ladder_site`).
    """
    check_ladder_site(folder)
    folder.mkdir(parents=True, exist_ok=True)
    write_atomic(folder / MARKER, LADDER_MARK)
    env = environment()
    pages = player_pages(table)
    rows = table.assign(href=table["player_key"].map(pages),
                        total=[_two(v) for v in table["total"]],
                        average=[_two(v) for v in table["average"]]).to_dict("records")
    common = {"title": title, "rule": rule_text, "stylesheet": STYLESHEET}
    write_atomic(folder / "ladder.html", env.get_template("season_ladder.html").render(
        rows=rows, changes=changed, notes=notes or [], **common))
    shown = detail.sort_values(["date", "session"], kind="stable").assign(
        **{c: [_two(v) for v in detail[c]] for c in ("pct", "average", "award", "value")})
    for key, part in shown.groupby("player_key", sort=False):
        standing = next(r for r in rows if r["player_key"] == key)
        partners = {p: pages.get(k, "") for p, k in zip(part["partner"], part["partner_key"],
                                                        strict=True)}
        write_atomic(folder / pages[str(key)], env.get_template("season_player.html").render(
            player=standing, sessions=part.to_dict("records"), partners=partners, **common))
    css = resources.files("traveller.publish").joinpath(f"templates/{STYLESHEET}")
    write_atomic(folder / STYLESHEET, css.read_text(encoding="utf-8"))
    kept = set(pages.values())
    for old in folder.glob("player-*.html"):  # (a player who has left the ladder)
        if _PLAYER_PAGE.fullmatch(old.name) and old.name not in kept:
            old.unlink(missing_ok=True)
    return folder / "ladder.html"


def write_atomic(path: Path, text: str) -> Path:
    """Write ``text`` to ``path`` by a temporary file renamed into place."""
    from traveller.batch.manifest import write_atomic as atomic

    return atomic(path, text)


def _hundredths(value: object) -> float:
    """A figure to two places as the sheet shows it (halves away from zero)."""
    return float(round_half_away(np.array([float(value)]), 2)[0])  # type: ignore[arg-type]


def _two(value: object) -> str:
    """A number to two decimals; "" for a missing one."""
    try:
        number = float(value)  # type: ignore[arg-type]
    except (TypeError, ValueError):
        return ""
    return "" if number != number else places(number)  # as the workbook shows it


def read_state(path: Path) -> dict[str, Any] | None:
    try:
        found = json.loads(path.read_text(encoding="utf-8"))
    except (OSError, ValueError):
        return None
    return found if isinstance(found, dict) and found.get("format") == 1 else None


def write_state(path: Path, state: dict[str, Any]) -> Path:
    return write_atomic(path, json.dumps(state, ensure_ascii=False, sort_keys=True, indent=1))
