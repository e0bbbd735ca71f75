"""The verification engine behind ``dptheory verify`` (issue 6).

1. Collect recipes (``dptheory.experiments`` entry points), keep the quick ones for
   ``--quick`` (all for ``--full``) and those named by ``--only``.
2. Expand them into cells; every block of one sweep point shares the point's seed,
   ``cell_seed(seed, {recipe, point})``, and differs by its first replicate, so results do
   not depend on the block size, the worker count or the scheduler.
3. Run the cells with :func:`dptheory.parallel.run_cells` into the SQLite store; the run id
   is a hash of the configuration, so the same command resumes an interrupted run without
   recomputing finished cells.
4. Pool the blocks per point and evaluate each recipe's check; add the symbolic derivation
   verdicts and the property checks registered under ``dptheory.checks``.
5. Every ``fail`` is a finding, stored and reported with the command that reproduces it.
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
from dptheory.verify.recipe import Recipe, load_cell_function
from dptheory.verify.verdict import CheckResult, Finding

EXPERIMENTS_GROUP = "dptheory.experiments"


def recipes() -> list[Recipe]:
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
    """Top-level (picklable) cell runner: calls the recipe's cell function."""
    return load_cell_function(cell["cell_fn"])(cell)


def build_cells(chosen: list[Recipe], *, full: bool, seed: int) -> list[dict[str, Any]]:
    from dptheory.parallel import cell_seed
    cells = []
    for r in chosen:
        for c in r.cells(full=full, seed=seed):
            c["seed"] = cell_seed(seed, {"recipe": r.id, "point": c["point"]})
            c["cell_fn"] = r.cell
            cells.append(c)
    return cells


# ------------------------------------------------------------------------------- checks
def _pool(results: list[dict[str, Any]], r: Recipe, full: bool) -> dict[Any, dict[str, Any]]:
    """Blocks of each sweep point pooled (samples concatenated in replicate order)."""
    by_point: dict[Any, list[tuple[int, dict]]] = {}
    for res, cell in results:
        by_point.setdefault(cell["point"][r.variable], []).append((cell["first_replicate"], res))
    pooled = {}
    for x in r.points(full):
        blocks = [res for _, res in sorted(by_point.get(x, []), key=lambda t: t[0])]
        if not blocks:
            continue
        merged: dict[str, Any] = dict(blocks[0])
        for key in ("samples", "scores_in", "scores_out"):
            if key in blocks[0]:
                merged[key] = [v for b in blocks for v in b.get(key, [])]
        if "measured" in blocks[0]:
            worst = max(blocks, key=lambda b: b.get("measured", -math.inf))
            merged["measured"] = worst["measured"]
            merged["worst"] = worst.get("worst")
        pooled[x] = merged
    return pooled


def evaluate(r: Recipe, pooled: dict[Any, dict[str, Any]]) -> CheckResult:
    from dptheory.verify import checks as C

    xs = sorted(pooled)
    if not xs:
        return CheckResult("inconclusive", "no finished cells", {})
    if r.check == "bound":
        per = {}
        for x in xs:
            p = pooled[x]
            res = C.bound_check(p["samples"], p["bound"], direction=p.get("direction", "upper"),
                                quantity=r.metric or "measured")
            per[str(x)] = {"verdict": res.verdict, **res.evidence}
        verdicts = [v["verdict"] for v in per.values()]
        verdict = "fail" if "fail" in verdicts else "pass" if all(v == "pass" for v in verdicts) \
            else "inconclusive"
        worst = max(per.items(), key=lambda kv: kv[1].get("mean_over_bound") or -math.inf)
        summary = (f"{r.metric or 'measured'} vs bound at {len(xs)} values of {r.variable}: "
                   f"{verdicts.count('pass')} pass, {verdicts.count('fail')} fail; largest "
                   f"mean/bound {worst[1].get('mean_over_bound'):.3g} at {r.variable}={worst[0]}")
        return CheckResult(verdict, summary, {"points": per, "variable": r.variable})
    if r.check == "slope":
        samples = [pooled[x]["samples"] for x in xs]
        expected = r.expected_slope
        source = "recipe (printed rate)"
        if expected is None:
            bounds = [pooled[x].get("bound") for x in xs]
            if any(b is None or not (b > 0) for b in bounds):
                return CheckResult("inconclusive", "no expected slope and no bounds to fit", {})
            expected = float(np.polyfit(np.log(xs), np.log(bounds), 1)[0])
            source = "log-log slope of the theorem's explicit bound over the sweep"
        res = C.slope_check(xs, samples, expected, tolerance=r.tolerance,
                            quantity=r.metric or "measured")
        ev = dict(res.evidence)
        ev.update({"expected_source": source, "xs": xs, "variable": r.variable,
                   "means": [float(np.mean(s)) for s in samples],
                   "bounds": [pooled[x].get("bound") for x in xs]})
        return CheckResult(res.verdict, res.summary, ev)
    if r.check == "sensitivity":
        measured = max(pooled[x]["measured"] for x in xs)
        xw = max(xs, key=lambda x: pooled[x]["measured"] / pooled[x]["bound"]
                 if pooled[x]["bound"] else math.inf)
        res = C.sensitivity_check(pooled[xw]["measured"], pooled[xw]["bound"],
                                  worst=pooled[xw].get("worst"))
        ev = dict(res.evidence)
        ev["points"] = {str(x): {"measured": pooled[x]["measured"], "bound": pooled[x]["bound"]}
                        for x in xs}
        ev["max_measured"] = measured
        return CheckResult(res.verdict, res.summary, ev)
    if r.check == "stability":
        per = {}
        for x in xs:
            res = C.stability_check(pooled[x]["samples"], pooled[x]["bound"])
            per[str(x)] = {"verdict": res.verdict, **res.evidence}
        verdicts = [v["verdict"] for v in per.values()]
        verdict = "fail" if "fail" in verdicts else "pass" if all(v == "pass" for v in verdicts) \
            else "inconclusive"
        return CheckResult(verdict, f"coupled-run stability gap vs alpha at {len(xs)} points: "
                           f"{verdicts}", {"points": per})
    if r.check == "audit":
        from dptheory.verify.audit import evaluate_recipe
        return evaluate_recipe(r, pooled)
    raise ValueError(f"unknown check kind {r.check}")


def _fmt(x: Any) -> str:
    return f"{x:.3g}" if isinstance(x, (int, float)) else str(x)


# ------------------------------------------------------------------------------- runner
@dataclass
class Verdict:
    id: str            # recipe or check id
    item: str
    check: str
    verdict: str
    summary: str
    evidence: dict[str, Any] = field(default_factory=dict)
    reproduce: str = ""

    def as_dict(self) -> dict[str, Any]:
        return dict(self.__dict__)


@dataclass
class VerifyResult:
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


def config_id(mode: str, only: Iterable[str] | None, seed: int, ids: list[str]) -> str:
    text = json.dumps({"mode": mode, "only": sorted(only or []), "seed": seed, "recipes": ids},
                      sort_keys=True)
    return f"verify-{mode}-" + hashlib.sha256(text.encode()).hexdigest()[:12]


def run_verify(*, full: bool = False, only: list[str] | None = None, out: str | Path = "dptheory-report",
               scheduler: str | None = None, n_jobs: int = -1, seed: int = 0,
               progress: bool = True, symbolic: bool = True) -> VerifyResult:
    from dptheory.parallel import run_cells
    from dptheory.store import Store

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
    cells = build_cells(chosen, full=full, seed=seed)
    store = Store(out / "results.sqlite")
    run_id = config_id(mode, only, seed, [r.id for r in chosen])
    results = run_cells(dispatch, cells, store=store, run_id=run_id, n_jobs=n_jobs,
                        scheduler=scheduler, progress=progress,
                        command=f"dptheory verify --{mode}")
    from dptheory.store import cell_key
    by_recipe: dict[str, list[tuple[dict, dict]]] = {}
    for c in cells:
        by_recipe.setdefault(c["recipe"], []).append((results[cell_key(c)], c))
    verdicts: list[Verdict] = []
    pooled_all: dict[str, dict[Any, dict[str, Any]]] = {}
    for r in chosen:
        pooled = _pool(by_recipe.get(r.id, []), r, full)
        pooled_all[r.id] = pooled
        res = evaluate(r, pooled)
        verdicts.append(Verdict(r.id, r.item, r.check, res.verdict, res.summary, res.evidence,
                                f"dptheory verify --{mode} --only {r.id}"))
    sym_findings: list[Finding] = []
    if symbolic:
        verdicts += symbolic_verdicts(only)
        from dptheory.verify.findings import symbolic_findings
        items = registry.items()
        sel = [items[i] for i in only if i in items] if only else list(items.values())
        sym_findings = symbolic_findings(sel)
    findings = [Finding(v.item, v.id, v.summary, v.evidence, v.reproduce)
                for v in verdicts if v.verdict == "fail"]
    findings += [f for f in sym_findings if f.check != "derivation"]
    stored = {(f["id"], f["check"]) for f in store.findings(run_id)}
    for f in findings:
        if (f.id, f.check) not in stored:       # a resumed run does not store them twice
            store.add_finding(f, run_id)
    unchecked = coverage(all_recipes, verdicts)
    return VerifyResult(mode, verdicts, findings, chosen, pooled_all, run_id, out,
                        time.perf_counter() - start, len(results.computed), len(cells), unchecked,
                        sym_findings)


def symbolic_verdicts(only: list[str] | None) -> list[Verdict]:
    """Derivation verdicts of the catalog and the registered property checks."""
    from dptheory.symbolic.derive import derive
    from dptheory.verify.checks import derivation_check
    out = []
    for item in registry.items().values():
        if not item.derivable or (only and item.id not in only):
            continue
        res = derivation_check(derive(item))
        out.append(Verdict(f"{item.id}:derivation", item.id, "derivation", res.verdict,
                           res.summary, res.evidence, f"dptheory derive {item.id}"))
    for check in registry.checks():
        if only and check.id not in only and check.item not in only:
            continue
        res = check.run()
        out.append(Verdict(check.id, check.item, "property", res.verdict, res.summary,
                           res.evidence, check.reproduce))
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
