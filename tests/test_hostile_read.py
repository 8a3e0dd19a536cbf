"""Hostile and damaged files (issue 10): each is a one-line error or read right, never a
traceback, an allocation of the whole Excel grid, or a shifted row number."""

from __future__ import annotations

import os
import zipfile
from pathlib import Path

import pytest
from click.testing import CliRunner
from conftest import SAMPLE_DATA

from traveller import process
from traveller.cli import main
from traveller.errors import UnreadableFileError
from traveller.read import guard
from traveller.read.load import read

HEAD = "Board,NS,EW,Contract,By,Tricks\n"
ROWS = ["1,1,2,4S,N,10", "1,3,4,4S,N,9", "2,1,4,3NT,S,9", "2,3,2,3NT,S,8"]


def _patched(tmp_path: Path, part: str, change: object, name: str = "hostile.xlsx") -> Path:
    """The sample workbook with one part replaced (``change`` maps old bytes to new)."""
    out = tmp_path / name
    with zipfile.ZipFile(SAMPLE_DATA / "club_session.xlsx") as src, \
            zipfile.ZipFile(out, "w", zipfile.ZIP_DEFLATED) as dst:
        for item in src.infolist():
            data = src.read(item.filename)
            if item.filename == part:
                data = change(data)  # type: ignore[operator]
            dst.writestr(item.filename, data)
    return out


def _one_line_error(path: Path, *extra: str) -> str:
    result = CliRunner().invoke(main, ["score", str(path), "-o", str(path.with_suffix(".out.xlsx")),
                                       *extra])
    assert result.exit_code == 1, result.output
    assert "Traceback" not in result.output
    assert len(result.output.strip().splitlines()) == 1, result.output
    return result.output


def test_one_cell_at_the_end_of_the_grid_is_refused_before_reading(tmp_path: Path) -> None:
    """A 3 KB sheet whose one stray cell at XFD1048576 would make a 17-billion-cell grid."""
    path = _patched(tmp_path, "xl/worksheets/sheet1.xml", lambda d: d.replace(
        b"</sheetData>", b'<row r="1048576"><c r="XFD1048576"><v>1</v></c></row></sheetData>'))
    with pytest.raises(UnreadableFileError, match=r"Travellers.*1,048,576 rows by 16,384"):
        read(path)
    assert "cells" in _one_line_error(path)


def test_extent_is_measured_by_streaming() -> None:
    assert guard.column_number(b"XFD") == 16384 and guard.column_number(b"a") == 1


@pytest.mark.parametrize("change", [
    lambda d: d[: len(d) // 2],                                   # corrupt (cut) sheet XML
    lambda d: d.replace(b"<v>10</v></c>", b"<v>999999</v></c>", 1),  # no such shared string
    lambda d: d.replace(b'r="A4"', b'r="ZZZZZZZ99999999999"', 1),   # absurd cell reference
], ids=["corrupt-xml", "shared-string-index", "bad-reference"])
def test_damaged_sheet_is_a_one_line_error(tmp_path: Path, change: object) -> None:
    path = _patched(tmp_path, "xl/worksheets/sheet1.xml", change)
    try:
        loaded = read(path)
    except UnreadableFileError as exc:
        assert "\n" not in str(exc)
        _one_line_error(path)
    else:  # calamine may read a shared string it cannot find as blank: then it is listed
        assert loaded.tables


def test_padding_cannot_hide_a_huge_shared_strings_part(tmp_path: Path) -> None:
    """The archive's overall ratio is small (random padding), one part is absurd."""
    huge = b"<si><t>" + b"x" * (70 << 20) + b"</t></si></sst>"
    path = _patched(tmp_path, "xl/sharedStrings.xml", lambda d: d.replace(b"</sst>", huge))
    with zipfile.ZipFile(path, "a", zipfile.ZIP_STORED) as archive:
        archive.writestr("xl/media/padding.bin", os.urandom(2 << 20))
    with pytest.raises(UnreadableFileError, match=r"sharedStrings\.xml unpacks to"):
        read(path)


def test_corrupt_or_binary_names_file(tmp_path: Path) -> None:
    session = tmp_path / "s.csv"
    session.write_text(HEAD + "\n".join(ROWS) + "\n")
    broken = tmp_path / "names.xlsx"
    broken.write_bytes(b"PK\x03\x04garbage" * 10)
    binary = tmp_path / "names.csv"
    binary.write_bytes(b"\x00\x01\xff\xfe" * 100)
    for names in (broken, binary):
        assert str(names) in _one_line_error(session, "--names", str(names))


def test_huge_board_and_pair_numbers_are_problems(tmp_path: Path) -> None:
    path = tmp_path / "huge.csv"
    path.write_text(HEAD + "9223372036854775807,1,2,4S,N,10\n1,99999999999999999999999,4,4S,N,9\n"
                    + "\n".join(ROWS) + "\n")
    result = process(path)
    assert dict(zip(result.problems["row"], result.problems["code"], strict=True)) == {
        2: "bad-board", 3: "bad-pair"}
    assert result.problems["value"].tolist() == ["9223372036854775807", "99999999999999999999999"]
    assert len(result.travellers) == 4


def test_old_mac_line_ends_are_read(tmp_path: Path) -> None:
    path = tmp_path / "mac.csv"
    path.write_bytes((HEAD + "\n".join(ROWS) + "\n").replace("\n", "\r").encode())
    result = process(path)
    assert result.travellers["row"].tolist() == [2, 3, 4, 5] and result.problems.empty


def test_control_characters_in_cells_keep_row_numbers(tmp_path: Path) -> None:
    """NUL, U+2028, form feed and U+0085 inside cells: no phantom rows, no shifted rows."""
    path = tmp_path / "ctrl.csv"
    path.write_text(HEAD + "1,1,2,4S,N,1\x000\n1,3,4,4S\u2028,N,9\n2,1,4,3NT\f,S,9\n"
                    "2,3,2,3NT\x85,S,8\n2,5,6,3NT,S,8\n")
    result = process(path)
    t = result.travellers.set_index("row")
    assert t.index.tolist() == [2, 3, 4, 5, 6]
    assert t.loc[2, "tricks"] == 10 and t.loc[6, "ns_pair"] == 5


def test_header_only_csv_exits_1(tmp_path: Path) -> None:
    path = tmp_path / "empty.csv"
    path.write_text(HEAD)
    assert "no results" in _one_line_error(path)


def test_cp1251_with_latin_contracts(tmp_path: Path) -> None:
    """Cyrillic headers, many rows of Latin contracts: still cp1251, not cp1250."""
    path = tmp_path / "ru.csv"
    body = "\n".join(f"{b};{p};{p + 40};4S;N;10" for b in (1, 2) for p in range(1, 41))
    path.write_bytes(("Сдача;С-Ю;З-В;Контракт;Разыгрывающий;Взятки\n" + body + "\n")
                     .encode("cp1251"))
    result = process(path)
    assert len(result.travellers) == 80


def test_trim_beyond_reason_is_a_usage_error(tmp_path: Path) -> None:
    path = tmp_path / "s.csv"
    path.write_text(HEAD + "\n".join(ROWS) + "\n")
    result = CliRunner().invoke(main, ["score", str(path), "--method", "butler",
                                       "--trim", "99999999999999999999"])
    assert result.exit_code == 2 and "Traceback" not in result.output


def test_full_disk_on_write_is_one_line(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    path = tmp_path / "s.csv"
    path.write_text(HEAD + "\n".join(ROWS) + "\n")

    def full(*_: object, **__: object) -> None:
        raise OSError(28, "No space left on device")

    monkeypatch.setattr("traveller.publish.workbook.write_workbook", full)
    assert "No space left" in _one_line_error(path)


def test_our_own_results_workbook_is_refused(tmp_path: Path) -> None:
    ours = tmp_path / "results.xlsx"
    assert CliRunner().invoke(main, ["score", str(SAMPLE_DATA / "club_session.csv"),
                                     "-o", str(ours)]).exit_code == 0
    assert "results workbook written by traveller" in _one_line_error(ours)


def test_usebio_nested_200000_deep_is_one_line(tmp_path: Path) -> None:
    path = tmp_path / "deep.xml"
    depth = 200_000
    path.write_text('<?xml version="1.0"?><USEBIO Version="1.2">' + "<A>" * depth
                    + "</A>" * depth + "</USEBIO>")
    assert "nested more than" in _one_line_error(path)


def _timed(path: Path) -> tuple[float, object]:
    import time

    start = time.perf_counter()
    result = process(path)
    return time.perf_counter() - start, result


def test_a_50000_column_csv_costs_what_its_data_costs(tmp_path: Path) -> None:
    """Before: over 5 minutes. The blank columns are dropped; the results are all read."""
    path = tmp_path / "wide.csv"
    pad = "," * 49_994
    path.write_text("\n".join([HEAD.strip() + pad] + [r + pad for r in ROWS]) + "\n")
    seconds, result = _timed(path)
    assert seconds < 30 and len(result.travellers) == 4  # type: ignore[attr-defined]


def test_a_16384_column_workbook_costs_what_its_data_costs(tmp_path: Path) -> None:
    """A stray header at XFD1 over a 300-row traveller (before: 82 s)."""
    import xlsxwriter

    path = tmp_path / "wide.xlsx"
    book = xlsxwriter.Workbook(path)
    sheet = book.add_worksheet("Travellers")
    sheet.write_row(0, 0, HEAD.strip().split(","))
    for r in range(1, 301):
        sheet.write_row(r, 0, [1 + r % 3, r, r + 300, "4S", "N", 10])
    sheet.write(0, 16383, "stray")
    book.close()
    seconds, result = _timed(path)
    assert seconds < 30 and len(result.travellers) == 300  # type: ignore[attr-defined]
