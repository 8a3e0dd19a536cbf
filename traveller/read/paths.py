"""File names as text: pandas-free, so the batch can use it before loading any reader."""

from __future__ import annotations

__all__ = ["STATE_DIR", "printable"]


def printable(text: str) -> str:
    """Text safe to print and write as UTF-8: a file name's undecodable bytes as \\xe9.

    File names that are not UTF-8 reach Python with their odd bytes as lone
    surrogates, which no UTF-8 writer accepts; shown as escapes they stay
    unique and readable.
    """
    try:
        return text.encode("utf-8", "surrogateescape").decode("utf-8", "backslashreplace")
    except UnicodeError:
        return text.encode("utf-8", "replace").decode("utf-8")


#: The folder inside a batch's OUTDIR that holds its state: manifest, lock, snapshots,
#: the double-dummy cache (the batch writes it; the ladder reads the snapshots in it).
STATE_DIR = ".traveller-batch"
