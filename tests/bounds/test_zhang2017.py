"""Tests of the zhang2017 catalog (Zhang, Zheng, Mou, Wang, IJCAI 2017).

Expected values are derived by hand from the paper's printed formulas (derivations in the
comments) or computed with scipy from closed forms; never read off the module's output.
"""

from __future__ import annotations

import math

import pytest
import sympy as sp
from scipy.stats import norm

from dptheory_bounds import zhang2017 as Z
from dptheory.symbolic import KINDS, PROVENANCE, S
from dptheory.symbolic.dimensions import check_dimensions
from tests.bounds import spec

ITEMS = {it.id: it for it in Z.ITEMS}
n, d, eps, delta, T = S.n, S.d, S.eps, S.delta, S.T
L, beta, mu, eta, D = S.G, S.beta, S.mu, S.eta, S.D

# Part IV of the specification's item index.
CATALOG_IDS = """zhang2017.alg1 zhang2017.alg2 zhang2017.table1 zhang2017.intro zhang2017.assump1
zhang2017.def1 zhang2017.def2 zhang2017.lemma1 zhang2017.lemma2 zhang2017.lemma3 zhang2017.thm1
zhang2017.thm2 zhang2017.thm2.gen zhang2017.thm3 zhang2017.thm3.remarks zhang2017.thm4
zhang2017.thm5 zhang2017.lemma4 zhang2017.thm6 zhang2017.lemma5 zhang2017.lemma6 zhang2017.lemma7
zhang2017.lemma8 zhang2017.lemma9 zhang2017.lemma10 zhang2017.lemma11 zhang2017.lemma12
zhang2017.exp""".split()

# A valid generic point: n >= 2, d >= 1, eps in (0, 1], delta in (0, 1), mu <= beta.
POINT = {"n": 10000, "d": 16, "eps": 0.5, "delta": 1e-5, "T": 200, "G": 1.0, "beta": 2.0,
         "mu": 0.1, "eta": 0.25, "D": 1.5, "Dsens": 0.01, "DF": 0.8, "z17_sig": 3.0,
         "gam": 0.05, "Rb": 2.0, "deltap": 1e-6, "z17_alpha": 0.01, "z17_t": 7,
         "z17_Delta_t": 1e-4, "z17_Delta_t1": 2e-4, "z17_excess": 0.1, "z17_Delta1": 0.02,
         "z17_s": 0.03, "z17_sumsig2": 12.0}


def _values(item):
    """POINT without the item's set symbols, so the printed settings are used."""
    set_names = {s.name for s in item.settings}
    return {k: v for k, v in POINT.items() if k not in set_names}


def _catalog_ids():
    return spec.ids("zhang2017")


# --- 1. identity -------------------------------------------------------------------------
def test_every_catalog_id_present_and_unique():
    ids = [it.id for it in Z.ITEMS]
    assert len(ids) == len(set(ids))
    cat = _catalog_ids()
    assert len(cat) == 28 and set(cat) == set(CATALOG_IDS)
    assert set(cat) <= set(ids)
    for extra in set(ids) - set(cat):          # extras refine a catalog id by a dotted suffix
        assert any(extra.startswith(c + ".") for c in cat), extra


def test_kinds_provenance_and_refs():
    for it in Z.ITEMS:
        assert it.kind in KINDS and it.provenance in PROVENANCE
        assert it.paper == "zhang2017"
        for r in it.refs:
            assert r in ITEMS, (it.id, r)
        if it.id.endswith(".corrected"):
            assert it.provenance == "corrected" and it.notes


def test_no_reconstructed_tags_in_part_iv():
    # Part IV carries no [reconstructed] tag; only our assembled
    # regularization bound is marked reconstructed.
    assert spec.tagged("zhang2017") == {}
    recon = {it.id for it in Z.ITEMS if it.provenance.startswith("reconstructed")}
    assert recon == {"zhang2017.thm3.remarks.reg"}


# --- 2. evaluation -----------------------------------------------------------------------
def _all_targets():
    out = []
    for it in Z.ITEMS:
        names = [w for w in ("bound", "rate") if getattr(it, w) is not None]
        out += [(it.id, w) for w in [*names, *it.expressions, *it.relations]]
    return out


@pytest.mark.parametrize("item_id,what", _all_targets())
def test_evaluates_to_finite_real(item_id, what):
    it = ITEMS[item_id]
    v = it.evaluate(what, _values(it))
    assert math.isfinite(v)


# --- 3. hand-derived expectations ---------------------------------------------------------
def test_table1_ed_runtime_printed_is_garbled():
    # sqrt(d log(delta)) with log(delta) < 0: imaginary for every delta in (0,1); the
    # log(1/delta) reading is real: n d log(n eps/sqrt(d log(1/delta))).
    it = ITEMS["zhang2017.table1"]
    assert it.garbled
    printed = complex(sp.N(Z.TABLE1_ED_RUNTIME_PRINTED.subs({n: 10000, d: 16, eps: 0.5, delta: 1e-5})))
    assert abs(printed.imag) > 1.0
    v = it.evaluate("ours_sc_ed_runtime_log1overdelta", POINT)
    want = 10000 * 16 * math.log(10000 * 0.5 / math.sqrt(16 * math.log(1e5)))
    assert v == pytest.approx(want, rel=1e-12)


def test_lemma2_induction():
    # 9(t+1)^2 - (9t^2 + 12t + 8) = 6t + 1 >= 0; base case Delta_1^2 <= 8 eta^2 L^2/n^2 <= 9.
    t = Z.t
    assert sp.expand(ITEMS["zhang2017.lemma2"].expressions["induction_slack"] - (6 * t + 1)) == 0
    # bound at eta = 1/beta (Thm 3): 3 L T/(beta n) = 3*1*200/(2*10000) = 0.03
    assert ITEMS["zhang2017.lemma2"].evaluate("bound", _values(ITEMS["zhang2017.lemma2"])) == pytest.approx(0.03)


def test_lemma3_induction_requirement_at_eta():
    # At eta = 1/(mu+beta): 5(mu+beta)/(mu beta) - 8/(mu+beta) = (5mu^2 + 2 mu beta + 5 beta^2)
    # / (mu beta (mu+beta)) > 0, so the printed induction closes for every mu, beta > 0.
    gap = 5 * (mu + beta) / (mu * beta) - 8 / (mu + beta)
    assert sp.simplify(gap - (5 * mu**2 + 2 * mu * beta + 5 * beta**2) / (mu * beta * (mu + beta))) == 0
    it = ITEMS["zhang2017.lemma3"]
    assert it.evaluate("induction_requirement", _values(it)) == 1.0
    # base case 5L/(n(mu+beta)) <= 5L(mu+beta)/(n mu beta) since mu beta <= (mu+beta)^2
    assert it.evaluate("base_case", _values(it)) <= it.evaluate("bound", _values(it))


def test_lemma6_gamma_moment():
    # radial density r^(d-1) e^(-r/s): E r^2 = Gamma(d+2)/Gamma(d) s^2 = d(d+1) s^2; d = 3.
    r, s = sp.symbols("r s", positive=True)
    m2 = sp.integrate(r**4 * sp.exp(-r / s), (r, 0, sp.oo)) / sp.integrate(r**2 * sp.exp(-r / s), (r, 0, sp.oo))
    assert sp.simplify(m2 - 12 * s**2) == 0
    assert ITEMS["zhang2017.lemma6"].bound.subs({d: 3, Z.s_dens: s}) == 12 * s**2


def test_thm2_noise_terms_recomputed():
    # eps-DP: (beta/2) d(d+1) (Delta/eps)^2 with Delta = 5L(mu+beta)/(n mu beta) is
    # 25 L^2 (mu+beta)^2 d(d+1)/(2 n^2 eps^2 mu^2 beta): the printed term is exactly twice it.
    printed = 25 * L**2 * (mu + beta)**2 * (d + 1) * d / (n**2 * eps**2 * mu**2 * beta)
    exact = ITEMS["zhang2017.thm2"].expressions["noise_term_eps_exact"]
    assert sp.simplify(printed / exact - 2) == 0
    # (eps,delta): (beta/2) d * 2 log(2/delta) Delta^2/eps^2 = 25 L^2 (mu+beta)^2 d log(2/delta)
    # /(n^2 eps^2 mu^2 beta) -- the corrected item's noise term, linear in d.
    corr = ITEMS["zhang2017.thm2.approx.corrected"].bound - Z.EXP2
    hand = 25 * L**2 * (mu + beta)**2 * d * sp.log(2 / delta) / (n**2 * eps**2 * mu**2 * beta)
    assert sp.simplify(corr - hand) == 0
    assert sp.simplify(ITEMS["zhang2017.thm2"].expressions["noise_term_approx_exact"] - hand) == 0


def test_thm2_value_at_mu_equal_beta():
    # mu = beta = 1, L = D = 1: r = 1, so the exp term at T = 2 log X is D^2 beta/(2X) =
    # d^2/(2 n^2 eps^2); noise 25*4*d(d+1)/(n^2 eps^2). n = 1e4, d = 16, eps = 0.5:
    # (128 + 27200)/(1e8 * 0.25) = 1.09312e-3.
    it = ITEMS["zhang2017.thm2"]
    v = it.evaluate("bound", {"n": 1e4, "d": 16, "eps": 0.5, "mu": 1, "beta": 1, "G": 1, "D": 1})
    assert v == pytest.approx((128 + 27200) / (1e8 * 0.25), rel=1e-12)


def test_thm2_approx_printed_noise_is_quadratic_in_d():
    # d-exponent of the printed (eps,delta) bound at the settings: 2 (noise term (d+1)d),
    # vs 1 in the printed rate.
    s = sp.Symbol("s", positive=True)
    it = ITEMS["zhang2017.thm2.approx"]
    fixed = {n: 10**6, eps: sp.Rational(1, 2), delta: sp.Rational(1, 10**5), mu: sp.Rational(1, 10),
             beta: 2, L: 1, D: 1}
    noise = (it.bound - Z.EXP2).subs(fixed)
    assert sp.limit(sp.log(noise.subs(d, s)) / sp.log(s), s, sp.oo) == 2
    assert sp.limit(sp.log(it.rate.subs(fixed).subs(d, s)) / sp.log(s), s, sp.oo) == 1


def test_thm3_ratio_at_printed_T():
    # At T = (beta^2 n^2 eps^2 D^2/(L^2 d^2))^(1/3): bound/rate = 2 + 9(d+1)/(2d).
    it = ITEMS["zhang2017.thm3.eps"]
    val = {"n": 1e4, "d": 16, "eps": 0.5, "beta": 2.0, "G": 1.0, "D": 1.5}
    ratio = it.evaluate("bound", val) / it.evaluate("rate", val)
    assert ratio == pytest.approx(2 + 9 * 17 / 32, rel=1e-10)
    # (eps,delta): bound/rate = 2 + 9 log(2/delta)/log(1/delta)
    it = ITEMS["zhang2017.thm3.approx"]
    val["delta"] = 1e-5
    ratio = it.evaluate("bound", val) / it.evaluate("rate", val)
    assert ratio == pytest.approx(2 + 9 * math.log(2e5) / math.log(1e5), rel=1e-10)


def test_thm3_minimizer_over_T():
    # A/T + B T^2 is minimal at T* = (A/(2B))^(1/3) with value (3/2) A/T*; for the eps-DP
    # bound that is 3 (9/2)^(1/3) beta^(1/3) L^(2/3) D^(4/3) (d(d+1))^(1/3)/(n eps)^(2/3).
    it = ITEMS["zhang2017.thm3.eps"]
    Topt = it.expressions["T_opt"]
    assert sp.simplify(sp.diff(it.bound, T).subs(T, Topt)) == 0
    vmin = it.bound.subs(T, Topt)
    hand = (3 * sp.Rational(9, 2)**sp.Rational(1, 3) * beta**sp.Rational(1, 3) * L**sp.Rational(2, 3)
            * D**sp.Rational(4, 3) * (d * (d + 1))**sp.Rational(1, 3) / (n * eps)**sp.Rational(2, 3))
    pt = {n: 12345, d: 7, eps: sp.Rational(3, 10), beta: sp.Rational(5, 2), L: sp.Rational(3, 2), D: 2}
    assert float(vmin.subs(pt)) == pytest.approx(float(hand.subs(pt)), rel=1e-12)
    it = ITEMS["zhang2017.thm3.approx"]
    Topt = it.expressions["T_opt"]
    assert sp.simplify(sp.diff(it.bound, T).subs(T, Topt)) == 0


def test_thm3_exponents_at_settings():
    # Exponents of the eps-DP bound at the printed T: n^(-2/3), d^(2/3), eps^(2/3)... i.e.
    # (d/(n eps))^(2/3) up to (d+1)/d -> 1.
    s = sp.Symbol("s", positive=True)
    it = ITEMS["zhang2017.thm3.eps"]
    b = it.bound.subs(T, it.settings[T])
    base = {beta: 2, L: 1, D: 1}
    for var, want in ((n, sp.Rational(-2, 3)), (d, sp.Rational(2, 3)), (eps, sp.Rational(-2, 3))):
        others = {n: 10**4, d: 16, eps: sp.Rational(1, 2)}
        others.pop(var)
        e = sp.limit(sp.log(b.subs(base).subs(others).subs(var, s)) / sp.log(s), s, sp.oo)
        assert e == want, var


def test_thm3_remarks_reg_is_minimum():
    # mu R^2/2 + C/mu at mu = sqrt(2C)/R equals sqrt(2C) R = sqrt(2) * printed rate.
    it = ITEMS["zhang2017.thm3.remarks.reg"]
    at = it.bound.subs(mu, it.settings[mu])
    assert sp.simplify(at / it.rate - sp.sqrt(2)) == 0
    C = L * sp.sqrt(beta * d) / (n * eps * Z.gam)
    assert sp.simplify(sp.diff(mu * Z.Rb**2 / 2 + C / mu, mu).subs(mu, it.settings[mu])) == 0


def test_thm3_remarks_generalization_regime():
    # (sqrt(d)/(n eps))^(2/3) <= n^(-1/2) iff d <= eps^2 sqrt(n): with d < n it can fail:
    # n = 1e6, d = 1e5 (< n), eps = 1: (316/1e6)^(2/3) = 4.6e-3 > 1e-3.
    it = ITEMS["zhang2017.thm3.remarks"]
    pt = {"n": 1e6, "d": 1e5, "eps": 1.0}
    assert it.evaluate("below_generalization_approx", pt, apply_settings=False) == 0.0
    assert it.evaluate("below_generalization_approx_iff", pt, apply_settings=False) == 0.0
    pt = {"n": 1e6, "d": 500, "eps": 1.0}       # d <= sqrt(n) = 1000
    assert it.evaluate("below_generalization_approx", pt, apply_settings=False) == 1.0


def test_thm5_step_branch_and_variance():
    it = ITEMS["zhang2017.thm5"]
    sig, DF = Z.sig, Z.DF
    # at eta = DF/(sigma n): beta(DF^2 + DF^2)/(n^2 eta (2 - beta eta)) = 2 beta DF sigma/(n(2 - beta eta))
    e = DF / (sig * n)
    assert sp.simplify(it.bound.subs(eta, e) - 2 * beta * DF * sig / (n * (2 - beta * e))) == 0
    # sigma^2 = 4L^2 + d s^2, s^2 = 4 L^2 log(3n/delta) log(2/delta)/eps^2 (Alg. 2 density)
    assert sp.simplify(it.expressions["sigma2"] - it.expressions["variance_recomputed"]) == 0
    # the proof sketch's 4L^2 + 8L^2 l/eps^2 equals it at d = 2 and is smaller for d >= 3
    diff = it.expressions["variance_proof_sketch"] - it.expressions["variance_recomputed"]
    assert sp.simplify(diff.subs(d, 2)) == 0
    assert it.evaluate("proof_sketch_variance_covers_noise", _values(it)) == 0.0


def test_thm5_slope_in_n():
    # For large n the bound ~ beta DF sigma/n, sigma ~ sqrt(log(3n/delta)): slope in n -> -1.
    it = ITEMS["zhang2017.thm5"]
    base = {"d": 16, "eps": 0.5, "delta": 1e-5, "G": 1.0, "beta": 2.0, "DF": 0.8}
    b1 = it.evaluate("bound", {**base, "n": 1e6})
    b2 = it.evaluate("bound", {**base, "n": 1e8})
    slope = math.log(b2 / b1) / math.log(100)
    assert -1.0 < slope < -0.95


def test_thm6_pieces_match_lemma4():
    it = ITEMS["zhang2017.thm6"]
    ex = it.expressions
    # (3) = sqrt(3 log(3/g) n^2 * 4(eta - beta eta^2)^2 L^4), (4) = Lemma 4 with squared sigma_t^2
    vals = {eta: sp.Rational(1, 10), beta: 2}      # eta <= 1/beta
    for a, b in (("piece3_X", "lemma4_X_threshold"), ("piece4_Y", "lemma4_Y_threshold_from_squared")):
        assert sp.simplify((ex[a] - ex[b]).subs(vals)) == 0, a
    # a = 1/(1 - exp(-2/d)) ~ d/2
    dd = sp.Symbol("dd", positive=True)
    assert sp.limit(ex["a"].subs(d, dd) / dd, dd, sp.oo) == sp.Rational(1, 2)
    # the squared sigma_t^2 meets the sub-Gaussian requirement 2 tau^2/(1 - e^-2) since
    # 2a >= 2/(1 - e^-2) for d >= 1
    assert it.evaluate("subgaussian_squared", _values(it)) == 1.0


def test_thm6_slope_in_n():
    it = ITEMS["zhang2017.thm6"]
    base = {"d": 16, "eps": 0.5, "delta": 1e-5, "G": 1.0, "beta": 2.0, "DF": 0.8, "gam": 0.05}
    b1 = it.evaluate("bound", {**base, "n": 1e6})
    b2 = it.evaluate("bound", {**base, "n": 1e8})
    slope = math.log(b2 / b1) / math.log(100)
    assert -1.0 < slope < -0.95


def test_thm4_privacy_loss_tail_exceeds_claim():
    # One step: privacy loss ~ N(m, v), m = 2L^2/s^2, v = 4L^2/s^2, s^2 = 4L^2 l/eps^2,
    # l = log(3n/delta) log(2/delta). Claimed: P(C_t > eps/(2 sqrt(2 log(2/delta)))) <= delta/(2n).
    it = ITEMS["zhang2017.thm4"]
    nn, ee, dl = 1000.0, 1.0, 1e-5
    ell = math.log(3 * nn / dl) * math.log(2 / dl)
    m, sd = ee**2 / (2 * ell), ee / math.sqrt(ell)
    pt = {"n": nn, "eps": ee, "delta": dl, "G": 1.0}
    assert it.evaluate("privacy_loss_mean", pt, apply_settings=False) == pytest.approx(m, rel=1e-12)
    assert it.evaluate("privacy_loss_var", pt, apply_settings=False) == pytest.approx(sd**2, rel=1e-12)
    c1 = ee / (2 * math.sqrt(2 * math.log(2 / dl)))
    tail = norm.sf(c1, loc=m, scale=sd) + norm.cdf(-c1, loc=m, scale=sd)
    assert tail > 1e6 * dl / (2 * nn)          # about 0.06 vs 5e-9


def test_thm4_composition():
    # Dwork-Roth with c = eps/(n sqrt(2 log(2/delta))), T = n^2, delta' = delta/2:
    # sqrt(2 n^2 log(2/delta)) c = eps exactly, plus n^2 c (e^c - 1) ~ eps^2/(2 log(2/delta)).
    it = ITEMS["zhang2017.thm4"]
    pt = {"n": 1000.0, "eps": 1.0, "delta": 1e-5}
    c = 1.0 / (1000 * math.sqrt(2 * math.log(2e5)))
    want = 1.0 + 1e6 * c * math.expm1(c)
    assert it.evaluate("eps_comp_dwork_roth", pt, apply_settings=False) == pytest.approx(want, rel=1e-12)
    assert want == pytest.approx(1 + 1 / (2 * math.log(2e5)), rel=1e-4)
    assert it.evaluate("composition_dwork_roth", pt, apply_settings=False) == 0.0
    # printed Lemma 10: sqrt(2 n^2 log(2/delta) c) = sqrt(n eps sqrt(2 log(2/delta))) ~ 70.3
    printed = math.sqrt(2e6 * math.log(2e5) * c) + 1e6 * c * math.expm1(c)
    assert it.evaluate("eps_comp_printed_lemma10", pt, apply_settings=False) == pytest.approx(printed, rel=1e-12)
    assert printed > 70
    assert it.evaluate("delta_comp", pt, apply_settings=False) == pytest.approx(1e-5)


def test_thm1_gaussian_branch_large_eps():
    # Exact Gaussian curve, ratio k = Delta/s = eps/sqrt(2 log(2/delta)):
    # delta(eps) = Phi(k/2 - eps/k) - e^eps Phi(-k/2 - eps/k).
    it = ITEMS["zhang2017.thm1"]
    for ee, dl, fails in ((1.0, 1e-5, False), (10.0, 1e-5, True), (20.0, 1e-9, True)):
        k = ee / math.sqrt(2 * math.log(2 / dl))
        exact = norm.cdf(k / 2 - ee / k) - math.exp(ee) * norm.cdf(-k / 2 - ee / k)
        got = it.evaluate("gaussian_exact_delta", {"eps": ee, "delta": dl}, apply_settings=False)
        assert got == pytest.approx(exact, rel=1e-6)
        assert (exact > dl) == fails
        assert it.evaluate("gaussian_claim", {"eps": ee, "delta": dl}, apply_settings=False) == float(not fails)


def test_lemma9_corrected_large_eps():
    # log(1 + 0.01 (e^5 - 1)) = log(2.4741...) = 0.9059 > 2 * 0.01 * 5 = 0.1
    it = ITEMS["zhang2017.lemma9.corrected"]
    pt = {"eps": 5.0, "z17_alpha": 0.01, "delta": 1e-5}
    assert it.evaluate("eps_amplified", pt) == pytest.approx(math.log1p(0.01 * math.expm1(5.0)), rel=1e-12)
    assert it.evaluate("printed_form_valid", pt) == 0.0
    assert it.evaluate("printed_form_valid", {**pt, "eps": 1.0}) == 1.0


def test_lemma10_printed_vs_dwork_roth():
    # first terms: sqrt(2T log(1/d') eps) vs sqrt(2T log(1/d')) eps: ratio 1/sqrt(eps)
    pr = ITEMS["zhang2017.lemma10"].expressions["eps_prime"]
    co = ITEMS["zhang2017.lemma10.corrected"].expressions["eps_prime"]
    tail = T * eps * (sp.exp(eps) - 1)
    assert sp.simplify((pr - tail) / (co - tail) - 1 / sp.sqrt(eps)) == 0
    assert sp.simplify((pr - co).subs(eps, 1)) == 0


def test_lemma12_corrected_dominates_lemma11_at_step():
    # Corrected Lemma 11 at eta = min{1/beta, DF/(sigma sqrt T)} <= beta^2 DF^2/T + 2 beta DF sigma/sqrt T,
    # and the printed Lemma 12 is exactly the corrected one divided by beta.
    it = ITEMS["zhang2017.lemma12.corrected"]
    assert sp.simplify(it.bound - beta * ITEMS["zhang2017.lemma12"].bound) == 0
    for sig_v in (0.01, 1.0, 100.0):           # both branches of the min
        pt = {"T": 400, "beta": 2.0, "DF": 0.8, "z17_sig": sig_v, "D": 1.5}
        assert it.evaluate("lemma11_corrected_at_step", pt) <= it.evaluate("bound", pt) * (1 + 1e-12)
        # convex: Lemma 11(2) at the step <= beta D^2/T + (D^2/DF + DF) sigma/sqrt T
        l11 = ITEMS["zhang2017.lemma11"]
        e = min(1 / 2.0, 0.8 / (sig_v * 20))
        cvx = (1.5**2 + sig_v**2 * 400 * e**2) / (400 * (2 * e - 2.0 * e**2))
        assert l11.evaluate("convex_bound", {**pt, "eta": e}) == pytest.approx(cvx, rel=1e-12)
        assert cvx <= it.evaluate("convex_bound", pt) * (1 + 1e-12)


def test_alg2_uniform_round_distribution():
    assert sp.simplify(ITEMS["zhang2017.alg2"].expressions["P_k1_constant_step"] - 1 / n**2) == 0


def test_exp_table3_counts():
    # Hand count of Table 3: ours has lower error in all 40 rows; ours is faster in 39
    # (ADULT, mu = 0.1, eps = 2: 264.23 vs 257.23).
    ex = ITEMS["zhang2017.exp"].expressions
    assert (ex["rows"], ex["rows_lower_error"], ex["rows_faster"], ex["rows_both"]) == (40, 40, 39, 39)
    assert len(Z.TABLE2) == 5 and Z.TABLE2["ADULT"] == (32561, 110, "classification")


def test_dimension_findings():
    # Hand dimensional analysis ([F] loss, [w] parameter):
    # thm2.gen: L sqrt(beta d)/(n eps mu gamma) = [F/w][F^(1/2)/w]/[F/w^2] = [F]^(1/2);
    # thm3.remarks: printed mu = L^(1/2)(beta d)^(1/4)/R = [F]^(3/4)/[w]^2;
    # lemma11/12 part 1: [F] against ||grad F||^2 = [F]^2/[w]^2;
    # thm6: printed sigma_t^2 = [F]^2/[w] against Y_t^2 = [F]^2.
    flagged = {it.id for it in Z.ITEMS if check_dimensions(it)}
    assert flagged == {"zhang2017.thm2.gen", "zhang2017.thm3.remarks", "zhang2017.thm3.remarks.reg",
                       "zhang2017.lemma11", "zhang2017.lemma12", "zhang2017.thm6"}
    for cid in ("zhang2017.thm2.gen.corrected", "zhang2017.lemma11.corrected",
                "zhang2017.lemma12.corrected", "zhang2017.thm6.corrected",
                "zhang2017.thm2.approx.corrected"):
        assert not check_dimensions(ITEMS[cid]), cid
