"""Hand records: the deals of a session, as a dealing program writes them.

A hand-record file is a PBN file of deals (as Big Deal, BridgeComposer and
dealing programs write it): one game
per board with ``[Board]``, ``[Dealer]``, ``[Vulnerable]`` and ``[Deal "N:..."]``
(any first seat; ``-`` for a hand that is not known). Any double-dummy or
result tags in it are ignored: the deals are all that is read.

The deals already inside a PBN or USEBIO traveller (its ``published_deal``
column) are a hand record too: :func:`hands_in_travellers` takes them.

Nothing is checked here beyond what the file's text allows: the cards
themselves (thirteen to a hand, each card once) and the agreement with the
travellers are :mod:`traveller.tidy.hands`' job. A file that is not a PBN of
deals at all is refused (:class:`~traveller.errors.UnreadableFileError`).
"""

from __future__ import annotations

from pathlib import Path

import pandas as pd

from traveller.errors import UnreadableFileError
from traveller.read.paths import printable
from traveller.read.pbn import decode, parse_games

#: The columns of a hand record as read: where each deal was found, and its tags as written.
RECORD_COLUMNS = ["file", "sheet", "row", "board", "dealer", "vulnerable", "deal"]


def empty_record() -> pd.DataFrame:
    """A hand record with no deals."""
    return pd.DataFrame({c: pd.Series(dtype="Int64" if c == "row" else "string")
                         for c in RECORD_COLUMNS})


def read_hands(path: str | Path) -> pd.DataFrame:
    """Read a PBN hand-record file: one row per deal, tags as written.

    ``row`` is the line of the ``[Deal]`` tag (of ``[Board]`` when the game has
    no deal), ``board`` the text of ``[Board]``; unreadable values are kept as
    written for the checks to name.

    >>> read_hands("sample_data/club_session_hands.pbn").head(2)  # doctest: +SKIP
    """
    path = Path(path)
    try:
        data = path.read_bytes()
    except OSError as exc:
        raise UnreadableFileError(f"{printable(str(path))}: the hand record cannot be read "
                                  f"({exc.strerror}); check the path") from None
    games, _ = parse_games(decode(data))
    rows = []
    for game in games:
        if "Deal" not in game.tags and "Board" not in game.tags:
            continue
        where = game.tags.get("Deal") or game.tags["Board"]
        rows.append({"file": printable(str(path)), "sheet": "", "row": where.line,
                     "board": game.get("Board").strip(), "dealer": game.get("Dealer").strip(),
                     "vulnerable": game.get("Vulnerable").strip(),
                     "deal": game.get("Deal").strip()})
    if not rows:
        raise UnreadableFileError(
            f"{printable(str(path))}: no deals found; a hand record is a PBN file with a "
            "[Board] and a [Deal] tag for each board, as dealing programs write it")
    frame = pd.DataFrame(rows, columns=RECORD_COLUMNS)
    return frame.astype({c: "Int64" if c == "row" else "string" for c in RECORD_COLUMNS})


def hands_in_travellers(travellers: pd.DataFrame) -> pd.DataFrame:
    """The deals a PBN or USEBIO traveller carries, one per board, as a hand record.

    The first row of each board that has a deal gives it (its file, sheet and
    row name the place); a traveller without deals gives an empty record.
    """
    if "published_deal" not in travellers or travellers.empty:
        return empty_record()
    t = travellers[travellers["published_deal"].notna()]
    t = t[t["published_deal"].astype("string").str.strip() != ""]
    if t.empty:
        return empty_record()
    first = t.drop_duplicates("board")
    out = pd.DataFrame({
        "file": first["file"].astype("string"), "sheet": first["sheet"].astype("string"),
        "row": pd.array(first["row"], dtype="Int64"),
        "board": first["board"].astype("Int64").astype("string"),
        "dealer": _column(first, "published_dealer"),
        "vulnerable": _column(first, "published_vulnerable"),
        "deal": first["published_deal"].astype("string").str.strip()})
    return out.reset_index(drop=True)


def _column(frame: pd.DataFrame, name: str) -> pd.Series:
    if name not in frame:
        return pd.Series("", index=frame.index, dtype="string")
    return frame[name].astype("string").fillna("").str.strip()
