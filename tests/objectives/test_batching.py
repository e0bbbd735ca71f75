"""The fast empirical forms (no per-sample tensors) agree with the per-sample definitions,
and every row of every empirical quantity is the same whatever rows it is batched with."""

from __future__ import annotations

import numpy as np
import pytest

from dptheory_simulations.objectives import FAMILIES
from dptheory_simulations.objectives.base import rowwise_matmul

from ._cases import instance, random_points

NAMES = sorted(FAMILIES)


def _batch(name: str, seed: int, reps: int, B: int):
    """(objective, data, W (reps, d), idx (reps, B)) of family ``name`` (pl-nonconvex needs
    n <= d: 5 records), the points and indices drawn from ``seed``."""
    obj, data = instance(name, n=30 if name != "pl-nonconvex" else 5)
    rng = np.random.default_rng(seed)
    W = random_points(obj, reps, rng)
    return obj, data, W, rng.integers(0, data.n, size=(reps, B))


@pytest.mark.parametrize("name", NAMES)
def test_batch_grad_mean_is_mean_of_batch_grad(name):
    obj, data, W, idx = _batch(name, 3, 5, 7)
    per_sample = obj.batch_grad(W, data, idx)
    # the definition, one sample at a time
    brute = np.stack([np.mean([obj.grad(W[r], data.X[idx[r, b]][None], data.y[idx[r, b]][None])[0]
                               for b in range(7)], axis=0) for r in range(5)])
    np.testing.assert_allclose(per_sample.mean(axis=1), brute, rtol=1e-12, atol=1e-14)
    np.testing.assert_allclose(obj.batch_grad_mean(W, data, idx), brute, rtol=1e-12, atol=1e-14)



@pytest.mark.parametrize("name", NAMES)
def test_one_sample_batch_grad_mean_is_the_per_sample_gradient(name):
    # B = 1 (tran2022, RRPSGD): the mean is the per-sample gradient itself, bit for bit
    # (batch_grad computes phi'(z) x + grad r directly, without a product over the batch)
    obj, data, W, idx = _batch(name, 4, 6, 1)
    np.testing.assert_array_equal(obj.batch_grad_mean(W, data, idx),
                                  obj.batch_grad(W, data, idx)[:, 0, :])


@pytest.mark.parametrize("name", NAMES)
def test_batch_hess_mean_is_the_per_replicate_hessian_mean(name):
    # the reference: the public per-sample Hessians of each replicate's subset, averaged
    # (what wang2020's Algorithm 2 computed before, replicate by replicate), bit for bit
    obj, data, W, idx = _batch(name, 5, 4, 6)
    if not obj.has_hessian:
        with pytest.raises(ValueError, match="no Hessian"):
            obj.batch_hess_mean(W, data, idx)
        return
    want = np.stack([obj.hess(W[r], data.X[idx[r]], data.y[idx[r]]).mean(axis=0)
                     for r in range(4)])
    np.testing.assert_array_equal(obj.batch_hess_mean(W, data, idx), want)


def test_batch_grad_mean_validates():
    obj, data = instance("logistic-ridge")
    with pytest.raises(ValueError, match="idx must have shape"):
        obj.batch_grad_mean(np.zeros((2, obj.d)), data, np.zeros((3, 4), dtype=int))
    with pytest.raises(ValueError, match="W must have shape"):
        obj.batch_grad_mean(np.zeros((2, obj.d + 1)), data, np.zeros((2, 4), dtype=int))


@pytest.mark.parametrize("n,k,p", [(10000, 100, 1), (1000, 5, 5), (37, 3, 1001), (4, 20, 2),
                                   (513, 33, 7)])
def test_rowwise_matmul_rows_do_not_depend_on_the_batch(n, k, p):
    rng = np.random.default_rng(n)
    A = rng.standard_normal((19, k))
    B = rng.standard_normal((k, p)) if p != 1 else rng.standard_normal((n, k)).T
    full = rowwise_matmul(A, B)
    np.testing.assert_allclose(full, A @ B, rtol=1e-12, atol=1e-12)
    for start in range(A.shape[0]):
        for stop in (start + 1, min(A.shape[0], start + 5), A.shape[0]):
            np.testing.assert_array_equal(rowwise_matmul(A[start:stop], B), full[start:stop])
    for offset in range(1, 4):                      # rows at other memory alignments
        buf = np.empty(A.size + offset)
        shifted = buf[offset:].reshape(A.shape)
        shifted[:] = A
        np.testing.assert_array_equal(rowwise_matmul(shifted, B), full)


@pytest.mark.parametrize("name", NAMES)
def test_empirical_rows_do_not_depend_on_the_batch(name):
    obj, data = instance(name, n=200 if name != "pl-nonconvex" else 5)
    rng = np.random.default_rng(4)
    W = random_points(obj, 11, rng)
    idx = rng.integers(0, data.n, size=(11, 9))
    F, G, Gb = obj.F(W, data), obj.grad_F(W, data), obj.batch_grad_mean(W, data, idx)
    for lo, hi in [(0, 1), (3, 4), (2, 9), (5, 11)]:
        np.testing.assert_array_equal(obj.F(W[lo:hi], data), F[lo:hi])
        np.testing.assert_array_equal(obj.grad_F(W[lo:hi], data), G[lo:hi])
        np.testing.assert_array_equal(obj.batch_grad_mean(W[lo:hi], data, idx[lo:hi]), Gb[lo:hi])
    np.testing.assert_array_equal(obj.grad_F(W[4], data), G[4])
