"""Check constructors: measurements against a claim, judged at the logic of the claim.

Each function returns a :class:`~dptheory.verify.verdict.CheckResult` whose verdict says
what was shown (``refuted``, ``supported``, ``vacuous``, ``inconclusive``) with a one-line
reason and the numbers behind it. The rules (the derivations are in the docstrings and the
tests rebuild them by hand):

* **Explicit upper bound** (:func:`bound_check`), the claim ``E[X] <= b``. Refuted only when
  a one-sided lower confidence limit of the mean exceeds ``b``; vacuous when ``b`` is at or
  above the largest value ``X`` can take (``trivial``) or the run left the claim's
  assumptions; supported when the upper limit is ``<= b`` *and* the test has power: a twin of
  the samples planted at ``planted_factor`` times the bound (same relative spread) is refuted.
* **O-rate** (:func:`rate_check`), the claim ``X(x) = O(x^e)`` as an *upper* bound. A steeper
  measured decay never contradicts it. A shallower exponent refutes it only in a run shown to
  be asymptotic: non-vacuous points, and local slopes stable over the last two successive
  ranges. Otherwise the verdict is inconclusive (pre-asymptotic). Supported needs the same
  stability and power: a twin planted at exponent ``e + planted_shift`` must be refuted.
* **Supremum bound** (:func:`sup_check`), e.g. a sensitivity ``sup_{S~S'} |q(S) - q(S')| <= b``.
  One example above ``b`` (beyond float rounding) is a certified counterexample. A search
  that finds none supports the claim only if it came close: it reached ``min_reach`` of the
  bound (so a bound ``1/min_reach`` times too small would have been caught).
* **Derivation** (:func:`derivation_check`): a derived rate larger than the stated one is a
  disagreement (refuted, severity ``rate``); a stated rate larger than the derived one is
  loose but valid (supported).

All limits are one-sided at ``confidence``, divided by ``tests`` (Bonferroni) when several
points or data sets are judged at once. Every bootstrap is seeded, so a verdict reproduces.
"""

from __future__ import annotations

import math
from typing import Any, Mapping, Sequence

import numpy as np

from dptheory.stats import (_check_confidence, _samples, hierarchical_boot_means,
                            hierarchical_boot_quantiles, is_binary, one_sided_limits)
from dptheory.verify.verdict import CheckResult

__all__ = ["bound_check", "exact_check", "rate_check", "envelope_rate_check", "sup_check", "stability_check", "derivation_check",
           "combine", "PLANTED_FACTOR", "PLANTED_SHIFT", "STABLE_TOL", "MIN_REACH", "WINDOW"]

PLANTED_FACTOR = 2.0     # a bound violated by this factor must be caught for a `supported`
PLANTED_SHIFT = 0.25     # an exponent this much shallower must be caught for a `supported`
STABLE_TOL = 0.1         # successive local slopes within this (90% interval) = asymptotic
MIN_REACH = 0.5          # a search must reach this fraction of a sup-bound to support it
WINDOW = 5               # a rate is judged on the last 5 sweep points: two ranges of 3


def _number(value: Any, name: str, *, allow_inf: bool = True) -> float:
    try:
        v = float(value)
    except (TypeError, ValueError):
        raise ValueError(f"{name} must be a real number, got {value!r}") from None
    if math.isnan(v) or (not allow_inf and math.isinf(v)):
        raise ValueError(f"{name} must be a {'finite ' if not allow_inf else ''}number, got {v}")
    return v


def _g(x: Any) -> str:
    if x is None:
        return "None"
    try:
        return f"{float(x):.4g}"
    except (TypeError, ValueError):
        return str(x)


def _jsonable(x: Any) -> Any:
    if isinstance(x, np.ndarray):
        return _jsonable(x.tolist())
    if isinstance(x, np.generic):
        return _jsonable(x.item())
    if isinstance(x, float) and not math.isfinite(x):
        return None if math.isnan(x) else ("inf" if x > 0 else "-inf")
    if isinstance(x, Mapping):
        return {str(k): _jsonable(v) for k, v in x.items()}
    if isinstance(x, (list, tuple)):
        return [_jsonable(v) for v in x]
    if x is None or isinstance(x, (bool, int, float, str)):
        return x
    return repr(x)


def _tests(tests: Any) -> int:
    if isinstance(tests, bool) or not isinstance(tests, (int, np.integer)) or tests < 1:
        raise ValueError(f"tests must be an integer >= 1, got {tests!r}")
    return int(tests)


# ---------------------------------------------------------------------------- bound
def bound_check(samples: Sequence[float] | np.ndarray, bound: float, *,
                trivial: float | None = None, trivial_source: str = "",
                in_domain: float | None = None, tests: int = 1, confidence: float = 0.95,
                planted_factor: float = PLANTED_FACTOR, quantity: str = "mean",
                severity: str = "bound", consequence: str = "", direction: str = "upper",
                _planted: bool = False) -> CheckResult:
    """The claim ``E[X] <= bound`` at one instance, judged from replicates of ``X``.

    ``direction="lower"`` judges the claim ``E[X] >= bound`` (e.g. a first-order descent
    lower bound) by the mirror rules: refuted iff the *upper* limit is below the bound,
    vacuous iff the bound is at or below the *smallest* value ``X`` can take (``trivial``
    then names that), and the planted twin has mean ``bound / planted_factor``, so the
    detectable factor is ``upper / mean`` (for a positive mean).

    Parameters
    ----------
    samples : replicates of the measured quantity (indicators 0/1 get Clopper-Pearson
        limits, others Student-t).
    bound : the claim's explicit bound at this instance (``inf`` is never binding).
    trivial : the largest value ``X`` can take here (e.g. the certified G for a gradient
        norm, 1 for a probability); ``None`` if unbounded. A bound ``>= trivial`` is vacuous.
    in_domain : fraction of replicates whose run stayed inside the claim's assumptions
        (``None``: not recorded). Below 1 the verdict is vacuous: the claim says nothing.
    tests : number of instances judged together; each limit is taken at level
        ``1 - (1 - confidence)/tests`` (Bonferroni), so the verdicts hold jointly.
    planted_factor : power requirement: samples rescaled to a mean ``planted_factor *
        bound`` (same relative spread) must be refuted for a ``supported``. The rescaled lower
        limit is ``LCL * f * bound / mean``, so it is refuted iff ``mean / LCL < f``: the
        detectable violation factor is ``mean / LCL``.

    Returns
    -------
    CheckResult
        ``refuted`` iff the lower limit exceeds ``bound``; ``vacuous`` if the bound cannot
        bind (``bound >= trivial``) or the run left the assumptions; ``supported`` iff the
        upper limit is ``<= bound`` and the planted twin is refuted; else ``inconclusive``.

    Examples
    --------
    >>> import numpy as np
    >>> x = np.random.default_rng(0).normal(1.0, 0.1, 50)
    >>> bound_check(x, 0.5).verdict, bound_check(x, 2.0).verdict
    ('refuted', 'supported')
    >>> bound_check(x, 2.0, trivial=1.5).verdict
    'vacuous'
    """
    if direction not in ("upper", "lower"):
        raise ValueError(f"direction must be 'upper' or 'lower', got {direction!r}")
    if direction == "lower":
        return _lower_bound_check(samples, bound, trivial=trivial, trivial_source=trivial_source,
                                  in_domain=in_domain, tests=tests, confidence=confidence,
                                  planted_factor=planted_factor, quantity=quantity,
                                  severity=severity, consequence=consequence)
    a = _samples(samples)
    b = _number(bound, "bound")
    c = _check_confidence(confidence)
    m = _tests(tests)
    level = 1 - (1 - c) / m
    f = _number(planted_factor, "planted_factor", allow_inf=False)
    if f <= 1:
        raise ValueError(f"planted_factor must be > 1, got {f}")
    t = None if trivial is None else _number(trivial, "trivial")
    lo, hi = one_sided_limits(a, level)
    mean = float(a.mean())
    detect = mean / lo if lo > 0 else math.inf
    ev: dict[str, Any] = {
        "quantity": quantity, "bound": b, "mean": mean, "lower": lo, "upper": hi,
        "level": level, "tests": m, "n": int(a.size), "binary": is_binary(a),
        "std": float(a.std(ddof=1)) if a.size > 1 else None, "max": float(a.max()),
        "mean_over_bound": mean / b if b > 0 and math.isfinite(b) else None,
        "trivial": t, "trivial_source": trivial_source, "in_domain": in_domain,
        "detectable_factor": detect}
    ev = _jsonable(ev)
    pre = f"{quantity}: mean {_g(mean)}, one-sided {level:.4g} limits [{_g(lo)}, {_g(hi)}]"
    if lo > b:
        why = (f"{pre}: the lower limit exceeds the bound {_g(b)} "
               f"(mean/bound {_g(mean / b) if b > 0 else 'inf'}, n={a.size})")
        return CheckResult("refuted", why, ev, claim="upper-bound", severity=severity,
                           consequence=consequence or f"the printed bound on {quantity} is "
                           f"false at this instance", root="")
    if in_domain is not None and in_domain < 1:
        return CheckResult("vacuous", f"{pre}; the run left the claim's assumptions in "
                           f"{1 - in_domain:.0%} of replicates, so the bound says nothing", ev,
                           claim="upper-bound")
    if t is not None and b >= t:
        return CheckResult("vacuous", f"{pre}; the bound {_g(b)} is at or above the largest "
                           f"value the quantity can take ({_g(t)}{', ' + trivial_source if trivial_source else ''}): "
                           "it cannot bind", ev, claim="upper-bound")
    if hi > b:
        return CheckResult("inconclusive", f"{pre} straddle the bound {_g(b)}: cannot decide "
                           f"at n={a.size}", ev, claim="upper-bound")
    if _planted:
        return CheckResult("inconclusive", f"{pre} below the bound {_g(b)} (planted twin not "
                           "refuted)", ev, claim="upper-bound")
    # Power: the same test on a twin whose mean is f times the bound.
    if mean > 0 and not ev["binary"]:
        twin = bound_check(a * (f * b / mean), b, tests=m, confidence=c, quantity=quantity,
                           planted_factor=f, _planted=True)
        caught = twin.verdict == "refuted"
        planted = f"samples rescaled to mean {f:g} x bound"
    elif ev["binary"]:
        # indicators: the smallest count k out of n whose lower limit exceeds the bound
        k_min = next((k for k in range(a.size + 1)
                      if one_sided_limits(np.r_[np.ones(k), np.zeros(a.size - k)], level)[0] > b),
                     None)
        caught = k_min is not None and k_min / a.size <= min(1.0, f * b)
        detect = (k_min / a.size / b) if (k_min is not None and b > 0) else math.inf
        ev["detectable_factor"] = _jsonable(detect)
        planted = (f"{k_min} of {a.size} failures (rate {k_min / a.size:.3g})" if k_min is not None
                   else f"no count out of {a.size} is refuted")
    else:
        caught, planted = False, "mean <= 0: no relative twin"
    power = {"statement": f"refutes a true mean >= {_g(detect)} x the bound "
                          f"(one-sided {level:.4g}, n={a.size})",
             "detectable_factor": _jsonable(detect),
             "selftest": {"planted": planted, "caught": bool(caught)}}
    ev["power"] = power
    if not caught:
        return CheckResult("inconclusive", f"{pre} below the bound {_g(b)}, but too little "
                           f"power: a violation by a factor {f:g} would not be detected "
                           f"(detectable factor {_g(detect)})", ev, claim="upper-bound")
    return CheckResult("supported", f"{pre} below the bound {_g(b)} (mean/bound "
                       f"{_g(ev['mean_over_bound'])}); detects a violation by a factor "
                       f"{_g(detect)}", ev, claim="upper-bound", power=power)


def _lower_bound_check(samples: Any, bound: float, *, trivial: float | None,
                       trivial_source: str, in_domain: float | None, tests: int,
                       confidence: float, planted_factor: float, quantity: str, severity: str,
                       consequence: str) -> CheckResult:
    """``E[X] >= bound`` through the upper-bound rules applied to ``-X <= -bound``, with the
    power restated for the lower bound (a twin at ``bound / f`` must be refuted)."""
    a = _samples(samples)
    b = _number(bound, "bound")
    f = _number(planted_factor, "planted_factor", allow_inf=False)
    if f <= 1:
        raise ValueError(f"planted_factor must be > 1, got {f}")
    neg = bound_check(-a, -b, trivial=None if trivial is None else -float(trivial),
                      trivial_source=trivial_source, in_domain=in_domain, tests=tests,
                      confidence=confidence, planted_factor=f, quantity=f"-({quantity})",
                      severity=severity, consequence=consequence, _planted=True)
    level = neg.evidence["level"]
    lo, hi = -neg.evidence["upper"], -neg.evidence["lower"]
    mean = float(a.mean())
    ev = dict(neg.evidence)
    ev.update({"quantity": quantity, "direction": "lower", "bound": b, "mean": mean,
               "lower": lo, "upper": hi, "trivial": trivial,
               "mean_over_bound": mean / b if b > 0 and math.isfinite(b) else None})
    pre = f"{quantity}: mean {_g(mean)}, one-sided {level:.4g} limits [{_g(lo)}, {_g(hi)}]"
    if neg.verdict == "refuted":
        return CheckResult("refuted", f"{pre}: the upper limit is below the lower bound {_g(b)}",
                           _jsonable(ev), claim="lower-bound", severity=severity,
                           consequence=consequence or f"the printed lower bound on {quantity} "
                           "is false at this instance")
    if neg.verdict == "vacuous":
        return CheckResult("vacuous", neg.summary.replace(f"-({quantity})", quantity), _jsonable(ev),
                           claim="lower-bound")
    if lo < b:
        return CheckResult("inconclusive", f"{pre} straddle the lower bound {_g(b)}: cannot "
                           f"decide at n={a.size}", _jsonable(ev), claim="lower-bound")
    if b > 0:
        # Power: a twin with mean bound/f (same relative spread) is refuted iff its upper
        # limit hi (b/f)/mean < b, i.e. iff hi/mean < f: the detectable factor is hi/mean.
        detect = hi / mean if mean > 0 else math.inf
        caught = detect < f
        power = {"statement": f"refutes a true mean <= the bound / {_g(detect)} (one-sided "
                              f"{level:.4g}, n={a.size})", "detectable_factor": _jsonable(detect),
                 "selftest": {"planted": f"samples rescaled to mean bound/{f:g}",
                              "caught": caught}}
    else:
        # A bound <= 0 has no relative scale. Take its size |b| (for b = 0, half the
        # distance to the smallest possible value): a twin shifted to mean b - scale is
        # refuted iff its upper limit b - scale + (hi - mean) < b, i.e. iff hi - mean < scale.
        half = hi - mean
        scale = abs(b) if b < 0 else (abs(float(trivial)) / 2 if trivial else 0.0)
        detect = half / scale if scale > 0 else math.inf
        caught = scale > 0 and half < scale
        power = {"statement": f"refutes a true mean below the bound by more than {_g(half)} "
                              f"(one-sided {level:.4g}, n={a.size})",
                 "detectable_factor": _jsonable(detect),
                 "selftest": {"planted": f"samples shifted to mean bound - {_g(scale)}",
                              "caught": bool(caught)}}
    ev["power"] = power
    ev["detectable_factor"] = _jsonable(detect)
    if not caught:
        return CheckResult("inconclusive", f"{pre} above the lower bound {_g(b)}, but too little "
                           f"power: a violation by a factor {f:g} would not be detected", _jsonable(ev),
                           claim="lower-bound")
    return CheckResult("supported", f"{pre} above the lower bound {_g(b)} (mean/bound "
                       f"{_g(ev['mean_over_bound'])}); detects a violation by a factor "
                       f"{_g(detect)}", _jsonable(ev), claim="lower-bound", power=power)


# ---------------------------------------------------------------------------- combine
def combine(parts: Mapping[str, CheckResult], *, what: str = "points") -> CheckResult:
    """One verdict from the verdicts at several points (each already at its share of the
    confidence): refuted if any is; vacuous if all are; supported if every non-vacuous one
    is; otherwise inconclusive. The evidence keeps every part."""
    if not parts:
        return CheckResult("inconclusive", f"no {what} measured", {})
    per = {k: {"verdict": r.verdict, "summary": r.summary, **r.evidence} for k, r in parts.items()}
    counts = {v: sum(r.verdict == v for r in parts.values()) for v in
              ("refuted", "supported", "vacuous", "inconclusive")}
    tally = ", ".join(f"{c} {v}" for v, c in counts.items() if c)
    ev = {"points": per, "counts": counts}
    refuted = [(k, r) for k, r in parts.items() if r.verdict == "refuted"]
    if refuted:
        k, r = refuted[0]
        return CheckResult("refuted", f"at {k}: {r.summary} ({tally})", ev, claim=r.claim,
                           severity=r.severity, consequence=r.consequence, root=r.root)
    live = {k: r for k, r in parts.items() if r.verdict != "vacuous"}
    if not live:
        k, r = next(iter(parts.items()))
        return CheckResult("vacuous", f"vacuous at every {what[:-1] if what.endswith('s') else what}: "
                           f"{r.summary}", ev, claim=r.claim)
    if all(r.verdict == "supported" for r in live.values()):
        weakest = max(live.items(), key=lambda kr: _power_number(kr[1]))
        power = dict(weakest[1].power or {})
        power["statement"] = f"at the least powerful {what[:-1] if what.endswith('s') else what} " \
                             f"({weakest[0]}): {power.get('statement', '')}"
        note = f"; vacuous at {counts['vacuous']}" if counts["vacuous"] else ""
        return CheckResult("supported", f"supported at all {len(live)} non-vacuous {what}{note}; "
                           f"least power at {weakest[0]}: {weakest[1].summary}", ev,
                           claim=weakest[1].claim, power=power)
    k, r = next((kr for kr in live.items() if kr[1].verdict == "inconclusive"))
    return CheckResult("inconclusive", f"at {k}: {r.summary} ({tally})", ev, claim=r.claim)


def _power_number(r: CheckResult) -> float:
    p = r.power or {}
    for key in ("detectable_factor", "detectable_excess"):
        v = p.get(key)
        if isinstance(v, (int, float)):
            return float(v)
    v = p.get("reach")
    return 1.0 / v if isinstance(v, (int, float)) and v > 0 else math.inf


# ---------------------------------------------------------------------------- rate
def rate_check(xs: Sequence[float], groups_per_x: Sequence[Sequence[Sequence[float]]],
               expected: float | Sequence[float], *, tolerance: float = 0.1,
               vacuous: Sequence[str | None] | None = None, confidence: float = 0.95,
               stable_tol: float = STABLE_TOL, planted_shift: float = PLANTED_SHIFT,
               window: int = WINDOW, n_boot: int = 2000, seed: int = 0, quantity: str = "mean",
               severity: str = "rate", consequence: str = "", polylog: bool = True,
               quantile: float | None = None, _planted: bool = False) -> CheckResult:
    """The claim ``X(x) = O(x^e)`` (an upper bound), judged from a sweep of x.

    Parameters
    ----------
    xs : sweep values (positive, increasing after sorting).
    groups_per_x : at each x, the replicates of each independent data set
        (``groups_per_x[i][j]`` = replicates of data set j at ``xs[i]``). Data sets are
        resampled in the bootstrap, so the interval includes data variability.
    expected : the claimed exponent e, or one per range (the local slope of the theorem's
        own bound between successive points).
    tolerance : slack for what a finite sweep cannot separate from the exponent (the
        polylogs an O~ hides): a refutation needs a measured exponent above ``e + tolerance``.
    polylog : whether the claimed rate hides polylogarithmic factors in x (an O~, or a log
        of x in the rate). Only then may a slope shown above ``e`` (lower limit ``> e``,
        within the tolerance) be *supported*; without them such a slope is inconclusive (the
        tolerance still protects refutations: a shallower slope is refuted only beyond
        ``e + tolerance``).
    vacuous : per point, ``None`` or the reason the claim cannot bind there (the bound is
        above the trivial range, the start point already passes). Vacuous points are
        dropped; fewer than three live points leave nothing to judge.
    quantile : None to judge the mean of X at each x (the mean of the data sets' means);
        a level q in (0, 1) to judge the q-quantile of the pooled replicates instead, for a
        high-probability claim (``P[X <= C x^e] >= 1 - zeta``: q = 1 - zeta), bootstrapped
        the same two-stage way (:func:`~dptheory.stats.hierarchical_boot_quantiles`). The
        planted twin's factor x^shift moves every quantile's slope by exactly the shift too.

    The last ``window`` live points (at least three) are split into two successive ranges
    sharing their middle point. The slopes ``s1, s2`` of the two ranges (log-log least
    squares, two-stage bootstrap) are *stable* when the interval between the one-sided
    ``confidence`` limits of ``s2 - s1`` lies within ``+-stable_tol``. The later range's
    slope ``s = s2`` is judged, with one-sided limits ``[lo, hi]``:

    * refuted — stable and ``lo > e + tolerance`` (a shallower decay, shown asymptotic);
    * supported — stable, ``hi <= e + tolerance`` (and ``lo <= e`` when ``polylog`` is
      false: no hidden polylog may absorb a slope shown above ``e``), and a twin planted at
      exponent
      ``e + planted_shift`` (the samples at x multiplied by ``x^shift``, which moves every
      slope by exactly the shift) is refuted;
    * inconclusive — otherwise: pre-asymptotic (not stable), or too little power.

    A steeper measured decay (``hi`` far below ``e``) is consistent with an upper bound.
    """
    e_in = expected
    x = _samples(xs, "xs")
    if np.any(x <= 0):
        raise ValueError("xs must be positive for a log-log fit")
    if len(groups_per_x) != x.size:
        raise ValueError(f"groups_per_x must have one entry per x: {len(groups_per_x)} for "
                         f"{x.size} xs")
    tol = _number(tolerance, "tolerance", allow_inf=False)
    if tol < 0:
        raise ValueError(f"tolerance must be >= 0, got {tol}")
    c = _check_confidence(confidence)
    vac = list(vacuous) if vacuous is not None else [None] * x.size
    if len(vac) != x.size:
        raise ValueError("vacuous must have one entry per x")
    order = np.argsort(x)
    x = x[order]
    groups = [groups_per_x[i] for i in order]
    vac = [vac[i] for i in order]
    if isinstance(e_in, (int, float, np.floating, np.integer)):
        e_ranges = np.full(x.size - 1, _number(e_in, "expected", allow_inf=False))
    else:
        e_ranges = np.asarray([_number(v, "expected", allow_inf=False) for v in e_in])
        if e_ranges.size != x.size - 1:
            raise ValueError(f"expected must be a number or one exponent per range "
                             f"({x.size - 1}), got {e_ranges.size}")
        if np.any(np.diff(order) != 1):
            raise ValueError("xs must be increasing when expected is given per range")
    groups = [[_samples(g, f"groups_per_x[{i}][{j}]") for j, g in enumerate(gs)]
              for i, gs in enumerate(groups)]
    live = [i for i in range(x.size) if vac[i] is None]
    if quantile is not None:
        if isinstance(quantile, bool) or not 0.0 < _number(quantile, "quantile") < 1.0:
            raise ValueError(f"quantile must be None or in (0, 1), got {quantile!r}")
        quantile = float(quantile)
        means = np.array([np.quantile(np.concatenate(gs), quantile) for gs in groups])
    else:
        means = np.array([np.mean([g.mean() for g in gs]) for gs in groups])
    ev: dict[str, Any] = {"quantity": quantity, "xs": x.tolist(), "means": means.tolist(),
                          "statistic": "mean" if quantile is None else f"{quantile:g}-quantile",
                          "datasets": [len(gs) for gs in groups],
                          "reps": [sum(g.size for g in gs) for gs in groups],
                          "expected": e_ranges.tolist(), "tolerance": tol,
                          "vacuous_points": {str(x[i]): vac[i] for i in range(x.size) if vac[i]},
                          "stable_tol": stable_tol, "confidence": c}
    if len(live) < 3:
        if not live:
            return CheckResult("vacuous", f"{quantity}: the claim cannot bind at any point: "
                               f"{vac[0]}", _jsonable(ev), claim="rate")
        return CheckResult("inconclusive", f"{quantity}: only {len(live)} non-vacuous point(s); "
                           "two successive ranges need three", _jsonable(ev), claim="rate")
    if np.any(means[live] <= 0):
        return CheckResult("inconclusive", f"{quantity}: a mean is not positive; no log-log "
                           "slope", _jsonable(ev), claim="rate")
    rng = np.random.default_rng(seed)
    boot = np.stack([hierarchical_boot_means(groups[i], n_boot, rng) if quantile is None else
                     hierarchical_boot_quantiles(groups[i], quantile, n_boot, rng)
                     for i in live], axis=1)
    ok = np.all(boot > 0, axis=1)
    if ok.sum() < 0.9 * n_boot:
        return CheckResult("inconclusive", f"{quantity}: samples too close to zero for a "
                           "log-log fit", _jsonable(ev), claim="rate")
    lx = np.log(x[live])
    lb = np.log(boot[ok])
    lm = np.log(means[live])
    # The last `window` live points, split into two successive ranges sharing the middle
    # point; each range's slope is a least-squares fit over its points.
    w = min(window, len(live))
    tail = list(range(len(live) - w, len(live)))
    mid = tail[len(tail) // 2] if len(tail) % 2 else tail[len(tail) // 2 - 1]
    first, second = [i for i in tail if i <= mid], [i for i in tail if i >= mid]

    def fit(idx: list[int]) -> tuple[float, np.ndarray]:
        xc = lx[idx] - lx[idx].mean()
        est = float((lm[idx] - lm[idx].mean()) @ xc / (xc @ xc))
        boots = (lb[:, idx] - lb[:, idx].mean(axis=1, keepdims=True)) @ xc / (xc @ xc)
        return est, boots

    s1, b1 = fit(first)
    s2, b2 = fit(second)
    s_tail, b_tail = s2, b2
    alpha = 1 - c
    lo = float(min(np.quantile(b_tail, alpha), s_tail))
    hi = float(max(np.quantile(b_tail, 1 - alpha), s_tail))
    d_lo, d_hi = np.quantile(b2 - b1, [alpha, 1 - alpha])
    stable = bool(-stable_tol <= d_lo and d_hi <= stable_tol)
    # the claim's exponent over the judged range (mean of the per-range exponents there)
    xs_live = x[live]
    pos = {float(v): k for k, v in enumerate(x)}
    ranges = [pos[float(xs_live[i])] for i in second[:-1]]
    e_tail = float(np.mean(e_ranges[ranges])) if ranges else float(np.mean(e_ranges))
    local = [float((lm[k + 1] - lm[k]) / (lx[k + 1] - lx[k])) for k in range(len(live) - 1)]
    ev.update({"slope": s_tail, "lower": lo, "upper": hi, "local_slopes": local,
               "last_ranges": [float(s1), float(s2)],
               "ranges_x": [[float(xs_live[first[0]]), float(xs_live[first[-1]])],
                            [float(xs_live[second[0]]), float(xs_live[second[-1]])]],
               "difference_interval": [float(d_lo), float(d_hi)],
               "stable": stable, "expected_tail": e_tail,
               "tail_xs": [float(xs_live[i]) for i in second],
               "detectable_excess": float(s_tail - lo + tol)})
    ev = _jsonable(ev)
    what = quantity if quantile is None else f"{quantile:g}-quantile of {quantity}"
    head = (f"{what}: slope {_g(s_tail)} (one-sided {c:.0%} limits [{_g(lo)}, "
            f"{_g(hi)}]) over x = {_g(xs_live[second[0]])}..{_g(xs_live[second[-1]])} vs "
            f"claimed exponent {_g(e_tail)} (refuted beyond +{_g(tol)}"
            f"{', a hidden polylog allowed' if polylog else '; no polylog in the rate'})")
    if not stable:
        return CheckResult("inconclusive", f"{head}; pre-asymptotic: the slopes of the last two "
                           f"ranges, {_g(s1)} and {_g(s2)}, are not shown stable (difference in "
                           f"[{_g(d_lo)}, {_g(d_hi)}], needed within +-{_g(stable_tol)})", ev,
                           claim="rate")
    if lo > e_tail + tol:
        return CheckResult("refuted", f"{head}: decays more slowly than claimed in a run shown "
                           f"asymptotic (slopes of the last two ranges {_g(s1)}, {_g(s2)})", ev,
                           claim="rate", severity=severity,
                           consequence=consequence or f"{quantity} does not reach the stated "
                           f"rate over the tested range")
    ev["polylog_allowance"] = bool(polylog)
    if hi > e_tail + tol:
        return CheckResult("inconclusive", f"{head}: the interval straddles the claimed "
                           "exponent", ev, claim="rate")
    if not polylog and lo > e_tail:
        return CheckResult("inconclusive", f"{head}: shallower than the claimed exponent "
                           f"(lower limit {_g(lo)} > {_g(e_tail)}) though within the tolerance; "
                           "the claimed rate hides no polylogarithmic factor in x that could "
                           "absorb it", ev, claim="rate")
    if _planted:
        return CheckResult("inconclusive", f"{head} (planted twin not refuted)", ev, claim="rate")
    shift = e_tail + planted_shift - s_tail
    twin_groups = [[g * float(xv) ** shift for g in gs] for xv, gs in zip(x, groups)]
    twin = rate_check(x, twin_groups, e_ranges.tolist(), tolerance=tol, vacuous=vac,
                      confidence=c, stable_tol=stable_tol, planted_shift=planted_shift,
                      window=window, polylog=polylog, quantile=quantile,
                      n_boot=n_boot, seed=seed, quantity=quantity, _planted=True)
    caught = twin.verdict == "refuted"
    power = {"statement": f"refutes a tail exponent >= {_g(e_tail + ev['detectable_excess'])} "
                          f"(claimed {_g(e_tail)}; detectable excess {_g(ev['detectable_excess'])})",
             "detectable_excess": ev["detectable_excess"],
             "selftest": {"planted": f"exponent {_g(e_tail + planted_shift)} "
                                     f"(claimed + {planted_shift:g})",
                          "caught": caught, "twin_verdict": twin.verdict}}
    ev["power"] = power
    faster = " (decays faster than claimed: consistent with an upper bound)" \
        if hi < e_tail - tol else ""
    if not caught:
        return CheckResult("inconclusive", f"{head}{faster}; too little power: an exponent "
                           f"{planted_shift:g} shallower than claimed would not be refuted", ev,
                           claim="rate")
    return CheckResult("supported", f"{head}{faster}; local slopes stable; detects an excess "
                       f"of {_g(ev['detectable_excess'])}", ev, claim="rate", power=power)


# ---------------------------------------------------------------------------- envelope
def envelope_rate_check(xs: Sequence[float], lower: Sequence[float], upper: Sequence[float],
                        expected: float, *, tolerance: float = 0.1, polylog: bool = True,
                        derivation: str = "", stable_tol: float = STABLE_TOL,
                        planted_shift: float = PLANTED_SHIFT, window: int = WINDOW,
                        quantity: str = "E[X]") -> CheckResult:
    """The claim ``E[X](x) = O(x^e)`` (an upper bound) decided by certified envelopes.

    ``lower[i] <= E[X](xs[i]) <= upper[i]`` must be *proven* on the instance (``derivation``
    says how) and evaluated exactly (closed forms: no sampling error), at ``xs`` reaching the
    asymptotic end (e.g. n = 1e5 .. 1e9). Both envelopes are judged by :func:`rate_check`
    on their exact values (one value per point, so its intervals collapse to the exact
    slopes); ``s_U``, ``s_L`` are the slopes of the last range.

    * refuted — the lower envelope's slopes are stable and ``s_L > e + tolerance``: E[X]
      decays no faster than ``L``, which decays more slowly than claimed at the asymptotic
      end (a certified counterexample to the O-rate on this instance);
    * supported — the upper envelope's rate check is supported (stable, ``s_U <= e +
      tolerance``, and ``s_U <= e`` unless ``polylog``), *and* the envelopes have power: the
      lower envelope's stable slope refutes the planted claim ``s_U - planted_shift``
      (``s_L > s_U - planted_shift + tolerance``: the envelopes pin the exponent of E[X]
      within ``planted_shift - tolerance``), so a claim that much too steep is caught;
    * inconclusive — otherwise (the envelopes are too far apart, or not stable), with why.
    """
    x = _samples(xs, "xs")
    lo_v, up_v = _samples(lower, "lower"), _samples(upper, "upper")
    if not (lo_v.size == up_v.size == x.size):
        raise ValueError(f"lower and upper must have one value per x: {lo_v.size}, "
                         f"{up_v.size} for {x.size} xs")
    if np.any(lo_v <= 0) or np.any(up_v < lo_v):
        raise ValueError("need 0 < lower <= upper at every x")
    e = _number(expected, "expected", allow_inf=False)
    tol = _number(tolerance, "tolerance", allow_inf=False)
    kw = dict(tolerance=tol, stable_tol=stable_tol, planted_shift=planted_shift,
              window=window, n_boot=50, polylog=polylog)
    up = rate_check(x, [[[v]] for v in up_v], e, quantity=f"upper envelope of {quantity}", **kw)
    lo = rate_check(x, [[[v]] for v in lo_v], e, quantity=f"lower envelope of {quantity}", **kw)
    s_u, s_l = up.evidence.get("slope"), lo.evidence.get("slope")
    ev = _jsonable({"quantity": quantity, "xs": x.tolist(), "lower": lo_v.tolist(),
                    "upper": up_v.tolist(), "expected": e, "tolerance": tol,
                    "derivation": derivation, "upper_slope": s_u, "lower_slope": s_l,
                    "upper_last_ranges": up.evidence.get("last_ranges"),
                    "lower_last_ranges": lo.evidence.get("last_ranges"),
                    "upper_stable": up.evidence.get("stable"),
                    "lower_stable": lo.evidence.get("stable"),
                    "upper_verdict": up.verdict, "lower_verdict": lo.verdict})
    where = f"x = {_g(x.min())}..{_g(x.max())}"
    head = (f"{quantity}: certified envelopes L <= E <= U ({derivation}), exact over {where}: "
            f"last-range slopes U {_g(s_u)}, L {_g(s_l)} vs claimed exponent {_g(e)}")
    l_stable = bool(lo.evidence.get("stable"))
    if l_stable and s_l is not None and s_l > e + tol:
        return CheckResult("refuted", f"{head}: the lower envelope decays more slowly than "
                           f"claimed (beyond +{_g(tol)}) with stable slopes, so E[X] does too",
                           ev, claim="rate", severity="rate",
                           consequence=f"{quantity} provably decays more slowly than the stated "
                                       "rate on this instance")
    # the planted claim sits planted_shift below the upper envelope's slope (as the planted
    # twin of :func:`rate_check` sits planted_shift above the claim): the envelopes must pin
    # the exponent of E[X] that finely for a wrong claim to be caught
    planted = (s_u if s_u is not None else e) - planted_shift
    caught = bool(l_stable and s_l is not None and s_l > planted + tol)
    power = {"statement": f"the certified lower envelope refutes any claimed exponent below "
                          f"{_g((s_l if s_l is not None else math.nan) - tol)} (claimed {_g(e)})",
             "selftest": {"planted": f"exponent {_g(planted)} (upper envelope's slope - "
                                     f"{planted_shift:g})",
                          "caught": caught}}
    ev["power"] = power
    if up.verdict != "supported":
        return CheckResult("inconclusive", f"{head}; the upper envelope does not decide: "
                           f"{up.summary}", ev, claim="rate")
    if not caught:
        return CheckResult("inconclusive", f"{head}; too little power: the envelopes are too "
                           f"far apart for a claim {planted_shift:g} steeper than U's slope to be refuted", ev,
                           claim="rate")
    return CheckResult("supported", f"{head}: the upper envelope decays at least as fast as "
                       "claimed with stable slopes, and the lower envelope would refute a claim "
                       f"{planted_shift:g} steeper than U's slope", ev, claim="rate", power=power)


# ---------------------------------------------------------------------------- supremum
def sup_check(measured: float | Sequence[float], bound: float, *, examples: Sequence[Any] | None = None,
              example: Any = None, rtol: float = 1e-9, atol: float = 0.0,
              min_reach: float = MIN_REACH, quantity: str = "sensitivity",
              severity: str = "bound", consequence: str = "",
              certified_sup: float | None = None, derivation: str = "") -> CheckResult:
    """The claim ``sup_z X(z) <= bound`` (a sensitivity, a worst case), judged from examples.

    ``measured``: the largest value found, or one value per example (Hypothesis cases,
    adversarial search); ``examples``/``example`` keep the worst one so it reproduces.

    * refuted — some value exceeds ``bound`` by more than ``rtol |bound| + atol`` (float
      rounding): a certified counterexample;
    * supported — none does and the search reached ``reach = max / bound >= min_reach``:
      a claimed bound below ``reach * bound`` would have been refuted (the planted claim);
    * inconclusive — the search stayed below ``min_reach`` of the bound (too weak to test
      it), or nothing was measured.

    ``certified_sup`` (with its ``derivation``, a proof on the instance's certified
    constants) is an upper bound ``U`` on the supremum itself. When ``U <= bound`` the claim
    is proven on the instance: ``supported (loose: ...)`` (``tight`` when the search attains
    ``U = bound``) with ``k = U / bound`` and the
    fraction of ``U`` the search attained (``U`` is the supremum when that fraction is 1).
    A search value above ``U`` contradicts the derivation: inconclusive, never supported.
    When ``U > bound`` it decides nothing and the search rules above apply.
    """
    b = _number(bound, "bound")
    rt = _number(rtol, "rtol", allow_inf=False)
    at = _number(atol, "atol", allow_inf=False)
    if rt < 0 or at < 0:
        raise ValueError(f"rtol and atol must be >= 0, got {rt}, {at}")
    values = np.atleast_1d(np.asarray(measured, dtype=np.float64))
    if values.ndim != 1:
        raise ValueError(f"measured must be a number or a 1-d sequence, got shape {values.shape}")
    if np.any(np.isnan(values)):
        raise ValueError("measured must not contain NaN")
    if examples is not None and len(examples) != values.size:
        raise ValueError(f"examples must align with the measured values: {len(examples)} "
                         f"examples for {values.size} values")
    if values.size == 0:
        return CheckResult("inconclusive", f"{quantity}: nothing measured",
                           {"quantity": quantity, "bound": b, "n_examples": 0}, claim="sup-bound")
    i = int(np.argmax(values))
    worst = float(values[i])
    tol = rt * abs(b) + at if math.isfinite(b) else 0.0
    reach = worst / b if b > 0 and math.isfinite(b) else (math.inf if worst > 0 and b == 0 else None)
    ev = _jsonable({"quantity": quantity, "bound": b, "measured_max": worst,
                    "excess": worst - b if math.isfinite(b) else None, "reach": reach,
                    "tolerance": tol, "n_examples": int(values.size), "worst_index": i,
                    "worst_example": examples[i] if examples is not None else example})
    n = f"{values.size} example{'s' if values.size != 1 else ''}"
    if worst > b + tol:
        return CheckResult("refuted", f"{quantity}: {_g(worst)} found, above the bound {_g(b)} "
                           f"({n})", ev, claim="sup-bound", severity=severity,
                           consequence=consequence or f"the printed {quantity} bound is false "
                           "for the example given")
    if certified_sup is not None:
        U = _number(certified_sup, "certified_sup", allow_inf=False)
        if U < 0:
            raise ValueError(f"certified_sup must be >= 0, got {U}")
        if not derivation:
            raise ValueError("certified_sup needs its derivation")
        attained = worst / U if U > 0 else (1.0 if worst <= 0 else math.inf)
        ev.update({"certified_sup": U, "derivation": derivation, "attained": attained,
                   "loose_factor": U / b if b > 0 and math.isfinite(b) else None})
        if worst > U + rt * abs(U) + at:
            return CheckResult("inconclusive", f"{quantity}: {_g(worst)} found, above the "
                               f"certified supremum {_g(U)}: its derivation does not hold on "
                               f"this instance ({n})", ev, claim="sup-bound")
        if U <= b + tol:
            k = U / b if b > 0 else 0.0
            what = (f"the supremum is {_g(k)} x the bound" if attained >= 1 - 1e-4 else
                    f"the supremum is at most {_g(k)} x the bound; the search attains "
                    f"{_g(attained)} of that")
            # a supremum attained at the bound itself: the bound is exact, not loose
            tag = "tight" if attained >= 1 - 1e-4 and k >= 1 - 1e-9 else "loose"
            power = {"statement": f"proven on the instance: sup <= {_g(U)} ({derivation}); "
                                  f"the search attained {_g(worst)}, so a claimed bound below "
                                  f"{_g(worst)} would have been refuted",
                     "reach": reach, "attained": attained,
                     "selftest": {"planted": f"bound {_g(worst / 2)} (half the largest found)",
                                  "caught": bool(worst > worst / 2 + rt * abs(worst / 2) + at)}}
            ev["power"] = power
            return CheckResult("supported", f"{quantity}: supported ({tag}: {what}); largest "
                               f"found {_g(worst)}, certified supremum {_g(U)}, bound {_g(b)} "
                               f"({n})", ev, claim="sup-bound", power=power)
    if reach is None or reach < min_reach:
        return CheckResult("inconclusive", f"{quantity}: largest found {_g(worst)} is only "
                           f"{_g(reach)} of the bound {_g(b)} ({n}): the search is too weak to "
                           f"test it (needs >= {min_reach:g})", ev, claim="sup-bound")
    power = {"statement": f"the search reached {_g(reach)} of the bound: a claimed bound below "
                          f"{_g(worst)} would have been refuted", "reach": reach,
             "selftest": {"planted": f"bound {_g(worst / 2)} (half the largest found)",
                          "caught": bool(worst > worst / 2 + rt * abs(worst / 2) + at)}}
    ev["power"] = power
    return CheckResult("supported", f"{quantity}: largest found {_g(worst)} within the bound "
                       f"{_g(b)} (reach {_g(reach)}, {n})", ev, claim="sup-bound", power=power)


# ---------------------------------------------------------------------------- exact
def exact_check(value: float, bound: float, *, trivial: float | None = None,
                trivial_source: str = "", derivation: str = "", rtol: float = 1e-9,
                quantity: str = "E[X]", direction: str = "upper",
                kind: str = "exact expectation") -> CheckResult:
    """The claim ``E[X] <= bound`` decided from the exact expectation ``value`` (a closed
    form, exact recursion or quadrature with a certified error, no sampling error;
    ``derivation`` says which). ``kind`` names ``value`` in the summary: an exact
    expectation by default; a claim for every instance decided at its worst instance says so
    (``"exact value at the worst start"``).

    * vacuous — ``bound >= trivial`` (the largest value X can take);
    * refuted — ``value > bound (1 + rtol)`` (``rtol``: float rounding): a certified
      counterexample;
    * supported — otherwise, with ``value / bound``; power is complete: any claimed bound
      below ``value`` would be refuted (the planted bound is ``value / 2``).

    ``direction="lower"`` judges ``E[X] >= bound`` by the mirror rules: vacuous iff
    ``bound <= trivial`` (then the *smallest* value X can take), refuted iff ``value < bound
    - rtol |bound|``, supported otherwise (equality included: a lower bound that holds with
    equality holds); the planted bound is ``value + max(|value|, 1)``, above the value.
    """
    v = _number(value, "value", allow_inf=False)
    b = _number(bound, "bound")
    rt = _number(rtol, "rtol", allow_inf=False)
    if rt < 0:
        raise ValueError(f"rtol must be >= 0, got {rt}")
    if direction not in ("upper", "lower"):
        raise ValueError(f"direction must be 'upper' or 'lower', got {direction!r}")
    lower = direction == "lower"
    claim = "lower-bound" if lower else "upper-bound"
    ev = _jsonable({"quantity": quantity, "exact": v, "bound": b, "ratio": v / b if b > 0 else None,
                    "derivation": derivation, "trivial": trivial, "direction": direction})
    if trivial is not None and (b <= trivial if lower else b >= trivial):
        return CheckResult("vacuous", f"{quantity}: the bound {_g(b)} is at or "
                           f"{'below the smallest' if lower else 'above the largest'} value the "
                           f"quantity can take ({_g(trivial)}"
                           f"{', ' + trivial_source if trivial_source else ''})", ev,
                           claim=claim)
    tol = rt * abs(b)
    if (v < b - tol) if lower else (v > b + tol):
        return CheckResult("refuted", f"{quantity}: {kind} {_g(v)} "
                           f"{'below the lower' if lower else 'above the'} bound {_g(b)} "
                           f"({derivation})", ev, claim=claim, severity="bound",
                           consequence="the printed bound is false on this instance")
    planted = v + max(abs(v), 1.0) if lower else v / 2
    caught = bool(v < planted - rt * abs(planted)) if lower else bool(v > planted + rt * abs(planted))
    power = {"statement": f"exact: a claimed bound {'above' if lower else 'below'} {_g(v)} "
                          "would have been refuted",
             "selftest": {"planted": f"bound {_g(planted)} "
                                     f"({'above' if lower else 'half'} the exact value)",
                          "caught": caught}}
    ev["power"] = power
    side = "at or above the lower" if lower else "within the"
    how = f"exact/bound {_g(v / b)}" if b > 0 else f"exact - bound {_g(v - b)}"
    return CheckResult("supported", f"{quantity}: {kind} {_g(v)} {side} bound "
                       f"{_g(b)} ({how})", ev,
                       claim=claim, power=power)


# ---------------------------------------------------------------------------- stability
def stability_check(gaps: Sequence[Sequence[float]] | np.ndarray, alpha_bound: float, *,
                    trivial: float | None = None, trivial_source: str = "",
                    in_domain: float | None = None, confidence: float = 0.95,
                    quantity: str = "stability gap") -> CheckResult:
    """Uniform stability: for every pair of neighbouring data sets, ``E[gap] <= alpha``.

    ``gaps``: one sequence of coupled-run gaps per pair. Each pair is an upper-bound claim
    (:func:`bound_check`) at its Bonferroni share of ``confidence``; ``trivial`` is the
    largest gap the loss allows (``2 sup |f|``), so an alpha above it is vacuous.
    """
    arr = [np.asarray(g, dtype=float) for g in gaps] if len(gaps) and np.ndim(gaps[0]) == 1 \
        else [np.asarray(gaps, dtype=float)]
    parts = {f"pair {i}": bound_check(g, alpha_bound, trivial=trivial, trivial_source=trivial_source,
                                      in_domain=in_domain, tests=len(arr), confidence=confidence,
                                      quantity=quantity)
             for i, g in enumerate(arr)}
    return combine(parts, what="pairs")


# ---------------------------------------------------------------------------- derivation
def derivation_check(derivation: Any) -> CheckResult:
    """Judge a symbolic derivation (:func:`dptheory.symbolic.derive.derive`).

    The claim is that the item's stated rate follows from its explicit bound at its
    settings. Smaller is stronger (an error rate, a sufficient sample size), so:

    * ``agrees`` — same leading terms: supported (exact symbolic comparison);
    * ``agrees (stated is loose)`` — the derived rate is <= the stated one everywhere:
      supported, the statement is valid but loose;
    * ``agrees-in-regime`` — the derived rate is <= the stated one only in a region:
      supported there, with the region (outside it the stated rate does not follow);
    * ``disagrees`` — the derived rate exceeds the stated one everywhere: refuted, severity
      ``rate`` (the claim is stronger than its own bound gives);
    * ``not-derivable`` — inconclusive, with the reason.
    """
    if isinstance(derivation, Mapping):
        d = dict(derivation)
    elif hasattr(derivation, "as_dict"):
        d = derivation.as_dict()
    else:
        raise ValueError(f"derivation must be a Derivation or its as_dict(), got "
                         f"{type(derivation).__name__}")
    v = d.get("verdict")
    item = d.get("id", "item")
    ev = _jsonable(d)
    power = {"statement": "exact symbolic comparison of leading terms on the scaling cone: "
                          "any exponent of the derived rate above the stated one would show"}
    if v == "agrees":
        return CheckResult("supported", f"{item}: the bound at the settings gives the stated "
                           f"rate {d.get('stated', '')}", ev, claim="rate", power=power)
    if v == "agrees-loose":
        return CheckResult("supported", f"{item}: the bound at the settings gives "
                           f"{d.get('derived', '')}, at most the stated {d.get('stated', '')} "
                           "everywhere: the stated rate is valid but loose", ev, claim="rate",
                           power=power)
    if v == "agrees-in-regime":
        return CheckResult("supported", f"{item}: the stated rate follows from the bound only "
                           f"when {d.get('regime')}; elsewhere the bound gives "
                           f"{d.get('derived', '')}", ev, claim="rate", power=power)
    if v == "disagrees":
        return CheckResult("refuted", f"{item}: the bound at the settings is "
                           f"{d.get('derived', '')}, larger than the stated rate "
                           f"{d.get('stated', '')} everywhere", ev, claim="rate",
                           severity="rate", consequence="the stated rate is stronger than the "
                           "item's own explicit bound gives at its settings")
    if v == "not-derivable":
        return CheckResult("inconclusive", f"{item}: not derivable: {d.get('reason', '')}", ev,
                           claim="rate")
    raise ValueError(f"derivation verdict must be one of agrees, agrees-loose, "
                     f"agrees-in-regime, disagrees, not-derivable; got {v!r}")
