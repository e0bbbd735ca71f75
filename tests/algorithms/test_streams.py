"""ReplicateStreams: the vectorised subset sampler equals the sequential partial Fisher-Yates
loop, draws uniform subsets, and rows do not depend on batching."""

from __future__ import annotations

import math

import numpy as np
import pytest
from scipy import stats

from simulations.algorithms.base import ReplicateStreams, partial_fisher_yates


def _loop(perm: np.ndarray, u: np.ndarray) -> np.ndarray:
    """The textbook sequential partial Fisher-Yates shuffle (the definition)."""
    reps, n = perm.shape
    for r in range(reps):
        for j in range(u.shape[1]):
            k = j + min(int(u[r, j] * (n - j)), n - j - 1)
            perm[r, j], perm[r, k] = perm[r, k], perm[r, j]
    return perm[:, :u.shape[1]].copy()


@pytest.mark.parametrize("n,size,reps", [(1, 1, 3), (2, 1, 5), (8, 2, 9), (20, 5, 30),
                                         (100, 25, 20), (1000, 100, 8), (50, 12, 100)])
def test_partial_fisher_yates_equals_the_loop(n, size, reps):
    rng = np.random.default_rng(n * 31 + size)
    p_loop = np.tile(np.arange(n), (reps, 1))
    p_vec = p_loop.copy()
    for call in range(12):
        u = rng.random((reps, size))
        if call % 3 == 0:                      # coarse uniforms: many repeated positions
            u = np.floor(u * 3) / 3
        np.testing.assert_array_equal(partial_fisher_yates(p_vec, u), _loop(p_loop, u))
        np.testing.assert_array_equal(p_vec, p_loop)     # the persistent state too


def test_subsets_are_uniform_and_without_replacement():
    n, size, draws = 12, 3, 6000
    s = ReplicateStreams(3, 1)
    counts: dict[tuple, int] = {}
    for _ in range(draws):
        sub = s.subsets(n, size)[0]
        assert len(set(sub.tolist())) == size
        key = tuple(sorted(sub.tolist()))
        counts[key] = counts.get(key, 0) + 1
    m = math.comb(n, size)
    obs = np.array([counts.get(c, 0) for c in counts] + [0] * (m - len(counts)))
    assert stats.chisquare(obs).pvalue > 1e-4


def test_subsets_rows_do_not_depend_on_batching():
    a = ReplicateStreams(7, 6)
    b = ReplicateStreams(7, 2, first_replicate=4)
    for _ in range(5):
        np.testing.assert_array_equal(a.subsets(1000, 40)[4:], b.subsets(1000, 40))
