"""Numeric privacy accounting: expected values from independent sources only
(closed forms, mpmath integrals, brute force, Google's dp_accounting when installed)."""

from __future__ import annotations

import math

import mpmath as mp
import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from dptheory.privacy import (ComposedEvent, GaussianEvent, SampledEvent, SelfComposedEvent,
                              advanced_composition_dwork_roth, amplify_tight,
                              amplify_wang2020, amplify_zhang2017, analytic_gaussian_sigma,
                              classic_gaussian_sigma, compose_rdp, eps_from_rdp,
                              eps_from_rdp_improved, eps_from_rdp_mironov, gaussian_delta,
                              gaussian_epsilon, gaussian_log_delta, gaussian_zcdp,
                              get_epsilon, get_noise_multiplier, rdp_fixed_size_gaussian,
                              rdp_gaussian, rdp_of, rdp_poisson_gaussian,
                              rdp_poisson_gaussian_reference, resolve_steps,
                              to_dp_accounting, wang2020_per_step, wang2020_phi, zcdp_to_dp,
                              zhang2017_strong_composition_printed)

FAST = settings(derandomize=True, database=None, max_examples=40, deadline=None)


# ----------------------------------------------------------------------------- helpers

def hockey_stick_mp(eps: float, sigma: float, sens: float = 1.0) -> float:
    """Brute force: integral of max(0, p(x) - e^eps q(x)), p = N(sens, s^2), q = N(0, s^2)."""
    with mp.workdps(40):
        s, d, E = mp.mpf(sigma), mp.mpf(sens), mp.e ** mp.mpf(eps)
        f = lambda x: max(mp.mpf(0), mp.npdf(x, d, s) - E * mp.npdf(x, 0, s))
        # the crossing point p = e^eps q: x* = eps s^2/d + d/2; integrand is zero below it
        xs = eps * sigma ** 2 / sens + sens / 2
        return float(mp.quad(f, [xs, xs + sigma, xs + 10 * sigma, mp.inf]))


# ----------------------------------------------------------------------------- Gaussian

@pytest.mark.parametrize("eps,sigma,sens", [(0.0, 1.0, 1.0), (0.5, 1.0, 1.0), (1.0, 3.0, 1.0),
                                            (5.0, 0.7, 1.0), (2.0, 4.0, 2.5), (10.0, 0.65, 1.0)])
def test_gaussian_delta_matches_brute_force_integral(eps, sigma, sens):
    assert gaussian_delta(eps, sigma=sigma, sensitivity=sens) == pytest.approx(
        hockey_stick_mp(eps, sigma, sens), rel=1e-9)


def test_gaussian_delta_tiny_values_keep_relative_precision():
    # delta ~ 1e-30: computed in log space; compare with mpmath closed form at 50 digits
    eps, s = 30.0, 1.0
    with mp.workdps(50):
        a = mp.mpf(1) / 2 - eps
        b = -mp.mpf(1) / 2 - eps
        ref = mp.ncdf(a) - mp.e ** eps * mp.ncdf(b)
    assert gaussian_delta(eps, sigma=s) == pytest.approx(float(ref), rel=1e-9)
    assert gaussian_log_delta(eps, sigma=s) == pytest.approx(float(mp.log(ref)), rel=1e-12)


def test_gaussian_delta_vectorised_and_decreasing():
    e = np.linspace(0, 5, 11)
    d = gaussian_delta(e, sigma=1.2)
    assert d.shape == e.shape and np.all(np.diff(d) < 0)


def test_gaussian_epsilon_inverts_the_curve():
    for sigma, delta in [(1.0, 1e-5), (0.5, 1e-3), (5.0, 0.05)]:
        e = gaussian_epsilon(delta, sigma=sigma)
        assert hockey_stick_mp(e, sigma) == pytest.approx(delta, rel=1e-8)
    assert gaussian_epsilon(0.9, sigma=10.0) == 0.0        # delta(0) < 0.9 already


def test_gaussian_epsilon_against_dp_accounting():
    gm = pytest.importorskip("dp_accounting.gaussian_mechanism")
    for sigma, delta in [(1.0, 1e-5), (0.8, 1e-9), (3.0, 1e-2)]:
        assert gaussian_epsilon(delta, sigma=sigma) == pytest.approx(
            gm.get_epsilon_gaussian(sigma, delta), rel=1e-9)


def test_classic_sigma_closed_form():
    assert classic_gaussian_sigma(1.0, 1e-5) == pytest.approx(math.sqrt(2 * math.log(125000)))
    assert classic_gaussian_sigma(0.5, 1e-5, 3.0) == pytest.approx(
        6 * math.sqrt(2 * math.log(125000)))


@pytest.mark.parametrize("eps,delta", [(0.1, 1e-5), (1.0, 1e-5), (4.0, 1e-9), (10.0, 0.1)])
def test_analytic_sigma_is_smallest_on_exact_curve(eps, delta):
    s = analytic_gaussian_sigma(eps, delta)
    assert hockey_stick_mp(eps, s) <= delta * (1 + 1e-9)
    assert hockey_stick_mp(eps, s * (1 - 1e-8)) > delta
    # never larger than the classic calibration where Dwork-Roth's theorem applies (eps < 1)
    if eps < 1:
        assert s < classic_gaussian_sigma(eps, delta)


def test_analytic_sigma_against_dp_accounting():
    gm = pytest.importorskip("dp_accounting.gaussian_mechanism")
    assert analytic_gaussian_sigma(1.0, 1e-5) == pytest.approx(
        gm.get_sigma_gaussian(1.0, 1e-5), rel=1e-8)


# ----------------------------------------------------------------------------- RDP

def test_rdp_gaussian_closed_form():
    np.testing.assert_allclose(rdp_gaussian([2, 3.5], sigma=2.0, sensitivity=3.0),
                               [2 * 9 / 8, 3.5 * 9 / 8])
    assert rdp_gaussian(2.0, sigma=1.0) == 1.0


@pytest.mark.parametrize("q,sigma", [(0.01, 1.0), (0.1, 0.8), (0.5, 3.0), (0.001, 0.6)])
@pytest.mark.parametrize("alpha", [2, 3, 8, 1.5, 2.5, 7.3])
def test_poisson_rdp_matches_mpmath_quadrature(q, sigma, alpha):
    ours = rdp_poisson_gaussian(alpha, q=q, sigma=sigma)
    ref = rdp_poisson_gaussian_reference(alpha, q=q, sigma=sigma)
    assert ours == pytest.approx(ref, rel=1e-8)


def test_poisson_rdp_small_q_keeps_relative_precision():
    # A_alpha - 1 ~ 1e-12: the expm1 form must not lose it to rounding
    ref = rdp_poisson_gaussian_reference(3, q=1e-5, sigma=10.0, dps=60)
    assert rdp_poisson_gaussian(3, q=1e-5, sigma=10.0) == pytest.approx(ref, rel=1e-10)


def test_poisson_rdp_integer_orders_match_brute_force_binomial():
    # mpmath exact binomial sum, independent of the float log-space code
    q, s, a = 0.05, 1.3, 6
    with mp.workdps(40):
        A = mp.fsum(mp.binomial(a, k) * (1 - mp.mpf(q)) ** (a - k) * mp.mpf(q) ** k
                    * mp.e ** (mp.mpf(k * k - k) / (2 * mp.mpf(s) ** 2)) for k in range(a + 1))
        ref = float(mp.log(A) / (a - 1))
    assert rdp_poisson_gaussian(a, q=q, sigma=s) == pytest.approx(ref, rel=1e-12)


def test_poisson_rdp_against_dp_accounting():
    rdp_mod = pytest.importorskip("dp_accounting.rdp.rdp_privacy_accountant")
    ints = [2, 3, 4, 8, 16, 32, 64, 256]
    fracs = [1.5, 2.5, 10.5]
    for q, s in [(0.01, 1.1), (0.2, 0.7), (0.004, 2.0)]:
        np.testing.assert_allclose(rdp_poisson_gaussian(ints, q=q, sigma=s),
                                   rdp_mod._compute_rdp_poisson_subsampled_gaussian(q, s, ints),
                                   rtol=1e-10)
        # dp_accounting sums |terms| of the fractional series: an upper bound on ours
        theirs = rdp_mod._compute_rdp_poisson_subsampled_gaussian(q, s, fracs)
        assert np.all(rdp_poisson_gaussian(fracs, q=q, sigma=s) <= theirs * (1 + 1e-12))


def test_q_one_is_the_plain_gaussian():
    o = [1.5, 2, 10]
    np.testing.assert_allclose(rdp_poisson_gaussian(o, q=1.0, sigma=1.7), rdp_gaussian(o, sigma=1.7))
    np.testing.assert_allclose(rdp_fixed_size_gaussian(o, q=1.0, sigma=1.7),
                               rdp_gaussian(o, sigma=1.7))


def test_fixed_size_rdp_against_dp_accounting():
    rdp_mod = pytest.importorskip("dp_accounting.rdp.rdp_privacy_accountant")
    o = [1.5, 2, 2.5, 3, 7.3, 10, 32, 64]
    for q, s in [(0.01, 1.0), (0.1, 0.8), (0.5, 3.0), (0.01, 5.0)]:
        np.testing.assert_allclose(rdp_fixed_size_gaussian(o, q=q, sigma=s),
                                   rdp_mod._compute_rdp_sample_wor_gaussian(q, s, o), rtol=1e-10)


@FAST
@given(q=st.floats(0.001, 0.9), sigma=st.floats(0.5, 5.0), alpha=st.integers(2, 40))
def test_fixed_size_bound_dominates_a_substitution_pair(q, sigma, alpha):
    # (1-q)N(0,s^2)+qN(1,s^2) vs N(0,s^2) is a substitution pair for the fixed-size sampled
    # sum of records in [0,1]: its exact RDP must lie below the WBK upper bound
    assert rdp_poisson_gaussian(alpha, q=q, sigma=sigma) <= \
        rdp_fixed_size_gaussian(alpha, q=q, sigma=sigma) * (1 + 1e-12) + 1e-300


@FAST
@given(q=st.floats(0.001, 0.99), sigma=st.floats(0.4, 10.0))
def test_poisson_rdp_monotone_in_order(q, sigma):
    o = np.array([1.25, 1.5, 2, 2.5, 3, 4, 6.5, 8, 16])
    r = rdp_poisson_gaussian(o, q=q, sigma=sigma)
    assert np.all(np.diff(r) >= -1e-12 * r[1:])


@FAST
@given(q=st.floats(0.001, 0.5), sigma=st.floats(0.5, 5.0), f=st.floats(1.01, 2.0))
def test_poisson_rdp_monotone_in_sigma_and_q(q, sigma, f):
    o = [1.5, 2, 5, 12]
    r = rdp_poisson_gaussian(o, q=q, sigma=sigma)
    assert np.all(rdp_poisson_gaussian(o, q=q, sigma=sigma * f) <= r * (1 + 1e-12))
    assert np.all(rdp_poisson_gaussian(o, q=min(1.0, q * f), sigma=sigma) >= r * (1 - 1e-12))


@FAST
@given(counts=st.lists(st.integers(1, 50), min_size=1, max_size=4), sigma=st.floats(0.5, 4.0))
def test_composition_is_additive(counts, sigma):
    o = [1.5, 2.0, 8.0]
    step = SampledEvent(0.02, "poisson", GaussianEvent(sigma))
    ev = ComposedEvent(tuple(SelfComposedEvent(step, c) for c in counts))
    one = rdp_poisson_gaussian(o, q=0.02, sigma=sigma)
    np.testing.assert_allclose(rdp_of(ev, o), sum(counts) * one, rtol=1e-12)
    np.testing.assert_allclose(compose_rdp(*[c * one for c in counts]), sum(counts) * one,
                               rtol=1e-12)


# ----------------------------------------------------------------------------- conversions

def test_mironov_conversion_of_gaussian_approaches_closed_form():
    # min_z z/(2 s^2) + L/(z-1) = rho + 2 sqrt(rho L), rho = 1/(2 s^2), at z* = 1 + sqrt(L/rho)
    s, delta = 2.0, 1e-5
    L, rho = math.log(1 / delta), 1 / (2 * s * s)
    orders = np.linspace(1.01, 60, 200001)
    eps, z = eps_from_rdp_mironov(orders, rdp_gaussian(orders, sigma=s), delta)
    assert eps == pytest.approx(rho + 2 * math.sqrt(rho * L), rel=1e-8)
    assert z == pytest.approx(1 + math.sqrt(L / rho), rel=1e-3)


def test_improved_conversion_against_dp_accounting_and_below_mironov():
    rdp_mod = pytest.importorskip("dp_accounting.rdp.rdp_privacy_accountant")
    orders = [1.5, 2, 3, 5, 8, 16, 32, 64]
    rdp = 500 * rdp_poisson_gaussian(orders, q=0.01, sigma=1.0)
    e_imp, o_imp = eps_from_rdp_improved(orders, rdp, 1e-5)
    e_ref, o_ref = rdp_mod.compute_epsilon(orders, rdp, 1e-5)
    assert e_imp == pytest.approx(e_ref, rel=1e-12) and o_imp == o_ref
    assert e_imp < eps_from_rdp_mironov(orders, rdp, 1e-5)[0]
    assert eps_from_rdp(orders, rdp, 1e-5, "mironov") == eps_from_rdp_mironov(orders, rdp, 1e-5)


@FAST
@given(sigma=st.floats(0.3, 20.0), delta=st.floats(1e-10, 0.5))
def test_rdp_and_zcdp_conversions_are_sound_for_the_gaussian(sigma, delta):
    # any valid conversion must give eps >= the exact eps of the Gaussian
    exact = gaussian_epsilon(delta, sigma=sigma)
    orders = np.concatenate([np.linspace(1.05, 10, 200), np.arange(11, 500)])
    r = rdp_gaussian(orders, sigma=sigma)
    for conv in ("improved", "mironov"):
        assert eps_from_rdp(orders, r, delta, conv)[0] >= exact * (1 - 1e-9)
    assert zcdp_to_dp(gaussian_zcdp(sigma), delta) >= exact * (1 - 1e-9)


def test_zcdp_and_phi():
    assert gaussian_zcdp(2.0, 3.0) == pytest.approx(9 / 8)
    assert zcdp_to_dp(0.5, math.exp(-2)) == pytest.approx(0.5 + 2 * math.sqrt(1.0))
    for eps, delta in [(1e-6, 1e-12), (0.5, 1e-5), (50.0, 0.3)]:
        phi = wang2020_phi(eps, delta)
        L = math.log(1 / delta)
        assert phi + 2 * math.sqrt(phi * L) == pytest.approx(eps, rel=1e-12)


# ----------------------------------------------------------------------------- composition

def test_composition_formulas_closed_form():
    e, T, dp = 0.1, 100, 1e-5
    got = advanced_composition_dwork_roth(e, T, dp, 1e-7)
    assert got[0] == pytest.approx(e * math.sqrt(2 * T * math.log(1e5)) + T * e * (math.e ** e - 1))
    assert got[1] == pytest.approx(T * 1e-7 + dp)
    pr = zhang2017_strong_composition_printed(e, T, dp)[0]
    assert pr == pytest.approx(math.sqrt(2 * T * math.log(1e5) * e) + T * e * (math.e ** e - 1))
    assert pr > got[0]                                   # eps < 1: printed form is looser
    assert zhang2017_strong_composition_printed(4.0, T, dp)[0] < \
        advanced_composition_dwork_roth(4.0, T, dp)[0]   # eps > 1: printed form is smaller
    ep, dp1 = wang2020_per_step(1.0, 1e-5, 50)
    assert ep == pytest.approx(1 / (2 * math.sqrt(100 * math.log(2e5)))) and dp1 == pytest.approx(1e-7)
    assert amplify_wang2020(1.0, 1e-5, 0.1) == (pytest.approx(0.2), 1e-5)
    assert amplify_zhang2017(1.0, 1e-5, 0.1) == (pytest.approx(0.2), pytest.approx(1e-6))
    et, dt = amplify_tight(1.0, 1e-5, 0.1)
    assert et == pytest.approx(math.log(1 + 0.1 * (math.e - 1))) and dt == pytest.approx(1e-6)


# ----------------------------------------------------------------------------- events / dp_accounting

def test_events_against_dp_accounting_rdp_accountant():
    dpa = pytest.importorskip("dp_accounting")
    orders = [2, 3, 4, 5, 6, 8, 10, 12, 16, 20, 24, 32, 48, 64, 128]
    ev = ComposedEvent((SelfComposedEvent(SampledEvent(0.01, "poisson", GaussianEvent(1.1)), 900),
                        SelfComposedEvent(GaussianEvent(20.0), 3)))
    acc = dpa.rdp.RdpAccountant(orders)
    acc.compose(to_dp_accounting(ev))
    e_ref, o_ref = acc.get_epsilon_and_optimal_order(1e-5)
    e, o = eps_from_rdp(orders, rdp_of(ev, orders), 1e-5)
    assert e == pytest.approx(e_ref, rel=1e-9) and o == o_ref


def test_fixed_size_event_against_dp_accounting_replace_one():
    dpa = pytest.importorskip("dp_accounting")
    orders = [2, 3, 4, 6, 8, 12, 16, 24, 32]
    ev = SelfComposedEvent(SampledEvent(0.02, "fixed-size", GaussianEvent(1.0), dataset_size=5000),
                           300)
    acc = dpa.rdp.RdpAccountant(orders, dpa.NeighboringRelation.REPLACE_ONE)
    acc.compose(to_dp_accounting(ev))
    assert eps_from_rdp(orders, rdp_of(ev, orders), 1e-6)[0] == pytest.approx(
        acc.get_epsilon(1e-6), rel=1e-9)
    with pytest.raises(ValueError, match="dataset_size"):
        to_dp_accounting(SampledEvent(0.02, "fixed-size", GaussianEvent(1.0)))


def test_get_epsilon_against_dp_accounting():
    dpa = pytest.importorskip("dp_accounting")
    orders = list(range(2, 65))
    acc = dpa.rdp.RdpAccountant(orders)
    acc.compose(dpa.SelfComposedDpEvent(dpa.PoissonSampledDpEvent(0.004, dpa.GaussianDpEvent(0.9)),
                                        2500))
    assert get_epsilon(noise_multiplier=0.9, target_delta=1e-6, sample_rate=0.004, steps=2500,
                       orders=orders) == pytest.approx(acc.get_epsilon(1e-6), rel=1e-9)


# ----------------------------------------------------------------------------- calibration

@pytest.mark.parametrize("kw", [
    dict(target_epsilon=3.0, target_delta=1e-5, sample_rate=0.01, epochs=10),
    dict(target_epsilon=0.5, target_delta=1e-6, sample_rate=0.05, steps=200, conversion="mironov"),
    dict(target_epsilon=8.0, target_delta=1e-5, sample_rate=1.0, steps=50),
    dict(target_epsilon=2.0, target_delta=1e-5, sample_rate=0.02, steps=300, sampling="fixed-size",
         orders=tuple(range(2, 33))),
])
def test_calibrate_is_tight(kw):
    s = get_noise_multiplier(**kw)
    common = {k: v for k, v in kw.items() if k != "target_epsilon"}
    assert get_epsilon(noise_multiplier=s, **common) <= kw["target_epsilon"]
    assert get_epsilon(noise_multiplier=s * (1 - 1e-4), **common) > kw["target_epsilon"]


def test_calibrate_plain_gaussian_closed_form():
    # T plain Gaussian steps, Mironov conversion over a dense grid ~ rho + 2 sqrt(rho L),
    # rho = T/(2 s^2): solve rho + 2 sqrt(rho L) = eps for s in closed form
    eps, delta, T = 4.0, 1e-5, 10
    L = math.log(1 / delta)
    rho = (math.sqrt(eps + L) - math.sqrt(L)) ** 2
    s_closed = math.sqrt(T / (2 * rho))
    orders = np.linspace(1.01, 200, 400001)
    s = get_noise_multiplier(target_epsilon=eps, target_delta=delta, sample_rate=1.0, steps=T,
                             conversion="mironov", orders=orders)
    assert s == pytest.approx(s_closed, rel=2e-5)


def test_resolve_steps():
    assert resolve_steps(0.1, None, 3) == 30
    assert resolve_steps(0.03, None, 1) == 34
    assert resolve_steps(0.5, 7, None) == 7


# ----------------------------------------------------------------------------- validation

@pytest.mark.parametrize("call,match", [
    (lambda: gaussian_delta(1.0, sigma=0.0), "sigma must be"),
    (lambda: gaussian_delta(-1.0, sigma=1.0), "eps must be"),
    (lambda: gaussian_epsilon(1.5, sigma=1.0), r"delta must be in \(0, 1\), got 1.5"),
    (lambda: classic_gaussian_sigma(0.0, 1e-5), "eps must be"),
    (lambda: analytic_gaussian_sigma(1.0, 0.0), "delta must be in"),
    (lambda: rdp_poisson_gaussian(2, q=0.0, sigma=1.0), r"q must be in \(0, 1\]"),
    (lambda: rdp_poisson_gaussian(2, q=1.5, sigma=1.0), r"q must be in \(0, 1\]"),
    (lambda: rdp_poisson_gaussian(1.0, q=0.1, sigma=1.0), "orders must be"),
    (lambda: rdp_fixed_size_gaussian(2, q=0.1, sigma=-1.0), "sigma must be"),
    (lambda: eps_from_rdp([2], [1.0], 1e-5, "nope"), "conversion must be"),
    (lambda: eps_from_rdp([2, 3], [1.0], 1e-5), "equal length"),
    (lambda: zcdp_to_dp(-1.0, 1e-5), "rho must be"),
    (lambda: advanced_composition_dwork_roth(0.1, 2.5, 1e-5), "T must be an integer"),
    (lambda: amplify_wang2020(0.1, 1e-5, 0.0), "gamma must be"),
    (lambda: get_noise_multiplier(target_epsilon=1.0, target_delta=1e-5, sample_rate=0.1),
     "exactly one of steps or epochs"),
    (lambda: get_noise_multiplier(target_epsilon=1.0, target_delta=1e-5, sample_rate=0.1,
                                  steps=10, epochs=1), "exactly one of steps or epochs"),
    (lambda: get_epsilon(noise_multiplier=1.0, target_delta=1e-5, steps=10.5), "steps must be"),
    (lambda: get_epsilon(noise_multiplier=1.0, target_delta=1e-5, steps=10,
                         sampling="bogus"), "sampling must be"),
    (lambda: get_epsilon(noise_multiplier=1.0, target_delta=1e-5, steps=10,
                         accountant="pld"), "accountant must be"),
    (lambda: get_noise_multiplier(target_epsilon=-1.0, target_delta=1e-5, sample_rate=0.1,
                                  steps=3), "target_epsilon must be"),
    (lambda: SampledEvent(0.1, "poisson", SelfComposedEvent(GaussianEvent(1.0), 2)),
     "must be a GaussianEvent"),
    (lambda: SelfComposedEvent(GaussianEvent(1.0), 0), "count must be"),
    (lambda: rdp_of("x", [2]), "event must be"),
])
def test_validation_messages(call, match):
    with pytest.raises(ValueError, match=match):
        call()
