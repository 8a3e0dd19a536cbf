"""Our workbooks are packed at deflate level 4; anyone else's xlsxwriter files as before."""

from __future__ import annotations

import threading
import zipfile
import zlib
from pathlib import Path

import xlsxwriter
from conftest import SAMPLE_DATA

from traveller import process, write_workbook
from traveller.publish import deflate
from traveller.publish.book import Workbook


def packed_at(path: Path) -> set[int]:
    """The zlib levels (1-9) at which every member's data packs to its size in the file."""
    with zipfile.ZipFile(path) as book:
        members = [(info, book.read(info)) for info in book.infolist()]
    levels = set()
    for level in range(1, 10):
        sizes = []
        for info, data in members:
            packer = zlib.compressobj(level, zlib.DEFLATED, -15)
            sizes.append(len(packer.compress(data) + packer.flush()) == info.compress_size)
        if all(sizes):
            levels.add(level)
    return levels


def plain_book(path: Path, kind: type = xlsxwriter.Workbook, **options: bool) -> Path:
    book = kind(str(path), options)
    sheet = book.add_worksheet()
    for row in range(300):
        sheet.write_row(row, 0, [row, f"pair {row % 17}", row * 0.25, "N-S" if row % 2 else "E-W"])
    book.close()
    return path


def test_our_workbooks_pack_at_level_4_and_others_at_zlibs_default(tmp_path: Path) -> None:
    assert deflate.install()
    ours = write_workbook(process(SAMPLE_DATA / "club_session.csv"), tmp_path / "ours.xlsx")
    assert deflate.LEVEL in packed_at(ours)
    # in memory (a small session's) and through temporary files (a large one's)
    for options in ({"in_memory": True}, {"constant_memory": True}):
        assert deflate.LEVEL in packed_at(plain_book(tmp_path / "mode.xlsx", Workbook,
                                                     **options)), options
    # a program that imports traveller and writes its own xlsxwriter files: untouched
    assert 6 in packed_at(plain_book(tmp_path / "theirs.xlsx"))
    with deflate.packing():  # (the level applies inside the block only)
        assert 4 in packed_at(plain_book(tmp_path / "inside.xlsx"))
    assert 6 in packed_at(plain_book(tmp_path / "after.xlsx"))


def test_the_level_belongs_to_the_thread_that_packs(tmp_path: Path) -> None:
    """Another thread's file, closed while ours packs, keeps zlib's level."""
    seen: dict[str, set[int]] = {}

    def theirs() -> None:
        seen["theirs"] = packed_at(plain_book(tmp_path / "theirs.xlsx"))

    with deflate.packing():
        other = threading.Thread(target=theirs)
        other.start()
        other.join()
        seen["ours"] = packed_at(plain_book(tmp_path / "ours.xlsx"))
    assert 6 in seen["theirs"] and 4 in seen["ours"]


def test_the_xml_is_the_same_at_any_level(tmp_path: Path) -> None:
    result = process(SAMPLE_DATA / "club_session.csv")
    packed = write_workbook(result, tmp_path / "packed.xlsx")
    level = deflate.LEVEL
    try:
        deflate.LEVEL = 6
        stock = write_workbook(result, tmp_path / "stock.xlsx")
    finally:
        deflate.LEVEL = level
    with zipfile.ZipFile(packed) as a, zipfile.ZipFile(stock) as b:
        assert a.namelist() == b.namelist()
        for name in a.namelist():
            if name != "docProps/core.xml":  # (its creation time)
                assert a.read(name) == b.read(name), name
    assert packed.stat().st_size > stock.stat().st_size
