"""zhang2017 Lemmas 5 and 8 decided exactly: the label-paired ridge-logistic instance of
``gd_ratio`` (w_hat = 0, F* = log 2) against the family's own F and gradient and against
gradient descent run in 60-digit arithmetic (mpmath), which needs no cancellation-free
formulas."""

from __future__ import annotations

import math

import mpmath
import numpy as np
import pytest

from dptheory.verify import checks as C
from dptheory_simulations.experiments import zhang2017 as z

RECIPES = {r.id: r for r in z.RECIPES}
IDS = ("zhang2017.lemma5:bound-T", "zhang2017.lemma8:bound-T")


def _cell(rid: str, T: int, reps: int = 3, first: int = 0, seed: int = 11) -> dict:
    r = RECIPES[rid]
    return {"recipe": rid, "point": {"T": T}, "block": 0, "first_replicate": first,
            "reps": reps, "seed": seed, **r.fixed}


@pytest.mark.parametrize("rid", IDS)
def test_paired_instance_matches_the_family(rid):
    cell = _cell(rid, 2)
    obj, data, Xh = z.paired_logistic(cell, 20)
    mu = float(obj.mu)
    W = np.random.default_rng(0).normal(size=(4, obj.d))
    # the family's F and gradient (no pairing used) agree where a difference is resolvable:
    # both sum n = 20 terms of float64 rounding each, so they differ by a few ulps (measured
    # 1.5e-16 relative in F, 3e-17 absolute in a gradient of entries <= 0.3 whose terms are
    # <= max ||x|| = 1 over n); 1e-14 and 1e-15 leave that summation room and no more
    np.testing.assert_allclose(z.paired_gap(W, Xh, mu) + math.log(2), obj.F(W, data),
                               rtol=1e-14)
    np.testing.assert_allclose(z.paired_grad(W, Xh, mu), obj.grad_F(W, data), rtol=0,
                               atol=1e-15)
    # w_hat = 0: the family's gradient vanishes there, and F(0) = log 2
    assert np.abs(obj.grad_F(np.zeros((1, obj.d)), data)).max() < 1e-16
    assert float(np.atleast_1d(obj.F(np.zeros((1, obj.d)), data))[0]) == pytest.approx(
        math.log(2), rel=1e-15)


def test_paired_instance_needs_even_n():
    with pytest.raises(ValueError, match="n must be an even"):
        z.paired_logistic(_cell(IDS[0], 2), 21)


def _mp_ratio(cell: dict, r: int) -> mpmath.mpf:
    """Replicate r's ratio by GD on the plain logistic formulas in 60-digit arithmetic."""
    mpmath.mp.dps = 60
    obj, data, _ = z.paired_logistic(cell, int(cell["n"]))
    X = [[mpmath.mpf(float(v)) for v in row] for row in np.asarray(data.X)]
    y = [mpmath.mpf(float(v)) for v in np.asarray(data.y)]
    n, d, mu = len(X), obj.d, mpmath.mpf(float(obj.mu))
    out = z.gd_ratio({**cell, "reps": r + 1})
    eta = mpmath.mpf(out["params"]["eta"])
    u = z.replicate_rng(cell, r, 1).standard_normal(d)
    w = [mpmath.mpf(float(v)) for v in float(cell["w0_radius"]) * u / np.linalg.norm(u)]

    def F(w):
        s = sum(mpmath.log1p(mpmath.exp(-yi * mpmath.fsum(a * b for a, b in zip(xi, w))))
                for xi, yi in zip(X, y))
        return s / n + mu / 2 * mpmath.fsum(v * v for v in w)

    for _ in range(int(cell["point"]["T"])):
        g = [mu * v for v in w]
        for xi, yi in zip(X, y):
            m = yi * mpmath.fsum(a * b for a, b in zip(xi, w))
            c = -yi / (1 + mpmath.exp(m)) / n
            g = [gk + c * a for gk, a in zip(g, xi)]
        w = [v - eta * gk for v, gk in zip(w, g)]
    return (F(w) - mpmath.log(2)) / mpmath.mpf(out["rhs"][r])


@pytest.mark.parametrize("rid,T", [("zhang2017.lemma5:bound-T", 40), ("zhang2017.lemma8:bound-T", 64)])
def test_ratio_matches_high_precision_gd(rid, T):
    """At these T, F(w_T) - F* is ~1e-26 (Lemma 5: far below the float64 resolution of F,
    ~1e-16 x log 2, so only the cancellation-free formulas or high precision resolve it) and
    ~1e-6 (Lemma 8: a difference of F values would keep only ~10 digits). Both runs start from
    the same float64 w0, eta and RHS, so they differ by float64 rounding alone: T steps of a
    non-expansive map, each adding O(n eps) relative error, give about T n eps = 64 x 12 x
    2.2e-16 = 2e-13 at most (measured <= 2e-15); rel = 1e-12 allows that and no more."""
    cell = {**_cell(rid, T, reps=2), "n": 12}
    out = z.gd_ratio(cell)
    for r in range(2):
        exact = _mp_ratio(cell, r)
        assert out["samples"][r] == pytest.approx(float(exact), rel=1e-12)
    assert out["exact"] == max(out["samples"])


@pytest.mark.parametrize("rid", IDS)
def test_one_cell_per_point_so_exact_is_the_max_over_all_starts(rid):
    """``exact`` is a block's maximum and the engine keeps the first block's: every
    replicate of a point must run in one cell."""
    r = RECIPES[rid]
    assert r.block >= max(r.reps, r.reps_full)
    for full in (False, True):
        cells = r.cells(full=full, seed=3)
        assert all(c["first_replicate"] == 0 for c in cells)


@pytest.mark.parametrize("rid", IDS)
def test_every_sweep_point_binds(rid):
    """The sweeps are placed where the lemma binds: at every point some start has
    F(w0) - F* above the lemma's RHS (the trivial value exceeds the bound 1)."""
    r = RECIPES[rid]
    for T in r.points(True):
        out = z.gd_ratio(_cell(rid, T, reps=16))
        assert out["trivial"] > 1.0, (rid, T)
        res = C.exact_check(out["exact"], out["bound"], trivial=out["trivial"])
        assert res.verdict == "supported"


def test_planted_violation_is_refuted():
    """A claimed bound below the exact ratio (the planted twin: half of it) is refuted."""
    out = z.gd_ratio(_cell(IDS[1], 32, reps=4))
    v = out["exact"]
    assert C.exact_check(v, v / 2, trivial=out["trivial"]).verdict == "refuted"
