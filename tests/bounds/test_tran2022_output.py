"""tran2022 Theorem 4 at the output of Algorithm 1: certified attacks on the released steps."""

from __future__ import annotations

import math

import mpmath
import numpy as np
import pytest

from dptheory_bounds.checks import privacy_output as po
from dptheory_bounds.checks.privacy_tree import THM4_ALPHA_ROOT


def _tail_mpmath(k: float, shift: float, d: int) -> float:
    """P(Z_1 > k ||Z_{2..d}||) by mpmath quadrature of Phi(shift - k sqrt(q)) against the
    chi^2_{d-1} density (independent of the bracket's grid and of scipy)."""
    with mpmath.workdps(30):   # local: a global setting leaks into other tests
        n = mpmath.mpf(d - 1)

        def pdf(q):
            return mpmath.exp((n / 2 - 1) * mpmath.log(q) - q / 2 - (n / 2) * mpmath.log(2) - mpmath.loggamma(n / 2))

        def f(q):
            return mpmath.ncdf(shift - k * mpmath.sqrt(q)) * pdf(q)
        pts = [0, n / 2, n - 6 * mpmath.sqrt(2 * n), n, n + 6 * mpmath.sqrt(2 * n), 3 * n, mpmath.inf]
        return float(mpmath.quad(f, pts))


@pytest.mark.parametrize("k, shift", [(0.02, 2.19), (-0.05, 0.5), (0.1, -1.0), (0.0, 0.2)])
def test_bracket_contains_mpmath_quadrature(k, shift):
    lo, hi = po.direction_tail(k, shift, 1000)
    exact = _tail_mpmath(k, shift, 1000)
    assert lo[0] <= exact <= hi[0]
    assert hi[0] - lo[0] < 1e-3


def test_reduction_to_one_dimension_against_sampled_directions():
    # direct simulation of u = Z/||Z|| in d = 200 (independent of the chi-square reduction)
    rng = np.random.default_rng(7)
    d, shift, n = 200, 1.3, 40_000
    z = rng.standard_normal((n, d))
    z[:, 0] += shift
    u1 = z[:, 0] / np.linalg.norm(z, axis=1)
    for k in (-0.05, 0.05, 0.12):
        freq = float(np.mean(u1 / np.sqrt(1 - u1 ** 2) > k))
        lo, hi = po.direction_tail(k, shift, d)
        se = math.sqrt(max(freq * (1 - freq), 1e-4) / n)
        assert lo[0] - 5 * se <= freq <= hi[0] + 5 * se


def test_bad_input_is_a_value_error():
    with pytest.raises(ValueError, match="d must be"):
        po.direction_tail(0.1, 1.0, 1)
    with pytest.raises(ValueError, match="power of 2"):
        po.single_step_rows(0.001, t=500)


def test_single_step_attack_is_sound_and_tight():
    rows = po.single_step_rows(po.A7_ALPHA)
    for r in rows:
        # the direction is a function of Z ~ N(+-m e_1, s^2 I): its delta is at most the
        # Gaussian's, mu = 2m/s = (1 - 0.999^512) / (2 * 0.001 * sigma * sqrt(2047)) by hand
        mu = (1 - 0.999 ** 512) / (2 * 0.001 * r["sigma"] * math.sqrt(2047))
        gauss = (0.5 * math.erfc((r["eps"] / mu - mu / 2) / math.sqrt(2))
                 - math.exp(r["eps"]) * 0.5 * math.erfc((r["eps"] / mu + mu / 2) / math.sqrt(2)))
        assert r["delta_lower"] <= gauss + 1e-12
        assert r["delta_lower"] >= gauss - 2e-3          # d = 1000 loses almost nothing
        assert r["delta_lower"] > r["delta"]
    # eps = 3, delta = 0.1: mu = 4.379, Gaussian delta(3) = Phi(1.504) - e^3 Phi(-2.875) = 0.8932
    assert rows[0]["mu_of_Z"] == pytest.approx(4.379, abs=1e-3)
    assert rows[0]["delta_lower"] == pytest.approx(0.8932, abs=1e-3)


def test_single_step_planted_hypothesis_alpha_one_over_n_flips_the_verdict():
    # the same attack at alpha = 1/N = 1: the step's mean moves by G against noise std
    # 4 G sigma sqrt(V), mu = 0.011 at eps = 3: nothing to certify
    assert not any(r["violated"] for r in po.single_step_rows(1.0))


def test_small_alpha_output_check_is_a_hypothesis_finding_under_the_alpha_root():
    res = po._run_small_alpha_output()
    assert res.verdict == "refuted" and res.severity == "hypothesis"
    assert res.root == THM4_ALPHA_ROOT
    assert all(r["rdp_claim_implies_eps_delta"] for r in res.evidence["rows"])


def test_composed_attack_is_sound():
    # the iterates are a function of the node tree, an exact Gaussian mechanism with
    # mu^2 = (2T-1) (2 shift)^2 = 1/(4 sigma^2) at alpha = 1: eps = 20, delta = 0.5:
    # sigma = 2 sqrt(ln 2)/20, mu = 6.005, Gaussian delta(20) = Phi(-0.328) - ... = 0.313
    for r in po.composed_rows(po.A1_SOUND_POINTS + po.A1_POINTS):
        sigma = 2 * math.sqrt(math.log(2)) / r["eps"]
        mu = 1 / (2 * sigma)
        upper = (0.5 * math.erfc((r["eps"] / mu - mu / 2) / math.sqrt(2))
                 - math.exp(r["eps"]) * 0.5 * math.erfc((r["eps"] / mu + mu / 2) / math.sqrt(2)))
        assert r["delta_lower"] <= upper + 1e-12
        # E L per step is at most the Gaussian KL (2 shift)^2/2 of the vector the direction
        # is a function of, shift = 1/(4 sigma sqrt(2047))
        kl = (2 / (4 * sigma * math.sqrt(2047))) ** 2 / 2
        assert r["E_L_lo"] <= 1023 * kl
        # ... and the quantised, interval-bracketed lower bound loses at most a few nats
        assert r["E_L_lo"] >= 1023 * kl - 5


def test_composed_attack_violates_theorem4_at_eps_60_and_planted_weaker_claim_passes():
    row = po.composed_rows(((60.0, 0.5),))[0]
    assert row["delta_lower"] > 0.5 >= math.exp(-60)
    # planted: a claim of (60, 0.6) is not refuted by the same certificate
    assert row["delta_lower"] < 0.6
    # eps = 40 (delta = 0.5): the certificate does not fire
    assert not po.composed_rows(((40.0, 0.5),))[0]["violated"]


def test_conversion_output_check_is_a_hypothesis_finding_under_the_conversion_root():
    res = po._run_conversion_output()
    assert res.verdict == "refuted" and res.severity == "hypothesis"
    assert res.root == "tran2022.thm4:rdp-conversion"


def test_n2_epoch_pairs_violate_and_are_sound():
    row = po.epoch_pair_rows()[0]
    # by hand: N = 2, T = 1024, R = 11: V = (min(11, 1) + 1) 1024/2 + sum_{j=2}^{11} floor(1024/2^j)
    assert row["V"] == 1024 + 511
    sigma = 2 * math.sqrt(math.log(2)) / 200
    mu = math.sqrt(511) * 2 / (4 * sigma * math.sqrt(1535))
    upper = (0.5 * math.erfc((200 / mu - mu / 2) / math.sqrt(2))
             - math.exp(200) * 0.5 * math.erfc((200 / mu + mu / 2) / math.sqrt(2)))
    assert 0.5 < row["delta_lower"] <= upper + 1e-12


def test_pair_masses_are_a_bracketed_distribution():
    ks = np.linspace(-0.2, 0.2, 41)
    lo, hi = po._bins(ks, 0.3, 1000)
    assert lo.sum() <= 1.0 <= hi.sum() and hi.sum() - lo.sum() < 1e-2
