"""Tests of dptheory.privacy.samplers against closed forms (Gamma, chi-square, Laplace)."""

from __future__ import annotations

import math

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from hypothesis.extra.numpy import arrays
from scipy import stats

from dptheory.privacy import samplers

HYP = settings(derandomize=True, database=None, max_examples=150, deadline=None)
P_MIN = 1e-4   # fixed seeds: a correct sampler passes these goodness-of-fit tests deterministically


def rng(seed: int = 0) -> np.random.Generator:
    return np.random.default_rng(seed)


# ----------------------------------------------------------------------------- shapes and dtypes
def test_shapes_and_dtype():
    assert samplers.gaussian(rng(), (4, 3), 1.0).shape == (4, 3)
    assert samplers.gaussian(rng(), 5, 1.0).shape == (5,)
    assert samplers.laplace(rng(), (2, 7), 0.5).dtype == np.float64
    assert samplers.l2_laplace(rng(), 6, 4, 2.0).shape == (6, 4)
    assert samplers.symmetric_gaussian_matrix(rng(), 3, 5, 1.0).shape == (3, 5, 5)


def test_reproducible_from_seed():
    a = samplers.l2_laplace(rng(7), 10, 3, 1.0)
    b = samplers.l2_laplace(rng(7), 10, 3, 1.0)
    assert np.array_equal(a, b)


def test_gaussian_zero_std_is_zero():
    assert not samplers.gaussian(rng(), (3, 2), 0.0).any()


# ----------------------------------------------------------------------------- validation
@pytest.mark.parametrize("call, match", [
    (lambda: samplers.gaussian(rng(), (2,), -1.0), "std must be >= 0"),
    (lambda: samplers.gaussian(rng(), (2,), float("nan")), "std must not be NaN"),
    (lambda: samplers.gaussian(rng(), (-1,), 1.0), "shape must contain integers >= 0"),
    (lambda: samplers.gaussian(np.random.RandomState(0), (2,), 1.0), "rng must be a numpy.random.Generator"),
    (lambda: samplers.laplace(rng(), (2,), -1), "scale must be > 0"),
    (lambda: samplers.laplace(rng(), (2,), 0.0), "scale must be > 0"),
    (lambda: samplers.l2_laplace(rng(), 0, 3, 1.0), "reps must be >= 1"),
    (lambda: samplers.l2_laplace(rng(), 2, 0, 1.0), "d must be >= 1"),
    (lambda: samplers.l2_laplace(rng(), 2, 3, float("inf")), "scale must be > 0 and finite"),
    (lambda: samplers.l2_laplace(rng(), 2.5, 3, 1.0), "reps must be an integer"),
    (lambda: samplers.symmetric_gaussian_matrix(rng(), 2, 0, 1.0), "p must be >= 1"),
    (lambda: samplers.clip_per_sample(np.ones((2, 3)), 0.0), "C must be > 0"),
    (lambda: samplers.clip_per_sample(np.ones(3), 1.0), "g must have shape"),
    (lambda: samplers.normalize_per_sample(np.ones((2, 3)), 0.0), "r must be > 0"),
    (lambda: samplers.normalize_per_sample(np.ones((2, 3)), float("inf")), "r must be > 0"),
])
def test_validation_names_parameter(call, match):
    with pytest.raises(ValueError, match=match):
        call()


# ----------------------------------------------------------------------------- laws
def test_gaussian_law_ks():
    x = samplers.gaussian(rng(1), (50_000,), 2.5)
    assert stats.kstest(x, stats.norm(scale=2.5).cdf).pvalue > P_MIN


def test_laplace_law_ks():
    x = samplers.laplace(rng(2), (50_000,), 0.7)
    assert stats.kstest(x, stats.laplace(scale=0.7).cdf).pvalue > P_MIN


@pytest.mark.parametrize("d, scale", [(1, 1.0), (3, 0.5), (20, 2.0)])
def test_l2_laplace_radius_is_gamma(d, scale):
    # density exp(-||z||/scale) in R^d <=> radius ~ Gamma(shape d, scale) (polar coordinates)
    z = samplers.l2_laplace(rng(3 + d), 40_000, d, scale)
    r = np.linalg.norm(z, axis=1)
    assert stats.kstest(r, stats.gamma(a=d, scale=scale).cdf).pvalue > P_MIN


def test_l2_laplace_d1_is_laplace():
    # in d = 1 the law exp(-|z|/scale) is exactly Laplace(0, scale)
    z = samplers.l2_laplace(rng(11), 50_000, 1, 1.3)[:, 0]
    assert stats.kstest(z, stats.laplace(scale=1.3).cdf).pvalue > P_MIN


def test_l2_laplace_direction_uniform():
    # projections of a uniform direction on S^{d-1} onto a fixed axis: (u1 + 1)/2 ~ Beta((d-1)/2, (d-1)/2)
    d = 5
    z = samplers.l2_laplace(rng(5), 40_000, d, 1.0)
    u = z / np.linalg.norm(z, axis=1, keepdims=True)
    for axis in (0, d - 1):
        p = stats.kstest((u[:, axis] + 1) / 2, stats.beta((d - 1) / 2, (d - 1) / 2).cdf).pvalue
        assert p > P_MIN
    # radius and direction independent: correlation of r with |u_1| is ~0
    r = np.linalg.norm(z, axis=1)
    c = np.corrcoef(r, np.abs(u[:, 0]))[0, 1]
    assert abs(c) < 4.5 / math.sqrt(len(r))


def test_l2_laplace_second_moment_mc():
    # zhang2017 Lemma 6 via Gamma moments: E r^2 = d(d+1)s^2, Var r^2 = s^4 (d(d+1)(d+2)(d+3) - d^2(d+1)^2)
    d, s, n = 4, 0.8, 100_000
    z = samplers.l2_laplace(rng(9), n, d, s)
    sq = (z * z).sum(axis=1)
    var = s**4 * (d * (d + 1) * (d + 2) * (d + 3) - (d * (d + 1)) ** 2)
    assert abs(sq.mean() - d * (d + 1) * s**2) < 4.5 * math.sqrt(var / n)


def test_gaussian_squared_norm_is_chi2():
    d, s = 6, 1.7
    z = samplers.gaussian(rng(4), (40_000, d), s)
    q = (z * z).sum(axis=1) / s**2
    assert stats.kstest(q, stats.chi2(d).cdf).pvalue > P_MIN


# ----------------------------------------------------------------------------- symmetric matrix
def test_symmetric_matrix_exactly_symmetric():
    h = samplers.symmetric_gaussian_matrix(rng(), 4, 6, 1.0)
    assert np.array_equal(h, np.swapaxes(h, 1, 2))


def test_symmetric_matrix_entry_variances_chi2():
    # each upper-triangle entry (diagonal included): sum of squares over reps / std^2 ~ chi2(reps)
    p, reps, std = 4, 4000, 1.9
    h = samplers.symmetric_gaussian_matrix(rng(12), reps, p, std)
    iu = np.triu_indices(p)
    ss = (h[:, iu[0], iu[1]] ** 2).sum(axis=0) / std**2
    pvals = stats.chi2(reps).sf(ss)
    two_sided = 2 * np.minimum(pvals, 1 - pvals)
    # Bonferroni over the p(p+1)/2 entries
    assert two_sided.min() > P_MIN / len(ss)
    # pooled: all upper entries together ~ chi2(reps * p(p+1)/2)
    tot = ss.sum()
    pv = stats.chi2(reps * len(ss)).sf(tot)
    assert P_MIN < pv < 1 - P_MIN


def test_symmetric_matrix_upper_entries_uncorrelated():
    p, reps = 3, 20_000
    h = samplers.symmetric_gaussian_matrix(rng(13), reps, p, 1.0)
    iu = np.triu_indices(p)
    c = np.corrcoef(h[:, iu[0], iu[1]].T)
    off = c[~np.eye(len(c), dtype=bool)]
    assert np.max(np.abs(off)) < 4.5 / math.sqrt(reps)


# ----------------------------------------------------------------------------- per-sample operators
grads = arrays(np.float64, st.tuples(st.integers(1, 3), st.integers(1, 5), st.integers(1, 4)),
               elements=st.floats(-1e6, 1e6, allow_nan=False, allow_infinity=False))


@HYP
@given(g=grads, C=st.floats(1e-3, 1e3))
def test_clip_norm_at_most_C_and_direction_kept(g, C):
    out = samplers.clip_per_sample(g, C)
    n_in = np.linalg.norm(g, axis=-1)
    n_out = np.linalg.norm(out, axis=-1)
    assert np.all(n_out <= C * (1 + 1e-12))
    # unclipped rows are untouched; clipped rows have norm C and the same direction
    small = n_in <= C
    assert np.array_equal(out[small], g[small])
    big = ~small
    assert np.allclose(n_out[big], C, rtol=1e-12)
    assert np.allclose(out[big] * n_in[big][:, None], g[big] * C, rtol=1e-9, atol=1e-9 * C)


@HYP
@given(g=grads)
def test_clip_inf_is_identity(g):
    out = samplers.clip_per_sample(g, math.inf)
    assert np.array_equal(out, g)
    assert out is not g


def test_clip_zero_gradient_stays_zero():
    g = np.zeros((1, 2, 3))
    assert np.array_equal(samplers.clip_per_sample(g, 0.5), g)


@HYP
@given(g=grads, r=st.floats(1e-6, 1e3))
def test_normalized_norm_below_one(g, r):
    out = samplers.normalize_per_sample(g, r)
    n_in = np.linalg.norm(g, axis=-1)
    n_out = np.linalg.norm(out, axis=-1)
    assert np.all(n_out < 1.0)
    assert np.allclose(n_out, n_in / (n_in + r), rtol=1e-12, atol=1e-150)  # norms of subnormal squares lose digits


def test_normalize_values():
    g = np.array([[[3.0, 4.0], [0.0, 0.0]]])
    out = samplers.normalize_per_sample(g, 1.0)
    assert np.allclose(out[0, 0], [0.5, 2 / 3])
    assert np.array_equal(out[0, 1], [0.0, 0.0])


def test_symmetric_gaussian_matrices_equal_one_call_per_generator():
    # one pass over several generators gives each generator's own single-matrix draw
    got = samplers.symmetric_gaussian_matrices([rng(5), rng(6), rng(7)], 4, 0.3)
    want = np.concatenate([samplers.symmetric_gaussian_matrix(rng(s), 1, 4, 0.3) for s in (5, 6, 7)])
    np.testing.assert_array_equal(got, want)
    assert samplers.symmetric_gaussian_matrices([], 4, 0.3).shape == (0, 4, 4)
    with pytest.raises(ValueError, match="p must be >= 1"):
        samplers.symmetric_gaussian_matrices([rng()], 0, 1.0)
    with pytest.raises(ValueError, match="std"):
        samplers.symmetric_gaussian_matrices([rng()], 2, -1.0)
