"""Realistic corruptions of a correct traveller, and the trust check each must pass.

Each corruption is what a hurried director or Excel does to a sheet: typos,
swapped cells, blanked cells, duplicated rows, pairs on the wrong lines,
renamed columns, Excel's conversions, facts that contradict their twins. The
check (:func:`trust_failures`) holds for every mutated sheet: it is scored
without an exception, its workbook is written with its Problems sheet, and
every row is either scored exactly as in the original or listed.

Used by ``tests/test_mutations.py`` (a fixed seed) and
``benchmarks/mutation_soak.py`` (many seeds).
"""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path

import numpy as np
import pandas as pd

#: A corruption: (sheet of text cells, random generator, rows to touch) -> new sheet.
Mutation = Callable[[pd.DataFrame, np.random.Generator, np.ndarray], pd.DataFrame]


def _cells(column: str, change: Callable[[str], str]) -> Mutation:
    def mutate(sheet: pd.DataFrame, _: np.random.Generator, rows: np.ndarray) -> pd.DataFrame:
        out = sheet.copy()
        at = out.index[rows]
        out.loc[at, column] = [change(str(v)) for v in out.loc[at, column]]
        return out
    return mutate


def _rows(change: Callable[[pd.Series], pd.Series]) -> Mutation:
    def mutate(sheet: pd.DataFrame, _: np.random.Generator, rows: np.ndarray) -> pd.DataFrame:
        out = sheet.copy()
        for i in rows:
            out.iloc[i] = change(out.iloc[i].copy())
        return out
    return mutate


def _swap_pairs(row: pd.Series) -> pd.Series:
    row["NS"], row["EW"] = row["EW"], row["NS"]
    return row


def _plays_itself(row: pd.Series) -> pd.Series:
    row["EW"] = row["NS"]
    return row


def _blank_result(row: pd.Series) -> pd.Series:
    for column in ("Contract", "By", "Tricks", "Score", "Lead"):
        row[column] = ""
    return row


def _declarer_in_contract(row: pd.Series) -> pd.Series:
    other = {"N": "E", "E": "S", "S": "W", "W": "N"}
    if row["Contract"].upper() not in ("PASS", ""):
        row["Contract"] = row["Contract"] + other.get(row["By"], "N")
    return row


def _result_in_contract(row: pd.Series) -> pd.Series:
    if row["Contract"].upper() not in ("PASS", "") and row["Tricks"]:
        row["Contract"] = row["Contract"] + "+1"  # beside the Tricks it contradicts
    return row


def _duplicated(sheet: pd.DataFrame, _: np.random.Generator, rows: np.ndarray) -> pd.DataFrame:
    """The rows entered a second time at the end; ``attrs["origin"]`` maps each copy's row
    number to the row it copies (so a copy scored as its original is no surprise)."""
    origin = dict(sheet.attrs.get("origin", {}))
    out = pd.concat([sheet, sheet.iloc[rows]], ignore_index=True)
    for k, i in enumerate(rows.tolist()):
        origin[len(sheet) + k + 2] = origin.get(i + 2, i + 2)
    out.attrs["origin"] = origin
    return out


def _renamed(old: str, new: str) -> Mutation:
    def mutate(sheet: pd.DataFrame, _: np.random.Generator, __: np.ndarray) -> pd.DataFrame:
        return sheet.rename(columns={old: new})
    return mutate


def _swap_columns(a: str, b: str) -> Mutation:
    def mutate(sheet: pd.DataFrame, _: np.random.Generator, rows: np.ndarray) -> pd.DataFrame:
        out = sheet.copy()
        at = out.index[rows]
        out.loc[at, [a, b]] = out.loc[at, [b, a]].to_numpy()
        return out
    return mutate


def _off_by_one(text: str) -> str:
    return str(int(text) + 1) if text.isdigit() else text


def _flip_sign(text: str) -> str:
    return text[1:] if text.startswith("-") else ("-" + text if text not in ("", "0") else text)


MUTATIONS: dict[str, Mutation] = {
    "contract-letter-typo": _cells("Contract", lambda t: t.replace("S", "Z").replace("H", "J")),
    "contract-level-typo": _cells("Contract", lambda t: "8" + t[1:] if t[:1].isdigit() else t),
    "contract-formula": _cells("Contract", lambda t: "=1+" + t),
    "contract-garbage-doubling": _cells("Contract", lambda t: t + "XXX" if t[:1].isdigit() else t),
    "contract-blanked": _cells("Contract", lambda t: ""),
    "contract-lower-case": _cells("Contract", str.lower),
    "contract-padded": _cells("Contract", lambda t: "\u00a0" + t + " "),
    "declarer-typo": _cells("By", lambda t: "M"),
    "declarer-swapped-seat": _cells("By", lambda t: {"N": "E", "E": "S", "S": "W",
                                                     "W": "N"}.get(t, t)),
    "declarer-blanked": _cells("By", lambda t: ""),
    "declarer-word": _cells("By", lambda t: {"N": "North", "E": "East", "S": "South",
                                             "W": "West"}.get(t, t)),
    "tricks-typo": _cells("Tricks", lambda t: t + "0"),
    "tricks-letter-o": _cells("Tricks", lambda t: t.replace("0", "O") if "0" in t else t + "O"),
    "tricks-off-by-one": _cells("Tricks", _off_by_one),
    "tricks-blanked": _cells("Tricks", lambda t: ""),
    "tricks-excel-date": _cells("Tricks", lambda t: f"{t}-Jan" if t else t),
    "tricks-fourteen": _cells("Tricks", lambda t: "14" if t else t),
    "score-sign-flipped": _cells("Score", _flip_sign),
    "score-typo": _cells("Score", lambda t: t.replace("0", "O") if "0" in t else t + "x"),
    "score-blanked": _cells("Score", lambda t: ""),
    "score-unicode-minus": _cells("Score", lambda t: t.replace("-", "\u2212")),
    "score-with-side": _cells("Score", lambda t: f"NS {t}"),
    "board-blanked": _cells("Board", lambda t: ""),
    "board-zero": _cells("Board", lambda t: "0"),
    "board-typo": _cells("Board", lambda t: t + "q"),
    "pair-blanked": _cells("NS", lambda t: ""),
    "pair-text": _cells("EW", lambda t: "x" + t),
    "pair-with-nul": _cells("NS", lambda t: t + "\x00"),
    "pairs-swapped": _rows(_swap_pairs),
    "pair-plays-itself": _rows(_plays_itself),
    "result-blanked": _rows(_blank_result),
    "declarer-twice-disagrees": _rows(_declarer_in_contract),
    "result-twice-disagrees": _rows(_result_in_contract),
    "row-duplicated": _duplicated,
    "tricks-column-renamed": _renamed("Tricks", "Trks"),
    "contract-column-renamed": _renamed("Contract", "Contr act?"),
    "contract-and-lead-swapped": _swap_columns("Contract", "Lead"),
    "tricks-and-board-swapped": _swap_columns("Tricks", "Board"),
}


def corrupted(sheet: pd.DataFrame, kinds: list[str], rng: np.random.Generator,
              per_kind: int) -> pd.DataFrame:
    """``sheet`` with each of ``kinds`` applied to rows of its own (no row twice): a row
    whose every copy of a fact is changed is simply wrong, and no program can tell."""
    order = rng.permutation(len(sheet))
    for k, kind in enumerate(kinds):
        sheet = MUTATIONS[kind](sheet, rng, order[k * per_kind:(k + 1) * per_kind])
    return sheet


def with_scores(path: Path) -> tuple[pd.DataFrame, dict[int, int]]:
    """A correct sheet as text cells with each result's score beside it, and row -> score.

    The Score column is the twin that lets a changed declarer or trick count be
    caught: a sheet that states a fact once can be wrong without a word.
    """
    from traveller import process

    sheet = pd.read_csv(path, dtype=str, keep_default_na=False)
    result = process(path)
    scores = dict(zip(result.travellers["row"].astype(int),
                      result.travellers["ns_score"].astype(int), strict=True))
    sheet["Score"] = [str(scores.get(i + 2, "")) for i in range(len(sheet))]
    return sheet, scores


def trust_failures(sheet: pd.DataFrame, original: dict[int, int], folder: Path,
                   name: str) -> list[str]:
    """What the mutated ``sheet`` got wrong: [] when every promise held.

    Scored without an exception; a workbook written, with a Problems sheet when
    anything is listed; every row (row n of the CSV is data row n-2) either
    scored as in ``original`` or listed on the Problems sheet.
    """
    import openpyxl

    from traveller import process, write_workbook

    path = folder / f"{name}.csv"
    sheet.to_csv(path, index=False)
    result = process(path)
    book = write_workbook(result, folder / f"{name}.xlsx", more_sheets=False)
    failures = []
    if not result.problems.empty:
        opened = openpyxl.load_workbook(book, read_only=True)
        if "Problems" not in opened.sheetnames:
            failures.append("no Problems sheet")
        opened.close()  # (read-only: open until closed)
    scored = dict(zip(result.travellers["row"].astype(int),
                      result.travellers["ns_score"].astype("Int64"), strict=True))
    listed = set(pd.to_numeric(result.problems["row"], errors="coerce").dropna().astype(int))
    origin = sheet.attrs.get("origin", {})
    for row in range(2, len(sheet) + 2):
        if row in listed:
            continue
        was = original.get(origin.get(row, row))
        if row not in scored:
            failures.append(f"row {row} neither scored nor listed")
        elif pd.isna(scored[row]) or int(scored[row]) != was:
            failures.append(f"row {row} scored {scored[row]} (was {was}) without a problem row")
    return failures
