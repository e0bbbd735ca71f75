"""Tests of the per-algorithm audit recipes, the planted-bug self-test and `dptheory audit`."""

from __future__ import annotations

import json

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from dptheory import registry
from dptheory.cli import main
from dptheory.verify.audit import audit_summary, experiment_recipes
from dptheory.verify.recipe import load_cell_function
import dptheory_simulations.experiments as experiments
from dptheory_simulations.experiments import audits
from dptheory_simulations.objectives import get as get_obj

#: the audit recipes of every paper
_AUDITS = [r for r in experiments.RECIPES if r.check == "audit"]

PRIVATE = sorted(a.id for a in registry.algorithms().values() if a.private)


@pytest.fixture(scope="module")
def selftest_rows():
    return audits.selftest()


# ------------------------------------------------------------------ recipes
def test_every_private_algorithm_has_quick_and_full_audit():
    recipes = [r for r in _AUDITS]
    assert all(r.check == "audit" for r in recipes)
    for alg in PRIVATE:
        mine = [r for r in recipes if r.fixed["algorithm"] == alg]
        assert {r.quick for r in mine} == {True, False}, alg
        for r in mine:
            registry.get(r.item)                       # a catalog item
            assert "paper" in r.points() and "twin" in r.points()
        full = next(r for r in mine if not r.quick)
        assert full.points() == ["paper", "tight", "twin"]
        assert full.total_reps(full=True) >= 8000
        quick = next(r for r in mine if r.quick)
        assert quick.total_reps() >= 8000              # power: a 2x violation is detectable


def test_claims_sit_inside_each_theorems_range():
    import math
    by = {r.fixed["algorithm"]: r.fixed for r in _AUDITS if r.quick}
    assert by["wang2020.alg2"]["eps"] < 1                      # wang2020 Thm 3: eps < 1
    assert by["zhang2017.alg2"]["eps"] <= 1                    # zhang2017 Thm 4: eps <= 1
    t = by["tran2022.alg1"]                                    # tran2022 Thm 4: delta >= e^-eps
    assert t["delta"] >= math.exp(-t["eps"])
    assert all(f["eps"] <= 1.5 for f in by.values())


def test_recipes_discovered_through_entry_points():
    ids = {r.id for r in experiment_recipes("audit")}
    assert {r.id for r in _AUDITS} <= ids


def test_cell_contract_and_block_invariance():
    r = experiments.recipe_for("zhang2021.dpsgd-const")
    cell = {**r.cells()[0], "reps": 40}
    fn = load_cell_function(r.cell)
    out = fn(cell)
    json.dumps(out)                                    # JSON-serialisable
    for k in ("scores_in", "scores_out", "epsilon_claimed", "epsilon_tight", "delta",
              "epsilon_lower_certified", "epsilon_upper_certified"):
        assert k in out
    assert out["epsilon_lower_certified"] <= out["epsilon_upper_certified"]
    assert len(out["scores_in"]) == len(out["scores_out"]) == 40
    assert fn(cell) == out                             # deterministic
    a = fn({**cell, "reps": 15})
    b = fn({**cell, "reps": 25, "first_replicate": 15})
    np.testing.assert_allclose(a["scores_in"] + b["scores_in"], out["scores_in"], rtol=1e-12)
    np.testing.assert_allclose(a["scores_out"] + b["scores_out"], out["scores_out"], rtol=1e-12)


# ------------------------------------------------------------------ worst-case canary
@settings(max_examples=60, deadline=None, derandomize=True)
@given(st.lists(st.floats(-1, 1), min_size=3, max_size=3),
       st.lists(st.floats(-1, 1), min_size=3, max_size=3),
       st.floats(-3, 3), st.floats(-3, 3))
def test_canary_search_attains_the_worst_pair(a, b, ya, yb):
    # robust regression, gradient at w = 0: -y/(1 + y^2/2) x; no pair Hypothesis finds in the
    # feature ball beats the searched canary (which attains 2 G = sqrt 2 ||x||max)
    obj = get_obj("robust-regression", d=3)
    data = obj.make_data(19, 0)
    w0 = np.zeros(3)
    can = audits.choose_canary(obj, data, w0, clip=None, seed=0)
    rmax = float(np.max(np.linalg.norm(data.X, axis=1)))
    xa, xb = np.array(a), np.array(b)
    xa *= min(1.0, rmax / max(np.linalg.norm(xa), 1e-12))
    xb *= min(1.0, rmax / max(np.linalg.norm(xb), 1e-12))
    g = obj.grad(w0, np.stack([xa, xb]), np.array([ya, yb]))
    assert np.linalg.norm(g[0] - g[1]) <= can["influence"] + 1e-9


def test_canary_search_with_clipping_reaches_2C():
    obj = get_obj("robust-regression", d=3)
    data = obj.make_data(19, 0)
    can = audits.choose_canary(obj, data, np.zeros(3), clip=0.1, seed=0)
    assert can["influence"] == pytest.approx(0.2, rel=1e-9)
    assert can["influence_unclipped"] > 0.2


# ------------------------------------------------------------------ planted bugs
@pytest.mark.parametrize("bug", list(audits.BUGS))
def test_planted_bug_detected(selftest_rows, bug):
    row = next(r for r in selftest_rows if r["bug"] == bug)
    assert row["detected"] and row["epsilon_lower"] > row["epsilon_claimed"]


@pytest.mark.parametrize("bug", [b for b, _, _ in audits.PLUGIN_BUGS if "control" not in b])
def test_planted_plugin_bug_refuted_by_the_releases(selftest_rows, bug):
    """The two plug-in bugs of issue 21, no event declared: the releases alone refute them."""
    row = next(r for r in selftest_rows if r["bug"] == bug)
    assert row["verdict"] == "refuted" and row["epsilon_lower"] > row["epsilon_claimed"]


def test_selftest_plugin_control_supported(selftest_rows):
    row = next(r for r in selftest_rows if r["bug"] == "plugin:control")
    assert row["verdict"] == "supported" and not row["detected"] and row["ok"]


def test_selftest_control_not_flagged(selftest_rows):
    row = next(r for r in selftest_rows if r["bug"] == "control")
    assert not row["detected"] and row["ok"]


def test_twin_is_calibrated_to_twice_the_claim_by_the_certified_upper_end():
    r = experiments.recipe_for("zhang2021.dpsgd-const")
    cell = {**next(c for c in r.cells() if c["point"]["calibration"] == "twin"), "reps": 20}
    out = load_cell_function(r.cell)(cell)
    assert out["epsilon_twin"] == pytest.approx(2 * out["epsilon_claimed"])
    assert out["epsilon_upper_certified"] <= out["epsilon_twin"] * (1 + 1e-9)
    assert out["epsilon_upper_certified"] >= 0.99 * out["epsilon_twin"]


# zhang2017.alg2 computes its step size from the data (D_F); see the test below
@pytest.mark.parametrize("alg", [a for a in PRIVATE if a != "zhang2017.alg2"])
def test_correct_algorithm_not_refuted_at_tight_calibration(alg):
    r = experiments.recipe_for(alg)
    cell = {**next(c for c in r.cells() if c["point"]["calibration"] == "paper"), "reps": 300,
            "point": {"calibration": "tight"}}
    out = load_cell_function(r.cell)(cell)
    s = audit_summary(out)
    assert s["verdict"] != "refuted", s["summary"]
    assert s["verdict"] == "inconclusive"            # 300 runs have no power at the claim
    assert out["calibration_data_independent"]


def test_rrpsgd_data_dependent_step_is_detected():
    # zhang2017.alg2 (RRPSGD) sets eta = min{1/beta, D_F/(sigma n)} with D_F computed from the
    # data (Theorem 5), which the accounting ignores: the quick audit at the paper's noise
    # finds an epsilon lower bound above the claim although the two-sided accountant certifies
    # the noise at eps <= 0.24; with a fixed step the same audit finds nothing.
    r = experiments.recipe_for("zhang2017.alg2")
    cell = next(c for c in r.cells() if c["point"]["calibration"] == "paper")
    out = audits.audit_cell(cell)
    assert "eta" in out["data_dependent_params"]
    assert out["epsilon_upper_certified"] < 0.3 < 1.0 == out["epsilon_claimed"]
    s = audit_summary(out)
    assert s["verdict"] == "refuted" and s["epsilon_lower"] > s["epsilon_claimed"]
    assert "eta" in s["summary"]
    fixed = audits.audit_cell({**cell, "params": {"eta": 0.05}})
    assert "eta" not in fixed["data_dependent_params"]
    assert audit_summary(fixed)["verdict"] != "refuted"


# ------------------------------------------------------------------ CLI
def test_cli_audit_json(capsys):
    assert main(["audit", "zhang2021.dpsgd-const", "--runs", "50", "--calibration", "tight",
                 "--json"]) == 0
    d = json.loads(capsys.readouterr().out)
    for k in ("algorithm", "epsilon_claimed", "epsilon_lower", "verdict", "epsilon_tight",
              "epsilon_interval", "eps_detect", "power", "twin"):
        assert k in d
    assert d["algorithm"] == "zhang2021.dpsgd-const" and d["runs"] == [50, 50]
    assert d["verdict"] == "inconclusive"          # 50 runs: no power


@pytest.mark.parametrize("argv", [
    ["audit"], ["audit", "no.such.alg"], ["audit", "zhang2021.nonpri-sgd-stage"],
    ["audit", "zhang2021.dpsgd-const", "--delta", "2"],
    ["audit", "zhang2021.dpsgd-const", "--runs", "3"],
    ["audit", "zhang2021.dpsgd-const", "--selftest"],
    ["audit", "zhang2021.dpsgd-const", "--calibration", "loose"]])
def test_cli_bad_input_exits_2(argv, capsys):
    try:
        code = main(argv)
    except SystemExit as exc:                          # argparse usage errors
        code = exc.code
    assert code == 2
    err = capsys.readouterr().err.strip()
    assert err and len(err.splitlines()) == 1


def test_cli_selftest_exit_codes(selftest_rows, monkeypatch, capsys):
    monkeypatch.setattr(audits, "selftest", lambda **kw: selftest_rows)
    assert main(["audit", "--selftest", "--json"]) == 0
    d = json.loads(capsys.readouterr().out)
    assert d["ok"] and d["all_detected"]
    assert {r["bug"] for r in d["selftest"]} >= set(audits.BUGS)
    assert all(r["detected"] for r in d["selftest"] if not r["bug"].endswith("control"))
    broken = [dict(r, detected=False, ok=False) if r["bug"] == "noise/3" else r
              for r in selftest_rows]
    monkeypatch.setattr(audits, "selftest", lambda **kw: broken)
    with pytest.raises(SystemExit) as exc:
        main(["audit", "--selftest"])
    assert exc.value.code == 1
