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
"""

from __future__ import annotations

import math

__all__ = ["gd_growth_sup"]


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
