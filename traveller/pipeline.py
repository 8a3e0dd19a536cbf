"""The whole job in one call: read -> normalise -> score -> matchpoints -> rank."""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import asdict, dataclass, replace
from pathlib import Path
from typing import TYPE_CHECKING, Any

import numpy as np
import pandas as pd

from traveller.errors import TravellerError
from traveller.options import Options, options_with
from traveller.problems import combine, truthful
from traveller.profiles import program_profile
from traveller.publish import cards
from traveller.publish import summary as session_summary
from traveller.publish.meta import input_meta
from traveller.read.frames import arrays_of, frame_from
from traveller.read.load import Loaded, Source, read, read_names
from traveller.read.paths import printable
from traveller.result import Result as ScoredSession
from traveller.schema import PROBLEM_COLUMNS, TRAVELLER_DTYPES
from traveller.score import frequency, published
from traveller.score import individual as players
from traveller.score.adjusted import session_awards
from traveller.score.conventions import (
    conventional_ranking,
    imp_awards_problems,
    profile_scale,
)
from traveller.score.players import players_of
from traveller.score.precision import frequency_printed, rounded_before_dividing
from traveller.score.rank import matchpoints, rank_pairs
from traveller.score.row_names import session_names
from traveller.score.table import RECORDED_CELLS, score_frame, score_problems
from traveller.tidy import rulings
from traveller.tidy.arrays import conformed, frame_of, missing
from traveller.tidy.conditions import played_vulnerabilities
from traveller.tidy.hints import method_hints, stated_program, stated_scoring
from traveller.tidy.normalise import named_as_the_file, normalise
from traveller.tidy.unusual import unusual_scores

if TYPE_CHECKING:
    from traveller.read.scales import PointsScale

#: The ruling of a row as written and as applied (awards in % of the top).
RULING_DTYPES = {"ruling": "string", "ruling_kind": "string", "ns_award": "Float64",
                 "ew_award": "Float64"}

#: Matchpoint columns, left out of the travellers of the other methods.
_MP_COLUMNS = ["ns_mp", "ew_mp", "ns_pct", "ew_pct"]

#: Helper columns of the stages that the published travellers do not show.
_INTERNAL = ["level", "strain", "doubled", "recorded_score", "computed_score", "vul"]


@dataclass(repr=False)
class Result(ScoredSession):
    """A scored session (see :class:`traveller.result.Result` for its frames), with the
    workbook and the sheets' frames a pandas user asks for."""

    def to_excel(self, path: str | Path) -> Path:
        """Write the formatted results workbook (see :func:`traveller.write_workbook`)."""
        from traveller.publish.workbook import write_workbook

        return write_workbook(self, path)

    @property
    def score_cards(self) -> pd.DataFrame:
        """Each pair's boards: opponents, contract, lead, score, matchpoints (cards.py)."""
        return cards.result_score_cards(self)

    @property
    def frequencies(self) -> pd.DataFrame:
        """Each board's N-S scores, how often, and their matchpoints (cards.py)."""
        return cards.result_frequencies(self)

    @property
    def summary(self) -> pd.DataFrame:
        """Tables, boards, top, rulings and problems as (item, value) rows (summary.py)."""
        return session_summary.result_summary(self)


#: A stage's ``progress(done, total)`` callback (a progress bar's update).
Progress = Callable[[int, int], None]
#: The steps :func:`process` reports: read, normalised, scored and checked, matchpoints,
#: ranked, finished (players, the input's title, the deals).
STEPS = 6


def _step(progress: Progress | None, done: int) -> None:
    if progress is not None:
        progress(done, STEPS)


def process(
    path: Source,
    *,
    scale: str = "2/1/0",
    movement: str = "auto",
    notation: str | None = None,
    names: str | Path | None = None,
    encoding: str | None = None,
    options: Options | None = None,
    hands: str | Path | None = None,
    dd: bool | str | Path = True,
    points: str | Path | PointsScale | None = None,
    progress: Progress | None = None,
    **option_keywords: Any,
) -> Result:
    """Score one traveller file (or frames already in memory) end to end.

    Args:
        path: a traveller file (CSV/TSV, xlsx/xlsm/xls/ods, USEBIO XML, PBN), a
            DataFrame (read as a sheet whose column names are its header row; a
            problem names the file ``<DataFrame>`` and the row's position), or a dict
            of sheet name -> DataFrame (a ``Names`` frame gives the pairs' names);
            docs/api.md.
        scale: "2/1/0" (European, default) or "1/0.5" (ACBL).
        movement: "auto" (told from the pair numbers), "mitchell" or "howell".
        notation: force a notation ("en", "pl", "ru"); detected per sheet by default.
        names: a names file (pair -> players); a names sheet in the workbook is used otherwise.
        encoding: force the text encoding of a CSV file.
        options: rulings, structure and method as one :class:`Options` object, or
        points: award master points by a scale: ``"abf"``, ``"acbl"``, ``"ebu"``,
            ``"pzbs"`` or a scale file ``"club.toml"``, with the session's inputs after
            a colon (``"abf:weight=1.5"``, ``"pzbs:first=40"``); docs/points.md.
        **option_keywords: the same settings one by one, named as the options of
            ``traveller score``: ``method="ximp"``, ``divisor="n"``, ``trim=2``,
            ``sections="field"``, ``phantom_award=60``, ``profile="bbo"`` (another
            program's conventions, docs/conventions.md), ... (not both).
        hands: a hand-record file (PBN deals) for the session's boards; by default the
            deals the input itself carries (PBN, USEBIO) are used, if any.
        dd: double-dummy analysis and par of every complete deal (True, default), none
            (False), or a folder where each deal's analysis is also kept for later runs.
        progress: called as ``progress(steps done, STEPS)`` after each step (read,
            normalised, scored and checked, matchpoints, ranked, finished; a method
            without matchpoints has no fourth): a progress bar's callback.

    >>> result = process("sample_data/club_session.xlsx", method="butler")  # doctest: +SKIP
    >>> result.ranking.head()  # doctest: +SKIP
    """
    options = options_with(options, option_keywords)
    loaded = read(path, encoding=encoding)
    _step(progress, 1)
    if names is not None:
        found: list[pd.DataFrame] = []  # the names file, and its problems, replace the sheet's
        loaded = Loaded(loaded.tables, read_names(Path(names), encoding, found), found)
    scale_of_points = None
    if points is not None:  # checked first; the scales are read only when asked for
        from traveller.read.scales import read_scale

        scale_of_points = read_scale(points)
    result = process_loaded(loaded, scale=scale, movement=movement, notation=notation,
                            options=options, progress=progress)
    if "pair" in result.ranking:
        result.players = players_of(result.ranking, result.names,
                                    bool(result.settings.get("individual")))
    if scale_of_points is not None:
        with_points(result, result.names, scale_of_points)
    result.source = printable(str(path)) if isinstance(path, str | Path) else "<DataFrame>"
    result.meta = input_meta(loaded, path)  # title, date, club as the input states them
    result = with_hands(result, hands, dd, loaded)
    _step(progress, STEPS)
    return result


def unreadable(error: TravellerError, files: list[str | Path]) -> Result | None:
    """What a file that cannot be read at all is published as: nothing scored, and one
    ``unreadable-file`` problem saying why and what to do, so the director's workbook has
    its Problems sheet even then. ``files``: what the run reads, the input first; the
    problem names the one the error names (a names file, a second session). None when the
    error names none of them (an option's value, such as a scale's missing input).

    >>> found = unreadable(TravellerError("names.csv: the file is empty; export the "
    ...                                   "names again"), ["tue.csv", "names.csv"])
    >>> found.ranking.empty, found.problems["code"].tolist(), found.source
    (True, ['unreadable-file'], 'tue.csv')
    >>> unreadable(TravellerError("--points 'pzbs': give first=N"), ["tue.csv"]) is None
    True
    >>> print(found.problems["message"].iloc[0])  # doctest: +NORMALIZE_WHITESPACE
    names.csv: the file could not be read, so nothing is scored (the file is
    empty; export the names again); mend or export the file as the message says, then
    score it again
    """
    from traveller.problems import unreadable_file

    found = unreadable_file(str(error), files, printable)
    if found is None:
        return None
    result = process(pd.DataFrame({c: pd.Series(dtype="string") for c in _EMPTY_SHEET}))
    result.problems = _published(found)
    result.source = printable(str(files[0]))
    return result


#: The header of the empty sheet an unreadable file's result is made from.
_EMPTY_SHEET = ("Board", "NS", "EW", "Contract", "By", "Tricks")


def with_hands(result: Result, hands: str | Path | None = None,
               dd: bool | str | Path = True, loaded: Loaded | None = None) -> Result:
    """The result with its hands, double dummy and par, and their problems (a new Result).

    The deals come from ``hands`` (a hand-record file) or else from the
    travellers' own; every hand-record problem is a warning: no score changes.
    ``loaded``, the tables the result was scored from, names an HCP column in its
    problems as the sheet heads it.
    """
    if hands is None and "published_deal" not in result.travellers:
        return result  # the usual session: no deals, nothing to do
    from traveller.read.hands import hands_in_travellers, read_hands
    from traveller.tidy.hands import (
        check_hands,
        differing_deals,
        hcp_disagrees,
        leads_not_held,
        unreadable_record,
    )

    found: list[pd.DataFrame] = []
    if hands is not None:
        try:
            record = read_hands(hands)
        except TravellerError as exc:  # listed; the scores never depend on the hands
            problems = _published(combine([result.problems,
                                           unreadable_record(printable(str(hands)),
                                                             str(exc))]))
            return replace(result, problems=problems)
    else:
        record = hands_in_travellers(result.travellers)
    if record.empty:
        return result
    played = result.settings.get("vulnerable")  # (a Vul column's: par as the board was played)
    frame, checked = check_hands(record, result.travellers,
                                 played if isinstance(played, dict) else None)
    found.append(checked)
    if hands is not None:
        found.append(differing_deals(frame, result.travellers))
    found.append(leads_not_held(frame, result.travellers))
    found.append(_hcp_named(hcp_disagrees(frame, result.travellers), loaded))
    dd_module = _dd_module()
    out = replace(result, hands=frame, dd=dd_module.empty_dd(), par=dd_module.empty_par(),
                  settings={**result.settings, "dd": "off"})
    if dd is not False and frame["complete"].any():
        out = _analysed(out, None if dd is True else dd, found)
    out.problems = _published(combine([result.problems, *found]))
    return out


def _hcp_named(problems: pd.DataFrame, loaded: Loaded | None) -> pd.DataFrame:
    """``hcp-disagrees`` problems naming each file's HCP column as the file heads it."""
    from traveller.score.methods import method_headers

    for table in loaded.tables if loaded is not None and not problems.empty else ():
        typed = method_headers(table.frame.columns).get("hcp")
        if typed is not None:
            problems = named_as_the_file(problems, [replace(table, original_columns={
                "hcp": typed})], ("HCP",), ("hcp",))
    return problems


def _analysed(result: Result, folder: str | Path | None, found: list[pd.DataFrame]) -> Result:
    """Double dummy, par and the audit, when the DDS binding is installed."""
    from traveller.tidy.dd_audit import dd_audit

    dd_module = _dd_module()
    try:
        dd_frame, par_frame = dd_module.analyse(result.hands, folder)
    except ImportError:
        result.settings["dd"] = "not installed (pip install 'traveller[dd]')"
        return result
    found.append(dd_audit(result.travellers, dd_frame, result.hands))
    result.settings["dd"] = "on"
    return replace(result, dd=dd_frame, par=par_frame)


def _dd_module() -> Any:
    from traveller.score import dd

    return dd


def process_loaded(loaded: Loaded, *, scale: str = "2/1/0", movement: str = "auto",
                   notation: str | None = None, options: Options | None = None,
                   progress: Progress | None = None) -> Result:
    """Score tables already read (see :func:`process`; ``progress`` is told steps 2 to 5).

    An input whose own published figures differ from ours, written by a program
    we have a profile of (Compscore, Ruter...) and scored without one, is scored
    once more with that profile: when fewer of its figures then differ, one
    ``profile-suggested`` warning says so (the scores stay the first scoring's).
    """
    opts = options or Options()
    result = _scored(loaded, scale, movement, notation, opts, progress)
    before = published.differing(result.problems)
    stated = stated_program(loaded) if before and opts.profile is None else None
    profile = program_profile(stated[1]) if stated else None
    if stated is None or profile is None:
        return result
    try:  # (only a hint: a profile whose settings this session cannot take gives none)
        again = _scored(loaded, scale, movement, notation,
                        Options(**{**asdict(opts), "profile": profile}), None)
    except (TravellerError, ValueError):
        return result
    after = published.differing(again.problems)
    if after < before:
        result.problems = _published(combine([
            result.problems, published.profile_hint(result.travellers, stated, profile,
                                                     before, after)]))
    return result


def _scored(loaded: Loaded, scale: str, movement: str, notation: str | None, opts: Options,
            progress: Progress | None) -> Result:
    """The session scored with ``opts`` (see :func:`process_loaded`)."""
    scale = profile_scale(opts, scale)
    counted = frequency.is_frequency_table(loaded)  # no pairs: each result x Multiplicity
    norm = normalise(loaded, notation=notation, movement=movement,
                     unknown_pairs="field" if counted else opts.unknown_pairs)
    _step(progress, 2)
    names, name_problems = (loaded.names, combine([])) if counted else session_names(
        norm.travellers, norm.movement, loaded.names)
    frame = rulings.switch_arrows(norm.travellers, opts.arrow_switch)
    frame, phantom_problems = rulings.resolve_phantoms(frame, norm.movement, opts.phantom)
    frame, imp_problems = imp_awards_problems(frame, opts.method)
    scored = frequency.expand(score_frame(frame)) if counted else score_frame(frame)
    problems = combine([*loaded.problems, norm.problems, name_problems, phantom_problems,
                        imp_problems,
                        _score_cells_named(score_problems(scored), loaded),
                        method_hints(scored, opts.method,
                                     loaded.tables[0].original_columns if loaded.tables else None,
                                     stated_scoring(loaded)),
                        unusual_scores(scored)])
    problems = frequency.without_pair_warnings(problems) if counted else problems
    _step(progress, 3)
    played = {} if opts.chicago else played_vulnerabilities(scored)  # (a Vul column's)
    settings = {"scale": scale, "movement": norm.movement, "notation": notation or "auto",
                "boards": int(scored["board"].nunique()) if len(scored) else 0,
                **({"vulnerable": played} if played else {}),
                **asdict(opts), **({"frequency_table": True} if counted else {}),
                **({"individual": True} if players.is_individual(scored) else {})}
    if opts.method != "mp":
        from traveller.score.methods import MethodOptions, apply_method  # (not for matchpoints)

        done = apply_method(scored, opts.method, norm.movement, names,
                            MethodOptions(divisor=opts.divisor, trim=opts.trim,
                                          rounding=opts.datum_rounding,
                                          vp_scale=opts.vp_scale, chicago=opts.chicago,
                                          by_section=opts.sections == "apart",
                                          datum=opts.datum, adjusted_imps=opts.adjusted_imps,
                                          rank_by=opts.rank_by,
                                          pct_decimals=opts.pct_decimals,
                                          sit_out=opts.sit_out,
                                          phantom_award=opts.phantom_award,
                                          round_cap=opts.round_cap))
        _step(progress, 5)
        travellers = tidy_travellers(frequency.collapse(done.travellers)).drop(
            columns=_MP_COLUMNS)
        problems = combine([problems, _published_named(published.differences(travellers), loaded),
                            _ranking_differences(done.ranking, loaded, norm.movement)])
        return Result(travellers=travellers, ranking=done.ranking,
                      problems=_published(truthful(problems, travellers)),
                      settings=settings, tables=done.tables, names=names)
    by_section = opts.sections == "apart"
    ranked = matchpoints(scored, scale=scale, by_section=by_section,
                         phantom_award=opts.phantom_award, adjusted_board=opts.adjusted_board)
    if opts.adjusted_session_pct:
        ranked = matchpoints(session_awards(ranked, norm.movement), scale=scale,
                             by_section=by_section, phantom_award=opts.phantom_award,
                             adjusted_board=opts.adjusted_board)
    ranked = rounded_before_dividing(ranked, opts.round_before_pct)
    _step(progress, 4)
    if settings.get("individual"):  # one line per player, ranked together
        ranking = players.rank_players(ranked, names, by_section=by_section)
        ranking = conventional_ranking(players.player_rows(ranked), ranking, "howell",
                                       replace(opts, one_ranking=True), scale)
    else:
        ranking = rank_pairs(ranked.iloc[:0] if counted else ranked,  # no pairs: no ranking
                             movement=norm.movement, names=names,
                             by_section=by_section, one_ranking=opts.one_ranking)
        ranking = conventional_ranking(ranked, ranking, norm.movement, opts, scale)
    _step(progress, 5)
    travellers = tidy_travellers(frequency_printed(frequency.collapse(ranked),
                                                   opts.frequency_decimals))
    problems = combine([problems, _published_named(published.differences(travellers), loaded),
                        _ranking_differences(ranking, loaded, norm.movement)])
    return Result(travellers=travellers, ranking=ranking,
                  problems=_published(truthful(problems, travellers)), settings=settings,
                  names=names)


def _ranking_differences(ranking: pd.DataFrame, loaded: Loaded, movement: str
                         ) -> pd.DataFrame:
    """Where the ranking the input publishes is not ours (score/published.py)."""
    if not loaded.tables or loaded.names is None:
        return combine([])
    first = loaded.tables[0]
    return published.ranking_differences(ranking, loaded.names, movement, first.file,
                                         first.sheet)


def with_points(result: Result, names: pd.DataFrame | None, scale: PointsScale) -> Result:
    """Award the session's master points: ``result.points`` and a Master points column."""
    from traveller.score.points import session_points

    if "pair" not in result.ranking:
        raise ValueError(f"master points ({scale.name}) are awarded to pairs; a teams "
                         "ranking has no pairs to award")
    method = str(result.settings.get("method", "mp"))
    boards = int(str(result.settings.get("boards", 0)))
    players = result.players if result.players is not None else players_of(
        result.ranking, names, bool(result.settings.get("individual")))
    frame, per_pair = session_points(result.ranking, players, scale, boards=boards,
                                     method=method,
                                     by_section=result.settings.get("sections") != "field")
    result.points = frame
    result.ranking = result.ranking.assign(master_points=per_pair.to_numpy())
    result.settings["points"] = scale.name
    return result


def _published_named(problems: pd.DataFrame, loaded: Loaded) -> pd.DataFrame:
    """``published-differs`` problems of a sheet's own columns (N-S MP, % EW) named as the
    sheet heads them; a PBN or USEBIO file's keep the figure's name ("published N-S
    matchpoints": its tags, MP_NS or NS_MATCH_POINTS, are no column a director sees)."""
    sheets = [t for t in loaded.tables if not {"format", "layout"} & set(t.meta)]
    for theirs, label in published.PUBLISHED.values():
        if any(theirs in t.original_columns for t in sheets):
            problems = named_as_the_file(problems, sheets, (label,), (theirs,))
    return problems


def _score_cells_named(problems: pd.DataFrame, loaded: Loaded) -> pd.DataFrame:
    """``score-disagrees`` problems, each score cell's column named as its file heads it."""
    for field in RECORDED_CELLS:
        problems = named_as_the_file(problems, loaded, (field,), (field,))
    return problems


def _published(problems: pd.DataFrame) -> pd.DataFrame:
    """The problem columns, in order, on a fresh index (a slice when they come first); the
    board a whole number (or none)."""
    if "board" not in problems or problems["board"].dtype != "Int64":
        problems = problems.assign(board=pd.to_numeric(
            problems["board"] if "board" in problems else pd.Series(np.nan, problems.index),
            errors="coerce").astype("Float64").astype("Int64"))
    if problems.columns.is_unique and set(PROBLEM_COLUMNS) <= set(problems.columns):
        arrays = arrays_of(problems)  # (one frame of the columns' arrays: no slice, no reset)
        return frame_from({c: arrays[c] for c in PROBLEM_COLUMNS}, pd.RangeIndex(len(problems)))
    n = len(PROBLEM_COLUMNS)
    first = problems.columns[:n].tolist() == PROBLEM_COLUMNS
    return (problems.iloc[:, :n] if first else problems[PROBLEM_COLUMNS]).reset_index(drop=True)


def tidy_travellers(frame: pd.DataFrame) -> pd.DataFrame:
    """Canonical columns first, the ruling as written and as applied, then the rest, by board."""
    arrays = conformed(frame, {**TRAVELLER_DTYPES, **RULING_DTYPES},
                       drop={*_INTERNAL, "ruling_applied"})
    arrays = {**{c: arrays.pop(c) for c in [*TRAVELLER_DTYPES, *RULING_DTYPES]},
              "ruling_applied": missing("string", len(frame)), **arrays}
    no_ruling = arrays["ruling_kind"].isna().all()  # the usual session: none to describe
    out = (frame_of(arrays, _by_board(arrays)) if len(frame)
           else frame_of(arrays, index=frame.index))
    if no_ruling:
        return out
    out["ruling_applied"] = rulings.describe(out)
    return out


_BY_BOARD = ("section", "board", "ns_score", "ns_pair")


def _by_board(frame: pd.DataFrame | dict[str, Any]) -> np.ndarray:
    """Row order by section, board, N-S score (highest first) and N-S pair; blanks last.

    The order ``sort_values`` gives (stable), from one ``np.lexsort`` of integer keys.
    ``frame`` may be a dict of the columns' arrays.
    """
    arrays = frame if isinstance(frame, dict) else {c: frame[c].array for c in _BY_BOARD}
    section = pd.factorize(arrays["section"], sort=True)[0]
    keys = [np.where(section < 0, len(section), section)]
    for column, sign in (("board", 1), ("ns_score", -1), ("ns_pair", 1)):
        values = arrays[column]
        missing = np.asarray(values.isna(), dtype=bool)
        number = sign * values.to_numpy(dtype=np.int64, na_value=0)
        keys.append(np.where(missing, number.max(initial=0) + 1, number))
    return np.lexsort(keys[::-1])
