"""Family (d): smooth (strongly) convex ERM of zhang2017 — ridge logistic and ridge Huber.

Both take features with ||x_i|| <= X (X = max_i ||x_i|| of the data) and a ridge (mu/2)||w||^2,
mu >= 0. The minimum is computed in the row space of X (zero and collinear columns, as in
one-hot data, drop out) by damped Newton with an L-BFGS fallback, and certified: a local
strong-convexity modulus m on a ball around the result gives ||w - w_hat|| <= ||grad F||/m
and F* >= F(w) - ||grad F(w)||^2/(2 m) (:func:`~._optim.convex_linear_minimum`). It is
memoised by the data's content, so new objective instances on the same data reuse it.

``D`` (the bound ||w_hat|| <= D of zhang2017's theorems, ``BoundedMinimizer``) is

* given by the user (``D=...``): a public constant, fixed before the data is seen;
* else, for mu > 0, ||grad F(0)||/mu (strong convexity);
* else (mu = 0), ||w_hat|| + ||w - w_hat|| of the certified minimiser: the paper's own D,
  the smallest valid one. When no minimiser is certified — logistic loss on data with a
  direction of recession, e.g. a one-hot level whose rows all share one label, as in UCI
  Adult and CreditCard, where F has no minimiser at all — D is the norm of the best point
  found and declared *NOT certified* in its note (give D to fix a public one).

The last two are *data-dependent*: a setting computed from them (zhang2017's T and Delta)
depends on the data, which the privacy proofs do not cover; :meth:`_RidgeERM.constant_sources`
says so, and the ``run``/``reproduce`` commands print it.
"""

from __future__ import annotations

from collections import OrderedDict
from typing import Any

import numpy as np
from scipy.special import expit

from dptheory.symbolic.assumptions import (Assumption, BoundedLoss, BoundedMinimizer, Convex,
                                           HessianLipschitz, Lipschitz, Smooth, StronglyConvex,
                                           TwiceDifferentiable)

from ._optim import CertifiedMinimum, convex_linear_minimum
from .base import Dataset, Minimum, as_rng, ball_note, check_n, check_positive, round_up
from .data import planted_linear, planted_logistic
from .linear import LinearModelObjective, check_labels, ridge, sign_predict

SIGMA2_MAX = 1.0 / (6.0 * np.sqrt(3.0))   # max |sigma''| = max |softplus'''|

# Certified minima (and recession directions) by (family, parameters that change F, data
# content): a reproduction builds many objective instances on one dataset, and a minimum on
# real data costs seconds.
_MINIMA: "OrderedDict[tuple, Any]" = OrderedDict()
_MINIMA_MAX = 32


class _RidgeERM(LinearModelObjective):
    def __init__(self, d: int, mu: float, R: float, D: float | None = None) -> None:
        super().__init__(d)
        self.mu = check_positive("mu", mu, allow_zero=True)
        self.R = check_positive("R", R)
        self.D = None if D is None else check_positive("D", D)
        self.domain_radius = self.R

    def _reg(self, W: np.ndarray) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
        return ridge(W, self.mu)

    def _reg_grad(self, W: np.ndarray) -> np.ndarray:
        return self.mu * W

    def _convexity(self) -> Assumption:
        return StronglyConvex(self.mu) if self.mu > 0 else Convex()

    def _loss_params(self) -> tuple:
        """The parameters that change F (not R or D): the key of the memoised minimum."""
        return tuple(sorted((k, v) for k, v in self.params().items() if k not in ("R", "D")))

    def _by_content(self, kind: str, data: Dataset, compute: Any) -> Any:
        """``compute()`` memoised by (family, loss parameters, data content)."""
        key = (kind, type(self).__name__, self._loss_params(), data.fingerprint)
        if key in _MINIMA:
            _MINIMA.move_to_end(key)
            return _MINIMA[key]
        value = _MINIMA[key] = compute()
        while len(_MINIMA) > _MINIMA_MAX:
            _MINIMA.popitem(last=False)
        return value

    def certified_minimum(self, data: Dataset) -> CertifiedMinimum:
        """The certified minimiser of F on ``data`` (memoised by the data's content)."""
        data = self._check_data(data)
        return self._by_content("minimum", data, lambda: convex_linear_minimum(self, data))

    def _minimizer_bound(self, data: Dataset) -> tuple[Assumption, ...]:
        if self.D is not None:
            return (BoundedMinimizer(self.D, scope="empirical",
                                     note="given by the user: a public constant"),)
        if self.mu > 0:
            # mu ||w_hat||^2 <= <grad F(0) - grad F(w_hat), 0 - w_hat> <= ||grad F(0)|| ||w_hat||
            g0 = float(np.linalg.norm(self.grad_F(np.zeros(self.d), data)))
            return (BoundedMinimizer(round_up(g0 / self.mu * (1 + 1e-9), 6), scope="empirical",
                                     note="||w_hat|| <= ||grad F(0)||/mu; data-dependent"),)
        cm = self.certified_minimum(data)
        if not cm.certified:
            return (BoundedMinimizer(round_up(float(np.linalg.norm(cm.w)), 6), scope="empirical",
                                     note=f"NOT certified: {self.no_minimiser_reason(data)}; "
                                          "D = ||w|| of the best point found (solver- and "
                                          "data-dependent); give D for a public bound"),)
        D = float(np.linalg.norm(cm.w)) + cm.distance * (1 + 1e-6) + 1e-12
        return (BoundedMinimizer(round_up(D, 6), scope="empirical",
                                 note="||w_hat|| of the certified minimum-norm minimiser "
                                      "(the paper's own D); data-dependent"),)

    def no_minimiser_reason(self, data: Dataset) -> str:
        """Why no minimiser was certified (families refine it)."""
        return "no local strong convexity certified around the best point found"

    def constant_sources(self, data: Dataset) -> dict[str, str]:
        """How each declared constant that depends on the data (beyond n) was obtained."""
        out = {"X": f"max_i ||x_i|| = {data.max_norm:.6g} of the data (data-dependent unless "
                    "the rows were normalised to a radius fixed in advance)"}
        if self.D is not None:
            out["D"] = f"{self.D:g}, given by the user (public)"
        elif self.mu > 0:
            out["D"] = "||grad F(0)||/mu, computed from the data (data-dependent)"
        elif self.certified_minimum(data).certified:
            out["D"] = "||w_hat|| of this data's minimiser (data-dependent; the paper's own D)"
        else:
            out["D"] = (f"||w|| of the best point found, NOT certified ("
                        f"{self.no_minimiser_reason(data)}; solver- and data-dependent)")
        return out

    def minimum(self, data: Dataset) -> Minimum:
        cm = self.certified_minimum(data)
        f, g = cm.value, cm.grad_norm
        if cm.certified:
            lower = cm.lower                  # m >= mu, so at least F - g^2/(2 mu)
            how = (f"lower = F(w) - ||grad F(w)||^2/(2 m), m = {cm.m:.4g} certified on the "
                   f"ball of radius {cm.radius:.3g}")
        elif self.mu > 0:
            lower, how = f - g * g / (2 * self.mu), "lower = F(w) - ||grad F(w)||^2/(2 mu)"
        else:
            lower, how = 0.0, "lower = 0 (the loss is >= 0; no minimiser certified)"
        return Minimum(f, False, min(lower, f), cm.w, f"{cm.method}; {how}")


class LogisticRidge(_RidgeERM):
    """Ridge logistic regression (zhang2017 Sec. 4).

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
    * BoundedMinimizer: ``D`` if given; strong convexity gives ||w_hat|| <= ||grad F(0)||/mu;
      for mu = 0 the certified minimiser's norm (module docstring).
    """

    name = "logistic-ridge"

    task = "classification"

    def __init__(self, d: int = 5, mu: float = 0.1, R: float = 5.0, form: str = "standard",
                 w_norm: float = 3.0, D: float | None = None, x_radius: float = 1.0) -> None:
        super().__init__(d, mu, R, D)
        if form not in ("standard", "printed"):
            raise ValueError(f"form must be 'standard' or 'printed', got {form!r}")
        self.form = form
        self.w_norm = check_positive("w_norm", w_norm)
        self.x_radius = check_positive("x_radius", x_radius)
        self._s, self._c = (-1.0, 0.0) if form == "standard" else (1.0, 1.0)

    def params(self) -> dict[str, Any]:
        """The family's parameters: d, mu, R, form, x_radius, and D when the user gave it."""
        out = {"d": self.d, "mu": self.mu, "R": self.R, "form": self.form,
               "x_radius": self.x_radius}
        return out if self.D is None else {**out, "D": self.D}

    def check_data(self, data: Dataset) -> None:
        """Labels must be in {-1, +1} (:func:`check_labels`); ValueError otherwise."""
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

    def _curvature_floor(self, z: np.ndarray, y: np.ndarray, a: np.ndarray) -> np.ndarray:
        """min of phi'' over [z - a, z + a]: sigma' is even and decreasing in |m|."""
        t = np.abs(self._s * y * z + self._c) + a
        return expit(t) * expit(-t)

    def predict(self, w: Any, X: Any) -> np.ndarray:
        """Labels the loss favours: sign(<x, w>) (standard), -sign(<x, w>) (printed)."""
        return sign_predict(self, w, X, -self._s)

    def recession_direction(self, data: Dataset) -> np.ndarray | None:
        """A direction v along which F never increases and somewhere decreases (so F has no
        minimiser when mu = 0), or None: an LP maximising sum_i a_i.v subject to a_i.v >= 0,
        |v_j| <= 1, with a_i = -s y_i x_i (the loss decreases in s y <x, w>)."""
        from scipy.optimize import linprog  # noqa: PLC0415 - only when no minimum was certified
        A = (-self._s * data.y)[:, None] * data.X
        res = linprog(-A.sum(axis=0), A_ub=-A, b_ub=np.zeros(data.n),
                      bounds=[(-1.0, 1.0)] * self.d, method="highs")
        if res.status != 0 or -res.fun <= 1e-9:
            return None
        v = np.asarray(res.x)
        margins = A @ v
        return v if margins.min() >= -1e-12 * np.abs(margins).max() else None

    def no_minimiser_reason(self, data: Dataset) -> str:
        """For mu = 0, the recession direction of F that :meth:`recession_direction`
        finds (F then has no minimiser: e.g. a one-hot level whose rows all share one label);
        otherwise the generic reason."""
        if self.mu > 0:
            return super().no_minimiser_reason(data)
        v = self._by_content("recession", data, lambda: self.recession_direction(data))
        if v is None:
            return super().no_minimiser_reason(data)
        margins = (-self._s * data.y) * (data.X @ v)
        top = np.argsort(-np.abs(v))[:3]
        return (f"F has no minimiser: it decreases along a direction v with margin > 0 on "
                f"{int((margins > 1e-12).sum())} rows and < 0 on none (largest |v_j| at "
                f"columns {top.tolist()}), e.g. a one-hot level whose rows share one label")

    def make_data(self, n: int, rng: Any = None) -> Dataset:
        """n samples of the planted logistic model (:func:`planted_logistic`): rows with
        ||x_i|| <= ``x_radius`` (default 1; the constants follow from X = max ||x_i||: a
        feature scale moves beta = X^2/4 + mu and L = X + mu R), P(y = 1 | x) =
        sigmoid(<x, w_p>), ||w_p|| = ``w_norm``; seeded by ``rng``."""
        return planted_logistic(check_n(n), self.d, as_rng(rng), w_norm=self.w_norm,
                                radius=self.x_radius)[0]

    def assumptions(self, data: Dataset) -> tuple[Assumption, ...]:
        """The certified constants on ``data`` (X = max_i ||x_i||), proved in the class
        docstring: StronglyConvex(mu) (Convex for mu = 0), Smooth(X^2/4 + mu),
        HessianLipschitz(X^3/(6 sqrt 3)), Lipschitz(X + mu R) and BoundedLoss on ||w|| <= R,
        twice differentiability, and the bound D on ||w_hat||.

        These are the hypotheses of zhang2017's utility theorems for Algorithm 1: Theorem 2
        (mu > 0: strongly convex, beta-smooth, ||w_hat|| <= D, L-Lipschitz on ||w|| <= 2D) and
        Theorem 3 (mu = 0: convex instead); the Lipschitz constant declared here holds on
        ||w|| <= R."""
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
    """Ridge Huber regression (zhang2017 Sec. 4, h_delta as printed).

    f(w, (x, y)) = h_delta(<w, x> - y) + (mu/2)||w||^2 with h_delta(u) = u^2/2 for |u| <= delta
    and delta(|u| - delta/2) otherwise. h_delta is C^1 with |h'| <= delta and h' 1-Lipschitz
    (h'' in {0, 1} a.e.; not twice differentiable at |u| = delta, so no Hessian-Lipschitz).

    * Smooth: ||grad f(w) - grad f(w')|| <= (X^2 + mu)||w - w'|| (everywhere).
    * StronglyConvex(mu) (Convex if mu = 0).
    * Lipschitz on ||w|| <= R: delta X + mu R.
    * Bounded loss on ||w|| <= R: |u| <= U = X R + max|y| and h_delta increases in |u|, so
      0 <= f <= h_delta(U) + mu R^2/2.
    * BoundedMinimizer: ``D`` if given, ||grad F(0)||/mu for mu > 0, the certified
      minimiser's norm for mu = 0.
    ``hess`` returns the a.e. Hessian (used by Newton; its norm still obeys the smoothness bound).
    """

    name = "huber-ridge"

    def __init__(self, d: int = 5, mu: float = 0.1, delta: float = 0.5, R: float = 5.0,
                 noise: float = 0.5, D: float | None = None) -> None:
        super().__init__(d, mu, R, D)
        self.delta = check_positive("delta", delta)
        self.noise = check_positive("noise", noise, allow_zero=True)

    def params(self) -> dict[str, Any]:
        """The family's parameters: d, mu, delta, R, and D when the user gave it."""
        out = {"d": self.d, "mu": self.mu, "delta": self.delta, "R": self.R}
        return out if self.D is None else {**out, "D": self.D}

    def _phi(self, z: np.ndarray, y: np.ndarray) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
        return huber(z - y, self.delta)

    def _curvature_floor(self, z: np.ndarray, y: np.ndarray, a: np.ndarray) -> np.ndarray:
        """h'' = 1 on the whole of [z - a, z + a] when |z - y| + a < delta, else >= 0."""
        return (np.abs(z - y) + a < self.delta).astype(np.float64)

    def make_data(self, n: int, rng: Any = None) -> Dataset:
        """n samples of a planted linear model (:func:`planted_linear`): ||x_i|| <= 1,
        y = <x, w_p> + ``noise`` times a standard normal clipped to [-3, 3], ||w_p|| = 1."""
        return planted_linear(check_n(n), self.d, as_rng(rng), w_norm=1.0, noise=self.noise)[0]

    def assumptions(self, data: Dataset) -> tuple[Assumption, ...]:
        """The certified constants on ``data`` (X = max_i ||x_i||), proved in the class
        docstring: StronglyConvex(mu) (Convex for mu = 0), Smooth(X^2 + mu), Lipschitz(delta X +
        mu R) and BoundedLoss(h_delta(X R + max|y|) + mu R^2/2) on ||w|| <= R, and the bound D
        on ||w_hat||: the hypotheses of zhang2017's Theorem 2 (mu > 0) or Theorem 3 (mu = 0),
        with the Lipschitz constant on ||w|| <= R. No Hessian-Lipschitz constant: h_delta is not
        twice differentiable at |u| = delta."""
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
