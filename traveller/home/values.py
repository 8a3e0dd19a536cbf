"""Rubber-bridge values of one deal, as tables, and the settlement in hundreds.

A rubber deal scores like a duplicate result (:mod:`traveller.score.table`)
without the game and part-score bonuses: trick points go *below the line*
and count toward game; overtricks, the bonus for making a doubled contract
("insult") and slam bonuses go *above the line*; undertricks go above the
line to the defenders. The rubber bonus and honours are added by the rubber
itself (:mod:`traveller.home.rubber`), not per contract.

Two rule sets:

- ``modern`` (today's Laws of Contract Bridge): every value as in duplicate;
- ``classic``, the older table still printed in Russian rubber-bridge books,
  which differs in three places (:data:`CLASSIC_DIFFERENCES`): a doubled
  not-vulnerable contract goes down 100 for the first undertrick and 200 for
  each after it (no 300 from the fourth); making a redoubled contract earns
  50 like a doubled one; a grand slam not vulnerable is worth 750.

Three-handed bridge adds *nullo* (strain ``NL``): n nullo promises to take at
most 7 - n tricks. Its trick value is 30 a level; it is scored like a no-trump
contract played for the tricks the defenders take (making 3 nullo with 3
tricks is 3NT making 10 tricks: 90 below, 30 above for the overtrick).
"""

from __future__ import annotations

import numpy as np

from traveller.schema import STRAINS
from traveller.score.table import (
    UNDERTRICK_UNDOUBLED,
    UNDERTRICKS_DOUBLED,
    contract_points,
    overtrick_value,
    slam_bonus,
    undertrick_penalty,
)

RULES = ("modern", "classic")
#: Strains of home games: the duplicate ones and nullo (three-handed only).
HOME_STRAINS = [*STRAINS, "NL"]
NULLO = HOME_STRAINS.index("NL")
NT = STRAINS.index("NT")
NULLO_TRICK_VALUE = 30

#: Where the classic rubber table differs from the modern one (the rest is identical).
CLASSIC_DIFFERENCES = {
    "undertricks doubled, not vulnerable (1st, 2nd, 3rd, 4th+)": ((100, 200, 200, 300),
                                                                  (100, 200, 200, 200)),
    "making a redoubled contract": (100, 50),
    "grand slam, not vulnerable": (1000, 750),
}

#: Per-undertrick doubled penalties (1st, 2nd, 3rd, 4th and after) by rule set and vulnerability.
UNDERTRICKS_DOUBLED_BY_RULES = {
    "modern": UNDERTRICKS_DOUBLED,
    "classic": {False: (100, 200, 200, 200), True: UNDERTRICKS_DOUBLED[True]},
}
#: Bonus for making a contract (undoubled, doubled, redoubled) by rule set.
INSULT = {"modern": (0, 50, 100), "classic": (0, 50, 50)}
#: Grand slam bonus (not vulnerable, vulnerable) by rule set; small slam is 500/750 in both.
GRAND_SLAM = {"modern": (1000, 1500), "classic": (750, 1500)}

#: Honours: four trump honours in one hand; five, or four aces at no trump (and nullo).
HONOURS_FOUR, HONOURS_FIVE = 100, 150


def trick_points(level: int, strain: int, doubled: int) -> int:
    """Points below the line for a contract made (nullo: 30 a level)."""
    if strain == NULLO:
        return NULLO_TRICK_VALUE * level * (1, 2, 4)[doubled]
    return contract_points(level, strain, doubled)


def rubber_slam_bonus(level: int, vul: bool, rules: str) -> int:
    """Small slam 500/750; grand slam 1000/1500 (classic: 750 not vulnerable)."""
    if level == 7:
        return GRAND_SLAM[rules][vul]
    return slam_bonus(level, vul)


def rubber_undertricks(down: int, doubled: int, vul: bool, rules: str) -> int:
    """Penalty to the defenders for ``down`` undertricks under ``rules``."""
    if rules == "modern":
        return undertrick_penalty(down, doubled, vul)
    if doubled == 0:
        return down * UNDERTRICK_UNDOUBLED[vul]
    steps = UNDERTRICKS_DOUBLED_BY_RULES[rules][vul]
    return sum(steps[min(i, 3)] for i in range(down)) * doubled


def deal_values(level: int, strain: int, doubled: int, vul: bool, tricks: int,
                rules: str = "modern") -> tuple[int, int, int]:
    """(below, above, penalty) of one contract: declarer's points and the defenders'.

    ``tricks`` are the declarer's; for nullo they are mirrored (the contract
    is made on the tricks the defenders take). A passed-out deal is (0, 0, 0).

    >>> deal_values(4, 2, 0, False, 11)  # 4H+1
    (120, 30, 0)
    >>> deal_values(3, NULLO, 0, False, 3)  # 3 nullo with one trick to spare
    (90, 30, 0)
    """
    if level == 0:
        return 0, 0, 0
    took = 13 - tricks if strain == NULLO else tricks
    need = level + 6
    if took < need:
        return 0, 0, rubber_undertricks(need - took, doubled, vul, rules)
    over = (took - need) * overtrick_value(min(strain, NT), doubled, vul)
    above = over + INSULT[rules][doubled] + rubber_slam_bonus(level, vul, rules)
    return trick_points(level, strain, doubled), above, 0


def _build(rules: str) -> np.ndarray:
    table = np.zeros((8, len(HOME_STRAINS), 3, 2, 14, 3), dtype=np.int32)
    for index in np.ndindex(table.shape[:5]):
        level, strain, doubled, vul, tricks = (int(i) for i in index)
        table[index] = deal_values(level, strain, doubled, bool(vul), tricks, rules)
    table.flags.writeable = False
    return table


#: (below, above, penalty) by rule set, then [level, strain, doubled, vulnerable, tricks].
DEAL_TABLE = {rules: _build(rules) for rules in RULES}


def lookup(rules: str, level: np.ndarray, strain: np.ndarray, doubled: np.ndarray,
           vul: np.ndarray, tricks: np.ndarray) -> np.ndarray:
    """(below, above, penalty) for arrays of deals: one fancy index, shape (n, 3)."""
    return DEAL_TABLE[rules][level, strain, doubled, vul.astype(np.intp), tricks]


def settle(points: np.ndarray | int, rounding: str = "half-up") -> np.ndarray:
    """A points difference in whole hundreds; an exact 50 goes to the winner (``half-up``).

    Rounding works on the size of the difference, so the result does not
    depend on which side is written first; ``half-down`` drops an exact 50.

    >>> settle(np.array([450, -450, 449, 550, -50, 0])).tolist()
    [5, -5, 4, 6, -1, 0]
    >>> settle(np.array([450, -450, 451]), "half-down").tolist()
    [4, -4, 5]
    """
    if rounding not in SETTLE_ROUNDINGS:
        raise ValueError(f"unknown settle rounding {rounding!r}; choose "
                         f"{' or '.join(SETTLE_ROUNDINGS)}")
    diff = np.asarray(points, dtype=np.int64)
    size = np.abs(diff)
    whole, rest = np.divmod(size, 100)
    up = (rest > 50) | ((rest == 50) & (rounding == "half-up"))
    return np.sign(diff) * (whole + up)


SETTLE_ROUNDINGS = ("half-up", "half-down")
