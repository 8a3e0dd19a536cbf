"""The pieces every USEBIO layout (pairs, teams, individuals) is built of: an element
with its text, a participant's PLAYER elements, a ruling as USEBIO writes it."""

from __future__ import annotations

import xml.etree.ElementTree as ET

import numpy as np
import pandas as pd

from traveller.publish import shown
from traveller.schema import PLAYERS_SPLIT

__all__ = ["PLAYERS", "add", "players", "ruling_codes"]

#: Players written for a pair (empty PLAYER elements where the names are not known).
PLAYERS = 2


def add(parent: ET.Element, tag: str, text: object = None) -> ET.Element:
    """A child element holding ``text`` (an empty element for None or "")."""
    child = ET.SubElement(parent, tag)
    if text is not None and str(text) != "":
        child.text = str(text)
    return child


def players(parent: ET.Element, names: str, ids: dict[str, str] | None = None,
            at_least: int = PLAYERS, listed: list[str] | None = None) -> None:
    """The PLAYER elements of one pair or team: name and national id (empty where unknown).

    ``listed`` are the players as the result lists them (``Result.players``, a names
    sheet's Player 1 and Player 2 as written); without them, ``names`` as the ranking
    writes them, the players between dashes, ``&`` or ``/`` ("Ann Lee & Bob Ray").
    """
    given = listed if listed is not None else PLAYERS_SPLIT.split(names)
    found = [n.strip() for n in given if n.strip()]
    known = ids or {}
    for name in found + [""] * max(0, at_least - len(found)):
        player = add(parent, "PLAYER")
        add(player, "PLAYER_NAME", name)
        add(player, "NATIONAL_ID_NUMBER", known.get(name) or None)


def ruling_codes(t: pd.DataFrame) -> pd.Series:
    """Each line's ruling as USEBIO writes it: ``A6040``-style codes for artificial scores
    in whole percentages, any other ruling as written, "" for a played result."""
    ruling = shown.text(t["ruling"]) if "ruling" in t else pd.Series("", index=t.index)
    if "ruling_kind" not in t:
        return ruling
    ns = pd.to_numeric(t["ns_award"], errors="coerce").astype(float).to_numpy()
    ew = pd.to_numeric(t["ew_award"], errors="coerce").astype(float).to_numpy()
    whole = ((t["ruling_kind"] == "average").to_numpy(dtype=bool, na_value=False)
             & (ns == np.round(ns)) & (ew == np.round(ew)) & (ns < 100) & (ew < 100))
    code = ruling.astype(object).copy()
    if whole.any():
        two = [pd.Series(side[whole].astype(int)).astype(str).str.zfill(2) for side in (ns, ew)]
        code[whole] = ("A" + two[0] + two[1]).to_numpy()
    return code
