"""Batch settings: a ``traveller.toml`` per folder, merged with command-line options.

A ``traveller.toml`` applies to its folder and every folder below it; a deeper
file overrides the keys it sets, and command-line options override them all.
An unknown key, or a value that cannot be used, is an error that names the
file and the key (it fails the files under that folder, not the whole run)::

    # INBOX/riverside/traveller.toml
    scale = "1/0.5"          # matchpoint scale: "2/1/0" or "1/0.5"
    movement = "mitchell"    # "auto", "mitchell" or "howell"
    notation = "pl"          # "auto", "en", "pl", "ru"
    names = "names.csv"      # names file, relative to this file's folder
    hands = "deals.pbn"      # hand record (PBN or .dup) of the folder's sessions, likewise
    dd = false               # no double-dummy analysis of the deals (on by default)
    encoding = "cp1250"      # text encoding of CSV files
    output_suffix = "_results"
    changes = "both"         # corrections report: "both", "csv", "txt", "none"
    exclude = ["*.txt"]      # file names (or paths under INBOX) to leave alone
    html = true              # also a website per session, and OUTDIR/index.html
    title = "Tuesday pairs"  # title, date, club printed above the results
    start = "19:30"          # the sessions' start: the correction period runs from the session
    correction_minutes = 30  # provisional until then, final after (0: final at once)
    points = "abf"           # master points by a scale (docs/points.md)
    ladder = "Club 2026"     # the season's ladder these sessions belong to
    ladder_rule = "best=8,min_sessions=5"
    store = "sqlite"         # the results store: beside the output, a database URL, "none"

Any other keyword option of :func:`traveller.pipeline.process`, and each
field of its ``Options`` (rulings and structure: ``phantom_award``,
``sections``, ``adjusted_session_pct``, ...), is a key too, so a scoring option added
there can be set here without a change to this file.
"""


from __future__ import annotations

import hashlib
import json
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from traveller.batch.keys import (
    BATCH_DEFAULTS,
    CHANGES_FORMATS,
    FILE_NAME,
    MOVEMENTS,
    OPTIONS_KEYWORD,
    SettingsError,
    check_layer,
    known_keys,
    make_options,
    option_fields,
    parse_assignment,
    pipeline_defaults,
    pipeline_keys,
    read_file,
)

__all__ = ["BATCH_DEFAULTS", "CHANGES_FORMATS", "FILE_NAME", "MOVEMENTS", "Settings",
           "SettingsError", "SettingsTree", "check_layer", "file_sha256", "fingerprint",
           "known_keys", "option_fields", "parse_assignment", "read_file"]


@dataclass(frozen=True)
class Settings:
    """The effective settings of one folder."""

    values: dict[str, Any]
    sources: tuple[str, ...] = ()
    names_sha256: str | None = None
    fingerprint: str = field(default="", compare=False)

    def get(self, key: str) -> Any:
        """A value, or the batch default."""
        return self.values.get(key, BATCH_DEFAULTS.get(key))

    def pipeline_kwargs(self) -> dict[str, Any]:
        """Keyword options for :func:`traveller.pipeline.process`."""
        kwargs = {k: v for k, v in self.values.items() if k in pipeline_keys()}
        if kwargs.get("notation") == "auto":
            kwargs["notation"] = None
        options = make_options(self.values) if option_fields() else None
        if options is not None:
            kwargs[OPTIONS_KEYWORD] = options
        return kwargs


def fingerprint(kwargs: dict[str, Any], names_sha256: str | None,
                hands_sha256: str | None = None) -> str:
    """A short hash of what decides the results: pipeline options, the names' and hands' content.

    Options left at their default count as that default, so ``--scale 2/1/0``
    on a run that had no scale set redoes nothing.
    """
    full = {**pipeline_defaults(), **option_fields(), **kwargs}
    if option_fields():
        full.pop(OPTIONS_KEYWORD, None)
    if full.get("notation") == "auto":
        full["notation"] = None
    # options added since sessions were first published count only when set: left at
    # their default, they keep every published session's fingerprint (nothing redone)
    for key, default in (("points", None), ("hands", None), ("dd", True)):
        if key in full and full[key] == default:
            full.pop(key)
    shas = {"names": names_sha256, "hands": hands_sha256}
    plain = {k: (f"sha256:{shas[k]}" if k in shas and v is not None else v)
             for k, v in full.items()}
    text = json.dumps(plain, sort_keys=True, default=str)
    return hashlib.sha256(text.encode()).hexdigest()[:16]


def file_sha256(path: Path) -> str:
    """The SHA-256 of a file's content, read in chunks (the file is only read)."""
    with open(path, "rb") as handle:
        return hashlib.file_digest(handle, "sha256").hexdigest()


def _scale_file(points: Any) -> Path | None:
    """The scale file a ``points`` value names (``club.toml:first=10``), or None."""
    if not isinstance(points, str):
        return None
    from traveller.read.scales import split_spec

    name = split_spec(points)[0]
    return Path(name) if name.lower().endswith(".toml") else None


class SettingsTree:
    """Settings of every folder under an inbox, each worked out once per run.

    >>> tree = SettingsTree(Path("inbox"), {"scale": "1/0.5"})  # doctest: +SKIP
    >>> tree.for_folder(Path("inbox/riverside")).pipeline_kwargs()  # doctest: +SKIP
    """

    def __init__(self, inbox: Path, overrides: dict[str, Any] | None = None) -> None:
        self.inbox = inbox
        self.overrides = check_layer(overrides or {}, "command line", Path.cwd())
        if option_fields():
            try:
                make_options(self.overrides)
            except (TypeError, ValueError) as exc:
                raise SettingsError(f"command line: {exc}; fix the value") from None
        self._folders: dict[Path, tuple[dict[str, Any], tuple[str, ...]] | SettingsError] = {}
        self._settings: dict[Path, Settings | SettingsError] = {}
        self._names: dict[Path, str] = {}

    def names_files(self) -> set[Path]:
        """Every names or hands file a setting names (they are not travellers)."""
        return set(self._names)

    def for_folder(self, folder: Path) -> Settings:
        """The effective settings of ``folder`` (raises :class:`SettingsError`)."""
        found = self._settings.get(folder)
        if found is None:
            try:
                found = self._resolve(folder)
            except SettingsError as exc:
                found = exc
            self._settings[folder] = found
        if isinstance(found, SettingsError):
            raise found
        return found

    def _resolve(self, folder: Path) -> Settings:
        layers, sources = self._layers(folder)
        values = {**layers, **self.overrides}
        names_sha, hands_sha = (self._sha(values.get(k)) for k in ("names", "hands"))
        if option_fields():
            try:
                make_options(values)
            except (TypeError, ValueError) as exc:
                where = " + ".join(sources) or "command line"
                raise SettingsError(f"{where}: {exc}; fix the value") from None
        decisive = {k: v for k, v in values.items() if k in pipeline_keys() or k in
                    option_fields()}
        scale_file = _scale_file(values.get("points"))
        if scale_file is not None:  # a changed scale file re-scores its sessions
            decisive["points_file_sha256"] = self._names.get(scale_file) or file_sha256(
                scale_file)
        return Settings(values, sources, names_sha,
                        fingerprint(decisive, names_sha, hands_sha))

    def _sha(self, path: Path | None) -> str | None:
        """The content hash of a names or hands file (each read once a run); None: no file."""
        if path is None:
            return None
        if path not in self._names:
            self._names[path] = file_sha256(path)
        return self._names[path]

    def _layers(self, folder: Path) -> tuple[dict[str, Any], tuple[str, ...]]:
        """Merged file layers from the inbox down to ``folder`` (nearest wins)."""
        cached = self._folders.get(folder)
        if isinstance(cached, SettingsError):
            raise cached
        if cached is not None:
            return cached
        try:
            if folder == self.inbox or self.inbox not in folder.parents:
                values: dict[str, Any] = {}
                sources: tuple[str, ...] = ()
            else:
                values, sources = self._layers(folder.parent)
            path = folder / FILE_NAME
            if path.is_file():
                values = {**values, **read_file(path)}
                sources = (*sources, str(path))
            self._folders[folder] = (values, sources)
        except SettingsError as exc:
            self._folders[folder] = exc
            raise
        return values, sources
