"""The command line: thin click commands over the library.

Exit codes (for cron and scripts): 0 all scored; 1 failed (nothing written);
2 usage error; 3 written, with problems listed on the Problems sheet.
"""

from __future__ import annotations

import sys
from pathlib import Path
from typing import TYPE_CHECKING

import click

if TYPE_CHECKING:
    from traveller.pipeline import Options

from traveller import __version__
from traveller.errors import TravellerError
from traveller.options import METHODS, NOTATIONS, SCALES

EXIT_OK, EXIT_FAILED, EXIT_USAGE, EXIT_PROBLEMS = 0, 1, 2, 3


@click.group(context_settings={"help_option_names": ["-h", "--help"]})
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
@click.option("--names", type=click.Path(dir_okay=False, path_type=Path),
              help="Names file (pair, line, names) [default: the workbook's names sheet].")
@click.option("--encoding", default=None, help="Force the CSV encoding, e.g. cp1250.")
@click.option("--adjusted-session-pct", is_flag=True,
              help="Average-plus is the better of 60 % and the pair's session %, average-minus "
              "the worse of 40 % and it (EBU/WBF option) [default: plain 60/40, the Laws].")
@click.option("--phantom-award", type=click.FloatRange(0, 100), default=None, metavar="PCT",
              help="% of the top for the pair meeting the phantom on TD/Bye lines, e.g. 60 "
              "[default: none: a sit-out, the pair's total factored].")
@click.option("--phantom", multiple=True, metavar="PAIR",
              help="The phantom pair, e.g. 18 or EW18 (repeatable) [default: a pair whose "
              "every line is TD/Bye].")
@click.option("--sections", type=click.Choice(["apart", "field"]), default="apart",
              show_default=True, help="Matchpoint and rank each section apart or across "
              "the whole field.")
@click.option("--one-ranking", is_flag=True, help="Rank both lines of a Mitchell together.")
@click.option("--arrow-switch", default="", metavar="BOARDS",
              help="Boards on which the arrow was switched, e.g. 19-21,25 (or an Arrow column).")
@click.option("--session", "sessions", multiple=True, metavar="FILE",
              type=click.Path(dir_okay=False, path_type=Path),
              help="Another session of the same event (repeatable): one event ranking.")
@click.option("--combine", type=click.Choice(["average", "total"]), default="average",
              show_default=True, help="Event ranking by average session % or total MP.")
@click.option("--carry-over", type=click.Path(dir_okay=False, path_type=Path),
              help="Carry-over file (pair, line, carry) added to the event score.")
@click.option("--method", type=click.Choice(METHODS), default="mp", show_default=True,
              help="Scoring method: matchpoints, cross-IMPs, Butler, total points, Russian "
              "(HCP target) or teams (IMPs and VPs).")
@click.option("--divisor", type=click.Choice(["n-1", "n", "none"]), default="n-1",
              show_default=True, help="Cross-IMPs: divide each sum by n-1, n, or not at all.")
@click.option("--trim", type=click.IntRange(0, 1000), default=1, show_default=True,
              help="Butler: results dropped at each end for the datum.")
@click.option("--datum-rounding", type=click.Choice(["half-away", "half-even"]),
              default="half-away", show_default=True, help="Butler: datum to 10, halves "
              "away from zero or to even.")
@click.option("--vp-scale", default="wbf", show_default=True, metavar="wbf|FILE",
              help="Teams: the WBF 20-point scale or a VP table (imps_from, imps_to, "
              "vp_winner, vp_loser).")
@click.option("--chicago", is_flag=True, help="Russian: vulnerability by Chicago deal "
              "(1-4) rather than by board number.")
@click.option("--debug", is_flag=True, help="Show the full traceback on a failure.")
def score(input_file: Path, output: Path | None, scale: str, movement: str,
          notation: str | None, names: Path | None, encoding: str | None, debug: bool,
          **structure: object) -> None:
    """Score one session: matchpoints, ranking and a formatted workbook.

    INPUT is a traveller sheet (CSV, TSV, xlsx, xlsm, xls or ods, USEBIO,
    PBN) with one row per result. Directors' rulings written in the sheet
    (A+, A60/40, NP, TD, 30%+650/70%-100, +420/-450) are applied, see
    docs/rulings.md. Rows that cannot be scored are listed on the Problems sheet.

    \b
    Example:
      traveller score sample_data/club_session.xlsx -o results.xlsx
      traveller score warsaw.csv --phantom-award 60
      traveller score day1.xlsx --session day2.xlsx --combine total
      traveller score sample_data/club_session.csv --method butler
      traveller score sample_data/chicago_russian.csv --method russian --chicago
    Exit codes: 0 all scored, 1 failed, 2 usage error, 3 written with problems.
    """
    from traveller.pipeline import process
    from traveller.publish.workbook import write_workbook

    output = output or input_file.with_name(f"{input_file.stem}_results.xlsx")
    inputs = [input_file, names, structure["carry_over"], *structure["sessions"]]  # type: ignore[misc]
    clash = [p for p in inputs if isinstance(p, Path) and same_file(p, output)]
    if clash:
        raise click.UsageError(f"-o {output} is the input {clash[0]}; the output would "
                               "overwrite the input: choose another -o")
    if output.suffix.lower() != ".xlsx":
        raise click.UsageError(f"-o {output}: the results workbook is written as .xlsx; "
                               "give a name ending in .xlsx")
    try:
        kwargs = {"scale": scale, "movement": movement, "notation": notation, "names": names,
                  "encoding": encoding, "options": _options(structure)}
        if structure["sessions"]:
            from traveller.events import process_event

            sessions: tuple[Path, ...] = structure["sessions"]  # type: ignore[assignment]
            result = process_event([input_file, *sessions], method=str(structure["combine"]),
                                   carry_over=structure["carry_over"], **kwargs)  # type: ignore[arg-type]
        else:
            result = process(input_file, **kwargs)  # type: ignore[arg-type]
        write_workbook(result, output)
    except (TravellerError, OSError, ValueError) as exc:
        if debug:
            raise
        click.echo(f"error: {exc}", err=True)
        sys.exit(EXIT_FAILED)
    t = result.travellers
    who = "teams" if result.settings.get("method") == "teams" else "pairs"
    click.echo(f"{input_file}: {len(t)} results on {t['board'].nunique()} boards, "
               f"{len(result.ranking)} {who} ranked ({result.settings['movement']}, "
               f"{result.settings.get('method', 'mp')}); wrote {output}")
    if not result.problems.empty:
        counts = result.problems["code"].value_counts()
        listed = ", ".join(f"{n} {code}" for code, n in counts.items())
        click.echo(f"{len(result.problems)} problem(s) listed on the Problems sheet: {listed}")
        sys.exit(EXIT_PROBLEMS)


def _options(given: dict[str, object]) -> Options:
    """The scoring options of ``score`` (rulings and tournament structure)."""
    from traveller.pipeline import Options

    # Each option of the command is the Options field of the same name.
    values = {k: v for k, v in given.items() if k in Options.__dataclass_fields__}
    values["phantom"] = tuple(values["phantom"])  # type: ignore[arg-type]
    values["arrow_switch"] = board_list(str(values["arrow_switch"]))
    return Options(**values)  # type: ignore[arg-type]

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


from traveller.batch.cli import batch  # noqa: E402

main.add_command(batch)
