"""The scoring options, kept free of pandas so that a batch run can hash its
settings (and skip every unchanged file) without loading the pipeline.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from typing import Any

#: The command-line choices, spelled out here so the commands start without pandas
#: (tests/test_cli.py checks them against the scoring modules).
SCALES = ("2/1/0", "1/0.5")
NOTATIONS = ("en", "pl", "ru")
METHODS = ("mp", "ximp", "butler", "total", "russian", "teams")

SECTIONS = ("apart", "field")
DIVISORS = ("n-1", "n", "none")
ROUNDINGS = ("half-away", "half-even", "half-up")
UNKNOWN_PAIRS = ("problem", "field")
ADJUSTED_BOARDS = ("neuberg", "among-real")
TOTALS = ("matchpoints", "mean-of-boards")
DATUMS = ("mean", "median", "table-median")
RANK_BY = ("average", "total")
SIT_OUTS = ("not-played", "average")

#: The keyword options of :func:`traveller.pipeline.process` and their defaults
#: (tests/test_batch_settings.py checks them against its signature). Its ``progress``
#: callback is no setting of the scoring (nor of a batch folder), so not one of them.
PROCESS_DEFAULTS: dict[str, Any] = {"scale": "2/1/0", "movement": "auto", "notation": None,
                                    "names": None, "encoding": None, "options": None,
                                    "hands": None, "dd": True, "points": None}


#: Butler's trim beyond this would drop more results than any board has.
MAX_TRIM = 1000


@dataclass(frozen=True)
class Options:
    """How rulings and the tournament structure are scored (docs/rulings.md).

    Attributes:
        adjusted_session_pct: average-plus is the better of 60 % and the pair's session
            percentage, average-minus the worse of 40 % and it (EBU/WBF Law 12C2
            option). Off by default: plain 60/40, the Laws' minimum.
        phantom_award: % of the top given to a pair against the phantom (TD/Bye
            lines; e.g. 60). None (default): the board counts as not played and
            the pair's total is factored, as for any sit-out.
        phantom: pair numbers of the phantom ("18", or "EW18" for one line);
            found by themselves when every row of a pair is a TD/Bye line.
        sections: "apart" (default): each section matchpointed and ranked on its
            own; "field": across the whole field.
        one_ranking: rank both lines of a Mitchell together (one winner).
        arrow_switch: boards on which every table switched the arrow (besides an
            Arrow column in the sheet).
        method: "mp" (matchpoints, default), "ximp", "butler", "total", "russian"
            or "teams" (see :mod:`traveller.score.methods`).
        divisor: cross-IMPs divided by "n-1" (default), "n" or "none".
        trim: Butler: results dropped at each end for the datum (default 1).
        datum_rounding: Butler datum to 10, "half-away" (default) or "half-even".
        vp_scale: teams: "wbf" (continuous 20-point scale) or a VP table file.
        chicago: russian: vulnerability by Chicago deal (1-4), not by board.
        profile: another program's conventions ("bbo", "pary", "kops", "okbridge",
            "compscore", "ruter", "acbl", "ebu"; docs/conventions.md): sets the
            options below that are left at their defaults.
        unknown_pairs: "problem" (default): a result whose pair is written ``???``,
            blank or 0 is listed and left out; "field": it stays in the comparison,
            the unknown pair is not ranked, and the row is listed as a warning.
        adjusted_board: a board with artificial scores: "neuberg" (default) scales
            its real results to all tables; "among-real" compares them among
            themselves on their own top.
        total: "matchpoints" (default): a pair's % is its matchpoints over its
            possible; "mean-of-boards": the mean of its board percentages.
        adjusted_imps: IMPs of average-plus in cross-IMPs and Butler (average 0,
            average-minus minus this; other percentages pro rata). Default 3.
        datum: Butler datum "mean" (trimmed by ``trim``, default) or "median".
        rank_by: IMP methods rank by "average" per board (default) or "total".
        mp_decimals: round each board's (scaled) matchpoints to this many
            decimals before they are totalled (None: exact).
        pct_decimals: percentages and IMP averages as printed, to this many
            decimals; ties are decided on the printed value (None: exact).
        sit_out: cross-IMPs and Butler, the pair opposite a phantom: "not-played"
            (default: the board does not count) or "average" (its own average
            IMPs on that board, so its total is factored up to every board).
        round_before_pct: matchpoints: each result's (Neuberg-scaled) matchpoints
            rounded to this many decimals before its percentage is taken (None: exact).
        frequency_decimals: a PBN frequency table's percentages as printed: (shared,
            single) decimals for a result several tables had and one only one had
            (OKbridge: (1, 2)); None: exact.
        round_cap: cross-IMPs and Butler: the most IMPs a pair's total counts from one
            round (its boards against one opponent); losses are not capped (None: no cap).
    """

    adjusted_session_pct: bool = False
    phantom_award: float | None = None
    phantom: tuple[str, ...] = ()
    sections: str = "apart"
    one_ranking: bool = False
    arrow_switch: tuple[int, ...] = ()
    method: str = "mp"
    divisor: str = "n-1"
    trim: int | str = 1
    datum_rounding: str = "half-away"
    vp_scale: str = "wbf"
    chicago: bool = False
    profile: str | None = None
    unknown_pairs: str = "problem"
    adjusted_board: str = "neuberg"
    total: str = "matchpoints"
    adjusted_imps: float = 3.0
    datum: str = "mean"
    rank_by: str = "average"
    mp_decimals: int | None = None
    pct_decimals: int | None = None
    sit_out: str = "not-played"
    round_cap: float | None = None
    round_before_pct: int | None = None
    frequency_decimals: tuple[int, int] | None = None

    def __post_init__(self) -> None:
        if self.profile is not None:
            _apply_profile(self, self.profile)
        for name, value, allowed in (("method", self.method, METHODS),
                                     ("divisor", self.divisor, DIVISORS),
                                     ("datum rounding", self.datum_rounding, ROUNDINGS),
                                     ("unknown_pairs", self.unknown_pairs, UNKNOWN_PAIRS),
                                     ("adjusted_board", self.adjusted_board, ADJUSTED_BOARDS),
                                     ("total", self.total, TOTALS),
                                     ("datum", self.datum, DATUMS),
                                     ("rank_by", self.rank_by, RANK_BY),
                                     ("sit_out", self.sit_out, SIT_OUTS)):
            if value not in allowed:
                raise ValueError(f"unknown {name} {value!r}; choose from {', '.join(allowed)}")
        trim_fraction(self.trim)  # raises on a bad trim
        for name in ("mp_decimals", "pct_decimals", "round_before_pct"):
            value = getattr(self, name)
            if value is not None and not 0 <= value <= 6:
                raise ValueError(f"{name} {value} must be 0 to 6 decimals")
        if self.sections not in SECTIONS:
            raise ValueError(f"unknown sections {self.sections!r}; choose from "
                             f"{', '.join(SECTIONS)}")
        if self.frequency_decimals is not None:
            given = tuple(self.frequency_decimals)
            if len(given) != 2 or not all(isinstance(d, int) and 0 <= d <= 6 for d in given):
                raise ValueError(f"frequency decimals {self.frequency_decimals!r} must be two "
                                 "whole numbers 0 to 6 (shared, single), such as 1,2")
            object.__setattr__(self, "frequency_decimals", given)
        if self.round_cap is not None and not self.round_cap > 0:
            raise ValueError(f"round cap {self.round_cap} must be a positive number of IMPs")
        if self.phantom_award is not None and not 0 <= self.phantom_award <= 100:
            raise ValueError(f"phantom award {self.phantom_award} is not a percentage 0-100")
        for pair in self.phantom:
            check_phantom(pair)


#: A phantom as named: a pair number, after the line in a Mitchell ("18", "EW18", "N-S 9").
_PHANTOM = re.compile(r"(?:NS|EW)?\d{1,5}")


def check_phantom(pair: str | int) -> None:
    """Refuse a phantom that names no pair: "abc", "18a" (ValueError saying what to write).

    >>> check_phantom("E-W 18"), check_phantom(9)
    (None, None)
    """
    text = str(pair).upper().replace(" ", "").replace("-", "")
    if not _PHANTOM.fullmatch(text) or not int(text.lstrip("NSEW")):
        raise ValueError(f"phantom {str(pair)!r} is no pair number: write the pair as on the "
                         "travellers, e.g. 18, or EW18 for one line of a Mitchell")


def trim_fraction(trim: int | str) -> tuple[int, float]:
    """A Butler trim as (results at each end, fraction at each end): 2 -> (2, 0), "20%" -> (0, .2).

    >>> trim_fraction("20%"), trim_fraction(1)
    ((0, 0.2), (1, 0.0))
    """
    text = str(trim).strip()
    if text.endswith("%"):
        try:
            share = float(text[:-1]) / 100
        except ValueError:
            share = -1.0
        if not 0 <= share < 0.5:
            raise ValueError(f"trim {trim!r} must be a percentage from 0 % to under 50 %")
        return 0, share
    if not text.isdigit() or int(text) > MAX_TRIM:
        raise ValueError(f"trim {trim!r} must be a whole number from 0 to {MAX_TRIM}, or a "
                         "percentage such as 20%")
    return int(text), 0.0


def _apply_profile(options: Options, profile: str) -> None:
    """Set each option of ``profile`` that ``options`` leaves at its default."""
    from traveller.profiles import settings

    fields = Options.__dataclass_fields__
    for name, value in settings(profile).items():
        if name in fields and getattr(options, name) == fields[name].default:
            object.__setattr__(options, name, value)


def with_profile(values: dict[str, Any]) -> Options:
    """Options from explicit values, a ``profile`` among them filling in the rest.

    Unlike ``Options(profile=...)``, an explicit value equal to the default
    still wins over the profile.
    """
    from traveller.profiles import settings

    profile = values.get("profile")
    if profile is None:
        return Options(**values)
    fields = Options.__dataclass_fields__
    merged = {k: v for k, v in settings(profile).items() if k in fields}
    merged.update({k: v for k, v in values.items() if k != "profile"})
    options = Options(**merged)
    object.__setattr__(options, "profile", profile)
    return options


def options_with(options: Options | None, keywords: dict[str, Any]) -> Options:
    """The scoring options from ``options`` or from keywords (``method="ximp"``, ...).

    Every field of :class:`Options` is a keyword of :func:`traveller.process`;
    giving an ``Options`` object and such keywords together is an error that
    names the clash, and so is a keyword that is no option at all.
    """
    fields = Options.__dataclass_fields__
    unknown = sorted(k for k in keywords if k not in fields)
    if unknown:
        known = ", ".join(sorted({*PROCESS_DEFAULTS, *fields} - {"options"}))
        raise TypeError(f"unknown option {', '.join(unknown)}; the options are: {known}")
    if options is not None and keywords:
        raise TypeError(f"give the options either as options=Options(...) or as keywords, "
                        f"not both: {', '.join(sorted(keywords))} given beside options=")
    if options is not None:
        return options
    return with_profile({k: tuple(v) if isinstance(v, list) else v
                         for k, v in keywords.items()})
