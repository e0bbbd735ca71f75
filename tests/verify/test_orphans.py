"""No orphan workers: SIGKILL the process that runs a sweep; no worker survives 5 s later."""

from __future__ import annotations

import os
import signal
import subprocess
import sys
import time
from pathlib import Path

import pytest

from tests.verify.cellfuncs import read_calls

REPO = Path(__file__).resolve().parents[2]
DPTHEORY = Path(sys.executable).with_name("dptheory")


def _children(pid: int) -> set[int]:
    """Every live descendant of ``pid`` (from /proc)."""
    parents: dict[int, int] = {}
    for entry in os.listdir("/proc"):
        if entry.isdigit():
            try:
                stat = Path(f"/proc/{entry}/stat").read_text()
            except OSError:
                continue
            parents[int(entry)] = int(stat.rsplit(")", 1)[1].split()[1])
    out, frontier = set(), {pid}
    while frontier:
        frontier = {c for c, p in parents.items() if p in frontier} - out
        out |= frontier
    return out


def _alive(pid: int) -> bool:
    try:
        state = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()[0]
    except OSError:
        return False
    return state != "Z"


def _kill_and_check(proc: subprocess.Popen, workers: set[int], wait: float = 5.0) -> None:
    """SIGKILL the parent and check that every worker has exited within ``wait`` seconds."""
    assert workers, "the sweep started no worker process"
    os.kill(proc.pid, signal.SIGKILL)          # the parent only, not its process group
    proc.wait(timeout=30)
    deadline = time.monotonic() + wait
    while any(_alive(w) for w in workers) and time.monotonic() < deadline:
        time.sleep(0.05)
    survivors = {w for w in workers if _alive(w)}
    for w in survivors:                         # do not leave them behind either way
        os.kill(w, signal.SIGKILL)
    assert not survivors, f"{len(survivors)} of {len(workers)} workers outlived their parent"


def _wait_for_workers(proc: subprocess.Popen, busy: "callable", timeout: float = 120) -> set[int]:
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline and proc.poll() is None and not busy():
        time.sleep(0.1)
    assert proc.poll() is None, "the sweep ended before it could be killed"
    return _children(proc.pid)


def _sleeping_sweep(tmp_path: Path) -> tuple[Path, subprocess.Popen]:
    """(call log, process) of a sweep of 4 cells that sleep 60 s each, on two workers."""
    log = tmp_path / "log"
    log.mkdir()
    proc = subprocess.Popen(
        [sys.executable, "-m", "tests.verify.cellfuncs", str(tmp_path / "s.db"), "orphans",
         str(log), "4", "60"], cwd=REPO, start_new_session=True,
        stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    return log, proc


@pytest.mark.skipif(not Path("/proc").is_dir(), reason="needs /proc to find the workers")
def test_sigkill_of_a_sweep_leaves_no_busy_worker(tmp_path):
    # cells that sleep 60 s: without the parent watch the workers would compute on
    log, proc = _sleeping_sweep(tmp_path)
    try:
        workers = _wait_for_workers(proc, lambda: len(read_calls(log)) >= 2)
        _kill_and_check(proc, workers)
    finally:
        if proc.poll() is None:
            os.killpg(proc.pid, signal.SIGKILL)


@pytest.mark.skipif(not Path("/proc").is_dir(), reason="needs /proc to find the workers")
@pytest.mark.skipif(not DPTHEORY.exists(), reason="the dptheory script is not installed")
def test_sigkill_of_verify_leaves_no_worker(tmp_path):
    # a full audit recipe: cells of thousands of runs each, on two workers
    out = tmp_path / "report"
    proc = subprocess.Popen(
        [str(DPTHEORY), "verify", "--only", "zhang2021.thm3.1:audit-zhang2021.alg2",
         "--jobs", "2", "--out", str(out)], cwd=tmp_path, start_new_session=True,
        stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    try:
        workers = _wait_for_workers(proc, lambda: len(_children(proc.pid)) >= 2)
        time.sleep(2.0)                          # let them pick up cells
        workers = _children(proc.pid)
        _kill_and_check(proc, workers)
    finally:
        if proc.poll() is None:
            os.killpg(proc.pid, signal.SIGKILL)


def _loky_workers(pid: int) -> set[int]:
    """The loky worker processes among the children of ``pid`` (not its resource trackers)."""
    out = set()
    for c in _children(pid):
        try:
            if b"popen_loky" in Path(f"/proc/{c}/cmdline").read_bytes():
                out.add(c)
        except OSError:
            continue
    return out


@pytest.mark.skipif(not Path("/proc").is_dir(), reason="needs /proc to find the workers")
def test_sigkill_while_the_workers_start_leaves_no_worker(tmp_path):
    # issue 25: killed before any worker had a cell, the workers had no watch yet and lived
    # on until loky's idle timeout (300 s); the watch now starts with the worker (loky's
    # initializer), so they exit once started (2.0-2.4 s measured under load, see
    # benchmarks/bench_orphan_exit.py)
    log, proc = _sleeping_sweep(tmp_path)
    workers: set[int] = set()
    try:
        deadline = time.monotonic() + 120
        while time.monotonic() < deadline and proc.poll() is None and len(workers) < 2:
            workers = _loky_workers(proc.pid)
            time.sleep(0.005)
        assert not read_calls(log), "a cell started before the kill: not the start-up case"
        # start-up takes seconds on a loaded machine; the limit only separates "exits once
        # started" from "lives on until the idle timeout"
        _kill_and_check(proc, workers, wait=30.0)
    finally:
        if proc.poll() is None:
            os.killpg(proc.pid, signal.SIGKILL)
