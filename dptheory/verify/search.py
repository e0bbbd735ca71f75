"""Adversarial search for neighbouring data sets (paper-agnostic).

A sensitivity claim says that a released statistic moves by at most a bound between
neighbouring data sets. :func:`search_neighbours` looks for the neighbour that moves it most,
in two phases:

1. **Hypothesis**: ``examples`` neighbours drawn from :meth:`NeighbourSpace.strategy` (the
   index of the changed record, its features in a ball, its label, and optionally a query
   point w), with :func:`dptheory.derandom.search_settings` and an explicit seed, so the
   same seed gives the same examples in every process and install;
2. **Adversarial**: ``scipy.optimize.minimize(method="Powell")`` over the changed record's
   features (and w), radially mapped into the same balls, from the ``starts`` best
   Hypothesis examples.

The space describes a *replace-one* neighbour (index ``i`` in ``0..n-1`` and a new record);
an *add/remove* neighbour is the same space with one more index (``i = n``: add the record;
``i < n``: remove record i), which :func:`dptheory.sensitivity.check_sensitivity` builds.
The sensitivity recipes of the experiments (one module per paper) and the public
:func:`dptheory.check_sensitivity` share this code.
"""

from __future__ import annotations

import math
from dataclasses import dataclass
from typing import Any, Callable

import numpy as np

__all__ = ["NeighbourSpace", "search_neighbours", "to_ball"]


def to_ball(u: np.ndarray, radius: float) -> np.ndarray:
    """Radial map of the cube [-1, 1]^d onto the ball of the given radius (identity inside).

    Examples
    --------
    >>> to_ball(np.array([3.0, 4.0]), 1.0)
    array([0.6, 0.8])
    """
    nu = float(np.linalg.norm(u))
    return radius * (u / nu if nu > 1.0 else u)


@dataclass(frozen=True)
class NeighbourSpace:
    """Where a substitution neighbour (and optionally a query point w) lives.

    ``n`` indices; replaced features in the ball ``||x'|| <= x_radius``; labels from
    ``labels`` (a finite set) or the interval ``y_range``; ``w_radius > 0`` adds a query
    point w of dimension ``w_dim`` in that ball.
    """

    n: int
    d: int
    x_radius: float
    labels: tuple[float, ...] | None = None
    y_range: tuple[float, float] | None = None
    w_dim: int = 0
    w_radius: float = 0.0
    indices: tuple[int, ...] | None = None      # restrict the replaced index (None: all)

    def strategy(self):
        """A Hypothesis strategy of candidates ``{"i", "x", "y"[, "w"]}`` in this space."""
        from hypothesis import strategies as st
        unit = st.lists(st.floats(-1.0, 1.0, allow_nan=False), min_size=self.d, max_size=self.d)
        radius = st.floats(0.0, 1.0, allow_nan=False)

        def ball(t: tuple[list[float], float], R: float) -> list[float]:
            v = np.asarray(t[0], float)
            nv = float(np.linalg.norm(v))
            return [0.0] * len(v) if nv == 0 else list(R * t[1] * v / nv)

        idx = (st.sampled_from(self.indices) if self.indices is not None
               else st.integers(0, self.n - 1))
        if self.labels is not None:
            lab = st.sampled_from(self.labels)
        else:
            lo, hi = self.y_range if self.y_range is not None else (0.0, 0.0)
            lab = st.floats(lo, hi, allow_nan=False)
        parts = {"i": idx, "x": st.tuples(unit, radius).map(lambda t: ball(t, self.x_radius)),
                 "y": lab}
        if self.w_dim:
            wunit = st.lists(st.floats(-1.0, 1.0, allow_nan=False), min_size=self.w_dim,
                             max_size=self.w_dim)
            parts["w"] = st.tuples(wunit, radius).map(lambda t: ball(t, self.w_radius))
        return st.fixed_dictionaries(parts)

    # Powell parametrisation: [u_x (d), u_w (w_dim), y (if continuous)], box-bounded
    def pack(self, cand: dict[str, Any]) -> np.ndarray:
        """A candidate as the box-bounded vector Powell searches over: ``[u_x, u_w, y]``."""
        parts = [np.asarray(cand["x"], float) / self.x_radius if self.x_radius > 0 else np.zeros(self.d)]
        if self.w_dim:
            parts.append(np.asarray(cand["w"], float) / self.w_radius)
        if self.labels is None and self.y_range is not None:
            parts.append(np.array([float(cand["y"])]))
        return np.concatenate(parts)

    def unpack(self, theta: np.ndarray, i: int, y: float) -> dict[str, Any]:
        """The candidate of the vector ``theta`` (the inverse of :meth:`pack`, mapped into the balls)."""
        x = to_ball(theta[:self.d], self.x_radius)
        out: dict[str, Any] = {"i": int(i), "x": x, "y": float(y)}
        k = self.d
        if self.w_dim:
            out["w"] = to_ball(theta[k:k + self.w_dim], self.w_radius)
            k += self.w_dim
        if self.labels is None and self.y_range is not None:
            out["y"] = float(np.clip(theta[k], *self.y_range))
        return out

    def bounds(self) -> list[tuple[float, float]]:
        """Box bounds of the packed vector, one ``(low, high)`` per coordinate."""
        b = [(-1.0, 1.0)] * (self.d + self.w_dim)
        if self.labels is None and self.y_range is not None:
            b.append(self.y_range)
        return b


def _hypothesis_examples(space: NeighbourSpace, max_examples: int, seed: int) -> list[dict]:
    """Up to ``max_examples`` examples of ``space.strategy()``, deterministic given ``seed``."""
    from hypothesis import Phase, given
    from hypothesis import seed as hseed

    from dptheory.derandom import search_settings
    out: list[dict] = []

    @hseed(seed)
    @search_settings(max_examples=max_examples, phases=[Phase.explicit, Phase.generate])
    @given(space.strategy())
    def collect(ex: dict) -> None:
        out.append({"i": int(ex["i"]), "x": np.asarray(ex["x"], float), "y": float(ex["y"]),
                    **({"w": np.asarray(ex["w"], float)} if "w" in ex else {})})

    collect()
    return out


def search_neighbours(score: Callable[[dict[str, Any]], float], space: NeighbourSpace, *,
                      seed: int, examples: int = 20, starts: int = 2, maxfev: int = 100
                      ) -> dict[str, Any]:
    """Maximise ``score(candidate)`` over the neighbours of ``space``.

    Parameters
    ----------
    score : candidate -> float; a candidate is ``{"i": index, "x": features, "y": label}``
        (plus ``"w"``, a query point, when ``space.w_dim > 0``).
    space : where the candidates live.
    seed : seed of the Hypothesis phase (the only randomness).
    examples : number of Hypothesis examples.
    starts : number of Powell searches, from the best examples.
    maxfev : function evaluations per Powell search.

    Returns
    -------
    dict
        ``value`` (largest score), ``candidate`` (where), ``hypothesis_value`` (largest score
        of the Hypothesis phase), ``hypothesis_examples``, ``adversarial_evals``.

    Examples
    --------
    >>> space = NeighbourSpace(n=4, d=2, x_radius=1.0, labels=(0.0,))
    >>> res = search_neighbours(lambda c: float(c["x"][0]), space, seed=1, examples=10)
    >>> round(res["value"], 3)      # the largest first coordinate in the unit ball
    1.0
    """
    from scipy.optimize import minimize
    cands = _hypothesis_examples(space, examples, seed)
    scores = [float(score(c)) for c in cands]
    order = np.argsort(scores)[::-1]
    best_val, best = (scores[order[0]], cands[order[0]]) if cands else (-math.inf, None)
    hyp_best = best_val
    nfev = 0
    for j in order[:starts]:
        c0 = cands[j]
        i0, y0 = c0["i"], c0["y"]

        def neg(theta: np.ndarray) -> float:
            v = float(score(space.unpack(theta, i0, y0)))
            return -v if np.isfinite(v) else 0.0

        res = minimize(neg, space.pack(c0), method="Powell", bounds=space.bounds(),
                       options={"maxfev": maxfev, "xtol": 1e-4, "ftol": 1e-9})
        nfev += int(res.nfev)
        cand = space.unpack(res.x, i0, y0)
        val = float(score(cand))
        if val > best_val:
            best_val, best = val, cand
    return {"value": best_val, "candidate": best, "hypothesis_value": hyp_best,
            "hypothesis_examples": len(cands), "adversarial_evals": nfev}


