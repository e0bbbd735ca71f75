"""Linear-model losses f(w, (x, y)) = phi(<x, w>, y) + r(w), vectorised.

Subclasses give ``_phi(z, y)`` -> (phi, phi', phi'') in z and, optionally, a regulariser
``_reg(W)`` -> (r, grad r, hess r). Per-sample derivatives then follow from the chain rule:
grad f = phi'(z) x + grad r, hess f = phi''(z) x x^T + hess r.
"""

from __future__ import annotations

import numpy as np

from .base import Dataset, Objective


class LinearModelObjective(Objective):
    """f(w, (x, y)) = phi(<x, w>, y) + r(w)."""

    def _phi(self, z: np.ndarray, y: np.ndarray) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
        raise NotImplementedError

    def _reg(self, W: np.ndarray) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
        """(r (reps,), grad r (reps, d), hess r (reps, d, d)); default r = 0."""
        reps = W.shape[0]
        return np.zeros(reps), np.zeros_like(W), np.zeros((reps, self.d, self.d))

    def _loss(self, W: np.ndarray, X: np.ndarray, y: np.ndarray) -> np.ndarray:
        p0, _, _ = self._phi(W @ X.T, y)
        return p0 + self._reg(W)[0][:, None]

    def _grad(self, W: np.ndarray, X: np.ndarray, y: np.ndarray) -> np.ndarray:
        _, p1, _ = self._phi(W @ X.T, y)
        return p1[:, :, None] * X[None, :, :] + self._reg(W)[1][:, None, :]

    def _batch_grad(self, W: np.ndarray, X: np.ndarray, y: np.ndarray, idx: np.ndarray) -> np.ndarray:
        Xb = X[idx]                                   # (reps, B, d)
        _, p1, _ = self._phi(np.einsum("rbd,rd->rb", Xb, W), y[idx])
        return p1[:, :, None] * Xb + self._reg(W)[1][:, None, :]

    def _hess(self, W: np.ndarray, X: np.ndarray, y: np.ndarray) -> np.ndarray:
        _, _, p2 = self._phi(W @ X.T, y)
        outer = X[:, :, None] * X[:, None, :]
        return p2[:, :, None, None] * outer[None] + self._reg(W)[2][:, None, :, :]

    def _hess_F(self, W: np.ndarray, X: np.ndarray, y: np.ndarray) -> np.ndarray:
        _, _, p2 = self._phi(W @ X.T, y)
        return np.einsum("rn,ni,nj->rij", p2, X, X) / X.shape[0] + self._reg(W)[2]


def ridge(W: np.ndarray, mu: float) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """(mu/2)||w||^2 and its derivatives."""
    d = W.shape[1]
    return (0.5 * mu * np.sum(W * W, axis=1), mu * W,
            np.broadcast_to(mu * np.eye(d), (W.shape[0], d, d)))


def check_labels(data: Dataset) -> None:
    if not np.all(np.abs(data.y) == 1.0):
        bad = data.y[np.abs(data.y) != 1.0][:3]
        raise ValueError(f"y must be labels in {{-1, 1}}, got values such as {bad.tolist()}")
