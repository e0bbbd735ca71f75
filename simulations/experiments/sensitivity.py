"""Sensitivity recipes (issue 6, item 1): measured sensitivities vs the papers' lemmas.

Every cell maximises a measured sensitivity over substitution neighbours S' of a seeded
dataset S (replace the record at index i by a record z' of the family's domain) in two
phases:

1. **Hypothesis**: ``max_examples`` neighbours drawn by a Hypothesis strategy (index, feature
   vector in the ball ||x'|| <= X(S) = max_i ||x_i||, label from S's label set or range,
   and, for per-step sensitivities, the query point w in the family's domain ball), run with
   :func:`dptheory.derandom.search_settings` and ``@seed`` derived from the cell, so a cell
   gives the same examples in every process and install (no example database, no
   constants mined from imported modules).
2. **Adversarial**: ``scipy.optimize.minimize(method="Powell")`` over the replaced record's
   features (and w), radially mapped into the same balls, from the best Hypothesis examples.

The replaced record stays in S's feature ball, so the constants the family certifies on S
(which depend on S through X(S)) hold on S' too; where a family's constant depends on the
labels as well, the bound uses max(constant on S, constant on {z'}).

Each cell returns ``measured`` (largest value found), ``bound`` (the lemma evaluated at the
instance's certified constants, from the catalog item's bound/expression where it has one),
``ratio`` = measured/bound, ``worst`` (index, record, ratio, ...) and ``samples`` (the
largest value per base dataset). Cells loop over ``reps`` base datasets; replicate r's
dataset and search seed come from ``SeedSequence(seed, spawn_key=(first_replicate + r, k))``.

The engine knows no paper: each paper's module (``zhang2017``, ``tran2022``, ...) holds its
sensitivity cells and recipes, built with :func:`sensitivity_recipe` and, for the per-step
sensitivities of a privacy proof, :func:`per_step_cell` with the paper's claimed bound.
"""

from __future__ import annotations

from typing import Any, Callable

import numpy as np

from dptheory import registry
from dptheory.symbolic.assumptions import BoundedGradient, Lipschitz
from dptheory.verify.recipe import Recipe
from dptheory.verify.search import NeighbourSpace, search_neighbours
from dptheory_simulations.objectives import Dataset
from dptheory_simulations.objectives import get as get_objective

from .cells import certified

__all__ = ["evaluate_item", "per_step_cell", "per_step_value", "sensitivity_recipe", "score_key",
           "search_neighbours", "NeighbourSpace", "sub_seed", "lipschitz", "replace_record",
           "record_json", "label_space", "search_kw", "PerStepBound", "SEARCH_QUICK",
           "certified_result"]

#: a paper's claimed per-step sensitivity: (kind, objective, data, cell, record) -> bound
PerStepBound = Callable[[str, Any, Dataset, dict, "tuple[np.ndarray, float] | None"], float]


def evaluate_item(item_id: str, what: str, *, apply_settings: bool = True,
                  **values: float) -> float:
    """``registry.get(item_id).evaluate(what, ...)`` with values keyed by symbol name;
    ``what`` is ``bound``, a named expression, or one of the item's catalog sensitivities
    (``Theorem.sensitivities``: the claimed sensitivity with its neighbouring relation).
    ``apply_settings=False`` leaves the item's settings out (the values given are the ones a
    run used, e.g. its K and T0)."""
    item = registry.get(item_id)
    syms = {str(s): s for s in item.free_symbols()}
    missing = [k for k in values if k not in syms]
    if missing:
        raise ValueError(f"{item_id}: no symbols {missing} in {sorted(syms)}")
    return float(item.evaluate(what, {syms[k]: v for k, v in values.items()},
                               apply_settings=apply_settings))

def sub_seed(cell: dict[str, Any], r: int, k: int) -> int:
    """Seed of base data set r, stream k of a cell (block-invariant: from the first replicate)."""
    ss = np.random.SeedSequence(int(cell["seed"]), spawn_key=(int(cell.get("first_replicate", 0)) + r, k))
    return int(ss.generate_state(1)[0])

def lipschitz(obj: Any, data: Dataset, record: tuple[np.ndarray, float] | None = None) -> float:
    """Certified G on S (Lipschitz, else BoundedGradient), maxed with G on {z'} if given."""
    def one(ds: Dataset) -> float:
        for cls in (Lipschitz, BoundedGradient):
            try:
                return certified(obj, ds, cls, "G")
            except ValueError:
                continue
        raise ValueError(f"objective {obj.name!r} declares no Lipschitz/BoundedGradient constant")
    G = one(data)
    if record is not None:
        x, y = record
        G = max(G, one(Dataset(np.asarray(x, float)[None, :], np.array([float(y)]))))
    return G

def replace_record(data: Dataset, i: int, x: np.ndarray, y: float) -> tuple[np.ndarray, np.ndarray]:
    """Copies (X, y) of ``data`` with record ``i`` replaced by (x, y): the neighbour S'."""
    X = np.array(data.X)
    Y = np.array(data.y)
    X[i] = x
    Y[i] = y
    return X, Y

def record_json(cand: dict[str, Any]) -> dict[str, Any]:
    """A search candidate (index, record, query point) as JSON values."""
    out = {"index": int(cand["i"]), "x": [float(v) for v in cand["x"]], "y": float(cand["y"])}
    if "w" in cand:
        out["w"] = [float(v) for v in cand["w"]]
    return out

def label_space(data: Dataset) -> dict[str, Any]:
    """The labels a replacing record may take: S's two classes, or the range of |y| in S."""
    ys = np.unique(data.y)
    if set(ys.tolist()) <= {-1.0, 1.0}:
        return {"labels": (-1.0, 1.0)}
    Y = float(np.max(np.abs(data.y)))
    return {"y_range": (-Y, Y)}

def search_kw(cell: dict[str, Any]) -> dict[str, int]:
    """The search budget of a cell (Hypothesis examples, Powell starts and evaluations)."""
    return {"examples": int(cell.get("examples", 20)), "starts": int(cell.get("starts", 2)),
            "maxfev": int(cell.get("maxfev", 100))}

def per_step_value(kind: str, obj: Any, data: Dataset, c: dict[str, Any], cell: dict[str, Any]
                    ) -> float:
    """The per-step measured sensitivity at candidate c (index, record, query point w)."""
    i, w = c["i"], np.asarray(c["w"], float)[None, :]
    Xr = np.stack([data.X[i], np.asarray(c["x"], float)])
    yr = np.array([data.y[i], float(c["y"])])
    n = data.n
    if kind == "grad":            # (1/n)(g(w, z_i) - g(w, z')): full-gradient difference
        g = obj._grad(w, Xr, yr)[0]
        return float(np.linalg.norm(g[0] - g[1])) / n
    if kind == "hess":            # upper triangle (with diagonal) of the Hessian difference
        H = obj._hess(w, Xr, yr)[0]
        iu = np.triu_indices(obj.d)
        return float(np.linalg.norm((H[0] - H[1])[iu])) / n
    if kind == "minibatch":       # (1/B) sum over a batch holding index i; others cancel
        g = obj._grad(w, Xr, yr)[0]
        return float(np.linalg.norm(g[0] - g[1])) / int(cell["B"])
    # clipping / normalization: sums over the whole dataset, recomputed (not cancelled)
    from dptheory.privacy.samplers import clip_per_sample, normalize_per_sample
    Xp, yp = replace_record(data, i, c["x"], c["y"])
    gS = obj._grad(w, data.X, data.y)[0]
    gP = obj._grad(w, Xp, yp)[0]
    if kind == "clip":
        C = float(cell["C"])
        return float(np.linalg.norm(clip_per_sample(gS, C).sum(0) - clip_per_sample(gP, C).sum(0)))
    if kind == "normalize":
        rr = float(cell["r"])
        return float(np.linalg.norm(normalize_per_sample(gS, rr).sum(0) -
                                    normalize_per_sample(gP, rr).sum(0)))
    raise ValueError(f"kind must be grad, hess, minibatch, clip or normalize, got {kind!r}")

def per_step_cell(cell: dict[str, Any], bound: PerStepBound) -> dict[str, Any]:
    """Per-step sensitivities of the privacy proofs: sup over (w, i, z') of the change of one
    step's released statistic ``cell["kind"]`` (:func:`per_step_value`), against the paper's
    claimed sensitivity ``bound(kind, obj, data, cell, record)`` (``record``: the replacing
    record (x, y), or None for the constants on S alone). The papers' cell functions call it
    with their own bound (wang2020 Theorem 1, yang2022 Lemma 3.1, zhang2021 Theorem 3.1)."""
    kind = cell["kind"]
    point = dict(cell["point"])
    fam = point.get("family", cell.get("family"))
    params = dict(cell.get("family_params", {}))
    merged = {**cell, **point}
    n = int(merged.get("n", 50))
    obj = get_objective(fam, **params)
    samples, best = [], None
    for r in range(int(cell["reps"])):
        data = obj.make_data(n, sub_seed(cell, r, 0))
        R = obj.domain_radius if obj.domain_radius is not None else obj.sample_radius
        space = NeighbourSpace(n=n, d=obj.d, x_radius=data.max_norm, w_dim=obj.d,
                               w_radius=float(R), **label_space(data))
        bound0 = bound(kind, obj, data, merged, None)

        def score(c: dict[str, Any]) -> float:
            return per_step_value(kind, obj, data, c, merged) / bound0

        res = search_neighbours(score, space, seed=sub_seed(cell, r, 1), **search_kw(cell))
        c = res["candidate"]
        measured = per_step_value(kind, obj, data, c, merged)
        bound = bound(kind, obj, data, merged, (c["x"], c["y"]))
        samples.append(measured)
        info = {**record_json(c), "ratio": measured / bound, "measured": measured, "bound": bound,
                "kind": kind, "family": fam, "n": n, "dataset": r,
                "hypothesis_ratio": res["hypothesis_value"],
                "hypothesis_examples": res["hypothesis_examples"],
                "adversarial_evals": res["adversarial_evals"]}
        for k in ("B", "C", "r"):
            if k in merged:
                info[k] = merged[k]
        if best is None or info["ratio"] > best["ratio"]:
            best = info
    return {"measured": best["measured"], "bound": best["bound"], "ratio": best["ratio"],
            "worst": best, "samples": samples}

def score_key(info: dict[str, Any]) -> tuple[int, float]:
    """Rank of a candidate worst case: its measured/bound ratio; a case whose printed bound
    is 0 (ratio None) ranks above every ratio, and among those the larger measured value
    (a tuple: ``1e300 + measured`` would round every measured value below ~1e284 away)."""
    if info["ratio"] is None:
        return (1, float(info["measured"]))
    return (0, float(info["ratio"]))

def certified_result(out: dict[str, Any], canary: dict[str, Any], U_canary: float,
                     U_search: float, derivation: str) -> dict[str, Any]:
    """A cell result with a certified supremum (issue 23, item 3): the constructive canary
    (``canary``: its record and instance, with ``measured`` and ``bound``) or the search's
    best (``out``, a search cell's result), whichever has the larger measured/bound, with the
    certified supremum of that instance (``U_canary`` or ``U_search``) and its
    ``derivation``, for :func:`dptheory.verify.checks.sup_check`. Data set 0 carries the
    canary in ``samples`` (one value per base data set)."""
    best = out["worst"]
    ratio_c = canary["measured"] / canary["bound"]
    if ratio_c >= best["measured"] / best["bound"]:
        worst, U = {"canary": True, **canary, "ratio": ratio_c, "search_ratio": best["ratio"]}, U_canary
    else:
        worst, U = {**best, "canary_ratio": ratio_c}, U_search
    return {"measured": worst["measured"], "bound": worst["bound"],
            "ratio": worst["measured"] / worst["bound"], "worst": worst,
            "samples": [max(out["samples"][0], canary["measured"]), *out["samples"][1:]],
            "certified_sup": U, "derivation": derivation}

def sensitivity_recipe(id: str, item: str, cell: str, sweep: dict, fixed: dict, sweep_full: dict | None,
       metric: str, description: str, reps_full: int = 4, **grading: str) -> Recipe:
    """A sensitivity (supremum) recipe of the cell function ``cell`` ("module:function");
    a refutation is graded ``bound`` unless ``grading``
    names another severity, consequence or root cause."""
    grading.setdefault("severity", "bound")
    grading.setdefault("consequence", "the printed sensitivity bound is exceeded by the pair "
                                      "of neighbouring data sets given; noise calibrated on it "
                                      "is too small for that pair (whether the privacy claim "
                                      "fails is judged by the accountant)")
    return Recipe(id=id, item=item, check="sensitivity", cell=cell, sweep=sweep,
                  fixed=fixed, reps=1, block=1, sweep_full=sweep_full, reps_full=reps_full,
                  metric=metric, description=description, **grading)

#: the search budget of the quick sensitivity recipes
SEARCH_QUICK = {"examples": 40, "starts": 3, "maxfev": 200}
