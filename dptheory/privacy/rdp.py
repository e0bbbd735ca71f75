"""Renyi differential privacy (RDP) of Gaussian mechanisms, plain and subsampled.

All functions take the *noise multiplier* ``sigma`` = noise std / l2-sensitivity and
return the RDP epsilon at each requested order alpha > 1 (an array of the orders' shape).

References
----------
* Mironov 2017, "Renyi differential privacy", Prop. 7 (Gaussian: alpha/(2 sigma^2)) and
  Prop. 1 (composition adds RDP at a fixed order).
* Mironov, Talwar, Zhang 2019, "Renyi differential privacy of the sampled Gaussian
  mechanism" (arXiv:1908.10530), Sec. 3.3: A_alpha = E_{z~mu0}[(mu(z)/mu0(z))^alpha] with
  mu0 = N(0, sigma^2), mu = (1-q) mu0 + q N(1, sigma^2); RDP = log(A_alpha)/(alpha-1).
  Integer orders: binomial expansion; fractional orders: two convergent signed series.
  The same formulas are used by Opacus and TF-privacy (``_compute_log_a_frac``).
* Wang, Balle, Kasiviswanathan 2019, "Subsampled Renyi differential privacy and analytical
  moments accountant", AISTATS (arXiv:1808.00087): Theorem 9 (general upper bound for
  sampling without replacement under substitution) and Theorem 27 (its tightening for
  the Gaussian via forward differences); Corollary 10 (interpolation of the CGF
  (alpha-1) eps(alpha) between integer orders for fractional orders).
"""

from __future__ import annotations

import functools
import math
from typing import Iterable, Sequence

import numpy as np
from scipy import special

from dptheory.privacy.gaussian import _check_positive, _check_rate


def logsumexp(a: Sequence[float] | np.ndarray, b: Sequence[float] | np.ndarray | None = None
              ) -> tuple[float, float]:
    """(log|sum_i b_i e^{a_i}|, sign of the sum) of a 1-D array (b = 1 by default).

    SciPy 1.17's algorithm for real 1-D input, without its array-API overhead and its second
    (direct) evaluation: terms with b_i = 0
    are dropped, the maximal terms are summed apart as m and the others shifted by the max,
    log|sum| = log1p(s) + log|m| + a_max with s the shifted sum over m. Results equal
    ``scipy.special.logsumexp(a, b=b, return_sign=True)`` (tests/privacy compares them);
    where that form is not finite (all terms -inf, or an overflow) the direct form is used.
    """
    a = np.asarray(a, dtype=np.float64)
    if b is not None:
        b = np.asarray(b, dtype=np.float64)
        a = np.where(b == 0, -np.inf, a)
    with np.errstate(divide="ignore", invalid="ignore", over="ignore"):
        a_max = a.max()
        top = a == a_max
        m = np.float64(top.sum()) if b is None else np.sum(b * top)
        e = np.exp(np.where(top, -np.inf, a) - a_max)
        s = np.sum(e if b is None else b * e)
        s = s / m if s != 0 else s
        sign = float(np.sign(s + 1) * np.sign(m))
        if s < -1:
            s = -s - 2
        out = float(np.log1p(s) + np.log(np.abs(m)) + a_max)
        if not math.isfinite(out):
            direct = float(np.sum(np.exp(a) if b is None else b * np.exp(a)))
            sign = float(np.sign(direct))
            out = math.log(abs(direct)) if direct != 0 else -math.inf
    return float(out), sign


__all__ = [
    "DEFAULT_ORDERS",
    "rdp_gaussian",
    "rdp_poisson_gaussian",
    "rdp_poisson_gaussian_reference",
    "rdp_fixed_size_gaussian",
    "compose_rdp",
]

#: Orders used when none are given (the usual accountant grid: fine near 1, coarse above).
DEFAULT_ORDERS: tuple[float, ...] = tuple(
    [1.0 + x / 10.0 for x in range(1, 100)] + [float(a) for a in range(11, 64)]
    + [128.0, 256.0, 512.0])

_FRAC_MAX_TERMS = 1 << 18
#: beyond this noise multiplier the fractional series needs more than _FRAC_MAX_TERMS terms
#: (measured: it fails at sigma = 1e7 after 0.5 s, converges in 0.1 ms at 1e5)
_FRAC_MAX_SIGMA = 1e6
#: noise multipliers whose square overflows float64 get the plain Gaussian's bound
_HUGE_SIGMA = 1e150


def _orders_array(orders: Iterable[float] | float) -> np.ndarray:
    arr = np.atleast_1d(np.asarray(orders, dtype=np.float64))
    if arr.size == 0:
        raise ValueError("orders must be non-empty")
    if np.any(~(arr > 1)) or np.any(~np.isfinite(arr)):
        raise ValueError(f"orders must be finite and > 1, got {arr.tolist()}")
    return arr


def _shape_like(values: np.ndarray, orders) -> np.ndarray | float:
    return float(values[0]) if np.ndim(orders) == 0 else values


def _log_comb(n: float, k: np.ndarray) -> np.ndarray:
    # log of the generalised binomial coefficient C(n, k) for real n >= k >= 0, n - k > -1;
    # for fractional n and k > n the sign alternates and is handled by the caller.
    return special.gammaln(n + 1) - special.gammaln(k + 1) - special.gammaln(n - k + 1)


def rdp_gaussian(orders: Sequence[float] | float, *, sigma: float,
                 sensitivity: float = 1.0) -> np.ndarray | float:
    """RDP of the Gaussian mechanism: alpha Delta^2 / (2 sigma^2) (Mironov 2017, Prop. 7).

    Here ``sigma`` is the noise std and ``sensitivity`` the l2-sensitivity Delta; with
    sensitivity 1 it is the noise multiplier.
    """
    sigma = _check_positive("sigma", sigma)
    sensitivity = _check_positive("sensitivity", sensitivity)
    a = _orders_array(orders)
    # (Delta / sigma)^2, not Delta^2 / sigma^2: sigma^2 overflows for sigma > 1e154
    return _shape_like(a * (sensitivity / sigma) ** 2 / 2.0, orders)


def _log_a_int(q: float, sigma: float, alpha: int) -> float:
    # A_alpha = sum_k C(alpha,k) (1-q)^(alpha-k) q^k exp((k^2-k)/(2 sigma^2))  (MTZ19 Sec. 3.2).
    # The binomial weights sum to 1, so A_alpha - 1 = sum_{k>=2} w_k expm1((k^2-k)/(2 sigma^2))
    # has only positive terms: summing those keeps full relative precision of log A_alpha
    # even when A_alpha - 1 is tiny (small q, large sigma).
    k = np.arange(2, alpha + 1, dtype=np.float64)
    expo = (k * k - k) / (2.0 * sigma ** 2)
    log_expm1 = expo + np.log(-np.expm1(-expo))
    terms = (_log_comb(float(alpha), k) + k * math.log(q) + (alpha - k) * math.log1p(-q)
             + log_expm1)
    log_am1 = logsumexp(terms)[0]
    return float(np.logaddexp(0.0, log_am1))          # log(1 + (A - 1)), overflow-safe


def _log_a_frac(q: float, sigma: float, alpha: float) -> float:
    # MTZ19 Sec. 3.3: split the integral at z0 where mu(z)/mu0(z) ... = 1/(1-q)-type point;
    # on each side expand the power of the mixture in a generalised binomial series. Each
    # series' terms are positive for k < alpha and alternate in sign for k > alpha; the
    # signs of C(alpha, k) for fractional alpha are tracked explicitly.
    # the series needs ~sigma terms per unit of z and z0 overflows for q below ~1e-308 or
    # huge sigma: fail at once there (the caller drops the order; integer orders stay exact)
    if sigma > _FRAC_MAX_SIGMA or q < 1e-300:
        raise ArithmeticError(f"fractional-order RDP series not evaluated at q={q:g}, "
                              f"sigma={sigma:g} (outside its convergent range)")
    z0 = sigma ** 2 * math.log(1.0 / q - 1.0) + 0.5
    log_q, log_1mq = math.log(q), math.log1p(-q)
    n = 64
    while True:
        k = np.arange(n, dtype=np.float64)
        j = alpha - k
        # sign of C(alpha, k) = prod_{m<k} (alpha - m) / k!: negative factors for m > alpha
        n_neg = np.maximum(0.0, k - math.floor(alpha) - 1)
        sign = np.where(n_neg % 2 == 0, 1.0, -1.0)
        log_abs_comb = _log_abs_comb(alpha, k)
        log_e0 = math.log(0.5) + _log_erfc((k - z0) / (math.sqrt(2.0) * sigma))
        log_e1 = math.log(0.5) + _log_erfc((z0 - j) / (math.sqrt(2.0) * sigma))
        log_s0 = log_abs_comb + k * log_q + j * log_1mq + (k * k - k) / (2 * sigma ** 2) + log_e0
        log_s1 = log_abs_comb + j * log_q + k * log_1mq + (j * j - j) / (2 * sigma ** 2) + log_e1
        logs = np.concatenate([log_s0, log_s1])
        signs = np.concatenate([sign, sign])
        total, tot_sign = logsumexp(logs, b=signs)
        tail = max(log_s0[-8:].max(), log_s1[-8:].max())
        decreasing = (np.all(np.diff(log_s0[-8:]) < 0) and np.all(np.diff(log_s1[-8:]) < 0))
        # past k > alpha both series alternate with decreasing terms, so the truncation
        # error is below the last term: stop when it is < e^-30 (1e-13) of the total
        if decreasing and tail < total - 30:
            if tot_sign <= 0:
                raise ArithmeticError("fractional-order series lost its sign")
            return float(total)
        if n >= _FRAC_MAX_TERMS:
            raise ArithmeticError(
                f"fractional-order RDP series did not converge (q={q}, sigma={sigma}, "
                f"alpha={alpha}); use integer orders")
        n *= 2


def _log_abs_comb(alpha: float, k: np.ndarray) -> np.ndarray:
    # |C(alpha, k)| = Gamma(alpha+1) / (Gamma(k+1) |Gamma(alpha-k+1)|); gammaln returns
    # log|Gamma| for negative non-integer arguments.
    return special.gammaln(alpha + 1) - special.gammaln(k + 1) - special.gammaln(alpha - k + 1)


def _log_erfc(x: np.ndarray) -> np.ndarray:
    return math.log(2.0) + special.log_ndtr(-x * math.sqrt(2.0))


def rdp_poisson_gaussian(orders: Sequence[float] | float, *, q: float,
                         sigma: float) -> np.ndarray | float:
    """RDP of the Poisson-subsampled Gaussian (add/remove neighbours), exact.

    ``log(A_alpha)/(alpha-1)`` with A_alpha of Mironov, Talwar, Zhang 2019 (Sec. 3.2 for
    integer alpha, Sec. 3.3 for fractional alpha). ``q`` is the sampling rate in (0, 1],
    ``sigma`` the noise multiplier. q = 1 gives the plain Gaussian alpha/(2 sigma^2).
    """
    q = _check_rate("q", q)
    sigma = _check_positive("sigma", sigma)
    a = _orders_array(orders)
    if q == 1.0 or sigma > _HUGE_SIGMA:
        # q = 1: the plain Gaussian. Huge sigma: sigma^2 overflows in the series; the plain
        # Gaussian's alpha/(2 sigma^2) is an upper bound (Renyi divergence is jointly
        # quasi-convex, so subsampling never raises it) and is ~0 there, as is the exact value
        return _shape_like(a * (1.0 / sigma) ** 2 / 2.0, orders)
    out = np.empty_like(a)
    for i, alpha in enumerate(a):
        log_a = _log_a_int(q, sigma, int(alpha)) if float(alpha).is_integer() \
            else _log_a_frac(q, sigma, float(alpha))
        out[i] = max(log_a, 0.0) / (alpha - 1.0)   # A_alpha >= 1; clip rounding below 0
    return _shape_like(out, orders)


def rdp_poisson_gaussian_reference(order: float, *, q: float, sigma: float,
                                   dps: int = 40) -> float:
    """High-precision reference: mpmath quadrature of A_alpha = E_{mu0}[(mu/mu0)^alpha].

    Independent of the series of :func:`rdp_poisson_gaussian`: integrates
    ``phi_sigma(z) ((1-q) + q exp((2z-1)/(2 sigma^2)))^alpha`` over the real line,
    split at the likelihood-ratio crossing and at the mass of both Gaussians.
    """
    import mpmath as mp

    q = _check_rate("q", q)
    sigma = _check_positive("sigma", sigma)
    alpha = float(_orders_array(order)[0])
    with mp.workdps(dps):
        s, Q, A = mp.mpf(sigma), mp.mpf(q), mp.mpf(alpha)

        def integrand(z):
            ratio = (1 - Q) + Q * mp.exp((2 * z - 1) / (2 * s ** 2))
            return mp.npdf(z, 0, s) * ratio ** A

        # the integrand's mass sits near alpha (tilted Gaussian); split there and at 0, 1
        centre = mp.mpf(alpha)
        pts = sorted({mp.mpf(-50) * s, mp.mpf(0), mp.mpf(0.5), mp.mpf(1), centre,
                      centre + 50 * s})
        val = mp.quad(integrand, [-mp.inf] + pts + [mp.inf])
        return float(mp.log(val) / (A - 1))


def _forward_diff_dps(sigma: float, l: int) -> int:
    # digits lost in the alternating sum: log10 of the largest term (2^l f(l)) minus log10 of
    # a lower bound of the result, plus a safety margin
    lost = (l * math.log10(2.0) + l * (l + 1) / (2 * sigma ** 2) / math.log(10)
            + 0.5 * l * abs(math.log10(2 * sigma ** 2)) + l * math.log10(l + 1) / 2)
    return int(lost) + 30


_MAX_DPS = 1500


@functools.lru_cache(maxsize=64)
def _log_forward_diffs(sigma: float, n: int) -> tuple[float, ...]:
    """log of the forward differences Delta^l h(0), l = 0..n, of h(x) = e^{(x-1) eps(x)}
    = exp(x(x-1)/(2 sigma^2)) for the Gaussian (WBK19 Theorem 27).

    All forward differences of h at 0 are >= 0 (h(x+1) is a power series in x(x+1) with
    positive coefficients; h(0) = h(1) = 1). Computed by repeated
    differencing in mpmath at a precision that survives the cancellation; orders whose
    precision would exceed ``_MAX_DPS`` digits get nan (the caller then uses Thm 9).
    """
    import mpmath as mp

    n_ok = n
    while n_ok > 0 and _forward_diff_dps(sigma, n_ok) > _MAX_DPS:
        n_ok -= 1
    out = [float("nan")] * (n + 1)
    with mp.workdps(_forward_diff_dps(sigma, n_ok)):
        s2 = 2 * mp.mpf(sigma) ** 2
        vec = [mp.exp(k * (k - 1) / s2) for k in range(n_ok + 1)]
        firsts = []
        for l in range(n_ok + 1):
            firsts.append(vec[0])
            vec = [vec[i + 1] - vec[i] for i in range(len(vec) - 1)]
    with mp.workdps(20):                  # the logs need no more than double precision
        for l, v in enumerate(firsts):
            out[l] = float(mp.log(v)) if v > 0 else float("-inf")
    return tuple(out)


def _wor_log_bound_int(q: float, sigma: float, alpha: int, diffs: np.ndarray) -> float:
    """(alpha-1) * eps'(alpha): log of WBK19 Thm 9 sum, with Thm 27 terms where computable
    (``diffs``: :func:`_log_forward_diffs` as an array)."""
    eps2 = 1.0 / sigma ** 2                                   # eps(2) of the Gaussian
    log_terms = np.empty(max(alpha, 2))
    log_terms[0] = 0.0
    # j = 2: gamma^2 C(alpha,2) min{4 (e^{eps(2)} - 1), 2 e^{eps(2)}}  (eps(inf) = inf)
    t2 = min(math.log(4.0) + eps2 + math.log(-math.expm1(-eps2)), eps2 + math.log(2.0))
    log_terms[1] = 2 * math.log(q) + float(_log_comb(float(alpha), np.array(2.0))) + t2
    if alpha >= 3:
        # j = 3..alpha at once: the same float operations, element by element, as one j
        ji = np.arange(3, alpha + 1)
        j = ji.astype(np.float64)
        thm9 = math.log(2.0) + (j - 1) * j / (2.0 * sigma ** 2)   # 2 e^{(j-1) eps(j)}
        lo, hi = diffs[2 * (ji // 2)], diffs[2 * ((ji + 1) // 2)]
        with np.errstate(invalid="ignore"):
            thm27 = np.where(np.isnan(lo) | np.isnan(hi), np.inf,
                             math.log(4.0) + 0.5 * (lo + hi))
        log_terms[2:] = j * math.log(q) + _log_comb(float(alpha), j) + np.minimum(thm9, thm27)
    return logsumexp(log_terms)[0]


def rdp_fixed_size_gaussian(orders: Sequence[float] | float, *, q: float,
                            sigma: float) -> np.ndarray | float:
    """Upper bound on the RDP of the Gaussian with a fixed-size sample drawn uniformly without
    replacement (rate q = m/n), substitution neighbours.

    Wang, Balle, Kasiviswanathan 2019: Theorem 9 (general bound) with the Gaussian
    tightening of Theorem 27 for the j >= 3 terms where it can be evaluated to full
    precision (otherwise Theorem 9's term, still a valid upper bound). Fractional orders use
    Corollary 10: linear interpolation of (alpha-1) eps(alpha) between floor and ceil.
    This is the bound implemented by TF-privacy / dp_accounting
    (``_compute_rdp_sample_wor_gaussian``).
    """
    q = _check_rate("q", q)
    sigma = _check_positive("sigma", sigma)
    a = _orders_array(orders)
    if q == 1.0 or sigma > _HUGE_SIGMA:
        # q = 1: the plain Gaussian. Huge sigma: sigma^2 overflows in the series; the plain
        # Gaussian's alpha/(2 sigma^2) is an upper bound (Renyi divergence is jointly
        # quasi-convex, so subsampling never raises it) and is ~0 there, as is the exact value
        return _shape_like(a * (1.0 / sigma) ** 2 / 2.0, orders)
    out = np.empty_like(a)
    # one table of forward differences serves every order (cached per sigma)
    diffs = np.asarray(_log_forward_diffs(float(sigma), int(math.ceil(a.max())) + 1))
    for i, alpha in enumerate(a):
        if float(alpha).is_integer():
            out[i] = _wor_log_bound_int(q, sigma, int(alpha), diffs) / (alpha - 1.0)
        else:
            lo, hi = math.floor(alpha), math.ceil(alpha)
            t = alpha - lo
            x = _wor_log_bound_int(q, sigma, lo, diffs) if lo >= 2 else 0.0   # CGF(1) = 0
            y = _wor_log_bound_int(q, sigma, hi, diffs)
            out[i] = ((1 - t) * x + t * y) / (alpha - 1.0)
    return _shape_like(out, orders)


def compose_rdp(*rdps: Sequence[float] | float) -> np.ndarray:
    """RDP composition (Mironov 2017, Prop. 1): RDP epsilons add at each fixed order."""
    if not rdps:
        raise ValueError("compose_rdp needs at least one RDP curve")
    arrs = [np.atleast_1d(np.asarray(r, dtype=np.float64)) for r in rdps]
    if len({a.shape for a in arrs}) != 1:
        raise ValueError("all RDP curves must be evaluated at the same orders")
    return np.sum(arrs, axis=0)
