"""What was played: contract, declarer, tricks, score and lead, with their checks."""

from __future__ import annotations

import re
from dataclasses import replace
from typing import Any

import numpy as np
import pandas as pd

from traveller.problems import flag
from traveller.read.headers import LAYOUT_FIELDS, PUBLISHED_ALIASES, header_key
from traveller.schema import (
    DECLARERS,
    HEADER_ALIASES,
    PBN_VULNERABLE_WORDS,
    SEATS,
    STRAINS,
    board_vulnerability,
)
from traveller.score.table import possible_ns_score
from traveller.tidy import rulings
from traveller.tidy import text as tx
from traveller.tidy.cells import as_text, col, display, int_array, whole_floats
from traveller.tidy.conditions import dealer_codes, side_signs, sided_scores, vulnerability_codes
from traveller.tidy.notation import (
    contract_arrays,
    double_codes,
    read_leads,
    seat_codes,
    side_codes,
)
from traveller.tidy.results import read_results
from traveller.tidy.twins import (
    Play,
    Said,
    check_dealer,
    first_said,
    settle_doubling,
    settle_play,
    settle_scores,
    settle_vulnerability,
)

#: Where tricks and scores may come from, first found first.
TRICKS_FIELDS = ("tricks", "result", "made", "down", "made_down")
SCORE_FIELDS = ("score", "score_ew", "ns_plus", "ns_minus", "ew_plus", "ew_minus")
#: N-S's score is each split column's number times this sign ("EW +" 420 is N-S -420).
_SIGN = {"ns_plus": 1, "ns_minus": -1, "ew_plus": -1, "ew_minus": 1}


def _not_recognised(frame: pd.DataFrame) -> str:
    """'the columns Round, Tbl were not recognised', naming the input's other columns."""
    known = {*HEADER_ALIASES, *LAYOUT_FIELDS, *PUBLISHED_ALIASES, "row", "_sheet", "_board"}
    markers = {*rulings.RULING_HEADERS, *rulings.FOULED_HEADERS, *rulings.ARROW_HEADERS}
    others = [str(c) for c in frame.columns  # (a Ruling, Fouled or Arrow column is read)
              if c not in known and header_key(c) not in markers]
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


_SEPARATED = re.compile(r"^\s*([+-]?)(\d{1,2})[,. \u00a0'](\d{3})\s*$")


def _separated(typed: pd.Series | None) -> pd.Series | str:
    """For a score typed with a thousands separator (``1,100``, ``-1.100``): the whole
    number it would be ("" for other cells). It is not read as that number: ``1.100``
    is a decimal to a spreadsheet, and the director should see the cell.

    >>> _separated(pd.Series(["-1.100", "4.2", None])).tolist()
    ['-1.100 would be -1100 with a thousands separator', '', '']
    """
    if typed is None:
        return ""
    texts = typed.astype("string").fillna("")
    found = texts.str.extract(_SEPARATED)
    whole = found[0].fillna("") + found[1].fillna("") + found[2].fillna("")
    return pd.Series(np.where(found[1].notna(), texts.str.strip() + " would be " + whole
                              + " with a thousands separator", ""), index=typed.index)


def _scores(frame: pd.DataFrame, header: dict[str, str]
            ) -> tuple[list[Said], np.ndarray, np.ndarray]:
    """Where each row states its N-S score -> (the readings, bad N-S cell, bad other cell).

    Scores as floats (NaN: none), exact: every score read is a whole number within
    1e9. A cell that names its side (``NS 420``, ``EW 50``) says N-S's score itself;
    a Side column (``NS``/``EW``) says whose score an N-S Score column holds.
    """
    readings = []
    bad_score = np.zeros(len(frame), dtype=bool)
    bad_other = np.zeros(len(frame), dtype=bool)
    for field in SCORE_FIELDS:
        if field not in frame:
            continue
        value, bad = whole_floats(frame[field])
        if field == "score" and "score_side" in frame:
            sign = side_signs(frame["score_side"])
            value = np.where(sign == -2, np.nan, value * np.where(sign == -1, -1, 1))
        # an E-W score keeps its sign (-50 for E-W is +50 N-S); split columns hold sizes
        value = (-value if field == "score_ew" else value if field == "score"
                 else np.abs(value) * _SIGN[field])
        sided = sided_scores(frame[field]) if bad.any() else None
        if sided is not None:  # "NS 420", "EW 50": the cell says whose score it is
            value = np.where(np.isnan(sided), value, sided)
            bad &= np.isnan(sided)
        if field == "score":
            bad_score = bad
        else:
            bad_other |= bad
        readings.append(Said(header.get(field, field), value, frame[field]))
    return readings, bad_score, bad_other


def _written(cleaned: pd.Series) -> np.ndarray:
    """True where a cleaned cell holds some text (neither missing nor ""), per distinct cell."""
    codes, uniques = tx.distinct(cleaned)
    return tx.spread(codes, [u != "" for u in uniques], False, bool)


def _floats(values: pd.Series) -> np.ndarray:
    """A numeric Series as float64 with NaN where missing (cheap masks and fills)."""
    return values.to_numpy(dtype=np.float64, na_value=np.nan)


def _filled(values: np.ndarray, other: np.ndarray) -> np.ndarray:
    return np.where(np.isnan(values), other, values)


def _listed(problems: list[pd.DataFrame], src: pd.DataFrame, mask: np.ndarray, code: str,
            column: str, values: pd.Series | None = None, detail: pd.Series | str = "",
            blocking: bool | np.ndarray = True) -> None:
    """Append the problem rows of ``mask`` (nothing at all when it marks no row)."""
    if not mask.any():
        return
    rows = src[mask]
    block = blocking if isinstance(blocking, bool) else pd.Series(blocking[mask],
                                                                  index=rows.index)
    problems.append(flag(rows, code, column, None if values is None else values[mask],
                         detail if isinstance(detail, str) else detail[mask], blocking=block))


def _tricks_taken(frame: pd.DataFrame, parts: dict[str, np.ndarray], header: dict[str, str],
                  src: pd.DataFrame, problems: list[pd.DataFrame]
                  ) -> tuple[list[Said], np.ndarray, np.ndarray]:
    """Where each row states the tricks taken: the Tricks and Result columns, a Made and a
    Down column (or one Made/Down column), and the contract.

    Returns (the readings, first place first, as tricks taken; bad Tricks cell;
    bad Result cell) as arrays (NaN where a place says nothing); doubtful
    readings are listed as ``result-reading`` warnings.
    """
    level = parts["level"]
    has_level = ~np.isnan(level)
    read = {f: read_results(frame[f], level, parts["doubled"])
            for f in ("tricks", "result") if f in frame}  # an absent column reads nothing
    for field, reading in read.items():
        doubt = reading.doubt.to_numpy() & has_level
        if doubt.any():
            _listed(problems, src, doubt, "result-reading", header.get(field, field),
                    frame[field], reading.detail.reindex(src.index), blocking=False)
    said = [Said(header.get(f, f), _filled(_floats(r.tricks), level + 6 + _floats(r.rel)),
                 frame[f]) for f, r in read.items()]
    made, bad_made = _whole_cells(frame, "made")  # hand-kept travellers: level made
    down, bad_down = _whole_cells(frame, "down")  # ... and undertricks
    both, bad_both = _whole_cells(frame, "made_down")  # ACBL's one column: 4, 5, -1
    with np.errstate(invalid="ignore"):
        bad_made = bad_made | (~np.isnan(made) & ((made < 0) | (made > 7)))
        bad_both = bad_both | (~np.isnan(both) & ((both == 0) | (both > 7) | (both < -13)))
    for field, taken in (("made", np.where(bad_made, np.nan, made + 6)),
                         ("down", level + 6 - np.abs(down)),
                         ("made_down", np.where(bad_both, np.nan,
                                                np.where(both > 0, both + 6, level + 6 + both)))):
        if field in frame:
            said.append(Said(header.get(field, field), taken, frame[field]))
    said.append(Said(header.get("contract", "contract"), level + 6 + parts["rel"],
                     col(frame, "contract")))

    def bad(field: str) -> np.ndarray:
        return read[field].bad.to_numpy() if field in read else np.zeros(len(frame), bool)

    return said, bad("tricks"), bad("result") | bad_made | bad_down | bad_both


def _whole_cells(frame: pd.DataFrame, field: str) -> tuple[np.ndarray, np.ndarray]:
    """Whole numbers of a column as (floats, bad cells); NaN and False when it is absent."""
    if field not in frame:
        return np.full(len(frame), np.nan), np.zeros(len(frame), dtype=bool)
    return whole_floats(frame[field])


def _whole(values: np.ndarray, keep: np.ndarray, dtype: str) -> Any:
    """Float values where ``keep`` (else missing) as a nullable integer array of ``dtype``."""
    return int_array(np.where(keep, values, np.nan), dtype)


def parse_play(out, frame, notation, header, src, contract_text, declarer_text,  # type: ignore[no-untyped-def]
               problems) -> dict[str, Any]:
    """``out`` (a dict of columns) with contract, declarer, tricks, score, lead and rulings.

    Their problems are appended to ``problems``.
    """
    doubling = (None if "doubled" not in frame else  # (a Dbl column beside the contract)
                Said(header.get("doubled", "doubled"), double_codes(frame["doubled"]),
                     frame["doubled"]))
    parts, bad_double = _with_doubling(contract_arrays(contract_text, notation), doubling)
    ruled = rulings.marker_arrays(frame)  # directors' rulings, fouled groups, arrow switches
    adjusted = ~(np.asarray(ruled["ruling_kind"].isna()) & np.asarray(ruled["ruling_error"].isna()))
    has_text = _written(contract_text)
    said_scores, bad_score, bad_ew = _scores(frame, header)
    contract_cells, declarer_cells = col(frame, "contract"), col(frame, "declarer")  # as typed
    written_seat = seat_codes(declarer_cells, notation)  # positions in SEATS
    bad_seat = _written(declarer_text) & (written_seat < 0)
    side_only = np.zeros(len(src), dtype=bool)  # "NS" in By beside a contract with no seat
    if bad_seat.any():
        written_seat, side_only = _sides_named(side_codes(declarer_cells), parts["seat"],
                                               written_seat)
        bad_seat &= written_seat < 0
    said_tricks, bad_tr, bad_res = _tricks_taken(frame, parts, header, src, problems)
    play = _conditions(out, frame, parts, header, src, problems)
    seats = [Said(header.get("declarer", "declarer"), _position(written_seat),
                  declarer_cells),
             Said(header.get("contract", "contract"), _position(parts["seat"]),
                  contract_cells)]
    with np.errstate(invalid="ignore"):  # the contract scores itself (the score only checks)
        taken = first_said(said_tricks, len(src))
        scores_itself = (parts["level"] == 0) | (
            (parts["level"] > 0) & ~np.isnan(first_said(seats, len(src))) & ~np.isnan(taken))
    score, stated = settle_scores(said_scores, src, scores_itself, problems)
    _tricks_on_pass(parts["level"], taken, said_tricks, src, problems)
    _dash_for_pass(contract_text, contract_cells, parts["level"], taken, score, adjusted,
                   header, src, problems)
    seat_read, tricks = settle_play(play, seats, said_tricks, score, src, problems)
    if doubling is not None:  # (the doubling said twice: in the contract and the column)
        doubled = settle_doubling(play, doubling, header.get("contract", "contract"),
                                  seat_read, tricks, score, src, problems)
        parts, play = {**parts, "doubled": doubled}, replace(play, doubled=doubled)
    seat = np.where(np.isnan(seat_read), -1, seat_read).astype(np.int64)
    if "vul" in frame:  # what the table played, for the scorer
        vul = settle_vulnerability(play, Said(header.get("vul", "vul"), play.vulnerability,
                                              col(frame, "vul")),
                                   seat_read, tricks, score, src, problems)
        out = {**out, "vul": _whole(vul.astype(np.float64), vul >= 0, "Int8")}
    lv, sc = parts["level"], score
    with np.errstate(invalid="ignore"):
        played = lv > 0
        out_of_range = played & ~np.isnan(tricks) & ((tricks < 0) | (tricks > 13))
    seat_ok = seat >= 0
    score_ok = ~np.isnan(sc) & ~adjusted
    # contract trouble is only a warning when the score (or a ruling) says it all
    hard = ~(score_ok | adjusted)
    vul_codes = _vul_codes(out)  # (the Vul column as scored, for both score checks)
    _scores_off_vulnerability(ruled, out, vul_codes)
    _ruling_problems(ruled, src, header, problems)
    names = _names(header)
    unknown_columns = _not_recognised(frame)
    c_name, t_name, s_name = names
    unknown = has_text & ~adjusted & np.isnan(lv) & ~bad_double
    _listed(problems, src, unknown, "unknown-contract", c_name, contract_cells,
            blocking=hard)
    _listed(problems, src, bad_double & ~adjusted, "unknown-double",
            header.get("doubled", "doubled"), col(frame, "doubled"), blocking=hard)
    d_name = header.get("declarer", "declarer")
    _listed(problems, src, played & ~seat_ok & ~bad_seat, "missing-declarer", d_name,
            detail=unknown_columns, blocking=hard)
    _listed(problems, src, bad_seat & played, "unknown-declarer", d_name, declarer_cells,
            blocking=hard)
    bad_tricks = (bad_tr | bad_res) & played
    out_typed = out_of_range | bad_tricks
    typed = _typed(frame, TRICKS_FIELDS) if out_typed.any() else None
    _listed(problems, src, bad_tricks, "bad-tricks", t_name, typed, blocking=hard)
    _listed(problems, src, played & np.isnan(tricks) & ~bad_tr & ~bad_res, "missing-tricks",
            t_name, detail=unknown_columns, blocking=hard)
    # the value as typed: "-11" in the Result column, or "4S-11" in the contract
    if out_of_range.any():
        typed_ok = typed.notna().to_numpy()  # type: ignore[union-attr]
        _listed(problems, src, out_of_range & typed_ok, "tricks-out-of-range", t_name, typed,
                blocking=hard)
        _listed(problems, src, out_of_range & ~typed_ok, "tricks-out-of-range", c_name,
                contract_cells, blocking=hard)
    contract_ok = ~np.isnan(lv) & (~played | (seat_ok & ~np.isnan(tricks) & ~out_of_range))
    _side_only_noted(side_only & played & contract_ok, src, d_name, declarer_cells, problems)
    use_score = ~contract_ok & score_ok
    typed_score = (_typed(frame, SCORE_FIELDS)
                   if ((bad_score | bad_ew) & ~adjusted).any() or use_score.any() else None)
    bad = (bad_score | bad_ew) & ~adjusted
    _listed(problems, src, bad, "bad-score", s_name, typed_score,
            detail=_separated(typed_score) if bad.any() else "", blocking=np.isnan(lv))
    # (a row whose score columns disagree states one: it is listed as scores-disagree)
    _listed(problems, src, ~has_text & ~stated & ~bad_score & ~bad_ew & ~adjusted,
            "missing-result", c_name, detail=unknown_columns)
    if use_score.any():
        impossible = use_score & ~possible_ns_score(
            pd.Series(out["board"], index=src.index),
            pd.Series(int_array(score), index=src.index), vul_codes).to_numpy(dtype=bool)
        _listed(problems, src, impossible, "impossible-score", s_name, typed_score)
    return _played(out, frame, notation, parts, ruled, seat, tricks, score, contract_ok, played,
                   src, header, problems)


def _with_doubling(parts: dict[str, np.ndarray], doubling: Said | None
                   ) -> tuple[dict[str, np.ndarray], np.ndarray]:
    """The contract's parts with a doubling column's (``Dbl``: ``X``, ``XX``; ``doubling``
    holds its codes, None: no such column) read in, and where a played contract's
    doubling cell cannot be read (its level is then unknown: the row is scored from
    its recorded score, if any, as an unread contract is).

    A contract that writes no doubling (``4S``) takes the column's; one that writes
    its own (``4SX``) keeps it, and :func:`settle_doubling` compares the two.
    """
    if doubling is None:
        return parts, np.zeros(len(parts["level"]), dtype=bool)
    column = doubling.values
    with np.errstate(invalid="ignore"):
        played = parts["level"] > 0
        bad = played & (column == -1)
        taken = played & (column >= 0) & (parts["doubled"] == 0)
    return {**parts, "doubled": np.where(taken, column, parts["doubled"]),
            "level": np.where(bad, np.nan, parts["level"])}, bad


def _sides_named(side: np.ndarray, contract_seat: np.ndarray, written_seat: np.ndarray
                 ) -> tuple[np.ndarray, np.ndarray]:
    """The declarer column's positions in DECLARERS with the cells that name a side
    (``side``: 0 N-S, 1 E-W, -1 none) read in, and where such a cell is all the row says.

    ``NS`` beside a contract by N agrees with it: N is the seat. ``NS`` beside a
    contract by E is the side's position (``NS``), which :func:`settle_play` then
    lists as the contract and the column disagreeing. ``NS`` beside a contract
    that names no seat stays ``NS``: its N-S score is the same whichever partner
    declared, so the row is scored with the side.
    """
    named = side >= 0
    in_side = named & (contract_seat >= 0) & (contract_seat % 2 == side)
    out = np.where(in_side, contract_seat, np.where(named, len(SEATS) + side, written_seat))
    return out, named & (contract_seat < 0)


def _side_only_noted(rows: np.ndarray, src: pd.DataFrame, column: str, cells: pd.Series,
                     problems: list[pd.DataFrame]) -> None:
    """One ``declarer-side-only`` note per sheet on its first row scored with the declaring
    side alone (``NS`` in By, ``4S`` in the contract), saying how many there are."""
    if not rows.any():
        return
    at = np.flatnonzero(rows)
    sheets = src["sheet"].astype("string").fillna("").to_numpy(dtype=object)[at]
    _, where, many = np.unique(sheets, return_index=True, return_counts=True)
    first = np.zeros(len(src), dtype=bool)
    first[at[where]] = True
    detail = pd.Series("", index=src.index, dtype="string")
    detail.iloc[at[where]] = [f"{n} results of this sheet name only the side, this the first"
                              if n > 1 else "" for n in many.tolist()]
    _listed(problems, src, first, "declarer-side-only", column, cells, detail, blocking=False)


def _tricks_on_pass(level: np.ndarray, taken: np.ndarray, said_tricks: list[Said],
                    src: pd.DataFrame, problems: list[pd.DataFrame]) -> None:
    """A passed-out contract beside tricks taken (``AP`` with 10 tricks) states two things
    that cannot both be true: listed with the tricks as typed, the row scored as a pass.
    (Zero tricks, which some programs write for a pass, say nothing else.) ``taken``: the
    first of ``said_tricks`` that says a number on each row."""
    with np.errstate(invalid="ignore"):
        stray = (level == 0) & ~np.isnan(taken) & (taken > 0)
    if stray.any():
        said = next((s for s in said_tricks if not np.isnan(s.values[stray]).all()),
                    said_tricks[0])
        _listed(problems, src, stray, "tricks-on-pass", said.column, said.cells,
                blocking=False)


def _dash_for_pass(contract_text: pd.Series, typed: pd.Series, level: np.ndarray,
                   taken: np.ndarray,
                   score: np.ndarray, adjusted: np.ndarray, header: dict[str, str],
                   src: pd.DataFrame, problems: list[pd.DataFrame]) -> None:
    """A contract written ``-`` alone, with no score of 0 nor 0 tricks beside it, reads two
    ways: passed out, or not played at that table. Scored as a pass (the notation's
    meaning), and listed; a board not played scores nothing until a ruling says what."""
    codes, uniques = tx.distinct(contract_text)
    dash = tx.spread(codes, [u == "-" for u in uniques], False, bool)
    if not dash.any():
        return
    with np.errstate(invalid="ignore"):
        alone = dash & (level == 0) & np.isnan(score) & np.isnan(taken) & ~adjusted
    _listed(problems, src, alone, "pass-or-not-played", header.get("contract", "contract"),
            typed, blocking=False)


def _position(codes: np.ndarray) -> np.ndarray:
    """Positions (-1: none) as floats with NaN for none, as :class:`Said` holds them."""
    return np.where(codes >= 0, codes, np.nan)


def _conditions(out: dict[str, Any], frame: pd.DataFrame, parts: dict[str, np.ndarray],
                header: dict[str, str], src: pd.DataFrame, problems: list[pd.DataFrame]
                ) -> Play:
    """The contract's parts and the vulnerability it is scored with (Vul and Dealer checked)."""
    board = pd.Series(out["board"], index=src.index).to_numpy(dtype=np.float64,
                                                              na_value=np.nan)
    vulnerability = np.full(len(src), -1)
    if "vul" in frame:  # the column's, until the recorded score is heard (settle_vulnerability)
        codes = vulnerability_codes(col(frame, "vul")).astype(np.int64)
        vulnerability = np.where(codes >= 0, codes, -1)
    if "dealer" in frame:
        check_dealer(board, Said(header.get("dealer", "dealer"),
                                 dealer_codes(col(frame, "dealer")), col(frame, "dealer")),
                     src, problems)
    return Play(board, parts["level"], parts["strain"], parts["doubled"], vulnerability)


def _names(header: dict[str, str]) -> tuple[str, str, str]:
    """The contract, tricks and score columns as the user headed them."""
    return (header.get("contract", "contract"),
            next((header[f] for f in TRICKS_FIELDS if f in header), "tricks"),
            next((header[f] for f in SCORE_FIELDS if f in header), "score"))


def _vul_codes(out: dict[str, Any]) -> np.ndarray | None:
    """The Vul column's codes the rows are scored at (-1: the board number's), if any."""
    if "vul" not in out:
        return None
    return np.asarray(pd.array(out["vul"], dtype="Int64").to_numpy(dtype=np.int64,
                                                                   na_value=-1))


def _scores_off_vulnerability(ruled: dict[str, Any], out: dict[str, Any],
                              vul: np.ndarray | None) -> None:
    """A split or weighted ruling's scores checked against the board's vulnerability:
    +400 on a board N-S are vulnerable on is no score N-S can make (3NT is +600 there),
    and a ruling written with the other vulnerability's score would be matchpointed
    as if it were right. Such a ruling is refused (``ruling_error``), as one whose
    score no board has, and listed with the score that cannot be. ``vul``: the
    :func:`_vul_codes` the rows are scored at."""
    kind = np.asarray(pd.array(ruled["ruling_kind"], dtype="string").to_numpy(
        dtype=object, na_value=None))
    rows = np.flatnonzero(np.isin(kind, ("split", "weighted")))
    if not len(rows):
        return
    from traveller.tidy.notation import cleaned_texts
    from traveller.tidy.ruling_text import read_ruling

    texts = cleaned_texts(list(pd.array(ruled["ruling"], dtype="string")[rows]))
    board = pd.array(out["board"], dtype="Int64")[rows]
    codes = vul[rows] if vul is not None else np.full(len(rows), -1)
    errors = pd.array(ruled["ruling_error"], dtype="string").copy()
    kinds = pd.array(ruled["ruling_kind"], dtype="string").copy()
    for at, text, number, code in zip(rows, texts, board, codes, strict=True):
        scores = [s for _, s in read_ruling(text or "").parts]
        if pd.isna(number) or not scores:
            continue
        ok = possible_ns_score(pd.Series([number] * len(scores), dtype="Int64"),
                               pd.Series(scores, dtype="Int64"),
                               np.full(len(scores), code)).to_numpy(dtype=bool)
        if ok.all():
            continue
        wrong = scores[int(np.flatnonzero(~ok)[0])]
        stated = PBN_VULNERABLE_WORDS[code] if code >= 0 else board_vulnerability(int(number))
        errors[at] = (f"{wrong:+d} is not a score on board {number} ({_VUL_WORDS[stated]}): "
                      "check the ruling's scores against the board's vulnerability")
        kinds[at] = pd.NA
    ruled["ruling_error"], ruled["ruling_kind"] = errors, kinds


#: A board's vulnerability (PBN's word) as a message says it.
_VUL_WORDS = {"None": "neither side vulnerable", "NS": "N-S vulnerable",
              "EW": "E-W vulnerable", "All": "both sides vulnerable"}


def _ruling_problems(columns: dict[str, Any], src: pd.DataFrame, header: dict[str, str],
                     problems: list[pd.DataFrame]) -> None:
    bad_ruling = ~np.asarray(columns["ruling_error"].isna())
    if not bad_ruling.any():
        return
    ruled = pd.DataFrame(columns, index=src.index)
    for source, rows in ruled[bad_ruling].groupby("ruling_column"):  # at most a few columns
        problems.append(flag(src.loc[rows.index], "bad-ruling", header.get(source, source),
                             rows["ruling"], rows["ruling_error"]))


#: The categories of the strain and declarer columns, built once.
_STRAINS, _DECLARERS = pd.CategoricalDtype(STRAINS), pd.CategoricalDtype(DECLARERS)


def _played(out, frame, notation, parts, ruled, seat, tricks, score,  # type: ignore[no-untyped-def]
            contract_ok, played, src, header, problems) -> dict[str, Any]:
    """``out`` with the lead (listed when unreadable) and the parsed contract columns."""
    lead, bad_lead = read_leads(col(frame, "lead"), notation)
    if bad_lead.any():  # the cell as typed is what the lead column shows where it is no lead
        _listed(problems, src, bad_lead, "unknown-lead", header.get("lead", "lead"),
                pd.Series(lead, index=src.index), blocking=False)
    # every new column as an array on out's rows: one frame built, nothing to align
    level = np.where(contract_ok, parts["level"], np.nan)
    doubled = np.where(contract_ok, parts["doubled"], np.nan)
    strain = np.where(contract_ok, parts["strain"], -1)
    columns = {
        "level": _whole(level, contract_ok, "Int8"),
        "strain": pd.Categorical.from_codes(strain, dtype=_STRAINS, validate=False),
        "doubled": _whole(doubled, contract_ok, "Int8"),
        "declarer": pd.Categorical.from_codes(
            np.where(contract_ok & played, seat, -1), dtype=_DECLARERS, validate=False),
        "tricks": _whole(tricks, contract_ok & played, "Int64"),
        "contract": display(level, strain, doubled),
        "lead": lead,
        "recorded_score": int_array(score),
        **{c: v for c, v in ruled.items() if c not in ("ruling_error", "ruling_column")},
    }
    return {**out, **columns}
