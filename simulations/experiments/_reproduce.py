"""Shared machinery of the reproductions: cells run through :func:`dptheory.parallel.run_cells`
into a results store under a run id fixed by the settings (an interrupted run resumes)."""

from __future__ import annotations

import hashlib
import json
import time
from pathlib import Path
from typing import Any, Callable, Sequence

__all__ = ["run_stored", "ratio"]


def run_stored(rep_id: str, func: Callable[[dict[str, Any]], Any],
               cells: Sequence[dict[str, Any]], settings: dict[str, Any], out: str | Path, *,
               n_jobs: int = 1, progress: bool = True,
               runner: Callable[..., Any] | None = None) -> tuple[list[Any], dict[str, Any]]:
    """Results of ``func`` over ``cells`` (in order) and the run's record."""
    from dptheory.parallel import run_cells
    from dptheory.store import Store
    run_id = rep_id + "-" + hashlib.sha256(
        json.dumps(settings, sort_keys=True).encode()).hexdigest()[:10]
    out = Path(out)
    out.mkdir(parents=True, exist_ok=True)
    started = time.perf_counter()
    with Store(out / "results.sqlite") as store:
        results = (runner or run_cells)(func, list(cells), store=store, run_id=run_id,
                                        n_jobs=n_jobs, progress=progress,
                                        command=f"reproduce {rep_id}")
    record = {"settings": settings, "run_id": run_id, "store": str(out / "results.sqlite"),
              "elapsed_seconds": time.perf_counter() - started,
              "cells_computed": len(results.computed)}
    return [results[k] for k in results], record


def ratio(a: float | None, b: float | None) -> float | None:
    """a / b, or None when either is missing, not finite, or b is 0."""
    import math
    if a is None or b is None or b == 0 or not math.isfinite(a) or not math.isfinite(b):
        return None
    return float(a / b)
