"""Double-dummy analysis and par of each deal, solved by DDS (through endplay).

For each complete deal: the tricks each declarer (N, E, S, W) takes double
dummy in each strain (C, D, H, S, NT), 20 numbers, and the par score and par
contract(s) with the board's dealer and vulnerability (sacrifices included),
as Bo Haglund's DDS library works them out. endplay is the binding: it ships
built wheels of DDS for every platform and is imported only when a deal has
to be solved (importing it costs about a second).

A deal is solved once: its table is kept by the deal's text (North first), in
memory for the process and, when a folder is given (the batch's state folder),
in one small file per deal there, so a re-run, another section or another club
with the same deals never solves it again. The deals still to solve are handed
to DDS together (``CalcAllTables``, 40 deals a call), which solves them on all
cores.
"""

from __future__ import annotations

import hashlib
import os
import tempfile
from collections.abc import Iterable, Sequence
from pathlib import Path
from typing import Any

import pandas as pd

from traveller.schema import SEATS, STRAINS

#: DDS' order of strains (S H D C NT) for each of ours (C D H S NT).
_DDS_STRAIN = {"C": 3, "D": 2, "H": 1, "S": 0, "NT": 4}
#: DDS' strain numbers in par contracts (NT S H D C) -> ours.
_PAR_STRAIN = ["NT", "S", "H", "D", "C"]
_DDS_VUL = {"None": 0, "All": 1, "NS": 2, "EW": 3}
_RANK_BIT = {r: 1 << v for r, v in zip("23456789TJQKA", range(2, 15), strict=True)}
#: Deals DDS takes in one call when all five strains are asked.
BATCH = 40

#: Deal text -> its 20 trick counts (declarer N E S W major, strains C D H S NT).
_MEMORY: dict[str, tuple[int, ...]] = {}
#: How many deals this process has handed to DDS (tests and benchmarks read it).
SOLVED = {"deals": 0}

Table = tuple[int, ...]


def tricks_of(table: Table, declarer: str, strain: str) -> int:
    """One cell of a table: the tricks ``declarer`` takes in ``strain``."""
    return table[SEATS.index(declarer) * 5 + STRAINS.index(strain)]


def tables(deals: Iterable[str], folder: str | Path | None = None) -> dict[str, Table]:
    """The double-dummy table of each deal (``N:`` text, four complete hands).

    Cached in memory and, with ``folder``, on disk; the rest solved together.
    """
    wanted = list(dict.fromkeys(deals))
    found = {d: _MEMORY[d] for d in wanted if d in _MEMORY}
    store = Path(folder) if folder is not None else None
    if store is not None:
        for deal in wanted:
            if deal not in found and (table := _load(store, deal)) is not None:
                found[deal] = _MEMORY[deal] = table
    todo = [d for d in wanted if d not in found]
    for start in range(0, len(todo), BATCH):
        chunk = todo[start:start + BATCH]
        for deal, table in zip(chunk, _solve(chunk), strict=True):
            found[deal] = _MEMORY[deal] = table
            if store is not None:
                _save(store, deal, table)
    return found


def forget() -> None:
    """Empty the in-memory cache (tests and benchmarks)."""
    _MEMORY.clear()


def _dds() -> Any:
    """endplay's ctypes binding of DDS, imported on first use."""
    import endplay._dds as dds  # (pulls in the whole of endplay: about a second)

    return dds


def _solve(deals: Sequence[str]) -> list[Table]:
    """Solve up to :data:`BATCH` deals in one DDS call."""
    dds = _dds()
    batch = dds.ddTableDeals()
    batch.noOfTables = len(deals)
    for i, deal in enumerate(deals):
        cards = batch.ddTableDeal[i].cards
        for hand, holding in enumerate(deal[2:].split()):
            for suit, ranks in enumerate(holding.split(".")):
                cards[hand][suit] = sum(_RANK_BIT[r] for r in ranks)
    results, pars = dds.ddTablesRes(), dds.allParResults()
    dds.CalcAllTables(batch, -1, [False] * 5, results, pars)
    SOLVED["deals"] += len(deals)
    out = []
    for i in range(len(deals)):
        grid = results.results[i].resTable
        out.append(tuple(grid[_DDS_STRAIN[strain]][seat] for seat in range(4)
                         for strain in STRAINS))
    return out


def par(table: Table, dealer: str, vulnerable: str) -> tuple[int, list[str]]:
    """The par score (N-S's view) and contracts ("4S N", "5HX E", "3NT NS") of a table."""
    dds = _dds()
    results = dds.ddTableResults()
    for seat in range(4):
        for strain in STRAINS:
            results.resTable[_DDS_STRAIN[strain]][seat] = table[seat * 5 + STRAINS.index(strain)]
    master = dds.parResultsMaster()
    dds.DealerParBin(results, master, SEATS.index(dealer), _DDS_VUL[vulnerable])
    contracts = []
    for i in range(master.number):
        c = master.contracts[i]
        seats = {4: "NS", 5: "EW"}.get(c.seats, SEATS[c.seats] if c.seats < 4 else "")
        made = f"+{c.overTricks}" if c.overTricks else f"-{c.underTricks}" if c.underTricks else ""
        doubled = "X" if c.underTricks else ""
        contracts.append(f"{c.level}{_PAR_STRAIN[c.denom]}{doubled}{made} {seats}")
    return int(master.score), contracts


def analyse(hands: pd.DataFrame, folder: str | Path | None = None,
            ) -> tuple[pd.DataFrame, pd.DataFrame]:
    """The ``dd`` frame (board, declarer, strain, tricks) and ``par`` frame of a session.

    ``hands`` has one row per board (``board, dealer, vulnerable, deal,
    complete``); only complete deals are analysed. ``par``: board, par_score
    (N-S), par_contract (the contracts, ``"; "`` between them).
    """
    ready = hands[hands["complete"].to_numpy(dtype=bool)] if len(hands) else hands
    if ready.empty:
        return empty_dd(), empty_par()
    solved = tables(ready["deal"].tolist(), folder)
    boards, dd_rows, par_rows = ready["board"].tolist(), [], []
    for board, deal, dealer, vul in zip(boards, ready["deal"], ready["dealer"],
                                        ready["vulnerable"], strict=True):
        table = solved[deal]
        dd_rows += [(board, seat, strain, table[s * 5 + k]) for s, seat in enumerate(SEATS)
                    for k, strain in enumerate(STRAINS)]
        score, contracts = par(table, str(dealer), str(vul))
        par_rows.append((board, score, "; ".join(contracts)))
    dd = pd.DataFrame(dd_rows, columns=["board", "declarer", "strain", "tricks"])
    par_frame = pd.DataFrame(par_rows, columns=["board", "par_score", "par_contract"])
    return (dd.astype({"board": "Int64", "declarer": "string", "strain": "string",
                       "tricks": "Int64"}),
            par_frame.astype({"board": "Int64", "par_score": "Int64",
                              "par_contract": "string"}))


def empty_dd() -> pd.DataFrame:
    """A ``dd`` frame with no boards."""
    return pd.DataFrame({"board": pd.Series(dtype="Int64"), "declarer": pd.Series(dtype="string"),
                         "strain": pd.Series(dtype="string"),
                         "tricks": pd.Series(dtype="Int64")})


def empty_par() -> pd.DataFrame:
    """A ``par`` frame with no boards."""
    return pd.DataFrame({"board": pd.Series(dtype="Int64"),
                         "par_score": pd.Series(dtype="Int64"),
                         "par_contract": pd.Series(dtype="string")})


def _path(folder: Path, deal: str) -> Path:
    digest = hashlib.sha256(deal.encode()).hexdigest()
    return folder / digest[:2] / f"{digest}.txt"


def _load(folder: Path, deal: str) -> Table | None:
    """A cached table, None when absent or unreadable (it is then solved again)."""
    try:
        text = _path(folder, deal).read_text(encoding="ascii")
    except (OSError, UnicodeDecodeError):
        return None
    stored, _, numbers = text.partition("\n")
    values = numbers.split()
    if stored != deal or len(values) != 20 or not all(v.isdigit() for v in values):
        return None
    return tuple(int(v) for v in values)


def _save(folder: Path, deal: str, table: Table) -> None:
    """Write a table beside the others, renamed into place (a reader never sees half)."""
    path = _path(folder, deal)
    try:
        path.parent.mkdir(parents=True, exist_ok=True)
        handle, temporary = tempfile.mkstemp(dir=path.parent, suffix=".part")
        with os.fdopen(handle, "w", encoding="ascii") as out:
            out.write(deal + "\n" + " ".join(map(str, table)) + "\n")
        os.replace(temporary, path)
    except OSError:
        return  # a cache that cannot be written costs a solve next time, nothing else
