"""Packaging: the wheel installs only dptheory-prefixed top-level packages (a user's own
``bounds/`` or ``simulations/`` folder must not shadow them, nor collide with another
distribution), pyproject's explicit package list covers every package folder, and the
layering simulations -> bounds -> dptheory holds."""

from __future__ import annotations

import ast
import subprocess
import sys
from importlib import metadata
from pathlib import Path

import pytest

try:
    import tomllib
except ModuleNotFoundError:          # Python 3.10
    tomllib = None

ROOT = Path(__file__).resolve().parents[1]
MAPPED = {"bounds": "dptheory_bounds", "simulations": "dptheory_simulations",
          "dptheory": "dptheory"}


@pytest.mark.skipif(tomllib is None, reason="tomllib needs Python 3.11")
def test_package_list_covers_every_folder():
    cfg = tomllib.loads((ROOT / "pyproject.toml").read_text())["tool"]["setuptools"]
    on_disk = {".".join((MAPPED[top], *init.parent.relative_to(ROOT / top).parts))
               for top in MAPPED for init in (ROOT / top).rglob("__init__.py")}
    assert set(cfg["packages"]) == on_disk
    assert cfg["package-dir"] == {"dptheory_bounds": "bounds",
                                  "dptheory_simulations": "simulations"}


def test_installed_top_level_names_are_prefixed():
    # the installed distribution is the one with a RECORD (an in-tree build leaves a
    # dptheory.egg-info in the clone, which lists the source tree instead)
    dist = next(d for d in metadata.distributions(name="dptheory") if d.read_text("RECORD"))
    rows = [line.split(",")[0] for line in dist.read_text("RECORD").splitlines()]
    tops = {Path(r).parts[0] for r in rows if r.endswith(".py") and not r.startswith("..")}
    tops = {t for t in tops if not t.startswith("__editable__")}
    assert tops <= {"dptheory", "dptheory_bounds", "dptheory_simulations"}, tops


def test_local_folders_named_bounds_and_simulations_do_not_shadow(tmp_path):
    # a researcher's own project with folders of the old names, first on sys.path
    for name in ("bounds", "simulations"):
        (tmp_path / name).mkdir()
        (tmp_path / name / "__init__.py").write_text("raise ImportError('shadowed!')\n")
    code = ("import dptheory.registry as r; from dptheory_simulations.objectives import get; "
            "print(len(r.items()) > 100, get('tilted-quadratic').name)")
    out = subprocess.run([sys.executable, "-c", code], cwd=tmp_path, capture_output=True,
                         text=True, timeout=300)
    assert out.returncode == 0, out.stderr
    assert out.stdout.split() == ["True", "tilted-quadratic"]


def _imports(folder: Path) -> set[str]:
    out = set()
    for f in folder.rglob("*.py"):
        for node in ast.walk(ast.parse(f.read_text(), str(f))):
            if isinstance(node, ast.Import):
                out |= {a.name.split(".")[0] for a in node.names}
            elif isinstance(node, ast.ImportFrom) and node.module and node.level == 0:
                out.add(node.module.split(".")[0])
    return out


def test_layering_simulations_to_bounds_to_dptheory():
    # imports go simulations -> bounds -> dptheory, never back (dptheory finds the other two
    # through entry points)
    assert not _imports(ROOT / "dptheory") & {"dptheory_bounds", "dptheory_simulations"}
    assert "dptheory_simulations" not in _imports(ROOT / "bounds")
