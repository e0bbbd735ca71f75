"""``dptheory reproduce``: the papers' own experiments, our numbers beside theirs.

The reproductions come from the ``dptheory.reproductions`` entry-point group (dptheory does
not import them by name); each is a comparison with the paper's printed numbers, not a
verdict on a claim.
"""

from __future__ import annotations

import argparse
from typing import Any

from dptheory import registry
from dptheory.cli import add_command
from dptheory.errors import UsageError


def register(sub: Any) -> None:
    """Register ``dptheory reproduce`` and its options on the sub-parsers ``sub``."""
    p = add_command(sub, "reproduce", cmd_reproduce,
                    "run a paper's own experiment and print our numbers beside the paper's")
    p.add_argument("reproduction", nargs="?", default=None, metavar="ID",
                   help="e.g. zhang2017.table3 (omit to list them)")
    p.add_argument("--quick", action="store_true",
                   help="subsampled data and few replicates: minutes (without it: the "
                        "paper's full sizes and replicates, hours to days)")
    p.add_argument("--datasets", default=None, metavar="A,B",
                   help="only these datasets (default: every one available offline)")
    p.add_argument("--data", action="append", default=None, metavar="NAME=PATH[,PATH]",
                   help="a dataset of the experiment read from your files (bank, wine, ...; "
                        "repeatable)")
    p.add_argument("--subsample", type=int, default=None, metavar="N",
                   help="rows per dataset (default: all; --quick: the recipe's)")
    p.add_argument("--reps", type=int, default=None,
                   help="replicates per cell (default: the paper's; --quick: the recipe's)")
    p.add_argument("--seed", type=int, default=0)
    p.add_argument("--jobs", type=int, default=1, help="local workers (-1: all cores)")
    p.add_argument("--out", default="dptheory-reproduce", metavar="DIR",
                   help="results store and figure (an interrupted run resumes from it)")
    p.add_argument("--no-figure", action="store_true", help="do not write the figure")


def cmd_reproduce(args: argparse.Namespace) -> tuple[Any, str]:
    """Handler of ``dptheory reproduce``: without an id, the registered reproductions;
    with one, run it (quick or at the paper's sizes, resuming from ``--out``) and print our
    numbers beside the paper's."""
    reps = registry.reproductions()
    if args.reproduction is None:
        rows = [{"id": r.id, "title": r.title} for r in reps.values()]
        return rows, "\n".join(f"{r['id']:<20} {r['title']}" for r in rows) or "(none)"
    if args.reproduction not in reps:
        raise UsageError(f"unknown reproduction {args.reproduction!r}; choose from "
                         f"{', '.join(reps) or '(none registered)'}")
    if args.seed < 0:
        raise UsageError(f"--seed must be >= 0, got {args.seed}")
    if args.jobs == 0:
        raise UsageError("--jobs must be non-zero (-1 for all cores)")
    sources: dict[str, str] = {}
    for item in args.data or ():
        name, sep, path = item.partition("=")
        if not sep or not name or not path:
            raise UsageError(f"--data takes NAME=PATH[,PATH], got {item!r}")
        sources[name.strip()] = item.strip()
    datasets = [s.strip() for s in args.datasets.split(",") if s.strip()] if args.datasets \
        else None
    rep = reps[args.reproduction]
    report = rep.run(quick=args.quick, datasets=datasets, sources=sources,
                     subsample=args.subsample, reps=args.reps, seed=args.seed, out=args.out,
                     n_jobs=args.jobs, progress=not args.json, figure=not args.no_figure)
    return report, rep.text(report)
