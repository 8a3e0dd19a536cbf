"""What a batch run has to do: the traveller files under INBOX and which need work.

Listing and the skip decision touch only directory entries and file sizes and
times (and a hash when those changed): no workbook is opened and nothing heavy
is imported, so a re-run over thousands of unchanged files takes a moment.
"""

from __future__ import annotations

import fnmatch
import os
import posixpath
from dataclasses import dataclass
from pathlib import Path
from time import time_ns
from typing import Any

from traveller.batch.manifest import RACY_SECONDS
from traveller.batch.settings import FILE_NAME, Settings, SettingsError, SettingsTree, file_sha256
from traveller.read.paths import printable

#: Every kind of file the loader reads (traveller.read.load and traveller.read.formats).
INPUT_SUFFIXES = frozenset({".csv", ".tsv", ".txt", ".xlsx", ".xlsm", ".xlsb", ".xls", ".ods",
                            ".xml", ".usebio", ".pbn"})


@dataclass
class Job:
    """One input file and where its results go."""

    name: str  # path under INBOX, with "/"
    path: Path
    settings: Settings | None
    error: SettingsError | None
    base: str = ""  # output path under OUTDIR without suffix and extension

    def output(self) -> str:
        """The workbook's path under OUTDIR."""
        suffix = self.settings.get("output_suffix") if self.settings else "_results"
        return f"{self.base}{suffix}.xlsx"


def _skipped_name(name: str) -> bool:
    """Hidden files, Office owner files (~$...) and partial downloads are not inputs."""
    return name.startswith((".", "~$")) or name == FILE_NAME


def _walk(inbox: Path, skip: set[Path], notes: list[str] | None = None
          ) -> list[tuple[Path, str, list[str]]]:
    """(folder, its path under INBOX, candidate file names); folder links are not followed,
    nor file links that lead out of INBOX (each named in ``notes``)."""
    found: list[tuple[Path, str, list[str]]] = []
    home = os.path.realpath(inbox)
    stack = [(inbox, "")]
    while stack:
        folder, rel = stack.pop()
        try:
            entries = list(os.scandir(folder))
        except OSError:
            continue
        names = []
        for entry in entries:
            if _skipped_name(entry.name):
                continue
            if entry.is_dir(follow_symlinks=False):
                if Path(entry.path) not in skip:
                    stack.append((Path(entry.path), f"{rel}{entry.name}/"))
            elif os.path.splitext(entry.name)[1].lower() in INPUT_SUFFIXES:
                if entry.is_symlink() and not _inside(entry.path, home):
                    if notes is not None:
                        notes.append(f"skipped {printable(rel + entry.name)}: a link to a file "
                                     "outside the inbox (copy the file into the inbox instead)")
                    continue
                names.append(entry.name)
        if names:
            found.append((folder, rel, names))
    return found


def _inside(path: str, home: str) -> bool:
    """True when the link at ``path`` leads to a file under the folder ``home``."""
    target = os.path.realpath(path)
    return os.path.commonpath([target, home]) == home


def _excluded(name: str, settings: Settings | None) -> bool:
    patterns = settings.get("exclude") if settings else []
    if not patterns:
        return False
    base = posixpath.basename(name)
    return any(fnmatch.fnmatch(base, p) or fnmatch.fnmatch(name, p) for p in patterns)


def _name_outputs(jobs: list[Job]) -> None:
    """Output base names mirror INBOX; inputs sharing a stem in a folder keep their type.

    Names are compared case-folded (a.CSV and a.csv are one name on many file
    systems). Should two inputs still meet (tue.csv beside tue.txt names one
    tue_csv, as does tue_csv.txt), the later in name order gets ``~2``, ``~3``:
    each input has its own workbook, the same one on every run.
    """
    stems: dict[str, int] = {}
    for job in jobs:
        stem = posixpath.splitext(job.name)[0].casefold()
        stems[stem] = stems.get(stem, 0) + 1
    taken: set[str] = set()
    for job in jobs:
        base, suffix = posixpath.splitext(job.name)
        if stems[base.casefold()] > 1:
            base = f"{base}_{suffix.lstrip('.').lower()}"
        unique, n = base, 2
        while unique.casefold() in taken:
            unique, n = f"{base}~{n}", n + 1
        taken.add(unique.casefold())
        job.base = unique


def find_jobs(inbox: Path, tree: SettingsTree, skip: set[Path],
              notes: list[str] | None = None) -> list[Job]:
    """Every traveller file under ``inbox``, sorted by path, with its folder's settings.

    Files a ``traveller.toml`` excludes or names as a names file are left out;
    so are the folders in ``skip`` (an OUTDIR inside INBOX, the --move-done folder)
    and links to files outside INBOX (said in ``notes``).
    """
    jobs: list[Job] = []
    for folder, rel, file_names in _walk(inbox, skip, notes):
        settings, error = None, None
        try:
            settings = tree.for_folder(folder)
        except SettingsError as exc:
            error = exc
        for file_name in file_names:
            name = printable(rel + file_name)  # a name that is not UTF-8 as \xe9 escapes
            if not _excluded(name, settings):
                jobs.append(Job(name, folder / file_name, settings, error))
    names_files = tree.names_files()
    if names_files:
        jobs = [j for j in jobs if j.path.resolve() not in names_files]
    jobs.sort(key=lambda j: j.name)
    _name_outputs(jobs)
    _refuse_outputs_over_inputs(jobs, skip)
    return jobs


def _refuse_outputs_over_inputs(jobs: list[Job], outdirs: set[Path]) -> None:
    """A job whose workbook would land on an input (INBOX inside OUTDIR) fails, naming both.

    The input is never overwritten: that job is reported as failed and the rest go on.
    """
    inputs = {os.path.normcase(os.path.abspath(j.path)): j.name for j in jobs}
    for job in jobs:
        for outdir in outdirs:
            target = os.path.normcase(os.path.abspath(outdir / job.output()))
            if target in inputs and job.error is None:
                job.error = SettingsError(
                    f"{job.name}: its workbook {outdir / job.output()} would overwrite the "
                    f"input {inputs[target]}; choose an OUTDIR outside INBOX's parent")


def unchanged(job: Job, entry: dict[str, Any] | None, outdir: Path,
              version: str) -> tuple[str | None, os.stat_result, dict[str, Any] | None]:
    """Why ``job`` must be done (None when it is up to date), its stat, a refreshed entry.

    The refreshed entry is returned when the input was touched but its content
    is what was recorded (new size/time, same hash): the manifest learns the
    new time and the file stays skipped. Raises OSError when the file is gone.
    """
    st = os.stat(job.path)
    assert job.settings is not None
    if entry is None:
        return "new", st, None
    reason = None
    if entry.get("version") != version:
        reason = f"program version {entry.get('version')} → {version}"
    elif entry.get("settings") != job.settings.fingerprint:
        reason = "settings changed"
    elif entry.get("output") != job.output():
        reason = "output name changed"
    elif not os.path.exists(os.path.join(outdir, job.output())):
        reason = "output missing"
    if reason or (entry.get("size") == st.st_size and entry.get("mtime_ns") == st.st_mtime_ns):
        return reason, st, None
    if entry.get("sha256") != file_sha256(job.path):
        return "input changed", st, None
    return None, st, {**entry, "size": st.st_size, "mtime_ns": stable_mtime(st)}


def stable_mtime(st: os.stat_result, now_ns: int | None = None) -> int | None:
    """The modification time to record, or None when too recent to trust (see manifest)."""
    now_ns = time_ns() if now_ns is None else now_ns
    return st.st_mtime_ns if now_ns - st.st_mtime_ns > RACY_SECONDS * 1e9 else None
