"""Test-wide settings: the catalog-index cache of `dptheory list` lives in a temporary
folder for the session (never in the user's ~/.cache)."""

import os

import pytest


@pytest.fixture(autouse=True, scope="session")
def _catalog_cache(tmp_path_factory):
    old = os.environ.get("DPTHEORY_CACHE_DIR")
    os.environ["DPTHEORY_CACHE_DIR"] = str(tmp_path_factory.mktemp("dptheory-cache"))
    yield
    if old is None:
        os.environ.pop("DPTHEORY_CACHE_DIR", None)
    else:
        os.environ["DPTHEORY_CACHE_DIR"] = old
