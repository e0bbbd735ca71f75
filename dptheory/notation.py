"""The letters the papers print for the registered symbols, as seen by name resolution.

The table is ``{printed letter: ((registered name, paper), ...)}``: tran2022 prints ``N``
for n, wang2020 ``p`` for d, and ``L`` means G in three papers and beta in tran2022. The
symbolic core resolves such letters (:mod:`dptheory.symbolic.resolve`, used by
``Theorem.bound_at``) but does not know the catalogs, which are discovered above it
(:mod:`dptheory.registry`). It reads the table through :func:`printed_letters`, and the
package sets where the table comes from once, when ``dptheory`` is imported: the letters of
every registered catalog (:func:`dptheory.catalog.printed_letters`), built on first use.
This module imports nothing, so that wiring costs no start-up time.
"""

from __future__ import annotations

from typing import Callable, Mapping

#: ``{printed letter: ((registered name, paper), ...)}``
Letters = Mapping[str, "tuple[tuple[str, str], ...]"]

_source: Callable[[], Letters] | None = None


def set_source(source: Callable[[], Letters]) -> None:
    """Make ``source()`` the table that :func:`printed_letters` returns.

    Parameters
    ----------
    source : a function of no arguments returning ``{letter: ((registered name, paper),
        ...)}``; called at every look-up, so it caches what it builds.
    """
    global _source
    _source = source


def printed_letters() -> Letters:
    """The papers' printed letters, from the source set by :func:`set_source` (empty
    before one is set).

    Returns
    -------
    Mapping of str to tuple of (registered name, paper) pairs
    """
    return {} if _source is None else _source()
