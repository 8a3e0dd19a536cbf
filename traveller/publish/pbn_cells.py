"""PBN's smallest pieces, shared by the pairs export (:mod:`traveller.publish.pbn_out`)
and the teams export (:mod:`traveller.publish.pbn_teams`): a quoted tag value and the
vulnerability words."""

from __future__ import annotations

import re

#: (N-S vulnerable, E-W vulnerable) -> PBN's [Vulnerable] word.
PBN_VULNERABLE = {(False, False): "None", (True, False): "NS", (False, True): "EW",
                  (True, True): "All"}


def quoted(value: object) -> str:
    """A PBN string: in double quotes, with ``\\`` and ``"`` escaped, on one line."""
    text = re.sub(r"[\r\n\t]+", " ", str(value))
    return '"' + text.replace("\\", "\\\\").replace('"', '\\"') + '"'
