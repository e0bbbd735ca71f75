"""``Theorem``: one catalog item (theorem, lemma, algorithm, definition, quoted rate, ...).

In the spirit of PEPit's one-example-per-theorem: an item holds the statement *as printed*
(LaTeX), its SymPy encoding (explicit bound, stated rate, hypotheses, settings), and where
it comes from. It evaluates numerically and renders to LaTeX/Markdown; the rate algebra in
:mod:`dptheory.symbolic.derive` derives it.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any, Mapping

import sympy as sp

from dptheory.symbolic.assumptions import Assumption

KINDS = ("algorithm", "definition", "assumption", "lemma", "theorem", "corollary",
         "proposition", "remark-claim", "prior-work-rate")
PROVENANCE = ("printed", "literal", "reconstructed", "reconstructed-constants-unknown", "corrected")
RATE_NOTATIONS = ("O", "Otilde", "Omega", "Theta")
DIRECTIONS = ("upper", "lower")


@dataclass(frozen=True)
class Paper:
    key: str            # zhang2021
    title: str
    authors: str
    venue: str
    source: str         # shared/seeds/<file>


@dataclass(frozen=True, eq=False)
class Theorem:
    """A catalog item.

    Parameters
    ----------
    id, title, kind : identity; ``kind`` is one of :data:`KINDS`.
    source : where it is printed ("Theorem 3.2, eq. (5)").
    statement : the statement as printed, LaTeX.
    category : what it claims: privacy, sensitivity, utility, stability,
        sample-complexity, runtime, noise, identity, definition, ...
    measured, measured_unit : the measured quantity and its dimension.
    assumptions : :class:`Assumption` objects the item needs.
    hypotheses : ``(label, relation)`` pairs, SymPy relations as printed.
    settings : parameter choices the paper prescribes, ``{symbol: expression}``. A setting
        may be implicit (its symbol inside a log on the right: T through log2 T).
    bound : explicit bound as printed: ``measured <= bound`` (``direction="upper"``) or
        ``measured >= bound`` (``"lower"``, e.g. a sample complexity ``n >= ...``).
    rate, rate_notation, hidden : the stated O/Õ/Ω/Θ rate and the constants it hides.
    relations : further SymPy statements of the item (calibrations, identities), by name.
    expressions : named expressions used by checks (noise variances, counts, ...).
    scaling : growing quantities, ``{symbol: +1 (grows) or -1 (shrinks)}``; default
        n and d grow, eps shrinks.
    notation : printed name of a shared symbol (``{S.n: "N"}``), for rendering only.
    provenance : one of :data:`PROVENANCE` ("corrected" = a variant dptheory derived beside
        a printed item that fails a check); ``garbled`` marks a literal reading of a
        garbled printed formula.
    trivial, trivial_source : the largest value the measured quantity can take, from the
        item's assumptions (``G`` for a gradient norm under ``||grad f|| <= G``, ``2`` for
        an excess risk when ``|f| <= 1``), and why; a bound at or above it is vacuous.
    printed_statement : whether the statement itself is the paper's (``None``: decided by
        ``provenance``, printed or literal). A reconstructed *proof* of a printed statement
        (tran2022's Proposition 13) keeps ``printed_statement=True``: a refutation of it is a
        finding of the paper; a refutation of a reconstructed or corrected statement is not.
    units, units_reason : unit conventions the item (or its paper) uses, as a normalisation
        of the base dimensions (``{W: 1}``: parameters are pure numbers, as tran2022's
        ``eta = 1/sqrt(NT)`` makes them), and where the paper says so. Dimensional issues a
        declared convention covers are not findings.
    """

    id: str
    title: str
    kind: str
    source: str
    statement: str = ""
    category: str = ""
    measured: str = ""
    measured_unit: sp.Expr | None = None
    assumptions: tuple[Assumption, ...] = ()
    hypotheses: tuple[tuple[str, sp.Basic], ...] = ()
    settings: Mapping[sp.Symbol, sp.Expr] = field(default_factory=dict)
    bound: sp.Expr | None = None
    direction: str = "upper"
    rate: sp.Expr | None = None
    rate_notation: str = "O"
    hidden: tuple[sp.Symbol, ...] = ()
    relations: Mapping[str, sp.Basic] = field(default_factory=dict)
    expressions: Mapping[str, sp.Expr] = field(default_factory=dict)
    scaling: Mapping[sp.Symbol, int] | None = None
    notation: Mapping[sp.Symbol, str] = field(default_factory=dict)
    provenance: str = "printed"
    garbled: bool = False
    notes: str = ""
    refs: tuple[str, ...] = ()
    paper: str = ""
    trivial: sp.Expr | None = None
    trivial_source: str = ""
    units: Mapping[sp.Symbol, sp.Expr] = field(default_factory=dict)
    units_reason: str = ""
    printed_statement: bool | None = None

    def __post_init__(self) -> None:
        if "." not in self.id:
            raise ValueError(f"id must be '<paper>.<label>', got {self.id!r}")
        if not self.paper:
            object.__setattr__(self, "paper", self.id.split(".", 1)[0])
        if self.kind not in KINDS:
            raise ValueError(f"{self.id}: kind must be one of {KINDS}, got {self.kind!r}")
        if self.provenance not in PROVENANCE:
            raise ValueError(f"{self.id}: provenance must be one of {PROVENANCE}, "
                             f"got {self.provenance!r}")
        if self.rate_notation not in RATE_NOTATIONS:
            raise ValueError(f"{self.id}: rate_notation must be one of {RATE_NOTATIONS}")
        if self.direction not in DIRECTIONS:
            raise ValueError(f"{self.id}: direction must be one of {DIRECTIONS}")
        hyps = []
        for h in self.hypotheses:
            if isinstance(h, tuple):
                hyps.append((str(h[0]), sp.sympify(h[1])))
            else:
                hyps.append((sp.sstr(h), h))
        object.__setattr__(self, "hypotheses", tuple(hyps))
        object.__setattr__(self, "settings", dict(self.settings))
        object.__setattr__(self, "units", dict(self.units))
        if self.printed_statement is None:
            object.__setattr__(self, "printed_statement",
                               self.provenance in ("printed", "literal"))
        for name in ("bound", "rate", "measured_unit", "trivial"):
            value = getattr(self, name)
            if value is not None:
                object.__setattr__(self, name, sp.sympify(value))

    # -- queries -----------------------------------------------------------------------
    @property
    def derivable(self) -> bool:
        """Has an explicit bound *and* a stated rate to compare it with."""
        return self.bound is not None and self.rate is not None

    @property
    def growing(self) -> dict[sp.Symbol, int]:
        from dptheory.symbolic.symbols import S
        return dict(self.scaling) if self.scaling is not None else {S.n: 1, S.d: 1, S.eps: -1}

    def free_symbols(self) -> set[sp.Symbol]:
        out: set[sp.Symbol] = set()
        for e in self._all_expressions():
            out |= e.free_symbols
        return out

    def _all_expressions(self) -> list[sp.Basic]:
        out: list[sp.Basic] = [e for e in (self.bound, self.rate, self.trivial) if e is not None]
        out += [rel for _, rel in self.hypotheses]
        out += list(self.settings.values()) + list(self.relations.values())
        out += list(self.expressions.values())
        return out

    # -- numeric evaluation --------------------------------------------------------------
    def evaluate(self, what: str = "bound", values: Mapping[Any, float] | None = None,
                 apply_settings: bool = True) -> float:
        """Evaluate ``bound``, ``rate``, or a named expression/relation at ``values``.

        ``values`` maps symbols (or their names) to numbers. Settings are applied first
        unless the caller gives the set symbol a value; implicit settings (T through
        log T) are solved by fixed-point iteration.
        """
        from dptheory.symbolic.numeric import evaluate
        return evaluate(self, what, values or {}, apply_settings=apply_settings)

    def expression(self, what: str) -> sp.Basic:
        if what == "bound":
            expr = self.bound
        elif what == "trivial":
            expr = self.trivial
        elif what == "rate":
            expr = self.rate
        elif what in self.expressions:
            expr = self.expressions[what]
        elif what in self.relations:
            expr = self.relations[what]
        else:
            choices = ["bound", "rate", "trivial", *self.expressions, *self.relations]
            raise ValueError(f"{self.id}: unknown expression {what!r}; choose from {choices}")
        if expr is None:
            raise ValueError(f"{self.id} has no {what}")
        return expr

    # -- rendering -----------------------------------------------------------------------
    def latex(self, expr: sp.Basic) -> str:
        names = {s: v for s, v in self.notation.items()}
        from dptheory.symbolic.symbols import registered
        for name, info in registered().items():
            names.setdefault(info.symbol, info.latex)
        return sp.latex(expr, symbol_names=names)

    def to_markdown(self) -> str:
        from dptheory.symbolic.render import markdown
        return markdown(self)

    def to_latex(self) -> str:
        from dptheory.symbolic.render import latex_document
        return latex_document(self)

    def _repr_latex_(self) -> str:
        return "$" + self.latex(self.bound if self.bound is not None else sp.Symbol(self.id)) + "$"

    def summary(self) -> dict[str, Any]:
        return {"id": self.id, "paper": self.paper, "kind": self.kind, "title": self.title,
                "provenance": self.provenance, "category": self.category,
                "source": self.source, "garbled": self.garbled}


class Catalog(list):
    """A paper's ``ITEMS``: ``add(**fields)`` builds a :class:`Theorem` with the paper's
    defaults (its notation, ...) and appends it."""

    def __init__(self, **defaults: Any) -> None:
        super().__init__()
        self.defaults = defaults

    def add(self, **fields: Any) -> Theorem:
        item = Theorem(**{**self.defaults, **fields})
        self.append(item)
        return item


def polylog(name: str) -> sp.Symbol:
    """A placeholder for a polylogarithmic factor (e.g. log2 T inside an implicit setting)."""
    return sp.Symbol(f"polylog_{name}", positive=True)


__all__ = ["Theorem", "Paper", "Catalog", "KINDS", "PROVENANCE", "RATE_NOTATIONS", "polylog"]
