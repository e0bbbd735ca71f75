"""Small seeded instances of every family, shared by the tests."""

from __future__ import annotations

import numpy as np

from dptheory_simulations.objectives import FAMILIES, get

N_SMALL = {name: 8 for name in FAMILIES}
N_SMALL["pl-nonconvex"] = 4
N_SMALL["logistic-nonconvex-reg"] = 30   # n = 8 is separable: slow, unattained infimum
PARAMS = {"pl-nonconvex": {"d": 6}, "pl-nonconvex-tall": {"d": 3}}


def instance(name: str, seed: int = 0, n: int | None = None):
    obj = get(name, **PARAMS.get(name, {}))
    data = obj.make_data(N_SMALL[name] if n is None else n, np.random.default_rng(seed))
    return obj, data


def random_points(obj, m: int, rng: np.random.Generator) -> np.ndarray:
    R = obj.domain_radius or obj.sample_radius
    u = rng.standard_normal((m, obj.d))
    u /= np.linalg.norm(u, axis=1, keepdims=True)
    return u * R * rng.random((m, 1)) ** (1.0 / obj.d)
