"""Published sessions read back: a batch's snapshots, or results workbooks.

A season's ladder reads what was published, not the travellers: the batch's
snapshot of each session (its ranking, players and title lines, kept under
``OUTDIR/.traveller-batch``), or the Ranking sheet of a results workbook
written by ``traveller score``.
"""

from __future__ import annotations

import json
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import pandas as pd

from traveller.errors import TravellerError, UnreadableFileError
from traveller.read.paths import STATE_DIR

#: Ranking sheet headings -> columns (as the results workbook writes them).
_HEADINGS = {"section": "section", "line": "line", "pair": "pair", "names": "names",
             "boards": "boards", "mp": "mp", "%": "pct", "average": "average",
             "imps": "imps", "place": "place", "master points": "master_points"}
#: An individual's Ranking heads its numbers "Player" where a pairs Ranking says "Pair": read
#: as the pair column, each player is a "pair" of one (as the batch's snapshot of the same
#: session has it), so the session counts each player's own percentage, with no partner.
_INDIVIDUAL = {"player": "pair"}


class NoRanking(UnreadableFileError):
    """A workbook without a Ranking sheet: not a session's results."""


@dataclass
class Published:
    """One published session: its key (path under the results), ranking, players, facts."""

    key: str
    ranking: pd.DataFrame
    players: pd.DataFrame | None
    info: dict[str, Any] = field(default_factory=dict)
    #: The workbook the session was published as, to name it in a message ("": not known).
    source: str = ""


def table_frame(table: dict[str, Any]) -> pd.DataFrame:
    """A snapshot's table ({"key", "columns", "rows"}) as a DataFrame."""
    return pd.DataFrame(table.get("rows", []), columns=[*table["key"], *table["columns"]])


def table_records(table: dict[str, Any]) -> list[dict[str, Any]] | None:
    """A snapshot's table as ``table_frame(table).to_dict("records")`` gives it, without
    the frame, when each column is plain: all texts, all whole numbers, or all numbers
    (whole ones then read as floats, as the frame's float column holds them).

    None for any other table (a missing cell, a truth value): the frame decides those.
    """
    names = [*table["key"], *table["columns"]]
    rows = table.get("rows", [])
    if len(set(names)) < len(names) or any(len(row) != len(names) for row in rows):
        return None
    columns = [list(cells) for cells in zip(*rows, strict=True)] if rows else []
    for i, cells in enumerate(columns):
        kinds = {type(c) for c in cells}
        if kinds == {int}:
            if not all(-2**63 <= c < 2**63 for c in cells):
                return None
        elif kinds == {int, float}:
            columns[i] = [float(c) for c in cells]
        elif kinds not in ({str}, {float}):
            return None
    return [dict(zip(names, row, strict=True)) for row in zip(*columns, strict=True)]


def from_snapshot(key: str, snap: dict[str, Any], entry: dict[str, Any] | None = None
                  ) -> Published:
    """A session from the batch's snapshot of it (and its manifest entry)."""
    players = table_frame(snap["players"]) if "players" in snap else None
    return Published(key, table_frame(snap["ranking"]), players, snapshot_info(snap, entry))


def snapshot_info(snap: dict[str, Any], entry: dict[str, Any] | None = None) -> dict[str, Any]:
    """A snapshot's facts of its session (title lines, method, ...) and its manifest entry's."""
    return {**snap.get("session", {}), **{k: (entry or {}).get(k) for k in
                                          ("published", "ladder", "snapshot", "output")}}


def batch_sessions(outdir: Path, skipped: list[str] | None = None) -> list[Published]:
    """Every session a batch published into ``outdir`` (from its manifest and snapshots).

    A session whose snapshot cannot be read is listed in ``skipped`` ("FILE: why"),
    so the ladder can say which session it did not count; an input that failed has
    no snapshot (and no results), and the batch has reported it already.
    """
    state = outdir / STATE_DIR
    try:
        manifest = json.loads((state / "manifest.json").read_text(encoding="utf-8"))
    except (OSError, ValueError) as exc:
        raise UnreadableFileError(f"{state / 'manifest.json'}: the batch's record cannot be "
                                  f"read ({exc}); run traveller batch again") from None
    out = []
    for key, entry in sorted(manifest.get("entries", {}).items()):
        name = entry.get("snapshot")
        if not name:
            continue
        source = str(outdir / entry["output"]) if entry.get("output") else str(outdir / key)
        try:
            snap = json.loads((state / "snapshots" / name).read_text(encoding="utf-8"))
            found = from_snapshot(key, snap, entry)
        except (OSError, ValueError, KeyError, TypeError) as exc:  # (a snapshot cut short)
            if skipped is not None:
                skipped.append(f"{source}: its stored results ({state / 'snapshots' / name}) "
                               f"cannot be read ({type(exc).__name__}); run traveller batch "
                               "again to store them")
            continue
        found.source = source
        out.append(found)
    return out


def workbook_session(path: Path, key: str | None = None) -> Published:
    """A session from the Ranking sheet of a results workbook."""
    from traveller.read.guard import open_workbook, sheet_cells

    book = open_workbook(path)
    if "Ranking" not in book.sheet_names:
        raise NoRanking(f"{path}: no Ranking sheet; give results workbooks "
                                  "written by traveller score or traveller batch")
    grid = sheet_cells(book, path, "Ranking")
    headers = [i for i, row in enumerate(grid) if any(str(c).strip() == "Place" for c in row)]
    if not headers:
        raise UnreadableFileError(f"{path} [Ranking]: no header row with a Place column")
    frame = pd.concat([_block(grid, i) for i in headers], ignore_index=True)
    for column in ("section", "line", "names", "place"):
        if column not in frame:
            frame[column] = ""
        frame[column] = frame[column].map(_text)
    if "pair" not in frame:  # (a teams match ranks teams: no Pair or Player column)
        raise UnreadableFileError(
            f"{path} [Ranking]: no Pair or Player column (a teams match?); a ladder ranks "
            "the players of pairs and individual sessions")
    frame["pair"] = pd.to_numeric(frame["pair"], errors="coerce").astype("Int64")
    frame = frame[frame["pair"].notna()]
    first = headers[0] - (1 if _heading_row(grid, headers[0]) else 0)
    lines = [str(r[0]).strip() for r in grid[:first] if r and str(r[0]).strip()]
    foot = [str(r[0]).strip() for r in grid[_block_end(grid, headers[-1]):]
            if r and str(r[0]).strip()]
    if len(lines) > 1 and not foot:  # an older workbook: the method on the second line
        foot, lines = [lines[1]], [lines[0], *lines[2:]]
    info = {"title": lines[0] if lines else path.stem,
            "date": " · ".join(lines),  # where it is said
            "method": _method(lines + foot, frame)}
    if _individual(grid[headers[0]]):  # (the ladder says its players have no partner)
        info["ranked"] = "player"
    players = _players_sheet(book, path) if "Master points" in book.sheet_names else None
    return Published(key or path.name, frame.reset_index(drop=True), players, info, str(path))


#: A Ranking block's heading -> its line.
_LINES = {"N-S": "NS", "E-W": "EW", "NS": "NS", "EW": "EW"}


def _heading_row(grid: list[list[Any]], header: int) -> bool:
    """True when the row above a header row is a block's heading ("N-S", "Section A · E-W")."""
    if header == 0:
        return False
    row = grid[header - 1]
    return bool(row) and bool(str(row[0]).strip()) and not any(
        str(c).strip() for c in row[1:]) and (header < 2 or not any(
            str(c).strip() for c in grid[header - 2]))


def _individual(header: list[Any]) -> bool:
    """True when a Ranking header row is an individual's: a Player column, no Pair."""
    heads = {str(c).strip().casefold() for c in header}
    return "player" in heads and "pair" not in heads


def _block_end(grid: list[list[Any]], header: int) -> int:
    """The first blank row after a header row's block (or the sheet's end)."""
    end = header + 1
    while end < len(grid) and any(str(c).strip() for c in grid[end]):
        end += 1
    return end


def _block(grid: list[list[Any]], header: int) -> pd.DataFrame:
    """One block of the Ranking: its rows by column, with the line and section its heading
    names (a workbook of one table with Line and Section columns reads as it is)."""
    names = {**_HEADINGS, **_INDIVIDUAL} if _individual(grid[header]) else _HEADINGS
    columns = [names.get(str(c).strip().casefold(), "") for c in grid[header]]
    rows = grid[header + 1:_block_end(grid, header)]
    frame = pd.DataFrame([list(r) + [""] * (len(columns) - len(r)) for r in rows])
    frame = frame.iloc[:, :len(columns)] if len(frame) else pd.DataFrame(
        columns=range(len(columns)))
    frame.columns = [c or f"_{i}" for i, c in enumerate(columns)]
    frame = frame[[c for c in frame.columns if not c.startswith("_")]]
    if _heading_row(grid, header):
        for part in str(grid[header - 1][0]).split(" · "):
            part = part.strip()
            if part.startswith("Section "):
                frame["section"] = part.removeprefix("Section ")
            elif part in _LINES:
                frame["line"] = _LINES[part]
    return frame


#: Master points sheet headings -> columns.
_PLAYER_HEADINGS = {"section": "section", "line": "line", "pair": "pair", "player": "player",
                    "federation number": "player_id", "place": "place", "award": "award"}


def _players_sheet(book: Any, path: Path) -> pd.DataFrame | None:
    """Each player and their federation number from a results workbook's Master points sheet."""
    from traveller.read.guard import sheet_cells

    grid = sheet_cells(book, path, "Master points")
    header = next((i for i, row in enumerate(grid[:12])
                   if any(str(c).strip() == "Player" for c in row)), None)
    if header is None:
        return None
    columns = [_PLAYER_HEADINGS.get(str(c).strip().casefold(), "") for c in grid[header]]
    records = [{c: _text(v) for c, v in zip(columns, row, strict=False) if c}
               for row in grid[header + 1:] if any(str(v).strip() for v in row)]
    frame = pd.DataFrame(records, columns=[c for c in columns if c])
    for column in ("section", "line", "player_id"):
        if column not in frame:
            frame[column] = ""
    frame["pair"] = pd.to_numeric(frame["pair"], errors="coerce").astype("Int64")
    frame["award"] = pd.to_numeric(frame.get("award"), errors="coerce")
    return frame[frame["pair"].notna()].reset_index(drop=True)


def _text(cell: Any) -> str:
    if cell is None or (isinstance(cell, float) and cell != cell):
        return ""
    if isinstance(cell, float) and cell.is_integer():
        return str(int(cell))
    return str(cell).strip()


def _method(lines: list[str], frame: pd.DataFrame) -> str:
    said = " ".join(lines).casefold()
    if "butler" in said:
        return "butler"
    if "imp" in said or ("average" in frame and "pct" not in frame):
        return "ximp"
    return "mp"


def published_sessions(paths: list[Path], skipped: list[str] | None = None
                       ) -> list[Published]:
    """The sessions under each path: a batch's results folder, a folder of results
    workbooks, or one workbook; in a stable order.

    ``skipped`` given, a session that cannot be read is listed there ("FILE: why")
    and the others are still read, so that one bad workbook does not stop a
    season's ladder (the ladder names it in its notes); without it a workbook that
    cannot be read raises (a batch's snapshot is passed over, as before). A workbook
    without a Ranking sheet in a folder (the ladder itself, a spreadsheet of the
    club's) is no session and is passed over.
    """
    out: list[Published] = []
    for path in paths:
        if (path / STATE_DIR / "manifest.json").is_file():
            out.extend(batch_sessions(path, skipped))
        elif path.is_dir():
            books = sorted(p for p in path.rglob("*.xlsx")
                           if not any(part.startswith((".", "~$")) for part in
                                      p.relative_to(path).parts))
            for book in books:
                found = _read(book, book.relative_to(path).as_posix(), skipped, in_folder=True)
                if found is not None:
                    out.append(found)
        elif path.is_file():
            found = _read(path, None, skipped, in_folder=False)
            if found is not None:
                out.append(found)
        else:
            raise UnreadableFileError(f"{path}: no such results folder or workbook")
    return out


def _read(book: Path, key: str | None, skipped: list[str] | None, in_folder: bool
          ) -> Published | None:
    """:func:`workbook_session`, or None for a workbook passed over or listed in
    ``skipped`` (None: raised)."""
    try:
        return workbook_session(book, key)
    except NoRanking as exc:
        if in_folder:
            return None  # not a session's results: nothing to count, nothing to say
        if skipped is None:
            raise
        skipped.append(str(exc))
    except (TravellerError, OSError, ValueError) as exc:  # (the message names the file)
        if skipped is None:
            raise
        text = str(exc)
        skipped.append(text if str(book) in text else f"{book}: cannot be read ({text})")
    return None
