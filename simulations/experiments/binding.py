"""Where a bound binds (issue 23, item 4): the value of a sweep variable from which a
theorem's explicit bound, at an instance's certified constants and the theorem's own
settings, drops below the trivial range of the measured quantity (e.g. ||grad F|| <= G).

A vacuous verdict then says where it would decide ("binds from n ≈ ..."), through the
``binds_at`` key a cell returns (read by :func:`dptheory.verify.engine._crossing`).
"""

from __future__ import annotations

import math
from typing import Any, Callable

__all__ = ["binding_point", "binds_at"]


def binding_point(bound: Callable[[float], float], trivial: float, lo: float, hi: float, *,
                  integer: bool = True, rtol: float = 1e-6) -> float | None:
    """The smallest x in [lo, hi] with ``bound(x) < trivial``, for a bound that is
    eventually below it (bisection on log x; the bound need only cross once on [lo, hi]).

    Returns None when ``bound(hi) >= trivial`` (no crossing up to ``hi``) and ``lo`` when the
    bound is already below the trivial range there. ``integer``: round up to an integer.
    """
    if not (0 < lo < hi) or not math.isfinite(hi):
        raise ValueError(f"need 0 < lo < hi < inf, got lo={lo}, hi={hi}")
    if not (math.isfinite(trivial) and trivial > 0):
        raise ValueError(f"trivial must be a finite number > 0, got {trivial}")
    if bound(lo) < trivial:
        return lo
    if bound(hi) >= trivial:
        return None
    a, b = math.log(lo), math.log(hi)
    while b - a > rtol:
        m = (a + b) / 2
        if bound(math.exp(m)) < trivial:
            b = m
        else:
            a = m
    x = math.exp(b)
    if integer:
        x = float(math.ceil(x - 1e-9))
        while bound(x) >= trivial:         # rounding: step up to the first integer that binds
            x += 1
    return x


def binds_at(at: float | None, how: str, cost: str = "") -> dict[str, Any]:
    """The ``binds_at`` record a cell returns: the value, how it was solved, and (when the
    verify run does not go there) the estimated cost of running it."""
    out: dict[str, Any] = {"at": at, "how": how}
    if cost:
        out["cost"] = cost
    return out
