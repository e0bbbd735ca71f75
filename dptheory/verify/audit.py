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
:class:`~dptheory.verify.verdict.CheckResult`: ``fail`` (a finding) when the lower bound
exceeds the claimed epsilon, ``pass`` otherwise.
"""

from __future__ import annotations

import math
from typing import Any, Sequence

import numpy as np
from scipy import stats

from dptheory.verify.verdict import CheckResult

__all__ = ["clopper_pearson", "cp_lower", "cp_upper", "epsilon_lower_bound", "one_run_audit",
           "one_run_p_value", "audit_check", "audit_summary", "experiment_recipes"]

METHODS = ("bonferroni", "split")


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


# --------------------------------------------------------------------------- recipes
def evaluate_recipe(r: Any, pooled: dict[Any, dict[str, Any]]) -> CheckResult:
    """Verdict of an audit recipe from its pooled cells (one per sweep point)."""
    xs = sorted(pooled)
    per = {}
    verdict = "inconclusive"     # without a stated power an audit never supports a claim
    for x in xs:
        p = pooled[x]
        lb = epsilon_lower_bound(p["scores_in"], p["scores_out"], p["delta"])
        eps_lower = float(lb["epsilon_lower"])
        claimed = float(p["epsilon_claimed"])
        v = "refuted" if eps_lower > claimed else "inconclusive"
        if v == "refuted":
            verdict = "refuted"
        per[str(x)] = {"verdict": v, "epsilon_lower": eps_lower, "epsilon_claimed": claimed,
                       "epsilon_tight": p.get("epsilon_tight"), "runs": len(p["scores_in"]),
                       "threshold": lb.get("threshold")}
    worst = max(per.values(), key=lambda v: v["epsilon_lower"] - v["epsilon_claimed"])
    summary = (f"epsilon lower bound (95%) {worst['epsilon_lower']:.3g} vs claimed "
               f"{worst['epsilon_claimed']:.3g} (tight accountant "
               f"{_fmt(worst['epsilon_tight'])}), {worst['runs']} runs")
    if verdict == "refuted":
        return CheckResult(verdict, summary, {"points": per}, claim="privacy", severity="privacy",
                           consequence="a certified lower bound on the mechanism's epsilon "
                                       "exceeds the claimed epsilon")
    return CheckResult(verdict, summary + "; the audit's power is not stated, so it cannot "
                       "support the claim", {"points": per}, claim="privacy")


def _fmt(x: Any) -> str:
    return f"{x:.3g}" if isinstance(x, (int, float)) else str(x)


# --------------------------------------------------------------------------- verdicts
def audit_check(result: dict[str, Any], *, confidence: float = 0.95,
                method: str = "bonferroni") -> CheckResult:
    """Verdict of a pooled audit: ``refuted`` (a finding) when eps_lower > epsilon_claimed,
    otherwise ``inconclusive`` (an audit supports nothing without a stated power)."""
    for key in ("scores_in", "scores_out", "epsilon_claimed", "delta"):
        if key not in result:
            raise ValueError(f"audit result lacks {key!r}")
    lb = epsilon_lower_bound(result["scores_in"], result["scores_out"], result["delta"],
                             confidence=confidence, method=method)
    claimed = float(result["epsilon_claimed"])
    tight = result.get("epsilon_tight")
    tight = None if tight is None else float(tight)
    e = lb["epsilon_lower"]
    evidence = {"epsilon_lower": e, "epsilon_claimed": claimed, "epsilon_tight": tight,
                "delta": lb["delta"], "runs": [lb["n_in"], lb["n_out"]],
                "threshold": lb["threshold"], "orientation": lb["orientation"],
                "tpr": lb["tpr"], "fpr": lb["fpr"], "method": lb["method"],
                "confidence": confidence}
    for k in ("algorithm", "calibration", "canary"):
        if k in result:
            evidence[k] = result[k]
    tight_s = "" if tight is None else f", tight accountant eps = {tight:.3g}"
    if e > claimed:
        return CheckResult("refuted", f"empirical eps >= {e:.3g} ({confidence:.0%}) exceeds the "
                           f"claimed eps = {claimed:.3g}{tight_s}", evidence, claim="privacy",
                           severity="privacy", consequence="a certified lower bound on the "
                           "mechanism's epsilon exceeds the claimed epsilon")
    return CheckResult("inconclusive", f"empirical eps >= {e:.3g} ({confidence:.0%}) <= claimed eps "
                       f"= {claimed:.3g}{tight_s}", evidence)


def audit_summary(result: dict[str, Any], *, confidence: float = 0.95) -> dict[str, Any]:
    """The JSON summary of one audit (keys of ``dptheory audit --json``)."""
    chk = audit_check(result, confidence=confidence)
    ev = chk.evidence
    return {"algorithm": result.get("algorithm", ""), "calibration": result.get("calibration", ""),
            "epsilon_claimed": ev["epsilon_claimed"], "epsilon_lower": ev["epsilon_lower"],
            "epsilon_tight": ev["epsilon_tight"], "delta": ev["delta"], "runs": ev["runs"],
            "verdict": chk.verdict, "summary": chk.summary, "evidence": ev}


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
