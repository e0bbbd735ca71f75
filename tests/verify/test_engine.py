"""The verify engine end to end on a small recipe package registered by entry point."""

import json
import os
import signal
import subprocess
import sys
import textwrap
import time

import pytest


RECIPES = textwrap.dedent('''
    import time
    import numpy as np
    from dptheory.verify.recipe import Recipe

    def cell(c):
        # replicate r of point n: Gaussian with mean 1/sqrt(n), drawn from (seed, r) only,
        # so pooled blocks do not depend on the block size.
        n = c["point"]["n"]
        out = []
        for r in range(c["first_replicate"], c["first_replicate"] + c["reps"]):
            g = np.random.default_rng([c["seed"], r])
            out.append(float(n ** -0.5 * (1 + 0.05 * g.standard_normal())))
        time.sleep(c.get("sleep", 0.0))
        return {"samples": out, "bound": 2.0 * n ** -0.5}

    def sens(c):
        return {"measured": 3.0, "bound": 2.0, "worst": {"i": 0}}

    def lacks(recipe):
        return "needs the package fakedata: pip install fakedata"

    RECIPES = [
        Recipe("fake2030.thm3:needs-data", "fake2030.thm3", "bound", "fakerecipes:cell",
               {"n": [16]}, reps=4, block=4, requires="fakerecipes:lacks"),
        Recipe("fake2030.thm1:bound-n", "fake2030.thm1", "bound", "fakerecipes:cell",
               {"n": [16, 64, 256]}, reps=12, block=4, metric="E||grad F||"),
        Recipe("fake2030.thm1:slope-n", "fake2030.thm1", "slope", "fakerecipes:cell",
               {"n": [16, 64, 256, 1024]}, reps=12, block=4, expected_slope=-0.5,
               sweep_full={"n": [16, 32, 64, 128, 256, 512, 1024]}, reps_full=24,
               fixed={"sleep": 0.0}),
        Recipe("fake2030.lemma2:sens", "fake2030.lemma2", "sensitivity", "fakerecipes:sens",
               {"n": [10]}, reps=1, block=1),
        Recipe("fake2030.thm1:slow", "fake2030.thm1", "slope", "fakerecipes:cell",
               {"n": [16, 32, 64, 128, 256, 512, 1024, 2048]}, reps=16, block=2,
               expected_slope=-0.5, fixed={"sleep": 0.15}, quick=False),
    ]
''')


@pytest.fixture
def fake_recipes(tmp_path, monkeypatch):
    (tmp_path / "fakerecipes.py").write_text(RECIPES)
    info = tmp_path / "fakerecipes-1.0.dist-info"
    info.mkdir()
    (info / "METADATA").write_text("Metadata-Version: 2.1\nName: fakerecipes\nVersion: 1.0\n")
    (info / "entry_points.txt").write_text("[dptheory.experiments]\nfake = fakerecipes\n")
    monkeypatch.syspath_prepend(str(tmp_path))
    monkeypatch.setenv("PYTHONPATH", str(tmp_path) + os.pathsep + os.environ.get("PYTHONPATH", ""))
    import importlib
    importlib.invalidate_caches()
    yield tmp_path
    sys.modules.pop("fakerecipes", None)


def _verify(*args, cwd):
    return subprocess.run([sys.executable, "-m", "dptheory", "verify", *args], cwd=cwd,
                          capture_output=True, text=True, timeout=300)


def test_quick_verify_writes_report_and_verdicts(fake_recipes):
    out = fake_recipes / "rep"
    from dptheory.verify.engine import run_verify
    from dptheory.verify.report import write
    res = run_verify(only=["fake2030.thm1", "fake2030.lemma2"], out=out, n_jobs=1,
                     progress=False, symbolic=False)
    v = {x.id: x for x in res.verdicts}
    # means 1/sqrt(n) (+-5%, 12 replicates: the lower limit is within ~3% of the mean) sit
    # at half the bound 2/sqrt(n): supported, detecting a violation by a factor ~1.03;
    # an exact slope -1/2 in both ranges (16..64, 64..1024): stable and supported; measured
    # 3 > bound 2: refuted (a finding, graded "bound" by default).
    assert v["fake2030.thm1:bound-n"].verdict == "supported"
    assert v["fake2030.thm1:bound-n"].power["detectable_factor"] < 1.1
    assert v["fake2030.thm1:slope-n"].verdict == "supported"
    assert v["fake2030.lemma2:sens"].verdict == "refuted"
    assert [f.check for f in res.findings] == ["fake2030.lemma2:sens"]
    assert res.findings[0].severity == "bound"
    path = write(res)
    text = path.read_text()
    assert "fake2030.thm1:slope-n" in text and "![" in text
    figs = list((out / "figures").iterdir())
    assert figs and not any(p.suffix == ".svg" for p in figs)       # PNG only by default
    write(res, svg=True)
    assert any(p.suffix == ".svg" for p in (out / "figures").iterdir())
    # resume: the same command recomputes nothing
    again = run_verify(only=["fake2030.thm1", "fake2030.lemma2"], out=out, n_jobs=1,
                       progress=False, symbolic=False)
    assert again.computed == 0
    assert [x.evidence for x in again.verdicts] == [x.evidence for x in res.verdicts]
    from dptheory.store import Store
    with Store(out / "results.sqlite") as store:      # the resumed run stored no duplicate
        assert [(f["id"], f["check"]) for f in store.findings()] == \
               [("fake2030.lemma2", "fake2030.lemma2:sens")]


def test_block_size_does_not_change_numbers(fake_recipes):
    from dptheory.verify.engine import _pool, build_cells, dispatch
    from dptheory.verify.recipe import Recipe
    a = Recipe("x.y:a", "x.y", "bound", "fakerecipes:cell", {"n": [16, 64]}, reps=12, block=4)
    b = Recipe("x.y:a", "x.y", "bound", "fakerecipes:cell", {"n": [16, 64]}, reps=12, block=5)
    pa = _pool([(dispatch(c), c) for c in build_cells([a], full=False, seed=3)], a, False)
    pb = _pool([(dispatch(c), c) for c in build_cells([b], full=False, seed=3)], b, False)
    assert pa[16]["samples"] == pb[16]["samples"] and pa[64]["samples"] == pb[64]["samples"]


def test_sigkill_during_full_run_resumes_to_identical_report(fake_recipes):
    args = ["--full", "--only", "fake2030.thm1:slow", "--jobs", "1", "--json"]
    ref = _verify(*args, "--out", str(fake_recipes / "ref"), cwd=fake_recipes)
    assert ref.returncode == 0, ref.stderr
    out = fake_recipes / "killed"
    proc = subprocess.Popen([sys.executable, "-m", "dptheory", "verify", *args, "--out", str(out)],
                            cwd=fake_recipes, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    store = out / "results.sqlite"
    deadline = time.time() + 60
    import sqlite3
    done = 0
    while time.time() < deadline:        # wait until some (not all) cells are committed
        if store.exists():
            try:
                with sqlite3.connect(store) as con:
                    done = con.execute("select count(*) from cells where status='done'").fetchone()[0]
            except sqlite3.OperationalError:
                done = 0
            if done >= 5:
                break
        time.sleep(0.05)
    proc.send_signal(signal.SIGKILL)
    proc.wait()
    assert 5 <= done < 64
    resumed = _verify(*args, "--out", str(out), cwd=fake_recipes)
    assert resumed.returncode == 0, resumed.stderr
    a, b = json.loads(ref.stdout), json.loads(resumed.stdout)
    assert b["cells"]["computed"] < b["cells"]["total"]           # finished cells were kept
    assert [(v["id"], v["verdict"], v["summary"]) for v in a["verdicts"]] == \
           [(v["id"], v["verdict"], v["summary"]) for v in b["verdicts"]]


def test_scheduler_gives_identical_verdicts(fake_recipes):
    distributed = pytest.importorskip("distributed")
    from dptheory.verify.engine import run_verify
    with distributed.LocalCluster(n_workers=1, threads_per_worker=1, processes=False,
                                  host="127.0.0.1", protocol="tcp://", scheduler_port=0,
                                  dashboard_address=None) as cluster:
        dask = run_verify(only=["fake2030.thm1"], out=fake_recipes / "dask", progress=False,
                          scheduler=cluster.scheduler_address, symbolic=False)
    local = run_verify(only=["fake2030.thm1"], out=fake_recipes / "local", n_jobs=1,
                       progress=False, symbolic=False)
    assert [v.evidence for v in dask.verdicts] == [v.evidence for v in local.verdicts]


@pytest.mark.parametrize("args,needle", [
    (["--only", "nosuch.thm9"], "unknown id"),
    (["--out", "/proc/forbidden/report"], "not writable"),
    (["--scheduler", "tcp://127.0.0.1:9"], "cannot reach"),
])
def test_bad_input_is_one_line_exit_2(fake_recipes, args, needle):
    r = _verify(*args, cwd=fake_recipes)
    assert r.returncode == 2
    assert r.stderr.count("\n") == 1 and needle in r.stderr


def test_recipe_this_machine_cannot_run_is_reported_not_run(fake_recipes):
    """A recipe whose ``requires`` gives a reason runs no cell and is inconclusive with it."""
    from dptheory.verify.engine import run_verify
    res = run_verify(only=["fake2030.thm3", "fake2030.lemma2"], out=fake_recipes / "o",
                     n_jobs=1, progress=False, symbolic=False)
    by = {v.id: v for v in res.verdicts}
    v = by["fake2030.thm3:needs-data"]
    assert v.verdict == "inconclusive"
    assert v.summary == ("not run on this machine: needs the package fakedata: "
                         "pip install fakedata")
    assert res.total_cells == 1                  # lemma2's one cell; none of thm3's
    assert by["fake2030.lemma2:sens"].verdict == "refuted"    # the others still run


def test_requires_must_name_a_function():
    from dptheory.verify.recipe import Recipe
    with pytest.raises(ValueError, match="requires must be 'module:function'"):
        Recipe("x.y:z", "x.y", "bound", "m:f", {"n": [1]}, requires="nofunction")


def test_fixed_may_not_set_the_engines_cell_keys():
    from dptheory.verify.recipe import Recipe
    with pytest.raises(ValueError, match=r"cell keys \['reps', 'seed'\]"):
        Recipe("x.y:z", "x.y", "bound", "m:f", {"n": [1]}, fixed={"seed": 1, "reps": 2, "a": 0})


def test_json_carries_each_verdicts_evidence(fake_recipes):
    res = _verify("--quick", "--only", "fake2030.thm1:slope-n", "--jobs", "1", "--json",
                  "--out", str(fake_recipes / "o"), cwd=fake_recipes)
    assert res.returncode == 0, res.stderr
    v = next(v for v in json.loads(res.stdout)["verdicts"] if v["id"] == "fake2030.thm1:slope-n")
    # the sweep and the fitted slope (samples ~ n^-1/2 by construction of the fake cell)
    assert v["evidence"]["xs"] == [16, 64, 256, 1024]
    assert abs(v["evidence"]["slope"] + 0.5) < 0.05
    report = json.loads((fake_recipes / "o" / "report.json").read_text())
    assert next(r for r in report["verdicts"] if r["id"] == v["id"])["evidence"]["xs"] == \
        [16, 64, 256, 1024]


def test_cell_key_ignores_where_the_cell_function_lives():
    """Issue 20: a store's cell key names what a cell computes, not the module of its
    function, so moving cell functions between modules keeps stores resuming."""
    from dptheory.store import cell_key
    from dptheory.verify.engine import build_cells, recipes, select
    cells = build_cells(select(recipes(), full=False, only=["zhang2017.lemma8:bound-T"]),
                        full=False, seed=0)
    assert cells and all(c["cell_fn"].endswith(":gd_ratio") for c in cells)
    moved = [{**c, "cell_fn": "somewhere.else:gd_ratio"} for c in cells]
    assert [cell_key(c) for c in cells] == [cell_key(c) for c in moved]
    assert all("cell_fn" not in cell_key(c) for c in cells)
    # what the cell computes still makes the key: another seed is another cell
    assert cell_key(cells[0]) != cell_key({**cells[0], "seed": cells[0]["seed"] + 1})


def test_work_beside_the_cells_changes_no_verdict(fake_recipes):
    # with workers, the symbolic checks and the audits' powers run in a forked process
    # beside the cells (dptheory.verify.beside); the verdicts are those of --jobs 1
    from dptheory.verify.engine import run_verify
    only = ["fake2030.thm1", "fake2030.lemma2"]
    par = run_verify(only=only, out=fake_recipes / "par", n_jobs=2, progress=False)
    ser = run_verify(only=only, out=fake_recipes / "ser", n_jobs=1, progress=False)
    assert par.beside["forked"] is sys.platform.startswith("linux")
    assert not ser.beside["forked"]
    assert [(v.id, v.verdict, v.evidence) for v in par.verdicts] == \
           [(v.id, v.verdict, v.evidence) for v in ser.verdicts]
