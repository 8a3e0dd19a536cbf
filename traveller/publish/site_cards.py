"""The pair pages of a results website as plain data: each pair's score card, formatted.

The cards of every pair are worked out once as one frame (two rows a result);
:func:`pair_pages` formats them a chunk of pairs at a time, in the order of
the ranking, so the text of every card is never held at once.
"""

from __future__ import annotations

import itertools
from collections.abc import Iterator
from typing import TYPE_CHECKING, Any

import markupsafe
import numpy as np
import pandas as pd

from traveller.publish import shown
from traveller.publish.cards import result_score_cards
from traveller.publish.site_links import Field, pair_label
from traveller.publish.site_model import LINES

if TYPE_CHECKING:
    from traveller.result import Result


def card_spans(result: Result) -> tuple[pd.DataFrame, dict[str, tuple[int, int]]]:
    """Every pair's score card as one frame, and where each pair's rows are in it (by
    ``section|line|pair``)."""
    cards = result_score_cards(result)  # (an IMP method's: the pair's IMPs, ``imp``)
    spans: dict[str, tuple[int, int]] = {}
    if not cards.empty:
        keys = pair_label(cards["section"], cards["line"], cards["pair"]).to_numpy()
        starts = np.flatnonzero(np.r_[True, keys[1:] != keys[:-1]])
        stops = np.r_[starts[1:], len(keys)]
        spans = {keys[a]: (int(a), int(b)) for a, b in zip(starts, stops, strict=True)}
    return cards, spans


def pair_pages(result: Result, field: Field, groups: dict[str, Any],
               chunk: int = 65536, *, only: tuple[int, int] | None = None,
               cards: tuple[pd.DataFrame, dict[str, tuple[int, int]]] | None = None,
               has_lead: bool | None = None,
               boards: dict[str, list[str]] | None = None) -> Iterator[dict[str, Any]]:
    """Each ranked pair's page model (its ranking row and card rows), in ranking order;
    ``only=(a, b)``: the pairs at positions a to b-1 of that order. ``cards`` is
    :func:`card_spans` of the result, ``has_lead`` :func:`shown.any_lead` of its
    travellers, ``boards`` :func:`field_boards` of the cards, when the caller has them
    already."""
    if "pair" not in result.ranking:
        return
    frame, spans = card_spans(result) if cards is None else cards
    # the cells the page's headings have (a card has an mp and an imp column whatever the
    # method; the travellers say which figures the method gives)
    figures = ("ns_mp" in result.travellers, "ns_imp" in result.travellers,
               shown.any_lead(result.travellers) if has_lead is None else has_lead)
    boards = field_boards(frame) if boards is None else boards
    part: list[dict[str, Any]] = []
    size = 0
    rows: Iterator[dict[str, Any]] = (row for group in groups["groups"]
                                      for row in group["rows"])
    for row in rows if only is None else itertools.islice(rows, *only):
        part.append(row)
        a, b = spans.get(f"{row['section']}|{row['line']}|{row['pair']}", (0, 0))
        size += b - a
        if size >= chunk:
            yield from _formatted(part, frame, spans, field, figures, boards)
            part, size = [], 0
    yield from _formatted(part, frame, spans, field, figures, boards)


def field_boards(cards: pd.DataFrame) -> dict[str, list[str]]:
    """Each section's boards in order, as the pages label them: a pair's chart leaves a
    gap where it has no result, so its bars stand over the board numbers they are for."""
    from traveller.publish.site_cells import board_label

    if cards.empty:
        return {}
    key = ["section", "session", "board"] if "session" in cards else ["section", "board"]
    played = cards[key].drop_duplicates().sort_values(key, kind="stable")
    labels = board_label(played).to_numpy(dtype=object)
    section = shown.text(played["section"]).to_numpy(dtype=object)
    return {s: [str(b) for b in labels[section == s]] for s in dict.fromkeys(section)}


def _formatted(part: list[dict[str, Any]], cards: pd.DataFrame,
               spans: dict[str, tuple[int, int]], field: Field,
               figures: tuple[bool, bool, bool],
               field_boards: dict[str, list[str]]) -> Iterator[dict[str, Any]]:
    from traveller.publish.site_cells import board_label, card_cells, rows_html, spread
    from traveller.publish.site_rows import card_chart, card_rows_html, chart_block

    if not part:
        return
    ranges = [spans.get(f"{r['section']}|{r['line']}|{r['pair']}", (0, 0)) for r in part]
    positions = np.concatenate([np.arange(a, b) for a, b in ranges])
    c = cards.iloc[positions].reset_index(drop=True) if len(positions) else None
    if c is not None:
        first, held_cell, last = card_cells(c, field, *figures)
        codes: dict[str, Any] = {}  # each column's values factorised once for every cell
        board, opponents = (spread(c, *cell, codes).tolist() for cell in first)
        sat, rest = spread(c, *held_cell, codes).tolist(), rows_html(c, last, codes=codes)
        held = spread(c, ["held"], lambda s: shown.text(s["held"]), codes)
        values = pd.to_numeric(c["pct"], errors="coerce").to_numpy(dtype=float, na_value=np.nan)
        boards = spread(c, ["session", "board"] if "session" in c else ["board"], board_label,
                        codes)
        pcts = spread(c, ["pct"], lambda s: shown.percents(s["pct"]), codes)
    at = 0
    for row, (a, b) in zip(part, ranges, strict=True):
        label = " ".join(x for x in (row["section"], LINES[row["line"]], row["pair"]) if x)
        page: dict[str, Any] = {**row, "label": label, "played": b - a, "held": False,
                                "rows_html": "", "chart_html": "",
                                "chart_block": chart_block(b - a)}
        if b > a and c is not None:
            i, j = at, at + b - a
            page["held"] = len(set(held[i:j])) > 1  # a Howell: the pair changed lines
            page["rows_html"] = markupsafe.Markup(card_rows_html(  # escaped there
                board[i:j], opponents[i:j], sat[i:j], rest[i:j], held[i:j], page["held"]))
            page["chart_html"] = markupsafe.Markup(card_chart(
                values[i:j], boards[i:j], pcts[i:j],
                field_boards.get(row["section"])))  # (a ranking row's section is text)
        yield page
        at += b - a
