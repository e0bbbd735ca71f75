"""Seeded synthetic datasets with bounded feature norms, and offline real-data loaders.

Synthetic generators take a ``numpy.random.Generator`` (or an int seed) and return a
:class:`~dptheory_simulations.objectives.base.Dataset`. Real data (scikit-learn's bundled, offline
breast-cancer and digits sets) is loaded lazily; rows are normalised to unit norm, as
wang2020 does ("rows normalized"), and labels mapped to {-1, +1}.
"""

from __future__ import annotations

from typing import Any

import numpy as np

from .base import Dataset, as_rng, check_n, check_positive

__all__ = ["bounded_gaussian", "uniform_ball", "planted_linear", "planted_logistic",
           "normalize_rows", "load_breast_cancer", "load_digits"]


def _check_d(d: Any) -> int:
    if isinstance(d, bool) or not isinstance(d, (int, np.integer)) or d < 1:
        raise ValueError(f"d must be a positive integer, got {d!r}")
    return int(d)


def bounded_gaussian(n: int, d: int, rng: Any = None, *, radius: float = 1.0) -> np.ndarray:
    """Rows x = radius * g / max(1, ||g||), g ~ N(0, I_d) (zhang2017's suggestion); ||x|| <= radius."""
    n, d = check_n(n), _check_d(d)
    radius = check_positive("radius", radius)
    g = as_rng(rng).standard_normal((n, d))
    return radius * g / np.maximum(1.0, np.linalg.norm(g, axis=1, keepdims=True))


def uniform_ball(n: int, d: int, rng: Any = None, *, radius: float = 1.0) -> np.ndarray:
    """Rows uniform in the ball ||x|| <= radius."""
    n, d = check_n(n), _check_d(d)
    radius = check_positive("radius", radius)
    rng = as_rng(rng)
    g = rng.standard_normal((n, d))
    g /= np.linalg.norm(g, axis=1, keepdims=True)
    return radius * g * rng.random((n, 1)) ** (1.0 / d)


def _planted(d: int, rng: np.random.Generator, norm: float) -> np.ndarray:
    w = rng.standard_normal(d)
    return norm * w / np.linalg.norm(w)


def planted_linear(n: int, d: int, rng: Any = None, *, w_norm: float = 1.0, noise: float = 0.1,
                   radius: float = 1.0) -> tuple[Dataset, np.ndarray]:
    """y = <x, w_p> + noise * clip(N(0,1), -3, 3), ||w_p|| = w_norm; returns (data, w_p).

    |y| <= radius * w_norm + 3 noise, so targets are bounded too.
    """
    rng = as_rng(rng)
    X = bounded_gaussian(n, d, rng, radius=radius)
    w_norm = check_positive("w_norm", w_norm, allow_zero=True)
    w_p = _planted(_check_d(d), rng, w_norm) if w_norm > 0 else np.zeros(d)
    noise = check_positive("noise", noise, allow_zero=True)
    y = X @ w_p + noise * np.clip(rng.standard_normal(n), -3, 3)
    return Dataset(X, y), w_p


def planted_logistic(n: int, d: int, rng: Any = None, *, w_norm: float = 3.0,
                     radius: float = 1.0) -> tuple[Dataset, np.ndarray]:
    """Labels y in {-1, +1} with P(y = 1 | x) = sigmoid(<x, w_p>), ||w_p|| = w_norm."""
    rng = as_rng(rng)
    X = bounded_gaussian(n, d, rng, radius=radius)
    w_p = _planted(_check_d(d), rng, check_positive("w_norm", w_norm))
    p = 1.0 / (1.0 + np.exp(-(X @ w_p)))
    y = np.where(rng.random(n) < p, 1.0, -1.0)
    return Dataset(X, y), w_p


def normalize_rows(X: Any) -> np.ndarray:
    """Rows scaled to unit Euclidean norm (zero rows stay zero)."""
    X = np.asarray(X, dtype=np.float64)
    if X.ndim != 2:
        raise ValueError(f"X must be a 2-D array, got shape {X.shape}")
    norms = np.linalg.norm(X, axis=1, keepdims=True)
    return X / np.where(norms > 0, norms, 1.0)


def _sklearn_datasets() -> Any:
    try:
        import sklearn.datasets as skd  # noqa: PLC0415 - optional dependency, imported lazily
    except ImportError as exc:
        raise ImportError("loading real datasets needs scikit-learn; install the extra with "
                          "`pip install dptheory[data]`") from exc
    return skd


def load_breast_cancer() -> Dataset:
    """scikit-learn's Wisconsin breast cancer (n = 569, d = 30), unit-norm rows, y in {-1, +1}."""
    raw = _sklearn_datasets().load_breast_cancer()
    return Dataset(normalize_rows(raw.data), np.where(raw.target == 1, 1.0, -1.0))


def load_digits(positive: tuple[int, ...] = (1,), negative: tuple[int, ...] | None = None) -> Dataset:
    """scikit-learn's 8x8 digits (d = 64): classes ``positive`` -> +1, ``negative`` -> -1
    (default: all other digits); unit-norm rows."""
    pos = set(int(c) for c in positive)
    neg = set(range(10)) - pos if negative is None else set(int(c) for c in negative)
    if not pos or not neg or pos & neg or not (pos | neg) <= set(range(10)):
        raise ValueError("positive and negative must be disjoint, non-empty sets of digits 0-9, "
                         f"got {sorted(pos)} and {sorted(neg)}")
    raw = _sklearn_datasets().load_digits()
    keep = np.isin(raw.target, sorted(pos | neg))
    y = np.where(np.isin(raw.target[keep], sorted(pos)), 1.0, -1.0)
    return Dataset(normalize_rows(raw.data[keep]), y)
