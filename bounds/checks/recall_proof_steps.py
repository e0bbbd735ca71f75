"""Proof steps as items: intermediate claims of privacy and utility proofs, decided exactly.

Only end claims were checked before; a proof's intermediate claims (a per-step privacy-loss
bound, a composition step, a variance bound, "the iterates stay in a ball") are decided here
by an exact computation with the step's own quantifiers. Grading follows the end claim: a
false step whose end claim survives (or is undecided) is a ``proof`` finding; a false step
that carries the end claim with it is graded by the end claim (``privacy`` when the end
claim is a privacy guarantee that an exact computation then refutes).

zhang2017 (Zhang, Zheng, Mou, Wang 2017):

* Appendix A.1 (Theorem 1 via Lemma 3): "both {w_t} and {w'_t} are in the ball
  {||w|| <= 2D}" — needs ||w0 - w_hat|| <= D, which Algorithm 1 (w0 is an input) and
  Theorems 1-2 do not state. Exact rational gradient descent from a far w0 on a quadratic
  that meets Theorem 2's hypotheses moves the neighbours' iterates apart by more than Delta,
  and Algorithm 1's output is then not private (exact privacy loss of both noise branches).
* Appendix A.4 (Theorem 4): "with probability 1 - delta/(2n), C_t <= eps/(2 sqrt(2 log(2/
  delta)))" — the privacy loss of one Gaussian step is N(m^2/2, m^2) exactly; its tail
  beyond the claimed threshold is orders of magnitude above delta/(2n).
* Appendix A.4: "the theorem follows from applying Lemma 10 with delta' = delta/2 and
  T = R <= n^2" — the composed eps' is eps + n^2 c (e^c - 1) > eps, exactly.
* Appendix A.5 (Theorem 5): "E||G(w_t) - grad F(w_t, S)||^2 <= 4L^2 + 8L^2 log(3n/delta)
  log(2/delta)/eps^2" — the noise alone has E||z_t||^2 = 4 d L^2 log(3n/delta) log(2/delta)/
  eps^2 (the theorem's own sigma^2), above the step's bound from d = 3 on.
"""

from __future__ import annotations

from fractions import Fraction
from typing import Any

import mpmath as mp
import sympy as sp

from dptheory.privacy.gaussian import gaussian_delta
from dptheory.verify import Check, CheckResult


def _fmt(x: Any) -> float:
    return float(f"{float(x):.6g}")


# ---------------------------------------------------------------------------------------
# zhang2017 A.1: "both {w_t} and {w'_t} are in the ball {||w|| <= 2D}" (Lemma 3, Theorem 1)
# ---------------------------------------------------------------------------------------

def gd_quadratic_pair(w0: Fraction, T: int) -> tuple[Fraction, Fraction]:
    """Exact gradient descent on the pair S = (1, 1), S' = (1, 3) of the loss
    f(w, c) = (c/2) w^2 at eta = 1/(mu + beta) = 1/4 (mu = 1, beta = 3): F_S = w^2/2 and
    F_S' = w^2, so w_{t+1} = (3/4) w_t and w'_{t+1} = (1/2) w'_t (rational arithmetic)."""
    eta = Fraction(1, 4)
    w, wp = w0, w0
    for _ in range(T):
        w -= eta * (Fraction(1 + 1, 2) * w)          # grad F_S(w) = mean(c) w = w
        wp -= eta * (Fraction(1 + 3, 2) * wp)        # grad F_S'(w) = 2 w
    return w, wp


def zhang2017_thm1_w0(w0: Fraction = Fraction(10 ** 5)) -> CheckResult:
    """Theorem 1 (privacy of Algorithm 1) at Theorem 2's settings from the start ``w0``.

    Instance (Theorem 2's hypotheses hold for every data set): d = 1, f(w, c) = (c/2) w^2
    with c in {1, 3}; mu = 1, beta = 3, w_hat = 0 for every data set (D = 1), L = 6 on
    {|w| <= 2D}; eta = 1/(mu + beta), n = 2, Delta = 5L(1 + beta/mu)/(n beta) = 20.
    """
    mu, beta, n, D = 1, 3, 2, 1
    L = 3 * 2 * D                                            # max |c w| on |w| <= 2D
    Delta = Fraction(5 * L * (mu + beta), n * mu * beta)      # = 5L(1 + beta/mu)/(n beta)
    rows = []
    for eps in (1.0, 10.0):
        # Theorem 2's T = Theta(...) with constant 1, eps-DP part: (mu^2 + beta^2)/(mu beta)
        # log(mu^2 n^2 eps^2 D^2/(L^2 d^2)); >= 1 needs eps > 3, so also T = 1, 5, 10, 20
        arg = mu ** 2 * n ** 2 * eps ** 2 * D ** 2 / L ** 2
        T_thm2 = int(mp.ceil((mu ** 2 + beta ** 2) / (mu * beta) * mp.log(arg))) if arg > 1 else 0
        for T in sorted({1, 5, 10, 20} | ({T_thm2} if T_thm2 >= 1 else set())):
            w, wp = gd_quadratic_pair(w0, T)
            gap = abs(w - wp)
            # eps-DP branch: l2-Laplace (d = 1: Laplace of scale Delta/eps); the privacy loss
            # log p_S(y)/p_S'(y) = eps (|y - w'| - |y - w|)/Delta reaches eps gap/Delta
            loss_over_eps = gap / Delta
            # (eps, delta) branch: N(0, 2 log(2/delta) Delta^2/eps^2), exact profile
            delta = 1e-5
            sigma = float(mp.sqrt(2 * mp.log(2 / mp.mpf(delta))) * float(Delta) / eps)
            exact_delta = float(gaussian_delta(eps, sigma=sigma, sensitivity=float(gap)))
            rows.append({"eps": eps, "T": T, "T_is_theorem2_setting": T == T_thm2,
                         "w_T": str(w), "w'_T": str(wp), "gap": _fmt(gap),
                         "Delta": str(Delta), "eps_branch_privacy_loss_over_eps": _fmt(loss_over_eps),
                         "gaussian_branch_delta": delta, "gaussian_branch_exact_delta": _fmt(exact_delta)})
    bad = [r for r in rows if r["gap"] > float(Delta)]
    ev = {"w0": str(w0), "rows": rows, "gap": "|w_T - w'_T|", "Delta": str(Delta), "mu": mu, "beta": beta, "L": L,
          "D": D, "n": n, "eta": "1/4",
          "instance": "d = 1, f(w, c) = (c/2) w^2, c in {1, 3}: 1-strongly convex, 3-smooth, "
                      "6-Lipschitz on {|w| <= 2D}, w_hat(S) = 0 for every S (D = 1); "
                      "neighbours S = (1, 1), S' = (1, 3); Algorithm 1 from w0 (an input of "
                      "Algorithm 1 on which Theorems 1-2 put no condition)",
          "independent_value": "w_T = w0 (3/4)^T, w'_T = w0 (1/2)^T (exact rationals)",
          "proof_step": "A.1: 'it is easy to see both {w_t} and {w_t'} are in the ball "
                        "{w: ||w|| <= 2D}, so we can use L-Lipschitz property' — true only if "
                        "||w0 - w_hat|| <= D for both data sets (e.g. w0 = 0)",
          "constants_varied": ["w0: 1e5 (planted: |w0| <= D)", "T: 1, 5, 10, 20 and Theorem 2's",
                               "eps: 1, 10"]}
    if not bad:
        return CheckResult("supported", f"from w0 = {w0} the neighbours' iterates stay within "
                           f"Delta = {Delta} at every T", ev, claim="privacy",
                           power={"statement": "exact rational GD; a gap above Delta would be "
                                               "an exact privacy violation of both branches"})
    b = max(bad, key=lambda r: r["eps_branch_privacy_loss_over_eps"])
    return CheckResult(
        "refuted", f"zhang2017.thm1: Algorithm 1 at Theorem 2's settings is not private from a "
        f"far start: from w0 = {float(w0):.6g} on a quadratic meeting every hypothesis of "
        f"Theorem 2, |w_T - w'_T| = {b['gap']:.6g} > Delta = "
        f"{Delta} (T = {b['T']}): the eps-DP branch's privacy loss reaches "
        f"{b['eps_branch_privacy_loss_over_eps']:.6g} eps, and the Gaussian branch's exact "
        f"delta at eps = {b['eps']} is {b['gaussian_branch_exact_delta']:.4g} > 1e-5 "
        f"({len(bad)}/{len(rows)} rows)", ev, claim="privacy",
        # graded as the missing condition it is (as the other "false on part of its domain
        # for want of a stated condition" privacy refutations are): the intended w0 = 0 is
        # private; a start far outside the ball, which nothing excludes, is not
        severity="hypothesis",
        root="zhang2017.thm1:w0-unconstrained",
        consequence="Lemma 3's sensitivity (and so Theorem 1's privacy at Theorem 2's settings) "
        "needs ||w0 - w_hat(S)|| <= D for every data set (e.g. w0 = 0, which the utility proof "
        "also uses silently); Algorithm 1 takes w0 as an input and neither it nor Theorems 1-2 "
        "state the condition, so as printed the privacy claim is false")


# ---------------------------------------------------------------------------------------
# zhang2017 A.4: the per-step privacy-loss claim and the composition step of Theorem 4
# ---------------------------------------------------------------------------------------

@mp.workdps(50)      # local precision: a global setting leaks into other checks
def rrpsgd_step_tail(n: int, delta: float, eps: float, L: float = 1.0,
                     sensitivity_over_L: float = 2.0, noise_scale: float = 1.0) -> dict[str, Any]:
    """One step of Algorithm 2: the exact law of its privacy loss and its tail.

    The noise is N(0, s^2 I) with s^2 = 4 L^2 log(3n/delta) log(2/delta)/eps^2 (Algorithm 2,
    line 5; ``noise_scale`` multiplies s, for planted variants); the gradients of neighbours
    differ by ``sensitivity_over_L`` L (2L: linear losses +-L <w, e1>, the worst case of an
    L-Lipschitz loss). The privacy loss log p_S(X)/p_S'(X) at X ~ p_S is N(m^2/2, m^2),
    m = sensitivity/s, so with C_t = |loss| (A.4's definition)
    P(C_t > c) = Phibar((c - m^2/2)/m) + Phi((-c - m^2/2)/m).
    """
    ll = mp.log(3 * mp.mpf(n) / delta) * mp.log(2 / mp.mpf(delta))
    s = noise_scale * 2 * L * mp.sqrt(ll) / eps
    m = sensitivity_over_L * L / s
    c = eps / (2 * mp.sqrt(2 * mp.log(2 / mp.mpf(delta))))
    tail = mp.ncdf(-(c - m ** 2 / 2) / m) + mp.ncdf((-c - m ** 2 / 2) / m)
    claimed = mp.mpf(delta) / (2 * n)
    return {"n": n, "delta": delta, "eps": eps, "L": L, "sensitivity": _fmt(sensitivity_over_L * L),
            "noise_sd": _fmt(s), "eps0_claimed": _fmt(c), "P(C_t > eps0)": _fmt(tail),
            "claimed_failure_prob": _fmt(claimed), "ratio": _fmt(tail / claimed),
            "exact_delta_at_eps0": _fmt(gaussian_delta(float(c), sigma=float(s),
                                                       sensitivity=float(sensitivity_over_L * L))),
            "violated": bool(tail > claimed)}


def zhang2017_thm4_step(noise_scale: float = 1.0) -> CheckResult:
    """A.4's per-step claim P(C_t > eps/(2 sqrt(2 log(2/delta)))) <= delta/(2n)."""
    rows = [rrpsgd_step_tail(n, delta, eps, L, sens, noise_scale)
            for (n, delta, eps) in ((100, 1e-5, 1.0), (1000, 1e-6, 0.5), (10, 0.1, 1.0))
            for L in (0.25, 1.0, 4.0) for sens in (2.0, 1.0)]
    bad = [r for r in rows if r["violated"]]
    ev = {"rows": rows, "noise_scale": noise_scale,
          "derivation": "Gaussian step with shift m s (m = sensitivity/s): the log-likelihood "
                        "ratio at X ~ N(mu_S, s^2) is N(m^2/2, m^2) exactly; its tail is two "
                        "normal tails (mpmath, 50 digits)",
          "constants_varied": ["L: 1/4, 1, 4 (cancels: m = sensitivity eps/(2L sqrt(l)))",
                               "sensitivity: 2L (worst case) and L"]}
    if not bad:
        return CheckResult("supported", "the per-step tail is below delta/(2n) at every row", ev,
                           claim="upper-bound",
                           power={"statement": "exact tails; any row above delta/(2n) refutes"})
    b = max(bad, key=lambda r: r["ratio"])
    weak = [r for r in bad if r["sensitivity"] == _fmt(r["L"])]
    return CheckResult(
        "refuted", f"zhang2017.thm4 (A.4): 'with probability 1 - delta/(2n), C_t <= eps/(2 "
        f"sqrt(2 log(2/delta)))' is false for Algorithm 2's noise: at n = {b['n']}, delta = "
        f"{b['delta']}, eps = {b['eps']} P(C_t > {b['eps0_claimed']:.4g}) = {b['P(C_t > eps0)']:.4g}"
        f" vs the claimed {b['claimed_failure_prob']:.3g} (exact delta at eps0: "
        f"{b['exact_delta_at_eps0']:.3g}); {len(bad)}/{len(rows)} rows fail, {len(weak)} of them "
        "even with sensitivity L instead of 2L", ev, claim="upper-bound", severity="proof",
        root="zhang2017.thm4:per-step-privacy-loss",
        consequence="the per-step bound that Theorem 4's proof takes 'by [13]' needs about 16 "
        "times Algorithm 2's noise variance; the proof does not establish (eps, delta)-DP, "
        "and whether Theorem 4's conclusion holds is left undecided here")


@mp.workdps(50)      # local precision: a global setting leaks into other checks
def zhang2017_thm4_composition(split: bool = False) -> CheckResult:
    """A.4's last step: Lemma 10 (Dwork-Rothblum-Vadhan form) at T = n^2, delta' = delta/2
    and per-step eps c = eps/(n sqrt(2 log(2/delta))) gives eps' <= eps.

    ``split=True`` is the planted correct step: c solved from eps' = eps (budget split).
    """
    n, e, dl = sp.symbols("n eps delta", positive=True)
    c = e / (n * sp.sqrt(2 * sp.log(2 / dl)))
    first = sp.sqrt(2 * n ** 2 * sp.log(2 / dl)) * c
    second = n ** 2 * c * (sp.exp(c) - 1)
    first_is_eps = sp.simplify(first - e) == 0
    rows = []
    for (nv, dv, ev_) in ((100, mp.mpf("1e-5"), 1), (10, mp.mpf("0.5"), 1), (2, mp.mpf("0.9"), 1),
                          (1000, mp.mpf("1e-6"), mp.mpf("0.1"))):
        def eps_prime(cc: Any) -> Any:
            return mp.sqrt(2 * nv ** 2 * mp.log(2 / dv)) * cc + nv ** 2 * cc * (mp.exp(cc) - 1)
        cv = ev_ / (nv * mp.sqrt(2 * mp.log(2 / dv)))
        if split:
            cv = mp.findroot(lambda x: eps_prime(x) - ev_, cv)
        rows.append({"n": nv, "delta": float(dv), "eps": float(ev_), "per_step_eps": _fmt(cv),
                     "eps_prime": _fmt(eps_prime(cv)),
                     "excess_over_eps": float(eps_prime(cv) - ev_),
                     "delta_total": float(nv ** 2 * dv / (2 * nv ** 2) + dv / 2)})
    bad = [r for r in rows if r["excess_over_eps"] > 1e-30]
    ev = {"rows": rows, "first_term_equals_eps_symbolically": bool(first_is_eps),
          "second_term": str(second), "split": split,
          "argument": "sqrt(2 n^2 log(2/delta)) c = eps exactly (SymPy), and the second term "
                      "n^2 c (e^c - 1) is > 0 for every c > 0: eps' > eps at every n, delta, eps"}
    if not bad:
        return CheckResult("supported", "the composed eps' does not exceed eps", ev,
                           claim="privacy", power={"statement": "exact eps' at 4 points"})
    b = bad[0]
    return CheckResult(
        "refuted", f"zhang2017.thm4 (A.4): Lemma 10 with T = n^2, delta' = delta/2 and per-step "
        f"eps/(n sqrt(2 log(2/delta))) gives eps' = eps + n^2 c (e^c - 1) > eps (the first term "
        f"is eps exactly): e.g. n = {b['n']}, delta = {b['delta']}, eps = {b['eps']}: eps' = "
        f"{b['eps_prime']:.6g}", ev, claim="privacy", severity="proof",
        root="zhang2017.thm4:composition-budget",
        consequence="the final composition of Theorem 4's proof spends the whole budget eps on "
        "the first term of Lemma 10 and exceeds it by the second; the delta accounting adds up, "
        "the eps accounting does not (a smaller per-step eps would repair the step)")


# ---------------------------------------------------------------------------------------
# zhang2017 A.5: the variance of Algorithm 2's stochastic gradient
# ---------------------------------------------------------------------------------------

def zhang2017_thm5_variance(d_values: tuple[int, ...] = (1, 2, 3, 10)) -> CheckResult:
    """A.5's 'E||G(w_t) - grad F(w_t, S)||^2 <= 4L^2 + 8L^2 log(3n/delta) log(2/delta)/eps^2'.

    With n identical records, grad f(w, xi) = grad F(w, S) and G - grad F = z_t exactly, so
    the left side is E||z_t||^2 = d s^2, s^2 = 4 L^2 log(3n/delta) log(2/delta)/eps^2.
    """
    L, e, dl, nn, dd = sp.symbols("L eps delta n d", positive=True)
    ll = sp.log(3 * nn / dl) * sp.log(2 / dl)
    exact = dd * 4 * L ** 2 * ll / e ** 2
    printed = 4 * L ** 2 + 8 * L ** 2 * ll / e ** 2
    gap = sp.factor(sp.simplify(exact - printed))          # 4 L^2 ((d - 2) l - eps^2)/eps^2
    rows = []
    for Lv in (sp.Rational(1, 4), 1, 4):
        for (nv, dv_, epsv) in ((10, sp.Rational(1, 10), 1), (100, sp.Rational(1, 10 ** 5), 1)):
            for d in d_values:
                env = {L: Lv, nn: nv, dl: dv_, e: epsv, dd: d}
                ex, pr = exact.subs(env), printed.subs(env)
                rows.append({"L": float(Lv), "n": nv, "delta": float(dv_), "eps": epsv, "d": d,
                             "exact_E||G - grad F||^2": _fmt(sp.N(ex, 30)),
                             "printed_bound": _fmt(sp.N(pr, 30)),
                             "violated": bool(sp.N(ex - pr, 50) > 0)})
    bad = [r for r in rows if r["violated"]]
    ev = {"rows": rows, "difference_exact_minus_printed": str(gap),
          "instance": "n identical records (grad f(w, xi) = grad F(w, S)), so G - grad F = z_t "
                      "~ N(0, s^2 I_d) exactly (Algorithm 2, line 5)",
          "theorem_5_sigma2": "4L^2 + 4 d L^2 log(3n/delta) log(2/delta)/eps^2 (the theorem has "
                              "the factor d; the proof step does not)",
          "constants_varied": ["L: 1/4, 1, 4", "d: " + ", ".join(map(str, d_values))]}
    if not bad:
        return CheckResult("supported", "the step's bound covers the exact variance", ev,
                           claim="upper-bound", power={"statement": "exact variance at each d"})
    b = min(bad, key=lambda r: r["d"])
    return CheckResult(
        "refuted", f"zhang2017.thm5 (A.5): E||G(w_t) - grad F(w_t, S)||^2 <= 4L^2 + 8L^2 "
        f"log(3n/delta) log(2/delta)/eps^2 fails for Algorithm 2's noise from d = {b['d']}: "
        f"exact {b['exact_E||G - grad F||^2']:.6g} > {b['printed_bound']:.6g} (L = {b['L']}, "
        f"n = {b['n']}, delta = {b['delta']}, eps = {b['eps']}); {len(bad)}/{len(rows)} rows",
        # notation: Theorem 5's own sigma^2 has the factor d (the exact variance); only the
        # proof sketch's line drops it, and nothing downstream uses that line
        ev, claim="upper-bound", severity="notation", root="zhang2017.thm5:variance-lacks-d",
        consequence="the proof's variance bound lacks the factor d of E||z_t||^2 = d s^2; "
        "Theorem 5's own sigma^2 = 4L^2 + 4dL^2 log(3n/delta) log(2/delta)/eps^2 has it, so the "
        "theorem survives and the printed proof step does not")


# ---------------------------------------------------------------------------------------
# zhang2017 A.6 (Theorem 6): "if we set sigma_t^2 = 2a(eta_t L + beta L eta_t^2) alpha^2 ...
# then E_{t-1}[exp(Y_t^2/sigma_t^2)] <= exp(1)"
# ---------------------------------------------------------------------------------------

@mp.workdps(50)      # local precision: a global setting leaks into other checks
def zhang2017_thm6_subgaussian(squared: bool = False) -> CheckResult:
    """A.6's sub-Gaussian condition for Y_1 = v^T z_1 at the first step.

    Instance (Theorem 6's hypotheses): d = 1, n identical records with loss f(w) = L c
    h(w/c), h Huber (knee 1): L-Lipschitz, beta = L/c smooth, F >= 0 = F*; w0 = 1e4, c = 100.
    Then delta_1 = 0, v = (beta eta^2 - eta) grad F(w0) with |grad F(w0)| = L, and Y_1 ~
    N(0, v^2 alpha^2) (z_1 ~ N(0, alpha^2), alpha^2 = 4L^2 log(3n/delta) log(2/delta)/eps^2),
    so E exp(Y_1^2/s^2) = (1 - 2 v^2 alpha^2/s^2)^(-1/2), +inf when 2 v^2 alpha^2 >= s^2.
    ``squared=True`` uses the squared sigma_t^2 = 2a(eta L + beta L eta^2)^2 alpha^2.
    """
    d, n, eps, delta, c, w0 = 1, 10, mp.mpf(1), mp.mpf("0.1"), mp.mpf(100), mp.mpf(10 ** 4)
    a = 1 / (1 - mp.exp(mp.mpf(-2) / d))
    ll = mp.log(3 * n / delta) * mp.log(2 / delta)
    rows = []
    for L in (mp.mpf("0.25"), mp.mpf(1), mp.mpf(4)):
        beta = L / c
        alpha2 = 4 * L ** 2 * ll / eps ** 2
        sig = mp.sqrt(4 * L ** 2 + d * alpha2)                 # Theorem 5's sigma
        F_gap = L * (w0 - c / 2)                               # L c h(w0/c) - 0, |w0| >= c
        D_F = mp.sqrt(2 * F_gap / beta)
        eta = min(1 / beta, D_F / (sig * n))                   # Theorem 5/6's step
        v = (eta - beta * eta ** 2) * L
        base = eta * L + beta * L * eta ** 2
        s2 = 2 * a * (base ** 2 if squared else base) * alpha2
        rho = 2 * v ** 2 * alpha2 / s2
        E = mp.inf if rho >= 1 else 1 / mp.sqrt(1 - rho)
        rows.append({"L": float(L), "beta": float(beta), "D_F": _fmt(D_F), "eta": _fmt(eta),
                     "eta_L": _fmt(eta * L), "|v|": _fmt(v), "sigma_t^2": _fmt(s2),
                     "2 v^2 alpha^2 / sigma_t^2": _fmt(rho),
                     "E_exp_Y2_over_sigma_t2": "inf" if E == mp.inf else _fmt(E),
                     "violated": bool(E > mp.e)})
    bad = [r for r in rows if r["violated"]]
    ev = {"rows": rows, "squared": squared, "d": d, "n": n, "eps": float(eps),
          "delta": float(delta), "c": float(c), "w0": float(w0), "a": _fmt(a),
          "instance": "d = 1, n identical records, f(w) = L c h(w/c) (Huber, knee c = 100): "
                      "L-Lipschitz, (L/c)-smooth, F* = 0; w0 = 1e4; eta = min{1/beta, D_F/"
                      "(sigma n)} with Theorem 5's sigma; Y_1 = v z_1 exactly Gaussian",
          "constants_varied": ["L: 1/4, 1, 4 (eta L, v/L and the ratio do not depend on L)"]}
    if not bad:
        return CheckResult("supported", "E exp(Y_1^2/sigma_1^2) <= e at every row", ev,
                           claim="upper-bound",
                           power={"statement": "exact Gaussian moment generating function"})
    b = bad[0]
    return CheckResult(
        "refuted", f"zhang2017.thm6 (A.6): with the printed sigma_t^2 = 2a(eta L + beta L eta^2) "
        f"alpha^2 the condition E[exp(Y_t^2/sigma_t^2)] <= e fails at t = 1 on a Huber loss "
        f"meeting Theorem 6's hypotheses: eta L = {b['eta_L']:.4g}, 2 v^2 alpha^2/sigma_t^2 = "
        f"{b['2 v^2 alpha^2 / sigma_t^2']:.4g} >= 1, so the expectation is "
        f"{b['E_exp_Y2_over_sigma_t2']} ({len(bad)}/{len(rows)} rows, L = 1/4, 1, 4)", ev,
        claim="upper-bound", severity="notation", root="zhang2017.thm6:sigma_t-square",
        consequence="sigma_t^2 needs the square (2a(eta L + beta L eta^2)^2 alpha^2, "
        "zhang2017.thm6.corrected), with which the condition holds and inequality (4) is "
        "exactly as printed: a typo in the proof, the end bound is unchanged")


# ---------------------------------------------------------------------------------------
# zhang2017 A.1 (Lemma 2): the expansion of Delta_{t+1}^2 prints eta^2 ||grad F - grad F'||
# without its square
# ---------------------------------------------------------------------------------------

def zhang2017_lemma2_expansion(square: bool = False) -> CheckResult:
    """The identity Delta_{t+1}^2 = Delta_t^2 - 2 eta <w_t - w'_t, g> + eta^2 ||g||^(1 or 2),
    g = grad F(w_t, S) - grad F(w'_t, S'), on exact rational GD steps of the quadratic pair
    of :func:`gd_quadratic_pair` (convex, beta = 3, eta = 1/3 <= 1/beta)."""
    eta = Fraction(1, 3)
    rows = []
    for w0 in (Fraction(2), Fraction(1, 2), Fraction(5)):
        w, wp = w0, w0                                   # Delta_0 = 0: same start
        for t in range(3):
            g = 1 * w - 2 * wp                           # grad F_S(w) - grad F_S'(w')
            lhs = ((w - eta * w) - (wp - eta * 2 * wp)) ** 2
            rhs = (w - wp) ** 2 - 2 * eta * (w - wp) * g + eta ** 2 * (g * g if square else abs(g))
            rows.append({"w0": str(w0), "t": t, "Delta_t+1^2": str(lhs), "printed_rhs": str(rhs),
                         "equal": lhs == rhs})
            w, wp = w - eta * w, wp - eta * 2 * wp
    bad = [r for r in rows if not r["equal"]]
    ev = {"rows": rows, "square": square,
          "instance": "d = 1, f(w, c) = (c/2) w^2, S = (1, 1), S' = (1, 3), eta = 1/3 (exact "
                      "rationals): ||a - eta b||^2 = ||a||^2 - 2 eta <a, b> + eta^2 ||b||^2"}
    if not bad:
        return CheckResult("supported", "the expansion holds at every step", ev, claim="identity",
                           power={"statement": "exact rationals; any unequal step refutes"})
    b = bad[0]
    return CheckResult(
        "refuted", f"zhang2017.lemma2 (A.1): the expansion '= ||w_t - w'_t||^2 - 2 eta <., .> + "
        f"eta^2 ||grad F(w_t, S) - grad F(w'_t, S')||' lacks a square: at w0 = {b['w0']}, t = "
        f"{b['t']} the left side is {b['Delta_t+1^2']}, the printed right side "
        f"{b['printed_rhs']} ({len(bad)}/{len(rows)} steps, exact rationals)", ev,
        claim="identity", severity="notation", root="zhang2017.lemma2:expansion-square",
        consequence="a typo: the next line of the proof (and Lemma 3's proof) uses the square, "
        "so Lemma 2 is unaffected")


CHECKS: list[Check] = [
    Check.of("zhang2017.thm1", "w0-outside-ball", "property", zhang2017_thm1_w0,
             "exact rational GD from a far w0 on a quadratic meeting Theorem 2's hypotheses: "
             "|w_T - w'_T| against Delta and the exact privacy loss of both noise branches"),
    Check.of("zhang2017.lemma2", "expansion-square", "property", zhang2017_lemma2_expansion,
             "A.1's expansion of Delta_{t+1}^2 on exact rational GD steps"),
    Check.of("zhang2017.thm4", "per-step-privacy-loss", "property", zhang2017_thm4_step,
             "exact tail of one Gaussian step's privacy loss against delta/(2n), L = 1/4, 1, 4"),
    Check.of("zhang2017.thm4", "composition-step", "property", zhang2017_thm4_composition,
             "Lemma 10 at T = n^2 with the proof's per-step eps: eps' = eps + n^2 c (e^c - 1)"),
    Check.of("zhang2017.thm6", "subgaussian-sigma_t", "property", zhang2017_thm6_subgaussian,
             "A.6's E exp(Y_1^2/sigma_1^2) <= e on a Huber loss, printed and squared sigma_t^2"),
    Check.of("zhang2017.thm5", "variance-step", "property", zhang2017_thm5_variance,
             "exact E||G - grad F||^2 on identical records against the proof's bound, d = 1..10"),
]

__all__ = ["CHECKS", "gd_quadratic_pair", "rrpsgd_step_tail", "zhang2017_thm1_w0",
           "zhang2017_thm4_step", "zhang2017_thm4_composition", "zhang2017_thm5_variance",
           "zhang2017_thm6_subgaussian", "zhang2017_lemma2_expansion"]
