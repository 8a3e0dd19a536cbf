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
hundred, small, out, pickles = sys.argv[1:5]
with LocalCluster(n_workers=2, threads_per_worker=1, dashboard_address=None,
                  silence_logs=logging.ERROR) as cluster:
    address = cluster.scheduler_address
    big = simultaneous(hundred, engine="dask", scheduler=address, timeout=30)
    few = simultaneous(small, engine="dask", scheduler=address, output=out, timeout=30,
                       clubs_per_task=2, html=True)
big.ranking.to_pickle(pickles + "/hundred.pkl")
few.ranking.to_pickle(pickles + "/small.pkl")
few.clubs.to_pickle(pickles + "/clubs.pkl")
print(json.dumps({"settings": big.settings, "statuses": sorted(set(big.clubs["status"]))}))
"""


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


def test_dask_engine_gives_the_local_results(tmp_path: Path) -> None:
    inbox = tmp_path / "hundred"
    rows = make_sim(inbox, 100)  # the same sim as test_sim.py's, checked the same way
    small = tmp_path / "small"
    make_sim(small, 5, seed=21)
    (small / "broken.csv").write_bytes(b"\x00\x01 not a traveller")
    local_small = simultaneous(small, output=tmp_path / "local", html=True)
    done = run_limited([sys.executable, "-c", SCRIPT, str(inbox), str(small),
                        str(tmp_path / "dask"), str(tmp_path)], LIMIT)
    assert done.returncode == 0, done.stderr[-3000:]
    report = json.loads(done.stdout.strip().splitlines()[-1])
    assert report["settings"]["engine"] == "dask" and report["statuses"] == ["ok"]
    got = national(pd.read_pickle(tmp_path / "hundred.pkl"))
    expected = reference(rows)
    assert got.keys() == expected.keys()
    assert max(abs(got[k] - expected[k]) for k in expected) < 1e-9
    small_ranking = pd.read_pickle(tmp_path / "small.pkl")
    pd.testing.assert_frame_equal(small_ranking.drop(columns="national"),
                                  local_small.ranking.drop(columns="national"))
    assert (small_ranking["national"] - local_small.ranking["national"]).abs().max() < 1e-9
    clubs = pd.read_pickle(tmp_path / "clubs.pkl")
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
