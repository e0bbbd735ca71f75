"""Exact moments (issue 23, item 1) against Monte Carlo at small sizes (within the MC
interval) and against closed forms worked by hand."""

import math

import numpy as np
import pytest

from simulations.experiments import exact as E


def _mc_interval(samples, z=4.0):
    m, s = float(np.mean(samples)), float(np.std(samples, ddof=1))
    half = z * s / math.sqrt(len(samples))
    return m - half, m + half


# ------------------------------------------------------------------ hand-worked closed forms
def test_gd_by_hand():
    # h = 1, eta = 1/2, T = 3: e_T = (1/2)^3 e_0 = e_0/8
    assert np.allclose(E.gd_error([8.0, -16.0], 0.5, 1.0, 3), [1.0, -2.0])


def test_sgd_with_replacement_by_hand():
    # h = 1, eta = 1/2, q = 1/2, T = 1 from e_0 = 0: E||e_1||^2 = eta^2 V = V/4;
    # T = 2: q^2 V/4 + V/4 = 5V/16
    assert E.sgd_error_sq(0.0, 2.0, 0.5, 1.0, 1) == pytest.approx(0.5)
    assert E.sgd_error_sq(0.0, 2.0, 0.5, 1.0, 2) == pytest.approx(10 / 16)


def test_without_replacement_by_hand():
    # a full batch (B = n) has no sampling noise; B = 1 is the with-replacement V
    assert E.finite_population_variance(3.0, 10, 10) == 0.0
    assert E.finite_population_variance(3.0, 10, 1) == pytest.approx(3.0)
    # n = 3, B = 2: V/2 * 1/2 = V/4
    assert E.finite_population_variance(4.0, 3, 2) == pytest.approx(1.0)


def test_output_perturbation_by_hand():
    # h = 1, e_T = (3, 4): 25/2; l2-Laplace d = 2, s = 1: E||z||^2 = 6, so 25/2 + 3
    m = E.noise_second_moment("l2-laplace", 2, 1.0)
    assert m == 6.0
    assert E.output_perturbation_excess([3.0, 4.0], 1.0, m) == pytest.approx(15.5)
    assert E.noise_second_moment("gaussian", 3, 2.0) == 12.0


# ------------------------------------------------------------------ Monte Carlo agreement
def _records(n, d, rng):
    return rng.normal(size=(n, d))


@pytest.mark.parametrize("replace,B", [(True, 1), (True, 3), (False, 3)])
def test_sgd_second_moment_agrees_with_monte_carlo(replace, B):
    rng = np.random.default_rng(11)
    n, d, eta, T, reps = 7, 2, 0.3, 6, 40000
    X = _records(n, d, rng)
    xbar = X.mean(0)
    V = float(np.mean(np.sum((X - xbar) ** 2, axis=1)))
    w0 = np.array([1.0, -0.5])
    e0 = w0 + xbar                                  # w* = -x_bar (h = 1)
    W = np.tile(w0, (reps, 1))
    for _ in range(T):
        if replace:
            idx = rng.integers(n, size=(reps, B))
        else:
            idx = np.argsort(rng.random((reps, n)), axis=1)[:, :B]
        W = W - eta * (W + X[idx].mean(axis=1))
    err = np.sum((W + xbar) ** 2, axis=1)
    lo, hi = _mc_interval(err)
    exact = E.sgd_error_sq(float(e0 @ e0), V, eta, 1.0, T, n=n, B=B, replace=replace)
    assert lo <= exact <= hi


@pytest.mark.parametrize("law", ["gaussian", "l2-laplace"])
def test_output_perturbation_agrees_with_monte_carlo(law):
    from dptheory.privacy.samplers import l2_laplace
    rng = np.random.default_rng(12)
    d, s, reps = 3, 0.7, 200000
    eT = np.array([0.2, -0.1, 0.4])
    if law == "gaussian":
        Z = rng.normal(scale=s, size=(reps, d))
    else:                                          # the toolkit's sampler, p(z) ~ exp(-||z||/s)
        Z = l2_laplace(rng, reps, d, s)
    # F(w) = ||w||^2/2 + <x_bar, w>: F(w* + e) - F* = ||e||^2/2
    vals = 0.5 * np.sum((eT + Z) ** 2, axis=1)
    lo, hi = _mc_interval(vals)
    exact = E.output_perturbation_excess(eT, 1.0, E.noise_second_moment(law, d, s))
    assert lo <= exact <= hi


def test_bad_parameters():
    with pytest.raises(ValueError, match="eta"):
        E.gd_error([1.0], 2.5, 1.0, 3)
    with pytest.raises(ValueError, match="law"):
        E.noise_second_moment("cauchy", 2, 1.0)
    with pytest.raises(ValueError, match="B"):
        E.finite_population_variance(1.0, 3, 4)


# ------------------------------------------------------------------ zhang2017 Algorithm 1
@pytest.mark.parametrize("delta,h", [(0.0, 1.0), (1e-5, 1.0), (0.0, 0.25), (1e-5, 4.0)])
def test_alg1_exact_agrees_with_the_simulator(delta, h):
    # h: tilted-quadratic's curvature scale (issue 22), with the ball R = 2/h of the recipes
    from dptheory_simulations.algorithms import get as get_algorithm
    from dptheory_simulations.objectives import get as get_objective
    from simulations.experiments import zhang2017 as z17
    n, d = 2000, 2
    params = {"d": d} if h == 1 else {"d": d, "scale": h, "R": 2 / h}
    obj = get_objective("tilted-quadratic", **params)
    res = get_algorithm("zhang2017.alg1")(obj, z17.pattern_data(n, d), eps=1.0, delta=delta,
                                          reps=20000, seed=3, setting="strongly-convex")
    r = z17.alg1_exact({"objective_params": params, "eps": 1.0, "delta": delta,
                        "point": {"n": n}})
    assert r["params"]["T"] == res.params["T"]
    lo, hi = _mc_interval(np.asarray(res.metrics["excess_risk"]))
    assert lo <= r["exact"] <= hi


def test_alg1_exact_by_hand():
    # eps-DP, d = 2, n = 1e6: Delta = 10 L/n with L = R + X = 2 + sqrt(0.34) (certified,
    # rounded up by the family); E||z||^2 = d(d+1)(Delta/eps)^2 = 6 Delta^2; the GD term
    # 2^(-2T) 0.09/2 is below 1e-30 at the T of the setting, so E = 3 Delta^2.
    from simulations.experiments import zhang2017 as z17
    r = z17.alg1_exact({"objective_params": {"d": 2}, "eps": 1.0, "delta": 0.0,
                        "point": {"n": 10**6}})
    L = 2 + math.sqrt(0.34)
    Delta = r["params"]["Delta"]
    assert Delta == pytest.approx(10 * L / 1e6, rel=1e-5)
    assert r["exact"] == pytest.approx(3 * Delta ** 2, rel=1e-12)


@pytest.mark.parametrize("h", [0.25, 4.0])
def test_alg1_exact_by_hand_at_curvature_h(h):
    # F = h||w||^2/2 + <a, w> on the ball R = 2/h: L = h R + X = 2 + sqrt(0.34) as at h = 1,
    # mu = beta = h, so Delta = 5 L (mu + beta)/(n mu beta) = 10 L/(n h); the excess is
    # (h/2) E||z||^2 = (h/2) 6 Delta^2 = 3 h Delta^2 (GD term negligible, as above)
    from simulations.experiments import zhang2017 as z17
    r = z17.alg1_exact({"objective_params": {"d": 2, "scale": h, "R": 2 / h}, "eps": 1.0,
                        "delta": 0.0, "point": {"n": 10**6}})
    L = 2 + math.sqrt(0.34)
    Delta = r["params"]["Delta"]
    assert Delta == pytest.approx(10 * L / (1e6 * h), rel=1e-5)
    assert r["exact"] == pytest.approx(3 * h * Delta ** 2, rel=1e-12)


def test_exact_check_logic():
    from dptheory.verify.checks import exact_check
    assert exact_check(1.0, 2.0).verdict == "supported"
    assert exact_check(2.0 + 1e-6, 2.0).verdict == "refuted"
    assert exact_check(2.0 * (1 + 1e-12), 2.0).verdict == "supported"      # float rounding
    assert exact_check(1.0, 5.0, trivial=4.0).verdict == "vacuous"
    assert exact_check(1.0, 2.0).power["selftest"]["caught"]
    # the summary names what the value is: an expectation unless told otherwise
    assert "exact expectation 1" in exact_check(1.0, 2.0).summary
    worst = exact_check(3.0, 2.0, kind="exact value at the worst start")
    assert worst.verdict == "refuted" and "exact value at the worst start 3" in worst.summary
    assert "expectation" not in worst.summary


def test_blocks_of_an_exact_worst_case_are_judged_at_the_worst_block():
    # an exact worst case over each block's own instances differs by block: the pooled point
    # keeps the largest (upper bound) or smallest (lower bound), whatever the block order
    from dptheory.verify.engine import _merge
    blocks = [{"samples": [0.5], "exact": 0.5, "derivation": "block 0", "bound": 1.0},
              {"samples": [1.5], "exact": 1.5, "derivation": "block 1", "bound": 1.0}]
    up = _merge(blocks)
    assert up["exact"] == 1.5 and up["derivation"] == "block 1" and up["samples"] == [0.5, 1.5]
    low = _merge([{**b, "direction": "lower"} for b in blocks[::-1]])
    assert low["exact"] == 0.5 and low["derivation"] == "block 0"


# ---------------------------------------------------------------- DPageEM (zhang2021)
from dptheory_simulations.experiments.exact import (  # noqa: E402
    dpageem_excess, dpageem_leave_probability, dpageem_stage_second_moment)


def test_dpageem_stage_matches_hand_closed_form_without_momentum():
    # varrho = 0 (t_mon irrelevant): e_t = q e_{t-1} - eta nu_t, q = 1 - eta h, so
    # E||e_t||^2 = q^{2t} S0 + eta^2 Q (1 - q^{2t})/(1 - q^2); the output's second moment is
    # the average over t = 1..T. At eta = 0.5, h = 1 (q = 1/2), T = 2, S0 = 4, Q = 1:
    # t = 1: 4/4 + 0.25 = 1.25; t = 2: 4/16 + 0.25 (1 + 1/4) = 0.5625; mean 0.90625.
    got = dpageem_stage_second_moment(4.0, eta=0.5, h=1.0, T=2, t_mon=0, varrho=0.0, q=1.0)
    assert got == pytest.approx(0.90625, rel=1e-12)


def test_dpageem_stage_matches_hand_recursion_with_momentum():
    # one momentum step from the restart state (e_0 = e_{-1}): e_1 = (1 - eta h) e_0 - eta nu_1
    # (the momentum term vanishes), then e_2 = (1 + rho - eta h) e_1 - rho e_0 - eta nu_2.
    # eta = 0.5, h = 1, rho = 0.5, S0 = 1, Q = 0: e_1 = 0.5 e_0, e_2 = 0.5 e_0 - 0.5 e_0 = 0,
    # so E||e_1||^2 = 0.25, E||e_2||^2 = 0, mean over T = 2: 0.125.
    got = dpageem_stage_second_moment(1.0, eta=0.5, h=1.0, T=2, t_mon=2, varrho=0.5, q=0.0)
    assert got == pytest.approx(0.125, abs=1e-15)


def test_dpageem_excess_matches_monte_carlo():
    from dptheory_simulations.algorithms import get as get_algorithm
    from dptheory_simulations.objectives import get as get_objective
    obj = get_objective("tilted-quadratic", d=2, R=50.0, x_radius=1.0)
    data = obj.make_data(12, 3)
    xb = data.X.mean(axis=0)
    V = float(np.mean(np.sum((data.X - xb) ** 2, axis=1)))
    kw = dict(eta0=0.3, T0=6, tMon0=3, K=3, B=4, varrho=0.5, pi=0.7)
    res = get_algorithm("zhang2021.alg1")(obj, data, eps=1.0, delta=1e-5, reps=20000, seed=5, **kw)
    ex = 0.5 * np.sum((res.w + xb) ** 2, axis=1)      # F - F* = ||w - w*||^2/2, w* = -x_bar
    exact = dpageem_excess(e0_sq=float(xb @ xb), h=1.0, d=2, V=V, n=12, **kw)
    se = ex.std(ddof=1) / np.sqrt(ex.size)
    assert abs(ex.mean() - exact) <= 4 * se


def test_dpageem_leave_probability_is_monotone_and_bounded():
    kw = dict(w_star_norm=0.1, h=1.0, eta0=0.26, T0=1, tMon0=0, K=10, varrho=0.5, pi=10.0,
              d=2, zeta_max=2.0)
    small = dpageem_leave_probability(radius=150.0, **kw)
    big = dpageem_leave_probability(radius=30.0, **kw)
    assert 0 <= small < 1e-10 < big <= 1
    assert dpageem_leave_probability(radius=0.1, **kw) == 1.0
