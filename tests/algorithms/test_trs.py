"""Property tests of the exact trust-region subproblem solver (dptheory_simulations.algorithms.trs).

Expected values come from the global-optimality characterisation (Conn-Gould-Toint Thm
7.2.1: (H + lam I) h = -g, H + lam I >= 0, lam >= 0, lam(||h|| - r) = 0 -- sufficient for a
global minimiser), from dense random search of the ball, and from closed forms.
"""

from __future__ import annotations

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from dptheory_simulations.algorithms.trs import solve_trs, trs_model


def _rotation(rng: np.random.Generator, d: int) -> np.ndarray:
    Q, _ = np.linalg.qr(rng.standard_normal((d, d)))
    return Q


def _search_min(g: np.ndarray, H: np.ndarray, r: float, rng: np.random.Generator,
                m: int = 20000) -> float:
    """Smallest model value over random points of the ball and of its sphere."""
    d = g.size
    U = rng.standard_normal((m, d))
    U /= np.linalg.norm(U, axis=1, keepdims=True)
    rad = r * rng.random(m) ** (1.0 / d)
    P = np.vstack([r * U, rad[:, None] * U, np.zeros((1, d))])
    return float(np.min(P @ g + 0.5 * np.einsum("ni,ij,nj->n", P, H, P)))


def _assert_optimal(g, H, r, h, lam, tol=1e-9):
    d = g.size
    scale = max(1.0, np.abs(H).max(), np.linalg.norm(g) / r)
    assert lam >= 0
    assert np.linalg.norm(h) <= r * (1 + 1e-12)
    assert np.linalg.norm((H + lam * np.eye(d)) @ h + g) <= tol * scale * max(r, 1.0)
    assert np.linalg.eigvalsh(H + lam * np.eye(d))[0] >= -tol * scale
    assert abs(lam * (np.linalg.norm(h) - r)) <= tol * scale * r


@settings(max_examples=60, deadline=None)
@given(seed=st.integers(0, 2 ** 32 - 1), d=st.integers(1, 5),
       kind=st.sampled_from(["indefinite", "pd", "psd-singular", "hard", "nsd"]),
       log_r=st.floats(-2, 1))
def test_solver_is_globally_optimal(seed, d, kind, log_r):
    rng = np.random.default_rng(seed)
    r = 10.0 ** log_r
    Q = _rotation(rng, d)
    ev = rng.standard_normal(d) * 2
    c = rng.standard_normal(d)
    if kind == "pd":
        ev = np.abs(ev) + 0.1
        c *= 0.1
    elif kind == "psd-singular":
        ev = np.abs(ev)
        ev[0] = 0.0
        c[0] = 0.0
    elif kind == "hard":
        ev = np.sort(ev)
        ev[0] = min(ev[0], -0.5)
        c[0] = 0.0
        c *= 0.05
    elif kind == "nsd":
        ev = -np.abs(ev)
    H = Q @ np.diag(ev) @ Q.T
    H = 0.5 * (H + H.T)
    g = Q @ c
    h, lam = solve_trs(g, H, r)
    _assert_optimal(g, H, r, h, lam)
    best = _search_min(g, H, r, rng)
    scale = max(1.0, np.abs(ev).max()) * max(r, 1.0) ** 2 + np.linalg.norm(g) * r
    assert trs_model(g, H, h) <= best + 1e-10 * scale


def test_interior_case_is_newton_step():
    H = np.array([[3.0, 1.0], [1.0, 2.0]])
    g = np.array([0.1, -0.2])
    h, lam = solve_trs(g, H, 1.0)
    assert lam == 0.0
    np.testing.assert_allclose(h, -np.linalg.solve(H, g), rtol=1e-13, atol=1e-15)


def test_boundary_case_closed_form_diagonal():
    # H = diag(1, 2), g = (1, 1): ||h(lam)|| = r at the root of 1/(1+l)^2 + 1/(2+l)^2 = r^2
    r = 0.5
    h, lam = solve_trs(np.array([1.0, 1.0]), np.diag([1.0, 2.0]), r)
    from scipy.optimize import brentq
    lam_ref = brentq(lambda l: 1 / (1 + l) ** 2 + 1 / (2 + l) ** 2 - r ** 2, 0, 100, xtol=1e-15)
    assert lam == pytest.approx(lam_ref, rel=1e-12)
    np.testing.assert_allclose(h, [-1 / (1 + lam_ref), -1 / (2 + lam_ref)], rtol=1e-12)


def test_hard_case_exact():
    # g orthogonal to the bottom eigenvector e1 of H = diag(-1, 2, 3): lam = 1, h = (tau, -g/(l+1))
    H = np.diag([-1.0, 2.0, 3.0])
    g = np.array([0.0, 0.3, 0.4])
    r = 2.0
    h, lam = solve_trs(g, H, r)
    assert lam == pytest.approx(1.0, abs=1e-14)
    rest = np.array([0.0, -0.3 / 3.0, -0.4 / 4.0])
    np.testing.assert_allclose(h[1:], rest[1:], rtol=1e-13)
    assert abs(h[0]) == pytest.approx(np.sqrt(r ** 2 - rest @ rest), rel=1e-13)
    assert np.linalg.norm(h) == pytest.approx(r, rel=1e-14)


def test_hard_case_rotated_and_near_hard_are_continuous():
    rng = np.random.default_rng(3)
    Q = _rotation(rng, 4)
    ev = np.array([-1.0, 0.5, 2.0, 3.0])
    H = Q @ np.diag(ev) @ Q.T
    H = 0.5 * (H + H.T)
    r = 1.5
    base = np.array([0.0, 0.2, -0.1, 0.3])
    vals = []
    for c0 in [0.0, 1e-14, 1e-10, 1e-6]:
        g = Q @ (base + np.array([c0, 0, 0, 0]))
        h, lam = solve_trs(g, H, r)
        _assert_optimal(g, H, r, h, lam, tol=1e-8)
        assert np.linalg.norm(h) == pytest.approx(r, rel=1e-10)
        vals.append(trs_model(g, H, h))
    np.testing.assert_allclose(vals, vals[0], rtol=1e-5)


def test_psd_singular_and_zero_gradient():
    # H = diag(0, 1), g in range(H): the minimum value is attained with lam = 0
    h, lam = solve_trs(np.array([0.0, 0.1]), np.diag([0.0, 1.0]), 1.0)
    assert lam == 0.0
    assert trs_model(np.array([0.0, 0.1]), np.diag([0.0, 1.0]), h) == pytest.approx(-0.005)
    # g = 0: PD -> h = 0; indefinite -> a bottom eigenvector of length r
    h, lam = solve_trs(np.zeros(2), np.eye(2), 1.0)
    assert lam == 0 and np.all(h == 0)
    h, lam = solve_trs(np.zeros(3), np.diag([-2.0, 1.0, 1.0]), 0.7)
    assert lam == pytest.approx(2.0)
    np.testing.assert_allclose(np.abs(h), [0.7, 0, 0], atol=1e-15)


def test_vectorised_equals_individual_and_per_replicate_radius():
    rng = np.random.default_rng(0)
    reps, d = 7, 4
    A = rng.standard_normal((reps, d, d))
    H = 0.5 * (A + np.swapaxes(A, 1, 2))
    g = rng.standard_normal((reps, d))
    g[2] = 0.0
    r = rng.uniform(0.1, 2, reps)
    h, lam = solve_trs(g, H, r)
    assert h.shape == (reps, d) and lam.shape == (reps,)
    for i in range(reps):
        hi, li = solve_trs(g[i], H[i], r[i])
        np.testing.assert_allclose(h[i], hi, rtol=1e-13, atol=1e-14)
        assert lam[i] == pytest.approx(li, rel=1e-13, abs=1e-14)


def test_bad_input():
    with pytest.raises(ValueError, match="r must be"):
        solve_trs(np.ones(2), np.eye(2), 0.0)
    with pytest.raises(ValueError, match="symmetric"):
        solve_trs(np.ones(2), np.array([[1.0, 2.0], [0.0, 1.0]]), 1.0)
    with pytest.raises(ValueError, match="H must have shape"):
        solve_trs(np.ones(2), np.eye(3), 1.0)
    with pytest.raises(ValueError, match="finite"):
        solve_trs(np.array([np.nan, 1.0]), np.eye(2), 1.0)
