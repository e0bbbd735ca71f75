"""Tests of the zhang2021 simulators (DP-EMSGD, DPageEM and the experiment baselines).

Expected values come from plain per-replicate loops written here, closed forms (eq. (4)
typed from the paper), the accountant called directly, and chi-square tests.
"""

from __future__ import annotations

import math

import numpy as np
import pytest
from scipy import stats

from dptheory.privacy import get_epsilon
from dptheory_simulations.algorithms import base
from dptheory_simulations.algorithms import zhang2021 as z
from dptheory_simulations.algorithms.base import ReplicateStreams
from dptheory_simulations.objectives import DEFAULT_N, FAMILIES, get

EPS, DELTA = 1.0, 1e-5
BY_ID = {a.id: a for a in z.ALGORITHMS}
STAGEWISE = ("zhang2021.alg1", "zhang2021.dpages", "zhang2021.nonpri-sgd-stage")


@pytest.fixture(scope="module")
def pl():
    obj = get("pl-nonconvex", d=12)
    return obj, obj.make_data(8, 0)


def small_params(alg_id: str) -> dict:
    if alg_id in STAGEWISE:
        return {"eta0": 0.02, "T0": 3, "K": 2, "B": 3}
    return {"eta": 0.02, "T": 6, "B": 3}


# ------------------------------------------------------------------ plain reference loops
def plain_stagewise(obj, data, *, seed, reps, eta0, T0, tMon0, K, B, varrho, pi):
    """Algorithm 1 + 2 written per replicate, with the draws in the simulator's order."""
    streams = ReplicateStreams(seed, reps)
    n, d = data.n, obj.d
    W = np.zeros((reps, d))
    for k in range(1, K + 1):
        Tk, tk, eta = T0 * 2**k, tMon0 * 2**k, eta0 / 2**k
        O = 1 + np.minimum((streams.uniform(1)[:, 0] * Tk).astype(int), Tk - 1)
        cur, prev, out = W.copy(), W.copy(), W.copy()
        for t in range(1, Tk + 1):
            idx = streams.subsets(n, B)
            xi = pi * streams.normal(d) if pi > 0 else np.zeros((reps, d))
            new = np.empty_like(cur)
            for r in range(reps):
                g = obj.grad(cur[r], data.X[idx[r]], data.y[idx[r]]).mean(axis=0)
                rho = varrho if t <= tk else 0.0
                new[r] = cur[r] - eta * (g + xi[r]) + rho * (cur[r] - prev[r])
                if O[r] == t:
                    out[r] = new[r]
            prev, cur = cur, new
        W = out
    return W


def plain_single(obj, data, *, seed, reps, eta, T, tMon, B, varrho, pi, last):
    streams = ReplicateStreams(seed, reps)
    n, d = data.n, obj.d
    O = None if last else 1 + np.minimum((streams.uniform(1)[:, 0] * T).astype(int), T - 1)
    cur = np.zeros((reps, d))
    prev, out = cur.copy(), cur.copy()
    for t in range(1, T + 1):
        idx = streams.subsets(n, B)
        xi = pi * streams.normal(d) if pi > 0 else np.zeros((reps, d))
        new = np.empty_like(cur)
        for r in range(reps):
            g = obj.grad(cur[r], data.X[idx[r]], data.y[idx[r]]).mean(axis=0)
            new[r] = cur[r] - eta(t) * (g + xi[r]) + (varrho if t <= tMon else 0.0) * (cur[r] - prev[r])
            if O is not None and O[r] == t:
                out[r] = new[r]
        prev, cur = cur, new
    return cur if last else out


# ------------------------------------------------------------------ exact reductions
@pytest.mark.parametrize("pi", [0.0, 0.7])
def test_dpageem_matches_plain_loop(pl, pi):
    obj, data = pl
    kw = dict(eta0=0.05, T0=3, tMon0=2, K=2, B=3, varrho=0.6)
    r = z.dpageem(obj, data, eps=EPS, delta=DELTA, reps=3, seed=5, pi=pi, c2=1.0, **kw)
    ref = plain_stagewise(obj, data, seed=5, reps=3, pi=pi, **kw)
    np.testing.assert_allclose(r.w, ref, rtol=1e-12, atol=1e-12)


def test_zero_noise_dpages_is_nonprivate_stagewise_sgd(pl):
    obj, data = pl
    kw = dict(eta0=0.05, T0=4, K=2, B=3)
    a = z.dpages(obj, data, eps=EPS, delta=DELTA, reps=4, seed=1, pi=0.0, c2=1.0, **kw)
    b = z.nonprivate_sgd_stage(obj, data, reps=4, seed=1, **kw)
    np.testing.assert_array_equal(a.w, b.w)
    assert math.isinf(b.privacy["tight"]["epsilon"]) and math.isinf(a.privacy["tight"]["epsilon"])


@pytest.mark.parametrize("varrho,tMon", [(0.0, 3), (0.5, 6), (0.5, 2)])
def test_dp_emsgd_matches_plain_loop(pl, varrho, tMon):
    """varrho = 0 is minibatch SGD; tMon = T is heavy ball at every step."""
    obj, data = pl
    r = z.dp_emsgd(obj, data, eps=EPS, delta=DELTA, reps=3, seed=2, eta=0.05, T=6, tMon=tMon,
                   B=3, varrho=varrho, pi=0.3, c2=1.0)
    ref = plain_single(obj, data, seed=2, reps=3, eta=lambda t: 0.05, T=6, tMon=tMon, B=3,
                       varrho=varrho, pi=0.3, last=False)
    np.testing.assert_allclose(r.w, ref, rtol=1e-12, atol=1e-12)


@pytest.mark.parametrize("alg_id,step,tmon,varrho", [
    ("zhang2021.dpsgd-const", lambda t: 0.05, 0, 0.0),
    ("zhang2021.dpsgd-c-t", lambda t: 0.05 / t, 0, 0.0),
    ("zhang2021.dpsgd-c-sqrt-t", lambda t: 0.05 / math.sqrt(t), 0, 0.0),
    ("zhang2021.dpsgdm-const", lambda t: 0.05, 6, 0.5),
    ("zhang2021.dpsgdem-const", lambda t: 0.05, 3, 0.5),
])
def test_baselines_match_plain_loop(pl, alg_id, step, tmon, varrho):
    obj, data = pl
    r = BY_ID[alg_id](obj, data, eps=EPS, delta=DELTA, reps=2, seed=3, eta=0.05, T=6, B=3,
                      varrho=varrho, pi=0.4, c2=1.0)
    ref = plain_single(obj, data, seed=3, reps=2, eta=step, T=6, tMon=tmon, B=3,
                       varrho=varrho, pi=0.4, last=True)
    np.testing.assert_allclose(r.w, ref, rtol=1e-12, atol=1e-12)


def test_momentum_zero_reduces_to_sgd(pl):
    obj, data = pl
    kw = dict(eps=EPS, delta=DELTA, reps=3, seed=4, eta=0.05, T=8, B=3, pi=0.2, c2=1.0)
    sgd = z.dpsgd_const(obj, data, **kw)
    np.testing.assert_array_equal(z.dpsgdm_const(obj, data, varrho=0.0, **kw).w, sgd.w)
    np.testing.assert_array_equal(z.dpsgdem_const(obj, data, varrho=0.0, **kw).w, sgd.w)
    kw2 = dict(eps=EPS, delta=DELTA, reps=3, seed=4, eta0=0.05, T0=3, K=2, B=3, pi=0.2, c2=1.0)
    np.testing.assert_array_equal(z.dpageem(obj, data, varrho=0.0, **kw2).w,
                                  z.dpages(obj, data, **kw2).w)


def test_clip_infinity_is_unclipped_and_clip_sets_sensitivity(pl):
    obj, data = pl
    kw = dict(eps=EPS, delta=DELTA, reps=2, seed=6, eta=0.05, T=5, B=3, c2=1.0)
    a = z.dpsgd_const(obj, data, **kw)
    b = z.dpsgd_const(obj, data, clip=math.inf, **kw)
    np.testing.assert_array_equal(a.w, b.w)
    assert a.noise["pi"] == b.noise["pi"]
    c = z.dpsgd_const(obj, data, clip=0.5, **kw)
    assert c.params["L"] == 0.5
    assert c.noise["pi"] == pytest.approx(a.noise["pi"] * 0.5 / a.params["L"], rel=1e-12)


# ------------------------------------------------------------------ noise calibration
def test_injected_noise_has_calibrated_variance(pl):
    """One step: the output minus its zero-noise twin is -eta xi, xi ~ N(0, pi^2 I)."""
    obj, data = pl
    n, d, eta, c2, reps = data.n, obj.d, 0.1, 1.0, 200
    kw = dict(eps=EPS, delta=DELTA, reps=reps, seed=11, eta=eta, T=1, B=3, tMon=0)
    noisy = z.dp_emsgd(obj, data, c2=c2, **kw)
    twin = z.dp_emsgd(obj, data, pi=0.0, c2=1.0, **kw)
    L = noisy.params["L"]
    pi_expected = c2 * L * math.sqrt(1 * math.log(1 / DELTA)) / (n * EPS)   # eq. (4), T = 1
    assert noisy.noise["pi"] == pytest.approx(pi_expected, rel=1e-12)
    xi = (twin.w - noisy.w) / eta
    ss = float(np.sum(xi**2)) / pi_expected**2
    dof = reps * d
    p = stats.chi2.cdf(ss, dof)
    assert 0.001 < p < 0.999, (ss, dof)
    assert abs(float(xi.mean())) < 4 * pi_expected / math.sqrt(dof)


def test_dpageem_paper_noise_is_eq4_from_catalog(pl):
    obj, data = pl
    n, T0, K, c2 = data.n, 3, 2, 1.0
    r = z.dpageem(obj, data, eps=EPS, delta=DELTA, eta0=0.01, T0=T0, K=K, B=3, c2=c2)
    L = r.params["L"]
    total = sum(T0 * 2**k for k in range(1, K + 1))
    assert r.params["total_steps"] == total == 2 * T0 * (2**K - 1)
    pi2 = c2**2 * total * L**2 * math.log(1 / DELTA) / (n**2 * EPS**2)    # eq. (4) typed here
    assert r.noise["pi"] == pytest.approx(math.sqrt(pi2), rel=1e-12)
    assert r.privacy["paper"]["epsilon"] == pytest.approx(EPS, rel=1e-12)
    # the tight accountant called directly on the noise actually used
    expect = get_epsilon(noise_multiplier=r.noise["pi"] * 3 / (2 * L), target_delta=DELTA,
                         sample_rate=3 / n, steps=total, sampling="fixed-size")
    assert r.privacy["tight"]["epsilon"] == pytest.approx(expect, rel=1e-12)
    assert r.grad_evals == 3 * total
    assert r.params["eta_k"] == [0.01 / 2, 0.01 / 4] and r.params["T_k"] == [6, 12]


def test_tight_calibration_and_default_c2(pl):
    obj, data = pl
    kw = dict(eps=EPS, delta=DELTA, eta=0.01, T=20, B=3)
    tight = z.dpsgd_const(obj, data, calibration="tight", **kw)
    assert tight.privacy["tight"]["epsilon"] <= EPS
    assert tight.privacy["tight"]["epsilon"] > EPS * (1 - 1e-3)
    # default c2 = smallest c2 making eq. (4) private by the tight accountant: same noise
    paper = z.dpsgd_const(obj, data, **kw)
    assert paper.noise["pi"] == pytest.approx(tight.noise["pi"], rel=1e-9)
    assert paper.privacy["paper"]["epsilon"] == pytest.approx(EPS)
    assert paper.params["c2"] == pytest.approx(tight.noise["pi"] / paper.params["pi_eq4_c2_1"])
    # with a fixed c2 the paper route claims eps; the accountant reports what the noise buys
    fixed = z.dpsgd_const(obj, data, c2=1.0, **kw)
    assert fixed.privacy["paper"]["epsilon"] == pytest.approx(EPS)
    assert (fixed.privacy["tight"]["epsilon"] > EPS) == (paper.params["c2"] > 1.0)
    # tight calibration with c2 = 1: paper route eps for that noise, inverted eq. (4)
    t1 = z.dpsgd_const(obj, data, calibration="tight", c2=1.0, **kw)
    assert t1.privacy["paper"]["epsilon"] == pytest.approx(
        1.0 * t1.params["pi_eq4_c2_1"] * EPS / t1.noise["pi"])


def test_theorem_defaults_satisfy_thm32(pl):
    obj, data = pl
    dflt = z.theorem_defaults(obj, data, eps=EPS, delta=DELTA, varrho=0.5, c4=1.0)
    th, mu, beta = dflt["theta"], dflt["mu"], dflt["beta"]
    X = (dflt["T0"] - dflt["tMon0"]) + dflt["tMon0"] / (2 * (1 - 0.5))
    assert dflt["eta0"] * X == pytest.approx(1 / (th * mu), rel=1e-12)
    assert dflt["eta0"] <= th * (1 - 0.5) ** 2 / (2 * beta)
    assert dflt["K"] >= 1 and 1 <= dflt["B"] <= data.n


# ------------------------------------------------------------------ sampling and output
class _Spy:
    """Delegating objective that records the minibatches."""

    def __init__(self, obj):
        self._obj, self.batches = obj, []

    def __getattr__(self, name):
        return getattr(self._obj, name)

    def batch_grad(self, W, data, idx):
        self.batches.append(np.array(idx))
        return self._obj.batch_grad(W, data, idx)

    def batch_grad_mean(self, W, data, idx):
        self.batches.append(np.array(idx))
        return self._obj.batch_grad_mean(W, data, idx)


def test_minibatches_uniform_without_replacement(pl):
    obj, data = pl
    spy = _Spy(obj)
    n, B, T, reps = data.n, 3, 50, 20
    z.dpsgd_const(spy, data, eps=EPS, delta=DELTA, reps=reps, eta=1e-3, T=T, B=B, pi=0.0,
                  c2=1.0)
    idx = np.stack(spy.batches)                       # (T, reps, B)
    assert all(len(set(row)) == B for row in idx.reshape(-1, B).tolist())
    counts = np.bincount(idx.ravel(), minlength=n)
    draws = T * reps
    assert stats.chisquare(counts, np.full(n, draws * B / n)).pvalue > 1e-3


def test_output_is_uniform_iterate(pl):
    obj, data = pl
    T, reps = 4, 200
    r = z.dp_emsgd(obj, data, eps=EPS, delta=DELTA, reps=reps, eta=0.05, T=T, B=3, pi=0.5,
                   c2=1.0, record=1)
    traj = r.trajectory["w"]                          # (reps, T, d)
    match = np.all(np.isclose(traj, r.w[:, None, :], rtol=0, atol=0), axis=2)
    assert np.all(match.sum(axis=1) >= 1)
    which = match.argmax(axis=1)
    counts = np.bincount(which, minlength=T)
    assert stats.chisquare(counts).pvalue > 1e-3


# ------------------------------------------------------------------ reproducibility
@pytest.mark.parametrize("alg_id", ["zhang2021.alg1", "zhang2021.alg2", "zhang2021.dpsgd-c-t"])
def test_reproducible_and_batching_invariant(pl, alg_id):
    obj, data = pl
    kw = dict(eps=EPS, delta=DELTA, seed=9, c2=1.0, **small_params(alg_id))
    alg = BY_ID[alg_id]
    a = alg(obj, data, reps=6, **kw)
    np.testing.assert_array_equal(a.w, alg(obj, data, reps=6, **kw).w)
    b = alg(obj, data, reps=3, **kw)
    c = alg(obj, data, reps=3, first_replicate=3, **kw)
    np.testing.assert_array_equal(a.w, np.concatenate([b.w, c.w]))
    assert not np.array_equal(b.w, c.w)


def test_record_and_result_fields(pl):
    obj, data = pl
    r = z.dpageem(obj, data, eps=EPS, delta=DELTA, reps=2, record=2, c2=1.0,
                  **small_params("zhang2021.alg1"))
    assert r.w.shape == (2, obj.d)
    assert r.trajectory["w"].shape == (2, (6 + 12) // 2, obj.d)
    for key in ("excess_risk", "grad_norm", "grad_norm_sq", "left_domain"):
        assert r.metrics[key].shape == (2,)
    assert set(r.privacy) == {"paper", "tight"}
    assert r.wall_time > 0 and r.algorithm == "zhang2021.alg1"
    r.summary()


# ------------------------------------------------------------------ families
def _families_for(alg):
    out = []
    for name in FAMILIES:
        obj = get(name, d=12) if name == "pl-nonconvex" else get(name, d=3)
        data = obj.make_data(DEFAULT_N[name], 0)
        have = {type(a) for a in obj.assumptions(data)}
        out.append((obj, data, all(t in have for t in alg.requires)))
    return out


@pytest.mark.parametrize("alg_id", sorted(BY_ID))
def test_runs_on_every_allowed_family_and_refuses_others(alg_id):
    alg = BY_ID[alg_id]
    ran = 0
    for obj, data, ok in _families_for(alg):
        kw = dict(eps=10.0, delta=DELTA, reps=2, c2=1.0, **small_params(alg_id))
        if not alg.private:
            kw.pop("c2")
        if ok:
            r = alg(obj, data, **kw)
            assert np.all(np.isfinite(r.metrics["excess_risk"])), obj.name
            ran += 1
        else:
            with pytest.raises(ValueError, match="does not declare"):
                alg(obj, data, **kw)
    assert ran >= 1


def test_theorem_needs_pl_wqc():
    obj = get("sigmoid-l2", d=3)
    data = obj.make_data(10, 0)
    with pytest.raises(ValueError, match="PL.*WeaklyQuasiConvex.*zhang2021.thm3.2"):
        BY_ID["zhang2021.alg1"](obj, data, eps=EPS, delta=DELTA)
    with pytest.raises(ValueError, match="declares no constant"):     # defaults need mu, theta
        z.dpsgd_const(obj, data, eps=EPS, delta=DELTA)


# ------------------------------------------------------------------ bad input
@pytest.mark.parametrize("kw,match", [
    ({"reps": 0}, "reps must be"),
    ({"eps": 0.0}, "eps must be > 0"),
    ({"eps": -1.0}, "eps must be > 0"),
    ({"delta": 1.5}, "delta must be in"),
    ({"calibration": "loose"}, "calibration must be"),
    ({"B": 0}, "B must be"),
    ({"B": 99}, "B must be"),
    ({"T0": 0}, "T0 must be"),
    ({"K": 0}, "K must be"),
    ({"tMon0": 9}, "tMon0 must be"),
    ({"varrho": 1.0}, "varrho must be"),
    ({"c4": 2.0}, "c4 must be"),
    ({"eta0": -0.1}, "eta0 must be"),
    ({"c2": 0.0}, "c2 must be"),
    ({"pi": -1.0}, "pi must be"),
    ({"clip": -1.0}, "clip must be"),
    ({"w0": np.zeros(3)}, "w0 must have shape"),
    ({"record": 0}, "record must be"),
])
def test_bad_input(pl, kw, match):
    obj, data = pl
    args = dict(eps=EPS, delta=DELTA, eta0=0.01, T0=3, K=1, B=3, c2=1.0)
    args.update(kw)
    with pytest.raises(ValueError, match=match):
        z.dpageem(obj, data, **args)


@pytest.mark.filterwarnings("error::RuntimeWarning")      # divergence: one error, no overflow noise
def test_bad_input_single_stage(pl):
    obj, data = pl
    args = dict(eps=EPS, delta=DELTA, eta=0.01, T=3, B=3, c2=1.0)
    with pytest.raises(ValueError, match="tMon must be"):
        z.dp_emsgd(obj, data, tMon=4, **args)
    with pytest.raises(ValueError, match="T must be"):
        z.dp_emsgd(obj, data, **{**args, "T": 0})
    with pytest.raises(ValueError, match="tMon must be 0"):
        z.dpsgd_const(obj, data, tMon=2, **args)
    with pytest.raises(ValueError, match="tMon must be T"):
        z.dpsgdm_const(obj, data, tMon=1, **args)
    with pytest.raises(ValueError, match="diverged"):
        z.dpsgd_const(obj, data, **{**args, "eta": 1e200, "T": 5})


def test_registry():
    ids = {a.id for a in z.ALGORITHMS}
    assert {"zhang2021.alg1", "zhang2021.alg2", "zhang2021.dpages", "zhang2021.dpsgd-const",
            "zhang2021.dpsgd-c-t", "zhang2021.dpsgd-c-sqrt-t", "zhang2021.dpsgdm-const",
            "zhang2021.dpsgdem-const", "zhang2021.nonpri-sgd-stage"} == ids
    assert BY_ID["zhang2021.alg1"].theorem == "zhang2021.thm3.2"
    assert not BY_ID["zhang2021.nonpri-sgd-stage"].private
    assert all(isinstance(a, base.Algorithm) for a in z.ALGORITHMS)
