"""Discovery of catalogs and checks through entry points.

``dptheory`` never imports ``bounds`` or ``simulations`` by name: a catalog is any module
registered in the ``dptheory.catalogs`` entry-point group that exposes ``ITEMS`` (a list of
:class:`~dptheory.symbolic.Theorem`) and optionally ``PAPER``; a checks provider is an
entry in ``dptheory.checks`` whose object is a module with ``checks()`` or ``CHECKS``.
A researcher's own package registers more theorems the same way.
"""

from __future__ import annotations

import functools
from importlib.metadata import entry_points
from typing import Any

from dptheory.errors import UsageError
from dptheory.symbolic.theorem import Theorem

CATALOG_GROUP = "dptheory.catalogs"
CHECKS_GROUP = "dptheory.checks"
OBJECTIVES_GROUP = "dptheory.objectives"
ALGORITHMS_GROUP = "dptheory.algorithms"


def _entry_points(group: str) -> list[Any]:
    return sorted(entry_points(group=group), key=lambda ep: ep.name)


@functools.lru_cache(maxsize=None)
def catalogs() -> dict[str, Any]:
    """``{entry-point name: module}`` for every registered catalog."""
    out = {}
    for ep in _entry_points(CATALOG_GROUP):
        module = ep.load()
        if not hasattr(module, "ITEMS"):
            raise RuntimeError(f"catalog {ep.name} ({ep.value}) has no ITEMS")
        out[ep.name] = module
    return out


@functools.lru_cache(maxsize=None)
def items() -> dict[str, Theorem]:
    """Every catalog item by id (ids are unique across catalogs)."""
    out: dict[str, Theorem] = {}
    for name, module in catalogs().items():
        for item in module.ITEMS:
            if item.id in out:
                raise RuntimeError(f"duplicate catalog id {item.id} (catalog {name})")
            out[item.id] = item
    return out


def get(item_id: str) -> Theorem:
    """The item ``item_id``; an unknown id raises ``UsageError`` naming the nearest ones."""
    from dptheory.catalog import get as _get
    return _get(item_id)


def papers() -> dict[str, Any]:
    return {name: getattr(m, "PAPER", None) for name, m in catalogs().items()}


@functools.lru_cache(maxsize=None)
def checks() -> tuple[Any, ...]:
    out = []
    for ep in _entry_points(CHECKS_GROUP):
        obj = ep.load()
        if callable(getattr(obj, "checks", None)):
            out.extend(obj.checks())
        elif hasattr(obj, "CHECKS"):
            out.extend(obj.CHECKS)
        elif callable(obj):
            out.extend(obj())
    return tuple(out)


@functools.lru_cache(maxsize=None)
def objective_registries() -> tuple[Any, ...]:
    """Modules registered in ``dptheory.objectives`` (each exposes ``FAMILIES`` and ``get``)."""
    return tuple(ep.load() for ep in _entry_points(OBJECTIVES_GROUP))


@functools.lru_cache(maxsize=None)
def algorithms() -> dict[str, Any]:
    """Every registered algorithm by id (modules in ``dptheory.algorithms`` expose ALGORITHMS)."""
    out: dict[str, Any] = {}
    for ep in _entry_points(ALGORITHMS_GROUP):
        module = ep.load()
        registry = module.ALGORITHMS
        for alg in (registry.values() if isinstance(registry, dict) else registry):
            if alg.id in out:
                raise RuntimeError(f"duplicate algorithm id {alg.id}")
            out[alg.id] = alg
    return out


def algorithm(alg_id: str) -> Any:
    """The registered algorithm ``alg_id``; an unknown id names the nearest ones."""
    from dptheory.catalog import suggest
    algs = algorithms()
    if alg_id not in algs:
        close = suggest(str(alg_id), algs)
        hint = f"did you mean {', '.join(close)}? " if close else ""
        raise UsageError(f"unknown algorithm {alg_id!r}; {hint}see `dptheory algorithms`")
    return algs[alg_id]


def objective(name: str, **params: Any) -> Any:
    """Instantiate an objective family by name from the registered objective registries."""
    for module in objective_registries():
        if name in getattr(module, "FAMILIES", {}):
            return module.get(name, **params)
    from dptheory.catalog import suggest
    names = sorted(n for m in objective_registries() for n in getattr(m, "FAMILIES", {}))
    close = suggest(str(name), names)
    hint = f"did you mean {', '.join(close)}? " if close else ""
    raise UsageError(f"unknown objective {name!r}; {hint}choose from {names}")


def normalized_units(paper: str) -> dict:
    """Units a paper fixes by a normalisation (catalog module attribute ``NORMALIZED_UNITS``)."""
    module = catalogs().get(paper)
    return dict(getattr(module, "NORMALIZED_UNITS", {}) or {})
