"""Proof steps as items (recall, item 3): zhang2017's A.1, A.4 and A.5 steps."""

from __future__ import annotations

import math
from fractions import Fraction

from scipy import stats

from dptheory_bounds.checks.recall_proof_steps import (gd_quadratic_pair, rrpsgd_step_tail,
                                                       zhang2017_thm1_w0,
                                                       zhang2017_thm4_composition,
                                                       zhang2017_thm4_step,
                                                       zhang2017_thm5_variance,
                                                       zhang2017_thm6_subgaussian)


def test_thm1_far_start_breaks_privacy_and_a_start_in_the_ball_does_not():
    # independent closed form: w_T = w0 (1 - eta mean(c))^T with eta = 1/4, mean(c) = 1 or 2
    w, wp = gd_quadratic_pair(Fraction(10 ** 5), 3)
    assert w == Fraction(10 ** 5) * Fraction(3, 4) ** 3 and wp == Fraction(10 ** 5) / 8
    res = zhang2017_thm1_w0()
    assert res.verdict == "refuted" and res.severity == "hypothesis"
    assert res.evidence["Delta"] == "20"            # 5 * 6 * (1 + 3) / (2 * 3)
    row1 = next(r for r in res.evidence["rows"] if r["T"] == 1)
    assert row1["gap"] == 25000 and row1["eps_branch_privacy_loss_over_eps"] == 1250
    # planted: w0 = D = 1 keeps both trajectories in the ball; gap <= 1/4 < Delta
    assert zhang2017_thm1_w0(Fraction(1)).verdict == "supported"


def test_thm4_per_step_tail_matches_the_gaussian_privacy_loss_law():
    r = rrpsgd_step_tail(100, 1e-5, 1.0, L=1.0, sensitivity_over_L=2.0)
    # independent: loss ~ N(m^2/2, m^2), m = 2L/s, s = 2L sqrt(log(3n/delta) log(2/delta))/eps
    ll = math.log(300 / 1e-5) * math.log(2 / 1e-5)
    m = 2.0 / (2 * math.sqrt(ll))
    c = 1 / (2 * math.sqrt(2 * math.log(2 / 1e-5)))
    tail = stats.norm.sf((c - m * m / 2) / m) + stats.norm.cdf((-c - m * m / 2) / m)
    assert math.isclose(r["P(C_t > eps0)"], tail, rel_tol=1e-5)
    assert tail > 1000 * 1e-5 / 200
    res = zhang2017_thm4_step()
    assert res.verdict == "refuted" and res.severity == "proof"
    # planted: 4x the noise sd (16x the variance) meets the claimed tail at every row
    assert zhang2017_thm4_step(noise_scale=4.0).verdict == "supported"


def test_thm4_composition_exceeds_eps_and_a_split_budget_does_not():
    res = zhang2017_thm4_composition()
    assert res.verdict == "refuted" and res.evidence["first_term_equals_eps_symbolically"]
    row = res.evidence["rows"][0]                    # n = 100, delta = 1e-5, eps = 1
    c = 1 / (100 * math.sqrt(2 * math.log(2e5)))
    assert math.isclose(row["eps_prime"], 1 + 1e4 * c * math.expm1(c), rel_tol=1e-5)
    assert zhang2017_thm4_composition(split=True).verdict == "supported"


def test_thm5_variance_step_fails_from_d_3_and_holds_at_d_1_2():
    res = zhang2017_thm5_variance()
    assert res.verdict == "refuted" and res.severity == "notation"
    for r in res.evidence["rows"]:
        ll = math.log(3 * r["n"] / r["delta"]) * math.log(2 / r["delta"])
        exact = r["d"] * 4 * r["L"] ** 2 * ll / r["eps"] ** 2
        printed = 4 * r["L"] ** 2 + 8 * r["L"] ** 2 * ll / r["eps"] ** 2
        assert math.isclose(r["exact_E||G - grad F||^2"], exact, rel_tol=1e-5)
        assert r["violated"] == (exact > printed)
    # planted: at d = 1, 2 the step's bound covers the noise (d s^2 <= 8L^2 l/eps^2 + 4L^2)
    assert zhang2017_thm5_variance((1, 2)).verdict == "supported"


def test_thm6_printed_sigma_t_fails_the_subgaussian_condition_and_the_squared_one_holds():
    res = zhang2017_thm6_subgaussian()
    assert res.verdict == "refuted" and res.severity == "notation"
    for r in res.evidence["rows"]:
        # independent floats: eta = D_F/(sigma n), v = (eta - beta eta^2) L, s^2 printed
        L, n = r["L"], 10
        ll = math.log(3 * n / 0.1) * math.log(2 / 0.1)
        alpha2 = 4 * L * L * ll
        sigma = math.sqrt(4 * L * L + alpha2)
        beta = L / 100
        D_F = math.sqrt(2 * L * (1e4 - 50) / beta)
        eta = min(1 / beta, D_F / (sigma * n))
        a = 1 / (1 - math.exp(-2))
        rho = 2 * ((eta - beta * eta ** 2) * L) ** 2 * alpha2 / (
            2 * a * (eta * L + beta * L * eta ** 2) * alpha2)
        assert math.isclose(r["2 v^2 alpha^2 / sigma_t^2"], rho, rel_tol=1e-5) and rho >= 1
    # planted: the squared sigma_t^2 (zhang2017.thm6.corrected) meets E exp(Y^2/s^2) <= e
    assert zhang2017_thm6_subgaussian(squared=True).verdict == "supported"


def test_lemma2_expansion_lacks_a_square_and_the_squared_form_is_exact():
    from dptheory_bounds.checks.recall_proof_steps import zhang2017_lemma2_expansion
    res = zhang2017_lemma2_expansion()
    assert res.verdict == "refuted" and res.severity == "notation"
    # independent: w0 = 2, t = 0: w_1 = 4/3, w'_1 = 2/3, Delta_1^2 = 4/9; g = 2 - 4 = -2,
    # printed rhs 0 - 0 + (1/9) * 2 = 2/9
    row = res.evidence["rows"][0]
    assert row["Delta_t+1^2"] == "4/9" and row["printed_rhs"] == "2/9"
    assert zhang2017_lemma2_expansion(square=True).verdict == "supported"
