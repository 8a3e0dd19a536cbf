"""Multi-session events: several sessions' rankings combined into one.

Each session is scored on its own (its own tops, Neuberg, rulings), then the
pairs' session results are combined:

- ``method="total"``: matchpoints added up over the sessions; the event
  percentage is the matchpoints over the matchpoints possible, and pairs are
  placed by the total (plus carry-over);
- ``method="average"`` (default): the mean of the pair's session percentages,
  each session counting the same whatever its number of boards; pairs are
  placed by it (plus carry-over).

A pair is the same pair in every session when it has the same (section,
line, number) (``key="pair"``, the default) or the same names (``key="names"``,
for events that renumber pairs between sessions). Carry-over from a previous
stage is a ``carry`` column (matchpoints for "total", percentage points for
"average") given as a frame or read from a CSV/xlsx file with a pair (or
names) column and a carry column.
"""

from __future__ import annotations

from collections.abc import Sequence
from pathlib import Path
from typing import TYPE_CHECKING, Any

import pandas as pd

from traveller.errors import UnreadableFileError
from traveller.read.headers import header_key
from traveller.score.rank import places

if TYPE_CHECKING:
    from traveller.pipeline import Result

METHODS = ("average", "total")
KEYS = ("pair", "names")
EVENT_COLUMNS = ["section", "line", "pair", "names", "sessions", "boards", "mp", "pct", "carry",
                 "score", "place"]
CARRY_HEADERS = {"carry": {"carry", "carryover", "carryforward", "cf", "co", "przeniesienie",
                           "перенос"},
                 "pair": {"pair", "pairno", "para", "nr", "no", "number"},
                 "section": {"section", "sekcja"}, "line": {"line", "direction", "linia"},
                 "names": {"names", "name", "players", "nazwiska"}}


def session_rankings(results: Sequence[Result]) -> pd.DataFrame:
    """Every session's ranking stacked, with ``session`` (1, 2, ...) and ``possible`` mp."""
    parts = []
    for number, result in enumerate(results, start=1):
        ranking = result.ranking.copy()
        tops = result.travellers.groupby("section", observed=True)["common_top"].max()
        top = ranking["section"].map(tops).astype(float)
        parts.append(ranking.assign(session=number, possible=ranking["boards"] * top))
    if not parts:
        return pd.DataFrame(columns=["session", *EVENT_COLUMNS, "possible"])
    return pd.concat(parts, ignore_index=True)


def combine_sessions(results: Sequence[Result], *, method: str = "average", key: str = "pair",
                     carry_over: pd.DataFrame | str | Path | None = None) -> pd.DataFrame:
    """One ranking over several scored sessions (see the module docstring).

    Columns: section, line, pair, names, sessions, boards, mp, pct, carry,
    score (what the pairs are placed by), place, then each session's
    percentage as ``pct_1``, ``pct_2``, ...

    >>> event = combine_sessions([process("s1.csv"), process("s2.csv")])  # doctest: +SKIP
    """
    if method not in METHODS:
        raise ValueError(f"unknown method {method!r}; choose from {', '.join(METHODS)}")
    if key not in KEYS:
        raise ValueError(f"unknown key {key!r}; choose from {', '.join(KEYS)}")
    stacked = session_rankings(results)
    keys = ["section", "line", "pair"] if key == "pair" else ["names"]
    if key == "names":
        stacked = stacked[stacked["names"].astype(str) != ""]
    totals = _totals(stacked, keys)
    carry = _carry(carry_over, keys)
    totals["carry"] = (totals[keys].merge(carry, on=keys, how="left")["carry"]
                       .fillna(0.0).to_numpy() if carry is not None else 0.0)
    base = totals["mp"] if method == "total" else totals["mean_pct"]
    totals["score"] = base + totals["carry"]
    group = totals["line"] if key == "pair" else pd.Series("", index=totals.index)
    totals["place"] = places(totals["score"], group)
    wide = stacked.pivot_table(index=keys, columns="session", values="pct", aggfunc="first")
    wide.columns = [f"pct_{c}" for c in wide.columns]
    out = totals.merge(wide.reset_index(), on=keys, how="left")
    out = out.assign(_p=out["place"].str.rstrip("=").astype(int),
                     _l=out["line"].map({"NS": 0, "EW": 1}).fillna(0) if key == "pair" else 0)
    out = out.sort_values(["_l", "_p", *keys], kind="stable")
    return out[[*EVENT_COLUMNS, *wide.columns]].reset_index(drop=True)


def _totals(stacked: pd.DataFrame, keys: list[str]) -> pd.DataFrame:
    first: dict[str, Any] = {c: (c, "first") for c in ("section", "line", "pair", "names")
                             if c not in keys}
    totals = stacked.groupby(keys, as_index=False, dropna=False).agg(
        sessions=("session", "nunique"), boards=("boards", "sum"), mp=("mp", "sum"),
        possible=("possible", "sum"), mean_pct=("pct", "mean"), **first)
    totals["pct"] = 100 * totals["mp"] / totals["possible"].where(totals["possible"] > 0)
    return totals


def _carry(carry_over: pd.DataFrame | str | Path | None, keys: list[str]) -> pd.DataFrame | None:
    if carry_over is None:
        return None
    frame = carry_over if isinstance(carry_over, pd.DataFrame) else read_carry_over(carry_over)
    frame = frame.copy()
    for column, default in (("section", ""), ("line", "")):
        if column not in frame:
            frame[column] = default
    if "pair" in frame:
        frame["pair"] = pd.to_numeric(frame["pair"], errors="coerce").astype("Int64")
    missing = [k for k in [*keys, "carry"] if k not in frame]
    if missing:
        raise ValueError(f"carry-over needs columns {', '.join(missing)}")
    frame["carry"] = pd.to_numeric(frame["carry"], errors="coerce").fillna(0.0)
    frame["line"] = frame["line"].astype(str).str.upper().str.replace("-", "").str.strip()
    frame["section"] = frame["section"].fillna("").astype(str)
    return frame.groupby(keys, as_index=False, dropna=False)[["carry"]].sum()


def read_carry_over(path: str | Path) -> pd.DataFrame:
    """A carry-over file (CSV or xlsx): pair (or names), optional section/line, carry."""
    path = Path(path)
    if not path.exists():
        raise UnreadableFileError(f"{path}: carry-over file not found; check the path")
    if path.suffix.lower() in {".xlsx", ".xlsm", ".xls", ".ods"}:
        frame = pd.read_excel(path, engine="calamine", dtype=object)
    else:
        frame = pd.read_csv(path, sep=None, engine="python", dtype=object)
    renamed: dict[str, str] = {}
    for column in frame.columns:
        for field, aliases in CARRY_HEADERS.items():
            if header_key(column) in aliases and field not in renamed.values():
                renamed[column] = field
    frame = frame.rename(columns=renamed)
    if "carry" not in frame or not {"pair", "names"} & set(frame.columns):
        raise UnreadableFileError(f"{path}: a carry-over file needs a pair (or names) column "
                                  "and a carry column, e.g. 'Pair,Line,Carry'")
    return frame


def process_event(paths: Sequence[str | Path], *, method: str = "average", key: str = "pair",
                  carry_over: pd.DataFrame | str | Path | None = None,
                  **session_options: Any) -> Result:
    """Score several session files and rank the event (see :func:`combine_sessions`).

    ``session_options`` go to :func:`traveller.pipeline.process` for every
    session. The Result's travellers and problems are all sessions' (with a
    ``session`` column on the travellers); its ranking is the event's; its
    ``session_rankings`` every session's own.

    >>> event = process_event(["s1.xlsx", "s2.xlsx"], method="total")  # doctest: +SKIP
    """
    from traveller.pipeline import Result, process

    if not paths:
        raise ValueError("an event needs at least one session file")
    options = session_options.get("options")
    if options is not None and getattr(options, "method", "mp") != "mp":
        raise ValueError("an event of several sessions is ranked by matchpoints; "
                         f"--method {options.method} scores one session at a time")
    results = [process(path, **session_options) for path in paths]
    ranking = combine_sessions(results, method=method, key=key, carry_over=carry_over)
    travellers = pd.concat([r.travellers.assign(session=n) for n, r in
                            enumerate(results, start=1)], ignore_index=True)
    problems = pd.concat([r.problems for r in results if not r.problems.empty]
                         or [results[0].problems], ignore_index=True)
    # (the first session's settings; each session's boards played at a Vul column's
    # vulnerability are kept by session, as board numbers repeat across sessions)
    first = {k: v for k, v in results[0].settings.items() if k != "vulnerable"}
    played = {str(n): r.settings["vulnerable"] for n, r in enumerate(results, start=1)
              if r.settings.get("vulnerable")}
    settings = {**first, "session_vulnerable": played,
                "sessions": len(results), "combine": method, "key": key,
                "boards": int(travellers[["session", "board"]].drop_duplicates().shape[0])}
    return Result(travellers=travellers, ranking=ranking, problems=problems, settings=settings,
                  source=", ".join(str(p) for p in paths),
                  session_rankings=session_rankings(results), meta=dict(results[0].meta))
