"""The exact coupled-stability gap of DPageEM (zhang2021, Theorem 3.3) on a quadratic."""

import numpy as np
import pytest

from dptheory_simulations.experiments.exact import dpageem_coupled_gap


def test_coupled_gap_by_hand_one_stage_two_steps():
    # K = 1, T0 = 1 (T = 2 steps), no momentum, eta = eta0/2 = 0.5, n = 4, B = 2 (P(i in
    # batch) = 1/2), pi = 0, d = 1; S' replaces x_0 = 1 by -1: delta = 2, x_bar' = -1/4,
    # u_0 = <x_bar', delta> = -1/2. d_1 = -I_1/4, d_2 = d_1/2 - I_2/4:
    #   E d = (-1/8 - 3/16)/2 = -5/32; E d^2 = (1/32 + 7/128)/2 = 11/256.
    # Over the 6 batches, E[I <zeta', delta>] = (0 - 1 - 1/2)/6 = -1/4 (projections of x' -
    # x_bar' on delta: -3/2, 3/2, -1/2, 1/2). u_1 = u_0/2 - nu_1/2, u_2 = u_1/2 - nu_2/2:
    #   E d_1 u_1 = 1/32 + (1/8)(-1/4) = 0; E d_2 u_2 = -(1/8)(1/2)(-1/4) + (1/8)(-1/4) = -1/64;
    #   E d u = -1/128.
    # Gap at r = 1: E d u - E d <x_bar', delta> + E d^2 |delta|^2/2 + |E d| |delta|
    #   = -1/128 - 5/64 + 11/128 + 5/16 = 5/16.
    X = np.array([[1.0], [0.5], [-0.5], [0.0]])
    Xp = X.copy()
    Xp[0] = -1.0
    gap, m = dpageem_coupled_gap(X, Xp, r=1.0, h=1.0, eta0=1.0, T0=1, tMon0=0, K=1,
                                 varrho=0.5, pi=0.0, B=2)
    assert m["Ed"] == pytest.approx(-5 / 32, rel=1e-12)
    assert m["Ed2"] == pytest.approx(11 / 256, rel=1e-12)
    assert m["Edu"] == pytest.approx(-1 / 128, rel=1e-12)
    assert gap == pytest.approx(5 / 16, rel=1e-12)


def test_coupled_gap_matches_monte_carlo_of_the_coupled_runs():
    from dptheory_simulations.algorithms import get as get_algorithm
    from dptheory_simulations.objectives import Dataset
    from dptheory_simulations.objectives import get as get_objective
    obj = get_objective("tilted-quadratic", d=2, R=50.0, x_radius=1.0)
    data = obj.make_data(6, 4)
    X = np.array(data.X, dtype=float)
    X[0] /= np.linalg.norm(X[0])
    Xp = X.copy()
    Xp[0] = -X[0]
    kw = dict(eta0=0.6, T0=2, tMon0=1, K=2, B=2, varrho=0.5, pi=0.3)
    gap, m = dpageem_coupled_gap(X, Xp, r=1.0, h=1.0, **kw)
    alg = get_algorithm("zhang2021.alg1")
    run = dict(eps=1.0, delta=1e-5, reps=40000, seed=11, **kw)
    WS = alg(obj, Dataset(X, np.array(data.y)), **run).w
    WP = alg(obj, Dataset(Xp, np.array(data.y)), **run).w
    dv = X[0] - Xp[0]
    z = np.sign(m["Ed"]) * dv / np.linalg.norm(dv)   # the maximising z of the exact gap
    y = np.zeros(1)
    g = obj._loss(WS, z[None, :], y)[:, 0] - obj._loss(WP, z[None, :], y)[:, 0]
    se = g.std(ddof=1) / np.sqrt(g.size)
    assert se < 0.1 * abs(gap)                       # the test has power
    assert abs(g.mean() - gap) <= 4 * se
    d = (WS - WP) @ dv / (dv @ dv)
    assert abs(d.mean() - m["Ed"]) <= 4 * d.std(ddof=1) / np.sqrt(d.size)


def test_coupled_gap_rejects_non_neighbours():
    X = np.zeros((3, 1))
    with pytest.raises(ValueError, match="differ in exactly one row"):
        dpageem_coupled_gap(X, X, r=1.0, h=1.0, eta0=1.0, T0=1, tMon0=0, K=1, varrho=0.5,
                            pi=0.0, B=1)


def test_stability_cell_supported_and_planted_bound_refuted():
    from dptheory.verify.checks import exact_check
    from dptheory_simulations.experiments.zhang2021 import _QUAD, coupled_stability_exact
    cell = {**_QUAD, "n": 256, "eps": 1.0, "delta": 1e-5, "c4": 1.9, "varrho": 0.5,
            "tmon_frac": 0.5, "eta0": "corrected-min", "seed": 1, "reps": 1}
    out = coupled_stability_exact(cell)
    assert out["hypotheses_hold"] and out["p_leave"] < 1e-6
    assert exact_check(out["exact"], out["bound"], trivial=out["trivial"]).verdict == "supported"
    planted = coupled_stability_exact({**cell, "bound_divisor": 1e7})
    assert exact_check(planted["exact"], planted["bound"]).verdict == "refuted"
