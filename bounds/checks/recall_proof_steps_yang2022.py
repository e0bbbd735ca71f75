"""yang2022's utility proof steps decided exactly: Lemma A.2 applies Lemma A.1 to a
Gaussian-perturbed step.

Lemma A.1 (Lemma C.4 of [25]) is the descent inequality of an (L0, L1)-generalized smooth
function, valid for ||w' - w|| <= 1/L1 under the restricted reading (R) of Definition 2.2
(the reading of [47] and [25]). Lemma A.2's proof ("Plug (13) and (14) into Lemma A.1")
applies it to w' = w_{t+1} = w_t - (eta/B)(sum of normalised gradients + sigma xi_t), whose
Gaussian part exceeds 1/L1 with positive probability for every eta sigma > 0. Exact
counterexample to (12): d = 1, one record, the loss f(x) = x^2/2 + (|x| - 1)_+^3/3, at
x_t = 0. Then ||grad f(x_t)|| = 0, the normalised gradient is 0, the right side of (12) is
(L0/2) eta^2 sigma^2/B^2 = s^2/2 (s = eta sigma/B), and the left side is
E f(s Z) = s^2/2 + E(|s Z| - 1)_+^3/3 > s^2/2 for every s > 0.

f meets the hypotheses: it is C^2 with f'' = 1 + 2(|x| - 1)_+ and |f'(x)| = |x| + (|x| -
1)_+^2 >= |x|; on a segment of length <= 1/2 from w, f'' <= 1 + 2(|w| - 1/2)_+ <= 1 + 2|f'(w)|,
so |f'(w) - f'(w')| <= (L0 + L1 |f'(w)|)|w - w'| with (L0, L1) = (1, 2) under reading (R)
(also checked on a grid below); f* = 0; a single record has no deviation (Assumption 2.2
with any tau0 > 0, tau1 = 0).
"""

from __future__ import annotations


import mpmath as mp
import numpy as np

from dptheory.verify import Check, CheckResult

L0, L1 = 1, 2


def f_cubic(x: float) -> float:
    """f(x) = x^2/2 + (|x| - 1)_+^3/3."""
    return x * x / 2 + max(abs(x) - 1, 0.0) ** 3 / 3


def _df(x: np.ndarray) -> np.ndarray:
    return x + np.sign(x) * np.maximum(np.abs(x) - 1, 0.0) ** 2


def restricted_smoothness_slack(n: int = 2001) -> float:
    """max over a grid of pairs with |w - w'| <= 1/L1 of |f'(w) - f'(w')| - (L0 + L1
    |f'(w)|) |w - w'| (<= 0 when f is (1, 2)-generalized smooth under reading (R))."""
    w = np.linspace(-6.0, 6.0, n)
    worst = -np.inf
    for h in np.linspace(-1 / L1, 1 / L1, 41):
        wp = w + h
        gap = np.abs(_df(w) - _df(wp)) - (L0 + L1 * np.abs(_df(w))) * abs(h)
        worst = max(worst, float(gap.max()))
    return worst


def expected_f_gaussian(s: float) -> mp.mpf:
    """E f(s Z), Z ~ N(0, 1): s^2/2 + (2/3) int_{1/s}^oo (s z - 1)^3 phi(z) dz (40 digits)."""
    with mp.workdps(40):
        s = mp.mpf(s)
        tail = mp.quad(lambda z: (s * z - 1) ** 3 * mp.npdf(z), [1 / s, 1 / s + 40])
        return s ** 2 / 2 + 2 * tail / 3


def yang2022_lemmaA2_step(noise: str = "gaussian") -> CheckResult:
    """(12) at x_t = 0 for steps s = eta sigma/B in {0.2, 0.5, 1, 2, 4}. ``noise="bounded"``
    (planted: a Rademacher step of the same variance, |step| = s <= 1/L1, inside Lemma
    A.1's radius) must satisfy (12)."""
    if noise not in ("gaussian", "bounded"):
        raise ValueError(f"noise must be 'gaussian' or 'bounded', got {noise!r}")
    rows = []
    steps = (0.2, 0.5, 1.0, 2.0, 4.0) if noise == "gaussian" else (0.1, 0.25, 0.5)
    for s in steps:
        lhs = expected_f_gaussian(s) if noise == "gaussian" else mp.mpf(f_cubic(s))
        rhs = mp.mpf(s) ** 2 / 2                     # (12): (L0 + L1*0)/2 * eta^2 sigma^2 d/B^2
        rows.append({"s=eta*sigma/B": s, "E f(w_t+1)": float(lhs), "rhs12": float(rhs),
                     "excess": float(lhs - rhs), "rhs12_times_2": float(2 * rhs),
                     "P(|step| > 1/L1)": float(2 * mp.ncdf(-1 / (L1 * mp.mpf(s))))
                     if noise == "gaussian" else 0.0})
    bad = [r for r in rows if r["excess"] > 0]
    ev = {"rows": rows, "noise": noise, "L0": L0, "L1": L1, "x_t": 0, "d": 1, "B": 1,
          "objective": "f(x) = x^2/2 + (|x| - 1)_+^3/3, one record",
          "restricted_smoothness_slack": restricted_smoothness_slack(),
          "independent_value": "E f(sZ) - s^2/2 = (2/3) int_{1/s}^oo (sz - 1)^3 phi(z) dz > 0"}
    if not bad:
        return CheckResult("supported", "(12) holds at x_t = 0 for every step of the grid", ev,
                           claim="upper-bound",
                           power={"statement": "40-digit quadrature; any positive excess "
                                               "over (12)'s right side is caught"})
    b = max(bad, key=lambda r: r["excess"])
    twice = [r for r in rows if r["E f(w_t+1)"] > r["rhs12_times_2"]]
    return CheckResult(
        "refuted", f"yang2022.lemmaA.2: (12) fails for f = x^2/2 + (|x|-1)_+^3/3 ((L0, L1) = "
        f"(1, 2), reading (R)) at x_t = 0: E f(w_(t+1)) exceeds the right side s^2/2 at every "
        f"s = eta sigma/B of the grid ({len(bad)}/{len(rows)}; at s = {b['s=eta*sigma/B']}: "
        f"{b['E f(w_t+1)']:.6g} > {b['rhs12']:.6g}; twice the right side is exceeded at "
        f"{len(twice)} rows): Lemma A.1 is applied to a Gaussian step that leaves its radius "
        f"1/L1 with positive probability", ev,
        claim="upper-bound", severity="proof", root="yang2022.lemmaA.2:descent-outside-radius",
        consequence="Lemma A.2's (12) is not justified under reading (R) of Definition 2.2 "
                    "(the excess is exponentially small at small eta sigma/B, so Theorem 3.2 "
                    "with its small step size (4) is not refuted); a truncation argument or the "
                    "global reading (G), which excludes this f, is needed. Reconstruction "
                    "caveat: the text strips the formulas of Definition 2.2 and Lemma A.1, so "
                    "whether they carry ||w - w'|| <= 1/L1 cannot be read from it; (R) is the "
                    "reading of the works they cite ([25], [47]) and under (G) (12) holds. The "
                    "refuted statement is dptheory's reconstruction, so this is listed with "
                    "dptheory's own items: a finding of the paper under reading (R), not a "
                    "defect of the catalog")


CHECKS: list[Check] = [
    Check.of("yang2022.lemmaA.2", "gaussian-step-outside-radius", "property",
             yang2022_lemmaA2_step,
             "exact E f(w_t+1) of one DP-NSGD step at a stationary point of an (1, 2)-smooth "
             "f against (12)"),
]

__all__ = ["CHECKS", "f_cubic", "restricted_smoothness_slack", "expected_f_gaussian",
           "yang2022_lemmaA2_step"]
