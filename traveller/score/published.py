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
        rows = travellers[off]
        if _most(int(off.sum()), int(both.sum())):
            first = rows.iloc[:1]
            found.append(flag(first, "publication-settings", label,
                              first[theirs].astype("string"),
                              _settings_differ(int(off.sum()), int(both.sum()), ours,
                                               published[both], value[both]),
                              blocking=False))
            continue
        shown = pd.Series([f"ours {_figure(v)}" for v in value[off]], index=rows.index,
                          dtype="string")
        found.append(flag(rows, "published-differs", label, rows[theirs].astype("string"),
                          shown, blocking=False))
    return combine(found)


#: The codes of the published figures that differ from ours.
DIFFERS = ("published-differs", "publication-settings")


def differing(problems: pd.DataFrame) -> int:
    """How many ``published-differs`` and ``publication-settings`` warnings ``problems`` has."""
    return int(problems["code"].isin(DIFFERS).sum()) if len(problems) else 0


def profile_hint(travellers: pd.DataFrame, stated: tuple[str, str], profile: str,
                 before: int, after: int) -> pd.DataFrame:
    """One ``profile-suggested`` warning for the file (no row): the program that wrote it
    (``stated``: the tag and the name it gives) has a profile, ``profile``, with which
    ``after`` of the ``before`` warnings about its published figures remain.

    >>> t = pd.DataFrame({"file": ["s.xml"], "sheet": [""], "row": [7]})
    >>> profile_hint(t, ("PROGRAM_NAME", "Compscore3"), "compscore", 2, 0)["message"].iloc[0]
    ... # doctest: +NORMALIZE_WHITESPACE
    "s.xml, PROGRAM_NAME 'Compscore3': the input was written by a program traveller has a
    profile for, and its published figures agree better with ours scored with that profile
    (with --as compscore, none of the 2 warnings about them here remains); rerun with the
    --as the message names, if the session was scored with that program's settings"
    """
    from traveller.problems import flag

    file = travellers.iloc[:1].assign(row=pd.array([pd.NA], dtype="Int64"))  # not a row
    if before == 1:
        remains = "the warning about them here goes away"
    elif after == 0:
        remains = f"none of the {before} warnings about them here remains"
    else:
        remains = f"{after} of the {before} warnings about them here remain"
    return flag(file, "profile-suggested", stated[0],
                pd.Series([stated[1]], index=file.index, dtype="string"),
                f"with --as {profile}, {remains}", blocking=False)


def _most(off: int, compared: int) -> bool:
    """Whether so much of a column differs that the publication used other settings."""
    return off > max(_MOST * compared, _FEW - 1)


def _figure(value: float) -> str:
    """Our figure as the messages give it: up to 4 decimals, no trailing zeros."""
    from traveller.words import places

    return places(value, 4).rstrip("0").rstrip(".")


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


#: A published ranking column -> how a director calls it, and our columns it may be: a
#: matchpoint total factored or not (programs differ), IMPs or total points in all or a
#: board's average.
RANKED = {"published_total": ("published total", ("mp_factored", "mp", "imps", "points",
                                                  "average")),
          "published_pct": ("published percentage", ("pct",))}


def ranking_differences(ranking: pd.DataFrame, names: pd.DataFrame | None, movement: str,
                        file: str, sheet: str) -> pd.DataFrame:
    """``published-differs`` warnings where the input's own ranking (a PBN
    TotalScoreTable's or a USEBIO file's total, percentage and place of each pair)
    is not ours as printed; one ``publication-settings`` warning for a column when
    much of it differs, as for the lines (:func:`differences`).

    A total agrees when it is our matchpoints, factored or not, or our IMPs (total
    points), in all or a board's average (programs publish either). A place is
    compared only where the pair's total agrees (a different total moves the place
    with it), by its number (``3=``, ``3-4`` and ``3`` are the same place here).
    """
    from traveller.problems import combine

    if names is None or names.empty or "pair" not in ranking or "pair" not in names:
        return combine([])
    keys = ["section", "pair"] if movement != "mitchell" else ["section", "line", "pair"]
    published = [c for c in (*RANKED, "published_place") if c in names]
    if not published or not set(keys) <= set(names) & set(ranking):
        return combine([])
    theirs = names[[*keys, *published]].drop_duplicates(keys, keep=False)
    theirs = theirs.assign(pair=pd.to_numeric(theirs["pair"], errors="coerce"))
    ours = ranking.assign(pair=pd.to_numeric(ranking["pair"], errors="coerce"))
    both = ours.merge(theirs, on=keys, how="inner", suffixes=("", "_theirs"))
    found: list[pd.DataFrame] = []
    total_agrees = np.ones(len(both), dtype=bool)
    for column, (label, candidates) in RANKED.items():
        if column not in both:
            continue
        value = pd.to_numeric(both[column], errors="coerce").to_numpy(dtype=float)
        known = ~np.isnan(value)
        mine = [c for c in candidates if c in both]
        if not known.any() or not mine:
            continue
        step = 10.0 ** -printed_decimals(value[known])
        figures = np.stack([pd.to_numeric(both[c], errors="coerce").to_numpy(dtype=float)
                            for c in mine], axis=1)
        near = np.abs(figures - value[:, None]) <= step / 2 + 1e-9
        off = known & ~near.any(axis=1)
        if column == "published_total":
            total_agrees = ~off
        closest = figures[np.arange(len(both)), np.nanargmin(
            np.where(np.isnan(figures), np.inf, np.abs(figures - value[:, None])), axis=1)]
        found.append(_pair_problems(both, off, label, both[column], closest, file, sheet))
    if "published_place" in both:
        said = both["published_place"].astype("string").str.extract(r"^\s*(\d+)")[0]
        mine_place = both["place"].astype("string").str.extract(r"^\s*(\d+)")[0]
        off = (said.notna() & (said != mine_place)).to_numpy(dtype=bool) & total_agrees
        found.append(_pair_problems(both, off, "published place", both["published_place"],
                                    both["place"].astype("string").to_numpy(), file, sheet))
    return combine(found)


def _pair_problems(both: pd.DataFrame, off: np.ndarray, label: str, typed: pd.Series,
                   ours: np.ndarray, file: str, sheet: str) -> pd.DataFrame:
    """The problem rows of the pairs ``off`` (one for the column when most of it is)."""
    from traveller.errors import PROBLEM_CODES
    from traveller.problems import FIXES, combine

    compared = int(typed.notna().sum())
    if not off.any():
        return combine([])
    at = np.flatnonzero(off)
    shown = [v if isinstance(v, str) else "none" if pd.isna(v) else _figure(float(v))
             for v in ours[at]]
    pairs = [_pair_name(both.iloc[i]) for i in at.tolist()]
    who = [f"{p} ({n})" if n else p for p, n in pairs]
    cells = typed.astype("string").fillna("").to_numpy()[at]
    place = f"{file.replace(chr(92), '/').rsplit('/', 1)[-1]}" + (f" [{sheet}]" if sheet else "")
    if _most(len(at), compared):
        code = "publication-settings"
        columns = [label]
        details = [f"{len(at)} of the {compared} pairs differ; the first, pair {who[0]}: "
                   f"ours {shown[0]}"]
        cells, at = cells[:1], at[:1]
    else:
        code = "published-differs"
        columns = [f"{label}, pair {p}" for p, _ in pairs]  # (the names are in the message)
        details = [f"ours {s}" for s in shown]
    said = [label] if code == "publication-settings" else [f"{label} of pair {w}" for w in who]
    messages = [f"{place}, {c} '{v}': {PROBLEM_CODES[code]} ({d}); {FIXES[code]}"
                for c, v, d in zip(said, cells, details, strict=True)]
    return pd.DataFrame({"file": file, "sheet": sheet, "row": pd.array([pd.NA] * len(at),
                                                                         dtype="Int64"),
                         "column": columns, "value": pd.array(cells, dtype="string"),
                         "code": code, "severity": "warning", "message": messages,
                         "blocking": False})


def _pair_name(row: pd.Series) -> tuple[str, str]:
    """("4 N-S", "Ann – Bob"), ("A12", ""): a pair as the ranking shows it, and its names."""
    line = {"NS": " N-S", "EW": " E-W"}.get(str(row.get("line") or ""), "")
    number = row["pair"]
    label = f"{row.get('section') or ''}{int(number) if pd.notna(number) else '?'}{line}"
    names = row.get("names")
    return label, names if isinstance(names, str) else ""
