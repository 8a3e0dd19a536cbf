"""The command line: thin click commands over the library.

Exit codes (for cron and scripts): 0 all scored; 1 failed (nothing written);
2 usage error; 3 written, with problems listed on the Problems sheet (or a --pbn or
--usebio file that cannot hold the result left out, with the reason).
"""

from __future__ import annotations

import errno
import sys
from pathlib import Path
from typing import TYPE_CHECKING, ClassVar

import click

if TYPE_CHECKING:
    from traveller.pipeline import Options, Result

from traveller import __version__
from traveller.errors import TravellerError
from traveller.options import METHODS, NOTATIONS, SCALES, with_profile
from traveller.profiles import NAMES as PROFILE_NAMES
from traveller.words import plural

EXIT_OK, EXIT_FAILED, EXIT_USAGE, EXIT_PROBLEMS = 0, 1, 2, 3


class _Commands(click.Group):
    """The commands; those of other modules are imported only when run or listed.

    ``traveller score`` then starts without the batch's modules, and ``traveller
    batch`` without the scoring ones until a file is scored.
    """

    #: Command name -> "module:attribute" of its click command.
    ELSEWHERE: ClassVar[dict[str, str]] = {
        "batch": "traveller.batch.cli:batch", "rubber": "traveller.home.cli:rubber",
        "chicago": "traveller.home.cli:chicago", "three-handed": "traveller.home.cli:three_handed",
        "sim": "traveller.sim.cli:sim", "ladder": "traveller.season_cli:ladder_command"}

    def list_commands(self, ctx: click.Context) -> list[str]:
        return sorted({*super().list_commands(ctx), *self.ELSEWHERE})

    def get_command(self, ctx: click.Context, cmd_name: str) -> click.Command | None:
        if cmd_name in self.ELSEWHERE and cmd_name not in self.commands:
            from importlib import import_module

            module, _, name = self.ELSEWHERE[cmd_name].partition(":")
            self.add_command(getattr(import_module(module), name), cmd_name)
        return super().get_command(ctx, cmd_name)


@click.group(cls=_Commands, context_settings={"help_option_names": ["-h", "--help"]})
@click.version_option(__version__, prog_name="traveller")
def main() -> None:
    """Score duplicate bridge travellers and write the results workbook.

    \b
    Example:
      traveller score sample_data/club_session.xlsx -o results.xlsx
    """


@main.command()
@click.argument("input_file", metavar="INPUT", type=click.Path(dir_okay=False, path_type=Path))
@click.option("-o", "--output", type=click.Path(dir_okay=False, path_type=Path),
              help="Results workbook to write [default: INPUT's name + _results.xlsx].")
@click.option("--scale", type=click.Choice(list(SCALES)), default="2/1/0", show_default=True,
              help="Matchpoint scale: European 2/1/0 or ACBL 1/0.5.")
@click.option("--movement", type=click.Choice(["auto", "mitchell", "howell"]), default="auto",
              show_default=True, help="Mitchell ranks each line apart; auto tells it from "
              "the pair numbers.")
@click.option("--notation", type=click.Choice(list(NOTATIONS)), default=None,
              help="Force the notation of every sheet [default: detected per sheet].")
@click.option("--names", type=click.Path(exists=True, dir_okay=False, path_type=Path),
              help="Names file (pair, line, names) [default: the workbook's names sheet].")
@click.option("--encoding", default=None, help="Force the CSV encoding, e.g. cp1250.")
@click.option("--hands", type=click.Path(exists=True, dir_okay=False, path_type=Path),
              metavar="DEALS.PBN",
              help="Hand record (the dealing program's PBN file) for the boards [default: the "
              "deals inside a PBN or USEBIO input].")
@click.option("--no-dd", "no_dd", is_flag=True,
              help="Skip the double-dummy analysis and par of the deals.")
@click.option("--adjusted-session-pct", is_flag=True,
              help="Average-plus is the better of 60 % and the pair's session %, average-minus "
              "the worse of 40 % and it (EBU/WBF option) [default: plain 60/40, the Laws].")
@click.option("--phantom-award", type=click.FloatRange(0, 100), default=None, metavar="PCT",
              help="% of the top for the pair meeting the phantom on TD/Bye lines, e.g. 60 "
              "[default: none: a sit-out, the pair's total factored].")
@click.option("--phantom", multiple=True, metavar="PAIR",
              callback=lambda _c, _p, v: phantom_values(v),
              help="The phantom pair, e.g. 18 or EW18 (repeatable) [default: a pair whose "
              "every line is TD/Bye].")
@click.option("--sections", type=click.Choice(["apart", "field"]), default="apart",
              show_default=True, help="Matchpoint and rank each section apart or across "
              "the whole field.")
@click.option("--one-ranking", is_flag=True, help="Rank both lines of a Mitchell together.")
@click.option("--arrow-switch", default="", metavar="BOARDS",
              help="Boards on which the arrow was switched, e.g. 19-21,25 (or an Arrow column).")
@click.option("--session", "sessions", multiple=True, metavar="FILE",
              type=click.Path(exists=True, dir_okay=False, path_type=Path),
              help="Another session of the same event (repeatable): one event ranking.")
@click.option("--combine", type=click.Choice(["average", "total"]), default="average",
              show_default=True, help="Event ranking by average session % or total MP.")
@click.option("--carry-over", type=click.Path(exists=True, dir_okay=False, path_type=Path),
              help="Carry-over file (pair, line, carry) added to the event score; with "
              "no --session, the one session is ranked as an event with its carry (a final).")
@click.option("--method", type=click.Choice(METHODS), default="mp", show_default=True,
              help="Scoring method: matchpoints, cross-IMPs, Butler, total points, Russian "
              "(HCP target) or teams (IMPs and VPs).")
@click.option("--divisor", type=click.Choice(["n-1", "n", "none"]), default="n-1",
              show_default=True, help="Cross-IMPs: divide each sum by n-1, n, or not at all.")
@click.option("--trim", default="1", show_default=True, callback=lambda _c, _p, v: trim_value(v),
              help="Butler: results dropped at each end for the datum, or a share of "
              "them such as 20%.")
@click.option("--datum-rounding", type=click.Choice(["half-away", "half-even", "half-up"]),
              default="half-away", show_default=True, help="Butler: datum to 10, halves "
              "away from zero, to even or up.")
@click.option("--vp-scale", default="wbf", show_default=True, metavar="wbf|FILE",
              help="Teams: the WBF 20-point scale or a VP table (imps_from, imps_to, "
              "vp_winner, vp_loser).")
@click.option("--chicago", is_flag=True, help="Russian: vulnerability by Chicago deal "
              "(1-4) rather than by board number.")
@click.option("--html", type=click.Path(file_okay=False, path_type=Path), metavar="SITE_DIR",
              help="Also write the results website (ranking, boards, pairs) into SITE_DIR, "
              "and the director's page (problems, summary) beside the workbook as "
              "NAME.director.html, outside the site.")
@click.option("--pbn", type=click.Path(dir_okay=False, path_type=Path), metavar="FILE",
              help="Also write the results as PBN 2.1 (ScoreTable, TotalScoreTable; a teams "
              "match as one record per table); FILE ends in .pbn.")
@click.option("--usebio", type=click.Path(dir_okay=False, path_type=Path), metavar="FILE",
              help="Also write the results as USEBIO 1.2 XML (pairs, a teams match or "
              "event, an individual); FILE ends in .xml.")
@click.option("--title", default=None, help="Title of the results [default: the title row "
              "above the input's header, the event in a PBN/USEBIO file, else the file name].")
@click.option("--date", default=None, callback=lambda _c, _p, v: date_value(v),
              help="Date printed under the title (one written as a date, 3/11/2026, is read "
              "day first) [default: as the input states it].")
@click.option("--club", default=None, help="Club printed under the title.")
@click.option("--correction-minutes", type=click.IntRange(0), default=30, show_default=True,
              metavar="N", help="Results are provisional for N minutes (corrections until "
              "HH:MM on DATE on every page); 0 publishes final results. With the session's "
              "date known (--date, or a date in the title), the period runs from the session: "
              "a session scored more than a day after its start (--start; else the end of its "
              "day) is final.")
@click.option("--start", default=None, metavar="HH:MM",
              help="When the session started (with its date, the correction period runs from "
              "the session).")
@click.option("--final", is_flag=True, help="Publish as final results (no correction "
              "period), as a batch does once the period is over.")
@click.option("--as", "profile", type=click.Choice(list(PROFILE_NAMES)), default=None,
              help="Score as another program does (docs/conventions.md); options given "
              "explicitly override it. A file that names the program that wrote it is "
              "told the profile that fits its published figures (profile-suggested).")
@click.option("--unknown-pairs", type=click.Choice(["problem", "field"]), default="problem",
              show_default=True, help="A pair written ???, blank or 0: list the result as a "
              "problem, or keep it in the field (not ranked, listed as a warning).")
@click.option("--adjusted-board", type=click.Choice(["neuberg", "among-real"]),
              default="neuberg", show_default=True, help="A board with artificial scores: "
              "Neuberg its real results, or compare them among themselves.")
@click.option("--total", type=click.Choice(["matchpoints", "mean-of-boards"]),
              default="matchpoints", show_default=True, help="A pair's %: its matchpoints "
              "over its possible, or the mean of its board percentages.")
@click.option("--adjusted-imps", type=float, default=3.0, show_default=True, metavar="IMPS",
              help="Cross-IMPs and Butler: IMPs of average-plus (average 0, minus: -IMPS).")
@click.option("--datum", type=click.Choice(["mean", "median", "table-median"]), default="mean",
              show_default=True, help="Butler: trimmed mean or median of the N-S scores, or "
              "the median over every table (an artificial score's table counted, Pary).")
@click.option("--rank-by", type=click.Choice(["average", "total"]), default="average",
              show_default=True, help="IMP and total-point methods: rank by average per "
              "board or by total.")
@click.option("--mp-decimals", type=click.IntRange(0, 6), default=None, metavar="N",
              help="Round each board's scaled matchpoints to N decimals before totalling.")
@click.option("--pct-decimals", type=click.IntRange(0, 6), default=None, metavar="N",
              help="Percentages (IMP averages) as printed to N decimals; ties on them.")
@click.option("--sit-out", type=click.Choice(["not-played", "average"]), default="not-played",
              show_default=True, help="Cross-IMPs and Butler: a board a pair sat out does "
              "not count, or counts at the pair's own average IMPs.")
@click.option("--points", default=None, metavar="abf|acbl|ebu|pzbs|FILE.toml",
              help="Award master points by a federation's scale or a scale file, with the "
              "session's inputs after a colon: abf:weight=1.5, pzbs:first=40 (docs/points.md).")
@click.option("--round-before-pct", type=click.IntRange(0, 6), default=None, metavar="N",
              help="Round each result's scaled matchpoints to N decimals before its "
              "percentage is taken (KoPS: 2).")
@click.option("--frequency-decimals", default=None, metavar="SHARED,SINGLE",
              callback=lambda _c, _p, v: decimals_pair(v),
              help="PBN frequency tables: percentages to SHARED decimals for a result "
              "several tables had, SINGLE for one only one had (OKbridge: 1,2).")
@click.option("--round-cap", type=click.FloatRange(min=0, min_open=True), default=None,
              metavar="IMPS", help="Cross-IMPs and Butler: a pair's total counts at most IMPS "
              "from one round (its boards against one opponent); losses are not capped.")
@click.option("-q", "--quiet", is_flag=True, help="No progress bars (a terminal shows them "
              "on long work; under cron or in a pipe there are none).")
@click.option("--debug", is_flag=True, help="Show the full traceback on a failure.")
def score(input_file: Path, output: Path | None, scale: str, movement: str,
          notation: str | None, names: Path | None, encoding: str | None, debug: bool,
          points: str | None, **structure: object) -> None:
    """Score one session: matchpoints, ranking and a formatted workbook.

    INPUT is a traveller sheet (CSV, TSV, xlsx, xlsm, xls or ods, USEBIO,
    PBN) with one row per result. Directors' rulings written in the sheet
    (A+, A60/40, NP, TD, 30%+650/70%-100, +420/-450) are applied, see
    docs/rulings.md. Rows that cannot be scored are listed on the Problems sheet.

    \b
    Example:
      traveller score sample_data/club_session.xlsx -o results.xlsx
      traveller score sample_data/rulings_session.csv --adjusted-session-pct
      traveller score sample_data/club_session.xlsx --session sample_data/club_session_pl.xlsx
      traveller score sample_data/club_session.xlsx --html site --pbn results.pbn
      traveller score sample_data/club_session.xlsx --hands sample_data/club_session_hands.pbn
      traveller score sample_data/club_session.csv --method butler
      traveller score sample_data/chicago_russian.csv --method russian --chicago
      traveller score bbo_export.csv --as bbo
      traveller score sample_data/club_session.xlsx --points abf:weight=1.5
    Exit codes: 0 all scored, 1 failed, 2 usage error, 3 written with problems (or with
    a --pbn/--usebio file that cannot hold the result left out, and said why).
    """
    from traveller.gc_policy import loading

    with loading():  # pandas and the writer, without collecting what they make
        import traveller.publish.workbook  # noqa: F401  (written below)
        from traveller.pipeline import process

    output = output or input_file.with_name(f"{input_file.stem}_results.xlsx")
    hands: Path | None = structure.pop("hands")  # type: ignore[assignment]
    no_dd = bool(structure.pop("no_dd"))
    quiet = bool(structure.pop("quiet"))
    _check_targets(input_file, output, {"--names": names, "--hands": hands}, points,
                   structure)
    _check_publication(structure)
    _check_points(points)
    _check_vp_scale(structure)
    result: Result | None = None
    try:
        kwargs = {"scale": scale, "movement": movement, "notation": notation, "names": names,
                  "encoding": encoding, "options": _options(structure)}
        if structure["sessions"] or structure["carry_over"] is not None:
            from traveller.events import process_event

            if hands is not None:
                raise click.UsageError("--hands attaches the deals of one session; score an "
                                       "event (--session, --carry-over) without it")
            sessions: tuple[Path, ...] = structure["sessions"]  # type: ignore[assignment]
            result = process_event([input_file, *sessions], method=str(structure["combine"]),
                                   carry_over=structure["carry_over"], **kwargs)  # type: ignore[arg-type]
        else:
            from traveller.progress import Bar

            with Bar("scoring", "step", quiet=quiet) as bar:  # on a terminal, once it takes a while
                result = process(input_file, hands=hands, dd=not no_dd, points=points,
                                 progress=bar.update if bar.on else None,
                                 **kwargs)  # type: ignore[arg-type]
        not_written: list[str] = []
        untitled = structure["title"] is None and _titled_by_file(result, input_file)
        written = _publish(result, output, structure, not_written, quiet)
    except (TravellerError, OSError, ValueError) as exc:
        if debug:
            raise
        if isinstance(exc, OSError) and exc.errno == errno.ENOSPC:
            exc = OSError(f"the disk is full ({exc.strerror}): not everything could be written "
                          f"for {input_file} (no partial file is left); free some space and "
                          "run again")
        said = str(exc)
        if isinstance(exc, TravellerError) and result is None:  # a file read: its workbook
            read = [p for _, p in _inputs(input_file, {"--names": names, "--hands": hands},
                                          points, structure)]
            listed = _unreadable_book(read, output, exc, structure)
            if listed is not None:
                said += f" (listed on the Problems sheet of {listed}; nothing else written"
                said += _left_as_before(output, structure) + ")"
        click.echo(f"error: {said}", err=True)
        sys.exit(EXIT_FAILED)
    _report(result, input_file, written, not_written, untitled)


def _left_as_before(output: Path, given: dict[str, object]) -> str:
    """"; site/ and r.pbn are an earlier run's, as it left them": the outputs besides the
    workbook that exist already and that a run which read nothing leaves alone (a site
    still showing the last results, which the director should know of)."""
    earlier = [str(path) for _, path in _targets(output, given)[1:] if path.exists()]
    if not earlier:
        return ""
    verb = "is" if len(earlier) == 1 else "are"
    return f"; {' and '.join(earlier)} {verb} an earlier run's, as it left them"


def _unreadable_book(read: list[Path], output: Path, error: TravellerError,
                     given: dict[str, object]) -> Path | None:
    """The workbook of a file that cannot be read (one of ``read``, what the run reads): its
    Problems sheet says why (the site, PBN and USEBIO are not written: they would publish
    nothing); None when the error names no file, or the workbook cannot be written either."""
    from traveller.pipeline import unreadable
    from traveller.publish.workbook import write_workbook

    result = unreadable(error, list(read))
    if result is None:  # (an option's value: no file to list)
        return None
    # titled as given, else by the file's name; no status line: there is nothing to correct
    result.meta = {k: v for k in ("title", "date", "club") if isinstance(v := given[k], str)}
    try:
        return write_workbook(result, output, more_sheets=False)
    except OSError:
        return None


#: The one extension each of --pbn and --usebio takes: XML written under a sheet's name
#: (--usebio club_session.csv) is how a run once destroyed its own input.
OUTPUT_SUFFIXES = {"--pbn": ".pbn", "--usebio": ".xml"}


def _check_targets(input_file: Path, output: Path, others: dict[str, Path | None],
                   points: str | None, given: dict[str, object]) -> None:
    """Before anything is written, a usage error naming the option: an output over an input
    (or inside the --html folder, which is replaced as a whole), two outputs on one path, an
    output named as another format, --points of several sessions."""
    sessions: tuple[Path, ...] = given["sessions"]  # type: ignore[assignment]
    inputs = _inputs(input_file, others, points, given)
    targets = _targets(output, given)
    site = given["html"] if isinstance(given["html"], Path) else None
    for what, path in inputs:
        for option, target in targets:
            if same_file(path, target):
                raise click.UsageError(f"{option} {target} is {what} {path}: the output would "
                                       f"overwrite the input; give another name with "
                                       f"{_renamed(option)}")
        if site is not None and within(path, site):
            raise click.UsageError(f"--html {site} holds {what} {path}, and the site replaces "
                                   "the folder as a whole: the output would overwrite the "
                                   "input; give --html a new or empty folder")
        if _side_csv(path, output):
            raise click.UsageError(f"{what} {path} is where a sheet too long for the workbook "
                                   f"{output} is written (NAME.SHEET.csv beside it): the "
                                   "output would overwrite the input; give another name with -o")
    default_output_free(input_file, output)
    for i, (option, target) in enumerate(targets):
        twice = next((o for o, t in targets[i + 1:] if same_file(target, t)), None)
        if twice is not None:  # (the second would replace the first)
            raise click.UsageError(f"{target} is given for two outputs of this run ({option} "
                                   f"and {twice}): give each its own name")
        if site is not None and option != "--html" and within(target, site):
            raise click.UsageError(f"{option} {target} is inside the --html folder {site}, "
                                   "which the site replaces as a whole: write it outside "
                                   "the folder")
    for option, suffix in OUTPUT_SUFFIXES.items():
        file = given[option.lstrip("-")]
        if isinstance(file, Path) and file.suffix.lower() != suffix:
            what = f"a {file.suffix} name" if file.suffix else "a name without an extension"
            raise click.UsageError(f"{option} {file}: {what} is not for {option[2:].upper()} "
                                   f"results (a sheet traveller reads could be written over); "
                                   f"give a name ending in {suffix}")
    if points and sessions:
        raise click.UsageError("--points awards one session; score each session apart "
                               "(the ladder adds them up: traveller ladder)")
    if output.suffix.lower() != ".xlsx":
        raise click.UsageError(f"-o {output}: the results workbook is written as .xlsx; "
                               "give a name ending in .xlsx")


def _inputs(input_file: Path, others: dict[str, Path | None], points: str | None,
            given: dict[str, object]) -> list[tuple[str, Path]]:
    """Every file the run reads, each with how the user gave it (for the message)."""
    sessions: tuple[Path, ...] = given["sessions"]  # type: ignore[assignment]
    named: list[tuple[str, Path | None]] = [
        ("the input sheet", input_file), *((f"the {k} file", v) for k, v in others.items()),
        ("the --carry-over file", given["carry_over"]),  # type: ignore[list-item]
        *(("the --session file", s) for s in sessions)]
    if isinstance(scale := given.get("vp_scale"), str) and scale != "wbf":  # (a VP table)
        named.append(("the --vp-scale file", Path(scale)))
    if points:
        from traveller.read.scales import split_spec

        name = split_spec(points.strip())[0]
        if name.lower().endswith(".toml"):  # (else a built-in scale, no file)
            named.append(("the --points scale file", Path(name)))
    return [(what, p) for what, p in named if isinstance(p, Path)]


def _output_by_default() -> bool:
    """True when a command is running and its output is the default name (no -o given)."""
    context = click.get_current_context(silent=True)
    return context is not None and context.get_parameter_source("output") in (
        click.core.ParameterSource.DEFAULT, None)


def default_output_free(input_file: Path, output: Path, named: str = "_results.xlsx") -> None:
    """The workbook named by default (no -o: INPUT's name + ``named``) replaces only one
    traveller wrote from this input: not a workbook of the user's own that happens to bear
    the name, nor the results of x.xlsx when scoring x.csv. A name given with -o is the
    user's to replace."""
    if not _output_by_default() or not output.exists():
        return
    from traveller.publish.book import written_from

    source = written_from(output)
    if source == input_file.name:
        return
    held = (f"was written from {source}, not from {input_file.name}" if source
            else "is not a workbook traveller wrote")
    other = output.with_name(f"{input_file.stem}_{input_file.suffix.lstrip('.')}{named}")
    raise click.UsageError(f"the workbook {output} (INPUT's name + {named}) {held}, "
                           "and would be written over; name the workbook with -o (a file "
                           f"given with -o is replaced), e.g. -o {other}")


def _targets(output: Path, given: dict[str, object]) -> list[tuple[str, Path]]:
    """Every path the run writes (the side CSVs apart: :func:`_side_csv`), by its option."""
    targets = [("the workbook (by default INPUT's name + _results.xlsx)" if _output_by_default()
                else "-o", output)]
    targets += [(f"--{k}", v) for k in ("html", "pbn", "usebio") if isinstance(v := given[k], Path)]
    if isinstance(given["html"], Path):  # the director's page, beside the workbook
        from traveller.publish.director_page import director_path

        targets.append(("the director's page (beside -o, with --html)", director_path(output)))
    return targets


def _renamed(option: str) -> str:
    """The option to give another name: the director's page and default workbook follow -o."""
    return option if option.startswith("--") else "-o"


def within(path: Path, folder: Path, itself: bool = False) -> bool:
    """True when ``path`` is inside ``folder`` (links resolved); the folder itself only
    with ``itself``."""
    try:
        inner, outer = path.resolve(), folder.resolve()
    except OSError:
        return False
    return (itself or inner != outer) and inner.is_relative_to(outer)


def _side_csv(path: Path, workbook: Path) -> bool:
    """True when ``path`` may be a side CSV of ``workbook``: NAME.SHEET.csv beside it,
    written when a sheet is longer than a workbook holds (which sheet is known only then)."""
    try:
        beside = workbook.absolute().parent.resolve()
        names = {path.absolute().parent.resolve() / path.name, path.resolve()}
    except OSError:
        return False
    return any(p.parent == beside and p.name.startswith(f"{workbook.stem}.")
               and p.suffix.lower() == ".csv" and len(p.name) > len(workbook.stem) + 5
               for p in names)


def _report(result: Result, input_file: Path, written: list[Path], not_written: list[str],
            untitled: bool) -> None:
    """What was scored and written, the notes, the problems' count; exit 3 with problems or
    an output left out."""
    t = result.travellers
    method = str(result.settings.get("method", "mp"))
    how = ", ".join(dict.fromkeys([result.movement_shown, method]))  # (teams: once)
    ranked = plural(len(result.ranking), result.ranked_as)
    click.echo(f"{input_file}: {plural(len(t), 'result')} on "
               f"{plural(t['board'].nunique(), 'board')}, {ranked} ranked ({how}); wrote "
               f"{', '.join(str(p) for p in written)}")
    for note in not_written:
        click.echo(f"not written: {note}", err=True)
    if untitled:
        click.echo(f"note: the input has no title row: the results are titled "
                   f"{result.meta.get('title', '')!r}; give one with --title \"Tuesday pairs\" "
                   "(and --date, --club)", err=True)
    if str(result.settings.get("dd", "")).startswith("not installed"):
        click.echo(f"note: the deals are shown without double dummy and par: DDS is "
                   f"{result.settings['dd']}", err=True)
    if not result.problems.empty:
        counts = result.problems["code"].value_counts()
        listed = ", ".join(f"{n} {code}" for code, n in counts.items())
        click.echo(f"{plural(len(result.problems), 'problem')} listed on the Problems sheet: "
                   f"{listed}")
    if not_written or not result.problems.empty:
        sys.exit(EXIT_PROBLEMS)


def _titled_by_file(result: Result, source: Path) -> bool:
    from traveller.publish.meta import titled_by_file

    return titled_by_file(result.meta, source)


def _check_vp_scale(given: dict[str, object]) -> None:
    """--vp-scale: wbf, or a file that exists (a usage error before anything is read)."""
    scale = given.get("vp_scale")
    if isinstance(scale, str) and scale != "wbf" and not Path(scale).is_file():
        raise click.BadParameter(f"{scale!r}: give wbf, or a VP table file (a CSV with the "
                                 "columns imps_from, imps_to, vp_winner, vp_loser) that exists",
                                 param_hint="--vp-scale")


def _check_points(points: str | None) -> None:
    """A --points value that names no scale, or a scale without its inputs: a usage error
    (exit 2) before anything is read. A scale file that exists but cannot be used is the
    run's failure (exit 1), listed as that file's problem."""
    if points is None:
        return
    from traveller.read.scales import ScaleError, read_scale, split_spec

    try:
        scale = read_scale(points)
    except ScaleError as exc:
        if Path(split_spec(points)[0]).is_file():
            return  # (the file's own problem: listed when the run reads it)
        raise click.BadParameter(str(exc), param_hint="--points") from None
    try:
        scale.check_inputs()
    except ScaleError as exc:
        raise click.BadParameter(str(exc), param_hint="--points") from None


def _check_publication(given: dict[str, object]) -> None:
    """--start a time of day; --final not beside a correction period of its own."""
    from traveller.publish.meta import start_time

    start = given["start"]
    if isinstance(start, str) and start_time(start) is None:
        raise click.BadParameter(f"{start!r}: give the time the session started, such as 19:30",
                                 param_hint="--start")
    context = click.get_current_context(silent=True)
    if given["final"] and context is not None and context.get_parameter_source(
            "correction_minutes") != click.core.ParameterSource.DEFAULT:
        raise click.UsageError("--final publishes without a correction period; leave out "
                               "--correction-minutes (or give --correction-minutes 0)")


def _publish(result: Result, output: Path, given: dict[str, object],
             not_written: list[str], quiet: bool = False) -> list[Path]:
    """Title, date, club and status on the results; the workbook and the other outputs
    (a PBN or USEBIO file the result cannot be written as goes to ``not_written``)."""
    from traveller.publish.meta import Publication
    from traveller.publish.outputs import check_outputs, stamp, write_outputs
    from traveller.publish.workbook import write_workbook

    director = None
    if given["html"] is not None:  # the site's modules (and Jinja2) only when asked for
        from traveller.publish.director_page import director_path

        director = director_path(output)
    if any(given[k] is not None for k in ("html", "pbn", "usebio")):  # else nothing to check
        check_outputs(result, html=given["html"], pbn=given["pbn"], usebio=given["usebio"],
                      director=director)
    text = {k: v if isinstance(v := given[k], str) else None
            for k in ("title", "date", "club", "start")}
    minutes = given["correction_minutes"]
    stamp(result, Publication(**text, correction_minutes=0 if given["final"] else minutes
                              if isinstance(minutes, int) else 30))
    from traveller.progress import Bar

    paths = {k: v if isinstance(v := given[k], Path) else None for k in ("html", "pbn", "usebio")}
    site = None
    if paths["html"] is not None:  # begun first: half a large session's pages are written
        from traveller.publish.site import SiteWriter  # by a second process meanwhile

        site = SiteWriter(result, paths["html"], jobs=None)
    try:
        with Bar("workbook", "row", thousands=True, quiet=quiet) as bar:  # rows, side CSVs too
            written = [write_workbook(result, output, progress=bar.update if bar.on else None)]
        with Bar("website", "page", quiet=quiet) as bar:
            written += write_outputs(result, html=site, pbn=paths["pbn"],
                                     usebio=paths["usebio"], not_written=not_written,
                                     director=director, progress=bar.update if bar.on else None)
    finally:
        if site is not None:
            site.abandon()  # (nothing left to do once finished; else the pages are removed)
    return written


def _options(given: dict[str, object]) -> Options:
    """The scoring options of ``score`` (rulings and tournament structure)."""
    from traveller.pipeline import Options

    # Each option of the command is the Options field of the same name.
    values = {k: v for k, v in given.items() if k in Options.__dataclass_fields__}
    values["phantom"] = tuple(values["phantom"])  # type: ignore[arg-type]
    values["arrow_switch"] = board_list(str(values["arrow_switch"]))
    context = click.get_current_context(silent=True)
    if values.get("profile") and context is not None:  # the profile fills what is not given
        default = click.core.ParameterSource.DEFAULT
        values = {k: v for k, v in values.items()
                  if k == "profile" or context.get_parameter_source(k) != default}
    return with_profile(values)


def decimals_pair(text: str | None) -> tuple[int, int] | None:
    """--frequency-decimals: two whole numbers such as 1,2; anything else is a usage error."""
    if text is None:
        return None
    parts = [p.strip() for p in str(text).split(",")]
    if len(parts) != 2 or not all(p.isdigit() and int(p) <= 6 for p in parts):
        raise click.BadParameter(f"{text!r}: give two whole numbers 0 to 6, such as 1,2",
                                 param_hint="--frequency-decimals")
    return int(parts[0]), int(parts[1])


def date_value(text: str | None) -> str | None:
    """--date: any text, but one written as a date must be one (31/02/2026 is refused)."""
    from traveller.publish.dates import impossible_date

    if impossible_date(text):
        raise click.BadParameter(f"{text!r} is written as a date but there is no such day; "
                                 "write it day first, as 3/11/2026 or 3 November 2026",
                                 param_hint="--date")
    return text


def phantom_values(pairs: tuple[str, ...]) -> tuple[str, ...]:
    """--phantom: each a pair number (18, EW18); anything else is a usage error."""
    from traveller.options import check_phantom

    for pair in pairs:
        try:
            check_phantom(pair)
        except ValueError as exc:
            raise click.BadParameter(str(exc), param_hint="--phantom") from None
    return pairs


def trim_value(text: str) -> int | str:
    """--trim: a whole number, or a percentage such as 20%; anything else is a usage error."""
    from traveller.options import trim_fraction

    try:
        trim_fraction(text)
    except ValueError as exc:
        raise click.BadParameter(str(exc), param_hint="--trim") from None
    return text.strip() if text.strip().endswith("%") else int(text)

def same_file(a: Path, b: Path) -> bool:
    """True when two paths name one file (links resolved; case-folding file systems too)."""
    try:
        return a.resolve() == b.resolve() or (b.exists() and a.exists() and a.samefile(b))
    except OSError:
        return False


def board_list(text: str) -> tuple[int, ...]:
    """ "19-21,25" -> (19, 20, 21, 25); a bad list is a usage error."""
    boards: list[int] = []
    for part in filter(None, (p.strip() for p in text.split(","))):
        first, _, last = part.partition("-")
        if not first.isdigit() or (last and not last.isdigit()):
            raise click.BadParameter(f"{part!r} is not a board or a range such as 19-21",
                                     param_hint="--arrow-switch")
        boards.extend(range(int(first), int(last or first) + 1))
    return tuple(boards)
