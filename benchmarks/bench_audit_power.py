"""Measured power of the built-in quick audits (issue 21): each ``audit-quick-*`` recipe of
``verify --quick`` is run through the engine's own cells and pooling (the cell seeds that
``dptheory verify --seed S`` uses) for several seeds. Not a test; run

    python benchmarks/bench_audit_power.py [--seeds 5] [--only zhang2017.alg1 ...]

Per algorithm it prints: the verdict on the paper's calibration per seed (S supported,
R refuted, I inconclusive), the twin detection rate over seeds (the twin: the same code with
its noise set so that its eps is POWER_FACTOR x the claim), the median of the twin's 95 %
lower bound over the claim (> 1: caught), what the adversary saw, and the CPU seconds per
audit (both sweep points): ``s first`` is the first seed's, which pays for calibrating the
twin's noise as ``verify --quick`` does (later seeds reuse it from the process's cache), and
``s/audit`` the median over seeds. A quick audit is one cell per point (QUICK_BLOCK =
QUICK_RUNS), so CPU time is what one worker spends.
"""

from __future__ import annotations

import argparse
import statistics
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from dptheory.verify.audit import epsilon_lower_bound, evaluate_recipe  # noqa: E402
from dptheory.verify.engine import _pool, build_cells, dispatch  # noqa: E402


def _audits(only: list[str] | None) -> list:
    from dptheory_simulations.experiments import RECIPES
    out = [r for r in RECIPES if r.check == "audit" and r.quick]
    if only:
        out = [r for r in out if r.fixed["algorithm"] in only]
    return out


def run_one(r, seed: int) -> dict:
    """One quick audit at ``seed``: verdict, twin lower bound / claim, CPU seconds."""
    t0 = time.process_time()
    cells = build_cells([r], full=False, seed=seed)
    pooled = _pool([(dispatch(c), c) for c in cells], r, False)
    chk = evaluate_recipe(r, pooled)
    twin = pooled.get("twin")
    claim = float(r.fixed["eps"])
    tlb = None
    if twin is not None:
        tlb = epsilon_lower_bound(twin["scores_in"], twin["scores_out"],
                                  twin["delta"])["epsilon_lower"]
    paper = chk.evidence.get("points", {}).get("paper", {})
    return {"verdict": chk.verdict, "twin_ratio": None if tlb is None else tlb / claim,
            "caught": tlb is not None and tlb > claim, "cpu": time.process_time() - t0,
            "lower": paper.get("epsilon_lower"), "adversary": pooled["paper"].get("adversary", ""),
            "twin_how": (twin or {}).get("twin_calibration") or "",
            "summary": chk.summary}


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--seeds", type=int, default=5, help="seeds 0..N-1 per audit (default 5)")
    ap.add_argument("--only", nargs="*", default=None, help="algorithm ids (default: all)")
    ap.add_argument("--verbose", action="store_true", help="print each verdict's summary")
    a = ap.parse_args()
    if a.seeds < 1:
        print("error: --seeds must be >= 1", file=sys.stderr)
        sys.exit(2)
    recipes = _audits(a.only)
    if not recipes:
        print("error: no quick audit matches --only", file=sys.stderr)
        sys.exit(2)
    print(f"{'algorithm':28s} {'verdicts':>10s} {'twin caught':>11s} {'twin lb/claim':>13s} "
          f"{'s first':>8s} {'s/audit':>8s}  adversary; twin")
    total = 0.0
    for r in recipes:
        rows = [run_one(r, s) for s in range(a.seeds)]
        total += sum(x["cpu"] for x in rows)
        verdicts = "".join(x["verdict"][0].upper() for x in rows)
        ratios = [x["twin_ratio"] for x in rows if x["twin_ratio"] is not None]
        med = statistics.median(ratios) if ratios else float("nan")
        caught = sum(x["caught"] for x in rows)
        adv = rows[0]["adversary"].split(" (")[0]
        how = rows[0]["twin_how"].split(":")[0]
        print(f"{r.fixed['algorithm']:28s} {verdicts:>10s} {caught:>5d}/{len(rows):<5d} "
              f"{med:13.2f} {rows[0]['cpu']:8.1f} "
              f"{statistics.median(x['cpu'] for x in rows):8.1f}  {adv}; {how}",
              flush=True)
        for s, x in enumerate(rows):
            # a refutation is a potential finding: always show its evidence
            if a.verbose or x["verdict"] == "refuted":
                print(f"    seed {s}: {x['verdict']}: {x['summary']}")
    print(f"total CPU {total:.0f} s for {len(recipes)} audits x {a.seeds} seeds")


if __name__ == "__main__":
    main()
