"""Two-sided epsilon: certified lower and upper bounds on the epsilon of a mechanism.

A privacy claim is false only when the mechanism's *true* epsilon exceeds it, and every
accounting route (RDP conversion, advanced composition, a paper's proof) gives an *upper*
bound. :func:`epsilon_interval` returns both ends, ``[eps_lower, eps_upper]`` at a given
delta, for a mechanism described by the events of :mod:`dptheory.privacy.events`:

* unsubsampled Gaussians: the exact privacy curve (Balle & Wang 2018, Thm 8). Gaussian
  mechanisms compose exactly into one Gaussian with 1/sigma^2 = sum_i 1/sigma_i^2 (Dong,
  Roth, Su 2022, Cor. 3.3), so both ends are the same number;
* Poisson subsampling, add/remove or replace-one: Google's ``dp-accounting`` privacy loss
  distributions (PLD; Doroshenko et al. 2022, "Connect the dots"). Upper end: the
  pessimistic (connect-the-dots) PLD, a dominating pair of the mechanism; lower end: the
  optimistic (privacy-buckets) PLD of the same pair, which is *realised* by a pair of
  neighbouring datasets (the record changes its contribution by the full sensitivity, the
  others contribute nothing), so its epsilon is attained;
* fixed-size sampling without replacement, replace-one (no library covers it):
  - upper end: the smaller of (a) the PLD of the symmetrised trade-off function
    min{f_q, f_q^-1}** of Dong, Roth, Su 2022 (Thm 4.2, sampling without replacement under
    substitution), built from dp-accounting's pessimistic PLD of the pair
    ((1-q) N(0,s^2) + q N(1,s^2), N(0,s^2)): its privacy profile for eps >= 0 is the maximum
    of the two directions' profiles, and a symmetric pair's loss distribution is fixed by
    that profile (mass e^-l p_l at -l, the rest at 0); and (b) the RDP bound of Wang, Balle,
    Kasiviswanathan 2019 (Thms 9, 27) with the improved conversion;
  - lower end: the optimistic PLD of the pair above, which is realised by the datasets
    (x', ..., x', x) and (x', ..., x') when x and x' contribute vectors at distance
    Delta (every batch that contains the differing record then shifts by Delta, the
    others are identical).

Each end is certified: the upper end is an upper bound on the true epsilon of every
mechanism the events describe, the lower end is the epsilon of a pair of neighbouring
datasets the mechanism class contains (a *lower* bound on the worst case). When the events'
sensitivities are themselves upper bounds not known to be attained (``attained=False``),
only the upper end is certified and the lower end is 0.

Discretisation: the pessimistic PLD is accurate to about the discretisation interval; the
optimistic one loses up to that interval in privacy loss *per composed step*, so its slack
grows like T * interval / 2. The lower end's interval is chosen for a slack of ``rtol``
times epsilon, but never finer than ``min_discretization`` (the cost is about
1 / interval); for long compositions the lower end is also computed on sub-compositions
(the first T/2, T/4, ... steps: dropping steps is a post-processing) and the best is kept.
Long compositions (T >= 1e5) still get a certified but loose lower end; the interval
reports the expected slack.

Failures of the library (NaN, negative or infinite epsilon from a finite mechanism,
exceptions) raise :class:`TightAccountingError` (a ``ValueError``) naming the settings;
they are never returned as numbers.
"""

from __future__ import annotations

import functools
import logging
import math
from dataclasses import dataclass
from typing import Any, Iterable

import numpy as np

from dptheory.privacy.conversions import eps_from_rdp_improved
from dptheory.privacy.events import (ComposedEvent, Event, GaussianEvent, SampledEvent,
                                     SelfComposedEvent, rdp_of)
from dptheory.privacy.gaussian import _check_positive, _check_unit_open, gaussian_epsilon
from dptheory.vocabulary import RELATIONS

__all__ = ["RELATIONS", "EpsilonInterval", "TightAccountingError", "epsilon_interval",
           "epsilon_upper", "relation_of"]

#: discretisation of the pessimistic (upper) PLD: its error is about this much epsilon
UPPER_DISCRETIZATION = 1e-4
#: coarsest discretisation ever used for the lower end
COARSEST = 1e-3
#: default finest discretisation of the lower end (about 2-5 s per subsampled component)
FINEST = 1e-5
#: log of the noise mass dp-accounting may discard (it goes to the infinity mass upstairs)
_LOG_TRUNCATION = -50.0
#: privacy losses beyond this overflow exp() in float64
_MAX_LOSS = 700.0
#: most grid points a one-step PLD may have (its build dominates the cost, ~5 us a point):
#: small noise multipliers spread the privacy loss widely and get a coarser grid instead
MAX_POINTS = 300_000
#: orders of the RDP upper bound for fixed-size sampling (its cost grows as alpha^2)
_FIXED_SIZE_ORDERS = tuple([1.0 + x / 10.0 for x in range(1, 100)]
                           + [float(a) for a in range(11, 64)] + [128.0])


class TightAccountingError(ValueError):
    """The tight accountant cannot give a number at these settings (a library failure or a
    setting outside what it resolves); the message names the settings."""


@dataclass(frozen=True)
class EpsilonInterval:
    """Certified ``[lower, upper]`` on the epsilon of a mechanism at ``delta``.

    ``lower_method`` / ``upper_method`` say how each end was obtained; ``certified`` says
    which ends are certified ("both" or "upper"); ``lower_slack`` is the expected
    discretisation slack of the lower end (0 when exact).
    """

    lower: float
    upper: float
    delta: float
    relation: str
    lower_method: str
    upper_method: str
    certified: str = "both"
    lower_slack: float = 0.0

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
                "certified": self.certified, "lower_slack": self.lower_slack}


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
        # sum of 1/sigma^2 over the composed Gaussians: one Gaussian, exactly
        inv = math.fsum(c / (s * s) for s, c in gauss)
        out.insert(0, _Part("gaussian", 1.0, 1.0 / math.sqrt(inv), 1))
    return out


def relation_of(event: Event) -> str:
    """The neighbouring relation an event implies: replace-one when it samples a fixed-size
    batch (fixed-size sampling is defined for datasets of one size), else add/remove."""
    return "replace-one" if any(p.kind == "fixed-size" for p in _parts(event)) \
        else "add-remove"


def _loss_span(parts: Iterable[_Part]) -> float:
    """Width of the privacy-loss range dp-accounting discretises for the widest part: the
    Gaussian of shift 1 truncated where its tail mass is e^_LOG_TRUNCATION (z ~ 10 sd) has
    losses within +-A, A = (1 + 2 z sigma)/(2 sigma^2); with sampling rate q < 1 a direction's
    losses lie within log(1 - q + q e^A) - log(1 - q) of each other (both counted)."""
    z = math.sqrt(-2.0 * _LOG_TRUNCATION)
    widths = []
    for p in parts:
        a = (1.0 + 2.0 * z * p.sigma) / (2.0 * p.sigma ** 2)
        if p.q >= 1.0:
            widths.append(2.0 * a)
        else:
            log1mq = math.log1p(-p.q)
            widths.append(2.0 * (float(np.logaddexp(log1mq, math.log(p.q) + a)) - log1mq))
    return max(widths)


def _grid(parts: list[_Part], finest: float, max_points: float = MAX_POINTS) -> float:
    """The discretisation interval: ``finest`` unless the loss range needs more than
    ``max_points`` points at it (a coarser grid keeps each end certified, only looser)."""
    return max(finest, _loss_span(parts) / max_points)


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


# ------------------------------------------------------------------------ dp-accounting
def _pld_module():
    try:
        from dp_accounting import NeighboringRelation
        from dp_accounting.pld import pld_pmf
        from dp_accounting.pld import privacy_loss_distribution as pld
    except ImportError as exc:  # pragma: no cover - a declared dependency
        raise ImportError("the tight accountant needs 'dp-accounting' (pip install "
                          "dp-accounting)") from exc
    return pld, pld_pmf, NeighboringRelation


def _gaussian_pld(sigma: float, *, q: float, pessimistic: bool, vdi: float,
                  replace_poisson: bool = False):
    """dp-accounting's PLD of the (Poisson-subsampled) Gaussian with shift 1 between the
    records' contributions; ``replace_poisson``: the replace-one pair with contributions at
    +-1/2 (dp-accounting's REPLACE_ONE with sensitivity 1/2)."""
    pld, _, NR = _pld_module()
    kw: dict[str, Any] = {}
    if replace_poisson:
        kw = {"sensitivity": 0.5, "neighboring_relation": NR.REPLACE_ONE}
    # dp-accounting logs a warning when connect-the-dots is asked for an optimistic PLD;
    # the privacy-buckets algorithm is what is meant there, so ask for it directly
    logger = logging.getLogger()
    level = logger.level
    logger.setLevel(logging.ERROR)
    try:
        return pld.from_gaussian_mechanism(
            standard_deviation=sigma, sampling_prob=q, pessimistic_estimate=pessimistic,
            value_discretization_interval=vdi, log_mass_truncation_bound=_LOG_TRUNCATION,
            use_connect_dots=pessimistic, **kw)
    finally:
        logger.setLevel(level)


def _symmetrized(sigma: float, q: float, vdi: float):
    """Pessimistic PLD of the symmetrised trade-off min{f_q, f_q^-1}** (one step of the
    fixed-size subsampled Gaussian under replace-one), or None when the construction's
    preconditions fail at this discretisation (the caller then keeps the RDP bound)."""
    pld, pld_pmf, _ = _pld_module()
    base = _gaussian_pld(sigma, q=q, pessimistic=True, vdi=vdi)
    rem = base._pmf_remove.to_dense_pmf()
    add = base._pmf_add.to_dense_pmf()
    k = np.arange(rem._probs.size) + rem._lower_loss
    losses = k * vdi
    # the symmetric profile for eps >= 0 is max(remove, add); build from the remove one when
    # it dominates (Zhu, Dong, Wang 2022 show it does for the subsampled Gaussian; checked
    # here on a grid, rounding excess charged to the infinity mass)
    grid = np.linspace(0.0, min(max(float(losses[-1]), 0.0), _MAX_LOSS), 513)
    with np.errstate(over="ignore", invalid="ignore"):
        gap = add.get_delta_for_epsilon(grid) - rem.get_delta_for_epsilon(grid)
    excess = float(np.nanmax(gap))
    if excess > 1e-9:
        return None
    pos = k > 0
    kp, pp = k[pos], rem._probs[pos]
    inf_mass = float(rem._infinity_mass) + max(excess, 0.0)
    zero = 1.0 - inf_mass - math.fsum(pp * (1.0 + np.exp(-kp * vdi)))
    if zero < -1e-12:
        return None
    K = int(kp.max()) if kp.size else 0
    # mirrored atoms below -_MAX_LOSS carry mass < e^-_MAX_LOSS and make dp-accounting's
    # exp(-loss) overflow: their mass goes to loss 0 instead (a higher loss: pessimistic)
    Kn = min(K, int(_MAX_LOSS / vdi))
    probs = np.zeros(K + Kn + 1)
    probs[Kn + kp] = pp                                  # positive losses: as the profile
    mirror = pp * np.exp(-kp * vdi)                      # mirrored: e^-l times the mass at l
    keep = kp <= Kn
    probs[Kn - kp[keep]] = mirror[keep]
    probs[Kn] = max(zero, 0.0) + math.fsum(mirror[~keep])
    pmf = pld_pmf.DensePLDPmf(vdi, -Kn, probs, inf_mass, True)
    return pld.PrivacyLossDistribution(pmf)


def _compose(plds: list) -> Any:
    out = plds[0]
    for p in plds[1:]:
        out = out.compose(p)
    return out


def _epsilon_of(pld_obj: Any, delta: float) -> float:
    with np.errstate(over="ignore", invalid="ignore"):
        return float(pld_obj.get_epsilon_for_delta(delta))


def _fail(parts: list[_Part], delta: float, why: str) -> TightAccountingError:
    return TightAccountingError(
        f"the tight accountant (dp-accounting PLD) failed for {_describe(parts)} at "
        f"delta={delta:g}: {why}; use the RDP route instead")


def _checked(value: float, parts: list[_Part], delta: float, what: str) -> float:
    if math.isnan(value) or value < 0:
        raise _fail(parts, delta, f"{what} epsilon is {value!r}")
    if math.isinf(value):
        raise _fail(parts, delta, f"{what} epsilon is infinite (delta below the mass the "
                                  f"library truncates, e^{_LOG_TRUNCATION:g})")
    return value


# ------------------------------------------------------------------------ the two ends
def _pld_upper(parts: list[_Part], delta: float, relation: str, vdi: float) -> tuple[float, str]:
    plds, notes = [], set()
    for p in parts:
        if p.kind == "gaussian":
            plds.append(_gaussian_pld(p.sigma, q=1.0, pessimistic=True, vdi=vdi))
        elif p.kind == "poisson":
            plds.append(_gaussian_pld(p.sigma, q=p.q, pessimistic=True, vdi=vdi,
                                      replace_poisson=relation == "replace-one")
                        .self_compose(p.count))
            notes.add("Poisson: dp-accounting pessimistic PLD")
        else:
            sym = _symmetrized(p.sigma, p.q, vdi)
            if sym is None:
                return math.inf, "symmetrised PLD not constructible"
            plds.append(sym.self_compose(p.count))
            notes.add("fixed-size: PLD of the symmetrised trade-off min{f_q, f_q^-1}** "
                      "(Dong-Roth-Su 2022 Thm 4.2)")
    eps = _epsilon_of(_compose(plds), delta)
    return eps, "; ".join(sorted(notes)) or "dp-accounting pessimistic PLD"


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


def _lower_groups(parts: list[_Part], relation: str) -> list[list[_Part]]:
    """Parts whose worst cases one pair of datasets realises at once (see the module
    docstring); a composition's epsilon is at least that of any of its sub-compositions."""
    gauss = [p for p in parts if p.kind == "gaussian"]
    poisson = [p for p in parts if p.kind == "poisson"]
    fixed = [p for p in parts if p.kind == "fixed-size"]
    groups = [g + gauss for g in (poisson, fixed) if g]
    return groups or [gauss]


#: fractions of the steps whose sub-composition also gives a lower end (dropping steps is a
#: post-processing, and the optimistic slack shrinks with the steps kept): the best is kept
_SUB_FRACTIONS = (1.0, 0.5, 0.25, 0.125, 0.0625)


def _pld_lower(group: list[_Part], delta: float, relation: str,
               vdi: float) -> tuple[float, float]:
    """(lower end, its discretisation slack): the best over sub-compositions of the group."""
    bases = []
    for p in group:
        if p.kind == "gaussian":
            bases.append((_gaussian_pld(p.sigma, q=1.0, pessimistic=False, vdi=vdi), 1))
        else:
            replace = p.kind == "poisson" and relation == "replace-one"
            bases.append((_gaussian_pld(p.sigma, q=p.q, pessimistic=False, vdi=vdi,
                                        replace_poisson=replace), p.count))
    best, slack, seen = -math.inf, 0.0, set()
    # sub-compositions: every part scaled by f, and each part alone (dropping a mechanism is
    # a post-processing too, and spares its share of the slack)
    choices = [tuple(max(1, int(round(c * f))) for _, c in bases) for f in _SUB_FRACTIONS]
    if len(bases) > 1:
        choices += [tuple(c if j == i else 0 for j, (_, c) in enumerate(bases))
                    for i in range(len(bases))]
    for counts in choices:
        if counts in seen:
            continue
        seen.add(counts)
        plds = [b if c == 1 else b.self_compose(c)
                for (b, _), c in zip(bases, counts) if c > 0]
        eps = _epsilon_of(_compose(plds), delta)
        if eps > best:
            best, slack = eps, sum(counts) * vdi / 2.0
    return best, slack


def _validate(event: Event, delta: float, relation: str | None) -> tuple[list[_Part], str]:
    delta = _check_unit_open("delta", delta)
    parts = _parts(event)
    rel = relation_of(event) if relation is None else relation
    if rel not in RELATIONS:
        raise ValueError(f"relation must be one of {RELATIONS}, got {relation!r}")
    if rel == "add-remove" and any(p.kind == "fixed-size" for p in parts):
        raise ValueError("fixed-size sampling needs relation='replace-one' (a fixed-size "
                         "batch is defined for datasets of one size)")
    return parts, rel


def _upper(parts: list[_Part], delta: float, relation: str, vdi: float) -> tuple[float, str]:
    if len(parts) == 1 and parts[0].kind == "gaussian":
        return gaussian_epsilon(delta, sigma=parts[0].sigma), _EXACT
    try:
        eps, how = _pld_upper(parts, delta, relation, vdi)
    except (ArithmeticError, MemoryError, ValueError, FloatingPointError) as exc:
        raise _fail(parts, delta, f"{type(exc).__name__}: {exc}") from None
    if any(p.kind == "fixed-size" for p in parts):
        try:
            rdp = _rdp_upper(parts, delta)
        except (ArithmeticError, ValueError):
            rdp = math.inf
        if rdp < eps:
            eps, how = rdp, ("RDP of the fixed-size subsampled Gaussian (Wang-Balle-"
                             "Kasiviswanathan 2019), improved conversion (tighter here than "
                             + how + ")")
    return _checked(eps, parts, delta, "upper"), how


_EXACT = ("exact Gaussian privacy curve (Balle-Wang 2018); composed Gaussians are one "
          "Gaussian (Dong-Roth-Su 2022)")


@functools.lru_cache(maxsize=512)
def _interval_cached(event: Event, delta: float, relation: str | None, rtol: float,
                     min_discretization: float, attained: bool,
                     max_points: float) -> EpsilonInterval:
    parts, rel = _validate(event, delta, relation)
    upper, up_how = _upper(parts, delta, rel,
                           _grid(parts, UPPER_DISCRETIZATION, max_points))
    if not attained:
        return EpsilonInterval(0.0, upper, delta, rel,
                               "none certified: the events' sensitivities are upper bounds "
                               "not known to be attained by a pair of datasets", up_how,
                               certified="upper")
    if up_how == _EXACT:
        return EpsilonInterval(upper, upper, delta, rel, _EXACT, _EXACT)
    lowers, slack = [], 0.0
    for group in _lower_groups(parts, rel):
        T = _steps(group)
        vdi = max(_grid(group, min_discretization, max_points),
                  min(COARSEST, 2.0 * rtol * max(upper, 1e-3) / T))
        try:
            lo, sl = _pld_lower(group, delta, rel, vdi)
        except (ArithmeticError, MemoryError, ValueError, FloatingPointError) as exc:
            raise _fail(parts, delta, f"{type(exc).__name__}: {exc}") from None
        if math.isnan(lo) or lo < 0:
            raise _fail(parts, delta, f"lower epsilon is {lo!r}")
        lowers.append(lo)
        slack = max(slack, sl)
    lower = min(max(lowers), upper)     # both certified: the lower end cannot exceed the upper
    how = ("dp-accounting optimistic PLD of a pair of neighbouring datasets that realises the "
           "worst case (expected discretisation slack %.3g)" % slack)
    return EpsilonInterval(lower, upper, delta, rel, how, up_how, lower_slack=slack)


def epsilon_interval(event: Event, delta: float, *, relation: str | None = None,
                     rtol: float = 0.01, min_discretization: float = FINEST,
                     attained: bool = True, max_points: int = MAX_POINTS) -> EpsilonInterval:
    """Certified ``[eps_lower, eps_upper]`` of ``event`` at ``delta``.

    Parameters
    ----------
    event : the mechanism as events (noise multipliers relative to the sensitivity of the
        neighbouring relation; for replace-one, the distance between two records'
        contributions).
    delta : in (0, 1).
    relation : "add-remove" or "replace-one"; default: replace-one when the event samples a
        fixed-size batch, else add-remove.
    rtol : target slack of the lower end, relative to the upper end.
    min_discretization : finest discretisation of the lower end (its cost is ~1/this).
    attained : False when the events' sensitivities are upper bounds that no pair of
        datasets is known to attain: only the upper end is certified (lower end 0).
    max_points : grid points allowed per one-step PLD; a wider privacy-loss range (small
        noise multipliers) gets a coarser grid (both ends stay certified, only looser).

    Raises
    ------
    ValueError for bad input; TightAccountingError (a ValueError) when the library fails.
    """
    rtol = _check_positive("rtol", rtol)
    min_discretization = _check_positive("min_discretization", min_discretization)
    max_points = _check_positive("max_points", max_points)
    return _interval_cached(event, float(delta), relation, float(rtol),
                            float(min_discretization), bool(attained), float(max_points))


@functools.lru_cache(maxsize=1024)
def _upper_cached(event: Event, delta: float, relation: str | None) -> float:
    parts, rel = _validate(event, delta, relation)
    return _upper(parts, delta, rel, _grid(parts, UPPER_DISCRETIZATION))[0]


def epsilon_upper(event: Event, delta: float, *, relation: str | None = None) -> float:
    """The certified upper end of :func:`epsilon_interval` alone (cheaper: no lower end)."""
    return _upper_cached(event, float(delta), relation)
