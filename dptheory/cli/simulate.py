"""Simulation commands: ``dptheory algorithms`` and ``dptheory run``."""

from __future__ import annotations

import argparse
from typing import Any

from dptheory import registry
from dptheory.budget import (DEFAULT_MAX_MEMORY_GB, DEFAULT_MAX_STEPS, MEMORY_ENV, check_memory,
                             max_memory_bytes, simulation_memory, step_limit)
from dptheory.cli import add_command
from dptheory.errors import UsageError


def register(sub: Any) -> None:
    add_command(sub, "algorithms", cmd_algorithms, "list every algorithm simulator")
    p = add_command(sub, "run", cmd_run, "run an algorithm on an objective family")
    p.add_argument("algorithm", metavar="ALG")
    p.add_argument("--objective", required=True, metavar="NAME")
    p.add_argument("--n", type=int, default=256, help="number of samples (default 256)")
    p.add_argument("--d", type=int, default=None, help="dimension (default: the family's)")
    p.add_argument("--eps", type=float, required=True)
    p.add_argument("--delta", type=float, required=True)
    p.add_argument("--reps", type=int, default=16)
    p.add_argument("--seed", type=int, default=0)
    p.add_argument("--calibration", choices=("paper", "tight"), default="paper")
    p.add_argument("--data-seed", type=int, default=0, help="seed of the synthetic dataset")
    p.add_argument("--max-steps", type=int, default=DEFAULT_MAX_STEPS,
                   help=f"refuse runs whose paper settings give more steps T "
                        f"(default {DEFAULT_MAX_STEPS})")
    p.add_argument("--max-memory", type=float, default=None, metavar="GB",
                   help=f"refuse runs estimated to need more memory, in GiB (default "
                        f"${MEMORY_ENV} or {DEFAULT_MAX_MEMORY_GB:g})")


def cmd_algorithms(args: argparse.Namespace) -> tuple[Any, str]:
    algs = registry.algorithms()
    rows = [a.summary() for a in algs.values()]
    width = max((len(r["id"]) for r in rows), default=10)
    text = "\n".join(f"{r['id']:<{width}}  {'baseline ' if r['baseline'] else ''}{r['title']}"
                     f"  [{r['theorem'] or '-'}]" for r in rows)
    return rows, text + f"\n\n{len(rows)} algorithms"


def cmd_run(args: argparse.Namespace) -> tuple[Any, str]:
    from dptheory.symbolic.assumptions import HessianLipschitz
    alg = registry.algorithm(args.algorithm)
    if args.n < 2:
        raise UsageError(f"--n must be >= 2, got {args.n}")
    if args.d is not None and args.d < 1:
        raise UsageError(f"--d must be >= 1, got {args.d}")
    if args.reps < 1:
        raise UsageError(f"--reps must be >= 1, got {args.reps}")
    for name in ("seed", "data_seed"):
        if getattr(args, name) < 0:
            raise UsageError(f"--{name.replace('_', '-')} must be >= 0, got {getattr(args, name)}")
    if args.max_steps < 1:
        raise UsageError(f"--max-steps must be >= 1, got {args.max_steps}")
    limit = max_memory_bytes(args.max_memory)
    family = registry.objective(args.objective)          # at its default size: cheap
    d = family.d if args.d is None else args.d
    second = HessianLipschitz in getattr(alg, "requires", ())
    need = simulation_memory(args.n, d, args.reps, second_order=second,
                             per_sample_hessians=second and _per_sample_hessians(family))
    check_memory(need, limit, f"{alg.id} with n={args.n}, d={d}, reps={args.reps}",
                 "choose a smaller --n, --d or --reps")
    obj = family if args.d is None else registry.objective(args.objective, d=args.d)
    data = obj.make_data(args.n, args.data_seed)
    with step_limit(args.max_steps):
        try:
            result = alg(obj, data, eps=args.eps, delta=args.delta, reps=args.reps,
                         seed=args.seed, calibration=args.calibration)
        except ValueError as exc:
            if "sigma" not in str(exc) and "too small" not in str(exc):
                raise
            # a noise parameter derived from --eps/--delta, not one the user gave
            raise UsageError(f"--eps {args.eps:g} with --delta {args.delta:g}: the noise "
                             f"calibration or the privacy accounting cannot evaluate this "
                             f"({exc}); use a smaller --eps") from None
    summary = result.summary()
    summary.update({"objective": obj.name, "n": args.n, "d": obj.d})
    lines = [f"{alg.id} on {obj.name} (n={args.n}, d={obj.d}), eps={args.eps}, "
             f"delta={args.delta}, reps={args.reps}, seed={args.seed}, calibration={args.calibration}"]
    for k, v in summary["metrics"].items():
        lines.append(f"  {k:<14} mean {v['mean']:.6g}  (se {v['se']:.2g}; min {v['min']:.4g}, max {v['max']:.4g})")
    for route, p in summary["privacy"].items():
        lines.append(f"  privacy [{route}] eps={p.get('epsilon')!s:.8} delta={p.get('delta')}"
                     f"  ({p.get('route', '')})")
        if p.get("epsilon_upper") is not None:
            lines.append(f"  privacy [two-sided] true eps in [{p['epsilon_lower']:.6g}, "
                         f"{p['epsilon_upper']:.6g}] (certified: {p.get('certified')}; "
                         f"{p.get('interval_method', '')})")
        elif p.get("interval_error"):
            lines.append(f"  privacy [two-sided] not available: {p['interval_error']}")
    lines.append(f"  gradient evaluations {summary['grad_evals']:.6g}; wall time {summary['wall_time']:.3g} s")
    return summary, "\n".join(lines)


def _per_sample_hessians(obj: Any) -> bool:
    """Whether the family's empirical Hessian goes through per-sample Hessians (the base
    class's default ``_hess_F``) rather than a cheaper form of its own."""
    for klass in type(obj).__mro__:
        if "_hess_F" in vars(klass):
            return klass.__name__ == "Objective"
    return True
