"""The results store: exact JSON round-trip, resume bookkeeping, findings, concurrent writers."""

from __future__ import annotations

import math
import pickle
import sqlite3
import struct

import numpy as np
import pytest

from dptheory.store import Store, cell_key, dumps, loads
from dptheory.verify.verdict import Finding


def _bits(x: float) -> bytes:
    return struct.pack("<d", x)


@pytest.fixture
def store(tmp_path):
    with Store(tmp_path / "results.db") as s:
        yield s


HARD_FLOATS = [0.1, 1 / 3, 2 / 3, 5e-324, 2.2250738585072014e-308, 1.7976931348623157e308,
               -0.0, 0.0, math.pi, math.nextafter(1.0, 2.0), 1e22, 123456789.12345678,
               float("inf"), float("-inf")]


def test_floats_round_trip_bit_for_bit():
    rng = np.random.default_rng(0)
    randoms = (rng.standard_normal(200) * 10.0 ** rng.integers(-300, 300, 200)).tolist()
    for x in HARD_FLOATS + randoms:
        y = loads(dumps(x))
        assert type(y) is float and _bits(y) == _bits(x)
    assert math.isnan(loads(dumps(float("nan"))))


def test_arrays_and_nested_values_round_trip(store):
    rng = np.random.default_rng(1)
    value = {"w": rng.standard_normal((3, 4)), "empty": np.empty((0, 3)),
             "ints": np.arange(5, dtype=np.int64), "flags": np.array([True, False]),
             "f32": np.float32(0.1), "i64": np.int64(7), "nested": [{"a": (1, 2.5)}, None, True],
             "special": [float("nan"), float("inf"), -0.0, 5e-324], "s": "text"}
    run = store.new_run("cmd", {"x": 1})
    store.put(run, "k", value)
    got = store.get(run, "k")
    for name in ("w", "empty", "ints", "flags"):
        assert isinstance(got[name], np.ndarray)
        assert got[name].dtype == value[name].dtype and got[name].shape == value[name].shape
        assert got[name].tobytes() == value[name].tobytes()
    # numpy scalars become Python numbers of the same value (float32 widened exactly)
    assert got["f32"] == float(np.float32(0.1)) and got["i64"] == 7 and type(got["i64"]) is int
    assert got["nested"] == [{"a": [1, 2.5]}, None, True]
    assert math.isnan(got["special"][0]) and got["special"][1] == math.inf
    assert _bits(got["special"][2]) == _bits(-0.0) and got["special"][3] == 5e-324
    # a second store on the same file reads the same bits
    with Store(store.path) as other:
        again = other.get(run, "k")
    assert again["w"].tobytes() == value["w"].tobytes()


def test_values_that_cannot_round_trip_are_refused(store):
    run = store.new_run()
    with pytest.raises(TypeError):
        store.put(run, "k", {1: "int key"})
    with pytest.raises(TypeError):
        store.put(run, "k", {"obj": object()})
    with pytest.raises(TypeError):
        dumps(np.array(["a", "b"]))
    assert store.pending(run, ["k"]) == ["k"]


def test_cell_key_is_canonical():
    a = cell_key({"recipe": "x.thm1", "n": 100, "block": 0, "seed": 5})
    b = cell_key({"seed": np.int64(5), "block": 0, "n": np.int32(100), "recipe": "x.thm1"})
    assert a == b == '{"block":0,"n":100,"recipe":"x.thm1","seed":5}'
    assert cell_key({"eps": 0.1}) != cell_key({"eps": math.nextafter(0.1, 1.0)})
    with pytest.raises(ValueError, match="cell"):
        cell_key(["not", "a", "mapping"])
    with pytest.raises(ValueError, match="JSON"):
        cell_key({"f": object()})


def test_pending_results_and_runs(store):
    run = store.new_run("dptheory sweep x", {"ns": [10, 20]})
    keys = [cell_key({"n": n}) for n in range(6)]
    assert store.pending(run, keys) == keys
    for k in keys[:3]:
        store.put(run, k, {"k": k}, wall_time=0.5)
    store.put(run, keys[3], {"error": "boom"}, status="error")
    assert store.pending(run, keys) == keys[3:]            # errors are retried
    assert set(store.results(run)) == set(keys[:3])
    assert store.results(run, keys[1:2]) == {keys[1]: {"k": keys[1]}}
    with pytest.raises(KeyError):
        store.get(run, keys[3])
    store.put(run, keys[3], {"k": keys[3]})
    rows = {r["key"]: r for r in store.cells(run)}
    assert rows[keys[3]]["attempts"] == 2 and rows[keys[0]]["attempts"] == 1
    assert rows[keys[0]]["wall_time"] == 0.5 and rows[keys[0]]["finished"]
    # resuming keeps command and config; another run is independent
    assert store.new_run("other", {"z": 1}, run) == run
    info = store.run(run)
    assert info["command"] == "dptheory sweep x" and info["config"] == {"ns": [10, 20]}
    run2 = store.new_run("second")
    assert store.pending(run2, keys) == keys
    store.set_status(run, "done")
    summary = {r["id"]: r for r in store.runs()}
    assert summary[run]["status"] == "done" and summary[run]["cells"] == {"done": 4}
    assert summary[run2]["status"] == "running"
    with pytest.raises(ValueError, match="status"):
        store.set_status(run, "finished")
    with pytest.raises(ValueError, match="run_id"):
        store.run("nope")


def test_wal_mode_and_pickling(store):
    with sqlite3.connect(store.path) as conn:
        assert conn.execute("PRAGMA journal_mode").fetchone()[0] == "wal"
    copy = pickle.loads(pickle.dumps(store))
    run = copy.new_run()
    copy.put(run, "k", 1.5)
    assert store.get(run, "k") == 1.5
    copy.close()


def test_findings_of_all_runs(store):
    r1, r2 = store.new_run("a"), store.new_run("b")
    f1 = Finding("zhang2021.thm3", "zhang2021.thm3:slope", "slope -0.3 excludes -0.5",
                 {"slope": -0.3, "xs": [1, 2], "expr": object()}, "dptheory verify zhang2021.thm3")
    f2 = Finding("tran2022.lemma1", "sensitivity", "exceeds", {"worst": 2.0})
    store.add_finding(f1, r1)
    store.add_finding(f2, r2)
    store.add_finding(f2)
    all_ = store.findings()
    assert [f["id"] for f in all_] == ["zhang2021.thm3", "tran2022.lemma1", "tran2022.lemma1"]
    assert [f["run_id"] for f in all_] == [r1, r2, None]
    assert all_[0]["evidence"]["slope"] == -0.3 and isinstance(all_[0]["evidence"]["expr"], str)
    assert all_[0]["reproduce"] == "dptheory verify zhang2021.thm3"
    assert [f["check"] for f in store.findings(r2)] == ["sensitivity"]
    with pytest.raises(ValueError, match="Finding"):
        store.add_finding({"id": "x"})


def test_concurrent_writers_from_several_processes(tmp_path):
    from joblib import Parallel, delayed

    from tests.verify.cellfuncs import write_cells
    db = str(tmp_path / "shared.db")
    pids = Parallel(n_jobs=3, backend="loky")(
        delayed(write_cells)(db, "shared", w, 40) for w in range(3))
    assert len(pids) == 3
    with Store(db) as s:
        got = s.results("shared")
        assert len(got) == 120
        assert got[cell_key({"worker": 2, "i": 39})] == {"v": 2039.1}
        assert all(r["attempts"] == 1 for r in s.cells("shared"))


def test_bad_arguments(tmp_path):
    with pytest.raises(ValueError, match="directory"):
        Store(tmp_path / "missing" / "x.db")
    with pytest.raises(ValueError, match="busy_timeout"):
        Store(tmp_path / "x.db", busy_timeout=0)
    with Store(tmp_path / "x.db") as s:
        with pytest.raises(ValueError, match="run_id"):
            s.new_run(run_id="")
        with pytest.raises(ValueError, match="status"):
            s.put(s.new_run(), "k", 1, status="half")
