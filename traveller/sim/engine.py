"""The two engines of a simultaneous pairs: in this process, or on a Dask cluster.

Both run the same stages (see docs/scale.md):

1. per group of clubs: read, tidy and score each club alone
   (:func:`traveller.sim.clubs.club_chunk`), keeping the club's results and
   its lean field rows;
2. the field rows are brought together by board and each board is scored
   against the whole field (:func:`traveller.sim.field.score_boards`), then
   Neuberg-scaled to the field's common top;
3. each pair's national figure is summed from its boards (a groupby);
4. the national ranking is placed (one row per pair, on the driver);
5. per group of clubs: the national figures go back to the clubs and each
   club's workbook is written (:func:`traveller.sim.outputs.write_club_books`),
   one summary line per club handed to ``emit`` as it comes.

The Dask engine runs stage 1 and 5 as tasks on the workers, stage 2 as a
``dask.dataframe`` shuffle by board and stage 3 as a Dask groupby; the
driver writes the national ranking's files while the workers write the
clubs' workbooks, and holds the club list, the pairs' totals and names, and
the futures' handles, never a club's travellers or workbook. Dask is imported only here.
"""

from __future__ import annotations

import contextlib
import logging
import sys
from collections.abc import Callable, Iterator
from dataclasses import asdict
from pathlib import Path
from typing import Any

import numpy as np
import pandas as pd

from traveller.sim.clubs import ClubChunk, ClubFile, SimSettings, club_chunk, cpu_count
from traveller.sim.field import (
    NATIONAL_ROW,
    PAIR_KEY,
    common_tables,
    conform_field,
    conform_partials,
    pair_partials,
    pair_totals,
    score_boards,
    to_common_top,
)
from traveller.sim.outputs import national_ranking, write_club_books

Emit = Callable[[list[dict[str, Any]]], None]
Ranked = Callable[[pd.DataFrame], None]
Scored = Callable[[int], None]


def _board_options(sim: SimSettings) -> dict[str, Any]:
    return {"method": sim.method, "scale": sim.scale, "phantom_award": sim.phantom_award,
            "divisor": sim.divisor, "trim": sim.trim, "rounding": sim.datum_rounding}


def _names(groups: list[list[ClubFile]]) -> dict[int, str]:
    return {c.club_id: c.club for group in groups for c in group}


def run_local(groups: list[list[ClubFile]], sim: SimSettings, outdir: Path | None,
              emit: Emit, ranked: Ranked, html: bool = False,
              on_scored: Scored | None = None) -> pd.DataFrame:
    """All stages in this process, one group after another; returns the national ranking.

    ``on_scored(clubs)`` is told each group's number of clubs once they are scored.
    """
    done: list[ClubChunk] = []
    for group in groups:
        done.append(club_chunk(group, sim))
        if on_scored is not None:
            on_scored(len(group))
    field = pd.concat([c.field for c in done], ignore_index=True)
    scored = score_boards(field, **_board_options(sim))
    if sim.method == "mp":
        scored = to_common_top(scored, common_tables(scored), sim.scale)
    totals = pair_totals(pair_partials(scored, sim.method), sim.method)
    pairs = pd.concat([c.pairs for c in done], ignore_index=True)
    ranking = national_ranking(totals, pairs, _names(groups))
    ranked(ranking)
    columns = ["club_id", "row_id", *NATIONAL_ROW[sim.method]]
    by_club = scored[columns].groupby("club_id")
    empty = scored[columns].iloc[:0]
    for chunk, mine in zip(done, _per_group(ranking, groups), strict=True):
        ids = [o.club_id for o in chunk.outcomes]
        rows = pd.concat([by_club.get_group(i) if i in by_club.groups else empty for i in ids])
        emit(write_club_books(chunk, rows, mine, outdir, sim.method, html))
    return ranking


def _field_of(chunk: ClubChunk) -> pd.DataFrame:
    return chunk.field


def _pairs_of(chunk: ClubChunk) -> pd.DataFrame:
    return chunk.pairs


def _write_group(chunk: ClubChunk, rows: pd.DataFrame, ranking: pd.DataFrame,
                 outdir: Path | None, method: str, html: bool) -> list[dict[str, Any]]:
    return write_club_books(chunk, rows.reset_index(), ranking, outdir, method, html)


def _client(scheduler: str | None, workers: int | None, timeout: float) -> tuple[Any, Any]:
    """A client of the cluster at ``scheduler``, or of a new LocalCluster on this machine."""
    from distributed import Client, LocalCluster

    for name in ("distributed.shuffle._scheduler_plugin", "distributed.shuffle"):
        logging.getLogger(name).setLevel(logging.ERROR)
    if scheduler:
        return Client(scheduler, timeout=timeout), None
    if started_again():
        raise RuntimeError(UNGUARDED)
    try:
        cluster = LocalCluster(n_workers=workers or cpu_count(), threads_per_worker=1,
                               processes=True, dashboard_address=None,
                               silence_logs=logging.ERROR, memory_limit=0)
    except Exception as exc:  # (Dask says "Nanny failed to start" and no more)
        raise RuntimeError(f"Dask could not start its workers on this machine ({exc}). "
                           + UNGUARDED) from None
    client = Client(cluster, timeout=timeout)
    client.run(_worker_loaded)  # our own workers only: a given cluster keeps its settings
    return client, cluster


def _worker_loaded() -> None:
    """On a worker of a LocalCluster started here: the club stages' libraries loaded once,
    then the collector's policy of the batch workers (traveller/gc_policy.py)."""
    from traveller.gc_policy import loading

    with loading():
        import traveller.pipeline
        import traveller.publish.workbook
        import traveller.sim.clubs  # noqa: F401


#: What to do when Dask's workers cannot start because the calling script has no guard.
UNGUARDED = ("Dask starts each local worker by loading the calling script again, so a "
             "script that calls traveller.simultaneous(..., engine=\"dask\") must make the "
             "call under `if __name__ == \"__main__\":`; or pass scheduler= (a running "
             "cluster), or use engine=\"local\", or run the `traveller sim` command")


def started_again() -> bool:
    """True in a worker process that is loading the calling script again (no guard)."""
    import multiprocessing

    main = sys.modules.get("__main__")
    return (multiprocessing.parent_process() is not None
            and getattr(main, "__name__", "") == "__mp_main__")


def run_dask(groups: list[list[ClubFile]], sim: SimSettings, outdir: Path | None, emit: Emit,
             ranked: Ranked, *, scheduler: str | None = None, workers: int | None = None,
             timeout: float = 60.0, html: bool = False,
             on_scored: Scored | None = None) -> pd.DataFrame:
    """All stages on a Dask cluster (see the module docstring); returns the national ranking.

    ``on_scored(clubs)`` is told each group's number of clubs once they are scored (from
    the client's thread).

    ``timeout`` bounds the wait for the cluster's connection; each stage's
    wait is bounded by the cluster's own failure handling.
    """
    try:
        import dask
        import dask.dataframe as dd
        import distributed  # noqa: F401
    except ImportError as exc:
        raise ImportError(f"--engine dask needs dask and distributed ({exc}); install them "
                          "with: pip install \"traveller[sim]\"") from None
    client, cluster = _client(scheduler, workers, timeout)
    try:
        with dask.config.set({"dataframe.convert-string": False}):
            return _stages(client, dask, dd, groups, sim, outdir, emit, ranked, html,
                           on_scored)
    finally:
        with _quiet_close(client, ours=cluster is not None):
            client.close()
            if cluster is not None:
                cluster.close()


@contextlib.contextmanager
def _quiet_close(client: Any, ours: bool) -> Iterator[None]:
    """Closing our own cluster without its log, here and on its workers.

    Every result is in when the cluster closes; a worker still freeing gigabytes of
    club results can send its heartbeat after the scheduler has gone, and Dask then
    prints a traceback ("Failed to communicate with scheduler during heartbeat")
    under a run that went well. A cluster given by ``--scheduler`` is not ours: its
    workers keep their logging, and so does this process after the block.
    """
    if not ours:
        yield
        return
    log = logging.getLogger("distributed")
    level = log.level
    log.setLevel(logging.CRITICAL)
    with contextlib.suppress(Exception):  # (a broken cluster: the run's own error says so)
        client.run(_closing_logs)
    try:
        yield
    finally:
        log.setLevel(level)


def _closing_logs() -> None:
    """On a worker about to close: nothing below CRITICAL from Dask's loggers."""
    logging.getLogger("distributed").setLevel(logging.CRITICAL)


def _stages(client: Any, dask: Any, dd: Any, groups: list[list[ClubFile]], sim: SimSettings,
            outdir: Path | None, emit: Emit, ranked: Ranked, html: bool,
            on_scored: Scored | None = None) -> pd.DataFrame:
    from distributed import as_completed

    chunks = client.map(club_chunk, groups, sim=sim, pure=False)
    if on_scored is not None:
        for future, group in zip(chunks, groups, strict=True):
            future.add_done_callback(_told(on_scored, len(group)))
    field = dd.from_delayed(client.map(_field_of, chunks), meta=conform_field(pd.DataFrame()),
                            verify_meta=False)
    threads = sum(client.nthreads().values()) or 1
    by_board = field.shuffle(on="board", npartitions=max(1, min(len(groups), 4 * threads)))
    options = _board_options(sim)
    meta = score_boards(conform_field(pd.DataFrame()), **options)
    scored = by_board.map_partitions(score_boards, **options, meta=meta).persist()
    if sim.method == "mp":
        most = scored["results"].max().compute()
        tables = 0 if pd.isna(most) else int(most)  # no club scored: an empty field
        scored = scored.map_partitions(to_common_top, tables, sim.scale,
                                       meta=to_common_top(meta, tables, sim.scale)).persist()
    partials = scored.map_partitions(pair_partials, sim.method,
                                     meta=conform_partials(pd.DataFrame()))
    summed = partials.groupby(PAIR_KEY, sort=False).sum().reset_index().compute()
    pairs = pd.concat(client.gather(client.map(_pairs_of, chunks)), ignore_index=True)
    ranking = national_ranking(pair_totals(conform_partials(summed), sim.method), pairs,
                               _names(groups))
    bounds = [g[0].club_id for g in groups] + [groups[-1][-1].club_id + 1]
    columns = ["club_id", "row_id", *NATIONAL_ROW[sim.method]]
    by_club = scored[columns].set_index("club_id", divisions=bounds).to_delayed()
    # each group's rows of the national ranking go to the workers as data of their own,
    # not inside the graph (437,000 pairs made a 43 MiB graph, and Dask's warning about it)
    mine = client.scatter(_per_group(ranking, groups), hash=False)
    writes = [dask.delayed(_write_group)(chunks[i], by_club[i], mine[i], outdir, sim.method,
                                         html) for i in range(len(groups))]
    futures = client.compute(writes)
    ranked(ranking)  # the national files, written here while the workers write the clubs'
    for future in as_completed(futures):
        emit(future.result())
        future.release()
    return ranking


def _per_group(ranking: pd.DataFrame, groups: list[list[ClubFile]]) -> list[pd.DataFrame]:
    """The ranking's rows of each group's clubs, in the ranking's order (one sort, where a
    filter per group would read the whole ranking once a group)."""
    ids = [c.club_id for g in groups for c in g]
    lookup = np.full(max(ids, default=0) + 1, len(groups), dtype=np.int64)
    lookup[ids] = np.repeat(np.arange(len(groups)), [len(g) for g in groups])
    club = ranking["club_id"].to_numpy(dtype=np.int64)
    group = lookup[np.clip(club, 0, len(lookup) - 1)]
    group[(club < 0) | (club >= len(lookup))] = len(groups)  # (no group: left out)
    order = np.argsort(group, kind="stable")
    starts = np.searchsorted(group[order], np.arange(len(groups) + 1))
    return [ranking.iloc[order[starts[i]:starts[i + 1]]] for i in range(len(groups))]


def _told(on_scored: Scored, clubs: int) -> Callable[[Any], None]:
    """A future's done-callback telling ``on_scored`` its group's ``clubs``."""
    return lambda _: on_scored(clubs)


def settings_record(sim: SimSettings) -> dict[str, Any]:
    """The sim's settings as plain values (for the summary)."""
    return asdict(sim)
