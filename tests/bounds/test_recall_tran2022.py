"""tran2022 Theorem 9 at its settings: a negative bound at T < 1, and constants below the
proof's route (Lemma 5 + 3 x Lemma 7) at delta > 1/e."""

from __future__ import annotations

import itertools
import math
from fractions import Fraction

import pytest

from dptheory_bounds.checks import recall_tran2022 as rt


def _printed_by_hand(N, d, eps, delta, G=1.0, L=1.0, R=1.0):
    """Theorem 9 as printed: (3R/2 + 24K(G+2L) + 12L) d^(1/3)/(eps N)^(2/3) + 6G/sqrt(N)
    + 36GK sqrt(d)/(eps N) + 9KL sqrt(d)/(eps N), K = 16 log2 T log(1/delta),
    T = N^(7/3) eps^(4/3)/d^(2/3)."""
    T = N ** (7 / 3) * eps ** (4 / 3) / d ** (2 / 3)
    K = 16 * math.log2(T) * math.log(1 / delta)
    return ((1.5 * R + 24 * K * (G + 2 * L) + 12 * L) * d ** (1 / 3) / (eps * N) ** (2 / 3)
            + 6 * G / math.sqrt(N) + 36 * G * K * math.sqrt(d) / (eps * N)
            + 9 * K * L * math.sqrt(d) / (eps * N))


def _route_by_hand(N, d, eps, delta, G=1.0, L=1.0, R=1.0):
    """Lemma 5 (3R/(2 eta T) + 3 L eta/4 + 3 x) with x = Lemma 7's printed bound at
    alpha = 1/N, eta = 1/sqrt(NT)."""
    T = N ** (7 / 3) * eps ** (4 / 3) / d ** (2 / 3)
    eta, alpha, lg, Ld = 1 / math.sqrt(N * T), 1 / N, math.log2(T), math.log(1 / delta)
    lemma7 = (192 * G * alpha * lg * math.sqrt(d * Ld) / eps
              + 128 * (G + 2 * L) * alpha * math.sqrt(eta * d * T * Ld) * lg / eps
              + 16 * eta * L * alpha * lg * math.sqrt(3 * d * T * N * Ld) / eps)
    return 3 * R / (2 * eta * T) + 3 * L * eta / 4 + 3 * lemma7


def test_negative_bound_at_T_below_1_matches_a_hand_computation():
    r = rt.thm9_at_settings(10, 10**4, 1, "1e-5")
    assert float(r["T"]) == pytest.approx(10 ** (-1 / 3), rel=1e-12)
    assert float(r["printed"]) == pytest.approx(_printed_by_hand(10, 1e4, 1, 1e-5), rel=1e-9)
    assert float(r["printed"]) < -1.5e5                     # the referee's -1.6e5
    res = rt._run_t_below_1()
    assert res.verdict == "refuted" and res.severity == "hypothesis"
    assert res.root == rt.THM9_GAMMA_ROOT


def test_planted_T_at_least_1_flips_the_verdict():
    # planted: N = 100, d = 1e4, eps = 4 gives T = 635 >= 1, a positive bound
    res = rt._run_t_below_1([(100, 10**4, 4, "1e-5"), (10, 10**4, 4, "1e-5")])
    assert res.verdict == "supported"


@pytest.mark.parametrize("N, d, delta", [(10**6, 1, 0.99), (10**4, 100, 0.5), (10**3, 1, 1e-5)])
def test_route_and_printed_match_hand_computations(N, d, delta):
    r = rt.thm9_at_settings(N, d, 1, str(delta))
    assert float(r["route"]) == pytest.approx(_route_by_hand(N, d, 1, delta), rel=1e-9)
    assert float(r["printed"]) == pytest.approx(_printed_by_hand(N, d, 1, delta), rel=1e-9)


def test_constants_fail_only_above_one_over_e():
    res = rt._run_lemma7_constants()
    assert res.verdict == "refuted" and res.severity == "proof"
    assert min(res.evidence["deltas_where_route_above"]) > 1 / math.e
    assert res.evidence["n_route_above_with_printed_below_G"] >= 1
    # delta = 0.3 < 1/e is searched and never fails: 3 x Lemma 7's noise terms over the
    # printed K-terms are 1/sqrt(log(1/delta)) = 0.907 there (1.20 at delta = 0.5)
    assert 0.3 in {r["delta"] for r in res.evidence["searched"]}
    assert 1 / math.sqrt(math.log(1 / 0.3)) < 1 < 1 / math.sqrt(math.log(2))


def test_planted_small_delta_flips_the_verdict():
    res = rt._run_lemma7_constants([(N, d, 1, "1e-5") for N in (10**3, 10**6) for d in (1, 100)])
    assert res.verdict == "supported"


def _bias_by_recursion(fresh: bool) -> Fraction:
    """E|m_hat_7 - m_7| without noise, N = 3, alpha = 1/3, gamma = 1/4, gradients x in
    (1, 0, -1): m_t by the momentum recursion m_t = (1 - alpha) m_{t-1} + alpha x_t, m_hat_7
    by eq. (3) with q = 2, r = 1 written out: alpha [beta^6 G_[1,1] + ((1 - gamma) + beta^3)
    G_[2,4] + gamma G_[5,7]] (Delta = 0 for gradients constant in w)."""
    a, g = Fraction(1, 3), Fraction(1, 4)
    b, x = 1 - a, (1, 0, -1)
    perms = list(itertools.permutations(range(3)))
    draws = itertools.product(perms, repeat=3) if fresh else ((p, p, p) for p in perms)
    tot, n = Fraction(0), 0
    for pi in draws:
        seq = [x[pi[e][k]] for e in range(3) for k in range(3)][:7]
        m = Fraction(0)
        for v in seq:
            m = b * m + a * v

        def G(lo, hi):
            return sum(b ** (hi - s) * seq[s - 1] for s in range(lo, hi + 1))
        mhat = a * (b ** 6 * G(1, 1) + ((1 - g) + b ** 3) * G(2, 4) + g * G(5, 7))
        tot += abs(mhat - m)
        n += 1
    return tot / n


def test_reshuffling_bias_is_80_over_243_by_an_independent_recursion():
    assert _bias_by_recursion(True) == Fraction(80, 243) == rt.eq3_bias()
    assert _bias_by_recursion(False) == 0 == rt.eq3_bias(fresh=False)


def test_lemma7_contradicted_at_large_eps_only():
    res = rt._run_lemma7_reshuffling()
    assert res.verdict == "refuted" and res.severity == "proof" and res.root == rt.EQ3_ROOT
    rows = {r["eps"]: r for r in res.evidence["rows"]}
    # Lemma 7 by hand at d = 1, L = 0, G = 1, T = 7, alpha = 1/3, eta = gamma/N = 1/12:
    # 192 alpha log2 7 sqrt(log 2)/eps + 128 alpha sqrt(eta 7 log 2) log2 7 / eps
    Ld = math.log(2)
    hand = (192 / 3 * math.log2(7) * math.sqrt(Ld) + 128 / 3 * math.sqrt(7 / 12 * Ld) * math.log2(7)) / 1000
    assert rows[1000]["lemma7_rhs"] == pytest.approx(hand, rel=1e-12)
    assert rows[1000]["contradicted"] and not rows[1]["contradicted"]    # planted: eps = 1


def test_alg2_printed_loop_runs_T_plus_1_steps_from_0():
    # by hand: N = 4, T = 8: q = 0: r = 0..3 -> 0..3; q = 1: 4..7; q = 2: r = 0..min(3, 0) -> 8
    assert rt.loop_steps(4, 8) == list(range(0, 9))
    assert rt.loop_steps(4, 8, printed=False) == list(range(1, 9))     # planted: Algorithm 1's
    res = rt._run_alg2_loop()
    assert res.verdict == "refuted" and res.severity == "notation"
    assert res.evidence["all_have_T_plus_1_steps_from_0"]
    assert res.evidence["minimal"] == {"N": 1, "T": 1, "t_values": [0, 1]}
    with pytest.raises(ValueError, match="N and T"):
        rt.loop_steps(0, 5)


def test_thm6_sketch_index_is_0_at_multiples_of_N():
    # by hand: N = 3, i = 3: floor(3/3) = 1, r = 3 - 3 = 0; Algorithm 1: 3 = 0 * 3 + 3
    assert rt.sketch_index(3, 3) == (1, 0)
    assert rt.sketch_index(4, 3) == (1, 1)          # planted: off multiples of N it agrees
    res = rt._run_thm6_index()
    assert res.verdict == "refuted" and res.severity == "notation"
    assert res.evidence["minimal"] == {"N": 2, "i": 2, "sketch_q_r": (1, 0), "algorithm1_q_r": (0, 2)}
    assert res.evidence["differs_from_algorithm1_exactly_at_multiples_of_N"]
