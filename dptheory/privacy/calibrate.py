"""Noise calibration for (subsampled) Gaussian training: sigma for a target (eps, delta).

``get_epsilon`` accounts ``steps`` compositions of the (subsampled) Gaussian with RDP
(:mod:`dptheory.privacy.rdp`) and converts to (eps, delta)
(:mod:`dptheory.privacy.conversions`), or (``accountant="tight"``) takes the certified upper
end of the two-sided accountant (:mod:`dptheory.privacy.tight`).
``get_epsilon_interval`` gives both ends. ``get_noise_multiplier`` inverts either by
bisection: eps(sigma) is non-increasing in sigma (for RDP the curve at every order is, and a
minimum of non-increasing functions is non-increasing; for the tight upper end the
dominating pairs are ordered in sigma).

When the optimal RDP order is the largest of the default grid, the grid is extended
(integer orders at ratio 2^(1/4)) until the optimum is interior: small epsilons need large
orders.
"""

from __future__ import annotations

import math
from typing import Callable, Sequence

import numpy as np

from dptheory.privacy.conversions import CONVERSIONS, eps_from_rdp
from dptheory.privacy.events import SAMPLINGS, GaussianEvent, SampledEvent, SelfComposedEvent, rdp_of
from dptheory.privacy.gaussian import _check_count, _check_positive, _check_rate, _check_unit_open
from dptheory.privacy.rdp import DEFAULT_ORDERS
from dptheory.privacy.tight import EpsilonInterval, epsilon_interval, epsilon_upper
from dptheory.vocabulary import ACCOUNTANTS

__all__ = ["resolve_steps", "get_epsilon", "get_epsilon_and_order", "get_epsilon_interval",
           "get_noise_multiplier", "schedule_event", "ACCOUNTANTS"]

#: largest order the automatic extension of the grid reaches (2^20)
MAX_EXTENDED_ORDER = float(1 << 20)
#: Orders for the fixed-size bound: its Theorem-27 terms cost O(alpha^2) high-precision
#: operations, so the grid stops at 128 (integer orders; fractional ones interpolate).
FIXED_SIZE_ORDERS: tuple[float, ...] = tuple(
    [1.0 + x / 10.0 for x in range(1, 100)] + [float(a) for a in range(11, 64)] + [128.0])


def resolve_steps(sample_rate: float, steps: int | None, epochs: float | None) -> int:
    """Exactly one of steps / epochs; epochs -> steps = ceil(epochs / sample_rate)."""
    if (steps is None) == (epochs is None):
        raise ValueError("exactly one of steps or epochs must be given")
    if steps is not None:
        return _check_count("steps", steps)
    epochs = _check_positive("epochs", epochs)
    # round away float noise such as 3/0.1 = 30.000000000000004 before the ceiling
    return max(1, math.ceil(round(epochs / sample_rate, 9)))


def _validate(accountant: str, sampling: str, conversion: str) -> None:
    if accountant not in ACCOUNTANTS:
        raise ValueError(f"accountant must be one of {ACCOUNTANTS}, got {accountant!r}")
    if sampling not in SAMPLINGS:
        raise ValueError(f"sampling must be one of {SAMPLINGS}, got {sampling!r}")
    if conversion not in CONVERSIONS:
        raise ValueError(f"conversion must be one of {CONVERSIONS}, got {conversion!r}")


def schedule_event(noise_multiplier: float, sample_rate: float, steps: int,
                   sampling: str = "poisson") -> SelfComposedEvent:
    """``steps`` compositions of the (``sampling``-sampled) Gaussian as an event."""
    base = GaussianEvent(noise_multiplier)
    step = base if sample_rate == 1.0 else SampledEvent(sample_rate, sampling, base)
    return SelfComposedEvent(step, steps)


def get_epsilon_and_order(*, noise_multiplier: float, target_delta: float,
                          sample_rate: float = 1.0, steps: int | None = None,
                          epochs: float | None = None, accountant: str = "rdp",
                          sampling: str = "poisson", conversion: str = "improved",
                          orders: Sequence[float] | None = None) -> tuple[float, float]:
    """(eps, optimal order) of ``steps`` compositions of the sampled Gaussian at ``target_delta``.

    With the default orders, a grid whose largest order is optimal is extended (integer
    orders at ratio 2^(1/4), up to ``MAX_EXTENDED_ORDER``) so that the minimum over orders
    is interior.
    ``accountant="tight"`` returns the tight accountant's certified upper end and order nan.
    """
    _check_positive("noise_multiplier", noise_multiplier)
    _check_unit_open("target_delta", target_delta)
    _check_rate("sample_rate", sample_rate)
    _validate(accountant, sampling, conversion)
    T = resolve_steps(sample_rate, steps, epochs)
    event = schedule_event(noise_multiplier, sample_rate, T, sampling)
    if accountant == "tight":
        return epsilon_upper(event, target_delta), math.nan
    extend = orders is None
    if orders is None:
        orders = DEFAULT_ORDERS if sampling == "poisson" else FIXED_SIZE_ORDERS
    orders = np.asarray(orders, dtype=np.float64)
    rdp = rdp_of(event, orders)
    eps, order = eps_from_rdp(orders, rdp, target_delta, conversion)
    while extend and order == orders[-1] and orders[-1] < MAX_EXTENDED_ORDER:
        # integer orders at ratio 2^(1/4): the conversion is within ~0.1% of its optimum
        more = np.unique(np.round(orders[-1] * 2.0 ** (np.arange(1, 9) / 4.0)))
        more = more[more <= MAX_EXTENDED_ORDER]
        orders = np.concatenate([orders, more])
        rdp = np.concatenate([rdp, rdp_of(event, more)])
        eps, order = eps_from_rdp(orders, rdp, target_delta, conversion)
        i = int(np.searchsorted(orders, order))
        if 0 < i < orders.size - 1:      # interior now: refine between its neighbours
            fine = np.setdiff1d(np.unique(np.round(np.linspace(orders[i - 1], orders[i + 1],
                                                               33))), orders)
            orders = np.concatenate([orders, fine])
            rdp = np.concatenate([rdp, rdp_of(event, fine)])
            eps, order = eps_from_rdp(orders, rdp, target_delta, conversion)
            break
    return eps, order


def get_epsilon_interval(*, noise_multiplier: float, target_delta: float,
                         sample_rate: float = 1.0, steps: int | None = None,
                         epochs: float | None = None, sampling: str = "poisson",
                         relation: str | None = None, rtol: float = 0.01,
                         contributions: str | None = None) -> EpsilonInterval:
    """Certified ``[eps_lower, eps_upper]`` of ``steps`` compositions of the sampled
    Gaussian at ``target_delta`` (:func:`dptheory.privacy.tight.epsilon_interval`).

    ``relation``: "add-remove" or "replace-one" (default: replace-one for fixed-size
    sampling, add-remove for Poisson); the noise multiplier is relative to that relation's
    sensitivity. ``contributions`` (replace-one with Poisson sampling): "any" (default, the
    worst case over where the contributions lie) or "centred" (within half the sensitivity
    of the absent record's, as DP-SGD with clipping); the interval's ``model`` states it.
    """
    _check_positive("noise_multiplier", noise_multiplier)
    _check_unit_open("target_delta", target_delta)
    _check_rate("sample_rate", sample_rate)
    _validate("tight", sampling, "improved")
    T = resolve_steps(sample_rate, steps, epochs)
    return epsilon_interval(schedule_event(noise_multiplier, sample_rate, T, sampling),
                            target_delta, relation=relation, rtol=rtol,
                            contributions=contributions)


def get_epsilon(**kwargs) -> float:
    """eps of the schedule; same keywords as :func:`get_epsilon_and_order`."""
    return get_epsilon_and_order(**kwargs)[0]


def get_noise_multiplier(*, target_epsilon: float, target_delta: float, sample_rate: float,
                         steps: int | None = None, epochs: float | None = None,
                         accountant: str = "rdp", sampling: str = "poisson",
                         conversion: str = "improved",
                         orders: Sequence[float] | None = None,
                         rtol: float = 1e-5) -> float:
    """Smallest noise multiplier sigma (to ``rtol``) with eps(sigma) <= target_epsilon.

    Bisection on the non-increasing map sigma -> eps(sigma); the returned sigma is the
    upper end of the final bracket, so eps(sigma) <= target always, and sigma is within
    ``rtol`` (default 1e-5, i.e. well inside 1e-4) relative of the smallest such sigma
    on the accountant's order grid.
    """
    target_epsilon = _check_positive("target_epsilon", target_epsilon)
    _check_unit_open("target_delta", target_delta)
    _check_rate("sample_rate", sample_rate)
    _validate(accountant, sampling, conversion)
    T = resolve_steps(sample_rate, steps, epochs)

    def eps(s: float, acc: str = accountant) -> float:
        return get_epsilon(noise_multiplier=s, target_delta=target_delta,
                           sample_rate=sample_rate, steps=T, sampling=sampling,
                           conversion=conversion, orders=orders, accountant=acc)

    if accountant == "rdp":
        return smallest_noise(eps, target_epsilon, rtol=rtol)
    # tight: the RDP calibration is a valid upper end (the tight upper end never exceeds
    # RDP's), so only a short bracket remains; each evaluation is a PLD, so bisect with
    # interpolation in log-log (Illinois), keeping eps(hi) <= target throughout
    hi = smallest_noise(lambda s: eps(s, "rdp"), target_epsilon, rtol=rtol)
    return _refine_down(eps, target_epsilon, hi, rtol)


def _refine_down(eps_of: Callable[[float], float], target: float, hi: float,
                 rtol: float) -> float:
    """Smallest s <= ``hi`` (to ``rtol``) with eps_of(s) <= target, given eps_of(hi) <= target."""
    f_hi = math.log(max(eps_of(hi), 1e-300) / target)          # <= 0
    lo = hi
    f_lo = f_hi
    while f_lo <= 0:
        lo /= 1.25
        f_lo = math.log(max(eps_of(lo), 1e-300) / target)
        if lo < 1e-6:
            return hi
    side = 0
    while hi - lo > rtol * hi:
        x_lo, x_hi = math.log(lo), math.log(hi)
        x = x_hi - f_hi * (x_hi - x_lo) / (f_hi - f_lo) if f_hi != f_lo else 0.5 * (x_lo + x_hi)
        x = min(max(x, x_lo + 0.01 * (x_hi - x_lo)), x_hi - 0.01 * (x_hi - x_lo))
        mid = math.exp(x)
        f_mid = math.log(max(eps_of(mid), 1e-300) / target)
        if f_mid <= 0:
            hi, f_hi = mid, f_mid
            if side == 1:
                f_lo /= 2.0                   # Illinois: the stale end pulls less
            side = 1
        else:
            lo, f_lo = mid, f_mid
            if side == -1:
                f_hi /= 2.0
            side = -1
    return hi


def smallest_noise(eps_of: Callable[[float], float], target_epsilon: float, *,
                   rtol: float = 1e-5, start: float = 1.0, lowest: float = 1e-6,
                   highest: float = 1e7) -> float:
    """Smallest noise level s (to relative ``rtol``) with ``eps_of(s) <= target_epsilon``.

    ``eps_of`` must be non-increasing in s. Doubling/halving brackets the threshold, then
    bisection; the upper end of the final bracket is returned, so the guarantee
    ``eps_of(s) <= target_epsilon`` always holds for the returned s.
    """
    lo = hi = float(start)
    while eps_of(hi) > target_epsilon:
        hi *= 2.0
        if hi > highest:
            raise ValueError(f"target_epsilon {target_epsilon} is not reachable "
                             f"(noise would exceed {highest:g})")
    lo = hi / 2.0
    while eps_of(lo) <= target_epsilon:
        hi = lo
        lo /= 2.0
        if lo < lowest:
            return hi
    while hi - lo > rtol * hi:
        mid = 0.5 * (lo + hi)
        if eps_of(mid) <= target_epsilon:
            hi = mid
        else:
            lo = mid
    return hi
