"""Custom sweeps from Python: :func:`sweep` runs an algorithm on an objective over a grid of
values and returns a tidy :class:`SweepResult` (records, ``to_frame()``, ``plot()``).

A sweep goes through the engine's own machinery, with no second path: its cells run with
:func:`dptheory.parallel.run_cells` (joblib or Dask; results independent of the worker count),
each cell's seed is :func:`dptheory.parallel.cell_seed` of its key, and with ``store=`` every
finished cell is committed to a :class:`dptheory.store.Store`, so an interrupted sweep resumes
without recomputing anything. Algorithms and objectives are the registered ones
(``dptheory algorithms``, ``dptheory objectives``).

With ``theorem=``, every point also carries the theorem's explicit bound (the *theory
line*) evaluated at the objective's certified constants (bound through the theorem's own
assumptions), the point's n, d, eps, delta and the run's parameters (T, step sizes, ...).
Where the bound hides constants or needs a value nothing provides, :func:`sweep` stops with
an error naming the missing values (give them with ``at=``); nothing is drawn in the bound's
place unless asked: ``constants="stated-rate"`` draws the stated rate with its hidden
constants set to 1, labelled as such (a shape to compare slopes with, not a bound).
"""

from __future__ import annotations

import csv
import hashlib
import io
import itertools
import json
import math
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, Mapping, Sequence

import numpy as np

from dptheory.errors import UsageError

__all__ = ["sweep", "SweepResult", "run_cell", "theory_values"]

_POINT_KEYS = ("n", "d", "eps", "delta")
#: What a sweep with a theorem draws as its theory line: ``"certified"`` (the explicit bound
#: at values the objective certifies or ``at=`` gives; a missing value is an error) or
#: ``"stated-rate"`` (the stated rate with hidden constants set to 1, labelled as such).
CONSTANTS = ("certified", "stated-rate")


def theory_values(theorem: Any, objective: Any, data: Any, values: Mapping[str, float]) -> dict[str, float]:
    """Values for ``theorem``'s symbols at an instance: the objective's certified constants,
    matched through the theorem's own assumptions (``Lipschitz(G)`` of the theorem binds G to
    the objective's declared Lipschitz constant), then ``values`` (which win).

    Returns
    -------
    dict
        ``{registered symbol name: number}``.
    """
    out: dict[str, float] = {}
    concrete = {type(a): a for a in objective.assumptions(data)}
    for a in theorem.assumptions:
        c = concrete.get(type(a))
        if c is None:
            continue
        for sym, value in a.binding(c).items():
            try:
                out[sym.name] = float(value)
            except (TypeError, ValueError):
                pass
    out.update({k: float(v) for k, v in values.items()})
    return out


def _theory(theorem_id: str, objective: Any, data: Any, values: dict[str, float]) -> dict[str, Any]:
    """The theorem's bound (or its stated rate) at the instance, or why not."""
    from dptheory import catalog
    item = catalog.get(theorem_id)
    env = theory_values(item, objective, data, values)
    from dptheory.symbolic.symbols import registered
    reg = registered()
    given = {reg[k].symbol: v for k, v in env.items() if k in reg}
    out: dict[str, Any] = {"bound": None, "rate": None, "missing": []}
    for what in ("bound", "rate"):
        if getattr(item, what) is None:
            continue
        missing = item.needs(what, given)
        if missing:
            out["missing"] = sorted({*out["missing"], *(str(s) for s in missing)})
            continue
        try:
            out[what] = float(item.evaluate(what, given))
        except (ValueError, ArithmeticError) as exc:
            out[f"{what}_error"] = str(exc)
    return out


_PREFERRED = ("excess_risk", "grad_norm", "min_grad_norm", "grad_norm_sq", "grad_norm_avg")


def default_metric(measured: Sequence[str], theorem: Any = None) -> str:
    """The metric a theorem bounds, read from its measured quantity (``||grad ...||^2`` ->
    ``grad_norm_sq``, ``min_t ||grad ...||`` -> ``min_grad_norm``, ``||grad ...||`` ->
    ``grad_norm``, a risk or ``F(...)`` -> ``excess_risk``), else the first of the usual
    ones the run measures."""
    text = (getattr(theorem, "measured", "") or "").replace(" ", "")
    guess = None
    if "grad" in text:
        guess = ("grad_norm_sq" if "||^2" in text else
                 "min_grad_norm" if text.startswith("min") else "grad_norm")
    elif "F(" in text or "risk" in text.lower():
        guess = "excess_risk"
    if guess in measured:
        return guess
    return next((m for m in _PREFERRED if m in measured), measured[0] if measured else "")


def run_cell(cell: dict[str, Any]) -> dict[str, Any]:
    """One cell of a sweep (top level, so it pickles): build the objective and its data set,
    run the algorithm on ``reps`` replicates from ``first_replicate``, return the metrics per
    replicate and the theory values."""
    from dptheory import registry
    point = dict(cell["point"])
    obj_params = dict(cell.get("objective_params", {}))
    if "d" in point:
        obj_params["d"] = int(point["d"])
    obj = registry.objective(cell["objective"], **obj_params)
    n = int(point.get("n", cell.get("n", 256)))
    data = obj.make_data(n, int(cell["data_seed"]) % (2 ** 32))
    alg = registry.algorithm(cell["algorithm"])
    params = {**cell.get("params", {}), **{k: v for k, v in point.items() if k not in _POINT_KEYS}}
    eps = float(point.get("eps", cell.get("eps", 1.0)))
    delta = float(point.get("delta", cell.get("delta", 1e-5)))
    res = alg(obj, data, eps=eps, delta=delta, reps=int(cell["reps"]), seed=int(cell["seed"]),
              first_replicate=int(cell["first_replicate"]),
              calibration=cell.get("calibration", "paper"), **params)
    metrics = {k: [float(x) for x in np.ravel(np.asarray(v, dtype=float))]
               for k, v in res.metrics.items()
               if np.asarray(v).ndim >= 1 and np.asarray(v).shape[0] == int(cell["reps"])}
    run_params = {k: float(v) for k, v in res.params.items()
                  if isinstance(v, (int, float, np.integer, np.floating)) and not isinstance(v, bool)}
    out: dict[str, Any] = {"metrics": metrics, "params": run_params, "d": int(data.d),
                           "epsilon_paper": float(res.privacy.get("paper", {}).get("epsilon", math.nan))}
    if cell.get("theorem"):
        values = {**run_params, **cell.get("at", {}), "n": n, "d": data.d, "eps": eps,
                  "delta": delta}
        out["theory"] = _theory(cell["theorem"], obj, data, values)
    return out


@dataclass
class SweepResult:
    """The tidy result of :func:`sweep`.

    Attributes
    ----------
    records : one dict per (point, data set, replicate): the varied values, ``dataset``,
        ``replicate``, every metric of the run, and with a theorem ``bound`` / ``rate``.
    variables : the varied names, in order.
    metric : the metric plotted and summarised by default.
    theorem : the theorem id of the theory line ("" without one).
    missing : symbols the theorem's bound needed that nothing provided.
    run_id, store : where the cells are stored (None without a store).
    computed : cells computed in this call (the others were read from the store).
    constants : ``"certified"`` (the theory line is the bound) or ``"stated-rate"``.
    settings : what the figure's parameter line states: algorithm, objective and its
        parameters, fixed values, replicates, data sets, seed, calibration, and
        ``privacy_model`` when the theorem's privacy model set delta.
    """

    records: list[dict[str, Any]]
    variables: list[str]
    metric: str
    theorem: str = ""
    missing: list[str] = field(default_factory=list)
    run_id: str | None = None
    store: str | None = None
    computed: int = 0
    constants: str = "certified"
    settings: dict[str, Any] = field(default_factory=dict)

    def __len__(self) -> int:
        return len(self.records)

    def to_frame(self) -> Any:
        """The records as a pandas DataFrame (pandas is optional: ``pip install pandas``).

        Raises
        ------
        ImportError
            When pandas is not installed, saying so.
        """
        try:
            import pandas as pd
        except ImportError:
            raise ImportError("SweepResult.to_frame() needs pandas, which is not installed; "
                              "`pip install pandas`, or use .records (a list of dicts)") from None
        return pd.DataFrame.from_records(self.records)

    def summary(self, metric: str | None = None) -> list[dict[str, Any]]:
        """Per point: mean, standard error (over every replicate and data set), count, and the
        theory values (largest over the point's data sets).

        Returns
        -------
        list of dict
        """
        metric = metric or self.metric
        groups: dict[tuple, list[dict[str, Any]]] = {}
        for r in self.records:
            groups.setdefault(tuple(r[v] for v in self.variables), []).append(r)
        out = []
        for key, rows in groups.items():
            vals = np.array([r[metric] for r in rows], dtype=float)
            se = float(vals.std(ddof=1) / math.sqrt(vals.size)) if vals.size > 1 else math.nan
            row = {**dict(zip(self.variables, key)), "metric": metric, "mean": float(vals.mean()),
                   "se": se, "count": int(vals.size)}
            for what in ("bound", "rate"):
                got = [r[what] for r in rows if r.get(what) is not None]
                row[what] = max(got) if got else None
            out.append(row)
        return out

    def slope(self, metric: str | None = None) -> float:
        """Least-squares slope of log(mean metric) against log(the varied value) (one varied
        numeric variable)."""
        if len(self.variables) != 1:
            raise ValueError(f"slope() needs one varied variable, the sweep varies {self.variables}")
        rows = self.summary(metric)
        x = np.log([float(r[self.variables[0]]) for r in rows])
        y = np.log([r["mean"] for r in rows])
        return float(np.polyfit(x, y, 1)[0])

    def to_csv(self, path: str | Path | None = None) -> str:
        """The records as CSV (no pandas needed): one row per record, the columns of the
        first record in order, then any others; written to ``path`` when given.

        Returns
        -------
        str
            The CSV text.
        """
        cols = list(dict.fromkeys(k for r in self.records for k in r))
        buf = io.StringIO()
        w = csv.DictWriter(buf, fieldnames=cols, lineterminator="\n", restval="")
        w.writeheader()
        for r in self.records:
            w.writerow({k: "" if v is None else v for k, v in r.items()})
        text = buf.getvalue()
        if path is not None:
            Path(path).write_text(text, encoding="utf-8")
        return text

    def param_line(self, shown: Sequence[str] = ()) -> str:
        """The figure's parameter line: the objective's parameters and the fixed values not
        ``shown`` on an axis, replicates, data sets, seed (mathtext symbols)."""
        from dptheory.plotting import count, param_line
        st = self.settings
        values: dict[str, Any] = {}
        for k, v in {**st.get("objective_params", {}), **st.get("fixed", {})}.items():
            if k not in shown and k not in ("form",) and isinstance(v, (int, float)):
                values[k] = v
        reps, sets = st.get("reps"), st.get("datasets", 1)
        lead = [f"{st.get('algorithm_title', '')} on {st.get('objective', '')} (synthetic data)"
                if st.get("objective") else ""]
        extra = [count(reps, "replicate") + (f" x {sets} data sets" if sets and sets > 1 else "")
                 if reps else "", f"seed {st['seed']}" if "seed" in st else ""]
        if st.get("calibration", "paper") != "paper":
            extra.append(f"{st['calibration']} calibration")
        return param_line(values, lead=lead, extra=[e for e in extra if e])

    def plot(self, ax: Any = None, *, metric: str | None = None, x: str | None = None,
             hue: str | None = None, col: str | None = None, label: str = "") -> Any:
        """Means with 95 % percentile-bootstrap intervals against ``x``, one line per value
        of ``hue`` and one panel per value of ``col``, with the theory line of each group.

        The defaults: ``x`` is ``n`` when swept, else the first varied name; a second varied
        name becomes ``hue``, a third ``col``. Axis labels are the symbols' LaTeX names; the
        title is the parameter line (fixed values, replicates, data, seed). The theory line
        is the theorem's bound, or with ``constants="stated-rate"`` its stated rate labelled
        "constants set to 1". The matplotlib backend is left alone.

        Parameters
        ----------
        ax : draw on this Axes (not with ``col``); several sweeps on one Axes get one legend
            entry per distinct ``label``.
        metric : the measured column (default :attr:`metric`).
        x, hue, col : varied names.
        label : the series' legend name (default: what fixes this sweep, e.g. its eps).

        Returns
        -------
        matplotlib.axes.Axes, or a list of Axes with ``col``.

        Raises
        ------
        ValueError
            When a varied name is on no axis (its points would be averaged together) or a
            name is not varied.
        """
        from dptheory.plotting import sweep_figure, value_label
        from dptheory.registry import item_label
        metric = metric or self.metric
        if x is None:
            x = "n" if "n" in self.variables else self.variables[0]
        rest = [v for v in self.variables if v not in (x, hue, col)]
        if hue is None and rest:
            hue = rest.pop(0)
        if col is None and rest and ax is None:
            col = rest.pop(0)
        for name, what in ((x, "x"), (hue, "hue"), (col, "col")):
            if name is not None and name not in self.variables:
                raise ValueError(f"{what}={name!r} is not a varied name; the sweep varies "
                                 f"{self.variables}")
        if rest:
            raise ValueError(f"the sweep also varies {rest}: give each an axis (x=, hue=, "
                             f"col=) or plot a subset of the records")
        theory = None
        if self.theorem:
            what = "bound" if self.constants == "certified" else "rate"
            if any(r.get(what) is not None for r in self.records):
                theory = what
        where = item_label(self.theorem) if self.theorem else ""
        tlabel = (f"bound of {where}" if theory == "bound" else
                  f"stated rate of {where}, constants set to 1 (not a bound)")
        shown = [x, hue or "", col or ""]
        if hue is None:
            # one series: what fixes it goes in its legend label (so sweeps overlaid on one
            # Axes are told apart), not in a title the next sweep would overwrite
            fixed = self.settings.get("fixed", {})
            shown += list(fixed)
            if not label:
                label = ", ".join(value_label(k, v) for k, v in fixed.items()
                                  if isinstance(v, (int, float)))
        return sweep_figure(self.records, x=x, metric=metric, hue=hue, col=col, theory=theory,
                            theory_label=tlabel, label=label, params=self.param_line(shown),
                            ax=ax)

    def _repr_html_(self) -> str:
        from dptheory.display import html_table
        rows = self.summary()
        cols = [*self.variables, "mean", "se", "count", "bound", "rate"]
        head = (f"<p>{len(self.records)} records; metric <code>{self.metric}</code>"
                + (f"; theorem <code>{self.theorem}</code>" if self.theorem else "") + "</p>")
        return head + html_table(rows, cols)


def _points(vary: Mapping[str, Sequence[Any]]) -> list[dict[str, Any]]:
    if not isinstance(vary, Mapping) or not vary:
        raise UsageError("vary must be a non-empty mapping {name: [values, ...]}")
    names = list(vary)
    for k, vals in vary.items():
        if isinstance(vals, (str, bytes)) or not isinstance(vals, Sequence) or not vals:
            raise UsageError(f"vary[{k!r}] must be a non-empty list of values, got {vals!r}")
    return [dict(zip(names, combo)) for combo in itertools.product(*(vary[k] for k in names))]


def _as_float(p: Mapping[str, Any]) -> dict[str, Any]:
    """``p`` with eps and delta as floats (validated numbers)."""
    return {k: float(v) if k in ("eps", "delta") else v for k, v in p.items()}


def _validate_point(p: Mapping[str, Any]) -> None:
    for k in ("n", "d"):
        if k in p and (isinstance(p[k], bool) or not isinstance(p[k], (int, np.integer))
                       or p[k] < (2 if k == "n" else 1)):
            raise UsageError(f"{k} must be an integer >= {2 if k == 'n' else 1}, got {p[k]!r}")
    if "eps" in p and not (isinstance(p["eps"], (int, float)) and 0 < p["eps"] < math.inf):
        raise UsageError(f"eps must be a finite number > 0, got {p['eps']!r}")
    if "delta" in p and not (isinstance(p["delta"], (int, float)) and 0 <= p["delta"] < 1):
        raise UsageError(f"delta must be in [0, 1), got {p['delta']!r}")


def sweep(algorithm: str, objective: str | tuple[str, Mapping[str, Any]], vary: Mapping[str, Sequence[Any]],
          *, reps: int = 16, theorem: str | None = None, seed: int = 0, n_jobs: int = 1,
          fixed: Mapping[str, Any] | None = None, datasets: int = 1, block: int | None = None,
          metric: str | None = None, at: Mapping[str, float] | None = None,
          calibration: str = "paper", store: Any = None, scheduler: str | None = None,
          progress: bool = True, constants: str = "certified") -> SweepResult:
    """Run ``algorithm`` on ``objective`` over the grid ``vary`` and collect tidy records.

    Parameters
    ----------
    algorithm : a registered algorithm id (``dptheory algorithms``), e.g. ``"zhang2017.alg1"``.
    objective : a registered family name, or ``(name, params)`` (e.g. ``("logistic-ridge",
        {"d": 5, "mu": 0.1})``).
    vary : ``{name: [values]}``; names ``n``, ``d``, ``eps``, ``delta`` or any parameter of
        the algorithm. Several names give their product grid.
    reps : replicates per point and data set.
    theorem : a catalog id whose bound (or stated rate) each point carries.
    seed : base seed; every cell's seed is ``cell_seed(seed, its key)``.
    n_jobs : workers (``-1`` all cores; ``1`` in this process). Results do not depend on it.
    fixed : values for every point (``eps``, ``delta``, ``n`` or algorithm parameters).
    datasets : independent data sets per point (each with its own seed).
    block : replicates per cell (default ``reps``: one cell per point and data set).
    metric : the default metric of ``summary()``/``plot()`` (default: the algorithm's first).
    at : further values for the theory line (constants the objective does not certify).
    calibration : ``"paper"`` or ``"tight"`` noise calibration.
    store : a path or :class:`dptheory.store.Store`: cells are committed there as they
        finish, and the same call resumes an interrupted sweep.
    scheduler : a Dask scheduler address (``tcp://host:8786``) instead of local workers.
    progress : a progress bar (on a terminal, or in a notebook).
    constants : the theory line: ``"certified"`` (default) is the theorem's explicit bound
        at the objective's certified constants, ``at`` and the run's parameters, and a value
        none of them gives is an error naming it; ``"stated-rate"`` is the stated rate with
        its hidden constants set to 1, drawn and labelled as such (not a bound).

    Returns
    -------
    SweepResult

    Raises
    ------
    UsageError
        (a ValueError) for a bad argument, and with ``constants="certified"`` when the
        theorem's bound cannot be evaluated: it states only a rate, or it needs values
        (named in the message) that neither the objective nor ``at`` provides.

    Examples
    --------
    >>> r = sweep("zhang2017.alg1", ("logistic-ridge", {"d": 3}), {"n": [64, 128]}, reps=4,
    ...           fixed={"eps": 1.0, "delta": 0.0}, theorem="zhang2017.thm2.eps")
    >>> len(r.records), r.metric, r.variables
    (8, 'excess_risk', ['n'])
    >>> [round(row["bound"], 4) > 0 for row in r.summary()]
    [True, True]
    """
    from dptheory.parallel import cell_seed, run_cells
    from dptheory.store import Store

    if not isinstance(algorithm, str):
        raise UsageError(f"algorithm must be a registered id (str), got {type(algorithm).__name__}")
    from dptheory import registry
    registry.algorithm(algorithm)                    # unknown ids fail here, with suggestions
    name, obj_params = (objective, {}) if isinstance(objective, str) else objective
    if not isinstance(name, str) or not isinstance(obj_params, Mapping):
        raise UsageError("objective must be a family name or (name, {params})")
    registry.objective(name, **dict(obj_params))
    if constants not in CONSTANTS:
        raise UsageError(f"constants must be one of {CONSTANTS}, got {constants!r}")
    if theorem is not None:
        from dptheory import catalog
        item = catalog.get(theorem)
        if constants == "certified" and item.bound is None:
            raise UsageError(f"{theorem} states only a rate (its constants are hidden), so it "
                             "has no bound to draw; pass constants='stated-rate' to draw the "
                             "rate with its constants set to 1, labelled as such")
        if constants == "stated-rate" and item.rate is None:
            raise UsageError(f"{theorem} has no stated rate; use constants='certified'")
    for label, value, low in (("reps", reps, 1), ("datasets", datasets, 1),
                              ("block", block if block is not None else reps, 1)):
        if isinstance(value, bool) or not isinstance(value, (int, np.integer)) or value < low:
            raise UsageError(f"{label} must be an integer >= {low}, got {value!r}")
    if calibration not in ("paper", "tight"):
        raise UsageError(f"calibration must be 'paper' or 'tight', got {calibration!r}")
    fixed = dict(fixed or {})
    model_note = ""
    if theorem is not None:
        fixed, model_note = _privacy_model_delta(theorem, item.privacy_model(), vary, fixed)
    points = _points(vary)
    for p in points:
        _validate_point({**fixed, **p})
    # eps = 1 and eps = 1.0 are one point: one seed (a cell's seed hashes its key's JSON)
    fixed = _as_float(fixed)
    points = [_as_float(p) for p in points]
    vary = {k: [_as_float({k: v})[k] for v in vals] for k, vals in vary.items()}
    block = int(block or reps)
    base = {k: v for k, v in fixed.items() if k in _POINT_KEYS}
    params = {k: v for k, v in fixed.items() if k not in _POINT_KEYS}
    cells = []
    for p in points:
        point = {**base, **p}
        for j in range(int(datasets)):
            key = {"algorithm": algorithm, "objective": name, "objective_params": dict(obj_params),
                   "point": point, "params": params, "dataset": j, "calibration": calibration}
            s = cell_seed(int(seed), key)
            for start in range(0, int(reps), block):
                cells.append({**key, "seed": s, "data_seed": s, "first_replicate": start,
                              "reps": min(block, int(reps) - start), "theorem": theorem or "",
                              "at": dict(at or {})})
    st, run_id = None, None
    if store is not None:
        st = store if isinstance(store, Store) else Store(Path(store))
        config = json.dumps({"cells": [c for c in cells]}, sort_keys=True, default=str)
        run_id = "sweep-" + hashlib.sha256(config.encode()).hexdigest()[:12]
    got = run_cells(run_cell, cells, store=st, run_id=run_id, n_jobs=n_jobs,
                    scheduler=scheduler, progress=progress,
                    command=f"dptheory.sweep({algorithm!r}, {name!r})")
    records, missing = [], set()
    from dptheory.store import cell_key
    for c in cells:
        res = got[cell_key(c)]
        theory = res.get("theory") or {}
        missing.update(theory.get("missing", []))
        metrics = res["metrics"]
        for r in range(int(c["reps"])):
            rec = {**{k: c["point"][k] for k in vary}, "dataset": c["dataset"],
                   "replicate": c["first_replicate"] + r}
            rec.update({k: v[r] for k, v in metrics.items()})
            if theorem:
                rec["bound"] = theory.get("bound")
                rec["rate"] = theory.get("rate")
            records.append(rec)
    from dptheory import catalog as _catalog
    measured = list(records[0]) if records else []
    chosen = metric or default_metric(measured, _catalog.get(theorem) if theorem else None)
    if records and chosen not in records[0]:
        raise UsageError(f"metric {chosen!r} is not measured by {algorithm}; choose from "
                         f"{sorted(k for k in records[0] if k not in ('dataset', 'replicate'))}")
    if st is not None and not isinstance(store, Store):
        st.close()
    if theorem:
        _require(theorem, "bound" if constants == "certified" else "rate", cells, got,
                 sorted(missing))
    settings = {"algorithm": algorithm, "algorithm_title": registry.algorithm(algorithm).title,
                "objective": name, "fixed": fixed,
                "objective_params": {k: v for k, v in registry.objective(name, **dict(obj_params))
                                     .params().items() if k != "d" or "d" not in vary},
                "reps": int(reps), "datasets": int(datasets), "seed": int(seed),
                "calibration": calibration}
    if model_note:
        settings["privacy_model"] = model_note
    return SweepResult(records, list(vary), chosen, theorem or "", sorted(missing), run_id,
                       None if store is None else str(getattr(store, "path", store)),
                       len(got.computed), constants, settings)


def _privacy_model_delta(theorem: str, model: str, vary: Mapping[str, Sequence[Any]],
                         fixed: dict[str, Any]) -> tuple[dict[str, Any], str]:
    """Make the run's delta match the privacy model of the theorem drawn beside it.

    A bound for the eps-DP algorithm (zhang2017's Theorem 2 (1)) says nothing about the
    (eps, delta) run with its Gaussian noise, and the converse: drawing one over the other
    compares numbers about different algorithms. Unset delta takes the theorem's model
    (0 for eps-DP); a delta set against it is a usage error naming both.
    """
    given = list(vary.get("delta", [])) + ([fixed["delta"]] if "delta" in fixed else [])
    if model == "eps-DP":
        wrong = [v for v in given if v != 0]
        if wrong:
            raise UsageError(f"{theorem} is about the eps-DP run (delta = 0), but the sweep sets "
                             f"delta = {wrong[0]!r}: leave delta unset (or set it to 0), or draw "
                             "the theorem's (eps, delta)-DP part instead")
        if not given:
            return {**fixed, "delta": 0.0}, f"delta = 0 ({theorem} is about the eps-DP run)"
    elif model == "(eps,delta)-DP":
        wrong = [v for v in given if v == 0]
        if wrong:
            raise UsageError(f"{theorem} is about the (eps, delta)-DP run (delta > 0), but the "
                             "sweep sets delta = 0: set delta > 0, or draw the theorem's eps-DP "
                             "part instead")
    return fixed, ""


def _require(theorem: str, what: str, cells: list[dict[str, Any]], got: Any,
             missing: list[str]) -> None:
    """Raise when the theorem's ``what`` (bound or rate) is missing at a point: name the
    values it needs, or the evaluation's error."""
    from dptheory.store import cell_key
    for c in cells:
        theory = got[cell_key(c)].get("theory") or {}
        if theory.get(what) is not None:
            continue
        if theory.get(f"{what}_error"):
            why = f"its evaluation failed at {c['point']}: {theory[f'{what}_error']}"
        else:
            names = ", ".join(missing) or "a value"
            why = (f"it needs {names}, which neither the objective's certified constants nor "
                   f"at= provide (give them: at={{{', '.join(f'{m!r}: ...' for m in missing)}}})")
        hint = ("; or pass constants='stated-rate' to draw its stated rate with constants "
                "set to 1, labelled as such" if what == "bound" else "")
        raise UsageError(f"the {'bound' if what == 'bound' else 'stated rate'} of {theorem} "
                         f"cannot be drawn: {why}{hint}")
