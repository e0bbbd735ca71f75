"""Where a bound binds (issue 23, item 4): the bisection against closed forms, and the
engine's vacuous summary that reports it."""

import math

import pytest

from dptheory.verify.engine import _crossing
from dptheory.verify.recipe import Recipe
from simulations.experiments.binding import binding_point, binds_at


def test_binding_point_matches_the_closed_form():
    # c / sqrt(n) < G  <=>  n > (c/G)^2: with c = 30, G = 0.5 the first integer is 3601
    assert binding_point(lambda n: 30 / math.sqrt(n), 0.5, 2.0, 1e9) == 3601.0
    # a real-valued variable: c / eps < G  <=>  eps > c / G = 4 (to rtol)
    x = binding_point(lambda e: 2 / e, 0.5, 0.1, 100.0, integer=False)
    assert x == pytest.approx(4.0, rel=1e-5) and 2 / x < 0.5


def test_binding_point_edges():
    assert binding_point(lambda n: 1 / n, 1.0, 2.0, 10.0) == 2.0        # already binds
    assert binding_point(lambda n: 5.0, 1.0, 2.0, 10.0) is None        # never
    with pytest.raises(ValueError, match="lo"):
        binding_point(lambda n: 1.0, 1.0, 5.0, 2.0)
    with pytest.raises(ValueError, match="trivial"):
        binding_point(lambda n: 1.0, 0.0, 1.0, 2.0)


def _recipe():
    return Recipe(id="x:bound-n", item="zhang2017.lemma5", check="bound", cell="m:f",
                  sweep={"n": [1, 2]}, fixed={}, reps=1, block=1)


def test_vacuous_summary_reports_the_solved_binding_point():
    pooled = {1: {"bound_max": 9.0, "trivial": 1.0},
              2: {"bound_max": 8.0, "trivial": 1.0,
                  "binds_at": binds_at(68260.0, "solved", "estimated 1.6 CPU hours")}}
    s = _crossing(_recipe(), pooled)
    assert "binds from n ≈ 6.826e+04 (solved); not run: estimated 1.6 CPU hours" in s
    assert "never" in _crossing(_recipe(), {2: {"binds_at": binds_at(None, "why")}})
    # without a solved point: the log-log extrapolation of bound / trivial
    assert "extrapolating" in _crossing(_recipe(), {k: {"bound_max": v["bound_max"],
                                                        "trivial": 1.0}
                                                    for k, v in pooled.items()})


def test_tran2022_thm6_binding_point_is_where_the_bound_meets_G():
    from simulations.experiments import tran2022 as t
    from simulations.experiments.cells import catalog_bound, constants, objective_and_data
    cell = {"family": "robust-regression", "objective_params": {"d": 5}, "eps": 1.0,
            "delta": 1e-5, "algorithm": "tran2022.alg1", "item": "tran2022.thm6",
            "point": {"n": 32}, "seed": 1, "reps": 2, "first_replicate": 0}
    out = t.grad_norm_binding(cell)
    at = out["binds_at"]["at"]
    assert 1e4 < at < 1e6 and "CPU hours" in out["binds_at"]["cost"]
    obj, data = objective_and_data(cell, 32)
    c = constants(obj, data)
    vals = {"d": 5.0, "eps": 1.0, "delta": 1e-5, "G": c["G_grad"], "beta": c["beta"],
            "Fgap": out["Fgap"]}

    def bound(N):
        return catalog_bound("tran2022.thm6", {**vals, "n": N, "T": t._steps("tran2022.thm6", N, vals)})
    assert bound(at) < c["G_grad"] <= bound(at - 1)


def _thm6_by_hand(N, d, eps, delta, G, L, R):
    """Theorem 6's printed bound (tran2022) typed from the paper, at T solving its implicit
    setting T = eps N^2/(log2 T sqrt(d log(1/delta))) (floored), by fixed-point iteration."""
    lg = math.log(1 / delta)
    T = eps * N * N
    for _ in range(200):
        T = eps * N * N / (math.log2(T) * math.sqrt(d * lg))
    ell = math.log2(math.floor(T))
    return ((1.5 * R + 6 * L * math.sqrt(ell * lg) + 12 * G * math.sqrt(ell * lg) ** 0.25)
            * d ** 0.25 / math.sqrt(eps * N)
            + 3 * L * (d * lg) ** 0.25 * math.sqrt(ell) / (4 * math.sqrt(eps * N ** 1.5))
            + 6 * G / math.sqrt(N) + 6 * G * ell * math.sqrt(d * lg) / (eps * N))


def test_thm6_binds_at_the_recipe_instance():
    # tran2022.thm6:bound-n runs robust regression d = 5, ||a|| <= 0.1, eps = 100: there the
    # printed bound (typed by hand above, at the certified G = X/sqrt 2, L = X^2 and R = F(0),
    # min F = 0 on realizable data) is below the trivial G at N = 181 and above it at N = 128
    from simulations.objectives import get as get_objective
    obj = get_objective("robust-regression", d=5, x_radius=0.1)
    for N, binds in ((128, False), (181, True)):
        data = obj.make_data(N, 0)
        X = data.max_norm
        assert X <= 0.1 * (1 + 1e-12)
        G, L, R = X / math.sqrt(2), X * X, float(obj.F(__import__("numpy").zeros(5), data))
        b = _thm6_by_hand(N, 5, 100.0, 1e-5, G, L, R)
        assert (b < G) is binds, (N, b, G)


@pytest.mark.parametrize("item", ["tran2022.thm6", "tran2022.thm6.corrected", "tran2022.thm9"])
def test_compiled_bound_agrees_with_the_catalog_evaluation(item):
    # the compiled (float) T setting and bound that the bisection uses against SymPy's exact
    # substitution (catalog_bound, _steps), over N from 10 to 1e12; and the binding point
    # solved with each is the same integer
    from simulations.experiments import tran2022 as t
    from simulations.experiments.cells import catalog_bound
    T_of, bound_of = t._compiled_bound(item)
    vals = {"d": 5.0, "eps": 1.0, "delta": 1e-5, "G": 0.7, "beta": 1.3, "Fgap": 0.4}

    def exact(N):
        return catalog_bound(item, {**vals, "n": N, "T": t._steps(item, N, vals)})

    def fast(N):
        return bound_of({**vals, "n": N, "T": T_of(N, vals)})

    for N in (10.0, 37.0, 1234.5, 8.8e4, 3e7, 1e12):
        # the same integer while T < 2**53; above, both are floats a few ulps apart
        assert T_of(N, vals) == pytest.approx(t._steps(item, N, vals), rel=1e-14, abs=0)
        if t._steps(item, N, vals) < 2 ** 53:
            assert T_of(N, vals) == t._steps(item, N, vals)
        assert fast(N) == pytest.approx(exact(N), rel=1e-12)
    assert binding_point(fast, 0.7, 32.0, 1e12) == binding_point(exact, 0.7, 32.0, 1e12)
