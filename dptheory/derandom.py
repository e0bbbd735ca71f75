"""Hypothesis searches whose examples depend on their seed only.

The checks and cells that use Hypothesis as a search (not as a test runner) must give the
same numbers in every process: serially, in a joblib worker, on a Dask worker, under an
editable or a regular install. Three things in Hypothesis's defaults break that:

* the example database (``database=None`` here);
* the active settings profile, which a caller may have changed (the settings here derive
  from the ``default`` profile, not the current one);
* *local constants*: Hypothesis mixes into its draws numbers and strings it mines from the
  source of every non-site-packages module the process has imported. Which modules those
  are depends on the process (a worker imports fewer than the CLI) and on the install mode
  (an editable install is "local", a wheel in site-packages is not); it also writes a cache
  of them under ``.hypothesis/`` in the working directory. :func:`isolate` turns the mining
  off for the process; it has no public switch, so this reaches into Hypothesis's provider
  module, and does nothing on versions that do not mine constants.

Use :func:`search_settings` for the settings and pass the seed explicitly: ``@seed(seed)``
with ``@given``, or ``random=random.Random(seed)`` with ``find``.
"""

from __future__ import annotations

from typing import Any

__all__ = ["isolate", "search_settings"]

_isolated = False


def isolate() -> None:
    """Stop Hypothesis from drawing constants mined from imported modules (idempotent).

    Process-wide: afterwards every Hypothesis run of the process draws only from its
    seed and its built-in constants, which is what reproducibility needs.
    """
    global _isolated
    if _isolated:
        return
    try:
        from hypothesis.internal.conjecture import providers
    except ImportError:   # pragma: no cover - hypothesis is a dependency
        return
    if hasattr(providers, "_get_local_constants") and hasattr(providers, "Constants"):
        empty = providers.Constants()
        providers._get_local_constants = lambda: empty
        cache = getattr(providers, "CONSTANTS_CACHE", None)
        if cache is not None and hasattr(cache, "cache"):
            cache.cache.clear()   # entries computed with mined constants
    _isolated = True


def search_settings(**overrides: Any) -> Any:
    """``hypothesis.settings`` for a reproducible search (calls :func:`isolate`).

    Derived from the ``default`` profile (not the active one): ``derandomize=True``,
    ``database=None``, no deadline, every health check suppressed, no failure blob;
    ``overrides`` (e.g. ``max_examples``, ``phases``) are applied on top.
    """
    from hypothesis import HealthCheck, settings
    isolate()
    kw: dict[str, Any] = {"derandomize": True, "database": None, "deadline": None,
                          "suppress_health_check": list(HealthCheck), "print_blob": False}
    kw.update(overrides)
    return settings(settings.get_profile("default"), **kw)
