"""A pair with results on far fewer boards than its field is listed (a mistyped pair number)."""

from __future__ import annotations

from pathlib import Path

import traveller
from traveller.read.load import read
from traveller.tidy.normalise import normalise

HEADER = "Board,NS,EW,Contract,By,Tricks\n"


def mitchell(boards: int = 8, tables: int = 4, section: str = "") -> list[list[object]]:
    """Every N-S pair plays every board, against a different E-W pair each board."""
    return [[b, f"{section}{t}", f"{section}{(t + b) % tables + 1}", "4S", "N", 10 - (t + b) % 3]
            for b in range(1, boards + 1) for t in range(1, tables + 1)]


def run(tmp_path: Path, rows: list[list[object]], header: str = HEADER, **options: object
        ):  # type: ignore[no-untyped-def]
    path = tmp_path / "t.csv"
    path.write_text(header + "".join(",".join(map(str, r)) + "\n" for r in rows), encoding="utf-8")
    return normalise(read(path), **options)  # type: ignore[arg-type]


def listed(n) -> list[str]:  # type: ignore[no-untyped-def]
    return n.problems.loc[n.problems["code"] == "few-boards", "message"].tolist()


def test_a_mistyped_pair_number_is_listed_with_the_pair_it_may_be(tmp_path: Path) -> None:
    rows = mitchell()
    rows[13][1] = "14"  # board 4, N-S 2 typed as 14
    n = run(tmp_path, rows)
    [message] = listed(n)
    assert message.startswith("t.csv row 15, NS/EW '14': ")
    assert ("pair 14 N-S has a result on board 4 only (row 15), where most pairs have results "
            "on 8; pair 2 N-S has none on board 4") in message
    assert n.problems["severity"].tolist() == ["warning"]
    assert len(n.travellers) == len(rows)  # the row is still scored


def test_the_short_pair_is_still_ranked_and_the_warning_reaches_the_result(
        tmp_path: Path) -> None:
    rows = mitchell()
    rows[13][1] = "14"
    path = tmp_path / "t.csv"
    path.write_text(HEADER + "".join(",".join(map(str, r)) + "\n" for r in rows), encoding="utf-8")
    result = traveller.process(path)
    assert result.problems["code"].tolist() == ["few-boards"]
    ns = result.ranking[result.ranking["line"] == "NS"].set_index("pair")
    assert ns.loc[14, "boards"] == 1 and ns.loc[2, "boards"] == 7


def test_a_pair_that_played_part_of_a_howell_names_no_other_pair(tmp_path: Path) -> None:
    # six pairs, 12 boards; pair 7 replaced pair 6 after three boards
    rows = [[b, a, c, "3NT", "S", 9 + (a + b) % 2]
            for b in range(1, 13) for a, c in (((b % 5) + 1, 6), (((b + 1) % 5) + 1,
                                                                 ((b + 3) % 5) + 1))]
    for r in rows[6:]:
        if r[2] == 6:
            r[2] = 7
    n = run(tmp_path, rows, movement="howell")
    [message] = listed(n)
    assert "pair 6 has results on 3 boards (1, 2, 3; rows 2, 4, 6), where most pairs" in message
    assert "has none" not in message  # pair 7 played boards 4..12: it is no short pair
    assert n.movement == "howell"


def test_sections_and_lines_are_named_apart(tmp_path: Path) -> None:
    header = "Board,Section,NS,EW,Contract,By,Tricks\n"
    rows = [[r[0], s, *[str(c)[1:] if i < 2 else c for i, c in enumerate(r[1:])]]
            for s in "AB" for r in mitchell(section=s)]
    rows[40][3] = "9"  # section B, board 3: E-W typed 9
    n = run(tmp_path, rows, header)
    [message] = listed(n)
    assert "pair 9 E-W in section B has a result on board 3 only" in message
    assert "pair 1 E-W in section B has none on board 3" in message


def test_sessions_of_a_few_boards_or_a_single_traveller_are_not_checked(tmp_path: Path) -> None:
    rows = mitchell(boards=3)
    rows[4][1] = "14"  # one board of three: no field to compare with
    assert listed(run(tmp_path, rows)) == []
    single = [[8, t, t + 10, "4S", "N", 10] for t in range(1, 7)]
    assert listed(run(tmp_path, single)) == []


def test_a_pair_missing_a_round_or_two_is_not_listed(tmp_path: Path) -> None:
    rows = [r for r in mitchell(boards=12) if not (r[1] == "3" and r[0] in (5, 6, 7, 8, 9))]
    assert listed(run(tmp_path, rows)) == []


def test_the_ranking_says_beneath_it_on_how_few_boards_a_short_pair_is_placed(
        tmp_path: Path) -> None:
    from openpyxl import load_workbook

    from traveller.publish.site import site_pages

    rows = mitchell()
    rows[12][1] = "14"  # board 4, N-S 1 typed as 14: a one-board pair
    rows = [r for r in rows if not (r[2] == "3" and r[0] > 3)]  # E-W 3 left after 3 boards
    path = tmp_path / "t.csv"
    path.write_text(HEADER + "".join(",".join(map(str, r)) + "\n" for r in rows), encoding="utf-8")
    result = traveller.process(path)
    assert sorted(result.problems["code"]) == ["few-boards", "few-boards"]
    result.to_excel(tmp_path / "out.xlsx")
    book = load_workbook(tmp_path / "out.xlsx", read_only=True)
    try:  # (a read-only workbook holds its file open until closed)
        foot = [r[0] for r in book["Ranking"].iter_rows(values_only=True) if r[0]][-3:]
    finally:
        book.close()
    assert foot == [  # (in the order of their first rows)
        "Pair 3 E-W has results on 3 boards (1, 2, 3), where most pairs have results on 7.",
        "Pair 14 N-S has a result on board 4 only, where most pairs have results on 7.",
        "2 problems listed on the Problems sheet."]
    page = site_pages(result)["index.html"]
    assert ('<p class="note">Pair 3 E-W has results on 3 boards (1, 2, 3), where most pairs '
            "have results on 7.</p>") in page


def test_a_session_without_short_pairs_has_no_such_line() -> None:
    import pandas as pd

    from traveller.tidy.few_boards import ranked_on_few

    assert ranked_on_few(pd.DataFrame(columns=["code", "message"])) == []
    other = pd.DataFrame({"code": ["bad-board"], "message": ["t.csv row 2, Board 'x': ..."]})
    assert ranked_on_few(other) == []
