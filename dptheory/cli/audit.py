"""``dptheory audit``: empirical privacy audits (issue 7).

    dptheory audit ALG [--eps E] [--delta D] [--runs R] [--calibration paper|tight]
                       [--seed S] [--json]
    dptheory audit --selftest [--runs R] [--seed S] [--json]

``ALG`` is a private algorithm of ``dptheory algorithms``; its audit recipe (check
``audit``) is found in the ``dptheory.experiments`` entry-point group and run in-process at
the recipe's quick size (``--runs`` runs per neighbouring dataset), with the recipe's
planted twin for the power. An algorithm without a recipe is audited from the
``privacy_claim`` it declares (a plug-in, :class:`dptheory.verify.audit.PrivacyClaim`). The
verdict is ``refuted`` (a finding) when a certified lower bound (the audit's 95 % bound or
the two-sided accountant's lower end) exceeds the claimed epsilon, ``supported`` only when
the audit had the power to see a violation, ``inconclusive`` otherwise.

``--selftest`` plants known bugs (noise below the calibration, clipping removed, add/remove
sensitivity under a replace-one relation) in the module that provides the audit recipes
(its ``selftest()``), and audits a plug-in DP-SGD written to the plug-in contract with two
bugs (noise 0.6 x the claim's, sensitivity C where replace-one needs 2C; no event declared), and exits 0 only when every bug is detected and the correct algorithm
is not flagged (exit 1 otherwise).
"""

from __future__ import annotations

import argparse
import importlib
import math
from typing import Any

from dptheory.cli import add_command, emit, render_json

# Runs per neighbouring dataset: the full audits use 16384; far more is a typo, not a study.
MAX_RUNS = 10 ** 6


def register(sub: Any) -> None:
    """Register ``dptheory audit`` and its options on the sub-parsers ``sub``."""
    p = add_command(sub, "audit", cmd_audit,
                    help="empirical privacy audit of an algorithm (epsilon lower bound), "
                         "or --selftest with planted bugs")
    p.add_argument("algorithm", nargs="?", metavar="ALG", help="algorithm id (dptheory algorithms)")
    p.add_argument("--selftest", action="store_true", help="plant known bugs; each must be detected")
    p.add_argument("--eps", type=float, default=None, help="target epsilon (default: the recipe's)")
    p.add_argument("--delta", type=float, default=None, help="target delta (default: the recipe's)")
    p.add_argument("--runs", type=int, default=None,
                   help="runs per neighbouring dataset (default: the recipe's; for a plug-in "
                        "stages of 8000, 64000, 256000 until decided)")
    p.add_argument("--calibration", choices=("paper", "tight"), default="paper")
    p.add_argument("--seed", type=int, default=0)


def _audit_recipes() -> list[Any]:
    from dptheory.verify.audit import experiment_recipes
    return experiment_recipes("audit")


def _recipe_for(alg_id: str) -> Any:
    recipes = [r for r in _audit_recipes() if r.fixed.get("algorithm") == alg_id]
    if not recipes:
        raise ValueError(f"no audit recipe for algorithm {alg_id!r}")
    quick = [r for r in recipes if r.quick]
    return (quick or recipes)[0]


def _check_args(args: argparse.Namespace) -> None:
    if args.runs is not None and not 10 <= args.runs <= MAX_RUNS:
        raise ValueError(f"--runs must be an integer in [10, {MAX_RUNS}] (runs per "
                         f"neighbouring dataset), got {args.runs}")
    if args.seed < 0:
        raise ValueError(f"--seed must be >= 0, got {args.seed}")
    if args.eps is not None and not (math.isfinite(args.eps) and args.eps > 0):
        raise ValueError(f"--eps must be > 0, got {args.eps}")
    if args.delta is not None and not (0 < args.delta < 1):
        raise ValueError(f"--delta must be in (0, 1), got {args.delta}")


def run_audit(alg_id: str, *, eps: float | None = None, delta: float | None = None,
              runs: int | None = None, calibration: str = "paper", seed: int = 0) -> dict[str, Any]:
    """Audit ``alg_id`` in-process; returns the JSON summary.

    A built-in algorithm runs its quick audit recipe at ``calibration`` and the recipe's
    planted twin (power); a plug-in algorithm (registered through ``dptheory.algorithms``
    with a ``privacy_claim``, see :class:`dptheory.verify.audit.PrivacyClaim`) is audited
    from its claim: the two-sided accountant on its declared events and a membership audit
    of its releases.
    """
    from dptheory import registry
    from dptheory.errors import UsageError
    from dptheory.verify.audit import audit_plugin, audit_summary, privacy_claim_of
    from dptheory.verify.recipe import load_cell_function
    try:
        alg = registry.algorithm(alg_id)
    except UsageError as exc:
        raise ValueError(str(exc)) from None
    if not getattr(alg, "private", True):
        raise ValueError(f"algorithm {alg_id!r} is not private: nothing to audit")
    recipes = [r for r in _audit_recipes() if r.fixed.get("algorithm") == alg_id]
    if not recipes:
        if privacy_claim_of(alg) is None:
            raise ValueError(f"no audit recipe for algorithm {alg_id!r} and it declares no "
                             "privacy_claim (see README, 'Auditing your own algorithm')")
        if eps is not None or delta is not None:
            raise ValueError("--eps/--delta do not apply to a plug-in: its privacy_claim "
                             "states them")
        return audit_plugin(alg, runs=None if runs is None else int(runs), seed=int(seed))
    recipe = _recipe_for(alg_id)
    cell_fn = load_cell_function(recipe.cell)

    def run(point: str) -> dict[str, Any]:
        cell = {**recipe.fixed, "recipe": recipe.id, "point": {"calibration": point},
                "block": 0, "first_replicate": 0, "seed": int(seed),
                "reps": int(runs if runs is not None else recipe.total_reps())}
        if eps is not None:
            cell["eps"] = float(eps)
        if delta is not None:
            cell["delta"] = float(delta)
        return cell_fn(cell)

    result = run(calibration)
    twin = run("twin") if "twin" in recipe.points() else None
    out = audit_summary(result, twin=twin)
    out.update({"recipe": recipe.id, "item": recipe.item, "calibration": calibration,
                "seed": int(seed)})
    return out


def run_selftest(*, runs: int | None = None, seed: int = 0) -> list[dict[str, Any]]:
    """The planted-bug self-test of the module providing the audit recipes."""
    modules = []
    for r in _audit_recipes():
        name = r.cell.partition(":")[0]
        if name not in modules:
            modules.append(name)
    for name in modules:
        module = importlib.import_module(name)
        if callable(getattr(module, "selftest", None)):
            return module.selftest(**({"runs": runs} if runs is not None else {}), seed=seed)
    raise ValueError("no registered audit module provides a selftest()")


def _text_audit(d: dict[str, Any]) -> str:
    def num(x: Any) -> str:
        return "-" if x is None else format(x, ".4g")
    lo, up = d.get("epsilon_interval") or (None, None)
    lines = [
        f"{d['algorithm']}  ({d['calibration']} calibration, {d['runs'][0]} + {d['runs'][1]} runs, "
        f"delta = {d['delta']:g})",
        f"  epsilon lower bound (95%): {d['epsilon_lower']:.4g}",
        f"  claimed epsilon:           {d['epsilon_claimed']:.4g}",
        (f"  true epsilon of the noise: [{num(lo)}, {num(up)}] (two-sided accountant)"
         if d.get("calibration") != "plug-in" else
         f"  declared mechanism:        eps in [{num(lo)}, {num(up)}] (two-sided accountant), "
         f"mu = {num(d.get('mu_declared'))}\n"
         f"  Gaussian-DP mu (95%):      >= {num(d.get('mu_lower'))} (releases)"),
        f"  power: {d.get('power') or 'not reached'}",
        f"  verdict: {d['verdict']}" + ("  (FINDING: the claim is false)"
                                        if d["verdict"] == "refuted" else ""),
        f"  {d['summary']}"]
    return "\n".join(lines)


def _text_selftest(rows: list[dict[str, Any]], ok: bool) -> str:
    lines = [f"{'planted bug':16s} {'eps_lower':>9s} {'claimed':>8s} {'detected':>8s}  description"]
    for r in rows:
        lines.append(f"{r['bug']:16s} {r['epsilon_lower']:9.3f} {r['epsilon_claimed']:8.3g} "
                     f"{str(r['detected']):>8s}  {r['description']}")
    lines.append("self-test " + ("passed: every planted bug detected, the correct algorithm not "
                                 "flagged" if ok else "FAILED"))
    return "\n".join(lines)


def cmd_audit(args: argparse.Namespace) -> tuple[Any, str]:
    """Handler of ``dptheory audit``: the audit of ``ALG`` (:func:`run_audit`) or, with
    ``--selftest``, the planted-bug self-test, which exits with code 1 (after printing its
    table) when a bug goes undetected or the correct algorithm is flagged."""
    _check_args(args)
    if args.selftest:
        if args.algorithm:
            raise ValueError("give either ALG or --selftest, not both")
        rows = run_selftest(runs=args.runs, seed=args.seed)
        ok = all(r["ok"] for r in rows)
        data = {"selftest": rows, "all_detected": all(r["detected"] for r in rows
                                                      if not r["bug"].endswith("control")),
                "ok": ok}
        text = _text_selftest(rows, ok)
        if not ok:
            emit(render_json(data) if args.json else text)
            raise SystemExit(1)
        return data, text
    if not args.algorithm:
        raise ValueError("give an algorithm id (see `dptheory algorithms`) or --selftest")
    d = run_audit(args.algorithm, eps=args.eps, delta=args.delta, runs=args.runs,
                  calibration=args.calibration, seed=args.seed)
    return d, _text_audit(d)
