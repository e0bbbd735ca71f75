"""Certified one-dimensional bounds used to derive the families' constants.

Two tools, both rigorous up to float64 rounding (a relative safety margin is applied):

* :func:`sup_abs_rational` — sup_u |g(u)| for a rational function g (SymPy): the maximum
  of |g| over the real critical points (exact real roots of the numerator of g') and the
  limits at +-infinity.
* :func:`pl_h_constants` — the lower bounds of mu_h = inf h'^2/(2h) and
  theta_h = inf u h'/h for h(u) = u^2 + 3 sin^2 u, by interval arithmetic on a grid
  (see its docstring for the proof).
"""

from __future__ import annotations

from functools import lru_cache

import numpy as np
import sympy as sp

_SAFETY = 1e-9  # relative margin against float64 rounding


def sup_abs_rational(expr: sp.Expr, u: sp.Symbol) -> float:
    """Certified sup over the reals of |expr(u)| for a rational function without real poles."""
    expr = sp.together(sp.sympify(expr))
    num, _ = sp.fraction(sp.together(sp.diff(expr, u)))
    candidates = [abs(sp.limit(expr, u, sp.oo)), abs(sp.limit(expr, u, -sp.oo))]
    poly = sp.Poly(sp.expand(num), u)
    if poly.degree() >= 1:
        for root in sp.real_roots(poly):
            candidates.append(abs(expr.subs(u, root)))
    best = max(float(sp.N(c, 30)) for c in candidates)
    return best * (1 + _SAFETY)


def _sin_range(lo: np.ndarray, hi: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """Exact range of sin over [lo, hi] (elementwise)."""
    s_lo = np.minimum(np.sin(lo), np.sin(hi))
    s_hi = np.maximum(np.sin(lo), np.sin(hi))
    k = np.ceil((lo - np.pi / 2) / (2 * np.pi))          # a peak pi/2 + 2k pi in [lo, hi]
    s_hi = np.where(np.pi / 2 + 2 * np.pi * k <= hi, 1.0, s_hi)
    k = np.ceil((lo + np.pi / 2) / (2 * np.pi))          # a trough -pi/2 + 2k pi in [lo, hi]
    s_lo = np.where(-np.pi / 2 + 2 * np.pi * k <= hi, -1.0, s_lo)
    return s_lo, s_hi


@lru_cache(maxsize=None)
def pl_h_constants(cell: float = 2e-5, u0: float = 0.5, U: float = 10.0) -> tuple[float, float]:
    """Certified lower bounds (mu_h, theta_h) for h(u) = u^2 + 3 sin^2 u.

    Proof. h, u h'(u) and h'(u)^2 are even, so take u > 0 (u = 0 is a removable point).

    * Small u in (0, u0], u0 = 1/2: sin^2 u <= u^2 gives h <= 4u^2, and
      sin 2u >= 2u - (2u)^3/6 gives h' = 2u + 3 sin 2u >= 8u - 4u^3 > 0. Hence
      h'^2/(2h) >= (8u - 4u^3)^2/(8u^2) = 2(2 - u^2)^2 >= 6.125 and
      u h'/h >= (8u^2 - 4u^4)/(4u^2) = 2 - u^2 >= 1.75.
    * Large u >= U = 10: h <= u^2 + 3 and h' >= 2u - 3 > 0, so
      h'^2/(2h) >= (2u-3)^2/(2(u^2+3)) >= 289/206 > 1.4 and
      u h'/h >= (2u^2 - 3u)/(u^2 + 3) >= 170/103 > 1.6 (both increase in u for u >= 10).
    * On [u0, U], cut into cells [a, b] of width ``cell``: with the exact range
      [s-, s+] of sin over [2a, 2b] (and of sin^2 over [a, b]), interval arithmetic gives
      h' in [2a + 3 s-, 2b + 3 s+], h in [a^2 + 3 min sin^2, b^2 + 3 max sin^2] and
      u h' >= 2a^2 + 3 min(a s-, b s-, a s+, b s+); a lower bound of each quotient on the cell
      follows. The minimum over the cells, reduced by a relative 1e-9, is returned.

    Numerically (fine grid) mu_h = 0.17553 at u = 2.2017 and theta_h = 0.49609 at u = 2.1538.
    """
    a = np.arange(u0, U, cell)
    b = np.minimum(a + cell, U)
    s2lo, s2hi = _sin_range(2 * a, 2 * b)                 # sin(2u)
    slo, shi = _sin_range(a, b)                           # sin(u)
    sq_lo = np.where((slo <= 0) & (shi >= 0), 0.0, np.minimum(slo ** 2, shi ** 2))
    sq_hi = np.maximum(slo ** 2, shi ** 2)
    h_lo = a ** 2 + 3 * sq_lo
    h_hi = b ** 2 + 3 * sq_hi
    hp_lo = 2 * a + 3 * s2lo
    hp_hi = 2 * b + 3 * s2hi
    hp2_lo = np.where((hp_lo <= 0) & (hp_hi >= 0), 0.0, np.minimum(hp_lo ** 2, hp_hi ** 2))
    mu_cells = hp2_lo / (2 * h_hi)
    uhp_lo = 2 * a ** 2 + 3 * np.minimum.reduce([a * s2lo, b * s2lo, a * s2hi, b * s2hi])
    theta_cells = np.where(uhp_lo >= 0, uhp_lo / h_hi, uhp_lo / h_lo)
    mu = min(float(mu_cells.min()), 6.125, 1.4)
    theta = min(float(theta_cells.min()), 1.75, 1.6)
    return mu * (1 - _SAFETY), theta * (1 - _SAFETY)
