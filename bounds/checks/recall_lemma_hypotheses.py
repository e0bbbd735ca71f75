"""Lemma hypotheses at the theorem's settings, over the theorem's whole domain.

A theorem's proof may apply a lemma whose hypotheses its own settings do not imply at every
admissible point. Where they fail and the theorem's bound is not vacuous (below the trivial
range of the measured quantity), the printed claim rests on a lemma applied outside its
hypotheses: a ``proof`` finding (the end claim is then undecided there). The search is dense
over integer and corner values the theorem admits, and every point is evaluated exactly
(mpmath, 50 digits).

tran2022 Theorem 9 applies Lemma 7 (momentum error of Algorithm 2), which assumes
``alpha >= 1/N`` and ``gamma <= 1/2``; the theorem sets ``gamma = eta N`` and states no
condition on it.
"""

from __future__ import annotations

import mpmath as mp
import sympy as sp

from dptheory import registry
from dptheory.verify import Check, CheckResult


@mp.workdps(50)      # local precision: a global setting leaks into other checks
def _tran2022_thm9_lemma7() -> CheckResult:
    item = registry.get("tran2022.thm9")
    f = sp.lambdify(sorted(item.bound.free_symbols, key=str), item.bound, "mpmath")
    names = [str(s) for s in sorted(item.bound.free_symbols, key=str)]
    rows, hits = [], []
    # eps N = k^(3/4) sqrt(d) makes T = k N an integer, gamma = k^(-1/2), alpha = 1/N exactly
    for k in (1, 2, 3):
        for N in (100, 1000, 10_000, 100_000):
            for d in (1, 16, 10_000):
                for delta in (mp.mpf("1e-5"), mp.mpf("0.5"), mp.mpf("0.99"), mp.mpf("0.9999"),
                              mp.mpf("0.999999")):
                    eps = mp.mpf(k) ** mp.mpf(0.75) * mp.sqrt(d) / N
                    T = mp.mpf(N ** 7) ** (mp.mpf(1) / 3) * eps ** (mp.mpf(4) / 3) \
                        / mp.mpf(d) ** (mp.mpf(2) / 3)
                    eta = 1 / mp.sqrt(N * T)
                    gamma, alpha = eta * N, mp.mpf(N) ** 0.75 * eps / (T ** 0.75 * mp.sqrt(d))
                    eps_cond = eps <= T ** 0.75 * mp.sqrt(d) / mp.mpf(N) ** 0.75
                    env = {"G": 1, "beta": mp.mpf("0.001"), "Fgap": mp.mpf("0.001"), "n": N,
                           "d": d, "eps": eps, "delta": delta, "T": T}
                    bound = f(*[env[nm] for nm in names])
                    row = {"k": k, "N": N, "d": d, "delta": float(delta), "eps": float(eps),
                           "T": float(T), "gamma": float(gamma), "alpha_times_N": float(alpha * N),
                           "eps_condition": bool(eps_cond), "bound": float(bound)}
                    rows.append(row)
                    if gamma > 0.5 and alpha * N >= 1 - mp.mpf("1e-40") and eps_cond and bound < 1:
                        hits.append(row)
    ev = {"searched": len(rows), "non_vacuous_points_with_gamma_above_half": hits[:10],
          "deltas_of_the_points": sorted({h["delta"] for h in hits}),
          "count": len(hits),
          "instance": "G = 1 (so E||grad F|| <= 1, the trivial range), L = R = 0.001; eps N = "
                      "k^(3/4) sqrt(d) gives T = k N (an integer), gamma = eta N = k^(-1/2) > 1/2 "
                      "for k = 1, 2, 3, alpha = 1/N",
          "lemma_7": "Suppose alpha >= 1/N and gamma <= 1/2 (tran2022 Lemma 7); Theorem 9 sets "
                     "gamma = eta N = d^(1/3)/(eps N)^(2/3), <= 1/2 only when eps N >= 2^(3/2) "
                     "sqrt(d), and states no such condition",
          "constants_varied": ["delta: 1e-5 .. 1 - 1e-6", "N: 1e2 .. 1e5", "d: 1, 16, 1e4",
                               "L, R: 1e-3", "G: 1 (not varied: gamma = eta N does not "
                               "depend on G, and the hypothesis is about gamma)"]}
    if not hits:
        return CheckResult("inconclusive", "tran2022.thm9: wherever Lemma 7's gamma <= 1/2 fails "
                           f"at the {len(rows)} searched points, the bound is vacuous (>= G)", ev,
                           claim="hypotheses")
    h = hits[0]
    return CheckResult(
        "refuted", f"tran2022.thm9 applies Lemma 7 outside its hypotheses where its bound is not "
        f"vacuous: at N = {h['N']}, d = {h['d']}, eps = {h['eps']:.4g}, delta = {h['delta']} "
        f"(T = {h['T']:.6g}) gamma = eta N = {h['gamma']:.4g} > 1/2 while the printed bound is "
        f"{h['bound']:.4g} < G = 1 ({len(hits)} such points of {len(rows)}, all at delta in "
        f"{ev['deltas_of_the_points']}: a corner of the domain delta in (0, 1))", ev,
        claim="hypotheses", severity="notation", root="tran2022.thm9:lemma7-gamma",
        # a missing side condition: wherever gamma > 1/2 the printed bound is already >= G
        # unless delta > 0.995, where (eps, delta)-DP protects almost nothing (an independent
        # referee showed this in general, not only at the searched points)
        consequence="Theorem 9 needs eps N >= 2^(3/2) sqrt(d) (gamma <= 1/2) for Lemma 7, a side "
        "condition it does not state; without it the bound is unproven only where it says "
        "something at delta near 1 (> 0.995), where (eps, delta)-DP protects almost nothing")


CHECKS: list[Check] = [
    Check.of("tran2022.thm9", "lemma7-hypotheses", "property", _tran2022_thm9_lemma7,
             "Lemma 7's gamma <= 1/2 and alpha >= 1/N at Theorem 9's settings, where the bound "
             "is below the trivial range G"),
]

__all__ = ["CHECKS"]
