"""Directors' rulings written in the traveller itself (rules.md §5, docs/rulings.md).

A ruling is written in the contract cell, in a score cell, or in a column
headed "Ruling". Each distinct text is read once into a :class:`Ruling`:

- ``average``: an artificial adjusted score, a percentage of the board's top
  per side: ``A+`` ``A=``/``A`` ``A-`` (both sides), ``A+-`` / ``A-+`` / ``A+=``
  (N-S then E-W), ``A60/40``, ``A6040`` (USEBIO), ``60%-40%``, ``AVE+`` ``AVE``
  ``AVE-``, ``A+/A-`` (PBN, one marker per side);
- ``weighted``: ``30%+650/70%-100``, 2 to 5 parts, weights with up to 2
  decimals adding up to 100, scores from N-S's view;
- ``split``: ``+420/-450``, the N-S score then the score E-W are compared on,
  both from N-S's view;
- ``not-played``: ``NP``; the board is scored on the results that exist;
- ``phantom``: ``TD``, ``Bye``, ``Phantom``, ``Sit-out``: the line of the
  phantom (sit-out) pair, see :func:`resolve_phantoms`.

Fouled boards and arrow switches are markers in their own columns
(``Fouled``/``Group`` and ``Arrow``), read here too.
"""

from __future__ import annotations

import re
from collections.abc import Iterable
from dataclasses import dataclass

import numpy as np
import pandas as pd

from traveller.problems import flag
from traveller.read.headers import header_key
from traveller.score.table import SCORE_TABLE
from traveller.tidy.notation import cell_text, clean, distinct, is_adjusted

AVERAGE_PLUS, AVERAGE, AVERAGE_MINUS = 60.0, 50.0, 40.0
KINDS = ("average", "weighted", "split", "not-played", "phantom")
#: Kinds whose row is compared with the other results of the board.
COMPARED = ("result", "weighted", "split")
#: Kinds that count as a table that played the board (for the board's top).
TABLES = (*COMPARED, "average")
MAX_PARTS = 5

#: Header keys (see :func:`traveller.read.headers.header_key`) of the marker columns.
RULING_HEADERS = {"ruling", "rulings", "adjusted", "adjustment", "adjustedscore", "award",
                  "td", "director"}
FOULED_HEADERS = {"fouled", "foul", "fouledgroup", "group", "dealgroup"}
ARROW_HEADERS = {"arrow", "arrowswitch", "arrowswitched", "switched", "switch"}
_FALSE = {"", "0", "N", "NO", "FALSE", "F", "-", "NIE", "НЕТ"}

_SIDE = {"+": AVERAGE_PLUS, "=": AVERAGE, "": AVERAGE, "-": AVERAGE_MINUS}
_WORD = r"(?:AVE|AVG|AV|A)"
_SYMBOLS = re.compile(rf"^{_WORD}([+=-]?)([+=-]?)$")
_DIGITS = re.compile(r"^A(\d{2})%?/?(\d{2})%?$")
_PERCENTS = re.compile(r"^(\d{2})%[-/](\d{2})%$")
_ONE_SIDE = rf"(?:{_WORD}[+=-]?|\d{{2}}%)"
_SIDES = re.compile(rf"^({_ONE_SIDE})/({_ONE_SIDE})$")
_NOT_PLAYED = re.compile(r"^(?:NP|N/P|NOTPLAYED|NOPLAY)$")
_PHANTOM = re.compile(r"^(?:TD|BYE|PHANTOM|SITOUT|SIT-OUT|PAUZA)$")
_PART = re.compile(r"^(\d{1,3}(?:[.,]\d{1,2})?)%([+-]?\d{1,5})$")
_SPLIT = re.compile(r"^([+-]?\d{1,5})/([+-]?\d{1,5})$")
_RULING_LIKE = re.compile(r"%|^[+-]?\d+/[+-]?\d+$")
#: Every N-S score some result can produce, whatever the vulnerability.
_POSSIBLE = frozenset(np.unique(np.concatenate([SCORE_TABLE.ravel(), -SCORE_TABLE.ravel()]))
                      .tolist())


@dataclass(frozen=True)
class Ruling:
    """One ruling as read: its kind, the awards (%), the scored parts, or why it is unreadable.

    ``parts`` holds (weight %, N-S score) for a weighted score and
    ((100, N-S's score), (100, E-W's score)) for a split score.
    """

    kind: str | None = None
    ns_award: float | None = None
    ew_award: float | None = None
    parts: tuple[tuple[float, int], ...] = ()
    error: str = ""


def _one_side(text: str) -> float:
    if text.endswith("%"):
        return float(text[:-1])
    return _SIDE[text[-1] if text[-1] in "+=-" else ""]


def _average(text: str) -> Ruling | None:
    if m := _SYMBOLS.match(text):
        ns = _SIDE[m.group(1)]
        return Ruling("average", ns, _SIDE[m.group(2)] if m.group(2) else ns)
    if m := _DIGITS.match(text) or _PERCENTS.match(text):
        return Ruling("average", float(m.group(1)), float(m.group(2)))
    if m := _SIDES.match(text):
        return Ruling("average", _one_side(m.group(1)), _one_side(m.group(2)))
    return None


def _weighted(text: str) -> Ruling | None:
    pieces = re.split(r"[/;]", text)
    parts = [_PART.match(p) for p in pieces]
    if len(pieces) < 2 or not all(parts):
        return None
    if len(pieces) > MAX_PARTS:
        return Ruling(error=f"a weighted score has at most {MAX_PARTS} parts")
    weights = [float(m.group(1).replace(",", ".")) for m in parts if m]
    scores = [int(m.group(2)) for m in parts if m]
    if abs(sum(weights) - 100) > 1e-6 or min(weights) <= 0:
        return Ruling(error=f"the weights add up to {sum(weights):g} %, not 100 %")
    if error := _impossible(scores):
        return Ruling(error=error)
    return Ruling("weighted", parts=tuple(zip(weights, scores, strict=True)))


def _impossible(scores: list[int]) -> str:
    """Why the scores of a weighted or split ruling cannot be right, or ""."""
    wrong = [s for s in scores if s not in _POSSIBLE]
    return f"{wrong[0]:+d} is not a score bridge can produce" if wrong else ""


def read_ruling(text: str) -> Ruling:
    """Read one cleaned cell (upper case, no spaces) as a ruling; ``Ruling()`` when it is none.

    >>> read_ruling("A60/40")
    Ruling(kind='average', ns_award=60.0, ew_award=40.0, parts=(), error='')
    >>> read_ruling("30%+650/70%-100").parts
    ((30.0, 650), (70.0, -100))
    """
    if not text:
        return Ruling()
    if _NOT_PLAYED.match(text):
        return Ruling("not-played")
    if _PHANTOM.match(text):
        return Ruling("phantom")
    found = _average(text) or _weighted(text)
    if found is not None:
        return found
    if m := _SPLIT.match(text):
        ns, ew = int(m.group(1)), int(m.group(2))
        if error := _impossible([ns, ew]):
            return Ruling(error=error)
        return Ruling("split", parts=((100.0, ns), (100.0, ew)))
    if is_adjusted(pd.Series([text])).iloc[0] or _RULING_LIKE.search(text):
        return Ruling(error="not a ruling notation traveller reads (see docs/rulings.md)")
    return Ruling()


def read_rulings(cells: pd.Series) -> pd.DataFrame:
    """Rulings of a column of cells, read once per distinct text.

    Returns columns ``ruling_kind``, ``ns_award``, ``ew_award`` and
    ``ruling_error`` (text, <NA> when fine) aligned with ``cells``.
    """
    codes, uniques = distinct(cells)
    texts = clean(pd.Series(uniques, dtype="string")).fillna("")
    read = [read_ruling(str(u)) for u in texts]  # one per distinct text, not per row
    table = pd.DataFrame({
        "ruling_kind": pd.array([r.kind for r in read] + [None], dtype="string"),
        "ns_award": pd.array([r.ns_award for r in read] + [None], dtype="Float64"),
        "ew_award": pd.array([r.ew_award for r in read] + [None], dtype="Float64"),
        "ruling_error": pd.array([r.error or None for r in read] + [None], dtype="string"),
    })
    out = table.iloc[np.where(codes < 0, len(read), codes)].reset_index(drop=True)
    out.index = cells.index
    return out


def _marker_column(frame: pd.DataFrame, keys: set[str]) -> pd.Series | None:
    for column in frame.columns:
        if header_key(column) in keys:
            return frame[column]
    return None


def _ruling_texts(values: pd.Series, column: str) -> tuple[np.ndarray, pd.Series]:
    """(codes, the distinct cells' text where it is a ruling) of one column."""
    codes, uniques = distinct(values)
    text = cell_text(pd.Series(uniques, dtype=object))
    if column in ("score", "score_ew"):  # a plain number is a score, not a ruling
        plain = text.str.replace("−", "-").str.fullmatch(r"[+-]?\d+").fillna(True)
        text = text.where(~plain.astype(bool))
    elif column == "contract":
        read = read_rulings(text)
        text = text.where(read["ruling_kind"].notna() | read["ruling_error"].notna())
    return codes, text


def ruling_cells(frame: pd.DataFrame) -> tuple[pd.Series, pd.Series]:
    """The cell each row's ruling is written in, as written, and that cell's column.

    Looked for in a Ruling column, then the contract, then the score cells (a
    score cell counts only when it is not a plain number). Works on the
    distinct cells of each column.
    """
    found = np.full(len(frame), None, dtype=object)
    source = np.full(len(frame), None, dtype=object)
    candidates = [c for c in frame.columns if header_key(c) in RULING_HEADERS][:1]
    candidates += [c for c in ("contract", "score", "score_ew") if c in frame]
    for column in candidates:
        codes, text = _ruling_texts(frame[column], str(column))
        values = np.append(text.astype(object).to_numpy(), [None])[codes]  # -1 -> None
        new = pd.isna(found) & pd.notna(values)
        found[new] = values[new]
        source[new] = str(column)
    return (pd.Series(pd.array(found, dtype="string"), index=frame.index),
            pd.Series(pd.array(source, dtype="string"), index=frame.index))


def markers(frame: pd.DataFrame) -> pd.DataFrame:
    """Rulings plus the fouled-board group and arrow-switch marker of every raw row.

    Columns: ``ruling`` (as written), ``ruling_kind``, ``ns_award``,
    ``ew_award``, ``ruling_error``, ``ruling_column`` (where it was written),
    and ``fouled`` / ``arrow`` when the sheet has such a column.
    """
    written, source = ruling_cells(frame)
    out = read_rulings(written)
    out.insert(0, "ruling", written)
    out["ruling_column"] = source
    fouled = _marker_column(frame, FOULED_HEADERS)
    if fouled is not None:
        out["fouled"] = cell_text(fouled).fillna("").astype("string")
    arrow = _marker_column(frame, ARROW_HEADERS)
    if arrow is not None:
        out["arrow"] = ~clean(arrow.astype("string")).fillna("").isin(_FALSE)
    return out


def is_phantom_line(frame: pd.DataFrame) -> pd.Series:
    """True on rows whose ruling is a phantom / sit-out line (TD, Bye, ...)."""
    return (read_rulings(ruling_cells(frame)[0])["ruling_kind"] == "phantom").fillna(False)


def kinds(frame: pd.DataFrame) -> np.ndarray:
    """Each row's kind: "result" for a played result, else the ruling kind."""
    if "ruling_kind" not in frame:
        kind = pd.Series("result", index=frame.index)
    else:
        kind = frame["ruling_kind"].astype("object").fillna("result")
    no_score = frame["ns_score"].isna().to_numpy() if "ns_score" in frame else False
    return np.where((kind == "result") & no_score, "not-played", kind).astype(object)


def switch_arrows(frame: pd.DataFrame, boards: Iterable[int] = ()) -> pd.DataFrame:
    """Mark the rows of ``boards`` as arrow-switched (besides an Arrow column already read)."""
    boards = list(boards)
    if not boards:
        return frame
    out = frame.copy()
    before = (out["arrow"].astype("boolean").fillna(False) if "arrow" in out
              else pd.Series(False, index=out.index))
    out["arrow"] = before | out["board"].isin(boards).fillna(False)
    return out


# --------------------------------------------------------------------------
# Phantom (sit-out) pairs


def _pair_key(frame: pd.DataFrame, column: str, line: str, movement: str) -> pd.Series:
    section = frame["section"].astype("string").fillna("")
    line_part = line if movement == "mitchell" else ""
    return section + "|" + line_part + "|" + frame[column].astype("string").fillna("?")


def _named(frame: pd.DataFrame, column: str, line: str, phantoms: Iterable[str]) -> pd.Series:
    names = {str(p).upper().replace(" ", "").replace("-", "") for p in phantoms}
    pair = frame[column].astype("string")
    return (pair.isin(names) | (line + pair).isin(names)).fillna(False).astype(bool)


def resolve_phantoms(frame: pd.DataFrame, movement: str, phantoms: Iterable[str | int] = ()
                     ) -> tuple[pd.DataFrame, pd.DataFrame]:
    """Mark the phantom side of every row in a ``phantom`` column ("NS", "EW" or "").

    A side is the phantom when its pair is named in ``phantoms`` ("18", or
    "EW18" for one line of a Mitchell) or its pair number is missing on a
    TD/Bye line; failing that, on a TD/Bye line, when every row of its pair
    is a TD/Bye line and it has more of them than the pair opposite (the
    phantom sits at every such table, a real pair only now and then). A
    TD/Bye line whose phantom cannot be told is returned as a ``bad-ruling``
    problem and left out. Returns (frame, problems).
    """
    named = tuple(str(p) for p in phantoms)
    line_rows = pd.Series(kinds(frame) == "phantom", index=frame.index)
    if not named and not line_rows.any():
        return frame, flag(frame.iloc[:0], "bad-ruling", "ruling")
    strong, count = {}, {}
    for line, column in (("NS", "ns_pair"), ("EW", "ew_pair")):
        key = _pair_key(frame, column, line, movement).to_numpy()
        only_lines = line_rows.groupby(key).transform("all").to_numpy(dtype=bool)
        count[line] = np.where(only_lines, line_rows.groupby(key).transform("sum"), 0)
        strong[line] = (_named(frame, column, line, named) | frame[column].isna()).to_numpy(bool)
    ns = strong["NS"] | (~strong["EW"] & (count["NS"] > count["EW"]))
    ew = strong["EW"] | (~strong["NS"] & (count["EW"] > count["NS"]))
    on_line = line_rows.to_numpy()
    unclear = on_line & (ns == ew)
    out = frame.loc[~unclear].copy()
    named_side = np.select([strong["NS"], strong["EW"]], ["NS", "EW"], "")
    out["phantom"] = np.where(on_line, np.select([ns, ew], ["NS", "EW"], ""), named_side)[~unclear]
    out["phantom"] = out["phantom"].astype("string")
    rows = frame.loc[unclear]
    problems = flag(rows, "bad-ruling", "ruling", rows.get("ruling"),
                    "cannot tell which pair is the phantom; name it with --phantom")
    return out.reset_index(drop=True), problems


# --------------------------------------------------------------------------
# What is compared: one entry per (row, side, part)


def parts(frame: pd.DataFrame, compared: np.ndarray) -> dict[str, tuple[np.ndarray, ...]]:
    """The scores each compared row is matchpointed on, per side.

    Returns ``{"NS": (position, weight, score), "EW": (...)}``: a played result
    is one part of weight 1 on both sides; a weighted score its parts (weight
    as a fraction) on both sides; a split score its N-S score on the N-S side
    and its E-W score on the E-W side. Scores are from N-S's view.
    """
    kind = kinds(frame)
    plain = np.flatnonzero(compared & (kind == "result"))
    scores = frame["ns_score"].to_numpy(dtype=float, na_value=0)
    out = {side: ([plain], [np.ones(len(plain))], [scores[plain]]) for side in ("NS", "EW")}
    ruled = np.flatnonzero(compared & (kind != "result"))
    texts = (clean(frame["ruling"].astype("string")).to_numpy() if len(ruled)
             else np.array([], dtype=object))
    for position in ruled:  # the few weighted and split rulings of a session
        ruling = read_ruling(str(texts[position]))
        if ruling.kind == "split":
            sided = {"NS": [ruling.parts[0]], "EW": [ruling.parts[1]]}
        else:
            sided = {"NS": list(ruling.parts), "EW": list(ruling.parts)}
        for side, entries in sided.items():
            out[side][0].append(np.full(len(entries), position))
            out[side][1].append(np.array([w / 100 for w, _ in entries]))
            out[side][2].append(np.array([float(s) for _, s in entries]))
    return {side: tuple(np.concatenate(v) for v in lists) for side, lists in out.items()}


def describe(frame: pd.DataFrame) -> pd.Series:
    """How each ruling was applied, in words (for the Travellers sheet); <NA> for results."""
    text = pd.Series(pd.NA, index=frame.index, dtype="string")
    ruled = frame[frame["ruling_kind"].notna()]  # the few rows with a ruling
    if ruled.empty:
        return text
    kind = ruled["ruling_kind"].astype("string")
    ns = ruled["ns_pct"].astype("Float64").round(2).astype("string")
    ew = ruled["ew_pct"].astype("Float64").round(2).astype("string")
    awarded = "N-S " + ns + " %, E-W " + ew + " %"
    phantom = (ruled["phantom"].astype("string").fillna("") if "phantom" in ruled
               else pd.Series("", index=ruled.index, dtype="string"))
    scored = ruled["ns_pct"].notna()
    words = pd.Series(pd.NA, index=ruled.index, dtype="string")
    words = words.mask(kind == "average", "artificial: " + awarded)
    words = words.mask(kind == "weighted", "weighted score: " + awarded)
    words = words.mask(kind == "split", "split score: " + awarded)
    words = words.mask(kind == "not-played", "not played: left out, the pairs' totals factored")
    table = "phantom (" + phantom + ") table: "
    words = words.mask((kind == "phantom") & scored, table + awarded)
    words = words.mask((kind == "phantom") & ~scored,
                       table + "not played, the pair's total factored")
    text.loc[ruled.index] = words
    return text
