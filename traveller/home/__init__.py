"""Home games: rubber bridge, Chicago and three-handed (Phillips) bridge score sheets.

A score sheet has one row per deal (Deal, Declarer, Contract, Tricks or
Result, Honours); :func:`rubber`, :func:`chicago` and :func:`three_handed`
score it into a :class:`HomeResult` with ``ledger``, ``totals`` and
``problems`` DataFrames, and ``to_excel`` draws the score pad.
"""

from __future__ import annotations

from traveller.home.chicago import chicago
from traveller.home.result import HomeResult
from traveller.home.rubber import rubber
from traveller.home.three import three_handed

__all__ = ["HomeResult", "chicago", "rubber", "three_handed"]
