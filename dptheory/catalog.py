"""The catalog from Python: look items up, search them, resolve the papers' letters, compare.

Every registered catalog (the five papers, and any package registered under the
``dptheory.catalogs`` entry point) is searched together. Ids and symbol names that do not
exist get suggestions of the nearest ones.

Examples
--------
>>> from dptheory import catalog
>>> catalog.get("tran2022.thm9").title
'Utility of Algorithm 2'
>>> [t.id for t in catalog.search("noise", paper="tran2022", kind="lemma")]
['tran2022.lemma7', 'tran2022.lemma7.var']
>>> catalog.resolve_symbol("N", catalog.get("tran2022.thm9"))   # tran2022 prints N for n
n
"""

from __future__ import annotations

import functools
from typing import TYPE_CHECKING, Any, Mapping

from dptheory.errors import UsageError, suggest
from dptheory.vocabulary import quantity_of

if TYPE_CHECKING:  # pragma: no cover - for annotations only (sympy loads lazily)
    import sympy as sp

    from dptheory.symbolic.compare import Comparison
    from dptheory.symbolic.theorem import Theorem

__all__ = ["get", "search", "ids", "papers", "resolve_symbol", "aliases", "compare_items",
           "suggest", "sensitivities"]


def ids() -> list[str]:
    """Every catalog id, in catalog order.

    Returns
    -------
    list of str
    """
    from dptheory import registry
    return list(registry.items())


def get(item_id: str) -> "Theorem":
    """The catalog item ``item_id`` (``"tran2022.thm9"``).

    Parameters
    ----------
    item_id : str

    Returns
    -------
    dptheory.symbolic.Theorem

    Raises
    ------
    ValueError
        For an unknown id, naming the nearest ones.

    Examples
    --------
    >>> get("wang2020.remark1").paper
    'wang2020'
    >>> get("tran2022.thm0")
    Traceback (most recent call last):
    ...
    dptheory.errors.UsageError: unknown id 'tran2022.thm0'; did you mean tran2022.thm9, tran2022.thm8, tran2022.thm6?
    """
    from dptheory import registry
    return registry.get(item_id)


def papers() -> dict[str, Any]:
    """``{paper key: Paper or None}`` of every registered catalog."""
    from dptheory import registry
    return registry.papers()


def search(text: str = "", *, paper: str | None = None, kind: str | None = None,
           category: str | None = None, provenance: str | None = None) -> list["Theorem"]:
    """Catalog items matching every criterion given.

    Parameters
    ----------
    text : words that must all occur (case-insensitive) in the id, title, statement,
        measured quantity, source or notes.
    paper : paper key (``"tran2022"``).
    kind : ``theorem``, ``lemma``, ``corollary``, ... (:data:`dptheory.symbolic.KINDS`).
    category : ``utility``, ``privacy``, ``sensitivity``, ...
    provenance : ``printed``, ``corrected``, ...

    Returns
    -------
    list of Theorem
        In catalog order.

    Examples
    --------
    >>> [t.id for t in search("sensitivity", paper="zhang2017", kind="lemma")]
    ['zhang2017.lemma2', 'zhang2017.lemma3']
    """
    from dptheory import registry
    words = [w.lower() for w in str(text).split()]
    out = []
    for item in registry.items().values():
        if paper and item.paper != paper:
            continue
        if kind and item.kind != kind:
            continue
        if category and item.category != category:
            continue
        if provenance and item.provenance != provenance:
            continue
        hay = " ".join((item.id, item.title, item.statement, item.measured, item.source,
                        item.notes, item.category)).lower()
        if all(w in hay for w in words):
            out.append(item)
    return out


# ----------------------------------------------------------------------------- symbols
@functools.lru_cache(maxsize=None)
def printed_letters() -> dict[str, tuple[tuple[str, str], ...]]:
    """``{printed letter: ((registered name, paper), ...)}`` over every catalog's notation
    (built once). ``dptheory`` makes it the table :mod:`dptheory.notation` gives the
    symbolic core.

    Returns
    -------
    dict
    """
    from dptheory import registry
    from dptheory.symbolic.resolve import letters_of
    return letters_of(registry.items().values())


def aliases(item: "Theorem | None" = None) -> dict[str, str]:
    """Names accepted for symbols besides their registered names: ``{alias: name}``
    (:func:`dptheory.symbolic.resolve.aliases`).

    Parameters
    ----------
    item : Theorem, optional; also the letters it prints.

    Returns
    -------
    dict
    """
    from dptheory.symbolic.resolve import aliases as _aliases
    return _aliases(item)


def resolve_symbol(name: Any, item: "Theorem | None" = None, *, option: str = "symbol") -> "sp.Symbol":
    """The registered symbol meant by ``name``: a SymPy symbol, a registered name, or a
    letter a paper prints. :func:`dptheory.symbolic.resolve.resolve_symbol` gives the order
    in which names are tried and the errors (``UsageError``, a ``ValueError``) for unknown
    and ambiguous names; ``option`` names the value in those messages.

    Examples
    --------
    >>> resolve_symbol("p", get("tran2022.thm9"))     # wang2020 prints p for d
    d
    """
    from dptheory.symbolic.resolve import resolve_symbol as _resolve
    return _resolve(name, item, option=option)


# ----------------------------------------------------------------------------- compare
def _quantity(item: "Theorem") -> str:
    unit = "" if item.measured_unit is None else f" [{item.measured_unit}]"
    return f"{item.measured or 'an unnamed quantity'}{unit}"


def compare_items(a: "str | Theorem", b: "str | Theorem", *, vary: Any = "n",
                  at: Mapping[Any, float] | None = None, derived: bool = False) -> "Comparison":
    """Compare two items' stated rates (or, with ``derived``, their explicit bounds at the
    settings) along ``vary``; see :func:`dptheory.symbolic.compare.compare`.

    The result warns when the two items bound different quantities or units: their rates
    are then ordered as numbers only. Error rates (upper bounds) are compared with vacuity:
    regimes where both rates are at least 1 (their constants normalised to 1) are marked.

    Parameters
    ----------
    a, b : ids or Theorems.
    vary : the growing variable (name, printed letter, or symbol).
    at : values of other variables, ``{name or symbol: number}``. When only ``vary`` is left
        free the full rates are compared with their constants, on the whole positive axis.
    derived : compare the bounds with the settings substituted instead of the stated rates.

    Returns
    -------
    Comparison
    """
    from dptheory.symbolic.asymptotics import NotDerivable
    from dptheory.symbolic.compare import compare
    from dptheory.symbolic.derive import scaling_of, substitute_settings

    items = [get(x) if isinstance(x, str) else x for x in (a, b)]
    v = resolve_symbol(vary, items[0], option="vary")
    fixed = {resolve_symbol(k, items[0], option="at"): float(x) for k, x in (at or {}).items()}
    if v in fixed:
        raise UsageError(f"vary {v} is also given a value")
    exprs = []
    for item in items:
        if derived:
            if item.bound is None:
                raise UsageError(f"{item.id} has no explicit bound to derive from")
            exprs.append(substitute_settings(item.bound, item.settings, scaling_of(item)))
        else:
            if item.rate is None:
                raise UsageError(f"{item.id} has no stated rate")
            exprs.append(item.rate)
    warnings = []
    ia, ib = items
    if (ia.measured_unit is not None and ib.measured_unit is not None
            and ia.measured_unit != ib.measured_unit):
        warnings.append(f"{ia.id} bounds {_quantity(ia)} and {ib.id} bounds {_quantity(ib)}: "
                        "different quantities in different units; the rates are ordered as "
                        "numbers only")
    elif ia.measured and ib.measured and quantity_of(ia.measured) != quantity_of(ib.measured):
        warnings.append(f"{ia.id} bounds {quantity_of(ia.measured)} and {ib.id} bounds "
                        f"{quantity_of(ib.measured)}: different quantities (same unit)")
    if ia.direction != ib.direction:
        warnings.append(f"{ia.id} is an {ia.direction} bound and {ib.id} a {ib.direction} bound")
    vacuity = ia.direction == ib.direction == "upper" and {ia.category, ib.category} <= {
        "utility", "stability", "comparison", ""}
    try:
        c = compare(exprs[0], exprs[1], vary=v, growing={**ib.growing, **ia.growing},
                    fixed=fixed, names=(ia.id, ib.id), vacuity=vacuity)
    except NotDerivable as exc:
        raise UsageError(f"cannot compare: {exc}") from None
    c.warnings = warnings
    return c


def sensitivities(item: "str | Theorem | None" = None) -> dict[str, Any]:
    """The sensitivity lemmas of the catalog: ``{"<item id>:<name>": Sensitivity}``.

    Parameters
    ----------
    item : restrict to one item (id or Theorem).

    Returns
    -------
    dict

    Examples
    --------
    >>> s = sensitivities("yang2022.lemma3.1")["yang2022.lemma3.1:clip"]
    >>> s.expr, s.relation
    (2*C, 'replace-one')
    """
    from dptheory import registry
    chosen = ([get(item) if isinstance(item, str) else item] if item is not None
              else registry.items().values())
    return {f"{it.id}:{name}": s for it in chosen for name, s in it.sensitivities.items()}
