"""What each sheet says about the session: title lines and the printed page header.

The title comes from ``Result.meta`` (title, date, club, status) when given,
else from the input file's name.
"""

from __future__ import annotations

from pathlib import Path, PureWindowsPath
from typing import TYPE_CHECKING

from traveller.publish.shown import carry_shown
from traveller.tidy.few_boards import ranked_on_few
from traveller.words import plural

if TYPE_CHECKING:
    from traveller.result import Result


def _meta(result: Result) -> dict[str, str]:
    return {k: str(v) for k, v in (getattr(result, "meta", None) or {}).items() if v}


def heading(result: Result) -> str:
    """The session's title: ``meta["title"]``, else ``Results: FILE``."""
    meta = _meta(result)
    if meta.get("title"):
        return meta["title"]
    return f"Results: {Path(result.source).name}" if result.source else "Results"


def page_header(result: Result) -> str:
    """The page header printed on every sheet: the title."""
    return ("&L" + _escape(heading(result)))[:250]


def page_footer(result: Result) -> str:
    """The page footer: the sheet's name, the date, club and status, the page number."""
    meta = _meta(result)
    centre = " · ".join(meta[k] for k in ("date", "club", "status") if meta.get(k))
    return "&L&A" + ("&C" + _escape(centre)[:180] if centre else "") + "&RPage &P of &N"


def _escape(text: str) -> str:
    """Text for an Excel page header: ``&`` starts a code there, so it is doubled."""
    return text.replace("&", "&&")


def top_lines(result: Result) -> list[str]:
    """The Ranking sheet's first lines: the title, then date and club, then the status."""
    meta = _meta(result)
    title = heading(result)
    more = " · ".join(meta[k] for k in ("date", "club") if meta.get(k) and meta[k] != title)
    return [title, *([more] if more else []),
            *([meta["status"]] if meta.get("status") else [])]


def foot_lines(result: Result) -> list[str]:
    """The Ranking sheet's foot: how it was scored, in one plain sentence; each pair ranked
    on far fewer boards than the field (its boards against the field's: a reader sees why a
    pair placed high played so little); the problems listed, when there are any. With
    nothing scored, that it could not be, instead of the method."""
    n = len(result.problems)
    listed = [f"{plural(n, 'problem')} listed on the Problems sheet."] if n else []
    if result.ranking.empty and result.travellers.empty:
        return ["Nothing could be scored: the Problems sheet says why.", *listed]
    return [method_line(result) + ".", *ranked_on_few(result.problems), *listed]


def method_line(result: Result) -> str:
    """The method, the movement and the boards in words: "Matchpoints, 2 for each pair
    beaten and 1 for each tie; Neuberg's formula for boards played fewer times; Mitchell
    movement; 24 boards" (the Ranking sheet's foot; the site can say it alike)."""
    s = result.settings
    method = str(s.get("method", "mp"))
    parts = [method_words(method, s)]
    if method != "teams":
        movement = str(s.get("movement", "") or "")
        parts.append("individual" if s.get("individual") else
                     f"{movement.capitalize()} movement" if movement else "")
    boards = s.get("boards", 0)
    parts.append(plural(int(boards) if isinstance(boards, int | float) else 0, "board"))
    if s.get("combine") in ("average", "total"):
        parts.append(_event_words(result))
    return "; ".join(p for p in parts if p)


def _event_words(result: Result) -> str:
    """An event's ranking in words: what its places follow."""
    s = result.settings
    sessions = s.get("sessions", 0)
    followed = ("the average of each session's percentage (Average %)"
                if s.get("combine") == "average" else "the total matchpoints (Total)")
    carry = " with the carry-over added" if carry_shown(result.ranking) else ""
    return (f"an event of {plural(int(sessions) if isinstance(sessions, int) else 0, 'session')}"
            f", placed by {followed}{carry}")


#: Each matchpoint scale in words.
SCALE_WORDS = {"2/1/0": "2 for each pair beaten and 1 for each tie",
               "1/0.5": "1 for each pair beaten and ½ for each tie"}


def method_words(method: str, s: dict[str, object]) -> str:
    """The method and its options, in words, for the top of the Ranking sheet and the site."""
    if method == "ximp":
        line = f"Cross-IMPs, divided by {s.get('divisor')}"
    elif method == "butler":
        trim = s.get("trim")
        datum = {"median": "the median",
                 "table-median": "the median over every table"}.get(
            str(s.get("datum")), f"mean without the {trim} highest and lowest")
        if datum.startswith("mean") and str(trim).isdigit() and int(str(trim)) > 0:
            datum += (f" (the plain mean on a board of fewer than {2 * int(str(trim)) + 1} "
                      "results)")  # (too few to drop that many: the rule as scored)
        line = (f"Butler IMPs against a datum: {datum}, rounded to 10 "
                f"({s.get('datum_rounding')})")
    elif method == "total":
        return "Total points; ranked by points per board"
    elif method == "russian":
        vul = "Chicago deal" if s.get("chicago") else "board number"
        return f"Russian scoring: IMPs against the HCP target, vulnerability by {vul}"
    elif method == "teams":
        scale = str(s.get("vp_scale") or "wbf")
        # (a table's file by its name alone: a published page never shows a local path)
        vps = ("on the WBF continuous 20-point scale" if scale == "wbf" else
               f"from the table {PureWindowsPath(scale).name}")  # (either separator)
        return (f"Teams: IMPs per board, victory points {vps}; "
                "standings by VP, ties by IMP quotient")
    else:
        among = s.get("adjusted_board") == "among-real"
        scale = str(s.get("scale", "2/1/0"))
        line = (f"Matchpoints, {SCALE_WORDS.get(scale, f'scale {scale}')}; "
                + ("a board with artificial scores compared among its real results"
                   if among else "Neuberg's formula for boards played fewer times"))
        if s.get("total") == "mean-of-boards":
            line += "; a pair's % is the mean of its board percentages"
    if method in ("ximp", "butler"):
        line += "; ranked by " + ("total IMPs" if s.get("rank_by") == "total"
                                  else "IMPs per board")
    if s.get("sections") == "field":
        line += "; all sections compared as one field"
    if s.get("profile"):
        line += f"; as {s.get('profile')} scores"
    return line
