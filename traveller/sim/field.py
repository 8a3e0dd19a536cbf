"""Field-wide scoring of a simultaneous pairs: every result against the whole field.

Each club's travellers, once read, tidied and scored at the club, give a lean
*field frame* (:func:`field_rows`): one row per result with the club's number
(``club_id``), the row's position in the club's travellers (``row_id``) and
what the scoring stages read (board, pairs, N-S score, the ruling columns).
The field is then scored with the session's own functions, by board with no
section boundary (``sections="field"``): :func:`traveller.score.rank.matchpoints`,
:func:`traveller.score.imps.cross_imps` or :func:`traveller.score.butler.butler`.

A board's comparison only needs that board's rows, so the field can be cut
into board partitions (each holding whole boards) and scored one partition at
a time, anywhere. Only Neuberg's common top is field-wide: it is the number of
tables of the board played most often in the whole field, so a partition is
scored first (:func:`score_boards`) and brought to the common top afterwards
(:func:`to_common_top`), once that one number is known.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

import numpy as np
import pandas as pd

from traveller.score.butler import butler
from traveller.score.imps import cross_imps
from traveller.score.rank import SCALES, matchpoints, neuberg
from traveller.score.sides import pair_sides

#: The field frame's columns and dtypes (its Dask meta is built from these).
FIELD_DTYPES: dict[str, str] = {
    "club_id": "int64", "row_id": "int64", "howell": "bool", "section": "string",
    "board": "int64", "ns_pair": "Int64", "ew_pair": "Int64", "ns_score": "Int64",
    "ruling": "string", "ruling_kind": "string", "ns_award": "Float64", "ew_award": "Float64",
    "phantom": "string", "arrow": "boolean", "fouled": "string",
}

#: National columns added to each row, per method (N-S and E-W).
NATIONAL_ROW = {"mp": ["results", "top", "common_top", "ns_mp", "ew_mp", "ns_pct", "ew_pct",
                       "ns_mp_scaled", "ew_mp_scaled"],
                "ximp": ["results", "ns_imp", "ew_imp"],
                "butler": ["results", "datum", "ns_imp", "ew_imp"]}

#: A pair in the field: the club, the club's section, the line ("" in a Howell), the number.
PAIR_KEY = ["club_id", "section", "line", "pair"]

#: The partial totals of a pair on some boards, summed over partitions.
PARTIAL_COLUMNS = [*PAIR_KEY, "boards", "value", "possible"]


def field_rows(travellers: pd.DataFrame, club_id: int, movement: str) -> pd.DataFrame:
    """The lean field frame of one club's scored travellers (see the module docstring).

    Rows without a board number cannot be compared and are left out (they are
    already on the club's Problems sheet). A fouled board's groups are named
    with the club so that they stay apart from every other club's.
    """
    return field_frame([(travellers, club_id, movement)])


def field_frame(clubs: Sequence[tuple[pd.DataFrame, int, str]]) -> pd.DataFrame:
    """:func:`field_rows` of several clubs at once (travellers, club number, movement), in
    their order: each column converted once for all of them, not once per club."""
    if not clubs:
        return conform_field(pd.DataFrame())
    sizes = [len(t) for t, _, _ in clubs]
    ids = np.repeat(np.array([c for _, c, _ in clubs], dtype=np.int64), sizes)
    columns: dict[str, Any] = {
        "club_id": ids,
        "row_id": np.concatenate([np.arange(n, dtype=np.int64) for n in sizes] or [ids]),
        "howell": np.repeat(np.array([m == "howell" for _, _, m in clubs], dtype=bool), sizes)}
    for column, dtype in FIELD_DTYPES.items():
        if column not in columns:
            columns[column] = _stacked([t.get(column) for t, _, _ in clubs],
                                       sizes, dtype if dtype != "int64" else "Int64")
    out = pd.DataFrame(columns)
    out["section"] = out["section"].astype("string").fillna("")
    fouled = out["fouled"].astype("string").fillna("")
    out["fouled"] = fouled.where(fouled == "", pd.Series(ids.astype(str), dtype="string")
                                 + "|" + fouled)
    out = out[out["board"].notna()]
    out["board"] = out["board"].astype("int64")
    return conform_field(out)


def _stacked(parts: list[pd.Series | None], sizes: list[int], dtype: str) -> pd.Series:
    """The clubs' column one after another as ``dtype`` (missing where a club has none):
    converted once when every club's column has the same type, else club by club."""
    kinds = {part.dtype for part in parts if part is not None}
    if len(kinds) == 1 and all(part is not None for part in parts):
        whole = pd.concat(parts, ignore_index=True) if len(parts) > 1 else parts[0]
        return whole.astype(dtype).reset_index(drop=True)  # type: ignore[union-attr]
    return pd.concat([part.astype(dtype) if part is not None else
                      pd.Series(pd.NA, index=range(n), dtype=dtype)
                      for part, n in zip(parts, sizes, strict=True)], ignore_index=True)


def conform_field(frame: pd.DataFrame) -> pd.DataFrame:
    """The field frame with exactly :data:`FIELD_DTYPES` (also an empty meta frame)."""
    out = pd.DataFrame(index=frame.index)
    for column, dtype in FIELD_DTYPES.items():
        out[column] = frame[column].astype(dtype) if column in frame else pd.Series(
            dtype=dtype, index=frame.index)
    return out.reset_index(drop=True)


def score_boards(part: pd.DataFrame, method: str = "mp", scale: str = "2/1/0",
                 phantom_award: float | None = None, divisor: str = "n-1", trim: int = 1,
                 rounding: str = "half-away") -> pd.DataFrame:
    """Score whole boards of the field against each other; keys plus the national columns.

    Matchpoints come out on each board's own top; the totals' Neuberg
    scaling waits for :func:`to_common_top`. ``part`` must hold every row of
    each of its boards.
    """
    keys = part[["club_id", "row_id", "howell", "section", "board", "ns_pair", "ew_pair",
                 "ns_score", "ruling_kind", "phantom", "arrow"]]
    if method == "mp":
        done = matchpoints(part, scale=scale, by_section=False, phantom_award=phantom_award)
        done = done.assign(ns_award=done["ns_award"].astype("Float64"))
        extra = {"ns_award": done["ns_award"], "ew_award": done["ew_award"].astype("Float64")}
    elif method == "ximp":
        done = cross_imps(part, divisor=divisor, by_section=False)  # type: ignore[arg-type]
        extra = {}
    elif method == "butler":
        done = butler(part, trim=trim, rounding=rounding, by_section=False)  # type: ignore[arg-type]
        extra = {}
    else:
        raise ValueError(f"a simultaneous pairs is scored by mp, ximp or butler, not {method!r}")
    counted = done["ns_score"].notna() if method != "mp" else None
    if counted is not None:  # boards' counts, for the summary
        done = done.assign(results=counted.groupby(done["board"]).transform("sum").astype(
            "int64"))
    national = {c: done[c].to_numpy(dtype=float, na_value=np.nan) for c in NATIONAL_ROW[method]}
    national["results"] = national["results"].astype(np.int64)
    return keys.assign(**national, **extra).reset_index(drop=True)


def common_tables(scored: pd.DataFrame) -> int:
    """The tables of the board played most often in (this part of) the field."""
    return int(scored["results"].max()) if len(scored) else 0


def to_common_top(scored: pd.DataFrame, tables: int, scale: str = "2/1/0") -> pd.DataFrame:
    """Neuberg-scale each row's matchpoints to the field's common top (``tables`` tables).

    An award (average-plus, a phantom award) is its percentage of the common
    top; a compared result ``M`` on a board of ``A`` tables becomes
    ``(M + 1)·E/A − 1`` (2/1/0 scale), which composes with the scaling a
    board with rulings already had to its own top.
    """
    win = SCALES[scale]
    out = scored.copy()
    common = win * (max(tables, 1) - 1)
    results = out["results"].to_numpy(dtype=float)
    out["common_top"] = common
    for side in ("ns", "ew"):
        mp = out[f"{side}_mp"].to_numpy(dtype=float, na_value=np.nan)
        award = out[f"{side}_award"].to_numpy(dtype=float, na_value=np.nan)
        with np.errstate(invalid="ignore", divide="ignore"):
            scaled = neuberg(mp, np.where(results > 0, results, np.nan), tables, win)
        out[f"{side}_mp_scaled"] = np.where(np.isnan(award), scaled, award / 100 * common)
    return out


def pair_partials(scored: pd.DataFrame, method: str = "mp") -> pd.DataFrame:
    """Each pair's totals on the boards of this part: boards, value summed, possible.

    ``value`` is Neuberg-scaled matchpoints (``possible``: the common top per
    board counted) or IMPs (``possible``: 0). Boards that do not count for a
    pair (not played, a phantom's table without an award) are left out, as in
    a session's ranking; the phantom itself is not a pair.
    """
    frame = scored.copy()
    if method == "mp":
        sides = pair_sides(frame, "mitchell")
    else:
        frame = frame.assign(ns_mp_scaled=frame["ns_imp"].astype("Float64"),
                             ew_mp_scaled=frame["ew_imp"].astype("Float64"), common_top=0.0)
        sides = pair_sides(frame, "mitchell")
    sides = sides[sides["mp"].notna() & ~sides["phantom"] & sides["pair"].notna()]
    position = sides["position"].to_numpy()
    howell = frame["howell"].to_numpy(dtype=bool)[position]
    sides = sides.assign(club_id=frame["club_id"].to_numpy()[position],
                         line=np.where(howell, "", sides["line"].to_numpy()),
                         pair=sides["pair"].astype("int64"))
    totals = sides.groupby(PAIR_KEY, as_index=False, sort=False).agg(
        boards=("mp", "size"), value=("mp", "sum"), possible=("top", "sum"))
    totals["boards"] = totals["boards"].astype("int64")
    return conform_partials(totals)


def conform_partials(frame: pd.DataFrame) -> pd.DataFrame:
    """Partial totals typed as the Dask meta says."""
    dtypes = {"club_id": "int64", "section": "string", "line": "string", "pair": "int64",
              "boards": "int64", "value": "float64", "possible": "float64"}
    return pd.DataFrame({c: (frame[c] if c in frame else pd.Series(dtype=d)).astype(d)
                         for c, d in dtypes.items()}).reset_index(drop=True)


def pair_totals(partials: pd.DataFrame, method: str = "mp") -> pd.DataFrame:
    """Each pair's national figure from its partial totals: ``pct`` or IMPs per board."""
    totals = partials.groupby(PAIR_KEY, as_index=False, sort=True)[
        ["boards", "value", "possible"]].sum()
    if method == "mp":
        possible = totals["possible"].where(totals["possible"] > 0)
        totals["national"] = (100 * totals["value"] / possible).fillna(50.0)
    else:
        totals["national"] = totals["value"] / totals["boards"].where(totals["boards"] > 0)
    return totals
