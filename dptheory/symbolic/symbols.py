"""The shared symbol registry.

One SymPy symbol per *concept* (sample size, dimension, Lipschitz constant, ...), with its
SymPy assumptions, its dimension and a description, so that every paper's expressions share
symbols and compare directly. Papers that print another letter for a concept (tran2022's
``N`` for the sample size, wang2020's ``p`` for the dimension, zhang2021's ``L`` for the
Lipschitz constant) keep their notation through a theorem's ``notation`` map, used only for
rendering.

A catalog may register symbols of its own with :func:`register`; registering an existing
name again with a different dimension or domain is an error, so two papers cannot silently
give one symbol two meanings.
"""

from __future__ import annotations

from dataclasses import dataclass
from types import SimpleNamespace

import sympy as sp

from dptheory.symbolic import units as U
from dptheory.symbolic.memo import simplify


@dataclass(frozen=True)
class SymbolInfo:
    """A registered symbol: its SymPy symbol, unit, description, LaTeX, domain and a valid
    example value."""
    symbol: sp.Symbol
    unit: sp.Expr
    description: str
    latex: str
    domain: str          # human-readable domain, e.g. "integer >= 2"
    example: float       # a valid value, used to evaluate items at a generic point


_REGISTRY: dict[str, SymbolInfo] = {}

#: Attribute access to every registered symbol: ``S.n``, ``S.eps``, ...
S = SimpleNamespace()


def register(name: str, unit: sp.Expr = U.ONE, description: str = "", *, latex: str | None = None,
             domain: str = "> 0", integer: bool = False, positive: bool = True,
             nonnegative: bool = False, example: float | None = None) -> sp.Symbol:
    """Register (or fetch, if identical) the symbol ``name``; return it."""
    kwargs: dict[str, bool] = {}
    if integer:
        kwargs["integer"] = True
    if positive:
        kwargs["positive"] = True
    elif nonnegative:
        kwargs["nonnegative"] = True
    else:
        kwargs["real"] = True
    symbol = sp.Symbol(name, **kwargs)
    unit = sp.sympify(unit)
    if example is None:
        example = 64.0 if integer else 0.5
    info = SymbolInfo(symbol, unit, description, latex or sp.latex(sp.Symbol(name)), domain,
                      float(example))
    old = _REGISTRY.get(name)
    if old is not None:
        if old.symbol != symbol or simplify(old.unit - unit) != 0:
            raise ValueError(f"symbol {name!r} already registered with unit {old.unit} and "
                             f"assumptions {old.symbol.assumptions0}; got unit {unit}")
        return old.symbol
    _REGISTRY[name] = info
    setattr(S, name, symbol)
    return symbol


def info(symbol: sp.Symbol | str) -> SymbolInfo:
    """The :class:`SymbolInfo` of a registered symbol (by symbol or name).

    Examples
    --------
    >>> info("eps").description
    'privacy parameter epsilon'
    """
    name = symbol if isinstance(symbol, str) else symbol.name
    try:
        return _REGISTRY[name]
    except KeyError:
        raise ValueError(f"symbol {name!r} is not registered") from None


def unit_of(symbol: sp.Symbol) -> sp.Expr:
    """The unit (dimension) of a registered symbol: a SymPy expression of the base
    dimensions."""
    return info(symbol).unit


def lookup(name: str) -> sp.Symbol:
    """The registered symbol called ``name`` (used to parse ``--set name=value``)."""
    return info(name).symbol


def registered() -> dict[str, SymbolInfo]:
    """``{name: SymbolInfo}`` of every registered symbol."""
    return dict(_REGISTRY)


# --- the shared symbols ---------------------------------------------------------------
# Problem size and privacy.
register("n", U.ONE, "number of samples (tran2022 and yang2022 print N)", integer=True,
         domain="integer >= 2", example=10000)
register("d", U.ONE, "dimension (wang2020 prints p)", integer=True, domain="integer >= 1",
         example=16)
register("eps", U.ONE, "privacy parameter epsilon", latex=r"\epsilon", example=1.0)
register("delta", U.ONE, "privacy parameter delta", latex=r"\delta", domain="(0, 1)",
         example=1e-5)
register("T", U.ONE, "number of iterations", integer=True, domain="integer >= 1",
         example=4096)
register("B", U.ONE, "batch size", integer=True, domain="integer in [1, n]", example=32)
register("q", U.ONE, "sampling ratio B/n", domain="(0, 1]", example=0.01)
register("z", U.ONE, "Renyi order", domain="> 1", example=8)
# Problem constants.
register("G", U.GRAD, "Lipschitz constant of the per-sample loss (zhang2021, zhang2017 print L)")
register("beta", U.SMOOTH, "smoothness constant (tran2022 prints L, wang2020 prints M)",
         latex=r"\beta")
register("mu", U.SMOOTH, "PL / strong-convexity constant", latex=r"\mu")
register("theta", U.ONE, "one-point weak quasi-convexity constant", latex=r"\theta")
register("rho", U.HESS_LIP, "Hessian-Lipschitz constant", latex=r"\rho")
register("L0", U.SMOOTH, "L0 of (L0,L1)-generalized smoothness", latex="L_0")
register("L1", U.L1_UNIT, "L1 of (L0,L1)-generalized smoothness", latex="L_1", positive=False,
         nonnegative=True, domain=">= 0")
register("tau0", U.GRAD, "affine deviation constant tau0", latex=r"\tau_0")
register("tau1", U.ONE, "affine deviation constant tau1", latex=r"\tau_1", positive=False,
         nonnegative=True, domain="[0, 1)", example=0.3)
register("sigma_g", U.GRAD, "bound on the per-sample gradient standard deviation",
         latex=r"\sigma", positive=False, nonnegative=True, domain=">= 0")
register("Fgap", U.LOSS, "initial optimality gap F(w0) - F*", latex=r"\Delta_F")
register("D", U.PARAM, "bound on the norm of the minimizer / distance", latex="D")
# Step sizes and algorithm parameters.
register("eta", U.STEP, "step size of (momentum) SGD or GD", latex=r"\eta")
register("eta_n", U.STEP_NORMALIZED, "step size of a normalized update w - eta m/||m||",
         latex=r"\eta")
register("alpha_m", U.ONE, "momentum weight alpha = 1 - beta (tran2022)", latex=r"\alpha",
         domain="(0, 1]")
register("sigma", U.ONE, "noise multiplier (dimensionless)", latex=r"\sigma", example=2.0)
register("C", U.GRAD, "clipping threshold", latex="C")
register("r", U.GRAD, "regulariser of per-sample normalization g/(||g|| + r)", latex="r")
register("alpha", U.GRAD, "target accuracy of an alpha-SOSP (a gradient norm)",
         latex=r"\alpha")

# LaTeX commands of the registered symbols, as Unicode (for plain-text display names).
_UNICODE = {
    "alpha": "α", "beta": "β", "gamma": "γ", "delta": "δ", "epsilon": "ε", "varepsilon": "ε",
    "zeta": "ζ", "eta": "η", "theta": "θ", "kappa": "κ", "lambda": "λ", "mu": "μ", "nu": "ν",
    "xi": "ξ", "pi": "π", "rho": "ρ", "sigma": "σ", "tau": "τ", "phi": "φ", "chi": "χ",
    "psi": "ψ", "omega": "ω", "Gamma": "Γ", "Delta": "Δ", "Theta": "Θ", "Lambda": "Λ",
    "Xi": "Ξ", "Pi": "Π", "Sigma": "Σ", "Phi": "Φ", "Psi": "Ψ", "Omega": "Ω",
    "nabla": "∇", "|": "‖", "Vert": "‖", "langle": "⟨", "rangle": "⟩", "in": "∈",
    "le": "≤", "ge": "≥", "infty": "∞", "cdot": "·", "sqrt": "√", "log": "log",
    "min": "min", "max": "max", "sum": "Σ", "circ": "∘", "rm": "", "sup": "sup",
}


def display_name(name: str) -> str:
    r"""The plain-text name a reader knows a registered symbol by, from its LaTeX (``"eps"``
    -> ``"ε"``, ``"w20_zeta"`` -> ``"ζ"``, ``"Fgap"`` -> ``"Δ_F"``); unregistered names
    are returned unchanged.

    Examples
    --------
    >>> from dptheory import registry; _ = registry.items()     # the catalogs' symbols
    >>> display_name("w20_zeta"), display_name("tau0"), display_name("n")
    ('ζ', 'τ_0', 'n')
    """
    import re
    item = _REGISTRY.get(name)
    if item is None:
        return name
    text = item.latex
    for _ in range(2):          # \frac{a}{b} -> a/b (one level of nesting inside)
        text = re.sub(r"\\frac\s*\{([^{}]*)\}\s*\{([^{}]*)\}", r"(\1)/(\2)", text)
    text = re.sub(r"\\(?:mathbb|mathcal|mathrm|operatorname|text|tilde|hat|bar)\s*", "", text)
    text = re.sub(r"\\([A-Za-z]+|\|)", lambda m: _UNICODE.get(m.group(1), m.group(1)), text)
    text = text.replace("{", "").replace("}", "").replace("\\,", " ").replace("~", " ")
    return text.strip() or name


def humanize(text: str) -> str:
    """``text`` with every internal symbol name (a registered name with an underscore, or
    ``Fgap``, that does not read as its symbol: ``w20_zeta``, ``tr22_DsensGle``) replaced by its
    :func:`display_name`; other words are left alone.

    Examples
    --------
    >>> from dptheory import registry; _ = registry.items()     # the catalogs' symbols
    >>> humanize("needs w20_zeta, Fgap and n")
    'needs ζ, Δ_F and n'
    """
    import re
    internal = sorted((k for k in _REGISTRY if ("_" in k or k == "Fgap")
                       and display_name(k) != k),
                      key=len, reverse=True)
    if not internal or not text:
        return text
    pattern = re.compile(r"(?<![\w.])(" + "|".join(map(re.escape, internal)) + r")(?![\w])")
    return pattern.sub(lambda m: display_name(m.group(1)), text)


__all__ = ["S", "SymbolInfo", "register", "info", "unit_of", "lookup", "registered",
           "display_name", "humanize"]
