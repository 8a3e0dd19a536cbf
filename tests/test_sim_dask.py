"""The Dask engine gives the local engine's results (a LocalCluster of 2 workers).

The Dask run is a child process in its own session with a time limit, so a
cluster that hangs is killed with everything it started and the test fails:
it can never hang the suite.
"""

from __future__ import annotations

import json
import os
import signal
import subprocess
import sys
from pathlib import Path

import pandas as pd
import pytest

pytest.importorskip("distributed")
pytest.importorskip("dask.dataframe")

from test_sim import make_sim, national, reference  # the same sim and reference

from traveller.sim.api import simultaneous

REPO = Path(__file__).resolve().parents[1]
LIMIT = 600  # seconds for the whole Dask run, cluster start included (~3 min on a busy 2-core box)

SCRIPT = """
import json, logging, sys
from distributed import LocalCluster
from traveller.sim.api import simultaneous
inbox, out, pickle, options = sys.argv[1], sys.argv[2], sys.argv[3], json.loads(sys.argv[4])
with LocalCluster(n_workers=2, threads_per_worker=1, dashboard_address=None,
                  silence_logs=logging.ERROR) as cluster:
    done = simultaneous(inbox, engine="dask", scheduler=cluster.scheduler_address,
                        output=out or None, timeout=30, **options)
done.ranking.to_pickle(pickle + "_ranking.pkl")
done.clubs.to_pickle(pickle + "_clubs.pkl")
print(json.dumps({"settings": done.settings, "statuses": sorted(set(done.clubs["status"]))}))
"""


def run_dask(inbox: Path, out: Path | None, pickle: Path, **options: object
             ) -> tuple[dict[str, object], pd.DataFrame, pd.DataFrame]:
    """``simultaneous(inbox, engine="dask")`` on a LocalCluster of 2 workers, in a child:
    its report, ranking and clubs."""
    done = run_limited([sys.executable, "-c", SCRIPT, str(inbox), str(out or ""), str(pickle),
                        json.dumps(options)], LIMIT)
    assert done.returncode == 0, done.stderr[-3000:]
    report = json.loads(done.stdout.strip().splitlines()[-1])
    return (report, pd.read_pickle(f"{pickle}_ranking.pkl"),
            pd.read_pickle(f"{pickle}_clubs.pkl"))


def run_limited(args: list[str], limit: float) -> subprocess.CompletedProcess[str]:
    """Run ``args`` in a new session; on time-out kill the whole group and fail."""
    child = subprocess.Popen(args, cwd=REPO, stdout=subprocess.PIPE, stderr=subprocess.PIPE,
                             text=True, start_new_session=True,
                             env={**os.environ, "PYTHONPATH": str(REPO)})
    try:
        out, err = child.communicate(timeout=limit)
    except subprocess.TimeoutExpired:
        os.killpg(child.pid, signal.SIGKILL)
        child.communicate()
        pytest.fail(f"the Dask run took more than {limit} s")
    return subprocess.CompletedProcess(args, child.returncode, out, err)


@pytest.mark.slow  # a hundred clubs on a cluster: minutes of a busy 2-core machine
def test_dask_engine_scores_a_hundred_clubs_as_the_reference(tmp_path: Path) -> None:
    inbox = tmp_path / "hundred"
    rows = make_sim(inbox, 100)  # the same sim as test_sim.py's, checked the same way
    report, ranking, _ = run_dask(inbox, None, tmp_path / "hundred")
    assert report["settings"]["engine"] == "dask" and report["statuses"] == ["ok"]
    got = national(ranking)
    expected = reference(rows)
    assert got.keys() == expected.keys()
    assert max(abs(got[k] - expected[k]) for k in expected) < 1e-9


@pytest.mark.slow  # a Dask cluster started and stopped: the default run checks the local engine
def test_dask_engine_gives_the_local_results(tmp_path: Path) -> None:
    small = tmp_path / "small"
    make_sim(small, 5, seed=21)
    (small / "broken.csv").write_bytes(b"\x00\x01 not a traveller")
    local_small = simultaneous(small, output=tmp_path / "local", html=True)
    report, small_ranking, clubs = run_dask(small, tmp_path / "dask", tmp_path / "small",
                                            clubs_per_task=2, html=True)
    assert report["settings"]["engine"] == "dask"
    pd.testing.assert_frame_equal(small_ranking.drop(columns="national"),
                                  local_small.ranking.drop(columns="national"))
    assert (small_ranking["national"] - local_small.ranking["national"]).abs().max() < 1e-9
    columns = ["club", "status", "results", "pairs", "problems", "reason"]
    pd.testing.assert_frame_equal(clubs[columns], local_small.clubs[columns])
    # each club's workbook was written by a worker, the same as the local engine's
    for club in ("club001", "club004"):
        for sheet in ("Ranking", "Travellers"):
            a = pd.read_excel(tmp_path / "dask" / "clubs" / f"{club}.xlsx", sheet_name=sheet,
                              engine="calamine")
            b = pd.read_excel(tmp_path / "local" / "clubs" / f"{club}.xlsx", sheet_name=sheet,
                              engine="calamine")
            pd.testing.assert_frame_equal(a, b)
    for name in ("national_ranking.csv", "clubs.csv", "index.html", "clubs.html",
                 "clubs/club001/index.html"):  # the site too, club sites written by workers
        a = (tmp_path / "dask" / name).read_text(encoding="utf-8")
        b = (tmp_path / "local" / name).read_text(encoding="utf-8")
        a, b = a.replace(str(tmp_path / "dask"), "OUT"), b.replace(str(tmp_path / "local"), "OUT")
        assert sorted(a.splitlines()) == sorted(b.splitlines())  # clubs.csv: as they finish


@pytest.mark.slow  # a Dask cluster that fails to start: ten seconds of the default run
def test_a_script_without_a_main_guard_is_told_what_to_do(tmp_path: Path) -> None:
    """Dask loads the calling script again in each worker; without the guard the workers
    die ("Nanny failed to start"): the error says to put the call under the guard."""
    import subprocess
    import sys

    samples = Path(__file__).resolve().parent.parent / "sample_data" / "sim"
    script = tmp_path / "unguarded.py"
    script.write_text("import traveller\n"
                      f"traveller.simultaneous({str(samples)!r}, engine='dask', workers=1, "
                      "timeout=30)\n", encoding="utf-8")
    run = subprocess.run([sys.executable, str(script)], capture_output=True, text=True,
                         timeout=180, cwd=tmp_path)
    assert run.returncode != 0
    last = run.stderr.strip().splitlines()[-1]
    assert last.startswith("RuntimeError: Dask could not start its workers")
    assert 'if __name__ == "__main__":' in last
