"""What a director prints besides the ranking: score cards, frequencies, a summary.

- :func:`score_cards`: each pair's boards, one row per (pair, board), with the
  cards it held, its opponents, the contract, declarer, result (``=``, ``+1``,
  ``-2``), lead, the score from the pair's own view, its matchpoints and
  percentage, and the ruling if any;
- :func:`frequencies`: per board, each N-S score, how many times it was scored
  and the N-S and E-W matchpoints it earned (rulings listed on their own).

Both read a scored :class:`traveller.result.Result`'s frames; the session's
summary is :mod:`traveller.publish.summary`.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

import numpy as np
import pandas as pd

from traveller.publish.keys import (
    Lookups,
    change_starts,
    floats,
    grouped,
    key_codes,
    numbered,
    plain,
)
from traveller.score import frequency
from traveller.score.sides import pair_sides
from traveller.tidy.arrays import array_of
from traveller.tidy.rulings import kinds
from traveller.tidy.text import spread_array

if TYPE_CHECKING:
    from traveller.result import Result

CARD_COLUMNS = ["section", "line", "pair", "names", "board", "held", "opponent", "contract",
                "declarer", "result", "lead", "score", "mp", "top", "pct", "ruling"]
FREQUENCY_COLUMNS = ["section", "board", "ns_score", "ruling", "count", "ns_mp", "ew_mp",
                     "ns_pct", "ew_pct"]
#: What a frequency row shows for a method without matchpoints (IMPs and the datum).
FIGURES = ("ns_imp", "ew_imp", "datum")


def score_cards(travellers: pd.DataFrame, movement: str = "mitchell",
                ranking: pd.DataFrame | None = None) -> pd.DataFrame:
    """Each pair's personal score card: one row per (pair, board), see the module docstring.

    ``mp``, ``top`` and ``pct`` are the figures the ranking adds: the board's own,
    or Neuberg's on the common top where a board was played fewer times;
    ``score`` is from the pair's view (+420 for the side that scored 420).
    The phantom pair has no card.
    """
    if travellers.empty:
        return pd.DataFrame(columns=CARD_COLUMNS)
    return pd.DataFrame(card_values(travellers, movement, ranking))


def card_values(travellers: pd.DataFrame, movement: str = "mitchell",
                ranking: pd.DataFrame | None = None,
                names: dict[tuple[Any, Any, Any], str] | None = None,
                columns: Lookups | None = None) -> dict[str, Any]:
    """The columns :func:`score_cards` makes its frame of (arrays, in order), from
    travellers that are not empty; ``names``: ``names_lookup(ranking)`` when made already,
    ``columns``: the travellers' columns looked up already (used when they are theirs)."""
    frame = numbered(travellers)
    sides = pair_sides(frame, movement, _CARD_SIDES)
    t: Any = columns if columns is not None and columns.frame is frame else frame
    kept = ~sides["phantom"].to_numpy(dtype=bool) & ~np.asarray(sides["pair"].array.isna(),
                                                                   dtype=bool)
    side = {c: sides[c].array for c in ("section", "line", "pair", "board", "held",
                                        "opponent", "pct")}
    row = sides["position"].to_numpy()
    session = ["session"] if "session" in t else []  # a multi-session event
    if session:
        side["session"] = t["session"].array.take(row)
    keys = ["section", "line", "pair", *session, "board"]
    order = np.lexsort([_sort_key(side[k], _LINE_ORDER if k == "line" else None)
                        for k in reversed(keys)])  # all sides sorted, then the kept ones
    order = order[kept[order]]  # taken in that order: as sorting only the kept ones
    row, side = row[order], {c: v[order] for c, v in side.items()}
    is_ns = np.asarray(side["held"]) == "NS"
    score = floats(t["ns_score"])[row]
    cards = {**{c: side[c] for c in (*session, "section", "line")},
             "pair": pd.array(side["pair"], dtype="Int64"),
             "names": _names(side, ranking, names), "board": side["board"],
             "held": pd.array(["N-S", "E-W"], dtype=side["held"].dtype).take(
                 np.where(is_ns, 0, 1)),  # two words: taken, not each row converted
             "opponent": pd.array(side["opponent"], dtype="Int64")}
    for column in ("contract", "declarer", "lead"):
        cards[column] = _text(t, column, row)
        if column == "declarer":  # the tricks against the contract: "=", "+1", "-2"
            cards["result"] = _results(t, row)
    cards["score"] = pd.array(np.where(is_ns, score, -score), dtype="Float64").astype("Int64")
    cards["mp"], cards["top"], cards["pct"] = _counted(t, row, is_ns, side["pct"])
    cards["ruling"] = _text(t, "ruling", row)
    if "ns_imp" in t:  # cross-IMPs, Butler, teams: the pair's IMPs on the board
        cards["imp"] = np.where(is_ns, _values(t, "ns_imp")[row], _values(t, "ew_imp")[row])
    return cards  # in the order of session + CARD_COLUMNS (+ imp)


def _counted(t: Any, row: np.ndarray, is_ns: np.ndarray, pct: Any) -> tuple[Any, Any, Any]:
    """Each card row's matchpoints, top and % as the ranking counts them.

    On a board played fewer times than the others (or with an adjusted score scaled
    in) the ranking adds Neuberg's matchpoints on the session's common top, not those
    on the board's own top: the card shows those, so that its rows add up to the
    pair's total. Where the two agree (every board played as often) the board's own
    figures are kept as they are.
    """
    mp = np.where(is_ns, _values(t, "ns_mp")[row], _values(t, "ew_mp")[row])
    top = _values(t, "top")[row]
    if "ns_mp_scaled" not in t or "common_top" not in t:
        return mp, top, pct
    scaled = np.where(is_ns, _values(t, "ns_mp_scaled")[row], _values(t, "ew_mp_scaled")[row])
    common = _values(t, "common_top")[row]
    with np.errstate(invalid="ignore"):
        moved = ~np.isnan(mp) & ~np.isnan(scaled) & ~np.isnan(common) & (
            (np.abs(scaled - mp) > 1e-9) | (common != top))
    if not moved.any():
        return mp, top, pct
    with np.errstate(invalid="ignore", divide="ignore"):
        on_common = np.where(common > 0, 100 * scaled / common, 50.0)
    shown = np.where(moved, on_common, floats(pd.array(pct)))
    return np.where(moved, scaled, mp), np.where(moved, common, top), shown


def _results(t: pd.DataFrame, row: np.ndarray) -> pd.api.extensions.ExtensionArray:
    """Each card row's result against its contract ("=", "+1", "-2"; missing when none)."""
    if "tricks" not in t or "contract" not in t:
        return pd.array([None] * len(row), dtype="string")
    from traveller.publish.shown import overtricks

    diff = overtricks(t["contract"], t["tricks"])[row]
    # a handful of texts taken by code, not a text made per row (2 rows a result)
    codes = np.where(np.isnan(diff), -1, np.nan_to_num(diff) + _MOST_DOWN).astype(np.int64)
    if (codes >= len(_RESULT_TEXTS)).any() or (codes < -1).any():  # never from valid tricks
        return pd.array([None if np.isnan(d) else "=" if d == 0 else f"{int(d):+d}"
                         for d in diff], dtype="string")
    return spread_array(codes, _RESULT_TEXTS, "string")


#: Tricks against the contract as the cards print them, from 13 down to 13 over.
_MOST_DOWN = 13
_RESULT_TEXTS = [f"{d:+d}" if d else "=" for d in range(-_MOST_DOWN, _MOST_DOWN + 1)]


#: The side columns a card reads.
_CARD_SIDES = ("position", "section", "board", "line", "pair", "opponent", "held", "pct",
               "phantom")
#: The order of a pair's line on the score cards (N-S pairs first; a Howell's "" with them).
_LINE_ORDER = {"NS": 0, "EW": 1, "": 0}


def _sort_key(values: Any, mapping: dict[str, int] | None = None,
              descending: bool = False) -> np.ndarray:
    """Integer codes that sort as ``values`` do (missing last), for a stable lexsort.

    With ``mapping``, the values sort as the numbers they map to (others last).
    """
    values = array_of(values)
    if mapping is None and values.dtype.kind in "iub":  # numbers sort as numbers: no factorize
        number = _whole(values)
        if number is not None:
            return np.where(np.isnan(number), np.inf, -number if descending else number)
    codes, uniques = pd.factorize(values, sort=mapping is None)
    if mapping is not None:  # the few distinct values through the mapping, then sorted
        mapped = np.array([mapping.get(u, len(mapping)) for u in uniques] + [len(mapping)])
        codes, uniques = pd.factorize(mapped[codes], sort=True)
    if descending:
        codes = np.where(codes < 0, -1, len(uniques) - 1 - codes)
    return np.where(codes < 0, len(uniques), codes)


def _whole(values: Any) -> np.ndarray | None:
    """Whole numbers or flags as floats (NaN where missing); None if one is too large for that."""
    number = floats(values)
    known = number[~np.isnan(number)]
    return number if not len(known) or np.abs(known).max() < 2**53 else None


def _text(frame: pd.DataFrame, column: str, row: np.ndarray) -> pd.api.extensions.ExtensionArray:
    """A text column of ``frame`` at rows ``row`` (all missing when it is absent)."""
    if column not in frame:
        return pd.array([pd.NA] * len(row), dtype="string")
    series = frame[column]  # looked up once: a frame lookup costs more than its use
    if series.dtype == "string":  # as the canonical travellers hold it
        return series.array.take(row)
    return pd.array(series.astype("string").to_numpy()[row], dtype="string")


def _values(frame: pd.DataFrame, column: str) -> np.ndarray:
    if column not in frame:
        return np.full(len(frame), np.nan)
    return floats(frame[column])


def _names(side: dict[str, Any], ranking: pd.DataFrame | None,
           names: dict[tuple[Any, Any, Any], str] | None) -> Any:
    """Each card's pair names, looked up once per run of a pair's cards: text, of the dtype a
    frame gives texts (made of the few names, then taken per card)."""
    names = names_lookup(ranking) if names is None else names
    if not names:
        return pd.array([""], dtype="str").take(np.zeros(len(side["pair"]), dtype=np.intp))
    keys = [side["section"], side["line"], pd.array(side["pair"], dtype="Int64")]
    starts = np.array(change_starts(*keys), dtype=np.int64)
    found = [names.get(key, "") for key in zip(*(plain(k[starts]) for k in keys), strict=True)]
    runs = np.diff(np.r_[starts, len(keys[0])])
    return pd.array(np.array(found, dtype=object), dtype="str").take(
        np.repeat(np.arange(len(found)), runs))


def names_lookup(ranking: pd.DataFrame | None) -> dict[tuple[Any, Any, Any], str]:
    """(section, line, pair) -> the pair's names, from the ranking ("" when it has none)."""
    if ranking is None or ranking.empty or "names" not in ranking \
            or not {"section", "line", "pair"} <= set(ranking):
        return {}
    keys = zip(plain(ranking["section"]), plain(ranking["line"]),
               plain(ranking["pair"].astype("Int64")), strict=True)
    names = ranking["names"].to_numpy(dtype=object, na_value="")
    lookup: dict[tuple[Any, Any, Any], str] = {}
    for key, name in zip(keys, names, strict=True):
        lookup.setdefault(key, name)  # the first row of a pair, as drop_duplicates keeps
    return lookup


def frequencies(travellers: pd.DataFrame, figures: bool = True) -> pd.DataFrame:
    """Per board: each N-S score, how often, and the matchpoints it earned (board's top).

    Rows with a ruling are listed by the ruling as written (with its awards)
    after the played scores, highest score first. The matchpoints are those of
    the first of the results that has them; the IMPs and datum too, unless
    ``figures`` is False (see :func:`score_figures`).
    """
    if travellers.empty:
        return pd.DataFrame(columns=FREQUENCY_COLUMNS)
    return pd.DataFrame(frequency_values(travellers, figures=figures))


def score_figures(result: Result) -> bool:
    """Whether a board's IMPs are the score's own, so that a frequency table can show them:
    true of cross-IMPs and Butler, not of a teams match, where they depend on the other
    room's result (one score can win 5 IMPs in one match and lose 3 in another)."""
    return result.settings.get("method") != "teams"


def frequency_values(travellers: pd.DataFrame, kind: np.ndarray | None = None,
                     columns: Lookups | None = None, figures: bool = True) -> dict[str, Any]:
    """The columns :func:`frequencies` makes its frame of (arrays, in order), from
    travellers that are not empty; ``kind``: their ``kinds`` when made already, ``columns``:
    their columns looked up already (used when they are theirs); ``figures``: as
    :func:`frequencies`."""
    t: Any = columns if columns is not None and columns.frame is travellers else travellers
    session = ["session"] if "session" in t else []
    fouled = ["fouled"] if "fouled" in t else []
    column: dict[str, Any] = {k: t[k] for k in (*session, "section", "board", *fouled,
                                                "ns_score")}
    column["ruling"] = (t["ruling"].astype("string") if "ruling" in t
                        else pd.Series(pd.NA, index=t.index, dtype=object))
    column["_played"] = (kinds(travellers) if kind is None else kind) == "result"
    keys = [*session, "section", "board", *fouled, "_played", "ns_score", "ruling"]
    own = {*session, "section", "board", *fouled, "ns_score"} if isinstance(t, Lookups) else ()
    group = grouped([t.codes(k) if k in own else key_codes(column[k])  # the travellers' own
                     for k in keys])  # columns coded once; by first appearance, as groupby's
    firsts = np.unique(group, return_index=True)[1]
    order = np.lexsort([_sort_key(column[k], descending=k in ("_played", "ns_score"))[firsts]
                        for k in reversed(keys[:-1])])  # sort keys order any subset alike
    shown_figures = ([c for c in FIGURES if c in t and figures] if "ns_mp" not in t
                     else FREQUENCY_COLUMNS[5:])
    shown = [*session, *FREQUENCY_COLUMNS[:2], *fouled, *FREQUENCY_COLUMNS[2:5],
             *shown_figures]
    out = {k: column[k].array[firsts[order]] for k in shown if k in column}
    out["count"] = pd.array(np.bincount(group)[order], dtype="Int64" if pd.api.types.
                            is_extension_array_dtype(column["board"].dtype) else "int64")
    for name in shown_figures:
        out[name] = _first_present(t[name], group, firsts, order)
    return {c: out[c] for c in shown}


def _first_present(values: pd.Series, group: np.ndarray, firsts: np.ndarray,
                   order: np.ndarray) -> Any:
    """Per group, its first value that is not missing (missing when it has none), the groups
    in ``order``; ``firsts``: each group's first row (``group`` numbers them by first row)."""
    array = values.array
    missing = np.asarray(array.isna(), dtype=bool)
    if not missing.any():  # each group's first row has its first value
        return array.take(firsts[order])
    present = np.flatnonzero(~missing)
    found, first = np.unique(group[present], return_index=True)
    take = np.full(len(firsts), -1)
    take[found] = present[first]
    return array.take(take[order], allow_fill=True)


def result_score_cards(result: Result) -> pd.DataFrame:
    """Each pair's boards of a scored session (an individual's: each player's)."""
    values = result_card_values(result)
    return pd.DataFrame(columns=CARD_COLUMNS) if values is None else pd.DataFrame(values)


def result_card_values(result: Result, names: dict[tuple[Any, Any, Any], str] | None = None,
                       columns: Lookups | None = None) -> dict[str, Any] | None:
    """The columns of a scored session's score cards (an individual's: each player's), or
    None when it has no results (``names``, ``columns``: as :func:`card_values`)."""
    from traveller.score.individual import card_travellers

    travellers, movement = card_travellers(result.travellers, result.settings)
    if travellers.empty:
        return None
    return card_values(travellers, movement, result.ranking, names, columns)


def result_frequencies(result: Result) -> pd.DataFrame:
    """Each board's N-S scores of a scored session, how often, and their matchpoints."""
    return frequencies(frequency.counted(result), figures=score_figures(result))
