"""Tests of the yang2022 catalog module (DP-SGD / DP-NSGD under (L0,L1)-smoothness).

Expected values are derived by hand in the comments (closed forms, limits, brute force),
never read off the module's output.
"""

from __future__ import annotations

import math

import numpy as np
import pytest
import sympy as sp
from scipy import optimize, stats

import dptheory_bounds.yang2022 as Y
from dptheory.symbolic import KINDS, PROVENANCE, S, info
from tests.bounds import spec
from tests.bounds.expected_yang2022 import EXPECTED

BY_ID = {it.id: it for it in Y.ITEMS}
s = sp.Symbol("s", positive=True)

# A valid generic point: C >= 2 tau0/(1 - tau1), 0 <= tau1 < 1, q = B/N <= 0.1.
POINT = {
    "n": 10000, "d": 16, "eps": 1.0, "delta": 1e-5, "T": 4096, "B": 32, "q": 0.0032, "z": 8,
    "L0": 1.0, "L1": 0.5, "tau0": 0.5, "tau1": 0.3, "Fgap": 2.0, "eta": 0.01, "eta_n": 0.05,
    "sigma": 2.0, "C": 2.0, "r": 0.5,
}


def point_for(item, drop=()):
    vals = {}
    for sym in item.free_symbols():
        if sym.name in drop:
            continue
        vals[sym] = POINT.get(sym.name, info(sym).example)
    return vals


def catalog_part_v():
    ids = spec.ids("yang2022")
    tags = spec.tagged("yang2022")
    return ids, {i: tags.get(i) for i in ids}


# ----------------------------------------------------------------------------- 1. ids
def test_ids_kinds_provenance():
    ids, tags = catalog_part_v()
    assert len(ids) == 31
    all_ids = [it.id for it in Y.ITEMS]
    assert len(all_ids) == len(set(all_ids)), "duplicate ids"
    assert set(ids) <= set(all_ids)
    for it in Y.ITEMS:
        assert it.kind in KINDS and it.provenance in PROVENANCE
        assert it.paper == "yang2022"
        if it.id not in ids:          # extra items hang off a main id
            assert it.refs and all(r in all_ids for r in it.refs)
            assert it.provenance == "corrected"
    assert sum(1 for t in tags.values() if t) == 28
    for id_, tag in tags.items():
        if tag is None:
            continue
        assert BY_ID[id_].provenance == tag, id_


# ----------------------------------------------------------------------------- 2. evaluation
@pytest.mark.parametrize("item", Y.ITEMS, ids=lambda it: it.id)
def test_everything_evaluates(item):
    names = ["bound", "rate", *item.expressions, *item.relations]
    vals = point_for(item)
    for name in names:
        try:
            item.expression(name)
        except ValueError:
            continue
        v = item.evaluate(name, vals)
        assert math.isfinite(v), (item.id, name)
    if item.settings and item.bound is not None:
        # apply the settings: drop the set symbols from the point
        v = item.evaluate("bound", point_for(item, drop={s_.name for s_ in item.settings}))
        assert math.isfinite(v) and v > 0


# ----------------------------------------------------------------------------- 3. hand-derived
Df, L0, T, K = S.Fgap, S.L0, S.T, S.sigma**2 * S.d / S.B**2


def test_thm32_master_at_eta4():
    # D_f/(eta T) + eta L0 (1+K)/2 at eta = sqrt(D_f/(T L0 (1+K))):
    # = sqrt(D_f L0 (1+K)/T) + (1/2) sqrt(D_f L0 (1+K)/T) = (3/2) sqrt(A_T).
    it = BY_ID["yang2022.thm3.2"]
    got = it.expressions["master_rhs_over_etaT"].subs(it.settings)
    want = sp.Rational(3, 2) * sp.sqrt(Df * L0 * (1 + K) / T)
    assert sp.simplify(got - want) == 0


def test_thm34_master_at_eta8():
    # eta = sqrt(D_f/(T L0 (1+K)))/C: D_f/(eta T) = C sqrt(A_T); eta C^2 L0 (1+K)/2 = C sqrt(A_T)/2.
    it = BY_ID["yang2022.thm3.4"]
    got = it.expressions["master_rhs_over_etaT"].subs(it.settings)
    want = sp.Rational(3, 2) * S.C * sp.sqrt(Df * L0 * (1 + K) / T)
    assert sp.simplify(got - want) == 0


def _T_exponent(expr):
    e = expr.subs({S.sigma: 2, S.d: 16, S.B: 32, Df: 2, L0: 1, S.C: 2, S.r: 1, S.tau0: 1,
                   S.tau1: 0, Y.k1: 0, Y.k2: 1, Y.k3: 1})
    return sp.limit(sp.log(e) / sp.log(T), T, sp.oo)


def test_thm32_thm34_T_exponents():
    # decaying part of (5) and (9): A_T^{1/4} ~ T^{-1/4} dominates A_T^{1/2} ~ T^{-1/2}.
    assert _T_exponent(BY_ID["yang2022.thm3.2"].bound) == sp.Rational(-1, 4)
    assert _T_exponent(BY_ID["yang2022.thm3.4"].bound) == sp.Rational(-1, 4)


def test_cor33_cor35_are_T_limits():
    # sigma^2 d/B^2 = c2^2 T d log(1/delta)/(N eps)^2, so D_f L0 (1 + K)/T ->
    # c2^2 D_f L0 d log(1/delta)/(N eps)^2 =: A as T -> oo (the 1/T part vanishes).
    A = Y.c2**2 * Df * L0 * S.d * sp.log(1 / S.delta) / (S.n**2 * S.eps**2)
    AT_at_sigma = (Df * L0 * (1 + K) / T).subs(S.sigma, BY_ID["yang2022.lemma3.1"].bound)
    assert sp.simplify(sp.limit(AT_at_sigma, T, sp.oo) - A) == 0
    M = 2 * S.tau0 / (1 - S.tau1)
    xnv = sp.Min(S.tau0 / (1 - S.tau1), S.tau0**2 / ((1 - S.tau1)**2 * S.r))
    want33 = Y.k1 * xnv + Y.k2 * sp.sqrt(M + S.r) * A**sp.Rational(1, 4) + Y.k3 * sp.sqrt(A)
    want35 = Y.k2 * sp.sqrt(S.C) * A**sp.Rational(1, 4) + Y.k3 * sp.sqrt(A)
    assert sp.simplify(BY_ID["yang2022.cor3.3"].bound - want33) == 0
    assert sp.simplify(BY_ID["yang2022.cor3.5"].bound - want35) == 0
    # the bound of the abstract is the DP-SGD limit
    assert sp.simplify(BY_ID["yang2022.abstract"].bound - want35) == 0


def _exponent(expr, b, c, k1=0):
    """Exponent in s of expr at n = s, d = s^b, eps = s^-c, constants at 1 (x_nv removed)."""
    e = expr.subs({Y.k1: k1, Y.k2: 1, Y.k3: 1, Y.c2: 1, Df: 1, L0: 1, S.C: 1, S.delta: sp.exp(-1),
                   S.tau0: 1, S.tau1: 0, S.r: 1})
    e = e.subs({S.n: s, S.d: s**b, S.eps: s**-c})
    return sp.limit(sp.log(e) / sp.log(s), s, sp.oo)


def test_corollary_exponents():
    # Decaying part k2 sqrt(.) A^{1/4} + k3 A^{1/2}, A = d/(n eps)^2 -> exponent
    # max((b-2+2c)/4, (b-2+2c)/2): -1/2 in n when d, eps fixed (b=c=0); at b = 4
    # (d = n^4 > n^2 eps^2) the A^{1/2} term leads: (4-2)/2 = 1.
    for id_ in ("yang2022.cor3.3", "yang2022.cor3.5", "yang2022.abstract"):
        bound = BY_ID[id_].bound
        assert _exponent(bound, 0, 0) == sp.Rational(-1, 2)
        assert _exponent(bound, 1, 0) == sp.Rational(-1, 4)      # (1-2)/4
        assert _exponent(bound, 4, 0) == 1                        # A^{1/2} leads
    # rate of the abstract: -1/2 in n, +1/4 in d, -1/2 in eps (i.e. +1/2 in 1/eps)
    rate = BY_ID["yang2022.abstract"].rate
    assert _exponent(rate, 0, 0) == sp.Rational(-1, 2)
    assert _exponent(rate, 2, 0) == 0
    assert _exponent(rate, 0, 1) == 0                             # (0-2+2)/4
    assert sp.simplify(BY_ID["yang2022.abstract"].relations["two forms equal"]) is sp.true


def test_nsgd_tuned_r():
    # f(r) = a/r + b sqrt(r): f' = 0 at r^{3/2} = 2a/b; f(r*) = (2^{-2/3} + 2^{1/3}) a^{1/3} b^{2/3}.
    it = BY_ID["yang2022.abstract.nsgd.corrected"]
    a = Y.k1 * S.tau0**2 / (1 - S.tau1)**2
    A = Y.c2**2 * Df * L0 * S.d * sp.log(1 / S.delta) / (S.n**2 * S.eps**2)
    b = Y.k2 * A**sp.Rational(1, 4)
    got = it.bound.subs(it.settings) - Y.k3 * sp.sqrt(A)
    want = (2**sp.Rational(-2, 3) + 2**sp.Rational(1, 3)) * a**sp.Rational(1, 3) * b**sp.Rational(2, 3)
    vals = point_for(it, drop={"r"})
    assert float(got.subs(vals)) == pytest.approx(float(want.subs(vals)), rel=1e-12)
    # and r* is the minimiser (numerically)
    f = sp.lambdify(S.r, (a / S.r + b * sp.sqrt(S.r)).subs(vals))
    res = optimize.minimize_scalar(lambda t: f(math.exp(t)), bounds=(-20, 20), method="bounded")
    assert res.fun == pytest.approx(float(want.subs(vals)), rel=1e-8)
    # A^{1/6}: exponent -1/3 in n at fixed d, eps
    assert _exponent(it.bound.subs(it.settings), 0, 0, k1=1) == sp.Rational(-1, 3)


def test_cor33_eta_K_limit():
    # eta4 (1+K) = sqrt(D_f (1+K)/(T L0)); with K = c2^2 T d L/(N eps)^2 the ratio (1+K)/T ->
    # c2^2 d L/(N eps)^2, so eta4 L1 (1+K) -> L1 sqrt(c2^2 D_f d log(1/delta)/(L0 N^2 eps^2)).
    it = BY_ID["yang2022.cor3.3"]
    etaK = (BY_ID["yang2022.thm3.2"].expressions["eta_K_L1"].subs(S.eta_n, Y.eta4)
            .subs(S.sigma, BY_ID["yang2022.lemma3.1"].bound))
    want = S.L1 * sp.sqrt(Y.c2**2 * Df * S.d * sp.log(1 / S.delta) / (L0 * S.n**2 * S.eps**2))
    assert sp.simplify(sp.limit(etaK, T, sp.oo) - want) == 0
    assert sp.simplify(it.expressions["eta_K_L1_limit"] - want) == 0


def test_lemma31_route_via_propE3():
    # eps(alpha) = 26 q^2 T alpha/sigma^2 + L/(alpha-1), L = log(1/delta). At
    # sigma = c2 q sqrt(T L)/eps: first coefficient a = 26 eps^2/(c2^2 L); min over alpha of
    # a alpha + L/(alpha-1) = a + 2 sqrt(a L) = 26 eps^2/(c2^2 L) + 2 sqrt(26) eps/c2.
    # With c2 = 4 sqrt(26) this is <= eps iff eps <= c2^2 L/52 = 8 L.
    it = BY_ID["yang2022.lemma3.1"]
    c2v, L = 4 * math.sqrt(26), math.log(1e5)
    for epsv, ok in ((0.5 * 8 * L, True), (1.5 * 8 * L, False)):
        vals = {S.n: 10000, S.B: 32, S.T: 4096, S.delta: 1e-5, S.eps: epsv, Y.c2: c2v}
        sig = float(it.bound.subs(vals))
        f = sp.lambdify(S.z, it.expressions["eps_via_propE3"].subs({**vals, S.sigma: sig}))
        res = optimize.minimize_scalar(lambda t: f(1 + math.exp(t)), bounds=(-30, 30),
                                       method="bounded")
        want = 26 * epsv**2 / (c2v**2 * L) + 2 * math.sqrt(26) * epsv / c2v
        assert res.fun == pytest.approx(want, rel=1e-6)
        assert bool(res.fun <= epsv) is ok


def test_propE3_rho_equal():
    # substitution sensitivity 2C over std sigma C, and 2 over sigma: rho = 4/(2 sigma^2).
    it = BY_ID["yang2022.propE.3"]
    assert sp.simplify(it.expressions["rho_clip"] - 2 / S.sigma**2) == 0
    assert sp.simplify(it.expressions["rho_norm"] - 2 / S.sigma**2) == 0


def test_propE1_iii_converse_fails():
    # Gaussian, sensitivity 1, std sigma = 2, delta = 1e-5: exact eps* from the privacy curve
    # is below the best RDP conversion min_a a/8 + L/(a-1) = 1/8 + sqrt(2L)/2.
    it = BY_ID["yang2022.propE.1.corrected"]
    sig, dl = 2.0, 1e-5

    def delta_exact(e):        # independent closed form with scipy's normal cdf
        return (stats.norm.cdf(1 / (2 * sig) - e * sig)
                - math.exp(e) * stats.norm.cdf(-1 / (2 * sig) - e * sig))

    eps_star = optimize.brentq(lambda e: delta_exact(e) - dl, 1e-6, 50)
    enc = sp.lambdify(S.eps, it.expressions["delta_exact_gauss"].subs({S.sigma: sig}))
    assert enc(eps_star) == pytest.approx(dl, rel=1e-8)
    L = math.log(1 / dl)
    eps_rdp = 1 / 8 + math.sqrt(2 * L) / 2
    assert float(it.expressions["eps_rdp_gauss"].subs({S.sigma: sig, S.delta: dl})) == \
        pytest.approx(eps_rdp, rel=1e-12)
    assert eps_star < eps_rdp - 0.1
    # hence K(alpha) = alpha/(2 sigma^2) > eps* - L/(alpha - 1) for every alpha > 1
    alphas = 1 + np.logspace(-3, 3, 2000)
    assert np.all(alphas / (2 * sig**2) > eps_star - L / (alphas - 1))


def test_lemmaA3_branch_max():
    # max_{0<=u<=M} u(M-u)/(u+r): v = u + r, (v-r)(M+r-v)/v = M + 2r - v - r(M+r)/v, max at
    # v = sqrt(r(M+r)): M + 2r - 2 sqrt(r(M+r)) = (sqrt(M+r) - sqrt(r))^2.
    it = BY_ID["yang2022.lemmaA.3"]
    for Mv, rv in ((1.0, 0.1), (2.0, 3.0), (0.3, 5.0)):
        uu = np.linspace(0, Mv, 200001)
        brute = np.max(uu * (Mv - uu) / (uu + rv))
        tau0v = Mv / 2                                   # tau1 = 0 -> M = 2 tau0
        enc = float(it.expressions["zero_small_branch"].subs({S.tau0: tau0v, S.tau1: 0, S.r: rv}))
        assert enc == pytest.approx(brute, rel=1e-6)
    v = point_for(it)
    assert abs(it.evaluate("x_star_residual", v)) < 1e-12
    assert it.evaluate("x_star", v) > 0


def _random_law(rng, dim, k, radius):
    e = rng.normal(size=(k, dim))
    e -= e.mean(axis=0)
    e *= radius / np.max(np.linalg.norm(e, axis=1))
    w = np.full(k, 1.0 / k)
    return e, w


def test_lemmaA3_A5_on_random_laws():
    # Exact expectation over a random finite mean-zero law with ||e|| <= tau0 + tau1 x
    # (Assumption 2.2) against h of (16) and h_C of (20) (C >= 2 tau0/(1 - tau1)).
    rng = np.random.default_rng(0)
    h = sp.lambdify((Y.x, S.tau0, S.tau1, S.r), BY_ID["yang2022.lemmaA.3"].expressions["h16"])
    ha = sp.lambdify((Y.x, S.tau0, S.tau1, S.r), BY_ID["yang2022.lemmaA.3"].expressions["h16_alt"])
    hC = sp.lambdify((Y.x, S.tau0, S.tau1, S.C), BY_ID["yang2022.lemmaA.5"].expressions["hC20"])
    for _ in range(300):
        tau0v, tau1v, rv = rng.uniform(0.1, 2), rng.uniform(0, 0.9), 10 ** rng.uniform(-2, 1)
        Cv = 2 * tau0v / (1 - tau1v) * rng.uniform(1, 3)
        xv = 10 ** rng.uniform(-2, 1) * tau0v / (1 - tau1v)
        dim = int(rng.integers(1, 5))
        e, w = _random_law(rng, dim, int(rng.integers(2, 8)), tau0v + tau1v * xv)
        grad = np.zeros(dim)
        grad[0] = xv
        g = grad + e
        gn = np.linalg.norm(g, axis=1)
        E_norm = np.sum(w * (g @ grad) / (gn + rv))
        E_clip = np.sum(w * (g @ grad) * np.minimum(1, Cv / gn))
        assert E_norm >= h(xv, tau0v, tau1v, rv) - 1e-12
        assert E_norm >= ha(xv, tau0v, tau1v, rv) - 1e-12
        assert E_clip >= hC(xv, tau0v, tau1v, Cv) - 1e-12


def test_lemmaA5_positive():
    # second branch: x > (C - tau0)/(1+tau1) >= tau0/(1-tau1) when C >= 2 tau0/(1-tau1),
    # so (1-tau1) x - tau0 > 0 and h_C > 0 on x > 0.
    hC = sp.lambdify((Y.x, S.tau0, S.tau1, S.C), BY_ID["yang2022.lemmaA.5"].expressions["hC20"])
    for tau0v, tau1v in ((0.5, 0.0), (1.0, 0.5), (0.2, 0.9)):
        Cv = 2 * tau0v / (1 - tau1v)
        xs = np.logspace(-4, 3, 500)
        assert all(hC(xv, tau0v, tau1v, Cv) > 0 for xv in xs)


def test_toy_example():
    # slope at a -> 0: E_norm/a -> 2 (1/4)(tau0/2)/(tau0 + r) + (1/2)(-tau0/2)/(tau0/2 + r)
    # = (tau0/4)(1/(tau0+r) - 1/(tau0/2+r)) < 0 for every r > 0: E_norm < 0 for small a.
    it = BY_ID["yang2022.toyA.1"]
    a, t0, r = Y.a_toy, S.tau0, S.r
    En = it.expressions["E_norm"]
    for rv in (0.1, 0.5, 1.0):
        lim = sp.limit((En / a).subs({t0: 1, r: sp.Rational(rv).limit_denominator(100)}), a, 0)
        want = sp.Rational(1, 4) * (1 / (1 + sp.Rational(rv).limit_denominator(100))
                                    - 1 / (sp.Rational(1, 2) + sp.Rational(rv).limit_denominator(100)))
        assert sp.simplify(lim - want) == 0 and want < 0
        assert float(En.subs({a: 0.01, t0: 1, r: rv})) < 0
        # and h of Lemma A.3 (tau1 = 0) lower-bounds it on a grid
        h = BY_ID["yang2022.lemmaA.3"].expressions["h16"]
        for av in np.linspace(0.01, 3, 60):
            assert float(En.subs({a: av, t0: 1, r: rv})) >= \
                float(h.subs({Y.x: av, t0: 1, S.tau1: 0, r: rv})) - 1e-12
    # clipping at C = 2 tau0: max ||g||^2 = (a + 1/2)^2 + 3/4 <= 4 for a <= 1, nothing clipped,
    # E<grad f, g> = a^2.
    Ec = it.expressions["E_clip_at_C_2tau0"]
    for av in (0.05, 0.3, 1.0):          # a = tau0/2 makes one g vanish (clip undefined)
        assert float(Ec.subs({a: av, t0: 1})) == pytest.approx(av**2, rel=1e-12)


def test_eq7_candidate_forms_random():
    # brute force on random vectors: both candidate forms hold (m = grad + e).
    rng = np.random.default_rng(1)
    for _ in range(20000):
        dim = int(rng.integers(1, 6))
        gr = rng.normal(size=dim) * 10 ** rng.uniform(-2, 2)
        m = gr + rng.normal(size=dim) * 10 ** rng.uniform(-3, 2)
        lhs = gr @ m / np.linalg.norm(m)
        xg, er = np.linalg.norm(gr), np.linalg.norm(m - gr)
        assert lhs >= xg / 3 - 8 * er / 3 - 1e-9 * xg
        assert lhs >= 2 * xg / 3 - 2 * er - 1e-9 * xg


def test_eq2_eq3_processed_norms():
    # ||clip_C(g)|| = min(u, C) <= C; ||g/(||g||+r)|| = u/(u+r) < 1.
    e2, e3 = BY_ID["yang2022.eq2"], BY_ID["yang2022.eq3"]
    for uv in (1e-3, 0.5, 2.0, 1e3):
        assert e2.evaluate("clipped_norm", {Y.u: uv, S.C: 1.0}) == pytest.approx(min(uv, 1.0))
        assert e3.evaluate("processed_norm", {Y.u: uv, S.r: 0.1}) == pytest.approx(uv / (uv + 0.1))


def test_expected_file_covers_derivable():
    derivable = {it.id for it in Y.ITEMS if it.derivable}
    assert set(EXPECTED) == derivable
    for entry in EXPECTED.values():
        assert entry["verdict"] in {"agrees", "agrees-in-regime", "disagrees", "not-derivable"}
        if entry["regime"] is not None:
            sp.sympify(entry["regime"])
