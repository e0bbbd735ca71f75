"""Benchmark: start-up cost of the command line (issue 12: `dptheory --help` and
`dptheory list` under 0.3 s). Not a test; run ``python benchmarks/bench_startup.py``.

Each command runs in a fresh process; its CPU time (user + system of the child, from
``resource.getrusage(RUSAGE_CHILDREN)``) is measured, with ``python -c pass`` beside it as
the floor of any Python command. Rounds interleave the commands so that load from other
jobs on the machine falls on all of them alike; min and median are reported.
``list (cold)`` runs with an empty catalog-index cache (it builds every catalog once, as
the first `dptheory list` after an install or a change to a catalog does).
"""

from __future__ import annotations

import argparse
import os
import resource
import shutil
import statistics
import subprocess
import sys
import tempfile
from pathlib import Path


def cpu_of(argv: list[str], env: dict[str, str]) -> float:
    before = resource.getrusage(resource.RUSAGE_CHILDREN)
    subprocess.run(argv, env=env, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL,
                   check=True)
    after = resource.getrusage(resource.RUSAGE_CHILDREN)
    return (after.ru_utime - before.ru_utime) + (after.ru_stime - before.ru_stime)


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--rounds", type=int, default=7)
    args = ap.parse_args()
    exe = shutil.which("dptheory") or str(Path(sys.executable).with_name("dptheory"))
    warm = tempfile.mkdtemp(prefix="dptheory-cache-")
    env = {**os.environ, "DPTHEORY_CACHE_DIR": warm}
    commands = {
        "python -c pass": [sys.executable, "-c", "pass"],
        "dptheory --help": [exe, "--help"],
        "dptheory --version": [exe, "--version"],
        "dptheory list": [exe, "list"],
    }
    subprocess.run([exe, "list"], env=env, stdout=subprocess.DEVNULL, check=True)   # warm
    times: dict[str, list[float]] = {k: [] for k in [*commands, "dptheory list (cold)"]}
    for _ in range(args.rounds):
        for name, argv in commands.items():
            times[name].append(cpu_of(argv, env))
        cold = tempfile.mkdtemp(prefix="dptheory-cold-")
        times["dptheory list (cold)"].append(cpu_of([exe, "list"], {**env, "DPTHEORY_CACHE_DIR": cold}))
        shutil.rmtree(cold, ignore_errors=True)
    shutil.rmtree(warm, ignore_errors=True)
    floor = min(times["python -c pass"])
    print(f"CPU seconds per command, {args.rounds} interleaved rounds (min / median; "
          f"ratio of min to python -c pass)")
    for name, ts in times.items():
        print(f"  {name:<24} {min(ts):6.3f} / {statistics.median(ts):6.3f} s   "
              f"x{min(ts) / floor:5.1f}")
    for name in ("dptheory --help", "dptheory list"):
        verdict = "under" if min(times[name]) < 0.3 else "NOT under"
        print(f"{name}: {verdict} the 0.3 s target (min {min(times[name]):.3f} s)")


if __name__ == "__main__":
    main()
