"""Rendering of catalog items to Markdown and LaTeX."""

from __future__ import annotations


_O = {"O": r"O", "Otilde": r"\tilde O", "Omega": r"\Omega", "Theta": r"\Theta"}


def rate_latex(item) -> str:
    """LaTeX of the item's stated rate inside its notation (O, tilde O, Omega or Theta)."""
    return f"{_O[item.rate_notation]}\\left({item.latex(item.rate)}\\right)"


def markdown(item) -> str:
    """The item as a Markdown section (what :meth:`Theorem.to_markdown` returns)."""
    lines = [f"### `{item.id}` — {item.title}", "",
             f"*{item.kind}*, {item.source}; provenance: {item.provenance}"
             + (" (garbled in print; literal reading)" if item.garbled else ""), ""]
    if item.statement:
        lines += ["**Statement (as printed):** " + item.statement, ""]
    if item.assumptions:
        lines.append("**Assumptions:** " + ", ".join(a.describe() for a in item.assumptions))
    if item.hypotheses:
        lines.append("**Hypotheses:**")
        lines += [f"- {label}: ${item.latex(rel)}$" for label, rel in item.hypotheses]
    if item.settings:
        lines.append("**Settings:**")
        lines += [f"- ${item.latex(s)} = {item.latex(e)}$" for s, e in item.settings.items()]
    if item.bound is not None:
        op = r"\le" if item.direction == "upper" else r"\ge"
        lines.append(f"**Explicit bound:** {item.measured or 'measured'} ${op} {item.latex(item.bound)}$")
    if item.rate is not None:
        lines.append(f"**Stated rate:** ${rate_latex(item)}$")
    for name, rel in item.relations.items():
        lines.append(f"**{name}:** ${item.latex(rel)}$")
    for name, expr in item.expressions.items():
        lines.append(f"- `{name}` $= {item.latex(expr)}$")
    if item.notes:
        lines += ["", item.notes]
    return "\n".join(lines)


def latex_document(item) -> str:
    """The item as a standalone LaTeX document (what :meth:`Theorem.to_latex` returns)."""
    parts = [f"% {item.id}: {item.title} ({item.source})"]
    if item.bound is not None:
        op = r"\le" if item.direction == "upper" else r"\ge"
        parts.append(f"\\text{{{item.measured or 'measured'}}} {op} {item.latex(item.bound)}")
    if item.rate is not None:
        parts.append(rate_latex(item))
    for label, rel in item.hypotheses:
        parts.append(f"% hypothesis {label}\n{item.latex(rel)}")
    for s, e in item.settings.items():
        parts.append(f"{item.latex(s)} = {item.latex(e)}")
    for name, rel in item.relations.items():
        parts.append(f"% {name}\n{item.latex(rel)}")
    return "\n".join(parts)
