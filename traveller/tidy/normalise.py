"""Raw tables -> canonical traveller rows plus a problems table.

Each table's notation is detected from its own content (or forced), then every
column is parsed vectorised. A row with a blocking problem is left out of the
scoring and listed; a warning (an unreadable lead, say) is listed and the row
is still scored. Every input row ends up in exactly one of the two outputs.
"""

from __future__ import annotations

from dataclasses import dataclass, replace

import numpy as np
import pandas as pd

from traveller.problems import combine, flag
from traveller.read.raw import Loaded, RawTable
from traveller.schema import HEADER_ALIASES, NOTATIONS, SEATS, STRAINS
from traveller.score.table import codes, possible_ns_score
from traveller.tidy import checks, rulings
from traveller.tidy.dates import recover_dates
from traveller.tidy.notation import (
    cell_text,
    clean,
    detect,
    detect_each,
    parse_contracts,
    parse_leads,
    parse_seats,
    per_unique,
)
from traveller.tidy.unknown_pairs import unidentified

#: Recognised fields whose cells are also kept as written, beside the parsed value.
AS_WRITTEN = ("contract", "declarer", "tricks", "result", "lead", "score", "score_ew")
_RELATIVE = r"^(?:=|M|[+-]\d{1,2})$"


@dataclass
class Normalised:
    """Canonical rows ready to score, and every problem found on the way."""

    travellers: pd.DataFrame
    problems: pd.DataFrame
    movement: str = "mitchell"


def normalise(
    tables: Loaded | list[RawTable],
    notation: str | None = None,
    movement: str = "auto",
    unknown_pairs: str = "problem",
) -> Normalised:
    """Parse raw tables into canonical traveller rows and a problems table.

    ``notation`` forces one of :data:`traveller.schema.NOTATIONS` for every
    sheet; ``movement`` is "auto", "mitchell" or "howell"; ``unknown_pairs="field"``
    keeps results whose pair is ``???``, blank or 0 (see :mod:`traveller.tidy.unknown_pairs`).

    >>> from traveller.read.load import read
    >>> n = normalise(read("sample_data/board8_protocol.csv"))  # doctest: +SKIP
    """
    if notation is not None and notation not in NOTATIONS:
        raise ValueError(f"unknown notation {notation!r}; choose from {', '.join(NOTATIONS)}")
    raw = [_categorised(t) for t in (tables.tables if isinstance(tables, Loaded) else tables)]
    parts = [_table(t, n, unknown_pairs) for t, n in _merged(raw, _notations(raw, notation))]
    good = pd.concat([p[0] for p in parts], ignore_index=True) if parts else pd.DataFrame()
    problems = [p[1] for p in parts]
    good, session_problems, movement = checks.session_checks(good, movement)
    problems.append(session_problems)
    return Normalised(good, combine(problems), movement)


def _without_blocked(rows: pd.DataFrame, problems: list[pd.DataFrame]) -> pd.DataFrame:
    """The rows no blocking problem names (problem rows keep their row's index)."""
    blocked = [p.index[p["blocking"].astype(bool).to_numpy()] for p in problems if not p.empty]
    if not blocked:
        return rows
    return rows.loc[~rows.index.isin(np.concatenate(blocked))]


def _col(frame: pd.DataFrame, name: str) -> pd.Series:
    if name in frame:
        return frame[name]
    return pd.Series(pd.NA, index=frame.index, dtype="object")


def _first(cells: pd.Series, other: pd.Series) -> pd.Series:
    """Each row's cell from ``cells``, else from ``other`` (as read, for messages)."""
    return cells.astype(object).fillna(other.astype(object))


def _text(values: pd.Series) -> pd.Series:
    """Cells as stripped text; numbers lose a trailing .0 (Excel stores 12 as 12.0)."""
    return per_unique(values, cell_text).astype("string")


def _integers(values: pd.Series) -> tuple[pd.Series, pd.Series]:
    """Whole numbers from cells; returns (numbers, bad) where bad marks unreadable non-blanks."""
    parsed = per_unique(values, _integers_unique)
    return parsed["number"].astype("Int64"), parsed["bad"].fillna(False).astype(bool)


def _integers_unique(values: pd.Series) -> pd.DataFrame:
    text = cell_text(values).str.replace("−", "-").str.replace(r"^\+", "", regex=True)
    number = pd.to_numeric(text, errors="coerce")
    whole = number.notna() & (number == np.floor(number.fillna(0)))
    return pd.DataFrame({"number": number.where(whole).astype("Int64"),
                         "bad": text.notna() & ~whole})


def _score_in_result_column(frame: pd.DataFrame) -> pd.DataFrame:
    """A "Result" column that holds scores (+1380, -50) beside a Tricks column is the score."""
    if "result" not in frame or "tricks" not in frame or "score" in frame:
        return frame
    numbers, _ = _integers(frame["result"])
    if numbers.notna().sum() and (numbers.abs() > 13).mean() > 0.5:
        return frame.rename(columns={"result": "score"})
    return frame


def _notations(raw: list[RawTable], forced: str | None) -> list[str | list[str]]:
    """Each table's notation, or the notations it could be read in when it is ambiguous.

    Detected per sheet from its own contracts, declarers and leads; a sheet too
    small to tell (a board sheet whose only contracts are 4C and 3C) takes the
    notation of its file when the file as a whole reads one way only.
    """
    if forced:
        return [forced] * len(raw)
    texts = [tuple(clean(_col(t.frame, f)) for f in ("contract", "declarer", "lead"))
             for t in raw]
    found: list[str | list[str]] = [
        table.notation or name or choices
        for table, (name, choices) in zip(raw, detect_each(texts), strict=True)]  # type: ignore[arg-type]
    for file in {t.file for t, n in zip(raw, found, strict=True) if isinstance(n, list)}:
        mine = [i for i, t in enumerate(raw) if t.file == file]
        name, _ = detect(*(pd.concat([texts[i][k] for i in mine]) for k in range(3)))
        for i in mine:
            if name and isinstance(found[i], list):
                found[i] = name
    return found


def _categorised(table: RawTable) -> RawTable:
    """The table with its recognised columns as categoricals of the cells as read.

    Every later step works per distinct value; hashing a million cells once
    here, instead of once per step, is most of the cost of normalising.
    """
    fields = [c for c in table.frame.columns if c in HEADER_ALIASES]
    frame = table.frame.astype({c: "category" for c in fields})
    return replace(table, frame=frame)


#: Columns that carry a merged table's per-row sheet name and title board.
_MERGED = ("_sheet", "_board")


def _merged(raw: list[RawTable], notations: list[str | list[str]]
            ) -> list[tuple[RawTable, str | list[str]]]:
    """Tables of one file laid out alike (one sheet per board, stacked boards) as one.

    Parsing cost is per call, not per row, so 27 board sheets parse as one
    table; each row keeps its own sheet name and title board.
    """
    groups: dict[tuple[object, ...], list[int]] = {}
    for i, (table, notation) in enumerate(zip(raw, notations, strict=True)):
        key = (table.file, tuple(table.frame.columns), tuple(table.original_columns.items()),
               str(notation), table.notation)
        groups.setdefault(key, []).append(i)
    merged = []
    for members in groups.values():
        first = raw[members[0]]
        if len(members) == 1:
            merged.append((first, notations[members[0]]))
            continue
        frame = pd.concat([raw[i].frame.assign(_sheet=raw[i].sheet, _board=raw[i].board)
                           for i in members], ignore_index=True)
        outside = [row for i in members for row in raw[i].outside]
        merged.append((replace(first, frame=frame, board=None, outside=outside),
                       notations[members[0]]))
    return merged


def _table(table: RawTable, notation: str | list[str], unknown_pairs: str = "problem"
           ) -> tuple[pd.DataFrame, pd.DataFrame]:
    frame = _score_in_result_column(table.frame)
    header = {**{f: f for f in frame.columns}, **table.original_columns}
    if "score" in frame and "score" not in table.original_columns:
        header["score"] = table.original_columns.get("result", "score")
    sheet = frame["_sheet"].astype(str) if "_sheet" in frame else table.sheet
    src = pd.DataFrame({"file": table.file, "sheet": sheet,
                        "row": frame["row"].astype("int64")}, index=frame.index)
    frame, date_problems = recover_dates(frame, header, src)
    date_problems.append(_outside(table))
    contract_text = clean(_col(frame, "contract"))
    declarer_text = clean(_col(frame, "declarer"))
    if isinstance(notation, list):
        detail = ("could be " + " or ".join(NOTATIONS[c].description for c in notation)
                  + f"; --notation {'|'.join(notation)}")
        return _kept(src.iloc[:0], frame.iloc[:0], header, "en"), flag(
            src, "ambiguous-notation", header.get("contract", "contract"),
            _col(frame, "contract"), detail)
    out = _kept(src, frame, header, notation)
    problems: list[pd.DataFrame] = date_problems
    out = _parse_identity(out, frame, table, header, src, problems, unknown_pairs == "field")
    out = _parse_play(out, frame, notation, header, src, contract_text, declarer_text, problems)
    return _without_blocked(out, problems), combine(problems)


def _outside(table: RawTable) -> pd.DataFrame:
    """``outside-table`` problems for result-like rows above the table's header."""
    rows = pd.DataFrame({"file": table.file, "sheet": [s for s, _ in table.outside],
                         "row": [r for _, r in table.outside]}, dtype=object)
    return flag(rows, "outside-table", "", blocking=False)


def _kept(src: pd.DataFrame, frame: pd.DataFrame, header: dict[str, str],
          notation: str) -> pd.DataFrame:
    """Source columns, the notation, cells as written, and the input's other columns."""
    out = src.copy()
    out["notation"] = notation
    for f in AS_WRITTEN:
        if f in frame:
            out[f"{header[f]} (as written)"] = frame[f].astype("string")
    for c in frame.columns:
        if c not in HEADER_ALIASES and c != "row" and c not in _MERGED:
            out[c] = frame[c]
    return out


def _parse_identity(out, frame, table, header, src, problems,  # type: ignore[no-untyped-def]
                    keep_unknown=False) -> pd.DataFrame:
    section = _text(_col(frame, "section")).fillna("")
    out["section"] = section.astype("string").astype("category")
    board, bad = _integers(_col(frame, "board"))
    title = frame["_board"] if "_board" in frame else pd.Series(table.board, index=frame.index)
    title = pd.to_numeric(title).astype("Int64")
    mismatch = (board.notna() & title.notna() & (board != title)).fillna(False).astype(bool)
    problems.append(flag(src[mismatch], "board-mismatch", header.get("board", "board"),
                         _col(frame, "board")[mismatch],
                         "the title says board " + title[mismatch].astype("string")))
    board = board.fillna(title)
    blank = board.isna() & ~bad
    bad |= board.notna() & (board < 1)
    problems.append(flag(src[bad], "bad-board", header.get("board", "board"),
                         _col(frame, "board")[bad]))
    problems.append(flag(src[blank], "missing-board", header.get("board", "board")))
    out["board"] = board.where(~bad).astype("Int64")
    pairs = {side: _integers(_col(frame, side)) for side in ("ns_pair", "ew_pair")}
    # a Bye line may name only the pair sitting out: the missing side is the phantom
    one_missing = pairs["ns_pair"][0].isna() ^ pairs["ew_pair"][0].isna()
    sit_out = one_missing & rulings.is_phantom_line(frame[one_missing]).reindex(
        frame.index, fill_value=False)
    for side in ("ns_pair", "ew_pair"):
        pair, bad = pairs[side]
        bad |= pair.notna() & (pair < 1)
        name = header.get(side, side)
        unknown, warned = unidentified(_col(frame, side), src, name, keep_unknown, sit_out)
        bad &= ~unknown
        problems.append(warned)
        problems.append(flag(src[bad], "bad-pair", name, _col(frame, side)[bad]))
        problems.append(flag(src[pair.isna() & ~bad & ~sit_out & ~unknown], "missing-pair", name))
        out[side] = pair.where(~bad & ~unknown).astype("Int64")
    return out


def _tricks(values: pd.Series) -> tuple[pd.Series, pd.Series, pd.Series]:
    """Tricks taken or relative result per cell -> (tricks, rel, bad)."""
    parsed = per_unique(values, _tricks_unique)
    if parsed["signed"].fillna(False).any():
        # in a column of relative results a bare 0 means "made exactly"
        zero = (parsed["tricks"] == 0).fillna(False)
        parsed.loc[zero, "rel"] = 0
        parsed.loc[zero, "tricks"] = pd.NA
    return (parsed["tricks"].astype("Int64"), parsed["rel"].astype("Int64"),
            parsed["bad"].fillna(False).astype(bool))


def _tricks_unique(values: pd.Series) -> pd.DataFrame:
    text = cell_text(values).str.upper().str.replace("−", "-")
    relative = text.str.match(_RELATIVE).fillna(False).astype(bool)
    numbers = pd.to_numeric(text.where(~relative), errors="coerce")
    rel = pd.to_numeric(text.where(relative).replace({"=": "0", "M": "0"}), errors="coerce")
    tricks = numbers.where(numbers == np.floor(numbers.fillna(0)))
    return pd.DataFrame({
        "tricks": tricks.astype("Int64"), "rel": rel.astype("Int64"),
        "bad": text.notna() & tricks.isna() & rel.isna(),
        "signed": relative & text.str.match(r"^[+-]").fillna(False).astype(bool),
    })


def _parse_play(out, frame, notation, header, src, contract_text, declarer_text,  # type: ignore[no-untyped-def]
                problems) -> pd.DataFrame:
    parts = parse_contracts(contract_text, notation)
    has_text = contract_text.notna() & (contract_text != "")
    ruled = rulings.markers(frame)  # directors' rulings, fouled groups, arrow switches
    adjusted = ruled["ruling_kind"].notna() | ruled["ruling_error"].notna()
    unknown = has_text & ~adjusted & parts["level"].isna()
    score, bad_score = _integers(_col(frame, "score"))
    ew_score, bad_ew = _integers(_col(frame, "score_ew"))
    score = score.fillna(-ew_score)
    seat = parse_seats(_col(frame, "declarer"), notation).fillna(parts["seat"])
    bad_seat = declarer_text.notna() & (declarer_text != "") & parse_seats(
        _col(frame, "declarer"), notation).isna()
    tricks, rel, bad_tr = _tricks(_col(frame, "tricks"))
    r_tricks, r_rel, bad_res = _tricks(_col(frame, "result"))
    rel = rel.fillna(r_rel).fillna(parts["rel"].astype("Int64"))
    level = parts["level"].astype("Int64")
    tricks = tricks.fillna(r_tricks).fillna(level + 6 + rel)
    played = level > 0
    out_of_range = played.fillna(False) & tricks.notna() & ((tricks < 0) | (tricks > 13))
    c_name = header.get("contract", "contract")
    t_name = header.get("tricks", header.get("result", "tricks"))
    score_ok = score.notna() & ~adjusted
    # contract trouble is only a warning when the score (or a ruling) says it all
    soft = score_ok | adjusted
    bad_ruling = ruled["ruling_error"].notna()
    for source, rows in ruled[bad_ruling].groupby("ruling_column"):  # at most a few columns
        problems.append(flag(src.loc[rows.index], "bad-ruling", header.get(source, source),
                             rows["ruling"], rows["ruling_error"]))
    checks_ = [
        (unknown, "unknown-contract", c_name, _col(frame, "contract"), ~soft),
        (played.fillna(False) & seat.isna() & ~bad_seat, "missing-declarer",
         header.get("declarer", "declarer"), None, ~soft),
        (bad_seat & played.fillna(False), "unknown-declarer", header.get("declarer", "declarer"),
         _col(frame, "declarer"), ~soft),
        ((bad_tr | bad_res) & played.fillna(False), "bad-tricks", t_name,
         _first(_col(frame, "tricks"), _col(frame, "result")), ~soft),
        (played.fillna(False) & tricks.isna() & ~bad_tr & ~bad_res, "missing-tricks", t_name,
         None, ~soft),
        (out_of_range, "tricks-out-of-range", t_name, tricks, ~soft),
        ((bad_score | bad_ew) & ~adjusted, "bad-score", header.get("score", "score"),
         _first(_col(frame, "score"), _col(frame, "score_ew")), level.isna()),
        (~has_text & score.isna() & ~bad_score & ~bad_ew & ~adjusted, "missing-result", c_name,
         None, True),
    ]
    for mask, code, column, values, blocking in checks_:
        mask = mask.fillna(False).astype(bool)
        block = blocking if isinstance(blocking, bool) else blocking[mask]  # type: ignore[index]
        problems.append(flag(src[mask], code, column,
                             None if values is None else values[mask], blocking=block))
    contract_ok = level.notna() & (~played | (seat.notna() & tricks.notna() & ~out_of_range))
    contract_ok = contract_ok.fillna(False)
    use_score = ~contract_ok & score_ok
    impossible = use_score & ~possible_ns_score(out["board"], score)
    problems.append(flag(src[impossible], "impossible-score", header.get("score", "score"),
                         score[impossible]))
    lead = parse_leads(_col(frame, "lead"), notation)
    lead_text = _text(_col(frame, "lead"))
    bad_lead = lead_text.notna() & lead.isna()
    problems.append(flag(src[bad_lead], "unknown-lead", header.get("lead", "lead"),
                         lead_text[bad_lead], blocking=False))
    out["level"] = level.where(contract_ok).astype("Int8")
    out["strain"] = pd.Categorical(parts["strain"].where(contract_ok), categories=STRAINS)
    out["doubled"] = parts["doubled"].where(contract_ok).astype("Int8")
    out["declarer"] = pd.Categorical(seat.where(contract_ok & played), categories=SEATS)
    out["tricks"] = tricks.where(contract_ok & played).astype("Int64")
    out["contract"] = _display(out["level"], out["strain"], out["doubled"])
    out["lead"] = lead.fillna(lead_text).astype("string")
    out["recorded_score"] = score.astype("Int64")
    for column in ruled.columns.drop(["ruling_error", "ruling_column"]):
        out[column] = ruled[column]
    return out


def _display(level: pd.Series, strain: pd.Series, doubled: pd.Series) -> pd.Series:
    """Canonical contract text: 4S, 3NTX, 2HXX, PASS (built once per distinct contract)."""
    key = ((level.to_numpy(dtype=np.int64, na_value=-1) + 1) * 100
           + (codes(strain, STRAINS).astype(np.int64) + 1) * 10
           + doubled.to_numpy(dtype=np.int64, na_value=0))
    index, uniques = pd.factorize(key)
    labels: list[str | None] = []
    for k in uniques.tolist():
        lvl, s, dbl = k // 100 - 1, (k // 10) % 10 - 1, k % 10
        labels.append(None if lvl < 0 else "PASS" if lvl == 0 else
                      f"{lvl}{STRAINS[s]}{'X' * dbl}")
    return pd.Series(pd.array(labels, dtype="string").take(index), index=level.index)
