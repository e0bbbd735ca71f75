"""Benchmark: where `dptheory verify --quick` spends its CPU, cells against the rest.
Not a test; run ``python benchmarks/bench_verify.py`` (about 5 CPU minutes).

The verification runs in this process as the CLI runs it (``run_verify``, then the report)
on a fresh report directory, then once more on the same directory, where every cell is
resumed from the store. Printed, in CPU seconds (wall times on a shared machine measure the
other jobs, not this one):

* cells: their count, the sum of the per-cell CPU times the store records, the longest cell;
* beside the cells: the forked process that computes the symbolic checks and the audits'
  ideal powers while the workers compute the cells (0 where the engine has none);
* the parent: this process's own CPU outside the cells, in ``run_verify`` (recipes, judging,
  and the symbolic checks where they are not beside the cells) and in the report (with the
  CPU of the processes that draw its figures in parallel);
* the estimated wall on 2 idle cores: the parent's serial CPU (the figure processes' at half)
  + the cell phase, max(longest cell, beside, (cells + beside) / 2), assuming the
  longest-first schedule packs the cells.

    python benchmarks/bench_verify.py [--jobs 2] [--full] [--only ID ...] [--keep DIR]
"""
from __future__ import annotations

import argparse
import os
import resource
import shutil
import sqlite3
import tempfile
import time
from pathlib import Path

os.environ.setdefault("MPLBACKEND", "Agg")


def cells_cpu(store: Path, run_id: str) -> tuple[int, float, float]:
    """(cells, sum of their CPU seconds, the longest) of a run, read from the store."""
    con = sqlite3.connect(f"file:{store}?mode=ro", uri=True)
    try:
        n, total, top = con.execute("select count(*), sum(cpu_time), max(cpu_time) from cells "
                                    "where run_id = ?", (run_id,)).fetchone()
    finally:
        con.close()
    return int(n), float(total or 0.0), float(top or 0.0)


def children() -> float:
    """CPU seconds of this process's finished (waited-for) child processes so far."""
    ru = resource.getrusage(resource.RUSAGE_CHILDREN)
    return ru.ru_utime + ru.ru_stime


def once(out: Path, args: argparse.Namespace) -> dict[str, float]:
    """One ``verify`` into ``out``: this process's CPU and wall in the engine and the report,
    and what the engine says it computed beside the cells."""
    from dptheory.verify.engine import run_verify
    from dptheory.verify.report import write
    c0, w0 = time.process_time(), time.perf_counter()
    res = run_verify(full=args.full, only=args.only, out=out, n_jobs=args.jobs, progress=False)
    c1, w1 = time.process_time(), time.perf_counter()
    k1 = children()
    write(res)
    c2, w2 = time.process_time(), time.perf_counter()
    beside = getattr(res, "beside", {}) or {}
    return {"engine": c1 - c0, "report": c2 - c1, "report_children": children() - k1,
            "wall": w2 - w0, "run_id": res.run_id,
            "computed": res.computed, "verdicts": len(res.verdicts),
            "beside": sum(v for k, v in beside.items() if k != "forked"),
            "forked": bool(beside.get("forked"))}


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--jobs", type=int, default=2)
    ap.add_argument("--full", action="store_true")
    ap.add_argument("--only", nargs="+")
    ap.add_argument("--keep", help="report directory to use (and keep); default a temporary one")
    args = ap.parse_args()
    out = Path(args.keep or tempfile.mkdtemp(prefix="bench-verify-"))
    fresh = once(out, args)
    n, cells, top = cells_cpu(out / "results.sqlite", fresh["run_id"])
    resumed = once(out, args)
    if not args.keep:
        shutil.rmtree(out, ignore_errors=True)
    beside = fresh["beside"] if fresh["forked"] else 0.0
    # the parent's serial CPU; with --jobs 1 the cells ran in this process: taken out
    engine = fresh["engine"] - (cells if args.jobs == 1 else 0.0)
    # the report's figure processes run in parallel: on 2 cores they take half their CPU
    serial = engine + fresh["report"] + fresh["report_children"] / 2
    phase = max(top, beside, (cells + beside) / 2)
    print(f"verify --{'full' if args.full else 'quick'} --jobs {args.jobs}: "
          f"{fresh['verdicts']} verdicts, {fresh['computed']} cells computed")
    print(f"  cells               {n:5d} cells  {cells:7.1f} s CPU (longest {top:.1f} s)")
    print(f"  beside the cells    {beside:7.1f} s CPU in the forked process"
          + ("" if fresh["forked"] else " (none: computed in the parent)"))
    print(f"  parent, engine      {engine:7.1f} s CPU")
    print(f"  parent, report      {fresh['report']:7.1f} s CPU (+ {fresh['report_children']:.1f} s "
          "in its figure processes)")
    print(f"  resumed run         {resumed['engine'] + resumed['report']:7.1f} s CPU in the parent"
          f" (+ {resumed['beside'] if resumed['forked'] else 0.0:.1f} s beside), "
          f"{resumed['computed']} cells computed")
    print(f"  wall (as measured)  {fresh['wall']:7.1f} s")
    print(f"  est. wall, 2 idle cores: {serial:.1f} s serial + {phase:.1f} s cell phase = "
          f"{serial + phase:.1f} s")


if __name__ == "__main__":
    main()
