"""Rubber bridge: the deals of a score sheet -> the score pad, rubber by rubber.

Each deal's points come from one lookup in :data:`traveller.home.values.DEAL_TABLE`
(for both vulnerabilities at once, vectorised); which of the two applies, and
what the deal does to the rubber, depends on the games won before it, so the
rubber itself is played through the deals in order (a sheet has tens of deals,
not millions). The same play serves three-handed bridge: there the parties
are the three players instead of the two sides, and a defeated contract pays
the penalty to each defender.

Rules of the rubber: trick points below the line count toward game (100); a
game wipes every party's part-score toward the next one; "vulnerable" is
having won a game in this rubber; the first to win two games wins the rubber,
+700 when no one else has a game, +500 otherwise, and the next deal starts a
new rubber. A rubber still open where the sheet (or a table, round or rubber
number) ends is scored as unfinished: +300 for a game, and +100 (or 50) for a
part-score in the unfinished game.
"""

from __future__ import annotations

from dataclasses import dataclass, field

import numpy as np
import pandas as pd

from traveller.home.result import (
    HomeResult,
    HomeSource,
    ledger_frame,
    parse_source,
    public_problems,
)
from traveller.home.values import lookup, settle

RUBBER_BONUS = {0: 700, 1: 500}  # by whether any other party has a game
UNFINISHED_GAME = 300
UNFINISHED_PARTSCORES = (100, 50)
#: Ledger columns of each party, in order.
PARTY_COLUMNS = ("vul", "below", "above", "honours", "bonus", "total")


@dataclass
class _Pad:
    """The state of the rubber in play, and the ledger rows written so far."""

    parties: list[str]
    unfinished_partscore: int
    rubber: int = 1
    rows: int = 0  # ledger rows of the rubber in play
    games: np.ndarray = field(init=False)
    part: np.ndarray = field(init=False)
    out: list[dict[str, object]] = field(default_factory=list)

    def __post_init__(self) -> None:
        self._reset()

    def _reset(self) -> None:
        self.games = np.zeros(len(self.parties), dtype=np.int64)
        self.part = np.zeros(len(self.parties), dtype=np.int64)
        self.rows = 0

    def _row(self, source: int, entry: str) -> dict[str, object]:
        row: dict[str, object] = {"source": source, "entry": entry, "rubber": self.rubber,
                                  "game": "", "rubber_won": ""}
        for p, name in enumerate(self.parties):
            row[f"{name}_vul"] = bool(self.games[p])
            for what in ("below", "above", "honours", "bonus"):
                row[f"{name}_{what}"] = 0
        self.out.append(row)
        self.rows += 1
        return row

    def skip(self, source: int) -> None:
        """A row that is not scored: listed in the ledger with nothing entered."""
        self._row(source, "skipped")

    def play(self, source: int, declarer: int, values: np.ndarray, holder: int,
             honours: int) -> None:
        """Enter one deal: ``values`` is (below, above, penalty) at the declarer's vulnerability."""
        row = self._row(source, "deal")
        below, above, penalty = (int(v) for v in values)
        name = self.parties[declarer]
        row[f"{name}_below"], row[f"{name}_above"] = below, above
        if penalty:
            for other in self.parties:
                if other != name:
                    row[f"{other}_above"] = penalty
        if holder >= 0:
            row[f"{self.parties[holder]}_honours"] = honours
        self.part[declarer] += below
        if self.part[declarer] >= 100:
            self._game(row, declarer)

    def _game(self, row: dict[str, object], winner: int) -> None:
        self.games[winner] += 1
        self.part[:] = 0
        row["game"] = self.parties[winner]
        if self.games[winner] == 2:
            others = np.delete(self.games, winner)
            row[f"{self.parties[winner]}_bonus"] = RUBBER_BONUS[int((others > 0).any())]
            row["rubber_won"] = self.parties[winner]
            self.rubber += 1
            self._reset()

    def close(self) -> None:
        """End the rubber in play (sheet, table or round over): score it as unfinished."""
        if not self.rows:
            return
        row = self._row(-1, "unfinished")
        for p, name in enumerate(self.parties):
            row[f"{name}_bonus"] = (UNFINISHED_GAME * int(self.games[p] > 0)
                                    + self.unfinished_partscore * int(self.part[p] > 0))
        self.rubber += 1
        self._reset()


def play(deals: pd.DataFrame, parties: list[str], rules: str = "modern",
         unfinished_partscore: int = 100, group: pd.Series | None = None) -> pd.DataFrame:
    """Play the parsed deals through the rubbers; one ledger row per deal (+ unfinished rows).

    ``deals`` is :func:`traveller.home.parse.parse_deals` output with the
    declarer and honours holder as party names; ``group`` (one key per deal)
    closes the rubber in play wherever it changes. Returns the ledger with
    ``source`` (the deal's position, -1 for an unfinished-rubber row),
    ``entry``, ``rubber``, ``game``, ``rubber_won`` and per party
    ``<party>_vul/_below/_above/_honours/_bonus/_total`` (total: running, per rubber).
    """
    if unfinished_partscore not in UNFINISHED_PARTSCORES:
        raise ValueError(f"unfinished part-score bonus must be 100 or 50, not "
                         f"{unfinished_partscore!r}")
    index = {name: i for i, name in enumerate(parties)}
    declarer = deals["declarer"].map(index).fillna(-1).astype("int64").to_numpy()
    holder = deals["holder"].map(index).fillna(-1).astype("int64").to_numpy()
    level, strain, doubled, tricks = (deals[c].to_numpy(dtype=np.intp)
                                      for c in ("level", "strain", "doubled", "tricks"))
    both = [lookup(rules, level, np.maximum(strain, 0), doubled, np.full(len(deals), vul), tricks)
            for vul in (False, True)]
    keys = group.tolist() if group is not None else [None] * len(deals)
    skip = deals["skip"].notna().to_numpy()
    pad = _Pad(parties, unfinished_partscore)
    for i in range(len(deals)):
        if i and keys[i] != keys[i - 1]:
            pad.close()
        if skip[i]:
            pad.skip(i)
            continue
        d = declarer[i]
        values = both[int(pad.games[d] > 0)][i] if d >= 0 else np.zeros(3, dtype=np.int64)
        pad.play(i, max(d, 0), values, holder[i], int(deals["honours"].iat[i]))
    pad.close()
    return _with_totals(pd.DataFrame(pad.out), parties)


def _with_totals(ledger: pd.DataFrame, parties: list[str]) -> pd.DataFrame:
    if ledger.empty:
        return ledger
    for name in parties:
        points = sum(ledger[f"{name}_{w}"] for w in ("below", "above", "honours", "bonus"))
        ledger[f"{name}_total"] = points.groupby(ledger["rubber"]).cumsum()
    return ledger


def rubber_totals(ledger: pd.DataFrame, parties: list[str]) -> pd.DataFrame:
    """One row per rubber: each party's points, and whether the rubber was won."""
    last = ledger.groupby("rubber", sort=True).tail(1).set_index("rubber")
    out = pd.DataFrame({name: last[f"{name}_total"] for name in parties})
    out["finished"] = last["rubber_won"] != ""
    out["winner"] = last["rubber_won"]
    return out.reset_index()


def group_keys(written: pd.DataFrame) -> pd.Series:
    """Where a rubber must end: a new file, sheet, table, round or rubber number."""
    columns = ["file", "sheet", "table", "round", "rubber"]
    return written[columns].astype("string").fillna("").agg("\x1f".join, axis=1)


def check_rules(rules: str, settle_rounding: str) -> None:
    """Refuse an unknown rule set or rounding with the choices."""
    from traveller.home.values import RULES, SETTLE_ROUNDINGS

    if rules not in RULES:
        raise ValueError(f"unknown rules {rules!r}; choose {' or '.join(RULES)}")
    if settle_rounding not in SETTLE_ROUNDINGS:
        raise ValueError(f"unknown settle rounding {settle_rounding!r}; choose "
                         f"{' or '.join(SETTLE_ROUNDINGS)}")


def rubber(source: HomeSource, rules: str = "modern", unfinished_partscore: int = 100,
           settle_rounding: str = "half-up", notation: str | None = None,
           encoding: str | None = None) -> HomeResult:
    """Score a rubber-bridge sheet: ledger per deal, totals and settlement per rubber.

    ``rules`` is "modern" (today's Laws) or "classic" (the older table:
    see :mod:`traveller.home.values`); ``unfinished_partscore`` 100 or 50;
    ``settle_rounding`` "half-up" (an exact 50 counts as a hundred) or "half-down".
    Settlement is in whole hundreds from N-S's view (positive: E-W pay N-S).

    >>> result = rubber("sample_data/home_rubber.csv")  # doctest: +SKIP
    >>> result.totals  # rubber, ns, ew, settlement, finished  # doctest: +SKIP
    """
    check_rules(rules, settle_rounding)
    parsed = parse_source(source, notation=notation, encoding=encoding)
    played = play(parsed.deals, ["ns", "ew"], rules, unfinished_partscore,
                  group_keys(parsed.written))
    ledger = ledger_frame(parsed, played, SIDE_NAMES)
    totals = rubber_totals(played, ["ns", "ew"]) if len(played) else _no_totals()
    totals = _with_groups(totals, ledger)
    totals["settlement"] = settle((totals["ns"] - totals["ew"]).to_numpy(), settle_rounding)
    totals = totals[[*[c for c in totals if c not in ("winner", "finished")], "finished"]]
    settings = {"rules": rules, "unfinished_partscore": unfinished_partscore,
                "settle_rounding": settle_rounding, "notation": parsed.notation,
                "notation_why": parsed.notation_why}
    return HomeResult("rubber", ledger, totals, public_problems(parsed.problems), ["ns", "ew"],
                      settings, source=_source_name(source))


SIDE_NAMES = {"ns": "N-S", "ew": "E-W"}


def _no_totals() -> pd.DataFrame:
    return pd.DataFrame({"rubber": pd.Series(dtype="int64"), "ns": pd.Series(dtype="int64"),
                         "ew": pd.Series(dtype="int64"), "finished": pd.Series(dtype=bool),
                         "winner": pd.Series(dtype=object)})


def _with_groups(totals: pd.DataFrame, ledger: pd.DataFrame) -> pd.DataFrame:
    """Put the table/round/rubber numbers of the sheet (when it has them) before each rubber."""
    groups = [g for g in ("table", "round") if g in ledger]
    if not groups or totals.empty:
        return totals
    first = ledger.groupby("rubber")[groups].first().reset_index()
    out = totals.merge(first, on="rubber", how="left")
    return out[[*groups, *[c for c in out if c not in groups]]]


def _source_name(source: object) -> str:
    return "<DataFrame>" if isinstance(source, pd.DataFrame | dict) else str(source)
