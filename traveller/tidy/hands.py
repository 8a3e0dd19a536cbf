"""Hand records checked: the cards of each deal, and the deals against the travellers.

:func:`check_hands` takes a hand record as read (:mod:`traveller.read.hands`)
and the session's travellers, and gives the session's ``hands`` (one row per
board: dealer, vulnerability, the four hands, the deal in PBN's ``N:`` form)
and the problems found, each a warning (the scores never depend on the hands):

* ``bad-deal``: the deal text cannot be read as four hands of four suits;
* ``deal-card-count``: a hand does not hold thirteen cards;
* ``deal-duplicate-card``: a card is in two hands (or twice in one);
* ``deal-board-twice``: the hand record has two different deals for one board;
* ``deal-conditions-differ``: the hand record's dealer or vulnerability is not
  the one the traveller's board is scored with (the board number's, or the
  vulnerability its results' Vul column states where every result was scored
  at it);
* ``deal-missing``: a board with results has no deal in the hand record;
* ``deal-differs``: the traveller carries its own deal for a board (PBN,
  USEBIO) and it is not the hand record's (:func:`differing_deals`).

A deal with one hand unknown (``-``) and three good ones is completed with the
thirteen cards left; with more unknown it is shown as far as it is known and
not analysed. A deal with a problem is kept out of the analysis too.
"""

from __future__ import annotations

import re

import numpy as np
import pandas as pd

from traveller.problems import flag
from traveller.schema import SEATS, board_dealer, board_vulnerability
from traveller.tidy.arrays import NO_ROWS

#: Ranks high to low, as PBN writes them; suits in PBN's order.
RANKS = "AKQJT98765432"
SUITS = "SHDC"
SEAT_WORDS = {"N": "North", "E": "East", "S": "South", "W": "West"}
#: The columns of a session's hands.
HANDS_COLUMNS = ["board", "dealer", "vulnerable", "north", "east", "south", "west", "deal",
                 "complete"]
_VULNERABLE = {"none": "None", "love": "None", "-": "None", "ns": "NS", "ew": "EW",
               "all": "All", "both": "All", "b": "All", "n": "NS", "e": "EW", "o": "None"}
_HAND = re.compile(r"^[AKQJT2-9]*\.[AKQJT2-9]*\.[AKQJT2-9]*\.[AKQJT2-9]*$")


def empty_hands() -> pd.DataFrame:
    """A session's hands with no boards."""
    return pd.DataFrame({c: pd.Series(dtype="Int64" if c == "board" else bool
                                      if c == "complete" else "string") for c in HANDS_COLUMNS})


def unreadable_record(path: str, why: str) -> pd.DataFrame:
    """The one problem row of a hand-record file that cannot be read at all."""
    from traveller.errors import PROBLEM_CODES
    from traveller.problems import FIXES

    code = "hands-unreadable"
    return pd.DataFrame({"file": [path], "sheet": [""], "row": [pd.NA], "column": [""],
                         "value": [""], "code": [code], "severity": ["warning"],
                         "message": [f"{why}: {PROBLEM_CODES[code]}; {FIXES[code]}"],
                         "blocking": [False]})


def parse_deal(text: str) -> tuple[dict[str, str | None] | None, str]:
    """A PBN deal -> seat -> hand ("AKQ.JT9.876.5432", None when unknown), or (None, why).

    The first seat may be any of N, E, S, W; ``10`` is read as ``T``; a lone ``-``
    is an unknown hand. The cards are not counted here (see :func:`card_faults`).
    """
    first, colon, rest = text.strip().partition(":")
    parts = rest.split()
    if not colon or first.strip().upper() not in SEATS or len(parts) != 4:
        return None, "not a first seat and four hands, e.g. N:AKQ.JT9.876.5432 ..."
    start = SEATS.index(first.strip().upper())
    hands: dict[str, str | None] = {}
    for i, part in enumerate(parts):
        hand = part.upper().replace("10", "T")
        if hand != "-" and not _HAND.match(hand):
            return None, f"{part!r} is not four suits of cards separated by dots"
        hands[SEATS[(start + i) % 4]] = None if hand == "-" else hand
    return {seat: hands[seat] for seat in SEATS}, ""


def card_faults(hands: dict[str, str | None]) -> tuple[str, str]:
    """(problem code, what is wrong) of a deal's cards, ("", "") when they are good."""
    seen: dict[str, str] = {}
    for seat, hand in hands.items():
        if hand is None:
            continue
        for suit, cards in zip(SUITS, hand.split("."), strict=True):
            for card in cards:
                if (suit + card) in seen:
                    where = (f"{SEAT_WORDS[seat]}'s hand twice" if seen[suit + card] == seat
                             else f"{SEAT_WORDS[seen[suit + card]]}'s and {SEAT_WORDS[seat]}'s"
                             " hands")
                    return "deal-duplicate-card", f"{suit}{card} is in {where}"
                seen[suit + card] = seat
    for seat, hand in hands.items():
        if hand is not None and len(hand) - 3 != 13:
            return "deal-card-count", f"{SEAT_WORDS[seat]} holds {len(hand) - 3} cards, not 13"
    return "", ""


def completed(hands: dict[str, str | None]) -> dict[str, str | None]:
    """The deal with its one unknown hand filled in from the cards left (else as given)."""
    unknown = [seat for seat, hand in hands.items() if hand is None]
    if len(unknown) != 1:
        return hands
    held = {s + c for hand in hands.values() if hand for s, cards in
            zip(SUITS, hand.split("."), strict=True) for c in cards}
    rest = ".".join("".join(r for r in RANKS if s + r not in held) for s in SUITS)
    return {**hands, unknown[0]: rest}


def deal_text(hands: dict[str, str | None]) -> str:
    """The deal in PBN's form from North: ``N:<north> <east> <south> <west>`` (``-`` unknown)."""
    return "N:" + " ".join(hands[seat] or "-" for seat in SEATS)


def vulnerability_of(text: str) -> str | None:
    """PBN's vulnerability words ("None", "Love", "NS", "EW", "All", "Both") -> canonical."""
    return _VULNERABLE.get(text.strip().lower()) if text.strip() else None


def check_hands(record: pd.DataFrame, travellers: pd.DataFrame,
                played: dict[int, str] | None = None) -> tuple[pd.DataFrame, pd.DataFrame]:
    """The session's hands (one row per board of the record) and the problems found.

    ``record`` is a hand record as read (``file, sheet, row, board, dealer,
    vulnerable, deal`` as text); ``travellers`` the scored results, whose boards
    are the ones that need a deal; ``played`` the boards played at another
    vulnerability than their number's (the travellers' Vul column: board -> PBN
    word), whose hands (and par) take that one.
    """
    kept: dict[int, dict[str, object]] = {}
    listed: set[int] = set()  # boards the record has, readable or not
    problems = []
    for position, entry in enumerate(record.to_dict("records")):
        board_text = str(entry["board"] or "")
        if not board_text.isdigit() or int(board_text) < 1:
            problems.append(_problem(record, position, "bad-board", "Board", board_text))
            continue
        row, code, column, value, detail = _deal_row(int(board_text), entry, played or {})
        listed.add(int(board_text) if code else 0)
        if code:
            problems.append(_problem(record, position, code, column, value, detail))
        if row is None:
            continue
        before = kept.get(int(board_text))
        if before is not None and before["deal"] != row["deal"]:
            problems.append(_problem(record, position, "deal-board-twice", "Deal",
                                     str(entry["deal"]), f"board {board_text}: the first is "
                                     "kept"))
        elif before is None:
            kept[int(board_text)] = row
    hands = pd.DataFrame(list(kept.values()), columns=HANDS_COLUMNS)
    hands = hands.sort_values("board", kind="stable").reset_index(drop=True).astype(
        {"board": "Int64", "complete": bool, **{c: "string" for c in HANDS_COLUMNS[1:-1]}})
    missing = _missing({*hands["board"].tolist(), *listed}, travellers, record)
    return hands, pd.concat([*problems, missing]) if problems else missing


def _deal_row(board: int, entry: dict[str, object], played: dict[int, str]
              ) -> tuple[dict[str, object] | None, str, str, str, str]:
    """(hands row or None, problem code, column, value, detail) of one deal of the record."""
    text = str(entry["deal"] or "")
    parsed, why = parse_deal(text)
    if parsed is None:  # (no deal at all: listed as deal-missing where the board was played)
        return None, "bad-deal" if text else "", "Deal", text, why
    code, detail = card_faults(parsed)
    hands = parsed if code else completed(parsed)
    complete = not code and all(h is not None for h in hands.values())
    dealer, vulnerable = board_dealer(board), played.get(board, board_vulnerability(board))
    row: dict[str, object] = {"board": board, "dealer": dealer, "vulnerable": vulnerable,
           **{SEAT_WORDS[s].lower(): hands[s] for s in SEATS}, "deal": deal_text(hands),
           "complete": complete}
    if code:
        return row, code, "Deal", text, f"board {board}: {detail}"
    stated_dealer = str(entry["dealer"] or "").strip().upper()
    stated_vul = vulnerability_of(str(entry["vulnerable"] or ""))
    if (stated_dealer and stated_dealer != dealer) or (stated_vul and stated_vul != vulnerable):
        said = f"dealer {stated_dealer or '?'}, vulnerable {stated_vul or '?'}"
        how = (f"dealer {dealer} (its number's), vulnerable {vulnerable} (its results' Vul "
               "column)" if board in played else
               f"dealer {dealer}, vulnerable {vulnerable}, by its number")
        return row, "deal-conditions-differ", "Dealer/Vulnerable", said, (
            f"board {board} is scored as {how}; par is worked out that way")
    return row, "", "", "", ""


def _problem(record: pd.DataFrame, position: int, code: str, column: str, value: str,
             detail: str = "") -> pd.DataFrame:
    rows = record.iloc[[position]]
    return flag(rows, code, column, pd.Series([value], index=rows.index, dtype="string"),
                detail, blocking=False)


def _missing(known: set[int], travellers: pd.DataFrame, record: pd.DataFrame) -> pd.DataFrame:
    """``deal-missing`` at the first traveller row of each board the record has no deal for."""
    if travellers.empty or "board" not in travellers:
        return flag(NO_ROWS, "deal-missing", "")
    boards = travellers["board"].astype("Int64")
    lacking = boards.notna() & ~boards.isin(list(known))
    first = travellers[lacking.to_numpy(dtype=bool)].drop_duplicates("board")
    if first.empty:
        return flag(NO_ROWS, "deal-missing", "")
    source = str(record["file"].iloc[0]) if len(record) else "the hand record"
    name = re.sub(r"^.*[\\/]", "", source)
    return flag(first, "deal-missing", "Board", first["board"].astype("string"),
                f"no deal for this board in {name}", blocking=False)


def differing_deals(hands: pd.DataFrame, travellers: pd.DataFrame) -> pd.DataFrame:
    """``deal-differs`` at the first traveller row of each board whose own deal is not the
    hand record's (both read to North-first text; the hand record's is the one used)."""
    if "published_deal" not in travellers or hands.empty:
        return flag(NO_ROWS, "deal-differs", "")
    t = travellers[travellers["published_deal"].notna()].drop_duplicates("board")
    ours = dict(zip(hands["board"].astype(int), hands["deal"], strict=True))
    differs = []
    for board, text in zip(t["board"], t["published_deal"].astype(str), strict=True):
        parsed, _ = parse_deal(text)
        own = deal_text(completed(parsed)) if parsed is not None else text
        differs.append(pd.notna(board) and int(board) in ours and ours[int(board)] != own)
    rows = t[pd.Series(differs, index=t.index, dtype=bool)]
    return flag(rows, "deal-differs", "Deal", rows["published_deal"].astype("string"),
                "the hand record's deal is the one shown and analysed", blocking=False)


#: A board is judged as a whole (not result by result) once it has this many leads
#: checked and at least :data:`MOSTLY_MISSED` of them are not held: a quarter of the
#: cards are the leader's, so a deal that is not the one played misses about three
#: leads in four, where real club entries miss one in sixteen to one in five.
MIN_LEADS = 4
MOSTLY_MISSED = 2 / 3
_PARTNER = {"N": "S", "S": "N", "E": "W", "W": "E"}


def leader_of(declarer: str) -> str:
    """The opening leader against a declarer: the seat on declarer's left ("S" -> "W")."""
    return SEATS[(SEATS.index(declarer) + 1) % 4]


def leads_not_held(hands: pd.DataFrame, travellers: pd.DataFrame) -> pd.DataFrame:
    """``lead-not-held`` where a result's opening lead is not in the leader's hand.

    The opening leader is the declarer's left-hand opponent, so a lead and a
    declarer state, with the hand record, who held the card twice. Each result
    whose leader does not hold it is listed with who does, and when that is the
    leader's partner, the declarer it would fit (the other one of the declaring
    pair). A board where most of the leads miss is listed once instead, at its
    first result: there the deal, not the entry, is in doubt. Only complete
    deals and results with a declarer and a lead of one card are checked; the
    lead is shown as written and no score depends on it.
    """
    need = {"board", "declarer", "lead"}
    if hands.empty or travellers.empty or not need <= set(travellers):
        return flag(NO_ROWS, "lead-not-held", "")
    holder = holders(hands)
    t = travellers
    leads = _texts(t["lead"])
    seats = _texts(t["declarer"])
    boards = pd.to_numeric(t["board"], errors="coerce").astype("Int64").tolist()
    passed = _texts(t["contract"]) if "contract" in t else [""] * len(t)
    sections = _texts(t["section"]) if "section" in t else [""] * len(t)
    checked: dict[tuple[str, int], int] = {}  # (section, board) -> leads checked
    first: dict[tuple[str, int], int] = {}  # (section, board) -> its first checked result
    missed: dict[tuple[str, int], list[tuple[int, str]]] = {}  # -> (position, who holds it)
    for at, (lead, seat, board, contract, section) in enumerate(
            zip(leads, seats, boards, passed, sections, strict=True)):
        cards = holder.get(board)
        if cards is None or seat not in _PARTNER or contract.upper() == "PASS":
            continue
        held = cards.get(lead.upper())
        if held is None:  # not one card (a suit alone, a cell that does not read)
            continue
        key = (section, board)
        checked[key] = checked.get(key, 0) + 1
        first.setdefault(key, at)
        if held != leader_of(seat):
            missed.setdefault(key, []).append((at, held))
    if not missed:
        return flag(NO_ROWS, "lead-not-held", "")
    one: list[tuple[int, str]] = []
    firsts: list[int] = []
    texts: list[str] = []
    for key, misses in missed.items():
        if checked[key] >= MIN_LEADS and len(misses) >= MOSTLY_MISSED * checked[key]:
            firsts.append(first[key])
            texts.append(f"{len(misses)} of the {checked[key]} leads on board {key[1]} are not "
                         "in the opening leader's hand: the hand record's deal may not be the "
                         "one played (board fouled or swapped)")
        else:
            one.extend(misses)
    one.sort()
    rows = t.iloc[[at for at, _ in one]]
    details = [_lead_detail(boards[at], leads[at].upper(), seats[at], held) for at, held in one]
    out = [flag(rows, "lead-not-held", "lead", rows["lead"],
                pd.Series(details, index=rows.index, dtype="string"), blocking=False)]
    if firsts:
        whole = t.iloc[firsts]
        out.append(flag(whole, "lead-not-held", "board", whole["board"].astype("string"),
                        pd.Series(texts, index=whole.index, dtype="string"), blocking=False))
    return pd.concat(out)


def _texts(column: pd.Series) -> list[str]:
    """A column's cells as text, "" for a blank."""
    return column.astype("string").fillna("").tolist()


def holders(hands: pd.DataFrame) -> dict[int, dict[str, str]]:
    """Board -> card ("HT") -> the seat holding it, for each complete deal of a session's
    hands."""
    out: dict[int, dict[str, str]] = {}
    for row in hands[hands["complete"].astype(bool)].to_dict("records"):
        cards: dict[str, str] = {}
        for seat in SEATS:
            for suit, ranks in zip(SUITS, str(row[SEAT_WORDS[seat].lower()]).split("."),
                                   strict=True):
                cards.update({suit + rank: seat for rank in ranks})
        out[int(row["board"])] = cards
    return out


def card_words(card: str) -> str:
    """A card as messages write it: "HT" -> "H10", "sa" -> "SA"."""
    card = card.upper()
    return card[0] + card[1:].replace("T", "10")


def _lead_detail(board: int, card: str, declarer: str, held: str) -> str:
    """Whose the card is, beside the leader's, and what that suggests."""
    leader = leader_of(declarer)
    text = (f"board {board}, declarer {declarer}: the {card_words(card)} is in "
            f"{SEAT_WORDS[held]}'s hand")
    on_lead = f"not in {SEAT_WORDS[leader]}'s, who is on lead"
    if held == _PARTNER[leader]:
        other = _PARTNER[declarer]
        return (f"{text}, {on_lead}; with declarer {other}, {SEAT_WORDS[held]} would be on "
                f"lead: was the declarer {other}?")
    return f"{text} ({'declarer' if held == declarer else 'dummy'}), {on_lead}"


_POINTS = {"A": 4, "K": 3, "Q": 2, "J": 1}


def high_card_points(hand: object) -> float:
    """A hand's high-card points (A 4, K 3, Q 2, J 1); NaN for an unknown hand.

    >>> high_card_points("AKQ.J.T98.765432"), high_card_points(None)
    (10.0, nan)
    """
    if not isinstance(hand, str):
        return float("nan")
    return float(sum(_POINTS.get(card, 0) for card in hand.upper()))


def hcp_disagrees(hands: pd.DataFrame, travellers: pd.DataFrame) -> pd.DataFrame:
    """``hcp-disagrees`` where a result's N-S high-card points (the HCP column Russian
    scoring reads its target from) are not those of the board's deal in the hand record.

    The column is what the table counted, and the row is scored with it (a warning):
    the message gives the deal's count, since a miscounted hand changes the target.
    """
    column = next((c for c in ("ns_hcp", "hcp") if c in travellers), None)
    if column is None or hands.empty or travellers.empty:
        return flag(NO_ROWS, "hcp-disagrees", "")
    dealt = hands[hands["complete"].astype(bool)]
    points = dict(zip(pd.to_numeric(dealt["board"]).astype(int),
                      [high_card_points(n) + high_card_points(s)
                       for n, s in zip(dealt["north"], dealt["south"], strict=True)],
                      strict=True))
    board = pd.to_numeric(travellers["board"], errors="coerce")
    from_deal = board.map(points).to_numpy(dtype=float, na_value=np.nan)
    said = pd.to_numeric(travellers[column], errors="coerce").to_numpy(dtype=float,
                                                                      na_value=np.nan)
    with np.errstate(invalid="ignore"):
        off = ~np.isnan(from_deal) & ~np.isnan(said) & (from_deal != said)
    if not off.any():
        return flag(NO_ROWS, "hcp-disagrees", "")
    rows = travellers[off]
    ns = from_deal[off].astype(int)
    detail = pd.Series([f"the hand record's deal gives N-S {n} and E-W {40 - n}; scored "
                        "with the column's" for n in ns], index=rows.index)
    return flag(rows, "hcp-disagrees", "HCP", rows[column], detail, blocking=False)
