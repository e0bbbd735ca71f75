"""Top-level cell functions for the parallel tests (importable by loky and Dask workers).

Run as ``python -m tests.verify.cellfuncs DB RUN_ID LOG_DIR N_CELLS SLEEP`` it is the sweep
that the SIGKILL test interrupts and restarts.
"""

from __future__ import annotations

import os
import sys
import time
from functools import partial
from pathlib import Path

import numpy as np

from dptheory.store import Store, cell_key

BASE_SEED = 20240607


def draw(cell: dict, log_dir: str | None = None, sleep: float = 0.0) -> dict:
    """A cell whose result depends only on its seed; logs each call (one line per call)."""
    if log_dir is not None:
        # O_APPEND writes of one short line are atomic across processes.
        fd = os.open(os.path.join(log_dir, "calls.log"), os.O_WRONLY | os.O_APPEND | os.O_CREAT)
        try:
            os.write(fd, (cell_key(cell) + "\n").encode())
        finally:
            os.close(fd)
    if sleep:
        time.sleep(sleep)
    rng = np.random.default_rng(cell["seed"])
    return {"n": cell["n"], "x": rng.standard_normal(4), "u": float(rng.random()),
            "tiny": float(rng.random()) * 1e-300, "ints": rng.integers(0, 10, 3).tolist()}


def boom(cell: dict, at: int = 3) -> dict:
    if cell["n"] == at:
        raise ValueError(f"cell {at} fails on purpose")
    return draw(cell)


def write_cells(db: str, run_id: str, worker: int, count: int) -> int:
    """Write ``count`` cells from this process (concurrent-writer test)."""
    with Store(db, busy_timeout=10.0) as store:
        store.new_run("concurrent", {"worker": worker}, run_id)
        for i in range(count):
            store.put(run_id, cell_key({"worker": worker, "i": i}), {"v": worker * 1000 + i + 0.1})
    return os.getpid()


def read_calls(log_dir: str | os.PathLike) -> list[str]:
    path = Path(log_dir) / "calls.log"
    return path.read_text().splitlines() if path.exists() else []


def sweep_cells(n_cells: int) -> list[dict]:
    return [{"recipe": "test.sigkill", "n": n, "block": 0} for n in range(n_cells)]


def stored_sweep(db: str | os.PathLike, n_cells: int) -> dict:
    """Run (or resume) the ``draw`` sweep of ``n_cells`` cells into the store ``db``, run "r"."""
    from dptheory.parallel import run_cells
    with Store(db) as store:
        return run_cells(draw, sweep_cells(n_cells), store=store, run_id="r", n_jobs=1,
                         base_seed=BASE_SEED, progress=False)


def exact(results: dict) -> dict:
    """``{key: JSON text}``: results compared to the last bit."""
    from dptheory.store import dumps
    return {k: dumps(v) for k, v in results.items()}


def main(argv: list[str]) -> int:
    from dptheory.parallel import run_cells
    db, run_id, log_dir, n_cells, sleep = argv
    with Store(db) as store:
        run_cells(partial(draw, log_dir=log_dir, sleep=float(sleep)), sweep_cells(int(n_cells)),
                  store=store, run_id=run_id, n_jobs=2, base_seed=BASE_SEED, progress=False,
                  command="tests.verify.cellfuncs")
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
