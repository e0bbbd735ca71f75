"""Two-sided epsilon: certified lower and upper bounds on the epsilon of a mechanism.

A privacy claim is false only when the mechanism's *true* epsilon exceeds it, and every
accounting route (RDP conversion, advanced composition, a paper's proof) gives an *upper*
bound. :func:`epsilon_interval` returns both ends, ``[eps_lower, eps_upper]`` at a given
delta, for a mechanism described by the events of :mod:`dptheory.privacy.events`.

**The model of every epsilon** (printed with it as :attr:`EpsilonInterval.model`): noise
multipliers are relative to the sensitivity Delta of the neighbouring relation, and

* *add-remove* (Poisson sampling or none): Delta bounds the distance between a record's
  contribution and the absent record's (zero); a record is in each batch with probability q;
* *replace-one*, fixed-size batches (sampling without replacement) or none: Delta bounds the
  distance between two records' contributions;
* *replace-one*, Poisson sampling: the absent record's contribution matters too, so the
  model says where the contributions lie (``contributions``):
  - ``"any"`` (default): only the distance between two records' contributions is bounded
    (the README's convention). The worst case is the *separated* pair of
    :mod:`dptheory.privacy.pld`, the limit of contributions a and a + Delta far from the
    absent record's; it dominates the add/remove pair (a = 0);
  - ``"centred"``: every contribution lies within Delta/2 of the absent record's (DP-SGD
    with clipping norm C = Delta/2): the pair (1-q) N(0) + q N(Delta/2) against
    (1-q) N(0) + q N(-Delta/2).

**The ends.**

* unsubsampled Gaussians: the exact privacy curve (Balle & Wang 2018, Thm 8). Gaussian
  mechanisms compose exactly into one Gaussian with 1/sigma^2 = sum_i 1/sigma_i^2 (Dong,
  Roth, Su 2022, Cor. 3.3); the root is bracketed outward (the lower end rounded down, the
  upper end up, with a margin for the curve's evaluation error);
* Poisson subsampling: one discretised privacy loss distribution per direction gives both
  ends (:mod:`dptheory.privacy.pld`): the upper end from the connect-the-dots PMF
  (Doroshenko et al. 2022), the lower end from a mean-preserving contraction of the same
  grid's cells, which loses only within-cell variance, so it does not degrade with the
  number of steps (the privacy-buckets rounding lost about T h / 2). The lower end's pair
  is realised by neighbouring datasets (the record changes its contribution by the full
  sensitivity, the others contribute nothing; for replace-one with ``"any"``, realised in
  the limit of far contributions, which the class's epsilon, a supremum, attains); the
  lower end is taken in the direction whose upper end is larger;
* fixed-size sampling without replacement, replace-one (no library covers it):
  - upper end: the smaller of (a) the PLD of the symmetrised trade-off function
    min{f_q, f_q^-1}** of Dong, Roth, Su 2022 (Thm 4.2, sampling without replacement under
    substitution), built from the pessimistic PMF of the pair
    ((1-q) N(0,s^2) + q N(1,s^2), N(0,s^2)): its privacy profile for eps >= 0 is the maximum
    of the two directions' profiles, and a symmetric pair's loss distribution is fixed by
    that profile (mass e^-l p_l at -l, the rest at 0); and (b) the RDP bound of Wang, Balle,
    Kasiviswanathan 2019 (Thms 9, 27) with the improved conversion;
  - lower end: the contraction PMF of the pair above, which is realised by the datasets
    (x', ..., x', x) and (x', ..., x') when x and x' contribute vectors at distance
    Delta (every batch that contains the differing record then shifts by Delta, the
    others are identical).

Each end is certified: the upper end is an upper bound on the true epsilon of every
mechanism the events describe, the lower end a lower bound on the worst case over the
pairs of neighbouring datasets the model contains. When the events' sensitivities are
themselves upper bounds not known to be attained (``attained=False``), only the upper end
is certified and the lower end is 0.

Grids: both ends start at the discretisation interval ``UPPER_DISCRETIZATION`` (1e-4,
dp-accounting's default, so the upper end costs what its PLD costs); when the interval is
wider than ``rtol`` times the upper end, the grid is refined (to ``min_discretization`` at
most) and the better end of each grid is kept. Every grid is cached per (pair, interval).
Small noise multipliers spread the loss widely and get a coarser grid (``max_points``).

Failures (NaN, negative or infinite epsilon from a finite mechanism) raise
:class:`TightAccountingError` (a ``ValueError``) naming the settings; they are never
returned as numbers.
"""

from __future__ import annotations

import functools
import math
from dataclasses import dataclass
from typing import Any, Iterable

import numpy as np

from dptheory.privacy import pld as _pld
from dptheory.privacy.conversions import eps_from_rdp_improved
from dptheory.privacy.events import (ComposedEvent, Event, GaussianEvent, SampledEvent,
                                     SelfComposedEvent, rdp_of)
from dptheory.privacy.gaussian import _check_positive, _check_unit_open, gaussian_epsilon
from dptheory.vocabulary import CONTRIBUTIONS, RELATIONS

__all__ = ["RELATIONS", "CONTRIBUTIONS", "EpsilonInterval", "TightAccountingError",
           "epsilon_interval", "epsilon_upper", "relation_of", "model_of"]

#: discretisation of both ends' first grid: its error is about this much epsilon
UPPER_DISCRETIZATION = 1e-4
#: coarsest discretisation ever used (kept for callers; grids start finer)
COARSEST = 1e-3
#: default finest discretisation the refinement may reach
FINEST = 1e-5
#: privacy losses beyond this overflow exp() in float64
_MAX_LOSS = 700.0
#: most grid points a one-step PMF may have: small noise multipliers spread the privacy
#: loss widely and get a coarser grid instead
MAX_POINTS = 300_000
#: orders of the RDP upper bound for fixed-size sampling (its cost grows as alpha^2)
_FIXED_SIZE_ORDERS = tuple([1.0 + x / 10.0 for x in range(1, 100)]
                           + [float(a) for a in range(11, 64)] + [128.0])
#: relative outward rounding of each end (covers the read-out's floating-point error)
_ROUND = 1e-12


class TightAccountingError(ValueError):
    """The tight accountant cannot give a number at these settings (a numerical failure or a
    setting outside what it resolves); the message names the settings."""


@dataclass(frozen=True)
class EpsilonInterval:
    """Certified ``[lower, upper]`` on the epsilon of a mechanism at ``delta``.

    ``lower_method`` / ``upper_method`` say how each end was obtained; ``certified`` says
    which ends are certified ("both" or "upper"); ``lower_slack`` is the width of the
    interval (0 when exact); ``model`` states the neighbouring relation, the sampling and
    where the contributions lie.
    """

    lower: float
    upper: float
    delta: float
    relation: str
    lower_method: str
    upper_method: str
    certified: str = "both"
    lower_slack: float = 0.0
    model: str = ""

    @property
    def method(self) -> str:
        """How the interval was obtained: the common method, or both ends' methods."""
        if self.lower_method == self.upper_method:
            return self.upper_method
        return f"upper: {self.upper_method}; lower: {self.lower_method}"

    def as_dict(self) -> dict[str, Any]:
        """JSON-strict dict (an infinite end is ``None``)."""
        def num(x: float) -> float | None:
            return float(x) if math.isfinite(x) else None
        return {"epsilon_lower": num(self.lower), "epsilon_upper": num(self.upper),
                "delta": self.delta, "relation": self.relation, "method": self.method,
                "lower_method": self.lower_method, "upper_method": self.upper_method,
                "certified": self.certified, "lower_slack": self.lower_slack,
                "model": self.model}


# ------------------------------------------------------------------------ event algebra
@dataclass(frozen=True)
class _Part:
    kind: str            # "gaussian" | "poisson" | "fixed-size"
    q: float
    sigma: float
    count: int


def _parts(event: Event) -> list[_Part]:
    """The event as a multiset of homogeneous parts (Gaussians merged into one)."""
    counts: dict[tuple[str, float, float], int] = {}

    def walk(e: Event, k: int) -> None:
        if isinstance(e, GaussianEvent):
            key = ("gaussian", 1.0, float(e.noise_multiplier))
        elif isinstance(e, SampledEvent):
            kind = "gaussian" if e.rate == 1.0 else e.sampling
            key = (kind, float(e.rate), float(e.event.noise_multiplier))
        elif isinstance(e, ComposedEvent):
            for sub in e.events:
                walk(sub, k)
            return
        elif isinstance(e, SelfComposedEvent):
            walk(e.event, k * e.count)
            return
        else:
            raise ValueError(f"event must be a GaussianEvent, SampledEvent, ComposedEvent or "
                             f"SelfComposedEvent, got {type(e).__name__}")
        counts[key] = counts.get(key, 0) + k

    walk(event, 1)
    if not counts:
        raise ValueError("event must contain at least one mechanism")
    gauss = [(s, c) for (kind, _, s), c in counts.items() if kind == "gaussian"]
    out = [_Part(kind, q, s, c) for (kind, q, s), c in sorted(counts.items())
           if kind != "gaussian"]
    if gauss:
        out.insert(0, _Part("gaussian", 1.0, _merged_sigma(gauss), 1))
    return out


def _merged_sigma(gauss: list[tuple[float, int]]) -> float:
    """sigma of one Gaussian equal to the composed ones: 1/sigma^2 = sum_i c_i / sigma_i^2,
    scaled by the largest sigma so that huge or tiny multipliers neither overflow nor
    underflow."""
    m = max(s for s, _ in gauss)
    return m / math.sqrt(math.fsum(c * (m / s) ** 2 for s, c in gauss))


def relation_of(event: Event) -> str:
    """The neighbouring relation an event implies: replace-one when it samples a fixed-size
    batch (fixed-size sampling is defined for datasets of one size), else add/remove."""
    return "replace-one" if any(p.kind == "fixed-size" for p in _parts(event)) \
        else "add-remove"


def _model_text(parts: list[_Part], relation: str, contributions: str) -> str:
    kinds = {p.kind for p in parts}
    sampling = ", ".join(sorted({"Poisson sampling" if k == "poisson" else
                                 "fixed-size batches (without replacement)" if
                                 k == "fixed-size" else "no sampling" for k in kinds}))
    if relation == "add-remove":
        return (f"add-remove, {sampling}: the sensitivity bounds the distance between a "
                f"record's contribution and the absent record's")
    where = "the sensitivity bounds the distance between two records' contributions"
    if "poisson" in kinds:
        where = ("contributions anywhere, only the distance between two records' "
                 "contributions bounded by the sensitivity (worst case over their position "
                 "relative to the absent record's)" if contributions == "any" else
                 "contributions within half the sensitivity of the absent record's (a ball "
                 "centred on it, as DP-SGD with clipping norm C and sensitivity 2C)")
    return f"replace-one, {sampling}: {where}"


def model_of(event: Event, *, relation: str | None = None,
             contributions: str | None = None) -> str:
    """The model :func:`epsilon_interval` accounts ``event`` under: the neighbouring
    relation, the sampling, and where the records' contributions lie."""
    parts, rel, con = _validate(event, 0.5, relation, contributions)
    return _model_text(parts, rel, con)


# ------------------------------------------------------------------------ pairs and grids
def _pair(p: _Part, relation: str, contributions: str, direction: str) -> _pld.Pair:
    """The pair of one step of part ``p`` in ``direction`` (see :mod:`dptheory.privacy.pld`)."""
    if p.kind == "gaussian":
        return _pld.Pair("remove", 1.0, p.sigma)
    if p.kind == "poisson" and relation == "replace-one":
        return _pld.Pair("separated" if contributions == "any" else "centred", p.q, p.sigma)
    return _pld.Pair(direction, p.q, p.sigma)


def _directions(parts: list[_Part], relation: str) -> tuple[str, ...]:
    """Directions to account: under add/remove a Poisson part differs when the record is
    removed or added (the whole composition has one direction); other pairs are symmetric."""
    if relation == "add-remove" and any(p.kind == "poisson" for p in parts):
        return ("remove", "add")
    return ("remove",)


def _loss_extent(parts: list[_Part], relation: str, contributions: str) -> float:
    """Largest one-step privacy loss magnitude over the parts' pairs (both directions)."""
    top = 0.0
    for p in parts:
        for d in ("remove", "add"):
            lo, hi = _pair(p, relation, contributions, d).loss_range()
            top = max(top, abs(lo), abs(hi))
    return top


def _first_grid(parts: list[_Part], relation: str, contributions: str,
                max_points: float) -> float:
    """The first discretisation interval: UPPER_DISCRETIZATION, or coarser when the loss
    range needs more than ``max_points`` points (each end stays certified, only looser)."""
    span = 2.0 * _loss_extent(parts, relation, contributions)
    return max(UPPER_DISCRETIZATION, span / max_points)


def _steps(parts: Iterable[_Part]) -> int:
    return sum(p.count for p in parts)


def _describe(parts: list[_Part]) -> str:
    bits = []
    for p in parts:
        if p.kind == "gaussian":
            bits.append(f"Gaussian(sigma={p.sigma:.6g})")
        else:
            bits.append(f"{p.count} x {p.kind}(q={p.q:.6g}, sigma={p.sigma:.6g})")
    return " + ".join(bits)


def _symmetrized(sigma: float, q: float, h: float) -> _pld.Pmf | None:
    """Pessimistic PMF of the symmetrised trade-off min{f_q, f_q^-1}** (one step of the
    fixed-size subsampled Gaussian under replace-one), or None when the construction's
    preconditions fail at this discretisation (the caller then keeps the RDP bound)."""
    return _symmetrized_cached(float(sigma), float(q), float(h))


@functools.lru_cache(maxsize=64)
def _symmetrized_cached(sigma: float, q: float, h: float) -> _pld.Pmf | None:
    rem = _pld.upper_pmf(_pld.Pair("remove", q, sigma), h)
    add = _pld.upper_pmf(_pld.Pair("add", q, sigma), h)
    k = np.arange(rem.probs.size) + rem.k0
    top = float(k[-1] * h)
    # the symmetric profile for eps >= 0 is max(remove, add); build from the remove one when
    # it dominates (Zhu, Dong, Wang 2022 show it does for the subsampled Gaussian; checked
    # here on a grid, rounding excess charged to the infinity mass)
    grid = np.linspace(0.0, min(max(top, 0.0), _MAX_LOSS), 513)
    excess = float(np.max(_pld.delta_for_epsilons(add, grid)
                          - _pld.delta_for_epsilons(rem, grid)))
    if excess > 1e-9:
        return None
    pos = k > 0
    kp, pp = k[pos], rem.probs[pos]
    inf_mass = rem.inf + max(excess, 0.0)
    zero = 1.0 - inf_mass - math.fsum((pp * (1.0 + np.exp(-kp * h))).tolist())
    if zero < -1e-12:
        return None
    K = int(kp.max()) if kp.size else 0
    # mirrored atoms below -_MAX_LOSS carry mass < e^-_MAX_LOSS and would overflow exp(-loss):
    # their mass goes to loss 0 instead (a higher loss: pessimistic)
    Kn = min(K, int(_MAX_LOSS / h))
    probs = np.zeros(K + Kn + 1)
    probs[Kn + kp] = pp                                  # positive losses: as the profile
    mirror = pp * np.exp(-kp * h)                        # mirrored: e^-l times the mass at l
    keep = kp <= Kn
    probs[Kn - kp[keep]] = mirror[keep]
    probs[Kn] = max(zero, 0.0) + math.fsum(mirror[~keep].tolist())
    return _pld.Pmf(h, -Kn, probs, inf_mass)


# ------------------------------------------------------------------------ failures
def _fail(parts: list[_Part], delta: float, why: str) -> TightAccountingError:
    return TightAccountingError(
        f"the tight accountant failed for {_describe(parts)} at delta={delta:g}: {why}; "
        f"use the RDP route instead")


def _checked(value: float, parts: list[_Part], delta: float, what: str) -> float:
    if math.isnan(value) or value < 0:
        raise _fail(parts, delta, f"{what} epsilon is {value!r}")
    if math.isinf(value):
        raise _fail(parts, delta, f"{what} epsilon is infinite (delta below the mass the "
                                  f"discretisation leaves out, about 1e-27 per step)")
    return value


# ------------------------------------------------------------------------ the two ends
_NUMERIC = (ArithmeticError, MemoryError, ValueError, FloatingPointError)


def _pld_upper(parts: list[_Part], delta: float, relation: str, contributions: str,
               h: float) -> tuple[dict[str, float], str]:
    """Upper epsilon per direction at grid h, and how it was obtained."""
    notes = set()
    out = {}
    for d in _directions(parts, relation):
        pmfs = []
        for p in parts:
            if p.kind == "fixed-size":
                sym = _symmetrized(p.sigma, p.q, h)
                if sym is None:
                    return {d: math.inf}, "symmetrised PLD not constructible"
                pmfs.append((sym, p.count))
                notes.add("fixed-size: PLD of the symmetrised trade-off min{f_q, f_q^-1}** "
                          "(Dong-Roth-Su 2022 Thm 4.2)")
            else:
                pmfs.append((_pld.upper_pmf(_pair(p, relation, contributions, d), h),
                             p.count))
                if p.kind == "poisson":
                    notes.add("Poisson: connect-the-dots PLD (Doroshenko et al. 2022)")
        out[d] = _pld.epsilon_for_delta(_pld.compose(pmfs, pessimistic=True), delta,
                                        side="upper")
    return out, "; ".join(sorted(notes)) or "connect-the-dots PLD"


def _rdp_upper(parts: list[_Part], delta: float) -> float:
    """RDP upper bound of the same composition (fixed-size and add/remove Poisson parts)."""
    orders = np.asarray(_FIXED_SIZE_ORDERS)
    total = np.zeros_like(orders)
    for p in parts:
        if p.kind == "gaussian":
            e: Event = GaussianEvent(p.sigma)
        else:
            e = SampledEvent(p.q, p.kind, GaussianEvent(p.sigma))
        total = total + p.count * rdp_of(e, orders)
    return eps_from_rdp_improved(orders, total, delta)[0]


def _lower_groups(parts: list[_Part]) -> list[list[_Part]]:
    """Parts whose worst cases one pair of datasets realises at once (see the module
    docstring); a composition's epsilon is at least that of any of its sub-compositions."""
    gauss = [p for p in parts if p.kind == "gaussian"]
    poisson = [p for p in parts if p.kind == "poisson"]
    fixed = [p for p in parts if p.kind == "fixed-size"]
    groups = [g + gauss for g in (poisson, fixed) if g]
    return groups or [gauss]


def _pld_lower(parts: list[_Part], delta: float, relation: str, contributions: str,
               direction: str, h: float) -> float:
    """Lower epsilon at grid h: the best over the groups, in ``direction``."""
    best = 0.0
    for group in _lower_groups(parts):
        pmfs = [(_pld.lower_pmf(_pair(p, relation, contributions, direction), h), p.count)
                for p in group]
        eps = _pld.epsilon_for_delta(_pld.compose(pmfs, pessimistic=False), delta,
                                     side="lower")
        if math.isnan(eps) or eps < 0:
            raise _fail(parts, delta, f"lower epsilon is {eps!r}")
        best = max(best, eps)
    return best


def _validate(event: Event, delta: float, relation: str | None,
              contributions: str | None) -> tuple[list[_Part], str, str]:
    delta = _check_unit_open("delta", delta)
    parts = _parts(event)
    rel = relation_of(event) if relation is None else relation
    if rel not in RELATIONS:
        raise ValueError(f"relation must be one of {RELATIONS}, got {relation!r}")
    if rel == "add-remove" and any(p.kind == "fixed-size" for p in parts):
        raise ValueError("fixed-size sampling needs relation='replace-one' (a fixed-size "
                         "batch is defined for datasets of one size)")
    con = "any" if contributions is None else contributions
    if con not in CONTRIBUTIONS:
        raise ValueError(f"contributions must be one of {CONTRIBUTIONS}, got {contributions!r}")
    if con == "centred" and rel == "add-remove":
        raise ValueError("contributions='centred' belongs to relation='replace-one' (under "
                         "add-remove the sensitivity already bounds the distance to the absent "
                         "record's contribution)")
    return parts, rel, con


def _exact_gaussian(sigma: float, delta: float) -> tuple[float, float]:
    """[lower, upper] around the exact Gaussian epsilon: the float root is moved outward,
    in steps of a few units in the last place, until the curve evaluated at 40 digits
    (mpmath) is on the right side of delta, so the lower end is never above the exact value
    nor the upper end below it."""
    import mpmath as mp
    e = gaussian_epsilon(delta, sigma=sigma)

    def over(x: float) -> bool:                   # delta(x) > delta at 40 digits
        with mp.workdps(40):
            s, d, t = mp.mpf(sigma), mp.mpf(delta), mp.mpf(x)
            return mp.ncdf(1 / (2 * s) - t * s) - mp.e ** t * mp.ncdf(-1 / (2 * s) - t * s) > d

    lo, up, k = e, e, 0
    while lo > 0 and not over(lo):
        lo = max(lo - max(lo * 4e-16 * 4.0 ** k, 5e-324), 0.0)
        k += 1
    k = 0
    while over(up):
        up = up + max(up * 4e-16 * 4.0 ** k, 5e-324 * 4.0 ** k)
        k += 1
    return lo, up


def _gaussian_bound(parts: list[_Part], delta: float) -> tuple[float, float]:
    """Exact ends of the same composition without sampling: an upper bound on every model
    here (subsampling never raises epsilon: Dong-Roth-Su 2022 Thm 4.2 / joint convexity);
    (0, inf) when that epsilon is beyond the exact curve's solver (above 1e8)."""
    sigma = _merged_sigma([(p.sigma, p.count) for p in parts])
    try:
        e = gaussian_epsilon(delta, sigma=sigma)
    except ValueError:
        return 0.0, math.inf
    if e == 0.0:                      # at the boundary the careful (40-digit) check decides
        return _exact_gaussian(sigma, delta)
    return 0.0, e * (1.0 + 1e-9)      # the float root is accurate to ~1e-15: a safe margin


def _check_resolvable(parts: list[_Part], relation: str, contributions: str,
                      delta: float) -> None:
    """Refuse at once a mechanism whose one-step privacy loss leaves float64's exp range:
    its epsilon is finite but beyond what a discretised PLD resolves."""
    top = _loss_extent(parts, relation, contributions)
    if not top <= _MAX_LOSS:
        raise _fail(parts, delta, f"one step's privacy loss reaches {top:.3g}, beyond the "
                                  f"{_MAX_LOSS:g} a discretised PLD resolves in float64 "
                                  f"(noise multiplier too small)")


def _upper(parts: list[_Part], delta: float, relation: str, contributions: str,
           h: float) -> tuple[float, str, dict[str, float]]:
    try:
        per_dir, how = _pld_upper(parts, delta, relation, contributions, h)
    except _NUMERIC as exc:
        raise _fail(parts, delta, f"{type(exc).__name__}: {exc}") from None
    eps = max(per_dir.values())
    if any(p.kind == "fixed-size" for p in parts):
        try:
            rdp = _rdp_upper(parts, delta)
        except (ArithmeticError, ValueError):
            rdp = math.inf
        if rdp < eps:
            eps, how = rdp, ("RDP of the fixed-size subsampled Gaussian (Wang-Balle-"
                             "Kasiviswanathan 2019), improved conversion (tighter here than "
                             + how + ")")
    return _checked(eps, parts, delta, "upper"), how, per_dir


_EXACT = ("exact Gaussian privacy curve (Balle-Wang 2018); composed Gaussians are one "
          "Gaussian (Dong-Roth-Su 2022)")
_CONTRACTION = ("mean-preserving contraction of the same discretised PLD (Jensen: certified "
                "below the true delta at every epsilon)")


def _round_out(lower: float, upper: float) -> tuple[float, float]:
    """Lower end rounded down, upper end up (relative _ROUND)."""
    return max(lower * (1.0 - _ROUND), 0.0), upper * (1.0 + _ROUND)


@functools.lru_cache(maxsize=512)
def _interval_cached(event: Event, delta: float, relation: str | None,
                     contributions: str | None, rtol: float, min_discretization: float,
                     attained: bool, max_points: float) -> EpsilonInterval:
    parts, rel, con = _validate(event, delta, relation, contributions)
    model = _model_text(parts, rel, con)
    if len(parts) == 1 and parts[0].kind == "gaussian":
        lo, up = _exact_gaussian(parts[0].sigma, delta)
        if not attained:
            return EpsilonInterval(0.0, up, delta, rel, _UNATTAINED, _EXACT,
                                   certified="upper", model=model)
        return EpsilonInterval(lo, up, delta, rel, _EXACT, _EXACT, model=model)
    g_lo, g_up = _gaussian_bound(parts, delta)
    if g_up == 0.0 or _loss_extent(parts, rel, con) < UPPER_DISCRETIZATION:
        # every step's loss is below one grid interval: the Gaussian bound is the answer
        how = ("exact Gaussian privacy curve of the composition without sampling (an upper "
               "bound: subsampling never raises epsilon)")
        return EpsilonInterval(0.0, g_up, delta, rel, "none needed: the upper end is at "
                               "most one grid interval" if g_up > 0 else "exact: 0", how,
                               certified="both" if attained else "upper", model=model)
    _check_resolvable(parts, rel, con, delta)
    h = _first_grid(parts, rel, con, max_points)
    upper, up_how, per_dir = _upper(parts, delta, rel, con, h)
    if g_up < upper:
        upper, up_how = g_up, "exact Gaussian curve without sampling (tighter here)"
    if not attained:
        return EpsilonInterval(0.0, _round_out(0.0, upper)[1], delta, rel, _UNATTAINED,
                               up_how, certified="upper", model=model)
    direction = max(per_dir, key=per_dir.get)
    try:
        lower = _pld_lower(parts, delta, rel, con, direction, h)
        # refine both ends while the interval is wider than asked and the grid allows it
        while upper - lower > rtol * upper and h > min_discretization:
            h = max(h / 4.0, min_discretization)
            if _steps_points(parts, rel, con, h) > max_points:
                break
            gap = upper - lower
            u2, how2, _ = _upper(parts, delta, rel, con, h)
            if u2 < upper:
                upper, up_how = u2, how2
            lower = max(lower, _pld_lower(parts, delta, rel, con, direction, h))
            if upper - lower > 0.9 * gap:
                break       # the gap is not discretisation (e.g. fixed-size: the pairs differ)
    except _NUMERIC as exc:
        raise _fail(parts, delta, f"{type(exc).__name__}: {exc}") from None
    lower = min(lower, upper)     # both certified: the lower end cannot exceed the upper
    lower, upper = _round_out(lower, upper)
    how = f"{_CONTRACTION}, grid {h:.3g}"
    return EpsilonInterval(lower, upper, delta, rel, how, up_how,
                           lower_slack=upper - lower, model=model)


_UNATTAINED = ("none certified: the events' sensitivities are upper bounds not known to be "
               "attained by a pair of datasets")


def _steps_points(parts: list[_Part], relation: str, contributions: str, h: float) -> float:
    """Grid points of the widest one-step PMF at interval h."""
    return 2.0 * _loss_extent(parts, relation, contributions) / h


def epsilon_interval(event: Event, delta: float, *, relation: str | None = None,
                     rtol: float = 0.01, min_discretization: float = FINEST,
                     attained: bool = True, max_points: int = MAX_POINTS,
                     contributions: str | None = None) -> EpsilonInterval:
    """Certified ``[eps_lower, eps_upper]`` of ``event`` at ``delta``.

    Parameters
    ----------
    event : the mechanism as events (noise multipliers relative to the sensitivity of the
        neighbouring relation; for replace-one, the distance between two records'
        contributions).
    delta : in (0, 1).
    relation : "add-remove" or "replace-one"; default: replace-one when the event samples a
        fixed-size batch, else add-remove.
    rtol : target width of the interval, relative to the upper end (the grid is refined
        while the interval is wider, down to ``min_discretization``).
    min_discretization : finest discretisation interval (the cost is ~1/this).
    attained : False when the events' sensitivities are upper bounds that no pair of
        datasets is known to attain: only the upper end is certified (lower end 0).
    max_points : grid points allowed per one-step PMF; a wider privacy-loss range (small
        noise multipliers) gets a coarser grid (both ends stay certified, only looser).
    contributions : where the records' contributions lie under replace-one with Poisson
        sampling: "any" (default; only their distance is bounded: the worst case) or
        "centred" (within half the sensitivity of the absent record's, as DP-SGD with
        clipping). See the module docstring; :attr:`EpsilonInterval.model` states it.

    Raises
    ------
    ValueError for bad input; TightAccountingError (a ValueError) when the accountant
    cannot resolve the setting.
    """
    rtol = _check_positive("rtol", rtol)
    min_discretization = _check_positive("min_discretization", min_discretization)
    max_points = _check_positive("max_points", max_points)
    return _interval_cached(event, float(delta), relation, contributions, float(rtol),
                            float(min_discretization), bool(attained), float(max_points))


@functools.lru_cache(maxsize=1024)
def _upper_cached(event: Event, delta: float, relation: str | None,
                  contributions: str | None) -> float:
    parts, rel, con = _validate(event, delta, relation, contributions)
    if len(parts) == 1 and parts[0].kind == "gaussian":
        return _exact_gaussian(parts[0].sigma, delta)[1]
    g_up = _gaussian_bound(parts, delta)[1]
    if g_up == 0.0 or _loss_extent(parts, rel, con) < UPPER_DISCRETIZATION:
        return g_up
    _check_resolvable(parts, rel, con, delta)
    up = _upper(parts, delta, rel, con, _first_grid(parts, rel, con, MAX_POINTS))[0]
    return _round_out(0.0, min(up, g_up))[1]


def epsilon_upper(event: Event, delta: float, *, relation: str | None = None,
                  contributions: str | None = None) -> float:
    """The certified upper end of :func:`epsilon_interval` alone (cheaper: no lower end)."""
    return _upper_cached(event, float(delta), relation, contributions)
