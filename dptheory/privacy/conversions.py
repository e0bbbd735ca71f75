"""Conversions between RDP, zCDP and (eps, delta)-DP.

References
----------
* Mironov 2017, "Renyi differential privacy", Prop. 3: (alpha, r)-RDP implies
  (r + log(1/delta)/(alpha-1), delta)-DP.
* Balle, Barthe, Gaboardi, Hsu, Sato 2020 (Thm 21) / Canonne, Kamath, Steinke 2020
  (Prop. 12 of arXiv:2004.00010): (alpha, r)-RDP implies
  (r + log((alpha-1)/alpha) - (log delta + log alpha)/(alpha-1), delta)-DP.
* Bun & Steinke 2016, Prop. 1.3 (wang2020 Lemma 3): rho-zCDP implies
  (rho + 2 sqrt(rho log(1/delta)), delta)-DP; Prop. 1.6 (wang2020 Lemma 4): the Gaussian
  mechanism is Delta^2/(2 sigma^2)-zCDP.
"""

from __future__ import annotations

import math
from typing import Sequence

import numpy as np

from dptheory.privacy.gaussian import _check_positive, _check_unit_open

__all__ = [
    "eps_from_rdp",
    "eps_from_rdp_mironov",
    "eps_from_rdp_improved",
    "zcdp_to_dp",
    "gaussian_zcdp",
    "wang2020_phi",
    "CONVERSIONS",
]

CONVERSIONS = ("improved", "mironov")


def _check_curve(orders: Sequence[float], rdp: Sequence[float]) -> tuple[np.ndarray, np.ndarray]:
    o = np.atleast_1d(np.asarray(orders, dtype=np.float64))
    r = np.atleast_1d(np.asarray(rdp, dtype=np.float64))
    if o.shape != r.shape or o.size == 0:
        raise ValueError(f"orders and rdp must be non-empty and of equal length, got "
                         f"{o.size} and {r.size}")
    if np.any(~(o > 1)):
        raise ValueError("orders must be > 1")
    if np.any(r < 0) or np.any(np.isnan(r)):
        raise ValueError("rdp must be >= 0")
    return o, r


def eps_from_rdp_mironov(orders: Sequence[float], rdp: Sequence[float],
                         delta: float) -> tuple[float, float]:
    """min over orders of rdp + log(1/delta)/(alpha-1) (Mironov 2017, Prop. 3).

    Returns ``(eps, optimal_order)``.
    """
    delta = _check_unit_open("delta", delta)
    o, r = _check_curve(orders, rdp)
    eps = r + math.log(1.0 / delta) / (o - 1.0)
    i = int(np.argmin(eps))
    return float(eps[i]), float(o[i])


def eps_from_rdp_improved(orders: Sequence[float], rdp: Sequence[float],
                          delta: float) -> tuple[float, float]:
    """min over orders of rdp + log((alpha-1)/alpha) - (log delta + log alpha)/(alpha-1)
    (Balle et al. 2020 Thm 21; Canonne, Kamath, Steinke 2020 Prop. 12), floored at 0.

    Returns ``(eps, optimal_order)``.
    """
    delta = _check_unit_open("delta", delta)
    o, r = _check_curve(orders, rdp)
    eps = r + np.log1p(-1.0 / o) - (math.log(delta) + np.log(o)) / (o - 1.0)
    i = int(np.argmin(eps))
    return max(0.0, float(eps[i])), float(o[i])


def eps_from_rdp(orders: Sequence[float], rdp: Sequence[float], delta: float,
                 conversion: str = "improved") -> tuple[float, float]:
    """Dispatch to :func:`eps_from_rdp_improved` or :func:`eps_from_rdp_mironov`."""
    if conversion == "improved":
        return eps_from_rdp_improved(orders, rdp, delta)
    if conversion == "mironov":
        return eps_from_rdp_mironov(orders, rdp, delta)
    raise ValueError(f"conversion must be one of {CONVERSIONS}, got {conversion!r}")


def zcdp_to_dp(rho: float, delta: float) -> float:
    """eps = rho + 2 sqrt(rho log(1/delta)) (Bun & Steinke 2016 Prop. 1.3; wang2020 Lemma 3)."""
    rho = float(rho)
    if not (math.isfinite(rho) and rho >= 0):      # rho = 0: no privacy loss at all, eps = 0
        raise ValueError(f"rho must be a finite number >= 0, got {rho!r}")
    delta = _check_unit_open("delta", delta)
    return rho + 2.0 * math.sqrt(rho * math.log(1.0 / delta))


def gaussian_zcdp(sigma: float, sensitivity: float = 1.0) -> float:
    """rho = Delta^2 / (2 sigma^2) (Bun & Steinke 2016 Prop. 1.6; wang2020 Lemma 4)."""
    sigma = _check_positive("sigma", sigma)
    sensitivity = _check_positive("sensitivity", sensitivity)
    return sensitivity ** 2 / (2.0 * sigma ** 2)


def wang2020_phi(eps: float, delta: float) -> float:
    """phi = (sqrt(eps + ln(1/delta)) - sqrt(ln(1/delta)))^2 (wang2020 preamble).

    It solves rho + 2 sqrt(rho l) = eps for rho (l = ln(1/delta)), so phi-zCDP converts to
    exactly (eps, delta)-DP by Lemma 3. Computed as eps^2/(sqrt(eps+l)+sqrt(l))^2 to avoid
    cancellation when eps << l.
    """
    eps = _check_positive("eps", eps)
    delta = _check_unit_open("delta", delta)
    l = math.log(1.0 / delta)
    return eps ** 2 / (math.sqrt(eps + l) + math.sqrt(l)) ** 2
