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
from traveller.publish.pbn_cells import quoted
from traveller.schema import played_vulnerability
from traveller.score.table import DEALERS

if TYPE_CHECKING:
    from traveller.result import Result

SEATS = ("West", "North", "East", "South")
#: The seat that leads against each declarer.
LEADER = {"N": "E", "E": "S", "S": "W", "W": "N"}


def table_rooms(result: Result) -> pd.DataFrame:
    """Per traveller line: its match, room, home and visiting team and the board's IMPs."""
    t = result.travellers.reset_index(drop=True)
    boards = result.tables.get("Boards", pd.DataFrame())
    ns, ew = t["ns_team"].astype("Int64"), t["ew_team"].astype("Int64")
    out = pd.DataFrame({"board": t["board"].astype(int), "ns": ns, "ew": ew}, index=t.index)
    if boards.empty:
        return out.assign(match="", home=ns, away=ew, home_imp=pd.NA, away_imp=pd.NA, open=True)
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


def _cells(result: Result) -> pd.DataFrame:
    """One row of tag texts per table's record, in the order they are written."""
    t = result.travellers.reset_index(drop=True)
    rooms = table_rooms(result)
    names = team_names(result)
    played = (shown.text(t["ruling"]) if "ruling" in t else pd.Series("", index=t.index)) == ""
    text = {c: shown.text(t[c]) if c in t else pd.Series("", index=t.index)
            for c in ("contract", "declarer", "tricks", "lead", "north", "east", "south", "west",
                      "published_deal")}
    score = shown.numbers(t["ns_score"])
    ruling = shown.text(t["ruling"]) if "ruling" in t else pd.Series("", index=t.index)
    is_open = rooms["open"].fillna(True).astype(bool)
    imp = pd.to_numeric(rooms["away_imp"], errors="coerce").where(~is_open)
    won = shown.numbers(imp.abs())
    team = {k: rooms[k].map(lambda n: names.get(int(n), str(n)) if pd.notna(n) else "")
            for k in ("home", "away")}
    cells = pd.DataFrame({
        "match": shown.text(rooms["match"]), "board": rooms["board"].astype(int),
        "room": is_open.map({True: "Open", False: "Closed"}),
        **{seat: text[seat.lower()] for seat in SEATS}, "deal": text["published_deal"],
        # (the side alone, NS or EW: the seat is not known, "?")
        "declarer": shown.seats(t["declarer"], "?").where(played, ""),
        "contract": text["contract"].str.replace("PASS", "Pass").where(played, ""),
        "result": text["tricks"].where(played, ""), "home": team["home"], "away": team["away"],
        "score": ruling.where(~played, ("NS " + score).where(score != "", "")),
        "imp": ((imp < 0).map({True: "EW ", False: "NS "}) + won).where(imp.notna(), ""),
        "leader": text["declarer"].map(LEADER).fillna("").where(played & (text["lead"] != ""),
                                                                 ""),
        "lead": text["lead"]}, index=t.index)
    return cells.sort_values(["match", "board", "room"], ascending=[True, True, False],
                             kind="stable")  # Open before Closed


def _record(row: dict[str, object], event: list[str], several: bool,
            settings: dict[str, object]) -> list[str]:
    """The tag lines of one table's record (and the blank line after it)."""
    number = int(str(row["board"]))
    out = [*event, f'[Board "{number}"]', *(f"[{seat} {quoted(row[seat])}]" for seat in SEATS),
           f'[Dealer "{DEALERS[(number - 1) % 4]}"]',
           f'[Vulnerable "{played_vulnerability(settings, number)}"]',
           f"[Deal {quoted(row['deal'])}]", '[Scoring "IMP"]',
           *(f"[{tag} {quoted(row[tag.lower()])}]" for tag in ("Declarer", "Contract", "Result")),
           f'[Room "{row["room"]}"]', f"[HomeTeam {quoted(row['home'])}]",
           f"[VisitTeam {quoted(row['away'])}]"]
    if several:
        out.append(f"[Stage {quoted('Match ' + str(row['match']))}]")
    out.append(f"[Score {quoted(row['score'])}]")
    if row["imp"]:  # the side that won them, as team trials write it: "EW 1"
        out.append(f"[ScoreIMP {quoted(row['imp'])}]")
    if row["leader"]:
        out += [f'[Play "{row["leader"]}"]', f"{row['lead']} - - -", "*"]
    return [*out, ""]


def teams_games(result: Result, event: list[str]) -> list[str]:
    """The games of every table, after ``event`` (the Event, Site and Date tag lines)."""
    cells = _cells(result)
    several = cells["match"].nunique() > 1
    out: list[str] = []
    for row in cells.to_dict("records"):
        out += _record(row, event, several, result.settings)
    return out
