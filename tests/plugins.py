"""Test helper: install a third-party distribution on sys.path that registers a module
through a dptheory entry-point group, exactly what `pip install` of such a package leaves."""

from __future__ import annotations

import importlib
import textwrap
from pathlib import Path


def install_plugin(tmp_path: Path, monkeypatch, *, dist: str, module: str, source: str,
                   group: str, name: str) -> None:
    (tmp_path / f"{module}.py").write_text(textwrap.dedent(source))
    info = tmp_path / f"{dist}-1.0.dist-info"
    info.mkdir()
    (info / "METADATA").write_text(f"Metadata-Version: 2.1\nName: {dist}\nVersion: 1.0\n")
    (info / "entry_points.txt").write_text(f"[{group}]\n{name} = {module}\n")
    monkeypatch.syspath_prepend(str(tmp_path))
    importlib.invalidate_caches()
