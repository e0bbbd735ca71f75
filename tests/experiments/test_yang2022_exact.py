"""yang2022: the exact first-order expectations of Lemmas A.3/A.5 and the certified supremum of
Lemma 3.1's per-step sensitivities, each against an independent source (a closed form by
hand, mpmath quadrature in another variable, brute force, Monte Carlo)."""

import math

import mpmath
import numpy as np
import pytest

from dptheory.verify.checks import exact_check, sup_check
from dptheory_simulations.objectives import get as get_objective
from simulations.experiments import yang2022 as Y
from simulations.experiments.cells import catalog_bound
from simulations.experiments.sensitivity import SEARCH_QUICK, per_step_value, sub_seed


# ------------------------------------------------------------------ exact first-order terms
def _clip_sphere_d3(x, tau0, tau1, C):
    """E<grad f, clip_C(g)> for u uniform on S^2, by hand: t = s u_1 is uniform on [-1, 1] and
    v = ||g||^2 = x^2 + a^2 + 2 a x t, so with x + a t = (v + x^2 - a^2)/(2x) and dt = dv/(2ax)
    the clipped part is x C/(4 a x^2) [2/3 v^3/2 + 2 (x^2 - a^2) v^1/2] between v = C^2 and
    (x + a)^2, the unclipped part x [x t + a t^2/2] from -1 to t* = (C^2 - x^2 - a^2)/(2ax)."""
    a = tau0 + tau1 * x
    ts = min(1.0, max(-1.0, (C * C - x * x - a * a) / (2 * a * x)))
    low = x * ((x * ts + a * ts * ts / 2) - (-x + a / 2))
    P = lambda v: 2 / 3 * v ** 1.5 + 2 * (x * x - a * a) * v ** 0.5      # noqa: E731
    v0 = x * x + a * a + 2 * a * x * ts
    high = x * C / (4 * a * x * x) * (P((x + a) ** 2) - P(v0))
    return (low + high) / 2


def test_clip_sphere_by_hand_at_one_point():
    # x = 3, tau0 = 1, tau1 = 1/2, C = 4: a = 5/2, t* = 1/20; unclipped 3 [3t + 5t^2/4] over
    # [-1, 1/20] = 5.709375, clipped 12 (P(121/4) - P(16))/90 = 12 * 76.5/90 = 10.2
    # (rel 1e-12: quad is asked for 1e-13 relative accuracy, the rest is float rounding)
    assert Y.first_order_exact("A.5", "sphere", 3.0, 1.0, 0.5, 3, C=4.0)[0] == \
        pytest.approx((5.709375 + 10.2) / 2, rel=1e-12)
    assert _clip_sphere_d3(3.0, 1.0, 0.5, 4.0) == pytest.approx(5091 / 640, rel=1e-12)


@pytest.mark.parametrize("x,tau0,tau1,C", [(3.0, 1.0, 0.5, 4.0), (16.0, 1.0, 0.5, 4.0),
                                           (0.75, 0.25, 0.5, 1.0), (12.0, 4.0, 0.5, 16.0),
                                           (5.0, 2.0, 0.0, 4.0), (2.0, 1.0, 0.9, 3.0)])
def test_clip_sphere_matches_the_closed_form(x, tau0, tau1, C):
    v, err, how = Y.first_order_exact("A.5", "sphere", x, tau0, tau1, 3, C=C)
    # quad at 1e-13 vs a closed form whose difference P(v1) - P(v0) cancels a few digits
    assert v == pytest.approx(_clip_sphere_d3(x, tau0, tau1, C), rel=1e-11, abs=1e-12)
    assert err < 1e-10 and how.startswith("exact")


def _mp_expectation(lemma, x, tau0, tau1, d, par):
    """mpmath at 30 digits in t = u_1 with density (1 - t^2)^((d-3)/2)/B(1/2, (d-1)/2)."""
    mpmath.mp.dps = 30
    a = mpmath.mpf(tau0) + mpmath.mpf(tau1) * x

    def F(t):
        m = mpmath.sqrt(x * x + a * a + 2 * a * x * t)
        w = 1 / (m + par) if lemma == "A.3" else min(1, par / m)
        return x * (x + a * t) * w * (1 - t * t) ** (mpmath.mpf(d - 3) / 2)

    pts = [-1, 1]
    if lemma == "A.5":
        ts = (par * par - x * x - a * a) / (2 * a * x)
        if -1 < ts < 1:
            pts = [-1, ts, 1]
    return float(mpmath.quad(F, pts) / mpmath.beta(mpmath.mpf(1) / 2, mpmath.mpf(d - 1) / 2))


@pytest.mark.parametrize("lemma,par", [("A.3", 1.0), ("A.3", 0.25), ("A.5", 4.0)])
@pytest.mark.parametrize("d", [3, 4, 6])
@pytest.mark.parametrize("x", [0.5, 3.0, 10.0])
def test_sphere_quadrature_matches_mpmath(lemma, par, d, x):
    kw = {"r": par} if lemma == "A.3" else {"C": par}
    v, err, _ = Y.first_order_exact(lemma, "sphere", x, 1.0, 0.5, d, **kw)
    # 30-digit mpmath is the reference; 1e-10 leaves room for quad's error estimate only
    assert v == pytest.approx(_mp_expectation(lemma, x, 1.0, 0.5, d, par), rel=1e-10, abs=1e-12)
    assert err < 1e-9 * max(1.0, abs(v))


def test_collinear_by_hand():
    # A.3, x = 1, a = 3/2, r = 1: (2.5/3.5 + (-0.5)/1.5)/2 = (5/7 - 1/3)/2 = 4/21
    assert Y.first_order_exact("A.3", "collinear", 1.0, 1.0, 0.5, r=1.0)[0] == \
        pytest.approx(4 / 21, rel=1e-14)
    # A.5, x = 3, a = 5/2, C = 4: (3 * 4 + 3 * 0.5)/2 = 6.75
    assert Y.first_order_exact("A.5", "collinear", 3.0, 1.0, 0.5, C=4.0)[0] == 6.75
    # g = 0 (x = a, t = -1): that draw contributes 0, not NaN
    assert Y.first_order_exact("A.3", "collinear", 2.0, 1.0, 0.5, r=1.0)[0] == \
        pytest.approx(2 * 4 / 5 / 2, rel=1e-14)


def _mc(lemma, law, x, tau0, tau1, d, par, n, seed):
    rng = np.random.default_rng(seed)
    a = tau0 + tau1 * x
    s = rng.choice([-1.0, 1.0], n)
    if law == "collinear":
        u = np.zeros((n, d))
        u[:, 0] = 1
    else:
        u = rng.normal(size=(n, d))
        u /= np.linalg.norm(u, axis=1, keepdims=True)
    g = s[:, None] * a * u
    g[:, 0] += x
    m = np.linalg.norm(g, axis=1)
    w = 1 / (m + par) if lemma == "A.3" else np.minimum(1, par / np.maximum(m, 1e-300))
    v = x * g[:, 0] * w
    return v.mean(), v.std(ddof=1) / math.sqrt(n)


@pytest.mark.parametrize("lemma,par", [("A.3", 1.0), ("A.5", 4.0)])
@pytest.mark.parametrize("law", ["collinear", "sphere"])
@pytest.mark.parametrize("d", [2, 3, 5])
def test_exact_agrees_with_monte_carlo(lemma, par, law, d):
    kw = {"r": par} if lemma == "A.3" else {"C": par}
    for x in (1.0, 4.0):
        v = Y.first_order_exact(lemma, law, x, 1.0, 0.5, d, **kw)[0]
        mean, se = _mc(lemma, law, x, 1.0, 0.5, d, par, 200_000, 11)
        assert abs(mean - v) < 5 * se + 1e-12


def test_no_clip_region_is_an_equality_decided_exactly():
    """Scale 4 at the old full sweep's x = 3, 4, 8: (1 + tau1) x + tau0 <= C = 16, no draw is
    clipped, E<grad f, g> = x^2 = h_C(x): Monte Carlo could never decide it; the exact value
    supports it, and a lower bound above it by 1e-6 is refuted."""
    for x in (3.0, 4.0, 8.0):
        h = catalog_bound("yang2022.lemmaA.5", {"y22_x": x, "tau0": 4.0, "tau1": 0.5, "C": 16.0},
                          what="hC20")
        assert h == x * x
        for law in ("collinear", "sphere"):
            v, err, how = Y.first_order_exact("A.5", law, x, 4.0, 0.5, 3, C=16.0)
            assert v == x * x and "no draw is clipped" in how
            assert exact_check(v, h, direction="lower").verdict == "supported"
            assert exact_check(v, h * (1 + 1e-6), direction="lower").verdict == "refuted"


def test_first_order_cell_returns_the_exact_value_and_the_engine_decides_it():
    from dptheory.verify.engine import _pool, evaluate
    r = next(x for x in Y.RECIPES if x.id == "yang2022.lemmaA.5:bound-x-sphere-scale-4")
    assert r.points(True) == [12.0, 16.0, 32.0, 64.0, 128.0]      # x scaled in --full too
    cells = r.cells(full=False, seed=0)
    results = [(Y.first_order({**c, "seed": 5}), c) for c in cells]
    out = results[0][0]
    assert out["exact"] == pytest.approx(_clip_sphere_d3(12.0, 4.0, 0.5, 16.0), rel=1e-11)
    assert out["direction"] == "lower" and "Monte Carlo" in out["derivation"]
    res = evaluate(r, _pool(results, r, False))
    assert res.verdict == "supported"
    # the same pooled points with a planted h just above each exact value: refuted
    planted = [({**o, "bound": o["exact"] * (1 + 1e-6)}, c) for o, c in results]
    assert evaluate(r, _pool(planted, r, False)).verdict == "refuted"


def test_exact_check_lower_direction_rules():
    assert exact_check(1.0, 0.5, direction="lower").verdict == "supported"
    assert exact_check(1.0, 1.0, direction="lower").verdict == "supported"           # equality
    assert exact_check(1.0, 1.0 + 1e-6, direction="lower").verdict == "refuted"
    assert exact_check(1.0, -5.0, trivial=-4.0, direction="lower").verdict == "vacuous"
    res = exact_check(2.0, 1.0, direction="lower")
    assert res.claim == "lower-bound" and res.power["selftest"]["caught"]
    assert exact_check(2.0, 1.0).verdict == "refuted"                    # the upper default
    with pytest.raises(ValueError, match="direction"):
        exact_check(1.0, 1.0, direction="both")


@pytest.mark.parametrize("bad", [dict(lemma="A.4"), dict(law="ball"), dict(d=1), dict(x=-1.0),
                                 dict(r=0.0)])
def test_first_order_exact_rejects_bad_input(bad):
    kw = dict(lemma="A.3", law="sphere", x=1.0, tau0=1.0, tau1=0.5, d=3, r=1.0, C=4.0)
    kw.update(bad)
    with pytest.raises(ValueError):
        Y.first_order_exact(kw.pop("lemma"), kw.pop("law"), kw.pop("x"), kw.pop("tau0"),
                            kw.pop("tau1"), kw.pop("d"), **kw)


# ------------------------------------------------------------------ Lemma 3.1's supremum
def _brute_sup(kind, G, par):
    """max ||phi(g) - phi(g')|| over g, g' in the disc of radius G (2-D suffices: two
    vectors span a plane): a polar grid, then Nelder-Mead from the best grid pair."""
    from scipy.optimize import minimize

    def phi(v):
        m = np.linalg.norm(v)
        return v / (m + par) if kind == "normalize" else v * min(1.0, par / max(m, 1e-300))

    def val(p):
        r1, t1, r2, t2 = p
        r1, r2 = np.clip([r1, r2], 0, G)
        g = r1 * np.array([math.cos(t1), math.sin(t1)])
        h = r2 * np.array([math.cos(t2), math.sin(t2)])
        return float(np.linalg.norm(phi(g) - phi(h)))

    best, arg = -1.0, None
    for r1 in np.linspace(0, G, 9):
        for r2 in np.linspace(0, G, 9):
            for t2 in np.linspace(0, 2 * math.pi, 25):
                v = val((r1, 0.0, r2, t2))
                if v > best:
                    best, arg = v, (r1, 0.0, r2, t2)
    res = minimize(lambda p: -val(p), arg, method="Nelder-Mead",
                   options={"xatol": 1e-10, "fatol": 1e-13, "maxiter": 4000})
    return max(best, -res.fun)


@pytest.mark.parametrize("kind,G,par", [("normalize", 0.7071, 1.0), ("normalize", 0.7071, 0.01),
                                        ("normalize", 3.0, 0.5), ("clip", 0.7071, 1.0),
                                        ("clip", 0.7071, 0.1), ("clip", 2.0, 2.0)])
def test_per_sample_map_sup_is_the_brute_force_maximum(kind, G, par):
    kw = {"r": par} if kind == "normalize" else {"C": par}
    U = Y.per_sample_map_sup(kind, G, **kw)
    hand = 2 * G / (G + par) if kind == "normalize" else 2 * min(G, par)
    assert U == hand                                  # the same formula, the same floats
    brute = _brute_sup(kind, G, par)
    assert brute <= U * (1 + 1e-12)
    assert brute == pytest.approx(U, rel=1e-6)


@pytest.mark.parametrize("kind,par", [("normalize", 1.0), ("normalize", 0.001), ("clip", 1.0),
                                      ("clip", 0.05)])
def test_canary_attains_the_supremum_and_random_neighbours_stay_below(kind, par):
    obj = get_objective("robust-regression", d=5)
    data = obj.make_data(32, 7)
    X = data.max_norm
    G_true = X / math.sqrt(2)                    # |phi'| <= 1/sqrt 2, equality at u = sqrt 2
    cell = {"r": par} if kind == "normalize" else {"C": par}
    U_true = 2 * G_true / (G_true + par) if kind == "normalize" else 2 * min(G_true, par)
    cand = Y._antipodal_canary(data)
    assert np.linalg.norm(cand["x"]) == pytest.approx(X, rel=1e-15)
    assert np.linalg.norm(cand["w"]) <= obj.domain_radius
    assert per_step_value(kind, obj, data, cand, cell) == pytest.approx(U_true, rel=1e-12)
    rng = np.random.default_rng(3)
    worst = 0.0
    Y_max = 3.0
    for _ in range(400):
        x = rng.normal(size=5)
        x *= X * rng.uniform() ** 0.2 / np.linalg.norm(x)
        w = rng.normal(size=5) * rng.uniform(0, 3)
        c = {"i": int(rng.integers(32)), "x": x, "y": float(rng.uniform(-Y_max, Y_max)), "w": w}
        worst = max(worst, per_step_value(kind, obj, data, c, cell))
    assert 0 < worst <= U_true * (1 + 1e-12)


def test_normalize_cell_is_decided_supported_loose_and_a_planted_bound_is_refuted():
    cell = {"kind": "normalize", "n": 32, "family": "robust-regression",
            "family_params": {"d": 5}, **SEARCH_QUICK, "point": {"r": 1.0}, "seed": 2,
            "reps": 1, "first_replicate": 0, "examples": 10, "starts": 1, "maxfev": 40}
    out = Y.per_step_sensitivity(cell)
    X = get_objective("robust-regression", d=5).make_data(32, sub_seed(cell, 0, 0)).max_norm
    G = X / math.sqrt(2)
    assert out["worst"]["canary"]
    assert out["measured"] == pytest.approx(2 * G / (G + 1), rel=1e-9)
    assert out["certified_sup"] == pytest.approx(2 * G / (G + 1), rel=1e-5)   # G rounded up
    res = sup_check(out["measured"], out["bound"], certified_sup=out["certified_sup"],
                    derivation=out["derivation"])
    assert res.verdict == "supported" and "loose" in res.summary
    assert res.evidence["attained"] > 1 - 1e-5
    planted = sup_check(out["measured"], 0.9 * out["measured"])
    assert planted.verdict == "refuted"


def test_sensitivity_cell_rejects_other_families():
    cell = {"kind": "normalize", "n": 8, "family": "cosh-generalized-smooth", "point": {"r": 1.0},
            "seed": 0, "reps": 1}
    with pytest.raises(ValueError, match="robust-regression"):
        Y.per_step_sensitivity(cell)


def test_theorem_3_2_r_sweep_is_removed_as_ill_posed():
    """min_{t<T} includes t = 0, so the measured quantity is <= ||grad F(w0)|| at every r while
    (5) grows as sqrt(M + r): the r-sweep could not fail. It stays out of the recipes."""
    assert not any(r.item == "yang2022.thm3.2" for r in Y.RECIPES)


def test_a_supremum_attained_at_the_bound_is_tight_not_loose():
    # clipping at C below G: antipodal gradients of norm G clip to +-C, the supremum 2C is the
    # bound itself (reached by the canary)
    res = sup_check(0.2, 0.2, certified_sup=0.2, derivation="2 min(G, C) with G > C")
    assert res.verdict == "supported" and "tight: the supremum is 1 x the bound" in res.summary
    assert "loose" in sup_check(0.1, 0.2, certified_sup=0.1, derivation="d").summary
