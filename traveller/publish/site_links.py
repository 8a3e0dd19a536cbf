"""The links of a results website: each pair's and board's page, and what every page
shares about the pairs (which have a page, their names)."""

from __future__ import annotations

from dataclasses import dataclass
from typing import TYPE_CHECKING

import numpy as np
import pandas as pd

from traveller.publish import shown

if TYPE_CHECKING:
    from traveller.result import Result


def pair_label(section: pd.Series, line: pd.Series, pair: pd.Series) -> pd.Series:
    """ "A NS 3" style keys (section, line, pair) as one text column."""
    return shown.text(section) + "|" + shown.text(line) + "|" + shown.text(pair.astype("Int64"))


def _slugs(column: pd.Series) -> pd.Series:
    """Each value's :func:`shown.slug`, worked out once per distinct value."""
    text = shown.text(column)
    codes, uniques = pd.factorize(text)
    return pd.Series(np.array([shown.slug(u) for u in uniques] or [""], dtype=object)[codes],
                     index=column.index, dtype=object)


def pair_href(section: pd.Series, line: pd.Series, pair: pd.Series) -> pd.Series:
    """The page of each pair: ``pair-[<section>-]<line><number>.html``."""
    sec = _slugs(section)
    number = shown.text(pair.astype("Int64"))
    return "pair-" + (sec + "-").where(sec != "", "") + shown.text(line) + number + ".html"


def board_href(frame: pd.DataFrame) -> pd.Series:
    """The page of each board: ``board-[<session>-][<section>-]<number>.html``."""
    session = (shown.text(frame["session"]) + "-") if "session" in frame else ""
    sec = _slugs(frame["section"])
    return ("board-" + session + (sec + "-").where(sec != "", "") + shown.text(frame["board"])
            + ".html")


@dataclass(frozen=True)
class Field:
    """What every page of one site shares, worked out once: the pairs with a page, their
    names, the movement (which line a pair number belongs to)."""

    movement: str
    known: frozenset[str]
    names: dict[str, str]

    @classmethod
    def of(cls, result: Result) -> Field:
        r = result.ranking
        labels = pair_label(r["section"], r["line"], r["pair"]) if "pair" in r else None
        names = (dict(zip(labels, shown.text(r["names"]), strict=True))
                 if labels is not None and "names" in r else {})
        return cls(str(result.settings.get("movement", "mitchell")),
                   frozenset(labels) if labels is not None else frozenset(), names)


def side_links(t: pd.DataFrame, field: Field, side: str) -> tuple[pd.Series, pd.Series]:
    """The ``side`` ("ns" or "ew") pair's page link of each row ("" when the pair has no
    page) and its names."""
    line = {"ns": "NS", "ew": "EW"}[side] if field.movement == "mitchell" else ""
    own = pd.Series(line, index=t.index)
    label = pair_label(t["section"], own, t[f"{side}_pair"])
    href = pair_href(t["section"], own, t[f"{side}_pair"])
    return (href.where(label.isin(field.known), ""),
            label.map(field.names).astype(object).fillna(""))
