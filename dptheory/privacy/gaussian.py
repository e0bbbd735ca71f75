"""The Gaussian mechanism: exact privacy curve, classic and analytic calibration.

For a query of l2-sensitivity ``sensitivity`` (Delta) released with N(0, sigma^2 I) noise,
the exact privacy profile (Balle & Wang 2018, Theorem 8) is

    delta(eps) = Phi(Delta/(2 sigma) - eps sigma/Delta) - e^eps Phi(-Delta/(2 sigma) - eps sigma/Delta).

It is evaluated here in log space (``scipy.special.log_ndtr``) so that both terms keep
full relative precision when they are tiny or nearly equal.

References
----------
* Dwork & Roth 2014, Theorem A.1 (classic calibration sigma = sqrt(2 ln(1.25/delta)) Delta/eps).
* Balle & Wang 2018, "Improving the Gaussian mechanism for differential privacy: analytical
  calibration and optimal denoising", ICML (exact curve and analytic calibration).
"""

from __future__ import annotations

import math
from typing import Union

import numpy as np
from scipy import optimize, special

ArrayLike = Union[float, np.ndarray]

__all__ = [
    "gaussian_delta",
    "gaussian_log_delta",
    "gaussian_epsilon",
    "classic_gaussian_sigma",
    "analytic_gaussian_sigma",
]


# -- validation helpers (shared by the privacy package) ---------------------------------

def _check_positive(name: str, value: float) -> float:
    value = float(value)
    if not (value > 0 and math.isfinite(value)):
        raise ValueError(f"{name} must be a finite number > 0, got {value!r}")
    return value


def _check_unit_open(name: str, value: float) -> float:
    value = float(value)
    if not (0 < value < 1):
        raise ValueError(f"{name} must be in (0, 1), got {value!r}")
    return value


def _check_rate(name: str, value: float) -> float:
    value = float(value)
    if not (0 < value <= 1):
        raise ValueError(f"{name} must be in (0, 1], got {value!r}")
    return value


def _check_count(name: str, value: int) -> int:
    if isinstance(value, bool) or not float(value).is_integer() or value < 1:
        raise ValueError(f"{name} must be an integer >= 1, got {value!r}")
    return int(value)


def _check_nonneg_array(name: str, value: ArrayLike) -> np.ndarray:
    arr = np.asarray(value, dtype=np.float64)
    if np.any(~(arr >= 0)) or np.any(~np.isfinite(arr)):
        raise ValueError(f"{name} must be finite and >= 0, got {value!r}")
    return arr


# -- exact privacy curve ----------------------------------------------------------------

def gaussian_log_delta(eps: ArrayLike, *, sigma: float, sensitivity: float = 1.0) -> ArrayLike:
    """log delta(eps) of the Gaussian mechanism (Balle & Wang 2018, Thm 8), in log space.

    ``log delta = log Phi(a) + log(1 - exp(eps + log Phi(b) - log Phi(a)))`` with
    ``a = D/(2s) - eps s/D`` and ``b = -D/(2s) - eps s/D``; the second factor uses log1p/expm1
    so that the difference of two nearly equal terms does not cancel catastrophically.
    """
    sigma = _check_positive("sigma", sigma)
    sensitivity = _check_positive("sensitivity", sensitivity)
    e = _check_nonneg_array("eps", eps)
    r = sensitivity / sigma
    a = r / 2.0 - e / r
    b = -r / 2.0 - e / r
    la = special.log_ndtr(a)
    lb = special.log_ndtr(b)
    x = e + lb - la                       # <= 0 mathematically; clip rounding noise
    x = np.minimum(x, 0.0)
    with np.errstate(divide="ignore"):
        out = la + np.log(-np.expm1(x))
    return out if np.ndim(out) else float(out)


def gaussian_delta(eps: ArrayLike, *, sigma: float, sensitivity: float = 1.0) -> ArrayLike:
    """Exact delta(eps) of the Gaussian mechanism N(0, sigma^2) on a query of sensitivity Delta.

    Reference: Balle & Wang 2018, Theorem 8; the form printed in the dptheory catalog
    ("Exact Gaussian privacy curve", `zhang2021.def2.2`).
    """
    out = np.exp(gaussian_log_delta(eps, sigma=sigma, sensitivity=sensitivity))
    return out if np.ndim(out) else float(out)


def gaussian_epsilon(delta: float, *, sigma: float, sensitivity: float = 1.0) -> float:
    """Smallest eps >= 0 with delta(eps) <= ``delta`` on the exact Gaussian curve (inverse)."""
    delta = _check_unit_open("delta", delta)
    sigma = _check_positive("sigma", sigma)
    sensitivity = _check_positive("sensitivity", sensitivity)
    log_target = math.log(delta)

    def f(e: float) -> float:
        return gaussian_log_delta(e, sigma=sigma, sensitivity=sensitivity) - log_target

    if f(0.0) <= 0:
        return 0.0
    hi = 1.0
    while f(hi) > 0:                     # delta(eps) is decreasing: double until bracketed
        hi *= 2.0
        if hi > 1e8:
            raise ValueError("delta is too small for this sigma (eps would exceed 1e8)")
    return float(optimize.brentq(f, 0.0, hi, xtol=1e-15, rtol=4 * np.finfo(float).eps))


# -- calibration ------------------------------------------------------------------------

def classic_gaussian_sigma(eps: float, delta: float, sensitivity: float = 1.0) -> float:
    """Classic calibration sigma = sqrt(2 ln(1.25/delta)) Delta / eps (Dwork & Roth 2014, Thm A.1).

    The theorem proves (eps, delta)-DP only for eps < 1; the catalog items `wang2020.def3`
    and `zhang2017.lemma1` print it without that restriction.
    """
    eps = _check_positive("eps", eps)
    delta = _check_unit_open("delta", delta)
    sensitivity = _check_positive("sensitivity", sensitivity)
    return math.sqrt(2.0 * math.log(1.25 / delta)) * sensitivity / eps


def analytic_gaussian_sigma(eps: float, delta: float, sensitivity: float = 1.0,
                            *, rtol: float = 1e-12) -> float:
    """Analytic Gaussian mechanism (Balle & Wang 2018, Algorithm 1): the smallest sigma
    with delta(eps; sigma) <= delta on the exact curve, found by bisection in log sigma.

    delta(eps; sigma) is decreasing in sigma, so bisection is valid; the returned value is
    the upper end of the final bracket, hence always satisfies the target.
    """
    eps = _check_positive("eps", eps)
    delta = _check_unit_open("delta", delta)
    sensitivity = _check_positive("sensitivity", sensitivity)
    log_target = math.log(delta)

    def ok(s: float) -> bool:
        return gaussian_log_delta(eps, sigma=s, sensitivity=sensitivity) <= log_target

    lo, hi = sensitivity, sensitivity
    while ok(lo):
        lo /= 2.0
    while not ok(hi):
        hi *= 2.0
    while (hi - lo) > rtol * hi:
        mid = math.sqrt(lo * hi)
        if ok(mid):
            hi = mid
        else:
            lo = mid
    return hi
