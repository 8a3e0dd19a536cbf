"""Hand records: the deals of a session, as a dealing program writes them.

A hand-record file is a PBN file of deals (as Big Deal, BridgeComposer and
dealing programs write it): one game
per board with ``[Board]``, ``[Dealer]``, ``[Vulnerable]`` and ``[Deal "N:..."]``
(any first seat; ``-`` for a hand that is not known). Any double-dummy or
result tags in it are ignored: the deals are all that is read.

Duplimate's ``.dup`` files are read too (:func:`read_dup`), from the layout
Duplimate publishes for converting hand records: one record of 156 bytes
per board, whose first 78 are North's, East's and South's thirteen cards as
two-digit numbers (``01`` the ace of spades ... ``13`` the two, then hearts,
diamonds, clubs up to ``52``, the two of clubs; West holds the cards left),
and whose bytes 149-151 give the set's lowest board number.

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
    if path.suffix.lower() == ".dup":
        return read_dup(path, data)
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
        # the board's own Dealer and Vulnerable are checked on every row with the rest of
        # the traveller (vulnerability-disagrees, dealer-disagrees): not again here
        "dealer": pd.Series("", index=first.index, dtype="string"),
        "vulnerable": pd.Series("", index=first.index, dtype="string"),
        "deal": first["published_deal"].astype("string").str.strip()})
    return out.reset_index(drop=True)


#: Bytes of one board in a Duplimate .dup file, and of its three hands' card numbers.
DUP_RECORD, DUP_HANDS = 156, 78
_RANKS = "AKQJT98765432"


def read_dup(path: Path, data: bytes | None = None) -> pd.DataFrame:
    """Read a Duplimate ``.dup`` hand record (see the module docstring): one row per board.

    ``row`` is the board's record number in the file (1 for the first board).
    """
    data = path.read_bytes() if data is None else data
    if not data or len(data) % DUP_RECORD or not data[:DUP_HANDS].isdigit():
        raise UnreadableFileError(
            f"{printable(str(path))}: not a Duplimate .dup hand record (records of "
            f"{DUP_RECORD} bytes, each starting with 78 digits); export PBN from the program")
    first = data[148:151].decode("latin-1").strip()
    start = int(first) if first.isdigit() and int(first) > 0 else 1
    rows = []
    for i in range(len(data) // DUP_RECORD):
        record = data[i * DUP_RECORD:(i + 1) * DUP_RECORD]
        rows.append({"file": printable(str(path)), "sheet": "", "row": i + 1,
                     "board": str(start + i), "dealer": "", "vulnerable": "",
                     "deal": dup_deal(record[:DUP_HANDS].decode("latin-1"))})
    frame = pd.DataFrame(rows, columns=RECORD_COLUMNS)
    return frame.astype({c: "Int64" if c == "row" else "string" for c in RECORD_COLUMNS})


def dup_deal(numbers: str) -> str:
    """Three hands of two-digit card numbers -> the deal in PBN form (West: the rest).

    A number outside 01-52 gives the digits back as they are (the checks call that a
    deal that cannot be read); a card given twice is left for the checks to name.
    """
    cards = [int(numbers[j:j + 2]) if numbers[j:j + 2].isdigit() else 0
             for j in range(0, len(numbers), 2)]
    if len(cards) != 39 or not all(1 <= c <= 52 for c in cards):
        return numbers
    hands = [cards[13 * h:13 * (h + 1)] for h in range(3)]
    hands.append([c for c in range(1, 53) if c not in set(cards)])
    return "N:" + " ".join(".".join("".join(_RANKS[(c - 1) % 13] for c in sorted(hand)
                                            if (c - 1) // 13 == suit) for suit in range(4))
                           for hand in hands)
