"""PBN 1.0-2.1 (Portable Bridge Notation) -> raw traveller tables.

Text is UTF-8 when it decodes, else ISO-8859-1 (PBN's own charset). ``%``
lines are escapes (Ruter's ``% <META name=.. content="..">`` feed ``meta``),
``{...}`` is commentary, a blank line ends a game, and a tag value ``"#"``
repeats the previous game's value. Results come in two layouts
(``meta["layout"]``):

- ``scoretable`` (pairs; one game per board): each ScoreTable line is a row.
  PairId_NS/EW -> ``ns_pair``/``ew_pair``, Contract, Declarer, Result (tricks
  taken) -> ``tricks``, Lead, Score_NS -> ``score``, Score_EW -> ``score_ew``
  (Ruter fills only the side that scored, the other is ``-``), MP_NS/EW,
  Percentage_NS/EW, IMP_NS/EW, ButlerDatum -> ``published_*``; other columns
  kept under their name in lower case (``table``, ``round``). ``-`` and ``?``
  are missing values.
- ``frequency`` (a ``scoretable`` whose lines are a board's distinct results,
  with a ``Multiplicity`` column and no PairId columns): as ``scoretable``,
  ``multiplicity`` kept; see :mod:`traveller.score.frequency`.
- ``records`` (teams; one game per table with [Room "Open"/"Closed"],
  [Contract], [Declarer], [Result], [Score "NS 420"], [ScoreIMP "NS 7"]): a row
  per game with ``room``, ``north``..``west`` player names and ``lead`` (first
  card of the Play section). ``ns_pair``/``ew_pair`` are team numbers: team 1
  is the home team, N-S in the Open room and E-W in the Closed room; team 2
  the visitors. Team names come from [HomeTeam]/[VisitTeam], else from "A vs
  B" in [Stage] or [Event], into ``meta`` (home_team, visit_team) and
  ``names`` (pairs 1 and 2). A record without a Room whose partners' seat tags
  both name their pair by number ([North "Para-1"] [South "Para-1"], as pbntools
  writes a Pary session) is a pairs result: ``ns_pair``/``ew_pair`` are those
  numbers. "NS n" -> ``score``, "EW n" -> ``score_ew``, a
  bare number -> the declaring side's column; [ScoreIMP]/[ScoreMP]/
  [ScorePercentage] -> ``published_ns_*`` and ``published_ew_*`` from each
  side's view ("EW 3" -> -3 / 3).

Every row has ``vul`` and ``dealer`` from the game's [Vulnerable] and [Dealer]
tags (checked against the board number as a Vul or Dealer column is, and named
by their tags in what is listed), the hands in ``published_deal`` (PBN's
"N:AKQ.JT9.876.5432 ..." form) from the game's tags
and ``row`` = the line of the table line (or of [Contract]). Adjusted
results ("A+", "Bye") are written as the scores with ``-`` for the contract:
the marker goes to ``contract`` (see :func:`move_markers`). A table line that
cannot be read (wrong number of fields, unclosed quote) or a broken tag line
is a row with only its board and line and the reason in ``read_problem``.

``names`` comes from the TotalScoreTable: PairId, Direction ("N-S", "Ö-V",
"P-E" -> "NS"/"EW"), Names (" - " -> " – "; with MemberID1/MemberID2 also each
player and their federation number), TotalScore* ->
``published_total``, TotalPercentage -> ``published_pct``, Rank/RankTie ->
``published_place`` ("25=" for a tie), NrBoards -> ``published_boards``,
Club -> ``club``.
"""

from __future__ import annotations

import itertools
import re
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from traveller.errors import UnreadableFileError
from traveller.read.exports import (
    blank,
    int_or_text,
    line_of,
    move_markers,
    names_frame,
    results_frame,
    text_or_none,
    value_for,
)
from traveller.read.raw import RawTable
from traveller.words import plural

#: ScoreTable column (lower case) -> canonical column
TABLE_COLUMNS = {
    "section": "section", "pairid_ns": "ns_pair", "pairid_ew": "ew_pair",
    "contract": "contract", "declarer": "declarer", "result": "tricks", "lead": "lead",
    "score_ns": "score", "score_ew": "score_ew", "mp_ns": "published_ns_mp",
    "mp_ew": "published_ew_mp", "percentage_ns": "published_ns_pct",
    "percentage_ew": "published_ew_pct", "imp_ns": "published_ns_imp",
    "imp_ew": "published_ew_imp", "butlerdatum": "published_datum",
    "playerid_north": "north", "playerid_south": "south", "playerid_east": "east",
    "playerid_west": "west", "mp_north": "published_north_mp", "mp_south": "published_south_mp",
    "mp_east": "published_east_mp", "mp_west": "published_west_mp",
}
#: Canonical column -> the PBN tag it is read from, as problems name it (a ScoreTable's
#: columns are named as its header writes them: :func:`_original_columns`).
TAG_OF = {"vul": "Vulnerable", "dealer": "Dealer", "board": "Board", "section": "Section",
          "contract": "Contract", "declarer": "Declarer", "tricks": "Result", "lead": "Play",
          "score": "Score", "score_ew": "Score", "room": "Room", "north": "North",
          "east": "East", "south": "South", "west": "West"}
SIDED_TAGS = {"ScoreIMP": "imp", "ScoreMP": "mp", "ScorePercentage": "pct"}
META_NAMES = {"Generator": "program", "Version": "program_version", "ContestDate": "contest_date",
              "ScoringType": "scoring", "TableCount": "tables", "PairCount": "pairs",
              "PhantomCount": "phantoms", "BoardCount": "boards", "CRSessionCount": "sessions",
              "CRSession": "session", "Event": "event", "Date": "date", "Site": "site",
              "Stage": "stage", "Competition": "competition", "Scoring": "scoring",
              "HomeTeam": "home_team", "VisitTeam": "visit_team"}
ROOM_TEAMS = {"open": (1, 2), "closed": (2, 1)}
#: A seat tag that names its pair by number ("Para-1", "Pair 12"): a word, then the number.
_PAIR_LABEL = re.compile(r"[^\W\d_]+[\s\-_#.:]*(\d{1,5})")
_TAG = re.compile(r'\[\s*([A-Za-z0-9_]+)\s*"((?:[^"\\]|\\.)*)"\s*\]')
_FIELD = re.compile(r'"((?:[^"\\]|\\.)*)"|(\S+)')
_META = re.compile(r'<META\s+name=(\S+)\s+content="([^"]*)"', re.IGNORECASE)
_VERSION = re.compile(r"%\s*PBN\s+(\S+)")
_SIDED = re.compile(r"(NS|EW)?\s*([+-]?\d+(?:\.\d+)?)", re.IGNORECASE)
_VERSUS = re.compile(r"(?:^|:)\s*([^:]+?)\s+(?:vs\.?|v\.?|versus)\s+([^:]+?)\s*$", re.IGNORECASE)


@dataclass
class Tag:
    """One tag pair, the line it is on and the section lines that follow it."""

    value: str
    line: int
    rows: list[tuple[int, str]] = field(default_factory=list)


@dataclass
class Game:
    """The tags of one game (a board record) and its tag lines that could not be read."""

    tags: dict[str, Tag] = field(default_factory=dict)
    bad: list[tuple[int, str]] = field(default_factory=list)

    def get(self, name: str) -> str:
        """A tag's value, "" when the game has no such tag."""
        return self.tags[name].value if name in self.tags else ""


def decode(data: bytes) -> str:
    """PBN text: UTF-8 (with or without BOM) when valid, else ISO-8859-1."""
    try:
        return data.decode("utf-8-sig")
    except UnicodeDecodeError:
        return data.decode("latin-1")


def _unescape(text: str) -> str:
    """Undo PBN string escapes (\\" and \\\\ only: table headers use a lone backslash)."""
    return re.sub(r'\\(["\\])', r"\1", text)


def _uncomment(lines: list[str]) -> list[str]:
    """Remove {...} commentary (may span lines) outside quoted strings; keep line count."""
    out, inside = [], False
    for line in lines:
        kept, quoted = [], False
        for ch in line:
            if inside or (ch == "{" and not quoted):
                inside = ch != "}"
                continue
            quoted ^= ch == '"'
            kept.append(ch)
        out.append("".join(kept))
    return out


def parse_games(text: str) -> tuple[list[Game], dict[str, str]]:
    """Split PBN text into games of tags (with their section lines) and the file's meta."""
    games, meta, game, last = [], {}, Game(), None
    for number, line in enumerate(_uncomment(text.splitlines()), start=1):
        stripped = line.strip()
        if stripped.startswith("%"):
            if (version := _VERSION.match(stripped)) and "format" not in meta:
                meta["format"] = f"PBN {version.group(1)}"
            meta.update({m.group(1): m.group(2) for m in _META.finditer(stripped)})
        elif not stripped:
            if game.tags or game.bad:
                games.append(game)
            game, last = Game(), None
        elif stripped.startswith("["):
            found = list(_TAG.finditer(stripped))
            if not found:
                game.bad.append((number, stripped))
            for match in found:
                last = match.group(1)
                game.tags[last] = Tag(_unescape(match.group(2)), number)
        elif last is not None and not stripped.startswith(";"):
            game.tags[last].rows.append((number, stripped))
    if game.tags or game.bad:
        games.append(game)
    for before, after in itertools.pairwise(games):
        for name, tag in after.tags.items():
            if tag.value == "#":  # inherit the previous game's value
                tag.value = before.get(name)
    return games, meta


def table_columns(header: str) -> list[str]:
    """Column names of a table tag ("Table\\2R;Round\\2R" -> ["Table", "Round"])."""
    return [part.split("\\")[0].strip().lstrip("+-") for part in header.split(";")]


def table_fields(line: str) -> list[str] | None:
    """The fields of one table line (quoted or bare), or None when a quote is unclosed."""
    fields = []
    for match in _FIELD.finditer(line):
        if match.group(2) is not None and '"' in match.group(2):
            return None
        fields.append(match.group(2) if match.group(1) is None else _unescape(match.group(1)))
    return fields


def _board_values(game: Game) -> dict[str, Any]:
    return {"section": text_or_none(game.get("Section")) or "",
            "board": int_or_text(game.get("Board")),
            "vul": text_or_none(game.get("Vulnerable")),
            "dealer": text_or_none(game.get("Dealer")),
            "published_deal": text_or_none(game.get("Deal"))}


def _score_table_rows(game: Game) -> list[dict[str, Any]]:
    """A game's ScoreTable lines -> rows."""
    tag = game.tags["ScoreTable"]
    columns = [TABLE_COLUMNS.get(c.lower(), c.lower()) for c in table_columns(tag.value)]
    rows = []
    for number, line in tag.rows:
        row = _board_values(game) | {"row": number}
        fields = table_fields(line)
        if fields is None or len(fields) != len(columns):
            found = "an unclosed quote" if fields is None else plural(len(fields), "field")
            row["read_problem"] = (f"ScoreTable line has {found}; the header names "
                                   f"{len(columns)} ({tag.value}): {line}")
        else:
            row |= {c: value_for(c, v) for c, v in zip(columns, fields, strict=True)}
            row["section"] = row["section"] or ""
            move_markers(row)
        rows.append(row)
    return rows


def _sided(text: str, declarer: str | None = None) -> tuple[float | None, str]:
    """ "NS 420" -> (420, "NS"); "EW 3" -> (3, "EW"); "420" -> the declaring side's."""
    match = _SIDED.fullmatch(text.strip())
    if not match:
        return None, ""
    side = (match.group(1) or "").upper() or ("EW" if declarer in ("E", "W") else "NS")
    return float(match.group(2)), side


def _record_row(game: Game, labelled: bool = False) -> dict[str, Any]:
    """One table's record (teams layout; pairs where ``labelled``: see
    :func:`_labelled_pairs`) -> a row."""
    declarer, room = text_or_none(game.get("Declarer")), text_or_none(game.get("Room"))
    teams = ROOM_TEAMS.get((room or "").lower()) or (
        _labelled_pairs(game) if labelled and "Room" not in game.tags else (None, None))
    play = game.tags.get("Play")
    lead = play.rows[0][1].split()[0] if play and play.rows else None
    row = _board_values(game) | {
        "ns_pair": teams[0], "ew_pair": teams[1], "contract": text_or_none(game.get("Contract")),
        "declarer": declarer, "tricks": int_or_text(game.get("Result")),
        "lead": None if blank(lead) or lead == "*" else lead,
        "row": next(game.tags[t].line for t in ("Contract", "Result", "Score") if t in game.tags)}
    if "Room" in game.tags:  # (a pairs record has none: no teams' column)
        row["room"] = room
    row |= {seat.lower(): text_or_none(game.get(seat)) for seat in ("North", "East", "South",
                                                                     "West")}
    value, side = _sided(game.get("Score"), declarer)
    if value is not None:
        row["score" if side == "NS" else "score_ew"] = int(value)
    elif not blank(game.get("Score")):
        row["score"] = game.get("Score").strip()
    for tag, kind in SIDED_TAGS.items():
        value, side = _sided(game.get(tag))
        if value is not None:
            sign = 1 if side == "NS" else -1
            row[f"published_ns_{kind}"], row[f"published_ew_{kind}"] = sign * value, -sign * value
    move_markers(row)
    return row


def _labelled_pairs(game: Game, labelled: bool = True) -> tuple[int | str | None, ...]:
    """A pairs record's N-S and E-W pair numbers, where both partners' seat tags name
    their pair by number: [North "Para-1"] [South "Para-1"] (pbntools' PBN of a Pary
    session) is pair 1 N-S. A side whose seats do not (names, partners apart, no number)
    has no number: when ``labelled`` (the file's other records name their pairs so) its
    seats as typed, "Para-5/Para-7", for the problem that lists the row; else None."""
    sides: list[int | str | None] = []
    for first, second in (("North", "South"), ("East", "West")):
        label, partner = game.get(first).strip(), game.get(second).strip()
        match = _PAIR_LABEL.fullmatch(label)
        if match is not None and partner == label:
            sides.append(int(match.group(1)))
        else:
            sides.append(f"{label}/{partner}" if labelled and (label or partner) else None)
    return tuple(sides)


def _names_pairs(games: list[Game]) -> bool:
    """True when a record without a Room names a pair by number in its seats."""
    return any("Room" not in g.tags and any(isinstance(v, int) for v in _labelled_pairs(g))
               for g in games if "ScoreTable" not in g.tags)


def _names_from_total(tag: Tag) -> list[dict[str, Any]]:
    """TotalScoreTable lines -> pair records for the names frame."""
    columns = [c.lower() for c in table_columns(tag.value)]
    total = next((c for c in columns if c.startswith("totalscore")), "")
    records = []
    for _, line in tag.rows:
        fields = table_fields(line)
        if fields is None or len(fields) != len(columns):
            continue
        values = {c: text_or_none(v) for c, v in zip(columns, fields, strict=True)}
        rank, tie = values.get("rank"), values.get("ranktie")
        records.append({
            "section": values.get("section") or "",
            "pair": int_or_text(values.get("pairid", values.get("playerid"))),  # individual
            "line": line_of(values.get("direction")),
            "names": (values.get("names") or "").replace(" - ", " – "),
            "published_total": values.get(total), "published_pct": values.get("totalpercentage"),
            "published_place": f"{rank}=" if rank and tie else rank,
            "published_boards": values.get("nrboards"), "club": values.get("club"),
            **_members(values)})
    return records


def _members(values: dict[str, Any]) -> dict[str, str]:
    """Each player and their federation number (MemberID1, MemberID2), when given."""
    players = [p.strip() for p in (values.get("names") or "").split(" - ")]
    if "memberid1" not in values or len(players) != 2:
        return {}
    return {"player1": players[0], "id1": values.get("memberid1") or "",
            "player2": players[1], "id2": values.get("memberid2") or ""}


def _team_names(first: Game) -> tuple[str, str] | None:
    if first.get("HomeTeam") and first.get("VisitTeam"):
        return first.get("HomeTeam"), first.get("VisitTeam")
    for text in (first.get("Stage"), first.get("Event")):
        if match := _VERSUS.search(text):
            return match.group(1).strip(), match.group(2).strip()
    return None


def _meta(games: list[Game], file_meta: dict[str, str]) -> dict[str, str]:
    """File META lines, then the first game's tags (which win), as meta."""
    sources = [file_meta, {n: t.value for n, t in games[0].tags.items()}]
    meta = {"format": file_meta.get("format", "PBN")}
    meta |= {key: src[name] for src in sources for name, key in META_NAMES.items()
             if src.get(name)}
    if "program" not in meta and games[0].get("Application"):
        meta["program"] = games[0].get("Application")
        meta["program_tag"] = "Application"  # (where a problem about it says it is)
    return meta


def _frequency(games: list[Game]) -> bool:
    """True when the ScoreTables give each result's Multiplicity and no pair numbers."""
    headers = [{c.lower() for c in table_columns(g.tags["ScoreTable"].value)}
               for g in games if "ScoreTable" in g.tags]
    return bool(headers) and all("multiplicity" in h and not h & {"pairid_ns", "pairid_ew"}
                                 for h in headers)


def read_pbn(path: Path) -> list[RawTable]:
    """Read a PBN file's results (ScoreTable lines or one record per table) into raw tables.

    One table per event. Raises UnreadableFileError when the file holds deals only.

    >>> read_pbn(Path("sm1.pbn"))[0].frame.loc[0, ["board", "contract", "tricks"]]  # doctest: +SKIP
    """
    path = Path(path)
    games, file_meta = parse_games(decode(path.read_bytes()))
    if not games:
        raise UnreadableFileError(f"{path}: no PBN games found; check the file is a PBN export")
    meta = _meta(games, file_meta)
    by_event: dict[str, list[dict[str, Any]]] = {}
    records: list[dict[str, Any]] = []
    labelled = _names_pairs(games)
    for game in games:
        rows = [_board_values(game) | {"row": n, "read_problem": f"cannot read this tag: {t}"}
                for n, t in game.bad]
        if "ScoreTable" in game.tags:
            rows += _score_table_rows(game)
        elif any(not blank(game.get(t)) for t in ("Contract", "Result", "Score")):
            rows.append(_record_row(game, labelled))
        if "TotalScoreTable" in game.tags:
            records += _names_from_total(game.tags["TotalScoreTable"])
        by_event.setdefault(game.get("Event") or meta.get("event", "PBN"), []).extend(rows)
    if not any(by_event.values()):
        raise UnreadableFileError(
            f"{path}: the PBN file has deals but no results (no ScoreTable and no played "
            "contracts); export it again with the scores or travellers")
    meta["layout"] = "scoretable" if any("ScoreTable" in g.tags for g in games) else "records"
    if meta["layout"] == "scoretable" and _frequency(games):
        meta["layout"] = "frequency"
    if (teams := _team_names(games[0])) and any("Room" in g.tags for g in games):
        meta["home_team"], meta["visit_team"] = teams
        records = records or [{"section": "", "pair": n, "line": "", "names": name}
                              for n, name in enumerate(teams, start=1)]
    names = names_frame(records) if records else None
    return [RawTable(str(path), event, results_frame(rows), board=None, notation="en",
                     names=names, meta=dict(meta), original_columns=_original_columns(games))
            for event, rows in by_event.items() if rows]


def _original_columns(games: list[Game]) -> dict[str, str]:
    """Canonical column -> the tag or ScoreTable column (as the file's first ScoreTable
    header writes it) it was read from, for the problems that name it."""
    out = dict(TAG_OF)
    table = next((g.tags["ScoreTable"] for g in games if "ScoreTable" in g.tags), None)
    if table is not None:
        for column in table_columns(table.value):
            out[TABLE_COLUMNS.get(column.lower(), column.lower())] = column
    return out
