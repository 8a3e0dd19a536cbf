"""File work of a batch run: publish a workbook atomically, move a done input, tidy up.

Test hook (for the test suite only): with ``TRAVELLER_BATCH_TEST_PAUSE=N`` (or
``N:SECONDS``) in the environment, :func:`publish` prints a line to stderr and
sleeps (60 s by default) after the N-th workbook of the run is completely
written to its temporary file and before it is renamed into place, so that a
test can kill the process at that exact point.
"""

from __future__ import annotations

import errno
import os
import re
import shutil
import sys
import tempfile
import time
from pathlib import Path
from typing import Any

from traveller.batch.manifest import current_umask
from traveller.words import plural

PAUSE_ENV = "TRAVELLER_BATCH_TEST_PAUSE"
#: Temporary files of this package (tempfile.mkstemp: ".<name>.<8 chars>.tmp").
TEMP_NAME = re.compile(r"^\..+\.[a-z0-9_]{8}\.tmp$")


def publish(result: Any, out: Path, count: int = 0, more_sheets: bool = True) -> None:
    """Write the workbook beside ``out`` and rename it into place (old or new, never half);
    ``more_sheets`` as :func:`traveller.publish.workbook.write_workbook` has it."""
    from traveller.publish.workbook import write_workbook

    out.parent.mkdir(parents=True, exist_ok=True)
    fd, tmp = tempfile.mkstemp(prefix=f".{out.name}.", suffix=".tmp", dir=out.parent)
    os.close(fd)
    try:
        write_workbook(result, tmp, final=out, more_sheets=more_sheets)
        os.chmod(tmp, 0o666 & ~current_umask())
        _test_pause(count, tmp)
        os.replace(tmp, out)
    except BaseException:
        Path(tmp).unlink(missing_ok=True)
        raise


def _test_pause(published: int, tmp: str) -> None:
    """The test hook (see the module docstring); does nothing unless the variable is set."""
    setting = os.environ.get(PAUSE_ENV)
    if not setting:
        return
    count, _, seconds = setting.partition(":")
    if published == int(count):
        print(f"{PAUSE_ENV}: paused before renaming {tmp}", file=sys.stderr, flush=True)
        time.sleep(float(seconds or 60))


def free_name(dest: Path) -> Path:
    """``dest``, or ``name~2.ext``, ``name~3.ext``... when it is taken (nothing is overwritten)."""
    n = 2
    found = dest
    while found.exists():
        found = dest.with_name(f"{dest.stem}~{n}{dest.suffix}")
        n += 1
    return found


def move_file(source: Path, dest: Path) -> None:
    """Move ``source`` to ``dest``: a rename, or across file systems copy, rename, remove."""
    dest.parent.mkdir(parents=True, exist_ok=True)
    try:
        os.rename(source, dest)
    except OSError as exc:
        if exc.errno != errno.EXDEV:
            raise
        fd, tmp = tempfile.mkstemp(prefix=f".{dest.name}.", suffix=".tmp", dir=dest.parent)
        os.close(fd)
        try:
            shutil.copy2(source, tmp)
            os.replace(tmp, dest)
        except BaseException:
            Path(tmp).unlink(missing_ok=True)
            raise
        os.unlink(source)


def clean_temps(outdir: Path) -> list[str]:
    """Remove the temporary files a killed run left (only ours: .<name>.<8>.tmp)."""
    removed = 0
    for folder, _, files in os.walk(outdir):
        for name in files:
            if TEMP_NAME.match(name):
                Path(folder, name).unlink(missing_ok=True)
                removed += 1
    return ([f"removed {plural(removed, 'temporary file')} left by the interrupted run"]
            if removed else [])
