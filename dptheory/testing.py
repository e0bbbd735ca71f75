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

Fast failures. The record strategies draw a whole data set as one integer array (numbers
k/GRID, see :data:`GRID`), so an example costs few choices and a failing test shrinks in a
few hundred calls: a planted wrong sensitivity claim on :func:`neighbouring_datasets`
reports its shrunk counterexample in about a second of CPU (``benchmarks/bench_shrink.py``).
With Hypothesis's default phases the last step after shrinking, ``Phase.explain``, may
replay the failing example up to about 500 times per argument; when the property itself is
expensive (a simulator run, an accountant call), drop it, and keep the example database
off in CI runs that must be reproducible::

    from hypothesis import Phase, settings
    @settings(phases=[Phase.explicit, Phase.reuse, Phase.generate, Phase.shrink],
              database=None, deadline=None, max_examples=50)

``phases=[Phase.explicit, Phase.generate]`` reports the first failure unshrunk (fastest);
``deadline=None`` avoids flaky deadline errors for properties whose cost varies with the
drawn size; ``max_examples`` sets the search effort (100 by default).
"""

from __future__ import annotations

import functools
from typing import Any, Sequence

import numpy as np
from hypothesis import strategies as st

from dptheory.vocabulary import RELATIONS   # the neighbouring relations the strategies build

__all__ = ["datasets", "neighbouring_datasets", "records", "objectives", "privacy_parameters",
           "noise_parameters", "RELATIONS", "GRID"]

#: default resolution of the record strategies: coordinates, radius fractions and labels in
#: ``y_range`` are multiples of 1/GRID of their range (``grid=None``: any float)
GRID = 1024


def _size(value: int | st.SearchStrategy, name: str, low: int) -> st.SearchStrategy:
    if isinstance(value, st.SearchStrategy):
        return value
    if isinstance(value, bool) or not isinstance(value, (int, np.integer)) or value < low:
        raise ValueError(f"{name} must be an integer >= {low} or a strategy, got {value!r}")
    return st.just(int(value))


def _grid(grid: int | None) -> int | None:
    if grid is None:
        return None
    if isinstance(grid, bool) or not isinstance(grid, (int, np.integer)) or grid < 1:
        raise ValueError(f"grid must be an integer >= 1 or None, got {grid!r}")
    return int(grid)


def _table(size: int, d: int, x_radius: float, labels: tuple[float, ...] | None,
           y_range: tuple[float, float], grid: int | None) -> st.SearchStrategy:
    """``size`` records ``(X, y)`` from one (size, d + 2) array U of numbers in [-1, 1]
    (k/grid for integers |k| <= grid, or any float when grid is None). Row u gives
    x = x_radius |u_d| u_{<d}/||u_{<d}|| (0 when u_{<d} = 0) and y = labels[floor(|u_{d+1}| L)]
    (capped at the last of the L labels) or lo + (hi - lo) |u_{d+1}| in y_range. One array
    strategy draws a fill value and a few distinct entries: few choices per example and
    short shrinks, all towards 0 (x = 0, the first label, y = lo)."""
    from hypothesis.extra.numpy import arrays
    shape = (size, d + 2)
    if grid is None:
        U = arrays(np.float64, shape, elements=st.floats(-1.0, 1.0, allow_nan=False))
    else:
        U = arrays(np.int64, shape, elements=st.integers(-grid, grid)).map(lambda a: a / grid)

    def rows(u: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
        V, t, s = u[:, :d], np.abs(u[:, d]), np.abs(u[:, d + 1])
        nv = np.linalg.norm(V, axis=1, keepdims=True)
        X = np.where(nv == 0, 0.0, x_radius * t[:, None] * V / np.where(nv == 0, 1.0, nv))
        if labels is not None:
            y = np.asarray(labels)[np.minimum(len(labels) - 1, (s * len(labels)).astype(int))]
        else:
            lo, hi = y_range
            y = np.clip(lo + (hi - lo) * s, lo, hi)
        return X, y
    return U.map(rows)


@functools.lru_cache(maxsize=1024)
def _cached_table(*args: Any) -> st.SearchStrategy:
    # one strategy object per argument tuple: Hypothesis caches its analysis per object,
    # so a strategy rebuilt on every draw costs milliseconds per example
    return _table(*args)


def records(d: int, x_radius: float = 1.0, labels: Sequence[float] | None = (-1.0, 1.0),
            y_range: tuple[float, float] | None = None, grid: int | None = GRID
            ) -> st.SearchStrategy:
    """One record ``(x, y)``: ``x`` in the ball ``||x|| <= x_radius`` of R^d (its boundary
    included), ``y`` from ``labels`` or the interval ``y_range``.

    ``x`` is a direction (d coordinates in [-1, 1]) scaled to a fraction of x_radius in
    [0, 1]; with ``grid`` (default :data:`GRID`) coordinates and fraction are multiples of
    1/grid, and ``y`` in ``y_range`` is lo plus a multiple of (hi - lo)/grid: a small space
    of integers, so a failing test shrinks to its counterexample in seconds. ``grid=None``
    draws any float (more values, much slower shrinking).

    Examples
    --------
    >>> from hypothesis import find
    >>> x, y = find(records(3), lambda _: True)
    >>> bool(np.linalg.norm(x) <= 1.0 + 1e-12) and y in (-1.0, 1.0)
    True
    """
    return _cached_table(1, *_record_args(d, x_radius, labels, y_range, grid)).map(
        lambda Xy: (Xy[0][0], Xy[1][0]))


def _record_args(d: int, x_radius: float, labels: Sequence[float] | None,
                 y_range: tuple[float, float] | None, grid: int | None) -> tuple:
    if isinstance(d, bool) or not isinstance(d, (int, np.integer)) or d < 1:
        raise ValueError(f"d must be an integer >= 1, got {d!r}")
    if not (x_radius > 0):
        raise ValueError(f"x_radius must be > 0, got {x_radius!r}")
    lab = None if labels is None else tuple(float(v) for v in labels)
    if lab is not None and not lab:
        raise ValueError("labels must hold at least one value (or be None, with y_range)")
    yr = (0.0, 0.0) if y_range is None else (float(y_range[0]), float(y_range[1]))
    if not yr[0] <= yr[1]:
        raise ValueError(f"y_range must satisfy lo <= hi, got {y_range!r}")
    return int(d), float(x_radius), lab, yr, _grid(grid)


def datasets(n: int | st.SearchStrategy = st.integers(2, 20), d: int = 3,
             x_radius: float = 1.0, labels: Sequence[float] | None = (-1.0, 1.0),
             y_range: tuple[float, float] | None = None, grid: int | None = GRID
             ) -> st.SearchStrategy:
    """A data set ``(X, y)``: ``n`` records of the domain of :func:`records` (``n`` a number
    or a strategy; ``grid`` as there).

    Examples
    --------
    >>> from hypothesis import find
    >>> X, y = find(datasets(n=5, d=2), lambda _: True)
    >>> X.shape, y.shape
    ((5, 2), (5,))
    """
    size, args = _size(n, "n", 1), _record_args(d, x_radius, labels, y_range, grid)

    @st.composite
    def draw_dataset(draw: Any) -> tuple[np.ndarray, np.ndarray]:
        return draw(_cached_table(draw(size), *args))
    return draw_dataset()


def neighbouring_datasets(n: int | st.SearchStrategy = st.integers(2, 20), d: int = 3,
                          relation: str = "replace-one", x_radius: float = 1.0,
                          labels: Sequence[float] | None = (-1.0, 1.0),
                          y_range: tuple[float, float] | None = None,
                          grid: int | None = GRID) -> st.SearchStrategy:
    """Two data sets that are neighbours under ``relation``.

    ``"replace-one"``: the same size, one record replaced by another record of the same
    domain. ``"add-remove"``: one record added to, or removed from, the first. ``grid`` as
    in :func:`records`.

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
    size, args = _size(n, "n", lo), _record_args(d, x_radius, labels, y_range, grid)

    @st.composite
    def draw_pair(draw: Any) -> tuple[tuple, tuple]:
        k = draw(size)
        X, y = draw(_cached_table(k + 1, *args))   # k records and the new one, one array
        i = draw(st.integers(0, k if relation == "add-remove" else k - 1))
        return (X[:k], y[:k]), neighbour(X[:k], y[:k], i, X[k], y[k], relation)
    return draw_pair()


def objectives(families: Sequence[str] | None = None,
               n: int | st.SearchStrategy = st.integers(8, 64),
               requires: Sequence[type] = ()) -> st.SearchStrategy:
    """``(objective, data)`` from the registered objective families (entry point
    ``dptheory.objectives``), at a drawn size and data seed. The objective's constants are
    certified: ``objective.assumptions(data)`` lists them. A family that cannot build the
    drawn number of records (e.g. a wide design needs n <= d) is not drawn at that size.

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
    size = _size(n, "n", 2)
    need = tuple(requires)
    # the data seed shrinks towards 0 like any integer; 2^16 seeds are plenty of data sets
    family, seed = st.sampled_from(names), st.integers(0, 2**16 - 1)

    @st.composite
    def draw_objective(draw: Any) -> tuple[Any, Any]:
        from hypothesis import reject
        obj = registry.objective(draw(family))
        k = draw(size)
        try:
            data = obj.make_data(k, draw(seed))
        except ValueError:
            reject()             # this family cannot build k records (e.g. n <= d)
        have = {type(a) for a in obj.assumptions(data)}
        if any(t not in have for t in need):
            reject()             # this family does not declare what the caller needs
        return obj, data
    return draw_objective()


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
