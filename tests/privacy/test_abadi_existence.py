"""zhang2021 Theorems 3.1 / 2.1 (Abadi et al.'s Theorem 1 as quoted): "there exist c1, c2
such that for any eps < c1 q^2 T, pi at eq. (4) gives (eps, delta)-DP" is refuted for every
(c1, c2) by a certified lower bound on delta_actual (bounds/checks/privacy_accounting.py).

Expected values are computed here independently: the certified bound with scipy from its
derivation, and a literal simulation of Algorithm 2 on the instance (the bound on
P_S'(O) must sit below the simulated frequency)."""

from __future__ import annotations

import math

import mpmath as mp
import numpy as np
import pytest
from scipy.stats import norm

from dptheory_bounds.checks import privacy_accounting as pa


def _h_prime(w: np.ndarray) -> np.ndarray:
    """h'(w) of the instance: 1 on |w| <= 1/4, sech^2(2(|w| - 1/4)) outside."""
    u = np.maximum(np.abs(w) - 0.25, 0.0)
    return 1.0 / np.cosh(2 * u) ** 2


def test_instance_loss_is_bounded_lipschitz_smooth():
    w = np.linspace(-20, 20, 400_001)
    u = np.abs(w) - 0.25
    h = np.where(u <= 0, w, np.sign(w) * (0.25 + np.tanh(2 * np.maximum(u, 0)) / 2))
    assert np.max(np.abs(h)) <= 0.75
    hp = _h_prime(w)
    assert np.max(hp) <= 1.0 and np.min(hp) >= 0.0
    hpp = np.abs(np.diff(hp) / np.diff(w))
    assert np.max(hpp) <= 8 / (3 * math.sqrt(3)) + 1e-3        # beta-smooth


def _lb_scipy(q: float, T: int, eps: float, pi: float) -> float:
    s = pi * math.sqrt(T) / (8 * T)
    p_s = norm.cdf(-(1 / 32) / s)
    ex = 4 * norm.cdf(-(1 / 8) / s)
    if q == 1:
        p_sp = (T // 2) / T * (1 - p_s) - ex
    else:
        p_sp = (T // 4) / T * (1 - math.exp(-T / 216) - norm.cdf(-(1 / 96) / s)) - ex
    return p_sp - math.exp(eps + norm.logcdf(-(1 / 32) / s))


@pytest.mark.parametrize("q,c1,c2,delta", [(1, 1.0, 1.0, 1e-5), (0.5, 1.0, 1.0, 0.1),
                                           (0.5, 0.1, 1.0, 1e-5)])
def test_certified_bound_matches_an_independent_evaluation(q, c1, c2, delta):
    for T in (64, 256, 1024, 4096):
        eps = c1 * q * q * T / 2
        pi = c2 * q * math.sqrt(T * math.log(1 / delta)) / eps       # Thm 2.1 / eq. (4), B = 1
        with mp.workdps(40):
            got = pa.abadi_form_lower_bound(mp.mpf(1) if q == 1 else mp.mpf(1) / 2, T,
                                            mp.mpf(eps), mp.mpf(pi))
        want = _lb_scipy(q, T, eps, pi)
        assert float(got) == pytest.approx(want, rel=1e-9, abs=1e-12)


def test_lower_bound_sits_below_a_literal_simulation_of_algorithm_2():
    """(c1, c2) = (1, 1), q = 1/2 (n = 2, B = 1), T = 256, delta = 0.1, eps = c1 q^2 T/2."""
    rng = np.random.default_rng(7)
    T, q, delta, reps = 256, 0.5, 0.1, 4000
    eps = q * q * T / 2
    pi = q * math.sqrt(T * math.log(1 / delta)) / eps
    eta = 1 / (8 * T)
    w = np.zeros(reps)            # S' = (1, 0): record 1 has f = h(w)
    w_s = np.zeros(reps)          # S = (0, 0): zero gradient
    hits, hits_s = np.zeros(reps), np.zeros(reps)
    pick = rng.integers(1, T + 1, size=reps)       # output index, uniform on 1..T (w_1 = w_0)
    for t in range(1, T + 1):
        hits += (pick == t) * (w <= -1 / 32)
        hits_s += (pick == t) * (w_s <= -1 / 32)
        sel = rng.random(reps) < 0.5
        xi = rng.normal(0, pi, reps)
        w = w - eta * (sel * _h_prime(w) + xi)
        w_s = w_s - eta * xi
    p_sp, p_s = hits.mean(), hits_s.mean()
    se = math.sqrt(p_sp * (1 - p_sp) / reps)
    with mp.workdps(40):
        lb = pa.abadi_form_lower_bound(mp.mpf(1) / 2, T, mp.mpf(eps), mp.mpf(pi))
    # the certified bound on P_S'(O) - e^eps P_S(O) is below the simulated P_S'(O) and
    # exceeds delta; P_S(O) is 0 in simulation (its bound is ~ 1e-70)
    assert float(lb) > delta
    assert p_sp >= float(lb) - 4 * se
    assert p_s == 0.0


def test_both_theorems_refuted_for_every_c1_c2_with_one_root():
    rs = [pa._abadi_existence(i) for i in ("zhang2021.thm3.1", "zhang2021.thm2.1")]
    assert all(r.verdict == "refuted" and r.severity == "hypothesis" for r in rs)
    assert rs[0].root == rs[1].root
    ev = rs[0].evidence
    assert not ev["unrefuted_pairs"]
    pairs = {(r["c1"], r["c2"]) for r in ev["rows"] if r["violation"]}
    assert len(pairs) == len(pa.ABADI_C) ** 2
    for r in ev["rows"]:
        v = r["violation"]
        if v:   # hypothesis eps < c1 q^2 T and a real violation
            assert v["eps_over_c1_q2_T"] < 1 and v["delta_actual_lower_bound"] > r["delta"]
    # the explicit T(c1, c2) of the analytic proof gives >= 0.49 at every pair
    assert min(c["delta_actual_lower_bound"] for c in ev["closed_form_q1"]) > 0.49


def test_planted_bounded_eps_variant_is_not_refuted():
    """A true variant (eps <= c1, not growing with T) must flip the verdict: with c2 large
    the noise is large and no admitted violation exists for that pair."""
    r = pa._abadi_existence("zhang2021.thm3.1",
                            eps_of=lambda c1, q, T: min(c1 * q * q * T / 2, c1))
    assert r.verdict == "inconclusive"
    assert [1e-3, 1e3] in r.evidence["unrefuted_pairs"]
