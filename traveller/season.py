"""A season's ladder from published sessions: ``traveller.ladder(paths, rule=...)``.

Glue over the stages: the published sessions are read (read/published.py, or
the results store), each becomes one row per player (score/sessions.py), the
ladder ranks them (score/ladder.py), and publish/ladder_out.py writes the
workbook, the pages and the change report.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import pandas as pd

from traveller.read.published import Published, published_sessions
from traveller.score.ladder import SESSION_COLUMNS, LadderError, LadderRule, standings
from traveller.score.players import look_alike
from traveller.score.sessions import session_records

__all__ = ["Ladder", "LadderError", "LadderRule", "ladder", "rows_of", "rule_from_text",
           "write_ladder"]


@dataclass
class Ladder:
    """A ladder worked out: standings, each player-session, and notes for the director."""

    standings: pd.DataFrame
    sessions: pd.DataFrame
    rule: LadderRule
    notes: list[str] = field(default_factory=list)
    changes: list[str] = field(default_factory=list)
    #: Each session read that gives the ladder no player, and why ("FILE: why"); also
    #: among the notes, as "not counted: ...".
    uncounted: list[str] = field(default_factory=list)

    def describe(self) -> str:
        """The rule in words, as printed under the ladder's title."""
        r = self.rule
        what = "master points" if r.by == "points" else "session %"
        parts = [f"best {r.best}" if r.best else "all", f"of the latest {r.of}" if r.of
                 else "sessions", f"by {what}"]
        if r.min_sessions > 1:
            parts.append(f"at least {r.min_sessions} sessions to qualify")
        if r.min_partners > 1:
            parts.append(f"at least {r.min_partners} partners")
        if r.imp_k is not None:
            parts.append(f"IMP sessions as 50 + {r.imp_k:g} x IMPs per board")
        if r.date_from or r.date_to:
            parts.append(f"from {r.date_from or 'the start'} to {r.date_to or 'now'}")
        return " ".join(parts[:3]) + "".join(f"; {p}" for p in parts[3:])


def rows_of(sessions: list[Published]) -> pd.DataFrame:
    """One row per player per session, for every published session."""
    records = [r for s in sessions for r in session_records(s.key, s.ranking, s.players,
                                                             s.info)]
    return pd.DataFrame(records, columns=SESSION_COLUMNS)


def rule_from_text(text: str) -> LadderRule:
    """``"best=8,of=12,by=pct,min_sessions=5,min_partners=2,imp_k=6"`` as a rule."""
    values: dict[str, Any] = {}
    for part in filter(None, (p.strip() for p in text.split(","))):
        key, sep, value = part.partition("=")
        key = key.strip().replace("-", "_")
        if not sep or key not in LadderRule.__dataclass_fields__:
            raise LadderError(f"ladder rule {part!r}: write KEY=VALUE with a key of "
                              f"{', '.join(LadderRule.__dataclass_fields__)}")
        value = value.strip()
        if key in ("by", "date_from", "date_to"):
            values[key] = value
        elif key == "imp_k":
            values[key] = _number(value, key)
        else:
            values[key] = int(_number(value, key))
    return LadderRule(**values)


def _number(text: str, key: str) -> float:
    try:
        return float(text)
    except ValueError:
        raise LadderError(f"ladder rule {key}={text!r}: give a number") from None


def ladder(paths: list[str | Path] | None = None, rule: LadderRule | str | None = None, *,
           rows: pd.DataFrame | None = None) -> Ladder:
    """Rank the players of the sessions published under ``paths`` (results folders
    of ``traveller batch``, folders of results workbooks, or workbooks), or of the
    player rows given (as :func:`rows_of` or the results store gives them).

    >>> season = ladder(["results/riverside"], rule="best=8,min_sessions=5")  # doctest: +SKIP
    >>> season.standings.head()  # doctest: +SKIP
    """
    rule = rule_from_text(rule) if isinstance(rule, str) else rule or LadderRule()
    uncounted: list[str] = []
    read: list[str] = []
    if rows is None:
        published = published_sessions([Path(p) for p in paths or []], uncounted)
        rows = rows_of(published)
        counted = set(rows["session"])
        uncounted += _not_counted(published, counted)
        read = [*(f"not counted: {why}" for why in uncounted),
                *_individuals(published, counted)]
    table, detail = standings(rows, rule)
    unnumbered = detail.loc[detail["player_id"].astype("string").fillna("") == "", "player"]
    notes = [*read, *(f"two spellings look like one player: {a!r} and {b!r}; write one "
                      "spelling (or give their federation number) so their sessions count "
                      "together" for a, b in look_alike(unnumbered.astype(str).tolist()))]
    return Ladder(table, detail, rule, notes, uncounted=uncounted)


def _not_counted(published: list[Published], counted: set[str]) -> list[str]:
    """Why each session read that gives the ladder no player ("FILE: why"): a session
    left out of the ladder without a word looked to the director like one counted.

    (A session outside --from/--to gives its players and is left out by the rule.)
    """
    out = []
    for session in published:
        if session.key in counted:
            continue
        where = session.source or session.key
        if session.ranking.empty:  # (a session none of whose rows scored)
            out.append(f"{where}: nothing is ranked in it (nothing could be scored; its "
                       "Problems sheet says why)")
        elif "pair" not in session.ranking:
            out.append(f"{where}: no pair or player is ranked in it")
        else:
            out.append(f"{where}: its ranking names no players (it was scored without "
                       "a names file); score it again with --names (or a Names sheet in "
                       "the input) to count it")
    return out


def _individuals(published: list[Published], counted: set[str]) -> list[str]:
    """A note per individual session counted: its players have no partner in it (the
    Ranking does not say who sat with whom), which --min-partners counts."""
    return [f"{s.source or s.key}: an individual session; each player's own percentage "
            "counts, with no partner (it adds none towards --min-partners)"
            for s in published if s.info.get("ranked") == "player" and s.key in counted]


def write_ladder(season: Ladder, output: Path, *, title: str = "Ladder",
                 site: Path | None = None) -> list[Path]:
    """Write the ladder workbook (and pages) unless nothing changed; the paths written.

    ``<output>.json`` beside the workbook keeps the standings, and the title, rule
    and notes printed with them (a new unreadable workbook or another rule that moves no
    total still rewrites the ladder); the changes from the last standings go into
    ``season.changes`` and ``<name>_changes.txt``.
    """
    from traveller.publish import ladder_out

    state_path = output.with_suffix(".json")
    rule = season.describe()
    state = {**ladder_out.state_of(season.standings, season.sessions), "title": title,
             "rule": rule, "notes": list(season.notes)}
    old = ladder_out.read_state(state_path)
    season.changes = ladder_out.changes(old, state)
    if old == state and output.exists() and (site is None or (site / "ladder.html").exists()):
        return []  # nothing new: nothing is rewritten
    written = [ladder_out.write_ladder_workbook(season.standings, season.sessions, output,
                                                title, rule, season.notes)]
    if site is not None:
        written.append(ladder_out.write_ladder_pages(season.standings, season.sessions, site,
                                                     title, rule, season.changes,
                                                     season.notes))
    if season.changes:
        text = f"Ladder changes: {title}\n\n" + "\n".join(season.changes) + "\n"
        written.append(ladder_out.write_atomic(
            output.with_name(f"{output.stem}_changes.txt"), text))
    written.append(ladder_out.write_state(state_path, state))
    return written
