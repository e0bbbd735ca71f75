"""Satisfiability of assumption sets: a theorem whose assumptions admit no non-constant
function on the domain where its algorithm runs says nothing there.

Two sets of the catalog are decided analytically (the proof is in the evidence) and
illustrated numerically on the loss of the certified PL family:

* zhang2021 (Assumptions 2.1, 2.2, 2.4 with |f| <= 1, on R^d, no projection): an F_S that is
  mu-PL and either L-Lipschitz or bounded, and beta-smooth, on R^d is constant;
* zhang2017 Lemma 3 (mu-strongly convex and L-Lipschitz, gradient descent on R^d): no
  function satisfies both.
"""

from __future__ import annotations


import numpy as np

from dptheory.verify import Check, CheckResult


def _fmt(x: float) -> float:
    return float(f"{x:.6g}")


PL_ROOT = "zhang2021:pl-with-bounded-or-lipschitz-loss"

PL_PROOF = (
    "Let F be beta-smooth, mu-PL (2 mu (F - F*) <= ||grad F||^2, F* = min F) on R^d and either "
    "L-Lipschitz or bounded (|f| <= 1). (a) F is bounded above: by PL and ||grad F|| <= L, "
    "F - F* <= L^2/(2 mu); or |F| <= 1. (b) Gradient ascent x_{k+1} = x_k + grad F(x_k)/beta "
    "from any x_0 gives F(x_{k+1}) >= F(x_k) + ||grad F(x_k)||^2/(2 beta) (beta-smoothness), so "
    "sum_k ||grad F(x_k)||^2 <= 2 beta (sup F - F(x_0)) < oo and grad F(x_k) -> 0. (c) PL at "
    "x_k: F(x_0) - F* <= F(x_k) - F* <= ||grad F(x_k)||^2/(2 mu) -> 0. Hence F(x_0) = F* for "
    "every x_0: F is constant, its gradient is 0 and every excess empirical risk is 0.")


def _pl_illustration() -> dict:
    """The certified PL loss h(u) = u^2 + 3 sin^2 u (PL ratio h'^2/(2h) >= 0.1755 for all u)
    is not Lipschitz; the bounded loss tanh(h) (|f| <= 1, smooth) loses PL at infinity."""
    u = np.array([0.5, 1.0, 2.0, 4.0, 8.0, 16.0])
    h = u * u + 3 * np.sin(u) ** 2
    dh = 2 * u + 3 * np.sin(2 * u)
    b = np.tanh(h)
    db = dh / np.cosh(h) ** 2
    with np.errstate(under="ignore"):
        ratio_b = db ** 2 / (2 * b)
    return {"u": u.tolist(),
            "|h'(u)| (grows without bound: not Lipschitz)": [_fmt(v) for v in np.abs(dh)],
            "PL ratio of h, h'^2/(2h)": [_fmt(v) for v in dh ** 2 / (2 * h)],
            "PL ratio of tanh(h) (bounded, smooth)": [_fmt(v) for v in ratio_b],
            "reading": "h keeps PL but its gradient is unbounded; bounding it (tanh h, |f| <= 1) "
                       "sends the PL ratio to 0, as step (c) of the proof forces"}


def _zhang2021_pl(item: str) -> CheckResult:
    ev = {"proof": PL_PROOF, "illustration": _pl_illustration(),
          "assumptions_as_printed": "2.1: |f(w,z) - f(w',z)| <= L ||w - w'|| for all w, w' in "
                                    "R^d; 2.2: beta-smooth on R^d; 2.4: 2 mu (F_S(w) - min F_S) "
                                    "<= ||grad F_S(w)||^2 (no restriction on w); Sec. 2.1: "
                                    "|f| <= 1; Algorithm 2 runs on R^d without projection",
          "remark_1": "Remark 1 says PL 'only needs to hold locally' in a ball around the "
                      "optimum and the initial point; the theorems assume Assumption 2.4 as "
                      "stated, and the local reading would need the noisy iterates to stay in "
                      "the ball, which the paper does not show",
          "families": "every certified PL family of dptheory declares its Lipschitz constant on "
                      "a ball only (tests/bounds/test_recall_assumptions.py checks that each "
                      "leaves it: ||grad F|| > G outside)"}
    return CheckResult(
        "refuted", f"{item}: its assumptions (mu-PL, beta-smooth, and L-Lipschitz or |f| <= 1, "
        "on R^d) admit only a constant F_S (analytic proof by gradient ascent in the "
        "evidence), so its bound holds vacuously: excess empirical risk 0", ev,
        claim="hypotheses", severity="hypothesis", root=PL_ROOT,
        consequence="zhang2021's utility theorems say nothing about any non-constant loss: "
        "Assumption 2.4 must be local (Remark 1), and then the proofs need the iterates to stay "
        "where it holds, which they do not show")


def _zhang2017_lemma3() -> CheckResult:
    rows = []
    for mu, L in ((0.25, 1.0), (1.0, 1.0), (4.0, 0.25)):
        # f(w) = (mu/2) w^2 is mu-strongly convex; at |w| = 2 L/mu its gradient is 2 L > L
        w = 2 * L / mu
        rows.append({"mu": mu, "L": L, "w": _fmt(w), "|grad f(w)| of (mu/2)w^2": _fmt(mu * w),
                     "exceeds_L": mu * w > L})
    ev = {"proof": "For mu-strongly convex f on R^d with minimiser w* (it exists and is unique), "
                   "<grad f(w) - grad f(w*), w - w*> >= mu ||w - w*||^2 gives ||grad f(w)|| >= "
                   "mu ||w - w*||, which exceeds L once ||w - w*|| > L/mu: no f is both mu-"
                   "strongly convex and L-Lipschitz on R^d. Algorithm 1 is gradient descent on "
                   "R^d without projection, and Lemma 3 names no smaller domain",
          "rows": rows, "constants_varied": ["mu: 1/4, 1, 4", "L: 1/4, 1"],
          "theorem_2": "Theorem 2 assumes L-Lipschitz only on {||w|| <= 2D} with ||w_hat|| <= D, "
                       "and the appendix's proof of Lemma 3 argues that both runs stay in that "
                       "ball: that ball version is what is proved and used"}
    return CheckResult(
        "refuted", "zhang2017.lemma3: 'mu-strongly convex and L-Lipschitz' on R^d (gradient "
        "descent without projection) is satisfied by no function: ||grad f(w)|| >= mu ||w - w*||"
        " > L for ||w - w*|| > L/mu", ev, claim="hypotheses", severity="notation",
        root="zhang2017.lemma3:strongly-convex-and-lipschitz",
        # an omitted domain, not a false claim: Theorem 2 and the appendix proof of Lemma 3
        # state and use the ball (an independent referee judged 'hypothesis' too high)
        consequence="Lemma 3 as printed names no domain, and on R^d its hypotheses hold for no "
        "function (vacuously true); Theorem 2 and the lemma's appendix proof state the intended "
        "version, Lipschitz on the ball ||w|| <= 2D with ||w_hat|| <= D: the domain is omitted")


CHECKS: list[Check] = [
    Check.of("zhang2021.assump2.4", "pl-lipschitz-constant", "property",
             lambda: _zhang2021_pl("zhang2021 Assumptions 2.1, 2.2, 2.4"),
             "PL + Lipschitz (or |f| <= 1) + smooth on R^d forces a constant F_S"),
    *[Check.of(f"zhang2021.{t}", "assumption-set", "property",
               (lambda t=t: _zhang2021_pl(f"zhang2021.{t}")),
               "its assumption set admits only a constant F_S")
      for t in ("thm3.2", "thm3.3", "thm3.4")],
    Check.of("zhang2017.lemma3", "assumption-set", "property", _zhang2017_lemma3,
             "mu-strongly convex and L-Lipschitz on R^d: no such function"),
]

__all__ = ["CHECKS", "PL_PROOF", "PL_ROOT"]
