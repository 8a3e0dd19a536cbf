"""What the Travellers sheet shows, in fewer cells: a heading per board, no repeated columns.

- a heading row above each board: the board, its dealer and vulnerability, how
  many results and the top;
- the cells *as written* only where they differ from the normalised value
  (``2NT`` read as ``2NT`` is left blank; ``3nt``, ``D10`` or ``=`` are kept);
- the per-board figures (results, top, common top) in that heading instead of
  on every row; the Neuberg-scaled matchpoints only when they differ somewhere;
- the source file, sheet and notation, when the same on every row, moved to
  the Summary sheet.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

import numpy as np
import pandas as pd

from traveller.score.table import DEALERS, VULNERABILITY

if TYPE_CHECKING:
    from traveller.pipeline import Result

#: Travellers columns printed (the rest stay on screen, beyond the print area).
PRINTED = ("section", "board", "ns_pair", "ew_pair", "contract", "declarer", "tricks", "lead",
           "ns_score", "ns_mp", "ew_mp", "ns_pct", "ew_pct", "ns_imp", "ew_imp", "datum",
           "target", "ruling", "ruling_applied")
#: Printed too: the field-wide figures a simultaneous pairs adds beside a club's own
#: (traveller.sim, "National N-S MP", ...).
PRINTED_PREFIX = "National "

#: Normalised columns an as-written column can repeat.
_PARTNERS = ("contract", "declarer", "tricks", "lead", "ns_score")
#: Per-board figures shown in the board's heading.
_PER_BOARD = ("results", "top", "common_top")
#: Columns moved to the Summary when they hold one value throughout.
_CONSTANT = ("file", "sheet", "notation")
AS_WRITTEN = " (as written)"


def _empty(series: pd.Series) -> bool:
    return bool(series.isna().all() or (series.astype("string") == "").all())


def travellers_layout(result: Result, summary: bool = True
                      ) -> tuple[pd.DataFrame, int, dict[int, str], list[tuple[str, str]]]:
    """The Travellers frame to write, its print-area width, board headings, moved facts.

    The facts are (item, value) pairs for the Summary sheet (only when
    ``summary``: there is one to move them to).
    """
    frame = result.travellers.reset_index(drop=True)
    frame = frame.loc[:, [c for c in frame.columns if not _empty(frame[c])]]
    frame, facts = _constants(frame) if summary else (frame, [])
    frame = _as_written(frame)
    for scaled, plain in (("ns_mp_scaled", "ns_mp"), ("ew_mp_scaled", "ew_mp")):
        if scaled in frame and plain in frame and _same(frame[scaled], frame[plain]):
            frame = frame.drop(columns=scaled)
    headings = board_headings(frame, result)
    frame = frame.drop(columns=[c for c in _PER_BOARD if c in frame])
    printed = [c for c in PRINTED if c in frame.columns] + [
        c for c in frame.columns if str(c).startswith(PRINTED_PREFIX)]
    return frame[printed + [c for c in frame.columns if c not in printed]], len(printed), \
        headings, facts


def constant_facts(frame: pd.DataFrame) -> list[tuple[str, str]]:
    """(item, value) for the source columns that hold one value on every row."""
    return [(f"travellers: {name}", str(frame[name].iloc[0])) for name in _CONSTANT
            if name in frame and len(frame) and frame[name].nunique(dropna=False) == 1]


def _constants(frame: pd.DataFrame) -> tuple[pd.DataFrame, list[tuple[str, str]]]:
    facts = constant_facts(frame)
    return frame.drop(columns=[f.split(": ", 1)[1] for f, _ in facts]), facts


def _same(a: pd.Series, b: pd.Series) -> bool:
    x = a.to_numpy(dtype=float, na_value=np.nan)
    y = b.to_numpy(dtype=float, na_value=np.nan)
    return bool(np.array_equal(x, y, equal_nan=True))


def equal_cells(written: pd.Series, value: pd.Series) -> np.ndarray:
    """Where the cell as written reads exactly as the normalised value (text or number)."""
    text = written.astype("string").str.strip()
    if pd.api.types.is_numeric_dtype(value.dtype):
        number = pd.to_numeric(text, errors="coerce").to_numpy(dtype=float, na_value=np.nan)
        target = value.to_numpy(dtype=float, na_value=np.nan)
        return (number == target) & ~np.isnan(target)
    same = text == value.astype("string").str.strip()
    return same.fillna(False).to_numpy(dtype=bool)


def _as_written(frame: pd.DataFrame) -> pd.DataFrame:
    """Blank each as-written cell that equals its normalised value; drop columns left empty."""
    for name in [c for c in frame.columns if str(c).endswith(AS_WRITTEN)]:
        written = frame[name]
        best, partner = 0, None
        for candidate in (c for c in _PARTNERS if c in frame):
            hits = int(equal_cells(written, frame[candidate]).sum())
            if hits > best:
                best, partner = hits, candidate
        if partner is None:
            continue
        kept = written.astype("string").mask(equal_cells(written, frame[partner]))
        if kept.isna().all():
            frame = frame.drop(columns=name)
        else:
            frame[name] = kept
    return frame


def board_headings(frame: pd.DataFrame, result: Result) -> dict[int, str]:
    """A heading per board (section and session too): dealer, vulnerability, results, top."""
    if frame.empty or "board" not in frame:
        return {}
    keys = [c for c in ("session", "section", "board") if c in frame]
    starts = group_starts(frame, keys)
    chicago = bool(result.settings.get("chicago"))
    firsts = frame.iloc[starts]
    cells = {c: firsts[c].astype(object).where(firsts[c].notna(), None).tolist()
             for c in ("session", "section", "board", "results", "top", "common_top")
             if c in firsts}
    return {start: _heading({c: v[i] for c, v in cells.items()}, chicago)
            for i, start in enumerate(starts)}


def group_starts(frame: pd.DataFrame, keys: list[str]) -> list[int]:
    """Positions where the value of ``keys`` changes (the first row included)."""
    if frame.empty:
        return []
    ids = frame.groupby(keys, sort=False, dropna=False, observed=True).ngroup().to_numpy()
    return np.flatnonzero(np.r_[True, ids[1:] != ids[:-1]]).tolist()


def _heading(row: dict[str, object], chicago: bool) -> str:
    parts = []
    for key, word in (("session", "Session"), ("section", "Section")):
        if row.get(key) not in (None, ""):
            parts.append(f"{word} {row[key]}")
    board = row.get("board")
    if board is None:
        return " · ".join([*parts, "Board ?"])
    number = int(board)  # type: ignore[call-overload]
    parts.append(f"Board {number}")
    parts.append(f"Dealer {DEALERS[(number - 1) % 4]}")
    if not chicago:
        ns, ew = VULNERABILITY[(number - 1) % 16]
        parts.append("Vul: " + {(False, False): "None", (True, False): "N-S",
                                (False, True): "E-W", (True, True): "Both"}[(ns, ew)])
    results, top, common = row.get("results"), row.get("top"), row.get("common_top")
    if results is not None:
        parts.append(f"{int(results)} results")  # type: ignore[call-overload]
    if top is not None:
        parts.append(f"top {float(top):g}")  # type: ignore[arg-type]
        if common is not None and float(common) != float(top):  # type: ignore[arg-type]
            parts.append(f"common top {float(common):g}")  # type: ignore[arg-type]
    return " · ".join(parts)
