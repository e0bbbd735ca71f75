"""Family (a)/(e): PL but non-convex realizable regression (zhang2021's suggestion).

Loss
----
h(u) = u^2 + 3 sin^2 u, f(w, (a, b)) = h(<a, w> - b), with b_i = <a_i, w*> and the rows a_i of
A (n x d, n <= d) of full row rank. F(w) = (1/n) sum_i h(r_i) with r = A (w - w*).

Derivatives: h'(u) = 2u + 3 sin 2u, h''(u) = 2 + 6 cos 2u in [-4, 8], h''' = -12 sin 2u.

Constants (proofs)
------------------
Let a_max = max_i ||a_i||, sigma_min = smallest singular value of A, and
mu_h = inf_u h'(u)^2 / (2 h(u)) >= 0.17552, theta_h = inf_u u h'(u) / h(u) >= 0.49606
(certified by :func:`dptheory_simulations.objectives._calculus.pl_h_constants`; fine-grid values
0.17553 and 0.49609).

* **PL** (empirical): grad F = (1/n) A^T h'(r). Since A has full row rank,
  ||A^T v|| >= sigma_min ||v||, and h'(r_i)^2 >= 2 mu_h h(r_i), so
  ||grad F||^2 >= sigma_min^2/n^2 * sum_i h'(r_i)^2 >= 2 (mu_h sigma_min^2 / n) F, and
  min F = 0 (at w*). Hence PL with mu = mu_h sigma_min(A)^2 / n.
* **One-point weak quasi-convexity** (empirical, w.r.t. any w* with A w* = b):
  <grad F(w), w - w*> = (1/n) sum_i h'(r_i) r_i >= theta_h (1/n) sum_i h(r_i) = theta_h F(w).
  theta_h < 1 (e.g. at u = 2.15: u h'/h = 0.496).
* **Non-convex**: h''(pi/2) = -4. Choosing r = (pi/2) 1 (possible: A is onto R^n) gives
  hess F = -(4/n) A^T A, which is negative semidefinite and non-zero.
* **Smooth** (per-sample, everywhere): hess f_i = h''(r_i) a_i a_i^T, so beta = 8 a_max^2.
* **Hessian-Lipschitz** (per-sample, everywhere): |h''(u) - h''(v)| <= 12 |u - v| and
  |r_i - r_i'| <= ||a_i|| ||w - w'||, so rho = 12 a_max^3.
* **Lipschitz** and **bounded loss** on the ball ||w|| <= R: |r_i| <= U_i = ||a_i|| R + |b_i|;
  |h'(u)| <= min(8|u|, 2|u| + 3) (|sin 2u| <= min(2|u|, 1)) and h(u) <= min(4u^2, u^2 + 3), both
  increasing in |u|, so G = max_i ||a_i|| min(8 U_i, 2 U_i + 3) and
  |f| <= max_i min(4 U_i^2, U_i^2 + 3).

Rescaled variant: ``scale = c`` uses c h instead of h; mu, beta, rho, G and the loss bound
scale by c and theta is unchanged (choose c = 1/bound for zhang2021's |f| <= 1).
"""

from __future__ import annotations

from typing import Any

import numpy as np

from dptheory.symbolic.assumptions import (Assumption, BoundedLoss, HessianLipschitz, Lipschitz,
                                           PL, Smooth, TwiceDifferentiable, WeaklyQuasiConvex)

from ._calculus import pl_h_constants
from .base import (Dataset, Minimum, as_rng, ball_note, check_n, check_positive, round_down,
                   round_up)
from .data import bounded_gaussian
from .linear import LinearModelObjective


def h(u: np.ndarray) -> np.ndarray:
    """The family's loss h(u) = u^2 + 3 sin^2 u, elementwise (module docstring)."""
    return u * u + 3.0 * np.sin(u) ** 2


class PLNonconvex(LinearModelObjective):
    """PL, one-point theta-weakly quasi-convex (theta < 1), non-convex regression; see module doc.

    Parameters: ``d`` dimension, ``R`` radius of the ball for G and the loss bound,
    ``w_star_norm`` norm of the planted minimiser, ``feature_radius`` bound on ||a_i||.
    """

    name = "pl-nonconvex"

    def __init__(self, d: int = 20, R: float = 2.0, w_star_norm: float = 1.0,
                 feature_radius: float = 1.0, scale: float = 1.0) -> None:
        super().__init__(d)
        self.scale = check_positive("scale", scale)
        self.R = check_positive("R", R)
        self.w_star_norm = check_positive("w_star_norm", w_star_norm, allow_zero=True)
        self.feature_radius = check_positive("feature_radius", feature_radius)
        if self.w_star_norm > self.R:
            raise ValueError(f"w_star_norm must be <= R so the minimiser lies in the ball, "
                             f"got {w_star_norm} > {R}")
        self.domain_radius = self.R

    def params(self) -> dict[str, Any]:
        """The family's parameters: d, R, w_star_norm, feature_radius and scale."""
        return {"d": self.d, "R": self.R, "w_star_norm": self.w_star_norm,
                "feature_radius": self.feature_radius, "scale": self.scale}

    def _phi(self, z: np.ndarray, y: np.ndarray) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
        return self.scale * h(z - y), self._dphi(z, y), self._d2phi(z, y)

    # phi' and phi'' alone: gradients and Hessians skip the other transcendental passes
    def _dphi(self, z: np.ndarray, y: np.ndarray) -> np.ndarray:
        u, c = z - y, self.scale
        return c * (2.0 * u + 3.0 * np.sin(2.0 * u))

    def _d2phi(self, z: np.ndarray, y: np.ndarray) -> np.ndarray:
        u, c = z - y, self.scale
        return c * (2.0 + 6.0 * np.cos(2.0 * u))

    def make_data(self, n: int, rng: Any = None) -> Dataset:
        """A wide design (n <= d, else ``ValueError``): bounded-Gaussian rows of radius
        ``feature_radius`` and realizable targets b = A w* with ||w*|| = ``w_star_norm``."""
        n = check_n(n)
        if n > self.d:
            raise ValueError(f"n must be <= d = {self.d} (A of full row rank), got {n}")
        rng = as_rng(rng)
        A = bounded_gaussian(n, self.d, rng, radius=self.feature_radius)
        w = rng.standard_normal(self.d)
        w_star = self.w_star_norm * w / np.linalg.norm(w)
        return Dataset(A, A @ w_star)

    def _structure(self, data: Dataset) -> tuple[float, np.ndarray]:
        """(sigma_min(A), a minimiser); raises unless A has full row rank and b is realizable."""
        A, b = data.X, data.y
        if data.n > self.d:
            raise ValueError(f"X must have at most d = {self.d} rows (full row rank), got {data.n}")
        s = np.linalg.svd(A, compute_uv=False)
        s_min = float(s[-1])
        if s_min <= 1e-10 * max(1.0, float(s[0])):
            raise ValueError(f"X must have full row rank, got smallest singular value {s_min:.3g}")
        w_star = np.linalg.lstsq(A, b, rcond=None)[0]
        if np.max(np.abs(A @ w_star - b)) > 1e-10 * (1.0 + np.max(np.abs(b))):
            raise ValueError("y must be realizable (y = X w* for some w*)")
        return s_min, w_star

    def assumptions(self, data: Dataset) -> tuple[Assumption, ...]:
        """The certified constants on ``data``, multiplied by ``scale`` and proved in the
        module docstring (:class:`PLNonconvexTall`'s in its class docstring): PL and one-point
        WeaklyQuasiConvex(theta_h) of F (here mu = mu_h sigma_min(A)^2/n; the tall design has
        its own mu), Smooth(8 a_max^2) and HessianLipschitz(12 a_max^3) everywhere, Lipschitz
        and BoundedLoss on ||w|| <= R, and twice differentiability.

        They are zhang2021's Assumptions 2.4 (PL) and 2.5 (one-point theta-weak
        quasi-convexity), with 2.1 (L-Lipschitz, here on the ball) and 2.2 (beta-smooth); its
        |f| <= 1 (Sec. 2.1) needs ``scale`` at most 1/(the unscaled loss bound). Assumption
        2.3 (bounded variance) is not declared."""
        data = self._check_data(data)
        norms = np.linalg.norm(data.X, axis=1)
        a_max = float(norms.max())
        U = norms * self.R + np.abs(data.y)
        G, B = self._ball_bounds(norms, U)
        note, c = ball_note(self.R), self.scale
        return (
            *self._pl_wqc(data),
            Smooth(round_up(c * 8 * a_max ** 2, 6)),
            HessianLipschitz(round_up(c * 12 * a_max ** 3, 6)),
            Lipschitz(round_up(c * G, 6), note=note),
            BoundedLoss(round_up(c * B, 6), note=note),
            TwiceDifferentiable(),
        )

    def _pl_wqc(self, data: Dataset) -> tuple[Assumption, Assumption]:
        """PL and one-point weak quasi-convexity of the wide design (see the module doc)."""
        s_min, _ = self._structure(data)
        mu_h, theta_h = pl_h_constants()
        return (PL(round_down(self.scale * mu_h * s_min ** 2 / data.n, 6), scope="empirical",
                   note="min F = 0; mu = mu_h sigma_min(A)^2/n"),
                WeaklyQuasiConvex(round_down(theta_h, 6), scope="empirical",
                                  note="w.r.t. any w* with X w* = y"))

    @staticmethod
    def _ball_bounds(norms: np.ndarray, U: np.ndarray) -> tuple[float, float]:
        """(G, |f| bound) on the ball, before scaling: |h'(u)| <= min(8|u|, 2|u| + 3) and
        h(u) <= min(4u^2, u^2 + 3), both increasing in |u| <= U."""
        return (float(np.max(norms * np.minimum(8 * U, 2 * U + 3))),
                float(np.max(np.minimum(4 * U ** 2, U ** 2 + 3))))

    def minimum(self, data: Dataset) -> Minimum:
        """Exact: min F = 0 at the least-squares solution w* (A of full row rank and b
        realizable, both checked)."""
        data = self._check_data(data)
        _, w_star = self._structure(data)
        return Minimum(0.0, True, 0.0, w_star, "realizable: F(w*) = 0 = inf h")


def _max_abs_hprime(U: np.ndarray, m: int = 4001) -> np.ndarray:
    """Certified max_{|u| <= U} |h'(u)| for each U: the maximum over a grid of m points on
    [0, U] (|h'| is even) plus the largest possible rise between grid points, which is
    max|h''| = 8 times half the spacing."""
    U = np.asarray(U, dtype=float)
    t = np.linspace(0.0, 1.0, m)
    u = U[:, None] * t[None, :]
    hp = np.abs(2.0 * u + 3.0 * np.sin(2.0 * u))
    return hp.max(axis=1) + 8.0 * U / (m - 1) / 2.0


class PLNonconvexTall(PLNonconvex):
    """PL, one-point theta-weakly quasi-convex, non-convex regression with n >= d samples.

    The loss is :class:`PLNonconvex`'s h on a realizable linear model, but the design is
    *tall*: A (n x d, n >= d) of full column rank, so it suits sweeps in n at fixed d
    (zhang2021's theorems, whose bounds need n large against d).

    Rows: a_i = (s, g_i) with a shared first feature s = feature_radius/sqrt(2) and
    g_i in R^{d-1} bounded Gaussian of radius feature_radius/sqrt(2), so ||a_i|| <=
    feature_radius.

    Constants (proofs), with v = w - w*, r = A v and lambda = lambda_min(A^T A)/n > 0:

    * **Weak quasi-convexity** (one-point, w.r.t. w*, empirical): u h'(u) >= theta_h h(u)
      for all u gives <grad F, v> = (1/n) sum h'(r_i) r_i >= theta_h F.
    * **PL** (empirical): h(u) >= u^2, so F >= (1/n)||A v||^2 >= lambda ||v||^2; with
      Cauchy-Schwarz ||grad F|| ||v|| >= theta_h F, hence ||grad F||^2 >= theta_h^2 F^2 /
      ||v||^2 >= theta_h^2 lambda F: PL with mu = theta_h^2 lambda / 2 (min F = 0 at w*,
      the unique minimiser).
    * **Non-convex** (certified by construction): at v = t e_1 every r_i = s t, so
      hess F = h''(s t) A^T A / n, which at s t = pi/2 is -4 A^T A/n: negative definite.
    * **Smooth, Hessian-Lipschitz**: as :class:`PLNonconvex` (per-sample, everywhere).
    * **Lipschitz and bounded loss on the ball** ||w|| <= R: |r_i| <= U_i = ||a_i|| R +
      |b_i|, so G = max_i ||a_i|| max_{|u| <= U_i} |h'(u)| (certified on a grid with the
      Lipschitz correction max|h''| = 8 times half the spacing) and, h being even and
      increasing on u > 0, |f| <= max_i h(U_i).

    ``scale = c`` multiplies h by c: mu, beta, rho, G and the loss bound scale by c.
    """

    name = "pl-nonconvex-tall"

    def __init__(self, d: int = 5, R: float = 2.0, w_star_norm: float = 1.0,
                 feature_radius: float = 1.0, scale: float = 1.0) -> None:
        super().__init__(d, R, w_star_norm, feature_radius, scale)

    def make_data(self, n: int, rng: Any = None) -> Dataset:
        """A tall design (n >= d >= 2, else ``ValueError``): rows (s, g_i) with the shared
        feature s = feature_radius/sqrt 2 and g_i bounded Gaussian of that radius, and
        realizable targets b = A w* with ||w*|| = ``w_star_norm``."""
        n = check_n(n)
        if n < self.d:
            raise ValueError(f"n must be >= d = {self.d} (A of full column rank), got {n}")
        if self.d < 2:
            raise ValueError(f"d must be >= 2 (a shared feature and at least one more), got {self.d}")
        rng = as_rng(rng)
        half = self.feature_radius / np.sqrt(2.0)
        A = np.empty((n, self.d))
        A[:, 0] = half
        A[:, 1:] = bounded_gaussian(n, self.d - 1, rng, radius=half)
        w = rng.standard_normal(self.d)
        w_star = self.w_star_norm * w / np.linalg.norm(w)
        return Dataset(A, A @ w_star)

    def _lambda(self, data: Dataset) -> tuple[float, np.ndarray]:
        """(lambda_min(A^T A)/n, the minimiser); raises unless A has full column rank and the
        targets are realizable."""
        A, b = data.X, data.y
        if data.n < self.d:
            raise ValueError(f"X must have at least d = {self.d} rows (full column rank), "
                             f"got {data.n}")
        lam = float(np.linalg.eigvalsh(A.T @ A / data.n)[0])
        scale = float(np.max(np.linalg.norm(A, axis=1))) ** 2
        if lam <= 1e-10 * max(1.0, scale):
            raise ValueError(f"X must have full column rank, got lambda_min(X^T X)/n = {lam:.3g}")
        w_star = np.linalg.lstsq(A, b, rcond=None)[0]
        if np.max(np.abs(A @ w_star - b)) > 1e-10 * (1.0 + np.max(np.abs(b))):
            raise ValueError("y must be realizable (y = X w* for some w*)")
        return lam, w_star

    def _pl_wqc(self, data: Dataset) -> tuple[Assumption, Assumption]:
        lam, _ = self._lambda(data)
        _, theta_h = pl_h_constants()
        # eigvalsh is backward stable: lambda is accurate to ~1e-15 relative; round_down to
        # 6 significant digits keeps it a lower bound
        return (PL(round_down(self.scale * theta_h ** 2 * lam / 2, 6), scope="empirical",
                   note="min F = 0; mu = theta_h^2 lambda_min(A^T A)/(2n)"),
                WeaklyQuasiConvex(round_down(theta_h, 6), scope="empirical",
                                  note="w.r.t. the minimiser w* (X w* = y)"))

    @staticmethod
    def _ball_bounds(norms: np.ndarray, U: np.ndarray) -> tuple[float, float]:
        """(G, |f| bound) on the ball, before scaling: the certified max of |h'| on [-U, U]
        and, h being even and increasing on u > 0, h(U)."""
        return float(np.max(norms * _max_abs_hprime(U))), float(np.max(h(U)))

    def minimum(self, data: Dataset) -> Minimum:
        """Exact: min F = 0 at the unique minimiser w* (A of full column rank and b realizable,
        both checked)."""
        data = self._check_data(data)
        _, w_star = self._lambda(data)
        return Minimum(0.0, True, 0.0, w_star, "realizable: F(w*) = 0 = inf h")
