"""The report's per-recipe figures, drawn in parallel.

A ``verify --quick`` report holds some thirty rate figures (one per bound, slope and
stability recipe), each a third of a CPU second of text layout and rendering; drawn one after
the other they were most of the report's time. Each figure depends only on its recipe, its
verdict and its pooled cells, so they are drawn by forked processes (one per core, at most
:data:`PROCESSES`), each writing its own files; where ``fork`` is not available, or for a
handful of figures, they are drawn in this process. The files are the same either way.
"""

from __future__ import annotations

import multiprocessing
import os
from pathlib import Path
from typing import Any, Callable

from dptheory.parallel import fork_available

__all__ = ["draw_rate_figures", "PROCESSES"]

#: at most this many drawing processes
PROCESSES = 4
#: fewer figures than this are drawn in this process (a fork costs more than it saves)
MIN_PARALLEL = 4


def _cores() -> int:
    try:
        return len(os.sched_getaffinity(0))
    except AttributeError:             # not on Linux
        return os.cpu_count() or 1


def draw_rate_figures(items: list[tuple[Any, Any, dict]], figdir: Path, svg: bool,
                      draw: Callable[..., str | None]) -> list[str | None]:
    """``draw(recipe, verdict, pooled, figdir, svg)`` (the report's
    :func:`dptheory.verify.report.rate_figure`, passed in so this module does not import the
    report) of each ``(recipe, verdict, pooled)``: the file names (None where a recipe has no
    figure), in the order of ``items``."""
    jobs = [(r, v, p, Path(figdir), svg) for r, v, p in items]
    procs = min(PROCESSES, _cores(), len(jobs))
    if not fork_available() or procs < 2 or len(jobs) < MIN_PARALLEL:
        return [draw(*j) for j in jobs]
    with multiprocessing.get_context("fork").Pool(procs) as pool:
        return pool.starmap(draw, jobs, chunksize=1)
