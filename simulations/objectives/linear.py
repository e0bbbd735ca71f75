"""Linear-model losses f(w, (x, y)) = phi(<x, w>, y) + r(w), vectorised.

Subclasses give ``_phi(z, y)`` -> (phi, phi', phi'') in z and, optionally, a regulariser
``_reg(W)`` -> (r, grad r, hess r). Per-sample derivatives then follow from the chain rule:
grad f = phi'(z) x + grad r, hess f = phi''(z) x x^T + hess r.

The empirical gradient is X^T phi'(X w)/n + grad r and a minibatch mean is
(1/B) sum_b phi'(z_b) x_b + grad r: neither builds per-sample gradients.
"""

from __future__ import annotations

import numpy as np

from .base import Dataset, Objective, rowwise_matmul


class LinearModelObjective(Objective):
    """f(w, (x, y)) = phi(<x, w>, y) + r(w)."""

    def _phi(self, z: np.ndarray, y: np.ndarray) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
        raise NotImplementedError

    def _dphi(self, z: np.ndarray, y: np.ndarray) -> np.ndarray:
        """phi'(z) alone (gradients need no phi or phi''); override when cheaper."""
        return self._phi(z, y)[1]

    def _d2phi(self, z: np.ndarray, y: np.ndarray) -> np.ndarray:
        """phi''(z) alone (Hessians need no phi or phi'); override when cheaper."""
        return self._phi(z, y)[2]

    def _reg_grad(self, W: np.ndarray) -> np.ndarray:
        """grad r (reps, d) alone; override when cheaper than ``_reg``."""
        if type(self)._reg is LinearModelObjective._reg:      # r = 0
            return np.zeros_like(W)
        return self._reg(W)[1]

    def _reg(self, W: np.ndarray) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
        """(r (reps,), grad r (reps, d), hess r (reps, d, d)); default r = 0."""
        reps = W.shape[0]
        # a read-only broadcast view: no (reps, d, d) array is built on every gradient call
        return np.zeros(reps), np.zeros_like(W), np.broadcast_to(0.0, (reps, self.d, self.d))

    def _loss(self, W: np.ndarray, X: np.ndarray, y: np.ndarray) -> np.ndarray:
        p0, _, _ = self._phi(rowwise_matmul(W, X.T), y)
        return p0 + self._reg(W)[0][:, None]

    def _grad(self, W: np.ndarray, X: np.ndarray, y: np.ndarray) -> np.ndarray:
        p1 = self._dphi(rowwise_matmul(W, X.T), y)
        return p1[:, :, None] * X[None, :, :] + self._reg_grad(W)[:, None, :]

    def _grad_F(self, W: np.ndarray, data: Dataset) -> np.ndarray:
        X = data.X
        p1 = self._dphi(rowwise_matmul(W, X.T), data.y)
        return rowwise_matmul(p1, X) / X.shape[0] + self._reg_grad(W)

    def _batch_phi(self, W: np.ndarray, X: np.ndarray, y: np.ndarray,
                   idx: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
        """(x_b (reps, B, d), phi'(z_b) (reps, B)) of the minibatches."""
        Xb = np.take(X, idx, axis=0)
        # one (B, d) x (d, 1) product per replicate, the same call whatever the batch
        p1 = self._dphi(np.matmul(Xb, W[:, :, None])[:, :, 0], np.take(y, idx))
        return Xb, p1

    def _batch_grad(self, W: np.ndarray, X: np.ndarray, y: np.ndarray, idx: np.ndarray) -> np.ndarray:
        Xb, p1 = self._batch_phi(W, X, y, idx)
        return p1[:, :, None] * Xb + self._reg_grad(W)[:, None, :]

    def _batch_grad_mean(self, W: np.ndarray, X: np.ndarray, y: np.ndarray,
                         idx: np.ndarray) -> np.ndarray:
        Xb, p1 = self._batch_phi(W, X, y, idx)
        if idx.shape[1] == 1:
            # one sample (tran2022, RRPSGD): phi'(z) x itself; a 1 x 1 by 1 x d product and a
            # division by 1 are exact, so these are the same numbers, without their cost
            g = p1 * Xb[:, 0, :]
        else:
            g = np.matmul(p1[:, None, :], Xb)[:, 0, :] / idx.shape[1]
        if type(self)._reg is LinearModelObjective._reg and \
                type(self)._reg_grad is LinearModelObjective._reg_grad:
            return g + 0.0          # r = 0: adding zeros elementwise, without building them
        return g + self._reg_grad(W)

    def _hess(self, W: np.ndarray, X: np.ndarray, y: np.ndarray) -> np.ndarray:
        p2 = self._d2phi(rowwise_matmul(W, X.T), y)
        outer = X[:, :, None] * X[:, None, :]
        return p2[:, :, None, None] * outer[None] + self._reg(W)[2][:, None, :, :]

    def _hess_F(self, W: np.ndarray, X: np.ndarray, y: np.ndarray) -> np.ndarray:
        p2 = self._d2phi(rowwise_matmul(W, X.T), y)
        # one (d, n) x (n, d) product per replicate: the same BLAS call for every row
        H = np.stack([(X.T * p2[r]) @ X for r in range(W.shape[0])]) / X.shape[0]
        return H + self._reg(W)[2]


def ridge(W: np.ndarray, mu: float) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """(mu/2)||w||^2 and its derivatives."""
    d = W.shape[1]
    return (0.5 * mu * np.sum(W * W, axis=1), mu * W,
            np.broadcast_to(mu * np.eye(d), (W.shape[0], d, d)))


def sign_predict(obj: Objective, w: np.ndarray, X: np.ndarray, sign: float) -> np.ndarray:
    """Labels sign * sign(<x, w>) in {-1, +1} (+1 at 0): (n,) or (reps, n)."""
    W, single = obj._check_w(w)
    X = np.asarray(X, dtype=np.float64)
    if X.ndim != 2 or X.shape[1] != obj.d:
        raise ValueError(f"X must have shape (n, {obj.d}), got {X.shape}")
    z = sign * rowwise_matmul(W, X.T)
    return obj._out(np.where(z >= 0, 1.0, -1.0), single)


def check_labels(data: Dataset) -> None:
    """Raise ``ValueError`` (with a few offending values) unless every label is -1 or +1."""
    if not np.all(np.abs(data.y) == 1.0):
        bad = data.y[np.abs(data.y) != 1.0][:3]
        raise ValueError(f"y must be labels in {{-1, 1}}, got values such as {bad.tolist()}")
