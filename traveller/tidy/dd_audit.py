"""The double-dummy audit: results far from double dummy while the field is close to it.

Double dummy is not how bridge is played, but across a field most results
land within a trick of it. A result :data:`FAR` or more tricks away on a board
where the rest of the field is within a trick is more likely a mis-entry than
a swing, and where most results on a board are far from it, the deal probably
is not the one that was played. Each finding is an ``unusual-score`` warning
that names the likely mistake and the correction to check; no score changes.

* **declarer flipped**: the tricks fit double dummy with the declarer on the
  other side, where most of the field declared the strain (4S by N entered
  as by E): the message names that declarer; where both of that side fit and
  the result's opening lead is a card that only one of them would have had led
  against him (the card is in that declarer's left-hand opponent's hand), it
  names that one and says why;
* **tricks off**: otherwise, :data:`FAR_TRICKS` or more from double dummy,
  and no other result in the strain by the same side within a trick of it:
  the message gives the tricks double dummy suggests;
* **wrong deal**: at least half of the board's results are far from double
  dummy: the hand record or the board was fouled or swapped; when the
  results fit another board's deal, the message names it.

Boards with fewer than :data:`MIN_RESULTS` judged results (played contracts,
no rulings) are not judged.
"""

from __future__ import annotations

import pandas as pd

from traveller.problems import flag
from traveller.tidy.arrays import NO_ROWS
from traveller.tidy.hands import SEAT_WORDS, card_words, holders, leader_of
from traveller.words import plural

#: Tricks from double dummy that make a result far from it (a declarer on the wrong side,
#: a deal that is not the one played).
FAR = 3
#: Tricks from double dummy, with the declarer's side fitting no better, that make the
#: tricks themselves suspect (three tricks from double dummy happen at the table).
FAR_TRICKS = 4
#: Tricks from double dummy that still count as close.
CLOSE = 1
#: Boards with fewer judged results than this are not audited.
MIN_RESULTS = 4
#: The share of the other results that must be close for one far result to be listed.
FIELD_CLOSE = 2 / 3
_CONTRACT = r"^(?P<level>[1-7])(?P<strain>NT|[CDHS])X{0,2}$"
_OTHER_SIDE = {"N": ("E", "W"), "S": ("E", "W"), "E": ("N", "S"), "W": ("N", "S")}


def judged(travellers: pd.DataFrame, dd: pd.DataFrame) -> pd.DataFrame:
    """The results the audit judges, with their double-dummy tricks and the difference.

    Columns: the travellers' ``file, sheet, row, section, board, contract,
    declarer, tricks``, plus ``strain``, ``dd`` (tricks double dummy for the
    declarer in the strain) and ``off`` (tricks - dd).
    """
    need = {"board", "contract", "declarer", "tricks"}
    if travellers.empty or dd.empty or not need <= set(travellers):
        return pd.DataFrame()
    t = travellers
    plain = t["tricks"].notna() & t["declarer"].isin(list(_OTHER_SIDE))
    if "ruling_kind" in t:
        plain &= t["ruling_kind"].isna()
    parts = t["contract"].astype("string").str.extract(_CONTRACT)
    plain &= parts["strain"].notna()
    rows = t.loc[plain.to_numpy(dtype=bool), ["file", "sheet", "row", "section", "board",
                                              "contract", "declarer", "tricks"]].copy()
    rows["lead"] = (t.loc[rows.index, "lead"].astype("string") if "lead" in t
                    else pd.Series(pd.NA, index=rows.index, dtype="string"))
    rows["strain"] = parts.loc[rows.index, "strain"].astype("string")
    rows["board"] = rows["board"].astype("Int64")
    rows["declarer"] = rows["declarer"].astype("string")
    table = dd.rename(columns={"tricks": "dd"})
    out = rows.reset_index().merge(table, on=["board", "declarer", "strain"], how="inner")
    out["off"] = out["tricks"].astype("int64") - out["dd"].astype("int64")
    return out.set_index("index").sort_index()


def dd_audit(travellers: pd.DataFrame, dd: pd.DataFrame,
             hands: pd.DataFrame | None = None) -> pd.DataFrame:
    """``unusual-score`` warnings from the double-dummy audit (see the module docstring);
    ``hands``, the session's deals, lets a result's lead tell a flipped declarer."""
    rows = judged(travellers, dd)
    if rows.empty:
        return flag(NO_ROWS, "unusual-score", "")
    group = rows.groupby(["section", "board"], sort=False)["off"]
    far = rows["off"].abs() >= FAR
    count = group.transform("size")
    far_share = far.groupby([rows["section"], rows["board"]]).transform("mean")
    big = count >= MIN_RESULTS
    wrong_deal = big & (far_share >= 0.5)
    close_others = ((rows["off"].abs() <= CLOSE).groupby([rows["section"], rows["board"]])
                    .transform("sum")) / (count - 1).clip(lower=1)
    lone = big & ~wrong_deal & far & (close_others >= FIELD_CLOSE)
    held = holders(hands) if hands is not None and not hands.empty else {}
    parts = [_wrong_deals(rows[wrong_deal], rows, dd),
             _lone_results(rows[lone], rows, dd, held)]
    parts = [p for p in parts if not p.empty]
    return pd.concat(parts) if parts else flag(NO_ROWS, "unusual-score", "")


def _lone_results(rows: pd.DataFrame, every: pd.DataFrame, dd: pd.DataFrame,
                  held: dict[int, dict[str, str]]) -> pd.DataFrame:
    """One warning per far result: declarer flipped when that fits, else tricks off.

    The declarer is taken as flipped when the tricks fit double dummy from the
    other side and most of the field's results in the strain were declared there.
    """
    if rows.empty:
        return flag(NO_ROWS, "unusual-score", "")
    lookup = dd.set_index(["board", "declarer", "strain"])["tricks"]
    kinds, details = [], []
    for index, board, declarer, strain, tricks, took, lead in zip(
            rows.index, rows["board"], rows["declarer"], rows["strain"], rows["tricks"],
            rows["dd"], rows["lead"], strict=True):
        fits = [seat for seat in _OTHER_SIDE[declarer]
                if abs(int(tricks) - int(lookup[(board, seat, strain)])) <= CLOSE]
        field = every[(every["section"] == rows.at[index, "section"])
                      & (every["board"] == board) & (every["strain"] == strain)].drop(index)
        same_side = field[~field["declarer"].isin(_OTHER_SIDE[declarer])]
        if ((same_side["tricks"].astype("int64") - int(tricks)).abs() <= CLOSE).any():
            kinds.append("")  # the field made as many: a swing, not a mis-entry
            details.append("")
            continue
        if fits and not field["declarer"].isin(_OTHER_SIDE[declarer]).mean() > 0.5:
            fits = []
        off = int(tricks) - int(took)
        contract = f"{strain} by {declarer}"
        if fits:
            fits, why = _by_the_lead(fits, held.get(int(board), {}), lead)
            kinds.append("declarer")
            who = " or ".join(fits)
            details.append(f"{plural(int(tricks), 'trick')} in {contract} is {abs(off)} from "
                           f"double dummy ({took}); with declarer {who} it fits{why}: was the "
                           f"declarer {who}, not {declarer}?")
        else:
            kinds.append("tricks" if abs(off) >= FAR_TRICKS else "")
            details.append(f"{plural(int(tricks), 'trick')} in {contract}, double dummy {took}, "
                           f"while the rest of the field is within {CLOSE} of double dummy: were "
                           f"the tricks {took} (result off by {off:+d})?")
    column = pd.Series(kinds, index=rows.index)
    detail = pd.Series(details, index=rows.index, dtype="string")
    out = [flag(NO_ROWS, "unusual-score", "")]
    for name in ("declarer", "tricks"):
        part = column == name
        if part.any():
            out.append(flag(rows[part], "unusual-score", name, rows.loc[part, name],
                            detail[part], blocking=False))
    return pd.concat(out)


def _by_the_lead(fits: list[str], cards: dict[str, str], lead: object) -> tuple[list[str], str]:
    """Of the declarers that fit, the one the lead was led against, and the words saying so,
    where the lead's card is in the hand of exactly one of their left-hand opponents."""
    holder = cards.get(str(lead).upper()) if isinstance(lead, str) else None
    if holder is None or len(fits) < 2:
        return fits, ""
    led = [seat for seat in fits if leader_of(seat) == holder]
    if len(led) != 1:
        return fits, ""
    card = card_words(str(lead))
    return led, f", and the lead, the {card}, is {SEAT_WORDS[holder]}'s, who leads against {led[0]}"


def _wrong_deals(far_rows: pd.DataFrame, rows: pd.DataFrame, dd: pd.DataFrame) -> pd.DataFrame:
    """One warning per board whose results mostly miss its deal (at its first result)."""
    if far_rows.empty:
        return flag(NO_ROWS, "unusual-score", "")
    firsts = far_rows.drop_duplicates(["section", "board"])
    details = []
    for section, board in zip(firsts["section"], firsts["board"], strict=True):
        on = rows[(rows["section"] == section) & (rows["board"] == board)]
        far = int((on["off"].abs() >= FAR).sum())
        text = (f"{far} of the {len(on)} results on board {board} are {FAR} or more tricks "
                "from double dummy: the hand record's deal may not be the one played (board "
                "fouled or swapped)")
        other = _best_fit(on, dd, int(board))
        if other is not None:
            text += f"; the results fit board {other}'s deal: were boards {board} and {other} "
            text += "swapped?"
        details.append(text)
    return flag(firsts, "unusual-score", "board", firsts["board"].astype("string"),
                pd.Series(details, index=firsts.index, dtype="string"), blocking=False)


def _best_fit(on: pd.DataFrame, dd: pd.DataFrame, board: int) -> int | None:
    """The other board whose deal puts most of these results within a trick of DD, if most."""
    results = on[["declarer", "strain", "tricks"]].reset_index(drop=True)
    cross = results.merge(dd[dd["board"] != board], on=["declarer", "strain"],
                          suffixes=("", "_dd"))
    if cross.empty:
        return None
    close = (cross["tricks"].astype("int64") - cross["tricks_dd"].astype("int64")).abs() <= CLOSE
    share = close.groupby(cross["board"]).mean()
    best = share.idxmax()
    return int(best) if share[best] >= FIELD_CLOSE else None
