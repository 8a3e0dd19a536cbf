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

from traveller.errors import TravellerError, UnreadableFileError
from traveller.load import read, read_names
from traveller.normalise import normalise
from traveller.pipeline import Result, process
from traveller.rank import matchpoints, rank_pairs
from traveller.score import score_frame
from traveller.write import write_workbook

__version__ = "0.1.0"

__all__ = [
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
