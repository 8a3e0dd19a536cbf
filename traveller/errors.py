"""Exception classes and the stable problem codes.

Exceptions are only for whole-file failures (nothing could be read). Anything
wrong with one cell or one row becomes a row of the problems table instead,
with one of the codes below, so that a scheduled job can filter on them.
"""

from __future__ import annotations


class TravellerError(Exception):
    """Base class: a whole input could not be used. The message names the file and the fix."""


class UnreadableFileError(TravellerError):
    """The file is missing, empty, of an unknown format or not a traveller at all."""


class NotationError(TravellerError):
    """A sheet's notation cannot be told from its content (or contradicts ``--notation``)."""


#: Problem codes -> one-line description (README lists them from here).
PROBLEM_CODES: dict[str, str] = {
    "missing-board": "the row has no board number",
    "bad-board": "the board number is not a whole number from 1 to 99999",
    "missing-pair": "the N-S or E-W pair number is missing",
    "bad-pair": "a pair number is not a whole number from 1 to 99999",
    "missing-result": "neither a contract with its result nor a score is given",
    "unknown-contract": "the contract cannot be read in the sheet's notation",
    "unknown-declarer": "the declarer is not one of N, E, S, W (in the sheet's notation)",
    "missing-declarer": "a contract was bid but no declarer is given",
    "missing-tricks": "a contract was bid but neither tricks taken nor the result is given",
    "bad-tricks": "the tricks or result cannot be read",
    "tricks-out-of-range": "the tricks taken are outside 0-13",
    "bad-score": "the recorded score is not a whole number",
    "impossible-score": "the recorded score (with no contract) is not a score bridge can produce",
    "score-disagrees": (
        "the recorded score differs from the contract's score; the computed one is used"
    ),
    "unknown-lead": "the opening lead cannot be read (kept as written, the row is still scored)",
    "duplicate-result": "the same pair has a result on this board already",
    "pair-plays-itself": "the same pair number is on both sides of one result",
    "lines-swapped": "both pairs of this result have another result on the board",
    "few-boards": (
        "the pair has results on far fewer boards than most pairs of the session"
    ),
    "unreadable-file": "the file could not be read, so nothing is scored",
    "pair-on-both-lines": "in this Mitchell the pair sits on the other line elsewhere",
    "bad-ruling": (
        "a director's ruling (A+, A60/40, 30%+650/70%-100, +420/-450, TD...) cannot be "
        "applied as written"
    ),
    "ambiguous-notation": (
        "the sheet reads two ways: two notations read it (nearly) as well but give some of its "
        "cells different meanings; --notation must say which"
    ),
    "excel-date": "Excel turned the cell into a date and it cannot be told back for sure",
    "excel-date-recovered": "Excel turned the cell into a date; read back as the one fitting value",
    "outside-table": "the row looks like a result but stands above the table's header row",
    "bad-names-pair": "the pair number of this names row cannot be read; the pair gets no name",
    "second-names-sheet": "a second names sheet; its names are not read",
    "names-twice": "this names row names a pair an earlier row named otherwise",
    "unknown-double": "the doubling cannot be read (X for doubled, XX for redoubled)",
    "doubled-disagrees": "the contract and the doubling column say different doublings",
    "names-disagree": (
        "the names written on this row for the pair are not the names it is given elsewhere"
    ),
    "names-of-another-pair": (
        "the names written on this row for the pair are those the other rows give another "
        "pair: its number may be typed wrong"
    ),
    "board-mismatch": "the board number differs from the one in the sheet's title",
    "unknown-player": "the declarer is not one of the three players at the table",
    "bad-honours": "the honours cannot be read (who held them, and 100 or 150)",
    "honours-on-pass": "honours are written on a passed-out deal, where they do not score",
    "unknown-pair": (
        "the pair could not be identified (???, blank or 0); its result is compared with the "
        "field, the pair is not ranked"
    ),
    "published-differs": (
        "a figure the input publishes (the matchpoints, percentage, IMPs or datum of a line, "
        "or a pair's total or place, from the program that wrote it) differs from ours as "
        "printed; ours are used"
    ),
    "publication-settings": (
        "many of the figures the input publishes in this column differ from ours: the "
        "publication was made with other settings; ours are used"
    ),
    "profile-suggested": (
        "the input was written by a program traveller has a profile for, and its published "
        "figures agree better with ours scored with that profile"
    ),
    "unusual-score": "a legal result that is improbable beside the rest of the field on the board",
    "method-suggested": (
        "the sheet's columns (HCP, Room, teams), or what the input says of how it was scored, "
        "name another scoring method"
    ),
    "board-filled": "rows without a board number, under a row that has one, read as that board",
    "section-disagrees": "the section letters of the two pairs (or the Section column) differ",
    "declarer-disagrees": "the declarer in the contract and in the declarer column differ",
    "hcp-disagrees": "the row's high-card points are not those of the board's deal",
    "seat-disagrees": "the row's pairs do not sit at this round and table on the round's "
                      "other rows",
    "second-column-disagrees": "the sheet has the column twice, and the row's two cells "
                               "differ",
    "tricks-disagrees": (
        "the places that give the result (the contract, Tricks, Result, Made, Down) differ"
    ),
    "scores-disagree": "the row's score columns give different N-S scores",
    "vulnerability-disagrees": "the vulnerability column differs from the board number's",
    "dealer-disagrees": "the dealer column differs from the board number's dealer",
    "result-reading": (
        "the result reads two ways, or its reading is implausible; it is scored as read"
    ),
    "bad-deal": "the deal cannot be read as four hands (the board is shown and scored without it)",
    "deal-card-count": "a hand of the deal does not hold 13 cards; the deal is not analysed",
    "deal-duplicate-card": "a card is in the deal twice; the deal is not analysed",
    "deal-board-twice": "the hand record has two different deals for this board",
    "deal-conditions-differ": (
        "the hand record's dealer or vulnerability differs from the board's; the board's are used"
    ),
    "deal-missing": "the board was played but the hand record has no deal for it",
    "hands-unreadable": "the hand-record file cannot be read; the session is scored without it",
    "deal-differs": "the traveller's own deal for this board is not the hand record's",
    "tricks-on-pass": (
        "the contract is a pass but the row gives tricks taken; it is scored as passed out"
    ),
    "pass-or-not-played": (
        "the contract is a dash alone, which a sheet may write for a passed-out board or for "
        "a board not played at the table; it is scored as passed out"
    ),
    "phantom-not-found": (
        "the pair named as the phantom (--phantom) has no result in the session; no pair is "
        "taken for the phantom by that name"
    ),
    "declarer-side-only": (
        "the declarer column names the declaring side (NS, EW), not the seat, and the contract "
        "names none; scored for that side, as its score is the same whichever partner "
        "declared, but the lead and double-dummy checks leave such results out and PBN and "
        "USEBIO write no declarer for them"
    ),
    "lead-not-held": (
        "the opening lead is not a card of the opening leader's hand in the hand record; "
        "it is shown as written and no score depends on it"
    ),
}
