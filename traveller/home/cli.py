"""The ``rubber``, ``chicago`` and ``three-handed`` commands (pandas loads only when one runs)."""

from __future__ import annotations

import sys
from collections.abc import Callable
from pathlib import Path
from typing import TYPE_CHECKING, Any

import click

from traveller.words import noun, plural

if TYPE_CHECKING:
    from traveller.home.result import HomeResult

_NOTATIONS = ["en", "pl", "ru"]


def _common(command: Callable[..., Any]) -> Callable[..., Any]:
    """SHEET, -o, --settle-rounding, --notation, --encoding and --debug, shared by all three."""
    for option in reversed([
        click.argument("sheet", type=click.Path(exists=True, dir_okay=False, path_type=Path)),
        click.option("-o", "--output", type=click.Path(dir_okay=False, path_type=Path),
                     help="Score-pad workbook to write [default: SHEET's name + _pad.xlsx]."),
        click.option("--settle-rounding", type=click.Choice(["half-up", "half-down"]),
                      default="half-up", show_default=True,
                      help="Settlement in hundreds: an exact 50 counts as a hundred (half-up) "
                      "or not."),
        click.option("--notation", type=click.Choice(_NOTATIONS), default=None,
                     help="Force the sheet's notation [default: detected from its contracts]."),
        click.option("--encoding", default=None, help="Force the CSV encoding, e.g. cp1251."),
        click.option("--debug", is_flag=True, help="Show the full traceback on a failure."),
    ]):
        command = option(command)
    return command


_RULES = click.option("--rules", type=click.Choice(["modern", "classic"]), default="modern",
                      show_default=True, help="Modern Laws, or the classic (older) table: "
                      "doubled undertricks 100/200 not vul, redoubled make +50, grand slam 750.")
_UNFINISHED = click.option("--unfinished-partscore", type=click.Choice(["100", "50"]),
                           default="100", show_default=True,
                           help="Bonus for a part-score in an unfinished rubber's last game.")


@click.command()
@_common
@_RULES
@_UNFINISHED
def rubber(sheet: Path, output: Path | None, unfinished_partscore: str, debug: bool,
           **options: Any) -> None:
    """Score a rubber-bridge sheet and draw the score pad, one page per rubber.

    SHEET has one row per deal: Deal, Declarer (N/E/S/W or NS/EW), Contract
    (4S, 3NTX, PASS), Tricks or Result (10, =, +1, -2), Honours (N 100, EW 150).

    \b
    Example:
      traveller rubber sample_data/home_rubber.csv -o rubber.xlsx
      traveller rubber sample_data/home_rubber_ru.xlsx --rules classic
    Exit codes: 0 all scored, 1 failed, 2 usage error, 3 written with problems.
    """
    from traveller.home.rubber import rubber as score

    _run(sheet, output, debug, "rubber", lambda: score(
        sheet, unfinished_partscore=int(unfinished_partscore), **options))


@click.command()
@_common
@click.option("--partscore-bonus", type=click.Choice(["50", "100"]), default="50",
              show_default=True, help="Bonus for a part-score made.")
def chicago(sheet: Path, output: Path | None, partscore_bonus: str, debug: bool,
            **options: Any) -> None:
    """Score a Chicago sheet (rounds of four deals) and draw one page per round.

    Deal 1 nobody vulnerable, 2 E-W, 3 N-S, 4 both; dealer N, E, S, W.

    \b
    Example:
      traveller chicago sample_data/home_chicago.csv -o chicago.xlsx
      traveller chicago sample_data/home_chicago_ru.xlsx --partscore-bonus 100
    Exit codes: 0 all scored, 1 failed, 2 usage error, 3 written with problems.
    """
    from traveller.home.chicago import chicago as score

    _run(sheet, output, debug, "chicago", lambda: score(
        sheet, partscore_bonus=int(partscore_bonus), **options))


@click.command("three-handed")
@_common
@_RULES
@_UNFINISHED
@click.option("--players", default=None, metavar="A,B,C",
              help="The three players [default: the sheet's Players row, else the "
              "declarers in order of first appearance].")
def three_handed(sheet: Path, output: Path | None, unfinished_partscore: str, debug: bool,
                 **options: Any) -> None:
    """Score a three-handed (Phillips) bridge sheet, with nullo, one page per rubber.

    Declarer is the player's name; nullo is written 3 nullo or 3NL.

    \b
    Example:
      traveller three-handed sample_data/home_three.csv -o three.xlsx
      traveller three-handed sheet.csv --players Anna,Boris,Vera
    Exit codes: 0 all scored, 1 failed, 2 usage error, 3 written with problems.
    """
    from traveller.home.three import three_handed as score

    _run(sheet, output, debug, "three-handed", lambda: score(
        sheet, unfinished_partscore=int(unfinished_partscore), **options))


def _run(sheet: Path, output: Path | None, debug: bool, game: str,
         score: Callable[[], HomeResult]) -> None:
    """Score, write the pad, print a summary; exit 1 on failure (a sheet that cannot be read
    still gets its pad, whose Problems sheet says why), 3 when problems were listed."""
    from traveller.cli import EXIT_FAILED, EXIT_PROBLEMS, default_output_free, same_file
    from traveller.errors import TravellerError

    output = output or sheet.with_name(f"{sheet.stem}_pad.xlsx")
    if same_file(sheet, output):
        raise click.UsageError(f"-o {output} is the input; choose another -o")
    if output.suffix.lower() != ".xlsx":
        raise click.UsageError(f"-o {output}: the score pad is written as .xlsx; give a name "
                               "ending in .xlsx")
    default_output_free(sheet, output, "_pad.xlsx")
    result: HomeResult | None = None
    try:
        result = score()
        result.to_excel(output)
    except (TravellerError, OSError, ValueError) as exc:
        if debug:
            raise
        said = str(exc)
        if isinstance(exc, TravellerError) and result is None and _unreadable_pad(
                game, sheet, output, exc):
            said += f" (listed on the Problems sheet of {output}; nothing else written)"
        click.echo(f"error: {said}", err=True)
        sys.exit(EXIT_FAILED)
    click.echo(f"{sheet}: {summary(result)}; wrote {output}")
    if result.settings.get("notation_why"):  # the contracts read two ways: say what decided
        click.echo(f"notation: {result.settings['notation_why']} (--notation to choose another)")
    if not result.problems.empty:
        counts = result.problems["code"].value_counts()
        listed = ", ".join(f"{n} {code}" for code, n in counts.items())
        click.echo(f"{plural(len(result.problems), 'problem')} listed on the Problems sheet "
                   f"(those deals skipped): {listed}")
        sys.exit(EXIT_PROBLEMS)


def _unreadable_pad(game: str, sheet: Path, output: Path, error: Exception) -> bool:
    """The pad of a sheet that cannot be read: no deals, its Problems sheet saying why;
    False when the error names no file, or the pad cannot be written either."""
    import pandas as pd

    from traveller.home.result import HomeResult
    from traveller.problems import unreadable_file
    from traveller.read.paths import printable
    from traveller.schema import PROBLEM_COLUMNS

    found = unreadable_file(str(error), [sheet], printable)
    if found is None:
        return False
    empty = pd.DataFrame()
    pad = HomeResult(game, empty, empty, found[PROBLEM_COLUMNS].reset_index(drop=True),
                     ["ns", "ew"], source=printable(str(sheet)))
    try:
        pad.to_excel(output)
    except OSError:
        return False
    return True


def summary(result: HomeResult) -> str:
    """One line: deals scored, rubbers or rounds, and the settlement."""
    deals = int((result.ledger["entry"] == "deal").sum()) if len(result.ledger) else 0
    t = result.totals
    if result.game == "three-handed":
        nets = ", ".join(f"{p} {s:+d}" for p, s in zip(t["player"], t["settlement"],
                                                        strict=True))
        rubbers = int(result.ledger["rubber"].nunique())
        return f"{plural(deals, 'deal')}, {plural(rubbers, 'rubber')}; settle {nets}"
    unit = "round" if result.game == "chicago" else "rubber"
    ns = int(t["settlement"].sum()) if len(t) else 0
    hundreds = noun(abs(ns), "hundred")
    return f"{plural(deals, 'deal')}, {plural(len(t), unit)}; N-S {ns:+d} {hundreds} in all"
