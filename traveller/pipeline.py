"""The whole job in one call: read -> normalise -> score -> matchpoints -> rank."""

from __future__ import annotations

from dataclasses import dataclass, field
from pathlib import Path

import pandas as pd

from traveller.load import Loaded, read, read_names
from traveller.normalise import normalise
from traveller.problems import combine
from traveller.rank import matchpoints, rank_pairs
from traveller.schema import PROBLEM_COLUMNS, TRAVELLER_DTYPES, conform
from traveller.score import score_frame, score_problems

#: Helper columns of the stages that the published travellers do not show.
_INTERNAL = ["level", "strain", "doubled", "recorded_score", "computed_score"]


@dataclass
class Result:
    """A scored session: travellers, ranking and problems, plus what was decided."""

    travellers: pd.DataFrame
    ranking: pd.DataFrame
    problems: pd.DataFrame
    settings: dict[str, object] = field(default_factory=dict)
    source: str = ""

    @property
    def ok(self) -> bool:
        """True when no problem at all was found."""
        return self.problems.empty


def process(
    path: str | Path,
    *,
    scale: str = "2/1/0",
    movement: str = "auto",
    notation: str | None = None,
    names: str | Path | None = None,
    encoding: str | None = None,
) -> Result:
    """Score one traveller file end to end.

    Args:
        path: a traveller file (CSV/TSV, xlsx/xlsm/xls/ods).
        scale: "2/1/0" (European, default) or "1/0.5" (ACBL).
        movement: "auto" (told from the pair numbers), "mitchell" or "howell".
        notation: force a notation ("en", "pl", "ru"); detected per sheet by default.
        names: a names file (pair -> players); a names sheet in the workbook is used otherwise.
        encoding: force the text encoding of a CSV file.

    >>> result = process("sample_data/club_session.xlsx")  # doctest: +SKIP
    >>> result.ranking.head()  # doctest: +SKIP
    """
    loaded = read(path, encoding=encoding)
    if names is not None:
        loaded = Loaded(loaded.tables, read_names(Path(names), encoding))
    result = process_loaded(loaded, scale=scale, movement=movement, notation=notation)
    result.source = str(path)
    return result


def process_loaded(loaded: Loaded, *, scale: str = "2/1/0", movement: str = "auto",
                   notation: str | None = None) -> Result:
    """Score tables already read (see :func:`process`)."""
    norm = normalise(loaded, notation=notation, movement=movement)
    scored = score_frame(norm.travellers)
    problems = combine([norm.problems, score_problems(scored)])
    ranked = matchpoints(scored, scale=scale)
    ranking = rank_pairs(ranked, movement=norm.movement, names=loaded.names)
    settings = {"scale": scale, "movement": norm.movement,
                "notation": notation or "auto", "boards": int(ranked["board"].nunique())}
    return Result(travellers=tidy_travellers(ranked), ranking=ranking,
                  problems=problems[PROBLEM_COLUMNS].reset_index(drop=True), settings=settings)


def tidy_travellers(frame: pd.DataFrame) -> pd.DataFrame:
    """Canonical columns first, then source and as-written columns, grouped by board."""
    out = conform(frame.drop(columns=[c for c in _INTERNAL if c in frame]), TRAVELLER_DTYPES)
    if out.empty:
        return out
    sort = ["section", "board", "ns_score", "ns_pair"]
    out = out.sort_values(sort, ascending=[True, True, False, True], kind="stable")
    return out.reset_index(drop=True)
