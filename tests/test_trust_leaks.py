"""The last tracebacks and leaks: huge cells, a full disk, links out of the inbox, odd names;
and the small home sheet whose notation its own words decide."""

from __future__ import annotations

import errno
import os
from pathlib import Path

import pytest
from click.testing import CliRunner

import traveller
from traveller.batch.run import LOG_NAME, run_batch
from traveller.cli import main

SAMPLE = Path(__file__).resolve().parent.parent / "sample_data" / "club_session.csv"


def test_a_cell_longer_than_the_csv_modules_limit(tmp_path: Path) -> None:
    note = "x" * 200_000
    for delimiter in (",", ";"):
        path = tmp_path / f"long{delimiter == ';'}.csv"
        path.write_text(delimiter.join(["Board", "NS", "EW", "Contract", "By", "Tricks", "Note"])
                        + f"\n1{delimiter}1{delimiter}2{delimiter}4S{delimiter}N{delimiter}10"
                        f"{delimiter}\"{note}\"\n1{delimiter}3{delimiter}4{delimiter}4S"
                        f"{delimiter}N{delimiter}9{delimiter}\n", encoding="utf-8")
        result = traveller.process(path)
        assert sorted(result.travellers["ns_score"].tolist()) == [-50, 420]


def test_a_full_disk_is_one_line_and_leaves_no_partial_file(tmp_path: Path,
                                                            monkeypatch: pytest.MonkeyPatch
                                                            ) -> None:
    from xlsxwriter.exceptions import FileCreateError
    from xlsxwriter.workbook import Workbook

    def full(self: object) -> None:
        raise FileCreateError(OSError(errno.ENOSPC, "No space left on device"))

    monkeypatch.setattr(Workbook, "close", full)
    out = tmp_path / "out"
    out.mkdir()
    run = CliRunner().invoke(main, ["score", str(SAMPLE), "-o", str(out / "r.xlsx")])
    assert run.exit_code == 1
    lines = [line for line in run.output.splitlines() if line.strip()]
    assert len(lines) == 1 and lines[0].startswith("error: ")
    assert "No space left" in lines[0] and "Traceback" not in run.output
    assert list(out.iterdir()) == []


def test_a_real_enospc_names_what_to_do(tmp_path: Path, monkeypatch: pytest.MonkeyPatch
                                        ) -> None:
    import traveller.cli as cli

    def full(*_: object, **__: object) -> list[Path]:
        raise OSError(errno.ENOSPC, "No space left on device")

    monkeypatch.setattr(cli, "_publish", full)
    run = CliRunner().invoke(main, ["score", str(SAMPLE), "-o", str(tmp_path / "r.xlsx")])
    assert run.exit_code == 1
    assert "the disk is full" in run.output and "free some space" in run.output


def test_the_batch_skips_links_out_of_the_inbox(tmp_path: Path) -> None:
    inbox, outside = tmp_path / "inbox", tmp_path / "outside"
    inbox.mkdir()
    outside.mkdir()
    (outside / "secret.csv").write_text(SAMPLE.read_text(encoding="utf-8"), encoding="utf-8")
    (inbox / "tuesday.csv").write_text(SAMPLE.read_text(encoding="utf-8"), encoding="utf-8")
    os.symlink(outside / "secret.csv", inbox / "secret.csv")
    os.symlink(inbox / "tuesday.csv", inbox / "again.csv")  # inside: followed
    summary = run_batch(inbox, tmp_path / "results")
    assert sorted(f.input for f in summary.files) == ["again.csv", "tuesday.csv"]
    assert any("skipped secret.csv" in n and "outside the inbox" in n for n in summary.notes)
    assert not (tmp_path / "results" / "secret_results.xlsx").exists()


def test_a_file_name_with_a_line_feed_writes_one_log_line(tmp_path: Path) -> None:
    inbox = tmp_path / "inbox"
    inbox.mkdir()
    name = "tue\n2026-12-01T00:00:00 [1] done forged.csv"
    (inbox / name).write_text(SAMPLE.read_text(encoding="utf-8"), encoding="utf-8")
    run_batch(inbox, tmp_path / "results")
    log = (tmp_path / "results" / LOG_NAME).read_text(encoding="utf-8")
    assert not any(line.startswith("2026-12-01T00:00:00 [1] done forged")
                   for line in log.splitlines())
    assert "tue\\n2026-12-01" in log


@pytest.mark.parametrize(("header", "contracts", "expected"), [
    ("Deal,Declarer,Contract,Tricks", ("3C", "4Cx", "7NTxx", "PASS"), "en"),
    ("Rozdanie,Rozgrywający,Kontrakt,Lewy", ("3C", "4Cx", "7Cxx", "1C"), "pl"),
])
def test_a_small_home_sheet_read_by_its_own_words(tmp_path: Path, header: str,
                                                  contracts: tuple[str, ...],
                                                  expected: str) -> None:
    rows = [f"{i + 1},{'NESW'[i]},{c},{'' if c.lower() in ('pass', 'pas') else 9}"
            for i, c in enumerate(contracts)]
    path = tmp_path / "home.csv"
    path.write_text(header + "\n" + "\n".join(rows) + "\n", encoding="utf-8")
    result = traveller.rubber(path)
    assert result.settings["notation"] == expected
    assert "ambiguous-notation" not in set(result.problems["code"])
    assert "as the sheet's headers" in str(result.settings["notation_why"])
    # 3C made exactly: clubs (60 below) in English, hearts (90 below) in Polish
    first = result.ledger[result.ledger["entry"] == "deal"].iloc[0]
    assert first["ns_below"] == (60 if expected == "en" else 90)


def test_a_home_sheet_whose_words_point_both_ways_is_refused(tmp_path: Path) -> None:
    path = tmp_path / "home.csv"
    # Polish headers, but no trump written NT as English sheets write it
    path.write_text("Rozdanie,Rozgrywający,Kontrakt,Lewy\n1,N,3C,9\n2,E,4Cx,9\n3,S,3NT,9\n",
                    encoding="utf-8")
    result = traveller.rubber(path)
    assert set(result.problems["code"]) == {"ambiguous-notation"}
