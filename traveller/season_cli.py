"""``traveller ladder``: a season's ladder from published results (thin over season.py)."""

from __future__ import annotations

import sys
from pathlib import Path

import click

from traveller.errors import TravellerError
from traveller.words import plural


@click.command("ladder")
@click.argument("results", nargs=-1, required=True,
                type=click.Path(exists=True, path_type=Path), metavar="RESULTS_DIR...")
@click.option("-o", "--output", type=click.Path(dir_okay=False, path_type=Path),
              default=Path("ladder.xlsx"), show_default=True, help="Ladder workbook to write.")
@click.option("--by", type=click.Choice(["pct", "points"]), default="pct", show_default=True,
              help="Rank by session percentages or by master points won.")
@click.option("--best", type=click.IntRange(1), default=None, metavar="N",
              help="Count each player's best N sessions [default: all].")
@click.option("--of", "of_latest", type=click.IntRange(1), default=None, metavar="M",
              help="Only each player's latest M sessions [default: all].")
@click.option("--min-sessions", type=click.IntRange(0), default=1, show_default=True,
              help="Sessions a player needs to qualify.")
@click.option("--min-partners", type=click.IntRange(0), default=1, show_default=True,
              help="Different partners a player needs to qualify.")
@click.option("--imp-k", type=float, default=None, metavar="K",
              help="IMP sessions join a % ladder as 50 + K x IMPs per board (clubs use "
              "about 5.65-6.5) [required when an IMP session is included].")
@click.option("--from", "date_from", default=None, metavar="YYYY-MM-DD",
              help="First date of the season.")
@click.option("--to", "date_to", default=None, metavar="YYYY-MM-DD",
              help="Last date of the season.")
@click.option("--title", default="Ladder", show_default=True, help="Title of the ladder.")
@click.option("--html", type=click.Path(file_okay=False, path_type=Path), metavar="SITE_DIR",
              help="Also write the ladder page and a page per player into SITE_DIR.")
def ladder_command(results: tuple[Path, ...], output: Path, by: str, best: int | None,
                   of_latest: int | None, min_sessions: int, min_partners: int,
                   imp_k: float | None, date_from: str | None, date_to: str | None,
                   title: str, html: Path | None) -> None:
    """Rank players over a season from published results.

    RESULTS_DIR is an OUTDIR of traveller batch (its stored snapshots are
    read), a folder of results workbooks, or a results workbook. A correction
    re-published since the last run changes the ladder, and the changes are
    listed (and written to <output>_changes.txt); with nothing new nothing is
    rewritten.

    \b
    Example:
      traveller ladder results/riverside -o ladder.xlsx --best 8 --min-sessions 5
      traveller ladder results --by points --from 2026-01-01 --to 2026-12-31
    """
    from traveller.season import LadderRule, ladder, write_ladder

    if output.suffix.lower() != ".xlsx":
        raise click.UsageError(f"-o {output}: the ladder is written as .xlsx")
    if (read := _read_by_the_ladder(output, results)) is not None:
        raise click.UsageError(f"-o {output}: it is a results workbook the ladder reads (from "
                               f"{read}); the ladder would overwrite it: choose another name")
    try:
        rule = LadderRule(by=by, best=best, of=of_latest, min_sessions=min_sessions,
                          min_partners=min_partners, imp_k=imp_k, date_from=date_from,
                          date_to=date_to)
        season = ladder(list(results), rule)
        written = write_ladder(season, output, title=title, site=html)
    except (TravellerError, OSError, ValueError) as exc:
        click.echo(f"error: {exc}", err=True)
        sys.exit(1)
    for note in season.notes:
        click.echo(f"warning: {note}", err=True)
    players = len(season.standings)
    sessions = season.sessions["session"].nunique() if len(season.sessions) else 0
    if not written:
        click.echo(f"{output}: {plural(players, 'player')} over {plural(sessions, 'session')}; "
                   "nothing changed")
        return
    click.echo(f"{output}: {plural(players, 'player')} over {plural(sessions, 'session')}; wrote "
               f"{', '.join(str(p) for p in written)}")
    for line in season.changes:
        click.echo(f"  {line}")


def _read_by_the_ladder(output: Path, results: tuple[Path, ...]) -> Path | None:
    """The RESULTS argument ``output`` is a session workbook of, when it is one (a results
    workbook given, or one with a Ranking sheet inside a folder given); else None.

    A ladder written into a results folder is not read back (it has no Ranking
    sheet), so only an existing session's workbook is refused.
    """
    from traveller.cli import same_file

    if not output.is_file():
        return None
    for given in results:
        if same_file(given, output):
            return given
        if given.is_dir() and output.resolve().is_relative_to(given.resolve()):
            from traveller.read.guard import open_workbook

            try:
                if "Ranking" in open_workbook(output).sheet_names:
                    return given
            except (TravellerError, OSError, ValueError):
                continue  # not a workbook the ladder can read: not one of this folder's
    return None
