"""Statistics against independent computations (scipy intervals, polyfit, binomial tails)."""

from __future__ import annotations

import math

import numpy as np
import pytest
from scipy import stats

from dptheory.stats import clopper_pearson, loglog_slope, mean_ci


@pytest.mark.parametrize("confidence", [0.8, 0.95, 0.99])
@pytest.mark.parametrize("n", [2, 5, 40])
def test_t_interval_matches_scipy(confidence, n):
    x = np.random.default_rng(n).gamma(2.0, 3.0, n)
    ci = mean_ci(x, confidence)
    lo, hi = stats.t.interval(confidence, n - 1, loc=x.mean(), scale=stats.sem(x))
    assert ci.estimate == pytest.approx(x.mean(), rel=1e-15)
    assert (ci.low, ci.high) == pytest.approx((lo, hi), rel=1e-12)
    assert ci.n == n and ci.method == "t" and ci.confidence == confidence


def test_bootstrap_interval_is_seeded_and_close_to_t_for_normal_data():
    x = np.random.default_rng(3).normal(10.0, 2.0, 400)
    boot = mean_ci(x, 0.95, method="bootstrap", seed=1)
    assert boot == mean_ci(x, 0.95, method="bootstrap", seed=1)
    t = mean_ci(x, 0.95)
    assert boot.low == pytest.approx(t.low, abs=0.1 * (t.high - t.low))
    assert boot.high == pytest.approx(t.high, abs=0.1 * (t.high - t.low))
    assert boot.low < x.mean() < boot.high


def test_degenerate_samples():
    one = mean_ci([2.5])
    assert one.estimate == 2.5 and one.low == -math.inf and one.high == math.inf
    const = mean_ci([1.5] * 10)
    assert const.low == const.high == 1.5
    const_b = mean_ci([1.5] * 10, method="bootstrap")
    assert const_b.low == const_b.high == 1.5


@pytest.mark.parametrize("bad, match", [([], "empty"), ([1.0, float("nan")], "finite"),
                                        ([[1.0, 2.0]], "one-dimensional"), ("ab", "numbers")])
def test_mean_ci_rejects_bad_samples(bad, match):
    with pytest.raises(ValueError, match=match):
        mean_ci(bad)


def test_mean_ci_rejects_bad_options():
    with pytest.raises(ValueError, match="confidence"):
        mean_ci([1.0, 2.0], 1.0)
    with pytest.raises(ValueError, match="method"):
        mean_ci([1.0, 2.0], method="normal")
    with pytest.raises(ValueError, match="n_boot"):
        mean_ci([1.0, 2.0], method="bootstrap", n_boot=10)


@pytest.mark.parametrize("slope", [-1.0, -0.5, 0.25, 2.0])
def test_slope_of_exact_power_law(slope):
    xs = np.array([100.0, 200.0, 400.0, 800.0, 1600.0])
    ys = 3.7 * xs ** slope
    fit = loglog_slope(xs, [[y] * 4 for y in ys])
    ref_slope, ref_intercept = np.polyfit(np.log(xs), np.log(ys), 1)
    assert fit.slope == pytest.approx(ref_slope, abs=1e-12) == pytest.approx(slope, abs=1e-12)
    assert fit.intercept == pytest.approx(ref_intercept, abs=1e-10)
    assert fit.low == pytest.approx(slope, abs=1e-12) and fit.high == pytest.approx(slope, abs=1e-12)
    assert fit.reps == (4,) * 5 and fit.n_dropped == 0


def test_slope_of_noisy_power_law_uses_means_and_covers_truth():
    rng = np.random.default_rng(11)
    xs = [64.0, 128.0, 256.0, 512.0, 1024.0, 2048.0]
    samples = [2.0 * x ** -0.5 * rng.lognormal(0.0, 0.3, 30) for x in xs]
    fit = loglog_slope(xs, samples, seed=5)
    means = [s.mean() for s in samples]
    assert fit.slope == pytest.approx(np.polyfit(np.log(xs), np.log(means), 1)[0], abs=1e-12)
    assert fit.means == pytest.approx(tuple(means), rel=1e-15)
    assert fit.low < -0.5 < fit.high and fit.high - fit.low < 0.2
    assert fit == loglog_slope(xs, samples, seed=5)               # seeded
    wider = loglog_slope(xs, samples, confidence=0.99, seed=5)
    assert wider.low <= fit.low and wider.high >= fit.high


def test_loglog_slope_rejects_bad_input():
    with pytest.raises(ValueError, match="positive"):
        loglog_slope([0.0, 1.0], [[1.0], [2.0]])
    with pytest.raises(ValueError, match="distinct"):
        loglog_slope([2.0, 2.0], [[1.0], [2.0]])
    with pytest.raises(ValueError, match="one entry per x"):
        loglog_slope([1.0, 2.0], [[1.0]])
    with pytest.raises(ValueError, match="positive means"):
        loglog_slope([1.0, 2.0], [[1.0], [-1.0, 0.5]])


@pytest.mark.parametrize("n", [1, 10, 57])
def test_clopper_pearson_edges_closed_form(n):
    alpha = 0.05
    lo, hi = clopper_pearson(0, n)
    assert lo == 0.0 and hi == pytest.approx(1 - (alpha / 2) ** (1 / n), rel=1e-10)
    lo, hi = clopper_pearson(n, n)
    assert hi == 1.0 and lo == pytest.approx((alpha / 2) ** (1 / n), rel=1e-10)


def test_clopper_pearson_known_values():
    # k=5, n=10, 95%: (0.187086, 0.812914) — the textbook table value
    lo, hi = clopper_pearson(5, 10)
    assert (lo, hi) == pytest.approx((0.187086, 0.812914), abs=1e-6)


@pytest.mark.parametrize("k, n, confidence", [(3, 20, 0.95), (17, 50, 0.9), (480, 1000, 0.99)])
def test_clopper_pearson_inverts_binomial_tails(k, n, confidence):
    alpha = 1 - confidence
    lo, hi = clopper_pearson(k, n, confidence)
    assert stats.binom.sf(k - 1, n, lo) == pytest.approx(alpha / 2, rel=1e-8)   # P(X >= k)
    assert stats.binom.cdf(k, n, hi) == pytest.approx(alpha / 2, rel=1e-8)      # P(X <= k)
    lo1, one = clopper_pearson(k, n, confidence, alternative="lower")
    assert one == 1.0 and stats.binom.sf(k - 1, n, lo1) == pytest.approx(alpha, rel=1e-8)
    zero, hi1 = clopper_pearson(k, n, confidence, alternative="upper")
    assert zero == 0.0 and stats.binom.cdf(k, n, hi1) == pytest.approx(alpha, rel=1e-8)
    assert lo < lo1 < k / n < hi1 < hi


def test_clopper_pearson_rejects_bad_input():
    for args, match in [((-1, 5), "k"), ((6, 5), "k"), ((1, 0), "n"), ((1.0, 5), "k"),
                        ((True, 5), "k")]:
        with pytest.raises(ValueError, match=match):
            clopper_pearson(*args)
    with pytest.raises(ValueError, match="alternative"):
        clopper_pearson(1, 5, alternative="greater")
