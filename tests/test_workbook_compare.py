"""The new writer against today's: every cell's value and number format, sheet by sheet.

The references in tests/data/workbook_ref were written by the writer as it was
before the row-by-row writer (commit f254d0e) from the sample sessions. What
may differ is only what was meant to: a heading row above each board, cells
as written only where they differ from the normalised value, per-board and
constant columns moved to the headings and the Summary, whole matchpoints
shown without a decimal point (whole IMPs too), the cells as written headed by their field's
name ("Contract (as written)", not the input's "Kontrakt (as written)"), score
cards as a page per pair, no Problems sheet when there are none, no empty
Frequencies columns; and, since the
problems tell what happened, a Severity column on the Problems sheet and the
first of a pair's two results on a board listed too (as the one scored), so
the problem count in the method line and the Summary counts those rows; the
problems no score depends on (an unreadable lead) listed after the others.
"""

from __future__ import annotations

import re
from pathlib import Path
from typing import Any

import openpyxl
import pytest
from conftest import ranking_rows

from traveller import process, write_workbook
from traveller.problems import SCORES_NOTHING
from traveller.publish import headers
from traveller.publish.titles import heading
from traveller.read.headers import field_for

SAMPLES = Path(__file__).resolve().parent.parent / "sample_data"
REFS = Path(__file__).resolve().parent / "data" / "workbook_ref"
CASES = [("club_session.xlsx", {}), ("club_session_pl.xlsx", {}), ("club_session_ru.csv", {}),
         ("problems_session.csv", {}), ("club_session.csv", {"method": "butler"})]
MP_HEADERS = {"N-S MP", "E-W MP", "MP", "N-S MP (Neuberg)", "E-W MP (Neuberg)",
              "N-S IMPs", "E-W IMPs", "IMPs"}
Cell = tuple[Any, str]


def _reference(name: str, options: dict[str, str]) -> Path:
    suffix = "_" + options["method"] if options else ""
    return REFS / f"{name.replace('.', '_')}{suffix}.xlsx"


def _table(sheet: Any, header_row: int) -> tuple[list[str], list[list[Cell]]]:
    rows = list(sheet.iter_rows(min_row=header_row))
    head = [c.value for c in rows[0]]
    return head, [[(c.value, c.number_format) for c in row] for row in rows[1:]]


def _as_written_heading(header: Any) -> Any:
    """A reference's "Kontrakt (as written)" (the input's own header, as the sheets were
    headed then) as today's heading of the field's column: "Contract (as written)"."""
    if not (isinstance(header, str) and header.endswith(" (as written)")):
        return header
    field = field_for(header.removesuffix(" (as written)"))
    return headers.heading(f"{field}_as_written") if field else header


def _same(old: Cell, new: Cell, header: str) -> bool:
    (ov, of), (nv, nf) = old, new
    if ov != nv and not (isinstance(ov, float) and isinstance(nv, float)
                         and abs(ov - nv) < 1e-9):
        return False
    if header in MP_HEADERS and of in ("0.##", "0.00") and isinstance(nv, int | float):
        # matchpoints (IMPs) without a trailing decimal point: whole ones as 14 (or 14.00 beside
        # fractions of their board or card), others to two decimals, 7.50
        return nf in ("0", "0.00") if nv == int(nv) else nf == "0.00"
    return ov is None or of == nf


def _as_written_equal(written: Any, value: Any) -> bool:
    text = str(written).strip()
    try:
        return float(text) == float(value)
    except (TypeError, ValueError):
        return text == str(value).strip()


@pytest.fixture(scope="module", params=CASES,
                ids=[f"{n}-{o.get('method', 'mp')}" for n, o in CASES])
def books(request: pytest.FixtureRequest,
          tmp_path_factory: pytest.TempPathFactory) -> tuple[Any, Any, Any]:
    """Each case scored and written once for the module's tests (which only read them)."""
    name, options = request.param
    with pytest.MonkeyPatch.context() as patch:
        patch.chdir(SAMPLES.parent)  # the references name the file as sample_data/NAME
        result = process(Path("sample_data") / name, **options)
    new = write_workbook(result, tmp_path_factory.mktemp("compare") / "new.xlsx")
    return (openpyxl.load_workbook(_reference(name, options)), openpyxl.load_workbook(new),
            result)


def test_ranking_keeps_every_figure(books: tuple[Any, Any, Any]) -> None:
    """The Ranking is now a block per line (its heading says the line, its places start
    at 1) with the place first; every pair's figures are as before, whole matchpoints
    without decimals (a block with a fraction to two decimals throughout), and the
    method line is the foot, without a problem count of 0."""
    old, new, result = books
    assert new["Ranking"]["A1"].value == heading(result)
    head, rows = _table(old["Ranking"], 4)
    shown = ranking_rows(new["Ranking"])
    assert len(shown) == len(rows)
    lines = {"NS": "N-S", "EW": "E-W", None: ""}
    for row, got in zip(rows, shown, strict=True):
        for header, (value, _) in zip(head, row, strict=True):
            if header == "Line":
                assert got["Block"] == lines[value]
            elif header == "Names" and header not in got:  # no pair has names: no column
                assert all(r[head.index("Names")][0] is None for r in rows)
            else:
                assert _same((value, "0.00"), got[header], header) or got[header][0] == value
        mp = [r["MP"][0] for r in shown if r["Block"] == got["Block"]] if "MP" in got else []
        whole = all(float(v) == int(v) for v in mp)
        if mp:
            assert got["MP"][1] == ("0" if whole else "0.00")
        if "%" in got:
            assert got["%"][1] == "0.00"
    texts = [c.value for c in new["Ranking"]["A"] if isinstance(c.value, str)]
    foot = texts[-1] if not len(result.problems) else texts[-2]
    assert foot.startswith(("Matchpoints, ", "Butler")) and "problem(s)" not in foot
    assert "boards." in foot and "Mitchell movement" in foot
    if len(result.problems):
        assert texts[-1] == f"{len(result.problems)} problems listed on the Problems sheet."


def test_travellers_keep_every_cell(books: tuple[Any, Any, Any]) -> None:
    old, new, _ = books
    old_head, old_rows = _table(old["Travellers"], 1)
    old_head = [_as_written_heading(h) for h in old_head]
    new_head, new_rows = _table(new["Travellers"], 1)
    headings = [r[0][0] for r in new_rows if isinstance(r[0][0], str)]
    new_rows = [r for r in new_rows if not isinstance(r[0][0], str)]
    assert len(new_rows) == len(old_rows) and len(headings) > 0
    summary = ({r[0]: r[1] for r in new["Summary"].iter_rows(values_only=True)}
               if "Summary" in new.sheetnames else {})
    for j, header in enumerate(old_head):
        old_col = [r[j] for r in old_rows]
        if header in new_head:
            k = new_head.index(header)
            for o, n in zip(old_col, (r[k] for r in new_rows), strict=True):
                if header.endswith("(as written)") and n[0] is None and o[0] is not None:
                    continue  # checked below: blank only where it read as written
                assert _same(o, n, header), (header, o, n)
        else:
            _moved_column_kept(header, old_head, old_rows, old_col, headings, summary)
    for j, header in enumerate(new_head):
        if header.endswith("(as written)"):
            blanked = [(o, r) for o, r in zip([r[old_head.index(header)] for r in old_rows],
                                              new_rows, strict=True)
                       if r[j][0] is None and o[0] is not None]
            assert all(any(_as_written_equal(o[0], r[k][0]) for k in range(len(new_head)))
                       for o, r in blanked)


def _moved_column_kept(header: str, old_head: list[str], old_rows: list[list[Cell]],
                       old_col: list[Cell], headings: list[str], summary: dict[Any, Any]) -> None:
    """A column the new layout does not write: its content is elsewhere, or repeats a column."""
    values = [v for v, _ in old_col]
    if header in ("Results", "Top"):
        word = {"Results": r"(\d+) results", "Top": r"top ([\d.]+)"}[header]
        shown = {float(m.group(1)) for h in headings if (m := re.search(word, h))}
        assert {float(v) for v in values} == shown
    elif header in ("File", "Sheet", "Notation"):
        assert len(set(values)) == 1 and summary.get(f"travellers: {header.lower()}") \
            == str(values[0])
    elif header.endswith("(Neuberg)"):
        plain = old_head.index(header.replace(" (Neuberg)", ""))
        assert values == [r[plain][0] for r in old_rows]
    elif header.endswith("(as written)"):
        assert all(v is None or any(_as_written_equal(v, r[k][0]) for k in range(len(r)))
                   for v, r in zip(values, old_rows, strict=True))


def test_problems_sheet_only_when_there_are_problems(books: tuple[Any, Any, Any]) -> None:
    old, new, result = books
    if len(result.problems):
        (head, old_rows), (new_head, new_rows) = _table(old["Problems"], 1), _table(
            new["Problems"], 1)
        # Severity and Board are new columns: each as the result says, the rest as before
        added = {new_head.index("Severity"), new_head.index("Board")}
        assert [h for i, h in enumerate(new_head) if i not in added] == head
        assert [r[new_head.index("Severity")][0] for r in new_rows] == \
            result.problems["severity"].tolist()
        assert [r[new_head.index("Board")][0] for r in new_rows] == \
            result.problems["board"].astype(object).where(result.problems["board"].notna(),
                                                          None).tolist()
        # the rows listed as the one scored of two results are new; the rest as before
        kept = ~result.problems["message"].str.contains("this result is scored").to_numpy()
        new_rows = [[c for i, c in enumerate(r) if i not in added]
                    for r, k in zip(new_rows, kept, strict=True) if k]
        problems = result.problems[kept]
        # problems no score depends on (an unreadable lead) now follow the others
        code = head.index("Code")
        old_rows = sorted(old_rows, key=lambda r: r[code][0] in SCORES_NOTHING)
        # the column is now named as the sheet names it (and the message with it):
        # those two come from the problems themselves, every other cell is unchanged
        named = [head.index("Column"), head.index("Message")]
        assert [[c for i, c in enumerate(r) if i not in named] for r in old_rows] == \
            [[c for i, c in enumerate(r) if i not in named] for r in new_rows]
        assert [[r[i][0] for i in named] for r in new_rows] == \
            problems[["column", "message"]].to_numpy().tolist()
    else:
        assert old["Problems"].max_row == 1 and "Problems" not in new.sheetnames


def _scored_first(old: Any, result: Any) -> Any:
    """An old problem count (a number, or the method line's "5 problem(s)") with the rows
    now listed as the one scored of a pair's two results added."""
    more = int(result.problems["message"].str.contains("this result is scored").sum())
    if isinstance(old, int):
        return old + more
    return re.sub(r"(\d+) problem", lambda m: f"{int(m.group(1)) + more} problem", str(old))


def _cards(sheet: Any) -> dict[tuple[str, int], dict[str, Cell]]:
    """(pair heading's first words, board) -> header -> cell, from the per-pair pages."""
    found, head, pair = {}, None, ""
    for row in sheet.iter_rows():
        first = row[0].value
        if isinstance(first, str) and first.startswith(("Pair ", "Player ", "Section ")):
            pair, head = first.split(" · ")[0], None
        elif first == "Board":
            head = [c.value for c in row]
        elif head and isinstance(first, int):
            found[(pair, first)] = {h: (c.value, c.number_format)
                                    for h, c in zip(head, row, strict=False) if h}
    return found


def _neuberg(sheet: Any) -> dict[tuple[Any, Any, str], tuple[float, float]]:
    """(board, pair, cards held) -> (Neuberg's matchpoints, common top), from a reference's
    Travellers (which has those columns only where some board was played fewer times)."""
    head, rows = _table(sheet, 1)
    if "N-S MP (Neuberg)" not in head:
        return {}
    at = {h: head.index(h) for h in ("Board", "N-S", "E-W", "N-S MP (Neuberg)",
                                     "E-W MP (Neuberg)", "Common top")}
    found = {}
    for row in rows:
        board, common = row[at["Board"]][0], row[at["Common top"]][0]
        for side in ("N-S", "E-W"):
            found[(board, row[at[side]][0], side)] = (row[at[f"{side} MP (Neuberg)"]][0],
                                                      common)
    return found


def test_score_cards_keep_every_result(books: tuple[Any, Any, Any]) -> None:
    """Every card row as before, but the matchpoints: where a board was played fewer times
    the card now shows Neuberg's (the figures the ranking adds), on the common top, which
    the reference printed on its Travellers only."""
    old, new, result = books
    if "Score cards" not in old.sheetnames:
        return
    head, rows = _table(old["Score cards"], 1)
    cards = _cards(new["Score cards"])
    neuberg = _neuberg(old["Travellers"])
    assert len(cards) == len(rows) == len(result.score_cards)
    for row in rows:
        cell = dict(zip(head, row, strict=True))
        side = {"NS": "N-S", "EW": "E-W"}.get(cell["Line"][0], "")
        key = (f"Pair {cell['Pair'][0]}" + (f" {side}" if side else ""), cell["Board"][0])
        got = cards[key]
        scaled, common = neuberg.get((cell["Board"][0], cell["Pair"][0], cell["Cards"][0]),
                                     (None, None))
        moved = scaled is not None and (common != cell["Top"][0] or scaled != cell["MP"][0])
        if moved:
            assert abs(got["MP"][0] - scaled) < 1e-9, key
            assert abs(got["%"][0] - 100 * scaled / common) < 1e-9, key
        for header in ("Opponents", "Contract", "By", "Lead", "Score",
                       *(() if moved else ("MP", "%"))):
            if header in got:
                assert _same(cell[header], got[header], header), (key, header)
            else:
                assert cell[header][0] is None


def test_frequencies_and_summary_keep_every_cell(books: tuple[Any, Any, Any]) -> None:
    old, new, result = books
    if "Frequencies" not in old.sheetnames:
        return
    old_head, old_rows = _table(old["Frequencies"], 1)
    new_head, new_rows = _table(new["Frequencies"], 1)
    assert len(old_rows) == len(new_rows)
    for j, header in enumerate(old_head):
        if header not in new_head:
            assert header in ("Section", "Ruling") and all(r[j][0] is None for r in old_rows)
            continue
        k = new_head.index(header)
        assert all(_same(o[j], n[k], header) for o, n in zip(old_rows, new_rows, strict=True))
    old_summary = [(k, _scored_first(v, result)
                    if k in ("problems", "problems: duplicate-result") else
                    int(v) if k == "top (common)" and str(v).isdigit() else v)  # now a number
                   for k, v in old["Summary"].iter_rows(values_only=True)]
    new_summary = list(new["Summary"].iter_rows(values_only=True))[:len(old_summary)]
    assert new_summary[0] == old_summary[0]  # (by code, most first: the order may change)
    assert sorted(new_summary[1:], key=str) == sorted(old_summary[1:], key=str)
