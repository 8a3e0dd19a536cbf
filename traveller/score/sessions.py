"""One row per player per published session: what ladders and the results store read."""

from __future__ import annotations

import re
from typing import Any

import pandas as pd

from traveller.schema import PLAYERS_SPLIT
from traveller.score.ladder import SESSION_COLUMNS

#: A date in a session's file name, e.g. riverside/2026-11-03.csv.
_ISO_DATE = re.compile(r"(\d{4})-(\d{2})-(\d{2})")


#: A date written day first (27/07/2022, 3.11.2026) or in words (3 November 2026).
_DAY_FIRST = re.compile(r"\b(\d{1,2})[./](\d{1,2})[./](\d{4})\b")
_IN_WORDS = re.compile(r"\b(\d{1,2})\s+([A-Za-z]{3,9})\s+(\d{4})\b")
_MONTHS = {m: i for i, m in enumerate(("jan", "feb", "mar", "apr", "may", "jun", "jul", "aug",
                                       "sep", "oct", "nov", "dec"), start=1)}


def session_date(text: str | None, key: str = "") -> str:
    """The session's date as YYYY-MM-DD: a date in the published text (2026-11-03,
    3/11/2026 day first, 3 November 2026), else one in the session's name; else ""."""
    for where in (text or "", key):
        match = _ISO_DATE.search(where)
        if match:
            return "-".join(match.groups())
        day_first = _DAY_FIRST.search(where)
        words = _IN_WORDS.search(where)
        if day_first:
            day, month, year = (int(g) for g in day_first.groups())
        elif words and words.group(2)[:3].casefold() in _MONTHS:
            day, month, year = (int(words.group(1)), _MONTHS[words.group(2)[:3].casefold()],
                                int(words.group(3)))
        else:
            continue
        if 1 <= month <= 12 and 1 <= day <= 31:
            return f"{year:04d}-{month:02d}-{day:02d}"
    return ""


def session_rows(key: str, ranking: pd.DataFrame, players: pd.DataFrame | None,
                 info: dict[str, Any]) -> pd.DataFrame:
    """The session's players with their pair's place, %, IMPs per board, master points.

    A session is a few dozen rows, so it is worked out on Python lists (pandas
    costs more to start than the whole session); :func:`rows_of` makes one frame.
    """
    return pd.DataFrame(session_records(key, ranking, players, info), columns=SESSION_COLUMNS)


def _pair_key(record: dict[str, Any]) -> tuple[str, str, int | None]:
    pair = record.get("pair")
    number = None if pair is None or pd.isna(pair) else int(pair)
    return (_text(record.get("section")), _text(record.get("line")), number)


def _text(value: Any) -> str:
    return "" if value is None or (isinstance(value, float) and value != value) or \
        pd.isna(value) else str(value).strip()


def _number(value: Any) -> float:
    try:
        number = float(value)
    except (TypeError, ValueError):
        return float("nan")
    return number


def session_records(key: str, ranking: pd.DataFrame, players: pd.DataFrame | None,
                    info: dict[str, Any]) -> list[tuple[Any, ...]]:
    """:func:`session_rows` as tuples in :data:`SESSION_COLUMNS` order."""
    if "pair" not in ranking or ranking.empty:
        return []
    named = players is not None and not players.empty and "player" in players
    return record_rows(key, ranking.to_dict("records"), list(ranking.columns),
                       players.to_dict("records") if named else None, info)  # type: ignore[union-attr]


def record_rows(key: str, ranking: list[dict[str, Any]], columns: list[str],
                players: list[dict[str, Any]] | None, info: dict[str, Any]
                ) -> list[tuple[Any, ...]]:
    """:func:`session_records` from the ranking's rows as records (its ``columns`` named)
    and the players' (None: no players' names; each pair's names are split instead)."""
    if "pair" not in columns or not ranking:
        return []
    pairs = {_pair_key(r): r for r in ranking}
    people: dict[tuple[str, str, int | None], list[tuple[str, str, Any]]] = {}
    if players:
        for r in players:
            people.setdefault(_pair_key(r), []).append(
                (_text(r.get("player")), _text(r.get("player_id")), r.get("award")))
    else:
        for pk, r in pairs.items():
            people[pk] = [(n.strip(), "", None) for n in PLAYERS_SPLIT.split(_text(r.get("names")))]
    method = str(info.get("method") or ("ximp" if "average" in columns and "pct" not in columns
                                        else "mp"))
    title, date = str(info.get("title") or key), session_date(str(info.get("date") or ""), key)
    out = []
    for pk, members in people.items():
        pair = pairs.get(pk)
        if pair is None:
            continue
        named = [(name, ident, award, f"id:{ident}" if ident else f"name:{name}")
                 for name, ident, award in members if name]
        for name, ident, award, me in named:
            partner = next(((n, k) for n, _, _, k in named if k != me), ("", ""))
            points = award if award is not None else pair.get("master_points")
            out.append((key, title, date, method, me, name, ident, partner[0], partner[1],
                        _text(pair.get("place")), _number(pair.get("pct")),
                        _number(pair.get("average")), _number(points)))
    return out
