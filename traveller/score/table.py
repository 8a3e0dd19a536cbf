"""Duplicate score of every result, vectorised (docs/scoring.md).

The whole rule set is folded into one lookup array indexed by
(level, strain, doubled, vulnerable, tricks) that holds the declarer's score;
scoring a column of results is then a single fancy-index, with no Python loop
over rows. The helpers that build the table are named in bridge terms so a
club scorer can check them against the Laws.
"""

from __future__ import annotations

import numpy as np
import pandas as pd

from traveller.read.frames import listed
from traveller.schema import DEALERS, DECLARERS, LINE_WORDS, STRAINS, VULNERABILITY
from traveller.tidy.arrays import with_columns

_NS_VUL = np.array([v[0] for v in VULNERABILITY])
_EW_VUL = np.array([v[1] for v in VULNERABILITY])

#: Trick value of each strain, for the first trick and for each after it (index = STRAINS).
TRICK_VALUE_FIRST = (20, 20, 30, 30, 40)
TRICK_VALUE_NEXT = (20, 20, 30, 30, 30)

#: Undertrick penalties per undertrick (1st, 2nd, 3rd, 4th and after), doubled.
UNDERTRICKS_DOUBLED = {False: (100, 200, 200, 300), True: (200, 300, 300, 300)}
UNDERTRICK_UNDOUBLED = {False: 50, True: 100}


def dealer(board: int) -> str:
    """Dealer of a board: N E S W in turn from board 1."""
    return DEALERS[(board - 1) % 4]


def vulnerable(board: int) -> tuple[bool, bool]:
    """(N-S vulnerable, E-W vulnerable) for a board number."""
    return VULNERABILITY[(board - 1) % 16]


def contract_points(level: int, strain: int, doubled: int) -> int:
    """Trick points below the line for a contract made exactly."""
    points = TRICK_VALUE_FIRST[strain] + TRICK_VALUE_NEXT[strain] * (level - 1)
    return points * (1, 2, 4)[doubled]


def game_bonus(points: int, vul: bool) -> int:
    """300/500 for a game, 50 for a part score."""
    if points >= 100:
        return 500 if vul else 300
    return 50


def slam_bonus(level: int, vul: bool) -> int:
    """Small slam 500/750, grand slam 1000/1500."""
    if level == 6:
        return 750 if vul else 500
    if level == 7:
        return 1500 if vul else 1000
    return 0


def overtrick_value(strain: int, doubled: int, vul: bool) -> int:
    """Value of one overtrick."""
    if doubled == 0:
        return TRICK_VALUE_NEXT[strain]
    return (200 if vul else 100) * doubled


def undertrick_penalty(down: int, doubled: int, vul: bool) -> int:
    """Total penalty (to the defenders) for ``down`` undertricks."""
    if doubled == 0:
        return down * UNDERTRICK_UNDOUBLED[vul]
    steps = UNDERTRICKS_DOUBLED[vul]
    total = sum(steps[min(i, 3)] for i in range(down))
    return total * doubled


def declarer_score(level: int, strain: int, doubled: int, vul: bool, tricks: int) -> int:
    """Plain scalar score of one result for the declaring side (0 for a passed-out board).

    ``strain`` indexes :data:`traveller.schema.STRAINS`; ``doubled`` is 0, 1 or 2.

    >>> declarer_score(3, 4, 0, False, 10)  # 3NT+1
    430
    """
    if level == 0:
        return 0
    need = level + 6
    if tricks < need:
        return -undertrick_penalty(need - tricks, doubled, vul)
    points = contract_points(level, strain, doubled)
    insult = 50 * doubled
    over = (tricks - need) * overtrick_value(strain, doubled, vul)
    return points + game_bonus(points, vul) + slam_bonus(level, vul) + insult + over


def _build_table() -> np.ndarray:
    table = np.zeros((8, len(STRAINS), 3, 2, 14), dtype=np.int32)
    for level in range(1, 8):
        for strain in range(len(STRAINS)):
            for doubled in range(3):
                for vul in (0, 1):
                    for tricks in range(14):
                        table[level, strain, doubled, vul, tricks] = declarer_score(
                            level, strain, doubled, bool(vul), tricks
                        )
    table.flags.writeable = False
    return table


#: Declarer's score by [level 0-7, strain index, doubled 0-2, vulnerable 0/1, tricks 0-13].
SCORE_TABLE = _build_table()

def codes(values: pd.Series, vocabulary: list[str]) -> np.ndarray:
    """Integer codes of ``values`` in ``vocabulary`` (-1 where missing or unknown)."""
    cells = values.array
    if isinstance(cells, pd.Categorical) and listed(cells.categories) == vocabulary:
        return cells.codes
    return pd.Categorical(values, categories=vocabulary).codes


def ns_scores(
    board: np.ndarray,
    level: np.ndarray,
    strain: np.ndarray,
    doubled: np.ndarray,
    declarer_is_ns: np.ndarray,
    tricks: np.ndarray,
    vulnerability: np.ndarray | None = None,
) -> np.ndarray:
    """N-S score for arrays of parsed results, by one lookup into :data:`SCORE_TABLE`.

    All arguments are integer arrays of one length (``strain`` as an index into
    STRAINS, ``declarer_is_ns`` boolean); passed-out rows have level 0.
    ``vulnerability``, where given, holds codes 0 (nobody), 1 (N-S), 2 (E-W),
    3 (both) that replace the board number's (-1: the board number's).
    """
    vul = declarer_vulnerable(board, declarer_is_ns, vulnerability)
    return _FLAT_SIGNED[flat_index(level, strain, doubled, vul, tricks) * 2
                        + declarer_is_ns]


def declarer_vulnerable(board: np.ndarray, declarer_is_ns: np.ndarray,
                        vulnerability: np.ndarray | None = None) -> np.ndarray:
    """Whether each declarer is vulnerable: by the board number, or by ``vulnerability``'s
    codes (0 nobody, 1 N-S, 2 E-W, 3 both; -1: the board number's) where given."""
    vul_index = (board - 1) % 16
    ns_vul, ew_vul = _NS_VUL[vul_index], _EW_VUL[vul_index]
    if vulnerability is not None:
        given = vulnerability >= 0
        ns_vul = np.where(given, (vulnerability & 1) > 0, ns_vul)
        ew_vul = np.where(given, (vulnerability & 2) > 0, ew_vul)
    return np.where(declarer_is_ns, ns_vul, ew_vul)


def flat_index(level: np.ndarray, strain: np.ndarray, doubled: np.ndarray, vul: np.ndarray,
               tricks: np.ndarray) -> np.ndarray:
    """Position in the raveled :data:`SCORE_TABLE` (one 1-D take beats a 5-D fancy index)."""
    _, n_strain, n_dbl, n_vul, n_tricks = SCORE_TABLE.shape
    index = np.asarray(level, dtype=np.intp) * n_strain + strain
    index = (index * n_dbl + doubled) * n_vul + vul
    return index * n_tricks + tricks


#: Declarer's score raveled, each followed by its N-S sign: [EW view, NS view] per entry.
_FLAT_SIGNED = np.stack([-SCORE_TABLE.ravel(), SCORE_TABLE.ravel()], axis=1).ravel()


def score_frame(frame: pd.DataFrame) -> pd.DataFrame:
    """Fill ``ns_score`` from the parsed contract columns of a normalised traveller.

    Rows with a contract (``level`` 0-7, 0 = passed out) take the computed
    score, also kept as ``computed_score``; rows with only a recorded score
    (``recorded_score``) keep it. Returns a new frame.

    >>> df = pd.DataFrame({"board": [8], "level": [6], "strain": ["C"], "doubled": [2],
    ...                    "declarer": ["S"], "tricks": [12]})
    >>> int(score_frame(df)["ns_score"].iloc[0])
    1380
    """
    out = frame
    level = out["level"].to_numpy(dtype=np.int64, na_value=-1)
    has = level >= 0
    seat = codes(out["declarer"], DECLARERS)  # (NS, EW: the declaring side alone)
    scores = ns_scores(
        out["board"].to_numpy(dtype=np.int64, na_value=1),
        np.maximum(level, 0),
        np.maximum(codes(out["strain"], STRAINS), 0),
        out["doubled"].to_numpy(dtype=np.int64, na_value=0),
        (seat >= 0) & (seat % 2 == 0),
        np.clip(out["tricks"].to_numpy(dtype=np.int64, na_value=0), 0, 13),
        # a Vul column's vulnerability, where the sheet has one (what the table played)
        out["vul"].to_numpy(dtype=np.int64, na_value=-1) if "vul" in out else None,
    )
    computed = pd.arrays.IntegerArray(scores.astype(np.int64), ~has)
    if "recorded_score" in out:  # a row with no contract keeps the score written
        recorded = out["recorded_score"].astype("Int64").array
        ns_score = pd.arrays.IntegerArray(
            np.where(has, scores, recorded.to_numpy(dtype=np.int64, na_value=0)),
            ~has & recorded.isna())
    else:  # (with_columns copies it: the two columns never share one)
        ns_score = computed
    return with_columns(out, {"computed_score": computed, "ns_score": ns_score})


def _possible_scores() -> list[np.ndarray]:
    """Sorted possible N-S scores for each (N-S vul, E-W vul) class, index ns_vul*2 + ew_vul."""
    out = []
    for ns_vul in (0, 1):
        for ew_vul in (0, 1):
            ns = SCORE_TABLE[:, :, :, ns_vul, :].ravel()
            ew = -SCORE_TABLE[:, :, :, ew_vul, :].ravel()
            out.append(np.unique(np.concatenate([ns, ew, [0]])))
    return out


_POSSIBLE = _possible_scores()


def possible_ns_score(board: pd.Series, score: pd.Series,
                      vulnerability: np.ndarray | None = None) -> pd.Series:
    """True where ``score`` is a N-S score some result can produce on ``board``, at its
    number's vulnerability or at ``vulnerability``'s codes (0 nobody, 1 N-S, 2 E-W,
    3 both; -1: the number's) where given.

    Rows with a missing board or score are True (nothing to contradict).
    """
    known = board.notna() & score.notna()
    result = pd.Series(True, index=board.index)
    if not known.any():
        return result
    b = board[known].to_numpy(dtype=np.int64)
    s = score[known].to_numpy(dtype=np.int64)
    ns_vul, ew_vul = _NS_VUL[(b - 1) % 16].astype(int), _EW_VUL[(b - 1) % 16].astype(int)
    if vulnerability is not None:
        given = np.asarray(vulnerability)[known.to_numpy()]
        ns_vul = np.where(given >= 0, (given & 1) > 0, ns_vul).astype(int)
        ew_vul = np.where(given >= 0, (given & 2) > 0, ew_vul).astype(int)
    klass = ns_vul * 2 + ew_vul
    ok = np.zeros(len(b), dtype=bool)
    for k, scores in enumerate(_POSSIBLE):
        here = klass == k
        ok[here] = np.isin(s[here], scores)
    result[known] = ok
    return result


#: Where a recorded score is written, in the order it is read from: the N-S Score column
#: (with its Side column, if any), the E-W Score column, the split columns.
RECORDED_CELLS = ("score", "score_ew", "ns_plus", "ns_minus", "ew_plus", "ew_minus")


def score_problems(scored: pd.DataFrame) -> pd.DataFrame:
    """``score-disagrees`` warnings where a recorded score differs from the computed one,
    each naming the cell the score was read from as typed (an E-W Score column's ``-50``,
    not the N-S +50 it says), with the N-S score read from it where that reads otherwise.
    Their column is the field (``score``, ``score_ew``...), for the caller to name as the
    file heads it."""
    from traveller.problems import combine, flag, signed
    from traveller.tidy.arrays import NO_ROWS

    computed, recorded = (scored[c].to_numpy(dtype=np.float64, na_value=np.nan)
                          for c in ("computed_score", "recorded_score"))
    with np.errstate(invalid="ignore"):  # (NaN compares as different, and is left out)
        differ = (computed != recorded) & ~np.isnan(computed) & ~np.isnan(recorded)
    if not differ.any():  # the usual session: no text to build
        return flag(NO_ROWS, "score-disagrees", "score")
    rows = scored[differ]
    detail = ("computed " + rows["computed_score"].astype("string") + " for "
              + rows["contract"].astype("string") + " by " + _declarers(rows["declarer"], "-")
              + " making "
              + rows["tricks"].astype("string").fillna("-"))
    readings = recorded_readings(rows)
    detail = detail + readings.where(readings == "", "; " + readings)
    recorded = rows["recorded_score"].astype("string")
    source = np.full(len(rows), "score", dtype=object)  # the cell each score was read from
    cells = recorded.copy()
    chosen = np.zeros(len(rows), dtype=bool)
    for field in RECORDED_CELLS:
        if f"{field}_as_written" in rows:
            typed = rows[f"{field}_as_written"].astype("string").str.strip()
            here = ~chosen & (typed.fillna("") != "").to_numpy()
            source[here], chosen = field, chosen | here
            cells[here] = typed[here]
    other = (cells.str.replace(r"^\+", "", regex=True) != recorded).to_numpy() | (
        source != "score")  # (an E-W or split cell, or a Side column, says whose it is)
    if "score_side_as_written" in rows:
        other |= rows["score_side_as_written"].astype("string").fillna("").str.strip(
            ).to_numpy() != ""
    detail = detail.where(~other, "read as N-S " + signed(recorded) + "; " + detail)
    return combine([flag(rows[source == field], "score-disagrees", field,
                         cells[source == field], detail[source == field], blocking=False)
                    for field in dict.fromkeys(source)])


def _declarers(declarer: pd.Series, missing: str) -> pd.Series:
    """Declarers as a message writes them: a seat, or the side alone as "N-S", "E-W"."""
    return declarer.astype("string").replace(LINE_WORDS).fillna(missing)


def recorded_readings(rows: pd.DataFrame) -> pd.Series:
    """What each row's recorded (N-S) score would be the score of, where one fact of the
    row changed makes it fit: the sign turned (E-W's score written as N-S's), the declarer's
    vulnerability turned, another number of tricks, or the contract doubled, redoubled
    or not. "" where none does. The score used stays the contract's: this only tells
    the director which fact to look at.

    >>> rows = pd.DataFrame({"board": [2], "level": [4], "strain": ["NT"], "doubled": [0],
    ...                      "declarer": ["N"], "tricks": [11], "contract": ["4NT"],
    ...                      "recorded_score": [460]})
    >>> recorded_readings(rows).tolist()  # board 2: N-S vulnerable, 660
    ['460 would be 4NT by N making 11 not vulnerable']
    """
    n = len(rows)
    level = rows["level"].to_numpy(dtype=np.int64, na_value=0)
    seat = codes(rows["declarer"], DECLARERS)
    tricks = rows["tricks"].to_numpy(dtype=np.int64, na_value=-1)
    recorded = rows["recorded_score"].to_numpy(dtype=np.float64, na_value=np.nan)
    known = (level > 0) & (seat >= 0) & (tricks >= 0) & (tricks <= 13) & ~np.isnan(recorded)
    out = np.full(n, "", dtype=object)
    if not known.any():
        return pd.Series(out, index=rows.index, dtype="string")
    board = rows["board"].to_numpy(dtype=np.int64, na_value=1)
    strain = np.maximum(codes(rows["strain"], STRAINS), 0)
    doubled = rows["doubled"].to_numpy(dtype=np.int64, na_value=0)
    is_ns = seat % 2 == 0
    given = rows["vul"].to_numpy(dtype=np.int64, na_value=-1) if "vul" in rows else None
    vul = declarer_vulnerable(board, is_ns, given).astype(np.int64)

    def ns(doubled: np.ndarray, vul: np.ndarray, tricks: np.ndarray) -> np.ndarray:
        return _FLAT_SIGNED[flat_index(level, strain, doubled, vul, tricks) * 2 + is_ns]

    contract = rows["contract"].astype("string").fillna("").to_numpy(dtype=object)
    bare = np.array([c.rstrip("xX") for c in contract], dtype=object)
    by = " by " + _declarers(rows["declarer"], "").to_numpy(dtype=object)
    making = np.array([f" making {t}" for t in tricks], dtype=object)
    taken_now = np.clip(tricks, 0, 13)  # (rows outside are not known: no reading is kept)
    alternatives: list[tuple[np.ndarray, np.ndarray]] = [
        (-ns(doubled, vul, taken_now), np.full(n, "E-W's score of it, not N-S's", dtype=object)),
        (ns(doubled, 1 - vul, taken_now),
         contract + by + making + np.where(vul == 1, " not vulnerable", " vulnerable")),
    ]
    for other in range(3):
        alternatives.append((ns(np.full(n, other), vul, taken_now),
                             np.where(doubled == other, "", bare + ("", "X", "XX")[other]
                                      + by + making)))
    for taken in range(14):
        alternatives.append((ns(doubled, vul, np.full(n, taken)),
                             np.where(tricks == taken, "", contract + by + f" making {taken}")))
    shown = np.array([f"{v:.0f}" if v == v else "" for v in recorded], dtype=object)
    for score, text in alternatives:
        fits = known & (score == recorded) & (text != "")
        for i in np.flatnonzero(fits):
            out[i] = f"{out[i]} or {text[i]}" if out[i] else f"{shown[i]} would be {text[i]}"
    return pd.Series(out, index=rows.index, dtype="string")
