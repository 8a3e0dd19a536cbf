"""Write a scored session as PBN 2.1: one game per board with its [ScoreTable], and a
[TotalScoreTable] in the first game.

Columns follow the PBN 2.1 standard's names: ``PairId_NS``, ``PairId_EW``,
``Contract``, ``Declarer``, ``Result`` (tricks taken), ``Lead``, ``Score_NS``
and ``Score_EW`` (the score on the side that made it, ``-`` on the other),
``MP_NS``/``MP_EW`` and ``Percentage_NS``/``Percentage_EW`` (matchpoints), or
``IMP_NS``/``IMP_EW`` (cross-IMPs and Butler, with ``ButlerDatum``); and
``Rank``, ``RankTie``, ``PairId``, ``Direction``, ``TotalScoreMP`` or
``TotalScoreIMP``, ``TotalPercentage``, ``Names``, ``NrBoards`` for the totals.
A ruling is written as the director wrote it in ``Score_NS`` with ``-`` as the
contract, as scoring programs export adjusted scores. Text is quoted with the
standard's escapes (``\\"`` and ``\\\\``); line breaks become spaces. Table
headers keep their lone backslash before the column width, as the standard has it.
"""

from __future__ import annotations

import re
from datetime import datetime
from pathlib import Path
from typing import TYPE_CHECKING

import numpy as np
import pandas as pd

from traveller.publish import shown
from traveller.score.table import DEALERS, VULNERABILITY

if TYPE_CHECKING:
    from traveller.pipeline import Result

SCORING = {"mp": "MatchPoints", "ximp": "IMP;Cross", "butler": "Butler", "total": "Total"}
PBN_VULNERABLE = {(False, False): "None", (True, False): "NS", (False, True): "EW",
                  (True, True): "All"}
DATE_FORMATS = ("%Y-%m-%d", "%Y.%m.%d", "%d/%m/%Y", "%d.%m.%Y", "%d %B %Y", "%d %b %Y")


def quoted(value: object) -> str:
    """A PBN string: in double quotes, with ``\\`` and ``"`` escaped, on one line."""
    text = re.sub(r"[\r\n\t]+", " ", str(value))
    return '"' + text.replace("\\", "\\\\").replace('"', '\\"') + '"'


def pbn_date(text: str | None) -> str:
    """A date in PBN's YYYY.MM.DD form; unknown parts as ``??`` (the text is kept in Event)."""
    for fmt in DATE_FORMATS:
        try:
            return datetime.strptime((text or "").strip(), fmt).strftime("%Y.%m.%d")
        except ValueError:
            continue
    return "????.??.??"


def check_exportable(result: Result, what: str) -> str:
    """The method of a session that can be exported; ValueError for one that cannot."""
    method = str(result.settings.get("method", "mp"))
    if method == "teams" or "session" in result.travellers:
        kind = "a teams match" if method == "teams" else "an event of several sessions"
        raise ValueError(f"{what} export writes one pairs session; {kind} cannot be written "
                         "as one: export each session on its own")
    if what != "PBN" and result.settings.get("individual"):
        raise ValueError(f"{what} export of an individual event is not supported yet (it would "
                         "write each table's partnership as a pair); export it as PBN")
    return method


def _table_frame(result: Result) -> tuple[list[str], pd.DataFrame]:
    """The ScoreTable header columns and one text column per header, for every result."""
    t = result.travellers.reset_index(drop=True)
    ruling = shown.text(t["ruling"]) if "ruling" in t else pd.Series("", index=t.index)
    ruled = ruling != ""
    score = pd.to_numeric(t["ns_score"], errors="coerce")
    dash = pd.Series("-", index=t.index)
    if result.settings.get("individual"):  # the four players, no partnerships
        cols = {f"PlayerId_{seat.title()}\\2R": shown.text(t[seat])
                for seat in ("north", "south", "east", "west")}
    else:
        cols = {"PairId_NS\\2R": shown.text(t["ns_pair"]),
                "PairId_EW\\2R": shown.text(t["ew_pair"])}
    cols |= {
        "Contract\\5L": shown.text(t["contract"]).where(~ruled, "-").replace("", "-"),
        "Declarer\\1R": shown.text(t["declarer"]).replace("", "-"),
        "Result\\2R": shown.text(t["tricks"]).replace("", "-"),
        "Lead\\3L": shown.text(t["lead"]).replace("", "-"),
        "Score_NS\\6R": shown.numbers(score).where(score >= 0, "-").where(~ruled, ruling),
        "Score_EW\\6R": shown.numbers(-score).where(score < 0, "-").where(~ruled, dash)}
    if "ns_mp" in t:
        cols |= {"MP_NS\\5R": shown.numbers(t["ns_mp"]), "MP_EW\\5R": shown.numbers(t["ew_mp"]),
                 "Percentage_NS\\3R": shown.percents(t["ns_pct"]),
                 "Percentage_EW\\3R": shown.percents(t["ew_pct"])}
    if "ns_imp" in t:
        cols |= {"IMP_NS\\6R": shown.numbers(t["ns_imp"]), "IMP_EW\\6R": shown.numbers(t["ew_imp"])}
    if "datum" in t:
        cols["ButlerDatum\\5R"] = shown.numbers(t["datum"])
    frame = pd.DataFrame(cols).replace("", "-")
    frame["Contract\\5L"] = frame["Contract\\5L"].map(quoted)
    frame["Score_NS\\6R"] = frame["Score_NS\\6R"].where(~ruled, frame["Score_NS\\6R"].map(quoted))
    return list(cols), frame


def _lines(frame: pd.DataFrame) -> pd.Series:
    """Each row's fields joined by spaces (one ScoreTable or TotalScoreTable line)."""
    joined = frame.iloc[:, 0].astype(str)
    for column in frame.columns[1:]:
        joined = joined + " " + frame[column].astype(str)
    return joined


def total_table(result: Result) -> list[str]:
    """The [TotalScoreTable] tag and its lines: rank, pair, line, total, %, names, boards."""
    r = result.ranking.reset_index(drop=True)
    place = shown.text(r["place"])
    tie = place.str.endswith("=")
    total = "TotalScoreMP" if "mp" in r else "TotalScoreIMP" if "imps" in r else "TotalScore"
    value = r["mp"] if "mp" in r else r["imps"] if "imps" in r else r.get("points", r["boards"])
    cols = {"Rank\\2R": place.str.rstrip("="), "RankTie\\1R": np.where(tie, "T", "-"),
            ("PlayerId\\2R" if result.settings.get("individual") else "PairId\\2R"):
                shown.text(r["pair"])}
    if shown.text(r["section"]).ne("").any():
        cols = {"Section\\2L": shown.text(r["section"]).map(quoted), **cols}
    cols |= {"Direction\\5R": shown.text(r["line"]).map({"NS": '"N-S"', "EW": '"E-W"'}).fillna("-"),
             f"{total}\\7R": shown.numbers(value)}
    if "pct" in r:
        cols["TotalPercentage\\5R"] = shown.percents(r["pct"])
    cols |= {"Names\\40L": shown.text(r["names"]).map(quoted),
             "NrBoards\\2R": shown.text(r["boards"])}
    frame = pd.DataFrame(cols).replace("", "-")
    return [f"[TotalScoreTable \"{';'.join(cols)}\"]", *_lines(frame)]


def pbn_text(result: Result) -> str:
    """The whole PBN file as text."""
    from traveller import __version__

    method = check_exportable(result, "PBN")
    meta = result.meta
    header, frame = _table_frame(result)
    lines = _lines(frame)
    t = result.travellers.reset_index(drop=True)
    deal = shown.text(t["published_deal"]) if "published_deal" in t else None
    out = ["% PBN 2.1", "% EXPORT", f'% <META name=Generator content="traveller {__version__}">']
    if meta.get("status"):
        out.append(f'% <META name=Status content="{meta["status"].replace(chr(34), "")}">')
    out.append("")
    keys = pd.DataFrame({"section": shown.text(t["section"]), "board": t["board"].astype(int)})
    for n, ((section, number), index) in enumerate(
            keys.groupby(["section", "board"], sort=False).indices.items()):
        out += [f"[Event {quoted(meta.get('title', 'Results'))}]",
                f"[Site {quoted(meta.get('club', ''))}]",
                f"[Date {quoted(pbn_date(meta.get('date')))}]"]
        if section:
            out.append(f"[Section {quoted(section)}]")
        out += [f'[Board "{number}"]', f'[Dealer "{DEALERS[(number - 1) % 4]}"]',
                f'[Vulnerable "{PBN_VULNERABLE[VULNERABILITY[(number - 1) % 16]]}"]']
        found = next((d for d in deal.iloc[index] if d), "") if deal is not None else ""
        if found:
            out.append(f"[Deal {quoted(found)}]")
        out.append(f"[Scoring {quoted(SCORING.get(method, method))}]")
        if n == 0:
            out += total_table(result)
        out += [f"[ScoreTable \"{';'.join(header)}\"]", *lines.iloc[index], ""]
    return "\n".join(out) + "\n"


def write_pbn(result: Result, path: str | Path) -> Path:
    """Write the session as a PBN 2.1 file (UTF-8) at ``path``, atomically.

    >>> write_pbn(process("sample_data/club_session.csv"), "results.pbn")  # doctest: +SKIP
    """
    from traveller.batch.manifest import write_atomic

    return write_atomic(Path(path), pbn_text(result))
