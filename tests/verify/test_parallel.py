"""run_cells: seeding, identical results across backends, resume after a crash (SIGKILL), Dask."""

from __future__ import annotations

import os
import signal
import socket
import subprocess
import sys
import time
from collections import Counter
from functools import partial
from pathlib import Path

import numpy as np
import pytest

from dptheory.parallel import cell_seed, run_cells, seed_cells
from dptheory.store import Store, cell_key, dumps
from tests.verify.cellfuncs import BASE_SEED, boom, draw, read_calls, sweep_cells

REPO = Path(__file__).resolve().parents[2]


def _cells(n: int) -> list[dict]:
    return [{"recipe": "test.recipe", "n": i, "block": i % 3} for i in range(n)]


def _same(a: dict, b: dict) -> bool:
    """Same keys, same order, bit-identical values (compared through their exact JSON)."""
    return list(a) == list(b) and all(dumps(a[k]) == dumps(b[k]) for k in a)


def _reference(n: int) -> dict:
    return run_cells(draw, _cells(n), n_jobs=1, base_seed=BASE_SEED, progress=False)


# ---------------------------------------------------------------------------- seeding
def test_cell_seed_is_sha256_spawn_key():
    import hashlib
    key = cell_key({"recipe": "r", "n": 100})
    digest = hashlib.sha256(key.encode()).digest()
    words = tuple(int.from_bytes(digest[i:i + 4], "big") for i in range(0, 32, 4))
    state = np.random.SeedSequence(42, spawn_key=words).generate_state(1, np.uint64)[0]
    assert cell_seed(42, key) == int(state) >> 1
    assert cell_seed(42, {"n": 100, "recipe": "r"}) == cell_seed(42, key)   # mapping or key
    assert 0 <= cell_seed(42, key) < 2 ** 63
    assert cell_seed(43, key) != cell_seed(42, key)
    assert cell_seed(42, cell_key({"recipe": "r", "n": 101})) != cell_seed(42, key)
    with pytest.raises(ValueError, match="base_seed"):
        cell_seed(-1, key)


def test_cell_seed_is_stable_across_processes():
    key = cell_key({"recipe": "r", "n": 100})
    code = ("from dptheory.parallel import cell_seed; from dptheory.store import cell_key;"
            "print(cell_seed(42, cell_key({'recipe': 'r', 'n': 100})))")
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True,
                         check=True, cwd=REPO, env=os.environ | {"PYTHONHASHSEED": "123"})
    assert int(out.stdout) == cell_seed(42, key)


def test_seed_cells_keeps_given_seeds():
    cells = seed_cells([{"n": 1}, {"n": 2, "seed": 9}], 5)
    assert cells[0]["seed"] == cell_seed(5, cell_key({"n": 1})) and cells[1]["seed"] == 9


# ---------------------------------------------------------------------------- backends
def test_joblib_matches_serial_and_returns_in_cell_order():
    serial = _reference(16)
    par = run_cells(draw, _cells(16), n_jobs=2, base_seed=BASE_SEED, progress=False)
    assert _same(serial, par)
    first = serial[next(iter(serial))]
    assert isinstance(first["x"], np.ndarray) and first["x"].dtype == np.float64
    assert [v["n"] for v in par.values()] == list(range(16))
    assert par.run_id is None and sorted(par.computed) == sorted(par)


def test_results_through_store_equal_in_memory(tmp_path):
    with Store(tmp_path / "r.db") as store:
        out = run_cells(draw, _cells(6), store=store, n_jobs=1, base_seed=BASE_SEED,
                        progress=False, command="test")
        assert _same(out, _reference(6))
        assert _same(store.results(out.run_id, list(out)), dict(out))
        assert store.run(out.run_id)["status"] == "done"


def test_resume_computes_only_pending_cells(tmp_path):
    log = tmp_path / "log"
    log.mkdir()
    func = partial(draw, log_dir=str(log))
    cells = seed_cells(_cells(12), BASE_SEED)
    keys = [cell_key(c) for c in cells]
    with Store(tmp_path / "r.db") as store:
        # "crash" after half of the sweep: only the first six cells were ever run
        first = run_cells(func, cells[:6], store=store, run_id="sweep", n_jobs=1, progress=False)
        assert store.pending("sweep", keys) == keys[6:]
        again = run_cells(func, cells, store=store, run_id="sweep", n_jobs=2, progress=False)
        assert sorted(again.computed) == sorted(keys[6:]) and first.computed == keys[:6]
        rows = store.cells("sweep")
        assert len(rows) == 12 and all(r["attempts"] == 1 for r in rows)
        # a third call computes nothing
        third = run_cells(func, cells, store=store, run_id="sweep", n_jobs=2, progress=False)
        assert third.computed == []
        assert _same(again, third) and _same(third, _reference(12))
    assert Counter(read_calls(log)) == Counter(keys)          # each cell ran exactly once


def test_a_failing_cell_is_recorded_and_retried_on_resume(tmp_path):
    cells = seed_cells(_cells(6), BASE_SEED)
    keys = [cell_key(c) for c in cells]
    with Store(tmp_path / "r.db") as store:
        with pytest.raises(ValueError, match="fails on purpose"):
            run_cells(boom, cells, store=store, run_id="r", n_jobs=1, progress=False)
        assert store.run("r")["status"] == "failed"
        status = {r["key"]: r["status"] for r in store.cells("r")}
        assert status == {keys[0]: "done", keys[1]: "done", keys[2]: "done", keys[3]: "error"}
        out = run_cells(draw, cells, store=store, run_id="r", n_jobs=1, progress=False)
        assert out.computed == keys[3:] and _same(out, _reference(6))


def test_bad_arguments(tmp_path):
    with pytest.raises(ValueError, match="n_jobs"):
        run_cells(draw, _cells(2), n_jobs=0)
    with pytest.raises(ValueError, match="run_id needs a store"):
        run_cells(draw, _cells(2), run_id="x")
    with pytest.raises(ValueError, match="distinct"):
        run_cells(draw, [{"n": 1, "seed": 1}, {"seed": 1, "n": 1}], n_jobs=1)
    with pytest.raises(ValueError, match="mapping"):
        run_cells(draw, [3], n_jobs=1)
    with pytest.raises(ValueError, match="scheduler must be an address"):
        run_cells(draw, _cells(2), scheduler="localhost")


# ---------------------------------------------------------------------------- SIGKILL
def _sweep_process(db: Path, log: Path, n_cells: int, sleep: float) -> subprocess.Popen:
    return subprocess.Popen(
        [sys.executable, "-m", "tests.verify.cellfuncs", str(db), "killed", str(log),
         str(n_cells), str(sleep)], cwd=REPO, start_new_session=True,
        stdout=subprocess.DEVNULL, stderr=subprocess.PIPE)


def test_sigkill_mid_sweep_then_resume(tmp_path):
    n_cells, db, log = 40, tmp_path / "kill.db", tmp_path / "log"
    log.mkdir()
    proc = _sweep_process(db, log, n_cells, 0.05)
    deadline = time.monotonic() + 60
    done_at_kill: set[str] = set()
    try:
        while time.monotonic() < deadline and proc.poll() is None:
            if db.exists():
                with Store(db) as store:
                    if len(store.finished("killed")) >= 8:
                        break
            time.sleep(0.02)
        assert proc.poll() is None, proc.stderr.read().decode()[-2000:]
    finally:
        if proc.poll() is None:
            os.killpg(proc.pid, signal.SIGKILL)       # the sweep and its loky workers
        proc.wait(timeout=30)
        proc.stderr.close()
    assert proc.returncode == -signal.SIGKILL
    with Store(db) as store:
        done_at_kill = store.finished("killed")
        assert store.run("killed")["status"] == "running"
    assert 8 <= len(done_at_kill) < n_cells

    restart = _sweep_process(db, log, n_cells, 0.0)
    _, err = restart.communicate(timeout=120)
    assert restart.returncode == 0, err.decode()[-2000:]

    cells = seed_cells(sweep_cells(n_cells), BASE_SEED)
    reference = run_cells(draw, cells, n_jobs=1, progress=False)
    with Store(db) as store:
        final = store.results("killed")
        assert store.run("killed")["status"] == "done"
        attempts = {r["key"]: r["attempts"] for r in store.cells("killed")}
    assert _same({k: final[k] for k in reference}, reference)
    assert set(final) == set(reference) and set(attempts.values()) == {1}
    calls = Counter(read_calls(log))
    assert all(calls[k] == 1 for k in done_at_kill)   # finished cells were not recomputed
    assert set(calls) == set(reference)


# ---------------------------------------------------------------------------- Dask
def test_dask_cluster_matches_local(tmp_path):
    distributed = pytest.importorskip("distributed")
    local = _reference(8)
    with distributed.LocalCluster(n_workers=1, threads_per_worker=1, processes=False,
                                  scheduler_port=0, host="127.0.0.1", protocol="tcp://",
                                  dashboard_address=None) as cluster:
        address = cluster.scheduler_address
        assert address.startswith("tcp://127.0.0.1:")
        on_dask = run_cells(draw, _cells(8), scheduler=address, base_seed=BASE_SEED,
                            progress=False)
        with Store(tmp_path / "d.db") as store:
            run_cells(draw, _cells(4), scheduler=address, base_seed=BASE_SEED, store=store,
                      run_id="d", progress=False)
            resumed = run_cells(draw, _cells(8), scheduler=address, base_seed=BASE_SEED,
                                store=store, run_id="d", progress=False)
    assert _same(on_dask, local) and _same(resumed, local) and len(resumed.computed) == 4


def _free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def test_unreachable_scheduler_fails_fast():
    pytest.importorskip("distributed")
    start = time.monotonic()
    with pytest.raises(ValueError, match="cannot reach Dask scheduler at tcp://127.0.0.1"):
        run_cells(draw, _cells(2), scheduler=f"tcp://127.0.0.1:{_free_port()}")
    assert time.monotonic() - start < 10


def test_silent_listener_is_not_a_scheduler():
    pytest.importorskip("distributed")
    with socket.socket() as server:                # accepts TCP but never speaks Dask
        server.bind(("127.0.0.1", 0))
        server.listen(4)
        address = f"tcp://127.0.0.1:{server.getsockname()[1]}"
        start = time.monotonic()
        with pytest.raises(ValueError, match="cannot reach Dask scheduler"):
            run_cells(draw, _cells(2), scheduler=address, connect_timeout=1.0)
        assert time.monotonic() - start < 10


# ---------------------------------------------------------------------------- progress
def test_progress_bar_is_silent_when_stderr_is_not_a_terminal(capsys):
    out = run_cells(draw, _cells(3), n_jobs=1, base_seed=BASE_SEED, progress=True)
    captured = capsys.readouterr()
    assert captured.err == "" and captured.out == "" and len(out) == 3


def test_progress_bar_on_a_terminal(monkeypatch):
    import io

    class Tty(io.StringIO):
        def isatty(self):
            return True
    err = Tty()
    monkeypatch.setattr(sys, "stderr", err)
    run_cells(draw, _cells(3), n_jobs=1, base_seed=BASE_SEED, progress=True)
    assert "3/3" in err.getvalue()
    err2 = Tty()
    monkeypatch.setattr(sys, "stderr", err2)
    run_cells(draw, _cells(3), n_jobs=1, base_seed=BASE_SEED, progress=False)
    assert err2.getvalue() == ""


# ---------------------------------------------------------------------------- timing, order
def test_cell_times_are_worker_cpu_and_wall_seconds(tmp_path):
    # a cell that sleeps 0.3 s takes >= 0.3 s of wall time but almost no CPU time: the
    # stored cpu_time is the worker's process time, not the wall clock
    cells = seed_cells(_cells(2), BASE_SEED)
    with Store(tmp_path / "t.db") as store:
        run_cells(partial(draw, sleep=0.3), cells, store=store, run_id="t", n_jobs=1,
                  progress=False)
        rows = store.cells("t")
        assert all(r["wall_time"] >= 0.3 and 0 <= r["cpu_time"] < 0.15 for r in rows)
        assert store.cell_times() == {r["key"]: r["cpu_time"] for r in rows}


def test_cells_timed_before_start_longest_first(tmp_path, monkeypatch):
    import dptheory.parallel as parallel
    started: list[str] = []

    def serial_recording(func, todo, n_jobs):
        started.extend(k for _, k in todo)
        return parallel._serial(func, todo)

    monkeypatch.setattr(parallel, "_joblib", serial_recording)
    cells = seed_cells(_cells(5), BASE_SEED)
    keys = [cell_key(c) for c in cells]
    with Store(tmp_path / "o.db") as store:
        store.new_run("earlier", {}, "earlier")
        for k, seconds in zip(keys[1:], (1.0, 5.0, 3.0, 2.0)):   # keys[0] never timed
            store.put("earlier", k, {}, wall_time=seconds + 1, cpu_time=seconds)
        out = run_cells(draw, cells, store=store, run_id="now", n_jobs=2, progress=False)
    assert started == [keys[0], keys[2], keys[3], keys[4], keys[1]]
    assert list(out) == keys and _same(out, _reference(5))   # the order changes no result


def test_workers_see_a_path_added_after_they_started(tmp_path, monkeypatch):
    # loky reuses its workers across run_cells calls; a module in a directory added to
    # sys.path after they started (a plugin, a notebook's sys.path.insert) must import in
    # them. Before the workers took the parent's sys.path this raised ModuleNotFoundError.
    first = run_cells(draw, _cells(4), n_jobs=2, base_seed=BASE_SEED, progress=False)
    assert len(first) == 4
    (tmp_path / "late_cellmod.py").write_text("def triple(cell):\n    return 3 * cell['n']\n")
    monkeypatch.syspath_prepend(str(tmp_path))
    import late_cellmod
    try:
        got = run_cells(late_cellmod.triple, _cells(4), n_jobs=2, base_seed=BASE_SEED,
                        progress=False)
        assert [got[k] for k in got] == [0, 3, 6, 9]
    finally:
        sys.modules.pop("late_cellmod", None)
