"""A teams match as PBN: one game per table, as team trials publish it.

Each board is written twice, once per room: the mandatory tags (the four
players' names when the input gives them, the deal when known; ``Declarer``,
``Contract`` — ``Pass`` for a passed-out board —, ``Result`` as tricks taken),
then ``Room`` (``Open``: the home team sits N-S; ``Closed``: the visitors do),
``HomeTeam``/``VisitTeam`` (the team names, else their numbers), ``Score``
from N-S's view (``NS 420``, ``NS -150``; a ruling as written), a ``Play``
section holding the opening lead when it is known, and on the Closed
room's record ``ScoreIMP``: the IMPs the board gave, with the side of the
Closed room that won them (``NS 7``, ``EW 3``, ``NS 0``). A match of several pairs of teams adds
``Stage "Match 1 v 2"`` to tell the matches apart.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

import pandas as pd

from traveller.publish import shown
from traveller.publish.pbn_out import PBN_VULNERABLE, quoted
from traveller.score.table import DEALERS, VULNERABILITY

if TYPE_CHECKING:
    from traveller.pipeline import Result

SEATS = ("West", "North", "East", "South")
#: The seat that leads against each declarer.
LEADER = {"N": "E", "E": "S", "S": "W", "W": "N"}


def _rooms(result: Result) -> pd.DataFrame:
    """Per traveller line: its match, room, home and visiting team and the board's IMPs."""
    t = result.travellers.reset_index(drop=True)
    boards = result.tables.get("Boards", pd.DataFrame())
    ns, ew = t["ns_team"].astype("Int64"), t["ew_team"].astype("Int64")
    out = pd.DataFrame({"board": t["board"].astype(int), "ns": ns, "ew": ew}, index=t.index)
    if boards.empty:
        return out.assign(match="", home=ns, away=ew, home_imp=pd.NA, away_imp=pd.NA)
    b = boards.assign(board=boards["board"].astype(int), home=boards["home_team"].astype("Int64"),
                      away=boards["away_team"].astype("Int64"))
    keyed = b.set_index(["board", "home", "away"])
    as_home = out.join(keyed[["match", "home_imp", "away_imp"]], on=["board", "ns", "ew"])
    as_away = out.join(keyed[["match", "home_imp", "away_imp"]], on=["board", "ew", "ns"])
    home_ns = as_home["match"].notna()
    picked = as_home.where(home_ns, as_away)
    return picked.assign(home=ns.where(home_ns, ew), away=ew.where(home_ns, ns),
                         open=home_ns)


def team_names(result: Result) -> dict[int, str]:
    """Team number -> its name (the number when the input names none)."""
    r = result.ranking
    names = shown.text(r["names"]) if "names" in r else pd.Series("", index=r.index)
    numbers = pd.to_numeric(r["team"], errors="coerce").astype("Int64")
    return {int(n): (name or str(int(n))) for n, name in zip(numbers, names, strict=True)
            if pd.notna(n)}


def teams_games(result: Result, event: list[str]) -> list[str]:
    """The games of every table, after ``event`` (the Event, Site and Date tag lines)."""
    q = quoted
    t = result.travellers.reset_index(drop=True)
    rooms = _rooms(result)
    names = team_names(result)
    several = rooms["match"].nunique() > 1
    ruling = shown.text(t["ruling"]) if "ruling" in t else pd.Series("", index=t.index)
    text = {c: shown.text(t[c]) if c in t else pd.Series("", index=t.index)
            for c in ("contract", "declarer", "tricks", "lead", "north", "east", "south", "west",
                      "published_deal")}
    score = shown.numbers(t["ns_score"])
    order = rooms.assign(closed=~rooms["open"].fillna(True).astype(bool)).sort_values(
        ["match", "board", "closed"], kind="stable").index
    out: list[str] = []
    for i in order:
        number = int(rooms.at[i, "board"])
        room = "Open" if bool(rooms.at[i, "open"]) else "Closed"
        home, away = rooms.at[i, "home"], rooms.at[i, "away"]
        contract = text["contract"][i].replace("PASS", "Pass")
        out += [*event, f'[Board "{number}"]',
                *(f"[{seat} {q(text[seat.lower()][i])}]" for seat in SEATS),
                f'[Dealer "{DEALERS[(number - 1) % 4]}"]',
                f'[Vulnerable "{PBN_VULNERABLE[VULNERABILITY[(number - 1) % 16]]}"]',
                f"[Deal {q(text['published_deal'][i])}]", '[Scoring "IMP"]',
                f"[Declarer {q(text['declarer'][i] if not ruling[i] else '')}]",
                f"[Contract {q(contract if not ruling[i] else '')}]",
                f"[Result {q(text['tricks'][i] if not ruling[i] else '')}]",
                f'[Room "{room}"]',
                f"[HomeTeam {q(names.get(int(home), str(home)) if pd.notna(home) else '')}]",
                f"[VisitTeam {q(names.get(int(away), str(away)) if pd.notna(away) else '')}]"]
        if several:
            out.append(f"[Stage {q('Match ' + str(rooms.at[i, 'match']))}]")
        out.append(f"[Score {q(ruling[i] or ('NS ' + score[i] if score[i] else ''))}]")
        imp = rooms.at[i, "away_imp"] if room == "Closed" else pd.NA
        if pd.notna(imp):  # the side that won them, as team trials write it: "EW 1"
            side, won = ("EW", -float(imp)) if float(imp) < 0 else ("NS", float(imp))
            out.append(f'[ScoreIMP "{side} {shown.numbers(pd.Series([won])).iloc[0]}"]')
        lead, declarer = text["lead"][i], text["declarer"][i]
        if lead and declarer in LEADER and not ruling[i]:
            out += [f'[Play "{LEADER[declarer]}"]', f"{lead} - - -", "*"]
        out.append("")
    return out
