"""Master points of a session from its ranking, by a scale read as data (read/scales.py).

Each field is awarded apart: a line of a Mitchell, or the whole of a Howell (an
arrow-switched Mitchell, ranked as one, is a Howell here). The first-place
award comes from the scale's rule for that kind of field, so many places are
paid, place n gets its award from the scale's place rule, tied contestants
share equally the awards of the places they occupy, and only then is each
award rounded once and raised to the scale's minimum. The arithmetic is in
exact decimals: 1.50 x 0.35 is 0.525 and rounds half up to 0.53.
"""

from __future__ import annotations

import itertools
import math
from decimal import ROUND_CEILING, ROUND_FLOOR, ROUND_HALF_EVEN, ROUND_HALF_UP, Decimal
from fractions import Fraction

import numpy as np
import pandas as pd

from traveller.read.scales import PointsScale, ScaleError
from traveller.words import plural

_ROUNDING = {"half-up": ROUND_HALF_UP, "up": ROUND_CEILING, "down": ROUND_FLOOR,
             "half-even": ROUND_HALF_EVEN}
#: Methods whose places follow the scale's team rule when it has one.
TEAM_METHODS = ("teams", "butler")
POINTS_COLUMNS = ["section", "line", "pair", "player", "player_id", "place", "award", "scale"]


def tables_of(kind: str, contestants: int) -> int:
    """Tables of a field, half tables up: a Mitchell line's pairs, a Howell's pairs / 2."""
    per_table = {"mitchell": 1, "howell": 2, "individual": 4}[kind]
    return -(-contestants // per_table)


def first_award(scale: PointsScale, kind: str, contestants: int, boards: int = 0) -> Decimal:
    """The (unrounded) first-place award of a field of ``contestants`` of ``kind``."""
    if scale.fixed_first is not None:
        return scale.fixed_first
    scale.check_inputs()
    fallback = ("howell", "any") if kind == "individual" else ("any",)
    rule = next((scale.first[k] for k in (kind, *fallback) if k in scale.first), None)
    if rule is None:
        raise ScaleError(f"{scale.source}: no first-place rule for a {kind} field; add "
                         f"[first.{kind}] to the scale or give first=... as an input")
    tables = tables_of(kind, contestants)
    count = tables if rule.per == "tables" else contestants
    if rule.table:
        for movement, t0, t1, b0, b1, award in rule.table:
            if movement in (kind, "any") and t0 <= tables <= t1 and b0 <= boards <= b1:
                return award
        raise ScaleError(f"{scale.source}: the first-place table has no entry for a {kind} "
                         f"of {plural(tables, 'table')} and {plural(boards, 'board')}; give the "
                         f"award as an input, e.g. --points {scale.source}:first=24, or add "
                         "the row")
    if rule.rate is None:
        raise ScaleError(f"{scale.source}: the first-place rule for a {kind} has no rate")
    if rule.up_to is not None and rule.decay and count > rule.up_to:
        first = scale.weight * (1 - (Decimal(-count) / rule.decay).exp())
    else:
        first = scale.weight * rule.rate * count
    return min(first, rule.cap) if rule.cap is not None else first


def places_paid(scale: PointsScale, contestants: int, method: str = "mp") -> int:
    """How many places a field of ``contestants`` pays."""
    places = scale.places.get("teams" if method in TEAM_METHODS else "pairs",
                              scale.places["pairs"])
    exact = places.share * contestants
    if places.round == "down":
        n = math.floor(exact)
    elif places.round == "up":
        n = math.ceil(exact)
    else:
        n = math.floor(exact + Fraction(1, 2))
    return max(0, min(n, contestants))


def place_award(scale: PointsScale, first: Decimal, n: int, paid: int,
                contestants: int) -> Decimal:
    """The unrounded award of place ``n`` (1-based); 0 past the places paid."""
    if n > paid or n < 1:
        return Decimal(0)
    if scale.rule == "steps":
        return first * (paid - n + 1) / paid
    if scale.rule == "curve":
        return _on_curve(scale, first, Decimal(n - 1) / contestants)
    if n <= len(scale.shares):
        return first * scale.shares[n - 1]
    return first / (n + scale.then_offset)


def _on_curve(scale: PointsScale, first: Decimal, at: Decimal) -> Decimal:
    """The curve's value at ``at`` (share of the field ahead): straight lines between knots."""
    knots = [(f, first * s) for f, s in scale.curve] + [(scale.curve_end, scale.rest)]
    if at >= scale.curve_end:
        return scale.rest
    for (f0, v0), (f1, v1) in itertools.pairwise(knots):
        if f0 <= at <= f1:
            return v0 if f1 == f0 else v0 + (v1 - v0) * (at - f0) / (f1 - f0)
    return first


def rounded(scale: PointsScale, value: Decimal) -> Decimal:
    """One award rounded as the scale says, at least its minimum when it is paid at all."""
    out = value.quantize(Decimal(1).scaleb(-scale.decimals), rounding=_ROUNDING[scale.rounding])
    return max(out, scale.minimum) if value > 0 else out


def field_awards(scale: PointsScale, places: list[int], kind: str, *, boards: int = 0,
                 method: str = "mp") -> list[Decimal]:
    """Each contestant's award from the places of one field (1, 2, 2, 4: a tie for 2nd).

    Tied contestants (equal place) share equally the awards of the places they
    occupy (2nd and 3rd above), then each share is rounded.

    >>> from traveller.read.scales import read_scale
    >>> [str(a) for a in field_awards(read_scale("acbl"), list(range(1, 9)), "howell")]
    ['0.80', '0.56', '0.40', '0.00', '0.00', '0.00', '0.00', '0.00']
    """
    n = len(places)
    if n == 0:
        return []
    first = first_award(scale, kind, n, boards)
    paid = places_paid(scale, n, method)
    ladder = [place_award(scale, first, p, paid, n) for p in range(1, n + 1)]
    tied = pd.Series(places).value_counts().to_dict()
    out = []
    for p in places:
        k = int(tied[p])
        share = sum(ladder[p - 1:p - 1 + k], Decimal(0)) / k
        out.append(rounded(scale, share))
    return out


def place_numbers(labels: pd.Series) -> np.ndarray:
    """Places as numbers from their labels ("3", "2="); 0 where there is none."""
    text = labels.astype("string").fillna("").str.extract(r"^\s*(\d+)")[0]
    return pd.to_numeric(text, errors="coerce").fillna(0).to_numpy(dtype=np.int64)


def session_points(ranking: pd.DataFrame, players: pd.DataFrame, scale: PointsScale, *,
                   boards: int = 0, method: str = "mp", by_section: bool = True
                   ) -> tuple[pd.DataFrame, pd.Series]:
    """The points frame (one row per player) and each ranking row's award per player.

    ``players`` has section, line, pair, player, player_id (one row per player,
    see :func:`traveller.score.players.players_of`). Each (section, line) of the
    ranking is one field (each line across the sections when they were ranked as
    one field, ``by_section=False``); a blank line is a Howell's field.
    """
    place = place_numbers(ranking["place"]) if len(ranking) else np.zeros(0, np.int64)
    award = pd.Series(np.nan, index=ranking.index, dtype="float64")
    section = ranking["section"].astype("string").fillna("")
    line = ranking["line"].astype("string").fillna("")
    field_of = section if by_section else pd.Series("", index=ranking.index)
    for (_s, ln), index in ranking.groupby([field_of, line], sort=False).indices.items():
        ranked = index[place[index] > 0]
        kind = "mitchell" if ln in ("NS", "EW") else "howell"
        awards = field_awards(scale, place[ranked].tolist(), kind, boards=boards,
                              method=method)
        award.iloc[ranked] = [float(a) for a in awards]
    pairs = pd.DataFrame({"section": section.to_numpy(), "line": line.to_numpy(),
                          "pair": ranking["pair"].astype("Int64").to_numpy(),
                          "place": ranking["place"].astype("string").to_numpy(),
                          "award": award.to_numpy()})
    keyed = players.astype({"section": "string", "line": "string", "pair": "Int64"})
    frame = pairs.merge(keyed, on=["section", "line", "pair"], how="inner", sort=False)
    frame["scale"] = scale.name
    frame = frame[frame["award"].notna()]
    return frame[POINTS_COLUMNS].reset_index(drop=True), award.round(scale.decimals)
