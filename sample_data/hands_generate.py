"""Write ``club_session_hands.pbn``: a hand record for the sample session's 24 boards.

The deals are random (a seeded shuffle of the 52 cards for each board), written
as a dealing program writes its PBN file: [Board], [Dealer] and [Vulnerable]
by the board number, [Deal] from North. The sample's results were made up
without deals, so each deal gives every result's opening lead to its leader
(declarer's left-hand opponent) and shuffles the other cards; for each board
the deal kept is, of a few such deals whose high-card points suit the
contracts played, the one double dummy puts most results within a trick of
(solved with the ``dd`` extra; under a minute). Board 8's made-up leads (West
leads the ace, king and queen of trumps against spade contracts that take 11 to
13 tricks) fit no deal that fits its tricks, so the double-dummy audit lists
that board: the one warning the sample shows with its hand record.

    python sample_data/hands_generate.py
"""

from __future__ import annotations

import random
from pathlib import Path

BOARDS = 24
SEATS = "NESW"
RANKS = "AKQJT98765432"
VULNERABLE = ["None", "NS", "EW", "All", "NS", "EW", "All", "None",
              "EW", "All", "None", "NS", "All", "None", "NS", "EW"]


def deal(rng: random.Random, given: dict[str, str] | None = None) -> str:
    """One random deal in PBN's form, from North; ``given``: card ("SA") -> the seat that
    must hold it (each result's lead, held by its leader)."""
    given = given or {}
    cards = [suit + rank for suit in "SHDC" for rank in RANKS if suit + rank not in given]
    rng.shuffle(cards)
    held: dict[str, set[str]] = {seat: set() for seat in SEATS}
    for card, seat in given.items():
        held[seat].add(card)
    for seat in SEATS:
        while len(held[seat]) < 13:
            held[seat].add(cards.pop())
    return "N:" + " ".join(".".join("".join(r for r in RANKS if s + r in held[seat])
                                    for s in "SHDC") for seat in SEATS)


HCP = {"A": 4, "K": 3, "Q": 2, "J": 1}
#: Random deals looked at per board, and how many of the likeliest are solved.
LOOKED, SOLVED = 400, 6


def side_points(text: str, declarer: str) -> int:
    """High-card points of the declarer's side."""
    hands = text[2:].split()
    seats = (0, 2) if declarer in "NS" else (1, 3)
    return sum(HCP.get(c, 0) for s in seats for c in hands[s])


def best_deal(rng: random.Random, played: list[tuple[str, str, int]],
              leads: dict[str, str]) -> str:
    """Of random deals giving each lead to its leader, the one whose double dummy fits
    ``played`` (declarer, strain, tricks)."""
    from traveller.score import dd

    target = sorted(20 + 3 * (tricks - 7) for _, _, tricks in played)[len(played) // 2]
    candidates = sorted((deal(rng, leads) for _ in range(LOOKED)),
                        key=lambda d: abs(side_points(d, played[0][0]) - target))[:SOLVED]
    tables = dd.tables(candidates)

    def fits(text: str) -> int:
        return sum(abs(dd.tricks_of(tables[text], who, strain) - tricks) <= 1
                   for who, strain, tricks in played)

    return max(candidates, key=fits)


def main() -> None:
    import pandas as pd

    import traveller
    from traveller.tidy.hands import leader_of

    rng = random.Random(20261201)
    result = traveller.process(Path(__file__).with_name("club_session.xlsx"))
    t = result.travellers
    t = t[t["declarer"].notna() & t["tricks"].notna()]
    games = []
    for board in range(1, BOARDS + 1):
        on = t[t["board"] == board]
        played = [(str(d), str(c).rstrip("X")[1:], int(k))
                  for d, c, k in zip(on["declarer"], on["contract"], on["tricks"], strict=True)]
        leads = {str(card): leader_of(str(d))
                 for d, card in zip(on["declarer"], on["lead"], strict=True) if pd.notna(card)}
        games.append(f'[Event "Club pairs"]\n[Board "{board}"]\n'
                     f'[Dealer "{SEATS[(board - 1) % 4]}"]\n'
                     f'[Vulnerable "{VULNERABLE[(board - 1) % 16]}"]\n'
                     f'[Deal "{best_deal(rng, played, leads) if played else deal(rng)}"]\n')
    path = Path(__file__).with_name("club_session_hands.pbn")
    path.write_text('% PBN 2.1\n% EXPORT\n[Generator "sample_data/hands_generate.py"]\n'
                    + "\n".join(games), encoding="utf-8")


if __name__ == "__main__":
    main()
