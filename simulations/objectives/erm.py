"""Family (d): smooth (strongly) convex ERM of zhang2017 — ridge logistic and ridge Huber.

Both take features with ||x_i|| <= X (X = max_i ||x_i|| of the data) and a ridge (mu/2)||w||^2.
The minimum is computed by damped Newton to ||grad F|| <= 1e-12 and bracketed by the
strong-convexity bound F* >= F(w) - ||grad F(w)||^2 / (2 mu).
"""

from __future__ import annotations

from typing import Any

import numpy as np
from scipy.special import expit

from dptheory.symbolic.assumptions import (Assumption, BoundedLoss, BoundedMinimizer, Convex,
                                           HessianLipschitz, Lipschitz, Smooth, StronglyConvex,
                                           TwiceDifferentiable)

from ._optim import newton
from .base import Dataset, Minimum, as_rng, ball_note, check_n, check_positive, round_up
from .data import planted_linear, planted_logistic
from .linear import LinearModelObjective, check_labels, ridge

SIGMA2_MAX = 1.0 / (6.0 * np.sqrt(3.0))   # max |sigma''| = max |softplus'''|


class _RidgeERM(LinearModelObjective):
    def __init__(self, d: int, mu: float, R: float) -> None:
        super().__init__(d)
        self.mu = check_positive("mu", mu, allow_zero=True)
        self.R = check_positive("R", R)
        self.domain_radius = self.R

    def _reg(self, W: np.ndarray) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
        return ridge(W, self.mu)

    def _reg_grad(self, W: np.ndarray) -> np.ndarray:
        return self.mu * W

    def _convexity(self) -> Assumption:
        return StronglyConvex(self.mu) if self.mu > 0 else Convex()

    def _minimizer_bound(self, data: Dataset) -> tuple[Assumption, ...]:
        # mu ||w_hat||^2 <= <grad F(0) - grad F(w_hat), 0 - w_hat> <= ||grad F(0)|| ||w_hat||
        if self.mu <= 0:
            return ()
        g0 = float(np.linalg.norm(self.grad_F(np.zeros(self.d), data)))
        return (BoundedMinimizer(round_up(g0 / self.mu * (1 + 1e-9), 6), scope="empirical",
                                 note="||w_hat|| <= ||grad F(0)||/mu"),)

    def minimum(self, data: Dataset) -> Minimum:
        data = self._check_data(data)
        w = self._memo("argmin", data, lambda: newton(self, data))
        f = float(self.F(w, data))
        g = float(self.grad_norm(w, data))
        if self.mu > 0:
            return Minimum(f, False, f - g * g / (2 * self.mu), w,
                           "Newton; lower = F(w) - ||grad F(w)||^2/(2 mu)")
        return Minimum(f, False, 0.0, w, "Newton (mu = 0); lower = 0 (loss >= 0)")


class LogisticRidge(_RidgeERM):
    """Ridge logistic regression (zhang2017 Sec. 5).

    f(w, (x, y)) = log(1 + exp(m)) + (mu/2)||w||^2 with m = -y<w, x> (``form="standard"``) or
    m = 1 + y<w, x> (``form="printed"``: the catalog's "log(1+exp(1+y<w,x>))" as printed).
    Labels y in {-1, +1}.

    Constants (softplus' = sigma in (0, 1), softplus'' = sigma(1 - sigma) in (0, 1/4],
    |softplus'''| = |sigma(1-sigma)(1-2 sigma)| <= 1/(6 sqrt 3); y^2 = 1):

    * Smooth: ||hess f|| <= X^2/4 + mu (everywhere).
    * StronglyConvex(mu) (Convex if mu = 0): hess f >= mu I.
    * Hessian-Lipschitz: |softplus''(m) - softplus''(m')| <= |m - m'|/(6 sqrt 3) and
      |m - m'| <= X ||w - w'||, so rho = X^3/(6 sqrt 3).
    * Lipschitz on ||w|| <= R: ||grad f|| <= X + mu R.
    * Bounded loss on ||w|| <= R: 0 <= f <= log(1 + exp(X R + c)) + mu R^2/2 (c = 0 or 1).
    * BoundedMinimizer: strong convexity gives ||w_hat|| <= ||grad F(0)||/mu.
    """

    name = "logistic-ridge"

    def __init__(self, d: int = 5, mu: float = 0.1, R: float = 5.0, form: str = "standard",
                 w_norm: float = 3.0) -> None:
        super().__init__(d, mu, R)
        if form not in ("standard", "printed"):
            raise ValueError(f"form must be 'standard' or 'printed', got {form!r}")
        self.form = form
        self.w_norm = check_positive("w_norm", w_norm)
        self._s, self._c = (-1.0, 0.0) if form == "standard" else (1.0, 1.0)

    def params(self) -> dict[str, Any]:
        return {"d": self.d, "mu": self.mu, "R": self.R, "form": self.form}

    def check_data(self, data: Dataset) -> None:
        check_labels(data)

    def _phi(self, z: np.ndarray, y: np.ndarray) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
        m = self._s * y * z + self._c
        p = expit(m)
        return np.logaddexp(0.0, m), p * self._s * y, p * (1.0 - p)

    def _dphi(self, z: np.ndarray, y: np.ndarray) -> np.ndarray:
        return expit(self._s * y * z + self._c) * self._s * y

    def _d2phi(self, z: np.ndarray, y: np.ndarray) -> np.ndarray:
        p = expit(self._s * y * z + self._c)
        return p * (1.0 - p)

    def make_data(self, n: int, rng: Any = None) -> Dataset:
        return planted_logistic(check_n(n), self.d, as_rng(rng), w_norm=self.w_norm)[0]

    def assumptions(self, data: Dataset) -> tuple[Assumption, ...]:
        data = self._check_data(data)
        X, mu, R = data.max_norm, self.mu, self.R
        note = ball_note(R)
        return (
            self._convexity(),
            Smooth(round_up(X ** 2 / 4 + mu, 6)),
            HessianLipschitz(round_up(X ** 3 * SIGMA2_MAX * (1 + 1e-12), 6)),
            Lipschitz(round_up(X + mu * R, 6), note=note),
            BoundedLoss(round_up(float(np.logaddexp(0.0, X * R + self._c)) + mu * R * R / 2, 6),
                        note=note),
            TwiceDifferentiable(),
        ) + self._minimizer_bound(data)


def huber(u: np.ndarray, delta: float) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """h_delta(u) = u^2/2 (|u| <= delta), delta(|u| - delta/2) otherwise; h', a.e. h''."""
    a = np.abs(u)
    inside = a <= delta
    return (np.where(inside, 0.5 * u * u, delta * (a - 0.5 * delta)),
            np.clip(u, -delta, delta), inside.astype(np.float64))


class HuberRidge(_RidgeERM):
    """Ridge Huber regression (zhang2017 Sec. 5, h_delta as printed).

    f(w, (x, y)) = h_delta(<w, x> - y) + (mu/2)||w||^2 with h_delta(u) = u^2/2 for |u| <= delta
    and delta(|u| - delta/2) otherwise. h_delta is C^1 with |h'| <= delta and h' 1-Lipschitz
    (h'' in {0, 1} a.e.; not twice differentiable at |u| = delta, so no Hessian-Lipschitz).

    * Smooth: ||grad f(w) - grad f(w')|| <= (X^2 + mu)||w - w'|| (everywhere).
    * StronglyConvex(mu) (Convex if mu = 0).
    * Lipschitz on ||w|| <= R: delta X + mu R.
    * Bounded loss on ||w|| <= R: |u| <= U = X R + max|y| and h_delta increases in |u|, so
      0 <= f <= h_delta(U) + mu R^2/2.
    * BoundedMinimizer: ||w_hat|| <= ||grad F(0)||/mu.
    ``hess`` returns the a.e. Hessian (used by Newton; its norm still obeys the smoothness bound).
    """

    name = "huber-ridge"

    def __init__(self, d: int = 5, mu: float = 0.1, delta: float = 0.5, R: float = 5.0,
                 noise: float = 0.5) -> None:
        super().__init__(d, mu, R)
        self.delta = check_positive("delta", delta)
        self.noise = check_positive("noise", noise, allow_zero=True)

    def params(self) -> dict[str, Any]:
        return {"d": self.d, "mu": self.mu, "delta": self.delta, "R": self.R}

    def _phi(self, z: np.ndarray, y: np.ndarray) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
        return huber(z - y, self.delta)

    def make_data(self, n: int, rng: Any = None) -> Dataset:
        return planted_linear(check_n(n), self.d, as_rng(rng), w_norm=1.0, noise=self.noise)[0]

    def assumptions(self, data: Dataset) -> tuple[Assumption, ...]:
        data = self._check_data(data)
        X, mu, R, dl = data.max_norm, self.mu, self.R, self.delta
        U = X * R + float(np.max(np.abs(data.y)))
        hU = float(huber(np.array(U), dl)[0])
        note = ball_note(R)
        return (
            self._convexity(),
            Smooth(round_up(X ** 2 + mu, 6)),
            Lipschitz(round_up(dl * X + mu * R, 6), note=note),
            BoundedLoss(round_up(hU + mu * R * R / 2, 6), note=note),
        ) + self._minimizer_bound(data)
