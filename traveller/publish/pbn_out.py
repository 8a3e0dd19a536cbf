"""Write a scored session as PBN 2.1 in the standard's export format: one game per
board with its [ScoreTable], and a [TotalScoreTable] in the first game.

Every game has the mandatory tags in the standard's order (``Event``, ``Site``,
``Date``, ``Board``, ``West``, ``North``, ``East``, ``South``, ``Dealer``,
``Vulnerable``, ``Deal``, ``Scoring``, ``Declarer``, ``Contract``, ``Result``),
empty where unknown as Ruter writes them (a score table has no one contract).
Lines end in CRLF and the text is ISO-8859-1, PBN's character set, declared
in a ``%Content-type`` line; characters it lacks are written as their nearest
Latin-1 form (:func:`latin1`).

Columns follow the standard's names: ``PairId_NS``, ``PairId_EW``,
``Contract`` (``Pass`` for a passed-out board), ``Declarer``, ``Result``
(tricks taken), ``Lead``, ``Score_NS`` and ``Score_EW`` (the score on the side
that made it, ``-`` on the other), ``MP_NS``/``MP_EW`` and
``Percentage_NS``/``Percentage_EW`` (matchpoints), or ``IMP_NS``/``IMP_EW``
(cross-IMPs and Butler, with ``ButlerDatum``); and ``Rank``, ``RankTie``
(``-``, or the last place of a shared range: ``25 26``), ``PairId``,
``Direction``, ``TotalScoreMP`` or ``TotalScoreIMP``, ``TotalPercentage``,
``Names``, ``NrBoards`` for the totals. A ruling goes in both score columns,
``-`` as the contract: an artificial score as each side's marker (``A+`` 60 %,
``A=`` 50 %, ``A-`` 40 %, else ``55%``), any other ruling as written. Text is
quoted with the standard's escapes (``\\"`` and ``\\\\``); line breaks become
spaces. Table headers keep their lone backslash before the column width.
"""

from __future__ import annotations

import re
import unicodedata
from pathlib import Path
from typing import TYPE_CHECKING

import numpy as np
import pandas as pd

from traveller.publish import handrecord, shown
from traveller.publish.dates import DATE_SOURCES, parse_date, session_date
from traveller.publish.pbn_cells import quoted
from traveller.schema import played_vulnerability
from traveller.score.table import DEALERS

if TYPE_CHECKING:
    from traveller.result import Result

SCORING = {"mp": "MatchPoints", "ximp": "IMP;Cross", "butler": "Butler", "total": "Total"}
CHARSET = "ISO-8859-1"
#: Characters outside Latin-1 that have a usual stand-in (others lose their accents).
FALLBACKS = {"–": "-", "—": "-", "‒": "-", "−": "-", "‘": "'", "’": "'",
                           "‚": "'", "“": '"', "”": '"', "„": '"', "…": "...", "•": "*",
                           "ł": "l", "Ł": "L", "đ": "d", "Đ": "D", "ı": "i", "œ": "oe",
                           "Œ": "OE", "€": "EUR", "♠": "S", "♥": "H", "♦": "D", "♣": "C"}
_SIDE_MARK = {60.0: "A+", 50.0: "A=", 40.0: "A-"}


def latin1(text: str) -> str:
    """``text`` in ISO-8859-1: dashes and quotes as ASCII, ``ą ń ś`` as ``a n s``, a
    character with no Latin-1 form as ``?`` (as the standard has readers show it)."""
    try:
        text.encode("latin-1")
    except UnicodeEncodeError:  # only the characters outside Latin-1 are looked at
        return _OUTSIDE.sub(lambda m: _nearest(m.group(0)), text)
    return text


_OUTSIDE = re.compile(r"[^\x00-\xff]")


def _nearest(char: str) -> str:
    """A character outside Latin-1 as its stand-in, its letter without accents, else ``?``."""
    if char in FALLBACKS:
        return str(FALLBACKS[char])
    base = "".join(c for c in unicodedata.normalize("NFKD", char) if not unicodedata.combining(c))
    return base if base and all(ord(c) < 256 for c in base) else "?"


def pbn_date(text: str | None) -> str:
    """A date in PBN's YYYY.MM.DD form; unknown parts as ``??`` (the text is kept in Event)."""
    found = parse_date(text)
    return f"{found:%Y.%m.%d}" if found else "????.??.??"


def not_exportable(result: Result, what: str) -> str | None:
    """Why ``what`` ("PBN" or "USEBIO") cannot hold the result; None when it can."""
    if "session" in result.travellers:
        return (f"{what} holds one session; an event of several sessions is not written as "
                "one file: export each session on its own")
    return None


def check_exportable(result: Result, what: str) -> str:
    """The method of a session that can be exported; ValueError (with the reason) if not."""
    reason = not_exportable(result, what)
    if reason is not None:
        raise ValueError(reason)
    return str(result.settings.get("method", "mp"))


def side_markers(t: pd.DataFrame) -> tuple[pd.Series, pd.Series]:
    """Each ruled line's Score_NS and Score_EW texts ("" for a played result)."""
    ruling = shown.text(t["ruling"]) if "ruling" in t else pd.Series("", index=t.index)
    ns, ew = ruling.copy(), ruling.copy()
    if "ruling_kind" in t:
        average = (t["ruling_kind"] == "average").to_numpy(dtype=bool, na_value=False)
        for side, award in ((ns, t["ns_award"]), (ew, t["ew_award"])):
            value = pd.to_numeric(award, errors="coerce").astype(float)
            mark = value.map(_SIDE_MARK).fillna(shown.numbers(value) + "%")
            side[average] = mark[average]
    return ns, ew


def _table_frame(result: Result) -> tuple[list[str], pd.DataFrame]:
    """The ScoreTable header columns and one text column per header, for every result."""
    t = result.travellers.reset_index(drop=True)
    ns_mark, ew_mark = side_markers(t)
    ruled = ns_mark != ""
    score = pd.to_numeric(t["ns_score"], errors="coerce")
    contract = shown.text(t["contract"]).replace("PASS", "Pass")
    if result.settings.get("individual"):  # the four players, no partnerships
        cols = {f"PlayerId_{seat.title()}\\2R": shown.text(t[seat])
                for seat in ("north", "south", "east", "west")}
    else:
        cols = {"PairId_NS\\2R": shown.text(t["ns_pair"]),
                "PairId_EW\\2R": shown.text(t["ew_pair"])}
    cols |= {
        "Contract\\5L": contract.where(~ruled, "-").replace("", "-"),
        "Declarer\\1R": shown.seats(t["declarer"]).replace("", "-"),
        "Result\\2R": shown.text(t["tricks"]).replace("", "-"),
        "Lead\\3L": shown.text(t["lead"]).replace("", "-"),
        "Score_NS\\6R": shown.numbers(score).where(score >= 0, "-").where(~ruled, ns_mark),
        "Score_EW\\6R": shown.numbers(-score).where(score < 0, "-").where(~ruled, ew_mark)}
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
    for column in ("Score_NS\\6R", "Score_EW\\6R"):
        frame[column] = frame[column].where(~ruled, frame[column].map(quoted))
    return list(cols), frame


def _lines(frame: pd.DataFrame) -> pd.Series:
    """Each row's fields joined by spaces (one ScoreTable or TotalScoreTable line)."""
    joined = frame.iloc[:, 0].astype(str)
    for column in frame.columns[1:]:
        joined = joined + " " + frame[column].astype(str)
    return joined


def rank_columns(r: pd.DataFrame) -> tuple[pd.Series, pd.Series]:
    """Rank and RankTie as Ruter writes them: ``25`` and ``26`` for two pairs sharing
    25th-26th place, ``-`` as RankTie for a place of one's own."""
    place = shown.text(r["place"])
    rank = place.str.rstrip("=")
    shared = pd.DataFrame({"s": shown.text(r["section"]), "l": shown.text(r["line"]),
                           "p": rank}).groupby(["s", "l", "p"])["p"].transform("size")
    first = pd.to_numeric(rank, errors="coerce")
    last = (first + shared - 1).astype("Int64").astype(str)
    tie = np.asarray(place.str.endswith("=") & (shared > 1) & first.notna())
    return rank, pd.Series(np.where(tie, last, "-"), index=r.index)


def total_table(result: Result) -> list[str]:
    """The [TotalScoreTable] tag and its lines: rank, pair, line, total, %, names, boards."""
    r = result.ranking.reset_index(drop=True)
    total = "TotalScoreMP" if "mp" in r else "TotalScoreIMP" if "imps" in r else "TotalScore"
    value = r["mp"] if "mp" in r else r["imps"] if "imps" in r else r.get("points", r["boards"])
    rank, tie = rank_columns(r)
    cols = {"Rank\\2R": rank, "RankTie\\2R": tie,
            ("PlayerId\\2R" if result.settings.get("individual") else "PairId\\2R"):
                shown.text(r["pair"])}
    if shown.text(r["section"]).ne("").any():
        cols = {"Section\\2L": shown.text(r["section"]).map(quoted), **cols}
    cols |= {"Direction\\5R": shown.text(r["line"]).map({"NS": '"N-S"', "EW": '"E-W"'}).fillna("-"),
             f"{total}\\7R": shown.numbers(value)}
    if "pct" in r:
        cols["TotalPercentage\\5R"] = shown.percents(r["pct"])
    cols |= {"Names\\40L": shown.text(r["names"]).str.replace(" – ", " - ").map(quoted),
             "NrBoards\\2R": shown.text(r["boards"])}
    frame = pd.DataFrame(cols).replace("", "-")
    return [f"[TotalScoreTable \"{';'.join(cols)}\"]", *_lines(frame)]


def header_lines(result: Result) -> list[str]:
    """The escape lines above the games: version, export format, character set, generator."""
    from traveller import __version__

    _, source = session_date(result)
    out = ["% PBN 2.1", "% EXPORT", f"%Content-type: text/x-pbn; charset={CHARSET}",
           f'% <META name=Generator content="traveller {__version__}">',
           f"% Date: {DATE_SOURCES[source]}"]
    if result.meta.get("status"):
        out.append(f'% <META name=Status content="{result.meta["status"].replace(chr(34), "")}">')
    return [*out, ""]


def pbn_text(result: Result) -> str:
    """The whole PBN file as text (CRLF line ends, only Latin-1 characters)."""
    method = check_exportable(result, "PBN")
    meta = result.meta
    day, _ = session_date(result)
    event = [f"[Event {quoted(meta.get('title', 'Results'))}]",
             f"[Site {quoted(meta.get('club', ''))}]",
             f"[Date {quoted(f'{day:%Y.%m.%d}' if day else '????.??.??')}]"]
    out = header_lines(result)
    if method == "teams":
        from traveller.publish.pbn_teams import teams_games

        return latin1("\r\n".join(out + teams_games(result, event)) + "\r\n")
    header, frame = _table_frame(result)
    lines = _lines(frame)
    t = result.travellers.reset_index(drop=True)
    # the deals of the hand record (or of the input), their double dummy tables and par
    deals, tables = handrecord.deals(result), handrecord.dd_tables(result)
    par = handrecord.pars(result)
    keys = pd.DataFrame({"section": shown.text(t["section"]), "board": t["board"].astype(int)})
    for n, ((section, number), index) in enumerate(
            keys.groupby(["section", "board"], sort=False).indices.items()):
        out += [*event, f'[Board "{number}"]',
                '[West ""]', '[North ""]', '[East ""]', '[South ""]',
                f'[Dealer "{DEALERS[(number - 1) % 4]}"]',
                f'[Vulnerable "{played_vulnerability(result.settings, number)}"]']
        out += [f"[Deal {quoted(deals.get(number, ''))}]",
                f"[Scoring {quoted(SCORING.get(method, method))}]",
                '[Declarer ""]', '[Contract ""]', '[Result ""]']
        if section:
            out.append(f"[Section {quoted(section)}]")
        out += handrecord.pbn_tags(result, number, tables, par)
        if n == 0:
            out += total_table(result)
        out += [f"[ScoreTable \"{';'.join(header)}\"]", *lines.iloc[index], ""]
    return latin1("\r\n".join(out) + "\r\n")


def write_pbn(result: Result, path: str | Path) -> Path:
    """Write the session as a PBN 2.1 file (ISO-8859-1, CRLF) at ``path``, atomically.

    >>> write_pbn(process("sample_data/club_session.xlsx"), "results.pbn")  # doctest: +SKIP
    """
    from traveller.batch.manifest import write_atomic

    return write_atomic(Path(path), pbn_text(result).encode(CHARSET))
