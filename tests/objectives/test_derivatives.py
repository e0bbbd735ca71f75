"""Shapes, gradients vs finite differences of the loss, Hessians vs finite differences of the
gradient (independent checks), and empirical = mean of per-sample."""

from __future__ import annotations

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from dptheory_simulations.objectives import FAMILIES

from ._cases import instance, random_points

NAMES = sorted(FAMILIES)


def fd_grad(f, w: np.ndarray, h: float = 1e-6) -> np.ndarray:
    """Central differences of f: (d,) -> (n,) ; returns (n, d)."""
    cols = []
    for j in range(len(w)):
        e = np.zeros_like(w)
        e[j] = h
        cols.append((f(w + e) - f(w - e)) / (2 * h))
    return np.stack(cols, axis=-1)


@pytest.mark.parametrize("name", NAMES)
def test_shapes_single_and_replicated(name):
    obj, data = instance(name)
    n, d = data.n, obj.d
    W = random_points(obj, 3, np.random.default_rng(1))
    assert obj.loss(W[0], data.X, data.y).shape == (n,)
    assert obj.loss(W, data.X, data.y).shape == (3, n)
    assert obj.grad(W[0], data.X, data.y).shape == (n, d)
    assert obj.grad(W, data.X, data.y).shape == (3, n, d)
    assert obj.hess(W[0], data.X, data.y).shape == (n, d, d)
    assert obj.hess(W, data.X, data.y).shape == (3, n, d, d)
    assert isinstance(obj.F(W[0], data), float)
    assert obj.F(W, data).shape == (3,)
    assert obj.grad_F(W, data).shape == (3, d)
    assert obj.hess_F(W, data).shape == (3, d, d)
    assert obj.grad_norm(W, data).shape == (3,)
    assert obj.lambda_min(W, data).shape == (3,)
    assert obj.hvp(W[0], np.ones(d), data.X, data.y).shape == (n, d)
    # replicate rows agree with single evaluations
    for r in range(3):
        np.testing.assert_allclose(obj.grad(W, data.X, data.y)[r], obj.grad(W[r], data.X, data.y))


@pytest.mark.parametrize("name", NAMES)
@settings(max_examples=15, deadline=None)
@given(seed=st.integers(0, 2 ** 31 - 1))
def test_gradient_matches_finite_differences(name, seed):
    obj, data = instance(name, seed=seed % 1000)
    w = random_points(obj, 1, np.random.default_rng(seed))[0]
    g = obj.grad(w, data.X, data.y)
    g_fd = fd_grad(lambda v: obj.loss(v, data.X, data.y), w)
    np.testing.assert_allclose(g, g_fd, rtol=1e-5, atol=1e-6 * (1 + np.abs(g).max()))


@pytest.mark.parametrize("name", NAMES)
@settings(max_examples=15, deadline=None)
@given(seed=st.integers(0, 2 ** 31 - 1))
def test_hessian_matches_finite_differences_of_gradient(name, seed):
    obj, data = instance(name, seed=seed % 1000)
    w = random_points(obj, 1, np.random.default_rng(seed))[0]
    H = obj.hess(w, data.X, data.y)
    # (n, d, d): column j = d grad / d w_j
    H_fd = fd_grad(lambda v: obj.grad(v, data.X, data.y), w)
    if name == "huber-ridge":  # a.e. Hessian: skip samples within 1e-4 of the kink
        u = data.X @ w - data.y
        ok = np.abs(np.abs(u) - obj.delta) > 1e-4
        H, H_fd = H[ok], H_fd[ok]
    np.testing.assert_allclose(H, H_fd, rtol=1e-5, atol=1e-6 * (1 + np.abs(H).max(initial=0)))
    np.testing.assert_allclose(H, np.swapaxes(H, -1, -2), atol=1e-12)


@pytest.mark.parametrize("name", NAMES)
def test_empirical_is_mean_of_per_sample(name):
    obj, data = instance(name)
    W = random_points(obj, 4, np.random.default_rng(2))
    np.testing.assert_allclose(obj.F(W, data), obj.loss(W, data.X, data.y).mean(axis=1))
    np.testing.assert_allclose(obj.grad_F(W, data), obj.grad(W, data.X, data.y).mean(axis=1))
    np.testing.assert_allclose(obj.hess_F(W, data), obj.hess(W, data.X, data.y).mean(axis=1),
                               atol=1e-12)
    H = obj.hess(W, data.X, data.y).mean(axis=1)
    np.testing.assert_allclose(obj.lambda_min(W, data), np.linalg.eigvalsh(H)[:, 0], atol=1e-10)
    np.testing.assert_allclose(obj.grad_norm(W, data),
                               np.linalg.norm(obj.grad(W, data.X, data.y).mean(axis=1), axis=1))


def test_closed_forms_of_losses():
    """Values against formulas written out independently."""
    rng = np.random.default_rng(5)
    x = rng.standard_normal(3) / 3
    w = rng.standard_normal(3)
    X, z = x[None], x @ w
    from dptheory_simulations.objectives import get
    assert np.isclose(get("logistic-ridge", d=3, mu=0.2).loss(w, X, [1.0])[0],
                      np.log(1 + np.exp(-z)) + 0.1 * w @ w)
    assert np.isclose(get("logistic-ridge", d=3, mu=0.0, form="printed").loss(w, X, [-1.0])[0],
                      np.log(1 + np.exp(1 - z)))
    assert np.isclose(get("sigmoid-l2", d=3, lam=0.5).loss(w, X, [1.0])[0],
                      1 / (1 + np.exp(-z)) + 0.25 * w @ w)
    assert np.isclose(get("sigmoid-l2", d=3, lam=0.0, form="corrected").loss(w, X, [1.0])[0],
                      1 / (1 + np.exp(z)))
    assert np.isclose(get("logistic-nonconvex-reg", d=3, lam=0.1).loss(w, X, [-1.0])[0],
                      np.log(1 + np.exp(z)) + 0.1 * np.sum(w ** 2 / (1 + w ** 2)))
    assert np.isclose(get("robust-regression", d=3).loss(w, X, [0.3])[0],
                      np.log(1 + (z - 0.3) ** 2 / 2))
    hub = get("huber-ridge", d=3, mu=0.0, delta=0.5)
    for b in (z - 0.2, z + 2.0):
        u = z - b
        expect = 0.5 * u * u if abs(u) <= 0.5 else 0.5 * (abs(u) - 0.25)
        assert np.isclose(hub.loss(w, X, [b])[0], expect)
    assert np.isclose(get("pl-nonconvex", d=3).loss(w, X, [0.1])[0],
                      (z - 0.1) ** 2 + 3 * np.sin(z - 0.1) ** 2)
    assert np.isclose(get("strict-saddle", d=3).loss(w, X, [0.0])[0],
                      w[0] ** 2 / 2 + np.sum(w[1:] ** 4 / 4 - w[1:] ** 2 / 2) + z)
    assert np.isclose(get("cosh-generalized-smooth", d=3).loss(w, X, [0.0])[0],
                      np.sum(np.cosh(w)) + z)
