"""Minimisers used by ``Objective.minimum``: damped Newton (convex) and multi-start L-BFGS."""

from __future__ import annotations

import numpy as np
from scipy.optimize import minimize

from .base import Dataset, Objective


def newton(obj: Objective, data: Dataset, w0: np.ndarray | None = None, *, gtol: float = 1e-12,
           max_iter: int = 200) -> np.ndarray:
    """Damped (generalised) Newton with Armijo backtracking; for convex F with PD Hessian."""
    w = np.zeros(obj.d) if w0 is None else np.array(w0, dtype=np.float64)
    for _ in range(max_iter):
        g = obj.grad_F(w, data)
        if np.linalg.norm(g) <= gtol:
            break
        H = obj.hess_F(w, data)
        try:
            step = np.linalg.solve(H, g)
        except np.linalg.LinAlgError:
            step = g
        if g @ step <= 0:
            step = g
        f0, t = obj.F(w, data), 1.0
        while t > 1e-12 and obj.F(w - t * step, data) > f0 - 1e-4 * t * (g @ step):
            t *= 0.5
        w_new = w - t * step
        if np.array_equal(w_new, w):
            break
        w = w_new
    return w


def lbfgs(obj: Objective, data: Dataset, w0: np.ndarray) -> np.ndarray:
    res = minimize(lambda w: obj.F(w, data), np.asarray(w0, dtype=np.float64),
                   jac=lambda w: obj.grad_F(w, data), method="L-BFGS-B",
                   options={"maxiter": 500, "gtol": 1e-13, "ftol": 1e-15})
    return np.asarray(res.x)


def multistart(obj: Objective, data: Dataset, starts: np.ndarray) -> np.ndarray:
    """Best L-BFGS result (polished by a few Newton steps when a Hessian exists)."""
    best, best_f = None, np.inf
    for w0 in np.atleast_2d(starts):
        w = lbfgs(obj, data, w0)
        f = obj.F(w, data)
        if f < best_f:
            best, best_f = w, f
    assert best is not None
    return best
