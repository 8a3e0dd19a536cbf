"""Corrections: what changed between a published session and its corrected input.

A *snapshot* keeps what a published workbook said that a correction can
change: every result (contract, declarer, tricks, lead, N-S score, keyed by
section, board and the two pairs) and every ranking row (keyed by section, line
and pair). :func:`diff` compares two snapshots; :func:`write_report` writes
the differences beside the new workbook as ``<name>_changes.csv`` (one row per
changed value) and ``<name>_changes.txt`` (for the director).
"""

from __future__ import annotations

import csv
import io
import math
from dataclasses import dataclass, field
from pathlib import Path
from typing import TYPE_CHECKING, Any

from traveller.batch.manifest import write_atomic
from traveller.publish.csvcells import inert
from traveller.words import places, plural

if TYPE_CHECKING:
    from traveller.result import Result

SNAPSHOT_FORMAT = 1
RESULT_KEY = ("section", "board", "ns_pair", "ew_pair")
RESULT_FIELDS = ("contract", "declarer", "tricks", "lead", "ns_score")
PAIR_KEY = ("section", "line", "pair")
CSV_COLUMNS = ["kind", "change", "section", "board", "ns_pair", "ew_pair", "line", "pair",
               "names", "field", "old", "new"]
LABELS = {"contract": "contract", "declarer": "by", "tricks": "tricks", "lead": "lead",
          "ns_score": "N-S score", "mp": "MP", "pct": "%", "place": "place",
          "boards": "boards", "names": "names"}


def _plain(value: Any) -> Any:
    """A JSON value: None for missing, Python numbers, floats to 6 decimals."""
    if value is None or (isinstance(value, float) and math.isnan(value)):
        return None
    if hasattr(value, "item"):
        value = value.item()
    if isinstance(value, float):
        return round(value, 6)
    if isinstance(value, int | str | bool):
        return value
    return None if str(value) in {"<NA>", "NaT", "nan"} else str(value)


def _table(frame: Any, key: tuple[str, ...], fields: tuple[str, ...] | None) -> dict[str, Any]:
    keys = [c for c in key if c in frame.columns]
    wanted = fields if fields is not None else tuple(frame.columns)
    columns = [str(c) for c in wanted if c in frame.columns and c not in keys]
    values = [_column(frame[c]) for c in keys + columns]
    rows = [list(row) for row in zip(*values, strict=True)] if values else [[]] * len(frame)
    return {"key": keys, "columns": columns, "rows": rows}


#: Dtypes whose cells Arrow lists as :func:`_plain` gives them (text, whole numbers).
_ARROW_READY = frozenset({"string", "str",
                          *(f"{u}Int{n}" for u in ("", "U") for n in (8, 16, 32, 64))})


def _column(column: Any) -> list[Any]:
    """A column's values as :func:`_plain` gives them, a whole column at a time.

    Floats are rounded by Python's ``round`` (as :func:`_plain` does), texts and
    whole numbers pass as they are, anything else goes through :func:`_plain`.
    """
    if column.dtype.kind == "f":
        floats = column.to_numpy(dtype="float64", na_value=math.nan).tolist()
        return [round(v, 6) if v == v else None for v in floats]
    if column.dtype.name in _ARROW_READY:  # Arrow gives str/int, None for missing
        import pyarrow as pa

        return pa.array(column.array).to_pylist()  # type: ignore[no-any-return]
    return [v if type(v) is str or type(v) is int else _plain(v)
            for v in column.tolist()]


def snapshot(result: Result) -> dict[str, Any]:
    """What a published workbook says that a correction can change (JSON-ready).

    Also the session's title lines, method and scale, and its players (with
    their federation numbers and master points): what the results store and a
    season's ladder read, so neither has to score the travellers again.
    """
    out = {"format": SNAPSHOT_FORMAT,
           "results": _table(result.travellers, RESULT_KEY, RESULT_FIELDS),
           "ranking": _table(result.ranking, PAIR_KEY, None),
           "session": {**{k: str(v) for k, v in result.meta.items()},
                       **{k: _plain(result.settings.get(k)) for k in
                          ("method", "movement", "scale", "points", "boards")}}}
    players = result.points if result.points is not None else result.players
    if players is not None:
        out["players"] = _table(players, ("section", "line", "pair"), None)
    return out


@dataclass
class Changes:
    """The differences between two snapshots: result rows and pair rows."""

    results: list[dict[str, Any]] = field(default_factory=list)
    pairs: list[dict[str, Any]] = field(default_factory=list)

    @property
    def empty(self) -> bool:
        return not self.results and not self.pairs

    def as_dict(self) -> dict[str, Any]:
        return {"results": self.results, "pairs": self.pairs}


def _rows(table: dict[str, Any]) -> dict[tuple[Any, ...], dict[str, Any]]:
    """Rows by key; a repeated key gets a running number so no row is lost."""
    keys, columns = table["key"], table["columns"]
    out: dict[tuple[Any, ...], dict[str, Any]] = {}
    for row in table["rows"]:
        record = dict(zip(keys + columns, row, strict=True))
        key = tuple(record[k] for k in keys)
        n = 0
        while (*key, n) in out:
            n += 1
        out[(*key, n)] = record
    return out


def _differs(old: Any, new: Any) -> bool:
    if isinstance(old, float | int) and isinstance(new, float | int):
        return round(float(old), 4) != round(float(new), 4)
    return old != new


def _diff_table(old: dict[str, Any], new: dict[str, Any]) -> list[dict[str, Any]]:
    before, after = _rows(old), _rows(new)
    keys = old["key"] if old["key"] == new["key"] else new["key"]
    compared = [c for c in new["columns"] if c in old["columns"]]
    out: list[dict[str, Any]] = []
    for key in [*after, *(k for k in before if k not in after)]:
        o, n = before.get(key), after.get(key)
        ident = {k: (n or o or {}).get(k) for k in keys}
        if "names" in new["columns"]:
            ident["names"] = (n or o or {}).get("names")
        if o is None or n is None:
            values = {c: v for c, v in (n or o or {}).items() if c not in ident}
            out.append({"change": "added" if o is None else "removed", **ident,
                        "values": values})
            continue
        fields = {c: [o.get(c), n.get(c)] for c in compared if _differs(o.get(c), n.get(c))}
        if fields:
            out.append({"change": "changed", **ident, "fields": fields})
    return out


def diff(old: dict[str, Any], new: dict[str, Any]) -> Changes:
    """Which results and which pairs' standing changed from ``old`` to ``new``.

    >>> diff(snapshot(before), snapshot(after)).pairs[0]  # doctest: +SKIP
    {'change': 'changed', 'section': '', 'line': 'NS', 'pair': 3, 'names': '...',
     'fields': {'mp': [120.0, 115.5], 'pct': [55.56, 53.47], 'place': ['2', '4']}}
    """
    return Changes(_diff_table(old["results"], new["results"]),
                   _diff_table(old["ranking"], new["ranking"]))


# --------------------------------------------------------------------------
# Reports


def show(value: Any, column: str = "") -> str:
    """A value as a director reads it: signed scores, at most two decimals."""
    if value is None or value == "":
        return "–"
    if isinstance(value, float):  # (rounded as the workbook shows it)
        text = places(value).rstrip("0").rstrip(".")
        return text if text != "-0" else "0"
    if column == "ns_score" and isinstance(value, int) and value > 0:
        return f"+{value}"
    return str(value)


def _where(record: dict[str, Any], kind: str) -> str:
    section = f"section {record['section']}, " if record.get("section") else ""
    if kind == "result":
        return (f"{section}board {record.get('board')}, N-S {record.get('ns_pair')} "
                f"v E-W {record.get('ew_pair')}")
    line = {"NS": "N-S ", "EW": "E-W "}.get(record.get("line") or "", "")
    names = f" ({record['names']})" if record.get("names") else ""
    return f"{section}{line}pair {record.get('pair')}{names}"


def label(column: str) -> str:
    """A column's name in a report ("ns_score" -> "N-S score")."""
    from traveller.publish.workbook import HEADERS

    return LABELS.get(column) or HEADERS.get(column) or column.replace("_", " ")


def _describe(record: dict[str, Any], kind: str) -> str:
    where = _where(record, kind)
    if record["change"] == "changed":
        parts = [f"{label(c)} {show(o, c)} → {show(n, c)}"
                 for c, (o, n) in record["fields"].items()]
        return f"{where}: " + ", ".join(parts)
    values = ", ".join(f"{label(c)} {show(v, c)}" for c, v in
                       record["values"].items() if v is not None)
    return f"{where}: {record['change']} ({values})"


def report_text(changes: Changes, title: str, when: str) -> str:
    """The corrections report a director reads."""
    lines = [f"Corrections: {title}", when, ""]
    if changes.empty:
        lines.append("No result and no pair's standing changed.")
    for kind, records in (("result", changes.results), ("pair", changes.pairs)):
        if records:
            lines.append(f"{plural(len(records), kind)} changed:")
            lines.extend(f"  {_describe(r, kind)}" for r in records)
            lines.append("")
    return "\n".join(lines).rstrip() + "\n"


def _csv_rows(records: list[dict[str, Any]], kind: str) -> list[dict[str, Any]]:
    rows: list[dict[str, Any]] = []
    for record in records:
        base = {c: record.get(c) for c in CSV_COLUMNS if c in record}
        base.update(kind=kind, change=record["change"])
        if record["change"] == "changed":
            rows.extend({**base, "field": c, "old": show(o, c), "new": show(n, c)}
                        for c, (o, n) in record["fields"].items())
        else:
            text = _describe(record, kind).split(": ", 1)[1]
            rows.append({**base, "field": kind, "old": text if record["change"] == "removed"
                         else "", "new": text if record["change"] == "added" else ""})
    return rows


def report_csv(changes: Changes) -> str:
    """One row per changed value: kind, change, where, field, old, new."""
    buffer = io.StringIO()
    writer = csv.DictWriter(buffer, CSV_COLUMNS, extrasaction="ignore", lineterminator="\n")
    writer.writeheader()
    rows = _csv_rows(changes.results, "result") + _csv_rows(changes.pairs, "pair")
    writer.writerows([{k: inert(v) for k, v in row.items()} for row in rows])
    return buffer.getvalue()


def write_report(changes: Changes, base: Path, formats: str, title: str,
                 when: str) -> list[Path]:
    """Write ``<base>_changes.csv`` and/or ``.txt`` (atomically); the paths written."""
    written = []
    if formats in ("both", "csv"):
        written.append(write_atomic(base.with_name(f"{base.name}_changes.csv"),
                                    report_csv(changes)))
    if formats in ("both", "txt"):
        written.append(write_atomic(base.with_name(f"{base.name}_changes.txt"),
                                    report_text(changes, title, when)))
    return written
