"""Minimisers used by ``Objective.minimum``: damped Newton (convex), multi-start L-BFGS, and
the certified row-space minimiser of convex linear models (:func:`convex_linear_minimum`)."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

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
    """L-BFGS-B on F from ``w0`` (at most 500 iterations, tight tolerances); the point it
    stops at, which need not be a minimiser."""
    res = minimize(lambda w: obj.F(w, data), np.asarray(w0, dtype=np.float64),
                   jac=lambda w: obj.grad_F(w, data), method="L-BFGS-B",
                   options={"maxiter": 500, "gtol": 1e-13, "ftol": 1e-15})
    return np.asarray(res.x)


def multistart(obj: Objective, data: Dataset, starts: np.ndarray) -> np.ndarray:
    """The best (lowest F) of the L-BFGS results from ``starts``."""
    best, best_f = None, np.inf
    for w0 in np.atleast_2d(starts):
        w = lbfgs(obj, data, w0)
        f = obj.F(w, data)
        if f < best_f:
            best, best_f = w, f
    assert best is not None
    return best


# ---------------------------------------------------------------------------- convex linear models
@dataclass(frozen=True)
class CertifiedMinimum:
    """A minimiser of a convex linear-model risk, with what certifies it.

    ``w`` lies in the row space of X (so it is the minimum-norm minimiser's approximation
    when X has zero or collinear columns); ``grad_norm`` = ||grad F(w)||; ``m`` > 0 is a
    strong-convexity modulus of F on the ball of radius ``radius`` around ``w`` within the row
    space (0 when none was certified); then the minimiser w* satisfies
    ||w - w*|| <= grad_norm/m and F* >= F(w) - grad_norm^2/(2 m).
    """

    w: np.ndarray
    value: float
    grad_norm: float
    m: float
    radius: float
    rank: int
    method: str

    @property
    def certified(self) -> bool:
        """Whether a strong-convexity modulus m > 0 was certified (then ``lower`` and
        ``distance`` are valid bounds)."""
        return self.m > 0

    @property
    def lower(self) -> float:
        """Certified lower bound on min F: F(w) - ||grad F(w)||^2/(2 m) (-inf when not
        certified)."""
        return self.value - self.grad_norm ** 2 / (2 * self.m) if self.m > 0 else -np.inf

    @property
    def distance(self) -> float:
        """Certified bound on ||w - w*|| (inf when not certified)."""
        return self.grad_norm / self.m if self.m > 0 else np.inf


def row_space(X: np.ndarray, rel_tol: float = 1e-11) -> np.ndarray:
    """Orthonormal basis (d, r) of the row space of X (eigenvectors of X^T X/n above
    ``rel_tol`` times the largest): zero and collinear columns (one-hot groups) drop out."""
    G = X.T @ X / X.shape[0]
    lam, V = np.linalg.eigh(0.5 * (G + G.T))
    top = float(lam[-1]) if lam.size else 0.0
    return V[:, lam > rel_tol * top] if top > 0 else V[:, :0]


def _newton_u(obj: Objective, data: Dataset, V: np.ndarray, u: np.ndarray, gtol: float,
              max_iter: int) -> tuple[np.ndarray, float]:
    """Damped Newton in the coordinates u (w = V u), Levenberg-regularised when the Hessian
    is singular (Huber's flat regions); Armijo backtracking. Returns (u, ||grad||)."""
    g = V.T @ obj.grad_F(V @ u, data)
    for _ in range(max_iter):
        gn = float(np.linalg.norm(g))
        if gn <= gtol:
            break
        H = V.T @ obj.hess_F(V @ u, data) @ V
        H = 0.5 * (H + H.T)
        shift, scale = 0.0, max(float(np.trace(H)) / max(len(u), 1), 1e-300)
        while True:
            try:
                c = np.linalg.cholesky(H + shift * np.eye(len(u)))
                step = np.linalg.solve(c.T, np.linalg.solve(c, g))
                break
            except np.linalg.LinAlgError:
                shift = max(10 * shift, 1e-12 * scale)
        f0, slope = float(obj.F(V @ u, data)), float(g @ step)
        f1 = float(obj.F(V @ (u - step), data))
        if f1 > f0 - 1e-4 * slope and f1 <= f0 + 8 * np.finfo(float).eps * abs(f0):
            # F's decrease is below its rounding (near the minimum): keep the full step
            # while it still halves the gradient (not mere rounding noise)
            g_full = V.T @ obj.grad_F(V @ (u - step), data)
            if np.linalg.norm(g_full) > 0.5 * gn:
                break
            u, g = u - step, g_full
            continue
        t = 1.0
        while t > 1e-12 and f1 > f0 - 1e-4 * t * slope:
            t *= 0.5
            f1 = float(obj.F(V @ (u - t * step), data))
        if t <= 1e-12:
            break
        u_new = u - t * step
        if np.array_equal(u_new, u):
            break
        u = u_new
        g = V.T @ obj.grad_F(V @ u, data)
    return u, float(np.linalg.norm(g))


def _lbfgs_u(obj: Objective, data: Dataset, V: np.ndarray, u: np.ndarray) -> np.ndarray:
    res = minimize(lambda v: float(obj.F(V @ v, data)), u,
                   jac=lambda v: V.T @ obj.grad_F(V @ v, data), method="L-BFGS-B",
                   options={"maxiter": 5000, "gtol": 1e-14, "ftol": 1e-16, "maxcor": 30})
    return np.asarray(res.x)


def convex_linear_minimum(obj: Any, data: Dataset, *, gtol: float = 1e-10,
                          max_iter: int = 100) -> CertifiedMinimum:
    """Minimise a convex linear-model risk F(w) = mean phi(<x_i, w>, y_i) + (mu/2)||w||^2 and
    certify the result.

    The search runs in the row space of X (F does not change along its complement when
    mu = 0, and the minimiser lies in it when mu > 0), which removes zero and collinear
    columns: damped Newton until it stops making progress, L-BFGS when it ends above ``gtol``,
    then Newton again to polish. The certificate: with a = ||x_i|| r, phi'' on the ball of radius r
    around w is at least ``obj._curvature_floor(z_i, y_i, a)``, so F is m-strongly convex
    there with m = lambda_min(V^T X^T diag(floor) X V/n) + mu; if 2 ||grad F(w)||/m <= r
    the minimiser is in that ball (a convex F exceeds F(w) outside it) and within
    ||grad F(w)||/m of w. Radii r = 10^-8 .. 10^2 (times 1 + ||w||) are tried in turn.
    """
    X = data.X
    V = row_space(X)
    if V.shape[1] == 0:
        w = np.zeros(obj.d)
        return CertifiedMinimum(w, float(obj.F(w, data)), float(obj.grad_norm(w, data)),
                                float(getattr(obj, "mu", 0.0)), np.inf, 0, "X = 0: w = 0")
    # Newton runs until it stops making progress (the certificate needs ||grad F|| well
    # below the local curvature, which can be ~1e-13 on real data with mu = 0)
    u, gn = _newton_u(obj, data, V, np.zeros(V.shape[1]), 0.0, max_iter)
    method = f"Newton on the row space of X (rank {V.shape[1]} of d = {obj.d})"
    if gn > gtol:
        u_l = _lbfgs_u(obj, data, V, u)
        u_l, gn_l = _newton_u(obj, data, V, u_l, 0.0, max_iter)
        if gn_l < gn:
            u, gn = u_l, gn_l
            method += ", L-BFGS fallback then Newton polish"
    w = V @ u
    f = float(obj.F(w, data))
    g = float(obj.grad_norm(w, data))
    z = X @ w
    xn = np.linalg.norm(X, axis=1)
    XV = X @ V
    mu = float(getattr(obj, "mu", 0.0))
    scale = 1.0 + float(np.linalg.norm(w))
    for r in scale * 10.0 ** np.arange(-8, 3):
        floor = obj._curvature_floor(z, data.y, xn * r)
        H = (XV.T * floor) @ XV / X.shape[0]
        m = float(np.linalg.eigvalsh(0.5 * (H + H.T))[0]) + mu
        m -= 1e-13 * (float(np.trace(H)) + mu)        # eigvalsh's rounding, conservatively
        if m > 0 and 2 * g / m <= r:
            return CertifiedMinimum(w, f, g, m, float(r), V.shape[1], method)
    return CertifiedMinimum(w, f, g, 0.0, 0.0, V.shape[1], method + "; not certified")
