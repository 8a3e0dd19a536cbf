"""Board pages filled into frames rendered once (publish/site_frames.py) print exactly what
the board template prints for each page."""

from __future__ import annotations

from typing import Any

import pytest
from conftest import SAMPLE_DATA

from traveller import process
from traveller.publish import site
from traveller.publish.site_frames import BoardFrames


def _pages(result: Any) -> tuple[BoardFrames, list[tuple[str, str]]]:
    """Each board page both ways: (framed, rendered by the template), and the frames."""
    env = site.environment()
    order, index = site.board_index(result)
    strip = site.BoardStrip(index)
    common = site._common(result, site.ranking_groups(result), strip)
    common.pop("boards_nav")
    template = env.get_template("board.html")
    frames = BoardFrames(template, common)
    boards = site.board_pages(result, site.Field.of(result), order, index)
    pages = [(frames.render(b, strip(at)),
              template.render(**common, boards_nav=strip(at), board=b, page="board"))
             for at, b in enumerate(boards)]
    return frames, pages


@pytest.mark.parametrize("name, options", [
    ("club_session.xlsx", {}), ("rulings_session.csv", {"method": "ximp"}),
    ("club_session.csv", {"hands": SAMPLE_DATA / "club_session_hands.pbn", "dd": False})])
def test_every_board_page_is_the_templates_own(name: str, options: Any) -> None:
    result = process(SAMPLE_DATA / name, **options)
    frames, pages = _pages(result)
    assert pages and all(framed == rendered for framed, rendered in pages)
    if "hands" not in options:  # (a board with its hands is the template's every time)
        assert any(f is not None for f in frames.frames.values())  # the frames were used
        assert len(frames.frames) <= 4  # first, middle and last board; no datum here


def test_a_marker_in_the_sessions_own_text_falls_back_to_the_template() -> None:
    result = process(SAMPLE_DATA / "club_session.xlsx")
    result.meta = {**result.meta, "title": "Pairs \x00board\x00 and \x00rows_html\x00"}
    frames, pages = _pages(result)
    assert all(framed == rendered for framed, rendered in pages)
    assert set(frames.frames.values()) == {None}
