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
           "one_run_p_value", "audit_power", "power_key", "power_of_key", "learn_power",
           "audit_check", "audit_summary", "evaluate_recipe",
           "experiment_recipes", "POWER_FACTOR", "PrivacyClaim", "privacy_claim_of",
           "audit_plugin", "gdp_lower_bound", "gdp_epsilon", "gdp_mu", "declared_mu",
           "twin_scale"]

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


def power_key(n_in: int, n_out: int, delta: float, claimed: float, *,
              confidence: float = 0.95, method: str = "bonferroni",
              reps: int = POWER_REPS) -> tuple:
    """The arguments of :func:`audit_power` as one hashable key (see :func:`learn_power`)."""
    return (int(n_in), int(n_out), float(delta), float(claimed), float(confidence), str(method),
            int(reps))


#: ideal powers computed in another process (``verify`` computes them beside its cells,
#: :mod:`dptheory.verify.beside`), by :func:`power_key`
_LEARNED: dict[tuple, dict[str, Any]] = {}


def learn_power(key: tuple, power: dict[str, Any]) -> None:
    """Record ``power`` = :func:`power_of_key` (``key``) computed elsewhere (the same fixed-seed
    computation), so :func:`audit_power` returns it instead of computing it again."""
    _LEARNED[key] = power


def power_of_key(key: tuple) -> dict[str, Any]:
    """:func:`audit_power` of a :func:`power_key`."""
    n_in, n_out, delta, claimed, confidence, method, reps = key
    return audit_power(n_in, n_out, delta, claimed, confidence=confidence, method=method,
                       reps=reps)


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
    Computed once per process (or learned, :func:`learn_power`).
    """
    key = power_key(n_in, n_out, delta, claimed, confidence=confidence, method=method, reps=reps)
    known = _LEARNED.get(key)
    return known if known is not None else _audit_power(*key)


@functools.lru_cache(maxsize=256)
def _audit_power(n_in: int, n_out: int, delta: float, claimed: float, confidence: float,
                 method: str, reps: int) -> dict[str, Any]:
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


def _constant_text(result: dict[str, Any]) -> str:
    """What the audit tests when the paper leaves the noise constant open (an existence
    claim: "there is a constant c2 such that ..."): dptheory's choice, not the paper."""
    c = result.get("open_constants") or {}
    if not c:
        return ""
    vals = ", ".join(f"{k} = {v:.4g}" for k, v in c.items())
    how = result.get("open_constants_choice")
    return (f"; tests dptheory's choice {vals}" + (f" ({how})" if how else "")
            + ", not a claim of the paper (the paper leaves the constant open: an existence "
              "claim)")


def _pair_text(result: dict[str, Any]) -> str:
    """For a single Gaussian output release: how much of the sensitivity bound the audited
    pair attains, and the true eps of the noise used on this pair (exact Gaussian curve)."""
    shift, bound = result.get("shift_attained"), result.get("sensitivity_bound")
    if shift is None or not bound:
        return ""
    e = result.get("epsilon_pair")
    return (f"; the audited pair attains {shift / bound:.3g} x the sensitivity bound "
            f"Delta = {bound:.4g} (shift {shift:.4g}; a loose bound is not a privacy "
            "violation)" + ("" if e is None else
                            f", on which the noise used has true eps = {e:.3g}"))


def _sees_text(result: dict[str, Any]) -> str:
    """What the adversary saw (transcript audits say it; the final-iterate audit's
    ``adversary`` key is in the evidence)."""
    sees = result.get("sees")
    if not sees:
        return ""
    eps_t = result.get("epsilon_transcript")
    exact = (f", whose exact eps on this canary is {eps_t[1]:.3g} (Gaussian-DP composition)"
             if eps_t and eps_t[1] is not None else "")
    return f"; the adversary saw {sees}{exact}"


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
    for k in ("algorithm", "calibration", "canary", "data_dependent_params", "open_constants", "adversary",
              "epsilon_lower_certified", "epsilon_upper_certified", "interval_method",
              "release", "shift_attained", "sensitivity_bound", "epsilon_pair"):
        if k in result:
            evidence[k] = result[k]
    interval = (_interval_text(result) + _constant_text(result) + _pair_text(result)
                + _sees_text(result))
    leaks = result.get("data_dependent_params") or []
    for k in ("sees", "release", "mu_transcript", "epsilon_transcript"):
        if k in result:
            evidence[k] = result[k]
    if e > claimed:
        why = (f"; parameters that differ between the neighbouring datasets: {', '.join(leaks)}"
               if leaks else "")
        # a transcript the algorithm does not output: the proof's claim on it fails, the
        # output's guarantee is not shown to fail
        transcript = result.get("release") == "transcript"
        return CheckResult(
            "refuted", f"empirical eps >= {e:.3g} ({confidence:.0%}) exceeds the claimed eps = "
            f"{claimed:.3g}{interval}{why}", evidence, claim="privacy",
            severity="proof" if transcript else "privacy",
            consequence=("The transcript the privacy proof composes is not (eps, delta)-DP at "
                         "the claimed eps: the proof's step fails (the output alone is not "
                         "shown to leak)." if transcript else
                         "The release is not (eps, delta)-DP at the claimed eps: a certified "
                         "membership attack beats the guarantee"
                         + (" through data-dependent parameters the accounting ignores."
                            if leaks else ".")),
            power={"statement": _power_statement(pw, lb["delta"])},
            root=f"{result.get('algorithm', 'audit')}:"
                 + (f"data-dependent-{leaks[0]}" if leaks else "audit"))
    reasons = []
    if pw["factor"] > POWER_FACTOR:
        reasons.append(_power_statement(pw, lb["delta"]) + f" > {POWER_FACTOR:g} x the claim")
    if twin is None:
        # the ideal release's power is not this algorithm's: no caught twin, no support
        reasons.append("power unknown: no twin (the audit was not run on a planted twin)")
    else:
        tlb = epsilon_lower_bound(twin["scores_in"], twin["scores_out"], twin["delta"],
                                  confidence=confidence, method=method)["epsilon_lower"]
        t_iv = _interval_text(twin)
        if twin.get("epsilon_pair") is not None:
            # calibrated on the audited pair itself (single Gaussian output release)
            t_iv = (f"; the noise used has true eps = {twin['epsilon_pair']:.3g} on the "
                    "audited pair (exact Gaussian curve at the attained shift)")
        evidence["twin"] = {"epsilon_lower": tlb, "epsilon_calibrated": twin.get("epsilon_twin"),
                            "epsilon_pair": twin.get("epsilon_pair"),
                            "calibration": twin.get("twin_calibration"),
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
                           + "; ".join(reasons) + _constant_text(result) + _pair_text(result),
                           evidence, claim="privacy")
    statement = _power_statement(pw, lb["delta"])
    if twin is not None:
        where = " (true eps on the audited pair)" if twin.get("epsilon_pair") is not None else ""
        statement += (f"; the planted twin calibrated to eps = "
                      f"{twin.get('epsilon_twin', POWER_FACTOR * claimed):.3g}{where} was detected "
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


# --------------------------------------------------------------------------- Gaussian DP
def gdp_lower_bound(scores_in: Sequence[float], scores_out: Sequence[float], *,
                    confidence: float = 0.95, max_thresholds: int = 64) -> dict[str, Any]:
    """A ``confidence`` lower bound on the Gaussian-DP parameter mu of the release.

    f-DP (Dong, Roth and Su 2022): a mechanism is mu-GDP when every test of D_in against
    D_out has FNR >= G_mu(FPR) = Phi(Phi^-1(1 - FPR) - mu). So for every threshold test

        mu >= Phi^-1(1 - FPR) - Phi^-1(FNR),

    and with Clopper-Pearson upper bounds on FPR and FNR (Bonferroni over the 2 orientations
    x K thresholds x 2 rates, as in :func:`epsilon_lower_bound`) the maximum over thresholds
    is a valid lower bound on the smallest mu for which the release is mu-GDP, whatever the
    distribution of the scores (Nasr et al. 2023, "Tight auditing of differentially private
    machine learning", Sec. 4, fit the Gaussian trade-off curve through such points).

    The bound says "the release is not mu'-GDP for any mu' < mu_lower". It says nothing about
    (eps, delta)-DP unless the release is a Gaussian mechanism (then its eps at delta is the
    GDP curve's, :func:`gdp_epsilon`); a declared Gaussian mechanism is mu-GDP exactly, so a
    lower bound above the declared mu refutes the declaration whatever the distribution.
    """
    s_in = _scores("scores_in", scores_in)
    s_out = _scores("scores_out", scores_out)
    confidence = _unit("confidence", confidence)
    t = _thresholds(np.concatenate([s_in, s_out]), int(max_thresholds))
    k_in, k_out = _rates(s_in, s_out, t)
    a = (1 - confidence) / (4 * t.size)
    n_in, n_out = s_in.size, s_out.size
    # in-high: reject "out" when score >= t: FPR = P_out(>= t), FNR = P_in(< t)
    fpr_hi, fnr_hi = cp_upper(k_out, n_out, a), cp_upper(n_in - k_in, n_in, a)
    # in-low: reject "out" when score < t: FPR = P_out(< t), FNR = P_in(>= t)
    fpr2_hi, fnr2_hi = cp_upper(n_out - k_out, n_out, a), cp_upper(k_in, n_in, a)
    with np.errstate(divide="ignore", invalid="ignore"):
        b = np.stack([stats.norm.ppf(1 - fpr_hi) - stats.norm.ppf(fnr_hi),
                      stats.norm.ppf(1 - fpr2_hi) - stats.norm.ppf(fnr2_hi)])
    b = np.where(np.isfinite(b), b, -np.inf)
    o, j = np.unravel_index(int(np.argmax(b)), b.shape)
    mu = float(b[o, j])
    # the point estimate at the same threshold (for the report, not a bound)
    fpr = (k_out[j] if o == 0 else n_out - k_out[j]) / n_out
    fnr = (n_in - k_in[j] if o == 0 else k_in[j]) / n_in
    with np.errstate(divide="ignore", invalid="ignore"):
        est = float(stats.norm.ppf(1 - fpr) - stats.norm.ppf(fnr))
    return {"mu_lower": max(mu, 0.0) if np.isfinite(mu) else 0.0,
            "mu_estimate": est if np.isfinite(est) else None, "threshold": float(t[j]),
            "orientation": _ORIENT[2 * o], "fpr": float(fpr), "fnr": float(fnr),
            "n_in": n_in, "n_out": n_out, "confidence": confidence,
            "thresholds_tried": int(t.size)}


def gdp_epsilon(mu: float, delta: float) -> float:
    """eps at ``delta`` of a mu-GDP mechanism (the Gaussian mechanism with sigma = 1/mu:
    delta(eps) = Phi(-eps/mu + mu/2) - e^eps Phi(-eps/mu - mu/2), Balle and Wang 2018)."""
    from dptheory.privacy.gaussian import gaussian_epsilon
    return 0.0 if mu <= 0 else gaussian_epsilon(delta, sigma=1.0 / mu)


def gdp_mu(epsilon: float, delta: float) -> float:
    """The mu whose Gaussian mechanism has exactly ``epsilon`` at ``delta`` (inverse of
    :func:`gdp_epsilon`)."""
    from scipy import optimize
    lo, hi = 1e-6, 1.0
    while gdp_epsilon(hi, delta) < epsilon:
        hi *= 2.0
    return float(optimize.brentq(lambda m: gdp_epsilon(m, delta) - epsilon, lo, hi,
                                 xtol=1e-12))


def declared_mu(event: Any) -> float | None:
    """The GDP parameter of a declared mechanism made of Gaussian events only (no
    subsampling): mu = sqrt(sum 1/sigma_i^2), exact by GDP composition (Dong, Roth and Su
    2022, Cor. 3.3); None when the event samples (its trade-off curve is not Gaussian)."""
    from dptheory.privacy.events import (ComposedEvent, GaussianEvent, SelfComposedEvent)

    def sq(e: Any) -> float | None:
        if isinstance(e, GaussianEvent):
            return 1.0 / float(e.noise_multiplier) ** 2
        if isinstance(e, SelfComposedEvent):
            v = sq(e.event)
            return None if v is None else int(e.count) * v
        if isinstance(e, ComposedEvent):
            vs = [sq(x) for x in e.events]
            return None if any(v is None for v in vs) else float(sum(vs))
        return None

    v = sq(event)
    return None if v is None else math.sqrt(v)


# --------------------------------------------------------------------------- plug-ins
#: runs per neighbouring dataset of a plug-in audit, in stages: the next stage runs only
#: when the previous one decided nothing; each stage's refuting tests are at level
#: 0.05 / (stages x tests) (union bound over stages and the refuting statistics), so the
#: verdict stays a valid 95 % statement whichever stage ends it
PLUGIN_STAGES = (8000, 64000, 256000, 1000000)
PLUGIN_RUNS = PLUGIN_STAGES[0]
PLUGIN_PILOT = 1000         # least pilot runs per side that fit the scoring direction
PLUGIN_CHUNK = 65536        # runs asked of run_pair at once (bounds the memory)
#: a plug-in's claim is supported only if the audit catches the planted twin, the same code
#: with its noise scaled so that (if its release is Gaussian) its eps is this multiple of the
#: claim: below the commonest bugs (0.6 x the noise: 1.78 x eps at eps = 2, delta = 1e-5; a
#: replace-one sensitivity taken for add/remove: 2.2 x)
PLUGIN_POWER_FACTOR = 1.5
#: relative slack when a certified accountant end is compared with the claim: a claim
#: calibrated exactly is equal to its accountant's value up to rounding
REL_TOL = 1e-6
NO_TWIN = "power unknown: no twin (run_pair takes no noise_scale argument)"


@dataclass(frozen=True)
class PrivacyClaim:
    """What a plug-in algorithm declares so that ``dptheory audit ALG`` can audit it.

    Parameters
    ----------
    epsilon, delta : the claimed (epsilon, delta)-DP guarantee.
    relation : "add-remove" or "replace-one", the neighbouring relation of the claim.
    run_pair : ``run_pair(runs, seed, first_replicate, noise_scale=1.0) -> (released_in,
        released_out)``: ``runs`` independent runs of the algorithm on two neighbouring
        datasets (the plug-in chooses them, ideally its worst case), each an array of shape
        (runs, k) of everything the algorithm releases. Replicate ``first_replicate + i``
        must depend only on (seed, first_replicate + i), so that pilot and scored runs are
        independent. ``noise_scale`` multiplies the standard deviation of every noise the
        algorithm adds: the audit runs a *planted twin* at ``noise_scale < 1`` (the same code,
        less private) and supports the claim only if it catches the twin. A ``run_pair``
        without this argument still works, but its audit can never be ``supported`` (the
        verdict says "power unknown: no twin").
    event : optional, the mechanism as privacy events (:mod:`dptheory.privacy.events`,
        noise multipliers relative to the relation's sensitivity). A declaration is a claim
        to test, not evidence: its two-sided epsilon is computed (a certified lower end
        above ``epsilon`` refutes the claim), and, when it is made of Gaussian events, the
        releases are tested against it (the code's certified Gaussian-DP mu must not exceed
        the declared one).
    attained : whether the event's sensitivities are attained by some pair of datasets
        (False: only the accountant's upper end is certified).
    description : free text shown in ``dptheory algorithms``.
    """

    epsilon: float
    delta: float
    relation: str
    run_pair: Callable[..., tuple[Any, Any]]
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

    @property
    def scalable(self) -> bool:
        """Whether ``run_pair`` takes the ``noise_scale`` argument (a twin can be planted)."""
        import inspect
        try:
            ps = inspect.signature(self.run_pair).parameters
        except (TypeError, ValueError):
            return False
        return "noise_scale" in ps or any(p.kind == p.VAR_KEYWORD for p in ps.values())


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


def _releases(claim: PrivacyClaim, runs: int, seed: int, first: int,
              scale: float = 1.0) -> tuple[np.ndarray, ...]:
    kw = {} if scale == 1.0 else {"noise_scale": float(scale)}
    a, b = claim.run_pair(int(runs), int(seed), int(first), **kw)
    out = []
    for name, x in (("released_in", a), ("released_out", b)):
        x = np.asarray(x, dtype=np.float64)
        x = x.reshape(x.shape[0], -1) if x.ndim != 2 else x
        if x.shape[0] != runs or not np.all(np.isfinite(x)):
            raise ValueError(f"run_pair must return {name} of shape ({runs}, k) with finite "
                             f"values, got shape {x.shape}")
        out.append(x)
    return tuple(out)


def _scored(claim: PrivacyClaim, u: np.ndarray, runs: int, seed: int,
            scale: float) -> tuple[np.ndarray, np.ndarray]:
    """Scores along ``u`` of replicates 0..runs-1, asked of run_pair in chunks."""
    s_in, s_out = [], []
    for first in range(0, runs, PLUGIN_CHUNK):
        r_in, r_out = _releases(claim, min(PLUGIN_CHUNK, runs - first), seed, first, scale)
        s_in.append(r_in @ u)
        s_out.append(r_out @ u)
    return np.concatenate(s_in), np.concatenate(s_out)


def _discriminant(p_in: np.ndarray, p_out: np.ndarray) -> np.ndarray:
    """Sigma^-1 (mean_in - mean_out) from pilot releases (ridge-regularised): the
    likelihood-ratio (Neyman-Pearson) direction when the release is Gaussian with a
    covariance the canary does not change, as for Gaussian noise on released iterates."""
    diff = p_in.mean(axis=0) - p_out.mean(axis=0)
    cov = np.atleast_2d(0.5 * (np.cov(p_in, rowvar=False) + np.cov(p_out, rowvar=False)))
    ridge = 1e-6 * (np.trace(cov) / cov.shape[0] + 1e-300)
    v = np.linalg.solve(cov + ridge * np.eye(cov.shape[0]), diff)
    nv = np.linalg.norm(v)
    return v / nv if np.isfinite(nv) and nv > 0 else np.eye(p_in.shape[1])[0]


def _plugin_stage(claim: PrivacyClaim, runs: int, seed: int, pilot: int, scale: float,
                  confidence: float) -> dict[str, Any]:
    """Both certified statistics of one audit of the releases at ``noise_scale = scale``."""
    # pilot runs on replicates of their own, so the direction is independent of the scores
    u = _discriminant(*_releases(claim, pilot, seed, 2 * 10 ** 9, scale))
    s_in, s_out = _scored(claim, u, runs, seed, scale)
    lb = epsilon_lower_bound(s_in, s_out, claim.delta, confidence=confidence)
    g = gdp_lower_bound(s_in, s_out, confidence=confidence)
    sd = math.sqrt(0.5 * (s_in.var() + s_out.var()))
    shift = abs(float(s_in.mean() - s_out.mean())) / sd if sd > 0 else math.inf
    return {"noise_scale": scale, "runs": runs, "pilot": pilot,
            "epsilon_lower": lb["epsilon_lower"], "epsilon_bound": lb,
            "mu_lower": g["mu_lower"], "gdp_bound": g,
            # the shift of the scores over their spread: mu if the release is Gaussian (used
            # only to place the twin, never for a verdict)
            "mu_gaussian_fit": shift,
            "epsilon_if_gaussian": gdp_epsilon(g["mu_lower"], claim.delta)}


def twin_scale(mu_fit: float, epsilon: float, delta: float,
               factor: float = PLUGIN_POWER_FACTOR) -> float:
    """Noise scale of the planted twin: a Gaussian release whose mu is ``mu_fit``, run with
    its noise multiplied by this, has ``factor`` x ``epsilon`` at ``delta``
    (mu scales as 1 / noise; clipped to [1e-3, 1e3])."""
    target = gdp_mu(factor * epsilon, delta)
    return float(np.clip(mu_fit / target, 1e-3, 1e3)) if math.isfinite(mu_fit) else 1e-3


def audit_plugin(alg: Any, *, runs: int | None = None, seed: int = 0,
                 pilot: int | None = None, confidence: float = 0.95) -> dict[str, Any]:
    """Audit a plug-in algorithm from its :class:`PrivacyClaim`.

    Each stage (``PLUGIN_STAGES`` runs per side, or ``runs`` alone) scores the releases
    along a linear discriminant fitted on separate pilot runs (the likelihood ratio of a
    Gaussian release) and computes two certified statistics:

    * ``epsilon_lower`` (:func:`epsilon_lower_bound`): a lower bound on the code's eps on
      the plug-in's neighbouring pair, valid whatever the release's distribution; above the
      claim it refutes the claim;
    * ``mu_lower`` (:func:`gdp_lower_bound`): a lower bound on the code's Gaussian-DP mu,
      valid whatever the distribution. When the claim declares Gaussian events (mu_decl,
      :func:`declared_mu`), ``mu_lower > mu_decl`` refutes the declaration (the code is not
      the mechanism declared); the claim is then refuted (severity privacy) when the
      Gaussian release the code was declared to be has, at mu_lower, eps above the claim:
      that eps is conditional on the release being Gaussian, as declared, and the verdict
      says so; the declaration's falsity is not conditional.

    The refuting tests are each at level ``(1 - confidence) / (stages x tests)`` (union
    bound). The declared events also get the two-sided accountant (a certified lower end
    above the claim refutes it).

    The planted twin is the same code at ``noise_scale`` chosen so that, if the release is
    Gaussian with the mu fitted on this stage's scores, the twin's eps is
    ``PLUGIN_POWER_FACTOR`` x the claim (:func:`twin_scale`). The claim is ``supported``
    only when nothing refutes it, the declaration (if any) is within the claim and the
    twin is caught by the statistic that tests the code (the declaration test for a
    Gaussian declaration, else the eps bound). Without a ``noise_scale`` argument the
    verdict is at best ``inconclusive`` ("power unknown: no twin"). The next stage runs
    while the verdict is undecided. Returns the JSON summary of ``dptheory audit``.
    """
    claim = privacy_claim_of(alg)
    if claim is None:
        raise ValueError(f"algorithm {getattr(alg, 'id', alg)!r} declares no privacy_claim")
    confidence = _unit("confidence", confidence)
    stages = tuple(PLUGIN_STAGES) if runs is None else (int(runs),)
    for n in stages:
        if n < 10:
            raise ValueError(f"runs must be an integer >= 10, got {n}")
    iv = None
    if claim.event is not None:
        from dptheory.privacy.tight import epsilon_interval
        iv = epsilon_interval(claim.event, claim.delta, relation=claim.relation,
                              attained=claim.attained)
    mu_decl = None if claim.event is None else declared_mu(claim.event)
    tests = 1 if mu_decl is None else 2
    level = 1 - (1 - confidence) / (tests * len(stages))
    eps_c, tol = claim.epsilon, claim.epsilon * (1 + REL_TOL)
    history: list[dict[str, Any]] = []
    verdict, severity, summary, power, twin_scale_used = "inconclusive", None, "", None, None
    for n in stages:
        p = int(pilot) if pilot is not None else min(max(PLUGIN_PILOT, n // 8), 16000)
        main = _plugin_stage(claim, n, seed, p, 1.0, level)
        twin = None
        if claim.scalable:
            twin_scale_used = twin_scale(main["mu_gaussian_fit"], eps_c, claim.delta)
            twin = _plugin_stage(claim, n, seed + 1, p, twin_scale_used, level)
        history.append({"main": main, "twin": twin})
        df = (f"distribution-free: eps >= {main['epsilon_lower']:.3g}, Gaussian-DP mu >= "
              f"{main['mu_lower']:.3g} ({n} + {n} runs, each test at level "
              f"{1 - level:.2g}: {confidence:.0%} overall)")
        decl_false = mu_decl is not None and main["mu_lower"] > mu_decl
        if main["epsilon_lower"] > eps_c:
            verdict, severity = "refuted", "privacy"
            summary = (f"the releases certify eps >= {main['epsilon_lower']:.3g} > claimed eps "
                       f"= {eps_c:g} (distribution-free membership test, {n} + {n} runs)"
                       + (f"; the code is not the declared mechanism either (mu >= "
                          f"{main['mu_lower']:.3g} > declared {mu_decl:.3g})"
                          if decl_false else ""))
        elif decl_false and main["epsilon_if_gaussian"] > eps_c:
            verdict, severity = "refuted", "privacy"
            summary = (f"the code is not the declared mechanism: its releases certify "
                       f"Gaussian-DP mu >= {main['mu_lower']:.3g} > declared mu = "
                       f"{mu_decl:.3g} (whatever the distribution); a Gaussian release, as "
                       f"declared, at that mu has eps = {main['epsilon_if_gaussian']:.3g} > "
                       f"claimed eps = {eps_c:g} (conditional on the release being Gaussian); "
                       f"{df}")
        elif iv is not None and iv.lower > tol:
            verdict, severity = "refuted", "privacy"
            summary = (f"the declared mechanism itself has true eps in [{iv.lower:.4g}, "
                       f"{iv.upper:.4g}] > claimed eps = {eps_c:g} (two-sided accountant on "
                       f"the declaration); {df}")
        if verdict == "refuted" or decl_false:
            if verdict != "refuted":
                summary = (f"the code is not the declared mechanism (Gaussian-DP mu >= "
                           f"{main['mu_lower']:.3g} > declared {mu_decl:.3g}), but a Gaussian "
                           f"release at that mu is within the claim (eps = "
                           f"{main['epsilon_if_gaussian']:.3g}); {df}")
            break
        if twin is None:
            summary = f"{NO_TWIN}; nothing refutes the claim: {df}"
            continue
        if mu_decl is not None:
            caught = twin["mu_lower"] > mu_decl
            how = (f"the declaration test (twin's mu >= {twin['mu_lower']:.3g} > declared "
                   f"{mu_decl:.3g})")
        else:
            caught = twin["epsilon_lower"] > eps_c
            how = f"the eps bound (twin's eps >= {twin['epsilon_lower']:.3g} > {eps_c:g})"
        within = iv is None or iv.upper <= tol
        twin_txt = (f"the planted twin (noise x {twin_scale_used:.3g}: eps = "
                    f"{PLUGIN_POWER_FACTOR * eps_c:.3g} if the release is Gaussian with the "
                    f"fitted mu = {main['mu_gaussian_fit']:.3g})")
        if caught and within:
            verdict = "supported"
            if iv is not None and mu_decl is not None:
                part = (f"the declared mechanism has eps <= {iv.upper:.4g} <= {eps_c:g} "
                        f"(two-sided accountant) and the code is consistent with it "
                        f"(mu >= {main['mu_lower']:.3g}, declared {mu_decl:.3g})")
            elif iv is not None:
                part = (f"the declared mechanism has eps <= {iv.upper:.4g} <= {eps_c:g} "
                        "(two-sided accountant); the code's releases do not refute the claim")
            else:
                part = "the code's releases do not refute the claim"
            summary = f"{part}; {df}"
            power = f"{twin_txt} was caught by {how}, {n} + {n} runs"
            break
        summary = (f"nothing refutes the claim, but {twin_txt} was not caught (eps >= "
                   f"{twin['epsilon_lower']:.3g}, mu >= {twin['mu_lower']:.3g})"
                   + ("" if within else f"; the declared mechanism's eps <= {iv.upper:.4g} "
                                        "exceeds the claim") + f"; {df}")
    last, lt = history[-1]["main"], history[-1]["twin"]
    out = {"algorithm": getattr(alg, "id", str(alg)), "calibration": "plug-in",
           "epsilon_claimed": eps_c, "epsilon_lower": last["epsilon_lower"],
           "mu_lower": last["mu_lower"], "mu_declared": mu_decl,
           "epsilon_if_gaussian": last["epsilon_if_gaussian"],
           "epsilon_tight": None if iv is None else iv.upper, "delta": claim.delta,
           "runs": [last["runs"], last["runs"]],
           "epsilon_interval": [None if iv is None else iv.lower,
                                None if iv is None else iv.upper],
           "eps_detect": None, "verdict": verdict, "severity": severity, "summary": summary,
           "power": power or (NO_TWIN if not claim.scalable else None),
           "twin": None if lt is None else {
               "noise_scale": twin_scale_used, "epsilon_lower": lt["epsilon_lower"],
               "mu_lower": lt["mu_lower"], "detected": verdict == "supported",
               "power_factor": PLUGIN_POWER_FACTOR},
           "relation": claim.relation, "pilot": last["pilot"], "seed": seed,
           "stages": [{"runs": h["main"]["runs"], "epsilon_lower": h["main"]["epsilon_lower"],
                       "mu_lower": h["main"]["mu_lower"],
                       "mu_gaussian_fit": h["main"]["mu_gaussian_fit"],
                       "twin_epsilon_lower": None if h["twin"] is None
                       else h["twin"]["epsilon_lower"],
                       "twin_mu_lower": None if h["twin"] is None else h["twin"]["mu_lower"]}
                      for h in history],
           "level_per_test": 1 - level,
           "accountant": None if iv is None else iv.as_dict()}
    return _strict(out)


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
