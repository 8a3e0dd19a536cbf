"""The whole job in one call: read -> normalise -> score -> matchpoints -> rank."""

from __future__ import annotations

from dataclasses import asdict, dataclass, field
from pathlib import Path

import pandas as pd

from traveller import cards, rulings
from traveller.adjusted import session_awards
from traveller.load import Loaded, read, read_names
from traveller.methods import MethodOptions, apply_method
from traveller.normalise import normalise
from traveller.problems import combine
from traveller.rank import matchpoints, rank_pairs
from traveller.schema import PROBLEM_COLUMNS, TRAVELLER_DTYPES, conform
from traveller.score import score_frame, score_problems

#: The ruling of a row as written and as applied (awards in % of the top).
RULING_DTYPES = {"ruling": "string", "ruling_kind": "string", "ns_award": "Float64",
                 "ew_award": "Float64"}

#: Matchpoint columns, left out of the travellers of the other methods.
_MP_COLUMNS = ["ns_mp", "ew_mp", "ns_pct", "ew_pct"]

#: Helper columns of the stages that the published travellers do not show.
_INTERNAL = ["level", "strain", "doubled", "recorded_score", "computed_score"]


@dataclass
class Result:
    """A scored session: travellers, ranking and problems, plus what was decided."""

    travellers: pd.DataFrame
    ranking: pd.DataFrame
    problems: pd.DataFrame
    settings: dict[str, object] = field(default_factory=dict)
    source: str = ""
    session_rankings: pd.DataFrame | None = None  # a multi-session event's own rankings
    tables: dict[str, pd.DataFrame] = field(default_factory=dict)  # a method's own tables

    @property
    def ok(self) -> bool:
        """True when no problem at all was found."""
        return self.problems.empty

    @property
    def score_cards(self) -> pd.DataFrame:
        """Each pair's boards: opponents, contract, lead, score, matchpoints (cards.py)."""
        return cards.score_cards(self.travellers, str(self.settings.get("movement", "mitchell")),
                                 self.ranking)

    @property
    def frequencies(self) -> pd.DataFrame:
        """Each board's N-S scores, how often, and their matchpoints (cards.py)."""
        return cards.frequencies(self.travellers)

    @property
    def summary(self) -> pd.DataFrame:
        """Tables, boards, top, rulings and problems as (item, value) rows (cards.py)."""
        return cards.summary(self.travellers, self.ranking, self.problems, self.settings)


@dataclass(frozen=True)
class Options:
    """How rulings and the tournament structure are scored (docs/rulings.md).

    Attributes:
        session_pct: average-plus is the better of 60 % and the pair's session
            percentage, average-minus the worse of 40 % and it (EBU/WBF Law 12C2
            option). Off by default: plain 60/40, the Laws' minimum.
        phantom_award: % of the top given to a pair against the phantom (TD/Bye
            lines; e.g. 60). None (default): the board counts as not played and
            the pair's total is factored, as for any sit-out.
        phantoms: pair numbers of the phantom ("18", or "EW18" for one line);
            found by themselves when every row of a pair is a TD/Bye line.
        sections: "apart" (default): each section matchpointed and ranked on its
            own; "field": across the whole field.
        one_ranking: rank both lines of a Mitchell together (one winner).
        arrow_boards: boards on which every table switched the arrow (besides an
            Arrow column in the sheet).
        method: "mp" (matchpoints, default), "ximp", "butler", "total", "russian"
            or "teams" (see :mod:`traveller.methods`).
        divisor: cross-IMPs divided by "n-1" (default), "n" or "none".
        trim: Butler: results dropped at each end for the datum (default 1).
        datum_rounding: Butler datum to 10, "half-away" (default) or "half-even".
        vp_scale: teams: "wbf" (continuous 20-point scale) or a VP table file.
        chicago: russian: vulnerability by Chicago deal (1-4), not by board.
    """

    session_pct: bool = False
    phantom_award: float | None = None
    phantoms: tuple[str, ...] = ()
    sections: str = "apart"
    one_ranking: bool = False
    arrow_boards: tuple[int, ...] = ()
    method: str = "mp"
    divisor: str = "n-1"
    trim: int = 1
    datum_rounding: str = "half-away"
    vp_scale: str = "wbf"
    chicago: bool = False

    def __post_init__(self) -> None:
        from traveller.methods import DIVISORS, METHODS, ROUNDINGS

        for name, value, allowed in (("method", self.method, METHODS),
                                     ("divisor", self.divisor, DIVISORS),
                                     ("datum rounding", self.datum_rounding, ROUNDINGS)):
            if value not in allowed:
                raise ValueError(f"unknown {name} {value!r}; choose from {', '.join(allowed)}")
        if self.trim < 0:
            raise ValueError(f"trim {self.trim} must be 0 or more")
        if self.sections not in SECTIONS:
            raise ValueError(f"unknown sections {self.sections!r}; choose from "
                             f"{', '.join(SECTIONS)}")
        if self.phantom_award is not None and not 0 <= self.phantom_award <= 100:
            raise ValueError(f"phantom award {self.phantom_award} is not a percentage 0-100")


SECTIONS = ("apart", "field")


def process(
    path: str | Path,
    *,
    scale: str = "2/1/0",
    movement: str = "auto",
    notation: str | None = None,
    names: str | Path | None = None,
    encoding: str | None = None,
    options: Options | None = None,
) -> Result:
    """Score one traveller file end to end.

    Args:
        path: a traveller file (CSV/TSV, xlsx/xlsm/xls/ods, USEBIO XML, PBN).
        scale: "2/1/0" (European, default) or "1/0.5" (ACBL).
        movement: "auto" (told from the pair numbers), "mitchell" or "howell".
        notation: force a notation ("en", "pl", "ru"); detected per sheet by default.
        names: a names file (pair -> players); a names sheet in the workbook is used otherwise.
        encoding: force the text encoding of a CSV file.
        options: rulings and tournament structure (:class:`Options`); defaults when None.

    >>> result = process("sample_data/club_session.xlsx")  # doctest: +SKIP
    >>> result.ranking.head()  # doctest: +SKIP
    """
    loaded = read(path, encoding=encoding)
    if names is not None:
        loaded = Loaded(loaded.tables, read_names(Path(names), encoding))
    result = process_loaded(loaded, scale=scale, movement=movement, notation=notation,
                            options=options)
    result.source = str(path)
    return result


def process_loaded(loaded: Loaded, *, scale: str = "2/1/0", movement: str = "auto",
                   notation: str | None = None, options: Options | None = None) -> Result:
    """Score tables already read (see :func:`process`)."""
    opts = options or Options()
    norm = normalise(loaded, notation=notation, movement=movement)
    frame = rulings.switch_arrows(norm.travellers, opts.arrow_boards)
    frame, phantom_problems = rulings.resolve_phantoms(frame, norm.movement, opts.phantoms)
    scored = score_frame(frame)
    problems = combine([norm.problems, phantom_problems, score_problems(scored)])
    settings = {"scale": scale, "movement": norm.movement, "notation": notation or "auto",
                "boards": int(scored["board"].nunique()) if len(scored) else 0,
                **asdict(opts)}
    if opts.method != "mp":
        done = apply_method(scored, opts.method, norm.movement, loaded.names,
                            MethodOptions(divisor=opts.divisor, trim=opts.trim,
                                          rounding=opts.datum_rounding,
                                          vp_scale=opts.vp_scale, chicago=opts.chicago))
        travellers = tidy_travellers(done.travellers).drop(columns=_MP_COLUMNS)
        return Result(travellers=travellers, ranking=done.ranking,
                      problems=problems[PROBLEM_COLUMNS].reset_index(drop=True),
                      settings=settings, tables=done.tables)
    by_section = opts.sections == "apart"
    ranked = matchpoints(scored, scale=scale, by_section=by_section,
                         phantom_award=opts.phantom_award)
    if opts.session_pct:
        ranked = matchpoints(session_awards(ranked, norm.movement), scale=scale,
                             by_section=by_section, phantom_award=opts.phantom_award)
    ranking = rank_pairs(ranked, movement=norm.movement, names=loaded.names,
                         by_section=by_section, one_ranking=opts.one_ranking)
    return Result(travellers=tidy_travellers(ranked), ranking=ranking,
                  problems=problems[PROBLEM_COLUMNS].reset_index(drop=True), settings=settings)


def tidy_travellers(frame: pd.DataFrame) -> pd.DataFrame:
    """Canonical columns first, the ruling as written and as applied, then the rest, by board."""
    frame = frame.drop(columns=[c for c in _INTERNAL if c in frame])
    out = conform(frame, {**TRAVELLER_DTYPES, **RULING_DTYPES})
    out["ruling_applied"] = rulings.describe(out)
    out = out[[*TRAVELLER_DTYPES, *RULING_DTYPES, "ruling_applied",
               *[c for c in out.columns if c not in {*TRAVELLER_DTYPES, *RULING_DTYPES,
                                                     "ruling_applied"}]]]
    if out.empty:
        return out
    sort = ["section", "board", "ns_score", "ns_pair"]
    out = out.sort_values(sort, ascending=[True, True, False, True], kind="stable")
    return out.reset_index(drop=True)
