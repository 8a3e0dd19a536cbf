"""Board pages filled into a frame rendered once, instead of a template render each.

A large session has thousands of board pages that differ only in a few
values: the board's number and section, its neighbours' links, dealer and
vulnerability, the rows of its traveller and the navigation strip. The
board template is rendered once per page shape (which of the optional parts
a page has) with a marker in place of each value; each page is then the
frame's text with its values, escaped as the template escapes them, in the
markers' places. The first page of each shape is also rendered by the
template and compared: a shape whose frame would print anything else (a
marker met in the session's own texts) is rendered by the template for
every page. A board with its hands or double-dummy table (loops in the
template) is always rendered by the template.
"""

from __future__ import annotations

import re
from typing import Any

import jinja2
import markupsafe

#: The values a board page's frame leaves open.
FIELDS = ("section", "board", "session", "prev", "next", "dealer", "vulnerable", "datum",
          "rows_html", "boards_nav")
#: Those the template asks about (the page's shape): open in the frame only when set.
SHAPE = ("session", "prev", "next", "datum")
_MARK = "\x00{}\x00"
_MARKS = re.compile("\x00([a-z_]+)\x00")


class BoardFrames:
    """Renders board pages (``render``) from frames made once per page shape."""

    def __init__(self, template: jinja2.Template, common: dict[str, Any]) -> None:
        self.template, self.common = template, common
        self.frames: dict[tuple[bool, ...], list[str] | None] = {}

    def render(self, board: dict[str, Any], nav: markupsafe.Markup) -> str:
        """The page of ``board`` with navigation strip ``nav``."""
        if board.get("hands") or board.get("dd"):
            return self._rendered(board, nav)
        shape = tuple(bool(board.get(k)) for k in SHAPE)
        if shape not in self.frames:  # this page by the template, and the shape's frame
            page = self._rendered(board, nav)
            self.frames[shape] = self._frame(board, nav, page)
            return page
        pieces = self.frames[shape]
        if pieces is None:  # this shape's frame cannot be trusted: the template each time
            return self._rendered(board, nav)
        return _filled(pieces, board, nav)

    def _rendered(self, board: dict[str, Any], nav: markupsafe.Markup) -> str:
        return self.template.render(**self.common, boards_nav=nav, board=board, page="board")

    def _frame(self, board: dict[str, Any], nav: markupsafe.Markup,
               page: str) -> list[str] | None:
        """The frame of ``board``'s shape, as literal texts and field names in turn; None
        when filling it would not print ``page``, what the template prints for ``board``."""
        marked: dict[str, Any] = {k: _MARK.format(k) for k in FIELDS
                                  if k not in SHAPE or board.get(k)}
        marked.update({k: "" for k in ("session", "datum") if k not in marked},
                      hands=None, dd=None, strains=board.get("strains", []), par="")
        framed = self.template.render(**self.common, boards_nav=markupsafe.Markup(
            _MARK.format("boards_nav")), board=marked, page="board")
        pieces = _MARKS.split(framed)
        if any(name not in FIELDS for name in pieces[1::2]) or \
                _filled(pieces, board, nav) != page:
            return None
        return pieces


def _filled(pieces: list[str], board: dict[str, Any], nav: markupsafe.Markup) -> str:
    """The frame's texts with each field's value, escaped as autoescaping does."""
    out = []
    for i, piece in enumerate(pieces):
        if i % 2 == 0:
            out.append(piece)
        else:
            out.append(str(markupsafe.escape(nav if piece == "boards_nav" else board[piece])))
    return "".join(out)
