"""Timestamped trajectories: every simulator's records carry the seconds since step 0."""

from __future__ import annotations

import numpy as np
import pytest

from dptheory_simulations.algorithms import get as get_algorithm
from dptheory_simulations.algorithms.base import Recorder
from dptheory_simulations.objectives import get as get_objective


def test_recorder_times_start_at_zero_and_grow():
    rec = Recorder(2)
    for t in range(7):
        rec(t, np.full((1, 2), float(t)))
    out = rec.result()
    assert out["t"].tolist() == [0, 2, 4, 6]
    assert out["time"][0] == 0.0 and out["cpu_time"][0] == 0.0
    assert np.all(np.diff(out["time"]) >= 0) and np.all(np.diff(out["cpu_time"]) >= 0)
    assert out["w"][:, :, 0].tolist() == [[0.0, 2.0, 4.0, 6.0]]
    assert Recorder(None).result() is None


@pytest.mark.parametrize("alg_id, family, params", [
    ("zhang2017.alg1", "logistic-ridge", {}),
    ("zhang2017.bst14", "logistic-ridge", {"T": 20}),
    ("wang2020.dpgd", "logistic-nonconvex-reg", {"T": 6}),
])
def test_simulators_return_timestamps(alg_id, family, params):
    obj = get_objective(family, d=3)
    data = obj.make_data(40, 0)
    r = get_algorithm(alg_id)(obj, data, eps=1.0, delta=1e-3, reps=2, seed=0, record=1,
                              **params)
    traj = r.trajectory
    assert traj["time"].shape == traj["t"].shape == traj["cpu_time"].shape
    assert traj["time"][0] == 0.0 and np.all(np.diff(traj["time"]) >= 0)
    assert traj["time"][-1] <= r.wall_time + 1e-3
