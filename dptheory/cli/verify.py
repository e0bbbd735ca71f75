"""``dptheory verify``: check every claim and write the report (issue 6)."""

from __future__ import annotations

import argparse
import time
from datetime import datetime, timezone
from typing import Any

from dptheory.cli import add_command
from dptheory.errors import UsageError


def register(sub: Any) -> None:
    """Register ``dptheory verify`` and its options on the sub-parsers ``sub``."""
    p = add_command(sub, "verify", cmd_verify,
                    "check every claim (simulation, property tests, derivations); write a report")
    mode = p.add_mutually_exclusive_group()
    mode.add_argument("--quick", action="store_true", help="small sweeps (default; < 10 min)")
    mode.add_argument("--full", action="store_true", help="full sweeps and audits (long)")
    p.add_argument("--only", nargs="+", metavar="ID", help="recipe ids or catalog item ids")
    p.add_argument("--out", default="dptheory-report", help="report directory (default dptheory-report)")
    p.add_argument("--scheduler", metavar="ADDRESS", help="Dask scheduler, e.g. tcp://127.0.0.1:8786")
    p.add_argument("--jobs", type=int, default=-1, help="local workers (default: all cores)")
    p.add_argument("--seed", type=int, default=0)
    p.add_argument("--svg", action="store_true", help="also write figures as SVG (PNG always)")


def command_line(args: argparse.Namespace) -> str:
    """The ``dptheory verify`` command that reproduces this run (its options as parsed)."""
    parts = ["dptheory verify", "--full" if args.full else "--quick"]
    if args.only:
        parts += ["--only", *args.only]
    parts += ["--out", str(args.out), "--seed", str(args.seed), "--jobs", str(args.jobs)]
    if args.scheduler:
        parts += ["--scheduler", args.scheduler]
    if args.svg:
        parts.append("--svg")
    return " ".join(parts)


def cmd_verify(args: argparse.Namespace) -> tuple[Any, str]:
    """Handler of ``dptheory verify``: run the engine (:func:`run_verify`), write the report
    and list the verdicts, the findings and the store's integrity events of this invocation."""
    from dptheory.verify.engine import run_verify
    from dptheory.store import Store
    from dptheory.verify.report import as_json, write

    if args.seed < 0:
        raise UsageError(f"--seed must be >= 0, got {args.seed}")
    if args.jobs == 0:
        raise UsageError("--jobs must be non-zero (-1 for all cores)")
    started = datetime.now(timezone.utc).isoformat(timespec="microseconds")
    # the time printed at the end is the whole command's (checks, report and figures), not
    # only run_verify's `elapsed`, which the report and report.json keep
    t0 = time.perf_counter()
    result = run_verify(full=args.full, only=args.only, out=args.out, scheduler=args.scheduler,
                        n_jobs=args.jobs, seed=args.seed, progress=not args.json)
    result.command = command_line(args)
    path = write(result, svg=args.svg)
    data = as_json(result)
    with Store(result.out / "results.sqlite") as store:
        events = [e for e in store.events(result.run_id) if e["created"] >= started]
    data["store_events"] = events
    counts: dict[str, int] = {}
    for v in result.verdicts:
        counts[v.verdict] = counts.get(v.verdict, 0) + 1
    lines = [f"{'id':<52} {'check':<12} verdict"]
    lines += [f"{v.id:<52} {v.check:<12} {v.verdict}" for v in result.verdicts]
    lines.append("")
    if result.findings:
        lines.append("findings (one per root cause):")
        lines += [f"  [{f.severity}] {f.id} ({f.check})" for f in result.findings]
        lines.append("")
    cells = [e for e in events if not e["kind"].startswith("finding-")]
    found = [e for e in events if e["kind"].startswith("finding-")]
    where = f"(details: dptheory store check {result.out / 'results.sqlite'})"
    if cells:
        lines.append(f"store: {len(cells)} stored cells failed their checksum (or had none, or "
                     f"the older one without the cell key) and were recomputed {where}")
    if found:
        lines.append(f"store: {len(found)} stored findings failed their checksum (or had "
                     f"none) and were left out; this run stored its own {where}")
    lines.append(", ".join(f"{k}: {c}" for k, c in sorted(counts.items())) +
                 f"; {len(result.findings)} findings of the papers"
                 f" ({len(result.own_items)} refutations of dptheory's own items); "
                 f"report: {path} ({time.perf_counter() - t0:.0f} s; checks "
                 f"{result.elapsed:.0f} s, then the report and its figures)")
    return data, "\n".join(lines)
