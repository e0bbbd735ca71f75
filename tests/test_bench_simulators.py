"""Smoke test of benchmarks/bench_simulators.py --quick: it runs, and every simulator's
output equals its plain hand-written reference loop (same streams, independent code for
the algorithm). Timings are printed by the benchmark, never asserted here."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

SCRIPT = Path(__file__).resolve().parents[1] / "benchmarks" / "bench_simulators.py"


def _run(*args: str) -> subprocess.CompletedProcess:
    return subprocess.run([sys.executable, str(SCRIPT), *args], capture_output=True, text=True,
                          timeout=600)


def test_quick_run_agrees_with_the_reference_loops():
    out = _run("--quick", "--no-scaling", "--rounds", "1", "--json")
    assert out.returncode == 0, out.stderr
    report = json.loads(out.stdout)
    results = report["results"]
    assert len(results) == 9
    for r in results:
        assert r["max_abs_dw"] < 1e-12, r
        assert r["sim_alg_cpu_min"] > 0 and r["ref_cpu_min"] > 0
        # the throughput is printed beside a floor computed from the machine probe
        assert r["grads_per_s"] > 0 and r["floor_grads_per_s"] > 0
    assert set(report["machine"]) == {"gemm_gflops", "read_gbs", "gather_gbs"}


def test_bad_arguments_exit_2_with_one_line():
    for args in (["--rounds", "0"], ["--only", "no.such.algorithm"]):
        out = _run("--quick", "--no-scaling", *args)
        assert out.returncode == 2
        assert len(out.stderr.strip().splitlines()) == 1
