"""The pair pages of a results website as plain data: each pair's score card, formatted.

The cards of every pair are worked out once as one frame (two rows a result);
:func:`pair_pages` formats them a chunk of pairs at a time, in the order of
the ranking, so the text of every card is never held at once.
"""

from __future__ import annotations

from collections.abc import Iterator
from typing import TYPE_CHECKING, Any

import markupsafe
import numpy as np
import pandas as pd

from traveller.publish import shown
from traveller.publish.cards import result_score_cards
from traveller.publish.site_model import LINES, Field, board_href, pair_href, pair_label
from traveller.score.sides import pair_sides

if TYPE_CHECKING:
    from traveller.result import Result


def score_cards(result: Result) -> pd.DataFrame:
    """Each pair's card: board, cards held, opponents, contract, score, MP or IMPs, %."""
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


def card_rows(c: pd.DataFrame, field: Field) -> pd.DataFrame:
    """Score card rows (a slice of :func:`score_cards`) formatted, with links."""
    c = c.reset_index(drop=True)
    other = c["line"].map({"NS": "EW", "EW": "NS"}).fillna("")
    opp_label = pair_label(c["section"], other, c["opponent"])
    return pd.DataFrame({
        "board": shown.text(c["board"]), "held": shown.text(c["held"]),
        "opponent": shown.text(c["opponent"]),
        "opponent_names": opp_label.map(field.names).astype(object).fillna(""),
        "opponent_href": pair_href(c["section"], other, c["opponent"]).where(
            opp_label.isin(field.known), ""),
        "contract": shown.contracts(c["contract"]), "declarer": shown.text(c["declarer"]),
        "result": shown.text(c["result"]) if "result" in c else "",
        "lead": shown.leads(c["lead"]), "score": shown.numbers(c["score"], signed=True),
        "mp": shown.numbers(c["mp"]), "imp": shown.numbers(c["imp"]) if "imp" in c else "",
        "pct": shown.percents(c["pct"]), "ruling": shown.text(c["ruling"]),
        "value": pd.to_numeric(c["pct"], errors="coerce"),
        "href": board_href(c.assign(board=c["board"].astype("Int64")))})


def pair_pages(result: Result, field: Field, groups: dict[str, Any],
               chunk: int = 4096) -> Iterator[dict[str, Any]]:
    """Each ranked pair's page model (its ranking row and card rows), in ranking order."""
    if "pair" not in result.ranking:
        return
    cards = score_cards(result)
    spans: dict[str, tuple[int, int]] = {}
    if not cards.empty:
        keys = pair_label(cards["section"], cards["line"], cards["pair"]).to_numpy()
        starts = np.flatnonzero(np.r_[True, keys[1:] != keys[:-1]])
        stops = np.r_[starts[1:], len(keys)]
        spans = {keys[a]: (int(a), int(b)) for a, b in zip(starts, stops, strict=True)}
    part: list[dict[str, Any]] = []
    size = 0
    for group in groups["groups"]:
        for row in group["rows"]:
            part.append(row)
            a, b = spans.get(f"{row['section']}|{row['line']}|{row['pair']}", (0, 0))
            size += b - a
            if size >= chunk:
                yield from _formatted(part, cards, spans, field)
                part, size = [], 0
    yield from _formatted(part, cards, spans, field)


def _formatted(part: list[dict[str, Any]], cards: pd.DataFrame,
               spans: dict[str, tuple[int, int]], field: Field) -> Iterator[dict[str, Any]]:
    from traveller.publish.site_rows import card_chart, card_html, held_fold

    if not part:
        return
    ranges = [spans.get(f"{r['section']}|{r['line']}|{r['pair']}", (0, 0)) for r in part]
    positions = np.concatenate([np.arange(a, b) for a, b in ranges])
    rows = card_rows(cards.iloc[positions], field) if len(positions) else None
    if rows is not None:
        front, sat, rest = card_html(rows, "mp" in cards, "imp" in cards)
        held = rows["held"].to_numpy(dtype=object)
        values = rows["value"].to_numpy(dtype=float, na_value=np.nan)
        boards, pcts = rows["board"].to_numpy(), rows["pct"].to_numpy()
    at = 0
    for row, (a, b) in zip(part, ranges, strict=True):
        label = " ".join(x for x in (row["section"], LINES[row["line"]], row["pair"]) if x)
        page: dict[str, Any] = {**row, "label": label, "played": b - a, "held": False,
                                "rows_html": "", "chart_html": ""}
        if b > a and rows is not None:
            i, j = at, at + b - a
            page["held"] = len(set(held[i:j])) > 1  # a Howell: the pair changed lines
            cells = held_fold(front[:, i:j], held[i:j], page["held"])
            cells = np.strings.add(np.strings.add(cells, sat[i:j]) if page["held"] else cells,
                                   rest[i:j])
            page["rows_html"] = markupsafe.Markup("".join(cells.tolist()))  # escaped there
            page["chart_html"] = markupsafe.Markup(card_chart(values[i:j], boards[i:j],
                                                              pcts[i:j]))
        yield page
        at += b - a
