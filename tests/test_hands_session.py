"""Hand records attached to a session: API, CLI, batch, and every publication showing them."""

from __future__ import annotations

import shutil
import xml.etree.ElementTree as ET
from pathlib import Path

import openpyxl
import pandas as pd
import pytest
from click.testing import CliRunner
from conftest import SAMPLE_DATA

import traveller
from traveller.batch.settings import SettingsTree
from traveller.cli import main
from traveller.publish.pbn_out import pbn_text
from traveller.publish.site import site_pages
from traveller.publish.usebio_out import usebio_tree

DEAL_1 = "N:AJ9643.K98.62.83 QT5.JT7.AT74.AK5 87.AQ53.98.Q9742 K2.642.KQJ53.JT6"
DEAL_2 = "N:JT74.AJ9.QJ2.832 62.52.876543.AQJ 9853.Q743.9.KT65 AKQ.KT86.AKT.974"


def session() -> pd.DataFrame:
    """Two boards, four tables: board 1 around 2NT by W (par -120), board 2 3NT by W."""
    rows = [(1, p, p + 4, c, "W", t) for p, (c, t) in
            enumerate([("2NT", 8), ("1NT", 8), ("2NT", 7), ("3NT", 8)], start=1)]
    rows += [(2, p, p + 4, c, d, t) for p, (c, d, t) in
             enumerate([("3NT", "W", 9), ("3NT", "W", 9), ("3NT", "W", 10), ("4S", "N", 6)],
                       start=1)]
    return pd.DataFrame(rows, columns=["Board", "NS", "EW", "Contract", "Declarer", "Tricks"])


def hand_record(tmp_path: Path, deals: dict[int, str], name: str = "deals.pbn") -> Path:
    path = tmp_path / name
    dealer, vul = "NESW", ["None", "NS", "EW", "All"]
    path.write_text("".join(f'[Board "{b}"]\n[Dealer "{dealer[(b - 1) % 4]}"]\n'
                            f'[Vulnerable "{vul[(b - 1) % 4]}"]\n[Deal "{d}"]\n\n'
                            for b, d in deals.items()), encoding="utf-8")
    return path


def test_hands_never_change_a_score_and_their_problems_are_listed(tmp_path: Path) -> None:
    plain = traveller.process(session())
    assert plain.hands is None and plain.dd is None and plain.par is None  # nothing built
    bad = DEAL_1.replace("K2.", "K.")  # West holds 12 cards
    result = traveller.process(session(), hands=hand_record(tmp_path, {1: bad}))
    pd.testing.assert_frame_equal(result.travellers, plain.travellers)
    pd.testing.assert_frame_equal(result.ranking, plain.ranking)
    assert sorted(result.problems["code"]) == ["deal-card-count", "deal-missing"]
    assert result.hands["board"].tolist() == [1] and not result.hands["complete"].any()
    assert result.dd.empty and result.par.empty


def test_an_unreadable_hand_record_is_one_problem(tmp_path: Path) -> None:
    broken = tmp_path / "deals.pbn"
    broken.write_bytes(b"\x00\x01 not a pbn")
    result = traveller.process(session(), hands=broken)
    assert result.problems["code"].tolist() == ["hands-unreadable"]
    assert result.hands is None and len(result.travellers) == 8


@pytest.mark.dd
def test_dd_and_par_in_every_publication(tmp_path: Path) -> None:
    result = traveller.process(session(), hands=hand_record(tmp_path, {1: DEAL_1, 2: DEAL_2}))
    assert result.settings["dd"] == "on"
    assert len(result.dd) == 40
    assert result.par["par_score"].tolist() == [-120, -400]  # board 2: 3NT by W, not vul
    pbn = pbn_text(result)
    assert f'[Deal "{DEAL_1}"]' in pbn and '[OptimumScore "NS -120"]' in pbn
    assert '[ParContract "EW 2NT"]' in pbn and "W NT 9" in pbn
    hands = usebio_tree(result).findall("HANDSET/BOARD")
    assert [b.findtext("BOARD_NUMBER") for b in hands] == ["1", "2"]
    page = site_pages(result)["board-1.html"]
    assert "Par E-W +120" in page and 'class="par-row"' in page and "vs DD" in page
    assert page.index(">50<") < page.index('class="par-row"')  # +50 is above par (-120)
    book = tmp_path / "out.xlsx"
    result.to_excel(book)
    sheet = openpyxl.load_workbook(book)["Hands"]
    assert sheet["A1"].value == "Board 1" and sheet["C2"].value == "♠ AJ9643"
    assert sheet["A14"].value == "Par E-W +120: 2NT by E/W"
    rich = openpyxl.load_workbook(book, rich_text=True)["Hands"]  # red suits, as the pages
    hearts, spades = rich["C3"].value, rich["C2"].value
    assert str(hearts).startswith("♥") and hearts[0].font.color.rgb == "FFC0142B"
    assert isinstance(spades, str)  # a black suit is a plain cell
    assert rich["I2"].value == "♦" and rich["I2"].font.color.rgb == "FFC0142B"
    assert ET.fromstring(ET.tostring(usebio_tree(result))) is not None


@pytest.mark.dd
def test_dd_false_skips_the_analysis_but_shows_the_deals(tmp_path: Path) -> None:
    result = traveller.process(session(), hands=hand_record(tmp_path, {1: DEAL_1, 2: DEAL_2}),
                               dd=False)
    assert result.dd.empty and len(result.hands) == 2 and result.settings["dd"] == "off"
    assert "Par" not in site_pages(result)["board-1.html"]


def test_cli_hands_and_no_dd(tmp_path: Path) -> None:
    csv = tmp_path / "club.csv"
    session().to_csv(csv, index=False)
    deals = hand_record(tmp_path, {1: DEAL_1})
    out = tmp_path / "club.xlsx"
    run = CliRunner().invoke(main, ["score", str(csv), "--hands", str(deals), "--no-dd",
                                    "-o", str(out)])
    assert run.exit_code == 3, run.output
    assert "1 deal-missing" in run.stdout
    assert "Hands" in openpyxl.load_workbook(out).sheetnames
    clash = CliRunner().invoke(main, ["score", str(csv), "--hands", str(deals), "-o",
                                      str(deals)])
    assert clash.exit_code == 2


def test_batch_hands_key_is_a_file_watched_by_content_and_not_a_traveller(
        tmp_path: Path) -> None:
    from traveller.batch.plan import find_jobs

    shutil.copy(SAMPLE_DATA / "club_session.csv", tmp_path / "tue.csv")
    shutil.copy(SAMPLE_DATA / "club_session_hands.pbn", tmp_path / "deals.pbn")
    (tmp_path / "traveller.toml").write_text('hands = "deals.pbn"\ndd = false\n',
                                             encoding="utf-8")
    tree = SettingsTree(tmp_path)
    settings = tree.for_folder(tmp_path)
    assert settings.pipeline_kwargs()["hands"] == (tmp_path / "deals.pbn").resolve()
    assert settings.pipeline_kwargs()["dd"] is False
    assert [j.name for j in find_jobs(tmp_path, tree, set())] == ["tue.csv"]
    with open(tmp_path / "deals.pbn", "a", encoding="utf-8") as more:
        more.write('\n[Board "25"]\n[Deal "' + DEAL_1 + '"]\n')
    assert SettingsTree(tmp_path).for_folder(tmp_path).fingerprint != settings.fingerprint


def test_batch_worker_keeps_the_analysis_in_the_state_folder(tmp_path: Path) -> None:
    from traveller.batch.run import STATE_DIR
    from traveller.batch.task import _with_dd_cache

    assert _with_dd_cache({}, tmp_path) == {"dd": tmp_path / STATE_DIR / "dd"}
    assert _with_dd_cache({"dd": False}, tmp_path) == {"dd": False}


def test_the_par_row_goes_by_score_past_results_without_one() -> None:
    import numpy as np

    from traveller.publish.site_model import par_at

    values = np.array([420.0, float("nan"), float("nan"), -50.0])
    assert par_at(values, 140) == 3  # after 420 and the two artificial scores
    assert par_at(values, 500) == 0 and par_at(values, -100) == 4


def test_a_sim_folder_shares_one_hand_record_that_is_no_club(tmp_path: Path) -> None:
    from traveller.sim.clubs import SimSettings, find_clubs, process_club

    for name in ("oakwood.csv", "riverside.csv"):
        shutil.copy(SAMPLE_DATA / "sim" / name, tmp_path / name)
    shutil.copy(SAMPLE_DATA / "club_session_hands.pbn", tmp_path / "deals.pbn")
    (tmp_path / "traveller.toml").write_text('hands = "deals.pbn"\n', encoding="utf-8")
    clubs = find_clubs(tmp_path)
    assert [c.club for c in clubs] == ["oakwood", "riverside"]
    outcome = process_club(clubs[0], SimSettings())
    assert outcome.error is None
    assert len(outcome.result.hands) == 24 and outcome.result.hands["complete"].all()


@pytest.mark.dd
@pytest.mark.slow  # several seconds: in .ci/run's slow part
def test_a_sim_solves_each_shared_deal_once_and_a_re_run_none(tmp_path: Path) -> None:
    pytest.importorskip("endplay")
    from traveller.score import dd
    from traveller.sim.clubs import STATE_DIR

    inbox = tmp_path / "inbox"
    inbox.mkdir()
    for club in range(3):  # three clubs, the same two boards and hand record
        session().to_csv(inbox / f"club{club}.csv", index=False)
    hand_record(inbox, {1: DEAL_1, 2: DEAL_2})
    (inbox / "traveller.toml").write_text('hands = "deals.pbn"\n', encoding="utf-8")
    dd.forget()
    before = dd.SOLVED["deals"]
    sim = traveller.simultaneous(inbox, output=tmp_path / "out")
    assert (sim.clubs["status"] != "failed").all() and len(sim.clubs) == 3
    assert dd.SOLVED["deals"] == before + 2  # one solve per deal for the three clubs
    cache = tmp_path / "out" / STATE_DIR / "dd"
    assert len(list(cache.rglob("*.txt"))) == 2
    dd.forget()  # a new process: only the output folder remembers
    traveller.simultaneous(inbox, output=tmp_path / "out")
    assert dd.SOLVED["deals"] == before + 2


def test_hands_sheet_in_constant_memory_mode(tmp_path: Path,
                                             monkeypatch: pytest.MonkeyPatch) -> None:
    import traveller.publish.workbook as workbook

    monkeypatch.setattr(workbook, "IN_MEMORY_ROWS", 0)  # rows must then come in order
    result = traveller.process(SAMPLE_DATA / "club_session.xlsx",
                               hands=SAMPLE_DATA / "club_session_hands.pbn", dd=False)
    workbook.write_workbook(result, tmp_path / "cm.xlsx")
    sheet = openpyxl.load_workbook(tmp_path / "cm.xlsx")["Hands"]
    assert [sheet.cell(1 + 15 * n, 1).value for n in (0, 1, 23)] == ["Board 1", "Board 2",
                                                                    "Board 24"]
    assert sheet["A1"].font.bold


def test_the_hands_sheet_names_the_vulnerability_as_the_other_outputs_do() -> None:
    from traveller.publish.hands_sheet import block_cells

    deal = "N:AKQJ.T98.765.432 T987.654.432.AKQ 65432.AKQ.JT9.JT 3.J732.AKQ8.98765"
    # board 4 is vulnerable both ways: "Both", as the Travellers sheet and the pages say
    assert block_cells(4, deal, None, None)[0][2] == "Dealer W, vulnerable Both"
    assert block_cells(2, deal, None, None)[0][2] == "Dealer E, vulnerable N-S"
    assert block_cells(1, deal, None, None, "EW")[0][2] == "Dealer N, vulnerable E-W"
