"""The command line: thin click commands over the library.

Exit codes (for cron and scripts): 0 all scored; 1 failed (nothing written);
2 usage error; 3 written, with problems listed on the Problems sheet.
"""

from __future__ import annotations

import sys
from pathlib import Path

import click

from traveller import __version__
from traveller.errors import TravellerError
from traveller.rank import SCALES
from traveller.schema import NOTATIONS

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
@click.option("--debug", is_flag=True, help="Show the full traceback on a failure.")
def score(input_file: Path, output: Path | None, scale: str, movement: str,
          notation: str | None, names: Path | None, encoding: str | None, debug: bool) -> None:
    """Score one session: matchpoints, ranking and a formatted workbook.

    INPUT is a traveller sheet (CSV, TSV, xlsx, xlsm, xls or ods) with one row
    per result. Rows that cannot be scored are listed on the Problems sheet.

    \b
    Example:
      traveller score sample_data/club_session.xlsx -o results.xlsx
    Exit codes: 0 all scored, 1 failed, 2 usage error, 3 written with problems.
    """
    from traveller.pipeline import process
    from traveller.write import write_workbook

    output = output or input_file.with_name(f"{input_file.stem}_results.xlsx")
    try:
        if output.resolve() == input_file.resolve():
            raise TravellerError(f"{output}: the output would overwrite the input; "
                                 "choose another -o")
        result = process(input_file, scale=scale, movement=movement, notation=notation,
                         names=names, encoding=encoding)
        write_workbook(result, output)
    except (TravellerError, OSError, ValueError) as exc:
        if debug:
            raise
        click.echo(f"error: {exc}", err=True)
        sys.exit(EXIT_FAILED)
    t = result.travellers
    click.echo(f"{input_file}: {len(t)} results on {t['board'].nunique()} boards, "
               f"{len(result.ranking)} pairs ranked ({result.settings['movement']}); "
               f"wrote {output}")
    if not result.problems.empty:
        counts = result.problems["code"].value_counts()
        listed = ", ".join(f"{n} {code}" for code, n in counts.items())
        click.echo(f"{len(result.problems)} problem(s) listed on the Problems sheet: {listed}")
        sys.exit(EXIT_PROBLEMS)
