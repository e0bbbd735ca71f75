"""Synthetic generators: seeded, bounded norms; real-data loaders fail clearly without sklearn."""

from __future__ import annotations

import builtins

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from dptheory_simulations.objectives import FAMILIES, get
from dptheory_simulations.objectives import data as D


@settings(max_examples=30, deadline=None)
@given(n=st.integers(1, 50), d=st.integers(1, 12), seed=st.integers(0, 10 ** 6),
       radius=st.floats(0.1, 10))
def test_generators_bounded_and_seeded(n, d, seed, radius):
    for gen in (D.bounded_gaussian, D.uniform_ball):
        X = gen(n, d, seed, radius=radius)
        assert X.shape == (n, d)
        assert np.all(np.linalg.norm(X, axis=1) <= radius * (1 + 1e-12))
        np.testing.assert_array_equal(X, gen(n, d, seed, radius=radius))
    data, w = D.planted_logistic(n, d, seed)
    assert set(np.unique(data.y)) <= {-1.0, 1.0}
    data, w = D.planted_linear(n, d, seed, noise=0.2)
    assert np.all(np.abs(data.y) <= 1.0 + 0.6 + 1e-12)


@pytest.mark.parametrize("name", sorted(FAMILIES))
def test_family_data_is_reproducible(name):
    obj = get(name)
    n = 5
    a, b = obj.make_data(n, 42), obj.make_data(n, np.random.default_rng(42))
    np.testing.assert_array_equal(a.X, b.X)
    np.testing.assert_array_equal(a.y, b.y)
    assert a.max_norm <= 1.0 + 1e-12


def test_normalize_rows():
    X = D.normalize_rows([[3.0, 4.0], [0.0, 0.0]])
    np.testing.assert_allclose(X, [[0.6, 0.8], [0.0, 0.0]])
    with pytest.raises(ValueError, match="2-D"):
        D.normalize_rows([1.0, 2.0])


def test_loaders_need_sklearn(monkeypatch):
    real_import = builtins.__import__

    def fake(name, *args, **kwargs):
        if name.startswith("sklearn"):
            raise ImportError("no sklearn")
        return real_import(name, *args, **kwargs)

    monkeypatch.setattr(builtins, "__import__", fake)
    for loader in (D.load_breast_cancer, D.load_digits):
        with pytest.raises(ImportError, match=r"pip install dptheory\[data\]"):
            loader()


def test_loaders_with_sklearn():
    pytest.importorskip("sklearn")
    data = D.load_breast_cancer()
    assert data.X.shape == (569, 30)
    np.testing.assert_allclose(np.linalg.norm(data.X, axis=1), 1.0)
    assert set(np.unique(data.y)) == {-1.0, 1.0}
    digits = D.load_digits((3,), (8,))
    assert digits.d == 64 and set(np.unique(digits.y)) == {-1.0, 1.0}


def test_load_digits_validates_classes():
    with pytest.raises(ValueError, match="disjoint"):
        D.load_digits((1,), (1,))
