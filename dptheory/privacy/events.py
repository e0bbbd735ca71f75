"""Small immutable descriptions of mechanisms and schedules, and their RDP.

The shapes mirror Google's ``dp_accounting`` DpEvents so that a schedule can be exported
with :func:`to_dp_accounting` and accounted by an independent implementation.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Sequence, Union

import numpy as np

from dptheory.privacy.gaussian import _check_count, _check_positive, _check_rate
from dptheory.privacy.rdp import rdp_fixed_size_gaussian, rdp_gaussian, rdp_poisson_gaussian

__all__ = ["GaussianEvent", "SampledEvent", "ComposedEvent", "SelfComposedEvent", "Event",
           "SAMPLINGS", "rdp_of", "to_dp_accounting"]

SAMPLINGS = ("poisson", "fixed-size")


@dataclass(frozen=True)
class GaussianEvent:
    """Gaussian mechanism with noise std = noise_multiplier x l2-sensitivity."""
    noise_multiplier: float

    def __post_init__(self) -> None:
        _check_positive("noise_multiplier", self.noise_multiplier)


@dataclass(frozen=True)
class SampledEvent:
    """``event`` run on a subsample: Poisson with rate ``rate`` (add/remove neighbours), or a
    fixed-size sample without replacement of ``rate * dataset_size`` records (substitution).
    ``dataset_size`` is only needed to export a fixed-size event to dp_accounting."""
    rate: float
    sampling: str
    event: "Event"
    dataset_size: int | None = None

    def __post_init__(self) -> None:
        _check_rate("rate", self.rate)
        if self.sampling not in SAMPLINGS:
            raise ValueError(f"sampling must be one of {SAMPLINGS}, got {self.sampling!r}")
        if not isinstance(self.event, GaussianEvent):
            raise ValueError("event of a SampledEvent must be a GaussianEvent "
                             f"(subsampled RDP is only implemented for it), got {self.event!r}")
        if self.dataset_size is not None:
            _check_count("dataset_size", self.dataset_size)


@dataclass(frozen=True)
class ComposedEvent:
    """Adaptive composition of several events."""
    events: tuple["Event", ...]

    def __post_init__(self) -> None:
        object.__setattr__(self, "events", tuple(self.events))


@dataclass(frozen=True)
class SelfComposedEvent:
    """``count`` adaptive repetitions of ``event``."""
    event: "Event"
    count: int

    def __post_init__(self) -> None:
        _check_count("count", self.count)


Event = Union[GaussianEvent, SampledEvent, ComposedEvent, SelfComposedEvent]


def rdp_of(event: Event, orders: Sequence[float]) -> np.ndarray:
    """RDP epsilons of ``event`` at ``orders`` (composition adds RDP: Mironov 2017 Prop. 1)."""
    orders = np.atleast_1d(np.asarray(orders, dtype=np.float64))
    if isinstance(event, GaussianEvent):
        return np.atleast_1d(rdp_gaussian(orders, sigma=event.noise_multiplier))
    if isinstance(event, SampledEvent):
        f = rdp_poisson_gaussian if event.sampling == "poisson" else rdp_fixed_size_gaussian
        kw = {"q": event.rate, "sigma": event.event.noise_multiplier}
        try:
            return np.atleast_1d(f(orders, **kw))
        except ArithmeticError:
            # a series that does not converge at some order (huge sigma, fractional order):
            # drop that order (RDP +inf there); the minimum over the others stays an upper bound
            return np.array([_rdp_or_inf(f, a, kw) for a in orders])
    if isinstance(event, ComposedEvent):
        total = np.zeros_like(orders)
        for e in event.events:
            total = total + rdp_of(e, orders)
        return total
    if isinstance(event, SelfComposedEvent):
        return event.count * rdp_of(event.event, orders)
    raise ValueError(f"event must be one of GaussianEvent, SampledEvent, ComposedEvent, "
                     f"SelfComposedEvent, got {type(event).__name__}")


def _rdp_or_inf(f, order: float, kw: dict) -> float:
    try:
        return float(f(float(order), **kw))
    except ArithmeticError:
        return float("inf")


def to_dp_accounting(event: Event):
    """Export to ``dp_accounting.dp_event`` objects (Google's dp-accounting package).

    Poisson events map to ``PoissonSampledDpEvent``; fixed-size events to
    ``SampledWithoutReplacementDpEvent`` (needs ``dataset_size``; account it with
    ``NeighborRel.REPLACE_ONE``).
    """
    try:
        from dp_accounting import dp_event as de
    except ImportError as exc:  # pragma: no cover - depends on the environment
        raise ImportError("to_dp_accounting needs the optional package 'dp-accounting' "
                          "(pip install dp-accounting)") from exc
    if isinstance(event, GaussianEvent):
        return de.GaussianDpEvent(event.noise_multiplier)
    if isinstance(event, SampledEvent):
        inner = to_dp_accounting(event.event)
        if event.sampling == "poisson":
            return de.PoissonSampledDpEvent(event.rate, inner)
        if event.dataset_size is None:
            raise ValueError("dataset_size must be set to export a fixed-size SampledEvent")
        m = event.rate * event.dataset_size
        if not float(m).is_integer():
            raise ValueError(f"rate * dataset_size must be an integer, got {m}")
        return de.SampledWithoutReplacementDpEvent(event.dataset_size, int(m), inner)
    if isinstance(event, ComposedEvent):
        return de.ComposedDpEvent([to_dp_accounting(e) for e in event.events])
    if isinstance(event, SelfComposedEvent):
        return de.SelfComposedDpEvent(to_dp_accounting(event.event), event.count)
    raise ValueError(f"cannot export {type(event).__name__}")
