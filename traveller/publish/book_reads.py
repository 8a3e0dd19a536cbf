"""What a workbook's sheets read alike, made once per workbook, and the score cards' and
frequencies' columns as the sheets take them (arrays, no frame).

A :class:`Reads` lives for one ``write_workbook`` call: it keeps the travellers'
columns it looked up (and their codes), never shared across results.
"""

from __future__ import annotations

from functools import cached_property
from typing import TYPE_CHECKING, Any

import numpy as np
import pandas as pd

from traveller.publish.cards import (
    frequency_values,
    names_lookup,
    result_card_values,
    result_frequencies,
    result_score_cards,
    score_figures,
)
from traveller.publish.columns import as_column
from traveller.publish.keys import Lookups, numbered
from traveller.score.frequency import counted
from traveller.tidy.rulings import kinds

if TYPE_CHECKING:
    from traveller.result import Result


class Reads:
    """What the sheets read alike, made once (when first read): the ranking's names (score
    cards' pairs and opponents), the travellers' columns (every sheet after the Ranking),
    the counted travellers, their columns and kinds (Frequencies and Summary)."""

    def __init__(self, result: Result) -> None:
        self.result = result

    @cached_property
    def names(self) -> dict[tuple[Any, Any, Any], str]:
        return names_lookup(self.result.ranking)

    @cached_property
    def columns(self) -> Lookups:
        """The travellers' columns (numbered 0, 1, 2, ...), each looked up once."""
        return Lookups(numbered(self.result.travellers))

    @cached_property
    def counted_columns(self) -> Lookups:
        """The counted travellers' columns (the travellers' own when they are the same)."""
        t = self.travellers
        return self.columns if t is self.columns.frame else Lookups(t)

    @cached_property
    def travellers(self) -> pd.DataFrame:
        return counted(self.result)  # as Result.frequencies and Result.summary read them

    @cached_property
    def kind(self) -> np.ndarray | None:
        return kinds(self.travellers) if len(self.travellers) else None


def card_columns(result: Result, reads: Reads) -> dict[str, Any]:
    """``result.score_cards``' columns, without the frame (a workbook reads them one by one):
    their arrays as :func:`~traveller.publish.columns.as_column` keeps them (a Series only
    where a frame would infer another dtype: an array of objects)."""
    values = result_card_values(result, reads.names, reads.columns)  # as Result.score_cards
    if values is None:
        return dict(result_score_cards(result).items())
    return {c: as_column(v) for c, v in values.items()}


def frequency_columns(result: Result, reads: Reads) -> dict[str, Any]:
    """``result.frequencies``' columns, without the frame (their arrays, as the cards')."""
    travellers = reads.travellers
    if travellers.empty:
        return dict(result_frequencies(result).items())
    return {c: as_column(v) for c, v in frequency_values(
        travellers, reads.kind, reads.counted_columns, score_figures(result)).items()}
