"""What the input says it scored, against what we score: the publication it carries.

A PBN or USEBIO file written by another scoring program often gives each line's
matchpoints, percentages, IMPs or Butler datum beside the result (``MP_NS``,
``NS_MATCH_POINTS``, ``ScoreIMP``...). Those figures are a second statement of
the session's scores: each is compared with ours at the precision it is printed
with, and one that differs is listed as a ``published-differs`` warning. Ours
are always the ones used and published.

A line whose publication differs usually means its result or count was changed
after the other program scored it (or the other program is wrong). When much of
a column differs (over a quarter of its lines), the publication was made with
other settings (the 1/0.5 matchpoint scale, another method or convention): the
column is listed once, with how many lines differ and, when the figures are
exactly half or double ours, the scale that would match.
"""

from __future__ import annotations

import numpy as np
import pandas as pd

#: Our column -> the published one it is compared with, and how a director calls it.
PUBLISHED = {"ns_mp": ("published_ns_mp", "published N-S matchpoints"),
             "ew_mp": ("published_ew_mp", "published E-W matchpoints"),
             "ns_pct": ("published_ns_pct", "published N-S percentage"),
             "ew_pct": ("published_ew_pct", "published E-W percentage"),
             "ns_imp": ("published_ns_imp", "published N-S IMPs"),
             "ew_imp": ("published_ew_imp", "published E-W IMPs"),
             "datum": ("published_datum", "published datum")}

#: A column is listed once (a difference of settings) when more than this share of its
#: lines, and at least :data:`_FEW` of them, differ. A line changed after the other
#: program scored it is rare; other settings change many lines (Butler IMPs scored as
#: cross-IMPs: 42 of the 84 lines a real session publishes; the 1/0.5 scale: all but the ties).
_MOST = 0.25
_FEW = 6


def printed_decimals(values: np.ndarray) -> int:
    """The fewest decimals (0 to 4) that show every published value exactly.

    >>> printed_decimals(np.array([12.0, 8.5, 4.25]))
    2
    """
    for decimals in range(5):
        scaled = values * 10.0**decimals
        if np.allclose(scaled, np.round(scaled), atol=1e-6):
            return decimals
    return 4


def differences(travellers: pd.DataFrame) -> pd.DataFrame:
    """``published-differs`` warnings where our figure and the published one differ as
    printed (see the module): one per line, or one ``publication-settings`` warning for a
    column when most of it differs.

    Each published column is compared at the precision it is printed with (the
    fewest decimals that show all its values): ours must round to it, either way
    at an exact half.
    """
    from traveller.problems import combine, flag
    from traveller.words import places

    found = []
    for ours, (theirs, label) in PUBLISHED.items():
        if ours not in travellers or theirs not in travellers:
            continue
        published = pd.to_numeric(travellers[theirs], errors="coerce").to_numpy(dtype=float)
        value = pd.to_numeric(travellers[ours], errors="coerce").to_numpy(dtype=float)
        both = ~np.isnan(published) & ~np.isnan(value)
        if not both.any():
            continue
        decimals = printed_decimals(published[both])
        step = 10.0**-decimals
        off = both & (np.abs(value - published) > step / 2 + 1e-9)
        if not off.any():
            continue
        shown = pd.Series([f"ours {places(v, 4).rstrip('0').rstrip('.')}" for v in value[off]],
                          index=travellers.index[off], dtype="string")
        rows = travellers[off]
        if off.sum() > max(_MOST * both.sum(), _FEW - 1):
            first = rows.iloc[:1]
            found.append(flag(first, "publication-settings", label,
                              first[theirs].astype("string"),
                              _settings_differ(int(off.sum()), int(both.sum()), ours,
                                               published[both], value[both]),
                              blocking=False))
            continue
        found.append(flag(rows, "published-differs", label, rows[theirs].astype("string"),
                          shown, blocking=False))
    return combine(found)


def _settings_differ(off: int, compared: int, ours: str, published: np.ndarray,
                     value: np.ndarray) -> str:
    """Why a whole column differs, as far as the figures tell."""
    lines = f"{off} of the {compared} lines differ, the first this one"
    if ours.endswith("_mp"):
        if np.allclose(published * 2, value, atol=0.051):
            return (f"{lines}; every published figure is half ours: the 1/0.5 scale "
                    "(--scale 1/0.5)")
        if np.allclose(published, value * 2, atol=0.051):
            return (f"{lines}; every published figure is double ours: the 2/1/0 scale "
                    "(--scale 2/1/0)")
    return lines
