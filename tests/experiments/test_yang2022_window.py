"""The window-mean upper estimate of yang2022's min_t E||grad f(w_t)|| (Corollaries 3.3, 3.5).

The corollaries bound min_{0<=t<T} E||grad f(w_t)||. The replicates' mean of the per-run
minimum (E min_t) is below it; the mean over a window W of steps fixed before the run is
above it (an average over W is at least the minimum over W). These tests check both
orderings against a process whose per-time means are known in closed form, that the cell
computes the window it documents, and that the estimate has the power to refute a planted
rate steeper than the truth.
"""

from __future__ import annotations

import math

import numpy as np
import pytest

from dptheory.verify.checks import rate_check
from dptheory_simulations.experiments import yang2022 as Y


def _folded_mean(m: np.ndarray) -> np.ndarray:
    """E|m + Z| for Z ~ N(0, 1): sqrt(2/pi) exp(-m^2/2) + m (1 - 2 Phi(-m)) (folded normal)."""
    m = np.asarray(m, dtype=float)
    phi_neg = 0.5 * (1 + np.vectorize(math.erf)(-m / math.sqrt(2)))
    return math.sqrt(2 / math.pi) * np.exp(-m ** 2 / 2) + m * (1 - 2 * phi_neg)


def test_window_mean_is_between_e_min_and_min_e_on_a_closed_form_process():
    # X_t = |m_t + Z_t|, Z_t i.i.d. N(0, 1): E X_t = folded mean of m_t (closed form). m_t
    # dips to 0 at t = 10, inside the first half (outside W = {T/2..T-1}), so min_t E X_t =
    # sqrt(2/pi) is attained outside the window: the window mean must still be above it.
    T, reps = 40, 20000
    t = np.arange(T + 1)
    m = np.abs(t - 10) / 8.0
    exact = _folded_mean(m[:T])
    min_e = float(exact.min())
    assert min_e == pytest.approx(math.sqrt(2 / math.pi), rel=1e-12)
    rng = np.random.default_rng(1)
    X = np.abs(m[None, :] + rng.standard_normal((reps, T + 1)))
    w = Y.window_mean(X, T)
    assert w.shape == (reps,)
    # unbiased for the window's mean of the exact per-time means (4 standard errors)
    target = float(exact[T // 2:].mean())
    assert abs(w.mean() - target) < 4 * w.std() / math.sqrt(reps)
    # the orderings: E min_t X_t < min_t E X_t < mean over W of E X_t, each by many errors
    e_min = X[:, :T].min(axis=1)
    assert e_min.mean() + 10 * e_min.std() / math.sqrt(reps) < min_e
    assert w.mean() - 10 * w.std() / math.sqrt(reps) > min_e
    # the window is {floor(T/2), ..., T-1}: step T (the output) is not in it
    X2 = X.copy()
    X2[:, T] = 1e9
    np.testing.assert_array_equal(Y.window_mean(X2, T), w)
    assert Y.window_mean(np.arange(6.0)[None, :], 5)[0] == pytest.approx((2 + 3 + 4) / 3)


def test_window_mean_rejects_bad_shapes():
    with pytest.raises(ValueError, match="grad_norm"):
        Y.window_mean(np.ones(5), 4)
    with pytest.raises(ValueError, match="grad_norm"):
        Y.window_mean(np.ones((2, 3)), 4)


def _stationary_runs(n: int, reps: int, T: int, rng: np.random.Generator) -> np.ndarray:
    """||g_t|| = N^-1/2 |Y_t| with Y a stationary Gaussian AR(1) (correlation 0.95 per step):
    E||g_t|| = sqrt(2/pi) N^-1/2 at every t, so min_t E is that, exactly, and decays as
    N^-1/2. A window of T/2 = 2000 steps holds about 100 correlation times, as the
    simulator's runs do at N = 1600 from w0 = 3 (eta T/2 = 78, curvature >= 1)."""
    a = 0.95
    Yt = np.empty((reps, T + 1))
    Yt[:, 0] = rng.standard_normal(reps)
    xi = rng.standard_normal((reps, T)) * math.sqrt(1 - a * a)
    for k in range(T):
        Yt[:, k + 1] = a * Yt[:, k] + xi[:, k]
    return np.abs(Yt) / math.sqrt(n)


def test_window_mean_supports_the_true_rate_and_refutes_a_planted_steeper_one():
    # min_t E||g_t|| = sqrt(2/pi) N^-1/2 exactly. Fed to the rate check as the claimed
    # quantity, the window means must support N^-1/2 and refute the planted N^-1 (the
    # power the yang2022 ':slope-n' checks rely on), where single steps (t = T-1) of the
    # same runs cannot decide at all.
    rng = np.random.default_rng(7)
    ns, T, reps = [400, 800, 1600], 4000, 32
    runs = [_stationary_runs(n, reps, T, rng) for n in ns]
    windows = [[Y.window_mean(g, T)] for g in runs]
    for n, g in zip(ns, windows):
        exact = math.sqrt(2 / math.pi / n)             # unbiased: within 4 standard errors
        assert abs(g[0].mean() - exact) < 4 * g[0].std() / math.sqrt(reps)
    true = rate_check(ns, windows, -0.5, tolerance=0.15, polylog=False, quantity="window")
    assert true.verdict == "supported", true.summary
    planted = rate_check(ns, windows, -1.0, tolerance=0.15, polylog=False, quantity="window")
    assert planted.verdict == "refuted", planted.summary
    last = [[g[:, T - 1]] for g in runs]
    assert rate_check(ns, last, -0.5, tolerance=0.15, polylog=False,
                      quantity="last").verdict == "inconclusive"


def _cell(**kw):
    cell = {"family": "cosh-generalized-smooth", "objective_params": {"d": 5}, "eps": 1.0,
            "delta": 1e-5, "algorithm": "yang2022.dpsgd", "item": "yang2022.cor3.5", "T": 60,
            "records": "constant", "reps": 4, "seed": 4, "first_replicate": 0,
            "point": {"n": 40}, "w0": 3.0, "estimate": "window"}
    return {**cell, **kw}


@pytest.mark.parametrize("alg", ["yang2022.dpsgd", "yang2022.alg1"])
def test_cell_window_is_the_second_half_of_the_run(alg):
    from dptheory_simulations.experiments.cells import run_algorithm
    item = "yang2022.cor3.3" if alg == "yang2022.alg1" else "yang2022.cor3.5"
    cell = _cell(algorithm=alg, item=item)
    out = Y.min_grad(cell)
    obj, data = Y._data(cell, 40)
    res = run_algorithm(cell, alg, obj, data, T=60, c2="tight", w0=np.full(5, 3.0))
    g = res.series["grad_norm"]
    # the same seeded run and the same reductions: equal to the last bit
    np.testing.assert_array_equal(out["samples"], g[:, 30:60].mean(axis=1))
    np.testing.assert_array_equal(out["lower_samples"], g[:, :60].min(axis=1))
    # the start from w0 = 3 (sinh(3) + e_1 on the first coordinate) does not meet any rate;
    # the cell's NumPy gradient and this closed form differ by float rounding only
    assert out["trivial"] == pytest.approx(math.sqrt((math.sinh(3) + 1) ** 2
                                                     + 4 * math.sinh(3) ** 2), rel=1e-12)
    assert np.all(np.asarray(out["lower_samples"]) <= np.asarray(out["samples"]))


def test_corollary_recipes_judge_the_window_as_an_upper_estimate():
    rs = {r.id: r for r in Y.RECIPES}
    for item in ("yang2022.cor3.3", "yang2022.cor3.5"):
        r = rs[f"{item}:slope-n"]
        assert r.fixed["estimate"] == "window" and r.upper_estimate and not r.lower_estimate
        assert r.expected_slope == -0.5 and r.quick
        # T = ceil(N^2/128) at every point: sigma^2 d/B^2 is the same at every N
        assert [Y._steps(r.fixed, n) for n in r.points()] == [1250, 5000, 20000]
        assert f"{item}:slope-n-last" not in rs
