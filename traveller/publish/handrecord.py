"""A session's deals, double dummy and par as the publications print them.

Each publisher takes the same view of the hands: :func:`deals` (board -> the
deal in PBN's ``N:`` form) from the result's ``hands`` frame, else from the
deals the input carried; :func:`dd_grid` the double-dummy table of a board
as rows of seats and strains; :func:`par_line` par in words.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

import pandas as pd

from traveller.schema import SEATS, STRAINS

if TYPE_CHECKING:
    from traveller.result import Result

#: Strains as the grids head them.
STRAIN_HEADINGS = {"C": "♣", "D": "♦", "H": "♥", "S": "♠", "NT": "NT"}


def deals(result: Result) -> dict[int, str]:
    """Board number -> its deal (``N:...``, ``-`` for an unknown hand).

    The hand record's deals where the result has them; a deal the input itself
    wrote is kept as it wrote it (its first seat, say) when it holds the same hands.
    """
    t = result.travellers
    written: dict[int, str] = {}
    if "published_deal" in t and not t.empty:
        found = t[t["published_deal"].notna()].drop_duplicates("board")
        written = dict(zip(found["board"].astype(int), found["published_deal"].astype(str),
                           strict=True))
    hands = getattr(result, "hands", None)
    if hands is None or not len(hands):
        return written
    record = dict(zip(hands["board"].astype(int), hands["deal"].astype(str), strict=True))
    return {board: written[board] if _same_hands(written.get(board), deal) else deal
            for board, deal in record.items()}


def _same_hands(written: str | None, deal: str) -> bool:
    """True when two PBN deals give every seat the same cards (whatever their first seat)."""
    from traveller.tidy.hands import parse_deal

    if not written:
        return False
    a, _ = parse_deal(written)
    b, _ = parse_deal(deal)
    return a is not None and a == b


def dd_tables(result: Result) -> dict[int, dict[tuple[str, str], int]]:
    """Board -> (declarer, strain) -> tricks double dummy, for the boards analysed."""
    dd = getattr(result, "dd", None)
    if dd is None or dd.empty:
        return {}
    out: dict[int, dict[tuple[str, str], int]] = {}
    for board, seat, strain, tricks in zip(dd["board"], dd["declarer"], dd["strain"],
                                           dd["tricks"], strict=True):
        out.setdefault(int(board), {})[(str(seat), str(strain))] = int(tricks)
    return out


def pars(result: Result) -> dict[int, tuple[int, str]]:
    """Board -> (par score from N-S's view, par contracts as ``"4S N; 5DX-2 E"``)."""
    par = getattr(result, "par", None)
    if par is None or par.empty:
        return {}
    return {int(b): (int(s), str(c)) for b, s, c in
            zip(par["board"], par["par_score"], par["par_contract"], strict=True)}


def dd_grid(table: dict[tuple[str, str], int]) -> list[list[str]]:
    """Rows N, S, E, W of the tricks in C D H S NT, as text."""
    return [[seat, *(str(table[(seat, strain)]) for strain in STRAINS)] for seat in "NSEW"]


def par_words(score: int, contracts: str) -> str:
    """Par in words, from the side it favours: "Par N-S +420: 4♠ by N", "Par E-W +100: ..."."""
    shown = []
    for item in contracts.split("; "):
        contract, _, seats = item.partition(" ")
        shown.append(f"{_symbols(contract)} by {'/'.join(seats) if len(seats) == 2 else seats}")
    if score == 0:
        return "Par 0: " + (", ".join(shown) if contracts else "passed out")
    side = "N-S" if score > 0 else "E-W"
    return f"Par {side} +{abs(score)}: " + ", ".join(shown)


def _symbols(contract: str) -> str:
    """ "5DX-2" -> "5♦× −2"; "4S+1" -> "4♠ +1"."""
    for strain in ("NT", "S", "H", "D", "C"):
        if contract[1:].startswith(strain):
            rest = contract[1 + len(strain):].replace("X", "×")
            extra = rest.lstrip("×")
            mark = rest[:len(rest) - len(extra)]
            return (f"{contract[0]}{STRAIN_HEADINGS[strain]}{mark}"
                    + (f" {extra.replace('-', '−')}" if extra else ""))
    return contract


def pbn_par_contract(contracts: str) -> str:
    """Par contracts as PBN's [ParContract] writes them: "NS 4S", "EW 5DX" (; between)."""
    out = []
    for item in contracts.split("; "):
        contract, _, seats = item.partition(" ")
        bare = contract.split("+")[0].split("-")[0]
        out.append(f"{seats} {bare}")
    return "; ".join(out)


def pbn_tags(result: Result, board: int, tables: dict[int, dict[tuple[str, str], int]],
             par: dict[int, tuple[int, str]]) -> list[str]:
    """[OptimumResultTable] with its 20 lines, [OptimumScore] and [ParContract] of a board."""
    out: list[str] = []
    table = tables.get(board)
    if table is not None:
        out.append('[OptimumResultTable "Declarer;Denomination\\2R;Result\\2R"]')
        out += [f"{seat} {strain} {table[(seat, strain)]}" for seat in SEATS for strain in STRAINS]
    if board in par:
        score, contracts = par[board]
        out += [f'[OptimumScore "NS {score}"]', f'[ParContract "{pbn_par_contract(contracts)}"]']
    return out


def hands_rows(result: Result) -> pd.DataFrame:
    """The hands frame with the par and each seat's tricks, one row per board (workbook)."""
    hands = getattr(result, "hands", None)
    return hands if hands is not None else pd.DataFrame()


def vs_dd(travellers: pd.DataFrame, dd: pd.DataFrame | None) -> pd.Series:
    """Each result's tricks against double dummy: "+1", "=", "−2" ("" when not analysed).

    The column is headed "vs DD": "−1" reads "one trick fewer than double dummy".
    """
    t = travellers.reset_index(drop=True)
    blank = pd.Series("", index=t.index, dtype=object)
    if dd is None or dd.empty or t.empty or "tricks" not in t:
        return blank
    strain = t["contract"].astype("string").str.extract(r"^[1-7](NT|[CDHS])", expand=False)
    keys = pd.DataFrame({"board": t["board"].astype("Int64"),
                         "declarer": t["declarer"].astype("string"), "strain": strain})
    found = keys.merge(dd.rename(columns={"tricks": "dd"}), on=["board", "declarer", "strain"],
                       how="left")["dd"]
    off = pd.to_numeric(t["tricks"], errors="coerce") - pd.to_numeric(found, errors="coerce")
    text = off.map(lambda n: "" if pd.isna(n) else "=" if n == 0
                   else f"{'+' if n > 0 else '−'}{abs(int(n))}")
    return text.astype(object)
