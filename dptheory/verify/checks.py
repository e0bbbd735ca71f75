"""Check constructors: turn measurements into a :class:`~dptheory.verify.verdict.CheckResult`.

Each function compares what was measured with what a theorem claims and returns a verdict
with the numbers behind it (``evidence``, JSON values only):

* ``pass`` — the measurement supports the claim at the stated confidence;
* ``fail`` — the measurement contradicts the claim at the stated confidence (a *finding*);
* ``inconclusive`` — the data cannot decide (too few replicates, too wide an interval).

Intervals are two-sided at ``confidence`` (so a one-sided decision, "the upper limit is
below the bound", holds at level ``(1 + confidence) / 2``). All randomness (bootstrap) is
seeded, so a verdict reproduces exactly.
"""

from __future__ import annotations

import math
from typing import Any, Mapping, Sequence

import numpy as np

from dptheory.verify.stats import _check_confidence, _samples, loglog_slope, mean_ci
from dptheory.verify.verdict import CheckResult

__all__ = ["bound_check", "slope_check", "sensitivity_check", "stability_check",
           "derivation_check"]

DIRECTIONS = ("upper", "lower")
SLOPE_DIRECTIONS = ("two-sided", "upper", "lower")


def _number(value: Any, name: str, *, allow_inf: bool = True) -> float:
    try:
        v = float(value)
    except (TypeError, ValueError):
        raise ValueError(f"{name} must be a real number, got {value!r}") from None
    if math.isnan(v) or (not allow_inf and math.isinf(v)):
        raise ValueError(f"{name} must be a {'finite ' if not allow_inf else ''}number, got {v}")
    return v


def _g(x: float) -> str:
    return f"{x:.4g}"


def _jsonable(x: Any) -> Any:
    if isinstance(x, np.ndarray):
        return x.tolist()
    if isinstance(x, np.generic):
        return x.item()
    if isinstance(x, Mapping):
        return {str(k): _jsonable(v) for k, v in x.items()}
    if isinstance(x, (list, tuple)):
        return [_jsonable(v) for v in x]
    if x is None or isinstance(x, (bool, int, float, str)):
        return x
    return repr(x)


# ---------------------------------------------------------------------------- bound
def bound_check(samples: Sequence[float] | np.ndarray, bound: float, *,
                confidence: float = 0.95, direction: str = "upper", method: str = "t",
                n_boot: int = 2000, seed: int = 0, quantity: str = "mean") -> CheckResult:
    """Does the mean of the replicates respect the theorem's bound?

    ``direction="upper"`` (the claim is ``E[X] <= bound``):

    * pass — the upper confidence limit of the empirical mean is ``<= bound``;
    * fail — the lower confidence limit is ``> bound`` (the mean exceeds the bound);
    * inconclusive — the interval contains the bound (or there is a single replicate).

    ``direction="lower"`` (the claim is ``E[X] >= bound``) mirrors it: pass when the lower
    limit is ``>= bound``, fail when the upper limit is ``< bound``. The interval is
    :func:`~dptheory.verify.stats.mean_ci` with ``method`` (``"t"`` or ``"bootstrap"``).
    """
    a = _samples(samples)
    b = _number(bound, "bound")
    if direction not in DIRECTIONS:
        raise ValueError(f"direction must be one of {DIRECTIONS}, got {direction!r}")
    ci = mean_ci(a, confidence, method=method, n_boot=n_boot, seed=seed)
    if direction == "upper":
        verdict = "pass" if ci.high <= b else "fail" if ci.low > b else "inconclusive"
        rel = "<=" if verdict == "pass" else ">" if verdict == "fail" else "straddles"
    else:
        verdict = "pass" if ci.low >= b else "fail" if ci.high < b else "inconclusive"
        rel = ">=" if verdict == "pass" else "<" if verdict == "fail" else "straddles"
    ratio = ci.estimate / b if b != 0 and math.isfinite(b) else None
    evidence = {"quantity": quantity, "direction": direction, "bound": b,
                "mean": ci.estimate, "low": ci.low, "high": ci.high,
                "confidence": ci.confidence, "method": ci.method, "n": ci.n,
                "std": float(a.std(ddof=1)) if a.size > 1 else None,
                "max": float(a.max()), "min": float(a.min()), "mean_over_bound": ratio}
    interval = f"[{_g(ci.low)}, {_g(ci.high)}]"
    summary = (f"{quantity}: mean {_g(ci.estimate)}, {int(ci.confidence * 100)}% interval "
               f"{interval} {rel} the {'upper' if direction == 'upper' else 'lower'} bound "
               f"{_g(b)} (n={ci.n})")
    return CheckResult(verdict, summary, evidence)


# ---------------------------------------------------------------------------- slope
def slope_check(xs: Sequence[float], samples_per_x: Sequence[Sequence[float]],
                expected_slope: float, *, tolerance: float = 0.15, max_width: float = 0.5,
                confidence: float = 0.95, direction: str = "two-sided", n_boot: int = 2000,
                seed: int = 0, quantity: str = "mean") -> CheckResult:
    """Does the empirical log-log slope match the theorem's exponent?

    The slope and its bootstrap interval ``[lo, hi]`` come from
    :func:`~dptheory.verify.stats.loglog_slope`. ``tolerance`` is the slack allowed for
    what a finite sweep cannot separate from the exponent: the polylog factors an Õ hides and
    lower-order terms (over a sweep of x spanning a factor R, a factor ``log x`` shifts the
    fitted slope by about ``1 / log x``). Let ``dist`` be the distance from
    ``expected_slope`` to ``[lo, hi]`` (0 inside) and ``width = hi - lo``.

    ``direction="two-sided"`` (the rate is claimed tight: slope = expected):

    * pass — ``dist <= tolerance`` and ``width <= max_width``: the expected slope lies in the
      interval widened by the tolerance, and the interval is narrow enough to mean something;
    * fail — ``dist > tolerance``: the interval excludes the expected slope by more than the
      tolerance;
    * inconclusive — ``dist <= tolerance`` but ``width > max_width``: the fit is too noisy
      to tell (more replicates or a wider sweep are needed).

    ``direction="upper"`` (the exponent bounds the slope from above: the quantity grows no
    faster than ``x**expected``): fail if ``lo > expected + tolerance``; pass if
    ``hi <= expected + tolerance``; else inconclusive. ``direction="lower"`` mirrors it
    (fail if ``hi < expected - tolerance``, pass if ``lo >= expected - tolerance``).
    """
    e = _number(expected_slope, "expected_slope", allow_inf=False)
    tol = _number(tolerance, "tolerance", allow_inf=False)
    width_max = _number(max_width, "max_width")
    if tol < 0:
        raise ValueError(f"tolerance must be >= 0, got {tol}")
    if width_max <= 0:
        raise ValueError(f"max_width must be > 0, got {width_max}")
    if direction not in SLOPE_DIRECTIONS:
        raise ValueError(f"direction must be one of {SLOPE_DIRECTIONS}, got {direction!r}")
    fit = loglog_slope(xs, samples_per_x, confidence=confidence, n_boot=n_boot, seed=seed)
    lo, hi = fit.low, fit.high
    dist = max(lo - e, e - hi, 0.0)
    width = hi - lo
    if direction == "two-sided":
        verdict = ("fail" if dist > tol else "pass" if width <= width_max else "inconclusive")
    elif direction == "upper":
        verdict = "fail" if lo > e + tol else "pass" if hi <= e + tol else "inconclusive"
    else:
        verdict = "fail" if hi < e - tol else "pass" if lo >= e - tol else "inconclusive"
    evidence = {"quantity": quantity, "direction": direction, "expected_slope": e,
                "slope": fit.slope, "low": lo, "high": hi, "width": width, "distance": dist,
                "tolerance": tol, "max_width": width_max, "confidence": fit.confidence,
                "intercept": fit.intercept, "xs": list(fit.xs), "means": list(fit.means),
                "reps": list(fit.reps), "n_boot": fit.n_boot,
                "n_boot_dropped": fit.n_dropped}
    why = {"pass": "consistent with", "fail": "excludes",
           "inconclusive": "cannot decide on"}[verdict]
    summary = (f"{quantity}: log-log slope {_g(fit.slope)}, {int(fit.confidence * 100)}% "
               f"interval [{_g(lo)}, {_g(hi)}] {why} the exponent {_g(e)} "
               f"(tolerance {_g(tol)}, {direction})")
    return CheckResult(verdict, summary, evidence)


# ---------------------------------------------------------------------------- sensitivity
def sensitivity_check(measured_max: float | Sequence[float], bound: float, *,
                      example: Any = None, examples: Sequence[Any] | None = None,
                      rtol: float = 1e-9, atol: float = 0.0, quantity: str = "sensitivity",
                      worst: Any = None) -> CheckResult:
    """Does an observed sensitivity (or any sup-type quantity) stay within the lemma's bound?

    ``measured_max``: the largest value observed, or all observed values (one per example:
    Hypothesis cases, adversarial search); ``examples`` (aligned with the values) or
    ``example`` (the worst one; ``worst`` is an alias) is kept in the evidence so the
    counterexample reproduces.

    * fail — the worst value exceeds ``bound`` by more than ``rtol·|bound| + atol`` (float
      round-off; relative ``1e-9`` by default): a counterexample to the lemma;
    * pass — no example exceeds the bound (a search cannot prove a supremum; a pass means no
      counterexample was found among ``n_examples``);
    * inconclusive — nothing was measured.
    """
    b = _number(bound, "bound")
    rt = _number(rtol, "rtol", allow_inf=False)
    at = _number(atol, "atol", allow_inf=False)
    if rt < 0 or at < 0:
        raise ValueError(f"rtol and atol must be >= 0, got {rt}, {at}")
    values = np.atleast_1d(np.asarray(measured_max, dtype=np.float64))
    if values.ndim != 1:
        raise ValueError(f"measured_max must be a number or a 1-d sequence, got shape {values.shape}")
    if np.any(np.isnan(values)):
        raise ValueError("measured_max must not contain NaN")
    if examples is not None and len(examples) != values.size:
        raise ValueError(f"examples must align with the measured values: {len(examples)} "
                         f"examples for {values.size} values")
    if worst is not None:
        if example is not None:
            raise ValueError("give the worst example as example= or worst=, not both")
        example = worst
    tol = rt * abs(b) + at if math.isfinite(b) else 0.0
    if values.size == 0:
        return CheckResult("inconclusive", f"{quantity}: nothing measured",
                           {"quantity": quantity, "bound": b, "n_examples": 0})
    i = int(np.argmax(values))
    worst = float(values[i])
    worst_example = examples[i] if examples is not None else example
    verdict = "fail" if worst > b + tol else "pass"
    evidence = {"quantity": quantity, "bound": b, "measured_max": worst,
                "excess": worst - b if math.isfinite(b) else None,
                "ratio": worst / b if b != 0 and math.isfinite(b) else None,
                "tolerance": tol, "n_examples": int(values.size), "worst_index": i,
                "worst_example": _jsonable(worst_example)}
    summary = (f"{quantity}: largest observed {_g(worst)} "
               f"{'exceeds' if verdict == 'fail' else 'within'} the bound {_g(b)} "
               f"over {values.size} example{'s' if values.size != 1 else ''}")
    return CheckResult(verdict, summary, evidence)


# ---------------------------------------------------------------------------- stability
def stability_check(gaps: Sequence[float] | Sequence[Sequence[float]] | np.ndarray,
                    alpha_bound: float, confidence: float = 0.95, *, method: str = "t",
                    n_boot: int = 2000, seed: int = 0,
                    quantity: str = "stability gap") -> CheckResult:
    """Uniform stability: for every pair of neighbouring datasets, ``E[gap] <= alpha_bound``.

    ``gaps``: for one pair, the replicates of the coupled-run gap (e.g. ``|f(A(S), z) -
    f(A(S'), z)|``); or one sequence of replicates per pair. Each pair gets a
    :func:`~dptheory.verify.stats.mean_ci` interval at the Bonferroni-adjusted level
    ``1 - (1 - confidence) / n_pairs``, so the verdict holds at ``confidence`` for all pairs
    at once.

    * fail — some pair's lower limit exceeds ``alpha_bound`` (the worst pair is reported);
    * pass — every pair's upper limit is ``<= alpha_bound``;
    * inconclusive — otherwise.
    """
    a = _number(alpha_bound, "alpha_bound")
    c = _check_confidence(confidence)
    arr = gaps if isinstance(gaps, np.ndarray) else None
    if arr is not None and arr.ndim == 2:
        groups = [_samples(row, f"gaps[{i}]") for i, row in enumerate(arr)]
    elif arr is None and len(gaps) > 0 and all(np.ndim(g) == 1 for g in gaps):
        groups = [_samples(g, f"gaps[{i}]") for i, g in enumerate(gaps)]
    else:
        groups = [_samples(gaps, "gaps")]
    m = len(groups)
    c_each = 1 - (1 - c) / m
    cis = [mean_ci(g, c_each, method=method, n_boot=n_boot, seed=seed) for g in groups]
    lows = np.array([ci.low for ci in cis])
    highs = np.array([ci.high for ci in cis])
    if np.any(lows > a):
        verdict, worst = "fail", int(np.argmax(lows))
    else:
        verdict = "pass" if np.all(highs <= a) else "inconclusive"
        worst = int(np.argmax(highs))
    per_pair = [{"mean": ci.estimate, "low": ci.low, "high": ci.high, "n": ci.n} for ci in cis]
    evidence = {"quantity": quantity, "alpha_bound": a, "n_pairs": m, "confidence": c,
                "per_pair_confidence": c_each, "method": method, "worst_pair": worst,
                "worst": per_pair[worst], "max_mean": float(max(ci.estimate for ci in cis)),
                "pairs": per_pair[:100]}
    w = per_pair[worst]
    summary = (f"{quantity}: worst of {m} pair{'s' if m != 1 else ''} has mean {_g(w['mean'])}, "
               f"interval [{_g(w['low'])}, {_g(w['high'])}] vs alpha {_g(a)}")
    return CheckResult(verdict, summary, evidence)


# ---------------------------------------------------------------------------- derivation
_DERIVATION_VERDICTS = {"agrees": "pass", "agrees-in-regime": "pass", "disagrees": "fail",
                        "not-derivable": "inconclusive"}


def derivation_check(derivation: Any) -> CheckResult:
    """Map a symbolic derivation (:func:`dptheory.symbolic.derive.derive`) to a verdict.

    * ``agrees`` → pass: the explicit bound at the settings has the stated rate everywhere;
    * ``agrees-in-regime`` → pass, with the regime (where they agree) in the evidence and
      the summary — outside it the stated rate does not follow;
    * ``disagrees`` → fail: the explicit bound and the stated rate differ everywhere;
    * ``not-derivable`` → inconclusive, with the reason.

    ``derivation`` is a ``Derivation`` or its ``as_dict()``.
    """
    if isinstance(derivation, Mapping):
        d = dict(derivation)
    elif hasattr(derivation, "as_dict"):
        d = derivation.as_dict()
    else:
        raise ValueError(f"derivation must be a Derivation or its as_dict(), got "
                         f"{type(derivation).__name__}")
    v = d.get("verdict")
    if v not in _DERIVATION_VERDICTS:
        raise ValueError(f"derivation verdict must be one of {tuple(_DERIVATION_VERDICTS)}, "
                         f"got {v!r}")
    evidence = _jsonable(d)
    item = d.get("id", "item")
    if v == "agrees":
        summary = f"{item}: the bound at the settings gives the stated rate {d.get('stated', '')}"
    elif v == "agrees-in-regime":
        summary = (f"{item}: the bound at the settings gives the stated rate only when "
                   f"{d.get('regime')}")
        evidence["regime"] = None if d.get("regime") is None else str(d.get("regime"))
    elif v == "disagrees":
        summary = (f"{item}: the bound at the settings is {d.get('derived', '')}, the stated "
                   f"rate {d.get('stated', '')}: they disagree")
    else:
        summary = f"{item}: not derivable: {d.get('reason', '')}"
    return CheckResult(_DERIVATION_VERDICTS[v], summary.strip(), evidence)
