"""Titles, dates, clubs and the correction period on every publication."""

from __future__ import annotations

from datetime import datetime, timedelta, timezone
from pathlib import Path

import pytest
from conftest import SAMPLE_DATA, real_file

from traveller.pipeline import process
from traveller.publish.meta import FINAL, Publication, publication_meta, status_text

ZONE = timezone(timedelta(hours=1))
NOON = datetime(2026, 11, 3, 12, 0, tzinfo=ZONE)


def test_status_within_and_after_the_period() -> None:
    pub = Publication(correction_minutes=30)
    deadline = pub.deadline(NOON)
    assert deadline == NOON + timedelta(minutes=30)
    local = deadline.astimezone()
    assert status_text(deadline, NOON + timedelta(minutes=29)).endswith(
        f"until {local:%H:%M} on {local.day} {local:%B %Y}")
    assert status_text(deadline, NOON + timedelta(minutes=29)).startswith(
        "Provisional results — corrections until ")
    assert status_text(deadline, deadline) == FINAL
    assert Publication(correction_minutes=0).deadline(NOON) is None
    assert status_text(None, NOON) == FINAL


def test_the_deadline_says_its_date() -> None:
    deadline = datetime(2026, 11, 3, 21, 54).astimezone()
    assert status_text(deadline, deadline - timedelta(minutes=1)) == (
        "Provisional results — corrections until 21:54 on 3 November 2026")


def test_the_period_runs_from_the_session_when_its_date_is_known() -> None:
    pub = Publication(correction_minutes=30, start="19:30")
    session = NOON.date()  # 3 November 2026, started 19:30
    late = NOON + timedelta(days=28)  # scored on 1 December
    assert pub.deadline(late, session) == datetime(2026, 11, 4, 20, 0, tzinfo=ZONE)
    assert status_text(pub.deadline(late, session), late) == FINAL
    evening = NOON.replace(hour=22, minute=15)  # the same evening: from publication
    assert pub.deadline(evening, session) == evening + timedelta(minutes=30)
    # without a start time: no later than a day after the end of the session's day
    day = Publication(correction_minutes=30)
    assert day.deadline(late, session) == datetime(2026, 11, 5, 0, 30, tzinfo=ZONE)
    morning = NOON + timedelta(days=1)  # the next morning: still from publication
    assert day.deadline(morning, session) == morning + timedelta(minutes=30)
    assert day.deadline(late) == late + timedelta(minutes=30)  # no date: from publication


@pytest.mark.parametrize("bad", ["25:00", "7pm", "", "19:60"])
def test_a_start_that_is_no_time_is_refused(bad: str) -> None:
    with pytest.raises(ValueError, match="start"):
        Publication(start=bad)


def test_an_old_session_is_published_final_and_a_dated_title_dates_it(tmp_path: Path) -> None:
    from traveller.publish.outputs import stamp

    result = process(SAMPLE_DATA / "club_session.xlsx")  # titled "..., 3 November 2026"
    stamp(result, Publication(), now=NOON + timedelta(days=28))
    assert result.meta["status"] == FINAL
    result = process(SAMPLE_DATA / "club_session.xlsx")
    evening = NOON.replace(hour=22)
    stamp(result, Publication(), now=evening)  # the same evening: 30 minutes from now
    assert result.meta["status"] == status_text(evening + timedelta(minutes=30), evening)
    assert result.meta["status"].startswith("Provisional")


def test_a_title_given_keeps_the_date_the_inputs_title_carried() -> None:
    """--title "Club night" over "..., 3 November 2026" lost the session's date: published
    weeks later, its results read provisional, and its PBN was dated by the file."""
    from traveller.publish.outputs import stamp

    result = process(SAMPLE_DATA / "club_session.xlsx")
    stamp(result, Publication(title="Club night"), now=NOON + timedelta(days=28))
    assert result.meta == {"title": "Club night", "date": "3 November 2026", "status": FINAL}
    result = process(SAMPLE_DATA / "club_session.xlsx")  # a date given, or in the new title
    stamp(result, Publication(title="Club night", date="4.11.2026"), now=NOON)
    assert result.meta["date"] == "4.11.2026"
    result = process(SAMPLE_DATA / "club_session.xlsx")
    stamp(result, Publication(title="Club night 5 November 2026"), now=NOON)
    assert "date" not in result.meta


def test_an_untitled_session_named_by_its_date_is_dated_by_it_and_titled_by_its_club(
        tmp_path: Path) -> None:
    from traveller.publish.outputs import stamp

    src = tmp_path / "2026-11-03.csv"
    src.write_bytes((SAMPLE_DATA / "club_session.csv").read_bytes())
    result = process(src)
    stamp(result, Publication(club="Riverside"), now=NOON)
    assert result.meta["title"] == "Riverside" and result.meta["date"] == "2026-11-03"
    result = process(SAMPLE_DATA / "club_session.csv")
    stamp(result, Publication(club="Riverside"), now=NOON)  # a name that is no date: kept
    assert result.meta["title"] == "club_session" and "date" not in result.meta


@pytest.mark.parametrize("bad", [-1, 1.5, True, "30"])
def test_correction_minutes_are_checked(bad: object) -> None:
    with pytest.raises(ValueError, match="correction_minutes"):
        Publication(correction_minutes=bad)  # type: ignore[arg-type]


def test_given_title_date_club_win_over_the_input() -> None:
    meta = publication_meta({"title": "From the sheet", "date": "3.11.2026"},
                            Publication(title=" Club night ", club="Riverside"), None, NOON)
    assert meta == {"title": "Club night", "date": "3.11.2026", "club": "Riverside",
                    "status": FINAL}


def test_title_from_the_sheet_else_the_file_name(tmp_path: Path) -> None:
    assert process(SAMPLE_DATA / "club_session.xlsx").meta == {
        "title": "Riverside Bridge Club - Tuesday pairs, 3 November 2026"}
    assert process(SAMPLE_DATA / "club_session.csv").meta == {"title": "club_session"}
    text = (SAMPLE_DATA / "club_session.csv").read_text(encoding="utf-8")
    titled = tmp_path / "t.csv"
    titled.write_text("Spring cup; round 2\n\n" + text, encoding="utf-8")
    assert process(titled).meta["title"] == "Spring cup; round 2"


def test_event_date_and_club_from_usebio_and_pbn() -> None:
    usebio = process(real_file("usebio-compscore", "mp_pairs_howell.xml")).meta
    assert usebio == {"title": "EL Wed 10.00am Open (27-Jul-22)", "date": "27/07/2022",
                      "club": "NSBC@Lindfield"}
    pbn = process(real_file("pbn-ruter", "sm1.pbn")).meta
    assert pbn == {"title": "SM-parikilpailu - Session 1", "date": "2014.10.05"}
