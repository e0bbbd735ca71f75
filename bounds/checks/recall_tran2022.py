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

from fractions import Fraction
from itertools import permutations, product
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
    # a local precision: the global mpmath context is shared with every other check
    with mp.workdps(50):
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
        "constants_varied": ["N: 2 .. 100", "d: 1e4 .. 1e8", "eps: 1, 4", "delta: 1e-5",
                             "G, L, R: 1 (not varied: a negative bound at one admitted instance refutes it; the instance note says why the sign does not depend on them)"]}
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
                and r["alpha_times_N"] >= 1 - 1e-12 and r["T"] >= 2]
    hits = [r for r in admitted if r["printed"] < r["route"]]
    ev: dict[str, Any] = {
        "searched": [_row(r) for r in rows], "n_admitted": len(admitted), "n_route_above": len(hits),
        "route": "3R/(2 eta T) + 3 L eta/4 + 3 x Lemma 7 (Lemma 5 with E||m_t - grad F|| >= 0)",
        "deltas_where_route_above": sorted({float(r["delta"]) for r in hits}),
        "n_route_above_with_printed_below_G": sum(1 for r in hits if r["printed"] < 1),
        "instance": "G = L = R = 1, eps = 1; admitted: Lemma 7's alpha >= 1/N and gamma <= 1/2, "
                    "T >= 2, Theorem 9's eps-condition",
        "constants_varied": ["N: 1e3 .. 1e6", "d: 1, 100", "delta: 1e-5 .. 0.99",
                             "G, L, R: 1 (not varied: a route above the printed bound at one admitted instance refutes the printed chain)"]}
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


# ------------------------------------------------------------------ Lemma 7 under reshuffling
EQ3_ROOT = "tran2022.eq3:identity-fresh-permutation"


def eq3_bias(N: int = 3, q: int = 2, r: int = 1, alpha: Fraction = Fraction(1, 3),
             gamma: Fraction = Fraction(1, 4), x: tuple[int, ...] = (1, 0, -1),
             fresh: bool = True) -> Fraction:
    """E over Algorithm 2's permutations of |alpha (RHS(3) - G_[1,t])|, t = qN + r, exactly,
    on f(w, x) = x w (gradient x at every w: every Delta-term is 0).

    G_[a,b] = sum_{s=a}^{b} (1-alpha)^{b-s} x at step s, step s = q_s N + r_s (r_s in [1, N])
    using permutation pi^{q_s}; ``fresh``: one permutation per epoch (Algorithm 2), else one
    permutation reused by every epoch. alpha G_[1,t] is the momentum m_t.
    """
    beta = 1 - alpha
    perms = list(permutations(range(N)))
    draws = product(perms, repeat=q + 1) if fresh else ((p,) * (q + 1) for p in perms)
    t, total, count = q * N + r, Fraction(0), 0
    for pi in draws:
        def G(a: int, b: int) -> Fraction:
            return sum((beta ** (b - s) * x[pi[(s - 1) // N][(s - 1) % N]]
                        for s in range(a, b + 1)), Fraction(0))
        rhs = beta ** (t - r) * G(1, r)
        rhs += sum(beta ** (N * i) * (1 - gamma) ** (q - i - 1) for i in range(q)) * G(r + 1, r + N)
        for i in range(1, q):                  # Delta-terms vanish: (1-gamma) 0 + gamma G
            c = sum((1 - gamma) ** j * beta ** ((i - 1 - j) * N) for j in range(i))
            rhs += c * gamma * G(t - i * N + 1, t - (i - 1) * N)
        total += abs(alpha * (rhs - G(1, t)))
        count += 1
    return total / count


def _run_lemma7_reshuffling() -> CheckResult:
    N, q, r, alpha, gamma = 3, 2, 1, Fraction(1, 3), Fraction(1, 4)
    t = q * N + r
    bias = eq3_bias(N, q, r, alpha, gamma)
    reused = eq3_bias(N, q, r, alpha, gamma, fresh=False)
    f7, n7 = _f(registry.get("tran2022.lemma7").bound)
    rows = []
    for eps, delta in ((1000, "0.5"), (5000, "1e-5"), (1, "1e-5")):
        env = {"G": 1, "beta": 0, "n": N, "d": 1, "eps": mp.mpf(eps), "delta": mp.mpf(delta),
               "T": t, "eta_n": mp.mpf(gamma.numerator) / (gamma.denominator * N),
               "alpha_m": mp.mpf(alpha.numerator) / alpha.denominator}
        with mp.workdps(50):
            rhs = f7(*[env[k] for k in n7])
        rows.append({"eps": eps, "delta": float(delta), "lemma7_rhs": float(rhs),
                     "contradicted": bool(rhs < mp.mpf(bias.numerator) / bias.denominator)})
    ev: dict[str, Any] = {
        "instance": f"f(w, x) = x w, x in (1, 0, -1) (G = 1, L = 0), d = 1, N = {N}, T = t = {t}, "
                    f"alpha = {alpha} (>= 1/N), gamma = {gamma} (<= 1/2), eta = gamma/N; m_hat_t "
                    "reconstructed by eq. (3) (Sec. 4; Algorithm 4 is not in the text)",
        "E_abs_bias_exact": str(bias), "E_abs_bias": float(bias),
        "E_abs_bias_reused_permutation": str(reused),
        "argument": "the noise is independent of the permutations and zero-mean, so "
                    "E||m_hat_t - m_t|| >= E|bias| (Jensen, conditionally on the permutations)",
        "rows": rows, "permutation_draws": 6 ** (q + 1)}
    bad = [row for row in rows if row["contradicted"]]
    if reused != 0 or not bad:
        return CheckResult("inconclusive" if reused else "supported",
                           "tran2022.lemma7: no contradiction from the reshuffling bias at the "
                           "rows" if not bad else "the bias is not 0 with a reused permutation",
                           ev, claim="upper-bound",
                           power={"statement": "exact (fractions): a bias above Lemma 7's RHS "
                                               "is refuted"})
    h = bad[0]
    return CheckResult(
        "refuted", f"tran2022.lemma7 under Algorithm 2's reshuffling: at N = {N}, t = {t}, alpha = "
        f"{alpha}, gamma = {gamma}, f(w, x) = x w, the reconstruction (3) is off by E|alpha (RHS - "
        f"G_[1,t])| = {bias} = {float(bias):.4f} exactly (0 with one reused permutation), so "
        f"E||m_hat_t - m_t|| >= {float(bias):.4f} > Lemma 7's {h['lemma7_rhs']:.4f} at eps = "
        f"{h['eps']}, delta = {h['delta']:g} ({len(bad)}/{len(rows)} rows; its RHS -> 0 as eps "
        "grows, the bias does not)",
        ev, claim="upper-bound", severity="proof", root=EQ3_ROOT,
        consequence="Lemma 7 bounds only the noise; the reshuffling bias of eq. (3) is not in it, "
                    "so the proof of Theorem 9 has a gap (Theorem 9 itself is not shown false; "
                    "assumes Algorithm 4, not in the text, implements (3) as Sec. 4 states).")


# ------------------------------------------------------------------ Algorithm 2's loop indices
def loop_steps(N: int, T: int, printed: bool = True) -> list[int]:
    """The values of t the loops produce, in order. ``printed``: Algorithm 2 ("for q = 0..
    floor(T/N): for r = 0..min{N-1, T-qN}: t <- qN + r"); else Algorithm 1's ("for i = 1..
    min{N, T-qN}: t <- qN + i")."""
    if N < 1 or T < 1:
        raise ValueError(f"N and T must be >= 1, got N={N}, T={T}")
    if printed:
        return [q * N + r for q in range(T // N + 1) for r in range(min(N - 1, T - q * N) + 1)]
    return [q * N + i for q in range(T // N + 1) for i in range(1, min(N, T - q * N) + 1)]


def _run_alg2_loop() -> CheckResult:
    grid = [(N, T) for N in range(1, 9) for T in range(1, 41)]
    bad = [(N, T, loop_steps(N, T)) for N, T in grid if loop_steps(N, T) != list(range(1, T + 1))]
    alg1_bad = [(N, T) for N, T in grid if loop_steps(N, T, printed=False) != list(range(1, T + 1))]
    ev: dict[str, Any] = {
        "grid": "N = 1..8, T = 1..40 (exhaustive)", "n_instances": len(grid),
        "n_not_1_to_T": len(bad), "algorithm1_loop_mismatches": len(alg1_bad),
        "claim": "Algorithm 2 runs the T steps t = 1..T (it returns w_1..w_T; Theorem 9 counts "
                 "T gradient evaluations; Lemma 5 averages over t = 1..T)"}
    if bad:
        N, T, steps = bad[0]
        ev["minimal"] = {"N": N, "T": T, "t_values": steps}
        ev["all_have_T_plus_1_steps_from_0"] = all(s == list(range(0, T + 1)) for _, T, s in bad)
    if not bad or alg1_bad:
        return CheckResult("supported" if not bad else "inconclusive",
                           "tran2022.alg2: the printed loop runs t = 1..T" if not bad else
                           "Algorithm 1's loop also mismatches (the enumeration is wrong)", ev,
                           claim="identity", power={"statement": "exhaustive over the grid"})
    N, T, steps = bad[0]
    return CheckResult(
        "refuted", f"tran2022.alg2: the printed loops run t = {steps} at N = {N}, T = {T}: "
        f"T + 1 iterations starting at t = 0 on all {len(bad)}/{len(grid)} instances (t = 0 "
        "makes 'for k = 0..floor(log2 t)' undefined and w_t = w_{t-1} refer to w_{-1}); "
        "Algorithm 1's loop (i = 1..min{N, T - qN}) gives t = 1..T on every instance",
        ev, claim="identity", severity="notation", root="tran2022.alg2:loop-from-0",
        consequence="a specification off-by-one (r should run 1..min{N, T - qN} as in "
                    "Algorithm 1); no effect on the rates")


# ------------------------------------------------------------------ Theorem 6 sketch's indices
def sketch_index(i: int, N: int) -> tuple[int, int]:
    """(q_i, r_i) as the Theorem 6 sketch defines them: q_i = floor(i/N), r = i - q_i N."""
    return i // N, i - (i // N) * N


def _run_thm6_index() -> CheckResult:
    grid = [(N, i) for N in range(1, 13) for i in range(1, 8 * N + 1)]
    # Algorithm 1: t = qN + i with i in [1, N]; the permutation index must be in [1, N]
    alg1 = {(N, i): ((i - 1) // N, (i - 1) % N + 1) for N, i in grid}
    bad = [(N, i, sketch_index(i, N), alg1[N, i]) for N, i in grid
           if not 1 <= sketch_index(i, N)[1] <= N]
    differ = [(N, i) for N, i in grid if sketch_index(i, N) != alg1[N, i]]
    ev: dict[str, Any] = {
        "grid": "N = 1..12, i = 1..8N (exhaustive)", "n_instances": len(grid),
        "n_r_outside_1_to_N": len(bad),
        "differs_from_algorithm1_exactly_at_multiples_of_N":
            sorted(differ) == sorted((N, i) for N, i in grid if i % N == 0)}
    if not bad:
        return CheckResult("supported", "tran2022.thm6: the sketch's r_i is a permutation index "
                           "in [1, N] at every step", ev, claim="identity",
                           power={"statement": "exhaustive over the grid"})
    N, i, sk, a1 = next(b for b in bad if b[0] > 1)
    ev["minimal"] = {"N": N, "i": i, "sketch_q_r": sk, "algorithm1_q_r": a1}
    return CheckResult(
        "refuted", f"tran2022.thm6 (proof sketch): q_i = floor(i/N), r = i - q_i N gives r = 0, "
        f"not a permutation index in [1, N], at i = {i}, N = {N} ((q, r) = {sk}; Algorithm 1 and "
        f"the Theorem 4 proof have {a1}); {len(bad)}/{len(grid)} steps, exactly the multiples of N",
        ev, claim="identity", severity="notation", root="tran2022.thm6:index-floor",
        consequence="notation: with the floor convention x_{pi^{q_i}_{r_i}} is undefined at "
                    "i = multiples of N, and 'w_{q_i N} is independent of the epoch's data' "
                    "fails there; Algorithm 1's r in [1, N] is the convention that works")


CHECKS: list[Check] = [
    Check.of("tran2022.thm9", "T-below-1", "property", _run_t_below_1,
             "Theorem 9's settings at admitted (N, d, eps) with T < 1: the printed bound's sign"),
    Check.of("tran2022.thm9", "lemma7-constants", "property", _run_lemma7_constants,
             "printed bound vs Lemma 5 + 3 x Lemma 7 at the settings, delta 1e-5 .. 0.99"),
    Check.of("tran2022.lemma7", "reshuffling-bias", "property", _run_lemma7_reshuffling,
             "exact reshuffling bias of eq. (3) (all permutation triples, N = 3) vs Lemma 7"),
    Check.of("tran2022.alg2", "loop-indices", "property", _run_alg2_loop,
             "the t values of Algorithm 2's printed loops vs 1..T, exhaustive N <= 8, T <= 40"),
    Check.of("tran2022.thm6", "index-convention", "property", _run_thm6_index,
             "the sketch's r = i - floor(i/N) N as a permutation index, exhaustive N <= 12"),
]

__all__ = ["CHECKS", "thm9_at_settings"]
