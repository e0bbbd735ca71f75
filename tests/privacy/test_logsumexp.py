"""The accountant's NumPy log-sum-exp equals SciPy's, bit for bit."""

from __future__ import annotations

import numpy as np
import pytest
from scipy import special

from dptheory.privacy.rdp import logsumexp


def _cases():
    rng = np.random.default_rng(0)
    for size in (1, 2, 3, 10, 64, 257):
        for scale in (1.0, 50.0, 700.0):
            a = rng.standard_normal(size) * scale
            yield a, None
            yield a, rng.choice([-1.0, 1.0], size)
            yield a, rng.standard_normal(size)
    yield np.array([0.0, 0.0, -1.0]), None                      # tied maxima
    yield np.array([3.0, 3.0, 1.0]), np.array([1.0, -1.0, 1.0])  # tied maxima cancel
    yield np.array([-np.inf, 0.5, 2.0]), None
    yield np.array([-np.inf, -np.inf]), None                    # empty sum
    yield np.array([1.0, 2.0, 5.0]), np.array([1.0, 0.0, -1.0])  # a zero weight
    yield np.array([1000.0, 999.0]), np.array([1.0, -1.0])      # large, cancelling
    yield np.array([1e308, 1e308]), None                        # overflow of the shift form


@pytest.mark.parametrize("a,b", list(_cases()))
def test_equals_scipy(a, b):
    want, want_sign = special.logsumexp(a, b=b, return_sign=True)
    got, got_sign = logsumexp(a, b)
    assert got_sign == want_sign
    np.testing.assert_array_equal(got, want)
