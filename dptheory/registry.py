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
DATASETS_GROUP = "dptheory.datasets"
REPRODUCTIONS_GROUP = "dptheory.reproductions"


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
    try:
        return items()[item_id]
    except KeyError:
        close = [i for i in items() if i.startswith(item_id.split(".")[0])][:5]
        hint = f"; e.g. {', '.join(close)}" if close else "; see `dptheory list`"
        raise UsageError(f"unknown id {item_id!r}{hint}") from None


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
    algs = algorithms()
    if alg_id not in algs:
        raise UsageError(f"unknown algorithm {alg_id!r}; see `dptheory algorithms`")
    return algs[alg_id]


def objective(name: str, **params: Any) -> Any:
    """Instantiate an objective family by name from the registered objective registries."""
    for module in objective_registries():
        if name in getattr(module, "FAMILIES", {}):
            return module.get(name, **params)
    names = sorted(n for m in objective_registries() for n in getattr(m, "FAMILIES", {}))
    raise UsageError(f"unknown objective {name!r}; choose from {names}")


def objective_parameters(name: str) -> list[str]:
    """The keyword parameters the family ``name`` accepts (its factory's signature)."""
    for module in objective_registries():
        families = getattr(module, "FAMILIES", {})
        if name in families:
            return _keywords(families[name])
    objective(name)                       # raises the unknown-objective error
    return []


def _keywords(func: Any, exclude: tuple[str, ...] = ()) -> list[str]:
    import inspect  # noqa: PLC0415
    return [p.name for p in inspect.signature(func).parameters.values()
            if p.kind in (p.POSITIONAL_OR_KEYWORD, p.KEYWORD_ONLY) and p.name not in exclude]


def algorithm_parameters(alg: Any, exclude: tuple[str, ...]) -> list[str]:
    """The keyword parameters of an algorithm's ``run`` other than ``exclude``."""
    return _keywords(alg.run, exclude)


@functools.lru_cache(maxsize=None)
def data_loaders() -> tuple[Any, ...]:
    """Modules registered in ``dptheory.datasets`` (each exposes ``load(source, **spec)``)."""
    return tuple(ep.load() for ep in _entry_points(DATASETS_GROUP))


def load_data(source: str, **spec: Any) -> Any:
    """Data from the first registered loader: a named dataset, NAME=PATH or a file."""
    loaders = data_loaders()
    if not loaders:
        raise UsageError(f"no data loader: register one in the {DATASETS_GROUP!r} entry-point "
                         "group (is the package installed?)")
    return loaders[0].load(source, **spec)


@functools.lru_cache(maxsize=None)
def reproductions() -> dict[str, Any]:
    """Every registered reproduction of a paper's experiment by id (modules in
    ``dptheory.reproductions`` expose ``REPRODUCTIONS``, a dict or list of objects with
    ``id``)."""
    out: dict[str, Any] = {}
    for ep in _entry_points(REPRODUCTIONS_GROUP):
        registry = ep.load().REPRODUCTIONS
        for rep in (registry.values() if isinstance(registry, dict) else registry):
            if rep.id in out:
                raise RuntimeError(f"duplicate reproduction id {rep.id}")
            out[rep.id] = rep
    return out


def normalized_units(paper: str) -> dict:
    """Units a paper fixes by a normalisation (catalog module attribute ``NORMALIZED_UNITS``)."""
    module = catalogs().get(paper)
    return dict(getattr(module, "NORMALIZED_UNITS", {}) or {})
