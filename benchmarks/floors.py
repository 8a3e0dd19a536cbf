"""The independent references of bench_end_to_end.py (they import nothing of traveller's).

    python benchmarks/floors.py naive IN.xlsx OUT.xlsx
    python benchmarks/floors.py lean IN.xlsx OUT.xlsx
    python benchmarks/floors.py writers IN.xlsx FOLDER   # ours vs commit f254d0e's writer

The input is the generated session of bench_pipeline.py: Board, NS, EW,
Contract (e.g. ``4S``, ``3NTX``, ``PASS``), By, Tricks.
"""

from __future__ import annotations

import subprocess
import sys
import time
from pathlib import Path

import numpy as np
import pandas as pd

# Vulnerability by board, (board - 1) % 16: 0 none, 1 N-S, 2 E-W, 3 both.
VUL = np.array([0, 1, 2, 3, 1, 2, 3, 0, 2, 3, 0, 1, 3, 0, 1, 2])
FIRST = {"C": 20, "D": 20, "H": 30, "S": 30, "NT": 40}
NEXT = {"C": 20, "D": 20, "H": 30, "S": 30, "NT": 30}


def one_score(level: int, strain: str, doubled: int, vul: bool, tricks: int) -> int:
    """Declarer's score by the Laws, written out plainly (for the per-row scorer)."""
    if level == 0:
        return 0
    need = level + 6
    if tricks < need:
        down = need - tricks
        if doubled == 0:
            return -(100 if vul else 50) * down
        steps = [200, 300, 300] if vul else [100, 200, 200]
        pen = sum(steps[min(i, 2)] if i < 3 else 300 for i in range(down))
        return -pen * (2 if doubled == 2 else 1)
    mult = 2 ** doubled
    below = (FIRST[strain] + NEXT[strain] * (level - 1)) * mult
    score = below + ((500 if vul else 300) if below >= 100 else 50)
    score += {6: 750 if vul else 500, 7: 1500 if vul else 1000}.get(level, 0)
    score += 50 * doubled
    over = tricks - need
    score += over * (NEXT[strain] if doubled == 0 else (200 if vul else 100) * doubled)
    return score


def parse(frame: pd.DataFrame) -> pd.DataFrame:
    """Level, strain, doubled from the contract strings (distinct values parsed once)."""
    contract = frame["Contract"].astype(str).str.upper().str.strip()
    distinct = pd.Series(contract.unique())
    parts = distinct.str.extract(r"^([1-7])(NT|[CDHS])(X{0,2})$")
    table = pd.DataFrame({"level": pd.to_numeric(parts[0]).fillna(0).astype(int).to_numpy(),
                          "strain": parts[1].fillna("").to_numpy(),
                          "doubled": parts[2].fillna("").str.len().to_numpy()},
                         index=distinct.to_numpy())
    out = table.reindex(contract.to_numpy()).reset_index(drop=True)
    out["board"] = pd.to_numeric(frame["Board"]).astype(int).to_numpy()
    out["ns"] = pd.to_numeric(frame["NS"]).astype(int).to_numpy()
    out["ew"] = pd.to_numeric(frame["EW"]).astype(int).to_numpy()
    out["by"] = frame["By"].astype(str).to_numpy()
    out["tricks"] = pd.to_numeric(frame["Tricks"], errors="coerce").fillna(0).astype(int).to_numpy()
    out["contract"] = contract.to_numpy()
    return out


def scores_vectorised(p: pd.DataFrame) -> np.ndarray:
    """N-S scores from a table of every (level, strain, doubled, vul, tricks) by one_score."""
    strains = ["C", "D", "H", "S", "NT"]
    table = np.zeros((8, 5, 3, 2, 14), dtype=np.int64)
    for lv in range(1, 8):
        for s, name in enumerate(strains):
            for d in range(3):
                for v in range(2):
                    for t in range(14):
                        table[lv, s, d, v, t] = one_score(lv, name, d, bool(v), t)
    strain = p["strain"].map({s: i for i, s in enumerate(strains)}).fillna(0).astype(int)
    ns_side = p["by"].isin(["N", "S"]).to_numpy()
    vul_code = VUL[(p["board"].to_numpy() - 1) % 16]
    vul = np.where(ns_side, np.isin(vul_code, [1, 3]), np.isin(vul_code, [2, 3])).astype(int)
    score = table[p["level"].to_numpy(np.intp), strain.to_numpy(np.intp),
                  p["doubled"].to_numpy(np.intp), vul, p["tricks"].clip(0, 13).to_numpy(np.intp)]
    return np.where(ns_side, score, -score)


def ranking(p: pd.DataFrame) -> pd.DataFrame:
    ns = p.groupby("ns")["ns_mp"].agg(["sum", "count"]).assign(line="NS")
    ew = p.groupby("ew")["ew_mp"].agg(["sum", "count"]).assign(line="EW")
    both = pd.concat([ns, ew]).rename_axis("pair").reset_index()
    both["pct"] = 100 * both["sum"] / (both["count"] * p["top"].mean())
    return both.sort_values(["line", "pct"], ascending=[False, False])


def naive(src: str, out: str) -> None:
    frame = pd.read_excel(src, engine="openpyxl", dtype=str)
    p = parse(frame)
    p["ns_score"] = p.apply(lambda r: _row_score(r), axis=1)
    p["ns_mp"] = (p.groupby("board")["ns_score"].rank(method="average") - 1) * 2
    p["top"] = p.groupby("board")["ns_score"].transform("size") * 2 - 2
    p["ew_mp"] = p["top"] - p["ns_mp"]
    with pd.ExcelWriter(out, engine="openpyxl") as writer:
        ranking(p).to_excel(writer, sheet_name="Ranking", index=False)
        p.to_excel(writer, sheet_name="Travellers", index=False)


def _row_score(r: pd.Series) -> int:
    ns_side = r["by"] in ("N", "S")
    code = VUL[(r["board"] - 1) % 16]
    vul = code in (1, 3) if ns_side else code in (2, 3)
    s = one_score(int(r["level"]), r["strain"], int(r["doubled"]), bool(vul), int(r["tricks"]))
    return s if ns_side else -s


def lean(src: str, out: str) -> None:
    from python_calamine import CalamineWorkbook

    rows = CalamineWorkbook.from_path(src).get_sheet_by_index(0).to_python()
    frame = pd.DataFrame(rows[1:], columns=rows[0]).astype(str)
    frame["Tricks"] = frame["Tricks"].str.replace(r"\.0$", "", regex=True)
    for c in ("Board", "NS", "EW"):
        frame[c] = frame[c].str.replace(r"\.0$", "", regex=True)
    p = parse(frame)
    p["ns_score"] = scores_vectorised(p)
    order = np.lexsort((p["ns_score"].to_numpy(), p["board"].to_numpy()))
    p = p.iloc[order].reset_index(drop=True)
    p["ns_mp"] = (p.groupby("board")["ns_score"].rank(method="average") - 1) * 2
    p["top"] = p.groupby("board")["ns_score"].transform("size") * 2 - 2
    p["ew_mp"] = p["top"] - p["ns_mp"]
    cards = pd.concat([
        p[["ns", "board", "ew", "contract", "by", "ns_score", "ns_mp"]].set_axis(
            ["pair", "board", "opponent", "contract", "by", "score", "mp"], axis=1),
        p[["ew", "board", "ns", "contract", "by", "ns_score", "ew_mp"]].set_axis(
            ["pair", "board", "opponent", "contract", "by", "score", "mp"], axis=1)
        .assign(score=lambda f: -f["score"])]).sort_values(["pair", "board"], kind="stable")
    freq = p.groupby(["board", "ns_score"]).agg(count=("ns", "size"), ns_mp=("ns_mp", "first"),
                                                ew_mp=("ew_mp", "first")).reset_index()
    sheets = [("Ranking", ranking(p)), ("Travellers", p), ("Score cards", cards),
              ("Frequencies", freq)]
    _write_fastest(sheets, out)


def _write_fastest(sheets: list[tuple[str, pd.DataFrame]], out: str) -> None:
    try:
        import rustpy_xlsxwriter as rx
    except ImportError:
        import xlsxwriter

        book = xlsxwriter.Workbook(out, {"constant_memory": True})
        bold = book.add_format({"bold": True})
        for name, frame in sheets:
            sheet = book.add_worksheet(name)
            sheet.write_row(0, 0, list(frame.columns), bold)
            for i, row in enumerate(frame.itertuples(index=False), 1):
                sheet.write_row(i, 0, row)
            sheet.freeze_panes(1, 0)
            sheet.autofilter(0, 0, len(frame), len(frame.columns) - 1)
        book.close()
        return
    rx.write_worksheets(sheets, out, bold_headers=True, freeze_panes={"general": {"row": 1}},
                        autofilter={"general": True})


def writers(src: str, folder: str) -> None:
    """Our writer and the writer of commit f254d0e on one scored session (this one imports us)."""
    import importlib.util

    from traveller import process
    from traveller.publish.workbook import write_workbook

    old_source = subprocess.run(["git", "show", "f254d0e:traveller/publish/workbook.py"],
                                capture_output=True, text=True, check=True,
                                cwd=Path(__file__).resolve().parent).stdout
    old_path = Path(folder) / "old_workbook.py"
    old_path.write_text(old_source, encoding="utf-8")
    spec = importlib.util.spec_from_file_location("old_workbook", old_path)
    assert spec and spec.loader
    old = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(old)
    result = process(src)
    clock = time.perf_counter()
    old.write_workbook(result, Path(folder) / "old.xlsx")
    before = time.perf_counter() - clock
    clock = time.perf_counter()
    write_workbook(result, Path(folder) / "new.xlsx")
    now = time.perf_counter() - clock
    clock = time.perf_counter()
    write_workbook(result, Path(folder) / "full.xlsx", row_limit=10**9)
    full = time.perf_counter() - clock
    print(f"writer: f254d0e's {before:.2f} s, ours {now:.2f} s: {before / now:.2f}x faster"
          f"   (goal >= 5x; sheets over 50,000 rows as CSV)")
    print(f"writer, every sheet in the xlsx (row budget lifted): {full:.2f} s: "
          f"{before / full:.2f}x faster than f254d0e's")


if __name__ == "__main__":
    {"naive": naive, "lean": lean, "writers": writers}[sys.argv[1]](sys.argv[2], sys.argv[3])
