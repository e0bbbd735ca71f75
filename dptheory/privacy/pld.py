"""Both ends of a Gaussian pair's privacy loss distribution (PLD) from one discretisation.

A *pair* ``(P, Q)`` is one direction of a (subsampled) Gaussian mechanism: two mixtures of
N(m, sigma^2) whose privacy loss ``L(x) = log(dP/dQ)(x)`` increases with x (kinds below).
On the grid of losses ``k h`` the points ``x_k`` with ``L(x_k) = k h`` are computed once,
with the tail masses of P and Q there; both ends are built from them:

* **upper** (pessimistic): the connect-the-dots PMF (Doroshenko, Ghazi, Kamath, Kumar,
  Manurangsi 2022, Algorithm 1) of the exact hockey-stick values
  ``delta(k h) = P(x > x_k) - e^{k h} Q(x > x_k)``, each raised by a bound on its rounding
  error; it dominates the pair, so its composition's epsilon is an upper bound;
* **lower** (contraction): the cells ``[x_k, x_{k+1})`` are a post-processing of the pair,
  with exact masses ``P(B), Q(B)`` and loss ``l_B = log P(B)/Q(B)``. Under Q the hockey
  stick is ``delta(eps) = E_Q[(e^L - e^eps)_+]``, convex and non-decreasing in L. The cells'
  losses are grouped (splitting a cell's mass between two groups where needed) so that each
  group's Q-mean is *exactly* a grid point, which then carries the group's Q-mass (the last
  group is rounded down). With Z the grid value, ``E_Q[L' | Z] >= Z`` per step and the steps
  are independent, so by Jensen's inequality the composed ``E_Q[(e^{sum Z} - e^eps)_+]`` is
  at most the true delta at every eps: a certified lower end. Unlike rounding each loss
  down (privacy buckets: a bias of about h/2 per step, T h/2 in all), the grouping keeps the
  mean and loses only the within-group variance (at most ~h^2 per step, a fixed fraction
  of the composed variance): the lower end stays useful at T = 10^5 and beyond.
  Masses and losses are lowered by bounds on their floating-point error.

Kinds of pair (the sensitivity is 1; noise multiplier sigma):

* ``remove``: P = (1-q) N(0) + q N(1), Q = N(0) (Poisson add/remove, the record present);
* ``add``: P = N(1), Q = (1-q) N(1) + q N(0) (the same pair reversed and reflected);
* ``separated``: P = (1-q) [bot] + q N(1), Q = (1-q) [bot] + q N(0), where [bot] is an
  outcome both share (loss 0): Poisson replace-one when only the distance between two
  records' contributions is bounded; it dominates every pair ((1-q) N(0) + q N(a),
  (1-q) N(0) + q N(a+1)) (map [bot] to N(-a) and shift by a) and is their limit as a grows;
* ``centred``: P = (1-q) N(0) + q N(1/2), Q = (1-q) N(0) + q N(-1/2): Poisson replace-one
  with contributions in a ball of radius 1/2 around the absent record's (DP-SGD with
  clipping).

Composition multiplies characteristic functions (FFT, dp-accounting's ``self_convolve``);
the epsilon of a composed PMF is read with exactly rounded sums (``math.fsum``), at a delta
moved by the composition's numerical noise (measured from its negative entries) towards
the safe side of each end.
"""

from __future__ import annotations

import functools
import math
from dataclasses import dataclass

import numpy as np
from scipy import signal, special

__all__ = ["PAIR_KINDS", "Pair", "Pmf", "upper_pmf", "lower_pmf", "compose", "epsilon_for_delta",
           "delta_for_epsilon", "delta_for_epsilons", "grid_points"]

PAIR_KINDS = ("remove", "add", "separated", "centred")
#: tails beyond z standard deviations of every component are left out (mass < 1e-27)
_Z = 11.0
#: FFT compositions drop at most this mass in their tails (dp-accounting's default)
TAIL_TRUNCATION = 1e-15
_U = np.finfo(float).eps


@dataclass(frozen=True)
class Pair:
    """One direction of a Gaussian mechanism with sensitivity 1 (see the module docstring)."""

    kind: str
    q: float
    sigma: float

    def __post_init__(self) -> None:
        if self.kind not in PAIR_KINDS:
            raise ValueError(f"kind must be one of {PAIR_KINDS}, got {self.kind!r}")

    # ---- the two mixtures: ((weight, mean), ...) and the shared outcome's mass
    def components(self) -> tuple[tuple[tuple[float, float], ...],
                                  tuple[tuple[float, float], ...], float]:
        """P's and Q's Gaussian components ((weight, mean), ...) and the mass of the outcome
        both share (loss 0; the separated pair's record not sampled)."""
        q = self.q
        if self.kind == "remove":
            return ((1 - q, 0.0), (q, 1.0)), ((1.0, 0.0),), 0.0
        if self.kind == "add":
            return ((1.0, 1.0),), ((1 - q, 1.0), (q, 0.0)), 0.0
        if self.kind == "separated":
            return ((q, 1.0),), ((q, 0.0),), 1.0 - q
        return ((1 - q, 0.0), (q, 0.5)), ((1 - q, 0.0), (q, -0.5)), 0.0

    def loss(self, x: np.ndarray) -> np.ndarray:
        """Privacy loss log(dP/dQ) at x (increasing in x)."""
        x = np.asarray(x, dtype=float)
        s2 = self.sigma ** 2
        if self.kind == "separated" or self.q == 1.0:
            return (2 * x - 1) / (2 * s2)
        lq, l1q = math.log(self.q), math.log1p(-self.q)
        if self.kind == "remove":
            return np.logaddexp(l1q, lq + (2 * x - 1) / (2 * s2))
        if self.kind == "add":
            return -np.logaddexp(l1q, lq + (1 - 2 * x) / (2 * s2))
        return (np.logaddexp(l1q, lq + (x / 2 - 1 / 8) / s2)
                - np.logaddexp(l1q, lq + (-x / 2 - 1 / 8) / s2))

    def inverse(self, l: np.ndarray) -> np.ndarray:
        """x with loss(x) = l (-inf below the smallest loss, +inf above the largest)."""
        l = np.asarray(l, dtype=float)
        s2 = self.sigma ** 2
        if self.kind == "separated" or self.q == 1.0:
            return s2 * l + 0.5
        q = self.q
        with np.errstate(divide="ignore", invalid="ignore"):
            if self.kind == "remove":
                t = np.log(np.expm1(l) + q) - math.log(q)
                x = s2 * t + 0.5
                return np.where(l <= math.log1p(-q), -np.inf, x)
            if self.kind == "add":
                t = np.log(np.expm1(-l) + q) - math.log(q)
                x = 0.5 - s2 * t
                return np.where(l >= -math.log1p(-q), np.inf, x)
        return self._bisect(l)

    def _bisect(self, l: np.ndarray) -> np.ndarray:
        lo_x, hi_x = self.x_range()
        lo = np.full(l.shape, lo_x - 1.0)
        hi = np.full(l.shape, hi_x + 1.0)
        for _ in range(200):                      # stops once the brackets cannot shrink
            mid = 0.5 * (lo + hi)
            below = self.loss(mid) < l
            lo2, hi2 = np.where(below, mid, lo), np.where(below, hi, mid)
            if np.array_equal(lo2, lo) and np.array_equal(hi2, hi):
                break
            lo, hi = lo2, hi2
        return 0.5 * (lo + hi)

    def x_range(self) -> tuple[float, float]:
        """Outcomes kept: every component's mean +- _Z standard deviations."""
        ps, qs, _ = self.components()
        means = [m for _, m in ps + qs]
        return min(means) - _Z * self.sigma, max(means) + _Z * self.sigma

    def loss_range(self) -> tuple[float, float]:
        """Privacy losses at the ends of :meth:`x_range`."""
        a, b = self.x_range()
        lo, hi = self.loss(np.array([a, b]))
        return float(lo), float(hi)


def grid_points(pair: Pair, h: float) -> int:
    """Number of grid points of the pair's discretisation at interval h."""
    lo, hi = pair.loss_range()
    return int(math.ceil(hi / h) - math.floor(lo / h)) + 1


@dataclass(frozen=True)
class Pmf:
    """Losses ``(k0 + i) h`` with masses ``probs[i]`` under P, plus ``inf`` at +infinity;
    ``noise``: mass the numerical composition may have added or removed (see module)."""

    h: float
    k0: int
    probs: np.ndarray
    inf: float
    noise: float = 0.0


# --------------------------------------------------------------------------- one grid
def _tails(comps, x: np.ndarray, sigma: float) -> tuple[np.ndarray, np.ndarray]:
    """log of sum_i w_i P(N(m_i, sigma^2) > x), and a bound on its relative error."""
    logs = [math.log(w) + special.log_ndtr(-(x - m) / sigma) for w, m in comps if w > 0]
    return special.logsumexp(np.stack(logs), axis=0), np.full(x.shape, 8 * _U)


def _cells(comps, x: np.ndarray, sigma: float) -> tuple[np.ndarray, np.ndarray]:
    """Mass of each cell [x_i, x_{i+1}) under the mixture, and its absolute error bound."""
    mass = np.zeros(x.size - 1)
    err = np.zeros(x.size - 1)
    for w, m in comps:
        if w <= 0:
            continue
        z = (x - m) / sigma
        z1, z2 = z[:-1], z[1:]
        right = z1 >= 0                       # both in the right half: use the upper tails
        f1 = np.where(right, special.ndtr(-z1), special.ndtr(z1))
        f2 = np.where(right, special.ndtr(-z2), special.ndtr(z2))
        d = np.where(right, f1 - f2, f2 - f1)
        mass += w * d
        err += w * (4 * _U * (np.abs(f1) + np.abs(f2)) + 2 * _U * np.abs(d))
    return mass, err


@functools.lru_cache(maxsize=64)
def _grid(pair: Pair, h: float) -> tuple[int, np.ndarray, np.ndarray, np.ndarray, np.ndarray]:
    """(k0, x_k, log P(x > x_k), log Q(x > x_k), rel. error) on the loss grid k h."""
    lo, hi = pair.loss_range()
    k0, k1 = int(math.floor(lo / h)), int(math.ceil(hi / h))
    eps = np.arange(k0, k1 + 1) * h
    x = pair.inverse(eps)
    ps, qs, atom = pair.components()
    lp, ep = _tails(ps, x, pair.sigma)
    lq, eq = _tails(qs, x, pair.sigma)
    if atom > 0:                              # the shared outcome has loss 0: above x_k
        above = eps < 0                       # exactly when the grid loss is negative
        la = math.log(atom)
        lp = np.where(above, np.logaddexp(lp, la), lp)
        lq = np.where(above, np.logaddexp(lq, la), lq)
    return k0, x, lp, lq, ep + eq


# --------------------------------------------------------------------------- upper end
@functools.lru_cache(maxsize=64)
def upper_pmf(pair: Pair, h: float) -> Pmf:
    """Pessimistic connect-the-dots PMF of the pair on the grid h (dominates the pair)."""
    k0, _, lp, lq, rel = _grid(pair, h)
    eps = np.arange(k0, k0 + lp.size) * h
    with np.errstate(over="ignore", under="ignore", invalid="ignore"):
        ratio = eps + lq - lp                  # log(e^eps Q-tail / P-tail)
        delta = np.where(np.isfinite(lp), np.exp(lp) * -np.expm1(np.minimum(ratio, 0.0)), 0.0)
        delta = np.where(ratio >= 0, 0.0, delta)
        # rounding error of the two terms: relative errors of the logs, times P-tail
        bound = np.where(np.isfinite(lp), np.exp(lp) * (rel + 4 * _U * (np.abs(eps) + 1)
                                                        + 4 * _U * np.abs(lp)), 0.0)
    deltas = np.minimum(np.minimum.accumulate(delta + bound + 1e-300), 1.0)
    if deltas.size == 1:
        return Pmf(h, k0, np.array([1.0 - deltas[0]]), float(deltas[0]))
    diffs = np.diff(deltas)
    probs = np.empty_like(deltas)
    em1 = math.expm1(h)
    probs[0] = 1 - deltas[0] + diffs[0] / em1
    probs[1:-1] = (diffs[1:] - diffs[:-1] * math.exp(h)) / em1
    probs[-1] = diffs[-1] / math.expm1(-h)
    return Pmf(h, k0, np.maximum(probs, 0.0), float(deltas[-1]))


# --------------------------------------------------------------------------- lower end
@functools.lru_cache(maxsize=64)
def lower_pmf(pair: Pair, h: float) -> Pmf:
    """Contraction PMF of the pair on the grid h: its composed delta is at most the true
    delta at every epsilon (see the module docstring)."""
    k0, x, _, _, _ = _grid(pair, h)
    ps, qs, atom = pair.components()
    pm, pe = _cells(ps, x, pair.sigma)
    qm, qe = _cells(qs, x, pair.sigma)
    ok = (pm > 0) & (qm > 0) & (qm > qe) & (pm > pe)
    with np.errstate(divide="ignore", invalid="ignore"):
        loss = np.log(pm[ok]) - np.log(qm[ok])
        # lower each loss by its rounding error and a margin that covers the grouping's
        # own arithmetic; lower each Q-mass by its error
        v = loss - 1.01 * (pe[ok] / pm[ok] + qe[ok] / qm[ok]) - 1e-12 * (1 + np.abs(loss))
    w = (qm[ok] - qe[ok]) * (1 - 4 * _U)
    idx, mass = _contract(v.tolist(), w.tolist(), h)
    if atom > 0:                              # the shared outcome: loss 0, a grid point
        idx.append(0)
        mass.append(atom * (1 - 4 * _U))
    if not idx:
        return Pmf(h, 0, np.zeros(1), 0.0)
    idx_a = np.asarray(idx)
    lo = int(idx_a.min())
    W = np.bincount(idx_a - lo, weights=np.asarray(mass))
    probs = W * np.exp((lo + np.arange(W.size)) * h)     # P-masses: e^loss times Q-masses
    return Pmf(h, lo, probs, 0.0)


def _contract(v: list, w: list, h: float) -> tuple[list, list]:
    """Group atoms (value v_i, Q-mass w_i) so that each group's mean is exactly a grid
    point k h (an atom's mass may be split between two consecutive groups); the last,
    unfinished group goes to the grid point below its mean. Returns (k's, masses)."""
    out_k: list = []
    out_m: list = []
    k = 0
    M = D = 0.0           # open group: mass, deficit sum m (g - v) >= 0; M == 0: none
    for vi, mi in zip(v, w):
        while mi > 0.0:
            if M == 0.0:                       # open a group at the grid point above vi
                k, D = math.ceil(vi / h), 0.0
            e = vi - k * h
            # an atom above the grid point pays off the deficit: only the share needed
            partial = M > 0.0 and e > 0.0 and D < mi * e
            take = D / e if partial else mi
            M += take
            D -= take * e
            mi = mi - take if partial else 0.0
            if partial or D <= 0.0:            # the group's mean is k h: close it
                out_k.append(k)
                out_m.append(M)
                M = 0.0
    if M > 0.0:
        g = k * h - D / M                      # the open group's mean, rounded down
        out_k.append(math.floor(g / h))
        out_m.append(M)
    return out_k, out_m


# --------------------------------------------------------------------------- composition
def compose(parts: list[tuple[Pmf, int]], pessimistic: bool) -> Pmf:
    """The PMF of the composition of ``count`` copies of each PMF (same grid)."""
    from dp_accounting.pld import common
    h = parts[0][0].h
    k0, probs, log_keep, noise = 0, np.ones(1), 0.0, 0.0
    for pmf, count in parts:
        p, lo = pmf.probs, pmf.k0 * count
        if count > 1:
            _check_cost(pmf, count)
            off, p = common.self_convolve(pmf.probs, count, TAIL_TRUNCATION)
            p = np.asarray(p)
            lo += off
            noise += TAIL_TRUNCATION + _fft_noise(p)
        log_keep += count * math.log1p(-pmf.inf) if pmf.inf < 1 else -math.inf
        if probs.size > 1 or probs[0] != 1.0:
            probs = signal.fftconvolve(probs, p)
            noise += _fft_noise(probs)
        else:
            probs = p
        k0 += lo
    inf = -math.expm1(log_keep)
    if pessimistic:
        inf = min(1.0, inf + noise)           # truncated and aliased mass: to infinity
    return Pmf(h, k0, probs, inf, noise)


#: most grid points a composed PMF may have (complex FFT buffers of ~16 bytes a point)
MAX_COMPOSED_POINTS = 1 << 25


def _check_cost(pmf: Pmf, count: int) -> None:
    """Refuse before any FFT a composition whose PMF would exceed MAX_COMPOSED_POINTS (its
    support after dp-accounting's Chernoff truncation, estimated without composing)."""
    from dp_accounting.pld import common
    lo, hi = common.compute_self_convolve_bounds(pmf.probs, count, TAIL_TRUNCATION)
    need = hi - lo + 1
    if need > MAX_COMPOSED_POINTS:
        raise ValueError(f"composing {count:g} steps needs about {need:.3g} grid points at "
                         f"interval {pmf.h:g} (limit {MAX_COMPOSED_POINTS:g}); the privacy "
                         f"loss spreads too far to be discretised")


def _fft_noise(p: np.ndarray) -> float:
    """Total mass the FFT's rounding may have moved: the most negative entry (pure noise)
    times the length, and at least the length times the round-off of the largest entry."""
    if p.size == 0:
        return 0.0
    return float(p.size * max(-float(p.min()), 4 * _U * float(np.abs(p).max()), 0.0))


# --------------------------------------------------------------------------- read out
def delta_for_epsilon(pmf: Pmf, eps: float) -> float:
    """sum over losses l > eps of p_l (1 - e^{eps - l}), plus the mass at infinity."""
    losses = (pmf.k0 + np.arange(pmf.probs.size)) * pmf.h
    sel = losses > eps
    p, l = pmf.probs[sel], losses[sel]
    return pmf.inf + math.fsum((p * -np.expm1(eps - l)).tolist())


def delta_for_epsilons(pmf: Pmf, eps: np.ndarray) -> np.ndarray:
    """delta at each eps (vectorised suffix sums; for checks, not for the certified read-out)."""
    eps = np.asarray(eps, dtype=float)
    losses = (pmf.k0 + np.arange(pmf.probs.size)) * pmf.h
    keep = losses > min(float(eps.min()), 0.0) if eps.size else losses > 0
    p, l = pmf.probs[keep], losses[keep]
    a = np.append(np.cumsum(p[::-1])[::-1], 0.0)
    with np.errstate(over="ignore", under="ignore"):
        b = np.append(np.cumsum((p * np.exp(-l))[::-1])[::-1], 0.0)
        j = np.searchsorted(l, eps, side="right")            # first loss > eps
        return pmf.inf + a[j] - np.exp(eps) * b[j]


def epsilon_for_delta(pmf: Pmf, delta: float, *, side: str) -> float:
    """Smallest eps >= 0 with delta(eps) <= delta for the PMF; ``side`` "upper" reads it at
    delta minus the PMF's numerical noise, "lower" at delta plus it (each end moves away
    from the truth, never towards it).

    Only offsets between grid losses enter exp() (no overflow at any loss): with
    r = e^-h, ``S_j = sum_{k >= j} p_k r^(k-j)`` and ``A_j = sum_{k >= j} p_k``,
    delta(eps) = inf + A_j - e^(eps - l_j) S_j for eps in [l_{j-1}, l_j]. A first pass
    finds j with vectorised recurrences; the crossing is then checked and solved with
    exactly rounded sums.
    """
    target = delta - pmf.noise if side == "upper" else delta + pmf.noise
    if target <= 0 or pmf.inf > target:
        return math.inf
    losses = (pmf.k0 + np.arange(pmf.probs.size)) * pmf.h
    pos = losses > 0
    p, l = pmf.probs[pos], losses[pos]
    if side == "upper":
        p = np.clip(p, 0.0, None)             # negative entries are noise: dropping them
    if p.size == 0:                           # raises delta, safe for an upper end
        return 0.0
    h = pmf.h

    def exact(j: int) -> float:               # delta at eps = l_j, exactly rounded
        if j >= p.size - 1:
            return pmf.inf
        return pmf.inf + math.fsum((p[j + 1:] * -np.expm1(-h * np.arange(1, p.size - j))).tolist())

    def at_zero() -> float:                   # delta at eps = 0
        return pmf.inf + math.fsum((p * -np.expm1(-l)).tolist())

    if at_zero() <= target:
        return 0.0
    # first pass: delta(l_j) = inf + A_{j+1} - r S_{j+1}
    r = math.exp(-h)
    S = signal.lfilter([1.0], [1.0, -r], p[::-1])[::-1]
    A = np.cumsum(p[::-1])[::-1]
    d_at = pmf.inf + np.append(A[1:] - r * S[1:], 0.0)
    j = int(np.searchsorted(-d_at, -target, side="left"))
    j = min(max(j, 0), p.size - 1)
    # make sure delta(l_j) <= target < delta(l_{j-1}) with exact sums
    lo, hi = -1, p.size - 1                   # delta(l_lo) > target (l_-1 = 0), delta(l_hi) <= target
    for _ in range(4):
        if exact(j) <= target:
            hi = j
            if j == 0 or exact(j - 1) > target:
                lo = j - 1
                break
            j -= 1
        else:
            lo = j
            j += 1
    while hi - lo > 1:                        # bisection with exact sums (rarely needed)
        mid = (lo + hi) // 2
        if exact(mid) <= target:
            hi = mid
        else:
            lo = mid
    j = hi
    Aj = pmf.inf + math.fsum(p[j:].tolist())
    Sj = math.fsum((p[j:] * np.exp(-h * np.arange(p.size - j))).tolist())
    if Aj <= target or Sj <= 0:
        return float(l[j])
    eps = float(l[j]) + math.log((Aj - target) / Sj)
    left = float(l[j - 1]) if j > 0 else 0.0
    return min(max(eps, left, 0.0), float(l[j]))
