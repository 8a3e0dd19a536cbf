"""The clubs of a simultaneous pairs: which file is which club, and each club scored alone.

One traveller file per club, in any format ``traveller score`` reads. The
club is the file's stem, or the ``club`` key of a ``traveller.toml`` in the
file's folder; that file may also say how to read the club's sheet
(``notation``, ``encoding``, ``names``, ``movement``, ``hands``, ``dd``) and the club's rulings
(``phantom``, ``arrow_switch``). How the field is scored (method, scale, ...)
is the sim's, the same for every club.

:func:`club_chunk` reads, tidies and scores a few clubs with the session
pipeline (:func:`traveller.pipeline.process_loaded`) and keeps what the
later stages need; it never raises for one club: a club that cannot be read
or scored is kept as a failure with the reason.
"""

from __future__ import annotations

import os
import re
import tomllib
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

#: Files a sim reads as travellers (as ``traveller batch`` does).
INPUT_SUFFIXES = frozenset({".csv", ".tsv", ".txt", ".xlsx", ".xlsm", ".xlsb", ".xls", ".ods",
                            ".xml", ".usebio", ".pbn"})
SETTINGS_FILE = "traveller.toml"
#: The sim's own state in its output folder (the double-dummy cache, ``dd/``).
STATE_DIR = ".traveller-sim"
#: Keys a club's ``traveller.toml`` may set: its name, how to read it, its own rulings.
CLUB_KEYS = ("club", "notation", "encoding", "names", "movement", "phantom", "arrow_switch",
             "hands", "dd")


@dataclass(frozen=True)
class SimSettings:
    """How every club and the field are scored (the same for all clubs)."""

    method: str = "mp"
    scale: str = "2/1/0"
    divisor: str = "n-1"
    trim: int = 1
    datum_rounding: str = "half-away"
    phantom_award: float | None = None
    movement: str = "auto"
    notation: str | None = None
    encoding: str | None = None
    #: Where each deal's double-dummy table is kept between runs (the output folder's
    #: :data:`STATE_DIR`/dd; None: in memory only), so a re-run solves nothing.
    dd_folder: str | None = None

    def __post_init__(self) -> None:
        if self.method not in ("mp", "ximp", "butler"):
            raise ValueError(f"a simultaneous pairs is scored by mp, ximp or butler, "
                             f"not {self.method!r}")


@dataclass(frozen=True)
class ClubFile:
    """One club's traveller file and its own settings (or why they cannot be used)."""

    club_id: int
    club: str
    path: Path
    settings: dict[str, Any] = field(default_factory=dict)
    error: str | None = None
    book: str = ""  # the club's workbook, a file name unique in the sim


@dataclass
class ClubOutcome:
    """One club scored on its own (``result``), or the reason it could not be."""

    club_id: int
    club: str
    path: str
    result: Any = None  # traveller.pipeline.Result
    error: str | None = None
    book: str = ""
    #: A club file that cannot be read: the Result of nothing scored whose one problem
    #: says why (its workbook is written; the club still counts as failed).
    listed: Any = None


@dataclass
class ClubChunk:
    """A few clubs scored: their outcomes, their rows for the field, their pairs' names."""

    outcomes: list[ClubOutcome]
    field: Any  # pandas DataFrame: traveller.sim.field.FIELD_DTYPES
    pairs: Any  # pandas DataFrame: club_id, section, line, pair, names, club place


def find_clubs(paths: list[str | Path] | str | Path) -> list[ClubFile]:
    """Every club file under ``paths`` (files or folders), numbered, with its settings.

    Files are taken in sorted order, so the numbering is the same on every
    run. A club name that two files claim fails the later files.
    """
    given = [paths] if isinstance(paths, str | Path) else list(paths)
    files: list[Path] = []
    for item in map(Path, given):
        if item.is_dir():
            files += sorted(p for p in item.rglob("*") if p.is_file()
                            and p.suffix.lower() in INPUT_SUFFIXES
                            and not any(part.startswith(".")  # nor a state folder's files
                                        for part in p.relative_to(item).parts))
        else:
            files.append(item)
    settings = {folder: _folder_settings(folder) for folder in {f.parent for f in files}}
    names = {s[k] for s, _ in settings.values() for k in ("names", "hands") if s.get(k)}
    clubs: list[ClubFile] = []
    seen: dict[str, Path] = {}
    books: set[str] = set()
    for path in (f for f in files if f.resolve() not in names):
        values, error = settings[path.parent]
        club = str(values.get("club") or path.stem)
        if error is None and club in seen:
            error = f"club {club!r} is already the club of {seen[club]}; name it in a " \
                    f"{SETTINGS_FILE} (club = \"...\") or rename the file"
        seen.setdefault(club, path)
        book = re.sub(r"[^\w.-]+", "_", club).strip("._") or "club"
        book = book if book.lower() not in books else f"{book}-{len(clubs)}"
        books.add(book.lower())
        clubs.append(ClubFile(len(clubs), club, path, values, error, f"{book}.xlsx"))
    return clubs


def _folder_settings(folder: Path) -> tuple[dict[str, Any], str | None]:
    """A folder's ``traveller.toml`` for its clubs, and the reason it cannot be used."""
    path = folder / SETTINGS_FILE
    if not path.is_file():
        return {}, None
    from traveller.batch.keys import SettingsError, check_layer

    try:
        with open(path, "rb") as handle:
            raw = tomllib.load(handle)
    except (OSError, tomllib.TOMLDecodeError) as exc:
        return {}, f"{path}: {exc}"
    club = raw.pop("club", None)
    named = {"club": club.strip()} if isinstance(club, str) and club.strip() else {}
    if club is not None and not named:
        return {}, f"{path}: club must be a non-empty text in quotes, not {club!r}"
    other = sorted(set(raw) - set(CLUB_KEYS))
    if other:
        return named, (f"{path}: {', '.join(other)} cannot be set per club in a simultaneous "
                       f"pairs (the field is scored one way); keys here: {', '.join(CLUB_KEYS)}")
    try:
        return {**check_layer(raw, str(path), folder), **named}, None
    except SettingsError as exc:
        return named, str(exc)


def process_club(club: ClubFile, sim: SimSettings) -> ClubOutcome:
    """Read, tidy and score one club's file on its own (never raises for the club's data)."""
    outcome = ClubOutcome(club.club_id, club.club, str(club.path), book=club.book)
    if club.error:
        outcome.error = club.error
        return outcome
    from traveller.options import Options
    from traveller.pipeline import process_loaded, with_hands
    from traveller.read.load import Loaded, read, read_names

    s = club.settings
    try:
        encoding = s.get("encoding", sim.encoding)
        loaded = read(club.path, encoding=encoding)
        if s.get("names"):
            found: list[Any] = []  # the names file's problems replace the sheet's
            loaded = Loaded(loaded.tables, read_names(Path(s["names"]), encoding, found), found)
        options = Options(method=sim.method, divisor=sim.divisor, trim=sim.trim,
                          datum_rounding=sim.datum_rounding, phantom_award=sim.phantom_award,
                          phantom=tuple(s.get("phantom", ())),
                          arrow_switch=tuple(s.get("arrow_switch", ())))
        result = process_loaded(loaded, scale=sim.scale, movement=s.get("movement", sim.movement),
                                notation=s.get("notation", sim.notation), options=options)
        # the hand record of the club (or its file's deals): each deal solved once, its
        # table kept in the output folder for the next run
        dd = s.get("dd", True)
        result = with_hands(result, s.get("hands"),
                            Path(sim.dd_folder) if dd is True and sim.dd_folder else dd, loaded)
    except Exception as exc:  # one club's file must never stop the sim
        outcome.error = _reason(exc)
        outcome.listed = _unreadable(exc, club)
        return outcome
    # a club none of whose rows scores still gets its workbook: the Problems sheet is
    # what its director needs to fix the file
    result.source = str(club.path)
    result.meta = {**result.meta, "club": club.club, "title": f"Simultaneous pairs: {club.club}"}
    outcome.result = result
    return outcome


def _unreadable(exc: BaseException, club: ClubFile) -> Any:
    """A club file (or its names file) that cannot be read: the Result its workbook is
    written from, its Problems sheet saying why; None for any other failure."""
    from traveller.errors import TravellerError
    from traveller.pipeline import unreadable

    if not isinstance(exc, TravellerError):
        return None
    names = club.settings.get("names")
    listed = unreadable(exc, [club.path, *([Path(names)] if names else [])])
    if listed is not None:
        listed.meta = {"club": club.club, "title": f"Simultaneous pairs: {club.club}"}
    return listed


def _reason(exc: BaseException) -> str:
    from traveller.errors import TravellerError

    text = str(exc).strip() or type(exc).__name__
    return text if isinstance(exc, TravellerError | OSError) else f"{type(exc).__name__}: {text}"


def club_chunk(clubs: list[ClubFile], sim: SimSettings) -> ClubChunk:
    """Score a few clubs alone and keep their field rows and pairs (a worker's first task)."""
    import pandas as pd

    from traveller.sim.field import field_frame

    outcomes = [process_club(c, sim) for c in clubs]
    scored, pairs = [], []
    for o in outcomes:
        if o.result is None:
            continue
        scored.append((o.result.travellers, o.club_id,
                       str(o.result.settings.get("movement", "mitchell"))))
        ranking = o.result.ranking
        pairs.append(pd.DataFrame({
            "club_id": o.club_id, "section": ranking["section"].astype("string").fillna(""),
            "line": ranking["line"].astype("string").fillna(""),
            "pair": ranking["pair"].astype("int64"), "names": ranking["names"].astype("string"),
            "club_place": ranking["place"].astype("string")}))
    field = field_frame(scored)  # (one frame for the clubs: far cheaper than one each)
    pair_frame = (pd.concat(pairs, ignore_index=True) if pairs else pd.DataFrame(
        columns=["club_id", "section", "line", "pair", "names", "club_place"]))
    return ClubChunk(outcomes, field, pair_frame)


def chunks(clubs: list[ClubFile], size: int) -> list[list[ClubFile]]:
    """The clubs in groups of ``size`` consecutive club numbers (the last may be shorter)."""
    size = max(1, size)
    return [clubs[i:i + size] for i in range(0, len(clubs), size)]


def cpu_count() -> int:
    """Cores this process may use."""
    return len(os.sched_getaffinity(0)) if hasattr(os, "sched_getaffinity") else os.cpu_count() or 1
