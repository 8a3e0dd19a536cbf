"""The pages of a results website as plain data: what each page lists, already formatted.

:func:`site_model` turns a scored :class:`~traveller.result.Result` into
dicts and lists of text for the templates (site.py renders them). The
formatting is done per column (shown.py); the formatted rows are turned into
records once and grouped in order.
"""

from __future__ import annotations

import itertools
from typing import TYPE_CHECKING, Any

import numpy as np
import pandas as pd

from traveller.publish import handrecord, shown
from traveller.publish.cards import result_score_cards
from traveller.score.sides import pair_sides

if TYPE_CHECKING:
    from traveller.result import Result

#: Ranking score column by method, with its heading; the percentage or average beside it.
SCORE_COLUMNS = (("mp", "MP"), ("imps", "IMPs"), ("points", "Points"), ("vp", "VP"))
LINES = {"NS": "N-S", "EW": "E-W", "": ""}


def method_line(result: Result) -> str:
    """The scoring method in words (as the workbook's Ranking sheet says it)."""
    from traveller.publish.titles import method_words

    s = result.settings
    method = str(s.get("method", "mp"))
    movement = "" if method == "teams" else f"; {s.get('movement', '')} movement"
    return f"{method_words(method, s)}{movement}; {s.get('boards', 0)} boards"


def pair_label(section: pd.Series, line: pd.Series, pair: pd.Series) -> pd.Series:
    """ "A NS 3" style keys (section, line, pair) as one text column."""
    return shown.text(section) + "|" + shown.text(line) + "|" + shown.text(pair.astype("Int64"))


def pair_href(section: pd.Series, line: pd.Series, pair: pd.Series) -> pd.Series:
    """The page of each pair: ``pair-[<section>-]<line><number>.html``."""
    sec = shown.text(section).map(shown.slug)
    number = shown.text(pair.astype("Int64"))
    return "pair-" + (sec + "-").where(sec != "", "") + shown.text(line) + number + ".html"


def board_href(frame: pd.DataFrame) -> pd.Series:
    """The page of each board: ``board-[<session>-][<section>-]<number>.html``."""
    session = (shown.text(frame["session"]) + "-") if "session" in frame else ""
    sec = shown.text(frame["section"]).map(shown.slug)
    return ("board-" + session + (sec + "-").where(sec != "", "") + shown.text(frame["board"])
            + ".html")


def _ranking_rows(result: Result) -> tuple[pd.DataFrame, str, str | None]:
    """The ranking formatted, its score column heading and the percentage/average heading."""
    r = result.ranking.reset_index(drop=True)
    score, heading = next(((c, h) for c, h in SCORE_COLUMNS if c in r), ("", ""))
    second = "pct" if "pct" in r else "average" if "average" in r else None
    line = r["line"] if "line" in r else pd.Series("", index=r.index)
    section = r["section"] if "section" in r else pd.Series("", index=r.index)
    pair = r["pair"].astype("Int64") if "pair" in r else r.get("team", r.index.to_series())
    out = pd.DataFrame({
        "section": shown.text(section), "line": shown.text(line),
        "pair": shown.text(pair), "names": shown.text(r.get("names", line)),
        "boards": shown.text(r["boards"]) if "boards" in r else "",
        "score": shown.numbers(r[score]) if score else "",
        "second": shown.percents(r[second]) if second else "",
        "value": pd.to_numeric(r[second], errors="coerce").fillna(0) if second else 0.0,
        "place": shown.text(r["place"]) if "place" in r else "",
        "points": shown.numbers(r["master_points"]) if "master_points" in r else "",
        "href": pair_href(section, line, pair) if "pair" in r else ""})  # teams: no cards
    return out, heading, {"pct": "%", "average": "Average"}.get(second or "")


def ranking_groups(result: Result) -> dict[str, Any]:
    """Ranking tables, one per (section, line): rows and the chart's bars."""
    rows, heading, second = _ranking_rows(result)
    groups = []
    for (section, line), part in rows.groupby(["section", "line"], sort=False):
        title = " ".join(x for x in (f"Section {section}" if section else "", LINES[line]) if x)
        groups.append({"title": title, "rows": part.to_dict("records")})
    return {"groups": groups, "score_heading": heading, "second_heading": second,
            "chart": second == "%", "points": "master_points" in result.ranking}


def _with_links(t: pd.DataFrame, movement: str, known: set[str]) -> pd.DataFrame:
    """N-S and E-W pair links of each traveller row ("" when the pair has no page)."""
    out = {}
    for side, line in (("ns", "NS"), ("ew", "EW")):
        own = line if movement == "mitchell" else ""
        label = pair_label(t["section"], pd.Series(own, index=t.index), t[f"{side}_pair"])
        href = pair_href(t["section"], pd.Series(own, index=t.index), t[f"{side}_pair"])
        out[f"{side}_href"] = href.where(label.isin(known), "")
    return pd.DataFrame(out, index=t.index)


def traveller_rows(result: Result) -> pd.DataFrame:
    """Every result formatted for the board pages, with the board key and links."""
    t = result.travellers.reset_index(drop=True)
    movement = str(result.settings.get("movement", "mitchell"))
    r = result.ranking
    known = set(pair_label(r["section"], r["line"], r["pair"])) if "pair" in r else set()
    ns_plus, ew_plus = shown.signed_sides(t["ns_score"])
    rows = pd.DataFrame({
        "section": shown.text(t["section"]), "board": t["board"].astype("Int64"),
        "ns_pair": shown.text(t["ns_pair"]), "ew_pair": shown.text(t["ew_pair"]),
        "contract": shown.contracts(t["contract"]), "declarer": shown.text(t["declarer"]),
        "result": shown.results(t["contract"], t["tricks"]), "lead": shown.leads(t["lead"]),
        "ns_plus": ns_plus, "ew_plus": ew_plus,
        "ruling": shown.text(t["ruling"]) if "ruling" in t else ""})
    for column in ("ns_mp", "ew_mp", "ns_imp", "ew_imp"):
        if column in t:
            rows[column] = shown.numbers(t[column])
    for column in ("ns_pct", "ew_pct"):
        if column in t:
            rows[column] = shown.percents(t[column])
    if "session" in t:
        rows["session"] = shown.text(t["session"])
    rows["href"] = board_href(rows)
    return pd.concat([rows, _with_links(t, movement, known)], axis=1)


def boards(result: Result, rows: pd.DataFrame) -> list[dict[str, Any]]:
    """One dict per board: number, dealer, vulnerability, hands, DD, par, datum, results.

    With par known, the board's rows get a ``par`` row among them, in N-S score order.
    """
    t = result.travellers.reset_index(drop=True)
    deals, tables, par = handrecord.deals(result), handrecord.dd_tables(result), handrecord.pars(
        result)
    extra = pd.DataFrame({"datum": shown.numbers(t["datum"], signed=True)
                          if "datum" in t else "", "vs_dd": handrecord.vs_dd(t, result.dd),
                          "score_value": pd.to_numeric(t["ns_score"], errors="coerce").to_numpy(
                              dtype=float, na_value=np.nan)},
                         index=t.index)
    keys = ["session", "section", "board"] if "session" in rows else ["section", "board"]
    frame = pd.concat([rows, extra], axis=1).sort_values(keys, kind="stable")
    out = []
    for part in grouped(frame.to_dict("records"), lambda r: tuple(r[k] for k in keys)):
        first = part[0]
        number = int(first["board"])
        dealer, vul = shown.board_conditions(number)
        table, board_par = tables.get(number), par.get(number)
        out.append({"board": number, "section": first["section"],
                    "session": first.get("session", ""), "href": first["href"],
                    "dealer": dealer, "vulnerable": vul,
                    "hands": shown.hands(deals.get(number)),
                    "dd": handrecord.dd_grid(table) if table else None,
                    "strains": list(handrecord.STRAIN_HEADINGS.values()),
                    "par": handrecord.par_words(*board_par) if board_par else "",
                    "datum": first["datum"], "rows": _with_par(part, board_par)})
    return out


def _with_par(rows: list[dict[str, Any]], par: tuple[int, str] | None) -> list[dict[str, Any]]:
    """The board's rows with a par row before the first result that scored less for N-S."""
    if par is None:
        return rows
    score, contracts = par
    plus, minus = (str(score), "") if score > 0 else ("", str(-score)) if score < 0 else ("", "")
    line = {"par": True, "contract": handrecord.par_words(score, contracts).partition(": ")[2],
            "ns_plus": plus, "ew_plus": minus}
    at = next((i for i, r in enumerate(rows)  # (an artificial score has none: NaN, None)
               if r["score_value"] is not None and r["score_value"] < score), len(rows))
    return [*rows[:at], line, *rows[at:]]


def grouped(records: list[dict[str, Any]], key: Any) -> list[list[dict[str, Any]]]:
    """Consecutive records with the same ``key(record)``, as lists (records come sorted)."""
    return [list(part) for _, part in itertools.groupby(records, key=key)]


def score_cards(result: Result) -> pd.DataFrame:
    """Each pair's card formatted: board, cards held, opponents, contract, score, MP or IMPs, %."""
    if "pair" not in result.ranking:  # teams are ranked by match, without pair cards
        return pd.DataFrame()
    cards = result_score_cards(result)
    t = result.travellers.reset_index(drop=True)
    if cards.empty:
        return cards
    if "ns_imp" in t:  # IMP methods: the pair's IMPs on each board, from its side
        sides = pair_sides(t, str(result.settings.get("movement", "mitchell")))
        pos = sides["position"].to_numpy()
        sides["imp"] = np.where(sides["held"] == "NS", t["ns_imp"].to_numpy(dtype=float,
                                na_value=np.nan)[pos], t["ew_imp"].to_numpy(
                                dtype=float, na_value=np.nan)[pos])
        sides["held"] = sides["held"].map({"NS": "N-S", "EW": "E-W"})
        keys = ["section", "line", "pair", "board", "held", "opponent"]
        sides = sides[[*keys, "imp"]].assign(pair=sides["pair"].astype("Int64"),
                                             opponent=sides["opponent"].astype("Int64"))
        cards = cards.merge(sides.drop_duplicates(keys), on=keys, how="left")
    return cards


def card_rows(result: Result, rows: pd.DataFrame) -> pd.DataFrame:
    """The score cards formatted for the pair pages, with links to boards and opponents."""
    c = score_cards(result)
    if c.empty:
        return c
    r = result.ranking
    names = dict(zip(pair_label(r["section"], r["line"], r["pair"]), shown.text(r["names"]),
                     strict=False)) if "names" in r else {}
    other = c["line"].map({"NS": "EW", "EW": "NS"}).fillna("")
    opp_label = pair_label(c["section"], other, c["opponent"])
    out = pd.DataFrame({
        "key": pair_label(c["section"], c["line"], c["pair"]),
        "board": shown.text(c["board"]), "held": shown.text(c["held"]),
        "opponent": shown.text(c["opponent"]), "opponent_names": opp_label.map(names).fillna(""),
        "opponent_href": pair_href(c["section"], other, c["opponent"]).where(
            opp_label.isin(names), ""),
        "contract": shown.contracts(c["contract"]), "declarer": shown.text(c["declarer"]),
        "lead": shown.leads(c["lead"]), "score": shown.numbers(c["score"], signed=True),
        "mp": shown.numbers(c["mp"]), "imp": shown.numbers(c["imp"]) if "imp" in c else "",
        "pct": shown.percents(c["pct"]), "ruling": shown.text(c["ruling"]),
        "value": pd.to_numeric(c["pct"], errors="coerce"),
        "href": board_href(c.assign(board=c["board"].astype("Int64")))})
    return out
