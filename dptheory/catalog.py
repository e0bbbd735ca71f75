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
import math
from typing import TYPE_CHECKING, Any, Mapping, Sequence

from dptheory.errors import UsageError, suggest
from dptheory.vocabulary import quantity_of

if TYPE_CHECKING:  # pragma: no cover - for annotations only (sympy loads lazily)
    import sympy as sp

    from dptheory.symbolic.compare import Comparison, Ranking
    from dptheory.symbolic.theorem import Theorem

__all__ = ["get", "search", "ids", "papers", "resolve_symbol", "aliases", "compare_items",
           "resolve_values", "suggest", "sensitivities", "bibtex"]


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


def _resolve_in_items(name: Any, items: "Sequence[Theorem]", option: str) -> "sp.Symbol":
    """The symbol ``name`` means in every one of ``items`` (a letter one item prints, or a
    registered name); a letter the items read differently is refused, naming each reading."""
    if not items:
        return resolve_symbol(name, None, option=option)
    meanings: dict[Any, list[str]] = {}
    for item in items:
        meanings.setdefault(resolve_symbol(name, item, option=option), []).append(item.id)
    if len(meanings) > 1:
        text = "; ".join(f"{s} in {', '.join(ids)}" for s, ids in meanings.items())
        raise UsageError(f"{option}: {name!r} means different things in the compared items "
                         f"({text}); give the registered name")
    return next(iter(meanings))


def resolve_values(values: Mapping[Any, Any] | None, items: "Sequence[Theorem]" = (), *,
                   option: str = "at") -> dict["sp.Symbol", float]:
    """``{name: value}`` as ``{symbol: float}``, checked: the one resolution of names and
    values that the API (``at=``) and the CLI (``--set``) share.

    A name is a registered name, a SymPy symbol, or a letter the ``items`` print (``N``
    and ``L`` in tran2022, ``L`` in zhang2021); a letter that means different symbols in
    different items, or across the catalog when no item prints it, is refused.

    Parameters
    ----------
    values : names (or symbols) and numbers (or numeric strings).
    items : the items whose printed letters to accept.
    option : how the caller names the values in error messages (``at``, ``--set``).

    Returns
    -------
    dict

    Raises
    ------
    ValueError
        For an unknown or ambiguous name, a symbol given twice, or a value that is not a
        finite positive number (an integer for an integer symbol).

    Examples
    --------
    >>> t9, z32 = get("tran2022.thm9"), get("zhang2021.thm3.2")
    >>> resolve_values({"N": 100, "eps": "1"}, [t9])
    {n: 100.0, eps: 1.0}
    >>> resolve_values({"L": 1}, [t9, z32])
    Traceback (most recent call last):
    ...
    dptheory.errors.UsageError: at: 'L' means different things in the compared items (beta in tran2022.thm9; G in zhang2021.thm3.2); give the registered name
    """
    out: dict[Any, float] = {}
    for name, value in (values or {}).items():
        sym = _resolve_in_items(name, items, option)
        if isinstance(value, bool):
            raise UsageError(f"{option}: value of {name} must be a number, got {value!r}")
        try:
            num = float(value)
        except (TypeError, ValueError):
            raise UsageError(f"{option}: value of {name} must be a number, got {value!r}") from None
        if not (math.isfinite(num) and num > 0):
            raise UsageError(f"{option}: {name} must be > 0 and finite, got {value}")
        if sym.is_integer and num != int(num):
            raise UsageError(f"{option}: {name} must be an integer, got {value}")
        if sym in out:
            raise UsageError(f"{option}: {sym} is given twice")
        out[sym] = num
    return out


def _pair_warnings(ia: "Theorem", ib: "Theorem") -> list[str]:
    """Why two items' rates may not be comparable: different quantities, units, directions."""
    warnings = []
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
    return warnings


def compare_items(a: "str | Theorem", b: "str | Theorem", *more: "str | Theorem",
                  vary: Any = "n", at: Mapping[Any, float] | None = None,
                  derived: bool = False) -> "Comparison | Ranking":
    """Compare two or more items' stated rates (or, with ``derived``, their explicit bounds
    at the settings) along ``vary``; see :func:`dptheory.symbolic.compare.compare`.

    The result warns when two items bound different quantities or units: their rates
    are then ordered as numbers only. Error rates (upper bounds) are compared with vacuity:
    regimes where both rates are at least 1 (their constants normalised to 1) are marked.
    Names in ``at`` and ``vary`` are resolved by :func:`resolve_values`, as the CLI's
    ``--set`` is: a letter the items print differently is refused, and a value that occurs
    in none of the compared rates is reported in ``warnings``, not silently dropped.

    Parameters
    ----------
    a, b, *more : ids or Theorems; with more than two, a
        :class:`~dptheory.symbolic.compare.Ranking` of all of them.
    vary : the growing variable (name, printed letter, or symbol).
    at : values of other variables, ``{name or symbol: number}``. When only ``vary`` is left
        free the full rates are compared with their constants, on the whole positive axis;
        when only ``vary`` and constants (G, mu, ...) are left, every statement holds for
        every admissible value of the constants or says for which.
    derived : compare the bounds with the settings substituted instead of the stated rates.

    Returns
    -------
    Comparison or Ranking
    """
    from dptheory.symbolic.asymptotics import NotDerivable
    from dptheory.symbolic.compare import compare, rank
    from dptheory.registry import item_label
    from dptheory.symbolic.derive import scaling_of, substitute_settings

    items = [get(x) if isinstance(x, str) else x for x in (a, b, *more)]
    ids = [i.id for i in items]
    if len(set(ids)) != len(ids):
        raise UsageError(f"compare: an item is named twice ({', '.join(ids)})")
    v = _resolve_in_items(vary, items, "vary")
    fixed = resolve_values(at, items, option="at")
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
    used = set().union(*(e.free_symbols for e in exprs))
    unused = [f"{s} = {x:g} occurs in none of the compared rates: it has no effect"
              for s, x in fixed.items() if s not in used]
    growing = {k: g for item in reversed(items) for k, g in item.growing.items()}
    vacuity = len({i.direction for i in items}) == 1 and items[0].direction == "upper" and \
        {i.category for i in items} <= {"utility", "stability", "comparison", ""}

    def pair(i: int, j: int) -> "Comparison":
        ia, ib = items[i], items[j]
        try:
            c = compare(exprs[i], exprs[j], vary=v, growing={**ib.growing, **ia.growing},
                        fixed=fixed, names=(ia.id, ib.id), vacuity=vacuity)
        except NotDerivable as exc:
            raise UsageError(f"cannot compare: {exc}") from None
        c.warnings = _pair_warnings(ia, ib) + unused
        c.labels = (item_label(ia.id), item_label(ib.id))
        return c

    if not more:
        return pair(0, 1)
    pairs = [pair(i, j) for i in range(len(items)) for j in range(i + 1, len(items))]
    return rank(exprs, pairs, vary=v, growing=growing, fixed=fixed, names=tuple(ids),
                warnings=unused)


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


def bibtex() -> str:
    """BibTeX of every registered paper (what ``docs/papers.bib`` holds), from the papers'
    metadata in their catalog modules (:meth:`dptheory.symbolic.theorem.Paper.bibtex`):
    each entry has the fields the encoded text prints; the catalog's other records
    (venue, year, arXiv id) are comments above it, to be checked before citing.

    Returns
    -------
    str
    """
    entries = [p.bibtex() for _, p in sorted(papers().items()) if p is not None]
    head = ("% The papers dptheory encodes. Generated by dptheory.catalog.bibtex(); each entry "
            "holds what the\n% encoded text prints, the comment above it what the catalog "
            "records besides.\n")
    return head + "\n\n".join(entries) + "\n"
