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

import pandas as pd

from traveller.score.rank import attach_names

PLAYER_COLUMNS = ["section", "line", "pair", "player", "player_id"]
#: How the names of a pair's players are joined in a ranking's names.
SPLIT = re.compile(r"\s+[–—-]\s+|\s*&\s*|\s*/\s*")


def players_of(ranking: pd.DataFrame, names: pd.DataFrame | None) -> pd.DataFrame:
    """Two rows per ranked pair, one per player: section, line, pair, player, player_id.

    A player whose name is not known (no names sheet) is written "" so that the
    pair's award is still listed; the ladder leaves such rows out.
    """
    keys = pd.DataFrame({"section": ranking["section"].astype("string").fillna(""),
                         "line": ranking["line"].astype("string").fillna(""),
                         "pair": ranking["pair"].astype("Int64")}).reset_index(drop=True)
    parts = []
    if names is not None and not names.empty and {"player1", "player2"} <= set(names):
        for n in (1, 2):
            player = attach_names(keys, names.assign(names=names[f"player{n}"]))
            ident = (attach_names(keys, names.assign(names=names[f"id{n}"]))
                     if f"id{n}" in names else pd.Series("", index=keys.index))
            parts.append(keys.assign(player=player.to_numpy(), player_id=ident.to_numpy(),
                                     order=n))
    else:
        written = ranking["names"].astype("string").fillna("").reset_index(drop=True)
        split = written.str.split(SPLIT, regex=True)
        for i in (0, 1):
            player = split.str.get(i).astype("string").fillna("").str.strip()
            parts.append(keys.assign(player=player.to_numpy(), player_id="", order=i + 1))
    out = pd.concat(parts, ignore_index=True)
    out = out.sort_values(["section", "line", "pair", "order"], kind="stable")
    return out[PLAYER_COLUMNS].astype({"player": "string", "player_id": "string"}
                                      ).reset_index(drop=True)


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
