"""Tests of the zhang2021 catalog (DPageEM, IJCAI 2021).

Expectations are derived by hand from the paper's printed formulas (derivations in comments),
never read off the module's output.
"""

from __future__ import annotations

import math

import pytest
import sympy as sp

from dptheory_bounds import zhang2021 as Z
from dptheory.symbolic import KINDS, PROVENANCE, S, unit_of
from dptheory.symbolic import units as U
from tests.bounds import spec

ITEMS = {it.id: it for it in Z.ITEMS}


# Part I of the specification's item index.
CATALOG_IDS = """zhang2021.alg2 zhang2021.alg1 zhang2021.remark2 zhang2021.def1.1 zhang2021.assume0
zhang2021.assump2.1 zhang2021.assump2.2 zhang2021.assump2.3 zhang2021.assump2.4
zhang2021.assump2.5 zhang2021.remark1 zhang2021.def2.1 zhang2021.def2.2 zhang2021.def2.3
zhang2021.thm2.1 zhang2021.def2.4 zhang2021.thm2.2 zhang2021.thm3.1 zhang2021.thm3.2
zhang2021.remark3 zhang2021.remark4 zhang2021.thm3.3 zhang2021.remark5 zhang2021.thm3.4
zhang2021.remark6 zhang2021.intro.E1 zhang2021.intro.E2 zhang2021.intro.E3 zhang2021.intro.P1
zhang2021.intro.P2 zhang2021.intro.SCO zhang2021.intro.nonprivate zhang2021.intro.zhang2017
zhang2021.contrib zhang2021.exp""".split()


# A valid point (Remark 1 regime is mu < 1; theta = 0.5). It satisfies the printed
# eta0-condition: X = (8-2) + 2/(2*0.5) = 8, eta0 X = 4 = 1/(c4 theta mu) with c4 = 1.
POINT = {
    "n": 200, "d": 16, "eps": 1.0, "delta": 1e-5, "B": 10, "T": 4096, "q": 0.05,
    "G": 0.5, "beta": 1.0, "mu": 0.5, "theta": 0.5, "sigma_g": 0.5, "Fgap": 0.5,
    "eta": 0.01, "piN": 0.05,
    "varrho": 0.5, "tMon0": 2, "tMon": 2, "z21_eta0": 0.5, "z21_T0": 8, "z21_K": 4,
    "z21_k": 2, "z21_t": 1, "z21_c1": 1.0, "z21_c2": 1.0, "z21_c4": 1.0,
    "z21_alpha_stab": 0.1, "z21_f": 0.3, "z21_fp": 0.2, "z21_dw": 1.0, "z21_dg": 0.1,
    "z21_var": 0.1, "z21_FS": 0.4, "z21_FSmin": 0.1, "z21_gnorm": 1.0, "z21_inner": 0.5,
    "z21_EFE": 0.3, "z21_EFS": 0.15, "z21_EFSstar": 0.05, "z21_minFE": 0.1,
    "z21_stabgap": 0.05, "z21_gengap": 0.05, "z21_PS": 0.3, "z21_PSp": 0.3,
    "z21_w": 1.0, "z21_wprev": 0.8, "z21_gbar": 0.5, "z21_xi": 0.01, "z21_C0": 1.0,
    "z21_tau": 0.5, "z21_c": 1.0,
}


def _values_for(item, what):
    expr = item.expression(what)
    names = {s.name for s in expr.free_symbols}
    for v in item.settings.values():
        names |= {s.name for s in sp.sympify(v).free_symbols}
    missing = names - set(POINT)
    assert not missing, f"{item.id}.{what}: test point lacks {missing}"
    # do not pin symbols that a setting determines
    return {k: v for k, v in POINT.items() if k in names and
            all(s.name != k for s in item.settings)}


def dim(expr):
    """Dimension of a monomial-like expression: scale each symbol by its unit."""
    expr = sp.sympify(expr)
    scaled = expr.xreplace({s: s * unit_of(s) for s in expr.free_symbols
                            if s not in (U.F, U.W)})
    return sp.simplify(sp.powsimp(scaled / expr, force=True))


# --- 1. ids, kinds, provenance --------------------------------------------------------------
def test_ids_match_catalog_index():
    ids = spec.ids("zhang2021")
    assert ids == CATALOG_IDS
    assert len(ids) == 35
    for id_ in ids:
        assert id_ in ITEMS, id_
    assert len(ITEMS) == len(Z.ITEMS), "duplicate ids"
    # extra items are dotted-suffix variants of a catalog id, and ref it
    for id_, it in ITEMS.items():
        if id_ not in ids:
            base = id_.rsplit(".", 1)[0]
            assert base in ids and base in it.refs, id_


def test_kinds_provenance_and_reconstructed_tags():
    for it in Z.ITEMS:
        assert it.kind in KINDS and it.provenance in PROVENANCE
        assert it.paper == "zhang2021"
    assert spec.tagged("zhang2021") == {}
    # catalog items of Part I carry no reconstructed tag: only our route item is reconstructed
    assert {i for i, it in ITEMS.items() if it.provenance.startswith("reconstructed")} == \
        {"zhang2021.thm3.4.route"}


def test_literal_and_corrected_flags():
    assert ITEMS["zhang2021.thm3.2"].garbled and ITEMS["zhang2021.thm3.2"].provenance == "literal"
    for id_ in ("zhang2021.def1.1.corrected", "zhang2021.thm2.1.corrected",
                "zhang2021.thm3.2.corrected"):
        assert ITEMS[id_].provenance == "corrected" and ITEMS[id_].notes


# --- 2. everything evaluates to a finite real number ----------------------------------------
def _all_whats(it):
    out = [w for w in ("bound", "rate") if getattr(it, w) is not None]
    return out + list(it.expressions) + list(it.relations)


@pytest.mark.parametrize("item", Z.ITEMS, ids=lambda it: it.id)
def test_evaluates_finite(item):
    for what in _all_whats(item):
        value = item.evaluate(what, _values_for(item, what))
        assert math.isfinite(value), (item.id, what, value)


# --- 3. hand-derived expectations ------------------------------------------------------------
n, d, eps, delta, B, L = S.n, S.d, S.eps, S.delta, S.B, S.G
theta, mu, beta, sigma, Fgap = S.theta, S.mu, S.beta, S.sigma_g, S.Fgap
eta0, T0, K, c2, c4, varrho, tMon0, tMon, piN = (Z.eta0, Z.T0, Z.K, Z.c2, Z.c4, Z.varrho,
                                                 Z.tMon0, Z.tMon, Z.piN)


def test_alg1_schedule_identities():
    it = ITEMS["zhang2021.alg1"]
    # sum_{k=1}^K 2^k T0 = T0 (2^{K+1} - 2) = 2 T0 (2^K - 1) (geometric series)
    assert sp.simplify(it.expressions["total_iters"] - 2 * T0 * (2**K - 1)) == 0
    # eta^k T^k = 2^-k eta0 2^k T0 = eta0 T0, constant across stages
    assert sp.simplify(it.expressions["eta_k_times_T_k"] - eta0 * T0) == 0
    # K = 3, T0 = 8: 16 + 32 + 64 = 112 iterations
    assert it.evaluate("total_iters", {"z21_T0": 8, "z21_K": 3}, apply_settings=False) == 112


def test_alg2_reductions():
    it = ITEMS["zhang2021.alg2"]
    upd = it.expressions["update"]
    w, wp, g, x = Z.w_t, Z.w_prev, Z.gbar, Z.xi
    # varrho = 0, pi = 0 (xi = 0): minibatch SGD step w - eta g
    assert sp.simplify(upd.subs({varrho: 0, x: 0}) - (w - S.eta * g)) == 0
    # t <= t_Mon: heavy ball w - eta(g + xi) + varrho (w - w_prev)
    assert sp.simplify(upd.subs({Z.t: 1, tMon: 5}) - (w - S.eta * (g + x) + varrho * (w - wp))) == 0
    # t > t_Mon: momentum off
    assert sp.simplify(upd.subs({Z.t: 6, tMon: 5}) - (w - S.eta * (g + x))) == 0
    # noise on the averaged gradient: eta*xi must be a parameter, so xi ~ pi is a gradient
    assert dim(S.eta * Z.xi) == U.W and dim(piN) == U.GRAD


def test_thm31_eq4_equals_thm21_sum_reading():
    it = ITEMS["zhang2021.thm3.1"]
    T = 2 * T0 * (2**K - 1)
    # Thm 2.1: std L*pi_A on the SUM of B gradients, pi_A = c2 (B/n) sqrt(T log(1/delta))/eps;
    # on the average: L pi_A / B = c2 L sqrt(T log)/(n eps); squared = eq. (4).
    eq4 = c2**2 * T * L**2 * sp.log(1 / delta) / (n**2 * eps**2)
    assert sp.simplify(it.bound - eq4) == 0
    assert sp.simplify(it.expressions["piN2_from_thm2.1_sum_reading"] - eq4) == 0
    # 'added to the average' reading: B^2 times eq. (4)
    assert sp.simplify(it.expressions["piN2_from_thm2.1_avg_reading"] / eq4 - B**2) == 0


def test_thm31_noise_at_thm32_K_is_constant_in_n():
    # 2^K = n^2 eps^2 theta^2 mu/(d L^2 log(1/delta)) =: A, so
    # pi^2 = 2 c2^2 T0 (A - 1) L^2 log/(n^2 eps^2) -> 2 c2^2 T0 theta^2 mu/d as n -> oo.
    it = ITEMS["zhang2021.thm3.1"]
    lim = sp.limit(it.expressions["piN2_at_thm3.2_K"], n, sp.oo)
    assert sp.simplify(lim - 2 * c2**2 * T0 * theta**2 * mu / d) == 0
    # side condition: c1 (B/n)^2 2 T0 (A - 1) -> 2 c1 B^2 T0 eps^2 theta^2 mu/(d L^2 log)
    lim2 = sp.limit(it.expressions["eps_condition_rhs_at_thm3.2_K"], n, sp.oo)
    assert sp.simplify(lim2 - 2 * Z.c1 * B**2 * T0 * eps**2 * theta**2 * mu
                       / (d * L**2 * sp.log(1 / delta))) == 0


def test_thm21_dimension_finding_and_correction():
    # printed: pi (a gradient, Alg. 2) >= c2 q sqrt(T log)/eps (a number): inconsistent
    rel = ITEMS["zhang2021.thm2.1"].relations["noise"]
    assert dim(rel.lhs) == U.GRAD and dim(rel.rhs) == 1
    rel_c = ITEMS["zhang2021.thm2.1.corrected"].relations["noise"]
    assert dim(rel_c.lhs) == dim(rel_c.rhs) == U.GRAD
    # eq. (4) is dimensionally consistent: both sides [F]^2/[w]^2
    rel4 = ITEMS["zhang2021.thm3.1"].relations["noise"]
    assert dim(rel4.lhs) == dim(rel4.rhs) == U.GRAD_VAR


def _subs_settings(it, expr):
    return expr.subs(it.settings)


def test_thm32_gamma_under_eta0_condition():
    # Gamma = 1/(4 theta mu eta0 X) with eta0 X = 1/(c4 theta mu) gives Gamma = c4/4 < 1/2
    # iff c4 < 2, and eta0 X > 1/(2 theta mu) iff c4 < 2: the printed clauses are consistent.
    it = ITEMS["zhang2021.thm3.2"]
    assert sp.simplify(it.expressions["Gamma_under_eta0_condition"] - c4 / 4) == 0
    # at the test point Gamma = 1/(4*0.5*0.5*0.5*8) = 1/4
    assert it.evaluate("Gamma", _values_for(it, "Gamma")) == pytest.approx(0.25)


def test_thm32_bound_at_settings_is_rate_shape():
    it = ITEMS["zhang2021.thm3.2"]
    b = _subs_settings(it, it.bound)
    # 2^-K = d L^2 log(1/delta)/(n^2 eps^2 theta^2 mu), so bound * n^2 eps^2/d is free of n, d, eps
    scaled = sp.simplify(b * n**2 * eps**2 / d)
    assert not scaled.free_symbols & {n, d, eps}
    # numeric value at the test point, by hand:
    # 2^-K = 16*0.25*log(1e5)/(200^2*0.25*0.5) = 4 log(1e5)/5000
    # X = 8, Gamma = 1/4, R1 = 6 + 2/8 = 6.25, R2 = (6 + 2/0.125)/8 = 2.75
    # opt = 2^-K (0.5 + 6.25/(0.5) * 0.5*0.25/(2*0.5*10)) = 2^-K (0.5 + 12.5*0.0125)
    # dp  = 2.75/0.5 * 2*1*16*0.25*log(1e5)*0.5/(1*0.25*0.5*200^2)
    lg = math.log(1e5)
    two_mK = 4 * lg / 5000
    opt = two_mK * (0.5 + 12.5 * 0.0125)
    dp = 5.5 * 2 * 16 * 0.25 * lg * 0.5 / (0.125 * 40000)
    vals = _values_for(it, "bound")
    assert it.evaluate("bound", vals) == pytest.approx(opt + dp, rel=1e-12)


@pytest.mark.parametrize("b,c", [(0.0, 0.0), (0.5, 0.25), (1.0, 0.0)])
def test_thm32_exponent(b, c):
    # n = s, d = s^b, eps = s^-c: bound ~ d/(n^2 eps^2) -> exponent b - 2 + 2c
    it = ITEMS["zhang2021.thm3.2"]
    s = sp.Symbol("s", positive=True)
    b_ = _subs_settings(it, it.bound)
    base = {k: v for k, v in POINT.items() if k not in ("n", "d", "eps", "z21_K")}
    expr = b_.subs({sym: POINT[sym.name] for sym in b_.free_symbols if sym.name in base})
    f = sp.lambdify(s, expr.subs({n: s, d: s**b, eps: s**(-c)}), "mpmath")
    s1, s2 = 1e8, 1e10
    slope = (math.log(float(f(s2))) - math.log(float(f(s1)))) / math.log(s2 / s1)
    assert slope == pytest.approx(b - 2 + 2 * c, abs=1e-9)


def test_thm32_tmon_as_tK_reading_does_not_decay():
    # with t_Mon = 2^K t0_Mon, R2 ~ 2^K t0_Mon/((1-varrho)^3 X) ~ n^2: the DP term tends to
    # the constant 2 c2^2 L^2 log (2^K/n^2) t0_Mon eta0 ... independent of n.
    it = ITEMS["zhang2021.thm3.2"]
    e = _subs_settings(it, it.expressions["dp_term_if_tMon_is_tK"])
    e = e.subs({sym: POINT[sym.name] for sym in e.free_symbols if sym.name != "n"})
    f = sp.lambdify(n, e, "mpmath")
    slope = (math.log(float(f(1e10))) - math.log(float(f(1e8)))) / math.log(100)
    assert abs(slope) < 1e-6


def test_thm32_dimensions():
    it = ITEMS["zhang2021.thm3.2"]
    ex = it.expressions
    # opt term: 2^-K (dimensionless K) times [F] (Fgap, eta0 sigma^2 = [w]^2/[F] [F]^2/[w]^2)
    assert dim(ex["opt_term"]) == U.F
    # DP term: L^2 eta0/mu = ([F]^2/[w]^2)([w]^2/[F])/([F]/[w]^2) = [w]^2 -- not a loss (finding)
    assert dim(ex["dp_term"]) == U.W**2
    assert dim(ITEMS["zhang2021.thm3.2.corrected"].expressions["dp_term"]) == U.F
    # stated rate: L^2/mu = [F]
    assert dim(it.rate) == U.F
    # eta0 condition compares theta(1-varrho)^2/(2 beta) ([w]^2/[F]) with the number 1
    max_args = [h for lab, h in it.hypotheses if lab.startswith("eta0 <= max")][0].rhs.args
    assert sorted(str(dim(a)) for a in max_args) == sorted(["1", str(U.STEP)])
    # K's log argument has dimension mu/L^2 = 1/[F]
    arg = sp.Pow(2, it.settings[K]).simplify()
    assert dim(arg) == 1 / U.F


def test_thm32_corrected_agrees_with_rate_shape():
    it = ITEMS["zhang2021.thm3.2.corrected"]
    scaled = sp.simplify(_subs_settings(it, it.bound) * n**2 * eps**2 / d)
    assert not scaled.free_symbols & {n, d, eps}


def test_remark4_endpoints():
    ex = ITEMS["zhang2021.remark4"].expressions
    # off: X = T0, R1 = T0, R2 = T0/T0 = 1; on: X = T0/(2(1-varrho)),
    # R1 = T0/X = 2(1-varrho), R2 = (T0/(1-varrho)^3)/X = 2/(1-varrho)^2
    assert sp.simplify(ex["R1_off"] - T0) == 0 and sp.simplify(ex["R2_off"] - 1) == 0
    assert sp.simplify(ex["R1_on"] - 2 * (1 - varrho)) == 0
    assert sp.simplify(ex["R2_on"] - 2 / (1 - varrho)**2) == 0


def _thm33_at(nval, **over):
    it = ITEMS["zhang2021.thm3.3"]
    vals = {**POINT, **over}
    out = {}
    for name in ("term1", "term3"):
        e = _subs_settings(it, it.expressions[name])
        e = e.subs({sym: vals[sym.name] for sym in e.free_symbols if sym.name != "n"}).subs(n, nval)
        out[name] = e
    return out


def test_thm33_term3_grows_linearly_at_thm32_K():
    # (T^K + 1) B/n with T^K = 2^K T0 = n^2 eps^2 theta^2 mu T0/(d L^2 log): term3/n ->
    # eps^2 theta^2 mu T0 B/(d L^2 log(1/delta)) = 0.125*8*10/(16*0.25*log(1e5))
    val = float(_thm33_at(10**7)["term3"]) / 10**7
    assert val == pytest.approx(0.125 * 8 * 10 / (4 * math.log(1e5)), rel=1e-6)
    # vacuous: exceeds 1 already at n = 200 (|f| <= 1 gives alpha <= 2 for free)
    assert float(_thm33_at(200)["term3"]) > 1


def test_thm33_term1_grows_like_exp_n2():
    # log term1 ~ 2 varrho t^K_Mon = 2 varrho t0_Mon n^2 eps^2 theta^2 mu/(d L^2 log)
    # -> log(term1)/n^2 -> 2*0.5*2*0.125/(16*0.25*log(1e5)) = 0.25/(4 log(1e5))
    nval = 10**5
    log_t1 = sp.N(sp.log(_thm33_at(nval)["term1"]), 30)
    assert float(log_t1) / nval**2 == pytest.approx(0.25 / (4 * math.log(1e5)), rel=1e-3)


def test_thm33_term1_singular_cases():
    t1 = Z.ALPHA_T1
    # DPageS (t0_Mon = 0): log(1 + 1/(varrho * 0)) is infinite -> undefined
    assert t1.subs(tMon0, 0).has(sp.zoo, sp.nan, sp.oo)
    # varrho -> 0 at fixed t^K_Mon >= 1: bracket ~ (1/2) log(t/(4 varrho)) -> +oo
    vals = {sym: POINT[sym.name] for sym in t1.free_symbols if sym.name not in ("varrho", "n")}
    vals[n] = 200
    f = [float(t1.subs(vals).subs(varrho, r)) for r in (1e-6, 1e-12, 1e-24)]
    assert f[0] < f[1] < f[2]


def test_remark5_derivative_positive():
    # bracket > 0 for t >= 1 since (1 + 1/(2 r))^2 = 1 + 1/r + 1/(4 r^2) > 1 + 1/(r t);
    # then both parts of d/dt are positive.
    it = ITEMS["zhang2021.remark5"]
    der = it.expressions["dterm1_dtMonK"]
    for r in (0.05, 0.5, 0.95):
        for tt in (1, 3, 50):
            vals = {sym: POINT[sym.name] for sym in der.free_symbols
                    if sym.name not in ("varrho", "tMon")}
            v = der.subs(vals).subs({varrho: r, tMon: tt})
            assert float(v) > 0


def test_thm34_route_vs_rate():
    # route bound >= term3 ~ c n while the rate is <= max(d/(n^2 eps^2), n^-1/2) -> ratio -> oo
    it = ITEMS["zhang2021.thm3.4.route"]
    small = {"varrho": 1e-3}   # keeps exp(2 varrho t^K_Mon) moderate
    def val(nv, what):
        e = _subs_settings(it, it.expression(what))
        vals = {**POINT, **small}
        e = e.subs({sym: vals[sym.name] for sym in e.free_symbols if sym.name != "n"})
        return float(e.subs(n, nv))
    r1 = val(10**3, "bound") / val(10**3, "rate")
    r2 = val(10**4, "bound") / val(10**4, "rate")
    assert r2 > 10 * r1 > 10


def test_def11_slack_and_counterexample():
    it, itc = ITEMS["zhang2021.def1.1"], ITEMS["zhang2021.def1.1.corrected"]
    EFE, EFS, EFSs, mFE = Z.EFE, Z.EFS, Z.EFSstar, Z.minFE
    # printed: rhs - lhs = (EFE - EFS) + (minFE - EFSstar)
    assert sp.simplify(it.expressions["slack"] - ((EFE - EFS) + (mFE - EFSs))) == 0
    # corrected: rhs - lhs = minFE - EFSstar (>= 0 always)
    assert sp.simplify(itc.expressions["slack"] - (mFE - EFSs)) == 0
    # negative generalization gap breaks the printed form only
    cx = {"z21_EFE": 0.1, "z21_EFS": 0.4, "z21_EFSstar": 0.05, "z21_minFE": 0.06}
    assert it.evaluate("eq1", cx) == 0.0
    assert itc.evaluate("eq1", cx) == 1.0


def test_contrib_and_p2_at_n_eq_d():
    # d = n: P-2 = n^{1/4}/sqrt(n eps) = n^{-1/4} eps^{-1/2}
    assert ITEMS["zhang2021.intro.P2"].evaluate("n_eq_d_identity", {"n": 50, "eps": 0.3}) == 1.0
    # log(1/delta)/(n eps^2) / (n^{-1/4} eps^{-1/2}) = log/(n^{3/4} eps^{3/2}) -> 0 ;
    # n^{-1/2}/n^{-1/4} -> 0
    ratio = ITEMS["zhang2021.contrib"].expressions["ratio_population_to_P2_at_n_eq_d"]
    f = sp.lambdify(n, ratio.subs({eps: 1, delta: sp.Rational(1, 10**5)}))
    assert f(1e12) < 1e-2 < f(1e2)
    # small eps breaks it: first term below P-2 iff eps > log(1/delta)^(2/3)/sqrt(n)
    it = ITEMS["zhang2021.contrib"]
    thr = math.log(1e5)**(2 / 3) / math.sqrt(1e4)
    assert it.evaluate("better_than_P2_at_n_eq_d", {"n": 1e4, "eps": 1.2 * thr, "delta": 1e-5,
                                                      "d": 1e4}) == 1.0
    assert it.evaluate("better_than_P2_at_n_eq_d", {"n": 1e4, "eps": 0.8 * thr, "delta": 1e-5,
                                                      "d": 1e4}) == 0.0


def test_remark6_quotes_differ_from_intro():
    r6 = ITEMS["zhang2021.remark6"].expressions
    # l1-ball P-2: remark 6 sqrt(log(nd))/(n eps)^{1/4} vs intro sqrt(log(nd))/(n eps)^{1/2}
    ratio = sp.simplify(r6["P2_l1_remark6"] / ITEMS["zhang2021.intro.P2"].expressions["l1_ball"])
    assert sp.simplify(ratio - (n * eps)**sp.Rational(1, 4)) == 0


def test_thm34_route_refutation_is_the_papers_proof_finding():
    # the route is the paper's own (Sec. 3.2, Remark 6): its derivation refutation is a proof
    # finding merged into the root that zhang2021.thm3.4:route-rate decides over every K,
    # not a refutation of dptheory's own items
    from dptheory.verify.findings import derivation_results, provenance
    from dptheory.verify.verdict import Finding, split_findings
    it = ITEMS["zhang2021.thm3.4.route"]
    (cid, res), = derivation_results(it)
    assert res.verdict == "refuted" and res.severity == "proof"
    assert res.root == "zhang2021.thm3.4:route-momentum-term"
    f = Finding.from_result(it.id, cid, res, provenance=provenance(it.id))
    paper, own = split_findings([f])
    assert [p.key for p in paper] == ["zhang2021.thm3.4:route-momentum-term"] and own == []
    # a corrected item (dptheory's own statement) stays apart
    own_f = Finding("zhang2021.thm3.2.corrected", "x", "s", {}, provenance="corrected")
    assert split_findings([own_f]) == ([], [own_f])
