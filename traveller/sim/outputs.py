"""What a simultaneous pairs publishes: the national ranking and one workbook per club.

- :func:`national_ranking`: every pair of the field, ranked in one list by its
  national percentage (or IMPs per board), with its place in its club beside
  the national place (as the club's own workbook ranks it: within its section
  and line). Clubs may run Mitchells and Howells, so lines do
  not line up across clubs: the list is one, the line is shown.
- :func:`write_club_books`: for each club, the session workbook of
  :func:`traveller.publish.workbook.write_workbook` (Ranking, Travellers,
  Problems, ...) of the club scored on its own, with the national figures
  beside the club's: the pairs' national percentage and place on the Ranking
  sheet, each result's national matchpoints on the Travellers sheet.
- :func:`write_national`: the national ranking as CSV and as a formatted xlsx
  (:mod:`traveller.sim.national_book`), both written a block of rows at a time.
"""

from __future__ import annotations

import copy
import os
import tempfile
from pathlib import Path
from typing import Any

import numpy as np
import pandas as pd

from traveller.publish.csvcells import write_csv
from traveller.read.frames import arrays_of, frame_from
from traveller.score.imps import round_half_away
from traveller.score.rank import places
from traveller.sim.clubs import ClubChunk
from traveller.sim.national_book import write_national_book
from traveller.tidy.arrays import with_columns

#: National columns of a club's travellers: field column -> the club's column, per method
#: (snake_case in the frames; the sheets head them "National N-S MP", ...: publish.headers).
NATIONAL_TRAVELLERS = {
    "mp": {"ns_mp": "national_ns_mp", "ew_mp": "national_ew_mp", "ns_pct": "national_ns_pct",
           "ew_pct": "national_ew_pct", "top": "national_top"},
    "ximp": {"ns_imp": "national_ns_imp", "ew_imp": "national_ew_imp"},
    "butler": {"datum": "national_datum", "ns_imp": "national_ns_imp",
               "ew_imp": "national_ew_imp"},
}
#: Short columns of the national ranking, centred so that neighbours do not run together.
CENTERED = frozenset({"Place", "Line", "Pair", "Boards", "Place in club"})
RANKING_COLUMNS = ["place", "club", "section", "line", "pair", "names", "boards", "national",
                   "club_place"]


def national_header(method: str) -> str:
    """The name of the national figure: a percentage, or IMPs per board."""
    return "National %" if method == "mp" else "National IMPs per board"


def national_column(method: str) -> str:
    """The club ranking's column of the national figure (headed :func:`national_header`)."""
    return "national_pct" if method == "mp" else "national_average"


def national_ranking(totals: pd.DataFrame, pairs: pd.DataFrame, clubs: dict[int, str]
                     ) -> pd.DataFrame:
    """One national list from the pairs' totals (:func:`traveller.sim.field.pair_totals`).

    ``pairs`` gives the names (club_id, section, line, pair, names); ``clubs``
    each club's name by number. Places are shared on equal figures ("2=").
    """
    keys = ["club_id", "section", "line", "pair"]
    own = ["club_place"] if "club_place" in pairs else []
    out = totals.merge(pairs[[*keys, "names", *own]], on=keys, how="left")
    out["names"] = out["names"].astype("string").fillna("")
    out["club"] = out["club_id"].map(clubs).astype("string")
    figure = out["national"].astype(float).fillna(float("-inf"))
    out["place"] = places(figure, pd.Series("", index=out.index))
    # the place in the club's own ranking (its workbook's, within its section and line);
    # where the club gave none, the national figure ranked within the same line
    line = (out["club_id"].astype(str) + "|" + out["section"].astype(str) + "|"
            + out["line"].astype(str))
    within = places(figure, line)
    given = out["club_place"].astype("string") if own else pd.Series(pd.NA, index=out.index,
                                                                      dtype="string")
    out["club_place"] = given.where(given.notna() & given.ne(""), within)
    out["_p"] = out["place"].str.rstrip("=").astype(int)
    out = out.sort_values(["_p", "club", "section", "line", "pair"], kind="stable")
    out = out[["club_id", *RANKING_COLUMNS]].reset_index(drop=True)
    return out.astype({"club_id": "int64", "place": "string", "club": "string",
                       "section": "string", "line": "string", "pair": "int64",
                       "names": "string", "boards": "int64", "national": "float64",
                       "club_place": "string"})


def write_national(ranking: pd.DataFrame, outdir: Path, method: str, title: str) -> list[Path]:
    """The national ranking as ``national_ranking.csv`` and ``national_ranking.xlsx``."""
    shown = ranking.drop(columns="club_id")
    if shown["section"].eq("").all():
        shown = shown.drop(columns="section")
    shown = shown.assign(national=round_half_away(shown["national"].to_numpy(  # as printed
        dtype=float, na_value=np.nan), 2))
    headers = {"place": "Place", "club": "Club", "section": "Section", "line": "Line",
               "pair": "Pair", "names": "Names", "boards": "Boards",
               "national": national_header(method), "club_place": "Place in club"}
    shown = shown.rename(columns=headers)
    csv = outdir / "national_ranking.csv"
    _atomic(csv, lambda tmp: write_csv(shown, tmp))  # (a block of rows at a time)
    xlsx = outdir / "national_ranking.xlsx"
    _atomic(xlsx, lambda tmp: write_national_book(tmp, shown, title, CENTERED, csv.name))
    return [csv, xlsx]


def _atomic(path: Path, write: Any) -> None:
    """Write through a temporary file beside ``path`` and rename it into place."""
    path.parent.mkdir(parents=True, exist_ok=True)
    fd, tmp = tempfile.mkstemp(prefix=f".{path.name}.", suffix=".tmp", dir=path.parent)
    os.close(fd)
    try:
        write(tmp)
        os.chmod(tmp, 0o644)
        os.replace(tmp, path)
    except BaseException:
        Path(tmp).unlink(missing_ok=True)
        raise


def club_result(outcome: Any, rows: pd.DataFrame, ranking: pd.DataFrame, method: str) -> Any:
    """The club's Result with the national figures beside its own (see the module docstring).

    ``rows``: the club's scored field rows (``row_id`` its travellers' rows); ``ranking``:
    its pairs' rows of the national ranking.
    """
    result = copy.copy(outcome.result)
    travellers = result.travellers.reset_index(drop=True)
    where, n = rows["row_id"].to_numpy(dtype=np.int64), len(travellers)
    national = {}
    for c, header in NATIONAL_TRAVELLERS[method].items():  # NaN (no figure) is missing
        full = np.full(n, np.nan)
        full[where] = rows[c].to_numpy(dtype=float, na_value=np.nan)
        national[header] = pd.array(round_half_away(full, 2), dtype="Float64").to_numpy()
    # (one frame of the columns' arrays: no slices of the travellers concatenated)
    columns = arrays_of(travellers)
    names = list(columns)
    at = names.index("ruling_applied") + 1
    result.travellers = frame_from({**{c: columns[c] for c in names[:at]}, **national,
                                    **{c: columns[c] for c in names[at:]}}, travellers.index)
    own = result.ranking.reset_index(drop=True)
    section = own["section"].astype("string").fillna("")
    line = own["line"].astype("string").fillna("")
    pair = own["pair"].astype("int64")
    found = dict(zip(zip(ranking["section"], ranking["line"], ranking["pair"], strict=True),
                     range(len(ranking)), strict=True))  # (a pair once in its club's rows)
    take = np.array([found.get(key, -1) for key in zip(section, line, pair, strict=True)],
                    dtype=np.intp)
    figure, hit = np.full(len(take), np.nan), take >= 0
    figure[hit] = round_half_away(ranking["national"].to_numpy(dtype=float, na_value=np.nan)[
        take[hit]], 2)
    result.ranking = with_columns(own, {
        "section": section.array, "line": line.array, "pair": pair.array,
        national_column(method): figure,
        "national_place": ranking["place"].array.take(take, allow_fill=True)})
    return result


def write_club_books(chunk: ClubChunk, rows: pd.DataFrame, ranking: pd.DataFrame,
                     outdir: str | Path | None, method: str, html: bool = False
                     ) -> list[dict[str, Any]]:
    """Write each scored club's workbook (and its site with ``html``); a summary line each."""
    from traveller.publish.workbook import write_workbook

    lines = []
    for outcome in chunk.outcomes:
        line: dict[str, Any] = {"club": outcome.club, "file": outcome.path, "status": "failed",
                                "results": 0, "pairs": 0, "problems": 0, "workbook": "",
                                "reason": outcome.error or ""}
        path = Path(outdir) / "clubs" / outcome.book if outdir is not None else None
        if outcome.result is None and outcome.listed is not None and path is not None:
            try:  # a file that cannot be read: its Problems sheet says why (still failed)
                write_workbook(outcome.listed, path, more_sheets=False)
                line["workbook"] = str(path)
            except OSError:
                pass
        if outcome.result is not None:
            result = club_result(outcome, rows[rows["club_id"] == outcome.club_id],
                                 ranking[ranking["club_id"] == outcome.club_id], method)
            try:
                if path is not None:
                    write_workbook(result, path)
                    if html:
                        _club_site(result, path)
            except OSError as exc:
                line["reason"] = f"the workbook or site could not be written: {exc}"
            else:
                problems = len(result.problems)
                line.update(status="problems" if problems else "ok",
                            workbook=str(path or ""), results=len(result.travellers),
                            pairs=len(result.ranking), problems=problems)
        lines.append(line)
    return lines


def _club_site(result: Any, book: Path) -> None:
    """The club's session website in a folder named as its workbook, without .xlsx; the
    director's page beside the workbook (``NAME.director.html``), outside the site."""
    from traveller.publish.director_page import director_path, write_director_page
    from traveller.publish.site import write_site

    site = write_site(result, book.with_suffix(""))
    write_director_page(result, director_path(book), site=site)
