"""Tests of the yang2022 simulators (DP-NSGD Algorithm 1, DP-SGD with clipping).

Expected values come from plain loops written here (not the simulator), closed forms
(Lemma 3.1's formula, eq. (4)/(8)), the accountant for the privacy numbers, and a chi-square
test of the injected noise.
"""

from __future__ import annotations

import math

import numpy as np
import pytest
from scipy import stats

from dptheory_simulations.algorithms import get as get_algorithm
from dptheory_simulations.algorithms import yang2022 as Y
from dptheory_simulations.algorithms.base import ReplicateStreams
from dptheory_simulations.algorithms.yang2022 import (ALGORITHMS, eps_tight, run_alg1, run_dpsgd,
                                             sigma_lemma31, sigma_tight)
from dptheory_simulations.objectives import DEFAULT_N, FAMILIES, get

EPS, DELTA = 1.0, 1e-5
IDS = ["yang2022.alg1", "yang2022.dpsgd"]


@pytest.fixture(scope="module")
def cosh():
    obj = get("cosh-generalized-smooth", d=4)
    return obj, obj.make_data(40, 1)


def _w0(d):
    return np.linspace(-1.0, 1.5, d)


def _plain(obj, data, *, T, B, eta, seed, reps, process, noise_std=0.0):
    """Independent loop: sample w/o replacement, process per-sample grads, add noise."""
    streams = ReplicateStreams(seed, reps)
    W = np.tile(_w0(obj.d), (reps, 1))
    for _ in range(T):
        idx = streams.subsets(data.n, B)
        out = np.zeros_like(W)
        for k in range(reps):
            for i in idx[k]:
                g = obj.grad(W[k], data.X[i:i + 1], data.y[i:i + 1])[0]
                out[k] += process(g)
        xi = streams.normal(obj.d)
        W = W - eta / B * (out + noise_std * xi)
    return W


# ---------------------------------------------------------------------------- reductions
def test_dpsgd_no_clip_no_noise_is_minibatch_sgd(cosh):
    obj, data = cosh
    res = run_dpsgd(obj, data, eps=EPS, delta=DELTA, reps=2, seed=3, T=15, B=7, eta=0.05,
                    C=math.inf, sigma=0, w0=_w0(obj.d))
    ref = _plain(obj, data, T=15, B=7, eta=0.05, seed=3, reps=2, process=lambda g: g)
    np.testing.assert_allclose(res.w, ref, rtol=1e-12, atol=1e-12)
    assert res.privacy["tight"]["epsilon"] == math.inf
    assert res.grad_evals == 15 * 7


def test_dpsgd_zero_noise_is_clipped_sgd(cosh):
    obj, data = cosh
    C = 0.7
    res = run_dpsgd(obj, data, eps=EPS, delta=DELTA, reps=2, seed=4, T=12, B=5, eta=0.1,
                    C=C, sigma=0, w0=_w0(obj.d))
    ref = _plain(obj, data, T=12, B=5, eta=0.1, seed=4, reps=2,
                 process=lambda g: g * min(1.0, C / np.linalg.norm(g)))
    np.testing.assert_allclose(res.w, ref, rtol=1e-12, atol=1e-12)


def test_alg1_zero_noise_is_normalized_sgd(cosh):
    obj, data = cosh
    r = 0.3
    res = run_alg1(obj, data, eps=EPS, delta=DELTA, reps=2, seed=5, T=12, B=6, eta=0.2,
                   r=r, sigma=0, w0=_w0(obj.d))
    ref = _plain(obj, data, T=12, B=6, eta=0.2, seed=5, reps=2,
                 process=lambda g: g / (np.linalg.norm(g) + r))
    np.testing.assert_allclose(res.w, ref, rtol=1e-12, atol=1e-12)


def test_alg1_large_r_with_eta_scaled_by_r_is_sgd(cosh):
    obj, data = cosh
    sgd = run_dpsgd(obj, data, eps=EPS, delta=DELTA, reps=2, seed=6, T=10, B=4, eta=0.05,
                    C=math.inf, sigma=0, w0=_w0(obj.d))
    r = 1e7
    ns = run_alg1(obj, data, eps=EPS, delta=DELTA, reps=2, seed=6, T=10, B=4, eta=0.05 * r,
                  r=r, sigma=0, w0=_w0(obj.d))
    np.testing.assert_allclose(ns.w, sgd.w, rtol=1e-5, atol=1e-6)


def test_dpsgd_huge_C_equals_no_clipping(cosh):
    obj, data = cosh
    a = run_dpsgd(obj, data, eps=EPS, delta=DELTA, reps=2, seed=7, T=8, B=4, eta=0.05,
                  C=1e12, sigma=0, w0=_w0(obj.d))
    b = run_dpsgd(obj, data, eps=EPS, delta=DELTA, reps=2, seed=7, T=8, B=4, eta=0.05,
                  C=math.inf, sigma=0, w0=_w0(obj.d))
    np.testing.assert_array_equal(a.w, b.w)


def test_full_batch_sampling_is_deterministic_gd(cosh):
    obj, data = cosh
    res = run_dpsgd(obj, data, eps=EPS, delta=DELTA, reps=1, seed=0, T=5, B=data.n, eta=0.05,
                    C=math.inf, sigma=0, w0=_w0(obj.d))
    W = _w0(obj.d)
    for _ in range(5):
        W = W - 0.05 * obj.grad_F(W, data)
    np.testing.assert_allclose(res.w[0], W, rtol=1e-12, atol=1e-12)


# ---------------------------------------------------------------------------- noise
@pytest.mark.parametrize("alg", IDS)
def test_noise_has_calibrated_variance(cosh, alg):
    """One step: w1 - w1(zero-noise twin) = -(eta/B) std xi; chi-square test of the variance."""
    obj, data = cosh
    reps, B, eta = 300, 8, 0.1
    run = run_alg1 if alg.endswith("alg1") else run_dpsgd
    extra = {"r": 0.5} if alg.endswith("alg1") else {"C": 0.8}
    noisy = run(obj, data, eps=EPS, delta=DELTA, reps=reps, seed=11, T=1, B=B, eta=eta,
                sigma=3.0, w0=_w0(obj.d), **extra)
    clean = run(obj, data, eps=EPS, delta=DELTA, reps=reps, seed=11, T=1, B=B, eta=eta,
                sigma=0, w0=_w0(obj.d), **extra)
    std = eta * 3.0 * (1.0 if alg.endswith("alg1") else 0.8) / B
    assert noisy.noise["step_noise_std"] == pytest.approx(std, rel=1e-12)
    z = (noisy.w - clean.w) / std
    k = z.size
    chi2 = float(np.sum(z**2))
    p = 2 * min(stats.chi2.cdf(chi2, k), stats.chi2.sf(chi2, k))
    assert p > 1e-3, (chi2, k)
    assert abs(z.mean()) < 4 / math.sqrt(k)


# ---------------------------------------------------------------------------- calibration
def test_paper_sigma_is_lemma31_and_eta_is_eq4(cosh):
    obj, data = cosh
    res = run_alg1(obj, data, eps=EPS, delta=DELTA, T=30, B=10, c2=1.0, w0=_w0(obj.d))
    N, B, T = data.n, 10, 30
    sig = B * math.sqrt(T * math.log(1 / DELTA)) / (N * EPS)
    assert res.noise["sigma"] == pytest.approx(sig, rel=1e-12)
    p = res.params
    Df = float(obj.F(_w0(obj.d), data)) - obj.minimum(data).lower
    eta = math.sqrt(Df / (T * p["L0"] * (1 + sig**2 * obj.d / B**2)))
    assert p["eta"] == pytest.approx(eta, rel=1e-10)
    assert res.privacy["paper"]["epsilon"] == pytest.approx(EPS)
    # c2 = 1 under-noises by the tight accountant (substitution, sensitivity 2)
    assert res.privacy["tight"]["epsilon"] > 2 * EPS
    assert res.privacy["tight"]["epsilon"] == pytest.approx(
        eps_tight(sig, N=N, B=B, T=T, delta=DELTA))


def test_dpsgd_eta_is_eq8_and_noise_scales_with_C(cosh):
    obj, data = cosh
    a = run_dpsgd(obj, data, eps=EPS, delta=DELTA, T=30, B=10, C=0.5, c2=1.0, w0=_w0(obj.d))
    b = run_alg1(obj, data, eps=EPS, delta=DELTA, T=30, B=10, r=0.5, c2=1.0, w0=_w0(obj.d))
    assert a.params["eta"] == pytest.approx(b.params["eta"] / 0.5, rel=1e-12)
    assert a.noise["noise_std_sum"] == pytest.approx(0.5 * b.noise["noise_std_sum"])
    assert a.noise["sensitivity"] == 1.0 and b.noise["sensitivity"] == 2.0


@pytest.mark.parametrize("alg", IDS)
def test_default_c2_and_tight_calibration_meet_eps(cosh, alg):
    obj, data = cosh
    kw = dict(eps=EPS, delta=DELTA, T=30, B=10, w0=_w0(obj.d))
    run = get_algorithm(alg)
    paper = run(obj, data, **kw)                       # c2 = "tight"
    tight = run(obj, data, calibration="tight", **kw)
    for res in (paper, tight):
        assert res.privacy["tight"]["epsilon"] <= EPS
        assert res.privacy["tight"]["epsilon"] > 0.99 * EPS
    assert paper.noise["sigma"] == pytest.approx(tight.noise["sigma"], rel=1e-12)
    s1 = sigma_lemma31(1.0, N=data.n, B=10, T=30, eps=EPS, delta=DELTA)
    assert paper.params["c2"] == pytest.approx(tight.noise["sigma"] / s1, rel=1e-12)
    assert paper.params["c2"] > 1


def test_sigma_tight_is_monotone_in_eps():
    a = sigma_tight(N=100, B=10, T=50, eps=0.5, delta=DELTA)
    b = sigma_tight(N=100, B=10, T=50, eps=2.0, delta=DELTA)
    assert a > b > 0


def test_defaults_follow_the_documented_choices(cosh):
    obj, data = cosh
    res = run_dpsgd(obj, data, eps=EPS, delta=DELTA, reps=1)
    p = res.params
    assert p["B"] == data.n // 10
    assert EPS < p["B"] ** 2 * p["T"] / data.n ** 2 <= EPS + p["B"] ** 2 / data.n ** 2
    assert p["C"] == pytest.approx(2 * p["tau0"] / (1 - p["tau1"]))
    assert res.privacy["paper"]["eps_condition_holds"]


# ---------------------------------------------------------------------------- metrics
def test_min_grad_norm_streams_over_iterates(cosh):
    obj, data = cosh
    res = run_alg1(obj, data, eps=EPS, delta=DELTA, reps=3, seed=2, T=20, B=5, eta=0.05,
                   r=1.0, sigma=2.0, w0=_w0(obj.d), record=1)
    tr = res.trajectory
    assert tr["w"].shape == (3, 21, obj.d)
    gn = np.stack([obj.grad_norm(tr["w"][:, t], data) for t in range(21)], axis=1)
    np.testing.assert_allclose(tr["grad_norm"], gn, rtol=1e-12)
    np.testing.assert_allclose(res.metrics["min_grad_norm"], gn[:, :20].min(axis=1), rtol=1e-12)
    assert Y.min_t_mean_grad_norm(res)[0] == pytest.approx(gn[:, :20].mean(0).min())
    assert Y.min_t_mean_grad_norm(res)[1] == int(np.argmin(gn[:, :20].mean(0)))
    np.testing.assert_allclose(res.w, tr["w"][:, -1])
    np.testing.assert_allclose(res.metrics["grad_norm"], gn[:, 20], rtol=1e-12)


def test_min_t_mean_grad_norm_is_computed_after_pooling(cosh):
    obj, data = cosh
    kw = dict(eps=EPS, delta=DELTA, seed=4, T=15, B=5, eta=0.05, r=1.0, sigma=2.0,
              w0=_w0(obj.d))
    whole = run_alg1(obj, data, reps=6, **kw)
    parts = [run_alg1(obj, data, reps=2, first_replicate=f, **kw) for f in (4, 0, 2)]
    assert Y.min_t_mean_grad_norm(*parts) == Y.min_t_mean_grad_norm(whole)
    with pytest.raises(ValueError, match="share T"):
        Y.min_t_mean_grad_norm(whole, run_alg1(obj, data, reps=2, **{**kw, "T": 9}))


# ---------------------------------------------------------------------------- reproducibility
@pytest.mark.parametrize("alg", IDS)
def test_reproducible_and_batching_invariant(cosh, alg):
    obj, data = cosh
    run = get_algorithm(alg)
    kw = dict(eps=EPS, delta=DELTA, T=10, B=5, sigma=2.0, seed=9, w0=_w0(obj.d))
    a = run(obj, data, reps=6, **kw)
    b = run(obj, data, reps=6, **kw)
    np.testing.assert_array_equal(a.w, b.w)
    c = run(obj, data, reps=3, **kw)
    e = run(obj, data, reps=3, first_replicate=3, **kw)
    np.testing.assert_array_equal(a.w, np.concatenate([c.w, e.w]))
    np.testing.assert_array_equal(a.metrics["min_grad_norm"],
                                  np.concatenate([c.metrics["min_grad_norm"],
                                                  e.metrics["min_grad_norm"]]))
    d = run(obj, data, reps=6, **{**kw, "seed": 10})
    assert not np.array_equal(a.w, d.w)


# ---------------------------------------------------------------------------- families
def _families():
    out = []
    for name in FAMILIES:
        obj = get(name, d=10 if name == "pl-nonconvex" else 3)
        out.append((name, obj, obj.make_data(DEFAULT_N[name], 0)))
    return out


@pytest.mark.parametrize("alg", ALGORITHMS, ids=lambda a: a.id)
def test_runs_on_allowed_families_and_refuses_others(alg):
    ran = 0
    for name, obj, data in _families():
        have = {type(a) for a in obj.assumptions(data)}
        if all(t in have for t in alg.requires):
            res = alg(obj, data, eps=EPS, delta=DELTA, reps=2, T=5, B=4, sigma=1.0)
            assert res.w.shape == (2, obj.d) and np.all(np.isfinite(res.w))
            ran += 1
        else:
            with pytest.raises(ValueError, match="does not declare"):
                alg(obj, data, eps=EPS, delta=DELTA, reps=1, T=2)
            with pytest.raises(ValueError, match="does not declare"):
                alg.run(obj, data, eps=EPS, delta=DELTA, reps=1, T=2)
    assert ran >= 1


def test_registry():
    assert {a.id for a in ALGORITHMS} == set(IDS)
    for a in ALGORITHMS:
        assert get_algorithm(a.id) is a
        assert a.private and not a.baseline and a.privacy_theorem == "yang2022.lemma3.1"


# ---------------------------------------------------------------------------- bad input
@pytest.mark.parametrize("alg,kw,msg", [
    ("yang2022.alg1", {"reps": 0}, "reps"),
    ("yang2022.alg1", {"eps": 0.0}, "eps"),
    ("yang2022.dpsgd", {"eps": -1.0}, "eps"),
    ("yang2022.alg1", {"delta": 1.5}, "delta"),
    ("yang2022.alg1", {"calibration": "exact"}, "calibration"),
    ("yang2022.alg1", {"T": 0}, "T"),
    ("yang2022.alg1", {"B": 0}, "B"),
    ("yang2022.dpsgd", {"B": 10_000}, "B"),
    ("yang2022.alg1", {"eta": -0.1}, "eta"),
    ("yang2022.alg1", {"r": 0.0}, "r"),
    ("yang2022.alg1", {"r": math.inf}, "r"),
    ("yang2022.dpsgd", {"C": 0.0}, "C"),
    ("yang2022.dpsgd", {"C": math.inf, "sigma": 1.0}, "C = inf"),
    ("yang2022.dpsgd", {"C": math.inf, "sigma": 0.0}, "eta must be given"),
    ("yang2022.alg1", {"sigma": -1.0}, "sigma"),
    ("yang2022.alg1", {"c2": "loose"}, "c2"),
    ("yang2022.alg1", {"c2": 0.0}, "c2"),
    ("yang2022.alg1", {"w0": np.zeros(2)}, "w0"),
    ("yang2022.alg1", {"record": 0}, "record"),
    ("yang2022.alg1", {"first_replicate": -1}, "first_replicate"),
])
def test_bad_input(cosh, alg, kw, msg):
    obj, data = cosh
    base = dict(eps=EPS, delta=DELTA, reps=1, T=3, B=4, sigma=1.0)
    base.update(kw)
    with pytest.raises(ValueError, match=msg):
        get_algorithm(alg)(obj, data, **base)


def test_divergence_is_reported(cosh):
    obj, data = cosh
    with pytest.raises(ValueError, match="non-finite"):
        run_dpsgd(obj, data, eps=EPS, delta=DELTA, T=50, B=4, eta=1e4, C=math.inf, sigma=0,
                  w0=_w0(obj.d))
