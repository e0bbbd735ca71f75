"""Size and step budgets: refuse a request before it allocates or runs, not after.

The command line estimates what a request needs and refuses it above a limit, with the
estimate in the message and the option that raises the limit:

* memory of a simulation from n, d and the number of replicates
  (:func:`simulation_memory`), and of an RDP accountant call from its largest order
  (:func:`accountant_memory`), checked with :func:`check_memory`;
* the number of steps T the paper's settings give, checked by the simulators themselves
  through :func:`check_steps` as soon as they know T (before the step loop), against the
  limit set by :func:`step_limit` (none outside that context, so the API and ``verify``
  are not limited).

The estimates count the float64 arrays the code holds at its peak, times a small factor
for temporaries; they are meant to catch requests that are off by orders of magnitude,
not to predict the resident size to the byte.
"""

from __future__ import annotations

import math
import os
from contextlib import contextmanager
from contextvars import ContextVar
from typing import Iterable, Iterator

from dptheory.errors import ResourceLimitError

__all__ = ["DEFAULT_MAX_MEMORY_GB", "DEFAULT_MAX_STEPS", "accountant_memory", "check_memory",
           "check_steps", "format_bytes", "max_memory_bytes", "simulation_memory",
           "step_limit"]

DEFAULT_MAX_STEPS = 10 ** 6
DEFAULT_MAX_MEMORY_GB = 4.0
MEMORY_ENV = "DPTHEORY_MAX_MEMORY_GB"

_F64 = 8
_TEMPORARIES = 3          # arrays of the peak size alive at once (value, temporaries, result)

_max_steps: ContextVar[int | None] = ContextVar("dptheory_max_steps", default=None)


def format_bytes(n: float) -> str:
    """A byte count in the largest binary unit it reaches (B, KiB, MiB, GiB, TiB), three
    significant digits; used in the messages of :func:`check_memory`."""
    for unit, size in (("TiB", 2 ** 40), ("GiB", 2 ** 30), ("MiB", 2 ** 20), ("KiB", 2 ** 10)):
        if n >= size:
            return f"{n / size:.3g} {unit}"
    return f"{int(n)} B"


def max_memory_bytes(limit_gb: float | None = None) -> int:
    """The memory limit in bytes: ``limit_gb`` if given, else ``$DPTHEORY_MAX_MEMORY_GB``,
    else :data:`DEFAULT_MAX_MEMORY_GB`."""
    source = "--max-memory"
    if limit_gb is None:
        env = os.environ.get(MEMORY_ENV)
        limit_gb, source = (DEFAULT_MAX_MEMORY_GB, "default") if env is None else (env, MEMORY_ENV)
        try:
            limit_gb = float(limit_gb)
        except ValueError:
            raise ValueError(f"{MEMORY_ENV} must be a number of GiB, got {env!r}") from None
    if not (math.isfinite(limit_gb) and limit_gb > 0):
        raise ValueError(f"{source} must be a positive finite number of GiB, got {limit_gb}")
    return int(limit_gb * 2 ** 30)


def simulation_memory(n: int, d: int, reps: int, *, second_order: bool = False,
                      per_sample_hessians: bool = False) -> int:
    """Peak bytes of a simulation: the dataset (n d), per-sample gradients of every
    replicate at once (reps n d, the full-gradient steps and the final metrics), and for
    second-order methods the Hessians (reps d^2, or reps n d^2 when the family forms
    per-sample Hessians)."""
    for name, v in (("n", n), ("d", d), ("reps", reps)):
        if v < 1:
            raise ValueError(f"{name} must be >= 1, got {v}")
    n, d, reps = int(n), int(d), int(reps)
    floats = n * d + _TEMPORARIES * reps * n * d
    if second_order:
        floats += _TEMPORARIES * reps * d * d * (n if per_sample_hessians else 1)
    return floats * _F64


# Bytes per term of the RDP series at one order, measured as peak RSS growth at order 1e6
# (about 64 B a term for the Poisson-subsampled series, which keeps a few float64 arrays of
# length alpha; about 90 B for the fixed-size bound, which works term by term in Python
# floats), rounded up.
_ACCOUNTANT_BYTES_PER_TERM = {"poisson": 80, "fixed-size": 120}


def accountant_memory(orders: Iterable[float], sampling: str = "poisson") -> int:
    """Peak bytes of the RDP accountant at these orders: its series at order alpha has
    about alpha terms."""
    orders = [float(a) for a in orders]
    if not orders:
        return 0
    per_term = _ACCOUNTANT_BYTES_PER_TERM.get(sampling, max(_ACCOUNTANT_BYTES_PER_TERM.values()))
    top = max(orders)
    if not math.isfinite(top):
        raise ValueError(f"orders must be finite, got {top}")
    return int(math.ceil(top) + 1) * per_term


def check_memory(estimate: int, limit: int, what: str, advice: str) -> None:
    """Raise :class:`ResourceLimitError` when ``estimate`` bytes exceed ``limit``."""
    if estimate > limit:
        raise ResourceLimitError(
            f"{what} needs about {format_bytes(estimate)} of memory, above the limit of "
            f"{format_bytes(limit)}; {advice}, or raise the limit with --max-memory GB "
            f"(or ${MEMORY_ENV})")


@contextmanager
def step_limit(max_steps: int | None) -> Iterator[None]:
    """Within the block, :func:`check_steps` refuses more than ``max_steps`` steps
    (``None``: no limit)."""
    if max_steps is not None and (isinstance(max_steps, bool) or int(max_steps) != max_steps
                                  or max_steps < 1):
        raise ValueError(f"--max-steps must be an integer >= 1, got {max_steps!r}")
    token = _max_steps.set(None if max_steps is None else int(max_steps))
    try:
        yield
    finally:
        _max_steps.reset(token)


def check_steps(steps: int, what: str = "T") -> int:
    """Called by a simulator once it knows its step count, before stepping: raises
    :class:`ResourceLimitError` naming T when a :func:`step_limit` is active and T exceeds
    it. Returns ``steps``."""
    limit = _max_steps.get()
    if limit is not None and steps > limit:
        raise ResourceLimitError(
            f"the paper's settings give {what} = {steps} steps, above --max-steps {limit}; "
            f"raise --max-steps to at least {steps} to run it, or choose a smaller --n or --eps")
    return steps
