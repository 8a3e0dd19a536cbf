"""Chicago: rounds of four deals, each scored like a duplicate board.

Deals are numbered 1-4 within a round; a sheet numbering on (5, 6, ...)
starts round 2 at deal 5. Dealer N, E, S, W for deals 1-4; vulnerable: deal
1 nobody, deals 2 and 3 the dealer's side (2: E-W, 3: N-S), deal 4 both.
Each deal scores as in duplicate (game bonus 300/500 for the deal's
vulnerability), except that the part-score bonus is 50, or 100 where the
club plays so. Honours score as in rubber bridge. A round's totals are each
side's points summed; it settles like a rubber, in whole hundreds.
"""

from __future__ import annotations

import numpy as np
import pandas as pd

from traveller.home.result import HomeResult, HomeSource, Parsed, parse_source, read_as
from traveller.home.sheet import TEXT_FIELDS
from traveller.home.values import settle
from traveller.problems import combine, flag
from traveller.schema import PROBLEM_COLUMNS
from traveller.score.russian import CHICAGO_VULNERABILITY
from traveller.score.table import DEALERS, SCORE_TABLE, contract_points

PARTSCORE_BONUSES = (50, 100)
DUPLICATE_PARTSCORE_BONUS = 50
VUL_NAMES = ("None", "E-W", "N-S", "Both")
_VUL = np.array(CHICAGO_VULNERABILITY, dtype=bool)
#: Trick points of a contract made exactly, by [level, strain, doubled] (part-score or game).
_TRICK_POINTS = np.array([[[contract_points(max(lv, 1), s, d) * (lv > 0) for d in range(3)]
                           for s in range(5)] for lv in range(8)])


def chicago_positions(parsed: Parsed) -> tuple[pd.Series, pd.Series, pd.Series]:
    """(round, deal 1-4 within it, bad deal number) of every row, in sheet order.

    The deal number, when the sheet has one, gives the position in the round
    ((deal - 1) mod 4); otherwise the row's place in the sheet does. Without a
    Round column a round ends after deal 4 or where the numbering starts again.
    """
    written, deal = parsed.written, parsed.deals["deal"]
    place = written.groupby(["file", "sheet", written["table"].fillna("")]).cumcount()
    bad = written["deal"].notna() & (deal.isna() | (deal < 1)).fillna(True).astype(bool)
    has_deal = written["deal"].notna().any()
    position = ((deal - 1) % 4).fillna(-1).astype("int64") if has_deal else place % 4
    key = written[["file", "sheet", "table"]].astype("string").fillna("").agg("|".join, axis=1)
    if written["round"].notna().any():
        rounds = written["round"].fillna("").astype("string")
        return key + " " + rounds, position + 1, bad
    restart = (position <= position.shift(fill_value=99)) | (key != key.shift())
    number = restart.cumsum()
    return number.astype("string"), position + 1, bad


def deal_scores(deals: pd.DataFrame, ns_vul: np.ndarray, ew_vul: np.ndarray,
                partscore_bonus: int) -> np.ndarray:
    """N-S score of every deal at its Chicago vulnerability (0 for skipped or passed rows)."""
    level = deals["level"].to_numpy(dtype=np.intp)
    strain = np.clip(deals["strain"].to_numpy(dtype=np.intp), 0, 4)
    doubled = deals["doubled"].to_numpy(dtype=np.intp)
    tricks = deals["tricks"].to_numpy(dtype=np.intp)
    is_ns = (deals["declarer"] == "ns").fillna(False).to_numpy(dtype=bool)
    vul = np.where(is_ns, ns_vul, ew_vul).astype(np.intp)
    score = SCORE_TABLE[level, strain, doubled, vul, tricks].astype(np.int64)
    made = (level > 0) & (tricks >= level + 6)
    partscore = made & (_TRICK_POINTS[level, strain, doubled] < 100)
    score = score + np.where(partscore, partscore_bonus - DUPLICATE_PARTSCORE_BONUS, 0)
    score = np.where(is_ns, score, -score)
    return np.where(deals["skip"].notna().to_numpy(), 0, score)


def chicago(source: HomeSource, partscore_bonus: int = 50, settle_rounding: str = "half-up",
            notation: str | None = None, encoding: str | None = None) -> HomeResult:
    """Score a Chicago sheet: ledger per deal (vulnerability, dealer, ``ns_score``) and rounds.

    ``totals`` has one row per round: ``round, ns, ew, deals, settlement``.

    >>> chicago("sample_data/home_chicago.csv").totals  # doctest: +SKIP
    """
    if partscore_bonus not in PARTSCORE_BONUSES:
        raise ValueError(f"part-score bonus must be 50 or 100, not {partscore_bonus!r}")
    settle(0, settle_rounding)  # refuses an unknown rounding
    parsed = parse_source(source, notation=notation, encoding=encoding)
    rounds, position, bad = chicago_positions(parsed)
    problems = [parsed.problems, flag(parsed.written[bad], "bad-board", "Deal",
                                      parsed.written["deal"][bad])]
    deals = parsed.deals.assign(skip=parsed.deals["skip"].mask(
        bad & parsed.deals["skip"].isna(), "bad-board"))
    vul = _VUL[np.clip(position.to_numpy() - 1, 0, 3)]
    ledger = _ledger(parsed, deals, rounds, position, vul, partscore_bonus)
    totals = _round_totals(ledger, settle_rounding)
    settings = {"partscore_bonus": partscore_bonus, "settle_rounding": settle_rounding,
                "notation": parsed.notation,
                "notation_why": parsed.notation_why}
    return HomeResult("chicago", ledger, totals,
                      combine(problems)[PROBLEM_COLUMNS].reset_index(drop=True),
                      ["ns", "ew"], settings,
                      source=str(source) if not isinstance(source, pd.DataFrame | dict)
                      else "<DataFrame>")


def _ledger(parsed: Parsed, deals: pd.DataFrame, rounds: pd.Series, position: pd.Series,
            vul: np.ndarray, partscore_bonus: int) -> pd.DataFrame:
    written = parsed.written.rename(columns={f: f"{f}_written" for f in TEXT_FIELDS})
    groups = [g for g in ("table", "round") if parsed.written[g].notna().any()]
    number = pd.Series(pd.factorize(rounds)[0] + 1, index=rounds.index)
    ok = position.between(1, 4)
    out = written[["file", "sheet", "row", *groups]].assign(
        round_no=number, deal=deals["deal"], chicago_deal=position.where(ok).astype("Int64"))
    out = pd.concat([out, written[[f"{f}_written" for f in TEXT_FIELDS if f != "deal"]]], axis=1)
    shown = read_as(deals, {"ns": "N-S", "ew": "E-W"})
    index = np.clip(position.to_numpy() - 1, 0, 3)
    score = deal_scores(deals, vul[:, 0], vul[:, 1], partscore_bonus)
    honours = deals["honours"].where(deals["skip"].isna(), 0)
    out = out.assign(
        read_as=shown, dealer=np.array(list(DEALERS))[index], vulnerable=np.array(VUL_NAMES)[
            index], ns_vul=vul[:, 0], ew_vul=vul[:, 1], ns_score=score,
        ns_honours=honours.where(deals["holder"] == "ns", 0).astype("int64"),
        ew_honours=honours.where(deals["holder"] == "ew", 0).astype("int64"),
        entry=np.where(deals["skip"].notna(), "skipped", "deal"))
    ns = np.maximum(out["ns_score"], 0) + out["ns_honours"]
    ew = np.maximum(-out["ns_score"], 0) + out["ew_honours"]
    out["ns_total"] = ns.groupby(number).cumsum()
    out["ew_total"] = ew.groupby(number).cumsum()
    return out.rename(columns={"round_no": "round_number"})


def _round_totals(ledger: pd.DataFrame, rounding: str) -> pd.DataFrame:
    """One row per round: both sides' points, deals played, settlement in hundreds."""
    groups = [g for g in ("table", "round") if g in ledger]
    by = ledger.groupby("round_number", sort=True)
    out = by[[*groups, "ns_total", "ew_total"]].last()
    out["deals"] = by["entry"].apply(lambda e: int((e == "deal").sum()))
    out = out.rename(columns={"ns_total": "ns", "ew_total": "ew"}).reset_index()
    out = out.rename(columns={"round_number": "round"} if "round" not in groups
                     else {"round_number": "round_number"})
    out["settlement"] = settle((out["ns"] - out["ew"]).to_numpy(), rounding)
    return out[[*[c for c in out if c != "deals"], "deals"]]
