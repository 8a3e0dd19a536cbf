"""The scoring options, kept free of pandas so that a batch run can hash its
settings (and skip every unchanged file) without loading the pipeline.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

#: The command-line choices, spelled out here so the commands start without pandas
#: (tests/test_cli.py checks them against the scoring modules).
SCALES = ("2/1/0", "1/0.5")
NOTATIONS = ("en", "pl", "ru")
METHODS = ("mp", "ximp", "butler", "total", "russian", "teams")

SECTIONS = ("apart", "field")
DIVISORS = ("n-1", "n", "none")
ROUNDINGS = ("half-away", "half-even")

#: The keyword options of :func:`traveller.pipeline.process` and their defaults
#: (tests/test_batch_settings.py checks them against its signature).
PROCESS_DEFAULTS: dict[str, Any] = {"scale": "2/1/0", "movement": "auto", "notation": None,
                                    "names": None, "encoding": None, "options": None}


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
    """

    adjusted_session_pct: bool = False
    phantom_award: float | None = None
    phantom: tuple[str, ...] = ()
    sections: str = "apart"
    one_ranking: bool = False
    arrow_switch: tuple[int, ...] = ()
    method: str = "mp"
    divisor: str = "n-1"
    trim: int = 1
    datum_rounding: str = "half-away"
    vp_scale: str = "wbf"
    chicago: bool = False

    def __post_init__(self) -> None:
        for name, value, allowed in (("method", self.method, METHODS),
                                     ("divisor", self.divisor, DIVISORS),
                                     ("datum rounding", self.datum_rounding, ROUNDINGS)):
            if value not in allowed:
                raise ValueError(f"unknown {name} {value!r}; choose from {', '.join(allowed)}")
        if not 0 <= self.trim <= MAX_TRIM:
            raise ValueError(f"trim {self.trim} must be 0 to {MAX_TRIM}")
        if self.sections not in SECTIONS:
            raise ValueError(f"unknown sections {self.sections!r}; choose from "
                             f"{', '.join(SECTIONS)}")
        if self.phantom_award is not None and not 0 <= self.phantom_award <= 100:
            raise ValueError(f"phantom award {self.phantom_award} is not a percentage 0-100")


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
    return Options(**{k: tuple(v) if isinstance(v, list) else v for k, v in keywords.items()})
