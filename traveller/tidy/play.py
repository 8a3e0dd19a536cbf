"""What was played: contract, declarer, tricks, score and lead, with their checks."""

from __future__ import annotations

import pandas as pd

from traveller.problems import flag
from traveller.read.headers import LAYOUT_FIELDS
from traveller.schema import HEADER_ALIASES, SEATS, STRAINS
from traveller.score.table import possible_ns_score
from traveller.tidy import rulings
from traveller.tidy.cells import as_text, col, display, integers
from traveller.tidy.notation import parse_contracts, parse_leads, parse_seats
from traveller.tidy.results import read_results

#: Where tricks and scores may come from, first found first.
TRICKS_FIELDS = ("tricks", "result", "made", "down")
SCORE_FIELDS = ("score", "score_ew", "ns_plus", "ns_minus", "ew_plus", "ew_minus")
#: N-S's score is each split column's number times this sign ("EW +" 420 is N-S -420).
_SIGN = {"ns_plus": 1, "ns_minus": -1, "ew_plus": -1, "ew_minus": 1}


def _not_recognised(frame: pd.DataFrame) -> str:
    """'the columns Round, Tbl were not recognised', naming the input's other columns."""
    known = {*HEADER_ALIASES, *LAYOUT_FIELDS, "row", "_sheet", "_board"}
    others = [str(c) for c in frame.columns if c not in known]
    if not others:
        return ""
    listed = ", ".join(others[:12]) + (", ..." if len(others) > 12 else "")
    if len(others) == 1:
        return f"the column {listed} was not recognised"
    return f"the columns {listed} were not recognised"


def _typed(frame: pd.DataFrame, fields: tuple[str, ...]) -> pd.Series:
    """Each row's first non-blank cell among ``fields``, as typed (for messages)."""
    typed = as_text(col(frame, fields[0]))
    for field in fields[1:]:
        if field in frame:
            typed = typed.fillna(as_text(frame[field]))
    return typed


def _scores(frame: pd.DataFrame) -> tuple[pd.Series, pd.Series, pd.Series]:
    """N-S score per row from the score column(s) -> (score, bad N-S cell, bad other cell)."""
    score, bad_score = integers(col(frame, "score"))
    bad_other = pd.Series(False, index=frame.index)
    for field in SCORE_FIELDS[1:]:
        if field in frame:
            value, bad = integers(frame[field])
            # an E-W score keeps its sign (-50 for E-W is +50 N-S); split columns hold sizes
            score = score.fillna(-value if field == "score_ew" else value.abs() * _SIGN[field])
            bad_other |= bad
    return score, bad_score, bad_other


def _tricks_taken(frame: pd.DataFrame, parts: pd.DataFrame, header: dict[str, str],
                  src: pd.DataFrame, problems: list[pd.DataFrame]
                  ) -> tuple[pd.Series, pd.Series, pd.Series]:
    """Tricks taken per row from the Tricks and Result columns or the contract.

    Returns (tricks, bad Tricks cell, bad Result cell); doubtful readings are
    listed as ``result-reading`` warnings.
    """
    level = parts["level"].astype("Int64")
    read = {f: read_results(col(frame, f), level, parts["doubled"]) for f in ("tricks", "result")}
    for field, reading in read.items():
        doubt = reading.doubt & level.notna()
        problems.append(flag(src[doubt], "result-reading", header.get(field, field),
                             col(frame, field)[doubt], reading.detail.reindex(src.index)[doubt],
                             blocking=False))
    made, bad_made = integers(col(frame, "made"))  # hand-kept travellers: level made
    down, bad_down = integers(col(frame, "down"))  # ... and undertricks
    bad_made |= made.notna() & ((made < 0) | (made > 7))
    rel = read["tricks"].rel.fillna(read["result"].rel).fillna(-down.abs())
    rel = rel.fillna(parts["rel"].astype("Int64"))
    tricks = read["tricks"].tricks.fillna(read["result"].tricks)
    tricks = tricks.fillna((made + 6).where(~bad_made)).fillna(level + 6 + rel)
    return tricks, read["tricks"].bad, read["result"].bad | bad_made | bad_down


def parse_play(out, frame, notation, header, src, contract_text, declarer_text,  # type: ignore[no-untyped-def]
               problems) -> pd.DataFrame:
    """Add contract, declarer, tricks, score, lead and rulings to ``out``; list problems."""
    parts = parse_contracts(contract_text, notation)
    has_text = contract_text.notna() & (contract_text != "")
    ruled = rulings.markers(frame)  # directors' rulings, fouled groups, arrow switches
    adjusted = ruled["ruling_kind"].notna() | ruled["ruling_error"].notna()
    unknown = has_text & ~adjusted & parts["level"].isna()
    score, bad_score, bad_ew = _scores(frame)
    seat = parse_seats(col(frame, "declarer"), notation).fillna(parts["seat"])
    bad_seat = declarer_text.notna() & (declarer_text != "") & parse_seats(
        col(frame, "declarer"), notation).isna()
    level = parts["level"].astype("Int64")
    tricks, bad_tr, bad_res = _tricks_taken(frame, parts, header, src, problems)
    played = level > 0
    out_of_range = played.fillna(False) & tricks.notna() & ((tricks < 0) | (tricks > 13))
    c_name = header.get("contract", "contract")
    t_name = next((header[f] for f in TRICKS_FIELDS if f in header), "tricks")
    s_name = next((header[f] for f in SCORE_FIELDS if f in header), "score")
    typed, typed_score = _typed(frame, TRICKS_FIELDS), _typed(frame, SCORE_FIELDS)
    unknown_columns = _not_recognised(frame)
    score_ok = score.notna() & ~adjusted
    # contract trouble is only a warning when the score (or a ruling) says it all
    soft = score_ok | adjusted
    bad_ruling = ruled["ruling_error"].notna()
    for source, rows in ruled[bad_ruling].groupby("ruling_column"):  # at most a few columns
        problems.append(flag(src.loc[rows.index], "bad-ruling", header.get(source, source),
                             rows["ruling"], rows["ruling_error"]))
    checks_ = [
        (unknown, "unknown-contract", c_name, col(frame, "contract"), ~soft),
        (played.fillna(False) & seat.isna() & ~bad_seat, "missing-declarer",
         header.get("declarer", "declarer"), None, ~soft),
        (bad_seat & played.fillna(False), "unknown-declarer", header.get("declarer", "declarer"),
         col(frame, "declarer"), ~soft),
        ((bad_tr | bad_res) & played.fillna(False), "bad-tricks", t_name, typed, ~soft),
        (played.fillna(False) & tricks.isna() & ~bad_tr & ~bad_res, "missing-tricks", t_name,
         None, ~soft),
        # the value as typed: "-11" in the Result column, or "4S-11" in the contract
        (out_of_range & typed.notna(), "tricks-out-of-range", t_name, typed, ~soft),
        (out_of_range & typed.isna(), "tricks-out-of-range", c_name, col(frame, "contract"),
         ~soft),
        ((bad_score | bad_ew) & ~adjusted, "bad-score", s_name,
         typed_score, level.isna()),
        (~has_text & score.isna() & ~bad_score & ~bad_ew & ~adjusted, "missing-result", c_name,
         None, True),
    ]
    for mask, code, column, values, blocking in checks_:
        mask = mask.fillna(False).astype(bool)
        block = blocking if isinstance(blocking, bool) else blocking[mask]  # type: ignore[index]
        problems.append(flag(src[mask], code, column,
                             None if values is None else values[mask],
                             unknown_columns if code.startswith("missing-") else "",
                             blocking=block))
    contract_ok = level.notna() & (~played | (seat.notna() & tricks.notna() & ~out_of_range))
    contract_ok = contract_ok.fillna(False)
    use_score = ~contract_ok & score_ok
    impossible = use_score & ~possible_ns_score(out["board"], score)
    problems.append(flag(src[impossible], "impossible-score", s_name, typed_score[impossible]))
    lead = parse_leads(col(frame, "lead"), notation)
    lead_text = as_text(col(frame, "lead"))
    bad_lead = lead_text.notna() & lead.isna()
    problems.append(flag(src[bad_lead], "unknown-lead", header.get("lead", "lead"),
                         lead_text[bad_lead], blocking=False))
    out["level"] = level.where(contract_ok).astype("Int8")
    out["strain"] = pd.Categorical(parts["strain"].where(contract_ok), categories=STRAINS)
    out["doubled"] = parts["doubled"].where(contract_ok).astype("Int8")
    out["declarer"] = pd.Categorical(seat.where(contract_ok & played), categories=SEATS)
    out["tricks"] = tricks.where(contract_ok & played).astype("Int64")
    out["contract"] = display(out["level"], out["strain"], out["doubled"])
    out["lead"] = lead.fillna(lead_text).astype("string")
    out["recorded_score"] = score.astype("Int64")
    for column in ruled.columns.drop(["ruling_error", "ruling_column"]):
        out[column] = ruled[column]
    return out
