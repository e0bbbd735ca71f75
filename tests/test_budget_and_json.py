"""Budgets (dptheory.budget) and the strict JSON printer (dptheory.cli.jsonout)."""

from __future__ import annotations

import json
import math

import numpy as np
import pytest

from dptheory.budget import (accountant_memory, check_memory, check_steps, max_memory_bytes,
                             simulation_memory, step_limit)
from dptheory.cli.jsonout import dumps_strict, strict
from dptheory.errors import ResourceLimitError


# ------------------------------------------------------------------ memory estimates
def test_simulation_memory_counts_the_arrays():
    # dataset n d + 3 copies of the per-sample gradients reps n d, 8 bytes each (by hand)
    assert simulation_memory(10, 3, 2) == 8 * (10 * 3 + 3 * 2 * 10 * 3)
    # second order: 3 reps d^2 Hessians, times n when they are per sample
    assert simulation_memory(10, 3, 2, second_order=True) == 8 * (30 + 180 + 3 * 2 * 9)
    assert simulation_memory(10, 3, 2, second_order=True, per_sample_hessians=True) == \
        8 * (30 + 180 + 3 * 2 * 9 * 10)
    with pytest.raises(ValueError, match="n must be >= 1"):
        simulation_memory(0, 3, 2)


def test_accountant_memory_grows_with_the_largest_order():
    assert accountant_memory([2, 1e6]) == accountant_memory([1e6]) > accountant_memory([1e3])
    assert accountant_memory([1e6], "fixed-size") > accountant_memory([1e6], "poisson")
    with pytest.raises(ValueError, match="finite"):
        accountant_memory([math.inf])


def test_check_memory_names_the_estimate_the_limit_and_the_option():
    check_memory(2 ** 30, 2 ** 31, "x", "do less")
    with pytest.raises(ResourceLimitError, match=r"x needs about 2 GiB .* limit of 1 GiB; do "
                                                 r"less, or raise the limit with --max-memory"):
        check_memory(2 ** 31, 2 ** 30, "x", "do less")


def test_memory_limit_from_option_environment_or_default(monkeypatch):
    monkeypatch.delenv("DPTHEORY_MAX_MEMORY_GB", raising=False)
    assert max_memory_bytes() == 4 * 2 ** 30
    assert max_memory_bytes(0.5) == 2 ** 29
    monkeypatch.setenv("DPTHEORY_MAX_MEMORY_GB", "2")
    assert max_memory_bytes() == 2 ** 31
    monkeypatch.setenv("DPTHEORY_MAX_MEMORY_GB", "lots")
    with pytest.raises(ValueError, match="DPTHEORY_MAX_MEMORY_GB must be a number"):
        max_memory_bytes()
    for bad in (0.0, -1.0, math.inf, math.nan):
        with pytest.raises(ValueError, match="--max-memory must be a positive finite"):
            max_memory_bytes(bad)


# ------------------------------------------------------------------ step guard
def test_check_steps_only_inside_a_step_limit():
    assert check_steps(10 ** 12) == 10 ** 12              # the API is not limited
    with step_limit(100):
        assert check_steps(100) == 100
        with pytest.raises(ResourceLimitError, match=r"T = 101 steps, above --max-steps 100; "
                                                      r"raise --max-steps to at least 101"):
            check_steps(101)
    assert check_steps(10 ** 12) == 10 ** 12
    with pytest.raises(ValueError, match="--max-steps must be an integer >= 1"):
        with step_limit(0):
            pass


def test_simulators_refuse_before_stepping_and_report_their_T():
    from dptheory_simulations.algorithms import get
    from dptheory_simulations.objectives import get as objective
    obj = objective("cosh-generalized-smooth")
    data = obj.make_data(20, 0)
    alg = get("yang2022.alg1")
    full = alg(obj, data, eps=1.0, delta=1e-5, reps=1, seed=0)
    T = full.params["T"]
    # yang2022's default: the smallest T with eps < c1 B^2 T / N^2 at c1 = 1 and
    # B = max(1, N // 10) = 2, i.e. T = floor(400 / 4) + 1 = 101 (by hand)
    assert T == 101
    with step_limit(T):
        alg(obj, data, eps=1.0, delta=1e-5, reps=1, seed=0)
    with step_limit(T - 1), pytest.raises(ResourceLimitError, match=f"T = {T} steps"):
        alg(obj, data, eps=1.0, delta=1e-5, reps=1, seed=0)


# ------------------------------------------------------------------ strict JSON
def test_strict_json_nulls_non_finite_values_with_the_reason_beside_them():
    data = {"a": math.nan, "b": [1.0, math.inf, [2.0, -math.inf]], "c": {"d": np.float64("nan")},
            "e": np.array([1.0, np.inf]), "f": 1.5, "g": "x"}
    assert strict(data) == {
        "a": None, "a_reason": "not a number (NaN)",
        "b": [1.0, None, [2.0, None]], "b_reason": {"1": "+infinity", "2.1": "-infinity"},
        "c": {"d": None, "d_reason": "not a number (NaN)"},
        "e": [1.0, None], "e_reason": {"1": "+infinity"},
        "f": 1.5, "g": "x"}
    text = dumps_strict([data, math.inf])
    assert "NaN" not in text.replace("(NaN)", "") and "Infinity" not in text
    assert json.loads(text)[1] is None
