"""Both ends of one discretised PLD (dptheory.privacy.pld) against independent references.

References: the exact Gaussian privacy curve solved in mpmath at 50 digits (Balle & Wang
2018, Thm 8; T Gaussian steps are one Gaussian of multiplier sigma / sqrt(T)); Google's
dp-accounting PLDs at finer grids (its pessimistic PLD is an upper bound, its optimistic
privacy-buckets PLD a lower bound on the true epsilon); the convex order, which every
contraction must respect (checked by brute force on random atoms).
"""

from __future__ import annotations

import math

import mpmath as mp
import numpy as np
import pytest

from dptheory.privacy import GaussianEvent, SampledEvent, SelfComposedEvent, pld
from dptheory.privacy.tight import epsilon_interval


def exact_gaussian_eps(sigma: float, delta: float) -> mp.mpf:
    """Root of Phi(1/(2s) - e s) - e^e Phi(-1/(2s) - e s) = delta at 50 digits."""
    with mp.workdps(50):
        s, d = mp.mpf(sigma), mp.mpf(delta)

        def f(e):
            return mp.ncdf(1 / (2 * s) - e * s) - mp.e ** e * mp.ncdf(-1 / (2 * s) - e * s) - d
        lo, hi = mp.mpf(0), mp.mpf(1)
        if f(lo) <= 0:
            return lo
        while f(hi) > 0:
            hi *= 2
        for _ in range(170):                   # bisection: 2^-170 of the bracket
            mid = (lo + hi) / 2
            if f(mid) > 0:
                lo = mid
            else:
                hi = mid
        return (lo + hi) / 2


def _ends(pair: pld.Pair, T: int, delta: float, h: float) -> tuple[float, float]:
    up = pld.epsilon_for_delta(pld.compose([(pld.upper_pmf(pair, h), T)], pessimistic=True),
                               delta, side="upper")
    lo = pld.epsilon_for_delta(pld.compose([(pld.lower_pmf(pair, h), T)], pessimistic=False),
                               delta, side="lower")
    return lo, up


# ------------------------------------------------------------------ q = 1: exact curve
@pytest.mark.parametrize("sigma,T,delta,h", [(1.0, 1, 1e-5, 1e-3), (5.0, 100, 1e-5, 1e-3),
                                             (20.0, 1000, 1e-9, 1e-3), (0.7, 3, 0.1, 1e-3),
                                             (60.0, 20_000, 1e-6, 1e-3),
                                             (300.0, 100_000, 1e-5, 1e-4)])
def test_gaussian_pair_brackets_the_exact_curve(sigma, T, delta, h):
    # the contraction and the connect-the-dots PMF of the unsubsampled pair, composed T
    # times, must bracket the exact epsilon of one Gaussian at sigma / sqrt(T)
    exact = exact_gaussian_eps(sigma / math.sqrt(T), delta)
    lo, up = _ends(pld.Pair("remove", 1.0, sigma), T, delta, h)
    assert mp.mpf(lo) <= exact <= mp.mpf(up)
    # and tightly: the lower end loses only within-cell variance (h^2 against the one-step
    # loss variance 1/sigma^2: a grid fine against the one-step spread), even at T = 1e5
    assert up - lo <= 2e-3 * float(exact) + 1e-6


def test_a_biased_lower_end_would_be_caught():
    # power of the check above: the same contraction with every loss raised by half a cell
    # (what rounding to the nearest grid point does on average) exceeds the exact value
    pair, T, delta, h = pld.Pair("remove", 1.0, 20.0), 1000, 1e-9, 1e-3
    exact = float(exact_gaussian_eps(20.0 / math.sqrt(T), delta))
    good = pld.lower_pmf(pair, h)
    shifted = pld.Pmf(h, good.k0, good.probs * math.exp(h / 2), 0.0)     # same Q-masses,
    lo = pld.epsilon_for_delta(pld.compose([(shifted, T)], pessimistic=False), delta,
                               side="lower")                            # losses + h/2
    assert lo > exact


# ------------------------------------------------------------------ subsampled: dp-accounting
def _dpa(sigma, q, T, delta, vdi, pessimistic):
    dpa = pytest.importorskip("dp_accounting")
    p = dpa.pld.privacy_loss_distribution.from_gaussian_mechanism(
        standard_deviation=sigma, sampling_prob=q, pessimistic_estimate=pessimistic,
        value_discretization_interval=vdi, use_connect_dots=pessimistic)
    return p.self_compose(T).get_epsilon_for_delta(delta)


@pytest.mark.parametrize("sigma,q,T", [(1.1, 0.01, 3000), (0.9, 0.05, 1000), (4.0, 0.1, 3000),
                                       (2.0, 0.004, 20_000)])
def test_poisson_ends_against_dp_accounting_at_finer_grids(sigma, q, T):
    delta = 1e-5
    iv = epsilon_interval(SelfComposedEvent(SampledEvent(q, "poisson", GaussianEvent(sigma)), T),
                          delta)
    upper_ref = _dpa(sigma, q, T, delta, 5e-5, pessimistic=True)      # >= truth
    assert iv.lower <= upper_ref
    # the interval is narrow (the old lower end lost T * grid / 2)
    assert iv.upper - iv.lower <= 1e-3 * iv.upper


@pytest.mark.parametrize("sigma,q", [(0.8, 0.01), (1.5, 0.1), (0.7, 0.3)])
def test_one_step_upper_end_is_above_dp_accounting_optimistic(sigma, q):
    # one step: dp-accounting's optimistic PLD at a fine grid is a lower bound on the truth
    iv = epsilon_interval(SampledEvent(q, "poisson", GaussianEvent(sigma)), 1e-5)
    assert iv.upper >= _dpa(sigma, q, 1, 1e-5, 1e-4, pessimistic=False)
    assert iv.lower <= _dpa(sigma, q, 1, 1e-5, 5e-5, pessimistic=True)


def test_long_composition_lower_end_is_useful():
    # issue 25 item 9: at T = 1e5 the lower end was 0 where the truth is ~0.35
    # (slack T * grid / 2); now it is within 1% of the upper end and below dp-accounting's
    # pessimistic PLD at a finer grid (an upper bound on the truth: 0.57191 here)
    sigma, q, T, delta = 4.0, 0.002, 100_000, 1e-5
    iv = epsilon_interval(SelfComposedEvent(SampledEvent(q, "poisson", GaussianEvent(sigma)), T),
                          delta)
    ref = _dpa(sigma, q, T, delta, 2e-5, pessimistic=True)
    assert 0.5 < iv.lower <= ref
    assert iv.upper - iv.lower <= 0.01 * iv.upper


# ------------------------------------------------------------------ the contraction
@pytest.mark.parametrize("seed", range(5))
def test_contraction_is_below_in_convex_order(seed):
    # Z (grid values, masses W) must satisfy E Z <= E L and E (Z - t)_+ <= E (L - t)_+
    # for every t: the one-step form of the Jensen argument; brute force on random atoms
    rng = np.random.default_rng(seed)
    h = 0.1
    v = np.sort(rng.normal(0.0, 1.0, 200))
    w = rng.exponential(1.0, 200)
    ks, ms = pld._contract(v.tolist(), w.tolist(), h)
    z, m = np.asarray(ks) * h, np.asarray(ms)
    assert math.isclose(m.sum(), w.sum(), rel_tol=1e-12)
    assert (m * z).sum() <= (w * v).sum() + 1e-12
    assert (w * v).sum() - (m * z).sum() <= h * w.sum() / len(v) * 2    # only the last group
    for t in np.linspace(-4, 4, 161):
        assert (m * np.maximum(z - t, 0)).sum() <= (w * np.maximum(v - t, 0)).sum() + 1e-12


# ------------------------------------------------------------------ issue 25 item 8
@pytest.mark.parametrize("sigma,delta", [(0.5, 1e-5), (1.0, 1e-5), (3.0, 1e-3), (10.0, 1e-9),
                                         (0.8, 0.1), (1.3, 0.37), (0.05, 1e-12)])
def test_exact_gaussian_ends_are_rounded_outward(sigma, delta):
    iv = epsilon_interval(GaussianEvent(sigma), delta)
    exact = exact_gaussian_eps(sigma, delta)
    assert mp.mpf(iv.lower) <= exact <= mp.mpf(iv.upper)
    assert iv.upper - iv.lower <= 1e-9 * float(exact)
