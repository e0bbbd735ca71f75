"""Bad input raises ValueError naming the constraint."""

from __future__ import annotations

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from dptheory_simulations.objectives import FAMILIES, Dataset, get

from ._cases import instance


@pytest.mark.parametrize("name", sorted(FAMILIES))
def test_shape_errors_name_the_constraint(name):
    obj, data = instance(name)
    d, n = obj.d, data.n
    w = np.zeros(d)
    with pytest.raises(ValueError, match=rf"X must have shape \({n}, {d}\), got \({n}, {d + 1}\)"):
        obj.loss(w, np.zeros((n, d + 1)), data.y)
    with pytest.raises(ValueError, match=rf"y must have shape \({n},\)"):
        obj.grad(w, data.X, data.y[:-1] if n > 1 else np.zeros(2))
    with pytest.raises(ValueError, match=rf"w must have shape \({d},\) or \(reps, {d}\)"):
        obj.F(np.zeros(d + 1), data)
    with pytest.raises(ValueError, match="w must have shape"):
        obj.grad_F(np.zeros((2, 2, d)), data)
    with pytest.raises(ValueError, match="v must have shape"):
        obj.hvp(w, np.zeros(d + 2), data.X, data.y)
    with pytest.raises(ValueError, match="data must be a Dataset"):
        obj.F(w, (data.X, data.y))


@pytest.mark.parametrize("name", sorted(FAMILIES))
@settings(max_examples=10, deadline=None)
@given(bad=st.sampled_from([np.nan, np.inf, -np.inf]), where=st.sampled_from(["w", "X", "y"]))
def test_non_finite_input_rejected(name, bad, where):
    obj, data = instance(name)
    w, X, y = np.zeros(obj.d), data.X.copy(), data.y.copy()
    {"w": w, "X": X, "y": y}[where].flat[0] = bad
    with pytest.raises(ValueError, match=f"{where} must be finite"):
        obj.loss(w, X, y)


def test_dataset_validation():
    with pytest.raises(ValueError, match="X must be a 2-D array"):
        Dataset(np.zeros(3), np.zeros(3))
    with pytest.raises(ValueError, match=r"y must have shape \(3,\), got \(2,\)"):
        Dataset(np.zeros((3, 2)), np.zeros(2))
    with pytest.raises(ValueError, match="X must be finite"):
        Dataset(np.full((2, 2), np.nan), np.zeros(2))
    data = Dataset([[1.0, 2.0]], [0.5])
    assert data.n == 1 and data.d == 2 and not data.X.flags.writeable


def test_family_specific_constraints():
    with pytest.raises(ValueError, match=r"y must be labels in \{-1, 1\}"):
        get("logistic-ridge", d=2).loss(np.zeros(2), np.ones((2, 2)), np.array([1.0, 0.0]))
    with pytest.raises(ValueError, match="n must be <= d"):
        get("pl-nonconvex", d=4).make_data(5, 0)
    with pytest.raises(ValueError, match="full row rank"):
        obj = get("pl-nonconvex", d=4)
        obj.assumptions(Dataset(np.ones((2, 4)), np.ones(2)))
    with pytest.raises(ValueError, match="at most d = 2 rows"):
        obj = get("pl-nonconvex", d=2)
        obj.assumptions(Dataset(np.ones((3, 2)) * [[1, 0], [0, 1], [1, 1]], [1.0, 1.0, 0.0]))
    with pytest.raises(ValueError, match="x_radius must be < 2/\\(3 sqrt 3\\)"):
        get("strict-saddle", x_radius=0.5)
    with pytest.raises(ValueError, match="d must be >= 2"):
        get("strict-saddle", d=1)
    with pytest.raises(ValueError, match="mu must be finite and >= 0"):
        get("huber-ridge", mu=-1)
    with pytest.raises(ValueError, match="delta must be finite and > 0"):
        get("huber-ridge", delta=0)
    with pytest.raises(ValueError, match="form must be"):
        get("sigmoid-l2", form="other")
    with pytest.raises(ValueError, match="d must be a positive integer"):
        get("robust-regression", d=0)
    with pytest.raises(ValueError, match="n must be a positive integer"):
        get("robust-regression").make_data(0, 1)
    with pytest.raises(ValueError, match="w_star_norm must be <= R"):
        get("pl-nonconvex", R=1.0, w_star_norm=2.0)


def test_unknown_objective():
    with pytest.raises(ValueError, match=r"unknown objective 'x'; choose from \["):
        get("x")
