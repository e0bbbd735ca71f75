"""Statistics for checks: confidence intervals of means, log-log slope fits, Clopper–Pearson.

Every bootstrap here uses a fixed seed (``seed=0`` unless told), so a verdict reproduces
exactly. Inputs are validated: samples must be finite float64 values.

* :func:`mean_ci` — mean of replicates with a Student-t interval (``method="t"``) or a
  percentile bootstrap interval (``method="bootstrap"``).
* :func:`loglog_slope` — least-squares fit of ``log mean(y)`` on ``log x`` over a sweep, with
  a percentile bootstrap interval of the slope obtained by resampling the replicates *within*
  each sweep point (the sweep points themselves are fixed by design).
* :func:`clopper_pearson` — exact binomial interval from Beta quantiles (privacy audits).
"""

from __future__ import annotations

from dataclasses import asdict, dataclass
from typing import Any, Iterator, Sequence

import numpy as np
from scipy import stats as _st

__all__ = ["Interval", "SlopeFit", "mean_ci", "loglog_slope", "clopper_pearson",
           "one_sided_limits", "hierarchical_boot_means", "is_binary"]

METHODS = ("t", "bootstrap")
ALTERNATIVES = ("two-sided", "lower", "upper")


def _check_confidence(confidence: Any) -> float:
    try:
        c = float(confidence)
    except (TypeError, ValueError):
        raise ValueError(f"confidence must be a number in (0, 1), got {confidence!r}") from None
    if not 0 < c < 1:
        raise ValueError(f"confidence must be in (0, 1), got {confidence}")
    return c


def _check_n_boot(n_boot: Any) -> int:
    if isinstance(n_boot, bool) or not isinstance(n_boot, (int, np.integer)) or n_boot < 100:
        raise ValueError(f"n_boot must be an integer >= 100, got {n_boot!r}")
    return int(n_boot)


def _samples(samples: Any, name: str = "samples") -> np.ndarray:
    try:
        a = np.asarray(samples, dtype=np.float64)
    except (TypeError, ValueError):
        raise ValueError(f"{name} must be numbers, got {type(samples).__name__}") from None
    if a.ndim == 0:
        a = a.reshape(1)
    if a.ndim != 1:
        raise ValueError(f"{name} must be one-dimensional, got shape {a.shape}")
    if a.size == 0:
        raise ValueError(f"{name} must not be empty")
    if not np.all(np.isfinite(a)):
        raise ValueError(f"{name} must be finite, got {int(np.sum(~np.isfinite(a)))} "
                         f"non-finite value(s)")
    return a


@dataclass(frozen=True)
class Interval:
    """A point estimate with a confidence interval [low, high] (two-sided at ``confidence``)."""

    estimate: float
    low: float
    high: float
    confidence: float
    method: str
    n: int

    def as_dict(self) -> dict[str, Any]:
        """The interval's fields as a dict."""
        return asdict(self)


def mean_ci(samples: Sequence[float] | np.ndarray, confidence: float = 0.95, *,
            method: str = "t", n_boot: int = 2000, seed: int = 0) -> Interval:
    """Mean of ``samples`` with a two-sided ``confidence`` interval.

    ``method="t"``: ``mean ± t_{(1+c)/2, n-1} · s / sqrt(n)`` (s the sample standard
    deviation, ddof=1). ``method="bootstrap"``: percentile interval of ``n_boot`` resampled
    means (``numpy.random.default_rng(seed)``). With one sample the interval is
    ``(-inf, inf)``: nothing is known about the spread. Constant samples give a zero-width
    interval.
    """
    a = _samples(samples)
    c = _check_confidence(confidence)
    if method not in METHODS:
        raise ValueError(f"method must be one of {METHODS}, got {method!r}")
    n = a.size
    mean = float(a.mean())
    if n == 1:
        return Interval(mean, -np.inf, np.inf, c, method, 1)
    if method == "t":
        se = float(a.std(ddof=1)) / np.sqrt(n)
        half = float(_st.t.ppf(0.5 + c / 2, n - 1)) * se
        return Interval(mean, mean - half, mean + half, c, "t", n)
    rng = np.random.default_rng(seed)
    boot = a[rng.integers(0, n, size=(_check_n_boot(n_boot), n))].mean(axis=1)
    lo, hi = np.quantile(boot, [(1 - c) / 2, (1 + c) / 2])
    return Interval(mean, float(lo), float(hi), c, "bootstrap", n)


@dataclass(frozen=True)
class SlopeFit:
    """Least-squares fit ``log mean(y) = intercept + slope · log x`` with a bootstrap interval.

    ``low``/``high``: percentile bootstrap interval of the slope at ``confidence``;
    ``n_dropped``: bootstrap draws discarded because a resampled mean was not positive.
    """

    slope: float
    intercept: float
    low: float
    high: float
    confidence: float
    xs: tuple[float, ...]
    means: tuple[float, ...]
    reps: tuple[int, ...]
    n_boot: int
    n_dropped: int = 0

    def as_dict(self) -> dict[str, Any]:
        """The fit's fields as a dict (tuples as lists)."""
        d = asdict(self)
        d["xs"], d["means"], d["reps"] = list(self.xs), list(self.means), list(self.reps)
        return d


def _ls_slopes(lx: np.ndarray, ly: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """Least-squares slopes and intercepts of rows of ``ly`` (..., k) on ``lx`` (k,)."""
    xc = lx - lx.mean()
    slope = (ly - ly.mean(axis=-1, keepdims=True)) @ xc / float(xc @ xc)
    return slope, ly.mean(axis=-1) - slope * lx.mean()


def loglog_slope(xs: Sequence[float], samples_per_x: Sequence[Sequence[float]], *,
                 confidence: float = 0.95, n_boot: int = 2000, seed: int = 0) -> SlopeFit:
    """Fit the log-log slope of the mean of the samples against ``xs``.

    ``xs``: at least two distinct positive sweep values. ``samples_per_x[i]``: the replicates
    measured at ``xs[i]`` (finite; their mean must be positive). The point estimate is the
    least-squares slope of ``log mean_i`` on ``log x_i`` (as ``numpy.polyfit(log x, log
    mean, 1)``). The interval: draw ``n_boot`` bootstrap sweeps, each resampling the replicates
    of every sweep point with replacement (``default_rng(seed)``), refit, and take the
    ``(1-c)/2`` and ``(1+c)/2`` quantiles of the slopes (extended, if need be, to contain the
    point estimate). A sweep point with one replicate contributes no resampling spread.
    """
    c = _check_confidence(confidence)
    nb = _check_n_boot(n_boot)
    x = _samples(xs, "xs")
    if np.any(x <= 0):
        raise ValueError("xs must be positive for a log-log fit")
    if np.unique(x).size < 2:
        raise ValueError("xs must hold at least two distinct values")
    if len(samples_per_x) != x.size:
        raise ValueError(f"samples_per_x must have one entry per x: {len(samples_per_x)} "
                         f"entries for {x.size} xs")
    groups = [_samples(s, f"samples_per_x[{i}]") for i, s in enumerate(samples_per_x)]
    means = np.array([g.mean() for g in groups])
    if np.any(means <= 0):
        bad = int(np.argmax(means <= 0))
        raise ValueError(f"samples_per_x[{bad}] has mean {means[bad]!r}; a log-log fit needs "
                         f"positive means")
    lx = np.log(x)
    slope, intercept = _ls_slopes(lx, np.log(means))
    rng = np.random.default_rng(seed)
    boot_means = np.empty((nb, x.size))
    for i, g in enumerate(groups):
        boot_means[:, i] = g[rng.integers(0, g.size, size=(nb, g.size))].mean(axis=1)
    ok = np.all(boot_means > 0, axis=1)
    n_dropped = int(nb - ok.sum())
    if ok.sum() < 100:
        raise ValueError(f"only {int(ok.sum())} bootstrap sweeps have positive means; the "
                         f"samples are too close to zero for a log-log fit")
    boot_slopes, _ = _ls_slopes(lx, np.log(boot_means[ok]))
    lo, hi = np.quantile(boot_slopes, [(1 - c) / 2, (1 + c) / 2])
    return SlopeFit(float(slope), float(intercept), float(min(lo, slope)), float(max(hi, slope)),
                    c, tuple(map(float, x)), tuple(map(float, means)),
                    tuple(g.size for g in groups), nb, n_dropped)


def clopper_pearson(k: int, n: int, confidence: float = 0.95, *,
                    alternative: str = "two-sided") -> tuple[float, float]:
    """Exact (Clopper–Pearson) interval for a binomial proportion, ``k`` successes in ``n``.

    ``two-sided``: ``[B(α/2; k, n-k+1), B(1-α/2; k+1, n-k)]`` with ``α = 1 - confidence``
    and ``B(q; a, b)`` the Beta quantile; ``lower``: ``[B(α; k, n-k+1), 1]``; ``upper``:
    ``[0, B(1-α; k+1, n-k)]``. The ends are 0 when ``k = 0`` and 1 when ``k = n``.
    """
    for name, v in (("k", k), ("n", n)):
        if isinstance(v, bool) or not isinstance(v, (int, np.integer)):
            raise ValueError(f"{name} must be an integer, got {v!r}")
    if n < 1:
        raise ValueError(f"n must be >= 1, got {n}")
    if not 0 <= k <= n:
        raise ValueError(f"k must be in [0, n] = [0, {n}], got {k}")
    c = _check_confidence(confidence)
    if alternative not in ALTERNATIVES:
        raise ValueError(f"alternative must be one of {ALTERNATIVES}, got {alternative!r}")
    alpha = 1 - c
    tail = alpha / 2 if alternative == "two-sided" else alpha
    low = 0.0 if k == 0 else float(_st.beta.ppf(tail, k, n - k + 1))
    high = 1.0 if k == n else float(_st.beta.ppf(1 - tail, k + 1, n - k))
    if alternative == "lower":
        high = 1.0
    elif alternative == "upper":
        low = 0.0
    return low, high


# ------------------------------------------------------------------ one-sided limits
def is_binary(a: np.ndarray) -> bool:
    """Samples that are indicators (0/1): their interval is Clopper-Pearson, not t."""
    return bool(a.size > 0 and np.all((a == 0.0) | (a == 1.0)))


def one_sided_limits(samples: Sequence[float] | np.ndarray, level: float) -> tuple[float, float]:
    """One-sided ``level`` confidence limits ``(lower, upper)`` of the mean of ``samples``.

    Each end holds on its own at ``level`` (so the pair is a two-sided interval at
    ``2 level - 1``). Indicator samples get exact Clopper-Pearson limits; others the
    Student-t limits ``mean -/+ t_{level, n-1} s / sqrt(n)``. With one (non-indicator)
    sample nothing is known about the spread: ``(-inf, inf)``.
    """
    a = _samples(samples)
    c = _check_confidence(level)
    n = a.size
    if is_binary(a):
        k = int(a.sum())
        lo, _ = clopper_pearson(k, n, c, alternative="lower")
        _, hi = clopper_pearson(k, n, c, alternative="upper")
        return float(lo), float(hi)
    if n == 1:
        return -np.inf, np.inf
    half = float(_st.t.ppf(c, n - 1)) * float(a.std(ddof=1)) / np.sqrt(n)
    m = float(a.mean())
    return m - half, m + half


def _grouped(groups: Sequence[Sequence[float]]) -> list[np.ndarray]:
    """The data sets of a grouped sample as arrays (at least one)."""
    gs = [_samples(g, f"groups[{i}]") for i, g in enumerate(groups)]
    if not gs:
        raise ValueError("groups must hold at least one data set")
    return gs


def _two_stage_slots(gs: list[np.ndarray], n_boot: int,
                     rng: np.random.Generator) -> Iterator[list[tuple[np.ndarray, np.ndarray]]]:
    """The two-stage bootstrap of :func:`hierarchical_boot_means`: for each of the k slots
    (one drawn data set per bootstrap row) the pairs ``(rows, draw)``, the rows that drew
    data set j and a fresh resample of its replicates for each, shape ``(rows.size,
    gs[j].size)``. With one data set it is the ordinary bootstrap of the replicates."""
    k = len(gs)
    for _ in range(k):
        pick = rng.integers(0, k, size=n_boot) if k > 1 else np.zeros(n_boot, dtype=int)
        yield [(rows, g[rng.integers(0, g.size, size=(rows.size, g.size))])
               for j, g in enumerate(gs) if (rows := np.flatnonzero(pick == j)).size]


def hierarchical_boot_means(groups: Sequence[Sequence[float]], n_boot: int,
                            rng: np.random.Generator) -> np.ndarray:
    """Bootstrap means of samples grouped by data set: resample the data sets, then the
    replicates within each drawn data set (two-stage bootstrap). With one data set it is
    the ordinary bootstrap of the replicates. Returns ``n_boot`` means."""
    gs = _grouped(groups)
    out = np.zeros(n_boot)
    for slot in _two_stage_slots(gs, n_boot, rng):
        for rows, draw in slot:
            out[rows] += draw.mean(axis=1)
    return out / len(gs)


def hierarchical_boot_quantiles(groups: Sequence[Sequence[float]], q: float, n_boot: int,
                                rng: np.random.Generator) -> np.ndarray:
    """Bootstrap ``q``-quantiles of samples grouped by data set, drawn as
    :func:`hierarchical_boot_means` draws its means: resample the data sets, then the
    replicates within each drawn data set; the statistic is the ``q``-quantile of the pooled
    resample (``numpy.quantile``, linear interpolation). Returns ``n_boot`` quantiles."""
    gs = _grouped(groups)
    if not (isinstance(q, (int, float, np.floating)) and 0.0 < float(q) < 1.0):
        raise ValueError(f"q must be in (0, 1), got {q!r}")
    width = max(g.size for g in gs)                  # data sets of unequal sizes: NaN-padded
    pooled = []
    for slot in _two_stage_slots(gs, n_boot, rng):
        block = np.full((n_boot, width), np.nan)
        for rows, draw in slot:
            block[rows, :draw.shape[1]] = draw
        pooled.append(block)
    return np.nanquantile(np.concatenate(pooled, axis=1), float(q), axis=1)
