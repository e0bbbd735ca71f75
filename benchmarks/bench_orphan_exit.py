"""Benchmark: how long local workers outlive a SIGKILLed sweep (``dptheory.parallel``).

A sweep of CPU-bound cells (pure Python, so the workers hold the GIL) runs with
``run_cells(n_jobs=2)`` in a child process; the child is killed with SIGKILL and the time
until each of its loky workers has exited is measured (a worker that has exited but is not
yet reaped counts as exited). Two moments:

* ``computing``: after four cells have started (the workers are busy);
* ``starting``: as soon as the worker processes exist, before any cell has started (the
  workers are still importing).

Wall-clock seconds from the SIGKILL to the last worker's exit; min, median and max over the
rounds, with the load average, since on a shared machine the figures grow with the load.

    python benchmarks/bench_orphan_exit.py [--rounds 5]
"""

from __future__ import annotations

import argparse
import os
import signal
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path


def spin(cell: dict, log: str, seconds: float) -> dict:
    """A cell that logs its start, then computes in pure Python for ``seconds``."""
    with open(log, "a") as fh:
        fh.write(f"{cell['n']}\n")
    end, x = time.perf_counter() + seconds, 0
    while time.perf_counter() < end:
        x = (x * 1103515245 + 12345) % 2**31
    return {"n": cell["n"], "x": x}


def sweep(db: str, log: str, seconds: float) -> None:
    """The sweep that is killed (runs in the child process)."""
    from functools import partial

    from dptheory.parallel import run_cells
    from dptheory.store import Store
    with Store(db) as store:
        run_cells(partial(spin, log=log, seconds=seconds),
                  [{"n": n} for n in range(200)], store=store, n_jobs=2, progress=False)


def _children(pid: int) -> dict[int, str]:
    out = {}
    for d in Path("/proc").iterdir():
        if not d.name.isdigit():
            continue
        try:
            stat = (d / "stat").read_text()
            cmd = (d / "cmdline").read_bytes().replace(b"\0", b" ").decode(errors="replace")
        except OSError:
            continue
        if int(stat.rsplit(")", 1)[1].split()[1]) == pid:
            out[int(d.name)] = cmd
    return out


def _running(pid: int) -> bool:
    try:
        state = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()[0]
    except OSError:
        return False
    return state not in ("Z", "X")


def one_round(moment: str, seconds: float = 0.5, limit: float = 60.0) -> float:
    """Seconds from SIGKILL of the sweep to the exit of its last worker."""
    tmp = Path(tempfile.mkdtemp(prefix="bench-orphan-"))
    log = tmp / "started.log"
    workers: list[int] = []
    proc = subprocess.Popen([sys.executable, __file__, "--sweep", str(tmp / "s.sqlite"),
                             str(log), str(seconds)], start_new_session=True,
                            stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    try:
        while True:
            workers = [p for p, cmd in _children(proc.pid).items() if "popen_loky" in cmd]
            started = len(log.read_text().splitlines()) if log.exists() else 0
            if (moment == "starting" and len(workers) >= 2 and started == 0) or \
                    (moment == "computing" and started >= 4):
                break
            if proc.poll() is not None:
                raise RuntimeError("the sweep ended before it could be killed")
            time.sleep(0.005)
        t0 = time.monotonic()
        proc.send_signal(signal.SIGKILL)
        proc.wait()
        while any(_running(w) for w in workers) and time.monotonic() - t0 < limit:
            time.sleep(0.005)
        return time.monotonic() - t0
    finally:                            # nothing of this round is left behind
        if proc.poll() is None:
            proc.kill()
        for w in workers:
            try:
                os.kill(w, signal.SIGKILL)
            except ProcessLookupError:
                pass


def main() -> None:
    """Run the rounds and print one line per moment."""
    if len(sys.argv) == 5 and sys.argv[1] == "--sweep":
        sweep(sys.argv[2], sys.argv[3], float(sys.argv[4]))
        return
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--rounds", type=int, default=5)
    rounds = ap.parse_args().rounds
    times: dict[str, list[float]] = {"computing": [], "starting": []}
    for _ in range(rounds):                 # interleaved: load hits both moments alike
        for moment in times:
            times[moment].append(one_round(moment))
    print(f"load average {os.getloadavg()[0]:.1f} on {os.cpu_count()} cores; "
          f"{rounds} rounds; seconds from SIGKILL to the last worker's exit")
    for moment, ts in times.items():
        print(f"  {moment:10s} min {min(ts):.2f}  median {statistics.median(ts):.2f}  "
              f"max {max(ts):.2f}")


if __name__ == "__main__":
    main()
