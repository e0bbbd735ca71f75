"""Tests of the wang2020 simulators: DP-TR (alg1), DP-STR (alg2), DP-GD baseline."""

from __future__ import annotations

import math

import numpy as np
import pytest
from scipy import stats

from dptheory.privacy import get_epsilon
from dptheory.symbolic.assumptions import HessianLipschitz, Lipschitz, Smooth
from dptheory_simulations import objectives as O
from dptheory_simulations.algorithms import get
from dptheory_simulations.algorithms import wang2020 as W
from dptheory_simulations.algorithms.base import ReplicateStreams
from dptheory_simulations.algorithms.trs import solve_trs
from dptheory_simulations.objectives.base import Dataset, Minimum, Objective

ALGS = {a.id: a for a in W.ALGORITHMS}
EPS, DELTA = 1.0, 1e-5


def _phi(eps, delta):
    l = math.log(1 / delta)
    return (math.sqrt(eps + l) - math.sqrt(l)) ** 2


class Quadratic(Objective):
    """f(w, x) = (c/2) ||w||^2 (x unused): gradient c w, Hessian c I; constants on ||w|| <= R."""

    name = "test-quadratic"

    def __init__(self, d: int = 3, c: float = 1.0, R: float = 10.0):
        super().__init__(d)
        self.c, self.domain_radius = c, R

    def _loss(self, W, X, y):
        return np.broadcast_to(0.5 * self.c * (W ** 2).sum(1)[:, None], (W.shape[0], X.shape[0]))

    def _grad(self, W, X, y):
        return np.broadcast_to(self.c * W[:, None, :], (W.shape[0], X.shape[0], self.d)).copy()

    def _hess(self, W, X, y):
        return np.broadcast_to(self.c * np.eye(self.d), (W.shape[0], X.shape[0], self.d, self.d)).copy()

    def make_data(self, n, rng=None):
        return Dataset(np.zeros((n, self.d)), np.zeros(n))

    def assumptions(self, data):
        return (Lipschitz(G=self.c * self.domain_radius), Smooth(beta=self.c),
                HessianLipschitz(rho=1.0))

    def minimum(self, data):
        return Minimum(0.0, True, 0.0, np.zeros(self.d))


@pytest.fixture(scope="module")
def saddle():
    obj = O.get("strict-saddle", d=3)
    return obj, obj.make_data(40, 0)


# ------------------------------------------------------------------ registry
def test_registry():
    assert set(ALGS) == {"wang2020.alg1", "wang2020.alg2", "wang2020.dpgd"}
    assert get("wang2020.alg1").theorem == "wang2020.thm2"
    assert get("wang2020.alg2").privacy_theorem == "wang2020.thm3"
    assert ALGS["wang2020.dpgd"].baseline and not ALGS["wang2020.alg1"].baseline
    for a in W.ALGORITHMS:
        assert set(a.requires) == {Lipschitz, Smooth, HessianLipschitz}


# ------------------------------------------------------------------ exact reductions
def _plain_tr(obj, data, w0, T, r, thr, subsets=None):
    w = w0.copy()
    for k in range(T):
        if subsets is None:
            g, H = obj.grad_F(w, data), obj.hess_F(w, data)
        else:
            S, Tk = subsets(k)
            g = obj.grad(w, data.X[S], data.y[S]).mean(0)
            H = obj.hess(w, data.X[Tk], data.y[Tk]).mean(0)
        h, lam = solve_trs(g, H, r)
        w = w + h
        if lam <= thr:
            return w, True, k + 1
    return w, False, T


def test_alg1_zero_noise_is_trust_region(saddle):
    obj, data = saddle
    w0 = np.array([0.05, 0.01, -0.01])
    res = W.run_alg1(obj, data, eps=EPS, delta=DELTA, reps=2, w0=w0, T=30, r=0.2,
                     alpha=0.01, sigma=0.0, sigma_H=0.0)
    thr = math.sqrt(0.01 * 12.0)
    w_ref, stopped, it = _plain_tr(obj, data, w0, 30, 0.2, thr)
    for i in range(2):
        np.testing.assert_allclose(res.w[i], w_ref, rtol=1e-12, atol=1e-14)
    assert stopped and res.metrics["stopped"].tolist() == [1.0, 1.0]
    assert res.metrics["iterations"][0] == it
    assert res.metrics["lambda_min"][0] > 0             # escaped the saddle to a minimum
    assert res.privacy["tight"]["epsilon"] == math.inf


def test_alg2_full_subsets_equal_alg1_and_subsampled_matches_plain_loop(saddle):
    obj, data = saddle
    w0 = np.array([0.05, 0.01, -0.01])
    kw = dict(eps=EPS, delta=DELTA, reps=2, w0=w0, T=30, r=0.2, alpha=0.01, sigma=0.0,
              sigma_H=0.0, seed=5)
    a1 = W.run_alg1(obj, data, **kw)
    a2 = W.run_alg2(obj, data, S_size=data.n, T_size=data.n, **kw)
    np.testing.assert_allclose(a2.w, a1.w, rtol=1e-12, atol=1e-14)
    # subsets of sizes 7 and 5: reproduce the draws of replicate 1 with its own stream
    res = W.run_alg2(obj, data, S_size=7, T_size=5, first_replicate=0, **kw)
    streams = ReplicateStreams(5, 1, first_replicate=1)
    w_ref, _, it = _plain_tr(obj, data, w0, 30, 0.2, math.sqrt(0.01 * 12.0),
                             subsets=lambda k: (streams.subsets(data.n, 7)[0],
                                                streams.subsets(data.n, 5)[0]))
    np.testing.assert_allclose(res.w[1], w_ref, rtol=1e-12, atol=1e-14)
    assert res.metrics["iterations"][1] == it


def test_dpgd_zero_noise_is_gradient_descent_with_sosp_check(saddle):
    obj, data = saddle
    w0 = np.array([0.3, 0.8, -0.5])
    alpha, T, eta = 0.05, 200, 0.05
    res = W.run_dpgd(obj, data, eps=EPS, delta=DELTA, w0=w0, T=T, eta=eta, alpha=alpha,
                     sigma=0.0, sigma_H=0.0)
    thr = math.sqrt(alpha * 12.0)
    w, t_out = w0.copy(), T
    for t in range(T):
        g = obj.grad_F(w, data)
        if np.linalg.norm(g) <= alpha and obj.lambda_min(w, data) >= -thr:
            t_out = t
            break
        w = w - eta * g
        w *= min(1.0, 2.0 / np.linalg.norm(w))        # the family's certified ball R = 2
    np.testing.assert_allclose(res.w[0], w, rtol=1e-12, atol=1e-14)
    assert res.metrics["iterations"][0] == t_out < T and res.metrics["stopped"][0] == 1


# ------------------------------------------------------------------ calibration (paper)
def test_paper_calibration_from_catalog_matches_printed_formulas(saddle):
    obj, data = saddle
    A = {type(a): a for a in obj.assumptions(data)}
    n, d, G, M, rho = data.n, 3, A[Lipschitz].G, A[Smooth].beta, A[HessianLipschitz].rho
    alpha = 0.1
    Delta = float(obj.F(np.zeros(3), data)) - obj.minimum(data).value
    T = math.ceil(6 * math.sqrt(rho) * Delta / alpha ** 1.5)
    assert W.run_alg1(obj, data, eps=EPS, delta=DELTA, T=2).params["T_data_dependent"] is False
    # the default T is Theorem 2's (data-dependent) setting
    s = W._setup(W.ALG1, obj, data, EPS, DELTA, 1, "paper", alpha, None, None)
    T_, r_, _ = W._T_and_r(s, "wang2020.alg1", None, None)
    assert T_ == T and r_ == pytest.approx(math.sqrt(alpha / rho))
    phi = _phi(EPS, DELTA)
    out = W.run_alg1(obj, data, eps=EPS, delta=DELTA, T=7)
    assert out.noise["sigma2"] == pytest.approx(4 * G ** 2 * 7 / (n ** 2 * phi), rel=1e-12)
    assert out.noise["sigma2_H"] == pytest.approx(4 * d * M ** 2 * 7 / (n ** 2 * phi), rel=1e-12)
    assert out.privacy["paper"]["epsilon_route"] == pytest.approx(EPS, rel=1e-9)
    # tight: 2T Gaussians with the same noise multiplier -> independent accountant
    z = out.noise["sigma"] / (2 * G / n)
    assert out.noise["sigma_H"] / (2 * math.sqrt(d) * M / n) == pytest.approx(z, rel=1e-12)
    ref = get_epsilon(noise_multiplier=z, target_delta=DELTA, steps=14)
    assert out.privacy["tight"]["epsilon"] <= ref + 1e-9
    assert out.privacy["tight"]["epsilon"] == pytest.approx(ref, rel=2e-3)
    assert out.privacy["tight"]["epsilon"] < EPS          # Lemma 3 over-noises
    # DP-STR printed variances and the paper route vs the catalog's thm3 eps_total
    a2 = W.run_alg2(obj, data, eps=0.5, delta=DELTA, T=7, S_size=10, T_size=8)
    L1, L2 = math.log(5 * 7 / DELTA), math.log(2 / DELTA)
    assert a2.noise["sigma2"] == pytest.approx(256 * G ** 2 * L1 * L2 / (n ** 2 * 0.25), rel=1e-12)
    assert a2.noise["sigma2_H"] == pytest.approx(256 * d * M ** 2 * 7 * L2 * L1 / (n ** 2 * 0.25),
                                                 rel=1e-12)
    from dptheory_bounds import wang2020 as cat
    item = {i.id: i for i in cat.ITEMS}["wang2020.thm3"]
    ref = item.evaluate("eps_total", {cat.eps: 0.5, cat.delta: DELTA, cat.T: 7},
                        apply_settings=False)
    assert a2.privacy["paper"]["epsilon_route"] == pytest.approx(ref, rel=1e-9)
    assert a2.privacy["paper"]["epsilon"] == 0.5          # the claim of Theorem 3


def test_tight_calibration_meets_eps(saddle):
    obj, data = saddle
    a1 = W.run_alg1(obj, data, eps=EPS, delta=DELTA, T=5, calibration="tight")
    assert EPS - 1e-6 <= a1.privacy["tight"]["epsilon"] <= EPS
    a2 = W.run_alg2(obj, data, eps=EPS, delta=DELTA, T=3, S_size=8, T_size=8,
                    calibration="tight")
    e = a2.privacy["tight"]["epsilon"]
    assert e <= EPS and e == pytest.approx(EPS, rel=1e-3)
    z = a2.params["noise_multiplier_grad"]
    assert a2.params["noise_multiplier_hess"] == pytest.approx(z, rel=1e-12)
    ref = get_epsilon(noise_multiplier=z, target_delta=DELTA, sample_rate=8 / data.n, steps=6,
                      sampling="fixed-size")
    assert e == pytest.approx(ref, rel=1e-9)


# ------------------------------------------------------------------ injected noise
def test_gradient_noise_has_calibrated_variance():
    obj = Quadratic(d=3, c=2.0)
    data = obj.make_data(50)
    reps = 600
    # w0 = 0: grad = 0, H = cI, sigma_H = 0, huge r -> interior step h = -e/c, stop at k = 0
    res = W.run_alg1(obj, data, eps=EPS, delta=DELTA, reps=reps, seed=11, T=3, r=1e9,
                     sigma_H=0.0)
    assert np.all(res.metrics["iterations"] == 1)
    e = -obj.c * res.w
    s2 = 4 * 20.0 ** 2 * 3 / (50 ** 2 * _phi(EPS, DELTA))
    assert res.noise["sigma2"] == pytest.approx(s2, rel=1e-12)
    stat = (e ** 2).sum() / s2
    assert stats.chi2.sf(stat, e.size) > 1e-3 and stats.chi2.cdf(stat, e.size) > 1e-3


def test_hessian_noise_has_calibrated_variance_and_symmetry():
    obj = Quadratic(d=3, c=1.0)
    data = obj.make_data(100)
    eps = 50.0
    reps = 600
    w0 = np.array([1.0, 0.0, 0.0])
    # sigma = 0: w1 = (cI + H_k)^{-1} H_k w0, so (cI + H_k) w1 = H_k e1 up to O(sigma_2^2)
    res = W.run_alg1(obj, data, eps=eps, delta=DELTA, reps=reps, seed=2, T=1, r=1e9,
                     w0=w0, sigma=0.0)
    s2H = 4 * 3 * 1.0 * 1 / (100 ** 2 * _phi(eps, DELTA))
    assert res.noise["sigma2_H"] == pytest.approx(s2H, rel=1e-12)
    col = res.w * obj.c                                  # ~ first column of H_k
    stat = (col ** 2).sum() / s2H
    assert stats.chi2.sf(stat, col.size) > 1e-3 and stats.chi2.cdf(stat, col.size) > 1e-3
    # the sampler itself: exact symmetry, upper-triangle entries i.i.d. N(0, s^2)
    gens = W._child_gens(ReplicateStreams(0, 400))
    Hn = W._hess_noise(gens, np.ones(400, bool), 4, 0.3)
    np.testing.assert_array_equal(Hn, np.swapaxes(Hn, 1, 2))
    iu = np.triu_indices(4)
    x = Hn[:, iu[0], iu[1]]
    stat = (x ** 2).sum() / 0.09
    assert stats.chi2.sf(stat, x.size) > 1e-3 and stats.chi2.cdf(stat, x.size) > 1e-3
    corr = np.corrcoef(x.T)[np.triu_indices(x.shape[1], 1)]
    assert np.max(np.abs(corr)) < 5 / math.sqrt(400)


# ------------------------------------------------------------------ reproducibility
@pytest.mark.parametrize("alg_id", sorted(ALGS))
def test_reproducible_and_batching_invariant(alg_id, saddle):
    obj, data = saddle
    kw = dict(eps=EPS, delta=DELTA, T=6, seed=3)
    if alg_id == "wang2020.alg2":
        kw.update(S_size=9, T_size=6)
    run = ALGS[alg_id]
    a = run(obj, data, reps=6, **kw)
    b = run(obj, data, reps=6, **kw)
    np.testing.assert_array_equal(a.w, b.w)
    c = run(obj, data, reps=3, **kw)
    d = run(obj, data, reps=3, first_replicate=3, **kw)
    np.testing.assert_array_equal(a.w, np.vstack([c.w, d.w]))
    np.testing.assert_array_equal(a.metrics["iterations"],
                                  np.concatenate([c.metrics["iterations"], d.metrics["iterations"]]))
    e = run(obj, data, reps=6, record=2, **{**kw, "seed": 4})
    assert not np.array_equal(a.w, e.w)
    assert e.trajectory["w"].shape[0] == 6 and e.trajectory["t"][0] == 0


# ------------------------------------------------------------------ families
@pytest.mark.parametrize("family", sorted(O.FAMILIES))
def test_runs_on_every_allowed_family_and_refuses_others(family):
    obj = O.get(family, d=3)
    data = obj.make_data(O.DEFAULT_N[family] if family != "pl-nonconvex" else 3, 0)
    have = {type(a) for a in obj.assumptions(data)}
    for alg in W.ALGORITHMS:
        kw = dict(eps=EPS, delta=DELTA, reps=2, T=3)
        if alg.id == "wang2020.alg2":
            kw.update(S_size=2, T_size=2)
        if set(alg.requires) <= have:
            res = alg(obj, data, **kw)
            assert res.w.shape == (2, 3) and np.all(np.isfinite(res.w))
            for key in ("excess_risk", "grad_norm", "grad_norm_sq", "lambda_min", "sosp",
                        "stopped", "iterations"):
                assert res.metrics[key].shape == (2,)
            assert res.grad_evals > 0 and res.wall_time >= 0
        else:
            with pytest.raises(ValueError, match="does not declare"):
                alg(obj, data, **kw)
            with pytest.raises(ValueError, match="does not declare"):
                alg.run(obj, data, **kw)


# ------------------------------------------------------------------ stopping and bad input
def test_stop_flag_and_no_stop(saddle):
    obj, data = saddle
    # alpha tiny: threshold sqrt(alpha rho) ~ 0 with zero noise at a saddle-free start never met
    res = W.run_alg1(obj, data, eps=EPS, delta=DELTA, T=4, r=1e-3, alpha=1e-30,
                     w0=np.array([0.5, 0.5, 0.5]), sigma=0.0, sigma_H=0.0)
    assert res.metrics["stopped"][0] == 0 and res.metrics["iterations"][0] == 4


@pytest.mark.parametrize("kw, msg", [
    (dict(reps=0), "reps"), (dict(eps=0.0), "eps"), (dict(delta=1.0), "delta"),
    (dict(calibration="exact"), "calibration"), (dict(alpha=-1.0), "alpha"),
    (dict(T=0), "T must"), (dict(r=0.0), "r must"), (dict(sigma=-1.0), "sigma"),
    (dict(w0=np.zeros(2)), "w0"), (dict(S_size=10_000), "S_size"), (dict(zeta=1.0), "zeta"),
    (dict(T_size=0), "T_size"), (dict(seed=-1), "seed")])
def test_bad_input(kw, msg, saddle):
    obj, data = saddle
    base = dict(eps=EPS, delta=DELTA, T=2)
    with pytest.raises(ValueError, match=msg):
        W.run_alg2(obj, data, **{**base, **kw})


def test_dpgd_bad_input(saddle):
    obj, data = saddle
    with pytest.raises(ValueError, match="eta"):
        W.run_dpgd(obj, data, eps=EPS, delta=DELTA, T=2, eta=0.0)
    with pytest.raises(ValueError, match="radius"):
        W.run_dpgd(obj, data, eps=EPS, delta=DELTA, T=2, radius=-1.0)


# ------------------------------------------------------------------ one start per replicate
def test_alg1_one_start_per_replicate_equals_separate_runs(saddle):
    """w0 of shape (reps, d) with a common Delta: replicate k is the run of reps = 1,
    first_replicate = k from row k (same Delta, hence the same T and noise scale)."""
    obj, data = saddle
    starts = np.array([[0.1, 0.9, -1.2], [0.0, 1.3, 1.1], [-0.2, -1.4, 0.8]])
    gap = float(np.max(obj.F(starts, data))) - obj.minimum(data).value
    kw = dict(eps=EPS, delta=DELTA, alpha=0.05, seed=11, Delta=gap + 0.25)
    res = W.run_alg1(obj, data, reps=3, w0=starts, **kw)
    for k in range(3):
        one = W.run_alg1(obj, data, reps=1, first_replicate=k, w0=starts[k], **kw)
        np.testing.assert_array_equal(res.w[k], one.w[0])
        assert res.metrics["iterations"][k] == one.metrics["iterations"][0]
        assert res.params["T"] == one.params["T"]


def test_alg1_one_start_per_replicate_bad_input(saddle):
    obj, data = saddle
    starts = np.array([[0.1, 0.9, -1.2], [0.0, 1.3, 1.1]])
    gap = float(np.max(obj.F(starts, data))) - obj.minimum(data).value
    kw = dict(eps=EPS, delta=DELTA, alpha=0.05)
    with pytest.raises(ValueError, match="needs Delta"):
        W.run_alg1(obj, data, reps=2, w0=starts, **kw)
    with pytest.raises(ValueError, match="Delta must bound"):
        W.run_alg1(obj, data, reps=2, w0=starts, Delta=0.5 * gap, **kw)
    with pytest.raises(ValueError, match="shape"):
        W.run_alg1(obj, data, reps=3, w0=starts, Delta=gap, **kw)
    with pytest.raises(ValueError, match="wang2020.alg1 only"):
        W.run_alg2(obj, data, reps=2, w0=starts, Delta=gap, S_size=9, T_size=6, **kw)


@pytest.mark.parametrize("active", [[True, False, True, True], [False, True, False, False],
                                    [False] * 4])
def test_hess_noise_equals_one_sampler_call_per_replicate(active):
    # _hess_noise fills every active replicate's H_k in one pass; it must give exactly the
    # matrices of dptheory's sampler called once per active replicate on the same generator
    from dptheory.privacy.samplers import symmetric_gaussian_matrix
    from dptheory_simulations.algorithms.wang2020 import _hess_noise
    act = np.array(active)
    gens_a = [np.random.default_rng(100 + i) for i in range(4)]
    gens_b = [np.random.default_rng(100 + i) for i in range(4)]
    for _ in range(2):                                   # two steps: the streams advance alike
        got = _hess_noise(gens_a, act, 3, 0.7)
        want = [symmetric_gaussian_matrix(gens_b[i], 1, 3, 0.7) for i in np.flatnonzero(act)]
        want = np.concatenate(want) if want else np.zeros((0, 3, 3))
        np.testing.assert_array_equal(got, want)
        assert got.shape == (int(act.sum()), 3, 3)
