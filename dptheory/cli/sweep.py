"""``dptheory sweep``: an algorithm on an objective over a grid, as :func:`dptheory.sweep`.

The same engine, seeds and store as the Python API (one code path: this command parses its
options and calls :func:`dptheory.sweeps.sweep`), so ``dptheory sweep ... --store S`` and
``dptheory.sweep(..., store=S)`` with the same settings give the same numbers and resume
each other's cells.
"""

from __future__ import annotations

import argparse
from pathlib import Path
from typing import Any

from dptheory.cli import add_command
from dptheory.errors import UsageError

# sweep()'s own arguments, set by the command's options rather than --fixed
RESERVED = ("objective", "data", "eps", "delta", "reps", "seed", "calibration", "record",
            "first_replicate")
POINT = ("n", "d", "eps", "delta")


def register(sub: Any) -> None:
    """Register ``dptheory sweep`` and its options on the sub-parsers ``sub``."""
    p = add_command(sub, "sweep", cmd_sweep,
                    "run an algorithm over a grid of n, d, eps, delta or its parameters; "
                    "summary, figure (--plot) and CSV (--csv)")
    p.add_argument("algorithm", metavar="ALG", help="an algorithm id (dptheory algorithms)")
    p.add_argument("--objective", required=True, metavar="NAME",
                   help="an objective family (dptheory objectives)")
    p.add_argument("--objective-param", action="append", default=None, metavar="KEY=VALUE",
                   help="a parameter of the objective family (d, mu, R, ...; repeatable)")
    p.add_argument("--vary", action="append", required=True, metavar="NAME=V1,V2,...",
                   help="a varied name and its values (n, d, eps, delta or a parameter of "
                        "the algorithm; repeatable: the product grid)")
    p.add_argument("--fixed", action="append", default=None, metavar="KEY=VALUE",
                   help="a value for every point (eps, delta, n, d or an algorithm "
                        "parameter; repeatable)")
    p.add_argument("--theorem", default=None, metavar="ID",
                   help="draw this catalog item's bound beside the measurements")
    p.add_argument("--constants", choices=("certified", "stated-rate"), default="certified",
                   help="the theory line: the bound at certified constants (a missing value "
                        "is an error), or the stated rate with constants set to 1")
    p.add_argument("--at", action="append", default=None, metavar="SYMBOL=VALUE",
                   help="a value for the theory line (a constant the objective does not "
                        "certify; repeatable)")
    p.add_argument("--metric", default=None, help="the plotted metric (default: the one the "
                                                  "theorem bounds, else the algorithm's first)")
    p.add_argument("--reps", type=int, default=16, help="replicates per point and data set")
    p.add_argument("--datasets", type=int, default=1, help="independent data sets per point")
    p.add_argument("--seed", type=int, default=0)
    p.add_argument("--calibration", choices=("paper", "tight"), default="paper")
    p.add_argument("--jobs", type=int, default=1, help="local workers (-1: all cores)")
    p.add_argument("--store", default=None, metavar="PATH",
                   help="results store (SQLite): cells are committed as they finish and the "
                        "same command resumes")
    p.add_argument("--plot", default=None, metavar="FILE",
                   help="write the figure (.pdf, .svg or .png)")
    p.add_argument("--x", default=None, help="the figure's x (default n, else the first --vary)")
    p.add_argument("--hue", default=None, help="one line per value of this varied name "
                                               "(default: the second --vary)")
    p.add_argument("--col", default=None, help="one panel per value of this varied name "
                                               "(default: the third --vary)")
    p.add_argument("--csv", default=None, metavar="FILE", help="write the records as CSV")


def _values(text: str, option: str) -> tuple[str, list[Any]]:
    from dptheory.cli.dataopts import parse_value
    name, sep, vals = text.partition("=")
    name = name.strip()
    items = [v for v in vals.split(",") if v.strip()]
    if not sep or not name or not items:
        raise UsageError(f"{option} takes NAME=V1,V2,..., got {text!r}")
    return name, [parse_value(v) for v in items]


def _as_options(message: str) -> str:
    """An API error message in the command's terms (``at={'G': ...}`` -> ``--at G=...``)."""
    import re
    message = re.sub(r"at=\{([^}]*)\}", lambda m: " ".join(
        f"--at {k}=..." for k in re.findall(r"'([^']+)'", m.group(1))), message)
    message = message.replace("at= provide", "--at provides")
    return message.replace("constants='stated-rate'", "--constants stated-rate").replace(
        "constants='certified'", "--constants certified")


def _check_path(path: str | None, option: str, suffixes: tuple[str, ...]) -> None:
    if path is None:
        return
    p = Path(path)
    if p.suffix.lower() not in suffixes:
        raise UsageError(f"{option} must end in {', '.join(suffixes)}, got {path!r}")
    if not p.parent.is_dir():
        raise UsageError(f"{option}: directory {str(p.parent)!r} does not exist")


def cmd_sweep(args: argparse.Namespace) -> tuple[Any, str]:
    """Handler of ``dptheory sweep``: parse the grid, run :func:`dptheory.sweeps.sweep`,
    print the summary per point (mean, 95 % bootstrap interval, theory line) and write the
    figure and the CSV when asked."""
    from dptheory import registry
    from dptheory.cli.dataopts import parse_settings
    from dptheory.plotting import FORMATS, mean_interval

    alg = registry.algorithm(args.algorithm)
    for name, low in (("reps", 1), ("datasets", 1), ("seed", 0)):
        if getattr(args, name) < low:
            raise UsageError(f"--{name} must be >= {low}, got {getattr(args, name)}")
    if args.jobs == 0:
        raise UsageError("--jobs must be non-zero (-1 for all cores)")
    _check_path(args.plot, "--plot", FORMATS)
    _check_path(args.csv, "--csv", (".csv",))
    oparams = parse_settings(args.objective_param, registry.objective_parameters(args.objective),
                             "--objective-param", args.objective)
    valid = [*POINT, *registry.algorithm_parameters(alg, RESERVED)]
    vary: dict[str, list[Any]] = {}
    for text in args.vary:
        name, vals = _values(text, "--vary")
        if name not in valid:
            raise UsageError(f"--vary {name!r} is neither n, d, eps, delta nor a parameter of "
                             f"{alg.id}; valid: {', '.join(valid)}")
        if name in vary:
            raise UsageError(f"--vary {name!r} given twice")
        vary[name] = vals
    fixed = parse_settings(args.fixed, valid, "--fixed", alg.id)
    both = sorted(set(fixed) & set(vary))
    if both:
        raise UsageError(f"{both[0]!r} is both varied (--vary) and fixed (--fixed)")
    if "d" in oparams and "d" in vary:
        raise UsageError("d is varied (--vary) and set by --objective-param")
    at: dict[str, float] = {}
    if args.at:
        from dptheory.catalog import resolve_symbol
        for text in args.at:
            name, sep, value = text.partition("=")
            if not sep:
                raise UsageError(f"--at takes SYMBOL=VALUE, got {text!r}")
            try:
                at[resolve_symbol(name.strip(), option="--at").name] = float(value)
            except ValueError:
                raise UsageError(f"--at: value of {name.strip()} must be a number, "
                                 f"got {value!r}") from None
    from dptheory.sweeps import sweep
    try:
        result = sweep(alg.id, (args.objective, oparams), vary, reps=args.reps,
                       theorem=args.theorem, seed=args.seed, n_jobs=args.jobs, fixed=fixed,
                       datasets=args.datasets, metric=args.metric, at=at,
                       calibration=args.calibration, store=args.store,
                       progress=not args.json, constants=args.constants)
    except UsageError as exc:
        raise UsageError(_as_options(str(exc))) from None
    data: dict[str, Any] = {"settings": result.settings, "variables": result.variables,
                            "metric": result.metric, "theorem": result.theorem,
                            "constants": result.constants, "run_id": result.run_id,
                            "store": result.store, "computed": result.computed}
    rows = []
    for row in result.summary():
        group = [r[result.metric] for r in result.records
                 if all(r[v] == row[v] for v in result.variables)]
        _, lo, hi = mean_interval(group)
        rows.append({**row, "ci_low": lo, "ci_high": hi})
    data["summary"] = rows
    if args.plot:
        from dptheory.plotting import save
        drawn = result.plot(x=args.x, hue=args.hue, col=args.col)
        fig = (drawn[0] if isinstance(drawn, list) else drawn).figure
        data["plot"] = save(fig, args.plot)
    if args.csv:
        result.to_csv(args.csv)
        data["csv"] = args.csv
    theory = "bound" if result.constants == "certified" else "rate"
    head = [*result.variables, "mean", "95% CI", "count", *([theory] if result.theorem else [])]
    table = [[*(f"{row[v]:g}" if isinstance(row[v], (int, float)) else str(row[v])
                for v in result.variables),
              f"{row['mean']:.4g}", f"[{row['ci_low']:.3g}, {row['ci_high']:.3g}]",
              str(row["count"]),
              *([f"{row[theory]:.4g}" if row[theory] is not None else "-"]
                if result.theorem else [])] for row in rows]
    widths = [max(len(h), *(len(t[i]) for t in table)) for i, h in enumerate(head)]
    lines = [f"{alg.id} on {args.objective}: {result.metric}, {args.reps} replicates x "
             f"{args.datasets} data set(s), seed {args.seed}"
             + (f"; {theory} of {result.theorem}" + (" (constants set to 1)"
                                                     if theory == "rate" else "")
                if result.theorem else ""),
             "  ".join(h.rjust(w) for h, w in zip(head, widths))]
    lines += ["  ".join(c.rjust(w) for c, w in zip(t, widths)) for t in table]
    if "privacy_model" in result.settings:
        lines.append(f"note: {result.settings['privacy_model']}")
    if result.store:
        lines.append(f"store: {result.store} (run {result.run_id}, {result.computed} cells "
                     "computed now)")
    for key in ("plot", "csv"):
        if key in data:
            lines.append(f"{key}: {data[key]}")
    return data, "\n".join(lines)
