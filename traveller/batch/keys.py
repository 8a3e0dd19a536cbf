"""The keys of ``traveller.toml`` and how each value is checked (see settings.py).

Keys are the batch's own (``output_suffix``, ``changes``, ``exclude``, the
publication's ``html``, ``title``, ``date``, ``club``, ``correction_minutes``, and the
season's ``ladder``, ``ladder_rule``, ``store``), the
keyword options of :func:`traveller.pipeline.process` (``scale``, ``movement``,
``notation``, ``names``, ``encoding``, ``points``) and the fields of its ``Options``
dataclass (rulings and structure), found by introspection so that a scoring
option added to the pipeline is a key without a change here.
"""

from __future__ import annotations

import codecs
import dataclasses
import difflib
import functools
import tomllib
import typing
from pathlib import Path
from typing import Any

from traveller.errors import TravellerError

FILE_NAME = "traveller.toml"
CHANGES_FORMATS = ("both", "csv", "txt", "none")
MOVEMENTS = ("auto", "mitchell", "howell")
#: The keyword of :func:`traveller.pipeline.process` taking a dataclass of scoring options.
OPTIONS_KEYWORD = "options"

#: Keys of the batch itself (not passed to the pipeline) and their defaults.
BATCH_DEFAULTS: dict[str, Any] = {"output_suffix": "_results", "changes": "both", "exclude": []}
#: Publication keys (batch/publishing.py): the website, the title lines, the correction period.
PUBLICATION_DEFAULTS: dict[str, Any] = {"html": False, "title": None, "date": None, "club": None,
                                        "start": None, "correction_minutes": 30}
BATCH_DEFAULTS.update(PUBLICATION_DEFAULTS)
#: Season keys (batch/seasons.py): the ladder a folder's sessions belong to, its rule,
#: and the results store ("sqlite": beside the output; a database URL; "none").
SEASON_DEFAULTS: dict[str, Any] = {"ladder": None, "ladder_rule": "", "store": "sqlite"}
BATCH_DEFAULTS.update(SEASON_DEFAULTS)
#: The keys of a ladder rule ("best=8,min_sessions=5"), as traveller.score.ladder has them.
LADDER_RULE_KEYS = ("by", "best", "of", "min_sessions", "min_partners", "imp_k", "date_from",
                    "date_to")


class SettingsError(TravellerError):
    """A ``traveller.toml`` or a command-line override cannot be used."""


@functools.cache
def pipeline_defaults() -> dict[str, Any]:
    """The keyword options of :func:`traveller.pipeline.process` and their defaults."""
    from traveller.options import PROCESS_DEFAULTS

    return dict(PROCESS_DEFAULTS)


@functools.cache
def option_fields() -> dict[str, Any]:
    """Fields of the pipeline's scoring options (``process(options=Options(...))``).

    Each field (``phantom_award``, ``sections``, ...) is a key of its own;
    ``{}`` when the pipeline has no such dataclass.
    """
    from traveller import options

    cls = getattr(options, "Options", None)
    if OPTIONS_KEYWORD not in pipeline_defaults() or not dataclasses.is_dataclass(cls):
        return {}
    return {f.name: None if f.default is dataclasses.MISSING else f.default
            for f in dataclasses.fields(cls)}


def pipeline_keys() -> tuple[str, ...]:
    """The keyword options of :func:`traveller.pipeline.process` (scale, movement, ...)."""
    return tuple(k for k in pipeline_defaults() if k != OPTIONS_KEYWORD or not option_fields())


def known_keys() -> tuple[str, ...]:
    """Every key a ``traveller.toml`` may set."""
    return (*pipeline_keys(), *option_fields(), *BATCH_DEFAULTS)


def make_options(values: dict[str, Any]) -> Any:
    """The pipeline's options object from the option keys set (None when none is)."""
    from traveller import options

    given = {k: v for k, v in values.items() if k in option_fields()}
    return options.Options(**given) if given else None


def _option_value(key: str, value: Any, where: str) -> Any:
    """A list for a tuple field (its items typed as the field says), else a plain value."""
    default = option_fields()[key]
    if not isinstance(default, tuple):
        return value
    from traveller import options

    items = value if isinstance(value, list) else [value]
    hint = typing.get_type_hints(options.Options).get(key)
    kind = (typing.get_args(hint) or (object,))[0]
    if kind is str:
        return tuple(str(v) for v in items)
    if kind in (int, float) and not all(isinstance(v, int | float) for v in items):
        raise SettingsError(f"{where}: {key} must be a list of numbers, e.g. [19, 20, 25]")
    return tuple(items)


def _choice(key: str, value: Any, choices: Any, where: str) -> str:
    if value not in choices:
        raise SettingsError(f"{where}: {key} = {value!r} is not one of "
                            f"{', '.join(map(repr, choices))}; fix the value")
    return str(value)


def _text(key: str, value: Any, where: str) -> str:
    if not isinstance(value, str) or not value:
        raise SettingsError(f"{where}: {key} must be a non-empty text in quotes, "
                            f"not {value!r}")
    return value


def _choices(key: str) -> list[str] | None:
    """The allowed values of a key with a fixed set, else None."""
    from traveller.options import DIVISORS, METHODS, NOTATIONS, ROUNDINGS, SCALES, SECTIONS

    return {"scale": list(SCALES), "movement": list(MOVEMENTS),
            "notation": ["auto", *NOTATIONS], "changes": list(CHANGES_FORMATS),
            "method": list(METHODS), "divisor": list(DIVISORS),
            "datum_rounding": list(ROUNDINGS), "sections": list(SECTIONS)}.get(key)


def _path_or_text(key: str, value: Any, where: str, base: Path) -> Any:
    """``names``/``hands`` (an existing file, relative to ``base``), ``encoding``,
    ``output_suffix``."""
    if key in ("names", "hands"):
        path = (base / _text(key, value, where)).resolve()
        if not path.is_file():
            raise SettingsError(f"{where}: {key} = {value!r}: no such file {path}; "
                                "the path is relative to the folder of the settings")
        return path
    if key == "encoding":
        try:
            codecs.lookup(_text(key, value, where))
        except LookupError:
            raise SettingsError(f"{where}: encoding = {value!r} is not a known text "
                                "encoding; use e.g. \"utf-8\" or \"cp1250\"") from None
        return value
    if not isinstance(value, str) or any(c in value for c in "/\\"):
        raise SettingsError(f"{where}: output_suffix must be text without / or \\")
    return value


def _check(key: str, value: Any, where: str, base: Path) -> Any:
    """One validated value; paths are made absolute from ``base``."""
    choices = _choices(key)
    if choices is not None:
        return _choice(key, value, choices, where)
    if key in PUBLICATION_DEFAULTS:
        return _publication_value(key, value, where)
    if key in ("names", "hands", "encoding", "output_suffix"):
        return _path_or_text(key, value, where, base)
    if key == "dd" and not isinstance(value, bool):
        raise SettingsError(f"{where}: dd must be true or false (the double-dummy analysis "
                            f"of the deals), not {value!r}")
    if key == "points":
        return _points(value, where, base)
    if key in SEASON_DEFAULTS:
        return _season_value(key, value, where)
    if key == "exclude":
        value = [value] if isinstance(value, str) else value
        if not isinstance(value, list) or not all(isinstance(v, str) for v in value):
            raise SettingsError(f"{where}: exclude must be a list of file-name patterns, "
                                "e.g. [\"*.txt\", \"old/*\"]")
        return list(value)
    scalar = isinstance(value, str | int | float | bool)
    if key in option_fields() and (scalar or isinstance(value, list)):
        return _option_value(key, value, where)
    if not scalar:
        raise SettingsError(f"{where}: {key} must be a text, number or true/false")
    return value


def _points(value: Any, where: str, base: Path) -> str:
    """A master-point scale: a built-in name or a .toml file relative to ``base``, its
    inputs after a colon (``"abf:weight=1.5"``), read once here so a bad one fails early."""
    from traveller.read.scales import ScaleError, read_scale, split_spec

    text = _text("points", value, where)
    name, inputs = split_spec(text)
    if name.lower().endswith(".toml"):
        text = str((base / name).resolve()) + (f":{inputs}" if inputs else "")
    try:
        read_scale(text)
    except ScaleError as exc:
        raise SettingsError(f"{where}: points = {value!r}: {exc}") from None
    return text


def _season_value(key: str, value: Any, where: str) -> str:
    """``ladder`` a name, ``store`` "sqlite", "none" or a URL, ``ladder_rule`` KEY=VALUE,..."""
    if key == "ladder_rule":
        if not isinstance(value, str):
            raise SettingsError(f"{where}: ladder_rule must be a text such as "
                                "\"best=8,min_sessions=5\", not {value!r}")
        for part in filter(None, (p.strip() for p in value.split(","))):
            name, sep, _ = part.partition("=")
            if not sep or name.strip() not in LADDER_RULE_KEYS:
                raise SettingsError(f"{where}: ladder_rule {part!r}: write KEY=VALUE with a "
                                    f"key of {', '.join(LADDER_RULE_KEYS)}")
        return value
    text = _text(key, value, where)
    if key == "store" and text not in ("sqlite", "none") and "://" not in text:
        raise SettingsError(f"{where}: store = {value!r}: write \"sqlite\" (beside the "
                            "output), \"none\", or a database URL such as "
                            "\"postgresql+psycopg://user@host/bridge\"")
    return text


def _publication_value(key: str, value: Any, where: str) -> Any:
    """``html`` true/false, ``correction_minutes`` a whole number >= 0, else a text."""
    if key == "html":
        if not isinstance(value, bool):
            raise SettingsError(f"{where}: html must be true or false, not {value!r}")
        return value
    if key == "correction_minutes":
        if isinstance(value, bool) or not isinstance(value, int) or value < 0:
            raise SettingsError(f"{where}: correction_minutes must be a whole number of "
                                f"minutes, 0 or more (0: final at once), not {value!r}")
        return value
    if key == "start":
        from traveller.publish.meta import start_time

        if not isinstance(value, str) or start_time(value) is None:
            raise SettingsError(f"{where}: start must be the time the sessions start, such as "
                                f"\"19:30\", not {value!r}")
    return _text(key, value, where)


def check_layer(raw: dict[str, Any], where: str, base: Path) -> dict[str, Any]:
    """Validate one layer of settings (a file or the command line)."""
    known = known_keys()
    layer: dict[str, Any] = {}
    for key, value in raw.items():
        if key not in known:
            close = difflib.get_close_matches(key, known, n=1)
            hint = f"did you mean {close[0]!r}? " if close else ""
            raise SettingsError(f"{where}: unknown key {key!r}; {hint}"
                                f"known keys: {', '.join(known)}")
        layer[key] = _check(key, value, where, base)
    return layer


def read_file(path: Path) -> dict[str, Any]:
    """Read and validate one ``traveller.toml``."""
    try:
        with open(path, "rb") as handle:
            raw = tomllib.load(handle)
    except tomllib.TOMLDecodeError as exc:
        raise SettingsError(f"{path}: not valid TOML ({exc}); fix the file") from None
    except OSError as exc:
        raise SettingsError(f"{path}: cannot be read ({exc.strerror})") from None
    return check_layer(raw, str(path), path.parent)


def parse_assignment(text: str) -> tuple[str, Any]:
    """``KEY=VALUE`` from ``--set``: VALUE as a TOML value, or else as plain text."""
    key, sep, value = text.partition("=")
    if not sep or not key.strip():
        raise SettingsError(f"--set {text!r}: write KEY=VALUE, e.g. --set scale=1/0.5")
    try:
        parsed = tomllib.loads(f"v = {value.strip()}")["v"]
    except tomllib.TOMLDecodeError:
        parsed = value.strip()
    return key.strip(), parsed
