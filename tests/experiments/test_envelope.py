"""Certified envelopes decide an O-rate at the asymptotic end (issue 23, item 5):
zhang2017 Theorem 3's n^(-2/3), the sandwich of :func:`alg1_envelope` checked against
Monte Carlo and a closed form, and planted wrong exponents refuted by the same machinery."""

import dataclasses
import math

import numpy as np
import pytest

from dptheory.verify.engine import _pool, build_cells, dispatch, evaluate
from dptheory_simulations.experiments import zhang2017 as Z


def _cell(family, params, n, reps, seed=1):
    return {"family": family, "objective_params": params, "eps": 1.0, "delta": 0.0,
            "setting": "convex", "item": "zhang2017.thm3.eps", "point": {"n": n},
            "reps": reps, "seed": seed, "first_replicate": 0, "dataset": 0, "block": 0}


def test_quadratic_envelope_is_the_exact_expectation_by_hand():
    # tilted-quadratic: F = ||w||^2/2 + <x_bar, w>, mu = beta = 1, so eta = 1/beta = 1 reaches
    # w_hat = -x_bar in one step (G_T = 0) and both envelopes equal (1/2) E||z||^2 with the
    # l2-Laplace E||z||^2 = d(d+1)(Delta/eps)^2, Delta = 3 L T/(beta n) (Theorem 3).
    out = Z.alg1_envelope(_cell("tilted-quadratic", {"d": 2}, 64, 4000))
    p = out["params"]
    assert p["T"] == 1 and p["beta"] == 1.0
    delta = 3 * p["L"] * 1 / (1.0 * 64)
    exact = 0.5 * 2 * 3 * delta ** 2
    assert out["envelope_here"]["lower"] == pytest.approx(exact, rel=1e-9)
    assert out["envelope_here"]["upper"] == pytest.approx(exact, rel=1e-9)
    s = np.asarray(out["samples"])
    half = 4 * s.std(ddof=1) / math.sqrt(s.size)
    assert abs(s.mean() - exact) < half                     # Monte Carlo agrees
    # far grid: lower = upper (up to the GD term, exactly 0 here after one step) ~ n^(-2/3)
    lo, up = np.asarray(out["envelope"]["lower"]), np.asarray(out["envelope"]["upper"])
    assert np.allclose(lo, up, rtol=1e-12)


def test_logistic_envelope_contains_the_monte_carlo_mean():
    out = Z.alg1_envelope(_cell("logistic-ridge", {"d": 5, "mu": 0.01, "R": 100.0}, 256, 2000))
    s = np.asarray(out["samples"])
    half = 4 * s.std(ddof=1) / math.sqrt(s.size)
    lo, up = out["envelope_here"]["lower"], out["envelope_here"]["upper"]
    assert lo - half < s.mean() < up + half
    # the far envelopes at fixed constants: lower = (mu/2) m(n), upper >= (beta/2) m(n), so
    # their ratio is at least beta/mu (= 26 here: beta = 1/4 + mu at max ||x|| = 1)
    p = out["params"]
    ratio = np.asarray(out["envelope"]["upper"]) / np.asarray(out["envelope"]["lower"])
    assert np.all(ratio >= p["beta"] / 0.01 * (1 - 1e-12))


def test_envelope_needs_the_convex_settings():
    c = _cell("logistic-ridge", {"d": 5, "mu": 0.01, "R": 100.0}, 64, 4)
    with pytest.raises(ValueError, match="setting"):
        Z.alg1_envelope({**c, "setting": "strongly-convex"})


@pytest.fixture(scope="module")
def pooled():
    r = next(r for r in Z.RECIPES if r.id == "zhang2017.thm3.eps:slope-n")
    small = dataclasses.replace(r, sweep={"n": [256, 512, 1024]}, reps=64, block=64, datasets=2)
    cells = build_cells([small], full=False, seed=0)
    return small, _pool([(dispatch(c), c) for c in cells], small, False)


@pytest.mark.parametrize("claimed,verdict", [(-2 / 3, "supported"), (-0.5, "supported"),
                                             (-1.0, "refuted"), (-2.0, "refuted")])
def test_planted_exponents_through_the_engine(pooled, claimed, verdict):
    # the true exponent on the instance is -2/3 (both envelopes ~ E||z||^2 ~ T^2/n^2, T ~
    # n^(2/3)): the printed -2/3 and the weaker -1/2 are supported, the planted -1 and -2
    # are refuted by the certified lower envelope
    r, p = pooled
    res = evaluate(dataclasses.replace(r, expected_slope=claimed), p)
    assert res.verdict == verdict, res.summary
    assert "certified envelopes" in res.summary


def test_envelope_contradicted_by_the_measurement_is_not_used(pooled):
    r, p = pooled
    broken = {x: {**q, "sets": [{**s, "envelope_here": {"lower": 0.5 * min(s["samples"]) / 100,
                                                        "upper": min(s["samples"]) / 100}}
                                for s in q["sets"]]} for x, q in p.items()}
    res = evaluate(dataclasses.replace(r, expected_slope=-2.0), broken)
    assert res.verdict != "refuted" and "contradicted by the measurement" in res.summary


# ------------------------------------------------------------ engine rules on synthetic sweeps
def _pooled(xs, means, rel=0.05, reps=64, seed=0, **extra):
    rng = np.random.default_rng(seed)
    out = {}
    for x, m in zip(xs, means):
        groups = [list(m * (1 + rel * rng.standard_normal(reps))) for _ in range(3)]
        out[x] = {"groups": groups, "samples": [v for g in groups for v in g],
                  "sets": [{"samples": g} for g in groups],
                  **{k: v(x) for k, v in extra.items()}}
    return out


def _recipe(**kw):
    from dptheory.verify.recipe import Recipe
    return Recipe("x.y:slope", "x.y", "slope", "m:f", {"n": [1]}, expected_slope=-0.5,
                  tolerance=0.15, **kw)


def test_lower_estimate_cannot_support():
    xs = [100.0, 400.0, 1600.0, 6400.0, 25600.0]
    p = _pooled(xs, [x ** -0.5 for x in xs])
    assert evaluate(_recipe(), p).verdict == "supported"
    res = evaluate(_recipe(lower_estimate="E min <= min E"), p)
    assert res.verdict == "inconclusive" and "lower estimate" in res.summary
    # a shallower stable slope still refutes (the claimed quantity is even larger)
    shallow = _pooled(xs, [x ** -0.1 for x in xs])
    assert evaluate(_recipe(lower_estimate="E min <= min E"), shallow).verdict == "refuted"


def test_upper_estimate_cannot_refute():
    xs = [100.0, 400.0, 1600.0, 6400.0, 25600.0]
    shallow = _pooled(xs, [x ** -0.1 for x in xs])
    assert evaluate(_recipe(), shallow).verdict == "refuted"
    res = evaluate(_recipe(upper_estimate="min E <= E at T"), shallow)
    assert res.verdict == "inconclusive" and "upper estimate" in res.summary
    # a stable slope at the claimed exponent still supports (the claimed quantity is smaller),
    # and a planted exponent 0.25 shallower (the same data times x^0.35) is not supported
    p = _pooled(xs, [x ** -0.5 for x in xs])
    assert evaluate(_recipe(upper_estimate="min E <= E at T"), p).verdict == "supported"
    planted = _pooled(xs, [x ** -0.15 for x in xs])
    assert evaluate(_recipe(upper_estimate="min E <= E at T"), planted).verdict != "supported"
    with pytest.raises(ValueError, match="not both"):
        _recipe(upper_estimate="a", lower_estimate="b")


def test_undecided_reason_is_appended_to_an_undecided_verdict():
    xs = [100.0, 400.0, 1600.0, 6400.0, 25600.0]
    p = _pooled(xs, [x ** -0.5 for x in xs], rel=3.0)          # far too noisy to decide
    res = evaluate(_recipe(undecided="needs N ~ 1e9"), p)
    assert res.verdict == "inconclusive" and res.summary.endswith("needs N ~ 1e9")


def test_start_envelope_at_the_claimed_rate_is_vacuous_and_a_steeper_claim_is_not():
    xs = [100.0, 400.0, 1600.0, 6400.0, 25600.0]
    env = lambda x: {"value": 0.8 * x ** -0.5, "derivation": "by hand"}
    p = _pooled(xs, [0.7 * x ** -0.5 for x in xs], start_envelope=env)
    res = evaluate(_recipe(), p)
    assert res.verdict == "vacuous" and "for any algorithm" in res.summary
    # claimed -1: the start (slope -1/2) does not meet it, so the instance does test the
    # claim, and the measured slope -1/2 refutes it
    res = evaluate(dataclasses.replace(_recipe(), expected_slope=-1.0), p)
    assert res.verdict == "refuted", res.summary


def test_yang2022_start_envelope_by_hand_and_by_monte_carlo():
    from dptheory_simulations.experiments.yang2022 import start_envelope
    from dptheory_simulations.objectives import get
    # d = 5, X = 1, N = 700: sqrt(5/(7 * 700)) = sqrt(1/980)
    assert start_envelope(700, 5, 1.0)["value"] == pytest.approx(math.sqrt(1 / 980))
    obj = get("cosh-generalized-smooth", d=5)
    norms = [np.linalg.norm(obj.make_data(700, s).X.mean(axis=0)) for s in range(400)]
    # E||x_bar||^2 = X^2 d/((d+2) N) exactly; the Monte Carlo mean of ||x_bar||^2 agrees
    sq = np.square(norms)
    assert abs(sq.mean() - 1 / 980) < 4 * sq.std(ddof=1) / math.sqrt(sq.size)
    assert np.mean(norms) <= start_envelope(700, 5, 1.0)["value"]        # Jensen


@pytest.mark.parametrize("claimed,verdict", [(-2 / 3, "supported"), (-1.0, "refuted"),
                                             (-2.0, "refuted")])
def test_quadratic_recipe_is_decided_exactly(claimed, verdict):
    r = next(r for r in Z.RECIPES if r.id == "zhang2017.thm3.eps:slope-n-quadratic")
    r = dataclasses.replace(r, expected_slope=claimed)
    p = _pool([(dispatch(c), c) for c in build_cells([r], full=False, seed=0)], r, False)
    res = evaluate(r, p)
    assert res.verdict == verdict, res.summary
    env = res.evidence.get("envelope") or res.evidence
    # the exact slope at 1e8..1e9: T = ceil(c n^(2/3)) makes it a hair steeper than -2/3
    top = env["points"]["data set 0"]
    assert top["upper_slope"] == pytest.approx(-2 / 3, abs=1e-3)
    assert top["lower"] == pytest.approx(top["upper"], rel=1e-12)


def _yang_cell(**kw):
    cell = {"family": "cosh-generalized-smooth", "objective_params": {"d": 5}, "eps": 1.0,
            "delta": 1e-5, "algorithm": "yang2022.dpsgd", "item": "yang2022.cor3.5", "T": 50,
            "records": "constant", "reps": 3, "seed": 4, "first_replicate": 0,
            "point": {"n": 40}}
    return {**cell, **kw}


def test_yang2022_constant_records_make_tau0_zero_and_the_start_gradient_one():
    from dptheory_simulations.experiments import yang2022 as Y
    out = Y.min_grad(_yang_cell())
    p = out["params"]
    # every record e_1: x_i - x_bar = 0 exactly, so tau0 = 0, M = 0 and C = 1 (the default
    # for tau0 = 0); grad F(0) = sinh(0) + e_1 has norm 1 at every N
    assert p["tau0"] == 0.0 and p["C"] == 1.0
    assert out["trivial"] == 1.0 and "start_envelope" not in out
    with pytest.raises(ValueError, match="records"):
        Y.min_grad(_yang_cell(records="ball"))


def test_yang2022_T_grows_as_N_squared_and_last_is_the_step_T_minus_1():
    from dptheory_simulations.experiments import yang2022 as Y
    assert Y._steps({"T": 1000, "T_per_n2": 1 / 128}, 800) == 5000        # 800^2/128
    assert Y._steps({"T": 1000, "T_per_n2": 1 / 128}, 200) == 1000        # the floor
    assert Y._steps({"T": 1000}, 800) == 1000
    lo = np.asarray(Y.min_grad(_yang_cell())["samples"])
    up = np.asarray(Y.min_grad(_yang_cell(estimate="last"))["samples"])
    # same seed, same run: the per-run minimum over t < T is at most the value at t = T-1
    assert np.all(lo <= up) and np.any(lo < up)
    with pytest.raises(ValueError, match="estimate"):
        Y.min_grad(_yang_cell(estimate="mean"))
