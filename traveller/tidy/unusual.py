"""Legal but improbable results: ``unusual-score`` warnings, as scoring programs give.

They catch a mistyped declarer or result that still makes a legal score:

* a score that is the mirror of the field's: the highest or lowest score on
  its board, alone on its side of zero, at least 500 from the nearest other
  score, more than twice as far as the other scores spread, and within
  ``MIRROR`` of minus one of them (+420 five times and -420 once: the
  declarer was probably typed on the wrong side; a game one down among
  games made is not listed);
* a slam bid and made at one table only, taking the same tricks in the same
  strain by the same side as a partscore three or more levels lower elsewhere
  (6S making 12 beside 2S making 12: one of the two levels is probably
  mistyped).

Warnings only: the row is scored as read and listed for the director to check.
"""

from __future__ import annotations

import numpy as np
import pandas as pd

from traveller.problems import flag

#: The least gap to the nearest other score that can make a score unusual.
MIN_GAP = 500
#: How close -score must come to another score on the board to be its mirror.
MIRROR = 50
#: Boards with fewer results than this are not judged (too few to know the field).
MIN_RESULTS = 4


def unusual_scores(scored: pd.DataFrame) -> pd.DataFrame:
    """``unusual-score`` warnings for the scored results (see the module docstring)."""
    if scored.empty or "ns_score" not in scored:
        return flag(scored.iloc[:0], "unusual-score", "")
    plain = scored[scored["ruling_kind"].isna()] if "ruling_kind" in scored else scored
    plain = plain[plain["ns_score"].notna()]
    return pd.concat([_outliers(plain), _lone_slams(plain)])


def _outliers(frame: pd.DataFrame) -> pd.DataFrame:
    keys = [frame["section"].astype("string").fillna(""), frame["board"]]
    score = frame["ns_score"].astype("float64")
    grouped = score.groupby(keys, observed=True, sort=False)
    n = grouped.transform("size")
    top, bottom = grouped.transform("max"), grouped.transform("min")
    # the second highest / lowest, with the extreme itself counted once
    ranked_desc = grouped.rank(method="first", ascending=False)
    ranked_asc = grouped.rank(method="first", ascending=True)
    second_top = score.where(ranked_desc == 2).groupby(keys, observed=True).transform("max")
    second_bottom = score.where(ranked_asc == 2).groupby(keys, observed=True).transform("min")
    gap_top, gap_bottom = top - second_top, second_bottom - bottom
    # the lone result on the other side of zero from all the field (a bid slam beside
    # games is a big gap too, but of the same sign)
    high = (score == top) & (ranked_desc == 1) & (gap_top >= MIN_GAP) \
        & (gap_top > 2 * (second_top - bottom)) & (score > 0) & (second_top <= 0)
    low = (score == bottom) & (ranked_asc == 1) & (gap_bottom >= MIN_GAP) \
        & (gap_bottom > 2 * (top - second_bottom)) & (score < 0) & (second_bottom >= 0)
    mirrored = _mirrors(frame, keys, score)
    mask = ((high | low) & mirrored & (n >= MIN_RESULTS)).to_numpy()
    rows = frame[mask]
    others_low = np.where(high[mask], bottom[mask], second_bottom[mask])
    others_high = np.where(high[mask], second_top[mask], top[mask])
    detail = pd.Series([f"N-S {int(s):+d} where the other results on board {b} are "
                        f"{int(lo):+d} to {int(hi):+d}"
                        for s, b, lo, hi in zip(rows["ns_score"], rows["board"], others_low,
                                                others_high, strict=True)],
                       index=rows.index, dtype="string")
    return flag(rows, "unusual-score", "score", rows["ns_score"], detail, blocking=False)


def _mirrors(frame: pd.DataFrame, keys: list[pd.Series], score: pd.Series) -> pd.Series:
    """True where minus the score lies within MIRROR of another score on the same board."""
    board = pd.Series(pd.factorize(pd.MultiIndex.from_arrays(keys))[0], index=frame.index)
    table = pd.DataFrame({"board": board, "score": score}).sort_values(["board", "score"])
    probe = pd.DataFrame({"board": board, "score": -score, "i": frame.index})
    probe = probe.sort_values("score")
    found = pd.merge_asof(probe, table.rename(columns={"score": "near"}).assign(
        score=table["score"]).sort_values("score"), on="score", by="board",
        direction="nearest")
    close = (found["near"] - found["score"]).abs() <= MIRROR
    return pd.Series(close.to_numpy(), index=found["i"].to_numpy()).reindex(frame.index,
                                                                              fill_value=False)


def _lone_slams(frame: pd.DataFrame) -> pd.DataFrame:
    level = frame["level"].astype("float64")
    tricks = frame["tricks"].astype("float64")
    side = frame["declarer"].astype("string").map({"N": "NS", "S": "NS", "E": "EW", "W": "EW"})
    key = pd.DataFrame({"section": frame["section"].astype("string").fillna(""),
                        "board": frame["board"], "side": side,
                        "strain": frame["strain"].astype("string"), "tricks": tricks})
    slam = (level >= 6) & (tricks >= level + 6)
    slams_on_board = slam.groupby([key["section"], key["board"]], observed=True).transform("sum")
    # a partscore three levels or more below the slam (2S+4 beside 6S=): one of the
    # two levels was likely mistyped; 4C+2 beside 6C= is just a missed slam
    part = (level >= 1) & (level <= 3) & (key["strain"] != "NT")
    partscores = key[part.to_numpy()].drop_duplicates()
    lone = key[(slam & (slams_on_board == 1)).to_numpy()]
    hit = lone.reset_index().merge(partscores, on=list(key.columns))["index"]
    rows = frame.loc[hit]
    detail = ("the only slam on board " + rows["board"].astype("string") + ", taking the "
              + rows["tricks"].astype("string") + " tricks a partscore took elsewhere")
    return flag(rows, "unusual-score", "contract", rows["contract"], detail, blocking=False)
