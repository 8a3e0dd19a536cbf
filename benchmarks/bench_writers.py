"""Benchmark: the formatted-xlsx writers we could use, on one table, in one run.

    python benchmarks/bench_writers.py                 # 100,000 rows x 12 columns
    python benchmarks/bench_writers.py --rows 20000

Each candidate writes the same formatted sheet (bold frozen header, autofilter,
a signed-score and a two-decimal number format, column widths, landscape A4
fitted to the page width, a print area), every text cell as text:

- ``xlsxwriter``: as the workbook used to be written (``write_column`` per
  column, every cell kept in memory until ``close``);
- ``xlsxwriter constant_memory``: the same library fed row by row (each row
  is flushed to disk as soon as the next one starts);
- ``traveller's sheet writer``: ``traveller/publish/sheet.py`` as the workbook
  uses it (its fast path into xlsxwriter and its own row printer);
- ``rustpy-xlsxwriter``: the Python binding of rust_xlsxwriter, one call with
  a DataFrame (skipped when it is not installed);
- ``rvgsrust-xlsxwriter``: another binding of rust_xlsxwriter with a
  worksheet API like xlsxwriter's (row formats, page breaks, repeated rows),
  fed the rows in one call (skipped when it is not installed).

``--rows 300`` is a club session's Travellers sheet. ``--club`` writes a club
workbook's shape instead (six sheets, about 13,000 cells, a format of 44 for
each cell, page breaks, repeated rows, headers and footers, a formula
banding), with the candidates that can: xlsxwriter cell by cell, our
writer a row at a time, rvgsrust-xlsxwriter cell by cell.

Prints milliseconds (best of ``--repeat``) and each one's speed relative to the
first; peak memory is measured per candidate in a child process.
"""

from __future__ import annotations

import argparse
import os
import resource
import subprocess
import sys
import tempfile
import time
from typing import Any

import numpy as np
import pandas as pd
import xlsxwriter

SIGNED = '+#,##0;-#,##0;0'


def table(rows: int, seed: int = 3) -> pd.DataFrame:
    """A Travellers-like table: numbers, short codes and a few text columns."""
    rng = np.random.default_rng(seed)
    return pd.DataFrame({
        "Board": np.arange(rows) // 12 + 1, "N-S": rng.integers(1, 13, rows),
        "E-W": rng.integers(1, 13, rows),
        "Contract": rng.choice(["3NT", "4S", "2HX", "PASS", "1C"], rows),
        "By": rng.choice(list("NESW"), rows), "Tricks": rng.integers(0, 14, rows),
        "Lead": rng.choice(["SA", "H7", "DT", "C2"], rows),
        "N-S score": rng.choice([-100, 420, 620, -50, 0], rows),
        "N-S MP": rng.integers(0, 23, rows).astype(float),
        "E-W MP": rng.integers(0, 23, rows).astype(float),
        "N-S %": rng.random(rows) * 100, "E-W %": rng.random(rows) * 100,
    })


def xlsxwriter_columns(frame: pd.DataFrame, path: str) -> None:
    book = xlsxwriter.Workbook(path, {"strings_to_formulas": False, "strings_to_urls": False})
    sheet = book.add_worksheet("Travellers")
    header = book.add_format({"bold": True, "bottom": 1})
    signed = book.add_format({"num_format": SIGNED})
    decimal = book.add_format({"num_format": "0.00"})
    sheet.write_row(0, 0, list(frame.columns), header)
    for j, column in enumerate(frame.columns):
        fmt = signed if column == "N-S score" else decimal if "%" in column else None
        sheet.set_column(j, j, 10, fmt)
        sheet.write_column(1, j, frame[column].tolist())
    _finish(sheet, len(frame), len(frame.columns))
    book.close()


def xlsxwriter_rows(frame: pd.DataFrame, path: str) -> None:
    book = xlsxwriter.Workbook(path, {"constant_memory": True, "strings_to_formulas": False,
                                      "strings_to_urls": False})
    sheet = book.add_worksheet("Travellers")
    header = book.add_format({"bold": True, "bottom": 1})
    signed = book.add_format({"num_format": SIGNED})
    decimal = book.add_format({"num_format": "0.00"})
    for j, column in enumerate(frame.columns):
        fmt = signed if column == "N-S score" else decimal if "%" in column else None
        sheet.set_column(j, j, 10, fmt)
    sheet.write_row(0, 0, list(frame.columns), header)
    write_row = sheet.write_row
    for i, row in enumerate(zip(*(frame[c].tolist() for c in frame.columns), strict=True), 1):
        write_row(i, 0, row)
    _finish(sheet, len(frame), len(frame.columns))
    book.close()


def _finish(sheet: object, rows: int, columns: int) -> None:
    sheet.freeze_panes(1, 0)  # type: ignore[attr-defined]
    sheet.autofilter(0, 0, rows, columns - 1)  # type: ignore[attr-defined]
    sheet.set_landscape()  # type: ignore[attr-defined]
    sheet.set_paper(9)  # type: ignore[attr-defined]
    sheet.fit_to_pages(1, 0)  # type: ignore[attr-defined]
    sheet.print_area(0, 0, rows, columns - 1)  # type: ignore[attr-defined]


def rustpy(frame: pd.DataFrame, path: str) -> None:
    import rustpy_xlsxwriter as rx

    signed = rx.Format().set_num_format(SIGNED)
    decimal = rx.Format().set_num_format("0.00")
    rx.write_worksheet(
        frame, path, sheet_name="Travellers", freeze_row=1, bold_headers=True, autofilter=True,
        column_widths=[10.0] * len(frame.columns),
        column_formats={"N-S score": signed, "N-S %": decimal, "E-W %": decimal},
        page_setup={"landscape": True, "paper_size": 9, "fit_to_pages": (1, 0),
                    "print_area": (0, 0, len(frame), len(frame.columns) - 1)})


def rvgsrust(frame: pd.DataFrame, path: str) -> None:
    import rvgsrust_xlsxwriter as rx

    book = rx.Workbook(path)
    sheet = book.add_worksheet("Travellers")
    header = rx.Format().set_bold().set_border_bottom("thin")
    formats = {"N-S score": rx.Format().set_num_format(SIGNED),
               "N-S %": rx.Format().set_num_format("0.00"),
               "E-W %": rx.Format().set_num_format("0.00")}
    sheet.write_row(0, 0, list(frame.columns), header)
    for j, column in enumerate(frame.columns):
        sheet.set_column_width(j, 10)
        if column in formats:
            sheet.set_column_format(j, formats[column])
    rows = [list(r) for r in zip(*(frame[c].tolist() for c in frame.columns), strict=True)]
    sheet.write_rows(1, 0, rows)
    sheet.freeze_panes(1, 0)
    sheet.autofilter(0, 0, len(frame), len(frame.columns) - 1)
    sheet.set_landscape()
    sheet.set_paper_size(9)
    sheet.set_print_fit_to_pages(1, 0)
    sheet.set_print_area(0, 0, len(frame), len(frame.columns) - 1)
    sheet.set_repeat_rows(0, 0)
    book.close()


def ours(frame: pd.DataFrame, path: str) -> None:
    """The workbook's own sheet writer (traveller/publish/sheet.py) on the same table."""
    sys.path.insert(0, str(os.path.dirname(os.path.dirname(os.path.abspath(__file__)))))
    from traveller.publish.book import Workbook
    from traveller.publish.sheet import SIGNED as OURS_SIGNED
    from traveller.publish.sheet import Table, column, styles, write_table

    book = Workbook(path, {"strings_to_formulas": False, "strings_to_urls": False,
                           "in_memory": len(frame) <= 5000, "constant_memory": len(frame) > 5000})
    style = {"N-S score": OURS_SIGNED, "N-S %": "0.00", "E-W %": "0.00"}
    write_table(book, styles(book), Table("Travellers", [column(c, frame[c], style.get(c))
                                                         for c in frame.columns]))
    book.close()


#: A club workbook's sheets: name, rows, columns (about 13,000 cells).
CLUB_SHEETS = [("Ranking", 40, 8), ("Travellers", 330, 11), ("Score cards", 640, 13),
               ("Frequencies", 120, 9), ("Summary", 14, 2), ("Problems", 3, 6)]
CLUB_FORMATS = 44
TEXTS = ["3NT", "4S", "N", "E", "=", "+1", "-2", "Pair 3 N-S · Anna Nowak", "♠K", "11"]


def club_sheets() -> list[tuple[str, list[list[object]], list[list[int]], list[int]]]:
    """Each sheet's name, rows of values (60 % numbers), each cell's format number (a
    run of 20 rows alike, changing by column) and page breaks (every 45 rows)."""
    def value(r: int, c: int) -> object:
        k = (r * 7 + c * 3) % 10
        return TEXTS[(r + c) % 10] if k >= 6 else ((r * 31 + c * 17) % 700) / (1 if k < 4 else 3)
    return [(name, [[value(r, c) for c in range(cols)] for r in range(rows)],
             [[(r // 20 + c) % CLUB_FORMATS for c in range(cols)] for r in range(rows)],
             list(range(45, rows, 45))) for name, rows, cols in CLUB_SHEETS]


def _club_format(i: int) -> dict[str, object]:
    return {"num_format": "0." + "0" * (i % 3) if i % 2 else "General", "bold": i % 5 == 0,
            "align": "right" if i % 3 else "left", "border": i % 4}


def _club_page(sheet: object, rows: int, columns: int, breaks: list[int], band: object,
               rust: bool = False) -> None:
    if rust:
        sheet.set_repeat_rows(0, 0)  # type: ignore[attr-defined]
        sheet.set_print_fit_to_pages(1, 0)  # type: ignore[attr-defined]
        sheet.set_page_breaks(breaks)  # type: ignore[attr-defined]
    else:
        sheet.repeat_rows(0)  # type: ignore[attr-defined]
        sheet.fit_to_pages(1, 0)  # type: ignore[attr-defined]
        sheet.set_h_pagebreaks(breaks)  # type: ignore[attr-defined]
        sheet.conditional_format(1, 0, rows, columns - 1,  # type: ignore[attr-defined]
                                 {"type": "formula", "criteria": "=MOD(ROW(),2)=0",
                                  "format": band})
    sheet.set_landscape()  # type: ignore[attr-defined]
    sheet.set_header("&CTuesday pairs")  # type: ignore[attr-defined]
    sheet.set_footer("&RPage &P of &N")  # type: ignore[attr-defined]


def club_xlsxwriter(sheets: list[Any], path: str, ours: bool = False) -> None:
    """xlsxwriter cell by cell, or (``ours``) the workbook's writer a row at a time."""
    options = {"in_memory": True, "strings_to_formulas": False, "strings_to_urls": False,
               "strings_to_numbers": False}
    if ours:
        sys.path.insert(0, str(os.path.dirname(os.path.dirname(os.path.abspath(__file__)))))
        from traveller.publish.book import Workbook
        book = Workbook(path, {**options, "constant_memory": False})
    else:
        book = xlsxwriter.Workbook(path, options)
    formats = [book.add_format(_club_format(i)) for i in range(CLUB_FORMATS)]
    for name, rows, cell_formats, breaks in sheets:
        sheet = book.add_worksheet(name)
        for r, (values, numbers) in enumerate(zip(rows, cell_formats, strict=True)):
            if ours:
                sheet.put_row(r, values, [formats[f] for f in numbers])
                continue
            for c, (v, f) in enumerate(zip(values, numbers, strict=True)):
                if isinstance(v, str):
                    sheet.write_string(r, c, v, formats[f])
                else:
                    sheet.write_number(r, c, v, formats[f])
        _club_page(sheet, len(rows), len(rows[0]), breaks, formats[1])
    book.close()


def club_rvgsrust(sheets: list[Any], path: str) -> None:
    import rvgsrust_xlsxwriter as rx

    book = rx.Workbook()
    formats = []
    for i in range(CLUB_FORMATS):
        spec = _club_format(i)
        f = rx.Format().set_num_format(str(spec["num_format"]))
        f = f.set_bold() if spec["bold"] else f
        formats.append(f.set_align("right" if spec["align"] == "right" else "left"))
    for name, rows, cell_formats, breaks in sheets:
        sheet = book.add_worksheet(name)
        write = sheet.write
        for r, (values, numbers) in enumerate(zip(rows, cell_formats, strict=True)):
            for c, (v, f) in enumerate(zip(values, numbers, strict=True)):
                write(r, c, v, formats[f])
        _club_page(sheet, len(rows), len(rows[0]), breaks, None, rust=True)
        band = rx.ConditionalFormatFormula()
        band.set_rule("=MOD(ROW(),2)=0")
        band.set_format(formats[1])
        sheet.add_conditional_format(1, 0, len(rows), len(rows[0]) - 1, band)
    book.close(path)


CLUB = {"xlsxwriter": club_xlsxwriter,
        "traveller's writer": lambda sheets, path: club_xlsxwriter(sheets, path, ours=True),
        "rvgsrust-xlsxwriter": club_rvgsrust}

CANDIDATES = {"xlsxwriter": xlsxwriter_columns, "xlsxwriter constant_memory": xlsxwriter_rows,
              "traveller's sheet writer": ours, "rustpy-xlsxwriter": rustpy,
              "rvgsrust-xlsxwriter": rvgsrust}


def child(name: str, rows: int, repeat: int, club: bool = False) -> None:
    """Run one candidate; print seconds and this process's peak RSS (MiB)."""
    data: Any = club_sheets() if club else table(rows)
    write: Any = CLUB[name] if club else CANDIDATES[name]
    best = float("inf")
    with tempfile.TemporaryDirectory() as tmp:
        if club:
            write(data, os.path.join(tmp, "warm.xlsx"))  # imports and first use apart
        for k in range(repeat):
            start = time.perf_counter()
            write(data, os.path.join(tmp, f"{k}.xlsx"))
            best = min(best, time.perf_counter() - start)
    peak = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024
    print(f"{best:.5f} {peak:.0f}")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--rows", type=int, default=100_000)
    parser.add_argument("--repeat", type=int, default=2)
    parser.add_argument("--club", action="store_true",
                        help="a club workbook's shape (six sheets, a format per cell)")
    parser.add_argument("--child", help=argparse.SUPPRESS)
    args = parser.parse_args()
    if args.child:
        child(args.child, args.rows, args.repeat, args.club)
        return
    print(f"a club workbook's shape ({sum(r * c for _, r, c in CLUB_SHEETS):,} cells)"
          if args.club else f"{args.rows:,} rows x 12 columns",
          f"best of {args.repeat}, one child process each", sep=", ")
    base = None
    for name in CLUB if args.club else CANDIDATES:
        done = subprocess.run([sys.executable, __file__, "--child", name, "--rows",
                               str(args.rows), "--repeat", str(args.repeat),
                               *(["--club"] if args.club else [])],
                              capture_output=True, text=True, check=False)
        if done.returncode:
            last = (done.stderr.strip().splitlines() or [""])[-1]
            print(f"  {name:28s} " + ("not installed" if "ModuleNotFoundError" in last
                                       else f"failed: {last}"))
            continue
        seconds, peak = map(float, done.stdout.split())
        base = base or seconds
        print(f"  {name:28s} {seconds * 1000:9.1f} ms  {base / seconds:5.1f}x  "
              f"peak {peak:5.0f} MiB")


if __name__ == "__main__":
    main()
