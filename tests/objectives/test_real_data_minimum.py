"""Ridge objectives on real-data shapes: mu = 0, zero and collinear columns, data without a
minimiser, the certificate, the content memo, and the classifiers' predictions."""

from __future__ import annotations

import numpy as np
import pytest
from scipy.optimize import minimize

from dptheory_simulations.objectives import Dataset, get
from dptheory_simulations.objectives import erm
from dptheory_simulations.objectives._optim import row_space


def one_hot_data(n=300, seed=0, pure_level=False):
    """Two numeric features, a constant column and a one-hot group of 3 levels (which sums to
    the constant: collinear), a zero column, labels from a noisy logistic model."""
    rng = np.random.default_rng(seed)
    num = rng.standard_normal((n, 2))
    lev = rng.integers(0, 3, n)
    onehot = np.eye(3)[lev]
    X = np.hstack([num, np.ones((n, 1)), onehot, np.zeros((n, 1))])
    X /= np.linalg.norm(X, axis=1).max()
    p = 1 / (1 + np.exp(-(2 * X[:, 0] - X[:, 3])))
    y = np.where(rng.random(n) < p, 1.0, -1.0)
    if pure_level:                    # a fourth level seen only with label -1
        X = np.hstack([X, np.zeros((n, 1))])
        X[:5, :] = 0.0
        X[:5, -1] = 0.5
        y[:5] = -1.0
    return Dataset(X, y)


def independent_logistic_F(data, s=-1.0, c=0.0):
    X, y = data.X, data.y
    return lambda w: np.mean(np.logaddexp(0.0, s * y * (X @ w) + c))


@pytest.mark.parametrize("form, s, c", [("standard", -1.0, 0.0), ("printed", 1.0, 1.0)])
def test_mu0_logistic_on_collinear_one_hot_data(form, s, c):
    data = one_hot_data()
    obj = get("logistic-ridge", d=data.d, mu=0.0, form=form)
    cm = obj.certified_minimum(data)
    assert cm.certified and cm.rank == 5          # 7 columns: one zero, one collinear group
    assert np.allclose(cm.w[-1], 0.0, atol=1e-15)                 # zero column: weight 0
    # independent: BFGS on an independent F, from another start
    F = independent_logistic_F(data, s, c)
    res = minimize(F, np.full(data.d, 0.3), method="BFGS", options={"gtol": 1e-10})
    assert abs(res.fun - cm.value) <= 1e-9
    m = obj.minimum(data)
    assert m.lower <= res.fun + 1e-12 and m.value - m.lower <= 1e-20
    # the minimum-norm minimiser: BFGS's answer projected on the row space of X
    V = row_space(data.X)
    w_min_norm = V @ (V.T @ res.x)
    assert np.linalg.norm(w_min_norm - cm.w) <= 1e-4
    D = next(a for a in obj.assumptions(data) if a.name == "BoundedMinimizer")
    assert np.linalg.norm(cm.w) <= D.D and "paper's own D" in D.note and "data-dependent" in D.note


def test_certificate_on_an_exact_quadratic():
    """Huber with every residual inside +-delta is the least-squares quadratic: m must be the
    smallest non-zero eigenvalue of X^T X/n and the minimiser the least-squares solution."""
    rng = np.random.default_rng(1)
    X = rng.standard_normal((50, 3)) * 0.1
    X = np.hstack([X, X[:, :1]])                 # a repeated column: rank 3 of 4
    y = X @ np.array([0.5, -0.2, 0.1, 0.5]) + 0.01 * rng.standard_normal(50)
    data = Dataset(X, y)
    obj = get("huber-ridge", d=4, mu=0.0, delta=10.0)
    cm = obj.certified_minimum(data)
    lam = np.linalg.eigvalsh(X.T @ X / 50)
    assert cm.m == pytest.approx(lam[1], rel=1e-9)
    w_ls = np.linalg.lstsq(X, y, rcond=None)[0]          # minimum-norm least squares
    np.testing.assert_allclose(cm.w, w_ls, atol=1e-10)
    assert cm.distance <= 1e-9


def test_no_minimiser_is_detected_and_declared_uncertified():
    data = one_hot_data(pure_level=True)
    obj = get("logistic-ridge", d=data.d, mu=0.0)
    cm = obj.certified_minimum(data)
    assert not cm.certified
    v = obj.recession_direction(data)
    margins = data.y * (data.X @ v)               # standard form: loss falls as y<x,v> grows
    assert margins.min() >= -1e-12 and (margins > 1e-9).sum() >= 5
    D = next(a for a in obj.assumptions(data) if a.name == "BoundedMinimizer")
    assert D.note.startswith("NOT certified: F has no minimiser")
    assert "NOT certified" in obj.constant_sources(data)["D"]
    m = obj.minimum(data)
    assert m.lower == 0.0 and "no minimiser certified" in m.method
    # the solver walked out along the pure level's column until F stopped changing in float
    assert cm.w[-1] < -50
    # with mu > 0 the minimiser exists again
    assert get("logistic-ridge", d=data.d, mu=0.1).certified_minimum(data).certified


def test_user_given_D_is_public():
    data = one_hot_data()
    obj = get("logistic-ridge", d=data.d, mu=0.0, D=7.5)
    D = next(a for a in obj.assumptions(data) if a.name == "BoundedMinimizer")
    assert D.D == 7.5 and "public" in D.note
    assert obj.params()["D"] == 7.5 and "public" in obj.constant_sources(data)["D"]
    with pytest.raises(ValueError, match="D must be finite and > 0"):
        get("logistic-ridge", d=2, D=-1)


def test_minimum_is_memoised_by_content(monkeypatch):
    data = one_hot_data(seed=4)
    calls = []
    real = erm.convex_linear_minimum
    monkeypatch.setattr(erm, "convex_linear_minimum",
                        lambda o, d: calls.append(1) or real(o, d))
    a = get("logistic-ridge", d=data.d, mu=0.0).certified_minimum(data)
    copy = Dataset(data.X.copy(), data.y.copy())
    b = get("logistic-ridge", d=data.d, mu=0.0, R=9.0).certified_minimum(copy)  # R: same F
    assert a is b and len(calls) == 1
    get("logistic-ridge", d=data.d, mu=0.2).certified_minimum(copy)             # new F
    assert len(calls) == 2


def test_predictions_and_accuracy():
    X = np.array([[1.0, 0.0], [-1.0, 0.0], [0.0, 0.0]])
    data = Dataset(X, [1.0, 1.0, -1.0])
    w = np.array([2.0, 0.0])
    std = get("logistic-ridge", d=2, form="standard")
    np.testing.assert_array_equal(std.predict(w, X), [1, -1, 1])        # sign(<x, w>), +1 at 0
    assert std.accuracy(w, data) == pytest.approx(1 / 3)
    printed = get("logistic-ridge", d=2, form="printed")                # loss favours y<x,w> < 0
    np.testing.assert_array_equal(printed.predict(w, X), [-1, 1, 1])
    np.testing.assert_allclose(printed.accuracy(np.stack([w, -w]), data), [1 / 3, 1 / 3])
    np.testing.assert_array_equal(get("sigmoid-l2", d=2).predict(w, X), [-1, 1, 1])
    np.testing.assert_array_equal(get("sigmoid-l2", d=2, form="corrected").predict(w, X),
                                  [1, -1, 1])
    np.testing.assert_array_equal(get("logistic-nonconvex-reg", d=2).predict(w, X), [1, -1, 1])
    with pytest.raises(ValueError, match="huber-ridge is not a classifier"):
        get("huber-ridge", d=2).accuracy(w, data)
    assert get("huber-ridge").task == "regression" and std.task == "classification"
