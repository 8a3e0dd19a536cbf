"""Directors' rulings as written in a cell: each distinct text read once into a :class:`Ruling`.

A ruling is written in the contract cell, in a score cell, or in a column
headed "Ruling" (found by :mod:`traveller.tidy.rulings`). The notations read:

- ``average``: an artificial adjusted score, a percentage of the board's top
  per side: ``A+`` ``A=``/``A`` ``A-`` (both sides), ``A+-`` / ``A-+`` / ``A+=``
  (N-S then E-W), ``A60/40``, ``A6040`` (USEBIO), ``60%-40%``, ``AVE+`` ``AVE``
  ``AVE-``, ``A+/A-`` (PBN, one marker per side), BBO's ``A==`` ``A+=``
  ``A-+`` ``A++`` ``A--`` ..., percentages with decimals ``61.8%-38.2%``
  (``61,8%-38,2%``), and both real pairs at 60 % (``60%-60%``, ``A+/A+``);
- ``imps``: an award in IMPs for cross-IMP and Butler scoring: ``+3 IMP``
  (E-W the opposite), ``-1.5 IMP``, ``2/-2 IMP`` (N-S then E-W);
- ``weighted``: ``30%+650/70%-100``, 2 to 5 parts, weights with up to 2
  decimals adding up to 100, scores from N-S's view;
- ``split``: ``+420/-450``, the N-S score then the score E-W are compared on,
  both from N-S's view, at least one of them signed (two unsigned numbers of
  at most 100, ``60/40`` or ``50/50``, are refused: they look like percentages
  written without the A; ``420/450`` is refused too: it does not say whether
  E-W's number is from N-S's view or E-W's own);
- ``not-played``: ``NP``; the board is scored on the results that exist;
- ``phantom``: ``TD``, ``Bye``, ``Phantom``, ``Sit-out``: the line of the
  phantom (sit-out) pair, see :func:`traveller.tidy.phantoms.resolve_phantoms`.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from typing import Any

import numpy as np
import pandas as pd

from traveller.score.table import SCORE_TABLE
from traveller.tidy import text as tx
from traveller.tidy.arrays import missing
from traveller.tidy.notation import ADJUSTED, cleaned_texts

AVERAGE_PLUS, AVERAGE, AVERAGE_MINUS = 60.0, 50.0, 40.0
KINDS = ("average", "weighted", "split", "not-played", "phantom", "imps")
#: Kinds whose row is compared with the other results of the board.
COMPARED = ("result", "weighted", "split")
#: Kinds that count as a table that played the board (for the board's top).
TABLES = (*COMPARED, "average")
MAX_PARTS = 5

_SIDE = {"+": AVERAGE_PLUS, "=": AVERAGE, "": AVERAGE, "-": AVERAGE_MINUS}
_WORD = r"(?:AVE|AVG|AV|A)"
_SYMBOLS = re.compile(rf"^{_WORD}([+=-]?)([+=-]?)$")
_DIGITS = re.compile(r"^A(\d{2})%?/?(\d{2})%?$")
_PCT = r"\d{1,3}(?:[.,]\d{1,2})?"
_PERCENTS = re.compile(rf"^({_PCT})%[-/]({_PCT})%$")
_ONE_SIDE = rf"(?:{_WORD}[+=-]?|{_PCT}%)"
_IMP = r"[+-]?\d{1,2}(?:[.,]\d{1,2})?"
_IMPS = re.compile(rf"^({_IMP})(?:/({_IMP}))?IMPS?$")
_SIDES = re.compile(rf"^({_ONE_SIDE})/({_ONE_SIDE})$")
_NOT_PLAYED = re.compile(r"^(?:NP|N/P|NOTPLAYED|NOPLAY)$")
_PHANTOM = re.compile(r"^(?:TD|BYE|PHANTOM|SITOUT|SIT-OUT|PAUZA)$")
_PART = re.compile(r"^(\d{1,3}(?:[.,]\d{1,2})?)%([+-]?\d{1,5})$")
_SPLIT = re.compile(r"^([+-]?\d{1,5})/([+-]?\d{1,5})$")
_RULING_LIKE = re.compile(r"%|^[+-]?\d+/[+-]?\d+$")
#: Two unsigned numbers of at most 100: percentages written without their A or % signs.
_BARE = re.compile(r"^(\d{1,3})[/-](\d{1,3})$")
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


def _number(text: str) -> float:
    return float(text.replace(",", "."))


def _one_side(text: str) -> float:
    if text.endswith("%"):
        return _number(text[:-1])
    return _SIDE[text[-1] if text[-1] in "+=-" else ""]


def _average(text: str) -> Ruling | None:
    if m := _SYMBOLS.match(text):
        ns = _SIDE[m.group(1)]
        return Ruling("average", ns, _SIDE[m.group(2)] if m.group(2) else ns)
    if m := _DIGITS.match(text) or _PERCENTS.match(text):
        ns, ew = _number(m.group(1)), _number(m.group(2))
    elif m := _SIDES.match(text):
        ns, ew = _one_side(m.group(1)), _one_side(m.group(2))
    elif m := _IMPS.match(text):
        ns = _number(m.group(1))
        return Ruling("imps", ns, _number(m.group(2)) if m.group(2) else -ns)
    else:
        return None
    if max(ns, ew) > 100:
        return Ruling(error=f"{max(ns, ew):g} % is more than the whole top")
    return Ruling("average", ns, ew)


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


def _bare_percentages(text: str, ns: int, ew: int) -> str:
    """Why two unsigned numbers of at most 100 (``60/40``, ``50-50``) are not applied.

    Written so, they look like percentages; ``50/50`` also reads as a split score
    (N-S +50, E-W compared on +50), which gives N-S nothing and E-W the top: a row
    that reads two ways is listed, not guessed.
    """
    percentages = f"for N-S {ns} % and E-W {ew} % write A{ns}/{ew}"
    if "/" in text and not _impossible([ns, ew]):
        return (f"it reads two ways, as percentages or as a split score: {percentages}; "
                f"for a split score, N-S compared on {ns:+d} and E-W on {ew:+d}, "
                f"write {ns:+d}/{ew:+d}")
    return f"percentages need an A or % signs: {percentages}"


def _unsigned_split(ns: int, ew: int) -> str:
    """Why two unsigned scores (``420/450``) are not applied as a split score.

    With no sign at all, E-W's number may be from N-S's view (E-W compared as
    if N-S had scored it) or E-W's own score (N-S's view the opposite): a
    row that reads two ways is listed, not guessed.
    """
    return (f"it reads two ways, E-W's {ew} from N-S's view or as E-W's own score: "
            f"for E-W compared as if N-S had scored {ew:+d} write {ns:+d}/{ew:+d}; "
            f"for E-W scoring {ew:+d} themselves write {ns:+d}/{-ew:+d}")


def read_ruling(text: str) -> Ruling:
    """Read one cleaned cell (upper case, no spaces) as a ruling; ``Ruling()`` when it is none.

    >>> read_ruling("A60/40")
    Ruling(kind='average', ns_award=60.0, ew_award=40.0, parts=(), error='')
    >>> read_ruling("30%+650/70%-100").parts
    ((30.0, 650), (70.0, -100))
    >>> read_ruling("60/40").error
    'percentages need an A or % signs: for N-S 60 % and E-W 40 % write A60/40'
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
    if (m := _BARE.match(text)) and max(int(m.group(1)), int(m.group(2))) <= 100:
        return Ruling(error=_bare_percentages(text, int(m.group(1)), int(m.group(2))))
    if m := _SPLIT.match(text):
        ns, ew = int(m.group(1)), int(m.group(2))
        if error := _impossible([ns, ew]):
            return Ruling(error=error)
        if ew and "+" not in text and "-" not in text:  # (E-W's 0 reads one way)
            return Ruling(error=_unsigned_split(ns, ew))
        return Ruling("split", parts=((100.0, ns), (100.0, ew)))
    if ADJUSTED.fullmatch(text) or _RULING_LIKE.search(text):
        return Ruling(error="not a ruling notation traveller reads (see docs/rulings.md)")
    return Ruling()


def read_rulings(cells: pd.Series) -> pd.DataFrame:
    """Rulings of a column of cells, read once per distinct text.

    Returns columns ``ruling_kind``, ``ns_award``, ``ew_award`` and
    ``ruling_error`` (text, <NA> when fine) aligned with ``cells``.
    """
    return pd.DataFrame(ruling_arrays(cells), index=cells.index)


def ruling_arrays(cells: pd.Series) -> dict[str, Any]:
    """The columns of :func:`read_rulings` as arrays, by name."""
    empty = bool(np.asarray(cells.array.isna()).all())  # (no cells hashed for nothing)
    codes, uniques = (np.zeros(0, dtype=np.intp), []) if empty else tx.distinct(cells)
    if not uniques:  # the usual session: no cell holds a ruling, every column is missing
        nothing = missing("string", len(cells))  # (no per-row conversion)
        no_award = pd.arrays.FloatingArray(np.zeros(len(cells)), np.ones(len(cells), bool))
        return {"ruling_kind": nothing, "ns_award": no_award, "ew_award": no_award.copy(),
                "ruling_error": nothing.copy()}
    # one per distinct text, not per row
    read = [read_ruling(t or "") for t in cleaned_texts(uniques)]
    columns: dict[str, tuple[list[Any], str]] = {
        "ruling_kind": ([r.kind for r in read], "string"),
        "ns_award": ([r.ns_award for r in read], "Float64"),
        "ew_award": ([r.ew_award for r in read], "Float64"),
        "ruling_error": ([r.error or None for r in read], "string")}
    return {name: tx.spread_array(codes, values, dtype)
            for name, (values, dtype) in columns.items()}


def kinds(frame: pd.DataFrame) -> np.ndarray:
    """Each row's kind: "result" for a played result, else the ruling kind."""
    if "ruling_kind" not in frame:
        kind = np.full(len(frame), "result", dtype=object)
    else:  # plain arrays: a Series per step costs more than the step on a club session
        kind = frame["ruling_kind"].to_numpy(dtype=object, na_value="result")
    no_score = np.asarray(frame["ns_score"].isna()) if "ns_score" in frame else False
    return np.where((kind == "result") & no_score, "not-played", kind).astype(object)

