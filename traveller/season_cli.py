"""``traveller ladder``: a season's ladder from published results (thin over season.py)."""

from __future__ import annotations

import sys
from pathlib import Path

import click

from traveller.errors import TravellerError
from traveller.read.paths import STATE_DIR
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
    rewritten. An individual session counts each player's own percentage (it
    gives them no partner). A session that cannot count (a workbook that cannot
    be read, a ranking without players' names) is named with the reason under
    the ladder and on stderr, and the others are counted.

    \b
    Exit codes: 0 written (or nothing changed), 1 failed, nothing written,
    2 usage error (such as -o or --html over what the ladder reads), 3 written,
    with sessions not counted.

    \b
    Example:
      traveller ladder results/riverside -o ladder.xlsx --best 8 --min-sessions 5
      traveller ladder results --by points --from 2026-01-01 --to 2026-12-31
    """
    from traveller.season import LadderRule, ladder, write_ladder

    if output.suffix.lower() != ".xlsx":
        raise click.UsageError(f"-o {output}: the ladder is written as .xlsx")
    _check_outputs(output, results, html)  # (before anything is read)
    try:
        rule = LadderRule(by=by, best=best, of=of_latest, min_sessions=min_sessions,
                          min_partners=min_partners, imp_k=imp_k, date_from=date_from,
                          date_to=date_to)
        season = ladder(list(results), rule)
        uncounted = season.uncounted
        written = write_ladder(season, output, title=title, site=html)
    except (TravellerError, OSError, ValueError) as exc:
        click.echo(f"error: {exc}", err=True)
        sys.exit(1)
    for note in season.notes:
        click.echo(f"warning: {note}", err=True)
    players = len(season.standings)
    sessions = season.sessions["session"].nunique() if len(season.sessions) else 0
    over = f"{plural(players, 'player')} over {plural(sessions, 'session')}"
    if uncounted:
        over += (f" ({plural(len(uncounted), 'session')} not counted: see the warnings and "
                 "the notes under the ladder)")
    if not written:
        click.echo(f"{output}: {over}; nothing changed")
    else:
        click.echo(f"{output}: {over}; wrote {', '.join(str(p) for p in written)}")
        for line in season.changes:
            click.echo(f"  {line}")
    if uncounted:
        sys.exit(3)


#: The standings file, beside -o, of a ladder (read_state's format) has these keys.
_STATE_KEYS = {"format", "players"}


def _check_outputs(output: Path, results: tuple[Path, ...], html: Path | None) -> None:
    """A usage error (exit 2) before anything is read when the ladder would write over
    what it reads or what it did not write: -o, the standings beside it
    (``<output>.json``) and the changes report (``<output>_changes.txt``) on a results
    workbook or a batch's record; the standings file over a JSON file that is not a
    ladder's; --html over a folder of other files or a session's website (as
    ``traveller score --html`` refuses it) or holding a results folder given.
    """
    beside = {"-o": output, "the standings file beside -o": output.with_suffix(".json"),
              "the changes report beside -o": output.with_name(f"{output.stem}_changes.txt")}
    for what, target in beside.items():
        if (read := _read_by_the_ladder(target, results)) is not None:
            said = f"-o {output}" if target == output else f"-o {output}: {what}, {target},"
            where = "given as" if target.resolve() == read.resolve() else "in"
            raise click.UsageError(f"{said} is one of the results the ladder reads ({where} "
                                   f"{read}); the ladder would overwrite it: give -o another "
                                   "name, outside the results it reads")
    state = output.with_suffix(".json")
    if state.is_file() and not _ladder_state(state):
        raise click.UsageError(f"-o {output}: the ladder keeps its standings in {state}, "
                               "which exists and was not written by the ladder; the ladder "
                               "would overwrite it: give -o another name")
    if html is None:
        return
    from traveller.cli import same_file, within
    from traveller.publish.ladder_out import check_ladder_site

    for given in results:
        if same_file(given, html) or within(given, html, itself=True) or within(
                html, given / STATE_DIR, itself=True):
            raise click.UsageError(f"--html {html}: the ladder reads the results {given} "
                                   "there, and would write its pages among them; give --html "
                                   "a new or empty folder outside them")
    try:
        check_ladder_site(html)
    except FileExistsError as exc:
        raise click.UsageError(str(exc)) from None


def _ladder_state(path: Path) -> bool:
    """True when ``path`` is a ladder's standings file (and not, say, a batch's snapshot,
    which has a format and players too)."""
    import json

    try:
        found = json.loads(path.read_text(encoding="utf-8"))
    except (OSError, ValueError):
        return False
    return (isinstance(found, dict) and set(found) >= _STATE_KEYS and "ranking" not in found
            and isinstance(found["players"], dict) and "rows" not in found["players"])


def _read_by_the_ladder(output: Path, results: tuple[Path, ...]) -> Path | None:
    """The RESULTS argument ``output`` is read from, when it is read (a results workbook
    given; inside a folder given, a workbook that is not a ladder, or the batch's record
    under its .traveller-batch); else None.

    A ladder written into a results folder is read but never counted (it has no
    Ranking sheet), so rewriting it is allowed; any other workbook there is one the
    ladder opens: a session's, or one it would name as unreadable.
    """
    from traveller.cli import same_file, within

    for given in results:
        if same_file(given, output):
            return given
        if not given.is_dir() or not within(output, given, itself=True):
            continue
        inner = output.resolve().relative_to(given.resolve()).parts
        if inner and inner[0] == STATE_DIR:
            return given  # the batch's manifest and snapshots
        if not output.is_file() or output.suffix.lower() != ".xlsx" or any(
                part.startswith((".", "~$")) for part in inner):
            continue  # not a workbook the ladder opens
        from traveller.read.guard import open_workbook

        try:
            if open_workbook(output).sheet_names != ["Ladder"]:
                return given
        except (TravellerError, OSError, ValueError):
            return given  # a workbook the ladder would name as unreadable: still an input
    return None
