"""Simulation commands: ``dptheory algorithms`` and ``dptheory run``."""

from __future__ import annotations

import argparse
import math
from typing import Any

from dptheory import registry
from dptheory.budget import (DEFAULT_MAX_MEMORY_GB, DEFAULT_MAX_STEPS, MEMORY_ENV, check_memory,
                             max_memory_bytes, simulation_memory, step_limit)
from dptheory.cli import add_command
from dptheory.cli.dataopts import add_data_options, load_data, parse_settings
from dptheory.errors import UsageError

# run()'s own arguments, set by the command's options rather than --param
RESERVED = ("objective", "data", "eps", "delta", "reps", "seed", "calibration", "record",
            "first_replicate")


def register(sub: Any) -> None:
    """Register ``dptheory algorithms`` and ``dptheory run`` on the sub-parsers ``sub``."""
    add_command(sub, "algorithms", cmd_algorithms, "list every algorithm simulator")
    p = add_command(sub, "run", cmd_run, "run an algorithm on an objective family")
    p.add_argument("algorithm", metavar="ALG")
    p.add_argument("--objective", required=True, metavar="NAME")
    p.add_argument("--n", type=int, default=None,
                   help="number of synthetic samples (default 256; with --data see --subsample)")
    p.add_argument("--d", type=int, default=None,
                   help="dimension of synthetic data (default: the family's)")
    p.add_argument("--objective-param", action="append", default=None, metavar="KEY=VALUE",
                   help="a parameter of the objective family (mu, R, D, delta, form, ...; "
                        "repeatable)")
    p.add_argument("--param", action="append", default=None, metavar="KEY=VALUE",
                   help="a parameter of the algorithm's run() (T, m, eta, setting, ...; "
                        "repeatable)")
    p.add_argument("--eps", type=float, required=True)
    p.add_argument("--delta", type=float, required=True)
    p.add_argument("--reps", type=int, default=16)
    p.add_argument("--seed", type=int, default=0)
    p.add_argument("--calibration", choices=("paper", "tight"), default="paper")
    p.add_argument("--data-seed", type=int, default=0,
                   help="seed of the synthetic dataset, or of --subsample and the test split")
    p.add_argument("--max-steps", type=int, default=DEFAULT_MAX_STEPS,
                   help=f"refuse runs whose paper settings give more steps T "
                        f"(default {DEFAULT_MAX_STEPS})")
    p.add_argument("--max-memory", type=float, default=None, metavar="GB",
                   help=f"refuse runs estimated to need more memory, in GiB (default "
                        f"${MEMORY_ENV} or {DEFAULT_MAX_MEMORY_GB:g})")
    add_data_options(p)


def cmd_algorithms(args: argparse.Namespace) -> tuple[Any, str]:
    """Handler of ``dptheory algorithms``: every registered algorithm simulator."""
    algs = registry.algorithms()
    rows = [registry.algorithm_summary(a) for a in algs.values()]
    width = max((len(r["id"]) for r in rows), default=10)
    text = "\n".join(f"{r['id']:<{width}}  {'baseline ' if r['baseline'] else ''}{r['title']}"
                     f"  [{r['theorem'] or '-'}]" + (f"  ({r['error']})" if "error" in r else "")
                     for r in rows)
    broken = registry.broken_algorithm_plugins()
    if broken:
        text += "\n" + "\n".join(broken)
    return rows, text + f"\n\n{len(rows)} algorithms"


def cmd_run(args: argparse.Namespace) -> tuple[Any, str]:
    """Handler of ``dptheory run``: one algorithm on one objective family, on synthetic data
    or ``--data``, with the metrics over replicates and the privacy of the run.

    The options are checked and the memory estimate (:func:`simulation_memory`) is compared
    with ``--max-memory`` before anything is allocated; the steps T are limited by
    ``--max-steps`` (:func:`step_limit`). A noise calibration that cannot be evaluated at
    ``--eps``/``--delta`` is reported as a usage error."""
    from dptheory.symbolic.assumptions import HessianLipschitz
    alg = registry.algorithm(args.algorithm)
    if args.n is not None and args.n < 2:
        raise UsageError(f"--n must be >= 2, got {args.n}")
    if args.d is not None and args.d < 1:
        raise UsageError(f"--d must be >= 1, got {args.d}")
    if args.data is not None and (args.n is not None or args.d is not None):
        raise UsageError("--n and --d set the size of synthetic data; with --data use "
                         "--subsample (the dimension is the data's)")
    if args.reps < 1:
        raise UsageError(f"--reps must be >= 1, got {args.reps}")
    for name in ("seed", "data_seed"):
        if getattr(args, name) < 0:
            raise UsageError(f"--{name.replace('_', '-')} must be >= 0, got {getattr(args, name)}")
    if args.max_steps < 1:
        raise UsageError(f"--max-steps must be >= 1, got {args.max_steps}")
    limit = max_memory_bytes(args.max_memory)
    oparams = parse_settings(args.objective_param, registry.objective_parameters(args.objective),
                             "--objective-param", args.objective)
    aparams = parse_settings(args.param, registry.algorithm_parameters(alg, RESERVED),
                             "--param", alg.id)
    if "d" in oparams and (args.d is not None or args.data is not None):
        raise UsageError("--objective-param d conflicts with "
                         + ("--d" if args.data is None else "--data (d is the data's)"))
    family = registry.objective(args.objective)          # at its default size: cheap
    prepared = load_data(args, family.task) if args.data is not None else None
    n = prepared.train.n if prepared else (256 if args.n is None else args.n)
    d = prepared.train.d if prepared else oparams.pop("d", family.d if args.d is None else args.d)
    second = HessianLipschitz in getattr(alg, "requires", ())
    need = simulation_memory(n, d, args.reps, second_order=second,
                             per_sample_hessians=second and _per_sample_hessians(family))
    check_memory(need, limit, f"{alg.id} with n={n}, d={d}, reps={args.reps}",
                 "choose a smaller --n/--subsample, --d or --reps")
    obj = registry.objective(args.objective, d=d, **oparams)
    data = prepared.train if prepared else obj.make_data(n, args.data_seed)
    with step_limit(args.max_steps):
        try:
            result = alg(obj, data, eps=args.eps, delta=args.delta, reps=args.reps,
                         seed=args.seed, calibration=args.calibration, **aparams)
        except ValueError as exc:
            if "sigma" not in str(exc) and "too small" not in str(exc):
                raise
            # a noise parameter derived from --eps/--delta, not one the user gave
            raise UsageError(f"--eps {args.eps:g} with --delta {args.delta:g}: the noise "
                             f"calibration or the privacy accounting cannot evaluate this "
                             f"({exc}); use a smaller --eps") from None
    summary = result.summary()
    summary.update({"objective": obj.name, "objective_params": obj.params(), "n": n, "d": obj.d})
    lines = [f"{alg.id} on {obj.name} (n={n}, d={obj.d}), eps={args.eps}, "
             f"delta={args.delta}, reps={args.reps}, seed={args.seed}, calibration={args.calibration}"]
    if prepared is not None:
        extra, more = _real_data_report(obj, prepared, result)
        summary.update(extra)
        lines += more
    for k, v in summary["metrics"].items():
        # one replicate has no standard error: say so instead of printing nan
        se = ("n/a, 1 replicate" if v["se"] is None or math.isnan(v["se"])
              else f"{v['se']:.2g}")
        lines.append(f"  {k:<14} mean {v['mean']:.6g}  (se {se}; min {v['min']:.4g}, "
                     f"max {v['max']:.4g})")
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


def _real_data_report(obj: Any, prepared: Any, result: Any) -> tuple[dict[str, Any], list[str]]:
    """The data's record, test-set metrics and the constants computed from the data."""
    import numpy as np  # noqa: PLC0415 - lazy: the CLI starts without NumPy
    W = result.w
    out: dict[str, Any] = {"data": prepared.record()}
    lines = ["  " + ln for ln in prepared.describe()]
    metrics: dict[str, float] = {}
    if obj.task == "classification":
        metrics["accuracy_train"] = float(np.mean(obj.accuracy(W, prepared.train)))
    if prepared.test is not None:
        metrics["F_test"] = float(np.mean(obj.F(W, prepared.test)))
        if obj.task == "classification":
            metrics["accuracy_test"] = float(np.mean(obj.accuracy(W, prepared.test)))
    out["data_metrics"] = metrics
    if metrics:
        lines.append("  " + "; ".join(f"{k} {v:.6g}" for k, v in metrics.items())
                     + " (means over replicates)")
    sources = getattr(obj, "constant_sources", None)
    if sources is not None:
        consts = sources(prepared.train)
        if prepared.public_radius is not None:
            consts["X"] = (f"the row-norm bound {prepared.public_radius:g} fixed by the "
                           "preprocessing (public)")
        out["constants"] = consts
        private = [k for k, v in consts.items() if "data-dependent" in v]
        lines += [f"  constant {k}: {v}" for k, v in consts.items()]
        if private:
            out["privacy_caveat"] = (
                f"{', '.join(private)} computed from the data set the algorithm's parameters "
                "(T, Delta, steps); the privacy guarantee assumes they are public: fix them "
                "in advance (--rows, --objective-param D=...) for it to hold")
            lines.append("  privacy caveat: " + out["privacy_caveat"])
    return out, lines


def _per_sample_hessians(obj: Any) -> bool:
    """Whether the family's empirical Hessian goes through per-sample Hessians (the base
    class's default ``_hess_F``) rather than a cheaper form of its own."""
    for klass in type(obj).__mro__:
        if "_hess_F" in vars(klass):
            return klass.__name__ == "Objective"
    return True
