"""The verification engine behind ``dptheory verify``.

1. Collect recipes (``dptheory.experiments`` entry points), keep the quick ones for
   ``--quick`` (all for ``--full``) and those named by ``--only``. A recipe whose
   ``requires`` says this machine lacks something (a data package) is not run and is
   reported inconclusive with the reason.
2. Expand them into cells: sweep points x independent data sets x replicate blocks. Every
   block of one (point, data set) shares its seed, ``cell_seed(seed, {recipe, point,
   dataset})``, and differs by its first replicate, so results do not depend on the block
   size, the worker count or the scheduler.
3. Run the cells with :func:`dptheory.parallel.run_cells` into the SQLite store; the run id
   is a hash of the configuration, so the same command resumes an interrupted run without
   recomputing finished cells.
4. Pool the blocks per (point, data set) and judge each recipe at the logic of its claim
   (:mod:`dptheory.verify.checks`). A rate check that is pre-asymptotic or lacks power is
   *extended*: the sweep grows by the recipe's factor, round after round, within its budget
   (the rounds are deterministic, so a resumed run replays them from the store).
5. Add the symbolic verdicts (derivations, hypotheses, dimensions) and the property checks
   registered under ``dptheory.checks``. Every ``refuted`` verdict becomes a graded
   :class:`~dptheory.verify.verdict.Finding`; refutations sharing a root cause are merged;
   refutations of dptheory's own ``corrected``/``reconstructed`` items are kept apart, as
   checks of dptheory, never as findings of the paper.
"""

from __future__ import annotations

import hashlib
import json
import math
import time
from dataclasses import dataclass, field
from importlib.metadata import entry_points
from pathlib import Path
from typing import Any, Iterable

import numpy as np

from dptheory import registry
from dptheory.errors import UsageError
from dptheory.verify.recipe import (Recipe, as_lines, constants_varied, load_cell_function,
                                    merge_constants, missing, recording)
from dptheory.verify.verdict import CheckResult, Finding, split_findings

EXPERIMENTS_GROUP = "dptheory.experiments"


def recipes() -> list[Recipe]:
    """Every recipe of the ``dptheory.experiments`` entry points (by entry-point name); a
    recipe id given twice is an error."""
    out: list[Recipe] = []
    seen: set[str] = set()
    for ep in sorted(entry_points(group=EXPERIMENTS_GROUP), key=lambda e: e.name):
        for r in ep.load().RECIPES:
            if r.id in seen:
                raise RuntimeError(f"duplicate recipe id {r.id}")
            seen.add(r.id)
            out.append(r)
    return out


def select(all_recipes: list[Recipe], *, full: bool, only: Iterable[str] | None) -> list[Recipe]:
    """The recipes to run: the quick ones (all with ``full``), or those named in ``only``
    by recipe id (whatever the mode) or by item id (in the mode). An id that is neither a
    recipe, an item nor a check is a :class:`UsageError`."""
    chosen = [r for r in all_recipes if full or r.quick]
    if only:
        only = list(only)
        known = {r.id for r in all_recipes} | {r.item for r in all_recipes} | set(registry.items())
        for o in only:
            if o not in known and not any(c.id == o for c in registry.checks()):
                raise UsageError(f"unknown id {o!r}; see `dptheory list` or the report's recipes")
        # a recipe named by its id runs whatever the mode; by its item, only in its mode
        chosen = [r for r in all_recipes
                  if r.id in only or (r.item in only and (full or r.quick))]
    return chosen


def dispatch(cell: dict[str, Any]) -> Any:
    """Top-level (picklable) cell runner: calls the recipe's cell function and adds to its
    output the certified constants reported while it ran (``constants``, merged with those
    the cell returned itself)."""
    with recording() as seen:
        out = load_cell_function(cell["cell_fn"])(cell)
    if isinstance(out, dict) and (seen or "constants" in out):
        out = {**out, "constants": merge_constants(out.get("constants"), *seen)}
    return out


def with_constants(res: CheckResult, outputs: Iterable[Any], note: str = "") -> CheckResult:
    """``res`` with ``evidence["constants_varied"]``: one line per certified constant the
    check's cells ran at (:func:`~dptheory.verify.recipe.constants_varied`), after the lines
    the check wrote itself (kept; a constant named in both keeps the check's line), then the
    recipe's ``note`` on why no constant needs to move (``constants_note``). Cells stored
    before cells reported constants add nothing."""
    found = merge_constants(*(o.get("constants") for o in outputs if isinstance(o, dict)))
    own = as_lines(res.evidence.get("constants_varied"))
    named = {line.split(":", 1)[0].strip() for line in own if ":" in line}
    lines = own + [line for line in constants_varied(found)
                   if line.split(":", 1)[0].strip() not in named]
    if note:
        lines.append(f"scale not varied: {note}")
    if not lines:
        return res
    return res.replace(evidence={**res.evidence, "constants_varied": lines})


def build_cells(chosen: list[Recipe], *, full: bool, seed: int,
                extra: dict[str, list[Any]] | None = None) -> list[dict[str, Any]]:
    """The cells of the chosen recipes (``extra``: sweep points added by extension rounds)."""
    from dptheory.parallel import cell_seed
    cells = []
    for r in chosen:
        for c in r.cells(full=full, seed=seed, extra_points=(extra or {}).get(r.id, ())):
            key = {"recipe": r.id, "point": c["point"]}
            if c["dataset"]:                  # data set 0 keeps the point's seed
                key["dataset"] = c["dataset"]
            c["seed"] = cell_seed(seed, key)
            c["cell_fn"] = r.cell
            cells.append(c)
    return cells


# ------------------------------------------------------------------------------- pooling
def _merge(blocks: list[dict[str, Any]]) -> dict[str, Any]:
    merged: dict[str, Any] = dict(blocks[0])
    for key in ("samples", "scores_in", "scores_out", "in_domain_flags"):
        if key in blocks[0]:
            merged[key] = [v for b in blocks for v in b.get(key, [])]
    if "in_domain" in blocks[0]:
        w = [len(b.get("samples", [])) or 1 for b in blocks]
        merged["in_domain"] = float(np.average([b.get("in_domain", 1.0) for b in blocks], weights=w))
    if blocks[0].get("exact") is not None:
        # an exact expectation is the same in every block; an exact worst case over a block's
        # own instances (zhang2017 Lemmas 5 and 8: the worst start) is not: the claim is
        # judged at the worst block (largest for an upper bound, smallest for a lower one)
        lower = blocks[0].get("direction") == "lower"
        top = (min if lower else max)(blocks, key=lambda b: b["exact"])
        merged.update({"exact": top["exact"], "derivation": top.get("derivation", "")})
    if "measured" in blocks[0]:
        worst = max(blocks, key=lambda b: b.get("measured", -math.inf))
        merged["measured"] = worst["measured"]
        merged["worst"] = worst.get("worst")
        if all("certified_sup" in b for b in blocks):
            # each block certifies sup <= U_j on its own instance (bound b_j): judge the block
            # of largest measured/b_j with the weakest certificate max_j U_j/b_j in its units
            top = max(blocks, key=lambda b: b["measured"] / b["bound"])
            k = max(b["certified_sup"] / b["bound"] for b in blocks)
            merged.update({"measured": top["measured"], "worst": top.get("worst"),
                           "bound": top["bound"], "certified_sup": k * top["bound"],
                           "derivation": top["derivation"]})
    return merged


def _pool(results: list[tuple[dict, dict]], r: Recipe, full: bool,
          extra: Iterable[Any] = ()) -> dict[Any, dict[str, Any]]:
    """Blocks pooled per sweep point: ``samples`` concatenated (data set, then replicate
    order), ``groups`` the samples of each data set, and the first block's other keys."""
    by_point: dict[Any, dict[int, list[tuple[int, dict]]]] = {}
    for res, cell in results:
        x = cell["point"][r.variable]
        by_point.setdefault(x, {}).setdefault(int(cell.get("dataset", 0)), []).append(
            (cell["first_replicate"], res))
    pooled = {}
    for x in [*r.points(full), *extra]:
        sets = by_point.get(x)
        if not sets:
            continue
        per_set = {j: _merge([res for _, res in sorted(blocks, key=lambda t: t[0])])
                   for j, blocks in sorted(sets.items())}
        merged = _merge(list(per_set.values()))
        if "samples" in merged:
            merged["sets"] = list(per_set.values())
            merged["groups"] = [p["samples"] for p in per_set.values()]
            merged["datasets"] = {str(j): {k: p.get(k) for k in ("bound", "in_domain",
                                                              "start_passes", "trivial")}
                                  for j, p in per_set.items()}
            if any(p.get("hypotheses_hold") is False for p in per_set.values()):
                merged["hypotheses_hold"] = False
            if any(p.get("trivial") is not None for p in per_set.values()):
                merged["trivial"] = max(p["trivial"] for p in per_set.values()
                                        if p.get("trivial") is not None)
            merged["bound_max"] = max((p["bound"] for p in per_set.values()
                                       if p.get("bound") is not None), default=None)
            merged["start_passes"] = any(p.get("start_passes") for p in per_set.values())
        pooled[x] = merged
    return pooled


# ------------------------------------------------------------------------------- judging
def rate_hides_polylog(item_id: str, variable: str) -> bool:
    """Whether the stated rate of ``item_id`` may hide polylogarithmic factors in the swept
    ``variable``: an O~ rate, or a rate with a logarithm whose argument contains it. A slope
    check may only support a slope above the rate's exponent (within its tolerance) when
    this holds; the local slopes of an explicit bound carry their logs already."""
    item = registry.items().get(item_id)
    if item is None or item.rate is None:
        return False
    if item.rate_notation == "Otilde":
        return True
    import sympy as sp
    return any(str(s) == variable for lg in item.rate.atoms(sp.log) for s in lg.free_symbols)


def _grading(r: Recipe, result: CheckResult) -> CheckResult:
    """The recipe's severity, consequence and root cause on a refutation."""
    if result.verdict != "refuted":
        return result
    return result.replace(severity=r.severity or result.severity or "bound",
                          consequence=r.consequence or result.consequence,
                          root=r.root or result.root)


def _vacuity(p: dict[str, Any], bound_key: str = "bound") -> str | None:
    """Why the claim cannot bind at a pooled point (None if it can)."""
    dom = p.get("in_domain")
    if dom is not None and dom < 1:
        return (f"the run left the claim's assumptions (certified domain) in "
                f"{1 - dom:.0%} of replicates")
    if p.get("hypotheses_hold") is False:
        return "the run does not satisfy the theorem's hypotheses at these settings"
    if p.get("start_passes"):
        return "the start point already satisfies the claim's target"
    b, t = p.get(bound_key), p.get("trivial")
    if p.get("direction") == "lower":            # trivial is the smallest possible value
        if b is not None and t is not None and b <= t:
            return (f"the lower bound {b:.4g} is at or below the smallest value the quantity "
                    f"can take ({t:.4g}): it cannot bind")
        return None
    if b is not None and t is not None and b >= t:
        return (f"the bound {b:.4g} is at or above the largest value the quantity can take "
                f"({t:.4g}{', ' + p['trivial_source'] if p.get('trivial_source') else ''})")
    return None


def _with_crossing(r: Recipe, res: Any, pooled: dict[Any, dict[str, Any]]) -> Any:
    """A vacuous result with where its bound would bind (summary, and evidence
    ``binds_at`` when a cell solved it)."""
    solved = [pooled[x]["binds_at"] for x in sorted(pooled) if pooled[x].get("binds_at")]
    ev = {**res.evidence, "binds_at": solved[-1]} if solved else res.evidence
    return res.replace(summary=res.summary + _crossing(r, pooled), evidence=ev)


def _crossing(r: Recipe, pooled: dict[Any, dict[str, Any]]) -> str:
    """Where a bound that is vacuous over the sweep would reach the trivial range: solved by
    the cell when it reports ``binds_at`` (the value of the variable where the bound, at the
    instance's constants and the theorem's settings, meets the trivial range, with ``how``
    and, when not run, ``cost``), else a log-log extrapolation of bound / trivial over the
    sweep ("" if it does not decrease)."""
    solved = [pooled[x]["binds_at"] for x in sorted(pooled) if pooled[x].get("binds_at")]
    if solved:
        b = solved[-1]                    # the largest sweep point's instance
        at = b.get("at")
        if at is None:
            return f"; the bound never meets the trivial range ({b.get('how', '')})"
        cost = f"; not run: {b['cost']}" if b.get("cost") else ""
        return (f"; the bound binds from {r.variable} ≈ {float(at):.4g} ({b.get('how', '')})"
                f"{cost}")
    xs = [x for x in sorted(pooled) if isinstance(x, (int, float)) and x > 0
          and pooled[x].get("bound_max") and pooled[x].get("trivial")
          and pooled[x]["bound_max"] > 0 and pooled[x]["trivial"] > 0]
    if len(xs) < 2:
        return ""
    ratio = np.log([pooled[x]["bound_max"] / pooled[x]["trivial"] for x in xs])
    k, c = np.polyfit(np.log(xs), ratio, 1)
    if k >= 0 or ratio.min() <= 0:
        return ""
    x_star = float(np.exp(-c / k))
    return (f"; extrapolating bound/trivial over the sweep (slope {k:.3g}), the bound would "
            f"reach the trivial range near {r.variable} = {x_star:.3g}")


def _pinned(p: dict[str, Any]) -> str | None:
    """A rate measurement stuck at the largest value its quantity can take (e.g. min_t of a
    gradient norm equal to its value at the start): the run measures the instance, not the
    algorithm's progress, so the claimed decay cannot show."""
    t = p.get("trivial")
    if t is None or t <= 0 or not p.get("samples"):
        return None
    m = float(np.mean(p["samples"]))
    if m >= 0.99 * t:
        return (f"the measured mean {m:.4g} sits at the largest value the quantity can take "
                f"({t:.4g}{', ' + p['trivial_source'] if p.get('trivial_source') else ''}): "
                "the run measures the instance, not the algorithm")
    return None


def _with_envelope(res: CheckResult, pooled: dict[Any, dict[str, Any]], expected: float,
                   tolerance: float, polylog: bool, q: str) -> CheckResult:
    """A slope check decided by certified envelopes of the measured mean (cells that report
    ``envelope``: closed forms ``L <= E[X] <= U`` at large x with the data set's constants
    held fixed, and ``envelope_here``: the same sandwich at the run itself).

    The envelopes are trusted only if every measured mean is consistent with its own
    sandwich (one-sided limits at the Bonferroni share of all data sets: a mean shown below
    L or above U means the derivation does not hold, and the sampled verdict stands). Each
    data set of the largest sweep point is then judged by
    :func:`~dptheory.verify.checks.envelope_rate_check`; a decided envelope verdict replaces
    the sampled one (which stays in the evidence), an undecided one leaves it.
    """
    from dptheory.stats import one_sided_limits
    from dptheory.verify import checks as C

    xs = sorted(pooled)
    sets = [(x, j, ps) for x in xs for j, ps in enumerate(pooled[x]["sets"])]
    level = 1 - (1 - 0.95) / max(1, len(sets))
    outside = []
    for x, j, ps in sets:
        here = ps.get("envelope_here")
        if not here:
            return res
        lo, hi = one_sided_limits(ps["samples"], level)
        if lo > here["upper"] * (1 + 1e-9) or hi < here["lower"] * (1 - 1e-9):
            outside.append(f"x={x} data set {j}: mean in [{lo:.4g}, {hi:.4g}], envelope "
                           f"[{here['lower']:.4g}, {here['upper']:.4g}]")
    if outside:
        return res.replace(summary=f"{res.summary}; the certified envelope is contradicted by "
                           f"the measurement ({'; '.join(outside[:3])}): not used",
                           evidence={**res.evidence, "envelope_outside": outside})
    top = xs[-1]
    parts = {f"data set {j}": C.envelope_rate_check(
        ps["envelope"]["xs"], ps["envelope"]["lower"], ps["envelope"]["upper"], expected,
        tolerance=tolerance, polylog=polylog, derivation=ps["envelope"]["derivation"],
        quantity=q) for j, ps in enumerate(pooled[top]["sets"])}
    env = C.combine(parts, what="data sets")
    consistent = (f"every measured mean ({len(sets)} data sets over the sweep) lies within its "
                  "certified envelope")
    ev = {**res.evidence, "envelope": {**env.evidence, "verdict": env.verdict,
                                       "consistency": consistent, "at_sweep_point": top},
          "sampled": {"verdict": res.verdict, "summary": res.summary}}
    if env.verdict in ("supported", "refuted"):
        return env.replace(summary=f"{env.summary}; {consistent}; the sampled slope over the "
                           f"sweep ({res.verdict}): {res.summary}", evidence=ev)
    return res.replace(summary=f"{res.summary}; certified envelopes undecided: {env.summary}",
                       evidence=ev)


def _start_vacuity(res: CheckResult, pooled: dict[Any, dict[str, Any]], expected: float,
                   tolerance: float, polylog: bool, q: str) -> CheckResult:
    """Vacuous when the instance satisfies the claimed rate for *any* algorithm: cells report
    ``start_envelope`` (``value``: a certified bound on the mean over data sets of the
    quantity's largest value, e.g. ||grad F(w0)|| for a min over t that includes t = 0, and
    its ``derivation``). If its exact slope over the sweep is stable and within the claim
    (:func:`~dptheory.verify.checks.rate_check` supported on the exact values), the start
    alone already meets the claimed rate: the check cannot fail on this instance."""
    from dptheory.verify import checks as C

    xs = sorted(pooled)
    vals = [float(pooled[x]["start_envelope"]["value"]) for x in xs]
    start = C.rate_check(xs, [[[v]] for v in vals], expected, tolerance=tolerance,
                         polylog=polylog, n_boot=50, quantity="start envelope")
    ev = {**res.evidence, "start_envelope": {"values": vals, "verdict": start.verdict,
                                             "summary": start.summary,
                                             "derivation": pooled[xs[-1]]["start_envelope"]["derivation"]}}
    if start.verdict != "supported":
        return res.replace(evidence=ev)
    if res.verdict == "refuted":      # the measured mean is below the envelope: a fluke
        return CheckResult("inconclusive", f"{res.summary}; but this contradicts the certified "
                           f"start envelope ({start.summary}): not a refutation", ev, claim="rate")
    return CheckResult("vacuous", f"{q}: the claim holds on this instance for any algorithm: "
                       f"{pooled[xs[-1]]['start_envelope']['derivation']}; this bound decays at "
                       f"slope {start.evidence['slope']:.4g} (exact) vs the claimed "
                       f"{expected:.4g}, so the run measures the instance, not the algorithm "
                       f"(sampled: {res.summary})", ev, claim="rate")


def evaluate(r: Recipe, pooled: dict[Any, dict[str, Any]]) -> CheckResult:
    """Judge a recipe from its pooled points, at the logic of its claim."""
    from dptheory.verify import checks as C

    xs = sorted(pooled)
    if not xs:
        return CheckResult("inconclusive", "no finished cells", {})
    q = r.metric or "measured"
    if r.check in ("bound", "stability"):
        # An explicit upper bound E[X] <= b at every (point, data set) -- for stability, at
        # every pair of neighbouring data sets (each data set is a pair): each instance is
        # tested at its Bonferroni share; over-data claims test the mean of the data sets.
        tests = sum(1 if r.over_data else len(pooled[x]["sets"]) for x in xs)
        parts: dict[str, CheckResult] = {}
        for x in xs:
            p = pooled[x]
            if r.over_data:
                insts = [("", {**p, "samples": [float(np.mean(g)) for g in p["groups"]],
                               "bound": p["bound_max"]})]
            else:
                insts = [(f" data set {j}" if len(p["sets"]) > 1 else "", ps)
                         for j, ps in enumerate(p["sets"])]
            for tag, ps in insts:
                why = _vacuity(ps)
                if ps.get("exact") is not None:     # an exact expectation: no sampling error
                    res = C.exact_check(ps["exact"], ps["bound"], trivial=ps.get("trivial"),
                                        trivial_source=ps.get("trivial_source", ""),
                                        derivation=ps.get("derivation", ""), quantity=q,
                                        direction=ps.get("direction", "upper"),
                                        kind=ps.get("exact_kind", "exact expectation"))
                else:
                    res = C.bound_check(ps["samples"], ps["bound"], trivial=ps.get("trivial"),
                                        trivial_source=ps.get("trivial_source", ""),
                                        in_domain=ps.get("in_domain"), tests=tests, quantity=q,
                                        direction=ps.get("direction", "upper"))
                if why and res.verdict not in ("refuted", "vacuous"):
                    res = CheckResult("vacuous", f"{why}; {res.summary}", res.evidence,
                                      claim="upper-bound")
                parts[f"{r.variable}={x}{tag}"] = res
        res = C.combine(parts)
        if res.verdict == "vacuous":
            res = _with_crossing(r, res, pooled)
        return _grading(r, res)
    if r.check == "slope":
        groups = [pooled[x]["groups"] for x in xs]
        vac = [_vacuity(pooled[x]) or _pinned(pooled[x]) for x in xs]
        expected: Any = r.expected_slope
        source = "the printed rate"
        if expected is None:
            bounds = [pooled[x].get("bound_max") for x in xs]
            if any(b is None or not (b > 0) for b in bounds):
                return CheckResult("inconclusive", "no claimed exponent and no bounds to take "
                                   "it from", {}, claim="rate")
            lb, lx = np.log(bounds), np.log(xs)
            expected = list(np.diff(lb) / np.diff(lx))
            source = "the local slopes of the theorem's explicit bound over the sweep"
        polylog = r.expected_slope is not None and rate_hides_polylog(r.item, r.variable)
        res = C.rate_check(xs, groups, expected, tolerance=r.tolerance, vacuous=vac, quantity=q,
                           polylog=polylog, quantile=r.quantile)
        if res.verdict == "vacuous":
            res = _with_crossing(r, res, pooled)
        if r.expected_slope is not None and any(pooled[x].get("envelope") for x in xs):
            res = _with_envelope(res, pooled, float(r.expected_slope), r.tolerance, polylog, q)
        if r.expected_slope is not None and all(pooled[x].get("start_envelope") for x in xs):
            res = _start_vacuity(res, pooled, float(r.expected_slope), r.tolerance, polylog, q)
        # an estimate on one side of the claimed quantity decides in one direction only
        for why, side, blocked, cannot, only in (
                (r.lower_estimate, "a lower", "supported", "a slope within the claim cannot "
                 "support it", "only a shallower one refutes"),
                (r.upper_estimate, "an upper", "refuted", "a shallower slope cannot refute it",
                 "only a slope within the claim supports")):
            if why and res.verdict == blocked:
                res = CheckResult("inconclusive", f"{res.summary}; not {blocked}: the measured "
                                  f"quantity is {side} estimate of the claimed one ({why}), so "
                                  f"{cannot} ({only})", res.evidence, claim="rate")
        if r.undecided and res.verdict in ("inconclusive", "vacuous"):
            res = res.replace(summary=f"{res.summary}. Where it would decide: {r.undecided}")
        ev = dict(res.evidence)
        ev.update({"expected_source": source, "variable": r.variable,
                   "bounds": [pooled[x].get("bound_max") for x in xs]})
        return _grading(r, res.replace(evidence=ev))
    if r.check == "sensitivity":
        parts = {}
        for x in xs:
            p = pooled[x]
            parts[f"{r.variable}={x}"] = C.sup_check(
                p["measured"], p["bound"], example=p.get("worst"), quantity=q,
                certified_sup=p.get("certified_sup"), derivation=p.get("derivation", ""))
        return _grading(r, C.combine(parts))
    if r.check == "audit":
        from dptheory.verify.audit import evaluate_recipe
        return _grading(r, evaluate_recipe(r, pooled))
    raise ValueError(f"unknown check kind {r.check}")


def _wants_more(r: Recipe, res: CheckResult, added: int, full: bool) -> bool:
    """A rate check that cannot decide yet, with budget left: extend its sweep."""
    if r.check != "slope" or not r.extend or res.verdict != "inconclusive":
        return False
    budget = r.extend.get("full" if full else "quick", 0)
    return added < budget


def _next_point(r: Recipe, last: Any) -> Any:
    nxt = last * r.extend.get("factor", 2)
    return int(round(nxt)) if isinstance(last, int) else float(nxt)


# ------------------------------------------------------------------------------- runner
@dataclass
class Verdict:
    """One verdict of a run: a :class:`CheckResult` with the ids of the recipe or check
    and of its catalog item, the kind of check and the command that reproduces it.
    """

    id: str            # recipe or check id
    item: str
    check: str
    verdict: str
    summary: str
    evidence: dict[str, Any] = field(default_factory=dict)
    reproduce: str = ""
    claim: str = ""
    severity: str | None = None
    consequence: str = ""
    power: dict[str, Any] | None = None
    root: str = ""

    @classmethod
    def of(cls, id: str, item: str, check: str, res: CheckResult, reproduce: str) -> "Verdict":
        """The verdict of ``res`` for check ``id`` of ``item``."""
        return cls(id, item, check, res.verdict, res.summary, res.evidence, reproduce,
                   res.claim, res.severity, res.consequence, res.power, res.root)

    def as_dict(self) -> dict[str, Any]:
        """The verdict's fields as a dict."""
        return dict(self.__dict__)


@dataclass
class VerifyResult:
    """What :func:`run_verify` returns: the verdicts, the findings of the papers and the
    refutations of dptheory's own items, the pooled cells per recipe, the run id, the
    report directory, timing and cell counts, the uncovered items, the undecided symbolic
    checks and the sweep points added by extension.
    """

    mode: str
    verdicts: list[Verdict]
    findings: list[Finding]
    recipes: list[Recipe]
    pooled: dict[str, dict[Any, dict[str, Any]]]
    run_id: str
    out: Path
    elapsed: float
    computed: int
    total_cells: int
    unchecked: list[dict[str, str]]
    symbolic_findings: list[Finding]
    own_items: list[Finding] = field(default_factory=list)    # refutations of dptheory's items
    notes: list[dict[str, Any]] = field(default_factory=list)  # undecided symbolic checks
    extended: dict[str, list[Any]] = field(default_factory=dict)
    seed: int = 0
    only: list[str] | None = None       # the ids selected by --only (None: the whole mode)
    command: str = ""                   # the command line (set by the CLI)
    # CPU seconds of the work beside the cells (symbolic checks, audit powers) and where it ran
    beside: dict[str, Any] = field(default_factory=dict)


def config_id(mode: str, only: Iterable[str] | None, seed: int, ids: list[str]) -> str:
    """The run id of a configuration: a hash of the mode, ``only``, the seed and the recipe
    ids, so the same command resumes the same run."""
    text = json.dumps({"mode": mode, "only": sorted(only or []), "seed": seed, "recipes": ids},
                      sort_keys=True)
    return f"verify-{mode}-" + hashlib.sha256(text.encode()).hexdigest()[:12]


def to_finding(v: Verdict) -> Finding:
    """The finding of a refuted verdict, with its item's statement provenance."""
    from dptheory.verify.findings import provenance
    return Finding(v.item, v.id, v.summary, v.evidence, v.reproduce, v.severity or "bound",
                   v.consequence, v.root, provenance(v.item))


def run_verify(*, full: bool = False, only: list[str] | None = None, out: str | Path = "dptheory-report",
               scheduler: str | None = None, n_jobs: int = -1, seed: int = 0,
               progress: bool = True, symbolic: bool = True) -> VerifyResult:
    """Run the verification and return its :class:`VerifyResult` (steps 1 to 5 of this
    module's description).

    The cells go to ``out/results.sqlite`` under a run id fixed by the configuration, so an
    interrupted run resumes; slope checks that cannot decide are extended within their
    budget; ``symbolic`` adds the derivation, hypothesis, dimension and property checks.
    Findings not already stored for this run are added to the store."""
    from dptheory.parallel import run_cells
    from dptheory.store import Store, cell_key

    start = time.perf_counter()
    mode = "full" if full else "quick"
    out = Path(out)
    try:
        out.mkdir(parents=True, exist_ok=True)
        probe = out / ".write-test"
        probe.write_text("")
        probe.unlink()
    except OSError as exc:
        raise UsageError(f"--out {out} is not writable: {exc.strerror or exc}") from None
    all_recipes = recipes()
    chosen = select(all_recipes, full=full, only=only)
    # the symbolic checks and the audits' ideal powers need no cell: with the cells in
    # other processes they are computed beside them, in a forked process (beside.py)
    from dptheory.verify.audit import learn_power
    from dptheory.verify.beside import Beside, audit_powers, power_keys, symbolic_part
    beside = Beside([(audit_powers, (power_keys(chosen, full),)),
                     *([(symbolic_part, (only, symbolic_verdicts))] if symbolic else [])],
                    parallel=scheduler is not None or n_jobs != 1)
    store = Store(out / "results.sqlite")
    try:                    # the connection is closed however the run ends
        run_id = config_id(mode, only, seed, [r.id for r in chosen])
        extra: dict[str, list[Any]] = {}
        results: dict[str, Any] = {}
        computed = 0
        # recipes this machine cannot run (a data package not installed) are reported, not run
        not_run = {r.id: why for r in chosen if (why := missing(r))}
        todo = [r for r in chosen if r.id not in not_run]
        judged: dict[str, CheckResult] = {}
        pooled_all: dict[str, dict[Any, dict[str, Any]]] = {}
        all_cells: list[dict[str, Any]] = []
        powers_learned = False
        while todo:
            cells = build_cells(todo, full=full, seed=seed, extra=extra)
            fresh = [c for c in cells if cell_key(c) not in results]
            got = run_cells(dispatch, fresh, store=store, run_id=run_id, n_jobs=n_jobs,
                            scheduler=scheduler, progress=progress,
                            command=f"dptheory verify --{mode}")
            computed += len(got.computed)
            for c in fresh:
                results[cell_key(c)] = got[cell_key(c)]
            all_cells += fresh
            if not powers_learned:     # after the first round's cells: the beside process has
                for key, power in beside.result(0)[0].items():   # had their time to compute them
                    learn_power(key, power)
                powers_learned = True
            again = []
            for r in todo:
                mine = [(results[cell_key(c)], c) for c in cells if c["recipe"] == r.id]
                pooled = _pool(mine, r, full, extra.get(r.id, ()))
                pooled_all[r.id] = pooled
                res = with_constants(evaluate(r, pooled), (o for o, _ in mine),
                                     r.constants_note)
                judged[r.id] = res
                if _wants_more(r, res, len(extra.get(r.id, [])), full):
                    last = max(pooled) if pooled else r.points(full)[-1]
                    extra.setdefault(r.id, []).append(_next_point(r, last))
                    again.append(r)
            todo = again
        for rid, why in not_run.items():
            judged[rid] = CheckResult("inconclusive", f"not run on this machine: {why}",
                                      {"not_run": why})
        verdicts = [Verdict.of(r.id, r.item, r.check, judged[r.id],
                               f"dptheory verify --{mode} --only {r.id}") for r in chosen]
        notes: list[dict[str, Any]] = []
        sym_findings: list[Finding] = []
        beside_cpu = {"forked": beside.forked, "audit_powers": beside.result(0)[1]}
        if symbolic:
            part = beside.result(1)
            verdicts += part.verdicts
            sym_findings, notes = part.findings, part.notes
            beside_cpu["symbolic"] = part.cpu
        raw = [to_finding(v) for v in verdicts if v.verdict == "refuted"] + sym_findings
        findings, own = split_findings(raw)
        stored = {(f["id"], f["check"]) for f in store.findings(run_id)}
        for f in findings + own:
            if (f.id, f.check) not in stored:       # a resumed run does not store them twice
                store.add_finding(f, run_id)
    finally:
        beside.close()
        store.close()
    unchecked = coverage(all_recipes, verdicts)
    return VerifyResult(mode, verdicts, findings, chosen, pooled_all, run_id, out,
                        time.perf_counter() - start, computed, len(all_cells), unchecked,
                        sym_findings, own, notes, extra, seed, list(only) if only else None,
                        f"run_verify(full={full}, only={only!r}, seed={seed})", beside_cpu)


def symbolic_verdicts(only: list[str] | None) -> list[Verdict]:
    """Derivation verdicts of the catalog and the registered property checks."""
    from dptheory.verify.findings import derivation_results
    out = []
    for item in registry.items().values():
        if not item.derivable or (only and item.id not in only):
            continue
        for cid, res in derivation_results(item):
            out.append(Verdict.of(cid, item.id, "derivation", res, f"dptheory derive {item.id}"))
    for check in registry.checks():
        if only and check.id not in only and check.item not in only:
            continue
        out.append(Verdict.of(check.id, check.item, "property", check.run(), check.reproduce))
    return out


REASONS = {
    "definition": "a definition: nothing to measure (its objects are used by the checks)",
    "assumption": "an assumption: certified on the objectives by certify(), not a claim of the paper",
    "algorithm": "an algorithm: implemented by a simulator and exercised by the recipes of its theorems",
    "prior-work-rate": "a quoted prior-work rate: compared symbolically (compare/table), no simulator of the cited work",
}


def coverage(all_recipes: list[Recipe], verdicts: list[Verdict]) -> list[dict[str, str]]:
    """Items no recipe or check covers, with the reason."""
    covered = {r.item for r in all_recipes} | {v.item for v in verdicts}
    out = []
    for item in registry.items().values():
        if item.id in covered:
            continue
        reason = REASONS.get(item.kind)
        if reason is None:
            if item.category in ("experiment",) or item.id.endswith(".exp"):
                reason = "an experimental claim on real data/networks: not reproducible offline"
            elif item.rate is None and item.bound is None and not item.relations:
                reason = "qualitative statement: no quantity to measure"
            else:
                reason = "no simulator recipe or property check yet"
        out.append({"id": item.id, "kind": item.kind, "reason": reason})
    return out
