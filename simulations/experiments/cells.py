"""What every experiment's cell functions share: constants, catalog values, the cell's
objective and data, running a simulator over a replicate block, JSON conversion, and the
defaults of the bound and slope recipes.

Conventions of the cells (the contract is :mod:`dptheory.verify.recipe`)
------------------------------------------------------------------------
* A cell reads its swept value from ``cell["point"]`` and everything else from the cell's
  fixed keys (:func:`param`). The data set of a sweep point is ``make_data(n, cell["seed"])``
  and the algorithm runs with ``seed=cell["seed"], first_replicate=cell["first_replicate"]``
  (:func:`run_algorithm`), so the blocks of one point share the data and pool into one sample
  whatever the block size.
* Constants (G, beta, mu, D, ...) are the objective's certified ones,
  ``objective.assumptions(data)`` (:func:`constants`); settings the algorithm rounds (T,
  eta0 X = ...) are passed to the catalog at the value actually used, so a ``bound`` is the
  printed explicit bound at *this* instance (:func:`catalog_bound`).
* Where the right-hand side differs per replicate (pathwise lemmas, random start points),
  ``samples`` are the ratios measured/RHS and ``bound`` is 1.
* Lower bounds (yang2022 Lemmas A.3, A.5) are returned negated: ``samples`` = -measured,
  ``bound`` = -h(x), so the contract's "measured <= bound" reads "measured >= h(x)".
* Cells return JSON values only (lists of floats) and print nothing.

This module knows no paper: the cell functions and recipes of a paper live in the module
named after it (``zhang2017``, ``tran2022``, ``yang2022``, ``wang2020``, ``zhang2021``).
"""

from __future__ import annotations

from typing import Any

import numpy as np

from dptheory import registry
from dptheory.verify.recipe import Recipe, load_cell_function

from dptheory_simulations.algorithms import get as get_algorithm
from dptheory_simulations.objectives import Dataset
from dptheory_simulations.objectives import get as get_objective
from dptheory_simulations.objectives.base import CONSTANT_NAMES, named_constants

__all__ = ["constants", "catalog_bound", "catalog_setting", "param", "objective_and_data",
           "cell_eps", "floats", "jsonable", "scalar_params", "fmin_upper", "replicate_rng",
           "run_algorithm", "certified", "utility_recipe", "planned_constants", "scaled_variant"]


def constants(objective: Any, data: Any) -> dict[str, float]:
    """The certified constants declared by ``objective`` on ``data``, by catalog name (the
    loss bound excepted)."""
    out = named_constants(objective.assumptions(data))
    out.pop("loss_bound", None)
    return out

def catalog_bound(item: str, values: dict[str, float], what: str = "bound") -> float:
    """The catalog item's ``what`` at ``values`` (settings applied for symbols not given)."""
    return float(registry.get(item).evaluate(what, values))

def catalog_setting(item: str, name: str, values: dict[str, float]) -> float:
    """The catalog item's setting of the symbol named ``name`` at ``values`` (by name)."""
    it = registry.get(item)
    sym = next(s for s in it.settings if s.name == name)
    expr = it.settings[sym]
    return float(expr.subs({x: values[x.name] for x in expr.free_symbols}))

def param(cell: dict, key: str, default: Any = None) -> Any:
    """The cell's value of ``key``: the sweep point's first, then the fixed keys."""
    point = cell.get("point", {})
    if key in point:
        return point[key]
    return cell.get(key, default)

def objective_and_data(cell: dict, n: int | None):
    """The cell's objective (``family`` with ``objective_params``) and its seeded data set of
    ``n`` records, drawn from the cell's seed (so the blocks of one point share the data)."""
    kwargs = dict(cell.get("objective_params", {}))
    obj = get_objective(cell["family"], **kwargs)
    data = obj.make_data(int(n), int(cell["seed"]) % (2 ** 32))
    return obj, data

def cell_eps(cell: dict) -> float:
    """The cell's eps: ``1/inv_eps`` when the sweep runs over 1/eps (a rate as eps -> 0)."""
    inv = param(cell, "inv_eps")
    return 1.0 / float(inv) if inv is not None else float(cell["eps"])

def floats(a: Any) -> list[float]:
    """``a`` flattened to a list of Python floats (JSON-safe samples)."""
    return [float(x) for x in np.asarray(a, dtype=float).ravel()]

def jsonable(v: Any) -> Any:
    """``v`` with NumPy scalars and arrays turned into JSON values (other objects as text)."""
    if isinstance(v, dict):
        return {str(k): jsonable(x) for k, x in v.items()}
    if isinstance(v, (list, tuple)):
        return [jsonable(x) for x in v]
    if isinstance(v, np.ndarray):
        return jsonable(v.tolist())
    if isinstance(v, np.bool_):
        return bool(v)
    if isinstance(v, (np.integer,)):
        return int(v)
    if isinstance(v, (np.floating, float)):
        return float(v)
    if isinstance(v, (int, str, bool)) or v is None:
        return v
    return str(v)

def scalar_params(params: dict) -> dict:
    """The scalar entries of an algorithm's resolved parameters, JSON-safe."""
    return {k: jsonable(v) for k, v in params.items() if np.isscalar(v) or v is None}

def fmin_upper(objective: Any, data: Any) -> float:
    """The best value found for min F (>= min F): gaps F(w0) - min F computed with it are
    never larger than the true gap, so bounds that grow with the gap are not loosened."""
    return float(objective.minimum(data).value)

def replicate_rng(cell: dict, r: int, tag: int) -> np.random.Generator:
    """Replicate r's own generator for draws made by the cell itself (block invariant)."""
    return np.random.Generator(np.random.PCG64(np.random.SeedSequence(
        int(cell["seed"]), spawn_key=(int(cell["first_replicate"]) + r, 1000 + tag))))

def run_algorithm(cell: dict, alg_id: str, objective: Any, data: Any, **params: Any):
    """Run the simulator ``alg_id`` over the cell's replicate block (its seed and first
    replicate, so blocks pool exactly), at the cell's eps, delta and calibration."""
    alg = get_algorithm(alg_id)
    return alg(objective, data, eps=cell_eps(cell), delta=float(cell.get("delta", 1e-5)),
               reps=int(cell["reps"]), seed=int(cell["seed"]),
               first_replicate=int(cell["first_replicate"]),
               calibration=cell.get("calibration", "paper"), **params)


def certified(obj: Any, data: Dataset, cls: type, attr: str) -> float:
    """The constant ``attr`` of the assumption ``cls`` that ``obj`` certifies on ``data``."""
    for a in obj.assumptions(data):
        if type(a) is cls:
            return float(getattr(a, attr))
    raise ValueError(f"objective {obj.name!r} declares no {cls.__name__} on this data")


def utility_recipe(**kw: Any) -> Recipe:
    """A bound or slope recipe with the defaults of the utility checks: an O-rate (slope) is judged on 3 data sets per
    point (4 in --full) and may grow its sweep by 2x up to 3 (4) points when it cannot
    decide; refutations are graded ``rate`` for slopes and ``bound`` for explicit bounds."""
    if kw["check"] == "slope":
        kw.setdefault("datasets", 3)
        kw.setdefault("datasets_full", 4)
        kw.setdefault("extend", {"factor": 2, "quick": 3, "full": 4})
        kw.setdefault("severity", "rate")
        kw.setdefault("consequence", "the measured quantity decays more slowly than the "
                                     "stated rate in a run shown to be asymptotic")
    else:
        kw.setdefault("severity", "bound")
        kw.setdefault("consequence", "the printed explicit bound is exceeded at the instance "
                                     "given (certified by a one-sided lower confidence limit)")
    return Recipe(**kw)


#: constants a cell may set directly (a Monte Carlo of a lemma on an abstract instance)
_EXPLICIT = frozenset(name for _, _, name in CONSTANT_NAMES)


def planned_constants(cell: dict) -> dict[str, float]:
    """The certified constants a cell will run at, read from its keys without running it:
    the constants it sets itself (``tau0``, ``tau1``, ...), and those its objective
    (``family`` or an audit's ``objective``, with ``objective_params`` or ``family_params``)
    certifies on a data set of the cell's ``n`` drawn from its seed. Empty when the cell
    names no objective. A cell function that builds its instance itself says how through
    its attribute ``instance`` (cell -> (objective, data)), which is read instead."""
    merged = {**cell, **cell.get("point", {})}
    out = {k: float(v) for k, v in merged.items()
           if k in _EXPLICIT and isinstance(v, (int, float)) and not isinstance(v, bool)}
    fn = load_cell_function(cell["cell_fn"]) if cell.get("cell_fn") else None
    if getattr(fn, "instance", None) is not None:
        obj, data = fn.instance(cell)
        return {**named_constants(obj.assumptions(data)), **out}
    family = merged.get("family") or merged.get("objective")
    if not isinstance(family, str):
        return out
    from .transcripts import audit_objective      # registered families and audit-only ones
    params = dict(cell.get("objective_params") or cell.get("family_params") or {})
    obj = audit_objective(family, **params)
    n = merged.get("n")
    n = int(n) if isinstance(n, (int, float)) and not isinstance(n, bool) else 20
    data = obj.make_data(min(n, 4096), int(cell.get("data_seed", cell.get("seed", 0))) % 2 ** 32)
    return {**named_constants(obj.assumptions(data)), **out}


def scaled_variant(recipe: Recipe, tag: str, why: str, *, params: dict[str, Any] | None = None,
                   fixed: dict[str, Any] | None = None, sweep: dict[str, list[Any]] | None = None,
                   sweep_full: dict[str, list[Any]] | None = None, points: int = 1) -> Recipe:
    """``recipe`` run where a constant it depends on is far from 1 (issue 22): id
    ``<id>-<tag>``, the objective's parameters updated by ``params`` (a feature or loss
    scale, certified by the family), other fixed keys by ``fixed``; the quick sweep keeps
    its first ``points`` points (``sweep`` replaces it), the full sweep stays (``sweep_full``
    replaces it, for a swept variable that scales with the constant). ``why`` says which
    constants move and how (appended to the description)."""
    from dataclasses import replace
    new = dict(recipe.fixed)
    if params:
        key = "objective_params" if "objective_params" in new else "family_params"
        new[key] = {**new.get(key, {}), **params}
    new.update(fixed or {})
    quick = sweep or {recipe.variable: recipe.points()[:points]}
    return replace(recipe, id=f"{recipe.id}-{tag}", fixed=new, sweep=quick,
                   sweep_full=sweep_full or recipe.sweep_full or {recipe.variable: recipe.points()},
                   description=f"{recipe.description} Scaled variant: {why}")
