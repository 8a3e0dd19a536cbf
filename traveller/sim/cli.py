"""``traveller sim``: a simultaneous pairs from a folder of club files (imports only click)."""

from __future__ import annotations

import sys
from pathlib import Path

import click

from traveller.words import plural

EXIT_OK, EXIT_FAILED, EXIT_PROBLEMS = 0, 1, 3


@click.command()
@click.argument("inbox", nargs=-1, required=True,
                type=click.Path(exists=True, path_type=Path))
@click.option("-o", "--output", required=True, type=click.Path(file_okay=False, path_type=Path),
              help="Folder for the national ranking, the summary and one workbook per club.")
@click.option("--engine", type=click.Choice(["local", "dask"]), default="local",
              show_default=True, help="Score in this process, or on a Dask cluster.")
@click.option("--scheduler", metavar="ADDRESS", help="Dask: a running scheduler, e.g. "
              "tcp://host:8786 [default: a LocalCluster on this machine's cores].")
@click.option("--workers", type=click.IntRange(1), help="Dask: the LocalCluster's worker "
              "processes [default: one per core].")
@click.option("--clubs-per-task", type=click.IntRange(1), help="Clubs read and written by "
              "one task [default: about four tasks per core, at most 50 clubs each].")
@click.option("--method", type=click.Choice(["mp", "ximp", "butler"]), default="mp",
              show_default=True, help="Field-wide matchpoints, cross-IMPs or Butler IMPs.")
@click.option("--scale", type=click.Choice(["2/1/0", "1/0.5"]), default="2/1/0",
              show_default=True, help="Matchpoint scale.")
@click.option("--divisor", type=click.Choice(["n-1", "n", "none"]), default="n-1",
              show_default=True, help="Cross-IMPs: divide each sum by n-1, n, or not at all.")
@click.option("--trim", type=click.IntRange(0), default=1, show_default=True,
              help="Butler: results dropped at each end for the datum.")
@click.option("--datum-rounding", type=click.Choice(["half-away", "half-even"]),
              default="half-away", show_default=True, help="Butler: datum to 10.")
@click.option("--phantom-award", type=click.FloatRange(0, 100), default=None, metavar="PCT",
              help="% of the top for a pair meeting the phantom (TD/Bye lines).")
@click.option("--movement", type=click.Choice(["auto", "mitchell", "howell"]), default="auto",
              show_default=True, help="Every club's movement (a club's traveller.toml may "
              "set its own).")
@click.option("--notation", type=click.Choice(["en", "pl", "ru"]), default=None,
              help="Force the notation [default: detected per sheet].")
@click.option("--encoding", default=None, help="Force the CSV encoding, e.g. cp1250.")
@click.option("--timeout", type=click.FloatRange(1), default=60.0, show_default=True,
              help="Dask: seconds to wait for the cluster's connection.")
@click.option("--html", is_flag=True, help="Also a website: OUTPUT/index.html (the national "
              "ranking), OUTPUT/clubs.html, and each club's site beside its workbook.")
@click.option("-q", "--quiet", is_flag=True, help="Print only failures.")
@click.option("--debug", is_flag=True, help="Show the full traceback on a failure.")
def sim(inbox: tuple[Path, ...], output: Path, engine: str, scheduler: str | None,
        workers: int | None, clubs_per_task: int | None, timeout: float, html: bool,
        quiet: bool, debug: bool, **scoring: object) -> None:
    """Simultaneous pairs: every club's results scored against the whole field.

    INBOX holds one traveller file per club (any format `traveller score`
    reads; the club is the file's stem, or `club = "..."` in a traveller.toml
    beside it). Writes OUTPUT/national_ranking.csv and .xlsx (one list: place,
    club, line, pair, names, boards, national %, place in the club),
    OUTPUT/clubs/CLUB.xlsx (the club's own ranking and travellers with the
    national figures beside them), OUTPUT/clubs.csv and OUTPUT/summary.json;
    with --html, a website of them too (open OUTPUT/index.html).
    A club file that cannot be read or scored is listed with the reason and
    the field is scored without it; one that cannot be read still gets its
    CLUB.xlsx, whose Problems sheet says why.

    \b
    Example:
      traveller sim inbox/ -o results/
      traveller sim inbox/ -o results/ --html
      traveller sim inbox/ -o results/ --engine dask --workers 2
      traveller sim inbox/ -o results/ --engine dask --scheduler tcp://HOST:8786
    Exit codes: 0 all scored, 1 failed, 2 usage error, 3 some club failed or has
    problems (listed in clubs.csv and on its workbook's Problems sheet).
    """
    for item in inbox:
        if item.is_dir() and (output.resolve() == item.resolve()
                              or item.resolve() in output.resolve().parents):
            raise click.UsageError(f"-o {output} is inside the inbox {item}: the next run "
                                   "would read the outputs as clubs; choose another folder")
        if output.resolve() in item.resolve().parents:
            raise click.UsageError(f"{item} is inside -o {output}: the club workbooks could "
                                   "overwrite an input; choose another folder")
    if scheduler and engine != "dask":
        raise click.UsageError("--scheduler needs --engine dask")
    from traveller.gc_policy import loading
    from traveller.progress import Bar

    with loading():  # what scores and writes the clubs here, the collector held off
        from traveller.sim.api import simultaneous

        if engine == "local":
            import traveller.pipeline
            import traveller.publish.workbook  # noqa: F401

    bar = Bar("traveller sim", "club", quiet=quiet)
    stages = {"scored": "clubs scored", "written": "clubs written"}

    def progress(stage: str, done: int, total: int) -> None:
        if bar.bar is None or bar.bar.desc != stages[stage]:
            bar.start(total, stages[stage])
        bar.update(done)

    try:
        result = simultaneous(list(inbox), engine=engine, scheduler=scheduler, workers=workers,
                              output=output, clubs_per_task=clubs_per_task, timeout=timeout,
                              html=html, progress=progress if bar.on else None, **scoring)
    except (OSError, ValueError, ImportError, TimeoutError) as exc:
        if debug:
            raise
        click.echo(f"error: {exc}", err=True)
        sys.exit(EXIT_FAILED)
    finally:
        bar.close()
    clubs = result.clubs
    failed = result.failed
    for row in failed.itertuples():
        listed = f" (listed on the Problems sheet of {row.workbook})" if row.workbook else ""
        click.echo(f"failed: {row.club} ({row.file}): {row.reason}{listed}", err=True)
    if not quiet:
        problems = int((clubs["status"] == "problems").sum())
        click.echo(f"{len(clubs) - len(failed)} of {plural(len(clubs), 'club')} scored "
                   f"({plural(int(clubs['results'].sum()), 'result')}, "
                   f"{plural(len(result.ranking), 'pair')} ranked; "
                   f"{plural(problems, 'club')} with problems listed); wrote {output}")
    if len(failed) == len(clubs):
        sys.exit(EXIT_FAILED)
    if len(failed) or (clubs["status"] == "problems").any():
        sys.exit(EXIT_PROBLEMS)
