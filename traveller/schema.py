"""Canonical columns, dtypes and the notation vocabularies, declared once.

Every stage of the pipeline speaks in the columns declared here. The notation
tables (suits, seats, doubling words in English, Polish and Russian, and the
symbol-font damage seen in real sheets) live here too, so that a new notation
is one more entry in :data:`NOTATIONS`, not a change to the parser.
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field
from typing import Any

import pandas as pd

# --------------------------------------------------------------------------
# Canonical traveller columns

#: Canonical traveller columns and their dtypes, in output order.
TRAVELLER_DTYPES: dict[str, str] = {
    "section": "string",
    "board": "Int64",
    "ns_pair": "Int64",
    "ew_pair": "Int64",
    "contract": "string",
    "declarer": "string",
    "tricks": "Int64",
    "lead": "string",
    "ns_score": "Int64",
    "ns_mp": "Float64",
    "ew_mp": "Float64",
    "ns_pct": "Float64",
    "ew_pct": "Float64",
}

#: ``severity`` is "error" where the row is left out of the scoring, "warning" where it is
#: scored (the message says how) or where the problem is about no result row at all.
#: A problem's columns: where it is (file, sheet, row as the user sees them; the row's
#: board number where it has one, to find the paper traveller by), the cell as typed, what.
PROBLEM_COLUMNS = ["file", "sheet", "row", "board", "column", "value", "code", "severity",
                   "message"]

STRAINS = ["C", "D", "H", "S", "NT"]
SEATS = ["N", "E", "S", "W"]
#: A declarer as a traveller row holds it: a seat, or the declaring side alone where the
#: sheet names no seat (``NS`` in By beside ``4S``: N-S's score is the same either way).
#: A position modulo 2 is the side (0 N-S, 1 E-W).
DECLARERS = [*SEATS, "NS", "EW"]
#: The two lines of a pairs movement, as messages and pages write them.
LINE_WORDS = {"NS": "N-S", "EW": "E-W"}

#: Vulnerability by board number, (board - 1) % 16 -> (N-S vulnerable, E-W vulnerable).
VULNERABILITY = [
    (False, False), (True, False), (False, True), (True, True),
    (True, False), (False, True), (True, True), (False, False),
    (False, True), (True, True), (False, False), (True, False),
    (True, True), (False, False), (True, False), (False, True),
]
DEALERS = "NESW"


def board_dealer(board: int) -> str:
    """The dealer of a board number by the duplicate cycle (1 N, 2 E, 3 S, 4 W, 5 N ...)."""
    return DEALERS[(board - 1) % 4]


#: Vulnerability codes (0 nobody, 1 N-S, 2 E-W, 3 both) as PBN's [Vulnerable] writes them.
PBN_VULNERABLE_WORDS = ("None", "NS", "EW", "All")


def board_vulnerability(board: int) -> str:
    """The vulnerability of a board number as PBN writes it: "None", "NS", "EW" or "All"."""
    ns, ew = VULNERABILITY[(board - 1) % 16]
    return PBN_VULNERABLE_WORDS[int(ns) + 2 * int(ew)]


def played_vulnerability(settings: dict[str, Any], board: int, session: object = None) -> str:
    """The vulnerability board ``board`` was played at, as PBN writes it: its number's,
    or the Vul column's where every result of the board was scored at one its number
    does not give (a session's ``settings["vulnerable"]``: board -> PBN word).

    ``session``: the session of an event of several, whose settings keep each session's
    record apart (``settings["session_vulnerable"]``: session as text -> board -> word),
    since board numbers repeat across sessions.
    """
    if session is None or session == "":
        stated = settings.get("vulnerable")
    else:
        stated = (settings.get("session_vulnerable") or {}).get(str(session))
    if isinstance(stated, dict) and board in stated:
        return str(stated[board])
    return board_vulnerability(board)


def conform(frame: pd.DataFrame, dtypes: dict[str, str]) -> pd.DataFrame:
    """Return a copy of ``frame`` with every column of ``dtypes`` present and typed.

    Missing columns are added empty; other columns are kept after them.

    >>> conform(pd.DataFrame({"board": [1.0]}), {"board": "Int64"}).dtypes["board"]
    Int64Dtype()
    """
    current = dict(zip(frame.columns, frame.dtypes, strict=True))  # read once, not per column
    changed = {}
    for column, dtype in dtypes.items():
        if column not in current:
            changed[column] = pd.Series(pd.NA, index=frame.index, dtype=dtype)
        elif current[column] != _dtype(dtype):  # (already typed: as is)
            changed[column] = frame[column].astype(dtype)  # type: ignore[call-overload]
    out = frame.copy(deep=False)  # copy-on-write: the caller's frame is never changed
    for column, values in changed.items():
        out[column] = values
    rest = [c for c in out.columns if c not in dtypes]
    return out[list(dtypes) + rest]


_DTYPES: dict[str, Any] = {}


def _dtype(name: str) -> Any:
    """``pandas_dtype(name)``, looked up once per name."""
    if name not in _DTYPES:
        _DTYPES[name] = pd.api.types.pandas_dtype(name)
    return _DTYPES[name]


# --------------------------------------------------------------------------
# Header aliases: canonical field -> names seen in real sheets.
# Matching is on a key with case, spaces and punctuation removed (see
# ``load.header_key``), so "N-S", "n/s" and "NS" are one alias.

HEADER_ALIASES: dict[str, list[str]] = {
    "section": ["section", "sect", "sekcja", "секция"],
    "board": ["board", "bd", "brd", "boardno", "rozdanie", "rozd", "nrrozdania", "сдача",
              "коробка", "boardnumber"],
    "ns_pair": ["ns", "n-s", "pairns", "nspair", "ns_pair", "paraNS", "parans", "ns pair",
                "с-ю", "сю", "парасю", "pairnumberns", "nsno"],
    "ew_pair": ["ew", "e-w", "pairew", "ewpair", "ew_pair", "paraew", "parawe", "we", "e-wpair",
                "з-в", "зв", "вз", "паразв", "pairnumberew", "ewno"],
    "contract": ["contract", "kontrakt", "контракт", "contr", "con"],
    "declarer": ["declarer", "by", "decl", "dec", "rozgrywający", "rozgrywajacy", "rozgr", "ns/ew",
                 "разыгрывающий", "разыгрывающии", "играет"],
    "tricks": ["tricks", "lewy", "взятки", "tr", "trickstaken", "tricks_taken"],
    "result": ["result", "res", "wynik", "результат", "tricks_rel", "tricksrel", "+/-"],
    "lead": ["lead", "ld", "wist", "1-йход", "1йход", "ход", "openinglead", "leadcard"],
    "score": ["score", "zapis", "запись", "nsscore", "score_ns", "scorens", "points", "zapisns",
              "scorensplus"],
    "score_ew": ["score_ew", "scoreew", "ewscore", "zapisew"],
    # an individual's four players (traveller.tidy.individual)
    "north": ["n", "north", "playern", "nplayer", "playeridnorth", "północ", "polnoc", "graczn",
              "с", "север", "игрокс"],
    "south": ["s", "south", "splayer", "playeridsouth", "południe", "poludnie",
              "graczs", "ю", "юг", "игрокю"],
    "east": ["e", "east", "playere", "eplayer", "playerideast", "wschód", "wschod",
             "в", "восток", "игрокв"],
    "west": ["w", "west", "playerw", "wplayer", "playeridwest", "zachód", "zachod", "graczw",
             "з", "запад", "игрокз"],
}

#: Fields a header row must name at least to count as the header of a traveller.
HEADER_REQUIRED = {"board"}
HEADER_ANY_OF = {"contract", "score"}

# Names-file aliases
NAMES_ALIASES: dict[str, list[str]] = {
    "section": HEADER_ALIASES["section"],
    "pair": ["pair", "pairno", "para", "nrpary", "пара", "number", "no", "nr",
             "player", "playerno", "zawodnik", "nrzawodnika", "игрок"],
    "line": ["line", "linia", "линия", "direction", "dir"],
    "names": ["names", "name", "nazwiska", "gracze", "players", "игроки", "фамилии"],
    "player1": ["player1", "gracz1", "name1", "игрок1"],
    "player2": ["player2", "gracz2", "name2", "игрок2"],
    # a player's federation (membership) number, beside the player's name
    "id1": ["id1", "playerid1", "memberid1", "member1", "memberno1", "membernumber1",
            "nrpzbs1", "idpzbs1", "pzbs1", "nrzawodnika1", "nrczłonka1", "ид1", "idигрока1",
            "номеригрока1", "членскийномер1"],
    "id2": ["id2", "playerid2", "memberid2", "member2", "memberno2", "membernumber2",
            "nrpzbs2", "idpzbs2", "pzbs2", "nrzawodnika2", "nrczłonka2", "ид2", "idигрока2",
            "номеригрока2", "членскийномер2"],
}

#: Input columns a scoring method needs, by their header key (case and punctuation ignored).
METHOD_COLUMNS: dict[str, list[str]] = {
    "hcp": ["hcp", "hcpns", "nshcp", "pc", "pcns", "punkty", "pkt", "pktns", "фигуры",
            "очкизафигуры", "очкисю"],
    "ew_hcp": ["hcpew", "ewhcp", "pcew", "pktew", "очкизв"],
    "room": ["room", "pokój", "pokoj", "sala", "комната", "зал"],
    "home_team": ["hometeam", "home", "gospodarze", "хозяева"],
    "away_team": ["awayteam", "away", "visitteam", "goście", "goscie", "гости"],
    "ns_team": ["nsteam", "teamns", "drużynans", "командасю"],
    "ew_team": ["ewteam", "teamew", "drużynaew", "командазв"],
    "match": ["match", "mecz", "матч"],
    "deal": ["deal", "chicagodeal", "сдачачикаго"],
}

#: Workbook file kinds (read with calamine); anything else is read as delimited text.
EXCEL_SUFFIXES = {".xlsx", ".xlsm", ".xlsb", ".xls", ".ods"}

NAMES_SHEETS = {"names", "pairs", "players", "pary", "nazwiska", "zawodnicy", "участники", "пары"}


#: How a pair's two players are written together in one names cell ("Ann Lee & Bob Ray",
#: "Lee - Ray", "Lee/Ray"): the separators between the players.
PLAYERS_SPLIT = re.compile(r"\s+[–—-]\s+|\s*&\s*|\s*/\s*")

#: A traveller's columns that write each result's pairs' names on its row ("NS Names",
#: "Players E-W", "Nazwiska NS", "Игроки С-Ю"): the line's words and the names' words,
#: either first, as header keys (case, spaces and punctuation removed).
ROW_NAMES_LINES = {"NS": ("ns", "nspair", "pairns", "сю"),
                   "EW": ("ew", "we", "ewpair", "pairew", "зв", "вз")}
ROW_NAMES_WORDS = ("names", "name", "players", "nazwiska", "gracze", "zawodnicy", "игроки",
                   "фамилии")


# --------------------------------------------------------------------------
# Notations

#: Characters of a damaged symbol font (Symbol -> Latin-1) and suit emoji,
#: replaced by the plain suit glyph before any notation is applied.
GLYPH_REPAIR = {
    "§": "♣", "¨": "♦", "©": "♥", "ª": "♠",
    "♧": "♣", "♢": "♦", "♡": "♥", "♤": "♠",
    "\ufe0f": "", "\ufe0e": "",
}

_GLYPH_STRAINS = {"♣": "C", "♦": "D", "♥": "H", "♠": "S"}


@dataclass(frozen=True)
class Notation:
    """One language's words for strains, seats, doubling and card ranks."""

    name: str
    description: str
    strains: dict[str, str]  # token (upper case) -> C D H S NT
    seats: dict[str, str]  # token -> N E S W
    doubles: dict[str, int] = field(default_factory=dict)  # token -> 1 or 2
    ranks: dict[str, str] = field(default_factory=dict)  # token -> A K Q J T 9..2
    passes: tuple[str, ...] = ("PASS", "AP", "P/O", "PASSED", "ALLPASS", "-", "P")


_STD_DOUBLES = {"X": 1, "*": 1, "D": 1, "DBL": 1, "XX": 2, "**": 2, "R": 2, "RDBL": 2}
_STD_RANKS = {"A": "A", "K": "K", "Q": "Q", "J": "J", "T": "T", "10": "T",
              **{str(n): str(n) for n in range(2, 10)}}

NOTATIONS: dict[str, Notation] = {
    "en": Notation(
        name="en",
        description="English: C D H S NT (N, SA), seats N E S W",
        strains={"C": "C", "D": "D", "H": "H", "S": "S", "NT": "NT", "N": "NT", "SA": "NT",
                 **_GLYPH_STRAINS},
        seats={"N": "N", "E": "E", "S": "S", "W": "W"},
        doubles=_STD_DOUBLES,
        ranks=_STD_RANKS,
    ),
    "pl": Notation(
        name="pl",
        description="Polish: T K C P (trefl karo kier pik) and BA, seats N E S W",
        strains={"T": "C", "K": "D", "C": "H", "P": "S", "BA": "NT", "NT": "NT",
                 **_GLYPH_STRAINS},
        seats={"N": "N", "E": "E", "S": "S", "W": "W"},
        doubles={"X": 1, "*": 1, "XX": 2, "**": 2, "KTR": 1, "REKTR": 2},
        ranks={"A": "A", "AS": "A", "K": "K", "D": "Q", "W": "J", "T": "T", "10": "T",
               **{str(n): str(n) for n in range(2, 10)}},
        passes=("PASS", "PAS", "AP", "P/O", "-", "4XPAS", "PASY"),
    ),
    "ru": Notation(
        name="ru",
        description="Russian: Т/Тр Б Ч П and БК, seats С В Ю З, «с контрой»",
        strains={"Т": "C", "ТР": "C", "Б": "D", "Ч": "H", "П": "S", "БК": "NT",
                 **_GLYPH_STRAINS},
        seats={"С": "N", "В": "E", "Ю": "S", "З": "W"},
        doubles={"СКОНТРОЙ": 1, "КОНТРА": 1, "К": 1, "X": 1, "Х": 1, "*": 1,
                 "СРЕКОНТРОЙ": 2, "РЕКОНТРА": 2, "РК": 2, "XX": 2, "ХХ": 2, "**": 2},
        ranks={"Т": "A", "К": "K", "Д": "Q", "В": "J", "10": "T",
               **{str(n): str(n) for n in range(2, 10)}},
        passes=("ПАС", "ВСЕПАС", "PASS", "-"),
    ),
}

DEFAULT_NOTATION = "en"
