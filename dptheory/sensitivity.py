"""Property-test a sensitivity claim: :func:`check_sensitivity`.

A sensitivity claim says that a released statistic ``mechanism(X, y)`` moves by at most a
bound (in the l2 norm) between neighbouring data sets. :func:`check_sensitivity` searches
for the neighbour that moves it most (Hypothesis examples, then Powell from the best ones:
:func:`dptheory.verify.search.search_neighbours`, the engine's search that the verification
recipes use too) and judges the claim as a supremum bound
(:func:`dptheory.verify.checks.sup_check`): ``refuted`` with a certified counterexample,
``supported`` when the search came close enough to the bound to have caught a smaller one,
``inconclusive`` when it did not.
"""

from __future__ import annotations

import math
from typing import Any, Callable, Mapping, Sequence

import numpy as np

from dptheory.errors import UsageError

__all__ = ["check_sensitivity", "neighbour", "ball_dataset"]


def ball_dataset(n: int, d: int, rng: np.random.Generator, x_radius: float = 1.0,
                 labels: Sequence[float] | None = (-1.0, 1.0),
                 y_range: tuple[float, float] | None = None) -> tuple[np.ndarray, np.ndarray]:
    """``n`` records with features uniform in the ball ``||x|| <= x_radius`` of R^d and labels
    drawn from ``labels`` (or uniform on ``y_range``).

    Examples
    --------
    >>> X, y = ball_dataset(5, 3, np.random.default_rng(0))
    >>> X.shape, bool(np.all(np.linalg.norm(X, axis=1) <= 1.0)), set(y) <= {-1.0, 1.0}
    ((5, 3), True, True)
    """
    u = rng.standard_normal((n, d))
    u /= np.linalg.norm(u, axis=1, keepdims=True)
    X = x_radius * u * rng.random((n, 1)) ** (1.0 / d)
    if labels is not None:
        y = np.asarray(labels, dtype=float)[rng.integers(0, len(labels), n)]
    else:
        lo, hi = y_range if y_range is not None else (0.0, 0.0)
        y = rng.uniform(lo, hi, n)
    return X, y


def neighbour(X: np.ndarray, y: np.ndarray, i: int, x: Any, label: float,
              relation: str = "replace-one") -> tuple[np.ndarray, np.ndarray]:
    """The neighbour of ``(X, y)``: record ``i`` replaced by ``(x, label)`` (replace-one), or
    under add-remove record ``i`` removed (``i < n``) or ``(x, label)`` added (``i == n``).

    Examples
    --------
    >>> X, y = np.zeros((3, 2)), np.zeros(3)
    >>> [a.shape for a in neighbour(X, y, 1, [1.0, 0.0], 1.0)]
    [(3, 2), (3,)]
    >>> [a.shape for a in neighbour(X, y, 3, [1.0, 0.0], 1.0, "add-remove")]
    [(4, 2), (4,)]
    >>> [a.shape for a in neighbour(X, y, 0, [1.0, 0.0], 1.0, "add-remove")]
    [(2, 2), (2,)]
    """
    X, y = np.asarray(X, dtype=float), np.asarray(y, dtype=float)
    n = X.shape[0]
    if relation == "replace-one":
        Xp, yp = X.copy(), y.copy()
        Xp[i], yp[i] = np.asarray(x, dtype=float), float(label)
        return Xp, yp
    if relation == "add-remove":
        if i == n:
            return (np.vstack([X, np.asarray(x, dtype=float)[None, :]]),
                    np.append(y, float(label)))
        keep = np.arange(n) != i
        return X[keep], y[keep]
    raise UsageError(f"relation must be 'replace-one' or 'add-remove', got {relation!r}")


def _claim_value(claim: Any, relation: str, values: Mapping[str, float] | None) -> tuple[float, str]:
    """(bound, description) of a claim: a number, a Sensitivity, or ``"item:name"``."""
    from dptheory.symbolic.theorem import Sensitivity
    if isinstance(claim, str):
        from dptheory import catalog
        if ":" not in claim:
            raise UsageError(f"claim must be a number, a Sensitivity or 'item:name' (e.g. "
                             f"'yang2022.lemma3.1:clip'), got {claim!r}")
        item_id, name = claim.split(":", 1)
        item = catalog.get(item_id)
        if name not in item.sensitivities:
            raise UsageError(f"{item_id} has no sensitivity {name!r}; it has "
                             f"{sorted(item.sensitivities) or 'none'}")
        sens = item.sensitivities[name]
        if sens.relation != relation:
            raise UsageError(f"{claim} is stated under {sens.relation}, not {relation}")
        return item.value_at(name, dict(values or {})), f"{claim} ({sens.quantity})"
    if isinstance(claim, Sensitivity):
        if claim.relation != relation:
            raise UsageError(f"the claim is stated under {claim.relation}, not {relation}")
        return claim.evaluate(values or {}), claim.quantity or str(claim.expr)
    try:
        b = float(claim)
    except (TypeError, ValueError):
        raise UsageError(f"claim must be a number, a Sensitivity or 'item:name', got "
                         f"{type(claim).__name__}") from None
    if not (b >= 0 and math.isfinite(b)):
        raise UsageError(f"claim must be a finite number >= 0, got {claim!r}")
    return b, f"{b:g}"


def check_sensitivity(mechanism: Callable[..., Any], claim: Any, relation: str = "replace-one",
                      *, data: tuple[Any, Any] | None = None, n: int = 16, d: int = 3,
                      x_radius: float = 1.0, labels: Sequence[float] | None = (-1.0, 1.0),
                      y_range: tuple[float, float] | None = None, query_radius: float = 0.0,
                      datasets: int = 2, examples: int = 40, starts: int = 3, maxfev: int = 200,
                      seed: int = 0, values: Mapping[str, float] | None = None,
                      quantity: str = "") -> Any:
    """Property-test "``mechanism`` moves by at most ``claim`` between neighbours".

    Parameters
    ----------
    mechanism : ``mechanism(X, y)`` (or ``mechanism(X, y, w)`` with ``query_radius > 0``)
        returning the released statistic (a number or an array); deterministic.
    claim : the claimed sensitivity: a number, a :class:`~dptheory.symbolic.Sensitivity`,
        or a catalog sensitivity ``"item:name"`` (``"yang2022.lemma3.1:clip"``) evaluated at
        ``values``.
    relation : ``"replace-one"`` (substitute one record) or ``"add-remove"``.
    data : a base data set ``(X, y)``; default ``datasets`` random ones (features uniform in
        the ball of radius ``x_radius`` of R^d, labels from ``labels`` or ``y_range``).
    n, d, x_radius, labels, y_range : the random base data sets and the neighbour's record
        (features in the same ball, a label from the same set or range).
    query_radius : > 0 also searches a query point w in that ball of R^d (per-step
        sensitivities sup_w ||g(w; S) - g(w; S')||).
    datasets, examples, starts, maxfev : search effort (per base data set: Hypothesis
        examples, Powell starts, evaluations per start).
    seed : the search and the data sets depend on it only.
    values : values of the claim's symbols.
    quantity : name of the quantity in the verdict.

    Returns
    -------
    dptheory.verify.verdict.CheckResult
        ``refuted`` with the neighbour that exceeds the claim, ``supported`` with the
        search's reach (its power), or ``inconclusive``.

    Examples
    --------
    The sum of clipped per-record vectors moves by at most 2C when one record is replaced
    (yang2022 Lemma 3.1's sensitivity); 1.5 C is refuted:

    >>> import numpy as np
    >>> def clipped_sum(X, y, C=0.5):
    ...     norms = np.linalg.norm(X, axis=1, keepdims=True)
    ...     return (X * np.minimum(1.0, C / np.maximum(norms, 1e-300))).sum(axis=0)
    >>> check_sensitivity(clipped_sum, "yang2022.lemma3.1:clip", values={"C": 0.5},
    ...                   n=8, examples=20).verdict
    'supported'
    >>> check_sensitivity(clipped_sum, 0.75, n=8, examples=20).verdict
    'refuted'
    """
    from dptheory.verify.checks import sup_check
    from dptheory.verify.search import NeighbourSpace, search_neighbours

    if not callable(mechanism):
        raise UsageError(f"mechanism must be callable, got {type(mechanism).__name__}")
    if relation not in ("replace-one", "add-remove"):
        raise UsageError(f"relation must be 'replace-one' or 'add-remove', got {relation!r}")
    for name, value, low in (("n", n, 2), ("d", d, 1), ("datasets", datasets, 1),
                             ("examples", examples, 1), ("starts", starts, 0),
                             ("maxfev", maxfev, 1)):
        if isinstance(value, bool) or not isinstance(value, (int, np.integer)) or value < low:
            raise UsageError(f"{name} must be an integer >= {low}, got {value!r}")
    if isinstance(seed, bool) or not isinstance(seed, (int, np.integer)) or seed < 0:
        raise UsageError(f"seed must be an integer >= 0, got {seed!r}")
    if not (x_radius > 0 and math.isfinite(x_radius)):
        raise UsageError(f"x_radius must be a finite number > 0, got {x_radius!r}")
    if not (query_radius >= 0 and math.isfinite(query_radius)):
        raise UsageError(f"query_radius must be a finite number >= 0, got {query_radius!r}")
    bound, described = _claim_value(claim, relation, values)
    if data is not None:
        X0, y0 = np.asarray(data[0], dtype=float), np.asarray(data[1], dtype=float)
        if X0.ndim != 2 or y0.shape != (X0.shape[0],):
            raise UsageError(f"data must be (X of shape (n, d), y of shape (n,)), got shapes "
                             f"{X0.shape}, {y0.shape}")
        bases = [(X0, y0)]
    else:
        bases = [ball_dataset(n, d, np.random.default_rng(np.random.SeedSequence(
            int(seed), spawn_key=(j, 0))), x_radius, labels, y_range) for j in range(datasets)]
    measured, worst = [], []
    for j, (X, y) in enumerate(bases):
        nb, dim = X.shape
        radius = x_radius if data is None else float(np.max(np.linalg.norm(X, axis=1)) or x_radius)
        if data is not None:
            labs = tuple(sorted(set(y.tolist()))) if labels is None and y_range is None else labels
        else:
            labs = labels
        space = NeighbourSpace(n=nb + (1 if relation == "add-remove" else 0), d=dim,
                               x_radius=radius, labels=tuple(labs) if labs is not None else None,
                               y_range=y_range, w_dim=dim if query_radius > 0 else 0,
                               w_radius=float(query_radius))

        def release(Xs: np.ndarray, ys: np.ndarray, c: dict[str, Any]) -> np.ndarray:
            out = mechanism(Xs, ys, c["w"]) if query_radius > 0 else mechanism(Xs, ys)
            return np.ravel(np.asarray(out, dtype=float))

        def score(c: dict[str, Any]) -> float:
            Xp, yp = neighbour(X, y, c["i"], c["x"], c["y"], relation)
            return float(np.linalg.norm(release(Xp, yp, c) - release(X, y, c)))

        ss = np.random.SeedSequence(int(seed), spawn_key=(j, 1))
        res = search_neighbours(score, space, seed=int(ss.generate_state(1)[0]),
                                examples=examples, starts=starts, maxfev=maxfev)
        c = res["candidate"]
        measured.append(res["value"])
        example = {"dataset": j, "index": int(c["i"]),
                   "change": ("add" if relation == "add-remove" and c["i"] == nb else
                              "remove" if relation == "add-remove" else "replace"),
                   "x": [float(v) for v in c["x"]], "y": float(c["y"]),
                   "hypothesis_value": res["hypothesis_value"],
                   "adversarial_evals": res["adversarial_evals"]}
        if "w" in c:
            example["w"] = [float(v) for v in c["w"]]
        worst.append(example)
    result = sup_check(measured, bound, examples=worst,
                       quantity=quantity or f"{relation} sensitivity (claim {described})")
    ev = dict(result.evidence)
    ev.update({"relation": relation, "claim": described, "datasets": len(bases)})
    return result.replace(evidence=ev)
