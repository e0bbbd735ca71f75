"""Tests of the utility recipes (simulations/experiments/utility.py).

Every recipe's cell runs at a tiny size and returns the contract's keys; cells are
deterministic and block-invariant; some bounds are checked against hand derivations.
"""

from __future__ import annotations

import json
import math

import numpy as np
import pytest

import dptheory_simulations.experiments as experiments
from dptheory.verify.recipe import CHECK_KINDS, Recipe, load_cell_function
from dptheory_simulations.experiments import cells as U
from dptheory_simulations.experiments import yang2022, zhang2017

from ..datasets.fixtures import credit_standin

#: the bound and slope recipes of every paper
RECIPES = [r for r in experiments.RECIPES if r.check in ("bound", "slope")]


def _cell(r: Recipe, *, reps: int = 2, first: int = 0, point=None, seed: int = 123) -> dict:
    x = r.points()[0] if point is None else point
    return {"recipe": r.id, "point": {r.variable: x}, "block": 0, "first_replicate": first,
            "reps": reps, "seed": seed, **r.fixed}


def _distinct_cells() -> list[Recipe]:
    """One recipe per (cell function, fixed parameters) pair."""
    seen, out = set(), []
    for r in RECIPES:
        key = (r.cell, json.dumps(r.fixed, sort_keys=True))
        if key not in seen:
            seen.add(key)
            out.append(r)
    return out


# --------------------------------------------------------------------------- structure
def test_recipes_are_well_formed():
    ids = [r.id for r in RECIPES]
    assert len(ids) == len(set(ids))
    assert {r.check for r in RECIPES} <= {"bound", "slope"}
    for r in RECIPES:
        assert r.check in CHECK_KINDS
        assert r.id.startswith(r.item + ":")
        assert callable(load_cell_function(r.cell))
        assert r.description and r.metric
        if r.check == "slope":
            assert len(r.points()) >= 2 and r.tolerance > 0
    covered = {r.item for r in RECIPES}
    for item in ("zhang2017.thm2.eps", "zhang2017.thm2.approx", "zhang2017.thm3.eps",
                 "zhang2017.thm5", "zhang2017.lemma5", "zhang2017.lemma8", "tran2022.thm6",
                 "tran2022.thm9", "tran2022.lemma5", "tran2022.lemma7", "yang2022.cor3.3",
                 "yang2022.cor3.5", "yang2022.lemmaA.3", "yang2022.lemmaA.5",
                 "wang2020.remark1", "wang2020.thm2", "zhang2021.thm3.2", "zhang2021.remark4"):
        assert item in covered, item


def test_catalog_items_exist():
    from dptheory import registry
    for r in RECIPES:
        registry.get(r.item)


def test_one_module_per_paper():
    """Issue 20: every recipe lives in the module of its paper, and no module holds two
    papers' cell functions (a cell function lives in its recipe's paper module or in an
    engine that knows no paper)."""
    engines = {"cells", "sensitivity", "audits", "hyperparams"}
    names = [m.__name__.rsplit(".", 1)[1] for m in experiments.PAPERS]
    assert names == ["zhang2017", "tran2022", "yang2022", "wang2020", "zhang2021"]
    for module in experiments.PAPERS:
        paper = module.__name__.rsplit(".", 1)[1]
        assert module.RECIPES, paper
        for r in module.RECIPES:
            assert r.item.split(".")[0] == paper, (paper, r.id)
            where = r.cell.partition(":")[0].rsplit(".", 1)[1]
            assert where == paper or where in engines, (paper, r.id, r.cell)
    assert [r.id for r in experiments.RECIPES] == [r.id for m in experiments.PAPERS
                                                   for r in m.RECIPES]


def test_gather_refuses_duplicate_ids(monkeypatch):
    first = experiments.PAPERS[0]
    monkeypatch.setattr(first, "RECIPES", first.RECIPES + first.RECIPES[:1])
    with pytest.raises(ValueError, match="duplicate recipe ids"):
        experiments._gather()


# --------------------------------------------------------------------------- contract
@pytest.mark.parametrize("r", RECIPES, ids=[r.id for r in RECIPES])
def test_cell_returns_contract_keys(r, tmp_path, monkeypatch):
    if r.fixed.get("data"):          # a real data set: its generated stand-in (tests/datasets)
        credit_standin(tmp_path, monkeypatch)
    out = load_cell_function(r.cell)(_cell(r))
    json.dumps(out)                                   # JSON-serialisable
    assert isinstance(out["samples"], list) and len(out["samples"]) == 2
    assert all(isinstance(v, float) and math.isfinite(v) for v in out["samples"])
    assert "bound" in out
    if r.check == "bound" or r.expected_slope is None:
        assert isinstance(out["bound"], float) and math.isfinite(out["bound"])
    if r.check == "slope":
        assert all(v > 0 for v in out["samples"])     # log-log fits need positive values
    assert "measured" not in out                      # reserved for sensitivity cells


def _one_per_function() -> list[Recipe]:
    seen, out = set(), []
    for r in RECIPES:
        if r.cell not in seen:
            seen.add(r.cell)
            out.append(r)
    return out


@pytest.mark.parametrize("r", _one_per_function(), ids=lambda r: r.cell.split(":")[1])
def test_cell_is_deterministic(r):
    f = load_cell_function(r.cell)
    a, b = f(_cell(r)), f(_cell(r))
    assert json.dumps(a, sort_keys=True) == json.dumps(b, sort_keys=True)


_BLOCK_CASES = ["zhang2017.thm2.eps:bound-n", "zhang2017.thm2.approx:bound-n",
                "zhang2017.lemma5:bound-T", "zhang2017.thm5:bound-n", "tran2022.thm6:bound-n",
                "tran2022.thm9:bound-n", "tran2022.lemma5:bound-T", "tran2022.lemma7:bound-n",
                "yang2022.cor3.5:slope-n", "yang2022.lemmaA.5:bound-x-sphere",
                "wang2020.remark1:slope-n", "zhang2021.thm3.2:bound-n"]


@pytest.mark.parametrize("rid", _BLOCK_CASES)
def test_block_invariance(rid):
    r = next(x for x in RECIPES if x.id == rid)
    f = load_cell_function(r.cell)
    one = f(_cell(r, reps=8))
    a = f(_cell(r, reps=4, first=0))
    b = f(_cell(r, reps=4, first=4))
    pooled = a["samples"] + b["samples"]
    np.testing.assert_allclose(pooled, one["samples"], rtol=1e-10, atol=1e-13)
    assert a["bound"] == one["bound"] == b["bound"]


def test_engine_cells_pool_to_the_same_point():
    """Recipe.cells with block 8 vs block 4 give the same pooled samples."""
    import dataclasses
    r = next(x for x in RECIPES if x.id == "zhang2017.lemma8:bound-T")
    f = load_cell_function(r.cell)
    pooled = {}
    for block in (8, 4):
        rr = dataclasses.replace(r, reps=8, block=block, sweep={"T": [4]})
        cells = rr.cells(seed=5)
        pooled[block] = [v for c in sorted(cells, key=lambda c: c["first_replicate"])
                         for v in f(c)["samples"]]
    np.testing.assert_allclose(pooled[4], pooled[8], rtol=1e-12)


# --------------------------------------------------------------------------- hand derivations
def test_lemma8_bound_by_hand():
    # 2 beta D^2 / T at beta = 0.35, D = 2, T = 8: 2 * 0.35 * 4 / 8 = 0.35
    assert U.catalog_bound("zhang2017.lemma8", {"beta": 0.35, "D": 2.0, "T": 8}) == \
        pytest.approx(0.35, rel=1e-12)


def test_lemma5_bound_by_hand():
    # (beta/2) exp(-2 eta mu beta T/(mu+beta)) D^2, beta=1, mu=0.5, eta=0.5, T=3, D=2:
    # exponent 2*0.5*0.5*1*3/1.5 = 1, value 0.5 * e^-1 * 4 = 2/e
    v = U.catalog_bound("zhang2017.lemma5", {"beta": 1.0, "mu": 0.5, "eta": 0.5, "T": 3, "D": 2.0})
    assert v == pytest.approx(2 / math.e, rel=1e-12)


def test_tran2022_lemma5_bound_by_hand():
    # 3R/(2 eta T) + 3 L eta/4 + 3 errbar at R=1, T=10, eta=0.1, L=2, errbar=0.5 = 1.5+0.15+1.5
    v = U.catalog_bound("tran2022.lemma5", {"Fgap": 1.0, "T": 10, "eta_n": 0.1, "beta": 2.0,
                                            "tr22_errbar": 0.5})
    assert v == pytest.approx(3.15, rel=1e-12)


def test_zhang2017_thm2_eps_cell_bound_by_hand():
    """Cell bound = Lemma 5 at eta = 1/(mu+beta) + 2 * (beta/2) E||z||^2 (catalog: loose by 2),
    E||z||^2 = d(d+1)(Delta/eps)^2 for the l2-Laplace radius Gamma(d, Delta/eps),
    Delta = 5 L (1 + beta/mu)/(n beta)."""
    r = next(x for x in RECIPES if x.id == "zhang2017.thm2.eps:bound-n")
    cell = _cell(r, point=256)
    out = zhang2017.alg1_excess(cell)
    obj, data = U.objective_and_data(cell, 256)
    c = U.constants(obj, data)
    G, beta, mu, D, d, n, eps = c["G"], c["beta"], c["mu"], c["D"], data.d, 256, 1.0
    T = out["params"]["T"]
    Delta = 5 * G * (1 + beta / mu) / (n * beta)
    gd = beta / 2 * math.exp(-2 * (1 / (mu + beta)) * mu * beta * T / (mu + beta)) * D ** 2
    noise = 2 * (beta / 2) * d * (d + 1) * (Delta / eps) ** 2
    assert out["bound"] == pytest.approx(gd + noise, rel=1e-10)
    assert out["params"]["Delta"] == pytest.approx(Delta, rel=1e-10)


def test_lemmaA5_h_and_collinear_expectation_by_hand():
    # h_C(x) at x=3, tau0=1, tau1=0.5, C=4: (1.5*3 + 1 = 5.5 > 4) -> C x((1-tau1)x - tau0)/
    # ((1+tau1)x + tau0) = 4*3*0.5/5.5
    h = U.catalog_bound("yang2022.lemmaA.5", {"y22_x": 3.0, "tau0": 1.0, "tau1": 0.5, "C": 4.0},
                        what="hC20")
    assert h == pytest.approx(12 * 0.5 / 5.5, rel=1e-12)
    # collinear law: g = x +- a with a = tau0 + tau1 x = 2.5, so clip(5.5) = 4 and clip(0.5) =
    # 0.5: E<grad f, clip(g)> = (3*4 + 3*0.5)/2 = 6.75
    r = next(x for x in RECIPES if x.id == "yang2022.lemmaA.5:bound-x-collinear")
    out = yang2022.first_order(_cell(r, reps=16, point=3.0))
    s = np.asarray(out["samples"])
    assert out["bound"] == pytest.approx(h) and out["direction"] == "lower"
    assert out["trivial"] == pytest.approx(-3.0 * 4.0)       # -x C: smallest possible value
    assert abs(s.mean() - 6.75) < 5 * s.std(ddof=1) / 4 + 1e-12


def test_lemmaA3_h_small_branch_by_hand():
    # x < tau0/(1-tau1) = 2: h = x(x - (sqrt(M+r) - sqrt r)^2)/(M+r), M = 4, r = 1, x = 1
    h = U.catalog_bound("yang2022.lemmaA.3", {"y22_x": 1.0, "tau0": 1.0, "tau1": 0.5, "r": 1.0},
                        what="h16")
    assert h == pytest.approx((1 - (math.sqrt(5) - 1) ** 2) / 5, rel=1e-12)


def test_gd_ratio_cell_uses_lemma8_rhs():
    r = next(x for x in RECIPES if x.id == "zhang2017.lemma8:bound-T")
    out = zhang2017.gd_ratio(_cell(r, reps=3, point=4))
    beta = out["params"]["beta"]
    assert out["bound"] == 1.0
    for ratio, ex, rhs in zip(out["samples"], out["excess"], out["rhs"]):
        assert ratio == pytest.approx(ex / rhs)
        # ||w0 - w_hat||^2 = rhs T/(2 beta) is at least (radius - ||w_hat||)^2 > 0
        assert rhs * 4 / (2 * beta) > 0


def test_zhang2017_thm2_approx_quadratic_counterexample_matches_closed_form():
    """On f = ||w||^2/2 + <x, w> (mu = beta = 1) the excess risk of Algorithm 1's Gaussian
    branch is exactly (1/2)||w_T - w_hat||^2 + (1/2)||z||^2 with E||z||^2 = 2 d log(2/delta)
    Delta^2/eps^2 (the density exp(-eps^2|z|^2/(4 log(2/delta) Delta^2)) of Algorithm 1), and
    Delta = 5 G (mu+beta)/(n mu beta). The printed Appendix A.2 bound is
    (beta/2) exp(-2 mu beta T/(mu+beta)^2) D^2 + 50 G^2 (mu+beta)^2 (d+1) d/(n^2 eps^2 mu^2 beta):
    at d = 1, delta = 1e-5 the noise term alone is log(2/delta)/(2(d+1)) = 3.05 times it."""
    r = next(r for r in RECIPES if r.id == "zhang2017.thm2.approx:bound-n-quadratic")
    out = load_cell_function(r.cell)(_cell(r, reps=400, point=100))
    n, d, eps, delta, mu, beta = 100, 1, 1.0, 1e-5, 1.0, 1.0
    T = out["params"]["T"]
    from dptheory_simulations.objectives import get
    obj = get("tilted-quadratic", d=1)
    data = obj.make_data(n, 123)
    G = 2.0 + float(np.max(np.linalg.norm(data.X, axis=1)))   # Lipschitz on the ball R = 2
    D = float(np.linalg.norm(data.X.mean(axis=0)))             # ||w_hat|| = ||x_bar||
    Delta = 5 * G * (mu + beta) / (n * mu * beta)
    exact = 0.5 * (1 - 1 / (mu + beta)) ** (2 * T) * D ** 2 + d * math.log(2 / delta) * Delta ** 2 / eps ** 2
    printed = (beta / 2 * math.exp(-2 * mu * beta * T / (mu + beta) ** 2) * D ** 2
               + 50 * G ** 2 * (mu + beta) ** 2 * (d + 1) * d / (n ** 2 * eps ** 2 * mu ** 2 * beta))
    assert out["bound"] == pytest.approx(printed, rel=1e-4)      # certified G, D rounded up
    assert exact > 2.9 * printed
    s = np.asarray(out["samples"])
    # (1/2) z^2 with z ~ N(0, s^2): mean exact, sd sqrt(2) x mean; 400 replicates -> 5 sd band
    assert abs(s.mean() - exact) < 5 * math.sqrt(2) * exact / math.sqrt(len(s))
