"""HTML for Jupyter: results display as tables (``_repr_html_`` of the public results)."""

from __future__ import annotations

import math
from html import escape
from typing import Any, Mapping, Sequence

__all__ = ["html_table", "check_html"]


def _cell(v: Any) -> str:
    if v is None:
        return ""
    if isinstance(v, float):
        return "" if math.isnan(v) else f"{v:.4g}"
    return escape(str(v))


def html_table(rows: Sequence[Mapping[str, Any]], columns: Sequence[str]) -> str:
    """An HTML table of ``rows`` (dicts) with the given ``columns`` (missing cells empty).

    Examples
    --------
    >>> html_table([{"n": 64, "mean": 0.12345678}], ["n", "mean"])
    '<table><tr><th>n</th><th>mean</th></tr><tr><td>64</td><td>0.1235</td></tr></table>'
    """
    head = "".join(f"<th>{escape(c)}</th>" for c in columns)
    body = "".join("<tr>" + "".join(f"<td>{_cell(r.get(c))}</td>" for c in columns) + "</tr>"
                   for r in rows)
    return f"<table><tr>{head}</tr>{body}</table>"


def check_html(result: Any) -> str:
    """A :class:`~dptheory.verify.verdict.CheckResult` as HTML: verdict, reason, power or
    severity, and the evidence's scalar numbers."""
    parts = [f"<p><b>{escape(result.verdict)}</b>: {escape(result.summary)}</p>"]
    if result.power:
        parts.append(f"<p>power: {escape(str(result.power.get('statement', '')))}</p>")
    if result.severity:
        parts.append(f"<p>severity: {escape(result.severity)}; {escape(result.consequence)}</p>")
    scalars = [{"key": k, "value": v} for k, v in (result.evidence or {}).items()
               if isinstance(v, (int, float, str, bool)) or v is None]
    if scalars:
        parts.append(html_table(scalars, ["key", "value"]))
    return "".join(parts)
