"""Demonstration (issue 21 acceptance): the plug-in audit of full-batch DP-SGD written to the
README's contract (clipping at C, 20 Gaussian steps, every iterate released, replace-one,
claim eps = 2, delta = 1e-5), at the default settings, on many seeds. Not a test; run

    python benchmarks/bench_plugin_audit.py [--seeds 20] [--only mypkg.dpsgd-noevent]

Each row: the version, the seed, the verdict, the stage that decided (runs per side), the
certified eps and mu lower bounds, the twin's, and the CPU seconds. The correct versions
must never be refuted; the buggy ones must always be. The plug-in is the one of
``tests/verify/test_plugin_dpsgd_audit.py`` (its true eps from the exact Gaussian curve).
"""

from __future__ import annotations

import argparse
import math
import sys
import time
from pathlib import Path

from scipy import optimize, stats

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from dptheory.verify.audit import audit_plugin  # noqa: E402
from tests.verify.dpsgd_plugin_source import SOURCE  # noqa: E402


def main() -> None:
    ap = argparse.ArgumentParser()
    ap.add_argument("--seeds", type=int, default=20)
    ap.add_argument("--only", default=None, help="one version id (default: all six)")
    a = ap.parse_args()

    def dl(e: float, mu: float) -> float:
        return stats.norm.cdf(-e / mu + mu / 2) - math.exp(e) * stats.norm.cdf(-e / mu - mu / 2)

    mu_c = optimize.brentq(lambda m: dl(2.0, m) - 1e-5, 0.01, 5.0, xtol=1e-14)
    ns: dict = {}
    exec(SOURCE.format(mu_claim=mu_c), ns)
    algs = [x for x in ns["ALGORITHMS"] if a.only in (None, x.id)]
    print(f"{'version':32s} seed verdict       runs     eps_lo  mu_lo  twin_eps twin_mu  cpu_s")
    for alg in algs:
        for seed in range(a.seeds):
            t = time.process_time()
            d = audit_plugin(alg, seed=seed)
            tw = d["twin"] or {}
            print(f"{alg.id:32s} {seed:4d} {d['verdict']:12s} {d['runs'][0]:8d} "
                  f"{d['epsilon_lower']:7.3f} {d['mu_lower']:6.3f} "
                  f"{tw.get('epsilon_lower', float('nan')):8.3f} "
                  f"{tw.get('mu_lower', float('nan')):7.3f} {time.process_time() - t:6.1f}",
                  flush=True)


if __name__ == "__main__":
    main()
