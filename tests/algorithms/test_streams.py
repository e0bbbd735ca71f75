"""ReplicateStreams: the vectorised subset sampler equals the sequential partial Fisher-Yates
loop, draws uniform subsets, and rows do not depend on batching."""

from __future__ import annotations

import math

import numpy as np
import pytest
from scipy import stats

from dptheory_simulations.algorithms.base import ReplicateStreams, partial_fisher_yates


def _loop(n: int, u: np.ndarray) -> np.ndarray:
    """The textbook sequential partial Fisher-Yates shuffle of 0..n-1 (the definition)."""
    out = []
    for row in u:
        perm = list(range(n))
        for j, uj in enumerate(row):
            k = j + min(int(uj * (n - j)), n - j - 1)
            perm[j], perm[k] = perm[k], perm[j]
        out.append(perm[:len(row)])
    return np.array(out)


@pytest.mark.parametrize("n,size,rows", [(1, 1, 3), (2, 1, 5), (8, 2, 9), (20, 5, 30),
                                         (100, 25, 200), (1000, 100, 8), (50, 12, 300),
                                         (16, 16, 40)])
def test_partial_fisher_yates_equals_the_loop(n, size, rows):
    rng = np.random.default_rng(n * 31 + size)
    for coarse in (False, True):
        u = rng.random((rows, size))
        if coarse:                             # coarse uniforms: many repeated positions
            u = np.floor(u * 3) / 3
        np.testing.assert_array_equal(partial_fisher_yates(n, u), _loop(n, u))


def test_partial_fisher_yates_at_large_n_equals_the_loop():
    # n * size >= 2**31: the int64 path (the int32 one would overflow k * size + j); the
    # loop keeps only the moved positions (a dict), since a list of n values is too large
    n, size = 2**28 + 3, 8
    u = np.random.default_rng(5).random((20, size))
    k0 = np.floor(u[:, 0] * n)
    u[:, 1] = (k0 - 1 + 0.5) / (n - 1)          # swap 1 targets swap 0's position k_0
    u[:, 2] = 3.5 / (n - 2)                      # swap 2 targets position 5 < size
    want = []
    for row in u:
        moved: dict[int, int] = {}
        for j, uj in enumerate(row):
            k = j + min(int(uj * (n - j)), n - j - 1)
            moved[j], moved[k] = moved.get(k, k), moved.get(j, j)
        want.append([moved.get(j, j) for j in range(size)])
    np.testing.assert_array_equal(partial_fisher_yates(n, u), np.array(want))


def test_blocks_of_steps_equal_single_steps():
    for n, size in [(1000, 10), (12, 5)]:          # the partial-shuffle and the argsort path
        a, b = ReplicateStreams(4, 3), ReplicateStreams(4, 3)
        block = a.subsets(n, size, steps=6)
        assert block.shape == (3, 6, size)
        for t in range(6):
            np.testing.assert_array_equal(block[:, t], b.subsets(n, size))


def test_subsets_validate():
    s = ReplicateStreams(0, 2)
    with pytest.raises(ValueError, match="subset size"):
        s.subsets(5, 6)
    with pytest.raises(ValueError, match="steps must be an integer >= 1"):
        s.subsets(5, 2, steps=0)


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
