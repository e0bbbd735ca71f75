"""Certified suprema of sensitivities (issue 23, item 3): closed-form upper bounds on
``sup_{S ~ S'} ||q(S) - q(S')||`` that a sensitivity check can pass to
:func:`dptheory.verify.checks.sup_check` as ``certified_sup``, with their derivation.

The one recursion here is the growth recursion of Hardt, Recht and Singer (2016, Lemma 2.5)
for full-batch GD on neighbours S, S' that differ in record i: write
``G_S(w) = w - eta grad F_S(w)``; then

    w_{t+1} - w'_{t+1} = G_S(w_t) - G_S(w'_t) + (eta/n) (grad f_i'(w'_t) - grad f_i(w'_t)),

so ``Delta_{t+1} <= q Delta_t + eta g / n`` where ``q`` is a Lipschitz constant of the GD
map ``G_S`` and ``g >= sup_w ||grad f_i'(w) - grad f_i(w)||`` (the replaced record's
gradient difference at one point). ``q`` is certified by

* convex, beta-smooth F_S and ``eta <= 2/beta``: ``q = 1`` (the GD map is nonexpansive);
* mu-strongly convex, beta-smooth F_S and ``eta <= 2/(mu + beta)``: ``q = 1 - eta mu``
  (the GD map is ``max(|1 - eta mu|, |1 - eta beta|)``-Lipschitz, e.g. Ryu and Boyd 2016,
  Sec. 5), and with Delta_0 = 0,

    Delta_T <= (eta g / n) sum_{k < T} q^k.

The second is the per-step Hessian sensitivity of a linear model f(w, (x, y)) =
phi(<x, w>; y) + r(w): at one w, hess f(w, z) - hess f(w, z') = a x x^T - b x' x'^T with
a, b the values of phi'' (r's Hessian cancels), and for any symmetric M,
||triu(M)||_F <= ||M||_F. Hence with |a|, |b| <= c and ||x||, ||x'|| <= X:

* phi'' of one sign (a, b in [0, c], e.g. the logistic loss, c = 1/4):
  ||a xx^T - b x'x'^T||_F^2 = a^2 ||x||^4 + b^2 ||x'||^4 - 2ab <x, x'>^2 <= 2 c^2 X^4, so the
  supremum is at most sqrt(2) c X^2 (attained by orthogonal x, x' of norm X on coordinate
  axes with a = b = c);
* phi'' of either sign (e.g. the sigmoid loss, c = 1/(6 sqrt 3)): at most 2 c X^2 (the
  triangle inequality; attained by x = x' = X e_1 with a = -b = c).

The sensitivity of the full Hessian (1/n) sum_i is that divided by n.
"""

from __future__ import annotations

import math

__all__ = ["gd_growth_sup", "hessian_difference_sup"]


def gd_growth_sup(g: float, eta: float, n: int, T: int, *, mu: float, beta: float) -> float:
    """Certified ``sup ||w_T(S) - w_T(S')||`` of GD from a common start (module docstring).

    Parameters
    ----------
    g : float
        ``sup_w ||grad f(w, z') - grad f(w, z)||`` over the pairs of records allowed.
    eta, n, T : step size, data set size, number of steps.
    mu, beta : strong convexity (0 for convex) and smoothness of F_S.

    Raises ValueError when the step is too long for the contraction used
    (``eta > 2/beta`` convex, ``eta > 2/(mu + beta)`` strongly convex).
    """
    for name, v in (("g", g), ("eta", eta), ("mu", mu), ("beta", beta)):
        if not (math.isfinite(v) and v >= 0):
            raise ValueError(f"{name} must be a finite number >= 0, got {v}")
    if int(n) < 1 or int(T) < 0:
        raise ValueError(f"n must be >= 1 and T >= 0, got n={n}, T={T}")
    if beta <= 0 or mu > beta:
        raise ValueError(f"need 0 <= mu <= beta and beta > 0, got mu={mu}, beta={beta}")
    limit = 2 / beta if mu == 0 else 2 / (mu + beta)
    if eta > limit * (1 + 1e-12):
        raise ValueError(f"eta must be <= {limit:g} for the certified contraction, got {eta}")
    q = 1.0 - eta * mu
    growth = float(T) if q == 1.0 else (1 - q ** int(T)) / (1 - q)
    return eta * g / int(n) * growth


def hessian_difference_sup(c: float, X: float, n: int, *, one_sign: bool) -> float:
    """Certified ``sup_{w, z, z'} ||triu(hess F_S(w) - hess F_S'(w))||_F`` for a linear model
    whose loss curvature phi'' is bounded by ``c`` in absolute value (module docstring):
    ``sqrt(2) c X^2 / n`` when phi'' has one sign, ``2 c X^2 / n`` otherwise."""
    for name, v in (("c", c), ("X", X)):
        if not (math.isfinite(v) and v >= 0):
            raise ValueError(f"{name} must be a finite number >= 0, got {v}")
    if int(n) < 1:
        raise ValueError(f"n must be >= 1, got {n}")
    return (math.sqrt(2) if one_sign else 2.0) * c * X * X / int(n)
