"""Building rows of the problems table, vectorised over the rows a check flags."""

from __future__ import annotations

from collections.abc import Callable, Sequence
from pathlib import Path

import numpy as np
import pandas as pd

from traveller.schema import PROBLEM_COLUMNS

#: What the user should do, per problem code.
FIXES: dict[str, str] = {
    "missing-board": "fill in the board number",
    "bad-board": "write the board number as a whole number such as 7",
    "missing-pair": "fill in both pair numbers",
    "bad-pair": "write pair numbers as whole numbers such as 5",
    "missing-result": "fill in the contract and tricks, or the score",
    "unknown-contract": "write level + strain (+ X or XX), e.g. 4S, 3NTX, 2HXX, or PASS",
    "unknown-declarer": "write the declarer as N, E, S or W",
    "missing-declarer": "fill in the declarer (N, E, S or W)",
    "missing-tricks": "fill in the tricks taken (e.g. 10) or the result (=, +1, -2)",
    "bad-tricks": "write tricks taken (0-13) or the result relative to the contract (=, +1, -2)",
    "tricks-out-of-range": "check the tricks: a side takes 0 to 13 tricks",
    "bad-score": "write the score as a whole number, e.g. 420 or -50",
    "impossible-score": "check the score against the contract played",
    "score-disagrees": "check the contract, declarer, tricks and score on the original traveller",
    "unknown-lead": "write the lead as suit + rank, e.g. SA or H10",
    "duplicate-result": "check the pair numbers: one of the two rows is entered twice or wrongly",
    "pair-plays-itself": "check the pair numbers of this result",
    "lines-swapped": "check the pair numbers and the board against the original traveller",
    "few-boards": (
        "check the pair number on the original traveller; nothing, if the pair did play "
        "only these boards"
    ),
    "pair-on-both-lines": (
        "correct the pair number, or use --movement howell if pairs changed lines"
    ),
    "unreadable-file": "mend or export the file as the message says, then score it again",
    "bad-ruling": "write the ruling in one of the notations of docs/rulings.md",
    "ambiguous-notation": "rerun with --notation set to the sheet's notation",
    "excel-date": "format the column as Text in Excel and type the value again",
    "excel-date-recovered": "format the column as Text in Excel so it stays as typed",
    "outside-table": "move the row under the header row, or delete it if it is not a result",
    "bad-names-pair": "write the pair number as a whole number such as 5, as on the travellers",
    "second-names-sheet": "put every pair's names on one names sheet; delete or rename the other",
    "names-twice": (
        "correct the pair number of the row that is wrong, or add a Line column (NS, EW) "
        "where two pairs share a number"
    ),
    "unknown-double": "write X for doubled, XX for redoubled, or leave the cell blank",
    "doubled-disagrees": "correct the contract or the doubling cell on the original traveller",
    "names-disagree": (
        "correct the pair number or the names where they are wrong: on this row, on the row "
        "named, or on the names sheet"
    ),
    "names-of-another-pair": (
        "correct the pair number on the row that is wrong (or the names, if two pairs were "
        "given the same)"
    ),
    "board-mismatch": "correct the board number or the sheet's title",
    "unknown-player": "write the declarer's name as in the Players row (or --players)",
    "bad-honours": "write who held them and the amount, e.g. N 100, EW 150 or Anna 150",
    "honours-on-pass": "clear the honours cell, or correct the contract if the deal was played",
    "unknown-pair": "nothing, unless you know the pair: then write its number",
    "published-differs": (
        "check the results behind it (and their count) against the original travellers"
    ),
    "publication-settings": (
        "nothing, if the session's settings are right; else rerun with the settings it was "
        "made with"
    ),
    "profile-suggested": (
        "rerun with the --as the message names, if the session was scored with that "
        "program's settings"
    ),
    "unusual-score": "check the declarer, contract and result on the original traveller",
    "method-suggested": "rerun with the --method the message names, if that is what was played",
    "board-filled": "nothing, if each board's number is written on its first row only",
    "section-disagrees": "correct the pair numbers' section letters or the Section column",
    "declarer-disagrees": "correct the contract or the declarer column on the original traveller",
    "hcp-disagrees": (
        "count the hands again; correct the HCP cell, or check that the hand record is this "
        "session's"
    ),
    "seat-disagrees": (
        "check the pair number first (the score goes to the pair written), then the round "
        "and table, on the original traveller"
    ),
    "second-column-disagrees": (
        "correct the cell that is wrong on the original traveller, or delete the column the "
        "sheet does not need"
    ),
    "tricks-disagrees": "correct the result in the contract or in the tricks column",
    "scores-disagree": "clear the score column that is wrong (a row has one N-S score)",
    "vulnerability-disagrees": (
        "check the board: if it was played with the board number's vulnerability, "
        "correct the column"
    ),
    "dealer-disagrees": "check the board's dealer; correct the column or the board number",
    "result-reading": "check it; format the Result column as Text so Excel keeps the + of +2",
    "bad-deal": "write the deal as PBN does: N:AKQ.JT9.876.5432 followed by E, S and W's hands",
    "deal-card-count": "check the deal against the hand record printout or the dealing program",
    "deal-duplicate-card": "check the deal against the hand record printout or the dealing program",
    "deal-board-twice": "keep one deal per board in the hand record",
    "deal-conditions-differ": (
        "check that the hand record is this session's; a dealing program numbers boards from 1"
    ),
    "deal-missing": "add the board's deal to the hand record, or ignore if it was not dealt",
    "hands-unreadable": "give the dealing program's PBN file of this session's deals",
    "deal-differs": "check that the hand record is this session's (and its board numbers)",
    "pass-or-not-played": (
        "write PASS if the board was passed out; if it was not played at this table, write "
        "the director's ruling (A=, A60/40) or delete the row"
    ),
    "phantom-not-found": (
        "name the phantom as the travellers number it: 18, or EW18 for one line of a Mitchell"
    ),
    "declarer-side-only": "write the declarer's seat (N, E, S or W) where the travellers "
                          "show it",
    "lead-not-held": "check the lead and the declarer on the original traveller",
    "tricks-on-pass": ("check the contract on the original traveller: a contract lost (the "
                       "tricks then say it was played), or a stray tricks cell"),
}


def flag(rows: pd.DataFrame, code: str, column: str, values: pd.Series | None = None,
         detail: pd.Series | str = "", blocking: bool | pd.Series = True) -> pd.DataFrame:
    """Problem rows for every row of ``rows`` (which carries file, sheet and row; a row of
    <NA> is a problem of the file or sheet as a whole, and its message names no row).

    ``column`` is the header as the user wrote it; ``values`` the offending
    cells (aligned with ``rows``); ``detail`` an optional per-row explanation. The
    board is ``rows``' own board column where it has one (a parsed row's), else left
    for :func:`with_boards`.
    """
    from traveller.errors import PROBLEM_CODES

    if rows.empty:
        return _empty()
    shown = (_as_typed(values) if values is not None
             else pd.Series("", index=rows.index, dtype="string"))
    sheet = rows["sheet"].astype("string").fillna("")
    place = rows["file"].astype("string").str.replace(r"^.*[\\/]", "", regex=True)
    place = place + sheet.where(sheet == "", " [" + sheet + "]")
    at_row = (" row " + rows["row"].astype("string")).fillna("")  # none: about the file
    where = place + at_row + (f", {column}" if column else "")
    quoted = shown.where(shown == "", " '" + shown + "'")
    if isinstance(detail, str):
        extra: pd.Series | str = f" ({detail})" if detail else ""
    else:
        text = detail.astype("string").fillna("")
        extra = text.where(text == "", " (" + text + ")")
    message = where + quoted + ": " + PROBLEM_CODES[code] + extra + "; " + FIXES[code]
    return pd.DataFrame({
        "file": rows["file"], "sheet": rows["sheet"], "row": rows["row"],
        "board": rows.get("board", pd.NA), "column": column, "value": shown, "code": code,
        "severity": _severity(blocking, rows.index), "message": message, "blocking": blocking,
    })


def _severity(blocking: bool | pd.Series, index: pd.Index) -> pd.Series | str:
    """"error" where the check leaves its row out, "warning" where the row is still scored.

    What a check intends; :func:`truthful` sets what happened once the session is scored.
    """
    if isinstance(blocking, bool):
        return "error" if blocking else "warning"
    return pd.Series(np.where(blocking.astype(bool).to_numpy(), "error", "warning"), index=index)


#: Codes about something other than a result row (a names row, a whole sheet).
NOT_RESULT_ROWS = frozenset({"bad-names-pair", "second-names-sheet", "names-twice",
                             "method-suggested", "profile-suggested"})
#: Codes whose row, when it is scored all the same, was scored from its recorded score.
_SCORE_ALONE = frozenset({"unknown-contract", "unknown-double", "missing-declarer",
                          "unknown-declarer", "bad-tricks", "missing-tricks",
                          "tricks-out-of-range"})


def truthful(problems: pd.DataFrame, travellers: pd.DataFrame) -> pd.DataFrame:
    """The problems with each severity as it happened: "error" where the row named is not
    among the scored ``travellers``, else "warning", and the message saying how a row
    whose contract could not be read was scored (from its recorded score, or a ruling).
    """
    if problems.empty or not {"file", "sheet", "row"} <= set(travellers.columns):
        return problems
    named, kept = _row_keys(problems), _row_keys(travellers)
    scored = named.isin(kept)
    about_row = ~problems["code"].isin(NOT_RESULT_ROWS).to_numpy() & problems["row"].notna()
    out = problems.copy()
    out["severity"] = np.where(about_row, np.where(scored, "warning", "error"),
                               out["severity"].astype(object))
    alone = scored & out["code"].isin(_SCORE_ALONE).to_numpy()
    if alone.any():
        at = pd.Series(np.arange(len(travellers)), index=kept).reindex(named[alone])
        how = _how_scored(travellers.iloc[at.to_numpy(dtype=np.int64)])
        out.loc[alone, "message"] = out.loc[alone, "message"] + how
    lost = ~scored & about_row & ~out["message"].str.contains("not scored", regex=False)
    out.loc[lost, "message"] = out.loc[lost, "message"] + " (this row is not scored)"
    return out


def with_boards(problems: pd.DataFrame, rows: pd.DataFrame) -> pd.DataFrame:
    """The problems with the board of each that has none taken from ``rows`` (file,
    sheet, row and board: the rows as parsed, before any is left out) naming its row."""
    if problems.empty or "board" not in rows or rows.empty:
        return problems
    missing = problems["board"].isna().to_numpy()
    if not missing.any():
        return problems
    keys = _row_keys(rows)
    board = pd.Series(pd.to_numeric(rows["board"], errors="coerce").to_numpy(dtype=float),
                      index=keys)
    found = board[~keys.duplicated()].reindex(_row_keys(problems[missing])).to_numpy()
    out = problems.copy()
    filled = pd.to_numeric(out["board"], errors="coerce").to_numpy(dtype=float, copy=True)
    filled[missing] = found
    out["board"] = pd.array(filled, dtype="Float64").astype("Int64")  # (NaN: none)
    return out


def _row_keys(frame: pd.DataFrame) -> pd.MultiIndex:
    """(file, sheet, row) of each row of a problems or travellers frame, comparable."""
    return pd.MultiIndex.from_arrays([
        frame["file"].astype("string").fillna("").to_numpy(dtype=object),
        frame["sheet"].astype("string").fillna("").to_numpy(dtype=object),
        pd.to_numeric(frame["row"], errors="coerce").fillna(-1).astype("int64").to_numpy()])


def signed(scores: pd.Series) -> pd.Series:
    """Scores as a message writes them, with their sign: "+420", "-50", "0"."""
    text = scores.astype("string").fillna("")
    return text.where(text.str.startswith("-") | (text == "0"), "+" + text)


def _how_scored(rows: pd.DataFrame) -> np.ndarray:
    """' (scored from the recorded score +420)' (or 'by the ruling A60/40') per scored row."""
    text = (" (scored from the recorded score " + signed(rows["ns_score"]) + ")"
            ).to_numpy(dtype=object)
    if "ruling" in rows:
        ruling = rows["ruling"].astype("string").fillna("")
        text = np.where((ruling != "").to_numpy(),
                        (" (scored by the ruling " + ruling + ")").to_numpy(dtype=object), text)
    return text


def _as_typed(values: pd.Series) -> pd.Series:
    """Cells as the user typed them: a number Excel stores as 2.0 is shown as 2."""
    text = values.astype("string").fillna("")
    return text.str.replace(r"^([+-]?\d+)\.0+$", r"\1", regex=True)


#: Codes about facts no score depends on (the lead, the dealer, the hand record's deal):
#: listed after a sheet's other problems, so that a session with many slips in its lead
#: entries still shows first what could change a score.
SCORES_NOTHING = frozenset({"lead-not-held", "unknown-lead", "dealer-disagrees",
                            "declarer-side-only",
                            "deal-missing", "deal-differs"})


def combine(parts: list[pd.DataFrame]) -> pd.DataFrame:
    """Concatenate problem tables, one problem per cell, ordered by file and sheet, then
    those that can touch a score before those that cannot (:data:`SCORES_NOTHING`), then
    by row.

    When two checks flag the same cell, the first found (the root cause, such as
    ``excel-date`` before the ``missing-tricks`` it leads to) is the one listed.
    """
    parts = [p for p in parts if not p.empty]
    if not parts:
        return _empty()
    out = pd.concat(parts, ignore_index=True)
    out = out.drop_duplicates(["file", "sheet", "row", "column"])
    later = out["code"].isin(SCORES_NOTHING).to_numpy()
    if not later.any():
        return out.sort_values(["file", "sheet", "row"], kind="stable").reset_index(drop=True)
    out["_later"] = later
    out = out.sort_values(["file", "sheet", "_later", "row"], kind="stable")
    return out.drop(columns="_later").reset_index(drop=True)


_EMPTY: list[pd.DataFrame] = []


def unreadable_file(text: str, files: Sequence[str | Path],
                    spelled: Callable[[str], str] = str) -> pd.DataFrame | None:
    """The one ``unreadable-file`` problem of a run whose file could not be read, from the
    error's ``text`` ("FILE: why; what to do"): it names the one of ``files`` (what the run
    reads, as given, or as ``spelled`` prints it) the text begins with. None when the text
    names none of them (an option's value, not a file).

    >>> found = unreadable_file("b.csv: the file is empty; export it again", ["a", "b.csv"])
    >>> found["file"].tolist(), found["severity"].tolist()
    (['b.csv'], ['error'])
    >>> unreadable_file("--points 'x': not a scale", ["a.csv"]) is None
    True
    """
    for culprit in files:
        named = next((n for n in dict.fromkeys((str(culprit), spelled(str(culprit)),
                                                Path(culprit).name))
                      if text.startswith(f"{n}: ")), None)
        if named is not None:  # (the problem's row names the file already)
            where = pd.DataFrame({"file": [str(culprit)], "sheet": [""],
                                  "row": pd.array([pd.NA], dtype="Int64")})
            return flag(where, "unreadable-file", "", detail=text[len(named) + 2:])
    return None


def _empty() -> pd.DataFrame:
    """A problems table with no rows (and the internal ``blocking`` column).

    Built once and copied: a session asks for dozens of these, and a copy of an
    empty frame costs a fraction of building one.
    """
    if not _EMPTY:
        _EMPTY.append(pd.DataFrame({c: pd.Series(dtype="object")
                                    for c in [*PROBLEM_COLUMNS, "blocking"]}))
    return _EMPTY[0].copy()
