"""Tests of the tran2022 simulators (Algorithm 1: tree-aggregated DP-NSGD; Algorithm 2:
sensitivity-reduced NSGD with the reconstruction of ``tran2022.alg4``).

Expected values come from plain loops written here, brute-force enumerations of the datum's
positions, ``dptheory.privacy.tree`` reference functions, and chi-square tests of the
injected noise on an objective with zero gradients (so m_hat_t is pure noise).
"""

from __future__ import annotations

import itertools
import math

import numpy as np
import pytest
from scipy import stats

from dptheory.privacy.tree import (OnlineTreeAggregator, compose, node_sensitivity_exact,
                                   offline_tree_noise, participation_count_bruteforce,
                                   participation_count_V)
from dptheory.symbolic.assumptions import BoundedGradient, BoundedLoss, Smooth
from dptheory_simulations.algorithms import get as get_algorithm
from dptheory_simulations.algorithms.base import ReplicateStreams
from dptheory_simulations.algorithms.tran2022 import (ALGORITHMS, KeyedNormals, alg1_sensitivity_sq,
                                             max_nodes_hit, max_weight_sum, run_alg1, run_alg2)
from dptheory_simulations.objectives import DEFAULT_N, FAMILIES, get
from dptheory_simulations.objectives.base import Dataset, Minimum, Objective

EPS, DELTA = 1.0, 1e-5
IDS = ["tran2022.alg1", "tran2022.alg2"]


@pytest.fixture(scope="module")
def rr():
    obj = get("robust-regression", d=3, noise=0.2)
    return obj, obj.make_data(8, 2)


class ZeroGrad(Objective):
    """f = 0: gradients vanish, so Algorithm 1/2's m_hat_t is the injected noise alone."""

    name = "zero"

    def _loss(self, W, X, y):
        return np.zeros((W.shape[0], X.shape[0]))

    def _grad(self, W, X, y):
        return np.zeros((W.shape[0], X.shape[0], self.d))

    def make_data(self, n, rng=None):
        g = np.random.default_rng(rng)
        return Dataset(g.standard_normal((n, self.d)), g.standard_normal(n))

    def assumptions(self, data):
        return (BoundedGradient(1.0), Smooth(1.0), BoundedLoss(1.0))

    def minimum(self, data):
        return Minimum(0.0, True, 0.0, np.zeros(self.d))


def _unit(v):
    n = np.linalg.norm(v, axis=1, keepdims=True)
    return np.divide(v, n, out=np.zeros_like(v), where=n > 0)


def _plain_nsgdm(obj, data, *, T, eta, alpha, seed, reps, once=False):
    """Normalized SGD with momentum, random reshuffling, same stream order as the simulators."""
    N = data.n
    s = ReplicateStreams(seed, reps)
    s.uniform(2)                                     # node keys
    tau = 1 + np.minimum((s.uniform(1)[:, 0] * T).astype(int), T - 1)
    W = np.zeros((reps, obj.d))
    m = np.zeros_like(W)
    ws, perm0 = [], None
    for q in range(T // N + 1):
        perm = s.permutations(N)
        perm0 = perm if perm0 is None else perm0
        if once:
            perm = perm0
        for i in range(1, min(N, T - q * N) + 1):
            ws.append(W.copy())
            g = np.stack([obj.grad(W[k], data.X[perm[k, i - 1]][None], data.y[perm[k, i - 1]][None])[0]
                          for k in range(reps)])
            m = (1 - alpha) * m + alpha * g
            W = W - eta * _unit(m)
    ws = np.stack(ws, axis=1)
    return ws, ws[np.arange(reps), tau - 1]


# ---------------------------------------------------------------------------- reductions
def test_alg1_zero_noise_is_normalized_sgd_with_momentum(rr):
    obj, data = rr
    res = run_alg1(obj, data, eps=EPS, delta=DELTA, reps=3, seed=4, T=21, eta=0.1, alpha=0.3,
                   sigma=0, record=1)
    ws, out = _plain_nsgdm(obj, data, T=21, eta=0.1, alpha=0.3, seed=4, reps=3)
    np.testing.assert_allclose(res.trajectory["w"], ws, atol=1e-12)
    np.testing.assert_allclose(res.w, out, atol=1e-12)
    assert res.privacy["tight"]["epsilon"] == math.inf and res.grad_evals == 21


def test_alg1_alpha1_is_normalized_sgd(rr):
    obj, data = rr
    res = run_alg1(obj, data, eps=EPS, delta=DELTA, reps=2, seed=1, T=12, eta=0.05, alpha=1.0,
                   sigma=0, record=1)
    ws, _ = _plain_nsgdm(obj, data, T=12, eta=0.05, alpha=1.0, seed=1, reps=2)
    np.testing.assert_allclose(res.trajectory["w"], ws, atol=1e-12)
    steps = np.linalg.norm(np.diff(res.trajectory["w"], axis=1), axis=2)
    np.testing.assert_allclose(steps, 0.05, rtol=1e-9)          # normalized step length eta


@pytest.mark.parametrize("gamma, once", [(1.0, False), (0.3, True)])
def test_alg2_zero_noise_exact_recombination(rr, gamma, once):
    """gamma = 1, or one shuffle reused (eq3.corrected): RECONSTRUCT(t) = m_t exactly."""
    obj, data = rr
    res = run_alg2(obj, data, eps=EPS, delta=DELTA, reps=2, seed=5, T=30, eta=0.05, alpha=0.2,
                   gamma=gamma, sigma=0, record=1, shuffle="once" if once else "epoch")
    ws, out = _plain_nsgdm(obj, data, T=30, eta=0.05, alpha=0.2, seed=5, reps=2, once=once)
    np.testing.assert_allclose(res.trajectory["w"], ws, atol=1e-9)
    np.testing.assert_allclose(res.w, out, atol=1e-9)


def test_alg2_zero_noise_fresh_permutations_breaks_eq3(rr):
    """Finding tran2022.eq3: with fresh permutations and gamma < 1, m_hat != m after 2N steps."""
    obj, data = rr
    N = data.n
    res = run_alg2(obj, data, eps=EPS, delta=DELTA, reps=2, seed=5, T=4 * N, eta=0.05,
                   alpha=0.2, gamma=0.3, sigma=0, record=1)
    ws, _ = _plain_nsgdm(obj, data, T=4 * N, eta=0.05, alpha=0.2, seed=5, reps=2)
    w = res.trajectory["w"]
    np.testing.assert_allclose(w[:, :2 * N + 1], ws[:, :2 * N + 1], atol=1e-9)   # q <= 1 exact
    assert np.max(np.abs(w[:, -1] - ws[:, -1])) > 1e-6


def test_alg2_counts_three_gradients_per_step(rr):
    obj, data = rr
    res = run_alg2(obj, data, eps=EPS, delta=DELTA, reps=1, T=20, sigma=0)
    assert res.grad_evals == 3 * 20 - data.n          # no u_{q-1} in epoch 0


# ---------------------------------------------------------------------------- noise
def _chi2_ok(x, var):
    """Two-sided chi-square test that the entries of x are N(0, var)."""
    stat = float(np.sum(x**2) / var)
    p = stats.chi2.cdf(stat, x.size)
    return 1e-4 < p < 1 - 1e-4, p


def test_alg1_noise_has_calibrated_variance():
    obj = ZeroGrad(2)
    data = obj.make_data(4, 0)
    res = run_alg1(obj, data, eps=EPS, delta=DELTA, reps=300, seed=7, T=8, alpha=0.25, record=1)
    s = res.noise["node_std"]
    assert s == pytest.approx(4 * 0.25 * 1.0 * res.params["sigma"] * math.sqrt(res.params["V"]))
    for t in range(1, 9):
        var = s**2 * sum(0.75 ** (2 * (t - z)) for _, z in compose(1, t))
        ok, p = _chi2_ok(res.trajectory["m_hat"][:, t - 1], var)
        assert ok, (t, p)


def _alg2_noise_var(t, N, alpha, gamma, sd):
    """E||m_hat_t - m_t||^2 / d under the reconstruction (lemma7.var), built from COMPOSE."""
    beta = 1 - alpha

    def s2(X, y, z):
        if X == "G":
            return sd["std_G_le2N"] ** 2 if z <= 2 * N else sd["std_G_gt2N"] ** 2
        return sd["std_Delta"] ** 2

    def win(X, a, b):
        return sum(beta ** (2 * (b - z)) * s2(X, y, z) for y, z in compose(a, b))

    q, r = (t - 1) // N, t - (t - 1) // N * N
    v = sum(beta ** (2 * (t - z)) for _, z in compose(1, t)) * sd["std_r"] ** 2
    if q == 0:
        return alpha**2 * (v + win("G", 1, t))
    # coefficient of a window estimate in G_hat: push a unit through alg4's backward
    # recursion G~_q = E_q; G~_k = (1-gamma)(G~_{k+1} + D_k) + gamma E_k; acc = sum beta^{(k-1)N} G~_k
    def acc_coef(kind, i):
        Gt = {q: 1.0 if (kind == "G" and i == q) else 0.0}
        total = beta ** ((q - 1) * N) * Gt[q]
        for k in range(q - 1, 0, -1):
            Gt[k] = (1 - gamma) * (Gt[k + 1] + (1.0 if kind == "D" and i == k else 0.0)) \
                + gamma * (1.0 if kind == "G" and i == k else 0.0)
            total += beta ** ((k - 1) * N) * Gt[k]
        return total
    v += beta ** (2 * (t - r)) * win("G", 1, r)
    for i in range(1, q + 1):
        a, b = t - i * N + 1, t - (i - 1) * N
        v += acc_coef("G", i) ** 2 * win("G", a, b)
        if i < q:
            v += acc_coef("D", i) ** 2 * win("D", a, b)
    return alpha**2 * v


def test_alg2_noise_has_reconstructed_variance():
    obj = ZeroGrad(2)
    data = obj.make_data(4, 0)
    N, alpha, gamma = 4, 0.25, 0.4
    res = run_alg2(obj, data, eps=EPS, delta=DELTA, reps=300, seed=8, T=16, alpha=alpha,
                   gamma=gamma, eta=0.1, record=1)
    for t in range(1, 17):
        var = _alg2_noise_var(t, N, alpha, gamma, res.noise)
        ok, p = _chi2_ok(res.trajectory["m_hat"][:, t - 1], var)
        assert ok, (t, p)


def test_keyed_normals_online_equals_offline():
    keys = (ReplicateStreams(3, 2).uniform(2) * 2**52).astype(np.uint64)
    kn = KeyedNormals(keys, 3, family=0, chunk=4)
    agg = OnlineTreeAggregator(3, 37, 0.3, 1.0, None, 2, node_noise=kn, incremental=False)
    online = np.stack([agg.step() for _ in range(37)])
    kn2 = KeyedNormals(keys, 3, family=0, chunk=4)
    np.testing.assert_array_equal(online, offline_tree_noise(37, 3, 0.3, kn2, reps=2))
    assert agg.peak_live <= 37 .bit_length()
    np.testing.assert_array_equal(kn2.level(1, 9)[5], kn2(1, 5))



def test_keyed_normals_bounded_by_T_draw_the_same_values():
    """With T given, the last chunk of a stream stops at the level's last node; every node
    is still the same block of its stream's normals (drawn directly from the stream here)."""
    keys = (ReplicateStreams(5, 3).uniform(2) * 2**52).astype(np.uint64)
    T, d = 37, 2
    bounded, free = KeyedNormals(keys, d, family=1, chunk=4, T=T), KeyedNormals(keys, d, family=1, chunk=4)
    for b in range(T.bit_length()):
        for a in range(T >> b):
            np.testing.assert_array_equal(bounded(b, a), free(b, a))
    # node (level 2, index 7) is block 3 of the odd stream of level 2
    direct = [np.random.Generator(np.random.PCG64(np.random.SeedSequence(
        [int(v) for v in k], spawn_key=(1, 2, 1)))).standard_normal((4, d))[3] for k in keys]
    np.testing.assert_array_equal(bounded(2, 7), np.stack(direct))
    with pytest.raises(ValueError, match="node index"):
        bounded(2, T >> 2)
    scaled = KeyedNormals(keys, d, family=1, chunk=4, T=T, scale=0.3)
    np.testing.assert_array_equal(scaled(3, 2), 0.3 * free(3, 2))
    np.testing.assert_array_equal(scaled.level(1, 9)[5], 0.3 * free(1, 5))

# ---------------------------------------------------------------------------- accounting
@pytest.mark.parametrize("N, T, R", [(3, 8, 3), (4, 12, 3), (5, 11, 4), (2, 9, 4)])
def test_sensitivity_bound_dominates_bruteforce(N, T, R):
    alpha, G = 1.0 / N, 1.3
    beta = 1 - alpha
    # exact max over one position per epoch (or none in a final partial epoch)
    opts = []
    for q in range(-(-T // N)):
        used = min(N, T - q * N)
        opts.append([q * N + i for i in range(1, used + 1)] + ([0] if used < N else []))
    nodes = [(a * 2**b + 1, (a + 1) * 2**b) for b in range(min(R, T.bit_length()))
             for a in range(T // 2**b)]
    best = 0.0
    for pos in itertools.product(*opts):
        tot = sum((2 * alpha * G * sum(beta ** (z - p) for p in pos if y <= p <= z)) ** 2
                  for y, z in nodes)
        best = max(best, tot)
    bound = alg1_sensitivity_sq(N, T, R, alpha, G)
    assert bound >= best * (1 - 1e-12)
    assert bound <= 4 * best                                  # not absurdly loose
    hits = sum(max_nodes_hit(N, T, b, 0, (T >> b) - 1) for b in range(min(R, T.bit_length())))
    assert hits >= participation_count_bruteforce(N, T, R)
    for y, z in nodes:
        assert 2 * alpha * G * max_weight_sum(y, z, N, beta) == pytest.approx(
            node_sensitivity_exact(y, z, N, alpha, G))


def test_alg1_catalog_V_and_tight_calibration(rr):
    obj, data = rr
    res = run_alg1(obj, data, eps=EPS, delta=DELTA, T=40, alpha=0.2)
    p = res.params
    assert p["V"] == pytest.approx(participation_count_V(data.n, 40, p["depth"]))
    assert p["sigma"] == pytest.approx(2 * math.sqrt(math.log(1 / DELTA)) / EPS)
    assert res.privacy["paper"]["epsilon"] == EPS
    tight = run_alg1(obj, data, eps=EPS, delta=DELTA, T=40, alpha=0.2, calibration="tight")
    assert 0.99 * EPS <= tight.privacy["tight"]["epsilon"] <= EPS
    assert tight.noise["node_std"] < res.noise["node_std"]


def test_alg2_tight_calibration(rr):
    obj, data = rr
    res = run_alg2(obj, data, eps=EPS, delta=DELTA, T=30, calibration="tight")
    assert 0.99 * EPS <= res.privacy["tight"]["epsilon"] <= EPS
    paper = run_alg2(obj, data, eps=EPS, delta=DELTA, T=30)
    assert paper.params["sigma"] == pytest.approx(4 * math.sqrt(math.log(1 / DELTA)) / EPS)
    r = paper.noise["std_r"] / paper.noise["std_G_gt2N"]
    assert r == pytest.approx(2 * paper.params["eta"] * data.n / (4 * paper.params["G"]))


def test_default_settings(rr):
    obj, data = rr
    N = data.n
    r1 = run_alg1(obj, data, eps=EPS, delta=DELTA)
    T = r1.params["T"]
    assert r1.params["alpha"] >= 1 / N - 1e-12
    assert r1.params["eta"] == pytest.approx(1 / math.sqrt(N * T))
    r2 = run_alg2(obj, data, eps=0.5, delta=DELTA)
    T2 = r2.params["T"]
    assert T2 == math.floor(N ** (7 / 3) * 0.5 ** (4 / 3) / obj.d ** (2 / 3))
    assert r2.params["gamma"] == pytest.approx(r2.params["eta"] * N)
    assert 1 / N <= r2.params["alpha"] <= 1.05 / N            # floor(T) keeps alpha >= 1/N


# ---------------------------------------------------------------------------- reproducibility
@pytest.mark.parametrize("run", [run_alg1, run_alg2])
def test_reproducible_and_batching_invariant(rr, run):
    obj, data = rr
    kw = dict(eps=EPS, delta=DELTA, seed=11, T=20)
    a = run(obj, data, reps=6, **kw)
    b = run(obj, data, reps=6, **kw)
    np.testing.assert_array_equal(a.w, b.w)
    lo = run(obj, data, reps=3, **kw)
    hi = run(obj, data, reps=3, first_replicate=3, **kw)
    np.testing.assert_array_equal(a.w, np.concatenate([lo.w, hi.w]))
    assert not np.array_equal(lo.w, hi.w)


# ---------------------------------------------------------------------------- families, errors
def _allowed(alg):
    out = []
    for name in FAMILIES:
        obj = get(name, d=3)
        data = obj.make_data(min(DEFAULT_N[name], 3) if name == "pl-nonconvex" else 8, 0)
        have = {type(a) for a in obj.assumptions(data)}
        out.append((name, obj, data, all(t in have for t in alg.requires)))
    return out


@pytest.mark.parametrize("alg_id", IDS)
def test_every_allowed_family_runs_and_others_refused(alg_id):
    alg = get_algorithm(alg_id)
    fams = _allowed(alg)
    assert any(ok for *_, ok in fams)
    for name, obj, data, ok in fams:
        if ok:
            res = alg(obj, data, eps=EPS, delta=DELTA, reps=2, T=12)
            assert res.w.shape == (2, 3) and np.all(np.isfinite(res.metrics["grad_norm"]))
        else:
            with pytest.raises(ValueError, match="does not declare"):
                alg(obj, data, eps=EPS, delta=DELTA, T=12)


def test_registry():
    assert [a.id for a in ALGORITHMS] == IDS
    assert ALGORITHMS[0].theorem == "tran2022.thm6" and ALGORITHMS[1].privacy_theorem == "tran2022.thm8"


@pytest.mark.parametrize("run", [run_alg1, run_alg2])
@pytest.mark.parametrize("kw, match", [
    (dict(reps=0), "reps"), (dict(eps=0.0), "eps"), (dict(delta=1.0), "delta"),
    (dict(calibration="exact"), "calibration"), (dict(T=0), "T"), (dict(alpha=1.5), "alpha"),
    (dict(eta=-1.0), "eta"), (dict(sigma=-1.0), "sigma"), (dict(w1=[0.0]), "w1"),
])
def test_bad_input(rr, run, kw, match):
    obj, data = rr
    args = dict(eps=EPS, delta=DELTA, T=10) | kw
    with pytest.raises(ValueError, match=match):
        run(obj, data, **args)


def test_bad_input_alg_specific(rr):
    obj, data = rr
    with pytest.raises(ValueError, match="gamma"):
        run_alg2(obj, data, eps=EPS, delta=DELTA, T=10, gamma=1.5)
    with pytest.raises(ValueError, match="delta_r"):
        run_alg2(obj, data, eps=EPS, delta=DELTA, T=10, delta_r="x")
    with pytest.raises(ValueError, match="depth"):
        run_alg1(obj, data, eps=EPS, delta=DELTA, T=10, depth=0)


# ---------------------------------------------------------------------------- output average
def _class_values(norms: np.ndarray, s: int) -> np.ndarray:
    """(reps, s): the systematic-sample estimate (s/T) sum_{t = o, o+s, ..} ||grad F(w_t)||
    for each start o = 1..s, from the per-step norms (reps, T) (t = 1..T)."""
    T = norms.shape[1]
    return np.stack([norms[:, o - 1::s].sum(axis=1) * s / T for o in range(1, s + 1)], axis=1)


def test_alg1_sampled_output_average_is_one_start_of_the_exact_sum(rr):
    # The sampled average must (a) leave the trajectory alone, (b) equal, per replicate, the
    # Horvitz-Thompson sum over one residue class of the steps, whose mean over the s starts is
    # the exact (1/T) sum_t ||grad F(w_t)|| (each t lies in exactly one class).
    obj, data = rr
    kw = dict(eps=EPS, delta=DELTA, reps=40, seed=11, T=61, eta=0.05, alpha=0.3, record=1, average=True)
    exact = run_alg1(obj, data, **kw)
    sampled = run_alg1(obj, data, **kw, average_samples=8)          # stride 61 // 8 = 7
    np.testing.assert_array_equal(sampled.trajectory["w"], exact.trajectory["w"])
    np.testing.assert_array_equal(sampled.w, exact.w)
    ws = exact.trajectory["w"]                                        # (reps, T, d): w_1..w_T
    norms = np.stack([obj.grad_norm(ws[:, t], data) for t in range(ws.shape[1])], axis=1)
    # the same T = 61 positive norms summed in another order: rounding <= T eps = 1.4e-14
    np.testing.assert_allclose(exact.metrics["grad_norm_avg"], norms.mean(axis=1), rtol=1e-13)
    vals = _class_values(norms, 7)
    np.testing.assert_allclose(vals.mean(axis=1), norms.mean(axis=1), rtol=1e-13)
    est = sampled.metrics["grad_norm_avg"]
    # norms recomputed from the recorded path and summed in another order: ulps, not 1e-10;
    # distinct classes differ by far more, so exactly one class matches
    hit = np.isclose(vals, est[:, None], rtol=1e-13, atol=0)
    assert np.all(hit.sum(axis=1) == 1), "an estimate is not exactly one residue class's sum"
    assert not np.allclose(est, exact.metrics["grad_norm_avg"])      # it did sample
    assert "systematic sample" in sampled.params["grad_norm_avg"]


def test_alg1_sampled_output_average_starts_are_uniform(rr):
    # Unbiasedness needs the start o uniform on 1..s: count which residue class each of 350
    # replicates' estimate is (the class sums are computed from the recorded path); a
    # chi-square test at level 1e-3 rejects a start that is not uniform (e.g. always 1:
    # every count on one class).
    obj, data = rr
    kw = dict(eps=EPS, delta=DELTA, reps=350, seed=3, T=35, eta=0.05, alpha=0.3, record=1,
              average=True, average_samples=5)                        # stride 7
    res = run_alg1(obj, data, **kw)
    ws = res.trajectory["w"]
    norms = np.stack([obj.grad_norm(ws[:, t], data) for t in range(ws.shape[1])], axis=1)
    vals = _class_values(norms, 7)
    cls = np.argmin(np.abs(vals - res.metrics["grad_norm_avg"][:, None]), axis=1)
    counts = np.bincount(cls, minlength=7)
    assert stats.chisquare(counts).pvalue > 1e-3, counts


def test_alg1_average_samples_must_be_positive(rr):
    obj, data = rr
    with pytest.raises(ValueError, match="average_samples"):
        run_alg1(obj, data, eps=EPS, delta=DELTA, T=10, average=True, average_samples=0)
