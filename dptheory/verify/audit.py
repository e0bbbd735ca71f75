"""Empirical privacy audits: lower bounds on epsilon from membership tests (issue 7).

Two paper-agnostic auditors:

* :func:`epsilon_lower_bound` — the many-runs membership test. The mechanism is run many
  times on each of two neighbouring datasets (with and without a worst-case canary); an
  attack score is computed from each run's release. For every candidate threshold t and both
  orientations of the test, (eps, delta)-DP implies

      TPR <= e^eps FPR + delta,        TNR <= e^eps FNR + delta,

  (and the same with the two datasets swapped), so with a Clopper-Pearson lower bound on the
  numerator rate and an upper bound on the denominator rate,

      eps >= log((rate_lo - delta) / rate_hi).

  **Correction for the choice of threshold**: by default (``method="bonferroni"``) the K
  candidate thresholds (quantiles of the pooled scores, at most ``max_thresholds``) are
  tested simultaneously: each of the 4K one-sided Clopper-Pearson bounds (TPR and FPR, lower
  and upper, at each threshold) is taken at level ``(1 - confidence) / (4K)``, so by the
  union bound every bound holds at once with probability >= ``confidence`` and the maximum
  over thresholds is a valid lower bound. With ``method="split"`` the threshold and
  orientation are chosen on the first half of the runs and the bound is computed on the
  other half (two one-sided bounds at level ``(1 - confidence) / 2``).

* :func:`one_run_audit` — Steinke, Nasr and Jagielski 2023, "Privacy auditing with one (1)
  training run" (NeurIPS 2023), Theorem 3.1 / Proposition 5.7: m canaries each included
  independently with probability 1/2 in ONE run; the auditor guesses "in" for the k+ highest
  scores and "out" for the k- lowest and abstains otherwise. Under (eps, delta)-DP the number
  W of correct guesses among r guesses satisfies

      P[W >= v] <= P[Bin(r, q) >= v] + 2 m delta max_{1<=i<=v} P[v - i <= Bin(r, q) < v] / i,

  with q = e^eps / (1 + e^eps). The lower bound is the largest eps for which this p-value is
  below ``1 - confidence``.

:func:`audit_check` turns a pooled audit result (the ``audit`` keys of the recipe contract:
``scores_in``, ``scores_out``, ``epsilon_claimed``, ``epsilon_tight``, ``delta``) into a
:class:`~dptheory.verify.verdict.CheckResult`:

* ``refuted`` (severity ``privacy``) when the 95 % lower bound exceeds the claimed epsilon:
  a certified counterexample to the guarantee of the release audited;
* ``supported`` only when the audit had the power to see a violation: an ideal release
  (a Gaussian mechanism scored by its likelihood ratio, the best case for this test) whose
  true epsilon is ``POWER_FACTOR`` x the claim would be detected at 95 % with these run
  counts (:func:`audit_power`), and, where the recipe runs one, a *planted twin* (the same
  algorithm with noise calibrated to ``POWER_FACTOR`` x the claim) was detected;
* ``inconclusive`` otherwise, saying which power was missing (and, when the two-sided
  accountant certifies the noise used below the claim, that no valid audit could refute it).
"""

from __future__ import annotations

import functools
import math
from dataclasses import dataclass
from typing import Any, Callable, Sequence

import numpy as np
from scipy import stats

from dptheory.verify.verdict import CheckResult

__all__ = ["clopper_pearson", "cp_lower", "cp_upper", "epsilon_lower_bound", "one_run_audit",
           "one_run_p_value", "audit_power", "audit_check", "audit_summary", "evaluate_recipe",
           "experiment_recipes", "POWER_FACTOR", "PrivacyClaim", "privacy_claim_of",
           "audit_plugin"]

METHODS = ("bonferroni", "split")
#: an audit supports a claim only if it detects (at 95 %) a release this many times above it:
#: the commonest calibration bugs (add/remove sensitivity under replace-one, a lost factor 2)
#: at least double epsilon
POWER_FACTOR = 2.0
#: simulated audits per candidate shift when the power is computed (fixed seeds)
POWER_REPS = 60


# --------------------------------------------------------------------------- validation
def _scores(name: str, x: Any) -> np.ndarray:
    a = np.asarray(x, dtype=np.float64).ravel()
    if a.size < 2:
        raise ValueError(f"{name} must hold at least 2 scores, got {a.size}")
    if not np.all(np.isfinite(a)):
        raise ValueError(f"{name} must be finite (no NaN or inf)")
    return a


def _unit(name: str, v: Any, *, lo_open: bool = True, hi_open: bool = True) -> float:
    try:
        v = float(v)
    except (TypeError, ValueError):
        raise ValueError(f"{name} must be a number, got {v!r}") from None
    ok_lo = v > 0 if lo_open else v >= 0
    ok_hi = v < 1 if hi_open else v <= 1
    if not (ok_lo and ok_hi):
        lb = "(" if lo_open else "["
        rb = ")" if hi_open else "]"
        raise ValueError(f"{name} must be in {lb}0, 1{rb}, got {v}")
    return v


# --------------------------------------------------------------------------- Clopper-Pearson
def cp_lower(k: Any, n: Any, alpha: float) -> np.ndarray:
    """One-sided (1 - alpha) Clopper-Pearson lower bound on a binomial rate: Beta(alpha; k, n-k+1)."""
    k = np.asarray(k, dtype=np.float64)
    n = np.asarray(n, dtype=np.float64)
    with np.errstate(invalid="ignore"):
        lo = stats.beta.ppf(alpha, k, n - k + 1)
    return np.where(k <= 0, 0.0, lo)


def cp_upper(k: Any, n: Any, alpha: float) -> np.ndarray:
    """One-sided (1 - alpha) Clopper-Pearson upper bound: Beta(1 - alpha; k+1, n-k)."""
    k = np.asarray(k, dtype=np.float64)
    n = np.asarray(n, dtype=np.float64)
    with np.errstate(invalid="ignore"):
        hi = stats.beta.ppf(1 - alpha, k + 1, n - k)
    return np.where(k >= n, 1.0, hi)


def clopper_pearson(k: int, n: int, confidence: float = 0.95) -> tuple[float, float]:
    """Two-sided Clopper-Pearson interval for k successes out of n at the given confidence."""
    if isinstance(n, bool) or int(n) != n or n < 1:
        raise ValueError(f"n must be an integer >= 1, got {n!r}")
    if isinstance(k, bool) or int(k) != k or not (0 <= k <= n):
        raise ValueError(f"k must be an integer in [0, n={n}], got {k!r}")
    a = (1 - _unit("confidence", confidence)) / 2
    return float(cp_lower(k, n, a)), float(cp_upper(k, n, a))


# --------------------------------------------------------------------------- many-runs audit
def _thresholds(pooled: np.ndarray, max_thresholds: int) -> np.ndarray:
    """Candidate thresholds: midpoints between distinct pooled scores, thinned to quantiles."""
    u = np.unique(pooled)
    if u.size < 2:
        return np.array([u[0]])
    mids = (u[:-1] + u[1:]) / 2
    if mids.size <= max_thresholds:
        return mids
    # denser in both tails, where the likelihood ratio is largest
    p = np.linspace(0.0, 1.0, max_thresholds)
    p = 0.5 - 0.5 * np.cos(np.pi * p)
    return np.unique(np.quantile(mids, p))


def _rates(s_in: np.ndarray, s_out: np.ndarray, t: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """Counts of in-scores and out-scores >= each threshold."""
    a = np.sort(s_in)
    b = np.sort(s_out)
    k_in = s_in.size - np.searchsorted(a, t, side="left")
    k_out = s_out.size - np.searchsorted(b, t, side="left")
    return k_in, k_out


def _bound_at(k_in, n_in, k_out, n_out, delta, alpha_each):
    """eps lower bounds of the four orientations at each threshold (arrays)."""
    tpr_lo, tpr_hi = cp_lower(k_in, n_in, alpha_each), cp_upper(k_in, n_in, alpha_each)
    fpr_lo, fpr_hi = cp_lower(k_out, n_out, alpha_each), cp_upper(k_out, n_out, alpha_each)

    def ratio(num_lo, den_hi):
        with np.errstate(divide="ignore", invalid="ignore"):
            r = np.log(np.maximum(num_lo - delta, 0.0) / den_hi)
        return np.where(num_lo - delta > 0, r, -np.inf)

    return np.stack([
        ratio(tpr_lo, fpr_hi),               # in scores high:   TPR <= e^eps FPR + delta
        ratio(1 - fpr_hi, 1 - tpr_lo),       # same test, complement: TNR <= e^eps FNR + delta
        ratio(fpr_lo, tpr_hi),               # datasets swapped: FPR <= e^eps TPR + delta
        ratio(1 - tpr_hi, 1 - fpr_lo),       # swapped complement
    ])


_ORIENT = ("in-high", "in-high-complement", "in-low", "in-low-complement")


def epsilon_lower_bound(scores_in: Sequence[float], scores_out: Sequence[float], delta: float,
                        *, confidence: float = 0.95, method: str = "bonferroni",
                        max_thresholds: int = 64) -> dict[str, Any]:
    """A ``confidence`` lower bound on epsilon from membership scores on two neighbours.

    ``scores_in``: scores of runs on the dataset with the canary; ``scores_out``: without.
    Returns ``epsilon_lower`` (0 when nothing can be said), the threshold, orientation and
    empirical rates attaining it, the counts, the method and the number of thresholds tried.
    See the module docstring for the correction for the choice of threshold.
    """
    s_in = _scores("scores_in", scores_in)
    s_out = _scores("scores_out", scores_out)
    delta = _unit("delta", delta, lo_open=False)
    confidence = _unit("confidence", confidence)
    if method not in METHODS:
        raise ValueError(f"method must be one of {METHODS}, got {method!r}")
    if isinstance(max_thresholds, bool) or not isinstance(max_thresholds, (int, np.integer)) \
            or max_thresholds < 1:
        raise ValueError(f"max_thresholds must be an integer >= 1, got {max_thresholds!r}")
    alpha = 1 - confidence
    if method == "bonferroni":
        t = _thresholds(np.concatenate([s_in, s_out]), int(max_thresholds))
        k_in, k_out = _rates(s_in, s_out, t)
        b = _bound_at(k_in, s_in.size, k_out, s_out.size, delta, alpha / (4 * t.size))
        o, j = np.unravel_index(int(np.argmax(b)), b.shape)
        eps = float(b[o, j])
        chosen_t, n_in, n_out = float(t[j]), s_in.size, s_out.size
        kin, kout, tried = int(k_in[j]), int(k_out[j]), int(t.size)
    else:
        h_in, h_out = s_in.size // 2, s_out.size // 2
        if min(h_in, h_out) < 2:
            raise ValueError("method='split' needs at least 4 scores on each side")
        sel_in, ev_in = s_in[:h_in], s_in[h_in:]
        sel_out, ev_out = s_out[:h_out], s_out[h_out:]
        t = _thresholds(np.concatenate([sel_in, sel_out]), int(max_thresholds))
        k_in, k_out = _rates(sel_in, sel_out, t)
        # choose on point estimates (with a +1 continuity correction against 0/0)
        b_sel = _bound_at(k_in, h_in, k_out, h_out, delta, 0.5)
        o, j = np.unravel_index(int(np.argmax(b_sel)), b_sel.shape)
        kin_a, kout_a = _rates(ev_in, ev_out, t[j:j + 1])
        b = _bound_at(kin_a, ev_in.size, kout_a, ev_out.size, delta, alpha / 2)
        eps = float(b[o, 0])
        chosen_t, n_in, n_out = float(t[j]), ev_in.size, ev_out.size
        kin, kout, tried = int(kin_a[0]), int(kout_a[0]), 1
    eps = max(eps, 0.0) if np.isfinite(eps) else 0.0
    return {"epsilon_lower": eps, "threshold": chosen_t, "orientation": _ORIENT[o],
            "tpr": kin / n_in, "fpr": kout / n_out, "k_in": kin, "k_out": kout,
            "n_in": int(n_in), "n_out": int(n_out), "delta": delta, "confidence": confidence,
            "method": method, "thresholds_tried": tried}


# --------------------------------------------------------------------------- one-run audit
def one_run_p_value(m: int, r: int, v: int, eps: float, delta: float) -> float:
    """p-value of >= v correct guesses out of r (m canaries) under (eps, delta)-DP (SNJ 2023)."""
    if not (0 <= v <= r <= m):
        raise ValueError(f"need 0 <= v <= r <= m, got v={v}, r={r}, m={m}")
    if eps < 0:
        raise ValueError(f"eps must be >= 0, got {eps}")
    q = 1.0 / (1.0 + math.exp(-eps))
    tail = float(stats.binom.sf(v - 1, r, q))
    if delta > 0 and v > 0:
        i = np.arange(1, v + 1)
        pmf = stats.binom.pmf(v - i, r, q)        # P[Bin = v - i], i = 1..v
        worst = float(np.max(np.cumsum(pmf) / i))  # max_i P[v - i <= Bin < v] / i
        tail += 2.0 * m * delta * worst
    return min(tail, 1.0)


def _eps_from_counts(m: int, r: int, v: int, delta: float, alpha: float) -> float:
    if r == 0 or one_run_p_value(m, r, v, 0.0, delta) >= alpha:
        return 0.0
    lo, hi = 0.0, 1.0
    while one_run_p_value(m, r, v, hi, delta) < alpha:
        lo, hi = hi, 2 * hi
        if hi > 1e3:
            return lo
    for _ in range(40):
        mid = (lo + hi) / 2
        if one_run_p_value(m, r, v, mid, delta) < alpha:
            lo = mid
        else:
            hi = mid
    return lo


def one_run_audit(scores: Sequence[float], included: Sequence[bool], delta: float, *,
                  confidence: float = 0.95, k_plus: int | Sequence[int] | None = None,
                  k_minus: int | Sequence[int] | None = None) -> dict[str, Any]:
    """Steinke-Nasr-Jagielski (2023) one-run audit.

    ``scores[i]``: the attack score of canary i in the one run (higher = more likely
    included); ``included[i]``: whether it was (each with probability 1/2). The auditor
    guesses "in" for the ``k_plus`` highest and "out" for the ``k_minus`` lowest scores.
    When lists are given (or None: a small grid), every combination is tried and the p-value
    level is divided by their number (Bonferroni), so the result stays a valid lower bound.
    """
    s = _scores("scores", scores)
    inc = np.asarray(included, dtype=bool).ravel()
    if inc.shape != s.shape:
        raise ValueError(f"included must have the shape of scores {s.shape}, got {inc.shape}")
    delta = _unit("delta", delta, lo_open=False)
    confidence = _unit("confidence", confidence)
    m = s.size

    def grid(k, name):
        if k is None:
            return sorted({max(1, int(round(m * f))) for f in (0.02, 0.05, 0.1, 0.2, 0.5)} | {0})
        ks = [k] if isinstance(k, (int, np.integer)) else list(k)
        for x in ks:
            if isinstance(x, bool) or int(x) != x or not (0 <= x <= m):
                raise ValueError(f"{name} must be integers in [0, m={m}], got {x!r}")
        return [int(x) for x in ks]

    kp, km = grid(k_plus, "k_plus"), grid(k_minus, "k_minus")
    combos = [(a, b) for a in kp for b in km if 0 < a + b <= m]
    if not combos:
        raise ValueError("k_plus + k_minus must be in [1, m]")
    alpha = (1 - confidence) / len(combos)
    order = np.argsort(-s, kind="stable")
    best = {"epsilon_lower": 0.0, "k_plus": combos[0][0], "k_minus": combos[0][1],
            "guesses": 0, "correct": 0}
    for a, b in combos:
        top, bottom = order[:a], order[m - b:] if b else order[:0]
        v = int(inc[top].sum() + (~inc[bottom]).sum())
        r = a + b
        e = _eps_from_counts(m, r, v, delta, alpha)
        if e > best["epsilon_lower"] or best["guesses"] == 0:
            best = {"epsilon_lower": e, "k_plus": a, "k_minus": b, "guesses": r, "correct": v}
    best.update({"m": m, "delta": delta, "confidence": confidence,
                 "combinations_tried": len(combos)})
    return best


# --------------------------------------------------------------------------- power
@functools.lru_cache(maxsize=128)
def _q05(mu: float, n_in: int, n_out: int, delta: float, confidence: float, method: str,
         reps: int) -> float:
    """5 % quantile of the audit's lower bound on the ideal release N(mu, 1) vs N(0, 1)."""
    out = []
    for r in range(reps):
        rng = np.random.default_rng(np.random.SeedSequence(20231, spawn_key=(r,)))
        z_in, z_out = rng.standard_normal(n_in), rng.standard_normal(n_out)
        out.append(epsilon_lower_bound(z_in + mu, z_out, delta, confidence=confidence,
                                       method=method)["epsilon_lower"])
    return float(np.quantile(out, 0.05))


@functools.lru_cache(maxsize=256)
def audit_power(n_in: int, n_out: int, delta: float, claimed: float, *,
                confidence: float = 0.95, method: str = "bonferroni",
                reps: int = POWER_REPS) -> dict[str, Any]:
    """The smallest true epsilon this audit detects (lower bound > ``claimed``) at 95 %.

    The release is the ideal one for a membership test: a Gaussian mechanism whose score is
    its likelihood ratio, N(mu, 1) on the dataset with the canary and N(0, 1) without. The
    shift mu at which the 5 % quantile of the audit's lower bound (over ``reps`` simulated
    audits with ``n_in`` and ``n_out`` runs, fixed seeds) first exceeds ``claimed`` is found
    by bisection; the answer is that Gaussian's exact epsilon at ``delta`` (Balle-Wang).
    ``eps_detect`` is inf when no shift reaches the claim (the run count caps the bound).
    """
    from dptheory.privacy.gaussian import gaussian_epsilon
    args = (int(n_in), int(n_out), float(delta), float(confidence), method, int(reps))
    lo, hi = 0.0, 0.5
    while _q05(hi, *args) <= claimed:
        lo, hi = hi, 2.0 * hi
        if hi > 64:
            return {"eps_detect": math.inf, "runs": [n_in, n_out], "reps": reps,
                    "claimed": claimed, "factor": math.inf}
    for _ in range(12):
        mid = 0.5 * (lo + hi)
        if _q05(mid, *args) > claimed:
            hi = mid
        else:
            lo = mid
    eps = gaussian_epsilon(delta, sigma=1.0 / hi) if delta > 0 else math.inf
    return {"eps_detect": eps, "mu": hi, "runs": [n_in, n_out], "reps": reps,
            "claimed": claimed, "factor": eps / claimed}


def _power_statement(pw: dict[str, Any], delta: float) -> str:
    if not math.isfinite(pw["eps_detect"]):
        return (f"with {pw['runs'][0]} + {pw['runs'][1]} runs no release is detected above "
                f"eps = {pw['claimed']:.3g}: the run count caps the lower bound")
    return (f"detects at 95% any release whose true eps >= {pw['eps_detect']:.3g} "
            f"({pw['factor']:.2f} x the claim; ideal Gaussian release, {pw['runs'][0]} + "
            f"{pw['runs'][1]} runs, delta = {delta:g})")


# --------------------------------------------------------------------------- verdicts
def _interval_text(result: dict[str, Any]) -> str:
    lo, up = result.get("epsilon_lower_certified"), result.get("epsilon_upper_certified")
    if lo is None or up is None:
        return ""
    return f"; the noise used has true eps in [{lo:.3g}, {up:.3g}] (two-sided accountant)"


def audit_check(result: dict[str, Any], *, confidence: float = 0.95,
                method: str = "bonferroni", twin: dict[str, Any] | None = None) -> CheckResult:
    """Verdict of a pooled audit (see the module docstring).

    ``twin``: the pooled result of the planted twin (same algorithm, noise calibrated to
    ``POWER_FACTOR`` x the claim); without one, the power is the ideal release's alone.
    """
    for key in ("scores_in", "scores_out", "epsilon_claimed", "delta"):
        if key not in result:
            raise ValueError(f"audit result lacks {key!r}")
    lb = epsilon_lower_bound(result["scores_in"], result["scores_out"], result["delta"],
                             confidence=confidence, method=method)
    claimed = float(result["epsilon_claimed"])
    tight = result.get("epsilon_tight")
    tight = None if tight is None else float(tight)
    e = lb["epsilon_lower"]
    pw = audit_power(lb["n_in"], lb["n_out"], lb["delta"], claimed, confidence=confidence,
                     method=method)
    evidence = {"epsilon_lower": e, "epsilon_claimed": claimed, "epsilon_tight": tight,
                "delta": lb["delta"], "runs": [lb["n_in"], lb["n_out"]],
                "threshold": lb["threshold"], "orientation": lb["orientation"],
                "tpr": lb["tpr"], "fpr": lb["fpr"], "method": lb["method"],
                "confidence": confidence, "ideal_power": pw}
    for k in ("algorithm", "calibration", "canary", "data_dependent_params",
              "epsilon_lower_certified", "epsilon_upper_certified", "interval_method"):
        if k in result:
            evidence[k] = result[k]
    interval = _interval_text(result)
    leaks = result.get("data_dependent_params") or []
    if e > claimed:
        why = (f"; parameters that differ between the neighbouring datasets: {', '.join(leaks)}"
               if leaks else "")
        return CheckResult(
            "refuted", f"empirical eps >= {e:.3g} ({confidence:.0%}) exceeds the claimed eps = "
            f"{claimed:.3g}{interval}{why}", evidence, claim="privacy", severity="privacy",
            consequence=("The release is not (eps, delta)-DP at the claimed eps: a certified "
                         "membership attack beats the guarantee"
                         + (" through data-dependent parameters the accounting ignores."
                            if leaks else ".")),
            power={"statement": _power_statement(pw, lb["delta"])},
            root=f"{result.get('algorithm', 'audit')}:"
                 + (f"data-dependent-{leaks[0]}" if leaks else "audit"))
    reasons = []
    if pw["factor"] > POWER_FACTOR:
        reasons.append(_power_statement(pw, lb["delta"]) + f" > {POWER_FACTOR:g} x the claim")
    if twin is not None:
        tlb = epsilon_lower_bound(twin["scores_in"], twin["scores_out"], twin["delta"],
                                  confidence=confidence, method=method)["epsilon_lower"]
        t_iv = _interval_text(twin)
        evidence["twin"] = {"epsilon_lower": tlb, "epsilon_calibrated": twin.get("epsilon_twin"),
                            "epsilon_lower_certified": twin.get("epsilon_lower_certified"),
                            "epsilon_upper_certified": twin.get("epsilon_upper_certified"),
                            "detected": tlb > claimed}
        if not tlb > claimed:
            reasons.append(f"the planted twin (noise calibrated to eps = "
                           f"{twin.get('epsilon_twin', POWER_FACTOR * claimed):.3g}{t_iv}) was "
                           f"not detected (lower bound {tlb:.3g}): this release hides what "
                           "its noise would leak")
    up = result.get("epsilon_upper_certified")
    if reasons:
        if up is not None and up <= claimed and not leaks:
            # at a large delta the certified eps can be 0: say it as (0, delta)-DP
            private = (f"(0, {lb['delta']:.3g})-DP" if up <= 0 else
                       f"private at eps <= {up:.3g}")
            reasons.append(f"the noise used is certified {private}, so no valid audit could "
                           "refute the claim")
        return CheckResult("inconclusive", f"empirical eps >= {e:.3g} ({confidence:.0%}) <= "
                           f"claimed eps = {claimed:.3g}, but the audit lacks power: "
                           + "; ".join(reasons), evidence, claim="privacy")
    statement = _power_statement(pw, lb["delta"])
    if twin is not None:
        statement += (f"; the planted twin calibrated to eps = "
                      f"{twin.get('epsilon_twin', POWER_FACTOR * claimed):.3g} was detected "
                      f"(lower bound {evidence['twin']['epsilon_lower']:.3g})")
    return CheckResult("supported", f"empirical eps >= {e:.3g} ({confidence:.0%}) <= claimed "
                       f"eps = {claimed:.3g}{interval}", evidence, claim="privacy",
                       power={"statement": statement, "ideal": pw,
                              **({"selftest": {"planted": "twin at "
                                                          f"{POWER_FACTOR:g} x the claim",
                                               "caught": True}} if twin is not None else {})})


def evaluate_recipe(r: Any, pooled: dict[Any, dict[str, Any]]) -> CheckResult:
    """Verdict of an audit recipe from its pooled cells (one per sweep point): the audited
    calibrations (``paper``, ``tight``) each get :func:`audit_check` with the ``twin`` point
    as their planted twin; refuted if any is, supported only if all are."""
    twin = pooled.get("twin")
    per, results = {}, {}
    for x in sorted(k for k in pooled if k != "twin"):
        chk = audit_check(pooled[x], twin=twin)
        results[x] = chk
        per[str(x)] = {"verdict": chk.verdict, "summary": chk.summary, **chk.evidence}
    if not results:
        return CheckResult("inconclusive", "no audited point finished", {"points": per})
    refuted = [x for x, c in results.items() if c.verdict == "refuted"]
    if refuted:
        c = results[refuted[0]]
        return c.replace(summary=f"[{refuted[0]} calibration] {c.summary}",
                         evidence={"points": per})
    if all(c.verdict == "supported" for c in results.values()):
        c = next(iter(results.values()))
        return CheckResult("supported", "; ".join(f"[{x}] {c.summary}" for x, c in results.items()),
                           {"points": per}, claim="privacy", power=c.power)
    bad = next(x for x, c in results.items() if c.verdict != "supported")
    return CheckResult("inconclusive", f"[{bad} calibration] {results[bad].summary}",
                       {"points": per}, claim="privacy")


def audit_summary(result: dict[str, Any], *, confidence: float = 0.95,
                  twin: dict[str, Any] | None = None) -> dict[str, Any]:
    """The JSON summary of one audit (keys of ``dptheory audit --json``)."""
    chk = audit_check(result, confidence=confidence, twin=twin)
    ev = chk.evidence
    pw = ev["ideal_power"]
    return {"algorithm": result.get("algorithm", ""), "calibration": result.get("calibration", ""),
            "epsilon_claimed": ev["epsilon_claimed"], "epsilon_lower": ev["epsilon_lower"],
            "epsilon_tight": ev["epsilon_tight"], "delta": ev["delta"], "runs": ev["runs"],
            "epsilon_interval": [result.get("epsilon_lower_certified"),
                                 result.get("epsilon_upper_certified")],
            "eps_detect": pw["eps_detect"] if math.isfinite(pw["eps_detect"]) else None,
            "verdict": chk.verdict, "severity": chk.severity, "summary": chk.summary,
            "power": None if chk.power is None else chk.power.get("statement"),
            "twin": ev.get("twin"), "evidence": _strict(ev)}


def _strict(x: Any) -> Any:
    """JSON-strict copy: non-finite floats become None."""
    if isinstance(x, dict):
        return {k: _strict(v) for k, v in x.items()}
    if isinstance(x, (list, tuple)):
        return [_strict(v) for v in x]
    if isinstance(x, float) and not math.isfinite(x):
        return None
    return x


# --------------------------------------------------------------------------- plug-ins
PLUGIN_RUNS = 8000          # runs per neighbouring dataset of a plug-in audit
PLUGIN_PILOT = 1000         # pilot runs per side that fit the scoring direction


@dataclass(frozen=True)
class PrivacyClaim:
    """What a plug-in algorithm declares so that ``dptheory audit ALG`` can audit it.

    Parameters
    ----------
    epsilon, delta : the claimed (epsilon, delta)-DP guarantee.
    relation : "add-remove" or "replace-one", the neighbouring relation of the claim.
    run_pair : ``run_pair(runs, seed, first_replicate) -> (released_in, released_out)``:
        ``runs`` independent runs of the algorithm on two neighbouring datasets (the
        plug-in chooses them, ideally its worst case), each an array of shape (runs, k) of
        what the algorithm releases. Replicate ``first_replicate + i`` must depend only on
        (seed, first_replicate + i), so that pilot and scored runs are independent.
    event : optional, the mechanism as privacy events (:mod:`dptheory.privacy.events`,
        noise multipliers relative to the relation's sensitivity): its two-sided epsilon
        is computed, and a certified lower end above ``epsilon`` refutes the claim.
    attained : whether the event's sensitivities are attained by some pair of datasets
        (False: only the accountant's upper end is certified).
    """

    epsilon: float
    delta: float
    relation: str
    run_pair: Callable[[int, int, int], tuple[Any, Any]]
    event: Any = None
    attained: bool = True
    description: str = ""

    def __post_init__(self) -> None:
        from dptheory.privacy.tight import RELATIONS
        if not (math.isfinite(self.epsilon) and self.epsilon > 0):
            raise ValueError(f"privacy_claim epsilon must be > 0, got {self.epsilon!r}")
        _unit("privacy_claim delta", self.delta)
        if self.relation not in RELATIONS:
            raise ValueError(f"privacy_claim relation must be one of {RELATIONS}, "
                             f"got {self.relation!r}")
        if not callable(self.run_pair):
            raise ValueError("privacy_claim run_pair must be callable")


def privacy_claim_of(alg: Any) -> PrivacyClaim | None:
    """The claim a registered algorithm declares (attribute or method ``privacy_claim``)."""
    claim = getattr(alg, "privacy_claim", None)
    if claim is None:
        return None
    claim = claim() if callable(claim) else claim
    if not isinstance(claim, PrivacyClaim):
        raise ValueError(f"{getattr(alg, 'id', alg)}.privacy_claim must be a "
                         f"dptheory.verify.audit.PrivacyClaim, got {type(claim).__name__}")
    return claim


def _releases(claim: PrivacyClaim, runs: int, seed: int, first: int) -> tuple[np.ndarray, ...]:
    a, b = claim.run_pair(int(runs), int(seed), int(first))
    out = []
    for name, x in (("released_in", a), ("released_out", b)):
        x = np.asarray(x, dtype=np.float64)
        x = x.reshape(x.shape[0], -1) if x.ndim != 2 else x
        if x.shape[0] != runs or not np.all(np.isfinite(x)):
            raise ValueError(f"run_pair must return {name} of shape ({runs}, k) with finite "
                             f"values, got shape {x.shape}")
        out.append(x)
    return tuple(out)


def _discriminant(p_in: np.ndarray, p_out: np.ndarray) -> np.ndarray:
    """Sigma^-1 (mean_in - mean_out) from pilot releases (ridge-regularised)."""
    diff = p_in.mean(axis=0) - p_out.mean(axis=0)
    cov = np.atleast_2d(0.5 * (np.cov(p_in, rowvar=False) + np.cov(p_out, rowvar=False)))
    ridge = 1e-6 * (np.trace(cov) / cov.shape[0] + 1e-300)
    v = np.linalg.solve(cov + ridge * np.eye(cov.shape[0]), diff)
    nv = np.linalg.norm(v)
    return v / nv if np.isfinite(nv) and nv > 0 else np.eye(p_in.shape[1])[0]


def audit_plugin(alg: Any, *, runs: int = PLUGIN_RUNS, seed: int = 0,
                 pilot: int = PLUGIN_PILOT, confidence: float = 0.95) -> dict[str, Any]:
    """Audit a plug-in algorithm from its :class:`PrivacyClaim`: the two-sided accountant on
    its declared events, and a membership audit of its releases (scored along a linear
    discriminant fitted on separate pilot runs). Returns the JSON summary of
    ``dptheory audit``; the verdict is ``refuted`` when either certified lower bound (the
    accountant's lower end or the audit's) exceeds the claim."""
    claim = privacy_claim_of(alg)
    if claim is None:
        raise ValueError(f"algorithm {getattr(alg, 'id', alg)!r} declares no privacy_claim")
    # pilot runs on replicates of their own, so the direction is independent of the scores
    u = _discriminant(*_releases(claim, pilot, seed, 2 * 10 ** 9))
    r_in, r_out = _releases(claim, runs, seed, 0)
    result = {"scores_in": r_in @ u, "scores_out": r_out @ u, "epsilon_claimed": claim.epsilon,
              "delta": claim.delta, "algorithm": getattr(alg, "id", str(alg)),
              "calibration": "plug-in"}
    iv = None
    if claim.event is not None:
        from dptheory.privacy.tight import epsilon_interval
        iv = epsilon_interval(claim.event, claim.delta, relation=claim.relation,
                              attained=claim.attained)
        result.update({"epsilon_lower_certified": iv.lower, "epsilon_upper_certified": iv.upper,
                       "interval_method": iv.method})
    out = audit_summary(result, confidence=confidence)
    out.update({"relation": claim.relation, "pilot": pilot, "seed": seed})
    pw = out["evidence"]["ideal_power"]
    audit_txt = (f"audit: eps >= {out['epsilon_lower']:.3g} (95%, {runs} + {runs} runs), "
                 + _power_statement({**pw, "eps_detect": pw["eps_detect"] or math.inf},
                                    claim.delta))
    if iv is not None and iv.lower > claim.epsilon and out["verdict"] != "refuted":
        out.update({"verdict": "refuted", "severity": "privacy",
                    "summary": f"the two-sided accountant certifies true eps in [{iv.lower:.4g}, "
                               f"{iv.upper:.4g}] > claimed eps = {claim.epsilon:g} "
                               f"(delta = {claim.delta:g}); {audit_txt}"})
    elif (iv is not None and iv.upper <= claim.epsilon and out["verdict"] == "inconclusive"):
        out.update({"verdict": "supported",
                    "summary": f"the two-sided accountant certifies true eps <= {iv.upper:.4g} "
                               f"<= claimed eps = {claim.epsilon:g} for the declared mechanism; "
                               f"{audit_txt}",
                    "power": "certified upper end of the declared mechanism (a lower end above "
                             "the claim would have refuted it); " + audit_txt})
    out["accountant"] = None if iv is None else iv.as_dict()
    return out


# --------------------------------------------------------------------------- discovery
EXPERIMENTS_GROUP = "dptheory.experiments"


def experiment_recipes(check: str | None = "audit") -> list[Any]:
    """Recipes registered in the ``dptheory.experiments`` entry-point group (modules with
    ``RECIPES``), optionally only those of one check kind."""
    from importlib.metadata import entry_points
    out = []
    for ep in sorted(entry_points(group=EXPERIMENTS_GROUP), key=lambda e: e.name):
        module = ep.load()
        for r in getattr(module, "RECIPES", ()):
            if check is None or r.check == check:
                out.append(r)
    return out
