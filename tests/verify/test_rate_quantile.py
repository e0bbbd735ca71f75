"""Rate checks on a quantile (``rate_check(quantile=q)``), and the procedure that decides
wang2020 Remark 1: a phase randomised by the start, judged on the (1 - zeta)-quantile.

The synthetic sequence imitates DP-TR's last step with a known rate e (derivation beside
each case): alpha(x) = x^e is the radius scale, the path of length L(u) = 0.3 + 0.6 u
(u the start) enters the last trust region of radius r(x) ~ x^(-2/7) at the phase
f = frac(L(u)/r(x)); a near-interior last step (f >= w) leaves 0.25 f^2 alpha, a boundary
one (f < w(x), a window shrinking like x^(-2/7)) leaves (0.25 + f/w) alpha, up to 1.25
alpha. Every value is X = alpha(x) times that ratio times a lognormal factor (sd 0.1).
"""

from __future__ import annotations

import json

import numpy as np
import pytest

from dptheory.stats import hierarchical_boot_quantiles
from dptheory.verify.checks import rate_check
from dptheory.verify.recipe import Recipe

E = -4.0 / 7.0
XS = [1e9 * 32.0 ** k for k in range(5)]


def _ratio(x: float, u: np.ndarray, rng: np.random.Generator) -> np.ndarray:
    r = 0.05 * (x / 1e9) ** (-2.0 / 7.0)
    w = 0.07 * (x / 1e9) ** (-2.0 / 7.0)
    f = np.mod((0.3 + 0.6 * u) / r, 1.0)
    ratio = np.where(f < w, 0.25 + f / w, 0.25 * f ** 2)
    return ratio * np.exp(0.1 * rng.standard_normal(u.size))


def _sweep(*, exponent: float = E, fixed_start: float | None = None, sets: int = 3,
           reps: int = 100, seed: int = 0) -> list[list[np.ndarray]]:
    rng = np.random.default_rng(seed)
    out = []
    for x in XS:
        groups = []
        for _ in range(sets):
            u = np.full(reps, fixed_start) if fixed_start is not None else rng.uniform(size=reps)
            groups.append(x ** exponent * _ratio(x, u, rng))
        out.append(groups)
    return out


def test_random_phase_quantile_supports_the_true_rate():
    # At w <= 0.1 the 0.9-quantile lies among the near-interior steps: P[f <= g] = g - w
    # for g >= w, so q_0.9 = 0.25 (0.9 + w)^2 alpha; w = 0.07 .. 0.0013 moves it from
    # 0.235 to 0.203: the local slopes of q_0.9 stay within 0.03 of e.
    res = rate_check(XS, _sweep(), E, tolerance=0.15, polylog=False, quantile=0.9)
    assert res.verdict == "supported", res.summary
    assert res.evidence["statistic"] == "0.9-quantile"
    assert abs(res.evidence["slope"] - E) < 0.05
    assert res.power["selftest"]["caught"]
    json.dumps(res.evidence, allow_nan=False)


@pytest.mark.parametrize("planted", [E - 0.2, -1.0])
def test_random_phase_quantile_refutes_a_planted_steeper_claim(planted):
    # the measured slope is e (within 0.03), above planted + 0.15 = e - 0.05 or -0.85
    res = rate_check(XS, _sweep(), planted, tolerance=0.15, polylog=False, quantile=0.9)
    assert res.verdict == "refuted", res.summary


def test_random_phase_quantile_refutes_a_growing_ratio():
    # X = x^(e + 0.3) ratio: the quantile decays 0.3 more slowly than claimed
    res = rate_check(XS, _sweep(exponent=E + 0.3), E, tolerance=0.15, polylog=False,
                     quantile=0.9)
    assert res.verdict == "refuted", res.summary


def test_fixed_phase_does_not_decide():
    # one start for every replicate: f(x) = frac(L/r(x)) is a deterministic function of x,
    # 0.25 f^2 jumps by up to a factor 1/w^2 between neighbouring sizes, so no two
    # successive ranges agree
    res = rate_check(XS, _sweep(fixed_start=0.37), E, tolerance=0.15, polylog=False,
                     quantile=0.9)
    assert res.verdict == "inconclusive", res.summary
    assert "pre-asymptotic" in res.summary


def test_quantile_statistic_is_the_pooled_quantile():
    groups = _sweep(reps=40)
    res = rate_check(XS, groups, E, tolerance=0.15, quantile=0.9)
    for got, gs in zip(res.evidence["means"], groups):
        assert got == np.quantile(np.concatenate(gs), 0.9)     # the same computation


def test_hierarchical_boot_quantiles():
    rng = np.random.default_rng(1)
    # constant data sets: every resample has the same pooled quantile
    same = hierarchical_boot_quantiles([[2.0] * 5, [2.0] * 7], 0.9, 50, rng)
    np.testing.assert_array_equal(same, np.full(50, 2.0))
    # one data set of 1..101: the bootstrap medians centre on the sample median 51
    med = hierarchical_boot_quantiles([np.arange(1.0, 102.0)], 0.5, 4000, rng)
    # (sd: sqrt(0.25/101) / density 1/100 = 5.0)
    assert abs(np.mean(med) - 51.0) < 1.0 and 3.0 < np.std(med) < 7.5
    with pytest.raises(ValueError, match="q must be in"):
        hierarchical_boot_quantiles([[1.0, 2.0]], 1.0, 10, rng)
    with pytest.raises(ValueError, match="at least one"):
        hierarchical_boot_quantiles([], 0.5, 10, rng)


def test_quantile_bad_input():
    with pytest.raises(ValueError, match="quantile"):
        rate_check(XS, _sweep(reps=5), E, quantile=1.5)
    with pytest.raises(ValueError, match="quantile"):
        Recipe(id="x.y:z", item="x.y", check="bound", cell="m:f", sweep={"n": [1]},
               quantile=0.9)
    with pytest.raises(ValueError, match="quantile"):
        Recipe(id="x.y:z", item="x.y", check="slope", cell="m:f", sweep={"n": [1]},
               quantile=0.0)
