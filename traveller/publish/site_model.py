"""The pages of a results website as plain data: what each page lists, already formatted.

:func:`site_model` turns a scored :class:`~traveller.result.Result` into
dicts and lists of text for the templates (site.py renders them). The
formatting is done per column (shown.py); the formatted rows are turned into
records once and grouped in order.
"""

from __future__ import annotations

import itertools
from collections.abc import Iterator
from typing import TYPE_CHECKING, Any

import markupsafe
import numpy as np
import pandas as pd

from traveller.publish import handrecord, shown
from traveller.publish.headers import event_column, ranking_heading
from traveller.publish.site_links import Field, board_href, pair_href
from traveller.schema import played_vulnerability

if TYPE_CHECKING:
    from traveller.result import Result

#: Ranking score column by method, with its heading; the percentage or average beside it.
SCORE_COLUMNS = (("mp", "MP"), ("imps", "IMPs"), ("points", "Points"), ("vp", "VP"))
LINES = {"NS": "N-S", "EW": "E-W", "": ""}
#: A teams ranking's figures after its VP, headed as on the Ranking sheet.
TEAM_FIGURES = ("matches", "imps_for", "imps_against", "quotient")
#: Those a phone leaves out (the screen keeps the VP and the IMPs won and lost).
FOLDED_ON_A_PHONE = frozenset({"matches", "quotient"})


def _ranking_rows(result: Result) -> tuple[pd.DataFrame, str, str | None]:
    """The ranking formatted, its score column heading and the last column's heading: the
    percentage or average, or an event's Score (what its places follow)."""
    r = result.ranking.reset_index(drop=True)
    score, heading = next(((c, h) for c, h in SCORE_COLUMNS if c in r), ("", ""))
    event = event_column("score", result.settings) if "score" in r else None
    second = "score" if event else "pct" if "pct" in r else "average" if "average" in r \
        else None
    line = r["line"] if "line" in r else pd.Series("", index=r.index)
    section = r["section"] if "section" in r else pd.Series("", index=r.index)
    pair = r["pair"].astype("Int64") if "pair" in r else r.get("team", r.index.to_series())
    out = pd.DataFrame({
        "section": shown.text(section), "line": shown.text(line),
        "pair": shown.text(pair), "names": shown.text(r.get("names", line)),
        "boards": shown.text(r["boards"]) if "boards" in r else "",
        "score": shown.numbers(r[score], together=True) if score else "",
        "factored": (shown.numbers(r["mp_factored"], together=True)
                     if shown.factored_shown(r) else ""),
        "second": (shown.numbers(r[second]) if event == "total" else shown.percents(r[second])
                   ) if second else "",
        "value": pd.to_numeric(r[second], errors="coerce").fillna(0) if second else 0.0,
        # (a card's total %: the pair's own, also where an event places by its Average %)
        "pct": shown.percents(r["pct"]) if "pct" in r else "",
        "place": shown.text(r["place"]) if "place" in r else "",
        "points": shown.numbers(r["master_points"]) if "master_points" in r else "",
        "figures": _figures(r, result.settings),
        "href": pair_href(section, line, pair) if "pair" in r else ""})  # teams: no cards
    last = ranking_heading("score", result.settings) if event else \
        {"pct": "%", "average": "Average"}.get(second or "")
    return out, heading, last


def _figure_columns(ranking: pd.DataFrame, settings: dict[str, Any]
                    ) -> list[tuple[str, str]]:
    """The figures between the score and the last column, each with its cells' class
    ("secondary": folded on a phone): a teams ranking's (:data:`TEAM_FIGURES`); an
    event's %, carry-over (when any) and each session's %; none for another ranking."""
    if "score" in ranking and event_column("score", settings):
        carry = shown.carry_shown(ranking)
        return [(c, "" if c == "pct" else "secondary") for c in ranking
                if c == "pct" or (c == "carry" and carry) or event_column(c, settings)
                == "session"]
    return [(c, "secondary" if c in FOLDED_ON_A_PHONE else "") for c in TEAM_FIGURES
            if c in ranking]


def _figures(ranking: pd.DataFrame, settings: dict[str, Any]) -> list[list[tuple[str, str]]]:
    """Each line's figures (:func:`_figure_columns`) as (text, class) cells; percentages
    to two places."""
    kept = _figure_columns(ranking, settings)
    texts = [(shown.percents(ranking[c]) if c == "pct" or event_column(c, settings)
              else _finite(ranking[c])).tolist() for c, _ in kept]
    folds = [fold for _, fold in kept]
    return [list(zip(line, folds, strict=True)) for line in zip(*texts, strict=True)] \
        if kept else [[] for _ in range(len(ranking))]


def _finite(column: pd.Series) -> pd.Series:
    """Numbers as :func:`shown.numbers` prints them; an infinite one (the IMP quotient of
    a team that lost no IMP) blank, as the Ranking sheet leaves its cell."""
    values = pd.to_numeric(column, errors="coerce")
    return shown.numbers(values.where(~np.isinf(values.to_numpy(dtype=float))))


def ranking_groups(result: Result) -> dict[str, Any]:
    """Ranking tables, one per (section, line): rows and the chart's bars."""
    rows, heading, second = _ranking_rows(result)
    groups = []
    for (section, line), part in rows.groupby(["section", "line"], sort=False):
        title = " ".join(x for x in (f"Section {section}" if section else "", LINES[line]) if x)
        groups.append({"title": title, "rows": part.to_dict("records")})
    names = bool(rows["names"].astype(bool).any())  # (no column of blanks)
    return {"groups": groups, "score_heading": heading, "second_heading": second,
            # (an event's Average % is the figure its places follow)
            "chart": second in ("%", "Average %"), "points": "master_points" in result.ranking,
            "factored": shown.factored_shown(result.ranking), "names": names,
            "who": result.ranked_as.capitalize(),  # Pair, Player or Team
            "figures": [(ranking_heading(c, result.settings), fold)
                        for c, fold in _figure_columns(result.ranking, result.settings)]}


def board_index(result: Result) -> tuple[np.ndarray, list[dict[str, Any]]]:
    """The travellers' row positions in board order, and one small dict per board (its
    key, page, rows ``start:stop`` in that order, the previous and next board's page)."""
    t = result.travellers
    key = pd.DataFrame({"section": shown.text(t["section"]).to_numpy(),
                        "board": t["board"].astype("Int64").to_numpy()})
    if "session" in t:
        key.insert(0, "session", shown.text(t["session"]).to_numpy())
    order = key.sort_values(list(key.columns), kind="stable").index.to_numpy()
    ordered = key.iloc[order].reset_index(drop=True)
    changed = (ordered != ordered.shift()).any(axis=1).to_numpy()
    starts = np.flatnonzero(changed)
    heads = ordered.iloc[starts].reset_index(drop=True)
    hrefs = board_href(heads.astype({"board": "Int64"}))
    stops = [*starts[1:].tolist(), len(ordered)] if len(starts) else []
    out = [{"board": int(h["board"]), "section": h["section"], "session": h.get("session", ""),
            "href": href, "start": int(a), "stop": int(b)}
           for h, href, a, b in zip(heads.to_dict("records"), hrefs, starts, stops, strict=True)]
    for before, after in itertools.pairwise(out):
        before["next"], after["prev"] = after["href"], before["href"]
    return order, out


def board_pages(result: Result, field: Field, order: np.ndarray, index: list[dict[str, Any]],
                chunk: int = 65536, *, has_lead: bool | None = None
                ) -> Iterator[dict[str, Any]]:
    """Each board's page model in board order (its results as finished table rows),
    formatted a chunk of about ``chunk`` results at a time (never every board at once).
    ``has_lead``: :func:`shown.any_lead` of the travellers, when the caller has it."""
    from traveller.publish.site_cells import rows_html, traveller_cells
    from traveller.publish.site_rows import par_html

    deals, tables, pars = handrecord.deals(result), handrecord.dd_tables(result), \
        handrecord.pars(result)
    has_mp, has_imps = "ns_mp" in result.travellers, "ns_imp" in result.travellers
    has_lead = shown.any_lead(result.travellers) if has_lead is None else has_lead
    for part in _chunks(index, chunk):
        offset = part[0]["start"]
        t = result.travellers.iloc[order[offset:part[-1]["stop"]]].reset_index(drop=True)
        datum = shown.numbers(t["datum"], signed=True).to_numpy() if "datum" in t else None
        value = pd.to_numeric(t["ns_score"], errors="coerce").to_numpy(dtype=float,
                                                                       na_value=np.nan)
        html = rows_html(t, traveller_cells(t, field, result.dd, list(tables), has_mp,
                                            has_imps, has_lead))
        for board in part:
            a, b = board["start"] - offset, board["stop"] - offset
            number = board["board"]
            dealer, vul = shown.board_conditions(
                number, played_vulnerability(result.settings, number, board["session"]))
            table, par = tables.get(number), pars.get(number)
            lines = html[a:b]
            if par is not None:
                words = handrecord.par_words(*par).partition(": ")[2]
                plus = (str(par[0]), "") if par[0] > 0 else ("", str(-par[0])) if par[0] < 0 \
                    else ("", "")
                at = par_at(value[a:b], par[0])
                lines.insert(at, par_html(words, *plus, bool(table), has_mp, has_imps,
                                          has_lead))
            yield {**board, "dealer": dealer, "vulnerable": vul,
                   "hands": shown.hands(deals.get(number)),
                   "dd": handrecord.dd_grid(table) if table else None,
                   "strains": list(handrecord.STRAIN_HEADINGS.values()),
                   "par": handrecord.par_words(*par) if par else "",
                   "datum": datum[a] if datum is not None else "",
                   "rows_html": markupsafe.Markup("".join(lines))}  # escaped in site_rows


def par_at(values: np.ndarray, score: int) -> int:
    """Where the par line goes among a board's results: before the first that scored
    less for N-S (an artificial score, NaN, has none and is passed over)."""
    below = np.flatnonzero(~np.isnan(values) & (values < score))
    return int(below[0]) if len(below) else len(values)


def _chunks(index: list[dict[str, Any]], size: int) -> Iterator[list[dict[str, Any]]]:
    """Consecutive boards, as many at a time as make about ``size`` results."""
    part: list[dict[str, Any]] = []
    for board in index:
        part.append(board)
        if board["stop"] - part[0]["start"] >= size:
            yield part
            part = []
    if part:
        yield part


def grouped(records: list[dict[str, Any]], key: Any) -> list[list[dict[str, Any]]]:
    """Consecutive records with the same ``key(record)``, as lists (records come sorted)."""
    return [list(part) for _, part in itertools.groupby(records, key=key)]


_FREQUENCY_HEAD = ('<thead><tr><th scope="col">N-S score</th><th scope="col">Times</th>'
                   '<th scope="col">MP N-S</th><th scope="col">MP E-W</th>'
                   '<th scope="col">% N-S</th><th scope="col">% E-W</th></tr></thead>\n'
                   "<tbody>\n")


def frequency_pages(result: Result, links: dict[tuple[str, int], str],
                 chunk: int = 65536) -> Iterator[dict[str, Any]]:
    """Each board's frequency table, formatted a chunk of rows at a time: its ``html`` is the
    page's whole section for the board (its heading linked to the board's page, its table),
    escaped here."""
    from traveller.publish.cards import result_frequencies
    from traveller.publish.site_cells import frequency_cells, rows_html

    f = result_frequencies(result)
    if f.empty:
        return
    board = f["board"].astype(int).to_numpy()
    section = shown.text(f["section"]).to_numpy()
    starts = np.flatnonzero(np.r_[True, (board[1:] != board[:-1]) | (section[1:] != section[:-1])])
    stops = np.r_[starts[1:], len(f)]
    for at in range(0, len(starts), max(1, chunk // 8)):
        first, last = int(starts[at]), int(stops[min(at + chunk // 8, len(starts)) - 1])
        g = f.iloc[first:last]
        rows = rows_html(g.reset_index(drop=True), frequency_cells())
        for a, b in zip(starts[at:at + chunk // 8], stops[at:at + chunk // 8], strict=True):
            key = (str(section[a]), int(board[a]))
            name = f"{markupsafe.escape(key[0])}{key[1]}"
            yield {"section": key[0], "board": key[1], "href": links.get(key, ""),
                   "html": markupsafe.Markup("".join([
                       '<section class="frequency">\n<h3><a href="',
                       markupsafe.escape(links.get(key, "")), f'">Board {name}</a></h3>\n'
                       f'<table class="frequency">\n<caption>N-S scores of board {name}, how '
                       "often each was scored, and their matchpoints</caption>\n",
                       _FREQUENCY_HEAD, *rows[a - first:b - first],
                       "</tbody>\n</table>\n</section>"]))}
