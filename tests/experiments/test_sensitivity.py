"""Sensitivity recipes: contract, determinism, and independent checks per lemma type."""

from __future__ import annotations

import json
import math

import numpy as np
import pytest

from dptheory.verify.recipe import load_cell_function
import dptheory_simulations.experiments as experiments
from dptheory_simulations.experiments import sensitivity as sens
from dptheory_simulations.experiments import tran2022, zhang2017

#: the sensitivity recipes of every paper
RECIPES = [r for r in experiments.RECIPES if r.check == "sensitivity"]
from dptheory_simulations.objectives import get as get_objective

SMALL = {"examples": 6, "starts": 1, "maxfev": 20}


def _first_cell(recipe):
    cell = recipe.cells(seed=3)[0]
    cell.update(SMALL)
    return cell


@pytest.mark.parametrize("recipe", RECIPES, ids=lambda r: r.id)
def test_cells_follow_contract_and_are_deterministic(recipe):
    assert recipe.check == "sensitivity"
    f = load_cell_function(recipe.cell)
    cell = _first_cell(recipe)
    a, b = f(dict(cell)), f(dict(cell))
    assert json.dumps(a, sort_keys=True) == json.dumps(b, sort_keys=True)
    for key in ("measured", "bound", "worst"):
        assert key in a
    assert isinstance(a["measured"], float) and a["measured"] >= 0
    assert isinstance(a["bound"], float) and a["bound"] >= 0
    assert "index" in a["worst"] and "x" in a["worst"]
    assert len(a["samples"]) == cell["reps"]


def test_recipe_ids_unique_and_items_exist():
    from dptheory import registry
    ids = [r.id for r in RECIPES]
    assert len(ids) == len(set(ids))
    for r in RECIPES:
        registry.get(r.item)


# ---------------------------------------------------------------- GD: quadratic closed form
class _Mean:
    """f(w, x) = ||w - x||^2 / 2: GD from 0 gives w_T = (1 - (1 - eta)^T) mean(x)."""
    d = 3

    def _grad(self, W, X, y):
        return W[:, None, :] - X[None, :, :]


def test_gd_final_matches_quadratic_closed_form():
    rng = np.random.default_rng(0)
    X = rng.normal(size=(10, 3))
    eta, T = 0.3, 7
    w, _ = zhang2017.gd_final(_Mean(), X, np.zeros(10), T, eta)
    np.testing.assert_allclose(w, (1 - (1 - eta) ** T) * X.mean(0), rtol=1e-12)


def test_search_finds_quadratic_gd_sensitivity():
    # Delta_T = (1 - (1-eta)^T) ||x' - x_i|| / n, maximal at x' = -X x_i/||x_i|| for the
    # longest x_i: (1 - (1-eta)^T)(||x_i|| + X)/n = 2 X (1 - (1-eta)^T)/n
    rng = np.random.default_rng(1)
    X = rng.normal(size=(8, 3))
    n, eta, T = 8, 0.5, 5
    Xr = float(np.max(np.linalg.norm(X, axis=1)))
    obj = _Mean()
    wS, _ = zhang2017.gd_final(obj, X, np.zeros(n), T, eta)

    def score(c):
        Xp = X.copy()
        Xp[c["i"]] = c["x"]
        return float(np.linalg.norm(zhang2017.gd_final(obj, Xp, np.zeros(n), T, eta)[0] - wS))

    space = sens.NeighbourSpace(n=n, d=3, x_radius=Xr, labels=(0.0,))
    res = sens.search_neighbours(score, space, seed=5, examples=30, starts=3, maxfev=300)
    exact = 2 * Xr * (1 - (1 - eta) ** T) / n
    assert res["value"] <= exact * (1 + 1e-9)
    assert res["value"] >= 0.95 * exact


def test_lemma2_bound_is_catalog_expression():
    cell = _first_cell(RECIPES[0])
    out = zhang2017.gd_sensitivity(cell)
    w = out["worst"]
    assert math.isclose(out["bound"], 3 * w["G"] * w["T"] * w["eta"] / w["n"], rel_tol=1e-12)
    assert math.isclose(w["eta"], 1 / w["beta"], rel_tol=1e-12)


# ---------------------------------------------------------------- clipping: 2C attained
def test_clip_sensitivity_two_c_attained_by_constructed_pair():
    obj = get_objective("robust-regression", d=5)
    data = obj.make_data(16, 0)
    i = int(np.argmax(np.abs(data.y)))
    w = np.zeros(5)
    g = obj.grad(w, data.X[i:i + 1], data.y[i:i + 1])[0]
    C = 0.5 * float(np.linalg.norm(g))
    # at w = 0 the gradient is phi'(-b) a with phi' odd: (a, -b) gives the opposite gradient
    cand = {"i": i, "x": data.X[i].copy(), "y": -float(data.y[i]), "w": w}
    v = sens.per_step_value("clip", obj, data, cand, {"C": C})
    assert math.isclose(v, 2 * C, rel_tol=1e-9)
    v = sens.per_step_value("normalize", obj, data, cand, {"r": 0.1})
    gn = float(np.linalg.norm(g))
    assert math.isclose(v, 2 * gn / (gn + 0.1), rel_tol=1e-9)


def test_grad_sensitivity_closed_form_logistic():
    # logistic per-sample gradient -y sigma(-y<x,w>) x (+ regulariser, cancels)
    obj = get_objective("logistic-nonconvex-reg", d=3)
    data = obj.make_data(5, 0)
    w = np.array([0.3, -0.2, 0.1])
    x2, y2 = np.array([0.1, 0.5, -0.2]), -1.0
    s = lambda m: 1 / (1 + np.exp(-m))
    g = lambda x, y: -y * s(-y * x @ w) * x
    exact = np.linalg.norm(g(data.X[2], data.y[2]) - g(x2, y2)) / 5
    v = sens.per_step_value("grad", obj, data, {"i": 2, "x": x2, "y": y2, "w": w}, {})
    assert math.isclose(v, exact, rel_tol=1e-9)


# ---------------------------------------------------------------- tree nodes
def test_dyadic_nodes_and_node_differences_brute_force():
    nodes = tran2022.dyadic_nodes(8)
    assert len(nodes) == 8 + 4 + 2 + 1
    rng = np.random.default_rng(2)
    gD, gP = rng.normal(size=(8, 2)), rng.normal(size=(8, 2))
    a = 0.25
    got = tran2022.node_differences(gD, gP, a, nodes)
    for k, (y, z) in enumerate(nodes):
        tot = sum(a * (1 - a) ** (z - t) * (gD[t - 1] - gP[t - 1]) for t in range(y, z + 1))
        assert math.isclose(got[k], float(np.linalg.norm(tot)), rel_tol=1e-12, abs_tol=1e-15)


def test_alg1_recursion_matches_run_alg1_trajectory():
    from dptheory_simulations.algorithms import get
    obj = get_objective("robust-regression", d=3)
    data = obj.make_data(4, 0)
    N, T, alpha, eta = 4, 16, 0.25, 0.1
    run = get("tran2022.alg1")(obj, data, eps=1.0, delta=1e-5, reps=1, seed=11,
                                first_replicate=2, T=T, alpha=alpha, eta=eta, record=1)
    perms, noise = tran2022._alg1_streams(11, 2, N, T, 3, alpha, run.noise["node_std"],
                                      run.params["depth"])
    _, ws = tran2022.alg1_gradients(obj, data.X, data.y, perms, noise, T, eta, alpha)
    np.testing.assert_allclose(ws, run.trajectory["w"][0], rtol=1e-10, atol=1e-12)


def test_printed_node_bound_is_zero_on_leaves_but_leaf_sensitivity_is_not():
    # ceil(|y - z|/N) = 0 terms at y = z: the printed Delta_node vanishes on every leaf,
    # while a leaf holding the differing datum moves by alpha ||g - g'|| (up to 2 alpha G)
    assert sens.evaluate_item("tran2022.prop13", "Delta_node", yI=3, zI=3, n=8,
                              alpha_m=0.125, G=1.0) == 0.0
    gD = np.zeros((4, 1))
    gP = np.zeros((4, 1))
    gD[2], gP[2] = 1.0, -1.0
    d = tran2022.node_differences(gD, gP, 0.125, [(3, 3)])
    assert math.isclose(d[0], 2 * 0.125, rel_tol=1e-12)


def test_score_key_ranks_zero_bound_cases_by_measured_value():
    """A printed bound of 0 (ratio None) outranks every ratio; among such cases the larger
    measured value wins, even for values that 1e300 + measured would round away."""
    zero_small = {"ratio": None, "measured": 1.0}
    zero_large = {"ratio": None, "measured": 2.0}
    finite = {"ratio": 1e12, "measured": 5.0}
    ranked = sorted([finite, zero_small, zero_large], key=sens.score_key)
    assert ranked == [finite, zero_small, zero_large]
