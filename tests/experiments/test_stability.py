"""Stability recipes: contract, determinism, coupling and the bound."""

from __future__ import annotations

import json
import math

import numpy as np
import pytest

from dptheory.verify.recipe import load_cell_function
import dptheory_simulations.experiments as experiments
from dptheory_simulations.experiments import zhang2021 as stab
from dptheory_simulations.objectives import get as get_objective

#: the stability recipes of every paper
_STABILITY = [r for r in experiments.RECIPES if r.check == "stability"]


def _cell(recipe, **over):
    cell = recipe.cells(seed=5)[0]
    cell.update({"reps": 4, "pilot_reps": 4, "maxfev": 30, **over})
    return cell


@pytest.mark.parametrize("recipe", _STABILITY, ids=lambda r: r.id)
def test_cells_follow_contract_and_are_deterministic(recipe):
    assert recipe.check == "stability"
    f = load_cell_function(recipe.cell)
    cell = _cell(recipe)
    a, b = f(dict(cell)), f(dict(cell))
    assert json.dumps(a, sort_keys=True) == json.dumps(b, sort_keys=True)
    assert len(a["samples"]) == 4 and all(isinstance(s, float) for s in a["samples"])
    assert isinstance(a["bound"], float) and a["bound"] > 0


def test_blocks_pool_like_one_run():
    rec = _STABILITY[0]
    f = load_cell_function(rec.cell)
    whole = f(_cell(rec, reps=4, first_replicate=0))
    parts = f(_cell(rec, reps=2, first_replicate=0))["samples"] + \
        f(_cell(rec, reps=2, first_replicate=2))["samples"]
    np.testing.assert_allclose(whole["samples"], parts, rtol=1e-12, atol=1e-15)


def test_coupling_identical_data_gives_zero_gap():
    obj = get_objective("pl-nonconvex", d=16)
    S, _, _ = stab._neighbours(obj, 8, 0)
    params = {"eps": 2.0, "delta": 1e-5, "eta0": 0.02, "T0": 4, "tMon0": 2, "K": 1, "B": 2,
              "varrho": 0.5, "c2": 1.0}
    WS, WP, _ = stab.coupled_outputs(obj, S, S, reps=3, seed=1, first_replicate=0, params=params)
    np.testing.assert_array_equal(WS, WP)


def test_neighbours_differ_in_one_record():
    obj = get_objective("pl-nonconvex", d=16)
    S, Sp, i = stab._neighbours(obj, 8, 3)
    diff = np.flatnonzero(np.any(S.X != Sp.X, axis=1) | (S.y != Sp.y))
    assert diff.tolist() == [i]


def test_alpha_matches_hand_typed_formula():
    L, beta, mu, theta, n, B, K, T0, t0, rho, eta0 = 2.0, 3.0, 0.1, 0.5, 20, 4, 2, 10, 4, 0.5, 0.05
    X = (T0 - t0) + t0 / (2 * (1 - rho))
    c4 = 1 / (eta0 * X * theta * mu)
    TK, tK = 2 ** K * T0, 2 ** K * t0
    q = (1 - 1 / n) * beta / (c4 * theta * mu)
    alpha = (2 * L ** 2 / (c4 * theta * mu * n) * TK ** q * math.exp(2 * rho * (tK - 1))
             * (math.log(1 + 1 / (2 * rho)) - 0.5 * math.log(1 + 1 / (rho * tK)))
             + 2 * L ** 2 / ((n - 1) * beta) * TK ** q + (TK + 1) * B / n)
    got = stab.alpha_thm33(L=L, beta=beta, mu=mu, theta=theta, n=n, B=B, K=K, T0=T0,
                           tMon0=t0, varrho=rho, eta0=eta0)
    assert math.isclose(got["alpha"], alpha, rel_tol=1e-10)
    assert math.isclose(got["c4"], c4, rel_tol=1e-12)
