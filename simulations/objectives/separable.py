"""Families (b) and (c): tilted separable losses f(w, x) = sum_j psi_j(w_j) + <x, w>.

The targets ``y`` are unused (kept zero). F(w) = sum_j psi_j(w_j) + <x_bar, w> with
x_bar = mean_i x_i, so stationary points, minima and Hessians are exact per coordinate, and
hess f_i = diag(psi''(w)) is the same for every sample.
"""

from __future__ import annotations

import itertools
from typing import Any

import numpy as np

from dptheory.symbolic.assumptions import (PL, AffineDeviation, Assumption, BoundedLoss,
                                           BoundedMinimizer, BoundedVariance, GeneralizedSmooth,
                                           HessianLipschitz, Lipschitz, Smooth, StronglyConvex,
                                           TwiceDifferentiable, WeaklyQuasiConvex)

from .base import (Dataset, Minimum, Objective, as_rng, ball_note, check_n, check_positive,
                   round_up, rowwise_matmul)
from .data import uniform_ball

CUBIC_CRIT = 2.0 / (3.0 * np.sqrt(3.0))   # t^3 - t + c = 0 has three real roots iff |c| < this


class _TiltedSeparable(Objective):
    x_radius: float

    def make_data(self, n: int, rng: Any = None) -> Dataset:
        # samples x_i uniform in the ball of radius x_radius (all zero when x_radius = 0)
        n = check_n(n)
        return Dataset(uniform_ball(n, self.d, as_rng(rng), radius=self.x_radius)
                       if self.x_radius > 0 else np.zeros((n, self.d)), np.zeros(n))

    def _psi(self, W: np.ndarray) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
        raise NotImplementedError

    def _loss(self, W: np.ndarray, X: np.ndarray, y: np.ndarray) -> np.ndarray:
        return self._psi(W)[0].sum(axis=1)[:, None] + rowwise_matmul(W, X.T)

    def _x_bar(self, data: Dataset) -> np.ndarray:
        return self._memo("x_bar", data, lambda: data.X.mean(axis=0))

    def _F(self, W: np.ndarray, data: Dataset) -> np.ndarray:
        # F(w) = sum_j psi_j(w_j) + <x_bar, w>
        return self._psi(W)[0].sum(axis=1) + np.einsum("rd,d->r", W, self._x_bar(data))

    def _grad_F(self, W: np.ndarray, data: Dataset) -> np.ndarray:
        return self._psi(W)[1] + self._x_bar(data)

    def _batch_grad_mean(self, W: np.ndarray, X: np.ndarray, y: np.ndarray,
                         idx: np.ndarray) -> np.ndarray:
        return self._psi(W)[1] + X[idx].mean(axis=1)

    def _grad(self, W: np.ndarray, X: np.ndarray, y: np.ndarray) -> np.ndarray:
        return self._psi(W)[1][:, None, :] + X[None, :, :]

    def _batch_grad(self, W: np.ndarray, X: np.ndarray, y: np.ndarray, idx: np.ndarray) -> np.ndarray:
        return self._psi(W)[1][:, None, :] + X[idx]

    def _hess_F(self, W: np.ndarray, X: np.ndarray, y: np.ndarray) -> np.ndarray:
        p2 = self._psi(W)[2]
        H = np.zeros((W.shape[0], self.d, self.d))
        idx = np.arange(self.d)
        H[:, idx, idx] = p2
        return H

    def _hess(self, W: np.ndarray, X: np.ndarray, y: np.ndarray) -> np.ndarray:
        H = self._hess_F(W, X, y)
        return np.broadcast_to(H[:, None], (W.shape[0], X.shape[0], self.d, self.d)).copy()


class StrictSaddle(_TiltedSeparable):
    """Family (b): strict-saddle ERM (wang2020's suggestion), d >= 2.

    f(w, x) = w_1^2/2 + sum_{j>=2} (w_j^4/4 - w_j^2/2) + <x, w>, ||x_i|| <= x_radius < 2/(3 sqrt 3).

    Stationary points of F (exact): w_1 = -x_bar_1 and, for j >= 2, a real root of
    t^3 - t + x_bar_j = 0; since |x_bar_j| < 2/(3 sqrt 3) there are three: two outer roots
    (|t| > 1/sqrt 3, psi'' = 3t^2 - 1 > 0) and a middle one (|t| < 1/sqrt 3, psi'' < 0). A point is a
    local minimum iff every j >= 2 takes an outer root, otherwise a strict saddle with
    lambda_min = min_j (3 t_j^2 - 1) < 0 (the w_1 direction always has curvature +1). The global
    minimum takes, per coordinate, the outer root of smaller psi_j(t) + x_bar_j t.

    Constants on the ball ||w|| <= R (per-sample; |w_j| <= R):

    * Smooth: hess f = diag(1, 3w_j^2 - 1), so beta = max(1, 3R^2 - 1).
    * Hessian-Lipschitz: |3w_j^2 - 3w_j'^2| = 3|w_j + w_j'||w_j - w_j'| <= 6R ||w - w'||, rho = 6R.
    * Lipschitz: |w_j^3 - w_j| = |w_j||w_j^2 - 1| <= |w_j| max(1, R^2 - 1), so
      G = R max(1, R^2 - 1) + max_i ||x_i||.
    * Bounded loss: w_1^2/2 + sum w_j^4/4 <= max(R^2/2, R^4/4) (convex in w_1^2) and
      sum (w_j^4/4 - w_j^2/2) >= -(d-1)/4, so |f| <= max(R^2/2, R^4/4, (d-1)/4) + R max_i ||x_i||.
    """

    name = "strict-saddle"

    def __init__(self, d: int = 2, R: float = 2.0, x_radius: float = 0.1) -> None:
        super().__init__(d)
        if self.d < 2:
            raise ValueError(f"d must be >= 2 for the strict-saddle family, got {d}")
        self.R = check_positive("R", R)
        self.x_radius = check_positive("x_radius", x_radius, allow_zero=True)
        if self.x_radius >= CUBIC_CRIT:
            raise ValueError(f"x_radius must be < 2/(3 sqrt 3) = {CUBIC_CRIT:.4f}, got {x_radius}")
        self.domain_radius = self.R

    def params(self) -> dict[str, Any]:
        """The family's parameters: d, R and x_radius."""
        return {"d": self.d, "R": self.R, "x_radius": self.x_radius}


    def _psi(self, W: np.ndarray) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
        p0, p1, p2 = 0.25 * W ** 4 - 0.5 * W ** 2, W ** 3 - W, 3.0 * W ** 2 - 1.0
        p0[:, 0], p1[:, 0], p2[:, 0] = 0.5 * W[:, 0] ** 2, W[:, 0], 1.0
        return p0, p1, p2

    @staticmethod
    def _cubic_roots(c: float) -> np.ndarray:
        r = np.roots([1.0, 0.0, -1.0, c])
        r = np.sort(r[np.abs(r.imag) < 1e-9].real)
        for _ in range(3):                                   # Newton polish
            r = r - (r ** 3 - r + c) / (3 * r ** 2 - 1)
        return r

    def stationary_points(self, data: Dataset) -> list[dict[str, Any]]:
        """All stationary points of F: dicts with w, kind ('minimum' | 'strict-saddle'),
        F, lambda_min and grad_norm (evaluated, ~1e-16)."""
        data = self._check_data(data)
        if self.d > 12:
            raise ValueError(f"d must be <= 12 to enumerate 3^(d-1) stationary points, got {self.d}")
        # ||x_i|| < 2/(3 sqrt 3) makes |x_bar_j| < 2/(3 sqrt 3): every cubic t^3 - t + x_bar_j
        # then has the three real roots the enumeration is built from (the loss itself, and
        # its constants, hold for any x)
        if data.max_norm >= CUBIC_CRIT:
            raise ValueError(f"stationary_points needs data rows with ||x|| < 2/(3 sqrt 3) = "
                             f"{CUBIC_CRIT:.4f}, got max ||x|| = {data.max_norm:.4g}")
        xb = data.X.mean(axis=0)
        roots = [np.array([-xb[0]])] + [self._cubic_roots(c) for c in xb[1:]]
        out = []
        for combo in itertools.product(*roots):
            w = np.array(combo)
            lam = float(self.lambda_min(w, data))
            out.append({"w": w, "kind": "minimum" if lam > 0 else "strict-saddle",
                        "F": float(self.F(w, data)), "lambda_min": lam,
                        "grad_norm": float(self.grad_norm(w, data))})
        return out

    def special_points(self, data: Dataset) -> np.ndarray:
        """Every stationary point of F (local minima and strict saddles), for probing."""
        return np.array([p["w"] for p in self.stationary_points(data)])

    def minimum(self, data: Dataset) -> Minimum:
        """Exact: w_1 = -x_bar_1 and, for each j >= 2, the real root t of t^3 - t + x_bar_j = 0
        with the smallest psi_j(t) + x_bar_j t."""
        data = self._check_data(data)
        xb = data.X.mean(axis=0)
        w = np.empty(self.d)
        w[0] = -xb[0]
        for j in range(1, self.d):
            r = self._cubic_roots(xb[j])
            vals = 0.25 * r ** 4 - 0.5 * r ** 2 + xb[j] * r
            w[j] = r[np.argmin(vals)]
        return Minimum(float(self.F(w, data)), True, float(self.F(w, data)), w,
                       "exact: per-coordinate roots of the cubic")

    def assumptions(self, data: Dataset) -> tuple[Assumption, ...]:
        """The certified constants on ``data`` (X = max_i ||x_i||), proved in the class
        docstring, all on ||w|| <= R: Smooth(max(1, 3R^2 - 1)), HessianLipschitz(6R),
        Lipschitz(R max(1, R^2 - 1) + X), BoundedLoss and twice differentiability: the G, M and
        rho of wang2020's Assumption 2, restricted to the ball (the quartic terms make them grow
        with R)."""
        data = self._check_data(data)
        R, X = self.R, data.max_norm
        note = ball_note(R)
        return (
            Smooth(round_up(max(1.0, 3 * R * R - 1), 6), note=note),
            HessianLipschitz(round_up(6 * R, 6), note=note),
            Lipschitz(round_up(R * max(1.0, R * R - 1) + X, 6), note=note),
            BoundedLoss(round_up(max(R * R / 2, R ** 4 / 4, (self.d - 1) / 4) + R * X, 6),
                        note=note),
            TwiceDifferentiable(),
        )


OMEGA = 0.5671432904097838   # Omega e^Omega = 1
L1_COSH = 1.0 / OMEGA * (1 + 1e-9)  # slightly above the fixed point, so e^{1/L1} <= L1


class CoshGeneralizedSmooth(_TiltedSeparable):
    """Family (c): f(w, x) = sum_j cosh(w_j) + <x, w>: (L0, L1)-smooth, not globally smooth.

    hess f = diag(cosh w_j) is unbounded, so f is not beta-smooth for any beta.

    * **Generalized smoothness** (yang2022 Def. 2.2, restricted reading ||w - w'|| <= 1/L1):
      for scalars, cosh(a + s) = cosh a cosh s + sinh a sinh s <= cosh(a) e^{|s|} and
      cosh a <= 1 + |sinh a|, so |sinh a - sinh b| <= e^{|a-b|}(1 + |sinh a|)|a - b|. Summing,
      ||grad f(w) - grad f(w')|| <= e^{delta}(1 + ||sinh w||) ||w - w'|| with
      delta = ||w - w'|| <= 1/L1, and ||sinh w|| = ||grad f(w) - x|| <= ||grad f(w)|| + X.
      With L1 >= e^{1/L1} (L1 = 1/Omega = 1.7632, Omega e^Omega = 1) this is
      <= (L0 + L1 ||grad f(w)||)||w - w'|| with L0 = e^{1/L1}(1 + X).
    * **Affine deviation** (yang2022 A2.2): grad f_i - grad F = x_i - x_bar, so
      tau0 = max_i ||x_i - x_bar||, tau1 = 0; bounded variance sigma^2 = mean ||x_i - x_bar||^2.
    * **Strongly convex** with mu = 1 (cosh'' >= 1), hence PL(1) for F.
    * Minimum (exact): w* = -asinh(x_bar), F* = sum_j sqrt(1 + x_bar_j^2) - x_bar_j asinh(x_bar_j).
    """

    name = "cosh-generalized-smooth"
    sample_radius = 3.0

    def __init__(self, d: int = 5, x_radius: float = 1.0) -> None:
        super().__init__(d)
        self.x_radius = check_positive("x_radius", x_radius, allow_zero=True)

    def params(self) -> dict[str, Any]:
        """The family's parameters: d and x_radius."""
        return {"d": self.d, "x_radius": self.x_radius}

    def _psi(self, W: np.ndarray) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
        c = np.cosh(W)
        return c, np.sinh(W), c

    def minimum(self, data: Dataset) -> Minimum:
        """Exact: w* = -asinh(x_bar), F* = sum_j sqrt(1 + x_bar_j^2) - x_bar_j asinh(x_bar_j)."""
        data = self._check_data(data)
        xb = data.X.mean(axis=0)
        val = float(np.sum(np.sqrt(1 + xb ** 2) - xb * np.arcsinh(xb)))
        return Minimum(val, True, val, -np.arcsinh(xb), "exact: w* = -asinh(x_bar)")

    def assumptions(self, data: Dataset) -> tuple[Assumption, ...]:
        """The certified constants on ``data`` (X = max_i ||x_i||), proved in the class
        docstring: (L0, L1)-generalized smoothness with L0 = e^{1/L1}(1 + X), L1 = 1/Omega, in
        the restricted reading ||w - w'|| <= 1/L1 of yang2022's Definition 2.2; affine deviation
        tau0 = max_i ||x_i - x_bar||, tau1 = 0 (yang2022's Assumption 2.2); bounded variance;
        StronglyConvex(1) and PL(1); twice differentiability. No beta-smoothness: the Hessian
        is unbounded."""
        data = self._check_data(data)
        X = data.max_norm
        dev = np.linalg.norm(data.X - data.X.mean(axis=0), axis=1)
        return (
            GeneralizedSmooth(round_up(np.exp(1 / L1_COSH) * (1 + X), 6), round_up(L1_COSH, 6),
                              restricted=True, note="for ||w - w'|| <= 1/L1"),
            AffineDeviation(round_up(float(dev.max()) * (1 + 1e-12), 6), 0),
            BoundedVariance(round_up(float(np.sqrt(np.mean(dev ** 2))) * (1 + 1e-12), 6),
                            scope="empirical"),
            StronglyConvex(1),
            PL(1, scope="empirical"),
            TwiceDifferentiable(),
        )


class TiltedQuadratic(_TiltedSeparable):
    """f(w, x) = ||w||^2/2 + <x, w>: every sample has Hessian I, so mu = beta = 1 exactly.

    The curvature bound beta is attained in every direction, which makes output-perturbation
    bounds (beta/2) E||z||^2 tight: the instance on which zhang2017's explicit bounds bind.

    * **Strongly convex and smooth**: hess f = I, so mu = beta = 1 (per sample, everywhere).
    * **PL and one-point weakly quasi-convex** (zhang2021's Assumptions 2.4-2.5, everywhere):
      F(w) - F* = ||w - w_hat||^2/2 and grad F(w) = w - w_hat, so ||grad F||^2 = 2 (F - F*)
      (PL, mu = 1) and <grad F(w), w - w_hat> = 2 (F - F*) (theta = 2; any theta <= 2 holds).
    * **Minimum** (exact): w_hat = -x_bar, F* = -||x_bar||^2/2; BoundedMinimizer D = ||x_bar||.
    * **Lipschitz** on the ball ||w|| <= R: ||grad f|| = ||w + x|| <= R + max_i ||x_i||.
    * **Bounded loss** on the ball: |f| <= R^2/2 + R max_i ||x_i||.
    * **Hessian-Lipschitz**: the Hessian is constant (any rho > 0; the smallest positive
      value declared, 1e-12, since assumptions take positive constants).

    Curvature scale ``scale = c`` (default 1): f(w, x) = c ||w||^2/2 + <x, w>, Hessian c I,
    so mu = beta = c (strong convexity, smoothness and PL), theta = 2 still (F - F* =
    c ||w - w_hat||^2/2 and <grad F, w - w_hat> = c ||w - w_hat||^2), w_hat = -x_bar/c,
    F* = -||x_bar||^2/(2c), D = ||x_bar||/c, Lipschitz c R + X and |f| <= c R^2/2 + R X on
    the ball: a bound that drops mu or beta shows at c far from 1 (invisible at c = 1).
    """

    name = "tilted-quadratic"
    sample_radius = 3.0

    def __init__(self, d: int = 1, R: float = 2.0, x_radius: float = 1.0,
                 scale: float = 1.0) -> None:
        super().__init__(d)
        self.R = check_positive("R", R)
        self.x_radius = check_positive("x_radius", x_radius, allow_zero=True)
        self.scale = check_positive("scale", scale)
        self.domain_radius = self.R

    def params(self) -> dict[str, Any]:
        """The family's parameters: d, R, x_radius and scale."""
        return {"d": self.d, "R": self.R, "x_radius": self.x_radius, "scale": self.scale}

    def _psi(self, W: np.ndarray) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
        c = self.scale
        return 0.5 * c * W ** 2, c * W, np.full_like(W, c)

    def minimum(self, data: Dataset) -> Minimum:
        """Exact: w_hat = -x_bar/c, F* = -||x_bar||^2/(2c) (c = ``scale``)."""
        data = self._check_data(data)
        xb = data.X.mean(axis=0)
        val = float(-0.5 * xb @ xb / self.scale)
        return Minimum(val, True, val, -xb / self.scale, "exact: w_hat = -x_bar/c")

    def assumptions(self, data: Dataset) -> tuple[Assumption, ...]:
        """The certified constants on ``data`` (X = max_i ||x_i||), proved in the class
        docstring (c = ``scale``): StronglyConvex(c), Smooth(c) and PL(c) exactly, a constant
        Hessian (rho = 1e-12), Lipschitz(c R + X) and BoundedLoss(c R^2/2 + R X) on
        ||w|| <= R, BoundedMinimizer D = ||x_bar||/c and twice differentiability: the
        hypotheses of zhang2017's Theorem 2 with mu = beta = c (it asks L on ||w|| <= 2D, which the ball covers when 2D <= R)."""
        data = self._check_data(data)
        X, c = data.max_norm, self.scale
        D = float(np.linalg.norm(data.X.mean(axis=0))) / c
        note = ball_note(self.R)
        return (
            StronglyConvex(c),
            Smooth(c),
            PL(c),
            WeaklyQuasiConvex(2),
            HessianLipschitz(1e-12),
            Lipschitz(round_up(c * self.R + X, 6), note=note),
            BoundedLoss(round_up(c * self.R ** 2 / 2 + self.R * X, 6), note=note),
            BoundedMinimizer(round_up(D * (1 + 1e-12), 6) if D > 0 else 1e-12,
                             scope="empirical", note="||w_hat|| = ||x_bar||"),
            TwiceDifferentiable(),
        )
