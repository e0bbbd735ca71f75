"""Noise samplers and per-sample gradient operators of the catalogued algorithms.

Every sampler takes a :class:`numpy.random.Generator` (no global state), returns
float64 arrays and is vectorised over a leading replicate axis, so one call serves all
``reps`` independent replicates of a simulation.

Laws and operators implemented (the papers cited per law):

* :func:`gaussian` - N(0, std^2) i.i.d. entries (zhang2017 Algorithm 1 line 8 with
  std^2 = 2 log(2/delta) Delta^2 / eps^2; tran2022 node noise; wang2020 e_k).
* :func:`laplace` - coordinate-wise Laplace(0, scale).
* :func:`l2_laplace` - the "l2-Laplace" law with density proportional to
  exp(-||z||_2 / scale) (zhang2017 Algorithm 1 line 6, with scale = Delta / eps).
* :func:`symmetric_gaussian_matrix` - wang2020 Algorithm 1 step 4 noise H_k
  (:func:`symmetric_gaussian_matrices`: one per generator).
* :func:`clip_per_sample` - yang2022 eq. (2) clipping factor min{1, C/||g||}.
* :func:`normalize_per_sample` - yang2022 eq. (3) normalisation factor 1/(||g|| + r).
"""

from __future__ import annotations

import math
from typing import Sequence, Union

import numpy as np

from dptheory.errors import require

Shape = Union[int, Sequence[int]]

__all__ = [
    "gaussian",
    "laplace",
    "l2_laplace",
    "symmetric_gaussian_matrix",
    "symmetric_gaussian_matrices",
    "clip_per_sample",
    "normalize_per_sample",
]


# --------------------------------------------------------------------------- validation
def _check_rng(rng: object) -> None:
    require(isinstance(rng, np.random.Generator),
            f"rng must be a numpy.random.Generator, got {type(rng).__name__}")


def _check_real(name: str, value: object) -> float:
    # bool is an int subclass; refusing it avoids silent True == 1 parameters.
    require(isinstance(value, (int, float, np.integer, np.floating)) and not isinstance(value, bool),
            f"{name} must be a real number, got {value!r}")
    v = float(value)  # type: ignore[arg-type]
    require(not math.isnan(v), f"{name} must not be NaN, got {value!r}")
    return v


def _check_positive_finite(name: str, value: object) -> float:
    v = _check_real(name, value)
    require(v > 0 and math.isfinite(v), f"{name} must be > 0 and finite, got {value!r}")
    return v


def _check_nonnegative_finite(name: str, value: object) -> float:
    v = _check_real(name, value)
    require(v >= 0 and math.isfinite(v), f"{name} must be >= 0 and finite, got {value!r}")
    return v


def _check_count(name: str, value: object, minimum: int = 1) -> int:
    require(isinstance(value, (int, np.integer)) and not isinstance(value, bool),
            f"{name} must be an integer, got {value!r}")
    require(int(value) >= minimum, f"{name} must be >= {minimum}, got {value!r}")  # type: ignore[arg-type]
    return int(value)  # type: ignore[arg-type]


def _check_shape(shape: object) -> tuple[int, ...]:
    if isinstance(shape, (int, np.integer)) and not isinstance(shape, bool):
        shape = (int(shape),)
    require(isinstance(shape, (tuple, list)), f"shape must be an int or a sequence of ints, got {shape!r}")
    out = []
    for s in shape:  # type: ignore[union-attr]
        require(isinstance(s, (int, np.integer)) and not isinstance(s, bool) and int(s) >= 0,
                f"shape must contain integers >= 0, got {shape!r}")
        out.append(int(s))
    return tuple(out)


# --------------------------------------------------------------------------- samplers
def gaussian(rng: np.random.Generator, shape: Shape, std: float) -> np.ndarray:
    """I.i.d. N(0, std^2) entries of the given shape (leading axis = replicates).

    ``std = 0`` is allowed and returns zeros, so an algorithm can be run noise-free
    (e.g. the noise-off checks of tran2022 Algorithm 4).
    """
    _check_rng(rng)
    shp = _check_shape(shape)
    s = _check_nonnegative_finite("std", std)
    return rng.standard_normal(shp, dtype=np.float64) * s


def laplace(rng: np.random.Generator, shape: Shape, scale: float) -> np.ndarray:
    """I.i.d. Laplace(0, scale) entries, density exp(-|x|/scale)/(2 scale)."""
    _check_rng(rng)
    shp = _check_shape(shape)
    b = _check_positive_finite("scale", scale)
    return rng.laplace(0.0, b, size=shp).astype(np.float64, copy=False)


def l2_laplace(rng: np.random.Generator, reps: int, d: int, scale: float) -> np.ndarray:
    """``reps`` vectors in R^d with density proportional to exp(-||z||_2 / scale).

    Algorithm (zhang2017 Algorithm 1, line 6, with ``scale = Delta/eps``): in polar
    coordinates the density is proportional to r^{d-1} exp(-r/scale) times the uniform
    law on the sphere S^{d-1}, so z = r u with r ~ Gamma(shape=d, scale=scale) and u a
    normalised standard Gaussian vector. The law is exact (no rejection, no truncation).
    Hence E||z||^2 = E r^2 = d(d+1) scale^2 (zhang2017 Lemma 6).

    Returns an array of shape (reps, d).
    """
    _check_rng(rng)
    n = _check_count("reps", reps)
    dim = _check_count("d", d)
    b = _check_positive_finite("scale", scale)
    u = rng.standard_normal((n, dim), dtype=np.float64)
    norms = np.linalg.norm(u, axis=1, keepdims=True)
    # A standard Gaussian vector is 0 with probability 0; redraw the (never seen) zero rows
    # rather than divide by 0, keeping the law exact.
    while np.any(norms == 0):  # pragma: no cover - probability zero
        bad = (norms[:, 0] == 0)
        u[bad] = rng.standard_normal((int(bad.sum()), dim), dtype=np.float64)
        norms = np.linalg.norm(u, axis=1, keepdims=True)
    r = rng.gamma(shape=float(dim), scale=b, size=(n, 1))
    return (u / norms) * r


def symmetric_gaussian_matrix(rng: np.random.Generator, reps: int, p: int, std: float) -> np.ndarray:
    """Symmetric Gaussian noise matrices H of wang2020 Algorithm 1, step 4.

    The upper triangle including the diagonal is i.i.d. N(0, std^2); each lower-triangle
    entry is a copy of its upper-triangle counterpart (so off-diagonal pairs are equal, not
    independent). Returns shape (reps, p, p), exactly symmetric.
    """
    _check_rng(rng)
    n = _check_count("reps", reps)
    dim = _check_count("p", p)
    s = _check_nonnegative_finite("std", std)
    vals = rng.standard_normal((n, dim * (dim + 1) // 2), dtype=np.float64) * s
    return _symmetric_from_upper(vals, dim)


def symmetric_gaussian_matrices(rngs: Sequence[np.random.Generator], p: int,
                                std: float) -> np.ndarray:
    """One :func:`symmetric_gaussian_matrix` per generator, ``(len(rngs), p, p)``: row i
    equals ``symmetric_gaussian_matrix(rngs[i], 1, p, std)[0]`` (the same draws of each
    generator), built in one pass instead of one call per generator (wang2020's per-replicate
    Hessian noise)."""
    for g in rngs:
        _check_rng(g)
    dim = _check_count("p", p)
    s = _check_nonnegative_finite("std", std)
    vals = np.empty((len(rngs), dim * (dim + 1) // 2), dtype=np.float64)
    for row, g in zip(vals, rngs):
        g.standard_normal(out=row)
    vals *= s
    return _symmetric_from_upper(vals, dim)


def _symmetric_from_upper(vals: np.ndarray, dim: int) -> np.ndarray:
    """(n, dim, dim) symmetric matrices whose upper triangles (diagonal included, row-major)
    are the rows of ``vals``; each lower entry is a copy of its upper counterpart."""
    iu = np.triu_indices(dim)
    h = np.zeros((vals.shape[0], dim, dim), dtype=np.float64)
    h[:, iu[0], iu[1]] = vals
    h[:, iu[1], iu[0]] = vals  # mirror: assignment copies, so symmetry is exact
    return h


# --------------------------------------------------------------------------- per-sample operators
def _check_grads(g: object) -> np.ndarray:
    arr = np.asarray(g, dtype=np.float64)
    require(arr.ndim >= 2, f"g must have shape [..., n, d] (ndim >= 2), got shape {arr.shape}")
    return arr


def clip_per_sample(g: np.ndarray, C: float) -> np.ndarray:
    """Per-sample clipping of yang2022 eq. (2): g_i * min{1, C/||g_i||}.

    ``g`` has shape [..., n, d] (per-sample gradients on the last two axes); the norm is
    over the last axis. ``C`` > 0, and ``C = inf`` (no clipping) returns a copy of ``g``
    unchanged. A zero gradient is left at zero (its factor is taken as 1).
    """
    arr = _check_grads(g)
    c = _check_real("C", C)
    require(c > 0, f"C must be > 0 (inf allowed), got {C!r}")
    if math.isinf(c):
        return arr.copy()
    norms = np.linalg.norm(arr, axis=-1, keepdims=True)
    # factor = min(1, C/||g||) written without dividing by a zero norm.
    factor = np.where(norms > c, c / np.where(norms > 0, norms, 1.0), 1.0)
    return arr * factor


def normalize_per_sample(g: np.ndarray, r: float) -> np.ndarray:
    """Per-sample normalisation of yang2022 eq. (3): g_i / (||g_i|| + r), r > 0.

    The regulariser r > 0 keeps the division well defined at g_i = 0 and makes every
    processed norm ||g_i||/(||g_i|| + r) strictly below 1. ``g`` has shape [..., n, d].
    """
    arr = _check_grads(g)
    rr = _check_positive_finite("r", r)
    norms = np.linalg.norm(arr, axis=-1, keepdims=True)
    return arr / (norms + rr)
