"""Simulators of every algorithm of the five papers (one module per paper).

``ALGORITHMS`` maps an id to its :class:`~dptheory_simulations.algorithms.base.Algorithm`;
``get(id)`` raises ``ValueError`` naming the choices.
"""

from __future__ import annotations

import importlib

from .base import Algorithm, ReplicateStreams, RunResult

MODULES = ("zhang2021", "tran2022", "yang2022", "wang2020", "zhang2017")


def _collect() -> dict[str, Algorithm]:
    out: dict[str, Algorithm] = {}
    for name in MODULES:
        try:
            module = importlib.import_module(f"dptheory_simulations.algorithms.{name}")
        except ModuleNotFoundError as exc:
            if exc.name == f"dptheory_simulations.algorithms.{name}":
                continue
            raise
        for alg in module.ALGORITHMS:
            if alg.id in out:
                raise RuntimeError(f"duplicate algorithm id {alg.id}")
            out[alg.id] = alg
    return out


ALGORITHMS: dict[str, Algorithm] = _collect()


def get(algorithm_id: str) -> Algorithm:
    """The algorithm with id ``algorithm_id``; ``ValueError`` naming the choices."""
    try:
        return ALGORITHMS[algorithm_id]
    except KeyError:
        raise ValueError(f"unknown algorithm {algorithm_id!r}; choose from {sorted(ALGORITHMS)}") from None


__all__ = ["ALGORITHMS", "Algorithm", "ReplicateStreams", "RunResult", "get"]
