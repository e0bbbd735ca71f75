"""Work beside the cells (dptheory.verify.beside): a forked process returns what this process
would compute, and anything it cannot deliver is computed here."""

import os
import sys
import time

import pytest

from dptheory.verify.beside import Beside, power_keys

forks = pytest.mark.skipif(not sys.platform.startswith("linux"), reason="fork on Linux only")


def square(x):
    return {"x": x, "pid": os.getpid(), "sq": x * x}


def fails():
    raise ValueError("planted failure")


def unpicklable():
    return lambda: 1           # a result the pipe cannot carry


def slow():
    time.sleep(60)
    return 1


@forks
def test_forked_results_equal_in_process_ones_in_order():
    jobs = [(square, (3,)), (square, (4,))]
    b = Beside(jobs, parallel=True)
    try:
        assert b.forked
        got = [b.result(1), b.result(0)]          # asked out of order
    finally:
        b.close()
    assert [g["sq"] for g in got] == [16, 9]
    assert all(g["pid"] != os.getpid() for g in got)      # computed in the other process
    here = Beside(jobs, parallel=False)
    assert not here.forked
    assert here.result(0)["pid"] == os.getpid() and here.result(0)["sq"] == 9


@forks
def test_a_failing_job_raises_here_and_an_unpicklable_result_is_computed_here():
    b = Beside([(fails, ()), (unpicklable, ()), (square, (2,))], parallel=True)
    try:
        with pytest.raises(ValueError, match="planted failure"):
            b.result(0)
        assert b.result(1)() == 1
        assert b.result(2)["sq"] == 4
    finally:
        b.close()


@forks
def test_close_ends_a_computing_child_at_once():
    b = Beside([(slow, ())], parallel=True)
    proc = b._proc
    t = time.perf_counter()
    b.close()
    assert time.perf_counter() - t < 10
    assert not proc.is_alive()


def test_power_keys_are_the_audit_recipes_pooled_run_counts():
    from dptheory.verify.audit import power_key
    from dptheory.verify.recipe import Recipe
    audit = Recipe("x.thm1:audit-quick-a", "x.thm1", "audit", "m:f", {"calibration": ["paper"]},
                   fixed={"eps": 1.0, "delta": 1e-3}, reps=8000, block=8000, reps_full=16384)
    other = Recipe("x.thm1:bound-n", "x.thm1", "bound", "m:f", {"n": [8]}, fixed={"eps": 1.0})
    assert power_keys([audit, other], full=False) == [power_key(8000, 8000, 1e-3, 1.0)]
    assert power_keys([audit, audit], full=True) == [power_key(16384, 16384, 1e-3, 1.0)]


def test_a_learned_power_is_returned_as_is():
    from dptheory.verify import audit as A
    key = A.power_key(10, 10, 0.5, 123.0)
    marker = {"eps_detect": 1.0, "planted": True}
    A.learn_power(key, marker)
    try:
        assert A.audit_power(10, 10, 0.5, 123.0) is marker
    finally:
        A._LEARNED.pop(key)
