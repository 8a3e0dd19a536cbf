"""traveller: score duplicate bridge travellers and write the results workbook.

The whole job is :func:`process`; each stage is public too, so a pandas user
can run them one by one::

    from traveller import read, normalise, score_frame, matchpoints, rank_pairs

    loaded = read("sample_data/club_session.csv")
    norm = normalise(loaded)
    scored = score_frame(norm.travellers)
    ranked = matchpoints(scored)
    ranking = rank_pairs(ranked, movement=norm.movement, names=loaded.names)
"""

from __future__ import annotations

from importlib import import_module
from typing import TYPE_CHECKING, Any

__version__ = "0.1.0"

#: Public name -> module. Imported on first use, so ``traveller --help`` and a batch
#: re-run with nothing to do start without loading pandas.
_EXPORTS = {
    "Result": "traveller.pipeline", "process": "traveller.pipeline",
    "Options": "traveller.options",
    "TravellerError": "traveller.errors", "UnreadableFileError": "traveller.errors",
    "read": "traveller.load", "read_names": "traveller.load",
    "normalise": "traveller.normalise", "score_frame": "traveller.score",
    "matchpoints": "traveller.rank", "rank_pairs": "traveller.rank",
    "write_workbook": "traveller.write",
}

if TYPE_CHECKING:
    from traveller.errors import TravellerError, UnreadableFileError
    from traveller.load import read, read_names
    from traveller.normalise import normalise
    from traveller.options import Options
    from traveller.pipeline import Result, process
    from traveller.rank import matchpoints, rank_pairs
    from traveller.score import score_frame
    from traveller.write import write_workbook


def __getattr__(name: str) -> Any:
    if name in _EXPORTS:
        value = getattr(import_module(_EXPORTS[name]), name)
        globals()[name] = value
        return value
    raise AttributeError(f"module 'traveller' has no attribute {name!r}")


__all__ = [
    "Options",
    "Result",
    "TravellerError",
    "UnreadableFileError",
    "__version__",
    "matchpoints",
    "normalise",
    "process",
    "rank_pairs",
    "read",
    "read_names",
    "score_frame",
    "write_workbook",
]
