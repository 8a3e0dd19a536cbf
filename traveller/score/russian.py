"""Russian (IMP) scoring against an HCP target, for Chicago or duplicate (docs/scoring.md).

After each deal the side holding more high-card points (A 4, K 3, Q 2, J 1;
40 in all) has a target score, looked up by its HCP and ITS vulnerability in
:data:`TARGET`. The actual score from that side's view minus the target is
turned into IMPs; here the result is given from N-S's view as ``ns_imp``
(``ew_imp`` = -ns_imp). At 20-20 the target is 0.

Some printed copies of the target table have its two rows swapped; the
worked example (E-W vulnerable with 24 HCP, target 290, 3♥+1 = 170, -3 IMPs)
shows that the higher row is the vulnerable one, as in :data:`TARGET`.

Vulnerability comes, in order of preference, from boolean ``ns_vul``/``ew_vul``
columns; with ``chicago=True`` from the Chicago deal number 1-4 (``deal``
column, else ``board`` counted round 1-4): deal 1 none, 2 and 3 the dealer's
side (dealer N E S W in turn, so 2 = E-W, 3 = N-S), 4 both; otherwise from the
board number by the duplicate cycle of :data:`traveller.score.table.VULNERABILITY`.

HCP come from ``ns_hcp`` (with ``ew_hcp``, which must make 40) or ``hcp``
(N-S's HCP; E-W hold the rest).
"""

from __future__ import annotations

import numpy as np
import pandas as pd

from traveller.score.imps import imps
from traveller.score.table import VULNERABILITY

#: Target score by [vulnerable 0/1][HCP of the stronger side, 20-40].
TARGET = np.array(
    [
        [0, 50, 70, 110, 200, 300, 350, 400, 430, 460, 490, 600, 700, 900, 1000, 1100,
         1200, 1300, 1300, 1300, 1300],
        [0, 50, 70, 110, 290, 440, 520, 600, 630, 660, 690, 900, 1050, 1350, 1500, 1650,
         1800, 1950, 1950, 1950, 1950],
    ]
)  # fmt: skip
TARGET.flags.writeable = False

#: Chicago vulnerability by deal 1-4: (N-S vulnerable, E-W vulnerable).
CHICAGO_VULNERABILITY = [(False, False), (False, True), (True, False), (True, True)]

_DUP_VUL = np.array(VULNERABILITY, dtype=bool)
_CHICAGO_VUL = np.array(CHICAGO_VULNERABILITY, dtype=bool)


def target(hcp: np.ndarray, vulnerable: np.ndarray) -> np.ndarray:
    """Target score for the stronger side's HCP (20-40) and vulnerability.

    >>> target(np.array([24, 24, 20, 40]), np.array([True, False, False, True])).tolist()
    [290, 200, 0, 1950]
    """
    h = np.asarray(hcp, dtype=np.int64)
    if ((h < 20) | (h > 40)).any():
        raise ValueError("the stronger side's HCP must be 20-40")
    return TARGET[np.asarray(vulnerable, dtype=np.intp), h - 20]


def _ns_hcp(frame: pd.DataFrame) -> np.ndarray:
    """N-S HCP as float (NaN where unknown), checked to be 0-40 and to make 40 with E-W."""
    if "ns_hcp" in frame:
        ns = frame["ns_hcp"].astype("Float64").to_numpy(dtype=np.float64, na_value=np.nan)
        if "ew_hcp" in frame:
            ew = frame["ew_hcp"].astype("Float64").to_numpy(dtype=np.float64, na_value=np.nan)
            if (np.abs(ns + ew - 40) > 0).any():
                raise ValueError("ns_hcp + ew_hcp must be 40 on every row")
    elif "hcp" in frame:
        ns = frame["hcp"].astype("Float64").to_numpy(dtype=np.float64, na_value=np.nan)
    else:
        raise ValueError("Russian scoring needs an 'hcp' or 'ns_hcp' column")
    if ((ns < 0) | (ns > 40)).any():
        raise ValueError("HCP must be 0-40")
    return ns


def vulnerability(frame: pd.DataFrame, chicago: bool = False) -> tuple[np.ndarray, np.ndarray]:
    """(N-S vulnerable, E-W vulnerable) per row, from columns, the Chicago deal or the board.

    >>> vulnerability(pd.DataFrame({"board": [1, 2, 3, 4]}), chicago=True)[1].tolist()
    [False, True, False, True]
    """
    if "ns_vul" in frame and "ew_vul" in frame:
        return (frame["ns_vul"].astype(bool).to_numpy(), frame["ew_vul"].astype(bool).to_numpy())
    if chicago:
        deal = frame["deal"] if "deal" in frame else frame["board"]
        vul = _CHICAGO_VUL[(deal.astype("Int64").fillna(1).to_numpy(dtype=np.int64) - 1) % 4]
    else:
        vul = _DUP_VUL[(frame["board"].astype("Int64").fillna(1).to_numpy(dtype=np.int64) - 1) % 16]
    return vul[:, 0], vul[:, 1]


def russian_imps(frame: pd.DataFrame, chicago: bool = False) -> pd.DataFrame:
    """Russian scoring: adds ``target`` (for the stronger side), ``ns_imp`` and ``ew_imp``.

    ``target`` is from the stronger side's view (N-S at 20-20); all three are
    Int64 and <NA> where the score or the HCP is missing.

    >>> df = pd.DataFrame({"board": [2], "ns_score": [-170], "hcp": [16]})
    >>> russian_imps(df, chicago=True)[["target", "ns_imp", "ew_imp"]].values.tolist()
    [[290, 3, -3]]
    """
    out = frame.copy()
    ns_hcp = _ns_hcp(out)
    score = out["ns_score"].astype("Float64").to_numpy(dtype=np.float64, na_value=np.nan)
    known = ~np.isnan(ns_hcp) & ~np.isnan(score)
    ns_vul, ew_vul = vulnerability(out, chicago)
    ns_strong = np.nan_to_num(ns_hcp, nan=20) >= 20
    sign = np.where(ns_strong, 1, -1)
    strong_hcp = np.where(ns_strong, np.nan_to_num(ns_hcp, nan=20), 40 - ns_hcp)
    goal = target(strong_hcp, np.where(ns_strong, ns_vul, ew_vul)).astype(np.float64)
    ns_imp = sign * imps(np.where(known, sign * score - goal, np.nan))
    out["target"] = pd.array(np.where(known, goal, np.nan), dtype="Float64").astype("Int64")
    out["ns_imp"] = pd.array(ns_imp, dtype="Float64").astype("Int64")
    out["ew_imp"] = -out["ns_imp"]
    return out
