"""Profiles: the conventions of other scoring programs, one name each (``--as bbo``).

A profile is a set of option values; explicit options override it. Each value
carries how we know it (docs/conventions.md explains the words):

- ``verified``: the tests reproduce a real publication of that program with it;
- ``documented``: the program's or its federation's public documentation says so;
- ``observed``: seen in that program's publications, but no publication of it
  is among the real files the tests check, so it is not verified here;
- ``assumed``: our best reading; nothing confirms it yet.

Kept free of pandas (like :mod:`traveller.options`, which imports it).
"""

from __future__ import annotations

from typing import Any

VERIFIED, DOCUMENTED, OBSERVED, ASSUMED = "verified", "documented", "observed", "assumed"

#: Profile -> option -> (value, how we know it). ``scale`` is the matchpoint scale
#: of :func:`traveller.process`; the rest are fields of :class:`traveller.Options`.
PROFILES: dict[str, dict[str, tuple[Any, str]]] = {
    "bbo": {
        "sections": ("field", OBSERVED),
        "unknown_pairs": ("field", OBSERVED),
        "adjusted_board": ("among-real", OBSERVED),
        "total": ("mean-of-boards", OBSERVED),
        "divisor": ("n-1", OBSERVED),
        "adjusted_imps": (3.0, ASSUMED),
    },
    "pary": {
        "phantom_award": (60.0, VERIFIED),
        "rank_by": ("total", VERIFIED),
        "datum": ("table-median", VERIFIED),
        "datum_rounding": ("half-up", VERIFIED),
        "adjusted_imps": (1.2, VERIFIED),
        "pct_decimals": (2, OBSERVED),
    },
    "kops": {
        "round_before_pct": (2, OBSERVED),
        "phantom_award": (60.0, ASSUMED),
        "rank_by": ("total", ASSUMED),
        "pct_decimals": (2, ASSUMED),
    },
    "okbridge": {
        "frequency_decimals": ((1, 2), OBSERVED),
        "unknown_pairs": ("field", ASSUMED),
        "sections": ("field", ASSUMED),
    },
    "compscore": {
        "divisor": ("n-1", VERIFIED),
        "trim": (1, VERIFIED),
        "datum_rounding": ("half-away", OBSERVED),
        "adjusted_board": ("neuberg", VERIFIED),
        "mp_decimals": (2, VERIFIED),
        "pct_decimals": (2, VERIFIED),
    },
    "ruter": {
        "divisor": ("none", VERIFIED),
        "trim": (1, VERIFIED),
        "sit_out": ("average", VERIFIED),
        "adjusted_imps": (1.5, OBSERVED),
        "adjusted_board": ("neuberg", VERIFIED),
        "pct_decimals": (2, VERIFIED),
    },
    "acbl": {
        "scale": ("1/0.5", DOCUMENTED),
        "total": ("mean-of-boards", OBSERVED),
    },
    "ebu": {
        "adjusted_session_pct": (True, DOCUMENTED),
        "trim": (1, ASSUMED),
        "pct_decimals": (2, ASSUMED),
    },
}

NAMES = tuple(PROFILES)

#: How a program names itself in the files it writes (USEBIO's PROGRAM_NAME, PBN's
#: Generator or Application), as the first words, lower case -> the profile of its
#: conventions. Compscore ("Compscore3") and Brenning's Ruter and Magic Contest (one
#: scoring engine; the Ruter profile reproduces a real Magic Contest Butler session)
#: are names seen in real files; the others are the programs' own names.
PROGRAMS: tuple[tuple[str, str], ...] = (
    ("compscore", "compscore"), ("ruter", "ruter"), ("magic contest", "ruter"),
    ("bridge base", "bbo"), ("bbo", "bbo"), ("jfr", "pary"), ("pary", "pary"),
    ("kops", "kops"), ("okbridge", "okbridge"), ("acblscore", "acbl"), ("ebuscore", "ebu"))


def program_profile(program: str | None) -> str | None:
    """The profile of the program an input names as its writer, or None for another.

    >>> program_profile("Compscore3"), program_profile("Magic Contest - Read more at x")
    ('compscore', 'ruter')
    >>> program_profile("Big Deal version 1.2"), program_profile(None)
    (None, None)
    """
    name = " ".join(str(program or "").casefold().split())
    return next((profile for start, profile in PROGRAMS
                 if name.startswith(start)
                 and not name[len(start):len(start) + 1].isalpha()), None)


def settings(profile: str) -> dict[str, Any]:
    """The option values of a profile (``scale`` included), without how we know them.

    >>> settings("ruter")["divisor"]
    'none'
    """
    if profile not in PROFILES:
        raise ValueError(f"unknown profile {profile!r}; choose from {', '.join(NAMES)}")
    return {name: value for name, (value, _) in PROFILES[profile].items()}
