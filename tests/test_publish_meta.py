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
    assert status_text(deadline, NOON + timedelta(minutes=29)).endswith("until " + deadline
                                                                        .astimezone()
                                                                        .strftime("%H:%M"))
    assert status_text(deadline, NOON + timedelta(minutes=29)).startswith(
        "Provisional results — corrections until ")
    assert status_text(deadline, deadline) == FINAL
    assert Publication(correction_minutes=0).deadline(NOON) is None
    assert status_text(None, NOON) == FINAL


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
