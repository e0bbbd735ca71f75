"""The objective interface: per-sample losses with certified constants.

An :class:`Objective` is a family of per-sample losses ``f(w, (x, y))``; with a
:class:`Dataset` it defines the empirical risk ``F(w) = (1/n) sum_i f(w, (x_i, y_i))``.
Every method is vectorised over samples and over a leading replicate axis of parameters:

=====================  ====================  ==========================
call                   ``w`` of shape (d,)   ``w`` of shape (reps, d)
=====================  ====================  ==========================
``loss(w, X, y)``      (n,)                  (reps, n)
``grad(w, X, y)``      (n, d)                (reps, n, d)
``hess(w, X, y)``      (n, d, d)             (reps, n, d, d)
``F(w, data)``         ()                    (reps,)
``grad_F(w, data)``    (d,)                  (reps, d)
``hess_F(w, data)``    (d, d)                (reps, d, d)
=====================  ====================  ==========================

The empirical quantities never build the (reps, n, d) per-sample tensor where a family has a
closed form (linear models: grad F = X^T phi'(X w)/n + grad r; separable families:
grad F = psi'(w) + x_bar), and ``batch_grad_mean`` averages a minibatch without it. Every
row of every result depends only on its own row of ``w`` (see :func:`rowwise_matmul`), so
results do not depend on how replicates are batched.

A family declares what it satisfies through ``assumptions(data)``: a tuple of
:mod:`dptheory.symbolic.assumptions` objects with *numeric* constants, each derived in the
family's docstring and checked by :func:`dptheory_simulations.objectives.certify.certify`. Where a
constant holds only on a ball ``||w|| <= R`` the family sets ``domain_radius = R`` and says so
in the assumption's ``note``.
"""

from __future__ import annotations

import functools
import hashlib
from abc import ABC, abstractmethod
from dataclasses import dataclass
from typing import Any, Callable

import numpy as np

from dptheory.symbolic.assumptions import (AffineDeviation, Assumption, BoundedGradient,
                                           BoundedLoss, BoundedMinimizer, BoundedVariance,
                                           GeneralizedSmooth, HessianLipschitz, Lipschitz, PL,
                                           Smooth, StronglyConvex, WeaklyQuasiConvex)
from dptheory.verify.recipe import is_recording, record_constants

__all__ = ["Dataset", "ReplicatedDataset", "Minimum", "Objective", "ball_note",
           "named_constants"]

# (assumption, its field, the constant's catalog name); BoundedLoss's bound is named
# "loss_bound" (the loss scale, zhang2021's |f| <= 1)
CONSTANT_NAMES = ((Lipschitz, "G", "G"), (BoundedGradient, "G", "G_grad"),
                  (Smooth, "beta", "beta"), (StronglyConvex, "mu", "mu"), (PL, "mu", "mu_pl"),
                  (BoundedMinimizer, "D", "D"), (WeaklyQuasiConvex, "theta", "theta"),
                  (BoundedVariance, "sigma", "sigma_g"), (HessianLipschitz, "rho", "rho"),
                  (GeneralizedSmooth, "L0", "L0"), (GeneralizedSmooth, "L1", "L1"),
                  (AffineDeviation, "tau0", "tau0"), (AffineDeviation, "tau1", "tau1"),
                  (BoundedLoss, "bound", "loss_bound"))


def named_constants(assumptions: Any) -> dict[str, float]:
    """The numeric constants of ``assumptions`` by catalog name (:data:`CONSTANT_NAMES`)."""
    out: dict[str, float] = {}
    for a in assumptions:
        for kind, attr, name in CONSTANT_NAMES:
            if isinstance(a, kind):
                out[name] = float(getattr(a, attr))
    return out


def _recorded(assumptions: Callable) -> Callable:
    """``assumptions`` that also reports its constants to a running verification cell
    (:func:`dptheory.verify.recipe.record_constants`), so every check can say which constants
    its cells ran at whatever path certified them."""
    @functools.wraps(assumptions)
    def wrapper(self: Any, data: Any) -> Any:
        out = assumptions(self, data)
        if is_recording():
            record_constants(named_constants(out))
        return out
    wrapper.__recorded__ = True            # type: ignore[attr-defined]
    return wrapper


def ball_note(R: float) -> str:
    """The note attached to an assumption that holds only on the ball of radius R."""
    return f"on the ball ||w|| <= {R:g}"


@dataclass(frozen=True)
class Dataset:
    """Samples ``X`` of shape (n, d) and targets/labels ``y`` of shape (n,), float64, finite."""

    X: np.ndarray
    y: np.ndarray

    def __post_init__(self) -> None:
        X = np.array(self.X, dtype=np.float64)
        y = np.array(self.y, dtype=np.float64)
        if X.ndim != 2:
            raise ValueError(f"X must be a 2-D array of shape (n, d), got shape {X.shape}")
        if X.shape[0] < 1:
            raise ValueError(f"X must have at least one row, got shape {X.shape}")
        if y.shape != (X.shape[0],):
            raise ValueError(f"y must have shape ({X.shape[0]},), got {y.shape}")
        if not np.all(np.isfinite(X)):
            raise ValueError("X must be finite (no NaN or inf)")
        if not np.all(np.isfinite(y)):
            raise ValueError("y must be finite (no NaN or inf)")
        X.setflags(write=False)
        y.setflags(write=False)
        object.__setattr__(self, "X", X)
        object.__setattr__(self, "y", y)

    @property
    def n(self) -> int:
        """Number of records (rows of X)."""
        return int(self.X.shape[0])

    @property
    def d(self) -> int:
        """Dimension of a record (columns of X)."""
        return int(self.X.shape[1])

    @functools.cached_property
    def max_norm(self) -> float:
        """max_i ||x_i|| (computed once: X is read-only; every assumptions() call reads it)."""
        return float(np.max(np.linalg.norm(self.X, axis=1)))

    @functools.cached_property
    def fingerprint(self) -> str:
        """A digest of the content (shapes and bytes of X and y): equal data, equal digest."""
        h = hashlib.blake2b(digest_size=16)
        h.update(repr((self.X.shape, self.y.shape)).encode())
        h.update(np.ascontiguousarray(self.X).tobytes())
        h.update(np.ascontiguousarray(self.y).tobytes())
        return h.hexdigest()


@dataclass(frozen=True)
class ReplicatedDataset(Dataset):
    """The data set of ``copies`` copies of each record of ``(X, y)``: n = copies * len(X).

    An exact representation, not an approximation: the empirical risk, gradient and Hessian
    are means over records, and the mean over ``copies`` copies of each of the K base records
    is the mean over the K base records, so ``F``, ``grad_F`` and ``hess_F`` of this data set
    are those of the materialised ``np.tile(X, (copies, 1))`` (up to float summation order),
    as are ``max_norm`` and the constants ``assumptions`` derives from max_i ||x_i|| and
    x_bar. It lets full-batch methods run at n = 1e9 and beyond with K rows in memory.
    ``X``/``y`` hold the K distinct rows only: per-record access by an index in [0, n)
    (minibatches, record search) is not supported; full-batch callers only.
    """

    copies: int = 1

    def __post_init__(self) -> None:
        super().__post_init__()
        if isinstance(self.copies, bool) or not isinstance(self.copies, (int, np.integer)) \
                or self.copies < 1:
            raise ValueError(f"copies must be a positive integer, got {self.copies!r}")
        object.__setattr__(self, "copies", int(self.copies))

    @property
    def n(self) -> int:
        """Number of records: copies * (rows of X)."""
        return self.copies * int(self.X.shape[0])

    @functools.cached_property
    def fingerprint(self) -> str:
        """A digest of the base rows and the number of copies."""
        h = hashlib.blake2b(digest_size=16)
        h.update(Dataset.fingerprint.func(self).encode())
        h.update(repr(("copies", self.copies)).encode())
        return h.hexdigest()


@dataclass(frozen=True)
class Minimum:
    """The minimum of F over R^d.

    ``exact``: ``value`` is min F (up to float rounding) and ``lower == value``.
    Otherwise ``value`` is the best value found (an upper bound on min F) and ``lower`` a
    certified lower bound, so min F lies in ``[lower, value]``. ``w`` is a (near-)minimiser.
    """

    value: float
    exact: bool
    lower: float
    w: np.ndarray | None = None
    method: str = ""

    def as_dict(self) -> dict[str, Any]:
        """JSON-ready fields: value, exact, lower, w, method."""
        return {"value": self.value, "exact": self.exact, "lower": self.lower,
                "w": None if self.w is None else self.w.tolist(), "method": self.method}


class Objective(ABC):
    """A per-sample loss family with certified constants (see the module docstring).

    Subclasses implement ``_loss``, ``_grad`` and ``_hess`` on validated arrays
    (``W`` of shape (reps, d), ``X`` (n, d), ``y`` (n,)), ``make_data``, ``assumptions``
    and ``minimum``. ``domain_radius`` is the radius of the ball on which the declared
    constants hold (``None``: everywhere); ``sample_radius`` is where a certifier samples
    when the constants hold everywhere.
    """

    name: str = "objective"
    domain_radius: float | None = None
    sample_radius: float = 3.0
    task: str = "regression"          # "classification": labels in {-1, +1} and predict()

    def __init_subclass__(cls, **kwargs: Any) -> None:
        """Wrap a subclass's ``assumptions`` so that a verification cell records the
        constants it certifies (see :func:`_recorded`)."""
        super().__init_subclass__(**kwargs)
        own = cls.__dict__.get("assumptions")
        if own is not None and not getattr(own, "__recorded__", False) \
                and not getattr(own, "__isabstractmethod__", False):
            cls.assumptions = _recorded(own)

    def __init__(self, d: int) -> None:
        if isinstance(d, bool) or not isinstance(d, (int, np.integer)) or d < 1:
            raise ValueError(f"d must be a positive integer, got {d!r}")
        self.d = int(d)

    # ------------------------------------------------------------------ to implement
    @abstractmethod
    def _loss(self, W: np.ndarray, X: np.ndarray, y: np.ndarray) -> np.ndarray:
        """(reps, n) per-sample losses."""

    @abstractmethod
    def _grad(self, W: np.ndarray, X: np.ndarray, y: np.ndarray) -> np.ndarray:
        """(reps, n, d) per-sample gradients."""

    def _hess(self, W: np.ndarray, X: np.ndarray, y: np.ndarray) -> np.ndarray:
        """(reps, n, d, d) per-sample Hessians."""
        raise NotImplementedError(f"{self.name} does not provide Hessians")

    def _hess_F(self, W: np.ndarray, X: np.ndarray, y: np.ndarray) -> np.ndarray:
        """(reps, d, d) empirical Hessian; override when a cheaper form exists."""
        return self._hess(W, X, y).mean(axis=1)

    def _F(self, W: np.ndarray, data: Dataset) -> np.ndarray:
        """(reps,) empirical risk; override when a cheaper form exists."""
        return self._loss(W, data.X, data.y).mean(axis=1)

    def _grad_F(self, W: np.ndarray, data: Dataset) -> np.ndarray:
        """(reps, d) empirical gradient; override to avoid the (reps, n, d) tensor."""
        return self._grad(W, data.X, data.y).mean(axis=1)

    def _batch_grad_mean(self, W: np.ndarray, X: np.ndarray, y: np.ndarray,
                         idx: np.ndarray) -> np.ndarray:
        """(reps, d) minibatch means; override to avoid the (reps, B, d) tensor."""
        return self._batch_grad(W, X, y, idx).mean(axis=1)

    @abstractmethod
    def make_data(self, n: int, rng: np.random.Generator | int | None = None) -> Dataset:
        """A seeded synthetic dataset of n samples with bounded feature norms."""

    @abstractmethod
    def assumptions(self, data: Dataset) -> tuple[Assumption, ...]:
        """Assumptions satisfied on ``data``, with certified numeric constants."""

    @abstractmethod
    def minimum(self, data: Dataset) -> Minimum:
        """min_w F(w) on ``data`` (exact, or bracketed by a certified lower bound)."""

    def _memo(self, key: str, data: Dataset, compute: Any) -> Any:
        """Cache an expensive per-dataset result (keyed by the dataset object itself)."""
        cache = self.__dict__.setdefault("_memo_cache", {})
        hit = cache.get((key, id(data)))
        if hit is not None and hit[0] is data:
            return hit[1]
        value = compute()
        if len(cache) > 16:
            cache.clear()
        cache[(key, id(data))] = (data, value)
        return value

    def special_points(self, data: Dataset) -> np.ndarray:
        """Points (m, d) worth probing (minimisers, saddles); default: the minimiser."""
        m = self.minimum(data)
        return np.empty((0, self.d)) if m.w is None else np.atleast_2d(m.w)

    def check_data(self, data: Dataset) -> None:
        """Family-specific data constraints (labels in {-1, 1}, ...); raise ValueError."""

    def params(self) -> dict[str, Any]:
        """The family's parameters (for listings)."""
        return {"d": self.d}

    # ------------------------------------------------------------------ validation
    @property
    def has_hessian(self) -> bool:
        """Whether the family implements an analytic Hessian (``_hess`` overridden)."""
        return type(self)._hess is not Objective._hess

    def _check_w(self, w: Any) -> tuple[np.ndarray, bool]:
        W = np.asarray(w, dtype=np.float64)
        if W.ndim == 1:
            single = True
            W = W[None, :]
        elif W.ndim == 2:
            single = False
        else:
            raise ValueError(f"w must have shape ({self.d},) or (reps, {self.d}), got {W.shape}")
        if W.shape[1] != self.d:
            raise ValueError(f"w must have shape ({self.d},) or (reps, {self.d}), "
                             f"got {np.asarray(w).shape}")
        if not np.all(np.isfinite(W)):
            raise ValueError("w must be finite (no NaN or inf)")
        return W, single

    def _check_xy(self, X: Any, y: Any) -> tuple[np.ndarray, np.ndarray]:
        X = np.asarray(X, dtype=np.float64)
        y = np.asarray(y, dtype=np.float64)
        if X.ndim != 2 or X.shape[1] != self.d:
            n = X.shape[0] if X.ndim >= 1 else "n"
            raise ValueError(f"X must have shape ({n}, {self.d}), got {X.shape}")
        if y.shape != (X.shape[0],):
            raise ValueError(f"y must have shape ({X.shape[0]},), got {y.shape}")
        if not np.all(np.isfinite(X)):
            raise ValueError("X must be finite (no NaN or inf)")
        if not np.all(np.isfinite(y)):
            raise ValueError("y must be finite (no NaN or inf)")
        self.check_data(Dataset(X, y))
        return X, y

    def _check_data(self, data: Any) -> Dataset:
        if not isinstance(data, Dataset):
            raise ValueError(f"data must be a Dataset, got {type(data).__name__}")
        if data.d != self.d:
            raise ValueError(f"X must have shape ({data.n}, {self.d}), got {data.X.shape}")
        self.check_data(data)
        return data

    @staticmethod
    def _out(a: np.ndarray, single: bool) -> np.ndarray:
        return a[0] if single else a

    # ------------------------------------------------------------------ per-sample API
    def loss(self, w: Any, X: Any, y: Any) -> np.ndarray:
        """Per-sample losses: (n,) or (reps, n)."""
        W, single = self._check_w(w)
        X, y = self._check_xy(X, y)
        return self._out(self._loss(W, X, y), single)

    def grad(self, w: Any, X: Any, y: Any) -> np.ndarray:
        """Per-sample gradients: (n, d) or (reps, n, d)."""
        W, single = self._check_w(w)
        X, y = self._check_xy(X, y)
        return self._out(self._grad(W, X, y), single)

    def hess(self, w: Any, X: Any, y: Any) -> np.ndarray:
        """Per-sample Hessians: (n, d, d) or (reps, n, d, d)."""
        W, single = self._check_w(w)
        X, y = self._check_xy(X, y)
        return self._out(self._hess(W, X, y), single)

    def hvp(self, w: Any, v: Any, X: Any, y: Any) -> np.ndarray:
        """Per-sample Hessian-vector products with v of shape (d,): (n, d) or (reps, n, d)."""
        v = np.asarray(v, dtype=np.float64)
        if v.shape != (self.d,):
            raise ValueError(f"v must have shape ({self.d},), got {v.shape}")
        return self.hess(w, X, y) @ v

    # ------------------------------------------------------------------ empirical API
    def batch_grad(self, W: Any, data: Dataset, idx: Any) -> np.ndarray:
        """Per-sample gradients with a different minibatch per replicate.

        ``W`` (reps, d), ``idx`` (reps, B) integer indices into ``data``; returns
        (reps, B, d) with ``out[r, b] = grad f(W[r], data[idx[r, b]])``. The default loops
        over replicates; families override it with a vectorised form.
        """
        W, idx = self._check_batch(W, idx)
        return self._batch_grad(W, data.X, data.y, idx)

    def batch_grad_mean(self, W: Any, data: Dataset, idx: Any) -> np.ndarray:
        """Minibatch mean gradients ``(1/B) sum_b grad f(W[r], data[idx[r, b]])``: (reps, d).

        Equal (up to rounding) to ``batch_grad(W, data, idx).mean(axis=1)``, without
        materialising the (reps, B, d) per-sample gradients where the family has a closed form.
        """
        W, idx = self._check_batch(W, idx)
        return self._batch_grad_mean(W, data.X, data.y, idx)

    def batch_hess_mean(self, W: Any, data: Dataset, idx: Any) -> np.ndarray:
        """Minibatch mean Hessians ``(1/B) sum_b hess f(W[r], data[idx[r, b]])``: (reps, d, d),
        the numbers of ``hess(W[r], data.X[idx[r]], data.y[idx[r]]).mean(axis=0)`` per
        replicate (the same computation per row, with the argument checks done once)."""
        W, idx = self._check_batch(W, idx)
        if not self.has_hessian:
            raise ValueError(f"{type(self).__name__} has no Hessian")
        X, y = data.X, data.y
        out = np.empty((W.shape[0], self.d, self.d))
        for r in range(W.shape[0]):
            out[r] = self._hess(W[r:r + 1], X[idx[r]], y[idx[r]])[0].mean(axis=0)
        return out

    def batch_grad_mean_kernel(self, data: Dataset, reps: int, B: int
                               ) -> Callable[[np.ndarray, np.ndarray], np.ndarray]:
        """:meth:`batch_grad_mean` for a hot loop: ``kernel(W, idx)`` with the shapes checked
        once here instead of at every call (a B = 1 step is a few microseconds of array work,
        so the per-call checks were a measurable share of tran2022's and RRPSGD's steps).

        The caller guarantees ``W`` a float64 ``(reps, d)`` array and ``idx`` an integer
        ``(reps, B)`` array on every call; the numbers are those of :meth:`batch_grad_mean`.
        """
        self._check_batch(np.zeros((int(reps), self.d)), np.zeros((int(reps), int(B)), dtype=np.int64))
        X, y, fn = data.X, data.y, self._batch_grad_mean
        return lambda W, idx: fn(W, X, y, idx)

    def _check_batch(self, W: Any, idx: Any) -> tuple[np.ndarray, np.ndarray]:
        W = np.atleast_2d(np.asarray(W, dtype=np.float64))
        idx = np.asarray(idx)
        if idx.ndim != 2 or idx.shape[0] != W.shape[0]:
            raise ValueError(f"idx must have shape (reps, B) with reps = {W.shape[0]}, "
                             f"got {idx.shape}")
        if W.shape[1] != self.d:
            raise ValueError(f"W must have shape (reps, {self.d}), got {W.shape}")
        return W, idx

    def _batch_grad(self, W: np.ndarray, X: np.ndarray, y: np.ndarray, idx: np.ndarray) -> np.ndarray:
        return np.stack([self._grad(W[r:r + 1], X[idx[r]], y[idx[r]])[0] for r in range(W.shape[0])])

    def F(self, w: Any, data: Dataset) -> np.ndarray | float:
        """Empirical risk: () or (reps,)."""
        W, single = self._check_w(w)
        data = self._check_data(data)
        out = self._F(W, data)
        return float(out[0]) if single else out

    def grad_F(self, w: Any, data: Dataset) -> np.ndarray:
        """Empirical gradient: (d,) or (reps, d)."""
        W, single = self._check_w(w)
        data = self._check_data(data)
        return self._out(self._grad_F(W, data), single)

    def hess_F(self, w: Any, data: Dataset) -> np.ndarray:
        """Empirical Hessian: (d, d) or (reps, d, d)."""
        W, single = self._check_w(w)
        data = self._check_data(data)
        return self._out(self._hess_F(W, data.X, data.y), single)

    def grad_norm(self, w: Any, data: Dataset) -> np.ndarray | float:
        """||grad F(w)||: () or (reps,)."""
        g = np.linalg.norm(self.grad_F(w, data), axis=-1)
        return float(g) if np.ndim(g) == 0 else g

    def predict(self, w: Any, X: Any) -> np.ndarray:
        """Predicted labels in {-1, +1} of the rows of X: (n,) or (reps, n) (classifiers)."""
        raise ValueError(f"{self.name} is not a classifier: it has no predict() or accuracy")

    def accuracy(self, w: Any, data: Dataset) -> np.ndarray | float:
        """Fraction of rows of ``data`` whose label ``predict`` gets right: () or (reps,)."""
        data = self._check_data(data)
        acc = np.mean(np.asarray(self.predict(w, data.X)) == data.y, axis=-1)
        return float(acc) if np.ndim(acc) == 0 else acc

    def lambda_min(self, w: Any, data: Dataset) -> np.ndarray | float:
        """Smallest eigenvalue of the empirical Hessian (exact, eigvalsh): () or (reps,)."""
        H = self.hess_F(w, data)
        lam = np.linalg.eigvalsh(0.5 * (H + np.swapaxes(H, -1, -2)))[..., 0]
        return float(lam) if np.ndim(lam) == 0 else lam

    def in_domain(self, w: Any) -> np.ndarray | bool:
        """Whether w lies in the ball where the declared constants hold."""
        W, single = self._check_w(w)
        ok = (np.ones(len(W), bool) if self.domain_radius is None
              else np.linalg.norm(W, axis=1) <= self.domain_radius * (1 + 1e-12))
        return bool(ok[0]) if single else ok

    def describe(self, data: Dataset) -> str:
        """The family with its parameters, then one line per certified assumption on ``data``."""
        lines = [f"{self.name} (" + ", ".join(f"{k}={v}" for k, v in self.params().items()) + ")"]
        lines += ["  " + a.describe() for a in self.assumptions(data)]
        return "\n".join(lines)

    def __repr__(self) -> str:
        args = ", ".join(f"{k}={v!r}" for k, v in self.params().items())
        return f"{type(self).__name__}({args})"


def rowwise_matmul(A: np.ndarray, B: np.ndarray) -> np.ndarray:
    """``A @ B`` for A (m, k), B (k, p), with row i of the result a function of A[i] and B only.

    A BLAS product's rounding for one row can depend on how many rows are in the call
    (OpenBLAS picks kernels and threading by size, and a one-row product goes to gemv), so
    ``(A @ B)[i]`` may differ in the last bits from ``(A[i:i+1] @ B)[0]``. One (1, k) x (k, p)
    product per row gives every row the same computation whatever the number of replicates
    in the batch (``tests/objectives/test_batching.py`` checks it at many shapes and
    alignments). Measured cost at (64, 1e4) x (1e4, 100): 1.4x one blocked product, and a
    single row costs a single gemv.
    """
    out = np.empty((A.shape[0], B.shape[1]))
    for i in range(A.shape[0]):
        np.matmul(A[i:i + 1], B, out=out[i:i + 1])
    return out


def as_rng(rng: np.random.Generator | int | None) -> np.random.Generator:
    """A Generator from a Generator, a seed or None (fresh entropy)."""
    if isinstance(rng, np.random.Generator):
        return rng
    if rng is None or isinstance(rng, (int, np.integer)):
        return np.random.default_rng(rng)
    raise ValueError(f"rng must be a numpy Generator, an int seed or None, got {type(rng).__name__}")


def check_n(n: Any) -> int:
    """``n`` as an int; ``ValueError`` naming it unless a positive integer."""
    if isinstance(n, bool) or not isinstance(n, (int, np.integer)) or n < 1:
        raise ValueError(f"n must be a positive integer, got {n!r}")
    return int(n)


def check_positive(name: str, value: Any, *, allow_zero: bool = False) -> float:
    """``value`` as a float; ``ValueError`` naming ``name`` unless it is a finite number
    > 0 (>= 0 with ``allow_zero``)."""
    try:
        v = float(value)
    except (TypeError, ValueError):
        raise ValueError(f"{name} must be a real number, got {value!r}") from None
    if not np.isfinite(v) or v < 0 or (v == 0 and not allow_zero):
        rel = ">= 0" if allow_zero else "> 0"
        raise ValueError(f"{name} must be finite and {rel}, got {value!r}")
    return v


def _round(x: float, digits: int, mode: str) -> float:
    from decimal import ROUND_CEILING, ROUND_FLOOR, Decimal
    x = float(x)
    if x <= 0 or not np.isfinite(x):
        return x
    dec = Decimal(x)                                   # exact value of the float
    q = Decimal(1).scaleb(dec.adjusted() - digits + 1)
    r = dec.quantize(q, rounding=ROUND_CEILING if mode == "up" else ROUND_FLOOR)
    return float(r)                                    # monotone rounding keeps r >= x (<= x)


def round_up(x: float, digits: int = 4) -> float:
    """Round x up to ``digits`` significant digits (declared upper constants stay valid)."""
    return _round(x, digits, "up")


def round_down(x: float, digits: int = 4) -> float:
    """Round x down to ``digits`` significant digits (for lower constants such as mu, theta)."""
    return _round(x, digits, "down")
