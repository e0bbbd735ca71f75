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

from dptheory.vocabulary import (DIRECTIONS, KINDS, PRIVACY_MODELS, PROVENANCE, RATE_NOTATIONS,
                                 RELATIONS)


@dataclass(frozen=True)
class Sensitivity:
    """A claimed sensitivity: how much a released statistic may change between neighbouring
    data sets.

    Parameters
    ----------
    expr : the claimed bound (SymPy), e.g. ``2*C`` for a sum of clipped gradients.
    relation : the neighbouring relation, one of :data:`RELATIONS`.
    quantity : what changes, e.g. ``"||sum_i clip_C(g_i) - sum_i clip_C(g'_i)||"``.
    norm : the norm of the change (``"l2"`` unless said otherwise).
    source : where the paper states it.

    Examples
    --------
    >>> from dptheory.symbolic import S
    >>> s = Sensitivity(2 * S.C, "replace-one", "||sum clip_C(g_i) - sum clip_C(g'_i)||")
    >>> s.evaluate({"C": 0.5})
    1.0
    """

    expr: sp.Expr
    relation: str = "replace-one"
    quantity: str = ""
    norm: str = "l2"
    source: str = ""

    def __post_init__(self) -> None:
        if self.relation not in RELATIONS:
            raise ValueError(f"relation must be one of {RELATIONS}, got {self.relation!r}")
        object.__setattr__(self, "expr", sp.sympify(self.expr))

    def evaluate(self, values: Mapping[Any, float]) -> float:
        """The bound at ``values`` (``{symbol or registered name: number}``); every free
        symbol needs a value."""
        from dptheory.symbolic.numeric import _as_symbol_map
        env = _as_symbol_map(values)
        missing = sorted(str(s) for s in self.expr.free_symbols if s not in env)
        if missing:
            raise ValueError(f"sensitivity {sp.sstr(self.expr)} needs values for {missing}")
        return float(sp.N(self.expr.subs(env), 30))


@dataclass(frozen=True)
class Paper:
    """A paper of the catalog: its key (``zhang2021``), title, authors, venue and source.

    Parameters
    ----------
    key : the catalog key, also the BibTeX key.
    title, authors : as the paper prints them (authors comma-separated, given name first).
    venue, year, arxiv : where and when it appeared and its arXiv identifier, as the catalog
        records them ("" or None when unknown).
    source : which text of the paper was encoded.
    in_text : the fields the encoded text itself prints (title, authors, ...); the others
        are the catalog's records, which the text does not confirm. :meth:`bibtex` writes
        only these into the entry.
    """
    key: str            # zhang2021
    title: str
    authors: str
    venue: str
    source: str         # which text of the paper was encoded
    year: int | None = None
    arxiv: str = ""
    in_text: tuple[str, ...] = ("title", "authors")

    def reference(self) -> dict[str, Any]:
        """Title, authors, venue, year and arXiv id, with ``in_text`` (what the encoded text
        prints) and ``unconfirmed`` (the recorded fields it does not print)."""
        fields = {"title": self.title, "authors": self.authors, "venue": self.venue,
                  "year": self.year, "arxiv": self.arxiv}
        return {"key": self.key, **fields, "in_text": list(self.in_text),
                "unconfirmed": [k for k, v in fields.items() if v and k not in self.in_text]}

    def describe(self) -> str:
        """One line for ``dptheory show``: authors, title, venue, arXiv id; the fields the
        encoded text does not print are marked as the catalog's records."""
        ref = self.reference()
        parts = [f"{self.authors or 'authors not given'}, *{self.title}*"]
        venue = self.venue or "venue unknown"
        if self.year and str(self.year) not in venue:
            venue += f", {self.year}"
        parts.append(venue)
        parts.append(f"arXiv {self.arxiv}" if self.arxiv else "arXiv id unknown")
        text = "; ".join(parts)
        if ref["unconfirmed"]:
            names = ", ".join("arXiv id" if k == "arxiv" else k for k in ref["unconfirmed"])
            text += f" ({names}: the catalog's record, not printed in the encoded text)"
        return text

    def bibtex(self) -> str:
        """A BibTeX entry with the fields the encoded text prints (``in_text``); the
        catalog's other records precede it as a comment, to be checked before citing.

        Examples
        --------
        >>> p = Paper("doe2020", "A Title", "Jane Doe, John Roe", "Some Venue 2020", "main text")
        >>> print(p.bibtex())
        % doe2020: venue Some Venue 2020 (the catalog's record, not printed in the encoded text)
        @misc{doe2020,
          title = {{A Title}},
          author = {Doe, Jane and Roe, John},
        }
        """
        def bib_name(full: str) -> str:
            given, _, family = full.strip().rpartition(" ")
            return f"{family}, {given}" if given else family
        extra = {"authors": self.authors, "venue": self.venue,
                 "year": self.year and str(self.year), "arXiv": self.arxiv}
        notes = [f"{k} {v}" for k, v in extra.items()
                 if v and k.lower() not in self.in_text]
        lines = ([f"% {self.key}: {', '.join(notes)} (the catalog's record, not printed in the "
                  "encoded text)"] if notes else [])
        lines.append(f"@misc{{{self.key},")
        if "title" in self.in_text:
            lines.append(f"  title = {{{{{self.title}}}}},")
        if "authors" in self.in_text and self.authors:
            names = " and ".join(bib_name(a) for a in self.authors.split(","))
            lines.append(f"  author = {{{names}}},")
        for k, v in (("howpublished", self.venue), ("year", self.year and str(self.year)),
                     ("eprint", self.arxiv)):
            if v and {"howpublished": "venue", "eprint": "arxiv"}.get(k, k) in self.in_text:
                lines.append(f"  {k} = {{{v}}},")
        lines.append("}")
        return "\n".join(lines)


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
    finding_root : the root cause (a finding key, ``<item>:<name>``) that a refutation of this
        item's derivation belongs to, when a check of the paper already decides that cause
        (an item encoding the paper's own proof route, whose failure is the paper's): the
        refutation is then graded ``proof`` and merged into that finding (``""``: none).
    sensitivities : claimed sensitivities of the item, ``{name: Sensitivity}`` (a SymPy
        bound with its neighbouring relation), read by the sensitivity checks.
    units, units_reason : unit conventions the item (or its paper) uses, as a normalisation
        of the base dimensions (``{W: 1}``: parameters are pure numbers, as tran2022's
        ``eta = 1/sqrt(NT)`` makes them), and where the paper says so. Dimensional issues a
        declared convention covers are not findings.
    privacy : the privacy model of the algorithm run the item is about, where the paper's
        statement fixes one: ``"eps-DP"`` (pure, delta = 0: zhang2017's Theorem 2 (1)) or
        ``"(eps,delta)-DP"`` (delta > 0). ``""``: not declared; :meth:`privacy_model` then
        infers ``"(eps,delta)-DP"`` from a delta in the bound or the settings. A run compared
        with the item must use the same model (``dptheory sweep --theorem`` checks it).
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
    finding_root: str = ""
    sensitivities: Mapping[str, Sensitivity] = field(default_factory=dict)
    privacy: str = ""

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
        if self.privacy not in PRIVACY_MODELS:
            raise ValueError(f"{self.id}: privacy must be one of {PRIVACY_MODELS}, "
                             f"got {self.privacy!r}")
        hyps = []
        for h in self.hypotheses:
            if isinstance(h, tuple):
                hyps.append((str(h[0]), sp.sympify(h[1])))
            else:
                hyps.append((sp.sstr(h), h))
        object.__setattr__(self, "hypotheses", tuple(hyps))
        object.__setattr__(self, "settings", dict(self.settings))
        object.__setattr__(self, "units", dict(self.units))
        object.__setattr__(self, "sensitivities", dict(self.sensitivities))
        for name, sens in self.sensitivities.items():
            if not isinstance(sens, Sensitivity):
                raise ValueError(f"{self.id}: sensitivities[{name!r}] must be a Sensitivity")
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
        """The growing quantities, ``{symbol: +1 (grows) or -1 (shrinks)}``: ``scaling``, or by
        default n and d grow and eps shrinks.
        """
        from dptheory.symbolic.symbols import S
        return dict(self.scaling) if self.scaling is not None else {S.n: 1, S.d: 1, S.eps: -1}

    def free_symbols(self) -> set[sp.Symbol]:
        """Every symbol of the bound, the rate, the trivial value, the expressions and relations."""
        out: set[sp.Symbol] = set()
        for e in self._all_expressions():
            out |= e.free_symbols
        return out

    def _all_expressions(self) -> list[sp.Basic]:
        out: list[sp.Basic] = [e for e in (self.bound, self.rate, self.trivial) if e is not None]
        out += [rel for _, rel in self.hypotheses]
        out += list(self.settings.values()) + list(self.relations.values())
        out += list(self.expressions.values())
        out += [s.expr for s in self.sensitivities.values()]
        return out

    def privacy_model(self) -> str:
        """The privacy model of the run this item is about: the declared ``privacy``, else
        ``"(eps,delta)-DP"`` when delta appears in the bound or a setting (the statement's
        noise or step count depends on it), else ``""`` (the item fixes none).
        """
        if self.privacy:
            return self.privacy
        from dptheory.symbolic.symbols import S
        exprs = [e for e in (self.bound,) if e is not None] + list(self.settings.values())
        if any(S.delta in sp.sympify(e).free_symbols for e in exprs):
            return "(eps,delta)-DP"
        return ""

    # -- numeric evaluation --------------------------------------------------------------
    def evaluate(self, what: str = "bound", values: Mapping[Any, float] | None = None,
                 apply_settings: bool = True) -> float:
        """Evaluate ``bound``, ``rate``, or a named expression/relation at ``values``.

        ``values`` maps symbols (or their names) to numbers. Settings are applied first
        unless the caller gives the set symbol a value; implicit settings (T through
        log T) are solved by fixed-point iteration. :meth:`bound_at` and :meth:`rate_at`
        also accept the paper's letters and say which values are missing.
        """
        from dptheory.symbolic.numeric import evaluate
        return evaluate(self, what, values or {}, apply_settings=apply_settings)

    def needs(self, what: str = "bound", given: Any = ()) -> list[sp.Symbol]:
        """The symbols ``what`` needs values for, once the settings not overridden by
        ``given`` (symbols with values) are applied.

        Examples
        --------
        >>> from dptheory import catalog
        >>> catalog.get("wang2020.remark1").needs("rate")
        [d, delta, eps, n]
        """
        from dptheory.symbolic.numeric import needed_symbols
        given = set(given)
        return sorted(needed_symbols(self.expression(what), self.settings, given) - given,
                      key=str)

    def value_at(self, what: str = "bound", values: Mapping[Any, float] | None = None,
                 **kw: float) -> float:
        """``what`` (bound, rate, a named expression or sensitivity) at the given values.

        Values are keyed by registered names (``n``, ``eps``), the paper's own letters
        (``N``, ``L``, ``R`` in tran2022) or SymPy symbols, as a mapping or as keywords.
        The item's settings fill in the symbols they define.

        Raises
        ------
        ValueError
            Naming every missing value (with the paper's letter and what it is) or an
            unknown name (with the nearest ones).
        """
        from dptheory.symbolic.resolve import resolve_symbol
        from dptheory.symbolic.numeric import evaluate
        from dptheory.symbolic.symbols import info
        env: dict[sp.Symbol, float] = {}
        for key, value in {**(values or {}), **kw}.items():
            sym = resolve_symbol(key, self, option=f"{self.id}.{what}_at")
            try:
                env[sym] = float(value)
            except (TypeError, ValueError):
                raise ValueError(f"{self.id}: value of {key} must be a number, got {value!r}") from None
        missing = self.needs(what, env)
        if missing:
            def say(sym: sp.Symbol) -> str:
                letter = self.notation.get(sym, "").replace("\\", "")
                try:
                    desc = info(sym).description
                except ValueError:
                    desc = ""
                shown = f"{letter} ({sym})" if letter and letter != sym.name else str(sym)
                return f"{shown}: {desc}" if desc else shown
            raise ValueError(f"{self.id}: {what} needs values for " + "; ".join(map(say, missing)))
        return evaluate(self, what, env)

    def bound_at(self, values: Mapping[Any, float] | None = None, **kw: float) -> float:
        """The explicit bound at the given values (see :meth:`value_at`).

        Parameters
        ----------
        values : mapping of names, letters or symbols to numbers.
        **kw : the same as keywords.

        Returns
        -------
        float

        Examples
        --------
        >>> from dptheory import catalog
        >>> thm = catalog.get("zhang2017.lemma2")      # 3 L T eta / n
        >>> thm.bound_at(L=1, T=10, eta=0.5, n=100)
        0.15
        >>> thm.bound_at(T=10, n=100)
        Traceback (most recent call last):
        ...
        ValueError: zhang2017.lemma2: bound needs values for L (G): Lipschitz constant ...
        """
        return self.value_at("bound", values, **kw)

    def rate_at(self, values: Mapping[Any, float] | None = None, **kw: float) -> float:
        """The stated rate (its O-expression with the hidden constants set to 1) at the
        given values (see :meth:`value_at`).

        Examples
        --------
        >>> from dptheory import catalog
        >>> round(catalog.get("tran2022.thm9").rate_at(N=10**6, d=100, eps=1), 6)
        0.001464
        """
        return self.value_at("rate", values, **kw)

    def expression(self, what: str) -> sp.Basic:
        """The SymPy expression named ``what``.

        Parameters
        ----------
        what : ``"bound"``, ``"rate"``, ``"trivial"``, or a key of ``expressions``,
            ``relations`` or ``sensitivities``.

        Raises
        ------
        ValueError
            For an unknown name (listing the choices) or an absent bound/rate.

        Examples
        --------
        >>> from dptheory import catalog
        >>> catalog.get("yang2022.lemma3.1").expression("clip")
        2*C
        """
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
        elif what in self.sensitivities:
            expr = self.sensitivities[what].expr
        else:
            choices = ["bound", "rate", "trivial", *self.expressions, *self.relations,
                       *self.sensitivities]
            raise ValueError(f"{self.id}: unknown expression {what!r}; choose from {choices}")
        if expr is None:
            raise ValueError(f"{self.id} has no {what}")
        return expr

    # -- rendering -----------------------------------------------------------------------
    def latex(self, expr: sp.Basic) -> str:
        """LaTeX of ``expr`` in the paper's own notation (its letters, e.g. tran2022's N for n)."""
        names = {s: v for s, v in self.notation.items()}
        from dptheory.symbolic.symbols import registered
        for name, info in registered().items():
            names.setdefault(info.symbol, info.latex)
        return sp.latex(expr, symbol_names=names)

    def to_markdown(self) -> str:
        """The item as a Markdown section (statement, bound, rate, assumptions, hypotheses)."""
        from dptheory.symbolic.render import markdown
        return markdown(self)

    def to_latex(self) -> str:
        """The item as a standalone LaTeX document."""
        from dptheory.symbolic.render import latex_document
        return latex_document(self)

    def _repr_latex_(self) -> str:
        """Jupyter's display: the title, then the explicit bound and the stated rate."""
        from dptheory.symbolic.render import rate_latex
        title = self.title.replace("$", "")
        parts = [rf"\text{{{self.id}: {title}}}"]
        if self.bound is not None:
            op = r"\le" if self.direction == "upper" else r"\ge"
            measured = (self.measured or "measured").replace("_", r"\_").replace("||", r"\|")
            parts.append(rf"\text{{{measured}}} {op} {self.latex(self.bound)}")
        if self.rate is not None:
            parts.append(rf"\text{{stated rate: }} {rate_latex(self)}")
        return "$\\begin{gathered}" + r" \\ ".join(parts) + r"\end{gathered}$"

    def __repr__(self) -> str:
        return f"<Theorem {self.id}: {self.title}>"

    def summary(self) -> dict[str, Any]:
        """One row of ``dptheory list``: id, paper, kind, title, provenance, category, source."""
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
        """Build a :class:`Theorem` from ``fields`` over the catalog's defaults and append it.

        Returns
        -------
        Theorem
        """
        item = Theorem(**{**self.defaults, **fields})
        self.append(item)
        return item


def polylog(name: str) -> sp.Symbol:
    """A placeholder for a polylogarithmic factor (e.g. log2 T inside an implicit setting)."""
    return sp.Symbol(f"polylog_{name}", positive=True)


__all__ = ["Theorem", "Paper", "Catalog", "Sensitivity", "KINDS", "PROVENANCE", "RATE_NOTATIONS",
           "RELATIONS", "polylog"]
