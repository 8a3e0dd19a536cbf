"""Master-point scales as data: a small TOML file per federation or club (docs/points.md).

A scale is named (``abf``, ``acbl``, ``ebu``, ``pzbs``: files shipped with the
package) or given as a path to a ``.toml`` file, optionally followed by inputs
that the session or the club decides: ``abf:weight=1.5``, ``pzbs:first=40``,
``acbl:rate=0.06,cap=1.00``, ``abf:rounding=up``. Every value is checked when
the scale is read, and a bad one is an error that names the file and the key.
"""

from __future__ import annotations

import tomllib
from dataclasses import dataclass, field, replace
from decimal import Decimal, InvalidOperation
from fractions import Fraction
from importlib import resources
from pathlib import Path
from typing import Any

from traveller.errors import UnreadableFileError

BUILT_IN = ("abf", "acbl", "ebu", "pzbs")
ROUNDINGS = ("half-up", "up", "down", "half-even")
PLACE_ROUNDINGS = ("down", "up", "half-up")
AWARD_RULES = ("shares", "steps", "curve")
#: Inputs a spec may set after the scale's name: ``abf:weight=1.5,rounding=up``.
INPUTS = ("weight", "first", "rate", "cap", "rounding", "decimals", "minimum")


class ScaleError(UnreadableFileError):
    """A master-point scale cannot be read or used."""


@dataclass(frozen=True)
class FirstRule:
    """How one kind of field's first-place award is found.

    ``per``: what the rate counts, ``tables`` (half tables up) or ``contestants``;
    ``rate`` x weight x count up to ``up_to``, beyond it weight x (1 - e^(-count/decay));
    at most ``cap``. ``table``: rows of (movement, tables range, boards range, award).
    """

    per: str = "contestants"
    rate: Decimal | None = None
    up_to: int | None = None
    decay: Decimal | None = None
    cap: Decimal | None = None
    table: tuple[tuple[str, int, int, int, int, Decimal], ...] = ()


@dataclass(frozen=True)
class Places:
    """Places paid: ``share`` of the contestants of the field, rounded ``round``."""

    share: Fraction = Fraction(1, 2)
    round: str = "down"


@dataclass(frozen=True)
class PointsScale:
    """A master-point scale, its inputs filled in (see the module docs)."""

    name: str
    source: str
    first: dict[str, FirstRule] = field(default_factory=dict)
    first_input: bool = False
    fixed_first: Decimal | None = None
    weight: Decimal = Decimal(1)
    places: dict[str, Places] = field(default_factory=dict)
    rule: str = "shares"
    shares: tuple[Decimal, ...] = (Decimal(1),)
    then_offset: int = 0
    curve: tuple[tuple[Decimal, Decimal], ...] = ()
    curve_end: Decimal = Decimal("0.5")
    rest: Decimal = Decimal(0)
    decimals: int = 2
    rounding: str = "half-up"
    minimum: Decimal = Decimal(0)
    verified: bool = False

    def check_inputs(self) -> None:
        """A ScaleError when the scale needs an input it was not given (the first-place
        award of a scale that takes it from the event, e.g. ``pzbs:first=40``)."""
        if self.fixed_first is None and self.first_input and not self.first:
            raise ScaleError(f"{self.source}: the first-place award is an input of this "
                             f"scale; give it, e.g. --points {self.source}:first=40")


def read_scale(spec: str | Path | PointsScale) -> PointsScale:
    """The scale a ``--points`` value names, its inputs applied.

    >>> read_scale("abf:weight=1.5").weight
    Decimal('1.5')
    """
    if isinstance(spec, PointsScale):
        return spec
    text = str(spec).strip()
    name, given = split_spec(text) if not isinstance(spec, Path) else (text, "")
    raw, where = _load(name)
    inputs = _inputs(given, where) if given else {}
    return _build(raw, where, inputs)


def split_spec(text: str) -> tuple[str, str]:
    """``"abf:weight=1.5"`` -> ("abf", "weight=1.5"); a file's path may hold colons (C:\\)."""
    end = text.lower().find(".toml")
    if end >= 0:
        return text[:end + 5], text[end + 5:].removeprefix(":")
    name, _, given = text.partition(":")
    return name, given


def _load(name: str) -> tuple[dict[str, Any], str]:
    if name.lower() in BUILT_IN:
        data = resources.files("traveller.read").joinpath(f"scales/{name.lower()}.toml")
        return tomllib.loads(data.read_text(encoding="utf-8")), name.lower()
    path = Path(name)
    if path.suffix.lower() != ".toml":
        raise ScaleError(f"--points {name!r}: not a built-in scale ({', '.join(BUILT_IN)}) "
                         "nor a .toml scale file; give one of those")
    try:
        return tomllib.loads(path.read_text(encoding="utf-8")), str(path)
    except OSError as exc:
        raise ScaleError(f"{path}: the points scale cannot be read ({exc.strerror}); "
                         "check the path") from None
    except (tomllib.TOMLDecodeError, UnicodeDecodeError) as exc:
        raise ScaleError(f"{path}: not a valid TOML scale file ({exc}); fix the file") from None


def _inputs(given: str, where: str) -> dict[str, Any]:
    out: dict[str, Any] = {}
    for part in filter(None, (p.strip() for p in given.split(","))):
        key, sep, value = part.partition("=")
        key = key.strip().lower()
        if not sep or key not in INPUTS:
            raise ScaleError(f"--points {where}:{given}: {part!r} is not KEY=VALUE with a key "
                             f"of {', '.join(INPUTS)}; e.g. {where}:weight=1.5")
        out[key] = value.strip()
    return out


def _number(value: Any, key: str, where: str) -> Decimal:
    try:
        number = Decimal(str(value).strip())
    except InvalidOperation:
        number = Decimal("NaN")
    if isinstance(value, bool) or not number.is_finite() or number < 0:
        raise ScaleError(f"{where}: {key} = {value!r} is not a number 0 or more; fix the value")
    return number


def _share(value: Any, where: str) -> Fraction:
    try:
        share = Fraction(str(value).strip())
    except (ValueError, ZeroDivisionError):
        share = Fraction(-1)
    if isinstance(value, bool) or not 0 < share <= 1:
        raise ScaleError(f"{where}: places share = {value!r} is not a share of the field "
                         "above 0 and at most 1, such as 0.5 or \"1/3\"; fix the value")
    return share


def _choice(value: Any, key: str, choices: tuple[str, ...], where: str) -> str:
    if value not in choices:
        raise ScaleError(f"{where}: {key} = {value!r} is not one of "
                         f"{', '.join(map(repr, choices))}; fix the value")
    return str(value)


def _first_rule(raw: dict[str, Any], where: str) -> FirstRule:
    num = (lambda k: _number(raw[k], f"first {k}", where) if k in raw else None)  # noqa: E731
    rows = []
    for row in raw.get("table", []):
        try:
            (t0, t1), (b0, b1) = row["tables"], row["boards"]
            rows.append((str(row.get("movement", "any")), int(t0), int(t1), int(b0), int(b1),
                         _number(row["award"], "first table award", where)))
        except (KeyError, TypeError, ValueError):
            raise ScaleError(f"{where}: a first.table row needs movement, tables = [from, to], "
                             f"boards = [from, to] and award; found {row!r}") from None
    per = _choice(raw.get("per", "contestants"), "first per", ("tables", "contestants"), where)
    up_to = num("up_to")
    return FirstRule(per, num("rate"), None if up_to is None else int(up_to), num("decay"),
                     num("cap"), tuple(rows))


def _places(raw: dict[str, Any], where: str) -> dict[str, Places]:
    def one(r: dict[str, Any]) -> Places:
        return Places(_share(r.get("share", "1/2"), where),
                      _choice(r.get("round", "down"), "places round", PLACE_ROUNDINGS, where))

    out = {"pairs": one(raw)}
    out.update({k: one(v) for k, v in raw.items() if isinstance(v, dict)})
    return out


def _then(text: str, where: str) -> int:
    plain = text.replace(" ", "")
    if plain == "first/n":
        return 0
    if plain.startswith("first/(n") and plain.endswith(")"):
        try:
            return int(plain[len("first/(n"):-1])
        except ValueError:
            pass
    raise ScaleError(f"{where}: award then = {text!r}: write \"first/n\" or \"first/(n-1)\"")


def _build(raw: dict[str, Any], where: str, inputs: dict[str, Any]) -> PointsScale:
    first = raw.get("first", {})
    award = raw.get("award", {})
    rules = {k: _first_rule(v, where) for k, v in first.items() if isinstance(v, dict)}
    if isinstance(first.get("table"), list):  # [[first.table]] rows, any kind of field
        rules["any"] = _first_rule({"per": "tables", "table": first["table"]}, where)
    if not rules and not first.get("input"):
        raise ScaleError(f"{where}: no first-place rule: add [first.any] (per, rate) or "
                         "[[first.table]] rows, or input = true under [first]")
    rule = _choice(award.get("rule", "shares"), "award rule", AWARD_RULES, where)
    scale = PointsScale(
        name=str(raw.get("name", where)), source=where, first=rules,
        first_input=bool(first.get("input", False)),
        weight=_number(raw.get("weight", 1), "weight", where),
        places=_places(raw.get("places", {}), where), rule=rule,
        shares=tuple(_number(s, "award shares", where) for s in award.get("shares", [1])),
        then_offset=_then(str(award.get("then", "first/n")), where),
        curve=tuple((_number(f, "curve", where), _number(s, "curve", where))
                    for f, s in award.get("curve", [])),
        curve_end=_number(award.get("curve_end", "0.5"), "curve_end", where),
        rest=_number(award.get("rest", 0), "rest", where),
        decimals=int(_number(raw.get("decimals", 2), "decimals", where)),
        rounding=_choice(raw.get("rounding", "half-up"), "rounding", ROUNDINGS, where),
        minimum=_number(raw.get("minimum", 0), "minimum", where),
        verified=bool(raw.get("verified", False)))
    if rule == "curve" and not scale.curve:
        raise ScaleError(f"{where}: award rule \"curve\" needs curve = [[share of field, "
                         "share of first], ...]")
    return _with_inputs(scale, inputs, where) if inputs else scale


def _with_inputs(scale: PointsScale, inputs: dict[str, Any], where: str) -> PointsScale:
    changes: dict[str, Any] = {}
    for key in ("weight", "minimum"):
        if key in inputs:
            changes[key] = _number(inputs[key], key, where)
    if "first" in inputs:
        changes["fixed_first"] = _number(inputs["first"], "first", where)
    if "rounding" in inputs:
        changes["rounding"] = _choice(inputs["rounding"], "rounding", ROUNDINGS, where)
    if "decimals" in inputs:
        changes["decimals"] = int(_number(inputs["decimals"], "decimals", where))
    if "rate" in inputs or "cap" in inputs:
        rate, cap = (_number(inputs[p], p, where) if p in inputs else None
                     for p in ("rate", "cap"))
        changes["first"] = {k: replace(r, rate=rate if rate is not None else r.rate,
                                       cap=cap if cap is not None else r.cap)
                            for k, r in scale.first.items()}
    return replace(scale, **changes)
