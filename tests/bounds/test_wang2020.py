"""Tests of the wang2020 catalog (DP-TR / DP-STR).

Expected values are derived by hand in the comments (or computed independently with
scipy / brute force), never read off the module's output.
"""

from __future__ import annotations

import math

import numpy as np
import pytest
import sympy as sp
from scipy.stats import norm

from dptheory_bounds import wang2020 as W
from dptheory.symbolic import KINDS, PROVENANCE, S, registered, units
from tests.bounds import spec

ITEMS = {item.id: item for item in W.ITEMS}

# The specification's item index, Part III (29 ids).
CATALOG_IDS = [
    "wang2020.alg1", "wang2020.alg2", "wang2020.def1", "wang2020.intro.wang2019a",
    "wang2020.related", "wang2020.def2", "wang2020.def3", "wang2020.lemma1",
    "wang2020.lemma2", "wang2020.def4", "wang2020.lemma3", "wang2020.lemma4",
    "wang2020.lemma5", "wang2020.assump1", "wang2020.assump2", "wang2020.def5",
    "wang2020.def6", "wang2020.def7", "wang2020.eq3", "wang2020.lemma6", "wang2020.thm1",
    "wang2020.thm2", "wang2020.remark1", "wang2020.thm3", "wang2020.thm4",
    "wang2020.sec4.2.time", "wang2020.remark2", "wang2020.sec5.noise", "wang2020.sec5.exp",
]

p, n, eps, delta = S.d, S.n, S.eps, S.delta
G, M, rho, Delta, alpha, T = S.G, S.beta, S.rho, S.Fgap, S.alpha, S.T
s = sp.Symbol("s", positive=True)


def exponent(expr, var_map):
    """lim log(expr)/log(s) as s -> oo after substituting var_map (symbol -> power of s)."""
    e = sp.sympify(expr).subs(var_map)
    return sp.limit(sp.log(e) / sp.log(s), s, sp.oo)


def generic_values(item):
    vals = {info.symbol: info.example for info in registered().values()}
    return {k: v for k, v in vals.items() if k not in item.settings}


# --- 1. ids, kinds, provenance -----------------------------------------------------------
def test_catalog_ids_match_spec_index():
    assert spec.ids("wang2020") == CATALOG_IDS
    assert len(CATALOG_IDS) == 29


def test_every_catalog_id_present_and_unique():
    ids = [item.id for item in W.ITEMS]
    assert len(ids) == len(set(ids))
    missing = set(CATALOG_IDS) - set(ids)
    assert not missing, missing


def test_kinds_provenance_and_extras():
    for item in W.ITEMS:
        assert item.kind in KINDS and item.provenance in PROVENANCE
        assert item.paper == "wang2020"
        if item.id not in CATALOG_IDS:
            # dptheory's additions: a dotted suffix of a catalog id, not "printed"
            base = next(c for c in CATALOG_IDS if item.id.startswith(c + "."))
            assert base in item.refs
            assert item.provenance != "printed"
        else:
            # Part III carries no [reconstructed] tag: every catalog item is as printed
            assert item.provenance in ("printed", "literal")


def test_no_reconstructed_tags_in_part_iii():
    assert spec.tagged("wang2020") == {}


def test_derivable_items_have_lower_direction_where_sample_complexity():
    for item in W.ITEMS:
        if item.category == "sample-complexity" and item.bound is not None:
            assert item.direction == "lower"
            assert item.growing == {alpha: -1, p: 1, eps: -1}


# --- 2. evaluation at a generic point ----------------------------------------------------
@pytest.mark.parametrize("item", W.ITEMS, ids=lambda i: i.id)
def test_everything_evaluates_finite(item):
    values = generic_values(item)
    names = [w for w in ("bound", "rate") if getattr(item, w) is not None]
    names += list(item.expressions) + list(item.relations)
    for what in names:
        v = item.evaluate(what, values)
        assert math.isfinite(v), (item.id, what, v)


# --- 3. hand-derived expectations --------------------------------------------------------
l = sp.Symbol("l", positive=True)     # stands for ln(1/delta)


def test_thm1_zcdp_accounting_gives_exactly_eps():
    # Per step: grad rho = (2G/n)^2/(2*4G^2T/(n^2 phi)) = phi/(2T); Hessian the same with
    # (2 sqrt(p) M/n)^2 and 4pM^2T/(n^2 phi). Over T steps: phi. Lemma 3 at rho = phi:
    # phi + 2 sqrt(phi l) = (sqrt(phi) + sqrt(l))^2 - l = (eps + l) - l = eps.
    item = ITEMS["wang2020.thm1"]
    assert sp.simplify(item.expressions["rho_step_grad"] - W.phi / (2 * T)) == 0
    assert sp.simplify(item.expressions["rho_step_hess"] - W.phi / (2 * T)) == 0
    assert sp.simplify(item.expressions["zcdp_total"] - W.phi) == 0
    for e_ in (0.1, 1.0, 10.0):
        for d_ in (1e-9, 1e-5, 0.1):
            v = item.evaluate("eps_out", {eps: e_, delta: d_})
            assert v == pytest.approx(e_, rel=1e-10)


def test_thm2_T_and_r_are_dimensionally_consistent_and_reproduced():
    U = {rho: units.HESS_LIP, Delta: units.LOSS, alpha: units.GRAD}
    assert not sp.simplify(W.T_set.subs(U)).free_symbols   # T is a count
    assert sp.simplify(W.r_set.subs(U) - units.PARAM) == 0
    # sqrt(rho*alpha) is a Hessian eigenvalue: [F]/[w]^2
    assert sp.simplify(sp.sqrt(rho * alpha).subs(U) - units.SMOOTH) == 0
    # Model decrease lambda r^2/2 > alpha^1.5/(2 sqrt rho); minus ||e|| r (alpha/12),
    # ||H|| r^2/2 (sqrt(alpha rho)/6) and rho r^3/6: (1/2-1/12-1/12-1/6) = 1/6 per step.
    noise = ITEMS["wang2020.thm2.noise"]
    assert sp.simplify(noise.expressions["decrease_per_step"]
                       - alpha ** sp.Rational(3, 2) / (6 * sp.sqrt(rho))) == 0
    assert sp.simplify(noise.expressions["T_from_decrease"] - W.T_set) == 0


def test_thm2_printed_bound_exponents_and_dimension():
    # (5) = p ln(1/zeta) sqrt(ln 1/delta)/(alpha^1.75 eps): alpha^-7/4, p^1, eps^-1.
    b = ITEMS["wang2020.thm2"].bound.subs(ITEMS["wang2020.thm2"].settings)
    assert exponent(b, {alpha: 1 / s}) == sp.Rational(7, 4)
    assert exponent(b, {p: s}) == 1
    assert exponent(b, {eps: 1 / s}) == 1
    # the printed requirement is not dimensionless: (5) ~ ([w]/[F])^(7/4); the Omega hides
    # G, M, rho, Delta which restore it.
    dim = b.subs({alpha: units.GRAD}) / b.subs({alpha: 1})
    assert sp.simplify(dim - (units.W / units.F) ** sp.Rational(7, 4)) == 0


def test_thm2_success_probability_vacuous_for_small_alpha():
    # 1 - zeta - T/p^c with T = 6 sqrt(rho) Delta/alpha^1.5: rho = Delta = 1, p = 22, c = 1,
    # alpha = 0.1 gives T = 189.7 > 22, so the bound is negative.
    item = ITEMS["wang2020.thm2"]
    v = item.evaluate("p_success", {rho: 1, Delta: 1, alpha: 0.1, p: 22, W.c_u: 1,
                                    W.zeta: 0.05})
    assert v == pytest.approx(1 - 0.05 - 6 / 0.1 ** 1.5 / 22)
    assert v < 0


def test_thm2_noise_requirement_scalings():
    # n_grad ~ sqrt(T) sqrt(p)/(alpha sqrt(phi)) ~ sqrt(p) alpha^-7/4 / eps  (eps -> 0)
    # n_hess ~ p sqrt(T)/sqrt(alpha) ~ p alpha^-5/4 / eps
    item = ITEMS["wang2020.thm2.noise"]
    ng = item.expressions["n_grad"].subs(item.settings).subs(W.l, l)
    nh = item.expressions["n_hess"].subs(item.settings)
    assert exponent(nh, {alpha: 1 / s}) == sp.Rational(5, 4)
    assert exponent(nh, {p: s}) == 1
    assert exponent(ng, {p: s}) == sp.Rational(1, 2)
    assert exponent(ng, {alpha: 1 / s}) == sp.Rational(7, 4)   # log(1/alpha) is sub-power
    assert exponent(nh, {eps: 1 / s}) == 1
    # dimensionless (constants written out)
    U = {G: G * units.GRAD, M: M * units.SMOOTH, rho: rho * units.HESS_LIP,
         Delta: Delta * units.LOSS, alpha: alpha * units.GRAD}
    for e in (ng, nh):
        assert sp.simplify(e.subs(U, simultaneous=True) / e) == 1
    # the printed (5) is never below the derived requirement's shape: p alpha^-7/4 >=
    # sqrt(p) alpha^-7/4 and >= p alpha^-5/4 for p >= 1, alpha <= 1.
    for pv in (1, 16, 1024):
        for av in (1e-3, 0.1, 1.0):
            assert pv * av ** -1.75 >= max(pv ** 0.5 * av ** -1.75, pv * av ** -1.25)


def test_related_and_remark1_fixed_n_accuracy_is_5_solved_for_alpha():
    # n = p sqrt(l)/(alpha^(7/4) eps)  <=>  alpha = (p sqrt(l)/(n eps))^(4/7); [28]: 1/2.
    # (x^(4/7))^(7/4) = x for x > 0, so substituting back must return n.
    acc = ITEMS["wang2020.remark1"].bound.subs(W.l, l)
    n_of = ITEMS["wang2020.related"].bound.subs(W.l, l)
    assert sp.simplify(n_of.subs(alpha, acc) - n) == 0
    acc28 = ITEMS["wang2020.related"].expressions["alpha_fixed_n_28"].subs(W.l, l)
    n28 = ITEMS["wang2020.related"].expressions["n_28"].subs(W.l, l)
    assert sp.simplify(n28.subs(alpha, acc28) - n) == 0
    assert sp.simplify(acc - ITEMS["wang2020.related"].expressions["alpha_fixed_n"]
                       .subs(W.l, l)) == 0
    # improvement factor alpha^-2/alpha^-1.75 = alpha^-1/4
    f = ITEMS["wang2020.remark1"].expressions["improvement_factor"]
    assert sp.simplify(f - alpha ** sp.Rational(-1, 4)) == 0
    # fixed-n accuracy decays as n^-4/7
    assert exponent(acc, {n: s}) == sp.Rational(-4, 7)


def test_lemma1_composition_holds_on_grid():
    # sqrt(2T ln(2/delta)) eps' = eps/2 exactly; the second term T eps'(e^eps'-1) is about
    # eps^2/(8 ln(2/delta)) <= eps/2; deltas: T delta/(2T) + delta/2 = delta.
    item = ITEMS["wang2020.lemma1"]
    for e_ in (0.01, 0.5, 1.0):
        for d_ in (1e-9, 1e-3, 0.5, 1.0):
            for t_ in (1, 100, 10 ** 6):
                v = item.evaluate("eps_composed", {eps: e_, delta: d_, T: t_})
                epsp = e_ / (2 * math.sqrt(2 * t_ * math.log(2 / d_)))
                assert v == pytest.approx(e_ / 2 + t_ * epsp * math.expm1(epsp))
                assert v <= e_
    assert item.evaluate("delta_composed", {delta: 1e-5, T: 7}) == pytest.approx(1e-5)


def test_lemma2_fails_for_large_eps_and_holds_for_eps_le_1():
    # exact subsampled epsilon ln(1+gamma(e^eps-1)); gamma=0.1, eps=2: ln(1+0.1*6.389)
    # = 0.4940 > 0.4 = 2 gamma eps.
    item = ITEMS["wang2020.lemma2"]
    assert item.evaluate("eps_amplified_tight", {W.gam: 0.1, eps: 2}) == pytest.approx(
        math.log(1 + 0.1 * math.expm1(2)))
    assert item.evaluate("claim_vs_tight", {W.gam: 0.1, eps: 2}) == 0.0
    corr = ITEMS["wang2020.lemma2.corrected"]
    for g_ in (1e-3, 0.1, 0.5, 1.0):
        for e_ in (0.01, 0.5, 1.0):
            assert corr.evaluate("claim_vs_tight", {W.gam: g_, eps: e_}) == 1.0


def _gauss_delta(e_, sens, sd):
    return norm.cdf(sens / (2 * sd) - e_ * sd / sens) - math.exp(e_) * norm.cdf(
        -sens / (2 * sd) - e_ * sd / sens)


def test_def3_classic_calibration_fails_for_large_eps():
    item = ITEMS["wang2020.def3"]
    # exact privacy curve of N(0, sd^2) with sensitivity 1 at sd = sqrt(2 ln(1.25/delta))/eps
    sd = item.evaluate("sigma_calibrated", {W.Delta2: 1, delta: 1e-5, eps: 10})
    assert sd == pytest.approx(math.sqrt(2 * math.log(1.25e5)) / 10)
    assert _gauss_delta(10, 1, sd) > 1e-5
    # ... and holds for eps < 1 (the corrected hypothesis)
    for e_ in (0.05, 0.1, 0.5, 0.99):
        for d_ in (1e-9, 1e-5, 1e-3, 1e-2, 0.1):
            sd = math.sqrt(2 * math.log(1.25 / d_)) / e_
            assert _gauss_delta(e_, 1, sd) <= d_


def test_lemma3_lemma4():
    # zCDP of a Gaussian: Delta^2/(2 sigma^2); Lemma 3 at rho = phi returns eps.
    assert ITEMS["wang2020.lemma4"].evaluate("rho_of_sigma", {W.Delta2: 2, W.sigma_G: 4}) == \
        pytest.approx(4 / 32)
    v = ITEMS["wang2020.lemma3"].evaluate("eps_of_phi", {eps: 0.7, delta: 1e-6})
    assert v == pytest.approx(0.7, rel=1e-12)


def test_lemma6_strict_positive_definiteness_fails_in_hard_case():
    # H = diag(-1, 1), g = (0, 0.1), r = 1. Stationarity in coordinate 1 reads
    # (lambda - 1) h1 = 0; lambda > 1 would give ||h|| = 0.1/(1+lambda) < 1, violating
    # complementarity, so lambda = 1, h2 = -0.05, h1 = +-sqrt(1 - 0.0025), model value
    # -(1-0.0025)/2 + 0.0025/2 - 0.005 = -0.5025. H + lambda I = diag(0, 2): singular.
    H = np.diag([-1.0, 1.0])
    g = np.array([0.0, 0.1])
    th = np.linspace(0, 2 * np.pi, 40001)
    rad = np.linspace(0, 1, 51)[:, None]
    hs = np.stack([rad * np.cos(th), rad * np.sin(th)], axis=-1).reshape(-1, 2)
    vals = hs @ g + 0.5 * np.einsum("ij,jk,ik->i", hs, H, hs)
    best = hs[np.argmin(vals)]
    assert vals.min() == pytest.approx(-0.5025, abs=1e-6)
    assert abs(best[1] + 0.05) < 1e-3 and abs(abs(best[0]) - math.sqrt(0.9975)) < 1e-3
    lam_ = 1.0
    assert np.linalg.eigvalsh(H + lam_ * np.eye(2)).min() == pytest.approx(0.0)
    item = ITEMS["wang2020.lemma6"]
    assert item.evaluate("positive_definite", {W.lam_min: -1.0, W.lam: lam_}) == 0.0


def test_thm3_printed_gradient_noise_misses_factor_T():
    # Def. 3 inverted with delta0 = delta/(4T) (1.25*4T/delta = 5T/delta) and sensitivity
    # 2G/|S|, amplified by 2|S|/n: eps_step = 4G sqrt(2 ln(5T/delta))/(n sigma).
    # Printed sigma^2 = 256 G^2 ln(5T/delta) ln(2/delta)/(n eps)^2 gives
    # eps_step_grad = eps/(2 sqrt(2 ln(2/delta))) (no T), the Hessian eps' of Lemma 1.
    item = ITEMS["wang2020.thm3"]
    for e_, d_, t_ in ((0.5, 1e-5, 10), (0.9, 1e-9, 10 ** 5), (0.1, 0.3, 1)):
        at = {eps: e_, delta: d_, T: t_}
        assert item.evaluate("eps_step_grad", at) == pytest.approx(
            e_ / (2 * math.sqrt(2 * math.log(2 / d_))), rel=1e-12)
        assert item.evaluate("eps_step_hess", at) == pytest.approx(
            e_ / (2 * math.sqrt(2 * t_ * math.log(2 / d_))), rel=1e-12)
    # advanced composition (delta' = delta/2): sqrt(2 ln(2/delta) T (eg^2 + eh^2))
    # = (eps/2) sqrt(T + 1), plus T (eg (e^eg - 1) + eh (e^eh - 1)).
    for t_ in (4, 100, 10 ** 4):
        v = item.evaluate("eps_total", {eps: 0.5, delta: 1e-5, T: t_})
        eg = 0.5 / (2 * math.sqrt(2 * math.log(2e5)))
        eh = eg / math.sqrt(t_)
        expected = 0.25 * math.sqrt(t_ + 1) + t_ * (eg * math.expm1(eg) + eh * math.expm1(eh))
        assert v == pytest.approx(expected, rel=1e-10)
        assert v > 0.5                             # exceeds the claimed eps
    corr = ITEMS["wang2020.thm3.corrected"]
    for e_ in (0.1, 0.5, 0.99):
        for d_ in (1e-9, 1e-5, 0.1, 0.5):
            for t_ in (1, 100, 10 ** 6):
                v = corr.evaluate("eps_total", {eps: e_, delta: d_, T: t_})
                assert v <= e_
                assert v >= e_ / math.sqrt(2)


def test_thm4_subsample_requirement_outgrows_5():
    # |S| ~ alpha^-2 vs (5) ~ p alpha^-7/4 / eps: in 1/alpha the subsample wins.
    item = ITEMS["wang2020.thm4.corrected"]
    b = item.bound.subs(item.settings)
    assert exponent(b, {alpha: 1 / s}) == 2
    assert exponent(item.expressions["Ssz_min"], {alpha: 1 / s}) == 2
    assert exponent(item.expressions["n5_with_constants"], {alpha: 1 / s}) == sp.Rational(7, 4)
    # when p/eps grows as alpha^-1/4 or faster the (5) term leads: p = s^(1/2), alpha = 1/s
    assert exponent(b, {alpha: 1 / s, p: s ** sp.Rational(1, 2)}) == sp.Rational(9, 4)


def test_sec4_2_time_exponent():
    # T |S| = 6 sqrt(rho) Delta/alpha^1.5 * G^2 ln(p/zeta)/alpha^2 ~ alpha^-3.5
    item = ITEMS["wang2020.sec4.2.time"]
    b = item.bound.subs(item.settings).subs(item.settings)
    assert exponent(b, {alpha: 1 / s}) == sp.Rational(7, 2)
    assert exponent(b, {n: s}) == 0
    # DP-TR at the smallest n of (5): alpha^-1.5 * alpha^-1.75 = alpha^-3.25 < 3.5
    assert exponent(item.expressions["runtime_DPTR_at_min_n"], {alpha: 1 / s}) == \
        sp.Rational(13, 4)


def test_sec5_noise_printed_approximation_is_4x_leading_term():
    # phi = (sqrt(eps+l) - sqrt(l))^2 ~ eps^2/(4l): 4/phi ~ 16 l/eps^2, printed 64 l/eps^2.
    ratio = ITEMS["wang2020.sec5.noise"].expressions["ratio_exact_to_printed_approx"]
    ratio = ratio.subs(W.l, l)
    assert sp.limit(ratio, eps, 0) == sp.Rational(1, 4)
    corr = ITEMS["wang2020.sec5.noise.corrected"]
    for e_ in (0.1, 1, 10):
        for d_ in (1e-9, 1e-3):
            assert corr.evaluate("upper", {G: 1, T: 10, n: 100, eps: e_, delta: d_}) == 1.0


def test_remark1_printed_runtime_is_not_linear_in_n():
    item = ITEMS["wang2020.remark1"]
    e = item.expressions["runtime_TR_printed"]
    assert exponent(e, {n: s}) == W.Polyp          # n^Poly(p), not n^1
    corr = ITEMS["wang2020.remark1.corrected"]
    assert exponent(corr.expressions["ops_total"], {n: s}) == 1


def test_alg_noise_variances_have_gradient_and_hessian_units():
    phi_free = {eps: 1, delta: sp.Rational(1, 10)}
    U = {G: units.GRAD, M: units.SMOOTH}
    for key, unit in (("sigma2", units.GRAD_VAR), ("sigma2_H", units.SMOOTH ** 2)):
        for alg in ("wang2020.alg1", "wang2020.alg2"):
            e = ITEMS[alg].expressions[key].subs(phi_free)
            assert sp.simplify(e.subs(U) / e.subs({G: 1, M: 1}) - unit) == 0


def test_thm4_corrected_bound_is_dimensionless():
    # G (rho Delta^2)^(1/4) has dimension ([F]/[w])^(7/4), cancelling alpha^-7/4 of (5).
    U = {G: G * units.GRAD, M: M * units.SMOOTH, rho: rho * units.HESS_LIP,
         Delta: Delta * units.LOSS, alpha: alpha * units.GRAD}
    b = ITEMS["wang2020.thm4.corrected"].bound
    for term in sp.Add.make_args(sp.expand(b)):
        assert sp.simplify(term.subs(U, simultaneous=True) / term) == 1


def test_expected_file_is_consistent():
    from tests.bounds.expected_wang2020 import EXPECTED
    for key, exp in EXPECTED.items():
        assert ITEMS[key].derivable
        assert exp["verdict"] in ("agrees", "agrees-loose", "agrees-in-regime", "disagrees",
                                  "not-derivable")
        if exp["regime"] is not None:
            rel = sp.sympify(exp["regime"], locals={"d": p, "alpha": alpha, "eps": eps})
            assert rel.free_symbols <= {p, alpha, eps}
