"""Exact first and second moments of linear-gradient methods (issue 23, item 1).

On a quadratic empirical risk F(w) = (1/n) sum_i f(w, x_i) with per-record gradients
``grad f(w, x_i) = H w + x_i`` (e.g. the ``tilted-quadratic`` family: H = I), the error
e_t = w_t - w*, w* = -H^{-1} x_bar, of

* GD: e_{t+1} = (I - eta H) e_t, so e_T = (I - eta H)^T e_0 (deterministic);
* SGD with one record drawn uniformly *with* replacement: e_{t+1} = (I - eta H) e_t -
  eta (x_{i_t} - x_bar); the noise has mean 0 and is independent of e_t, so
  E e_T = (I - eta H)^T e_0 and, for H = h I,
  E||e_T||^2 = q^{2T} ||e_0||^2 + eta^2 V (1 - q^{2T})/(1 - q^2), q = 1 - eta h,
  V = (1/n) sum_i ||x_i - x_bar||^2;
* minibatch SGD with B records drawn *without* replacement (each step): the batch mean's
  variance is the finite-population V/B (n - B)/(n - 1), in place of V;
* output perturbation w_priv = w_T + z with E z = 0, E||z||^2 = m (isotropic):
  E F(w_priv) - F* = (1/2) e_T^T H e_T + (1/2)(m/d) tr H (exact: F is quadratic);
  m = d sigma^2 for a Gaussian, m = d (d + 1) s^2 for the l2-Laplace law
  p(z) ~ exp(-||z||/s) (||z|| ~ Gamma(d, s): E||z||^2 = d(d+1) s^2).

Everything is closed form in n and T: no sampling error at any n, T (1e5 - 1e9).
"""

from __future__ import annotations

import math

import numpy as np

__all__ = ["gd_error", "sgd_error_sq", "noise_second_moment", "output_perturbation_excess",
           "finite_population_variance"]


def _step(eta: float, h: float) -> float:
    if not (math.isfinite(eta) and eta > 0 and math.isfinite(h) and h > 0):
        raise ValueError(f"eta and h must be finite and > 0, got eta={eta}, h={h}")
    q = 1 - eta * h
    if abs(q) >= 1:
        raise ValueError(f"need |1 - eta h| < 1 (eta < 2/h), got eta={eta}, h={h}")
    return q


def gd_error(e0: np.ndarray, eta: float, h: float, T: int) -> np.ndarray:
    """e_T = (1 - eta h)^T e_0 of GD on a quadratic with Hessian h I."""
    if int(T) < 0:
        raise ValueError(f"T must be >= 0, got {T}")
    return _step(eta, h) ** int(T) * np.asarray(e0, dtype=float)


def finite_population_variance(V: float, n: int, B: int) -> float:
    """Variance (trace) of the mean of B of n records drawn without replacement, whose
    population variance is V: V/B (n - B)/(n - 1)."""
    if not (1 <= int(B) <= int(n)):
        raise ValueError(f"need 1 <= B <= n, got B={B}, n={n}")
    if int(n) == 1:
        return 0.0
    return V / B * (n - B) / (n - 1)


def sgd_error_sq(e0_sq: float, V: float, eta: float, h: float, T: int, *, n: int | None = None,
                 B: int = 1, replace: bool = True) -> float:
    """E||e_T||^2 of SGD (batch B; with or without replacement within a batch) on a
    quadratic with Hessian h I, from ||e_0||^2 = ``e0_sq`` (module docstring)."""
    q = _step(eta, h)
    if int(T) < 0 or V < 0 or e0_sq < 0:
        raise ValueError(f"need T >= 0, V >= 0, e0_sq >= 0; got {T}, {V}, {e0_sq}")
    if replace:
        v = V / int(B)
    else:
        if n is None:
            raise ValueError("n is needed for sampling without replacement")
        v = finite_population_variance(V, int(n), int(B))
    q2T = q ** (2 * int(T))
    return q2T * e0_sq + eta * eta * v * (1 - q2T) / (1 - q * q)


def noise_second_moment(law: str, d: int, scale: float) -> float:
    """E||z||^2: ``gaussian`` (scale = sigma per coordinate): d sigma^2; ``l2-laplace``
    (density ~ exp(-||z||/scale)): d (d + 1) scale^2."""
    if int(d) < 1 or not (math.isfinite(scale) and scale >= 0):
        raise ValueError(f"need d >= 1 and a finite scale >= 0, got d={d}, scale={scale}")
    if law == "gaussian":
        return d * scale * scale
    if law == "l2-laplace":
        return d * (d + 1) * scale * scale
    raise ValueError(f"law must be 'gaussian' or 'l2-laplace', got {law!r}")


def output_perturbation_excess(eT: np.ndarray, h: float, noise_sq: float) -> float:
    """E F(w_T + z) - F* = (h/2)||e_T||^2 + (h/2) E||z||^2 on a quadratic with Hessian h I
    and zero-mean noise z."""
    eT = np.asarray(eT, dtype=float)
    return 0.5 * h * float(eT @ eT) + 0.5 * h * float(noise_sq)
