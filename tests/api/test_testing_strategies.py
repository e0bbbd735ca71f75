"""The public Hypothesis strategies of dptheory.testing: their domains (ball, labels,
y_range, neighbouring relations), their validation, and that a planted wrong claim is
found and shrunk to a counterexample (timings: benchmarks/bench_shrink.py)."""

from __future__ import annotations

import numpy as np
import pytest
from hypothesis import HealthCheck, find, given, settings
from hypothesis import strategies as st

from dptheory import testing as dt

FAST = settings(max_examples=60, database=None, deadline=None,
                suppress_health_check=[HealthCheck.too_slow])


@FAST
@given(dt.records(4, x_radius=2.5))
def test_records_lie_in_the_ball_with_their_labels(r):
    x, y = r
    assert x.shape == (4,) and np.linalg.norm(x) <= 2.5 * (1 + 1e-12) and y in (-1.0, 1.0)


def test_records_reach_the_boundary_and_both_labels():
    x, _ = find(dt.records(3, x_radius=2.0), lambda r: np.linalg.norm(r[0]) >= 2.0 - 1e-12)
    assert np.linalg.norm(x) == pytest.approx(2.0)
    assert find(dt.records(3), lambda r: r[1] == 1.0)[1] == 1.0


@FAST
@given(dt.datasets(n=st.integers(1, 6), d=2, labels=None, y_range=(-3.0, 5.0), grid=8))
def test_datasets_y_range_on_the_grid(D):
    X, y = D
    assert X.shape == (len(y), 2) and np.all(np.linalg.norm(X, axis=1) <= 1 + 1e-12)
    k = (y + 3.0) / 8.0 * 8                       # lo + (hi - lo) k / grid, k in 0..grid
    assert np.all((y >= -3.0) & (y <= 5.0)) and np.allclose(k, np.round(k))


def test_datasets_reach_both_ends_of_y_range():
    for end in (0.25, 0.75):
        _, y = find(dt.datasets(n=2, d=1, labels=None, y_range=(0.25, 0.75)),
                    lambda D, e=end: bool(np.any(D[1] == e)))
        assert end in y


@FAST
@given(dt.neighbouring_datasets(n=st.integers(2, 7), d=3, relation="add-remove"))
def test_add_remove_pairs_differ_by_one_record(pair):
    (X, y), (Xp, yp) = pair
    assert abs(len(X) - len(Xp)) == 1
    big, small = ((X, y), (Xp, yp)) if len(X) > len(Xp) else ((Xp, yp), (X, y))
    rows = {tuple(r) + (v,) for r, v in zip(*big)}
    assert all(tuple(r) + (v,) in rows for r, v in zip(*small))


def test_a_planted_wrong_sensitivity_claim_is_refuted():
    """The clipped mean of B records has replace-one sensitivity 2C/B (attained by x and -x
    at norm >= C); the planted claim C/B must be refuted, the true one must hold."""
    C, B = 0.5, 8

    def change(pair):
        (X, _), (Xp, _) = pair
        clip = lambda Z: Z * np.minimum(1.0, C / np.maximum(np.linalg.norm(Z, axis=1,
                                                                          keepdims=True), 1e-300))
        return float(np.linalg.norm(clip(X).sum(0) - clip(Xp).sum(0)) / B)
    pair = find(dt.neighbouring_datasets(n=B, d=3), lambda p: change(p) > C / B,
                settings=settings(database=None, max_examples=500))
    assert C / B < change(pair) <= 2 * C / B + 1e-12


def test_objectives_skip_sizes_a_family_cannot_build():
    # pl-nonconvex is a wide design (n <= d): sizes above d are not drawn, never raised
    obj, data = find(dt.objectives(families=["pl-nonconvex"], n=st.integers(2, 64)),
                     lambda od: od[1].n >= 5, settings=settings(database=None))
    assert data.n <= obj.d


@pytest.mark.parametrize("bad", [dict(grid=0), dict(grid=True), dict(labels=()),
                                 dict(labels=None, y_range=(1.0, 0.0)), dict(d=0),
                                 dict(x_radius=0.0)])
def test_bad_arguments_name_the_parameter(bad):
    kw = dict(d=3) | bad
    name = next(iter(bad))
    with pytest.raises(ValueError, match=name if name != "labels" or "y_range" not in bad
                       else "y_range"):
        dt.records(**kw)
