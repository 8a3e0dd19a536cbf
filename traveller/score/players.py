"""The players of each ranked pair: their names as written, and federation numbers when given.

A player is known by their federation number where the names sheet gives one
(``Player 1, ID 1, Player 2, ID 2``), else by their name as written. Two
spellings that look like one player (``Kowalski Jan`` and ``Jan Kowalski``,
``J. Smith`` and ``J Smith``) are listed by :func:`look_alike` so a director can
make them one.
"""

from __future__ import annotations

import re
import unicodedata
from typing import Any

import numpy as np
import pandas as pd

from traveller.schema import PLAYERS_SPLIT
from traveller.score.names import attach_columns
from traveller.tidy.arrays import frame_of

PLAYER_COLUMNS = ["section", "line", "pair", "player", "player_id"]
#: The "string" dtype, looked up once (pandas finds a dtype named by text in its registry).
_STRING = pd.StringDtype()


def players_of(ranking: pd.DataFrame, names: pd.DataFrame | None,
               individual: bool = False) -> pd.DataFrame:
    """Two rows per ranked pair, one per player: section, line, pair, player, player_id
    (``individual``: one row per ranked player, ``pair`` their number).

    A player whose name is not known (no names sheet) is written "" so that the
    pair's award is still listed; the ladder leaves such rows out. The rows are
    ordered by section, line, pair and player (first, second); the columns are
    built as arrays and made into one frame at the end.
    """
    keys = {"section": _texts(ranking["section"]), "line": _texts(ranking["line"]),
            "pair": ranking["pair"].astype("Int64").array}
    n = len(keys["pair"])
    if names is not None and not names.empty and {"player1", "player2"} <= set(names):
        given = [c for c in ("player1", "player2", "id1", "id2") if c in names]
        attached = dict(zip(given, attach_columns(pd.DataFrame(keys), names, given),
                            strict=True))
        found = [attached[c].to_numpy() if c in attached else np.full(n, "", dtype=object)
                 for c in ("player1", "player2", "id1", "id2")]
        player = pd.array(np.concatenate(found[:2]), dtype=_STRING)
        player_id = pd.array(np.concatenate(found[2:]), dtype=_STRING)
    else:
        split = [PLAYERS_SPLIT.split(text) for text in _texts(ranking["names"])]
        first_second = [parts[i] if len(parts) > i else "" for i in (0, 1) for parts in split]
        player = pd.Series(pd.array(first_second, dtype=_STRING)).str.strip().array
        player_id = pd.array([""] * 2 * n, dtype=_STRING)
    if individual:  # (an individual's ranking row is one player: no partner to list)
        rows = np.lexsort(tuple(_codes(keys[c]) for c in ("pair", "line", "section")))
        return frame_of({"section": pd.array(keys["section"][rows], dtype=_STRING),
                         "line": pd.array(keys["line"][rows], dtype=_STRING),
                         "pair": keys["pair"].take(rows), "player": player.take(rows),
                         "player_id": player_id.take(rows)})
    return _player_rows(keys, player, player_id)


def _texts(column: pd.Series) -> np.ndarray:
    """A column as ``astype("string").fillna("")`` gives it, as an object array of str."""
    return column.astype(_STRING).to_numpy(dtype=object, na_value="")


def _player_rows(keys: dict[str, Any], player: Any, player_id: Any) -> pd.DataFrame:
    """The pairs' first players, then their second players, in (section, line, pair,
    player) order: the order a stable sort of those columns gives (missing pairs last)."""
    n = len(keys["pair"])
    rows = np.tile(np.arange(n), 2)  # the pair of each player row
    order = np.lexsort((np.repeat([0, 1], n), *(_codes(keys[c])[rows]
                                                for c in ("pair", "line", "section"))))
    rows = rows[order]
    return frame_of({"section": pd.array(keys["section"][rows], dtype=_STRING),
                     "line": pd.array(keys["line"][rows], dtype=_STRING),
                     "pair": keys["pair"].take(rows), "player": player.take(order),
                     "player_id": player_id.take(order)})


def _codes(values: Any) -> np.ndarray:
    """Sort codes of ``values`` (texts, or whole numbers with missing ones): their rank
    among the distinct values, missing last. (np.unique sorts texts by code point, as
    pandas does.)"""
    if isinstance(values, np.ndarray):  # texts, none missing
        return np.unique(values, return_inverse=True)[1].reshape(-1)
    numbers = values.to_numpy(dtype=np.float64, na_value=np.nan)
    uniques, codes = np.unique(numbers, return_inverse=True)  # NaN sorts last
    return np.minimum(codes.reshape(-1), np.count_nonzero(~np.isnan(uniques)))


def player_key(player: pd.Series, player_id: pd.Series) -> pd.Series:
    """Who a player is: ``id:<number>`` where a number is given, else ``name:<as written>``."""
    ident = player_id.astype("string").fillna("").str.strip()
    name = player.astype("string").fillna("").str.strip()
    return ("id:" + ident).where(ident != "", "name:" + name)


def _folded(name: str) -> str:
    """A name without case, accents, dots and word order ("Kowalski, Jan." -> "jan kowalski")."""
    plain = unicodedata.normalize("NFKD", name.casefold())
    plain = "".join(c for c in plain if not unicodedata.combining(c))
    plain = plain.replace("ł", "l")
    return " ".join(sorted(re.findall(r"\w+", plain)))


def look_alike(names: list[str]) -> list[tuple[str, str]]:
    """Pairs of different spellings that fold to one name (case, accents, dots, order)."""
    seen: dict[str, str] = {}
    out: list[tuple[str, str]] = []
    for name in sorted(set(names)):
        key = _folded(name)
        if not key:
            continue
        if key in seen and seen[key] != name:
            out.append((seen[key], name))
        seen.setdefault(key, name)
    return out
