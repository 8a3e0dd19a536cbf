"""PBN's smallest pieces, shared by the pairs export (:mod:`traveller.publish.pbn_out`)
and the teams export (:mod:`traveller.publish.pbn_teams`): a quoted tag value (their
[Vulnerable] words are :func:`traveller.schema.played_vulnerability`'s)."""

from __future__ import annotations

import re


def quoted(value: object) -> str:
    """A PBN string: in double quotes, with ``\\`` and ``"`` escaped, on one line."""
    text = re.sub(r"[\r\n\t]+", " ", str(value))
    return '"' + text.replace("\\", "\\\\").replace('"', '\\"') + '"'
