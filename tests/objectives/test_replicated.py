"""A :class:`ReplicatedDataset` (K base records, each repeated m times) is the materialised
data set ``np.tile(X, (m, 1))`` for every full-batch quantity: the reference is the
materialised array, built independently with NumPy, and the run it feeds (DP-TR, wang2020
Algorithm 1) gives the same iterates at the same seed."""

from __future__ import annotations

import numpy as np
import pytest

from dptheory_simulations.algorithms.wang2020 import run_alg1
from dptheory_simulations.objectives import FAMILIES, Dataset, ReplicatedDataset, get

from ._cases import instance, random_points


def _pair(data: Dataset, m: int) -> tuple[ReplicatedDataset, Dataset]:
    rep = ReplicatedDataset(data.X, data.y, copies=m)
    mat = Dataset(np.tile(data.X, (m, 1)), np.tile(data.y, m))
    return rep, mat


@pytest.mark.parametrize("name", sorted(FAMILIES))
def test_full_batch_quantities_equal_the_materialised_data(name):
    obj, data = instance(name, n=12 if name != "pl-nonconvex" else 5)
    rep, mat = _pair(data, 7)
    assert rep.n == mat.n == 7 * data.n
    assert rep.max_norm == mat.max_norm
    W = random_points(obj, 4, np.random.default_rng(5))
    np.testing.assert_allclose(obj.F(W, rep), obj.F(W, mat), rtol=1e-13, atol=1e-15)
    np.testing.assert_allclose(obj.grad_F(W, rep), obj.grad_F(W, mat), rtol=1e-13, atol=1e-15)
    if obj.has_hessian:
        np.testing.assert_allclose(obj.hess_F(W, rep), obj.hess_F(W, mat), rtol=1e-13,
                                   atol=1e-15)


def test_strict_saddle_minimum_and_constants_equal_the_materialised_data():
    obj = get("strict-saddle", d=2)
    rep, mat = _pair(obj.make_data(40, 3), 25)
    assert obj.minimum(rep).value == pytest.approx(obj.minimum(mat).value, abs=1e-15)
    assert obj.assumptions(rep) == obj.assumptions(mat)


@pytest.mark.parametrize("m", [10, 300])
def test_dp_tr_run_equals_the_run_on_materialised_data(m):
    obj = get("strict-saddle", d=2)
    rep, mat = _pair(obj.make_data(40, 3), m)
    kw = dict(eps=1.0, delta=1e-5, reps=6, seed=11, alpha=0.05, w0=np.array([0.0, 1.9]))
    a, b = run_alg1(obj, rep, **kw), run_alg1(obj, mat, **kw)
    assert a.params["T"] == b.params["T"] and a.noise == b.noise
    np.testing.assert_allclose(a.w, b.w, rtol=0, atol=1e-13)
    np.testing.assert_array_equal(a.metrics["iterations"], b.metrics["iterations"])


def test_fingerprint_counts_copies_and_bad_copies_are_rejected():
    data = get("strict-saddle", d=2).make_data(5, 1)
    assert ReplicatedDataset(data.X, data.y, copies=2).fingerprint != \
        ReplicatedDataset(data.X, data.y, copies=3).fingerprint
    for bad in (0, -1, 1.5, True):
        with pytest.raises(ValueError, match="copies"):
            ReplicatedDataset(data.X, data.y, copies=bad)
