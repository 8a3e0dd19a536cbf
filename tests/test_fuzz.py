"""Fuzzed hostile sheets (issue 10): junk cells, Excel-mangled numbers, control characters
and wrong encodings. Whatever the sheet, no exception escapes, every input row is on the
Travellers or the Problems sheet under its true row number, and every scored row whose
score differs from an independent reference scorer is listed (a row where junk replaced
a cell has no known true score; it must still be scored or listed).

Fixed seed (derandomised) and a small example count here; ``benchmarks/fuzz_hostile.py``
runs the same property for as long as you like.
"""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path

import xlsxwriter
from conftest import examples
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from traveller import process
from traveller.errors import TravellerError

# --------------------------------------------------------------------------
# An independent reference scorer (textbook duplicate scoring)

_VUL = ["-", "NS", "EW", "ALL", "NS", "EW", "ALL", "-", "EW", "ALL", "-", "NS", "ALL", "-", "NS",
        "EW"]


def vulnerable(board: int, declarer: str) -> bool:
    """Is the declaring side vulnerable on this board (the 16-board cycle)?"""
    v = _VUL[(board - 1) % 16]
    side = "NS" if declarer in "NS" else "EW"
    return v == "ALL" or v == side


def reference_score(level: int, strain: str, doubled: int, vul: bool, tricks: int) -> int:
    """The declaring side's score, written out the way a scoring card explains it."""
    if level == 0:
        return 0
    need = level + 6
    if tricks < need:
        down = need - tricks
        if doubled == 0:
            return -down * (100 if vul else 50)
        if vul:
            penalty = 200 + 300 * (down - 1)
        else:
            penalty = [100, 300, 500][min(down, 3) - 1] + 300 * max(0, down - 3)
        return -penalty * doubled
    per_trick = 20 if strain in "CD" else 30
    contract = (level * per_trick + (10 if strain == "NT" else 0)) * (1, 2, 4)[doubled]
    score = contract + ((500 if vul else 300) if contract >= 100 else 50)
    score += {6: 750 if vul else 500, 7: 1500 if vul else 1000}.get(level, 0)
    over = tricks - need
    if doubled:
        score += 50 * doubled + over * (200 if vul else 100) * doubled
    else:
        score += over * per_trick
    return score


# --------------------------------------------------------------------------
# Sheets as hurried directors and Excel make them


@dataclass
class Row:
    board: int
    ns: int
    ew: int
    level: int
    strain: str
    doubled: int
    declarer: str
    tricks: int

    def ns_score(self) -> int:
        score = reference_score(self.level, self.strain, self.doubled,
                                vulnerable(self.board, self.declarer), self.tricks)
        return score if self.declarer in "NS" else -score


CONTROL = ["\x00", "\u2028", "\f", "\x85"]
JUNK = ["", "?", "x", "-1", "1.5", "n/a", "0", "9223372036854775807", "#REF!", "—"]
SUIT_GLYPH = {"C": "♣", "D": "♦", "H": "♥", "S": "♠"}


@st.composite
def rows(draw: st.DrawFn, board: int, k: int) -> Row:
    level = draw(st.one_of(st.integers(1, 7), st.just(0)))
    strain = draw(st.sampled_from(["C", "D", "H", "S", "NT"]))
    tricks = draw(st.integers(max(0, level + 6 - 4), 13)) if level else 0
    return Row(board, 2 * k + 1, 2 * k + 2, level, strain, draw(st.integers(0, 2)) if level else 0,
               draw(st.sampled_from("NESW")), tricks)


def _contract(draw: st.DrawFn, r: Row) -> str:
    if r.level == 0:
        return draw(st.sampled_from(["PASS", "pass", "AP", "P/O"]))
    strain = r.strain
    if strain != "NT" and draw(st.booleans()):
        strain = SUIT_GLYPH[strain]
    elif strain == "NT":
        strain = draw(st.sampled_from(["NT", "N", "nt"]))
    dbl = draw(st.sampled_from([["", ""], ["X", "x"], ["XX", "xx"]][r.doubled]))
    return f"{r.level}{draw(st.sampled_from(['', ' ']))}{strain}{dbl}"


def _result(draw: st.DrawFn, r: Row, relative: bool) -> str:
    """The result cell: tricks or relative, with Excel's damage (a lost + sign, 10.0)."""
    if r.level == 0:
        return draw(st.sampled_from(["", "-", "0"])) if not relative else ""
    if not relative:
        return draw(st.sampled_from([str(r.tricks), f"{r.tricks}.0", f" {r.tricks} "]))
    rel = r.tricks - r.level - 6
    if rel == 0:
        return draw(st.sampled_from(["=", "made", "m", "making"]))
    if rel > 0:
        return draw(st.sampled_from([f"+{rel}", str(rel)]))  # Excel eats the plus
    return draw(st.sampled_from([str(rel), f"{-rel} down", f"d{-rel}", f"down {-rel}"]))


def _messy(draw: st.DrawFn, cell: str) -> tuple[str, bool]:
    """Maybe junk instead of the cell (True: the truth is gone), maybe a control character."""
    roll = draw(st.integers(0, 19))
    if roll == 0:
        junk = draw(st.sampled_from(JUNK))
        return junk, junk != cell
    if roll == 1:
        at = draw(st.integers(0, len(cell)))
        return cell[:at] + draw(st.sampled_from(CONTROL)) + cell[at:], False
    return cell, False


@dataclass
class Sheet:
    header: list[str]
    cells: list[list[str]]
    rows: list[Row]
    junked: list[bool]  # a cell of the row was replaced by junk: its true score is unknown
    encoding: str
    excel: bool


@st.composite
def sheets(draw: st.DrawFn) -> Sheet:
    relative = draw(st.booleans())
    header = ["Board", "NS", "EW", "Contract", "Declarer", "Result" if relative else "Tricks"]
    intended: list[Row] = []
    for board in range(1, draw(st.integers(1, 4)) + 1):
        intended += [draw(rows(board, k)) for k in range(draw(st.integers(2, 6)))]
    cells, junked = [], []
    for r in intended:
        declarer = draw(st.sampled_from([r.declarer, {"N": "North", "E": "East", "S": "South",
                                                      "W": "West"}[r.declarer]]))
        raw = [draw(st.sampled_from([str(r.board), f"{r.board}.0"])), str(r.ns), str(r.ew),
               _contract(draw, r), declarer if r.level else "", _result(draw, r, relative)]
        messy = [_messy(draw, c) for c in raw]
        cells.append([c for c, _ in messy])
        junked.append(any(j for _, j in messy))
    encoding = draw(st.sampled_from(["utf-8", "utf-8-sig", "cp1250", "cp1251", "cp1252"]))
    return Sheet(header, cells, intended, junked, encoding, draw(st.booleans()))


def write(sheet: Sheet, folder: Path) -> Path:
    """The sheet as a CSV in its encoding, or as a workbook with numbers stored as Excel does."""
    if sheet.excel:
        path = folder / "fuzz.xlsx"
        book = xlsxwriter.Workbook(path, {"strings_to_numbers": False})
        ws = book.add_worksheet("Travellers")
        ws.write_row(0, 0, sheet.header)
        for i, row in enumerate(sheet.cells, start=1):
            for j, cell in enumerate(row):
                text = cell.replace("\x00", "")
                number = text.strip().removeprefix("+")
                if number.lstrip("-").replace(".", "", 1).isdigit() and len(number) < 15:
                    ws.write_number(i, j, float(number))  # "+2" is stored as 2
                else:
                    ws.write_string(i, j, text)
        book.close()
        return path
    path = folder / "fuzz.csv"
    text = "\n".join(",".join(row) for row in [sheet.header, *sheet.cells]) + "\n"
    path.write_bytes(text.encode(sheet.encoding, errors="replace"))
    return path


# --------------------------------------------------------------------------
# The property


def check(sheet: Sheet, folder: Path) -> None:
    """No exception escapes; every row is listed or scored; every wrong score is listed."""
    path = write(sheet, folder)
    try:
        result = process(path)
    except TravellerError as exc:  # a whole-file refusal is allowed: one line, named file
        assert "\n" not in str(exc) and path.name in str(exc)
        return
    lines = {i + 2: r for i, r in enumerate(sheet.rows)}
    known = {i + 2 for i, j in enumerate(sheet.junked) if not j}
    scored = dict(zip(result.travellers["row"], result.travellers["ns_score"], strict=True))
    listed = set(result.problems["row"])
    assert set(scored) <= set(lines), "a phantom row was scored"
    assert set(lines) <= set(scored) | listed, "a row is neither scored nor listed"
    wrong = {line for line, score in scored.items()
             if line in known and score != lines[line].ns_score()}
    assert wrong <= listed, {line: (scored[line], lines[line]) for line in wrong - listed}


@settings(max_examples=examples(25), derandomize=True, deadline=None,
          suppress_health_check=[HealthCheck.function_scoped_fixture, HealthCheck.too_slow])
@given(sheet=sheets())
def test_hostile_sheets_are_scored_right_or_listed(tmp_path: Path, sheet: Sheet) -> None:
    check(sheet, tmp_path)


def test_the_reference_scorer_agrees_with_textbook_examples() -> None:
    assert reference_score(4, "S", 0, False, 10) == 420
    assert reference_score(3, "NT", 0, True, 10) == 630
    assert reference_score(6, "H", 0, True, 12) == 1430
    assert reference_score(4, "S", 1, False, 8) == -300
    assert reference_score(1, "C", 2, True, 8) == 630  # 1CXX+1 vulnerable: 80+50+100+400
    assert reference_score(7, "NT", 0, False, 13) == 1520
    assert reference_score(2, "D", 1, True, 4) == -1100
