"""No import circles, and imports only go down the layers.

Every ``import`` / ``from ... import`` statement of every module is read with :mod:`ast`,
wherever it stands: at the top, inside a function (imports deferred for start-up speed) or
under ``if TYPE_CHECKING``. Each one is resolved to a module of ``dptheory``,
``dptheory_bounds`` (the folder ``bounds/``) or ``dptheory_simulations`` (the folder
``simulations/``); ``from package import name`` points at the submodule ``package.name`` when
there is one, else at the package itself. Importing ``a.b.c`` also runs ``a/__init__`` and
``a/b/__init__``; those implicit edges are not counted (every submodule would otherwise form
a circle with a package ``__init__`` that re-exports it).

Two rules are checked on the graph:

* no circle: no strongly connected component of more than one module, and no module that
  imports itself;
* no upward edge. Between packages: ``dptheory_simulations -> dptheory_bounds -> dptheory``.
  Inside ``dptheory`` the layers, lowest first, are (:data:`DPTHEORY_LAYERS`):

  0. the foundations, which import nothing of dptheory but each other: ``errors`` (error
     conventions and "did you mean" suggestions), ``vocabulary``, ``version``, ``notation``
     (the papers' printed letters, as the symbolic core reads them), ``budget``,
     ``derandom``, ``display``, ``progress``, ``stats`` (confidence intervals, slope fits,
     Clopper–Pearson: pure numerics);
  1. the two cores: ``symbolic`` (symbols, assumptions, ``Theorem``, the rate algebra, and
     the resolution of names and printed letters to symbols) and ``privacy`` (accounting);
     beside them ``plotting`` (the house style and figures: axis labels from the symbols'
     LaTeX, intervals from ``stats``; the comparison figures ``symbolic.compare`` draws take
     their labels from the caller, so plotting needs no registry);
  2. ``registry`` and ``catalog``: discovery of the catalogs through entry points, look-up by
     id, search, comparison of items;
  3. ``verify``, ``store``, ``parallel``: checks, verdicts, findings, the engine, the report,
     the results store, parallel sweeps;
  4. ``sensitivity``, ``sweeps``, ``testing``: the user-facing helpers built on the engine;
  5. ``cli``, ``__main__`` and the package ``dptheory`` itself (its lazy exports point at
     every layer; it also tells :mod:`dptheory.notation` where the catalogs' letters come
     from).

  A module may import its own layer and the layers below; importing a higher layer is an
  upward edge. Inside a layer only the no-circle rule applies.

The walker is shown to find a planted circle (through a function-level import) and a planted
upward edge in a small fake package (the ``test_walker_*`` tests).
"""

from __future__ import annotations

import ast
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]
# installed package name -> folder in the repository
PACKAGES = {"dptheory": ROOT / "dptheory", "dptheory_bounds": ROOT / "bounds",
            "dptheory_simulations": ROOT / "simulations"}
PACKAGE_ORDER = ["dptheory", "dptheory_bounds", "dptheory_simulations"]   # lowest first

DPTHEORY_LAYERS: list[set[str]] = [
    {"errors", "vocabulary", "version", "notation", "budget", "derandom", "display", "progress",
     "stats"},
    {"symbolic", "privacy", "plotting"},
    {"registry", "catalog"},
    {"verify", "store", "parallel"},
    {"sensitivity", "sweeps", "testing"},
    {"cli", "__init__", "__main__"},
]

# Circles inside simulations/experiments, which is being reorganised; each entry is a
# sorted tuple of the modules of one circle. Empty this list when the reorganisation lands.
KNOWN_EXPERIMENTS_CIRCLES: list[tuple[str, ...]] = []


# --- the walker -------------------------------------------------------------------------

def module_names(packages: dict[str, Path]) -> dict[str, Path]:
    """``{dotted module name: file}`` for every ``.py`` file of the packages."""
    out = {}
    for name, folder in packages.items():
        for f in sorted(folder.rglob("*.py")):
            parts = list(f.relative_to(folder).with_suffix("").parts)
            if parts[-1] == "__init__":
                parts = parts[:-1]
            out[".".join([name, *parts])] = f
    return out


def _resolve(target: str, modules: dict[str, Path]) -> str | None:
    """The longest prefix of ``target`` that is one of ``modules`` (None: outside them)."""
    parts = target.split(".")
    for k in range(len(parts), 0, -1):
        name = ".".join(parts[:k])
        if name in modules:
            return name
    return None


def imports_of(module: str, path: Path, modules: dict[str, Path]) -> set[str]:
    """The modules of ``modules`` that ``module`` imports anywhere in its file."""
    is_package = path.name == "__init__.py"
    package = module if is_package else module.rpartition(".")[0]
    out: set[str] = set()
    for node in ast.walk(ast.parse(path.read_text(), str(path))):
        if isinstance(node, ast.Import):
            targets = [a.name for a in node.names]
        elif isinstance(node, ast.ImportFrom):
            if node.level:
                base = package.split(".")
                base = base[:len(base) - (node.level - 1)]
                prefix = ".".join(base + ([node.module] if node.module else []))
            else:
                prefix = node.module or ""
            # `from pkg import name`: the submodule pkg.name when it exists, else pkg
            targets = [f"{prefix}.{a.name}" if f"{prefix}.{a.name}" in modules else prefix
                       for a in node.names]
        else:
            continue
        out |= {m for m in (_resolve(t, modules) for t in targets) if m is not None}
    return out


def import_graph(packages: dict[str, Path]) -> dict[str, set[str]]:
    """``{module: modules it imports}`` over the packages."""
    modules = module_names(packages)
    return {m: imports_of(m, f, modules) for m, f in modules.items()}


def circles(graph: dict[str, set[str]]) -> list[tuple[str, ...]]:
    """The import circles: strongly connected components of more than one module (Tarjan),
    and modules that import themselves; each as a sorted tuple."""
    index: dict[str, int] = {}
    low: dict[str, int] = {}
    stack: list[str] = []
    on_stack: set[str] = set()
    found: list[tuple[str, ...]] = []

    def visit(v: str) -> None:
        # iterative Tarjan (the graph is a few hundred modules, but recursion depth is
        # the length of the longest import chain, which is not ours to bound)
        work = [(v, iter(sorted(graph.get(v, ()))))]
        index[v] = low[v] = len(index)
        stack.append(v)
        on_stack.add(v)
        while work:
            node, children = work[-1]
            for w in children:
                if w not in index:
                    index[w] = low[w] = len(index)
                    stack.append(w)
                    on_stack.add(w)
                    work.append((w, iter(sorted(graph.get(w, ())))))
                    break
                if w in on_stack:
                    low[node] = min(low[node], index[w])
            else:
                work.pop()
                if work:
                    parent = work[-1][0]
                    low[parent] = min(low[parent], low[node])
                if low[node] == index[node]:
                    component = []
                    while True:
                        w = stack.pop()
                        on_stack.discard(w)
                        component.append(w)
                        if w == node:
                            break
                    if len(component) > 1 or node in graph.get(node, ()):
                        found.append(tuple(sorted(component)))

    for v in sorted(graph):
        if v not in index:
            visit(v)
    return sorted(found)


def rank(module: str, package_order: list[str], layers: dict[str, list[set[str]]]) -> tuple:
    """``(package rank, layer rank)`` of ``module``; the layer rank is 0 when its package
    defines no layers, and a module the layers do not name raises (so a new top-level
    module must be placed)."""
    top, _, rest = module.partition(".")
    first = rest.split(".")[0] if rest else "__init__"
    inner = 0
    if top in layers:
        for k, layer in enumerate(layers[top]):
            if first in layer:
                inner = k
                break
        else:
            raise AssertionError(f"{module}: {top}.{first} is in no layer; add it to the layers")
    return package_order.index(top), inner


def upward_edges(graph: dict[str, set[str]], package_order: list[str],
                 layers: dict[str, list[set[str]]]) -> list[tuple[str, str]]:
    """The edges ``(a, b)`` where ``a`` imports ``b`` from a higher package or layer."""
    return sorted((a, b) for a, targets in graph.items() for b in targets
                  if rank(b, package_order, layers) > rank(a, package_order, layers))


# --- the repository ---------------------------------------------------------------------

def test_no_import_circles():
    found = circles(import_graph(PACKAGES))
    known = [c for c in found if c in KNOWN_EXPERIMENTS_CIRCLES]
    assert all(all(m.startswith("dptheory_simulations.experiments.") for m in c)
               for c in KNOWN_EXPERIMENTS_CIRCLES), "only simulations/experiments may be listed"
    assert [c for c in found if c not in known] == []
    # a listed circle that is gone must leave the list
    assert sorted(KNOWN_EXPERIMENTS_CIRCLES) == known


def test_no_upward_imports():
    graph = import_graph(PACKAGES)
    assert upward_edges(graph, PACKAGE_ORDER, {"dptheory": DPTHEORY_LAYERS}) == []


def test_the_cores_import_neither_each_other_nor_catalog_or_registry():
    # symbolic and privacy share a layer, so the layer rule alone would let them import
    # each other; issue 20 asks that symbolic never import catalog or registry
    graph = import_graph(PACKAGES)
    cores = ("dptheory.symbolic", "dptheory.privacy")
    for core in cores:
        forbidden = [c for c in cores if c != core] + ["dptheory.catalog", "dptheory.registry"]
        bad = sorted((a, b) for a, targets in graph.items() if _within(a, core)
                     for b in targets if any(_within(b, f) for f in forbidden))
        assert bad == [], core


def _within(module: str, package: str) -> bool:
    return module == package or module.startswith(package + ".")


def test_every_dptheory_module_is_in_a_layer():
    layers = {"dptheory": DPTHEORY_LAYERS}
    for module in module_names(PACKAGES):
        rank(module, PACKAGE_ORDER, layers)      # raises for a module in no layer


# --- the walker catches what it must ----------------------------------------------------

def _fake_package(tmp_path: Path, files: dict[str, str]) -> dict[str, Path]:
    root = tmp_path / "fake"
    for name, text in files.items():
        path = root / name
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_text(text)
    return {"fake": root}


def test_walker_finds_a_planted_function_level_circle(tmp_path):
    packages = _fake_package(tmp_path, {
        "__init__.py": "",
        "low/__init__.py": "",
        # low.theorem reaches up to the catalog only inside a function, as issue 20 describes
        "low/theorem.py": "def f():\n    from fake.catalog import resolve\n    return resolve\n",
        "catalog.py": "from fake.low import theorem\n\ndef resolve():\n    pass\n",
        "alone.py": "import fake.low.theorem\n",
        "selfish.py": "def g():\n    from . import selfish\n",
    })
    graph = import_graph(packages)
    assert graph["fake.low.theorem"] == {"fake.catalog"}
    assert graph["fake.catalog"] == {"fake.low.theorem"}
    assert circles(graph) == [("fake.catalog", "fake.low.theorem"), ("fake.selfish",)]
    # remove the function-level import: no circle is left
    (packages["fake"] / "low/theorem.py").write_text("def f():\n    pass\n")
    (packages["fake"] / "selfish.py").write_text("")
    assert circles(import_graph(packages)) == []


def test_walker_finds_a_planted_upward_edge(tmp_path):
    packages = _fake_package(tmp_path, {
        "__init__.py": "",
        "low/__init__.py": "",
        # a relative, function-level import from the low layer into the high one
        "low/theorem.py": "def f():\n    from ..high import api\n",
        "high/__init__.py": "",
        "high/api.py": "import json\n",
    })
    layers = {"fake": [{"low"}, {"high", "__init__"}]}
    graph = import_graph(packages)
    assert circles(graph) == []
    assert upward_edges(graph, ["fake"], layers) == [("fake.low.theorem", "fake.high.api")]
    # the same import made downward passes
    (packages["fake"] / "low/theorem.py").write_text("")
    (packages["fake"] / "high/api.py").write_text("def g():\n    from ..low import theorem\n")
    graph = import_graph(packages)
    assert graph["fake.high.api"] == {"fake.low.theorem"}
    assert upward_edges(graph, ["fake"], layers) == []
    # an import from a lower package into a higher one is upward too
    (tmp_path / "base").mkdir()
    (tmp_path / "base/__init__.py").write_text("def h():\n    import fake.high.api\n")
    graph = import_graph({**packages, "base": tmp_path / "base"})
    assert upward_edges(graph, ["base", "fake"], layers) == [("base", "fake.high.api")]


def test_walker_places_every_module_or_says_which_is_not(tmp_path):
    packages = _fake_package(tmp_path, {"__init__.py": "", "stray.py": ""})
    with pytest.raises(AssertionError, match="fake.stray is in no layer"):
        upward_edges({"fake": {"fake.stray"}, "fake.stray": set()}, ["fake"],
                     {"fake": [{"__init__"}]})
    assert sorted(module_names(packages)) == ["fake", "fake.stray"]
