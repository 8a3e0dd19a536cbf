"""Master points in the outputs: CLI, workbook, site, USEBIO, batch key; players by number."""

from __future__ import annotations

import xml.etree.ElementTree as ET
from pathlib import Path

import openpyxl
import pandas as pd
import pytest
from click.testing import CliRunner
from conftest import SAMPLE_DATA, real_file

import traveller
from traveller.batch.settings import SettingsError, SettingsTree
from traveller.cli import main
from traveller.publish.usebio_out import usebio_tree
from traveller.read.names import read_names
from traveller.score.players import look_alike, player_key, players_of

SESSION = SAMPLE_DATA / "club_session.xlsx"


def test_a_real_abf_club_howell_reproduces_its_published_awards() -> None:
    """A Compscore export of an ABF club Howell: its awards follow the ABF place table."""
    path = real_file("usebio-compscore", "mp_pairs_howell.xml")
    root = ET.parse(path).getroot()
    published = {int(p.findtext("PAIR_NUMBER") or 0):
                 int(p.findtext("MASTER_POINTS_AWARDED") or 0) for p in root.iter("PAIR")}
    first = max(published.values())  # the session's first-place award (its weight) as given
    result = traveller.process(path, points=f"abf:first={first / 100}")
    ours = dict(zip(result.ranking["pair"].astype(int),
                    (result.ranking["master_points"] * 100).round().astype(int), strict=True))
    assert ours == published
    assert result.points is not None and (result.points["player_id"] != "").all()


def test_score_points_writes_the_column_on_the_sheet_the_page_and_usebio(tmp_path: Path
                                                                         ) -> None:
    out, site, xml = tmp_path / "r.xlsx", tmp_path / "site", tmp_path / "r.xml"
    done = CliRunner().invoke(main, ["score", str(SESSION), "-o", str(out), "--points",
                                     "abf:weight=1.5", "--html", str(site), "--usebio",
                                     str(xml)])
    assert done.exit_code == 0, done.output
    sheet = openpyxl.load_workbook(out)["Ranking"]
    rows = list(sheet.iter_rows(values_only=True))
    header = next(r for r in rows if r and "Place" in r)
    column = header.index("Master points")
    first = rows[rows.index(header) + 1]
    assert first[header.index("Place")] == "1" and first[column] == 0.24  # 0.02 x 1.5 x 8
    assert "Master points</th>" in (site / "index.html").read_text(encoding="utf-8")
    awarded = [e.text for e in ET.parse(xml).getroot().iter("MASTER_POINTS_AWARDED")]
    assert len(awarded) == 16 and awarded.count("0.24") == 2  # each line's first


def test_an_individuals_master_points_list_each_player_once(tmp_path: Path) -> None:
    """An individual's ranking row is one player: the Master points sheet listed each twice,
    the second row without a name, as if every player had a partner."""
    result = traveller.process(SAMPLE_DATA / "individual_session.csv",
                               names=SAMPLE_DATA / "individual_names.csv", points="abf")
    assert result.players is not None and result.points is not None
    assert len(result.players) == len(result.points) == len(result.ranking) == 12
    assert (result.points["player"] != "").all()
    assert result.points.set_index("pair").loc[1, "player"] == "Anna Nowak"
    book = openpyxl.load_workbook(result.to_excel(tmp_path / "i.xlsx"), read_only=True)
    rows = list(book["Master points"].iter_rows(values_only=True))
    book.close()
    assert rows[0][2:4] == ("Player", "Names") and len(rows) == 13  # headed as ranked
    assert len({r[3] for r in rows[1:]}) == 12
    pairs = traveller.process(SESSION, points="abf")
    assert pairs.points is not None and len(pairs.points) == 2 * len(pairs.ranking)


def test_a_scale_that_needs_an_input_fails_with_what_to_give(tmp_path: Path) -> None:
    done = CliRunner().invoke(main, ["score", str(SESSION), "-o", str(tmp_path / "r.xlsx"),
                                     "--points", "pzbs"])
    assert done.exit_code == 2  # (a usage error: the value, before anything is read)
    assert "pzbs:first=" in done.output
    assert not (tmp_path / "r.xlsx").exists()


def test_the_batch_points_key_reads_a_scale_file_beside_it(tmp_path: Path) -> None:
    club = tmp_path / "club"
    club.mkdir()
    (club / "scale.toml").write_text("[first.any]\nrate = 1\n", encoding="utf-8")
    (club / "traveller.toml").write_text('points = "scale.toml:weight=2"\n', encoding="utf-8")
    kwargs = SettingsTree(tmp_path).for_folder(club).pipeline_kwargs()
    assert kwargs["points"] == f"{(club / 'scale.toml').resolve()}:weight=2"
    (club / "traveller.toml").write_text('points = "abf:weight=much"\n', encoding="utf-8")
    with pytest.raises(SettingsError, match=r"traveller\.toml: points = 'abf:weight=much'"):
        SettingsTree(tmp_path).for_folder(club)


@pytest.mark.parametrize("header", [
    "Pair,Line,Player 1,ID 1,Player 2,ID 2",
    "Para,Linia,Gracz 1,Nr PZBS 1,Gracz 2,Nr PZBS 2",
    "Пара,Линия,Игрок 1,ИД 1,Игрок 2,ИД 2"])
def test_players_are_known_by_their_federation_number(tmp_path: Path, header: str) -> None:
    names = tmp_path / "names.csv"
    names.write_text(f"{header}\n1,NS,Anna Nowak,1234,Jan Kowalski,5678\n"
                     "2,NS,Bob Smith,,Carol White,999.0\n", encoding="utf-8")
    table = read_names(names)
    ranking = pd.DataFrame({"section": ["", ""], "line": ["NS", "NS"],
                            "pair": pd.array([1, 2], dtype="Int64"),
                            "names": ["Anna Nowak – Jan Kowalski", "Bob Smith – Carol White"]})
    players = players_of(ranking, table)
    assert players["player"].tolist() == ["Anna Nowak", "Jan Kowalski", "Bob Smith",
                                          "Carol White"]
    assert player_key(players["player"], players["player_id"]).tolist() == [
        "id:1234", "id:5678", "name:Bob Smith", "id:999"]


def test_two_spellings_of_one_player_are_listed() -> None:
    assert look_alike(["Jan Kowalski", "Kowalski Jan", "KOWALSKI, Jan", "Anna Nowak"]) == [
        ("Jan Kowalski", "KOWALSKI, Jan"), ("Jan Kowalski", "Kowalski Jan")]
    assert look_alike(["Anna Nowak", "Anna Nowakowska"]) == []


def test_usebio_without_points_has_no_award_element() -> None:
    tree = usebio_tree(traveller.process(SESSION))
    assert tree.find(".//MASTER_POINTS_AWARDED") is None


def test_a_changed_scale_file_changes_the_settings_fingerprint(tmp_path: Path) -> None:
    club = tmp_path / "club"
    club.mkdir()
    (club / "scale.toml").write_text("[first.any]\nrate = 1\n", encoding="utf-8")
    (club / "traveller.toml").write_text('points = "scale.toml"\n', encoding="utf-8")
    before = SettingsTree(tmp_path).for_folder(club).fingerprint
    (club / "scale.toml").write_text("[first.any]\nrate = 2\n", encoding="utf-8")
    assert SettingsTree(tmp_path).for_folder(club).fingerprint != before


def test_pbn_member_ids_are_read_beside_the_names() -> None:
    from traveller.read.load import read

    loaded = read(real_file("pbn-ruter", "sm1.pbn"))
    assert loaded.names is not None
    first = loaded.names.iloc[0]
    assert (first["player1"], first["id1"], first["player2"], first["id2"]) == (
        "Lasse Bergroth", "1040", "Mikko Nieminen", "1354")
