"""Output-level privacy of tran2022's Algorithm 1 (DP-NSGD): what the iterates release.

Theorem 4 (tran2022): "Suppose f(w, x) is G-Lipschitz ..., Algorithm 1 is (z, z/(2 sigma^2))-RDP
for all z. Consequentially, if delta >= exp(-eps), then with sigma >= 2 sqrt(log(1/delta))/eps,
Algorithm 1 is (eps, delta)-DP." Algorithm 1 returns w_1, ..., w_T with
w_{t+1} = w_t - eta m_hat_t / ||m_hat_t||, so the released step w_{t+1} - w_t gives the direction
u_t = m_hat_t / ||m_hat_t|| (t <= T - 1) by post-processing.

The instance (the only assumption of Theorem 4 is G-Lipschitz): N = 1, f(w, x) = G x <e_1, w>,
x in {-1, +1}, tree depth R = floor(log2 T) + 1. With one datum there is one permutation, and
every gradient is G x e_1, so m_hat_t = m_t + sum_{COMPOSE(1,t)} (1-alpha)^(t-z) zeta_[y,z] is a
Gaussian vector whose mean depends on x only through its first coordinate. Two cases:

* t = 2^k: COMPOSE(1, t) = {[1, t]}, so m_hat_t ~ N(G x (1 - beta^t) e_1, 16 alpha^2 G^2 sigma^2 V I);
* alpha = 1: (1 - alpha)^(t - z) vanishes except for the node ending at t, whose value is G x e_1,
  so u_1, ..., u_{T-1} are independent directions of N(G x e_1, 16 G^2 sigma^2 V I).

The direction of Z ~ N(m e_1, s^2 I_d) satisfies u_1/sqrt(1 - u_1^2) > k iff Z_1 > k ||Z_{2..d}||,
so P(u_1/sqrt(1 - u_1^2) > k) = E_Q[Phi(m/s - k sqrt(Q))] with Q ~ chi^2_{d-1}: a one-dimensional
integral of a function monotone in Q, bracketed here by its values at the ends of every cell of
a chi-square quantile grid (:func:`direction_tail`). Every event below is a threshold of that
statistic, so its probabilities under both neighbours are certified (up to float64 rounding of
the normal and chi-square CDFs, relative 1e-15, far below the bracket widths) and
P(S) - e^eps P'(S) is a certified lower bound on the delta(eps) of the release (post-processing).
"""

from __future__ import annotations

import math
from functools import lru_cache
from typing import Any

import numpy as np
from scipy import special, stats

from dptheory.privacy import tree
from dptheory.privacy.gaussian import gaussian_delta
from dptheory.verify import Check, CheckResult

from .privacy_accounting import minimise_over_order
from .privacy_tree import THM4_ALPHA_ROOT

#: root of the RDP -> (eps, delta) conversion finding of Theorem 4 (privacy_accounting)
THM4_CONVERSION_ROOT = "tran2022.thm4:rdp-conversion"
_CELLS = 4000                   # chi-square quantile cells of the bracket
_D = 1000                       # dimension of the instance
_T = 1024                       # iterations (R = 11 levels, V = 2047 at N = 1)


@lru_cache(maxsize=8)
def _chi2_cells(d: int, cells: int) -> tuple[np.ndarray, np.ndarray, float]:
    """Quantile grid of chi^2_{d-1}: nodes, cell masses, and the mass outside the grid."""
    chi = stats.chi2(d - 1)
    nodes = chi.ppf(np.linspace(1e-15, 1.0 - 1e-15, cells + 1))
    cdf = chi.cdf(nodes)
    return nodes, np.diff(cdf), float(cdf[0] + chi.sf(nodes[-1]))


def direction_tail(k: np.ndarray | float, shift: float, d: int,
                   cells: int = _CELLS) -> tuple[np.ndarray, np.ndarray]:
    """Certified bracket (lo, hi) of P(u_1 / sqrt(1 - u_1^2) > k), u = Z / ||Z||,
    Z ~ N(shift e_1, I_d).

    Parameters
    ----------
    k : thresholds (any real; u_1 / sqrt(1 - u_1^2) is increasing in u_1).
    shift : mean of Z_1 over the noise standard deviation.
    d : dimension, >= 2.
    cells : number of chi-square quantile cells; the bracket width shrinks like 1/cells.

    Notes
    -----
    P = E_Q[Phi(shift - k sqrt(Q))], Q = ||Z_{2..d}||^2 ~ chi^2_{d-1}; the integrand is monotone
    in Q, so on each cell it lies between its values at the cell's ends; the mass outside the
    grid counts 0 in ``lo`` and 1 in ``hi``.
    """
    if d < 2:
        raise ValueError(f"d must be >= 2, got {d}")
    nodes, mass, outside = _chi2_cells(d, cells)
    k = np.atleast_1d(np.asarray(k, dtype=float))
    f = special.ndtr(shift - np.outer(k, np.sqrt(nodes)))
    a, b = f[:, :-1], f[:, 1:]
    lo = np.minimum(a, b) @ mass
    hi = np.maximum(a, b) @ mass + outside
    return np.clip(lo, 0.0, 1.0), np.clip(hi, 0.0, 1.0)


def single_direction_delta(eps: float, shift: float, d: int,
                           ks: np.ndarray) -> dict[str, float]:
    """Certified lower bound on delta(eps) of one released direction, neighbours +-shift:
    max over threshold events S = {u_1/sqrt(1-u_1^2) > k} of P_+(S)_lo - e^eps P_-(S)_hi."""
    p_lo, _ = direction_tail(ks, shift, d)
    _, q_hi = direction_tail(ks, -shift, d)
    lower = p_lo - math.exp(eps) * q_hi
    i = int(np.argmax(lower))
    return {"delta_lower": max(float(lower[i]), 0.0), "k": float(ks[i]), "P_plus_lo": float(p_lo[i]),
            "P_minus_hi": float(q_hi[i])}


def _bins(ks: np.ndarray, shift: float, d: int) -> tuple[np.ndarray, np.ndarray]:
    """Brackets of the masses of the bins (-inf, k_0], (k_0, k_1], ..., (k_m, inf) of
    u_1/sqrt(1 - u_1^2) for the direction of N(shift e_1, I_d)."""
    t_lo, t_hi = direction_tail(ks, shift, d)
    lo = np.concatenate([[1.0 - t_hi[0]], t_lo[:-1] - t_hi[1:], [t_lo[-1]]])
    hi = np.concatenate([[1.0 - t_lo[0]], t_hi[:-1] - t_lo[1:], [t_hi[-1]]])
    return np.maximum(lo, 0.0), np.minimum(hi, 1.0)


def cantelli_delta(eps: float, p_lo: np.ndarray, p_hi: np.ndarray, q_lo: np.ndarray,
                   q_hi: np.ndarray, n_units: int) -> dict[str, float]:
    """Certified lower bound on delta(eps) of ``n_units`` independent copies of a finite
    mechanism whose outcome masses are bracketed: P in [p_lo, p_hi], P' in [q_lo, q_hi].

    With L the summed log-likelihood ratio and S = {L >= tau}: P'(S) = E_P[e^-L; S] <=
    e^-tau P(S), so delta(eps) >= P(S) (1 - e^(eps - tau)); Cantelli's inequality gives
    P(S) >= 1 - Var L / (Var L + (E L - tau)^2) for tau < E L, with E L bounded below and
    Var L above by interval arithmetic on the brackets.
    """
    if not ((p_lo > 0).all() and (q_lo > 0).all()):
        raise ValueError("an outcome has no certified mass: choose thresholds inside the support")
    l_lo, l_hi = np.log(p_lo / q_hi), np.log(p_hi / q_lo)
    m1_lo = float(np.sum(np.minimum(p_lo * l_lo, p_hi * l_lo)))
    m1_hi = float(np.sum(np.maximum(p_lo * l_hi, p_hi * l_hi)))
    m2_hi = float(np.sum(p_hi * np.maximum(l_lo ** 2, l_hi ** 2)))
    mean_lo = n_units * m1_lo
    var_hi = n_units * (m2_hi - max(m1_lo, 0.0) ** 2)
    best = {"delta_lower": 0.0, "tau": float("nan"), "P_S_lo": 0.0}
    if mean_lo > eps:
        for tau in np.linspace(eps, mean_lo, 2001)[1:-1]:
            p_s = 1.0 - var_hi / (var_hi + (mean_lo - tau) ** 2)
            v = p_s * (1.0 - math.exp(eps - tau))
            if v > best["delta_lower"]:
                best = {"delta_lower": float(v), "tau": float(tau), "P_S_lo": float(p_s)}
    return {**best, "E_L_lo": mean_lo, "E_L_hi": n_units * m1_hi, "Var_L_hi": var_hi,
            "outcomes": int(p_lo.size), "max_outcome_bracket": float(np.max(p_hi - p_lo))}


def composed_directions_delta(eps: float, shift: float, d: int, n_steps: int,
                              ks: np.ndarray) -> dict[str, float]:
    """Certified lower bound on delta(eps) of ``n_steps`` independent directions of
    N(+-shift e_1, I_d), quantised into the bins cut by ``ks`` (post-processing), by
    :func:`cantelli_delta`."""
    p_lo, p_hi = _bins(ks, shift, d)
    q_lo, q_hi = _bins(ks, -shift, d)
    return cantelli_delta(eps, p_lo, p_hi, q_lo, q_hi, n_steps)


def epoch_pairs_delta(eps: float, shift: float, d: int, n_epochs: int,
                      ks: np.ndarray) -> dict[str, float]:
    """As :func:`composed_directions_delta` for N = 2, data (0, +-1): each epoch releases two
    directions, one of N(+-shift e_1, I) and one of N(0, I) in uniformly random order, so
    an epoch's binned pair has mass (P_j P0_k + P0_j P_k)/2; epochs are independent."""
    a_lo, a_hi = _bins(ks, shift, d)
    b_lo, b_hi = _bins(ks, -shift, d)
    z_lo, z_hi = _bins(ks, 0.0, d)

    def pair(x: np.ndarray, z: np.ndarray) -> np.ndarray:
        return (0.5 * (np.outer(x, z) + np.outer(z, x))).ravel()
    return cantelli_delta(eps, pair(a_lo, z_lo), pair(a_hi, z_hi), pair(b_lo, z_lo),
                          pair(b_hi, z_hi), n_epochs)


def _sigma(eps: float, delta: float) -> float:
    return 2.0 * math.sqrt(math.log(1.0 / delta)) / eps          # Theorem 4's sigma, with equality


# ------------------------------------------------------------------ alpha < 1/N: one released step
A7_POINTS = ((3.0, 0.1), (12.0, 1e-5), (1.0, 0.5))
A7_ALPHA = 0.001
A7_STEP = 512                                                     # t = 2^9: COMPOSE(1, t) = {[1, t]}


def single_step_rows(alpha: float, points=A7_POINTS, T: int = _T, t: int = A7_STEP,
                     d: int = _D) -> list[dict[str, Any]]:
    """Theorem 4's points against the direction u_t (t a power of 2) Algorithm 1 releases at
    N = 1, f = G x <e_1, w>: u_t is the direction of N(G x (1 - beta^t) e_1, s^2 I),
    s = 4 alpha G sigma sqrt(V); neighbours x = +1, -1 (G cancels)."""
    if t & (t - 1) or not 1 <= t < T:
        raise ValueError(f"t must be a power of 2 below T, got t={t}, T={T}")
    R = T.bit_length()
    V = tree.participation_count_V(1, T, R)
    ks = np.linspace(-0.1, 0.3, 201)
    rows = []
    for eps, delta in points:
        sigma = _sigma(eps, delta)
        shift = (1.0 - (1.0 - alpha) ** t) / (4.0 * alpha * sigma * math.sqrt(V))
        r = single_direction_delta(eps, shift, d, ks)
        rdp_route_eps = minimise_over_order(1.0 / (2.0 * sigma ** 2), math.log(1.0 / delta))[0]
        rows.append({"eps": eps, "delta": delta, "sigma": sigma, "V": V,
                     "mu_of_Z": 2.0 * shift, "claimed_mu": 1.0 / sigma,
                     "delta_upper_gaussian_Z": gaussian_delta(eps, sigma=1.0, sensitivity=2.0 * shift),
                     "rdp_claim_implies_eps_delta": rdp_route_eps <= eps,
                     "rdp_route_eps": rdp_route_eps,
                     "violated": bool(r["delta_lower"] > delta), **r})
    return rows


def _run_small_alpha_output() -> CheckResult:
    rows = single_step_rows(A7_ALPHA)
    control = single_step_rows(1.0)                                # alpha = 1/N: the hypothesis
    ev: dict[str, Any] = {
        "instance": f"Algorithm 1, N = 1, f(w, x) = G x <e_1, w>, x in {{-1, +1}}, T = {_T}, "
                    f"R = {_T.bit_length()}, d = {_D}, alpha = {A7_ALPHA}, sigma = 2 sqrt(log(1/delta))/eps; "
                    f"released: the direction of w_{A7_STEP + 1} - w_{A7_STEP} (COMPOSE(1, {A7_STEP}) = "
                    f"{{[1, {A7_STEP}]}}), one of the T - 1 released steps",
        "event": "u_1 / sqrt(1 - u_1^2) > k, k optimised on a grid; probabilities bracketed over "
                 f"{_CELLS} chi-square quantile cells",
        "rows": rows, "control_alpha_1": control,
        "constants_varied": ["G: 1 (cancels: the mean shift of a release and its noise both "
                             "scale with G, so the released direction u_1 has a G-free law)",
                             "eps, delta: varied (rows)"]}
    bad = [r for r in rows if r["violated"]]
    unsound = [r for r in rows + control if r["delta_lower"] > r["delta_upper_gaussian_Z"] + 1e-9]
    if unsound:
        return CheckResult("inconclusive", "a certified lower bound exceeds the exact delta of "
                           "the Gaussian vector it is a function of: numerics unsound", ev)
    if not bad or any(r["violated"] for r in control):
        return CheckResult("inconclusive" if bad else "supported",
                           "no certified output-level violation of Theorem 4 at alpha < 1/N"
                           if not bad else "the attack also fires at alpha = 1/N (unexpected)",
                           ev, claim="privacy",
                           power={"statement": "certified lower bound on delta(eps) of one "
                                               "released step; a leak above delta is caught"})
    h = bad[0]
    rdp = [r for r in bad if r["rdp_claim_implies_eps_delta"]]
    return CheckResult(
        "refuted",
        f"tran2022.thm4 (no condition on alpha) at the output: with N = 1, alpha = {A7_ALPHA}, "
        f"T = {_T}, d = {_D}, eps = {h['eps']:g}, delta = {h['delta']:g} (delta >= e^-eps, sigma = "
        f"{h['sigma']:.4g}) the single released step w_{A7_STEP + 1} - w_{A7_STEP} has certified "
        f"delta(eps) >= {h['delta_lower']:.4f} > {h['delta']:g} (all {len(bad)}/{len(rows)} points "
        f"violated; {len(rdp)} of them are points where the printed RDP curve implies (eps, delta), "
        "so the RDP statement is false too); at alpha = 1/N = 1 the same attack gives "
        f"{control[0]['delta_lower']:.3g}",
        ev, claim="privacy", severity="hypothesis", root=THM4_ALPHA_ROOT,
        consequence="Algorithm 1's iterates are not (eps, delta)-DP, nor (z, z/(2 sigma^2))-RDP, "
                    "for alpha < 1/N, which Theorem 4 allows: the theorem needs the hypothesis "
                    "alpha >= 1/N (its Prop. 13 uses it). Theorem 6 sets alpha = 1/N and is not "
                    "affected.")


# ------------------------------------------------------------------ alpha = 1: T - 1 directions
A1_POINTS = ((60.0, 0.5), (80.0, 0.5))
A1_SOUND_POINTS = ((20.0, 0.5), (40.0, 0.5))


def composed_rows(points=A1_POINTS, T: int = _T, d: int = _D) -> list[dict[str, Any]]:
    """Theorem 4's points against the T - 1 released directions at N = 1, alpha = 1 (each the
    direction of N(G x e_1, 16 G^2 sigma^2 V I), independent), with the exact Gaussian delta
    of the whole node tree (a certified upper bound: the iterates are its post-processing;
    every one of its 2T - 1 nodes moves by 2G at alpha = 1, so mu^2 = (2T - 1)/(4 sigma^2 V))."""
    R = T.bit_length()
    V = tree.participation_count_V(1, T, R)
    ks = np.linspace(-0.2, 0.2, 161)
    rows = []
    for eps, delta in points:
        sigma = _sigma(eps, delta)
        shift = 1.0 / (4.0 * sigma * math.sqrt(V))
        r = composed_directions_delta(eps, shift, d, T - 1, ks)
        n_nodes = sum(T >> b for b in range(R))
        mu_tree = math.sqrt(n_nodes) * 2.0 * shift
        rows.append({"eps": eps, "delta": delta, "sigma": sigma, "V": V,
                     "delta_upper_tree": gaussian_delta(eps, sigma=1.0, sensitivity=mu_tree),
                     "violated": bool(r["delta_lower"] > delta), **r})
    return rows


A1_N2_POINTS = ((200.0, 0.5),)


def epoch_pair_rows(points=A1_N2_POINTS, T: int = _T, d: int = _D) -> list[dict[str, Any]]:
    """Theorem 4's points against Algorithm 1 at N = 2, alpha = 1 (= 2/N), data (0, +-1) on
    f = G x <e_1, w> (x in [-1, 1]): the (T - 1) // 2 complete epochs of released directions."""
    R = T.bit_length()
    V = tree.participation_count_V(2, T, R)
    ks = np.linspace(-0.2, 0.2, 81)
    rows = []
    for eps, delta in points:
        sigma = _sigma(eps, delta)
        shift = 1.0 / (4.0 * sigma * math.sqrt(V))
        n_epochs = (T - 1) // 2
        r = epoch_pairs_delta(eps, shift, d, n_epochs, ks)
        # upper bound: given the permutations, the epochs release n_epochs Gaussian vectors
        # with mean +-shift e_1 (joint convexity of the hockey-stick over the shuffle)
        mu = math.sqrt(n_epochs) * 2.0 * shift
        rows.append({"N": 2, "eps": eps, "delta": delta, "sigma": sigma, "V": V,
                     "delta_upper_tree": gaussian_delta(eps, sigma=1.0, sensitivity=mu),
                     "violated": bool(r["delta_lower"] > delta), **r})
    return rows


def _run_conversion_output() -> CheckResult:
    rows = composed_rows()
    rows_n2 = epoch_pair_rows()
    control = composed_rows(A1_SOUND_POINTS)
    ev: dict[str, Any] = {
        "instance": f"Algorithm 1, N = 1, f(w, x) = G x <e_1, w>, x in {{-1, +1}}, alpha = 1 = 1/N, "
                    f"T = {_T}, R = {_T.bit_length()}, d = {_D}, sigma = 2 sqrt(log(1/delta))/eps; "
                    f"released: the {_T - 1} step directions of w_1..w_T (independent at alpha = 1)",
        "method": "160 threshold bins of u_1/sqrt(1-u_1^2) per step (bracketed over "
                  f"{_CELLS} chi-square cells), summed bin log-likelihood ratio L, event L >= tau, "
                  "Cantelli: delta >= (1 - Var L/(Var L + (E L - tau)^2)) (1 - e^(eps - tau))",
        "rows": rows, "rows_N2": rows_n2, "control_small_eps": control, "printed_condition": "delta >= exp(-eps) (holds at every row)",
        "constants_varied": ["G: 1 (cancels: the mean shift of each release and its noise "
                             "both scale with G, so the step directions have G-free laws)",
                             "eps: varied at delta = 0.5"]}
    bad = [r for r in rows if r["violated"] and r["delta"] >= math.exp(-r["eps"])]
    if any(r["delta_lower"] > r["delta_upper_tree"] + 1e-9 for r in rows + control + rows_n2):
        return CheckResult("inconclusive", "a certified lower bound exceeds the exact delta of "
                           "the node tree the iterates are computed from: numerics unsound", ev)
    if not bad:
        return CheckResult("supported", "no certified output-level violation of Theorem 4's "
                           "(eps, delta) claim at the rows", ev, claim="privacy",
                           power={"statement": "certified lower bound on the delta(eps) of the "
                                               "T - 1 released directions"})
    h = bad[0]
    return CheckResult(
        "refuted",
        f"tran2022.thm4 at the output, inside its printed condition delta >= exp(-eps): with "
        f"N = 1, alpha = 1 (= 1/N), T = {_T}, d = {_D}, eps = {h['eps']:g}, delta = {h['delta']:g}, "
        f"sigma = {h['sigma']:.4g}, the released iterates have certified delta(eps) >= "
        f"{h['delta_lower']:.3f} > {h['delta']:g} ({len(bad)}/{len(rows)} points; also at N = 2, "
        f"data (0, +-1), alpha = 1, eps = {rows_n2[0]['eps']:g}: delta >= "
        f"{rows_n2[0]['delta_lower']:.3f})",
        ev, claim="privacy", severity="hypothesis", root=THM4_CONVERSION_ROOT,
        consequence="Algorithm 1 itself is not (eps, delta)-DP where eps >> log(1/delta), which "
                    "the printed condition delta >= exp(-eps) admits (it points the wrong way; "
                    "the conversion needs delta <= exp(-c eps)). Only large eps is affected.")


CHECKS: list[Check] = [
    Check.of("tran2022.thm4", "output-alpha-below-1/N", "property", _run_small_alpha_output,
             "certified delta(eps) of one released step of Algorithm 1 at N = 1, alpha = 0.001 "
             "against Theorem 4's (eps, delta)"),
    Check.of("tran2022.thm4", "output-conversion-region", "property", _run_conversion_output,
             "certified delta(eps) of the T - 1 released steps at N = 1, alpha = 1, eps >> "
             "log(1/delta) (delta >= exp(-eps) holds)"),
]
