"""What a director prints besides the ranking: score cards, frequencies, a summary.

- :func:`score_cards`: each pair's boards, one row per (pair, board), with the
  cards it held, its opponents, the contract, lead, the score from the pair's
  own view, its matchpoints and percentage, and the ruling if any;
- :func:`frequencies`: per board, each N-S score, how many times it was scored
  and the N-S and E-W matchpoints it earned (rulings listed on their own);
- :func:`summary`: tables, pairs, boards, top, rulings and problems, as
  (item, value) rows.

All three read a scored :class:`traveller.pipeline.Result`'s frames.
"""

from __future__ import annotations

import numpy as np
import pandas as pd

from traveller.score.sides import pair_sides
from traveller.tidy.rulings import kinds

CARD_COLUMNS = ["section", "line", "pair", "names", "board", "held", "opponent", "contract",
                "declarer", "lead", "score", "mp", "top", "pct", "ruling"]
FREQUENCY_COLUMNS = ["section", "board", "ns_score", "ruling", "count", "ns_mp", "ew_mp",
                     "ns_pct", "ew_pct"]


def score_cards(travellers: pd.DataFrame, movement: str = "mitchell",
                ranking: pd.DataFrame | None = None) -> pd.DataFrame:
    """Each pair's personal score card: one row per (pair, board), see the module docstring.

    ``mp`` and ``pct`` are on the board's own top (as on the traveller);
    ``score`` is from the pair's view (+420 for the side that scored 420).
    The phantom pair has no card.
    """
    if travellers.empty:
        return pd.DataFrame(columns=CARD_COLUMNS)
    t = travellers.reset_index(drop=True)
    sides = pair_sides(t, movement)
    sides = sides[~sides["phantom"] & sides["pair"].notna()].copy()
    row = sides["position"].to_numpy()
    is_ns = (sides["held"] == "NS").to_numpy()
    score = t["ns_score"].to_numpy(dtype=float, na_value=np.nan)[row]
    sides["score"] = pd.array(np.where(is_ns, score, -score), dtype="Float64").astype("Int64")
    sides["mp"] = np.where(is_ns, _values(t, "ns_mp")[row], _values(t, "ew_mp")[row])
    sides["top"] = _values(t, "top")[row]
    for column in ("contract", "declarer", "lead", "ruling"):
        values = t[column] if column in t else pd.Series(pd.NA, index=t.index)
        sides[column] = pd.array(values.astype("string").to_numpy()[row], dtype="string")
    sides["held"] = sides["held"].map({"NS": "N-S", "EW": "E-W"})
    sides["names"] = _names(sides, ranking)
    for column in ("pair", "opponent"):
        sides[column] = sides[column].astype("Int64")
    session = ["session"] if "session" in t else []  # a multi-session event
    if session:
        sides["session"] = t["session"].to_numpy()[row]
    order = sides.assign(_l=sides["line"].map({"NS": 0, "EW": 1, "": 0}))
    order = order.sort_values(["section", "_l", "pair", *session, "board"], kind="stable")
    return order[session + CARD_COLUMNS].reset_index(drop=True)


def _values(frame: pd.DataFrame, column: str) -> np.ndarray:
    if column not in frame:
        return np.full(len(frame), np.nan)
    return frame[column].to_numpy(dtype=float, na_value=np.nan)


def _names(sides: pd.DataFrame, ranking: pd.DataFrame | None) -> np.ndarray:
    if ranking is None or ranking.empty or "names" not in ranking:
        return np.full(len(sides), "", dtype=object)
    keys = ["section", "line", "pair"]
    table = ranking.assign(pair=ranking["pair"].astype("Int64")).drop_duplicates(keys)
    lookup = table.set_index(keys)["names"]
    index = pd.MultiIndex.from_frame(sides[keys].assign(pair=sides["pair"].astype("Int64")))
    return lookup.reindex(index).fillna("").to_numpy()


def frequencies(travellers: pd.DataFrame) -> pd.DataFrame:
    """Per board: each N-S score, how often, and the matchpoints it earned (board's top).

    Rows with a ruling are listed by the ruling as written (with its awards)
    after the played scores, highest score first.
    """
    if travellers.empty:
        return pd.DataFrame(columns=FREQUENCY_COLUMNS)
    t = travellers.copy()
    kind = kinds(t)
    t["ruling"] = t["ruling"].astype("string") if "ruling" in t else pd.NA
    t["_played"] = kind == "result"
    session = ["session"] if "session" in t else []
    fouled = ["fouled"] if "fouled" in t else []
    keys = [*session, "section", "board", *fouled, "_played", "ns_score", "ruling"]
    grouped = t.groupby(keys, dropna=False, observed=True, sort=False).agg(
        count=("board", "size"), ns_mp=("ns_mp", "first"), ew_mp=("ew_mp", "first"),
        ns_pct=("ns_pct", "first"), ew_pct=("ew_pct", "first")).reset_index()
    grouped = grouped.sort_values(
        [*session, "section", "board", *fouled, "_played", "ns_score"],
        ascending=[True] * (2 + len(session) + len(fouled)) + [False, False], kind="stable",
        na_position="last")
    columns = [*session, *FREQUENCY_COLUMNS[:2], *fouled, *FREQUENCY_COLUMNS[2:]]
    return grouped[columns].reset_index(drop=True)


def summary(travellers: pd.DataFrame, ranking: pd.DataFrame, problems: pd.DataFrame,
            settings: dict[str, object] | None = None) -> pd.DataFrame:
    """The session at a glance: (item, value) rows."""
    settings = settings or {}
    t = travellers
    kind = pd.Series(kinds(t) if len(t) else [], dtype="object")
    board = ["session", "section", "board"] if "session" in t else ["section", "board"]
    tables = 0
    if len(t):  # the most rows on one board, per section (and session), added up
        per_board = t.groupby(board, observed=True).size().rename("n").reset_index()
        tables = int(per_board.groupby("section", observed=True)["n"].max().sum())
    tops = (t.groupby("section", observed=True)["common_top"].max() if len(t)
            else pd.Series(dtype=float))
    top = ", ".join(f"{s}: {v:g}" if s else f"{v:g}" for s, v in tops.items())
    ruled = kind[kind != "result"].value_counts()
    rows = [
        ("movement", settings.get("movement", "")),
        ("sections", int(t["section"].nunique()) if len(t) else 0),
        ("tables", tables),
        ("pairs ranked", len(ranking)),
        ("sessions", int(t["session"].nunique()) if "session" in t else 1),
        ("boards", int(t[board].drop_duplicates().shape[0]) if len(t) else 0),
        ("results scored", int(t["ns_mp"].notna().sum()) if len(t) else 0),
        ("top (common)", top),
        ("rulings", int(ruled.sum())),
        *[(f"rulings: {k}", int(v)) for k, v in ruled.items()],
        ("problems", len(problems)),
        *[(f"problems: {k}", int(v)) for k, v in problems["code"].value_counts().items()],
    ]
    return pd.DataFrame(rows, columns=["item", "value"])
