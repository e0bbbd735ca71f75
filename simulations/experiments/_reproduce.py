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


class Reproduction:
    """Base of the reproductions: ``run`` settles the sizes (``--quick`` or the paper's) and
    hands over to ``_run``. Subclasses set ``id``, ``title``, ``quick_size``, ``full_size``
    (``{"subsample": ..., "reps": ...}``) and ``min_subsample``."""

    id: str
    title: str
    quick_size: dict[str, Any]
    full_size: dict[str, Any]
    min_subsample: int = 2

    def run(self, *, quick: bool = False, datasets: Sequence[str] | None = None,
            sources: dict[str, str] | None = None, subsample: int | None = None,
            reps: int | None = None, seed: int = 0, out: str | Path = "dptheory-reproduce",
            n_jobs: int = 1, progress: bool = True, figure: bool = True,
            runner: Callable[..., Any] | None = None) -> dict[str, Any]:
        """Run (or resume) the reproduction; results are committed cell by cell to
        ``out/results.sqlite`` under a run id fixed by the settings, so an interrupted run
        resumes where it stopped. ``quick``: the recipe's subsample and replicates;
        ``subsample``/``reps`` override either."""
        base = self.quick_size if quick else self.full_size
        subsample = base["subsample"] if subsample is None else subsample
        reps = base["reps"] if reps is None else reps
        if reps < 1:
            raise ValueError(f"reps must be >= 1, got {reps}")
        if subsample is not None and subsample < self.min_subsample:
            raise ValueError(f"subsample must be >= {self.min_subsample}, got {subsample}")
        return self._run(datasets=list(datasets or []), sources=dict(sources or {}),
                         subsample=subsample, reps=reps, seed=seed, out=Path(out),
                         n_jobs=n_jobs, progress=progress, figure=figure, runner=runner)

    def _run(self, **options: Any) -> dict[str, Any]:
        raise NotImplementedError
