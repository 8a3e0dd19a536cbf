"""What each published workbook was made from, so a re-run redoes only what changed.

``OUTDIR/.traveller-batch/manifest.json`` maps each input (its path under
INBOX, with ``/``) to an entry::

    "riverside/2026-11-03.csv": {
      "size": 5321, "mtime_ns": 1793740805123456789,
      "sha256": "9f2c...",           # content of the input
      "settings": "4be1a0c95e2f7d10", # fingerprint of the effective settings
      "version": "0.1.0",            # traveller.__version__
      "output": "riverside/2026-11-03_results.xlsx",
      "status": "done", "problems": 0,
      "snapshot": "5d0f...json",     # the published ranking and results, for corrections
      "published": "2026-11-03T21:20:05+00:00"
    }

An input is skipped when its size and modification time are the recorded ones
(no read at all), or when they differ but its SHA-256 is the recorded one; and
the settings fingerprint, the version and the output name are unchanged and
the output exists. ``mtime_ns`` is left null when the file was modified less
than two seconds before it was read, since a later change within the same
clock tick would not show; such a file is hashed again next time.

Each finished file is appended to ``journal.jsonl`` at once (one short line,
so a killed run keeps every file it finished); the end of a run folds the
journal into ``manifest.json``, written to a temporary file, flushed to disk
and renamed into place.
"""

from __future__ import annotations

import errno
import json
import os
import tempfile
from datetime import UTC, datetime
from pathlib import Path
from typing import Any

from traveller.words import plural

MANIFEST_FORMAT = 1
#: A file modified this recently may change again within the same mtime tick.
RACY_SECONDS = 2.0


def write_atomic(path: Path, data: bytes | str, durable: bool = False) -> Path:
    """Write ``data`` to a temporary file beside ``path`` and rename it into place.

    Readers see the old file or the new one, never a part. The file gets the
    usual permissions (0666 less the umask), not the 0600 of a temporary file.
    """
    path.parent.mkdir(parents=True, exist_ok=True)
    refuse_link(path.parent)
    refuse_link(path)
    fd, tmp = tempfile.mkstemp(prefix=f".{path.name}.", suffix=".tmp", dir=path.parent)
    try:
        with os.fdopen(fd, "wb") as handle:
            handle.write(data.encode() if isinstance(data, str) else data)
            if durable:
                handle.flush()
                os.fsync(handle.fileno())
        os.chmod(tmp, 0o666 & ~current_umask())
        os.replace(tmp, path)
    except BaseException:
        Path(tmp).unlink(missing_ok=True)
        raise
    return path


class PlantedLinkError(OSError):
    """A batch state file (lock, manifest, journal, summary, report) is a symbolic link.

    Writing through it would truncate or replace whatever it points at, so the
    run refuses and says which link to remove.
    """


def refuse_link(path: Path) -> None:
    """Raise :class:`PlantedLinkError` when ``path`` is a symbolic link."""
    if os.path.islink(path):
        try:
            target = os.readlink(path)
        except OSError:
            target = "?"
        raise PlantedLinkError(f"{path} is a symbolic link (to {target}); traveller never writes "
                               "its state through a link: remove the link and run again")


def open_nofollow(path: Path, flags: int, mode: int = 0o644) -> int:
    """``os.open`` that refuses a symbolic link at ``path`` (O_NOFOLLOW) with a clear error."""
    refuse_link(path.parent)
    try:
        return os.open(path, flags | getattr(os, "O_NOFOLLOW", 0), mode)
    except OSError as exc:
        if exc.errno == errno.ELOOP or os.path.islink(path):
            refuse_link(path)
        raise


_UMASK: list[int] = []


def current_umask() -> int:
    """The process umask (read once)."""
    if not _UMASK:
        mask = os.umask(0o022)
        os.umask(mask)
        _UMASK.append(mask)
    return _UMASK[0]


def now_iso() -> str:
    """The time now, UTC, to the second."""
    return datetime.now(UTC).isoformat(timespec="seconds")


class Manifest:
    """The manifest of an output folder: entries by input path, plus the snapshot store.

    >>> manifest = Manifest.load(Path("out/.traveller-batch"))  # doctest: +SKIP
    >>> manifest.entries.get("riverside/2026-11-03.csv")  # doctest: +SKIP
    """

    def __init__(self, state_dir: Path, entries: dict[str, dict[str, Any]],
                 notes: list[str] | None = None) -> None:
        self.state_dir = state_dir
        self.entries = entries
        self.notes = notes if notes is not None else []
        self.changed = False
        self._journal: Any = None

    @property
    def path(self) -> Path:
        return self.state_dir / "manifest.json"

    @property
    def journal_path(self) -> Path:
        return self.state_dir / "journal.jsonl"

    @property
    def snapshot_dir(self) -> Path:
        return self.state_dir / "snapshots"

    @classmethod
    def load(cls, state_dir: Path) -> Manifest:
        """Read the manifest and replay the journal a killed run left (read only)."""
        notes: list[str] = []
        entries: dict[str, dict[str, Any]] = {}
        path = state_dir / "manifest.json"
        refuse_link(state_dir)
        refuse_link(path)
        try:
            data = json.loads(path.read_text(encoding="utf-8"))
            entries = dict(data["entries"])
        except FileNotFoundError:
            pass
        except (OSError, ValueError, KeyError, TypeError) as exc:
            notes.append(f"{path}: unreadable ({exc}); every input is redone")
        bad = [k for k, v in entries.items() if not (isinstance(k, str) and isinstance(v, dict))]
        if bad:
            notes.append(f"{path}: {len(bad)} malformed entr{'y' if len(bad) == 1 else 'ies'} "
                         "ignored; those inputs are redone")
            entries = {k: v for k, v in entries.items() if k not in bad}
        manifest = cls(state_dir, entries, notes)
        replayed = manifest._replay()
        if replayed:
            manifest.changed = True
            manifest.notes.append(f"recovered {plural(replayed, 'file')} finished by an "
                                  "interrupted run")
        return manifest

    def _replay(self) -> int:
        refuse_link(self.journal_path)
        try:
            lines = self.journal_path.read_text(encoding="utf-8", errors="replace").splitlines()
        except FileNotFoundError:
            return 0
        count = 0
        for line in lines:
            try:
                item = json.loads(line)
            except ValueError:
                continue  # a line cut short by a kill
            if (isinstance(item, dict) and isinstance(item.get("input"), str)
                    and isinstance(item.get("entry"), dict)):
                self.entries[item["input"]] = item["entry"]
                count += 1
        return count

    def record(self, name: str, entry: dict[str, Any]) -> None:
        """Set an input's entry and append it to the journal at once."""
        self.entries[name] = entry
        self.changed = True
        if self._journal is None:
            self.state_dir.mkdir(parents=True, exist_ok=True)
            fd = open_nofollow(self.journal_path, os.O_WRONLY | os.O_APPEND | os.O_CREAT)
            self._journal = os.fdopen(fd, "a", encoding="utf-8")
        self._journal.write(json.dumps({"input": name, "entry": entry}) + "\n")
        self._journal.flush()

    def save(self, version: str) -> None:
        """Fold the journal into manifest.json (atomically), then empty the journal."""
        if self._journal is not None:
            self._journal.close()
            self._journal = None
        if not self.changed:
            return
        data = {"format": MANIFEST_FORMAT, "program": "traveller", "version": version,
                "updated": now_iso(), "entries": dict(sorted(self.entries.items()))}
        write_atomic(self.path, json.dumps(data, indent=1, ensure_ascii=False), durable=True)
        self.journal_path.unlink(missing_ok=True)
        self.changed = False
        self._prune_snapshots()

    def close(self) -> None:
        """Close the journal without saving (the next run replays it)."""
        if self._journal is not None:
            self._journal.close()
            self._journal = None

    # ------------------------------------------------------------------
    # Snapshots of published results (for the corrections report)

    def read_snapshot(self, name: str | None) -> dict[str, Any] | None:
        """A stored snapshot, or None when there is none (or it is unreadable)."""
        if not name:
            return None
        try:
            found = json.loads((self.snapshot_dir / name).read_text(encoding="utf-8"))
        except (OSError, ValueError):
            return None
        return found if isinstance(found, dict) else None

    def write_snapshot(self, name: str, snapshot: dict[str, Any]) -> str:
        """Store a snapshot under ``name`` (a content key, so it is never overwritten)."""
        write_atomic(self.snapshot_dir / name, json.dumps(snapshot, ensure_ascii=False))
        return name

    def _prune_snapshots(self) -> None:
        keep = {e.get("snapshot") for e in self.entries.values()}
        try:
            found = list(os.scandir(self.snapshot_dir))
        except FileNotFoundError:
            return
        for item in found:
            if item.name.endswith(".json") and item.name not in keep:
                Path(item.path).unlink(missing_ok=True)
