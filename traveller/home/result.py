"""What a home game returns, and the steps every game shares (read, parse, ledger)."""

from __future__ import annotations

from dataclasses import dataclass, field
from pathlib import Path
from typing import TypeAlias

import pandas as pd

from traveller.home.parse import notation_of, parse_deals
from traveller.home.sheet import GROUP_FIELDS, TEXT_FIELDS, read_sheet
from traveller.home.values import HOME_STRAINS
from traveller.problems import combine, flag
from traveller.schema import NOTATIONS, PROBLEM_COLUMNS
from traveller.words import plural

#: A path, a DataFrame, or a dict of sheet name -> DataFrame.
HomeSource: TypeAlias = str | Path | pd.DataFrame | dict[str, pd.DataFrame]


@dataclass
class HomeResult:
    """A scored home game: the ledger of deals, the totals, and the problems.

    ``game`` is "rubber", "chicago" or "three-handed"; ``parties`` the score
    columns ("ns", "ew", or the three players); ``rubbers`` (three-handed) each
    player's points and settlement per rubber.
    """

    game: str
    ledger: pd.DataFrame
    totals: pd.DataFrame
    problems: pd.DataFrame
    parties: list[str]
    settings: dict[str, object] = field(default_factory=dict)
    rubbers: pd.DataFrame | None = None
    source: str = ""

    def to_excel(self, path: str | Path) -> Path:
        """Write the score-pad workbook (one printed page per rubber or round)."""
        from traveller.home.pad import write_pad

        return write_pad(self, path)

    def __repr__(self) -> str:
        deals = int((self.ledger["entry"] != "unfinished").sum()) if len(self.ledger) else 0
        return (f"HomeResult: {self.game}, {plural(deals, 'deal')}, "
                f"{plural(len(self.totals), 'totals row')}, "
                f"{plural(len(self.problems), 'problem')}")


@dataclass
class Parsed:
    """A sheet read and parsed: its deals as written and as read, and the problems so far."""

    written: pd.DataFrame
    deals: pd.DataFrame
    problems: pd.DataFrame
    players: list[str]
    notation: str
    notation_why: str = ""  # how the notation was told, where the contracts alone could not


def parse_source(source: HomeSource, *, three: bool = False, players: list[str] | None = None,
                 notation: str | None = None, encoding: str | None = None) -> Parsed:
    """Read and parse a home score sheet (three-handed: ``players`` or those the sheet names)."""
    if notation is not None and notation not in NOTATIONS:
        raise ValueError(f"unknown notation {notation!r}; choose from {', '.join(NOTATIONS)}")
    written, named, header = read_sheet(source, encoding)
    found, why = notation_of(written, three, notation, header)
    who = None
    if three:
        who = list(players or named or _first_seen(written))
    deals, problems = parse_deals(written, header, found or "en", who)
    if found is None:
        problems = combine([flag(written, "ambiguous-notation", header.get("contract", "Contract"),
                                 written["contract"], why)])
        deals = deals.assign(skip="ambiguous-notation")
    return Parsed(written, deals, problems, who or ["ns", "ew"], found or "en",
                  why if found else "")


def _first_seen(written: pd.DataFrame) -> list[str]:
    """Three-handed players as the declarers name them, in order of first appearance."""
    names = written["declarer"].str.strip().dropna()
    seen: dict[str, str] = {}
    for name in names:
        seen.setdefault(name.casefold(), name)
    return list(seen.values())[:3]


def read_as(deals: pd.DataFrame, parties_shown: dict[str, str]) -> pd.Series:
    """How each deal was read, in words: "4SX by N-S, 11 tricks", "passed out"."""
    strain = deals["strain"].map(dict(enumerate(HOME_STRAINS))).fillna("")
    contract = (deals["level"].astype("string") + strain.astype("string")
                + deals["doubled"].map({0: "", 1: "X", 2: "XX"}).astype("string"))
    who = deals["declarer"].map(parties_shown).fillna(deals["declarer"]).astype("string")
    text = contract + " by " + who + ", " + deals["tricks"].astype("string") + " tricks"
    text = text.mask(deals["passed"], "passed out")
    honours = deals["holder"].map(parties_shown).fillna(deals["holder"]).astype("string")
    text = text + (", honours " + deals["honours"].astype("string") + " to " + honours
                   ).fillna("")
    return text.mask(deals["skip"].notna(), "skipped: " + deals["skip"] + " (see Problems)")


def ledger_frame(parsed: Parsed, played: pd.DataFrame, parties_shown: dict[str, str]
                 ) -> pd.DataFrame:
    """The played ledger with each deal's source, cells as written and reading beside it."""
    renames = {f: f"{f}_written" for f in [*TEXT_FIELDS, "rubber"]}
    written = parsed.written.rename(columns=renames)
    groups = [renames.get(g, g) for g in GROUP_FIELDS if parsed.written[g].notna().any()]
    source = pd.concat([written[["file", "sheet", "row", *groups]],
                        parsed.deals[["deal"]],
                        written[[f"{f}_written" for f in TEXT_FIELDS if f != "deal"]],
                        read_as(parsed.deals, parties_shown).rename("read_as")], axis=1)
    at = played["source"].where(played["source"] >= 0)
    rows = source.reindex(at.fillna(-1).astype(int)).reset_index(drop=True)
    rows["read_as"] = rows["read_as"].where(at.notna(), _unfinished_text(played, parties_shown))
    for column in ["file", "sheet", *groups]:
        rows[column] = rows[column].ffill()
    rows["row"] = rows["row"].astype("Int64")
    out = pd.concat([rows, played.drop(columns="source")], axis=1)
    return out.drop(columns=["entry"]).assign(entry=played["entry"])


def _unfinished_text(played: pd.DataFrame, parties_shown: dict[str, str]) -> pd.Series:
    """ "Rubber unfinished: N-S +400, E-W +300 (300 for a game, ...)" per unfinished row."""
    text = pd.Series("Rubber unfinished:", index=played.index, dtype="string")
    for key, shown in parties_shown.items():
        text = text + f" {shown} +" + played[f"{key}_bonus"].astype("string") + ","
    return text.str.rstrip(",") + (" (300 for a game, the part-score bonus for a part-score "
                                   "in the unfinished game)")


def public_problems(problems: pd.DataFrame) -> pd.DataFrame:
    """The problems table as published (file, sheet, row, board: none, a pad's rows being
    deals, column, value, code, severity, message)."""
    return problems[PROBLEM_COLUMNS].reset_index(drop=True)
