"""IMP scale, cross-IMPs, Butler and pair IMP totals (docs/scoring.md), with golden files."""

from __future__ import annotations

import re

import numpy as np
import pandas as pd
import pytest
from conftest import real_file
from hypothesis import given
from hypothesis import strategies as st

from traveller.schema import STRAINS
from traveller.score.butler import butler, butler_datum
from traveller.score.imps import (
    IMP_THRESHOLDS,
    cross_imps,
    imp_totals,
    imps,
    round_half_away,
    round_to,
)
from traveller.score.table import ns_scores

# --------------------------------------------------------------------------
# IMP scale

#: docs/scoring.md: (lowest difference, highest difference, IMPs)
SCALE = [
    (0, 10, 0), (20, 40, 1), (50, 80, 2), (90, 120, 3), (130, 160, 4), (170, 210, 5),
    (220, 260, 6), (270, 310, 7), (320, 360, 8), (370, 420, 9), (430, 490, 10),
    (500, 590, 11), (600, 740, 12), (750, 890, 13), (900, 1090, 14), (1100, 1290, 15),
    (1300, 1490, 16), (1500, 1740, 17), (1750, 1990, 18), (2000, 2240, 19),
    (2250, 2490, 20), (2500, 2990, 21), (3000, 3490, 22), (3500, 3990, 23), (4000, 7600, 24),
]  # fmt: skip


@pytest.mark.parametrize(("low", "high", "expected"), SCALE)
def test_imp_scale_at_every_boundary(low: int, high: int, expected: int) -> None:
    assert imps(low) == expected
    assert imps(high) == expected
    assert imps(-low) == -expected
    assert imps(-high) == -expected


def test_imp_thresholds_are_the_lower_bounds_of_the_scale() -> None:
    assert IMP_THRESHOLDS.tolist() == [low for low, _, _ in SCALE[1:]]


def test_seed_000_team_board() -> None:
    assert imps(1520 - 940) == 11


def test_imps_on_arrays_and_series_keep_missing() -> None:
    assert imps(np.array([580, -20, 0])).tolist() == [11, -1, 0]
    assert imps(np.array([580, -20, 0])).dtype == np.int64
    assert np.isnan(imps(np.array([np.nan, 50.0]))[0])
    series = imps(pd.Series([580, None, -4000], dtype="Int64"))
    assert series.dtype == "Int64"
    assert series.tolist() == [11, pd.NA, -24]


@given(st.integers(-10_000, 10_000))
def test_imps_antisymmetric(diff: int) -> None:
    assert imps(-diff) == -imps(diff)
    assert imps(np.array([diff]))[0] == -imps(np.array([-diff]))[0]


@given(st.integers(0, 10_000), st.integers(0, 10_000))
def test_imps_monotone(a: int, b: int) -> None:
    lo, hi = sorted((a, b))
    assert 0 <= imps(lo) <= imps(hi) <= 24


# --------------------------------------------------------------------------
# Rounding helpers


def test_round_half_away_prints_like_compscore() -> None:
    assert round_half_away(np.array([1 / 8, -1 / 8, 11 / 3, -20.666666]), 2).tolist() == [
        0.13, -0.13, 3.67, -20.67,
    ]  # fmt: skip


@pytest.mark.parametrize(
    ("mean", "away", "even"),
    [(15.0, 20.0, 20.0), (25.0, 30.0, 20.0), (-25.0, -30.0, -20.0), (-15.0, -20.0, -20.0),
     (24.9, 20.0, 20.0), (116.67, 120.0, 120.0), (0.0, 0.0, 0.0)],
)  # fmt: skip
def test_round_to_ten_halves_both_ways(mean: float, away: float, even: float) -> None:
    assert round_to(np.array([mean]), 10, "half-away")[0] == away
    assert round_to(np.array([mean]), 10, "half-even")[0] == even


# --------------------------------------------------------------------------
# Cross-IMPs


def board(scores: list[int | None], board_no: int = 1, section: str = "") -> pd.DataFrame:
    n = len(scores)
    return pd.DataFrame(
        {
            "section": pd.array([section] * n, dtype="string"),
            "board": pd.array([board_no] * n, dtype="Int64"),
            "ns_pair": pd.array(range(1, n + 1), dtype="Int64"),
            "ew_pair": pd.array(range(11, n + 11), dtype="Int64"),
            "ns_score": pd.array(scores, dtype="Int64"),
        }
    )


def test_cross_imps_hand_worked_board() -> None:
    # 420 v 420 0, v 450 -1, v -50 (470) +10  -> 9;  450: +1 +1 +11 -> 13
    # -50: -10 -10 -11 -> -31.  Divided by n - 1 = 3.
    out = cross_imps(board([420, 420, 450, -50]))
    assert out["ns_imp"].tolist() == pytest.approx([3.0, 3.0, 13 / 3, -31 / 3])
    assert (out["ew_imp"] == -out["ns_imp"]).all()
    assert round_half_away(out["ns_imp"].to_numpy(dtype=float), 2).tolist() == [
        3.0, 3.0, 4.33, -10.33,
    ]  # fmt: skip


@pytest.mark.parametrize(("divisor", "factor"), [("n-1", 3), ("n", 4), ("none", 1)])
def test_cross_imps_divisor(divisor: str, factor: int) -> None:
    out = cross_imps(board([420, 420, 450, -50]), divisor=divisor)  # type: ignore[arg-type]
    assert out["ns_imp"].tolist() == pytest.approx([9 / factor, 9 / factor, 13 / factor,
                                                    -31 / factor])  # fmt: skip


def test_cross_imps_leave_missing_rows_out() -> None:
    out = cross_imps(board([420, None, 450, -50]))
    assert out["ns_imp"].isna().tolist() == [False, True, False, False]
    # 420: -1 + 10 = 9 over 2
    assert out["ns_imp"].iloc[0] == pytest.approx(4.5)


def test_cross_imps_by_section_keeps_sections_apart() -> None:
    frame = pd.concat([board([420, -50], section="A"), board([420, 420], section="B")],
                      ignore_index=True)  # fmt: skip
    apart = cross_imps(frame)["ns_imp"].tolist()
    together = cross_imps(frame, by_section=False)["ns_imp"].tolist()
    assert apart == [10.0, -10.0, 0.0, 0.0]
    assert together == pytest.approx([10 / 3, -30 / 3, 10 / 3, 10 / 3])


def test_cross_imps_single_result_and_bad_divisor() -> None:
    assert cross_imps(board([420]))["ns_imp"].tolist() == [0.0]
    with pytest.raises(ValueError, match="divisor"):
        cross_imps(board([420]), divisor="n+1")  # type: ignore[arg-type]


def test_cross_imps_many_board_sizes_match_a_plain_loop() -> None:
    rng = np.random.default_rng(7)
    frames = [board(list(rng.integers(-100, 100, n) * 10), b) for b, n in
              enumerate(rng.integers(1, 40, 60), start=1)]  # fmt: skip
    frame = pd.concat(frames, ignore_index=True)
    out = cross_imps(frame, divisor="none")
    for _, one in frame.groupby("board"):
        s = one["ns_score"].to_numpy(dtype=float)
        expected = [sum(imps(x - y) for y in s) for x in s]
        assert out.loc[one.index, "ns_imp"].tolist() == expected


@given(st.lists(st.integers(-300, 300), min_size=2, max_size=9), st.randoms())
def test_cross_imps_shuffle_invariant_and_zero_sum(scores: list[int], rnd) -> None:  # type: ignore[no-untyped-def]
    frame = board([s * 10 for s in scores])
    out = cross_imps(frame)
    assert out["ns_imp"].sum() == pytest.approx(0.0, abs=1e-9)
    order = list(frame.index)
    rnd.shuffle(order)
    shuffled = cross_imps(frame.loc[order])
    assert shuffled["ns_imp"].sort_index().tolist() == pytest.approx(out["ns_imp"].tolist())


def test_functions_do_not_mutate_the_callers_frame() -> None:
    frame = board([420, 420, 450, -50])
    before = frame.copy()
    cross_imps(frame)
    butler(frame)
    butler_datum(frame)
    pd.testing.assert_frame_equal(frame, before)


# --------------------------------------------------------------------------
# Butler


def test_butler_datum_trimmed_mean_rounded() -> None:
    # drop 620 and -50: (100 + 110 + 140) / 3 = 116.7 -> 120
    assert butler_datum(board([-50, 100, 110, 140, 620]))["datum"].tolist() == [120]


@pytest.mark.parametrize(
    ("scores", "away", "even"),
    [
        ([0, 100, 130, 170, 400], 130, 130),  # (100 + 130 + 170) / 3 = 133.3
        ([-1000, 100, 150, 1000], 130, 120),  # (100 + 150) / 2 = 125: a half
        ([-1000, -100, -150, 1000], -130, -120),  # -125
        ([-1000, 100, 130, 1000], 120, 120),  # 115 -> 120 either way
        ([-1000, 50, 100, 1000], 80, 80),  # 75
    ],
)
def test_butler_datum_halves_both_ways(scores: list[int], away: int, even: int) -> None:
    assert butler_datum(board(scores))["datum"].tolist() == [away]
    assert butler_datum(board(scores), rounding="half-even")["datum"].tolist() == [even]


def test_butler_trim_threshold() -> None:
    # 3 results, trim 1: the middle one (Ruter's rule, see the golden test)
    assert butler_datum(board([50, -50, -100]))["datum"].tolist() == [-50]
    # 2 results: too few to trim, the plain mean (0) is used
    assert butler_datum(board([50, -50]))["datum"].tolist() == [0]
    # min_results raises the threshold: 3 results are no longer trimmed
    assert butler_datum(board([50, -50, -100]), min_results=4)["datum"].tolist() == [-30]
    # trim 2 needs 5 results
    assert butler_datum(board([0, 10, 20, 30, 1000]), trim=2)["datum"].tolist() == [20]
    assert butler_datum(board([0, 10, 20, 1000]), trim=2)["datum"].tolist() == [260]
    assert butler_datum(board([0, 10, 1000]), trim=0)["datum"].tolist() == [340]


def test_butler_adds_datum_and_imps_and_leaves_missing_rows_out() -> None:
    out = butler(board([50, None, -50, -100]))
    assert out["datum"].tolist() == [-50, pd.NA, -50, -50]
    assert out["ns_imp"].tolist() == [3, pd.NA, 0, -2]
    assert out["ew_imp"].tolist() == [-3, pd.NA, 0, 2]
    assert out["ns_imp"].dtype == "Int64"


def test_butler_by_section() -> None:
    frame = pd.concat([board([100, 200, 300], section="A"), board([-100, -200, -300], section="B")],
                      ignore_index=True)  # fmt: skip
    datum = butler_datum(frame)
    assert datum[["section", "board", "results", "datum"]].values.tolist() == [
        ["A", 1, 3, 200], ["B", 1, 3, -200],
    ]  # fmt: skip
    assert butler_datum(frame, by_section=False)["datum"].tolist() == [0]


# --------------------------------------------------------------------------
# Pair totals


def _session() -> pd.DataFrame:
    frame = pd.concat([board([50, -50, -100], 1), board([420, 420, None], 2)], ignore_index=True)
    frame["ew_pair"] = pd.array([3, 1, 2, 3, 1, 2], dtype="Int64")
    return butler(frame)


def test_imp_totals_mitchell_per_line() -> None:
    totals = imp_totals(_session())
    assert totals[["line", "pair", "boards", "imps"]].values.tolist() == [
        ["NS", 1, 2, 3.0], ["NS", 2, 2, 0.0], ["NS", 3, 1, -2.0],
        ["EW", 1, 2, 0.0], ["EW", 2, 1, 2.0], ["EW", 3, 2, -3.0],
    ]  # fmt: skip


def test_imp_totals_howell_counts_ew_rows_with_ew_imp() -> None:
    totals = imp_totals(_session(), movement="howell")
    assert totals[["line", "pair", "boards", "imps", "average"]].values.tolist() == [
        ["", 1, 4, 3.0, 0.75], ["", 2, 3, 2.0, 2 / 3], ["", 3, 3, -5.0, -5 / 3],
    ]  # fmt: skip


# --------------------------------------------------------------------------
# Golden files: real published Butler and cross-IMP sessions

_CONTRACT = re.compile(r"(?P<level>[1-7])(?P<strain>NT|N|C|D|H|S)(?P<doubled>X{0,2})")


def scores_from_contracts(frame: pd.DataFrame) -> pd.Series:
    """Our N-S score of each row from its contract, declarer and tricks (<NA> when not a contract).

    Uses traveller.score.table.ns_scores with the vulnerability of the board number.
    """
    contract = frame["contract"].astype("string").str.upper().str.replace(" ", "")
    parts = contract.str.fullmatch(_CONTRACT.pattern).fillna(False).to_numpy(dtype=bool)
    passed = (contract == "PASS").fillna(False).to_numpy(dtype=bool)
    bits = contract.str.extract(_CONTRACT.pattern)
    strain = bits["strain"].replace({"N": "NT"}).map({s: i for i, s in enumerate(STRAINS)})
    score = ns_scores(
        pd.to_numeric(frame["board"]).to_numpy(dtype=np.int64),
        pd.to_numeric(bits["level"]).fillna(0).to_numpy(dtype=np.int64),
        strain.fillna(0).to_numpy(dtype=np.int64),
        bits["doubled"].fillna("").str.len().to_numpy(dtype=np.int64),
        frame["declarer"].astype("string").isin(["N", "S"]).fillna(True).to_numpy(dtype=bool),
        np.where(parts, pd.to_numeric(frame["tricks"], errors="coerce"), 0).astype(np.int64),
    )
    score = np.where(passed, 0, np.where(parts, score, np.nan))
    return pd.Series(pd.array(score, dtype="Float64").astype("Int64"), index=frame.index)


def canonical(frame: pd.DataFrame) -> pd.DataFrame:
    """A format reader's raw frame -> canonical columns, with ns_score computed by us."""
    out = frame.copy()
    out["section"] = out["section"].fillna("").astype("string")
    for column in ("board", "ns_pair", "ew_pair"):
        out[column] = pd.to_numeric(out[column]).astype("Int64")
    out["ns_score"] = scores_from_contracts(out)
    return out


def published_ns_score(frame: pd.DataFrame) -> pd.Series:
    """The score the program printed, from N-S's view (Ruter fills only the scoring side)."""
    ns = pd.to_numeric(frame["score"], errors="coerce")
    if "score_ew" in frame:
        ns = ns.fillna(-pd.to_numeric(frame["score_ew"], errors="coerce"))
    return ns


def _usebio(name: str) -> tuple[pd.DataFrame, pd.DataFrame]:
    usebio = pytest.importorskip("traveller.read.usebio")
    (table,) = usebio.read_usebio(real_file("usebio-compscore", name))
    return canonical(table.frame), table.names


def test_golden_compscore_butler_mitchell() -> None:
    frame, names = _usebio("butler_mitchell.xml")
    real = frame["ns_score"].notna()
    # Excluded: the one line scored A5050 (board 15, 2NS v 1EW), an artificial
    # average, not a result; Compscore gives it 0 Butler IMPs.
    assert (~real).sum() == 1
    assert frame.loc[~real, "contract"].tolist() == ["A5050"]
    assert (frame.loc[real, "ns_score"] == published_ns_score(frame)[real]).all()

    datums = butler_datum(frame)
    published = frame.groupby("board")["published_datum"].first().astype(float)
    assert len(datums) == 35
    assert datums["datum"].astype(float).tolist() == published.tolist()

    scored = butler(frame)
    assert real.sum() == 244
    assert scored.loc[real, "datum"].astype(float).tolist() == (
        frame.loc[real, "published_datum"].astype(float).tolist()
    )
    assert scored.loc[real, "ns_imp"].astype(float).tolist() == (
        frame.loc[real, "published_ns_imp"].astype(float).tolist()
    )
    assert scored.loc[real, "ew_imp"].astype(float).tolist() == (
        frame.loc[real, "published_ew_imp"].astype(float).tolist()
    )

    totals = imp_totals(scored).merge(names, on=["section", "line", "pair"], validate="1:1")
    assert len(totals) == 14
    assert totals["imps"].tolist() == totals["published_total"].tolist()


def test_golden_compscore_cross_imps_howell() -> None:
    frame, names = _usebio("cross_imp_howell.xml")
    assert frame["ns_score"].notna().all()  # every one of the 108 lines is compared
    assert len(frame) == 108
    assert (frame["ns_score"] == published_ns_score(frame)).all()
    scored = cross_imps(frame)  # divisor n - 1, Compscore's
    shown = round_half_away(scored["ns_imp"].to_numpy(dtype=float), 2)
    assert shown.tolist() == frame["published_ns_imp"].astype(float).tolist()
    shown_ew = round_half_away(scored["ew_imp"].to_numpy(dtype=float), 2)
    assert shown_ew.tolist() == frame["published_ew_imp"].astype(float).tolist()

    totals = imp_totals(scored, movement="howell")
    merged = totals.merge(names, on=["section", "pair"], validate="1:1")
    assert len(merged) == len(names) == 9
    shown_totals = round_half_away(merged["imps"].to_numpy(dtype=float), 2)
    assert shown_totals.tolist() == merged["published_total"].tolist()


def test_golden_ruter_butler_three_results() -> None:
    pbn = pytest.importorskip("traveller.read.pbn")
    (table,) = pbn.read_pbn(real_file("pbn-ruter", "butler.pbn"))
    frame = canonical(table.frame)
    real = frame["ns_score"].notna()
    # Excluded: the 28 "Bye" lines (one per board: the phantom's table, no
    # result; Ruter prints an average for the pair sitting out there).
    assert frame.loc[~real, "contract"].tolist() == ["Bye"] * 28
    assert real.sum() == 84
    assert (frame.loc[real, "ns_score"] == published_ns_score(frame)[real]).all()
    scored = butler(frame)  # trim 1 applies to 3 results: the datum is the middle one
    assert scored.loc[real, "datum"].astype(float).tolist() == (
        frame.loc[real, "published_datum"].astype(float).tolist()
    )
    assert scored.loc[real, "ns_imp"].astype(float).tolist() == (
        frame.loc[real, "published_ns_imp"].astype(float).tolist()
    )
    assert scored.loc[real, "ew_imp"].astype(float).tolist() == (
        frame.loc[real, "published_ew_imp"].astype(float).tolist()
    )
    # Without the trim (plain mean) most datums would differ: the rule matters.
    plain = butler(frame, trim=0)
    assert (plain.loc[real, "datum"].astype(float) != frame.loc[real, "published_datum"]).sum() > 50


def test_cross_imps_large_board_counts_by_sorting() -> None:
    rng = np.random.default_rng(3)
    scores = list(rng.integers(-300, 300, 700) * 10)
    frame = pd.concat([board(scores, 1), board(scores[:50], 2)], ignore_index=True)
    out = cross_imps(frame, divisor="none")
    s = np.array(scores, dtype=float)
    expected = imps(s[:, None] - s[None, :]).sum(axis=1)
    assert out["ns_imp"].iloc[:700].tolist() == expected.tolist()
    small = s[:50]
    assert (
        out["ns_imp"].iloc[700:].tolist()
        == imps(small[:, None] - small[None, :]).sum(axis=1).tolist()
    )
