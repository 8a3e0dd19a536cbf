"""The session at a glance: movement, sections, tables, pairs, boards, results, the
common top, rulings and problems, as (item, value) rows (the workbook's Summary sheet,
the director's page and ``Result.summary``)."""

from __future__ import annotations

from typing import Any

import numpy as np
import pandas as pd

from traveller.publish.keys import Lookups, floats, group_ids, key_codes
from traveller.result import movement_shown, ranked_as
from traveller.score import frequency
from traveller.tidy.rulings import kinds


def summary(travellers: pd.DataFrame, ranking: pd.DataFrame, problems: pd.DataFrame,
            settings: dict[str, object] | None = None,
            kind: np.ndarray | None = None, columns: Lookups | None = None,
            tables: dict[str, pd.DataFrame] | None = None) -> pd.DataFrame:
    """The session at a glance: (item, value) rows (``kind``: the travellers' ``kinds``
    when made already, ``columns``: their columns looked up already, used when theirs;
    ``tables``: the method's own, a teams match's Boards)."""
    settings = settings or {}
    t: Any = columns if columns is not None and columns.frame is travellers else travellers
    if kind is None:
        kind = kinds(travellers) if len(t) else np.zeros(0, dtype=object)
    board = ["session", "section", "board"] if "session" in t else ["section", "board"]
    ruled = _counts(kind[kind != "result"])
    group = (t.groups(*board) if isinstance(t, Lookups) else group_ids(*(t[k] for k in board))
             ) if len(t) else np.zeros(0, dtype=np.int64)
    rows = [
        ("movement", movement_shown(settings)),
        ("sections", _distinct(t, "section") if len(t) else 0),
        ("tables", _tables(t, board, group) if len(t) else 0),
        (f"{ranked_as(settings)}s ranked", len(ranking)),
        ("sessions", _distinct(t, "session") if "session" in t else 1),
        ("boards", int(group.max()) + 1 if len(t) else 0),
        ("results scored", _scored(t, settings, tables or {})),
        ("top (common)", _tops(t) if len(t) and "common_top" in t else ""),
        ("rulings", sum(v for _, v in ruled)),
        *[(f"rulings: {k}", v) for k, v in ruled],
        ("problems", len(problems)),
        *[(f"problems: {k}", v) for k, v in _counts(problems["code"] if len(problems) else [])],
    ]
    return pd.DataFrame(rows, columns=["item", "value"])


def result_summary(result: Any, travellers: pd.DataFrame | None = None,
                   kind: np.ndarray | None = None, columns: Lookups | None = None
                   ) -> pd.DataFrame:
    """A :class:`traveller.result.Result`'s summary; ``travellers``: its counted travellers
    (``traveller.score.frequency.counted``), ``kind`` their kinds and ``columns`` their
    columns, when made already."""
    t = frequency.counted(result) if travellers is None else travellers
    out = summary(t, result.ranking, result.problems, result.settings, kind, columns,
                  result.tables)
    if result.settings.get("frequency_table"):  # say why no pair is ranked
        out.loc[out["item"] == "pairs ranked", "value"] = frequency.NO_RANKING
    return out


def _scored(t: pd.DataFrame, settings: dict[str, object],
            tables: dict[str, pd.DataFrame]) -> int:
    """How many results have a score of the method: matchpoints, else IMPs, else points;
    total points count every result with a score, and a teams match the two rooms of every
    board both rooms played (its IMPs are a board's: ``tables["Boards"]``)."""
    boards = tables.get("Boards")
    if settings.get("method") == "teams" and boards is not None:
        return 2 * int((boards["status"] == "played").sum()) if len(boards) else 0
    columns = ("ns_score",) if settings.get("method") == "total" else ("ns_mp", "ns_imp",
                                                                        "ns_points")
    figure = next((c for c in columns if c in t), None)
    if not len(t) or figure is None:
        return 0
    return int((~np.asarray(t[figure].array.isna())).sum())


def _counts(values: Any) -> list[tuple[Any, int]]:
    """(value, how many times) as ``value_counts`` orders them; none for no values."""
    if not len(values):
        return []
    counts = values.value_counts() if isinstance(values, pd.Series) else pd.Series(
        values, dtype="object").value_counts()
    return [(k, int(v)) for k, v in counts.items()]


def _distinct(t: Any, name: str) -> int:
    """How many different values the column ``name`` of ``t`` holds (missing ones not
    counted); ``t``: a frame or its Lookups."""
    return _codes(t, name)[1]


def _codes(t: Any, name: str) -> tuple[np.ndarray, int]:
    return t.codes(name) if isinstance(t, Lookups) else key_codes(t[name])


def _tables(t: pd.DataFrame, board: list[str], group: np.ndarray) -> int:
    """The most rows on one board, per section (and session), added up.

    ``group``: each row's board (by the keys ``board``, as :func:`group_ids` numbers them).
    """
    known = ~np.any([np.asarray(t[k].array.isna()) for k in board], axis=0)  # a board with
    # a missing key is not counted
    per_board = np.bincount(group[known], minlength=int(group.max()) + 1)
    first = np.unique(group, return_index=True)[1]
    section = _codes(t, "section")[0][first]
    counted = known[first]
    if not counted.any():
        return 0
    most = np.zeros(section.max() + 1, dtype=np.int64)
    np.maximum.at(most, section[counted], per_board[counted])
    return int(most.sum())


def _tops(t: pd.DataFrame) -> str | int | float:
    """Each section's common top (the highest), sections in order: "A: 24, B: 22"; one
    section's a number (a cell that prints as one, right-aligned)."""
    codes, sections = t["section"].factorize(sort=True)
    top = np.full(len(sections), np.nan)
    known = codes >= 0
    np.fmax.at(top, codes[known], floats(t["common_top"])[known])
    if len(top) == 1 and not sections[0] and np.isfinite(top[0]):
        value = float(top[0])
        return int(value) if value.is_integer() else value
    return ", ".join(f"{s}: {v:g}" if s else f"{v:g}" for s, v in zip(sections, top, strict=True))
