"""Names to symbols: registered names, the letters of their LaTeX, and the papers' letters.

A value can be keyed by a SymPy symbol, a registered name (``n``, ``eps``), a letter of a
symbol's LaTeX (``epsilon``, ``Delta_F``) or a letter a paper prints (``N`` for n in
tran2022, ``p`` for d in wang2020). A letter that means different symbols in different
papers (``L``) is refused unless the item at hand prints it. The papers' letters come from
:func:`dptheory.notation.printed_letters` (the letters of every registered catalog), so this
module, like the rest of the symbolic core, imports neither the catalog nor the registry.
``dptheory.catalog`` re-exports :func:`resolve_symbol` and :func:`aliases`.

Examples
--------
>>> from dptheory import catalog
>>> resolve_symbol("N", catalog.get("tran2022.thm9"))   # tran2022 prints N for n
n
"""

from __future__ import annotations

import re
from typing import Any, Iterable

import sympy as sp

from dptheory import notation
from dptheory.errors import UsageError, suggest
from dptheory.symbolic.symbols import registered

# An ``item`` below is a Theorem (anything with ``notation``, ``paper`` and
# ``free_symbols()``); it is typed Any because Theorem.bound_at calls this module, which
# therefore does not import dptheory.symbolic.theorem, not even for annotations.

__all__ = ["typed_letter", "letters_of", "aliases", "resolve_symbol"]


def typed_letter(latex: str) -> str | None:
    """A typed name for a printed letter: ``\\eta`` -> ``eta``, ``D_f`` -> ``D_f``; None
    when the LaTeX is not a plain letter with an optional subscript.

    Examples
    --------
    >>> typed_letter("\\\\eta"), typed_letter("D_{f}"), typed_letter("1/n")
    ('eta', 'D_f', None)
    """
    name = latex.replace("\\", "").replace("{", "").replace("}", "").strip()
    return name if re.fullmatch(r"[A-Za-z][A-Za-z0-9_]*", name) else None


def letters_of(items: Iterable[Any]) -> dict[str, tuple[tuple[str, str], ...]]:
    """``{printed letter: ((registered name, paper), ...)}`` over the items' notation (the
    letters that differ from the registered name).

    Parameters
    ----------
    items : Theorems (every item of every catalog, for :mod:`dptheory.notation`).

    Returns
    -------
    dict
    """
    out: dict[str, set[tuple[str, str]]] = {}
    for item in items:
        for sym, latex in item.notation.items():
            letter = typed_letter(latex)
            if letter and letter != sym.name:
                out.setdefault(letter, set()).add((sym.name, item.paper))
    return {k: tuple(sorted(v)) for k, v in out.items()}


def aliases(item: Any = None) -> dict[str, str]:
    """Names accepted for symbols besides their registered names: ``{alias: name}``.

    Without an item: the letters of the symbols' LaTeX (``epsilon`` for eps, ``Delta_F``
    for Fgap) and the papers' printed letters, each only where it means one symbol across
    every catalog. With an item: also the letters that item prints (``N`` for n and ``L``
    for beta in tran2022), for the symbols it uses.

    Parameters
    ----------
    item : Theorem, optional

    Returns
    -------
    dict
    """
    reg = registered()
    meanings: dict[str, set[str]] = {}
    for name, info in reg.items():
        letter = typed_letter(info.latex)
        if letter and letter != name:
            meanings.setdefault(letter, set()).add(name)
    for letter, pairs in notation.printed_letters().items():
        meanings.setdefault(letter, set()).update(m for m, _ in pairs)
    out = {k: next(iter(v)) for k, v in meanings.items() if len(v) == 1 and k not in reg}
    if item is not None:
        out.update(_item_letters(item))
    return out


def _item_letters(item: Any) -> dict[str, str]:
    """The letters ``item`` prints for the symbols it uses: ``{letter: registered name}``;
    a registered name the item itself uses keeps its own meaning."""
    used = item.free_symbols()
    own: dict[str, set[str]] = {}
    for sym, latex in item.notation.items():
        letter = typed_letter(latex)
        if letter and letter != sym.name and sym in used:
            own.setdefault(letter, set()).add(sym.name)
    used_names = {s.name for s in used}
    return {k: next(iter(v)) for k, v in own.items() if len(v) == 1 and k not in used_names}


def resolve_symbol(name: Any, item: Any = None, *, option: str = "symbol") -> sp.Symbol:
    """The registered symbol meant by ``name``: a SymPy symbol, a registered name, or a
    letter the paper prints (``N``, ``L``, ``R`` in tran2022; ``p`` in wang2020).

    Parameters
    ----------
    name : str or sympy.Symbol
    item : the item whose printed letters to accept first.
    option : how the caller names the value in error messages (``--set``, ``values``).

    Returns
    -------
    sympy.Symbol

    Raises
    ------
    ValueError
        For an unknown name, with the nearest names and the meanings of a letter that
        different papers use differently.

    Examples
    --------
    >>> resolve_symbol("epsilon")
    eps
    >>> resolve_symbol("L")
    Traceback (most recent call last):
    ...
    dptheory.errors.UsageError: symbol: 'L' means different things in different papers (G in wang2020, zhang2017, zhang2021; beta in tran2022); give an item or the registered name
    """
    if isinstance(name, sp.Symbol):
        return name
    if not isinstance(name, str):
        raise UsageError(f"{option}: a symbol name must be a str, got {type(name).__name__}")
    reg = registered()
    if item is not None:
        own = _item_letters(item)
        if name in own:
            return reg[own[name]].symbol
    if name in reg:
        return reg[name].symbol
    alias = aliases(None)
    if name in alias:
        return reg[alias[name]].symbol
    meanings = notation.printed_letters().get(name)
    if meanings:
        by_name: dict[str, list[str]] = {}
        for m, paper in meanings:
            by_name.setdefault(m, []).append(paper)
        text = "; ".join(f"{m} in {', '.join(ps)}" for m, ps in by_name.items())
        raise UsageError(f"{option}: {name!r} means different things in different papers "
                         f"({text}); give an item or the registered name")
    close = suggest(name, [*reg, *alias])
    hint = f"; did you mean {', '.join(close)}?" if close else ""
    raise UsageError(f"{option}: unknown symbol {name!r}{hint} (`dptheory show ID` lists an "
                     "item's symbols)")
