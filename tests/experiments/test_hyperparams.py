"""Data-dependent hyper-parameters (dptheory_simulations.experiments.hyperparams)."""

from __future__ import annotations

from types import SimpleNamespace

import numpy as np
import pytest

from dptheory import registry
from dptheory_simulations.experiments import audits, hyperparams

PRIVATE = sorted(a.id for a in registry.algorithms().values() if a.private)


@pytest.fixture(scope="module")
def results():
    return {c.id.rsplit("-params-", 1)[1]: c.run() for c in hyperparams.checks()}


def test_every_private_algorithm_goes_through_the_check(results):
    assert set(results) == set(PRIVATE)
    ids = {c.id for c in registry.checks()}
    assert all(any(i.endswith(f"data-independent-params-{a}") for i in ids) for a in PRIVATE)


def test_a_planted_data_dependent_step_is_reported():
    class Planted:
        id = "test.planted"

        def run(self, objective, data, *, eps, delta, reps=1, seed=0, T=1):
            # the step is the largest label of the data: it moves with the canary
            return SimpleNamespace(params={"eta": float(np.max(data.y)), "T": T},
                                   noise={"sigma": 1.0})

        __call__ = run

    cell = {"algorithm": "zhang2021.dpsgd-const", "objective": "robust-regression",
            "objective_params": {"d": 3}, "n": 16, "data_seed": 0, "params": {}}
    _, obj, d_in, d_out, _, can, _ = audits._setup(cell)
    assert can["y_in"] != can["y_out"]
    got = hyperparams.resolve_on_neighbours(Planted(), obj, d_in, d_out, eps=1.0, delta=1e-3)
    assert got["params"] == ["eta"] and got["overridden"] == {"T": 2}


def test_papers_own_data_dependent_settings_are_reported(results):
    # zhang2017 Thm 5: eta = min{1/beta, D_F/(sigma n)}, D_F from F(w0, S) - F*
    z = results["zhang2017.alg2"]
    assert z.verdict == "refuted" and z.severity == "hypothesis"
    rows = {r["parameter"]: r for r in z.evidence["differing"]}
    assert rows["eta"]["provenance"] == "paper" and "D_F" in rows["eta"]["formula"]
    a, b = rows["eta"]["values_on_neighbours"]
    assert a != b
    # wang2020 Thms 2/4: T = 6 sqrt(rho) Delta/alpha^1.5 with Delta = F(w0) - min F
    for alg in ("wang2020.alg1", "wang2020.alg2"):
        assert results[alg].verdict == "refuted"
        assert "T_setting" in {r["parameter"] for r in results[alg].evidence["differing"]}


def test_dptheorys_own_choices_are_not_findings_of_the_paper(results):
    for alg in ("yang2022.alg1", "yang2022.dpsgd", "zhang2017.alg1", "wang2020.dpgd"):
        r = results[alg]
        assert r.verdict == "inconclusive", alg
        assert all(row["provenance"] != "paper" for row in r.evidence["differing"])


def test_supported_ones_state_their_power(results):
    for alg, r in results.items():
        assert r.verdict in ("refuted", "supported", "inconclusive")
        if r.verdict == "supported":
            assert r.power["selftest"]["caught"]
    assert results["zhang2021.dpsgd-const"].verdict == "supported"
