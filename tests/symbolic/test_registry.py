"""Catalog discovery through entry points, including a third-party catalog."""

import sys

import pytest

from dptheory import registry
from tests.plugins import install_plugin


@pytest.fixture
def third_party(tmp_path, monkeypatch):
    """A distribution 'mytheorems' on sys.path that registers a catalog module through the
    ``dptheory.catalogs`` entry-point group — exactly what `pip install` of a package with
    that entry point leaves behind."""
    install_plugin(tmp_path, monkeypatch, dist="mytheorems", module="mytheorems", source='''
        import sympy as sp
        from dptheory.symbolic import S, Theorem
        ITEMS = [Theorem("mypaper2030.thm1", "A new rate", "theorem", "Thm 1",
                         bound=S.d / (S.n * S.eps) + 1 / S.n, rate=S.d / (S.n * S.eps))]
    ''', group="dptheory.catalogs", name="mypaper2030")
    for f in (registry.catalogs, registry.items, registry.checks):
        f.cache_clear()
    yield
    sys.modules.pop("mytheorems", None)
    for f in (registry.catalogs, registry.items, registry.checks):
        f.cache_clear()


def test_third_party_catalog_is_discovered(third_party):
    from dptheory.cli import main
    assert "mypaper2030" in registry.catalogs()
    item = registry.get("mypaper2030.thm1")
    assert item.paper == "mypaper2030"
    assert main(["derive", "mypaper2030.thm1"]) == 0


def test_unknown_id_is_a_usage_error():
    with pytest.raises(ValueError, match="unknown id"):
        registry.get("nosuchpaper.thm1")
