"""Family (f): the papers' losses — wang2020's two ERM losses and tran2022's robust regression.

Features satisfy ||x_i|| <= X (X = max_i ||x_i|| of the data); wang2020 labels are in {-1, +1}.
These objectives are non-convex; their minimum is estimated by multi-start L-BFGS (on
linearly separable data the logistic infimum need not be attained) and
bracketed below by 0 (every term is non-negative), except realizable robust regression
whose minimum 0 is exact.
"""

from __future__ import annotations

from functools import lru_cache
from typing import Any

import numpy as np
import sympy as sp
from scipy.special import expit

from dptheory.symbolic.assumptions import (Assumption, BoundedGradient, BoundedLoss,
                                           HessianLipschitz, Lipschitz, Smooth,
                                           TwiceDifferentiable)

from ._calculus import sup_abs_rational
from ._optim import multistart
from .base import Dataset, Minimum, as_rng, ball_note, check_n, check_positive, round_up
from .data import planted_linear, planted_logistic
from .erm import SIGMA2_MAX
from .linear import LinearModelObjective, check_labels, ridge, sign_predict

_u = sp.Symbol("u", real=True)


@lru_cache(maxsize=None)
def _reg_sups() -> tuple[float, float, float]:
    """sup |r'|, |r''|, |r'''| for r(t) = t^2/(1 + t^2) (times lambda in the loss)."""
    r = _u ** 2 / (1 + _u ** 2)
    return tuple(sup_abs_rational(sp.diff(r, _u, k), _u) for k in (1, 2, 3))  # type: ignore


@lru_cache(maxsize=None)
def _robust_sups() -> tuple[float, float, float]:
    """sup |phi'|, |phi''|, |phi'''| for phi(u) = log(1 + u^2/2) (phi' etc. are rational)."""
    p1 = 2 * _u / (2 + _u ** 2)
    return tuple(sup_abs_rational(e, _u) for e in (p1, sp.diff(p1, _u), sp.diff(p1, _u, 2)))  # type: ignore


def _starts(d: int, radius: float, seed: int = 0, k: int = 4) -> np.ndarray:
    rng = np.random.default_rng(seed)
    return np.vstack([np.zeros(d), radius * rng.standard_normal((k, d)) / np.sqrt(d)])


class LogisticNonconvexReg(LinearModelObjective):
    """wang2020 loss 1: logistic regression with a non-convex regulariser.

    f(w, (x, y)) = log(1 + exp(-y<x, w>)) + sum_j lam w_j^2/(1 + w_j^2), lam = 1e-3 as printed.

    With r(t) = t^2/(1+t^2): sup|r'| = 3 sqrt(3)/8 = 0.6495, sup|r''| = 2, sup|r'''| = 4.6686
    (exact critical points of rational functions, :func:`sup_abs_rational`); r'' >= -1/2.

    * Lipschitz (everywhere): ||grad f|| <= X + lam sqrt(d) sup|r'| (logistic part |l'| < 1).
    * Smooth (everywhere): ||hess f|| <= X^2/4 + 2 lam (hess r is diagonal).
    * Hessian-Lipschitz (everywhere): X^3/(6 sqrt 3) + lam sup|r'''|, because
      ||diag(r''(w)) - diag(r''(w'))|| = max_j |r''(w_j) - r''(w'_j)| <= sup|r'''| ||w - w'||.
    * Non-convex for small lam-dominated directions: hess r has entries down to -lam/2.
    """

    name = "logistic-nonconvex-reg"
    task = "classification"

    def __init__(self, d: int = 5, lam: float = 1e-3, w_norm: float = 3.0) -> None:
        super().__init__(d)
        self.lam = check_positive("lam", lam, allow_zero=True)
        self.w_norm = check_positive("w_norm", w_norm)

    def params(self) -> dict[str, Any]:
        """The family's parameters: d and lam."""
        return {"d": self.d, "lam": self.lam}

    def check_data(self, data: Dataset) -> None:
        """Labels must be in {-1, +1} (:func:`check_labels`); ValueError otherwise."""
        check_labels(data)

    def _phi(self, z: np.ndarray, y: np.ndarray) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
        m = -y * z
        p = expit(m)
        return np.logaddexp(0.0, m), -y * p, p * (1.0 - p)

    def _dphi(self, z: np.ndarray, y: np.ndarray) -> np.ndarray:
        return -y * expit(-y * z)

    def _d2phi(self, z: np.ndarray, y: np.ndarray) -> np.ndarray:
        p = expit(-y * z)
        return p * (1.0 - p)

    def predict(self, w: Any, X: Any) -> np.ndarray:
        """sign(<x, w>) (the logistic loss favours y<x, w> > 0)."""
        return sign_predict(self, w, X, 1.0)

    def _reg(self, W: np.ndarray) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
        s = 1.0 + W * W
        lam = self.lam
        r0 = lam * np.sum(W * W / s, axis=1)
        r1 = 2.0 * lam * W / s ** 2
        r2 = 2.0 * lam * (1.0 - 3.0 * W * W) / s ** 3
        H = np.zeros((W.shape[0], self.d, self.d))
        idx = np.arange(self.d)
        H[:, idx, idx] = r2
        return r0, r1, H

    def make_data(self, n: int, rng: Any = None) -> Dataset:
        """n samples of the planted logistic model (:func:`planted_logistic`): rows with
        ||x_i|| <= 1, P(y = 1 | x) = sigmoid(<x, w_p>), ||w_p|| = ``w_norm``; seeded by ``rng``."""
        return planted_logistic(check_n(n), self.d, as_rng(rng), w_norm=self.w_norm)[0]

    def assumptions(self, data: Dataset) -> tuple[Assumption, ...]:
        """The certified constants on ``data`` (X = max_i ||x_i||), proved in the class
        docstring and valid everywhere: Lipschitz(X + lam sqrt(d) sup|r'|), Smooth(X^2/4 + 2 lam),
        HessianLipschitz(X^3/(6 sqrt 3) + lam sup|r'''|) and twice differentiability: the G, M
        and rho of wang2020's Assumption 2, which its DP-TR and DP-STR theorems assume."""
        data = self._check_data(data)
        X, lam = data.max_norm, self.lam
        s1, s2, s3 = _reg_sups()
        return (
            Lipschitz(round_up(X + lam * np.sqrt(self.d) * s1, 6)),
            Smooth(round_up(X ** 2 / 4 + lam * s2, 6)),
            HessianLipschitz(round_up(X ** 3 * SIGMA2_MAX * (1 + 1e-12) + lam * s3, 6)),
            TwiceDifferentiable(),
        )

    def minimum(self, data: Dataset) -> Minimum:
        """The best point of multi-start L-BFGS (from 0 and four random starts of norm about
        3), memoised per dataset; not exact, bracketed below by 0 (every term is nonnegative)."""
        data = self._check_data(data)
        w = self._memo("argmin", data, lambda: multistart(self, data, _starts(self.d, 3.0)))
        return Minimum(float(self.F(w, data)), False, 0.0, w,
                       "multi-start L-BFGS; lower = 0 (every term >= 0)")


class SigmoidL2(LinearModelObjective):
    """wang2020 loss 2: "sigmoid regression with l2 norm regularizer".

    As printed: f(w, (x, y)) = 1/(1 + exp(-y<x, w>)) + (lam/2)||w||^2 (``form="printed"``,
    which *decreases* as the margin y<x, w> decreases); ``form="corrected"`` uses the usual
    sigmoid loss 1/(1 + exp(y<x, w>)). lam = 1e-3 as printed. The constants are the same:
    |sigma'| <= 1/4, |sigma''| <= 1/(6 sqrt 3), |sigma'''| <= 1/8 (sigma''' = p(1 - 6p) with
    p = sigma(1 - sigma) in (0, 1/4]).

    * Smooth (everywhere): X^2/(6 sqrt 3) + lam.
    * Hessian-Lipschitz (everywhere): X^3/8 (the ridge Hessian is constant).
    * Lipschitz on ||w|| <= R: X/4 + lam R.   Bounded loss on the ball: 1 + lam R^2/2.
    """

    name = "sigmoid-l2"
    task = "classification"

    def __init__(self, d: int = 5, lam: float = 1e-3, R: float = 5.0, form: str = "printed",
                 w_norm: float = 3.0) -> None:
        super().__init__(d)
        if form not in ("printed", "corrected"):
            raise ValueError(f"form must be 'printed' or 'corrected', got {form!r}")
        self.lam = check_positive("lam", lam, allow_zero=True)
        self.R = check_positive("R", R)
        self.form = form
        self.w_norm = check_positive("w_norm", w_norm)
        self.domain_radius = self.R
        self._s = 1.0 if form == "printed" else -1.0

    def params(self) -> dict[str, Any]:
        """The family's parameters: d, lam, R and form."""
        return {"d": self.d, "lam": self.lam, "R": self.R, "form": self.form}

    def check_data(self, data: Dataset) -> None:
        """Labels must be in {-1, +1} (:func:`check_labels`); ValueError otherwise."""
        check_labels(data)

    def _phi(self, z: np.ndarray, y: np.ndarray) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
        sy = self._s * y
        p = expit(sy * z)
        q = p * (1.0 - p)
        return p, q * sy, q * (1.0 - 2.0 * p)

    def predict(self, w: Any, X: Any) -> np.ndarray:
        """Labels the loss favours: -sign(<x, w>) as printed, sign(<x, w>) corrected."""
        return sign_predict(self, w, X, -self._s)

    def _reg(self, W: np.ndarray) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
        return ridge(W, self.lam)

    def _reg_grad(self, W: np.ndarray) -> np.ndarray:
        return self.lam * W

    def make_data(self, n: int, rng: Any = None) -> Dataset:
        """n samples of the planted logistic model (:func:`planted_logistic`): rows with
        ||x_i|| <= 1, P(y = 1 | x) = sigmoid(<x, w_p>), ||w_p|| = ``w_norm``; seeded by ``rng``."""
        return planted_logistic(check_n(n), self.d, as_rng(rng), w_norm=self.w_norm)[0]

    def assumptions(self, data: Dataset) -> tuple[Assumption, ...]:
        """The certified constants on ``data`` (X = max_i ||x_i||), proved in the class
        docstring: Smooth(X^2/(6 sqrt 3) + lam) and HessianLipschitz(X^3/8) everywhere,
        Lipschitz(X/4 + lam R) and BoundedLoss(1 + lam R^2/2) on ||w|| <= R, and twice
        differentiability: wang2020's Assumption 2 constants, G only on the ball (the ridge
        gradient is unbounded)."""
        data = self._check_data(data)
        X, lam, R = data.max_norm, self.lam, self.R
        note = ball_note(R)
        return (
            Smooth(round_up(X ** 2 * SIGMA2_MAX * (1 + 1e-12) + lam, 6)),
            HessianLipschitz(round_up(X ** 3 / 8, 6)),
            Lipschitz(round_up(X / 4 + lam * R, 6), note=note),
            BoundedLoss(round_up(1 + lam * R * R / 2, 6), note=note),
            TwiceDifferentiable(),
        )

    def minimum(self, data: Dataset) -> Minimum:
        """The best point of multi-start L-BFGS (from 0 and four random starts of norm about
        min(R, 3)), memoised per dataset; not exact, bracketed below by 0 (every term is
        nonnegative)."""
        data = self._check_data(data)
        w = self._memo("argmin", data,
                       lambda: multistart(self, data, _starts(self.d, min(self.R, 3.0))))
        return Minimum(float(self.F(w, data)), False, 0.0, w,
                       "multi-start L-BFGS; lower = 0 (every term >= 0)")


class RobustRegression(LinearModelObjective):
    """tran2022's suggestion: f(w, (a, b)) = log(1 + (<a, w> - b)^2/2), ||a|| <= X.

    phi(u) = log(1 + u^2/2): phi' = 2u/(2 + u^2), phi'' = (4 - 2u^2)/(2 + u^2)^2,
    phi''' = 4u(u^2 - 6)/(2 + u^2)^3; exact sups (critical points of rational functions):
    |phi'| <= 1/sqrt 2, |phi''| <= 1, |phi'''| <= 1.0303. Non-convex (phi''(u) < 0 for u^2 > 2).

    * Lipschitz / bounded gradient (everywhere): X/sqrt 2 (tran2022's G).
    * Smooth (everywhere): X^2 (tran2022's L).   Hessian-Lipschitz: X^3 sup|phi'''|.
    * Bounded loss on ||w|| <= R: log(1 + U^2/2), U = X R + max|b|.
    With ``noise = 0`` the data are realizable and min F = 0 exactly.

    ``x_radius`` (default 1) bounds the features, ||a_i|| <= x_radius: since G = X/sqrt 2
    and L = X^2, it sets the ratio L/G = sqrt 2 X (tran2022's bounds carry L/G and R/G,
    which a loss scale leaves unchanged but a feature scale does not).
    """

    name = "robust-regression"

    def __init__(self, d: int = 5, R: float = 3.0, noise: float = 0.0,
                 x_radius: float = 1.0) -> None:
        super().__init__(d)
        self.R = check_positive("R", R)
        self.noise = check_positive("noise", noise, allow_zero=True)
        self.x_radius = check_positive("x_radius", x_radius)
        self.domain_radius = self.R

    def params(self) -> dict[str, Any]:
        """The family's parameters: d, R, noise and x_radius."""
        return {"d": self.d, "R": self.R, "noise": self.noise, "x_radius": self.x_radius}

    def _phi(self, z: np.ndarray, y: np.ndarray) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
        u = z - y
        s = 2.0 + u * u
        return np.log1p(0.5 * u * u), 2.0 * u / s, (4.0 - 2.0 * u * u) / s ** 2

    def _dphi(self, z: np.ndarray, y: np.ndarray) -> np.ndarray:
        u = z - y
        return 2.0 * u / (2.0 + u * u)

    def make_data(self, n: int, rng: Any = None) -> Dataset:
        """n samples of a planted linear model (:func:`planted_linear`): ||a_i|| <=
        ``x_radius``, b = <a, w_p> + ``noise`` times a clipped standard normal, ||w_p|| = 1;
        realizable when ``noise`` = 0."""
        return planted_linear(check_n(n), self.d, as_rng(rng), w_norm=1.0, noise=self.noise,
                              radius=self.x_radius)[0]

    def assumptions(self, data: Dataset) -> tuple[Assumption, ...]:
        """The certified constants on ``data`` (X = max_i ||a_i||), proved in the class
        docstring: Lipschitz and BoundedGradient X/sqrt 2 (tran2022's G), Smooth(X^2)
        (tran2022's L) and HessianLipschitz(X^3 sup|phi'''|) everywhere, BoundedLoss
        log(1 + U^2/2) with U = X R + max|b| on ||w|| <= R, and twice differentiability.
        tran2022's standing assumptions (Sec. 2) also bound the gap sup_w F(w_1) - F(w) (its R);
        that gap is not declared here."""
        data = self._check_data(data)
        X, R = data.max_norm, self.R
        s1, s2, s3 = _robust_sups()
        U = X * R + float(np.max(np.abs(data.y)))
        note = ball_note(R)
        return (
            Lipschitz(round_up(X * s1, 6)),
            BoundedGradient(round_up(X * s1, 6)),
            Smooth(round_up(X ** 2 * s2, 6)),
            HessianLipschitz(round_up(X ** 3 * s3, 6)),
            BoundedLoss(round_up(float(np.log1p(U * U / 2)), 6), note=note),
            TwiceDifferentiable(),
        )

    def minimum(self, data: Dataset) -> Minimum:
        """Exactly 0 when least squares fits the targets (realizable data); otherwise the best
        point of multi-start L-BFGS, bracketed below by 0 (the loss is nonnegative). Memoised
        per dataset."""
        data = self._check_data(data)
        return self._memo("minimum", data, lambda: self._minimum(data))

    def _minimum(self, data: Dataset) -> Minimum:
        w = np.linalg.lstsq(data.X, data.y, rcond=None)[0]
        if np.max(np.abs(data.X @ w - data.y)) <= 1e-10 * (1 + np.max(np.abs(data.y))):
            return Minimum(0.0, True, 0.0, w, "realizable: residuals vanish at least squares")
        w = multistart(self, data, np.vstack([w, _starts(self.d, min(self.R, 3.0))]))
        return Minimum(float(self.F(w, data)), False, 0.0, w,
                       "multi-start L-BFGS; lower = 0 (loss >= 0)")
