"""Minimum values against brute force and independent optimisation; structural claims
(stationary points, non-convexity, theta < 1, no global smoothness)."""

from __future__ import annotations

import numpy as np
import pytest
from scipy.optimize import minimize

from dptheory_simulations.objectives import FAMILIES, certify, get
from dptheory.symbolic.assumptions import Smooth, WeaklyQuasiConvex

from ._cases import instance, random_points


def independent_min(obj, data, starts) -> float:
    """Nelder-Mead (derivative-free, so independent of grad) from several starts."""
    best = np.inf
    for w0 in starts:
        res = minimize(lambda w: obj.F(w, data), w0, method="Nelder-Mead",
                       options={"xatol": 1e-10, "fatol": 1e-14, "maxiter": 20000,
                                "maxfev": 40000})
        best = min(best, res.fun)
    return best


@pytest.mark.parametrize("name", sorted(FAMILIES))
def test_minimum_brackets_independent_optimum(name):
    obj, data = instance(name, seed=3)
    m = obj.minimum(data)
    assert m.lower <= m.value + 1e-15
    if m.exact:
        assert m.lower == m.value
    assert m.w is not None and np.isclose(obj.F(m.w, data), m.value, atol=1e-12)
    rng = np.random.default_rng(4)
    starts = [np.zeros(obj.d), *random_points(obj, 3, rng)]
    ind = independent_min(obj, data, starts)
    assert m.lower <= ind + 1e-9                      # lower bound never exceeds a found value
    if m.exact or "Newton" in m.method:
        assert ind >= m.value - 1e-9                  # nothing better than the claimed minimum
    # random points never go below the certified lower bound
    W = random_points(obj, 500, rng)
    assert np.all(obj.F(W, data) >= m.lower - 1e-12)


def test_erm_minimum_is_tight_and_certified():
    for name in ("logistic-ridge", "huber-ridge"):
        obj, data = instance(name, seed=7, n=40)
        m = obj.minimum(data)
        assert obj.grad_norm(m.w, data) <= 1e-11
        assert m.value - m.lower <= 1e-20
        # independent: BFGS on an independent implementation of F
        X, y = data.X, data.y
        if name == "logistic-ridge":
            def F(w):
                return np.mean(np.log1p(np.exp(-y * (X @ w)))) + 0.5 * obj.mu * w @ w
        else:
            def F(w):
                u = np.abs(X @ w - y)
                d = obj.delta
                return np.mean(np.where(u <= d, u * u / 2, d * (u - d / 2))) + 0.5 * obj.mu * w @ w
        res = minimize(F, np.ones(obj.d), method="BFGS", options={"gtol": 1e-10})
        assert abs(res.fun - m.value) <= 1e-9


def test_strict_saddle_brute_force_grid_and_stationary_points():
    obj, data = instance("strict-saddle", seed=11, n=30)
    g = np.linspace(-2, 2, 801)
    W = np.stack(np.meshgrid(g, g, indexing="ij"), axis=-1).reshape(-1, 2)
    vals = obj.F(W, data)
    best = W[np.argmin(vals)]
    res = minimize(lambda w: obj.F(w, data), best, method="Nelder-Mead",
                   options={"xatol": 1e-12, "fatol": 1e-15})
    m = obj.minimum(data)
    assert abs(res.fun - m.value) <= 1e-10
    pts = obj.stationary_points(data)
    assert len(pts) == 3
    kinds = sorted(p["kind"] for p in pts)
    assert kinds == ["minimum", "minimum", "strict-saddle"]
    xb = data.X.mean(axis=0)
    for p in pts:
        w = p["w"]
        assert p["grad_norm"] <= 1e-12
        # independent: gradient and Hessian written out
        assert np.allclose([w[0] + xb[0], w[1] ** 3 - w[1] + xb[1]], 0, atol=1e-12)
        assert np.isclose(p["lambda_min"], min(1.0, 3 * w[1] ** 2 - 1))
        if p["kind"] == "strict-saddle":
            assert p["lambda_min"] < -0.5
    assert min(p["F"] for p in pts if p["kind"] == "minimum") == pytest.approx(m.value, abs=1e-14)


def test_strict_saddle_higher_dimension_counts():
    obj = get("strict-saddle", d=4)
    data = obj.make_data(10, 0)
    pts = obj.stationary_points(data)
    assert len(pts) == 27
    assert sum(p["kind"] == "minimum" for p in pts) == 8


def test_pl_family_is_nonconvex_with_theta_below_one():
    obj, data = instance("pl-nonconvex", seed=2)
    m = obj.minimum(data)
    A = data.X
    # r = A (w - w*) = (pi/2) 1  =>  hess F = -(4/n) A^T A
    w = m.w + np.linalg.pinv(A) @ (np.pi / 2 * np.ones(data.n))
    assert np.allclose(obj.hess_F(w, data), -4 / data.n * A.T @ A, atol=1e-10)
    assert obj.lambda_min(w, data) < -1e-3
    # theta_h < 1: a point where u h'(u)/h(u) < 1, so 1-weak quasi-convexity fails
    u = 2.15
    assert u * (2 * u + 3 * np.sin(2 * u)) / (u * u + 3 * np.sin(u) ** 2) < 0.5
    rep = certify(obj, data, samples=128, seed=0,
                  assumptions=(WeaklyQuasiConvex(1.0, scope="empirical"),))
    assert not rep.certified


def test_pl_h_constants_against_fine_grid():
    from dptheory_simulations.objectives._calculus import pl_h_constants
    mu_h, theta_h = pl_h_constants()
    u = np.linspace(1e-4, 30, 3_000_001)
    h = u * u + 3 * np.sin(u) ** 2
    hp = 2 * u + 3 * np.sin(2 * u)
    assert mu_h <= (hp ** 2 / (2 * h)).min() <= mu_h + 1e-4
    assert theta_h <= (u * hp / h).min() <= theta_h + 1e-4


def test_cosh_family_not_globally_smooth_and_exact_minimum():
    obj, data = instance("cosh-generalized-smooth", seed=1)
    for beta in (10.0, 1e3):
        rep = certify(obj, data, samples=64, seed=0, radius=12.0, assumptions=(Smooth(beta),))
        assert not rep.certified
    m = obj.minimum(data)
    assert obj.grad_norm(m.w, data) <= 1e-14


def test_strict_saddle_refuses_rows_outside_its_radius():
    """||x|| >= 2/(3 sqrt 3) can leave a cubic with one real root (fewer stationary points)."""
    from dptheory_simulations.objectives.base import Dataset
    obj = get("strict-saddle", d=2)
    crit = 2 / (3 * np.sqrt(3))
    ok = Dataset(np.array([[0.0, 0.99 * crit]]), np.zeros(1))
    assert len(obj.stationary_points(ok)) == 3
    with pytest.raises(ValueError, match=r"needs data rows with \|\|x\|\| < 2/\(3 sqrt 3\)"):
        obj.stationary_points(Dataset(np.array([[0.0, 1.01 * crit]]), np.zeros(1)))
