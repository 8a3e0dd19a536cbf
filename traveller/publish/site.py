"""A static results website for one session: ranking, boards, pairs, frequencies.

``write_site(result, folder)`` writes plain HTML pages and one stylesheet:

- ``index.html``: the ranking (names, score, %, places, ties as ``2=``), the
  method line, a bar chart of the field's percentages and links to every board;
- ``board-<section>-<n>.html``: links to the previous and next board, dealer,
  vulnerability, the hands when the input has them, and each result: the
  pairs with their names, contract in suit symbols, declarer, lead, result,
  N-S + and E-W + scores, matchpoints (or IMPs) and percentages;
- ``pair-<section>-<line><n>.html``: the pair's score card with opponents'
  names, a chart of its board-by-board percentages, and its total;
- ``frequencies.html``: each board's scores, how often, their matchpoints.

The director's page is not part of the site: it is written beside the
workbook (:mod:`traveller.publish.director_page`).

Pages are rendered by Jinja2 with autoescaping (every text from the input
shows as text; the long tables are built escaped in :mod:`site_rows`), need
no JavaScript, load nothing from elsewhere (works from a USB stick or
``file://``), fit a 390 px phone without sideways scrolling and print without
navigation. They are written one at a time from chunks of the scored frames
(never every page at once) into a temporary folder beside ``folder``, which
is then swapped in; a large session's pages are shared with a second, forked
process (:class:`SiteWriter`), each page the same as one process writes.
"""

from __future__ import annotations

import collections
import concurrent.futures
import functools
import os
import shutil
import signal
import tempfile
from collections.abc import Callable, Collection, Iterator
from importlib import resources
from pathlib import Path
from typing import TYPE_CHECKING, Any

import jinja2
import markupsafe

from traveller.publish import shown
from traveller.publish.forked import Lost
from traveller.publish.headers import event_figure
from traveller.publish.meta import META_KEYS
from traveller.publish.site_cards import card_spans, field_boards, pair_pages
from traveller.publish.site_frames import BoardFrames
from traveller.publish.site_links import Field, pair_label
from traveller.publish.site_model import (
    board_index,
    board_pages,
    frequency_pages,
    ranking_groups,
)
from traveller.publish.titles import method_line
from traveller.tidy.few_boards import ranked_on_few

if TYPE_CHECKING:
    import numpy as np

    from traveller.publish.forked import BothEnds, Forked
    from traveller.result import Result

    #: A session's board index (``site_model.board_index``: the travellers' order by
    #: board, and each board's entry), when a caller has made it already.
    Index = tuple[np.ndarray, list[dict[str, Any]]]

STYLESHEET = "style.css"
#: Marks a folder as a site written here, so that only such a folder is ever replaced.
MARKER = ".traveller-site"


@functools.cache
def environment() -> jinja2.Environment:
    """The template environment: package templates, autoescaping on, strict variables."""
    env = jinja2.Environment(loader=jinja2.PackageLoader("traveller.publish", "templates"),
                             autoescape=True, undefined=jinja2.StrictUndefined,
                             trim_blocks=True, lstrip_blocks=True,
                             auto_reload=False)  # package files: no stat per page
    env.filters["suits"] = suit_markup
    env.filters["counted"] = shown.counted
    return env


def suit_markup(value: object) -> markupsafe.Markup:
    """Escape a text, then colour its red suit symbols (hearts, diamonds)."""
    html = str(markupsafe.escape(str(value)))  # escaped first: only our span is markup
    for symbol in ("♥", "♦"):
        html = html.replace(symbol, f'<span class="red">{symbol}</span>')
    return markupsafe.Markup(html)


def _common(result: Result, groups: dict[str, Any], strip: BoardStrip) -> dict[str, Any]:
    """What every page of the site is rendered with."""
    t = result.travellers
    common = {"meta": {k: result.meta.get(k, "") for k in META_KEYS},
              "method": method_line(result), "boards": strip.index,
              "stylesheet": STYLESHEET, "score_heading": groups["score_heading"],
              "event_figure": event_figure(result.ranking, result.settings),
              "has_imps": "ns_imp" in t, "has_mp": "ns_mp" in t, "sessions": "session" in t,
              "has_lead": shown.any_lead(t),
              "freq": "ns_mp" in t and "session" not in t and len(t) > 0,
              "who": result.ranked_as.capitalize()}  # Pair, Player or Team
    common["boards_nav"] = strip(None)  # once: board pages get their own
    return common


#: Sessions with at most this many boards list every board in each page's navigation.
NAV_ALL = 64
#: Otherwise a board page lists this many boards either side of its own.
NAV_AROUND = 8


class BoardStrip:
    """The navigation's board links: all of them, or (a long session) the first, the last
    and those around the page's own board, which is marked; each board's link is made
    once, for every page that lists it."""

    def __init__(self, index: list[dict[str, Any]]) -> None:
        self.index = index
        self.links = [(f'<a href="{b["href"]}"', f'>{markupsafe.escape(_board_label(b))}</a>')
                      for b in index]
        self.all = len(index) <= NAV_ALL
        self.plain = [start + end for start, end in self.links]  # (a board page's strip
        self.unique = len({b["href"] for b in index}) == len(index)  # from these: _around)

    def __call__(self, at: int | None) -> markupsafe.Markup:
        """The strip of the page of the board at position ``at`` in the index (None: of a
        page that is no board's)."""
        n = len(self.index)
        if at is not None and not self.all and self.unique:
            return self._around(at)
        if self.all:
            keep = list(range(n))
        else:
            near = range(max(0, (at or 0) - NAV_AROUND), min(n, (at or 0) + NAV_AROUND + 1))
            keep = sorted({0, n - 1, *near})
        current = self.index[at]["href"] if at is not None else ""
        links = []
        for before, here in zip([None, *keep], keep, strict=False):
            if before is not None and here - before > 1:
                links.append(_GAP)
            mark = ' aria-current="page"' if self.index[here]["href"] == current else ""
            start, end = self.links[here]
            links.append(start + mark + end)
        return _strip(links, len(keep), n)

    def _around(self, at: int) -> markupsafe.Markup:
        """What :meth:`__call__` gives for the board at ``at`` of a long session, made
        from the links' finished texts (a few slices a page instead of a loop)."""
        n, gap = len(self.index), _GAP
        lo, hi = max(0, at - NAV_AROUND), min(n, at + NAV_AROUND + 1)
        start, end = self.links[at]
        links = ([self.plain[0], *([gap] if lo > 1 else [])] if lo > 0 else [])
        links += [*self.plain[lo:at], f'{start} aria-current="page"{end}',
                  *self.plain[at + 1:hi]]
        if hi < n:
            links += [*([gap] if hi < n - 1 else []), self.plain[n - 1]]
        return _strip(links, hi - lo + (lo > 0) + (hi < n), n)


#: Where a board strip leaves boards out.
_GAP = '<span class="gap">…</span>'


def _strip(links: list[str], listed: int, n: int) -> markupsafe.Markup:
    """A board strip of ``links`` (``listed`` of the session's ``n`` boards; a link to
    them all when some are left out)."""
    more = "" if listed == n else f' <a href="index.html#boards">all {n} boards</a>'
    return markupsafe.Markup(f'<span class="boards-nav">Boards:\n{" ".join(links)}{more}\n'
                             "</span>")


def _board_label(board: dict[str, Any]) -> str:
    label = f"{board['session']}/" if board["session"] else ""
    return label + str(board["section"]) + str(board["board"])


#: The parts of a site, in the order they are written: the ranking page, the board pages,
#: the pair pages and the frequencies page.
PARTS = ("ranking", "boards", "pairs", "frequencies")


#: A unit of the board or pair pages (``("boards" or "pairs", first, stop)``: positions
#: in the board index or the ranking), or None when there are no more.
Unit = tuple[str, int, int]


def iter_pages(result: Result, parts: Collection[str] = PARTS,
               claim: Callable[[], Unit | None] | None = None, indexed: Index | None = None
               ) -> Iterator[tuple[str, str | Iterator[str]]]:
    """Every page of the site in turn (of the ``parts`` named only: :data:`PARTS`): (file
    name, its HTML, or its HTML in pieces for a page that streams as it renders).

    With ``claim``, the board and pair pages are those of the units (:func:`units`)
    that ``claim()`` gives, until it gives None, after the ranking and frequencies
    pages of ``parts``. Each page is rendered from a small model made just before
    it (a chunk of boards or pairs is formatted at a time), so the site is never
    held whole. A page is the same whichever pages are rendered with it. ``indexed`` is
    the session's board index when the caller has it.
    """
    env = environment()
    field = Field.of(result)
    order, index = board_index(result) if indexed is None else indexed
    groups = ranking_groups(result)
    strip = BoardStrip(index)
    common = _common(result, groups, strip)
    links = {(b["section"], b["board"]): b["href"] for b in index}
    frames: list[BoardFrames] = []  # made once, at the first board page
    cards: list[Any] = []  # the score cards, made once, at the first pair page

    def boards(first: int, stop: int) -> Iterator[tuple[str, str]]:
        if not frames:
            frames.append(BoardFrames(env.get_template("board.html"),
                                      {k: v for k, v in common.items() if k != "boards_nav"}))
        for at, board in enumerate(board_pages(result, field, order, index[first:stop],
                                               has_lead=common["has_lead"]), start=first):
            yield board["href"], frames[0].render(board, strip(at))

    def pairs(only: tuple[int, int] | None) -> Iterator[tuple[str, str]]:
        pair_page = env.get_template("pair.html")
        if only is None:
            found = pair_pages(result, field, groups)
        else:
            if not cards:  # (made once for every unit of pairs)
                cards.append(card_spans(result))
                cards.append(field_boards(cards[0][0]))
            found = pair_pages(result, field, groups, only=only, cards=cards[0],
                               has_lead=common["has_lead"], boards=cards[1])
        for pair in found:
            yield pair["href"], pair_page.render(**common, pair=pair, page="pair", links=links)

    def frequencies() -> Iterator[tuple[str, Iterator[str]]]:
        if common["freq"] and "frequencies" in parts:
            yield "frequencies.html", env.get_template("frequencies.html").generate(
                **common, frequencies=frequency_pages(result, links), page="frequencies")

    if "ranking" in parts:
        yield "index.html", env.get_template("ranking.html").render(
            **common, ranking=groups, page="ranking", notes=_ranking_notes(result))
    if claim is None:
        if "boards" in parts:
            yield from boards(0, len(index))
        if "pairs" in parts:
            yield from pairs(None)
        yield from frequencies()
        return
    yield from frequencies()  # one page, not shared: first, then the units
    for kind, first, stop in iter(claim, None):
        yield from boards(first, stop) if kind == "boards" else pairs((first, stop))


#: A unit of shared pages holds about this many results (a run of boards), or score-card
#: rows (a run of pairs): the chunk the pages are formatted in (smaller units shared the
#: work more evenly but cost more than they saved: each chunk formats its distinct cells
#: once, and the cost per page grew by half at 4,096).
UNIT_RESULTS = 65536


def _ranking_notes(result: Result) -> list[str]:
    """Lines under the ranking: a page with nothing ranked says why there is no table (a
    blank page looked like a broken site); each pair placed on far fewer boards than the
    field says so."""
    if result.ranking.empty and result.travellers.empty:
        return ["No result could be scored from the travellers, so there is no ranking yet: "
                "the director has the list of what to fix."]
    return ranked_on_few(result.problems)


def units(result: Result, boards: Index | None = None) -> list[Unit]:
    """The board pages in runs of consecutive boards, then the pair pages in runs of
    pairs (ranking order), each about :data:`UNIT_RESULTS` results or card rows
    (``boards``: the session's board index when the caller has it)."""
    _, index = board_index(result) if boards is None else boards
    out: list[Unit] = []
    first = 0
    for at, board in enumerate(index):
        if board["stop"] - index[first]["start"] >= UNIT_RESULTS or at == len(index) - 1:
            out.append(("boards", first, at + 1))
            first = at + 1
    if "pair" in result.ranking and len(result.ranking):
        pairs = len(result.ranking)
        each = max(1, UNIT_RESULTS * pairs // max(1, 2 * len(result.travellers)))
        out += [("pairs", a, min(a + each, pairs)) for a in range(0, pairs, each)]
    return out


def pages_count(result: Result, parts: Collection[str] = PARTS) -> int:
    """How many pages :func:`iter_pages` gives (the ranking, boards, pairs, frequencies)."""
    t = result.travellers
    keys = [k for k in ("session", "section", "board") if k in t]
    boards = len(t[keys].drop_duplicates()) if len(t) and "boards" in parts else 0
    pairs = len(result.ranking) if "pair" in result.ranking and "pairs" in parts else 0
    return (int("ranking" in parts) + boards + pairs
            + int("ns_mp" in t and "session" not in t and "frequencies" in parts))


def site_pages(result: Result) -> dict[str, str]:
    """Every page of the site: file name -> HTML text (for tests and small sessions; a
    large session is written page by page by :func:`write_site`)."""
    return {name: pieces if isinstance(pieces, str) else "".join(pieces)
            for name, pieces in iter_pages(result)}


def write_site(result: Result, folder: str | Path,
               progress: Callable[[int, int], None] | None = None, *,
               jobs: int | None = 1) -> Path:
    """Write the session's website into ``folder`` (replaced as a whole); returns it.

    The pages are written one at a time into a temporary folder beside
    ``folder``, which then takes its place. ``progress(pages_done, pages_total)``
    is called after each page. ``jobs=2`` writes about half the pages in a
    second process meanwhile (Linux; the same pages), ``None`` does so for a
    large session on a machine with two cores or more (:class:`SiteWriter`).

    >>> write_site(process("sample_data/club_session.xlsx"), "site")  # doctest: +SKIP
    """
    with SiteWriter(result, folder, jobs=jobs) as writer:
        return writer.finish(progress)


#: A session of at least this many results has half its pages written in a second
#: process when the jobs are left to the site (``jobs=None``): below it the site takes
#: well under a second.
PARALLEL_FROM = 10_000
#: The pages the second process writes before it shares the board and pair pages
#: (:func:`units`) with this one.
SECOND = ("ranking", "frequencies")


def site_jobs(result: Result, jobs: int | None) -> int:
    """The processes a site is written by: 2 (a second one forked: Linux, a session with
    pairs, memory to spare) or 1 (one writes every page)."""
    if jobs is None:
        from traveller.publish.forked import cores

        jobs = 2 if len(result.travellers) >= PARALLEL_FROM and cores() >= 2 else 1
    if jobs < 2 or "pair" not in result.ranking or result.ranking.empty:
        return 1
    from traveller.publish.forked import can_fork, room_for_a_copy

    return 2 if can_fork() and room_for_a_copy() else 1


class SiteWriter:
    """A website being written: begun, then finished (or abandoned, leaving nothing).

    Beginning checks ``folder`` and makes the temporary folder the pages go
    into. With two jobs (:func:`site_jobs`) a second process, forked from this
    one, starts at once: the ranking and frequencies pages (:data:`SECOND`),
    then the pair and board pages from the end of :func:`units`, while
    ``traveller score`` writes the workbook here and :meth:`finish` takes the
    units from the front; each unit is written once, by whichever process
    reaches it first (:class:`~traveller.publish.forked.BothEnds`). Every page
    is the same as one process writes. Used as a context manager, a writer not
    finished when the block ends is abandoned: the second process is stopped
    and the temporary folder removed.
    """

    def __init__(self, result: Result, folder: str | Path, *, jobs: int | None = 1) -> None:
        self.result, self.folder = result, Path(folder)
        check_site_folder(self.folder)
        self.folder.parent.mkdir(parents=True, exist_ok=True)
        self.tmp = Path(tempfile.mkdtemp(prefix=f".{self.folder.name}.", suffix=".tmp",
                                         dir=self.folder.parent))
        self.helper: Forked | None = None
        self.shared: BothEnds[Unit] | None = None
        self.indexed: Index | None = None
        self.open = True
        if site_jobs(result, jobs) == 2:
            from traveller.publish.forked import BothEnds, Forked

            tmp, indexed = self.tmp, board_index(result)  # (made once, for both processes)
            self.indexed, shared = indexed, BothEnds(units(result, indexed))
            try:
                self.helper = Forked(lambda tick: _write_pages(
                    result, tmp, lambda done, total: tick(), SECOND, shared.back, indexed))
                self.shared = shared
            except OSError:  # no fork to be had (limits): one process writes every page
                shared.close()

    def finish(self, progress: Callable[[int, int], None] | None = None) -> Path:
        """Write this process's pages, wait for the other's, put the site in place."""
        total = pages_count(self.result)
        helper, shared = self.helper, self.shared
        try:
            if helper is None or shared is None:
                _write_pages(self.result, self.tmp, progress)
            else:
                mine = 0

                def tell(done: int, _: int) -> None:  # (reading the other's counts even
                    nonlocal mine  # with no bar: its pipe never fills, so it never waits)
                    mine = done
                    theirs = helper.poll()
                    if progress is not None:
                        progress(min(done + theirs, total), total)

                _write_pages(self.result, self.tmp, tell, (), shared.front, self.indexed)
                try:
                    helper.join(None if progress is None else
                                lambda theirs: progress(min(mine + theirs, total), total))
                except Lost as lost:
                    if lost.signal != signal.SIGKILL:
                        raise
                    # killed from outside (the out-of-memory killer): its pages, here
                    redo = iter(shared.taken_from_back())
                    _write_pages(self.result, self.tmp, None, SECOND, lambda: next(redo, None),
                                 self.indexed)
                shared.close()
            css = resources.files("traveller.publish").joinpath("templates", STYLESHEET)
            (self.tmp / STYLESHEET).write_text(css.read_text(encoding="utf-8"),
                                               encoding="utf-8")
            (self.tmp / MARKER).write_text("written by traveller; replaced as a whole on "
                                           "each run\n", encoding="utf-8")
            os.chmod(self.tmp, 0o755)  # mkdtemp makes it private; a website is for reading
            _swap(self.tmp, self.folder)
        except BaseException:
            self.abandon()
            raise
        self.open = False
        return self.folder

    def abandon(self) -> None:
        """Stop the second process and remove the temporary folder (nothing is left)."""
        if self.helper is not None:
            self.helper.kill()
        if self.shared is not None:
            self.shared.close()
        if self.open:
            shutil.rmtree(self.tmp, ignore_errors=True)
        self.open = False

    def __enter__(self) -> SiteWriter:
        return self

    def __exit__(self, *exc: object) -> None:
        if self.open:
            self.abandon()


#: Pages rendered ahead of the writer threads at most (each is one page's text), and
#: the threads: creating a file waits on the file system, so a few wait together.
AHEAD = 32
WRITERS = 4


def _write_pages(result: Result, tmp: Path,
                 progress: Callable[[int, int], None] | None,
                 parts: Collection[str] = PARTS,
                 claim: Callable[[], Unit | None] | None = None,
                 indexed: Index | None = None) -> None:
    """The pages of ``parts`` (and of the units ``claim`` gives: :func:`iter_pages`) into
    ``tmp``: rendered here, written by threads meanwhile (creating thousands of files
    waits on the file system, not on Python), a few pages ahead at most."""
    total, done = pages_count(result, parts if claim is None else PARTS), 0
    pending: collections.deque[concurrent.futures.Future[None]] = collections.deque()

    def finished(future: concurrent.futures.Future[None]) -> None:
        nonlocal done
        future.result()  # an error writing a page is raised here
        done += 1
        if progress is not None:
            progress(done, max(total, done))

    with concurrent.futures.ThreadPoolExecutor(WRITERS, thread_name_prefix="site") as writer:
        try:
            for name, pieces in iter_pages(result, parts, claim, indexed):
                if isinstance(pieces, str):
                    pending.append(writer.submit(_write_page, tmp / name, pieces))
                else:  # streamed as it renders (the frequencies of every board)
                    _stream_page(tmp / name, pieces)
                    done_now: concurrent.futures.Future[None] = concurrent.futures.Future()
                    done_now.set_result(None)
                    pending.append(done_now)
                while len(pending) > AHEAD:
                    finished(pending.popleft())
            while pending:
                finished(pending.popleft())
        finally:
            for future in pending:
                future.cancel()


def _write_page(path: Path, text: str) -> None:
    # encoded here, written as bytes: a text-mode file encodes a long page of non-ASCII
    # text (suit symbols) several times slower, for the same bytes
    with open(path, "wb") as page:
        page.write(text.encode("utf-8"))


def _stream_page(path: Path, pieces: Iterator[str], size: int = 1 << 20) -> None:
    """A page written as it renders, about ``size`` characters at a time."""
    with open(path, "wb") as page:
        batch: list[str] = []
        held = 0
        for piece in pieces:
            batch.append(piece)
            held += len(piece)
            if held >= size:
                page.write("".join(batch).encode("utf-8"))
                batch, held = [], 0
        page.write("".join(batch).encode("utf-8"))


def check_site_folder(folder: str | Path) -> None:
    """Raise FileExistsError unless ``folder`` is new, empty, or a site written here."""
    folder = Path(folder)
    if folder.exists() and not folder.is_dir():
        raise FileExistsError(f"{folder}: exists and is not a folder; choose another --html")
    if folder.is_dir() and any(folder.iterdir()) and not (folder / MARKER).exists():
        raise FileExistsError(f"{folder}: the folder holds other files and no site written "
                              "by traveller; give a new or empty folder for --html")


def _swap(new: Path, folder: Path) -> None:
    """Put ``new`` in place of ``folder``: the old site is moved aside, then removed."""
    check_site_folder(folder)
    old = None
    if folder.exists():
        old = Path(tempfile.mkdtemp(prefix=f".{folder.name}.", suffix=".old", dir=folder.parent))
        os.replace(folder, old / "site")
    os.replace(new, folder)
    if old is not None:
        shutil.rmtree(old, ignore_errors=True)


__all__ = ["SiteWriter", "iter_pages", "pair_label", "site_pages", "write_site"]
