"""Benchmark: how long a failing property test on the ``dptheory.testing`` strategies takes
to report its shrunk counterexample (issue 26, item 4). Not a test.

    python benchmarks/bench_shrink.py [--seeds 5] [--only NAME ...] [--json]

Each case is a planted wrong claim written as a user would (``@given`` with
``@settings(database=None, deadline=None)``, every other setting at Hypothesis's default,
so the generate, shrink and explain phases all run), run under ``hypothesis.seed(s)`` for
s = 0..seeds-1. It prints, per case, the wall and CPU seconds until the test raised (find +
shrink + explain), the number of test calls, and the shrunk counterexample of seed 0. The
rows marked ``grid=None`` draw raw floats (the strategies' pre-grid search space) for
comparison; ``no explain`` drops ``Phase.explain`` as the docstring of
``dptheory.testing`` suggests for expensive tests.
"""

from __future__ import annotations

import argparse
import json
import statistics
import sys
import time

import numpy as np
from hypothesis import Phase, given, seed, settings

from dptheory import testing as dt

C, B = 0.5, 8           # clipping threshold and batch size of the planted sensitivity claim


def clipped_mean(X: np.ndarray) -> np.ndarray:
    """(1/B) sum_i clip_C(x_i)."""
    norms = np.linalg.norm(X, axis=1, keepdims=True)
    return (X * np.minimum(1.0, C / np.maximum(norms, 1e-300))).sum(axis=0) / len(X)


def _sens(pair) -> bool:
    # planted wrong claim: the clipped mean's replace-one sensitivity is 2C/B, not C/B
    (X, _), (Xp, _) = pair
    return np.linalg.norm(clipped_mean(X) - clipped_mean(Xp)) <= C / B


def _sum_add_remove(pair) -> bool:
    # planted wrong claim: the sum of unit-ball records moves by <= 1/2 under add/remove
    (X, _), (Xp, _) = pair
    return np.linalg.norm(X.sum(axis=0) - Xp.sum(axis=0)) <= 0.5


CASES = {
    "neighbouring_datasets: clipped mean <= C/B": (
        lambda grid: dt.neighbouring_datasets(n=B, d=3, grid=grid), _sens),
    "neighbouring_datasets add-remove: sum <= 1/2": (
        lambda grid: dt.neighbouring_datasets(d=5, relation="add-remove", grid=grid),
        _sum_add_remove),
    "datasets: every ||x_i|| < 0.9": (
        lambda grid: dt.datasets(d=3, grid=grid),
        lambda D: np.linalg.norm(D[0], axis=1).max() < 0.9),
    "datasets y_range: mean label < 0.8": (
        lambda grid: dt.datasets(d=2, labels=None, y_range=(0.0, 1.0), grid=grid),
        lambda D: D[1].mean() < 0.8),
    "records: x_1 + y < 1.5": (
        lambda grid: dt.records(4, grid=grid), lambda r: r[0][0] + r[1] < 1.5),
    "privacy_parameters: eps < 5": (
        lambda grid: dt.privacy_parameters(), lambda p: p["eps"] < 5),
    "objectives: n < 40": (
        lambda grid: dt.objectives(), lambda od: od[1].n < 40),
}


def run(strategy, prop, s: int, phases=None) -> dict:
    calls = [0]
    example: list = []
    kw = {} if phases is None else {"phases": phases}

    @seed(s)
    @settings(database=None, deadline=None, **kw)
    @given(strategy)
    def test(x):
        calls[0] += 1
        ok = prop(x)
        if not ok:
            example[:] = [x]
        assert ok

    w0, c0 = time.perf_counter(), time.process_time()
    failed = False
    try:
        test()
    except AssertionError:
        failed = True
    # the last failing call is Hypothesis's final replay of the shrunk example
    return {"wall": time.perf_counter() - w0, "cpu": time.process_time() - c0,
            "calls": calls[0], "failed": failed, "example": example[0] if example else None}


def show(x) -> str:
    """One line: the example as Hypothesis would print it (arrays without line breaks)."""
    with np.printoptions(linewidth=10_000, threshold=60):
        return " ".join(repr(x).split())


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--seeds", type=int, default=5, help="Hypothesis seeds per case (default 5)")
    ap.add_argument("--only", nargs="*", default=None, help="substrings of case names")
    ap.add_argument("--no-float-rows", action="store_true", help="skip the grid=None rows")
    ap.add_argument("--json", action="store_true")
    a = ap.parse_args(argv)
    if a.seeds < 1:
        print("bench_shrink: --seeds must be >= 1", file=sys.stderr)
        return 2
    variants = [("default", dt.GRID, None), ("no explain", dt.GRID,
                [Phase.explicit, Phase.reuse, Phase.generate, Phase.target, Phase.shrink])]
    if not a.no_float_rows:
        variants.append(("grid=None", None, None))
    out = []
    for name, (make, prop) in CASES.items():
        if a.only is not None and not any(o in name for o in a.only):
            continue
        for label, grid, phases in variants:
            runs = [run(make(grid), prop, s, phases) for s in range(a.seeds)]
            row = {"case": name, "variant": label, "seeds": a.seeds,
                   "all_failed": all(r["failed"] for r in runs),
                   "wall_median": statistics.median(r["wall"] for r in runs),
                   "wall_max": max(r["wall"] for r in runs),
                   "cpu_median": statistics.median(r["cpu"] for r in runs),
                   "cpu_max": max(r["cpu"] for r in runs),
                   "calls_median": statistics.median(r["calls"] for r in runs)}
            out.append(row)
            if not a.json:
                print(f"{name:46s} {label:10s} wall {row['wall_median']:6.2f} s (max "
                      f"{row['wall_max']:6.2f})  cpu {row['cpu_median']:6.2f} s (max "
                      f"{row['cpu_max']:6.2f})  {row['calls_median']:5.0f} calls"
                      f"{'' if row['all_failed'] else '  NOT ALL FAILED'}", flush=True)
                if label == "default":
                    print("    shrunk (seed 0):", show(runs[0]["example"]))
            if name.startswith(("privacy", "objectives")):
                break                 # no grid parameter: one row
    if a.json:
        print(json.dumps({"results": out}))
    return 0


if __name__ == "__main__":
    sys.exit(main())
