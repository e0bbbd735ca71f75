"""dptheory: theorems of differentially private non-convex optimization as executable objects.

The public API (imported lazily: ``import dptheory`` is fast, SymPy loads on first use):

* the catalog — :func:`get` an item by id, :func:`search` items, :data:`catalog` (the
  module: sensitivities, symbol aliases); items are :class:`Theorem` objects with
  ``bound_at(...)``/``rate_at(...)``, which accept the paper's own letters;
* :func:`sweep` — run an algorithm on an objective over a grid, with the theorem's bound
  beside the measurements (records, ``to_frame()``, ``plot()``);
* :func:`check_sensitivity` — property-test a sensitivity claim (Hypothesis and
  adversarial search), judged as ``refuted``/``supported``/``inconclusive``;
* :func:`compare` — two items' rates: exponents, regimes, crossovers, ``plot()``; more items ranked;
* :mod:`dptheory.testing` — Hypothesis strategies (neighbouring data sets, objectives with
  certified constants, privacy and noise parameters);
* :class:`CheckResult` and :data:`VERDICTS` — the verdict vocabulary (``refuted``,
  ``supported``, ``vacuous``, ``inconclusive``; power and severity).

Layers (imports only go downward): ``simulations -> bounds -> dptheory``. ``dptheory``
knows no paper; it finds catalogs, algorithms and objectives through entry points.

What belongs here: the engine, which knows no paper. Inside it, lowest first: the
foundations (``errors``, ``vocabulary``, ``version``, ``notation``, ``budget``, ``display``,
``progress``, ``stats``, ...), which import nothing of dptheory but each other; the cores
``symbolic`` and ``privacy``, with ``plotting`` beside them; ``registry`` and ``catalog``; ``verify``, ``store`` and
``parallel``; the helpers ``sensitivity``, ``sweeps`` and ``testing``; last ``cli`` and this
module. A module imports only its own layer and lower ones, never ``dptheory_bounds`` or
``dptheory_simulations``, and no import forms a circle, function-level imports included
(``tests/test_import_layers.py``). This module imports lazily and wires the one link that
goes up at run time: the symbolic core reads the papers' printed letters through
:mod:`dptheory.notation`, whose source set here is the catalog.

Examples
--------
>>> import dptheory
>>> thm = dptheory.get("tran2022.thm9")
>>> round(thm.rate_at(N=10**6, d=100, eps=1), 6)         # tran2022 prints N for n
0.001464
>>> c = dptheory.compare("tran2022.thm9", "wang2020.remark1", vary="n",
...                      at={"d": 100, "eps": 1, "delta": 1e-5})
>>> [x["text"] for x in c.crossovers]
['n = 1.70913e+20']
"""

from __future__ import annotations

import importlib
from typing import Any

from dptheory import notation as _notation
from dptheory.version import __version__

# public name -> (module, attribute); attribute None means the module itself
_EXPORTS: dict[str, tuple[str, str | None]] = {
    "get": ("dptheory.catalog", "get"),
    "search": ("dptheory.catalog", "search"),
    "catalog": ("dptheory.catalog", None),
    "sweep": ("dptheory.sweeps", "sweep"),
    "SweepResult": ("dptheory.sweeps", "SweepResult"),
    "check_sensitivity": ("dptheory.sensitivity", "check_sensitivity"),
    "testing": ("dptheory.testing", None),
    "Theorem": ("dptheory.symbolic.theorem", "Theorem"),
    "Sensitivity": ("dptheory.symbolic.theorem", "Sensitivity"),
    "Comparison": ("dptheory.symbolic.compare", "Comparison"),
    "CheckResult": ("dptheory.verify.verdict", "CheckResult"),
    "VERDICTS": ("dptheory.verify.verdict", "VERDICTS"),
    "SEVERITIES": ("dptheory.verify.verdict", "SEVERITIES"),
    "S": ("dptheory.symbolic.symbols", "S"),
}

__all__ = ["__version__", "compare", *_EXPORTS]


def _catalog_letters() -> Any:
    # The symbolic core resolves the papers' printed letters (Theorem.bound_at(N=...)) but
    # knows no catalog; the catalogs are found above it, so the package wires their
    # letters in here, once, and builds them on first use.
    from dptheory.catalog import printed_letters
    return printed_letters()


_notation.set_source(_catalog_letters)


def compare(a: Any, b: Any, *more: Any, vary: Any = "n", at: dict[Any, float] | None = None,
            derived: bool = False) -> Any:
    """Compare two catalog items' stated rates along ``vary``, or rank more than two.

    Names in ``at`` are resolved exactly as the CLI's ``--set``: a letter the compared
    items print differently (``L`` is beta in tran2022 and G in zhang2021) is refused, and a
    value that occurs in none of the rates is reported in ``warnings``.

    Parameters
    ----------
    a, b, *more : catalog ids (or Theorems); with more than two, a
        :class:`~dptheory.symbolic.compare.Ranking` (the order on every interval of
        ``vary`` and every pair's comparison).
    vary : the growing variable: a registered name (``n``), a paper's letter (``N``), or a
        SymPy symbol.
    at : values of other variables. When only ``vary`` is left free, the full rates are
        compared, constants included, on the whole positive axis (1e-300 to 1e300); when
        constants (G, mu, ...) are left free too, every statement holds for every admissible
        value of them, or says for which.
    derived : compare the explicit bounds at the settings instead of the stated rates.

    Returns
    -------
    dptheory.symbolic.compare.Comparison or dptheory.symbolic.compare.Ranking
        Exponents, ``regimes`` (readable, with SymPy forms beside), ``crossovers``,
        ``warnings`` (different measured quantities or units), ``plot(ax=None)`` and a
        readable ``str()``.

    Examples
    --------
    >>> print(compare("tran2022.thm9", "tran2022.thm6", at={"d": 100, "eps": 1}))
    tran2022.thm9: 1/sqrt(n) + 4.642/n^(2/3)   (exponent in n: -1/2)
    tran2022.thm6: 4.162/sqrt(n)   (exponent in n: -1/2)
    ratio exponent: 0
    tran2022.thm6 is better when n < 10 (both rates >= 1 there: vacuous)
    tran2022.thm9 is better when n > 10 (both rates >= 1, vacuous, for 10 < n < 15.5159)
    crossover: n = 10
    all crossovers on (1e-300, 1e+300) found: their number equals the bound of the (generalized) Descartes rule of signs, 1
    """
    from dptheory.catalog import compare_items
    return compare_items(a, b, *more, vary=vary, at=at, derived=derived)


def __getattr__(name: str) -> Any:
    if name in _EXPORTS:
        module, attr = _EXPORTS[name]
        mod = importlib.import_module(module)
        value = mod if attr is None else getattr(mod, attr)
        globals()[name] = value            # later lookups skip this function
        return value
    raise AttributeError(f"module 'dptheory' has no attribute {name!r}")


def __dir__() -> list[str]:
    return sorted(__all__)
