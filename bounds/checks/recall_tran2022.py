"""tran2022 Theorem 9 (utility of Algorithm 2) at its own settings, decided exactly.

Theorem 9 sets T = N^{7/3} eps^{4/3} / d^{2/3}, eta = 1/sqrt(N T), gamma = eta N, alpha = 1/N
(alpha = N^{3/4} eps/(T^{3/4} sqrt d) at that T) and states one hypothesis (eps <= T^{3/4}
sqrt(d)/N^{3/4}, which reads eps <= eps N at the settings). Its proof applies Lemma 5
(E||grad F(w_hat)|| <= 3R/(2 eta T) + 3 L eta/4 + 3 avg E||eps_t||) with
E||eps_t|| <= E||m_hat_t - m_t|| + E||m_t - grad F(w_t)|| and Lemma 7 for the first part.

Two exact decisions (mpmath, 50 digits, the catalog's printed expressions):

* ``T-below-1``: the settings give T < 1 at admitted (N, d, eps) (d > eps^2 N^{7/2}); there
  log2 T < 0, K = 16 log2 T log(1/delta) < 0 and the printed bound is negative, below the
  floor 0 of E||grad F||: false in every reading (no iteration is even run). The missing
  condition is the one Lemma 7's gamma <= 1/2 already asks for (gamma <= 1/2 gives
  T = N/gamma^2 >= 4N), so it shares that root.
* ``lemma7-constants``: Lemma 5 with avg E||eps_t|| >= 0 + Lemma 7's bound is the least the
  proof's route gives; where the printed bound is below it (with Lemma 7's hypotheses
  alpha >= 1/N, gamma <= 1/2 and T >= 2 holding), the printed bound does not follow from its
  proof: Theorem 9 writes K = 16 log2 T log(1/delta) where 3 x Lemma 7 carries
  16 log2 T sqrt(log(1/delta)), smaller only when delta <= 1/e.
"""

from __future__ import annotations

from typing import Any

import mpmath as mp
import sympy as sp

from dptheory import registry
from dptheory.verify import Check, CheckResult

#: root of the missing side condition of Theorem 9 (recall_lemma_hypotheses)
THM9_GAMMA_ROOT = "tran2022.thm9:lemma7-gamma"


def _f(expr: sp.Expr) -> tuple[Any, list[str]]:
    syms = sorted(expr.free_symbols, key=str)
    return sp.lambdify(syms, expr, "mpmath"), [str(s) for s in syms]


def thm9_at_settings(N: int, d: int, eps: Any, delta: Any, G: Any = 1, L: Any = 1,
                     R: Any = 1) -> dict[str, Any]:
    """Theorem 9's settings, its printed bound, and the least the proof's route (Lemma 5 with
    avg E||eps_t|| >= Lemma 7's bound) gives, at one point, in 50-digit arithmetic."""
    mp.mp.dps = 50
    eps, delta = mp.mpf(eps), mp.mpf(delta)
    T = mp.mpf(N) ** (mp.mpf(7) / 3) * eps ** (mp.mpf(4) / 3) / mp.mpf(d) ** (mp.mpf(2) / 3)
    eta = 1 / mp.sqrt(N * T)
    alpha = mp.mpf(N) ** mp.mpf(0.75) * eps / (T ** mp.mpf(0.75) * mp.sqrt(d))
    env = {"G": G, "beta": L, "Fgap": R, "n": N, "d": d, "eps": eps, "delta": delta, "T": T,
           "eta_n": eta, "alpha_m": alpha}
    f9, n9 = _f(registry.get("tran2022.thm9").bound)
    f7, n7 = _f(registry.get("tran2022.lemma7").bound)
    f5, n5 = _f(registry.get("tran2022.lemma5").bound)
    printed = f9(*[env[k] for k in n9])
    lemma7 = f7(*[env[k] for k in n7])
    route = f5(*[{**env, "tr22_errbar": lemma7}[k] for k in n5])
    return {"N": N, "d": d, "eps": float(eps), "delta": float(delta), "T": T, "gamma": eta * N,
            "alpha_times_N": alpha * N, "eps_condition": eps <= T ** mp.mpf(0.75) * mp.sqrt(d)
            / mp.mpf(N) ** mp.mpf(0.75), "printed": printed, "lemma7": lemma7, "route": route}


def _row(r: dict[str, Any]) -> dict[str, Any]:
    return {k: (float(v) if isinstance(v, mp.mpf) else bool(v) if k == "eps_condition" else v)
            for k, v in r.items()}


T_BELOW_1_POINTS = [(N, d, eps, "1e-5") for N in (2, 10, 100) for d in (10**4, 10**6, 10**8)
                    for eps in (1, 4)]


def _run_t_below_1(points=None) -> CheckResult:
    rows = [thm9_at_settings(*p) for p in (points or T_BELOW_1_POINTS)]
    hits = [r for r in rows if r["eps_condition"] and r["T"] < 1 and r["printed"] < 0]
    ev: dict[str, Any] = {
        "searched": [_row(r) for r in rows], "n_searched": len(rows), "n_negative": len(hits),
        "floor": "E||grad F(w_hat)|| >= 0",
        "instance": "G = L = R = 1 (the bound's sign does not depend on them: every term with "
                    "log2 T < 0 is negative and outweighs 6G/sqrt(N) + (3R/2 + 12L) ...)",
        "constants_varied": "N 2..100, d 1e4..1e8, eps 1 and 4, delta = 1e-5"}
    if not hits:
        return CheckResult("supported", "tran2022.thm9: the printed bound is >= 0 at every "
                           "searched point", ev, claim="upper-bound",
                           power={"statement": "exact (50 digits): a negative bound at an "
                                               "admitted point would be refuted"})
    h = hits[0]
    return CheckResult(
        "refuted", f"tran2022.thm9: at N = {h['N']}, d = {h['d']}, eps = {h['eps']:g}, delta = "
        f"{h['delta']:g} (its hypothesis eps <= T^(3/4) sqrt(d)/N^(3/4) holds) the settings give "
        f"T = {float(h['T']):.4g} < 1 and the printed bound is {float(h['printed']):.4g} < 0 = "
        f"the floor of E||grad F|| ({len(hits)} of {len(rows)} searched points)",
        ev, claim="upper-bound", severity="hypothesis", root=THM9_GAMMA_ROOT,
        consequence="Theorem 9 needs T >= 1 (d <= eps^2 N^(7/2)); the side condition Lemma 7 "
                    "needs, gamma <= 1/2 (eps N >= 2^(3/2) sqrt(d)), implies it and is missing "
                    "too. Where it fails the statement is false (negative) or vacuous; the "
                    "rate is unaffected.")


LEMMA7_POINTS = [(N, d, 1, delta) for N in (10**3, 10**4, 10**6) for d in (1, 100)
                 for delta in ("1e-5", "0.3", "0.5", "0.9", "0.99")]


def _run_lemma7_constants(points=None) -> CheckResult:
    rows = [thm9_at_settings(*p) for p in (points or LEMMA7_POINTS)]
    admitted = [r for r in rows if r["eps_condition"] and r["gamma"] <= mp.mpf(1) / 2
                and r["alpha_times_N"] >= 1 - mp.mpf("1e-40") and r["T"] >= 2]
    hits = [r for r in admitted if r["printed"] < r["route"]]
    ev: dict[str, Any] = {
        "searched": [_row(r) for r in rows], "n_admitted": len(admitted), "n_route_above": len(hits),
        "route": "3R/(2 eta T) + 3 L eta/4 + 3 x Lemma 7 (Lemma 5 with E||m_t - grad F|| >= 0)",
        "deltas_where_route_above": sorted({float(r["delta"]) for r in hits}),
        "n_route_above_with_printed_below_G": sum(1 for r in hits if r["printed"] < 1),
        "instance": "G = L = R = 1, eps = 1; admitted: Lemma 7's alpha >= 1/N and gamma <= 1/2, "
                    "T >= 2, Theorem 9's eps-condition",
        "constants_varied": "N 1e3..1e6, d 1 and 100, delta 1e-5..0.99"}
    if not hits:
        return CheckResult("supported", "tran2022.thm9: the printed bound is >= Lemma 5 + 3 x "
                           "Lemma 7 at every admitted point", ev, claim="upper-bound",
                           power={"statement": "exact (50 digits): a printed bound below the "
                                               "route's least value is refuted"})
    h = max(hits, key=lambda r: r["route"] / r["printed"])
    return CheckResult(
        "refuted", f"tran2022.thm9 does not follow from its proof at delta > 1/e: at N = {h['N']}, "
        f"d = {h['d']}, eps = {h['eps']:g}, delta = {h['delta']:g} (Lemma 7's hypotheses hold, "
        f"T = {float(h['T']):.4g}) Lemma 5 with 3 x Lemma 7 alone gives {float(h['route']):.5g} > the "
        f"printed {float(h['printed']):.5g} ({len(hits)} of {len(admitted)} admitted points, all at "
        f"delta in {ev['deltas_where_route_above']}, {ev['n_route_above_with_printed_below_G']} "
        "of them with a printed bound below G = 1, i.e. not vacuous); K = 16 log2 T log(1/delta) replaces "
        "Lemma 7's 16 log2 T sqrt(log(1/delta)), smaller only for delta <= 1/e",
        ev, claim="upper-bound", severity="proof", root="tran2022.thm9:lemma7-constants",
        consequence="The displayed bound of Theorem 9 is unproven for delta in (1/e, 1) (K "
                    "should carry sqrt(log(1/delta)) there, or max(1, log(1/delta))); for the "
                    "delta used in practice (< 1/e) the printed constants cover the route.")


CHECKS: list[Check] = [
    Check.of("tran2022.thm9", "T-below-1", "property", _run_t_below_1,
             "Theorem 9's settings at admitted (N, d, eps) with T < 1: the printed bound's sign"),
    Check.of("tran2022.thm9", "lemma7-constants", "property", _run_lemma7_constants,
             "printed bound vs Lemma 5 + 3 x Lemma 7 at the settings, delta 1e-5 .. 0.99"),
]

__all__ = ["CHECKS", "thm9_at_settings"]
