"""traveller: score duplicate bridge travellers and publish the results.

The whole job is one call::

    import traveller
    result = traveller.process("session.xlsx", method="ximp", divisor="n")
    result.to_excel("results.xlsx")
    result.ranking            # a DataFrame: line, pair, names, boards, mp, pct, place

:func:`process` takes a path, a DataFrame or a dict of sheet name -> DataFrame,
and every option of ``traveller score`` as a keyword of the same name.

Each stage is public too, so a pandas user can run them one by one::

    from traveller import read, normalise, score_frame, matchpoints, rank_pairs

    loaded = read("sample_data/club_session.csv")      # file -> raw tables
    norm = normalise(loaded)                            # -> canonical rows + problems
    scored = score_frame(norm.travellers)               # -> ns_score
    ranked = matchpoints(scored)                        # -> ns_mp, ew_mp, ns_pct, ew_pct
    ranking = rank_pairs(ranked, movement=norm.movement, names=loaded.names)

The scales are public and vectorised: :func:`imps` (score difference -> IMPs)
and :func:`victory_points` (IMP margin -> both sides' VPs on the WBF scale).

Master points and a season's ladder::

    result = traveller.process("session.xlsx", points="abf:weight=1.5")
    result.points             # per player: place, award (docs/points.md)
    season = traveller.ladder(["results/riverside"], rule="best=8,min_sessions=5")
    season.standings          # rank, player, sessions, partners, total, ...

The package is laid out as the pipeline: :mod:`traveller.read`,
:mod:`traveller.tidy`, :mod:`traveller.score`, :mod:`traveller.publish`, and
:mod:`traveller.batch` for the scheduled run.
"""

from __future__ import annotations

from importlib import import_module
from pathlib import Path
from typing import TYPE_CHECKING, Any

__version__ = "0.1.0"

#: Public name -> module. Imported on first use, so ``traveller --help`` and a batch
#: re-run with nothing to do start without loading pandas.
_EXPORTS = {
    "Result": "traveller.pipeline", "process": "traveller.pipeline",
    "Options": "traveller.options",
    "TravellerError": "traveller.errors", "UnreadableFileError": "traveller.errors",
    "read_names": "traveller.read.load",
    "normalise": "traveller.tidy.normalise", "score_frame": "traveller.score.table",
    "matchpoints": "traveller.score.rank", "rank_pairs": "traveller.score.rank",
    "imps": "traveller.score.imps", "victory_points": "traveller.score.vp",
    "write_workbook": "traveller.publish.workbook",
    "rubber": "traveller.home.rubber", "chicago": "traveller.home.chicago",
    "three_handed": "traveller.home.three", "HomeResult": "traveller.home.result",
    "simultaneous": "traveller.sim.api",
    "ladder": "traveller.season", "Ladder": "traveller.season", "LadderRule": "traveller.season",
}

if TYPE_CHECKING:
    import pandas as pd

    from traveller.errors import TravellerError, UnreadableFileError
    from traveller.home.chicago import chicago
    from traveller.home.result import HomeResult
    from traveller.home.rubber import rubber
    from traveller.home.three import three_handed
    from traveller.options import Options
    from traveller.pipeline import Result, process
    from traveller.publish.workbook import write_workbook
    from traveller.read.load import read_names
    from traveller.read.raw import Loaded
    from traveller.score.imps import imps
    from traveller.score.rank import matchpoints, rank_pairs
    from traveller.score.table import score_frame
    from traveller.score.vp import victory_points
    from traveller.season import Ladder, LadderRule, ladder
    from traveller.sim.api import simultaneous
    from traveller.tidy.normalise import normalise

# The reading stage is the sub-package ``traveller.read`` and the public function
# ``traveller.read()`` as well. Importing the (pandas-free) package first and then
# binding the name to the function keeps ``traveller.read`` the function: Python
# sets a package's attribute only when the sub-package is first imported.
import_module("traveller.read")


def read(path: str | Path | pd.DataFrame | dict[str, pd.DataFrame],
         encoding: str | None = None) -> Loaded:
    """Read a traveller file (or frames already in memory) into raw tables.

    The first stage of :func:`process`; see :func:`traveller.read.load.read`.

    >>> loaded = read("sample_data/club_session.csv")  # doctest: +SKIP
    """
    from traveller.read.load import read as read_any

    return read_any(path, encoding)


def __getattr__(name: str) -> Any:
    if name in _EXPORTS:
        value = getattr(import_module(_EXPORTS[name]), name)
        globals()[name] = value
        return value
    raise AttributeError(f"module 'traveller' has no attribute {name!r}")


#: The stage sub-packages, listed by ``dir(traveller)`` beside the public names.
_STAGES = ("batch", "home", "publish", "read", "score", "sim", "tidy")


def __dir__() -> list[str]:
    return sorted({*__all__, *_STAGES})


__all__ = [
    "HomeResult",
    "Ladder",
    "LadderRule",
    "Options",
    "Result",
    "TravellerError",
    "UnreadableFileError",
    "__version__",
    "chicago",
    "imps",
    "ladder",
    "matchpoints",
    "normalise",
    "process",
    "rank_pairs",
    "read",
    "read_names",
    "rubber",
    "score_frame",
    "simultaneous",
    "three_handed",
    "victory_points",
    "write_workbook",
]
