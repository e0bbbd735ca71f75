"""Public Hypothesis strategies, so a pytest file can property-test a claim in a few lines.

* :func:`datasets` — data sets ``(X, y)`` with features in a ball;
* :func:`neighbouring_datasets` — pairs ``((X, y), (X', y'))`` that differ under a
  neighbouring relation (``"replace-one"`` or ``"add-remove"``);
* :func:`objectives` — ``(objective, data)`` from the registered objective families, whose
  constants (Lipschitz, smoothness, ...) are certified: ``objective.assumptions(data)``;
* :func:`privacy_parameters` and :func:`noise_parameters` — valid (eps, delta) pairs and
  Gaussian-mechanism parameters (noise multiplier, sampling rate, steps).

Examples
--------
A property test of "the mean of records in the unit ball moves by at most 2/n when one
record is replaced":

>>> import numpy as np
>>> from hypothesis import given, settings
>>> from dptheory.testing import neighbouring_datasets
>>> @settings(max_examples=25, database=None)
... @given(neighbouring_datasets(n=10, d=3))
... def test_mean(pair):
...     (X, y), (Xp, yp) = pair
...     assert np.linalg.norm(X.mean(0) - Xp.mean(0)) <= 2 / 10 + 1e-12
>>> test_mean()

The strategies also serve :func:`hypothesis.find` (the examples below show the simplest
value each draws).
"""

from __future__ import annotations

from typing import Any, Sequence

import numpy as np
from hypothesis import strategies as st

from dptheory.vocabulary import RELATIONS   # the neighbouring relations the strategies build

__all__ = ["datasets", "neighbouring_datasets", "records", "objectives", "privacy_parameters",
           "noise_parameters", "RELATIONS"]

_unit = st.floats(-1.0, 1.0, allow_nan=False, allow_infinity=False)


def _size(value: int | st.SearchStrategy, name: str, low: int) -> st.SearchStrategy:
    if isinstance(value, st.SearchStrategy):
        return value
    if isinstance(value, bool) or not isinstance(value, (int, np.integer)) or value < low:
        raise ValueError(f"{name} must be an integer >= {low} or a strategy, got {value!r}")
    return st.just(int(value))


def records(d: int, x_radius: float = 1.0, labels: Sequence[float] | None = (-1.0, 1.0),
            y_range: tuple[float, float] | None = None) -> st.SearchStrategy:
    """One record ``(x, y)``: ``x`` in the ball ``||x|| <= x_radius`` of R^d (its boundary
    included), ``y`` from ``labels`` or the interval ``y_range``.

    Examples
    --------
    >>> from hypothesis import find
    >>> x, y = find(records(3), lambda _: True)
    >>> bool(np.linalg.norm(x) <= 1.0 + 1e-12) and y in (-1.0, 1.0)
    True
    """
    if not (x_radius > 0):
        raise ValueError(f"x_radius must be > 0, got {x_radius!r}")

    def ball(t: tuple[list[float], float]) -> np.ndarray:
        v = np.asarray(t[0], dtype=float)
        nv = float(np.linalg.norm(v))
        return np.zeros(d) if nv == 0 else x_radius * t[1] * v / nv

    x = st.tuples(st.lists(_unit, min_size=d, max_size=d),
                  st.floats(0.0, 1.0, allow_nan=False)).map(ball)
    if labels is not None:
        y = st.sampled_from([float(v) for v in labels])
    else:
        lo, hi = y_range if y_range is not None else (0.0, 0.0)
        y = st.floats(lo, hi, allow_nan=False, allow_infinity=False)
    return st.tuples(x, y)


@st.composite
def datasets(draw: Any, n: int | st.SearchStrategy = st.integers(2, 20), d: int = 3,
             x_radius: float = 1.0, labels: Sequence[float] | None = (-1.0, 1.0),
             y_range: tuple[float, float] | None = None) -> tuple[np.ndarray, np.ndarray]:
    """A data set ``(X, y)``: ``n`` records of :func:`records` (``n`` a number or a strategy).

    Examples
    --------
    >>> from hypothesis import find
    >>> X, y = find(datasets(n=5, d=2), lambda _: True)
    >>> X.shape, y.shape
    ((5, 2), (5,))
    """
    size = draw(_size(n, "n", 1))
    rows = draw(st.lists(records(d, x_radius, labels, y_range), min_size=size, max_size=size))
    return np.array([r[0] for r in rows]).reshape(size, d), np.array([r[1] for r in rows])


@st.composite
def neighbouring_datasets(draw: Any, n: int | st.SearchStrategy = st.integers(2, 20), d: int = 3,
                          relation: str = "replace-one", x_radius: float = 1.0,
                          labels: Sequence[float] | None = (-1.0, 1.0),
                          y_range: tuple[float, float] | None = None) -> tuple[tuple, tuple]:
    """Two data sets that are neighbours under ``relation``.

    ``"replace-one"``: the same size, one record replaced by another record of the same
    domain. ``"add-remove"``: one record added to, or removed from, the first.

    Returns
    -------
    strategy of ``((X, y), (X', y'))``

    Examples
    --------
    >>> from hypothesis import find
    >>> (X, y), (Xp, yp) = find(neighbouring_datasets(n=6, d=2, relation="add-remove"),
    ...                         lambda _: True)
    >>> abs(len(X) - len(Xp))
    1
    """
    if relation not in RELATIONS:
        raise ValueError(f"relation must be one of {RELATIONS}, got {relation!r}")
    from dptheory.sensitivity import neighbour
    lo = 2 if relation == "add-remove" else 1
    X, y = draw(datasets(_size(n, "n", lo), d, x_radius, labels, y_range))
    x, label = draw(records(d, x_radius, labels, y_range))
    top = len(X) if relation == "add-remove" else len(X) - 1
    i = draw(st.integers(0, top))
    return (X, y), neighbour(X, y, i, x, label, relation)


@st.composite
def objectives(draw: Any, families: Sequence[str] | None = None,
               n: int | st.SearchStrategy = st.integers(8, 64),
               requires: Sequence[type] = ()) -> tuple[Any, Any]:
    """``(objective, data)`` from the registered objective families (entry point
    ``dptheory.objectives``), at a drawn size and data seed. The objective's constants are
    certified: ``objective.assumptions(data)`` lists them.

    Parameters
    ----------
    families : family names to draw from (default: every registered family).
    n : number of records (a number or a strategy).
    requires : assumption types the objective must declare (e.g. ``Lipschitz``).

    Examples
    --------
    >>> from dptheory.symbolic import Smooth
    >>> from hypothesis import find
    >>> obj, data = find(objectives(families=["logistic-ridge"], n=16, requires=[Smooth]),
    ...                  lambda _: True)
    >>> obj.name, data.n
    ('logistic-ridge', 16)
    """
    from dptheory import registry
    names = sorted(n_ for m in registry.objective_registries() for n_ in getattr(m, "FAMILIES", {}))
    if families is not None:
        unknown = sorted(set(families) - set(names))
        if unknown:
            raise ValueError(f"unknown objective families {unknown}; choose from {names}")
        names = list(families)
    name = draw(st.sampled_from(names))
    obj = registry.objective(name)
    data = obj.make_data(draw(_size(n, "n", 2)), draw(st.integers(0, 2**31 - 1)))
    have = {type(a) for a in obj.assumptions(data)}
    missing = [t.__name__ for t in requires if t not in have]
    if missing:
        from hypothesis import assume
        assume(False)            # this family does not declare what the caller needs
    return obj, data


def privacy_parameters(eps: tuple[float, float] = (0.05, 10.0),
                       delta: tuple[float, float] = (1e-10, 1e-2)) -> st.SearchStrategy:
    """``{"eps": ..., "delta": ...}`` with eps in ``eps`` and delta in ``delta`` (log-uniform).

    Examples
    --------
    >>> from hypothesis import find
    >>> p = find(privacy_parameters(), lambda _: True)
    >>> 0.05 <= p["eps"] <= 10 and 1e-10 <= p["delta"] <= 1e-2
    True
    """
    return st.fixed_dictionaries({"eps": _log_uniform(*eps, "eps"),
                                  "delta": _log_uniform(*delta, "delta")})


def noise_parameters(sigma: tuple[float, float] = (0.5, 20.0),
                     sample_rate: tuple[float, float] = (1e-4, 1.0),
                     steps: tuple[int, int] = (1, 10_000)) -> st.SearchStrategy:
    """Gaussian-mechanism parameters: ``{"sigma": noise multiplier, "q": sampling rate,
    "steps": T}``, sigma and q log-uniform in their ranges.

    Examples
    --------
    >>> from hypothesis import find
    >>> p = find(noise_parameters(), lambda _: True)
    >>> 0.5 <= p["sigma"] <= 20 and 0 < p["q"] <= 1 and 1 <= p["steps"] <= 10_000
    True
    """
    return st.fixed_dictionaries({"sigma": _log_uniform(*sigma, "sigma"),
                                  "q": _log_uniform(*sample_rate, "sample_rate"),
                                  "steps": st.integers(int(steps[0]), int(steps[1]))})


def _log_uniform(lo: float, hi: float, name: str) -> st.SearchStrategy:
    if not (0 < lo <= hi):
        raise ValueError(f"{name} range must satisfy 0 < lo <= hi, got ({lo}, {hi})")
    return st.floats(np.log(lo), np.log(hi)).map(lambda t: float(min(hi, max(lo, np.exp(t)))))
