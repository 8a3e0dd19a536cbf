"""PBN 2.1 and USEBIO 1.2 out, read back through our own readers: the same session."""

from __future__ import annotations

from pathlib import Path

import pandas as pd
import pytest
from conftest import SAMPLE_DATA, real_file

from traveller.pipeline import process
from traveller.publish.meta import Publication
from traveller.publish.outputs import stamp
from traveller.publish.pbn_out import latin1, pbn_date, quoted, write_pbn
from traveller.publish.usebio_out import write_usebio
from traveller.read.pbn import parse_games, table_fields
from traveller.read.usebio import read_usebio

# a ruling by its meaning: each format spells it its own way (A60/40 is USEBIO's A6040)
RESULT_COLUMNS = ["section", "board", "ns_pair", "ew_pair", "contract", "declarer", "tricks",
                  "lead", "ns_score", "ruling_kind", "ns_award", "ew_award", "ns_mp", "ew_mp",
                  "ns_pct", "ew_pct", "ns_imp", "ew_imp", "datum"]
RANKING_COLUMNS = ["section", "line", "pair", "names", "boards", "mp", "pct", "imps",
                   "average", "place"]
WRITERS = {"pbn": write_pbn, "xml": write_usebio}


def same_session(first: object, second: object, latin: bool = False) -> None:
    """Travellers and ranking equal, value by value (names as Latin-1 holds them for PBN)."""
    for frame, columns in (("travellers", RESULT_COLUMNS), ("ranking", RANKING_COLUMNS)):
        a, b = getattr(first, frame), getattr(second, frame)
        keep = [c for c in columns if c in a]
        if latin and "names" in a:
            a = a.assign(names=a["names"].map(latin1).str.replace("-", "–"))
            b = b.assign(names=b["names"].str.replace("-", "–"))
        pd.testing.assert_frame_equal(a[keep].reset_index(drop=True),
                                      b[keep].reset_index(drop=True), check_dtype=False)


def round_trip(source: Path, kind: str, tmp_path: Path, **options: object) -> None:
    first = process(source, **options)
    written = WRITERS[kind](first, tmp_path / f"out.{kind}")
    second = process(written, **options)
    # the only problems read back are the source's leads not in the leader's hand: facts
    # the file states as the source did
    leads = int(first.problems["code"].eq("lead-not-held").sum())
    assert second.problems["code"].tolist() == ["lead-not-held"] * leads
    same_session(first, second, latin=kind == "pbn")
    t = second.travellers  # what the file states, as read back, is what we computed
    for ours, stated in (("ns_mp", "published_ns_mp"), ("ns_imp", "published_ns_imp")):
        if ours in first.travellers:
            assert (t[ours].astype(float) - t[stated].astype(float)).abs().max() < 0.006


@pytest.mark.parametrize("kind", ["pbn", "xml"])
@pytest.mark.parametrize("method", ["mp", "ximp", "butler", "total"])
def test_sample_round_trip(kind: str, method: str, tmp_path: Path) -> None:
    round_trip(SAMPLE_DATA / "club_session.xlsx", kind, tmp_path, method=method)


REAL = [("pbn-ruter", "sm1.pbn", "mp"), ("pbn-ruter", "butler.pbn", "butler"),
        ("usebio-compscore", "mp_pairs_mitchell_adjusted_02.xml", "mp"),
        ("usebio-compscore", "mp_pairs_howell.xml", "mp"),
        ("usebio-compscore", "butler_mitchell.xml", "butler"),
        ("usebio-compscore", "cross_imp_howell.xml", "ximp")]


@pytest.mark.parametrize("kind", ["pbn", "xml"])
@pytest.mark.parametrize(("folder", "name", "method"), REAL)
def test_real_files_re_exported_give_the_same_figures(folder: str, name: str, method: str,
                                                       kind: str, tmp_path: Path) -> None:
    round_trip(real_file(folder, name), kind, tmp_path, method=method)


def test_pbn_follows_the_standard_names_and_escapes(tmp_path: Path) -> None:
    result = process(real_file("pbn-ruter", "sm1.pbn"))
    stamp(result, Publication(title='Club "A" \\ night', correction_minutes=0))
    path = write_pbn(result, tmp_path / "out.pbn")
    games, _ = parse_games(path.read_text(encoding="latin-1"))
    first = games[0]
    assert first.get("Event") == 'Club "A" \\ night'
    assert first.get("Deal").startswith("N:J63.AKQ8762")
    assert first.tags["ScoreTable"].value.split(";")[:2] == ["PairId_NS\\2R", "PairId_EW\\2R"]
    total = first.tags["TotalScoreTable"]
    assert [c.split("\\")[0] for c in total.value.split(";")] == [
        "Rank", "RankTie", "PairId", "Direction", "TotalScoreMP", "TotalPercentage", "Names",
        "NrBoards"]
    assert len(total.rows) == 36 and len(games) == 66
    assert all(table_fields(line) for _, line in total.rows)


def test_pbn_quoting_and_dates() -> None:
    assert quoted('say "hi" \\ there\nnow') == '"say \\"hi\\" \\\\ there now"'
    assert pbn_date("2026-11-03") == "2026.11.03" and pbn_date("03/11/2026") == "2026.11.03"
    assert pbn_date("Tuesday") == "????.??.??"


def test_usebio_escapes_text_and_keeps_places(tmp_path: Path) -> None:
    names = tmp_path / "names.csv"
    text = (SAMPLE_DATA / "names.csv").read_text(encoding="utf-8")
    names.write_text(text.replace("Anna Nowak", "Anna <&> Nowak"), encoding="utf-8")
    result = process(SAMPLE_DATA / "club_session.csv", names=names)
    stamp(result, Publication(club="R&D <club>"))
    path = write_usebio(result, tmp_path / "out.xml")
    raw = path.read_text(encoding="utf-8")
    assert "Anna &lt;&amp;&gt; Nowak" in raw and "R&amp;D &lt;club&gt;" in raw
    table = read_usebio(path)[0]
    assert table.meta["club"] == "R&D <club>"
    names_read = table.names.set_index(["line", "pair"])
    assert names_read.loc[("NS", 1), "names"] == "Anna <&> Nowak – Piotr Smith"
    ranking = result.ranking.set_index(["line", "pair"])
    assert (names_read["published_place"].astype(str)
            == ranking.loc[names_read.index, "place"].astype(str)).all()


def two_sections(tmp_path: Path) -> Path:
    """The sample session played in two sections, A and B (B one trick better on board 1)."""
    lines = (SAMPLE_DATA / "club_session.csv").read_text(encoding="utf-8").splitlines()
    rows = [f"A,{line}" for line in lines[1:]]
    rows += [f"B,{line}" if not line.startswith("1,") else f"B,{line[:-1]}{int(line[-1]) - 1}"
             for line in lines[1:]]
    path = tmp_path / "sections.csv"
    path.write_text("\n".join([f"Section,{lines[0]}", *rows]) + "\n", encoding="utf-8")
    return path


@pytest.mark.parametrize("kind", ["pbn", "xml"])
def test_sections_round_trip(kind: str, tmp_path: Path) -> None:
    source = two_sections(tmp_path)
    assert set(process(source).ranking["section"]) == {"A", "B"}
    round_trip(source, kind, tmp_path)


def test_pbn_tables_split_the_same_with_shlex(tmp_path: Path) -> None:
    """A second opinion on the quoting: POSIX shell splitting reads every line alike."""
    import shlex

    names = tmp_path / "names.csv"
    text = (SAMPLE_DATA / "names.csv").read_text(encoding="utf-8")
    names.write_text(text.replace("Anna Nowak", '"Anna ""Ace"" \\ Nowak"'), encoding="utf-8")
    result = process(SAMPLE_DATA / "club_session.csv", names=names)
    games, _ = parse_games(write_pbn(result, tmp_path / "q.pbn").read_text(encoding="latin-1"))
    for game in games:
        for tag in ("ScoreTable", "TotalScoreTable"):
            if tag in game.tags:
                width = len(game.tags[tag].value.split(";"))
                for _, line in game.tags[tag].rows:
                    fields = shlex.split(line)
                    assert fields == table_fields(line) and len(fields) == width
    total = games[0].tags["TotalScoreTable"].rows
    assert any('Anna "Ace" \\ Nowak - Piotr Smith' in shlex.split(line) for _, line in total)


def test_hands_go_out_and_come_back(tmp_path: Path) -> None:
    from traveller.publish.shown import hands

    first = process(real_file("pbn-ruter", "sm1.pbn"))
    for writer in (write_usebio, write_pbn):
        second = process(writer(first, tmp_path / f"h.{writer.__name__[6:]}"))
        before = first.travellers.groupby("board")["published_deal"].first().map(hands)
        after = second.travellers.groupby("board")["published_deal"].first().map(hands)
        assert before.notna().all() and before.to_dict() == after.to_dict()
    usebio = read_usebio(real_file("usebio-compscore", "mp_pairs_howell.xml"))[0].frame
    assert usebio.loc[usebio["board"] == 1, "published_deal"].iloc[0] == (
        "N:98.9762.AJT32.54 J5432.T8.K865.J2 Q76.AKQJ54.Q4.Q6 AKT.3.97.AKT9873")
