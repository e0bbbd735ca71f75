"""Tests of the zhang2017 simulators (Algorithm 1, RRPSGD, BST14 baseline).

Expected values come from plain loops and closed forms written here, never from the code
under test.
"""

from __future__ import annotations

import math

import numpy as np
import pytest
from scipy import stats

from dptheory.symbolic.assumptions import StronglyConvex
from dptheory_simulations import objectives as O
from dptheory_simulations.algorithms import ALGORITHMS as REGISTRY
from dptheory_simulations.algorithms.base import ReplicateStreams
from dptheory_simulations.algorithms.zhang2017 import ALG1, ALG2, ALGORITHMS, BST14


@pytest.fixture(scope="module")
def ridge():
    obj = O.get("logistic-ridge", d=3)
    return obj, obj.make_data(40, 0)


@pytest.fixture(scope="module")
def huber():
    obj = O.get("huber-ridge", d=2)
    return obj, obj.make_data(30, 1)


def consts(obj, data):
    a = {type(x).__name__: x for x in obj.assumptions(data)}
    return a["Lipschitz"].G, a["Smooth"].beta, a


# ------------------------------------------------------------------ registry
def test_registry_ids():
    ids = [a.id for a in ALGORITHMS]
    assert ids == ["zhang2017.alg1", "zhang2017.alg2", "zhang2017.bst14"]
    for a in ALGORITHMS:
        assert REGISTRY[a.id] is a
    assert BST14.baseline and not ALG1.baseline
    assert ALG2.theorem == "zhang2017.thm5" and ALG1.privacy_theorem == "zhang2017.thm1"


# ------------------------------------------------------------------ Algorithm 1
def plain_gd(obj, data, eta, T):
    w = np.zeros(data.d)
    for _ in range(T):
        g = np.mean([obj.grad(w, data.X[i:i + 1], data.y[i:i + 1])[0] for i in range(data.n)],
                    axis=0)
        w = w - eta * g
    return w


@pytest.mark.parametrize("delta", [0.0, 1e-5])
def test_alg1_settings_thm2(ridge, delta):
    obj, data = ridge
    L, beta, a = consts(obj, data)
    mu, D, n, d, eps = a["StronglyConvex"].mu, a["BoundedMinimizer"].D, data.n, data.d, 2.0
    r = ALG1(obj, data, eps=eps, delta=delta, reps=2)
    kappa = (mu ** 2 + beta ** 2) / (mu * beta)
    dd = d ** 2 if delta == 0 else d * math.log(1 / delta)
    T = max(1, math.ceil(kappa * math.log(mu ** 2 * n ** 2 * eps ** 2 * D ** 2 / (L ** 2 * dd))))
    assert r.params["T"] == T
    assert r.params["eta"] == pytest.approx(1 / (mu + beta), rel=1e-12)
    Delta = 5 * L * (1 + beta / mu) / (n * beta)
    assert r.params["Delta"] == pytest.approx(Delta, rel=1e-12)
    if delta == 0:
        assert r.noise["laplace_scale"] == pytest.approx(Delta / eps, rel=1e-12)
        assert r.privacy["tight"]["epsilon"] == pytest.approx(eps)
    else:
        assert r.noise["s"] == pytest.approx(math.sqrt(2 * math.log(2 / delta)) * Delta / eps)
    assert r.grad_evals == n * T


def test_alg1_settings_thm3(ridge):
    obj, data = ridge
    L, beta, a = consts(obj, data)
    D, n, d, eps, delta = a["BoundedMinimizer"].D, data.n, data.d, 4.0, 1e-3
    r = ALG1(obj, data, eps=eps, delta=delta, setting="convex")
    T = max(1, math.ceil((beta ** 2 * n ** 2 * eps ** 2 * D ** 2
                          / (L ** 2 * d * math.log(1 / delta))) ** (1 / 3)))
    assert r.params["T"] == T and r.params["theorem"] == "zhang2017.thm3"
    assert r.params["Delta"] == pytest.approx(3 * L * T / (beta * n), rel=1e-12)
    assert r.params["eta"] == pytest.approx(1 / beta)


@pytest.mark.parametrize("setting", ["strongly-convex", "convex"])
def test_alg1_zero_noise_is_gd(ridge, setting):
    obj, data = ridge
    r = ALG1(obj, data, eps=1.0, delta=1e-5, reps=2, setting=setting, noise_scale=0.0, T=15)
    expect = plain_gd(obj, data, r.params["eta"], 15)
    np.testing.assert_allclose(r.w, np.tile(expect, (2, 1)), rtol=1e-12, atol=1e-14)
    assert r.privacy["tight"]["epsilon"] == math.inf
    assert r.metrics["excess_risk"] == pytest.approx(r.metrics["excess_risk_wT"])


def test_alg1_gaussian_noise_variance(ridge):
    obj, data = ridge
    kw = dict(eps=1.0, delta=1e-5, reps=600, seed=7, T=5)
    r = ALG1(obj, data, **kw)
    r0 = ALG1(obj, data, noise_scale=0.0, **kw)
    z = r.w - r0.w
    s = r.noise["s"]
    stat = float(np.sum(z ** 2) / s ** 2)
    dof = z.size
    p = stats.chi2.sf(stat, dof)
    assert 1e-3 < p < 1 - 1e-3
    assert abs(z.mean()) < 5 * s / math.sqrt(dof)


def test_alg1_laplace_law(ridge):
    obj, data = ridge
    kw = dict(eps=1.0, delta=0.0, reps=1000, seed=3, T=5)
    r = ALG1(obj, data, **kw)
    r0 = ALG1(obj, data, noise_scale=0.0, **kw)
    z = r.w - r0.w
    b, d = r.noise["laplace_scale"], data.d
    radius = np.linalg.norm(z, axis=1)
    assert stats.kstest(radius, stats.gamma(a=d, scale=b).cdf).pvalue > 1e-3
    # Lemma 6: E||z||^2 = d(d+1) b^2 (std of the mean from Gamma moments)
    var_r2 = b ** 4 * (d * (d + 1) * (d + 2) * (d + 3) - (d * (d + 1)) ** 2)
    assert abs(np.mean(radius ** 2) - d * (d + 1) * b ** 2) < 5 * math.sqrt(var_r2 / len(radius))
    u = z / radius[:, None]                       # uniform direction: mean 0
    assert np.all(np.abs(u.mean(axis=0)) < 5 / math.sqrt(3 * len(radius)))


def test_alg1_privacy_exact_curve(ridge):
    obj, data = ridge
    small = ALG1(obj, data, eps=1.0, delta=1e-5)
    assert small.privacy["paper"]["holds_on_exact_curve"]
    assert small.privacy["tight"]["epsilon"] < 1.0
    big = ALG1(obj, data, eps=10.0, delta=1e-5)          # catalog: exact delta ~ 1.36e-5
    assert not big.privacy["paper"]["holds_on_exact_curve"]
    assert big.privacy["paper"]["exact_delta"] == pytest.approx(1.36e-5, rel=0.01)
    assert big.privacy["tight"]["epsilon"] > 10.0
    t = ALG1(obj, data, eps=10.0, delta=1e-5, calibration="tight")
    assert t.privacy["tight"]["epsilon"] <= 10.0 + 1e-8
    assert t.noise["s"] > big.noise["s"]


# ------------------------------------------------------------------ Algorithm 2
def test_alg2_paper_calibration(ridge):
    obj, data = ridge
    L, beta, _ = consts(obj, data)
    n, d, eps, delta = data.n, data.d, 0.5, 1e-4
    r = ALG2(obj, data, eps=eps, delta=delta, reps=2, rounds=50)
    s2 = 4 * L ** 2 * math.log(3 * n / delta) * math.log(2 / delta) / eps ** 2
    assert r.noise["s"] == pytest.approx(math.sqrt(s2), rel=1e-12)
    sigma = math.sqrt(4 * L ** 2 + d * s2)
    gap = obj.F(np.zeros(d), data) - obj.minimum(data).value
    eta = min(1 / beta, math.sqrt(2 * gap / beta) / (sigma * n))
    assert r.params["eta"] == pytest.approx(eta, rel=1e-12)
    assert r.params["P"] == "uniform on {1..K}"
    assert r.privacy["paper"]["epsilon"] == eps


def test_alg2_default_rounds_n_squared():
    obj = O.get("robust-regression", d=2)
    data = obj.make_data(8, 0)
    r = ALG2(obj, data, eps=1.0, delta=1e-3, reps=50, seed=2)
    assert r.params["K"] == 64
    assert np.all((1 <= r.params["R"]) & (r.params["R"] <= 64))
    assert r.grad_evals == pytest.approx(r.params["R"].mean())


def test_alg2_R_uniform(ridge):
    obj, data = ridge
    r = ALG2(obj, data, eps=1.0, delta=1e-5, reps=800, seed=5, rounds=8, noise_scale=0.0)
    counts = np.bincount(r.params["R"], minlength=9)[1:]
    assert stats.chisquare(counts).pvalue > 1e-3


def test_alg2_weighted_P(ridge):
    obj, data = ridge
    _, beta, _ = consts(obj, data)
    eta = np.array([1.0, 0.5, 0.25]) / beta
    r = ALG2(obj, data, eps=1.0, delta=1e-5, reps=800, seed=5, rounds=3, eta=eta)
    w = 2 * eta - beta * eta ** 2
    counts = np.bincount(r.params["R"], minlength=4)[1:]
    assert stats.chisquare(counts, w / w.sum() * counts.sum()).pvalue > 1e-3


def test_alg2_zero_noise_is_random_round_sgd(ridge):
    obj, data = ridge
    reps, K, eta = 4, 30, 0.3
    r = ALG2(obj, data, eps=1.0, delta=1e-5, reps=reps, seed=11, rounds=K, eta=eta,
             noise_scale=0.0)
    # independent plain loop on the same per-replicate streams: R first, then one index/step
    st = ReplicateStreams(11, reps)
    R = np.floor(st.uniform(1)[:, 0] * K).astype(int) + 1
    w = np.zeros((reps, data.d))
    out = np.zeros_like(w)
    for t in range(R.max()):
        idx = st.indices(data.n, 1)[:, 0]
        for k in range(reps):
            i = idx[k]
            w[k] = w[k] - eta * obj.grad(w[k], data.X[i:i + 1], data.y[i:i + 1])[0]
        out[R == t + 1] = w[R == t + 1]
    np.testing.assert_array_equal(r.params["R"], R)
    np.testing.assert_allclose(r.w, out, rtol=1e-12, atol=1e-14)


def test_alg2_noise_variance(ridge):
    obj, data = ridge
    kw = dict(eps=1.0, delta=1e-5, reps=600, seed=9, rounds=1, eta=0.5)
    r = ALG2(obj, data, **kw)
    r0 = ALG2(obj, data, noise_scale=0.0, **kw)
    z = (r0.w - r.w) / 0.5                       # w_1 = w_0 - eta (g + z)
    s = r.noise["s"]
    p = stats.chi2.sf(float(np.sum(z ** 2) / s ** 2), z.size)
    assert 1e-3 < p < 1 - 1e-3


def test_alg2_tight_calibration(ridge):
    obj, data = ridge
    r = ALG2(obj, data, eps=1.0, delta=1e-5, rounds=200, calibration="tight",
             fixed_size_check=False)
    assert r.privacy["tight"]["epsilon"] <= 1.0 + 1e-9
    p = ALG2(obj, data, eps=1.0, delta=1e-5, rounds=200, fixed_size_check=False)
    assert r.noise["s"] < p.noise["s"]          # the printed noise over-noises here
    assert r.privacy["paper"]["epsilon"] > 1.0


# ------------------------------------------------------------------ BST14
def test_bst14_zero_noise_full_batch_is_projected_gd(huber):
    obj, data = huber
    _, _, a = consts(obj, data)
    mu, R = a["StronglyConvex"].mu, obj.domain_radius
    r = BST14(obj, data, eps=1.0, delta=1e-5, reps=2, m=data.n, T=12, noise_scale=0.0)
    w = np.zeros(data.d)
    for t in range(1, 13):
        g = obj.grad_F(w, data)
        w = w - g / (mu * t)
        nw = np.linalg.norm(w)
        if nw > R:
            w = w * R / nw
    np.testing.assert_allclose(r.w, np.tile(w, (2, 1)), rtol=1e-10, atol=1e-12)


def test_bst14_paper_route(huber):
    obj, data = huber
    L, _, _ = consts(obj, data)
    n, m, eps, delta = data.n, 10, 1.0, 1e-4
    r = BST14(obj, data, eps=eps, delta=delta, m=m, T=40, noise_scale=0.0)
    assert r.params["T"] == 40
    r = BST14(obj, data, eps=eps, delta=delta, m=m)
    T, q = math.ceil(n * n / m), m / n
    assert r.params["T"] == T
    e0, d0 = r.privacy["paper"]["eps_step"], r.privacy["paper"]["delta_step"]
    assert d0 == pytest.approx(delta / (2 * T * q))
    ea = 2 * q * e0                                  # amplification, then Dwork-Roth 3.20
    assert ea * math.sqrt(2 * T * math.log(2 / delta)) + T * ea * math.expm1(ea) == \
        pytest.approx(eps, rel=1e-9)
    s = math.sqrt(2 * math.log(1.25 / d0)) * (2 * L / m) / e0
    assert r.noise["s"] == pytest.approx(s, rel=1e-12)
    t = BST14(obj, data, eps=eps, delta=delta, m=m, calibration="tight", fixed_size_check=False)
    assert t.privacy["tight"]["epsilon"] <= eps + 1e-9
    assert t.privacy["paper"]["epsilon"] > eps


def test_bst14_noise_variance(huber):
    obj, data = huber
    kw = dict(eps=1.0, delta=1e-5, reps=600, seed=4, m=5, T=1, radius=1e9)
    r = BST14(obj, data, **kw)
    r0 = BST14(obj, data, noise_scale=0.0, **kw)
    mu = next(a.mu for a in obj.assumptions(data) if isinstance(a, StronglyConvex))
    z = (r0.w - r.w) * mu                           # eta_1 = 1/mu
    s = r.noise["s"]
    p = stats.chi2.sf(float(np.sum(z ** 2) / s ** 2), z.size)
    assert 1e-3 < p < 1 - 1e-3


# ------------------------------------------------------------------ reproducibility
CASES = [(ALG1, dict(delta=1e-5)), (ALG1, dict(delta=0.0)),
         (ALG2, dict(delta=1e-5, rounds=40)), (BST14, dict(delta=1e-5, m=5, T=20))]


@pytest.mark.parametrize("alg,kw", CASES)
def test_reproducible_and_batching_invariant(ridge, alg, kw):
    obj, data = ridge
    kw = dict(eps=1.0, seed=21, fixed_size_check=False, **kw) if alg is not ALG1 else \
        dict(eps=1.0, seed=21, **kw)
    a = alg(obj, data, reps=6, **kw)
    b = alg(obj, data, reps=6, **kw)
    np.testing.assert_array_equal(a.w, b.w)
    c1 = alg(obj, data, reps=3, **kw)
    c2 = alg(obj, data, reps=3, first_replicate=3, **kw)
    np.testing.assert_array_equal(a.w, np.concatenate([c1.w, c2.w]))
    other = alg(obj, data, reps=6, **{**kw, "seed": 22})
    assert not np.array_equal(a.w, other.w)


def test_record_trajectory(ridge):
    obj, data = ridge
    r = ALG1(obj, data, eps=1.0, delta=1e-5, reps=2, T=10, record=5)
    assert list(r.trajectory["t"]) == [0, 5, 10] and r.trajectory["w"].shape == (2, 3, 3)
    r = ALG2(obj, data, eps=1.0, delta=1e-5, reps=2, rounds=10, record=2,
             fixed_size_check=False)
    assert r.trajectory["w"].shape[:2] == (2, int(r.params["R"].max()) // 2 + 1)


# ------------------------------------------------------------------ families
def _families_for(alg):
    out = []
    for name in O.FAMILIES:
        obj = O.get(name, d=12) if name == "pl-nonconvex" else O.get(name, d=3)
        data = obj.make_data(O.DEFAULT_N[name], 0)
        have = {type(a) for a in obj.assumptions(data)}
        out.append((name, obj, data, all(t in have for t in alg.requires)))
    return out


@pytest.mark.parametrize("alg", ALGORITHMS, ids=lambda a: a.id)
def test_runs_on_every_allowed_family_and_refuses_others(alg):
    ran = 0
    for name, obj, data, ok in _families_for(alg):
        kw = dict(eps=1.0, delta=1e-4, reps=2, seed=0)
        if alg is not ALG1:
            kw["fixed_size_check"] = False
        if alg is BST14:
            kw["T"] = 30
        if ok:
            r = alg(obj, data, **kw)
            assert r.w.shape == (2, data.d) and np.all(np.isfinite(r.w)), name
            assert np.all(np.isfinite(r.metrics["grad_norm_sq"])), name
            ran += 1
        else:
            with pytest.raises(ValueError, match="does not declare"):
                alg(obj, data, **kw)
    assert ran >= (2 if alg is not ALG2 else 6)


def test_refuses_nonconvex_objective(ridge):
    _, data = ridge

    class NotConvex(O.LogisticRidge):
        def assumptions(self, data):
            return tuple(a for a in super().assumptions(data)
                         if not isinstance(a, StronglyConvex))

    obj = NotConvex(d=3)
    for alg in (ALG1, BST14):
        with pytest.raises(ValueError, match="neither Convex nor StronglyConvex"):
            alg(obj, data, eps=1.0, delta=1e-5)


# ------------------------------------------------------------------ bad input
@pytest.mark.parametrize("kw,msg", [
    (dict(reps=0), "reps"), (dict(eps=0.0), "eps"), (dict(eps=-1.0), "eps"),
    (dict(delta=1.0), "delta"), (dict(calibration="loose"), "calibration"),
    (dict(T=0), "T"), (dict(setting="x"), "setting"), (dict(noise_scale=-1.0), "noise_scale"),
    (dict(eta=10.0), "eta"),
])
def test_alg1_bad_input(ridge, kw, msg):
    obj, data = ridge
    args = {"eps": 1.0, "delta": 1e-5, **kw}
    with pytest.raises(ValueError, match=msg):
        ALG1(obj, data, **args)


@pytest.mark.parametrize("alg,kw,msg", [
    (ALG2, dict(delta=0.0), "delta"), (ALG2, dict(rounds=0), "rounds"),
    (ALG2, dict(eta=-0.1), "eta"), (ALG2, dict(eta=1e3), "eta"),
    (ALG2, dict(eta=[0.1, 0.2], rounds=3), "eta"), (ALG2, dict(w0=[0.0]), "w0"),
    (BST14, dict(m=0), "m"), (BST14, dict(m=10 ** 6), "m"), (BST14, dict(radius=0.0), "radius"),
    (BST14, dict(delta=0.0), "delta"),
])
def test_alg2_bst14_bad_input(ridge, alg, kw, msg):
    obj, data = ridge
    args = {"eps": 1.0, "delta": 1e-5, **kw}
    with pytest.raises(ValueError, match=msg):
        alg(obj, data, **args)
