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
from typing import TYPE_CHECKING, Any

from dptheory.errors import UsageError, suggest

if TYPE_CHECKING:  # pragma: no cover - SymPy loads with the catalogs, not with this module
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
def items() -> "dict[str, Theorem]":
    """Every catalog item by id (ids are unique across catalogs)."""
    out: "dict[str, Theorem]" = {}
    for name, module in catalogs().items():
        for item in module.ITEMS:
            if item.id in out:
                raise RuntimeError(f"duplicate catalog id {item.id} (catalog {name})")
            out[item.id] = item
    return out


def get(item_id: str) -> "Theorem":
    """The item ``item_id``; an unknown id raises ``UsageError`` naming the nearest ones
    (:func:`dptheory.catalog.get` is this function)."""
    if not isinstance(item_id, str):
        raise UsageError(f"item_id must be a catalog id (str), got {type(item_id).__name__}")
    every = items()
    if item_id in every:
        return every[item_id]
    close = suggest(item_id, every)
    hint = f"; did you mean {', '.join(close)}?" if close else "; see `dptheory list`"
    raise UsageError(f"unknown id {item_id!r}{hint}")


def _cache_dir() -> "Path":
    import os
    from pathlib import Path
    env = os.environ.get("DPTHEORY_CACHE_DIR")
    if env:
        return Path(env)
    base = os.environ.get("XDG_CACHE_HOME") or os.path.join(os.path.expanduser("~"), ".cache")
    return Path(base) / "dptheory"


def _index_key() -> str | None:
    """A fingerprint of every catalog's source (and of the Theorem class): the names and
    targets of the entry points, and the size and modification time of every ``.py`` file
    beside each catalog module. None when a module cannot be located without running it."""
    import hashlib
    import importlib.util
    from pathlib import Path

    from dptheory.version import __version__
    parts = [__version__]
    dirs = {Path(__file__).parent / "symbolic", Path(__file__).parent}
    for ep in _entry_points(CATALOG_GROUP):
        parts.append(f"{ep.name}={ep.value}")
        try:
            spec = importlib.util.find_spec(ep.value.split(":")[0])
        except (ImportError, ValueError):
            return None
        if spec is None or not spec.origin:
            return None
        dirs.add(Path(spec.origin).parent)
    for d in sorted(dirs):
        for f in sorted(d.glob("*.py")):
            st = f.stat()
            parts.append(f"{f}:{st.st_size}:{st.st_mtime_ns}")
    return hashlib.sha256("\n".join(parts).encode()).hexdigest()[:16]


def summaries() -> list[dict[str, Any]]:
    """``Theorem.summary()`` of every item, in catalog order.

    Read from a cache (``$DPTHEORY_CACHE_DIR``, else ``~/.cache/dptheory``) keyed by a
    fingerprint of the catalogs' source files, so ``dptheory list`` does not load SymPy and
    build every catalog; any change to a catalog file rebuilds it. A cache that cannot be
    read or written is ignored.
    """
    import json
    import os
    key = _index_key()
    path = _cache_dir() / f"catalog-index-{key}.json" if key else None
    if path is not None:
        try:
            rows = json.loads(path.read_text())
            if isinstance(rows, list) and all(isinstance(r, dict) and "id" in r for r in rows):
                return rows
        except (OSError, ValueError):
            pass
    rows = [item.summary() for item in items().values()]
    if path is not None:
        try:
            path.parent.mkdir(parents=True, exist_ok=True)
            tmp = path.with_name(f"{path.name}.{os.getpid()}.tmp")
            tmp.write_text(json.dumps(rows))
            os.replace(tmp, path)
            for old in path.parent.glob("catalog-index-*.json"):
                if old != path:
                    old.unlink(missing_ok=True)
        except OSError:
            pass
    return rows


def papers() -> dict[str, Any]:
    """``{catalog name: its PAPER}`` (``None`` for a catalog that declares none)."""
    return {name: getattr(m, "PAPER", None) for name, m in catalogs().items()}


@functools.lru_cache(maxsize=None)
def checks() -> tuple[Any, ...]:
    """The checks of every registered provider (its ``checks()``, ``CHECKS``, or the object
    called), in entry-point order."""
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
def dimension_deciders() -> dict[str, tuple[str, ...]]:
    """``{item id: check ids}``: the checks each provider names (its ``dimension_deciders()``)
    as deciding an item's dimensional note at scaled constants."""
    out: dict[str, tuple[str, ...]] = {}
    for ep in _entry_points(CHECKS_GROUP):
        fn = getattr(ep.load(), "dimension_deciders", None)
        if callable(fn):
            for item, ids in fn().items():
                out[item] = out.get(item, ()) + tuple(ids)
    return out


@functools.lru_cache(maxsize=None)
def objective_registries() -> tuple[Any, ...]:
    """Modules registered in ``dptheory.objectives`` (each exposes ``FAMILIES`` and ``get``)."""
    return tuple(ep.load() for ep in _entry_points(OBJECTIVES_GROUP))


@functools.lru_cache(maxsize=None)
def algorithms() -> dict[str, Any]:
    """Every registered algorithm by id (modules in ``dptheory.algorithms`` expose ALGORITHMS).

    A plug-in module that fails to load, has no ``ALGORITHMS`` or lists an object without a
    string ``id`` is left out and named in :func:`broken_algorithm_plugins` (one line each),
    so that one broken third-party package does not break every command."""
    out: dict[str, Any] = {}
    broken: list[str] = []
    for ep in _entry_points(ALGORITHMS_GROUP):
        try:
            module = ep.load()
            registry = module.ALGORITHMS
            algs = list(registry.values() if isinstance(registry, dict) else registry)
            bad = [a for a in algs if not isinstance(getattr(a, "id", None), str)]
            if bad:
                raise TypeError(f"{type(bad[0]).__name__} object has no string id")
        except Exception as exc:      # a third-party module: any error is its own
            broken.append(f"plug-in {ep.name} ({ep.value}) ignored: "
                          f"{type(exc).__name__}: {exc}".splitlines()[0])
            continue
        for alg in algs:
            if alg.id in out:
                raise RuntimeError(f"duplicate algorithm id {alg.id}")
            out[alg.id] = alg
    _BROKEN[:] = broken
    return out


_BROKEN: list[str] = []


def broken_algorithm_plugins() -> list[str]:
    """One line per algorithm plug-in that :func:`algorithms` left out, and why."""
    algorithms()
    return list(_BROKEN)


def algorithm_summary(alg: Any) -> dict[str, Any]:
    """The row of ``dptheory algorithms`` for ``alg``: its ``summary()`` when it has one
    (optional for a plug-in), else built from ``id``, ``title`` (or the privacy claim's
    description), ``theorem``, ``baseline`` and ``private``. A ``summary()`` that fails
    gives a row whose ``error`` names the failure."""
    base = {"id": alg.id, "title": str(getattr(alg, "title", "") or ""),
            "baseline": bool(getattr(alg, "baseline", False)),
            "theorem": str(getattr(alg, "theorem", "") or ""),
            "private": bool(getattr(alg, "private", True))}
    fn = getattr(alg, "summary", None)
    if not callable(fn):
        return base
    try:
        row = dict(fn())
    except Exception as exc:          # a third-party method: any error is its own
        return {**base, "error": f"summary() failed: {type(exc).__name__}: {exc}"}
    return {**base, **row}


def algorithm(alg_id: str) -> Any:
    """The registered algorithm ``alg_id``; an unknown id names the nearest ones."""
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
    names = sorted(n for m in objective_registries() for n in getattr(m, "FAMILIES", {}))
    close = suggest(str(name), names)
    hint = f"did you mean {', '.join(close)}? " if close else ""
    raise UsageError(f"unknown objective {name!r}; {hint}choose from {names}")


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


def item_label(item_id: str) -> str:
    """A catalog item as a reader names it: its paper and its printed number
    (``"zhang2017, Theorem 2 (1)"``), not its internal id; the id itself when unknown.

    The number is the first part of the item's source that is not an arXiv reference, with
    long parentheticals dropped (``"Proof sketch of Theorem 4 (Proposition 13 in the
    appendix)"`` -> ``"Proof sketch of Theorem 4"``).

    Examples
    --------
    >>> item_label("zhang2017.thm2.eps"), item_label("no.such.item")
    ('zhang2017, Theorem 2 (1)', 'no.such.item')
    """
    import re
    item = items().get(item_id)
    if item is None:
        return item_id
    source = re.sub(r"\s*\([^()]{6,}\)", "", (item.source or "").split(";")[0])
    parts = [p.strip() for p in source.split(",")
             if p.strip() and not re.match(r"arXiv\s*\d", p.strip())]
    where = parts[0] if parts else ""
    label = f"{item.paper}, {where}" if where else f"{item.paper}: {item.title}"
    # dptheory's corrected variant of a printed claim must not pass for the printed one
    return label + (" (corrected)" if item.provenance == "corrected" else "")
