"""traveller batch: the scheduled run over a folder of sessions (CLI, manifest, corrections)."""

from __future__ import annotations

import csv
import io
import json
import os
import shutil
import time
from pathlib import Path
from typing import Any

import openpyxl
import pytest
from click.testing import CliRunner
from conftest import SAMPLE_DATA

from traveller import __version__, process
from traveller.batch import run as batch
from traveller.batch.changes import diff, report_text, show
from traveller.batch.run import LOG_NAME, STATE_DIR, SUMMARY_NAME
from traveller.batch.settings import fingerprint
from traveller.cli import main

#: The sample line corrected in the tests: board 10, N-S 8 v E-W 3, 2NT by N, 6 tricks.
OLD_LINE = "10,5,8,8,3,2NT,N,C6,6"
NEW_LINE = "10,5,8,8,3,2NT,N,C6,9"


def age(path: Path, seconds: float = 3600) -> None:
    """Set the modification time of a file (or every file under a folder) to the past."""
    when = time.time() - seconds
    for item in [path] if path.is_file() else [p for p in path.rglob("*") if p.is_file()]:
        os.utime(item, (when, when))


def make_inbox(tmp_path: Path, problems: bool = True) -> Path:
    """inbox/clubA: club_session.csv, problems_session.csv; inbox/clubB: club_session.xlsx."""
    inbox = tmp_path / "inbox"
    (inbox / "clubA").mkdir(parents=True)
    (inbox / "clubB").mkdir()
    shutil.copy(SAMPLE_DATA / "club_session.csv", inbox / "clubA" / "club_session.csv")
    if problems:
        shutil.copy(SAMPLE_DATA / "problems_session.csv",
                    inbox / "clubA" / "problems_session.csv")
    shutil.copy(SAMPLE_DATA / "club_session.xlsx", inbox / "clubB" / "club_session.xlsx")
    age(inbox)
    return inbox


def correct(path: Path, seconds_ago: float = 1800) -> None:
    """The director's correction: board 10, N-S 8 made 9 tricks in 2NT, not 6."""
    lines = path.read_text(encoding="utf-8").splitlines()
    assert lines.count(OLD_LINE) == 1
    lines[lines.index(OLD_LINE)] = NEW_LINE
    path.write_text("\n".join(lines) + "\n", encoding="utf-8")
    age(path, seconds_ago)


def run(*args: str | Path) -> tuple[int, str, str]:
    """``traveller batch ARGS`` through click's runner: exit code, stdout, stderr."""
    result = CliRunner().invoke(main, ["batch", *map(str, args)])
    if result.exception and not isinstance(result.exception, SystemExit):
        raise result.exception
    return result.exit_code, result.stdout, result.stderr


def ranking_values(path: Path) -> list[tuple[Any, ...]]:
    """Every row of a workbook's Ranking sheet (opening it proves it is complete)."""
    book = openpyxl.load_workbook(path)
    try:
        return [tuple(row) for row in book["Ranking"].iter_rows(values_only=True)]
    finally:
        book.close()


def tree_state(folder: Path) -> dict[str, tuple[int, int]]:
    """(size, mtime_ns) of every file under ``folder``."""
    return {str(p.relative_to(folder)): (p.stat().st_size, p.stat().st_mtime_ns)
            for p in folder.rglob("*") if p.is_file()}


def outputs(out: Path) -> list[str]:
    """The workbooks under OUTDIR, sorted."""
    return sorted(p.relative_to(out).as_posix() for p in out.rglob("*.xlsx"))


def summary_of(out: Path) -> dict[str, Any]:
    return json.loads((out / SUMMARY_NAME).read_text(encoding="utf-8"))


def statuses(out: Path) -> dict[str, str]:
    return {f["input"]: f["status"] for f in summary_of(out)["files"]}


# --------------------------------------------------------------------------
# The run, its outputs and what it tells the operator


def test_first_run_mirrors_the_inbox_and_reports_every_file(tmp_path: Path) -> None:
    inbox, out = make_inbox(tmp_path), tmp_path / "out"
    inputs = tree_state(inbox)
    code, stdout, _ = run(inbox, "-o", out)
    assert code == 3, stdout  # one file has problems, none failed
    assert tree_state(inbox) == inputs  # inputs only read
    assert outputs(out) == ["clubA/club_session_results.xlsx",
                            "clubA/problems_session_results.xlsx",
                            "clubB/club_session_results.xlsx"]
    lines = stdout.splitlines()
    assert lines[0].startswith("done     clubA/club_session.csv -> "
                               "clubA/club_session_results.xlsx (new; 192 results, 16 pairs")
    assert lines[1].startswith("problems clubA/problems_session.csv")
    assert "6 problems: 2 duplicate-result, 1 unknown-contract" in lines[1]
    assert lines[-1].startswith("3 files: 2 done, 1 with problems, 0 failed, 0 up to date")
    log = (out / LOG_NAME).read_text(encoding="utf-8").splitlines()
    assert [ln.split("] ", 1)[1] for ln in log[1:4]] == lines[:3]
    assert "end: 3 files" in log[-1] and log[-1].endswith("exit 3")
    # the title row above the sheet's header is the workbook's title
    assert ranking_values(out / "clubB/club_session_results.xlsx")[0][0] == (
        "Riverside Bridge Club - Tuesday pairs, 3 November 2026")
    umask = os.umask(0)
    os.umask(umask)  # the workbooks are readable as any file made here, not 0600
    assert (out / "clubB/club_session_results.xlsx").stat().st_mode & 0o777 == 0o666 & ~umask


def test_json_summary_has_every_file_status_problem_counts_and_timings(tmp_path: Path) -> None:
    inbox, out = make_inbox(tmp_path), tmp_path / "out"
    (inbox / "clubB" / "broken.xlsx").write_bytes(b"PK\x03\x04 not really a workbook")
    code, stdout, _ = run(inbox, "-o", out, "--summary", "-", "-q")
    assert code == 1
    printed = json.loads(stdout)  # stdout is the summary alone
    data = summary_of(out)
    assert printed["files"] == data["files"]
    assert data["exit_code"] == 1 and data["version"] == __version__
    assert data["counts"] == {"done": 2, "problems": 1, "failed": 1, "skipped": 0, "todo": 0,
                              "corrected": 0}
    assert data["problem_counts"] == {"duplicate-result": 2, "missing-pair": 1,
                                      "tricks-out-of-range": 1, "unknown-contract": 1,
                                      "unknown-lead": 1}
    by_input = {f["input"]: f for f in data["files"]}
    assert list(by_input) == ["clubA/club_session.csv", "clubA/problems_session.csv",
                              "clubB/broken.xlsx", "clubB/club_session.xlsx"]
    ok = by_input["clubA/club_session.csv"]
    assert (ok["status"], ok["results"], ok["pairs"], ok["problems"]) == ("done", 192, 16, 0)
    assert ok["seconds"] > 0 and ok["output"] == "clubA/club_session_results.xlsx"
    broken = by_input["clubB/broken.xlsx"]
    assert broken["status"] == "failed" and broken["code"] == "unreadable"
    assert "broken.xlsx: not a readable workbook" in broken["error"]
    assert data["seconds"] >= sum(f["seconds"] for f in data["files"]) * 0.5
    assert data["started"] <= data["finished"] and data["dry_run"] is False


def test_an_individual_is_counted_in_players(tmp_path: Path) -> None:
    """The log line and the summary say what the ranking's lines are."""
    inbox, out = tmp_path / "inbox", tmp_path / "out"
    inbox.mkdir()
    shutil.copy(SAMPLE_DATA / "individual_session.csv", inbox / "individual.csv")
    shutil.copy(SAMPLE_DATA / "club_session.csv", inbox / "pairs.csv")
    age(inbox)
    code, stdout, _ = run(inbox, "-o", out)
    assert code == 0, stdout
    files = {f["input"]: f for f in summary_of(out)["files"]}
    players = files["individual.csv"]
    assert players["ranked"] == "player" and files["pairs.csv"]["ranked"] == "pair"
    assert f"{players['pairs']} players, " in stdout and "16 pairs, " in stdout
    assert " pairs, " not in next(line for line in stdout.splitlines() if "individual" in line)


@pytest.mark.parametrize(("files", "expected"), [
    (["club_session.csv"], 0),
    (["club_session.csv", "problems_session.csv"], 3),
    (["club_session.csv", "problems_session.csv", "bad.csv"], 1),
])
def test_exit_codes_for_cron(tmp_path: Path, files: list[str], expected: int) -> None:
    inbox = tmp_path / "inbox"
    inbox.mkdir()
    for name in files:
        if name == "bad.csv":
            (inbox / name).write_bytes(b"")
        else:
            shutil.copy(SAMPLE_DATA / name, inbox / name)
    assert run(inbox, "-o", tmp_path / "out")[0] == expected


def test_usage_errors_exit_2(tmp_path: Path) -> None:
    inbox = make_inbox(tmp_path)
    code, _, err = run(inbox, "-o", inbox)
    assert code == 2 and "OUTDIR must not be INBOX" in err
    code, _, err = run(inbox, "-o", tmp_path / "out", "--set", "scael=1/0.5")
    assert code == 2 and "unknown key 'scael'; did you mean 'scale'?" in err
    code, _, err = run(inbox, "-o", tmp_path / "out", "--set", "movement=spiral")
    assert code == 2 and "movement = 'spiral' is not one of" in err
    assert run(tmp_path / "missing", "-o", tmp_path / "out")[0] == 2
    assert not (tmp_path / "out").exists()


# --------------------------------------------------------------------------
# Idempotence: the manifest


def test_rerun_with_nothing_new_reads_nothing_and_writes_no_output(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    inbox, out = make_inbox(tmp_path, problems=False), tmp_path / "out"
    assert run(inbox, "-o", out)[0] == 0
    before = {k: v for k, v in tree_state(out).items() if k.endswith((".xlsx", ".json"))}

    def forbidden(*args: object, **kwargs: object) -> None:
        raise AssertionError("an unchanged file was read")

    monkeypatch.setattr("traveller.batch.plan.file_sha256", forbidden)
    monkeypatch.setattr("traveller.pipeline.process", forbidden)
    code, stdout, _ = run(inbox, "-o", out)
    assert code == 0
    assert stdout.splitlines()[-1].startswith("nothing new: all 2 files up to date; "
                                              "nothing written")
    assert stdout.count("skipped  ") == 2
    after = tree_state(out)
    changed = [k for k, v in before.items() if after[k] != v and k != SUMMARY_NAME]
    assert changed == []  # workbooks, manifest and snapshots untouched
    assert set(statuses(out).values()) == {"skipped"}


def test_touched_but_unchanged_input_is_hashed_and_skipped(tmp_path: Path,
                                                           monkeypatch: pytest.MonkeyPatch) -> None:
    inbox, out = make_inbox(tmp_path, problems=False), tmp_path / "out"
    run(inbox, "-o", out)
    age(inbox / "clubA" / "club_session.csv", 60)  # touched: new time, same content
    monkeypatch.setattr("traveller.pipeline.process", None)
    assert run(inbox, "-o", out)[0] == 0
    manifest = json.loads((out / STATE_DIR / "manifest.json").read_text(encoding="utf-8"))
    entry = manifest["entries"]["clubA/club_session.csv"]
    assert entry["mtime_ns"] == (inbox / "clubA" / "club_session.csv").stat().st_mtime_ns


def test_changed_settings_redo_and_report_the_changes(tmp_path: Path) -> None:
    inbox, out = make_inbox(tmp_path), tmp_path / "out"
    run(inbox, "-o", out)
    (inbox / "clubA" / "traveller.toml").write_text('scale = "1/0.5"\n', encoding="utf-8")
    code, stdout, _ = run(inbox, "-o", out)
    assert code == 3
    assert statuses(out) == {"clubA/club_session.csv": "done",
                             "clubA/problems_session.csv": "problems",
                             "clubB/club_session.xlsx": "skipped"}
    assert "(settings changed;" in stdout
    texts = [str(r[0]) for r in ranking_values(out / "clubA/club_session_results.xlsx") if r[0]]
    assert "1 for each pair beaten and ½ for each tie" in texts[-1]  # the method at the foot
    report = (out / "clubA/club_session_changes.txt").read_text(encoding="utf-8")
    assert "N-S pair 2: MP 191 → 95.5" in report
    # the same scale given on the command line changes nothing; a default set neither
    assert run(inbox, "-o", out, "--scale", "1/0.5")[0] == 0
    assert fingerprint({"scale": "2/1/0", "notation": "auto"}, None) == fingerprint({}, None)


def test_names_file_in_settings_is_used_watched_and_not_a_traveller(tmp_path: Path) -> None:
    inbox, out = make_inbox(tmp_path, problems=False), tmp_path / "out"
    shutil.copy(SAMPLE_DATA / "names.csv", inbox / "clubA" / "names.csv")
    (inbox / "clubA" / "notes.txt").write_text("bring biscuits\n", encoding="utf-8")
    (inbox / "clubA" / "traveller.toml").write_text(
        'names = "names.csv"\nexclude = ["notes*.txt"]\n', encoding="utf-8")
    assert run(inbox, "-o", out)[0] == 0
    assert list(statuses(out)) == ["clubA/club_session.csv", "clubB/club_session.xlsx"]
    rows = ranking_values(out / "clubA/club_session_results.xlsx")
    assert any("Anna Nowak" in str(cell) for row in rows for cell in row)
    names = (inbox / "clubA" / "names.csv")
    names.write_text(names.read_text(encoding="utf-8").replace("Anna", "Anne"),
                     encoding="utf-8")
    run(inbox, "-o", out)
    assert statuses(out)["clubA/club_session.csv"] == "done"
    assert statuses(out)["clubB/club_session.xlsx"] == "skipped"


def test_unknown_settings_key_fails_that_folder_only(tmp_path: Path) -> None:
    inbox, out = make_inbox(tmp_path), tmp_path / "out"
    toml = inbox / "clubB" / "traveller.toml"
    toml.write_text('scael = "1/0.5"\n', encoding="utf-8")
    code, _, _ = run(inbox, "-o", out)
    assert code == 1
    data = {f["input"]: f for f in summary_of(out)["files"]}
    failed = data["clubB/club_session.xlsx"]
    assert failed["status"] == "failed" and failed["code"] == "settings"
    assert failed["error"].startswith(f"{toml}: unknown key 'scael'; did you mean 'scale'?")
    assert data["clubA/club_session.csv"]["status"] == "done"
    assert not (out / "clubB").exists()
    toml.write_text('scale = "3/1/0"\n', encoding="utf-8")
    run(inbox, "-o", out)
    assert "scale = '3/1/0' is not one of '2/1/0', '1/0.5'" in (
        summary_of(out)["files"][2]["error"])
    toml.write_text('scale = 1/0.5\n', encoding="utf-8")
    run(inbox, "-o", out)
    assert "not valid TOML" in summary_of(out)["files"][2]["error"]


def test_dry_run_writes_nothing(tmp_path: Path) -> None:
    inbox, out = make_inbox(tmp_path, problems=False), tmp_path / "out"
    inputs = tree_state(inbox)
    code, stdout, _ = run(inbox, "-o", out, "--dry-run")
    assert code == 0 and not out.exists()
    assert "todo     clubA/club_session.csv -> clubA/club_session_results.xlsx: would be " \
           "done (new)" in stdout
    assert stdout.splitlines()[-1] == ("dry run: 2 files: 2 to do, 0 up to date, 0 failed; "
                                       "nothing written")
    run(inbox, "-o", out)
    correct(inbox / "clubA" / "club_session.csv")
    inputs = tree_state(inbox)
    state = tree_state(out)
    code, stdout, _ = run(inbox, "-o", out, "--dry-run")
    assert code == 0 and tree_state(out) == state and tree_state(inbox) == inputs
    assert "would be done (input changed)" in stdout
    assert stdout.count("skipped  ") == 1


def test_outdir_inside_inbox_and_same_stem_inputs(tmp_path: Path) -> None:
    inbox = make_inbox(tmp_path)
    (inbox / "clubA" / "problems_session.csv").unlink()
    shutil.copy(SAMPLE_DATA / "club_session.csv", inbox / "clubB" / "club_session.csv")
    out = inbox / "published"
    assert run(inbox, "-o", out)[0] == 0
    assert outputs(out) == ["clubA/club_session_results.xlsx",
                            "clubB/club_session_csv_results.xlsx",
                            "clubB/club_session_xlsx_results.xlsx"]
    code, stdout, _ = run(inbox, "-o", out)
    assert code == 0 and "all 3 files up to date" in stdout


# --------------------------------------------------------------------------
# Bad inputs: each reported, the rest processed


def test_bad_files_are_reported_and_the_rest_processed(tmp_path: Path,
                                                       monkeypatch: pytest.MonkeyPatch) -> None:
    inbox, out = make_inbox(tmp_path, problems=False), tmp_path / "out"
    (inbox / "clubB" / "corrupt.xlsx").write_bytes(b"PK\x03\x04" + bytes(200))
    (inbox / "clubB" / "empty.csv").write_bytes(b"")
    (inbox / "clubB" / "binary.csv").write_bytes(bytes(range(256)) * 8)
    gone = inbox / "clubA" / "gone.csv"
    shutil.copy(SAMPLE_DATA / "club_session.csv", gone)
    listed = batch.find_jobs

    def list_then_delete(*args: Any) -> list[Any]:
        jobs = listed(*args)
        gone.unlink()  # deleted between listing and reading
        return jobs

    monkeypatch.setattr(batch, "find_jobs", list_then_delete)
    code, stdout, _ = run(inbox, "-o", out)
    assert code == 1
    files = {f["input"]: f for f in summary_of(out)["files"]}
    assert {k: (f["status"], f["code"]) for k, f in files.items()} == {
        "clubA/club_session.csv": ("done", None),
        "clubA/gone.csv": ("failed", "vanished"),
        "clubB/binary.csv": ("failed", "unreadable"),
        "clubB/club_session.xlsx": ("done", None),
        "clubB/corrupt.xlsx": ("failed", "unreadable"),
        "clubB/empty.csv": ("failed", "unreadable"),
    }
    assert "disappeared before it could be read" in files["clubA/gone.csv"]["error"]
    assert "binary file" in files["clubB/binary.csv"]["error"]
    assert "empty" in files["clubB/empty.csv"]["error"]
    assert "not a readable workbook" in files["clubB/corrupt.xlsx"]["error"]
    for name in ("binary", "corrupt", "empty"):  # each still has its Problems sheet
        failed = files[f"clubB/{name}.{'xlsx' if name == 'corrupt' else 'csv'}"]
        assert failed["error"].endswith(f"(listed on the Problems sheet of {name}_results.xlsx)")
        book = openpyxl.load_workbook(out / "clubB" / f"{name}_results.xlsx", read_only=True)
        rows = list(book["Problems"].iter_rows(values_only=True))[1:]
        book.close()
        assert [r[6] for r in rows] == ["unreadable-file"]
        assert rows[0][0] == f"clubB/{name}.{'xlsx' if name == 'corrupt' else 'csv'}"
    assert len(outputs(out)) == 5  # (not the file that went away)
    assert "4 failed" in stdout.splitlines()[-1]


def test_a_club_workbook_names_its_files_by_their_path_under_the_inbox(tmp_path: Path
                                                                       ) -> None:
    """The log and summary say clubA/problems_session.csv; the club's Problems and Summary
    sheets said the server's whole path to it."""
    inbox, out = make_inbox(tmp_path), tmp_path / "out"
    run(inbox, "-o", out)
    book = openpyxl.load_workbook(out / "clubA" / "problems_session_results.xlsx",
                                  read_only=True)
    cells = [str(v) for sheet in book.worksheets for row in sheet.iter_rows(values_only=True)
             for v in row if v is not None]
    book.close()
    assert not [c for c in cells if str(tmp_path) in c]
    problems = [c for c in cells if c == "clubA/problems_session.csv"]
    assert len(problems) >= 5  # the File column of each problem, and the Summary's


def test_a_broken_re_export_keeps_the_results_published_before(tmp_path: Path) -> None:
    """A file scored and published, then replaced by a broken export: the run fails the file
    and keeps its published workbook, saying so (a Problems-only workbook would have taken
    the session's results down)."""
    inbox, out = tmp_path / "inbox", tmp_path / "out"
    inbox.mkdir()
    shutil.copy(SAMPLE_DATA / "club_session.csv", inbox / "tue.csv")
    age(inbox)
    assert run(inbox, "-o", out)[0] == 0
    published = (out / "tue_results.xlsx").read_bytes()
    (inbox / "tue.csv").write_text("Board,NS,EW,Contract,By,Tricks\n", encoding="utf-8")
    age(inbox)
    code, stdout, _ = run(inbox, "-o", out)
    assert code == 1 and "(the workbook published before, tue_results.xlsx, is kept)" in stdout
    assert (out / "tue_results.xlsx").read_bytes() == published


def test_move_done_moves_only_processed_inputs(tmp_path: Path) -> None:
    inbox, out, done = make_inbox(tmp_path), tmp_path / "out", tmp_path / "done"
    (inbox / "clubB" / "corrupt.xlsx").write_bytes(b"not a workbook")
    code, stdout, _ = run(inbox, "-o", out, "--move-done", done)
    assert code == 1
    assert sorted(p.relative_to(done).as_posix() for p in done.rglob("*") if p.is_file()) == [
        "clubA/club_session.csv", "clubA/problems_session.csv", "clubB/club_session.xlsx"]
    assert [p.name for p in inbox.rglob("*") if p.is_file()] == ["corrupt.xlsx"]
    assert f"input moved to {done / 'clubA' / 'club_session.csv'}" in stdout
    # the same session dropped again: already published, so skipped and moved beside it
    shutil.copy(SAMPLE_DATA / "club_session.csv", inbox / "clubA" / "club_session.csv")
    age(inbox)
    run(inbox, "-o", out, "--move-done", done)
    assert statuses(out)["clubA/club_session.csv"] == "skipped"
    assert (done / "clubA" / "club_session~2.csv").exists()


# --------------------------------------------------------------------------
# Corrections


def expected_pair_changes(old: Path, new: Path) -> dict[tuple[str, int], dict[str, Any]]:
    """Pairs whose MP, % or place differ, computed straight from the pipeline."""
    before = process(old).ranking.set_index(["line", "pair"])
    after = process(new).ranking.set_index(["line", "pair"])
    found = {}
    for key in after.index:
        fields = {c: [before.at[key, c], after.at[key, c]] for c in ("mp", "pct", "place")
                  if before.at[key, c] != after.at[key, c]}
        if fields:
            found[(str(key[0]), int(key[1]))] = fields
    return found


def test_corrected_input_reports_exact_old_and_new_values(tmp_path: Path) -> None:
    inbox, out = make_inbox(tmp_path, problems=False), tmp_path / "out"
    session = inbox / "clubA" / "club_session.csv"
    original = tmp_path / "original.csv"
    shutil.copy(session, original)
    run(inbox, "-o", out)
    correct(session)
    code, stdout, _ = run(inbox, "-o", out)
    assert code == 0
    assert ("corrected: 1 result, " in stdout
            and "see clubA/club_session_changes.csv, clubA/club_session_changes.txt" in stdout)
    rows = list(csv.DictReader(io.StringIO(
        (out / "clubA/club_session_changes.csv").read_text(encoding="utf-8"))))
    results = [(r["board"], r["ns_pair"], r["ew_pair"], r["field"], r["old"], r["new"])
               for r in rows if r["kind"] == "result"]
    # 2NT by N on board 10 (both vulnerable): 6 tricks = two down, -200; 9 tricks = +150
    assert results == [("10", "8", "3", "tricks", "6", "9"),
                       ("10", "8", "3", "ns_score", "-200", "+150")]
    expected = expected_pair_changes(original, session)
    assert expected[("NS", 8)]["place"] == ["2", "1"] and expected[("NS", 2)]["place"] == [
        "1", "2"]
    reported: dict[tuple[str, int], dict[str, list[str]]] = {}
    for r in rows:
        if r["kind"] == "pair" and r["field"] in ("mp", "pct", "place"):
            reported.setdefault((r["line"], int(r["pair"])), {})[r["field"]] = [r["old"], r["new"]]
    assert set(reported) == set(expected)
    for key, fields in expected.items():
        for field, (old, new) in fields.items():
            assert reported[key][field] == [show(old), show(new)], (key, field)
    text = (out / "clubA/club_session_changes.txt").read_text(encoding="utf-8")
    assert "board 10, N-S 8 v E-W 3: tricks 6 → 9, N-S score -200 → +150" in text
    assert "N-S pair 8: MP 190 → " in text and "place 2 → 1" in text
    changes = summary_of(out)["files"][0]["changes"]
    assert changes["results"] == [{"change": "changed", "section": "", "board": 10,
                                   "ns_pair": 8, "ew_pair": 3,
                                   "fields": {"tricks": [6, 9], "ns_score": [-200, 150]}}]
    assert {(p["line"], p["pair"]) for p in changes["pairs"]} == set(expected)


def test_snapshot_diff_added_and_removed_rows() -> None:
    old = {"format": 1, "results": {"key": ["board", "ns_pair"], "columns": ["contract"],
                                    "rows": [[1, 1, "3NT"], [1, 2, "4S"]]},
           "ranking": {"key": ["line", "pair"], "columns": ["names", "mp"],
                       "rows": [["NS", 1, "A – B", 10.0]]}}
    new = {"format": 1, "results": {"key": ["board", "ns_pair"], "columns": ["contract"],
                                    "rows": [[1, 1, "3NT"], [1, 3, "2H"]]},
           "ranking": {"key": ["line", "pair"], "columns": ["names", "mp"],
                       "rows": [["NS", 1, "A – B", 10.00001]]}}
    found = diff(old, new)
    assert [(r["change"], r["ns_pair"]) for r in found.results] == [("added", 3), ("removed", 2)]
    assert found.pairs == []  # float noise is not a change
    assert "board 1, N-S 3 v E-W None: added (contract 2H)" in report_text(found, "t", "w")


def test_the_changes_report_rounds_as_the_workbook_shows() -> None:
    """A corrected pair's 55.125 % reads 55.13 in the report, as on its Ranking sheet
    (printf's 55.12 would tell the director a figure no sheet shows)."""
    assert [show(v) for v in (55.125, 79.975, 191.0, 8.4, -0.001)] == [
        "55.13", "79.98", "191", "8.4", "0"]
    assert show(420, "ns_score") == "+420" and show(None) == "–"
