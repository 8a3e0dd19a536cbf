"""The workbook's ``Hands`` sheet: the hand record as clubs hand it out, two boards a page.

Each board is a block of :data:`BLOCK` rows: the board number, dealer and
vulnerability; the four hands in a compass (North above, West and East
beside, South below); the double-dummy grid (declarer by strain) beside the
diagram; par under it. Rows are written in order (the workbook may be in
constant-memory mode); page breaks fall between every second board, the
sheet prints one page wide in portrait.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from traveller.publish import handrecord
from traveller.publish.shown import vulnerability_words
from traveller.schema import board_dealer, board_vulnerability, played_vulnerability

if TYPE_CHECKING:
    from traveller.result import Result

#: Rows a board takes, its blank row after it included.
BLOCK = 15
#: Boards printed on one page.
PER_PAGE = 2
_SUITS = ("♠", "♥", "♦", "♣")
_RED_SUITS = ("♥", "♦")
#: The red of the hearts and diamonds (the website's).
RED = "#C0142B"
_WIDTHS = [16, 2, 16, 2, 16, 3, 4, 4, 4, 4, 4, 4]
#: Column of each seat's hand, and its first row in the block.
_PLACE = {"N": (2, 1), "W": (0, 5), "E": (4, 5), "S": (2, 9)}
_SEATS = {"N": "north", "E": "east", "S": "south", "W": "west"}


def has_hands(result: Result) -> bool:
    """True when the result has a deal to print."""
    return bool(handrecord.deals(result))


def block_cells(board: int, deal: str, table: dict[tuple[str, str], int] | None,
                par: tuple[int, str] | None, vulnerable: str | None = None
                ) -> dict[int, dict[int, str | int]]:
    """Row in the block -> column -> value, for one board (``vulnerable``: PBN's word for
    the vulnerability it was played at, by default its number's)."""
    cells: dict[int, dict[int, str | int]] = {r: {} for r in range(BLOCK)}
    vul = vulnerability_words(vulnerable or board_vulnerability(board))
    cells[0] = {0: f"Board {board}", 2: f"Dealer {board_dealer(board)}, vulnerable {vul}"}
    hands = dict(zip("NESW", deal.partition(":")[2].split(), strict=False))
    for seat, (col, first) in _PLACE.items():
        hand = hands.get(seat, "-")
        suits = hand.split(".") if hand != "-" else ["?"] * 4
        for i, (symbol, cards) in enumerate(zip(_SUITS, suits, strict=True)):
            cells[first + i][col] = f"{symbol} {cards.replace('T', '10') or '—'}"
    if table is not None:
        cells[1].update({6 + i: h for i, h in enumerate(["", "♣", "♦", "♥", "♠", "NT"])})
        for r, row in enumerate(handrecord.dd_grid(table), start=2):
            cells[r].update({6 + i: int(v) if i else v for i, v in enumerate(row)})
    if par is not None:
        cells[13][0] = handrecord.par_words(*par)
    return cells


def write_hands_sheet(book: Any, st: dict[str, Any], header: tuple[str, str],
                      result: Result) -> Any:
    """Write the Hands sheet (every board with a deal); the worksheet."""
    sheet = book.add_worksheet("Hands")
    for j, width in enumerate(_WIDTHS):
        sheet.set_column(j, j, width)
    bold = st.get("hand_title") or book.add_format({"bold": True, "font_size": 12})
    red = book.add_format({"font_color": RED})  # hearts and diamonds, as on the pages
    deals, tables, pars = handrecord.deals(result), handrecord.dd_tables(result), handrecord.pars(
        result)
    breaks = []
    for n, board in enumerate(sorted(deals)):
        top = n * BLOCK
        if n and n % PER_PAGE == 0:
            breaks.append(top)
        for r, row in block_cells(board, deals[board], tables.get(board), pars.get(board),
                                  played_vulnerability(result.settings, board)).items():
            for col, value in sorted(row.items()):
                style = bold if r == 0 or (r == 13 and col == 0) else None
                if isinstance(value, int):
                    sheet.write_number(top + r, col, value, style)
                elif value[:1] in _RED_SUITS and style is None:
                    if len(value) == 1:  # a heading of the double-dummy table
                        sheet.write_string(top + r, col, value, red)
                    else:  # the suit's symbol red, its cards as they are
                        sheet.write_rich_string(top + r, col, red, value[:1], value[1:])
                elif value:
                    sheet.write_string(top + r, col, value, style)
    if breaks:
        sheet.set_h_pagebreaks(breaks)
    sheet.set_portrait()
    sheet.fit_to_pages(1, 0)
    sheet.print_area(0, 0, max(len(deals) * BLOCK - 1, 0), len(_WIDTHS) - 1)
    sheet.set_header(header[0])
    sheet.set_footer(header[1] or "&L&A&RPage &P of &N")
    return sheet
