"""The verdict rules on constructed cases.

Every expected verdict below is derived by hand in the comment beside it (closed-form
limits, exact power laws), not read off the code under test.
"""

from __future__ import annotations

import json
import math

import numpy as np
import pytest
import sympy as sp
from scipy import stats

from dptheory.verify.checks import (bound_check, combine, derivation_check, rate_check,
                                    stability_check, sup_check)
from dptheory.verify.verdict import CheckResult


def _ok(result: CheckResult, verdict: str) -> CheckResult:
    assert isinstance(result, CheckResult)
    assert result.verdict == verdict, result.summary
    json.dumps(result.evidence, allow_nan=False)          # evidence is strict JSON
    if verdict == "supported":
        assert result.power and result.power["statement"]
    if verdict == "refuted":
        assert result.severity and result.consequence
    return result


# ---------------------------------------------------------------------------- bound
@pytest.fixture
def around_one():
    return np.random.default_rng(0).normal(1.0, 0.1, 50)


def _limits(a, level):
    # Student-t one-sided limits, by hand
    half = stats.t.ppf(level, a.size - 1) * a.std(ddof=1) / math.sqrt(a.size)
    return a.mean() - half, a.mean() + half


def test_bound_refuted_only_when_lower_limit_exceeds(around_one):
    lo, hi = _limits(around_one, 0.95)
    r = _ok(bound_check(around_one, lo - 1e-6), "refuted")          # LCL just above the bound
    assert r.evidence["lower"] == pytest.approx(lo)
    assert bound_check(around_one, lo + 1e-6).verdict == "inconclusive"   # straddles
    # mean above the bound but the lower limit below it: never refuted
    assert bound_check(around_one, around_one.mean() - 1e-3).verdict == "inconclusive"


def test_bound_supported_states_power(around_one):
    lo, hi = _limits(around_one, 0.95)
    r = _ok(bound_check(around_one, 2.0), "supported")
    # detectable factor = mean / LCL (hand derivation in the docstring)
    assert r.power["detectable_factor"] == pytest.approx(around_one.mean() / lo)
    assert r.power["selftest"]["caught"] is True


def test_vacuous_bound_gives_vacuous(around_one):
    # tran2022 Thm 6 style: the bound (21) is above the largest value of ||grad F|| (G)
    r = _ok(bound_check(around_one, 21.0, trivial=1.5, trivial_source="||grad F|| <= G"),
            "vacuous")
    assert "cannot bind" in r.summary
    _ok(bound_check(around_one, 2.0, in_domain=0.5), "vacuous")     # left the assumptions
    # a refutation stands even where the bound would be vacuous (it is a counterexample)
    _ok(bound_check(around_one, 0.5, trivial=0.4), "refuted")


def test_bound_without_power_is_inconclusive():
    # mean 1, sd 3, n = 5: LCL = 1 - 2.132 * 3/sqrt(5) < 0, so no violation factor is
    # detectable: "supported" would be a test that could not have failed.
    a = np.array([1.0, -2.0, 4.0, 5.0, -3.0])
    assert _limits(a, 0.95)[0] < 0
    r = _ok(bound_check(a, 1e6), "inconclusive")
    assert "power" in r.summary


def test_bound_indicators_use_clopper_pearson():
    # 16 runs, no failure: the one-sided 95% upper limit is 1 - 0.05**(1/16) = 0.171 > 0.1,
    # so a failure probability bound of 0.1 cannot be supported with 16 runs.
    r = _ok(bound_check(np.zeros(16), 0.1), "inconclusive")
    assert r.evidence["upper"] == pytest.approx(1 - 0.05 ** (1 / 16))
    # 60 runs: 1 - 0.05**(1/60) = 0.0487 <= 0.1; the smallest refuted count k has
    # CP lower limit > 0.1: found by brute force here with scipy's beta quantile.
    k = next(k for k in range(61) if k and stats.beta.ppf(0.05, k, 61 - k) > 0.1)
    r = _ok(bound_check(np.zeros(60), 0.1), "supported")
    assert r.power["detectable_factor"] == pytest.approx(k / 60 / 0.1)
    _ok(bound_check(np.r_[np.ones(k), np.zeros(60 - k)], 0.1), "refuted")


def test_bonferroni_widens(around_one):
    one = bound_check(around_one, 2.0).evidence
    ten = bound_check(around_one, 2.0, tests=10).evidence
    assert ten["level"] == pytest.approx(0.995)
    assert ten["lower"] < one["lower"] and ten["upper"] > one["upper"]


def test_bound_rejects_bad_input(around_one):
    with pytest.raises(ValueError, match="bound"):
        bound_check(around_one, float("nan"))
    with pytest.raises(ValueError, match="tests"):
        bound_check(around_one, 1.0, tests=0)
    with pytest.raises(ValueError, match="planted_factor"):
        bound_check(around_one, 1.0, planted_factor=1.0)
    with pytest.raises(ValueError, match="finite"):
        bound_check([1.0, float("inf")], 1.0)


def test_combine_rules(around_one):
    sup = bound_check(around_one, 2.0)
    vac = bound_check(around_one, 2.0, trivial=1.0)
    inc = bound_check(around_one, float(around_one.mean()))
    ref = bound_check(around_one, 0.5)
    assert combine({"a": sup, "b": vac}).verdict == "supported"
    assert combine({"a": vac, "b": vac}).verdict == "vacuous"
    assert combine({"a": sup, "b": inc}).verdict == "inconclusive"
    assert combine({"a": sup, "b": inc, "c": ref}).verdict == "refuted"


# ---------------------------------------------------------------------------- rate
XS = [100.0, 200.0, 400.0, 800.0, 1600.0, 3200.0]


def _sweep(f, noise=0.03, datasets=4, reps=16, seed=0):
    rng = np.random.default_rng(seed)
    return [[f(x) * rng.lognormal(0.0, noise, reps) for _ in range(datasets)] for x in XS]


def test_faster_than_bound_decay_is_not_refuted():
    # yang2022 w0 = 1 style: the error falls as x^-1.3, the bound claims x^-0.5. An upper
    # bound is never contradicted by a steeper decay.
    r = _ok(rate_check(XS, _sweep(lambda x: 2 * x ** -1.3), -0.5, tolerance=0.15), "supported")
    assert "faster" in r.summary
    assert r.power["selftest"]["caught"] is True


def test_planted_wrong_exponent_is_refuted():
    # truth x^-0.5 exactly (noise 3%), claim x^-1: the tail slope -0.5 is shallower than
    # -1 + 0.1 and every local slope is -0.5 (stable): refuted in a non-vacuous regime.
    r = _ok(rate_check(XS, _sweep(lambda x: 3 * x ** -0.5), -1.0, tolerance=0.1), "refuted")
    assert r.severity == "rate"
    assert abs(r.evidence["slope"] + 0.5) < 0.05
    # the claim at the truth is supported
    _ok(rate_check(XS, _sweep(lambda x: 3 * x ** -0.5), -0.5, tolerance=0.1), "supported")


def test_pre_asymptotic_sweep_is_inconclusive():
    # Q = 1/(1 + x/x0), x0 = 1000, is O(1/x). The judged window is the last 5 points,
    # 200..3200, split into the ranges 200..800 and 800..3200; a least-squares slope over
    # three log-equispaced points is the end-to-end slope, so
    #   s1 = log((1 + 0.2)/(1 + 0.8))/log 4 = -0.29,  s2 = log((1 + 0.8)/(1 + 3.2))/log 4 = -0.61:
    # they differ by 0.32, beyond the 0.1 stability tolerance. s2 is shallower than -1, yet
    # this is pre-asymptotic, not a refutation.
    r = _ok(rate_check(XS, _sweep(lambda x: 1 / (1 + x / 1000), noise=0.005), -1.0,
                       tolerance=0.1), "inconclusive")
    assert "pre-asymptotic" in r.summary
    s1, s2 = r.evidence["last_ranges"]
    assert s1 == pytest.approx(math.log(1.2 / 1.8) / math.log(4), abs=0.01)
    assert s2 == pytest.approx(math.log(1.8 / 4.2) / math.log(4), abs=0.01)


def test_rate_vacuous_points_are_dropped():
    sweep = _sweep(lambda x: 3 * x ** -0.5)
    why = "the start point is already an alpha-SOSP"
    r = _ok(rate_check(XS, sweep, -0.5, vacuous=[why] * 6), "vacuous")
    assert why in r.summary
    r = rate_check(XS, sweep, -0.5, vacuous=[why] * 4 + [None] * 2)
    _ok(r, "inconclusive")                      # two live points: one range, nothing to judge
    _ok(rate_check(XS, sweep, -0.5, vacuous=[why] * 3 + [None] * 3), "supported")


def test_rate_noisy_sweep_lacks_power():
    # noise 60% with 3 replicates: local slopes cannot be shown stable, nor a shift of 0.25
    r = rate_check(XS, _sweep(lambda x: x ** -0.5, noise=0.6, datasets=1, reps=3), -0.5)
    _ok(r, "inconclusive")


def test_rate_dataset_variability_widens():
    # the same replicate noise, plus a per-data-set factor: one data set per point hides
    # it (narrow), several data sets show it (wide)
    rng = np.random.default_rng(3)
    def groups(k):
        return [[x ** -0.5 * rng.lognormal(0, 0.3) * rng.lognormal(0, 0.02, 16)
                 for _ in range(k)] for x in XS]
    wide = rate_check(XS, groups(6), -0.5).evidence
    assert wide["upper"] - wide["lower"] > 0.1


def test_rate_per_range_expected_and_bad_input():
    sweep = _sweep(lambda x: 3 * x ** -0.5)
    _ok(rate_check(XS, sweep, [-0.5] * 5), "supported")
    with pytest.raises(ValueError, match="per range"):
        rate_check(XS, sweep, [-0.5] * 4)
    with pytest.raises(ValueError, match="tolerance"):
        rate_check(XS, sweep, -0.5, tolerance=-1)
    with pytest.raises(ValueError, match="one entry per x"):
        rate_check(XS[:3], sweep, -0.5)


# ---------------------------------------------------------------------------- sup
def test_sup_check():
    _ok(sup_check([0.5, 1.0, 1.0 + 1e-12], 1.0), "supported")             # float round-off
    r = _ok(sup_check([0.5, 1.1], 1.0, examples=[{"i": 0}, {"i": 1}]), "refuted")
    assert r.evidence["worst_example"] == {"i": 1}
    # tran2022 Prop. 13 style: the printed bound is 0 and a leaf moves
    _ok(sup_check(0.1375, 0.0), "refuted")
    # a search that reaches 0.3 of the bound cannot support it (min_reach 0.5)
    r = _ok(sup_check([0.3], 1.0), "inconclusive")
    assert "too weak" in r.summary
    r = _ok(sup_check([0.6], 1.0), "supported")
    assert r.power["reach"] == pytest.approx(0.6)
    _ok(sup_check([], 1.0), "inconclusive")
    with pytest.raises(ValueError, match="NaN"):
        sup_check([float("nan")], 1.0)


# ---------------------------------------------------------------------------- stability
def test_stability_check():
    rng = np.random.default_rng(4)
    pairs = rng.normal(0.1, 0.01, (5, 40))
    _ok(stability_check(pairs, 0.2), "supported")
    # zhang2021 Thm 3.3 style: alpha = 5e10 while the gap can be at most 2 sup|f| = 2
    _ok(stability_check(pairs, 5e10, trivial=2.0), "vacuous")
    bad = pairs.copy()
    bad[3] += 0.4
    r = _ok(stability_check(bad, 0.2), "refuted")
    assert "pair 3" in r.summary


# ---------------------------------------------------------------------------- derivation
def test_derivation_verdicts():
    from dptheory.symbolic.derive import Derivation
    n, d, eps = sp.symbols("n d eps", positive=True)
    _ok(derivation_check(Derivation("p.thm1", "agrees", stated="1/n", derived="1/n")),
        "supported")
    # a loose sufficient condition agrees: derived <= stated everywhere
    r = _ok(derivation_check(Derivation("p.thm2", "agrees-loose", stated="d/alpha**(7/4)",
                                        derived="sqrt(d)/alpha**(7/4)")), "supported")
    assert "loose" in r.summary
    r = _ok(derivation_check(Derivation("p.thm3", "agrees-in-regime",
                                        regime=sp.Le(d, (eps * n) ** 2))), "supported")
    assert "only when" in r.summary
    r = _ok(derivation_check(Derivation("p.thm4", "disagrees", stated="1/n",
                                        derived="1/sqrt(n)")), "refuted")
    assert r.severity == "rate"
    _ok(derivation_check({"id": "p.thm5", "verdict": "not-derivable", "reason": "x"}),
        "inconclusive")
    with pytest.raises(ValueError, match="verdict"):
        derivation_check({"verdict": "maybe"})


def test_lower_bound_direction(around_one):
    lo, hi = _limits(around_one, 0.95)
    # E[X] >= b: refuted iff the upper limit is below b; power = upper/mean (hand derivation)
    _ok(bound_check(around_one, hi + 1e-6, direction="lower"), "refuted")
    r = _ok(bound_check(around_one, 0.5, direction="lower"), "supported")
    assert r.power["detectable_factor"] == pytest.approx(hi / around_one.mean())
    assert bound_check(around_one, hi - 1e-6, direction="lower").verdict == "inconclusive"
    # a lower bound at or below the smallest possible value cannot bind
    _ok(bound_check(around_one, 0.5, direction="lower", trivial=0.6), "vacuous")
    with pytest.raises(ValueError, match="direction"):
        bound_check(around_one, 1.0, direction="both")


def test_polylog_allowance_only_when_the_rate_hides_one():
    """A slope shown shallower than the exponent, within the tolerance, is supported only
    when the claimed rate hides a polylog in x (recall item 9)."""
    # truth x^-0.5 (1/log x would add ~ +0.1 over this range; here the power itself is
    # shallower): the claim x^-0.6 with tolerance 0.15 has lo > -0.6 but hi < -0.45
    sweep = _sweep(lambda x: 3 * x ** -0.5, noise=0.01)
    with_log = rate_check(XS, sweep, -0.6, tolerance=0.15, polylog=True)
    without = rate_check(XS, sweep, -0.6, tolerance=0.15, polylog=False)
    assert with_log.evidence["lower"] > -0.6
    _ok(with_log, "supported")
    _ok(without, "inconclusive")
    assert "hides no polylogarithmic factor" in without.summary
    # at the true exponent the interval reaches it: supported either way
    _ok(rate_check(XS, sweep, -0.5, tolerance=0.15, polylog=False), "supported")
    # a slope beyond the tolerance is refuted either way
    _ok(rate_check(XS, sweep, -0.8, tolerance=0.15, polylog=False), "refuted")


def test_engine_reads_the_polylog_from_the_items_rate():
    from dptheory.verify.engine import rate_hides_polylog
    assert rate_hides_polylog("zhang2017.thm3.eps", "n") is False     # O(n^-2/3): no log
    assert rate_hides_polylog("tran2022.thm6", "n") is True           # O~
    assert rate_hides_polylog("no.such_item", "n") is False


def test_envelope_rate_check_decides_by_hand():
    from dptheory.verify.checks import envelope_rate_check
    # L = c n^(-2/3), U = 26 c n^(-2/3): both exact slopes are -2/3 by construction
    n = np.logspace(4, 9, 6)
    lo, up = 1e-3 * n ** (-2 / 3), 2.6e-2 * n ** (-2 / 3)
    kw = dict(tolerance=0.15, polylog=False, derivation="by hand")
    ok = envelope_rate_check(n, lo, up, -2 / 3, **kw)
    assert ok.verdict == "supported" and ok.power["selftest"]["caught"]
    assert ok.evidence["upper_slope"] == pytest.approx(-2 / 3)
    assert envelope_rate_check(n, lo, up, -0.5, **kw).verdict == "supported"    # weaker claim
    for wrong in (-1.0, -2.0):                                  # planted wrong exponents
        assert envelope_rate_check(n, lo, up, wrong, **kw).verdict == "refuted"
    # envelopes 1/3 apart in exponent cannot pin the rate: no power
    loose = envelope_rate_check(n, 1e-3 * n ** -1.0, up, -2 / 3, **kw)
    assert loose.verdict == "inconclusive" and "too little power" in loose.summary
    # an upper envelope shallower than the claim decides nothing (the quantity may be lower)
    assert envelope_rate_check(n, lo, up * n ** 0.3, -2 / 3, **kw).verdict == "inconclusive"
    with pytest.raises(ValueError, match="lower <= upper"):
        envelope_rate_check(n, up, lo, -2 / 3, **kw)
    with pytest.raises(ValueError, match="one value per x"):
        envelope_rate_check(n, lo[:-1], up, -2 / 3, **kw)
