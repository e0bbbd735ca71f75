"""Catalog commands: list, show, derive, compare, table, findings."""

from __future__ import annotations

import argparse
import csv
import io
from typing import Any

from dptheory import registry
from dptheory.cli import add_command
from dptheory.errors import UsageError
from dptheory.vocabulary import KINDS

# SymPy and the rate algebra load inside the handlers, so that `dptheory --help` and
# `dptheory list` start fast (issue 12).


def register(sub: Any) -> None:
    """Register the catalog commands (list, show, derive, compare, table, findings) on ``sub``."""
    p = add_command(sub, "list", cmd_list, "list catalog items")
    p.add_argument("--paper", help="paper key, e.g. tran2022")
    p.add_argument("--kind", choices=KINDS, help="item kind")

    p = add_command(sub, "show", cmd_show, "statement, hypotheses, settings, stated and derived rate")
    p.add_argument("id")
    p.add_argument("--latex", action="store_true", help="print LaTeX instead of Markdown")

    p = add_command(sub, "derive", cmd_derive, "derive rates from explicit bounds at the settings")
    p.add_argument("ids", nargs="*", metavar="ID")
    p.add_argument("--all", action="store_true", help="every item with a bound and a rate")

    p = add_command(sub, "compare", cmd_compare,
                    "compare two items' stated rates, or rank more than two")
    p.add_argument("ids", nargs="+", metavar="ID", help="two or more catalog ids")
    p.add_argument("--vary", default="n", help="the variable that grows (default n)")
    p.add_argument("--set", nargs="*", default=[], metavar="NAME=VALUE",
                   help="fix variables, e.g. d=100 eps=1")
    p.add_argument("--derived", action="store_true",
                   help="compare the derived leading terms instead of the stated rates")
    p.add_argument("--map", metavar="PNG", help="save a numeric regime map over --vary and --y")
    p.add_argument("--y", default="d", help="second axis of the regime map (default d)")
    p.add_argument("--range", nargs=4, type=float, default=[1e2, 1e8, 1, 1e4],
                   metavar=("XLO", "XHI", "YLO", "YHI"), help="regime map ranges")

    p = add_command(sub, "table", cmd_table, "the cross-paper rate table, generated from the catalog")
    p.add_argument("--measure", help="keep rows whose measured quantity contains this text")
    p.add_argument("--format", choices=("markdown", "latex", "csv"), default="markdown")

    p = add_command(sub, "findings", cmd_findings,
                    "refuted claims of the papers, graded by severity and merged by root cause")
    p.add_argument("--all", action="store_true",
                   help="also list refutations of dptheory's own corrected/reconstructed items "
                        "and the checks that could not decide")
    p.add_argument("--only", nargs="*", metavar="ID", help="item ids or check ids to run")
    p.add_argument("--no-checks", action="store_true",
                   help="symbolic findings only (skip property checks)")
    p.add_argument("--store", default=None,
                   help="results store of `dptheory verify` runs whose findings to include "
                        "(must exist; default dptheory-report/results.sqlite, if it exists)")


# -- list / show ------------------------------------------------------------------------
def cmd_list(args: argparse.Namespace) -> tuple[Any, str]:
    """Handler of ``dptheory list``: the catalog's items, filtered by ``--paper`` and
    ``--kind``, from the cached summaries (no SymPy, no catalog build)."""
    summaries = registry.summaries()             # cached: no SymPy, no catalog build
    papers = sorted({r["paper"] for r in summaries})
    if args.paper and args.paper not in papers:
        from dptheory.errors import suggest
        close = suggest(args.paper, papers)
        hint = f"did you mean {', '.join(close)}? " if close else ""
        raise UsageError(f"unknown paper {args.paper!r}; {hint}choose from {papers}")
    rows = [r for r in summaries
            if (not args.paper or r["paper"] == args.paper) and (not args.kind or r["kind"] == args.kind)]
    width = max((len(r["id"]) for r in rows), default=10)
    text = "\n".join(f"{r['id']:<{width}}  {r['kind']:<15} {r['provenance']:<13} {r['title']}"
                     for r in rows)
    return rows, text + f"\n\n{len(rows)} items"


def cmd_show(args: argparse.Namespace) -> tuple[Any, str]:
    """Handler of ``dptheory show``: one item's statement, hypotheses, settings, bound and
    rates, with its derivation, its hypotheses at the settings and its dimensional issues;
    ``--latex`` prints the statement as LaTeX."""
    import sympy as sp

    from dptheory.symbolic.derive import derive
    item = registry.get(args.id)
    d = derive(item)
    data = {**item.summary(), "statement": item.statement,
            "assumptions": [a.as_dict() for a in item.assumptions],
            "hypotheses": [{"label": l, "relation": sp.sstr(r)} for l, r in item.hypotheses],
            "settings": {str(k): sp.sstr(v) for k, v in item.settings.items()},
            "bound": None if item.bound is None else sp.sstr(item.bound),
            "direction": item.direction,
            "rate": None if item.rate is None else sp.sstr(item.rate),
            "rate_notation": item.rate_notation,
            "relations": {k: sp.sstr(v) for k, v in item.relations.items()},
            "expressions": {k: sp.sstr(v) for k, v in item.expressions.items()},
            "derivation": d.as_dict(), "notes": item.notes}
    from dptheory.symbolic.dimensions import check_dimensions
    from dptheory.symbolic.hypotheses import hypotheses_at_settings
    hyps = hypotheses_at_settings(item) if item.settings and item.hypotheses else []
    dims = check_dimensions(item, registry.normalized_units(item.paper))
    data["hypotheses_at_settings"] = [h.as_dict() for h in hyps]
    data["dimension_issues"] = [i.as_dict() for i in dims]
    paper = next((p for p in registry.papers().values()
                  if p is not None and p.key == item.paper), None)
    data["reference"] = paper.reference() if paper is not None else None
    if args.latex:
        return data, item.to_latex()
    text = item.to_markdown()
    if paper is not None:
        head, _, rest = text.partition("\n\n")
        text = f"{head}\n\n**Paper:** {paper.describe()}\n\n{rest}"
    if d.verdict != "not-derivable":
        text += f"\n\n**Derived:** {d.derived}  →  {d.verdict}"
        if d.regime is not None and d.regime is not sp.true:
            text += f" when {sp.sstr(d.regime)}"
    if hyps:
        text += "\n\n**Hypotheses at the settings:**"
        for h in hyps:
            extra = f"; regime {h.regime}" if h.regime and h.regime != "True" else ""
            text += f"\n- {h.label}: {h.at_settings} — {h.status} ({h.method}{extra})"
    if dims:
        text += "\n\n**Dimensional analysis:**"
        text += "".join(f"\n- {i.where}: {i.message}" for i in dims)
    return data, text


# -- derive ------------------------------------------------------------------------------
def cmd_derive(args: argparse.Namespace) -> tuple[Any, str]:
    """Handler of ``dptheory derive``: the derivation verdict (stated rate against the rate
    the explicit bound gives at the settings) of the named items, or of every derivable one
    with ``--all``, with the verdict counts."""
    from dptheory.symbolic.derive import derive
    if args.all == bool(args.ids):
        raise UsageError("give item ids or --all (not both)")
    if args.all:
        items = [i for i in registry.items().values() if i.derivable]
    else:
        items = [registry.get(i) for i in args.ids]
    from dptheory.progress import track
    results = [derive(i).as_dict() for i in track(items, total=len(items), desc="derive")]
    lines = []
    for r in results:
        line = f"{r['id']:<28} {r['verdict']:<17}"
        if r["verdict"] == "agrees-in-regime":
            line += f" when {r['regime']} (elsewhere the bound gives more than stated)"
        elif r["verdict"] == "agrees-loose":
            line += " the stated rate is at least the derived one everywhere: valid, loose"
        elif r["verdict"] == "disagrees":
            diff = {k: v["difference"] for k, v in r["exponent_difference"].items()
                    if v["difference"] != "0"}
            line += f" exponent difference (derived - stated): {diff}"
        elif r["verdict"] == "not-derivable":
            line += f" {r['reason']}"
        lines.append(line)
    counts = {}
    for r in results:
        counts[r["verdict"]] = counts.get(r["verdict"], 0) + 1
    lines.append("\n" + ", ".join(f"{v}: {c}" for v, c in sorted(counts.items())))
    return results, "\n".join(lines)


# -- compare -----------------------------------------------------------------------------
def parse_set(pairs: list[str]) -> dict[str, str]:
    """The ``--set NAME=VALUE`` pairs as ``{name: value}`` (text); the names and values are
    resolved and checked by :func:`dptheory.catalog.resolve_values`, as the API's ``at=``
    is, so both give the same errors."""
    out = {}
    for pair in pairs:
        if "=" not in pair:
            raise UsageError(f"--set expects NAME=VALUE, got {pair!r}")
        name, value = pair.split("=", 1)
        if name.strip() in out:
            raise UsageError(f"--set: {name.strip()} is given twice")
        out[name.strip()] = value
    return out


def cmd_compare(args: argparse.Namespace) -> tuple[Any, str]:
    """Handler of ``dptheory compare``: two items' stated (or, with ``--derived``,
    derived) rates as ``--vary`` grows with ``--set`` fixed, or the ranking of more than two;
    ``--map`` also saves a numeric regime map over ``--vary`` and ``--y`` (two items)."""
    from dptheory.catalog import compare_items, get, resolve_symbol, resolve_values

    if len(args.ids) < 2:
        raise UsageError("compare needs two or more ids")
    if args.map and len(args.ids) > 2:
        raise UsageError("--map draws two items; give exactly two ids")
    items = [get(i) for i in args.ids]
    fixed = resolve_values(parse_set(args.set), items, option="--set")
    c = compare_items(*items, vary=args.vary, at=fixed, derived=args.derived)
    data = c.as_dict()
    lines = c.lines()
    if args.map:
        from dptheory.plotting import regime_map_figure
        from dptheory.symbolic.compare import regime_map
        ysym = resolve_symbol(args.y, option="--y")
        vary = resolve_symbol(args.vary, option="--vary")
        x0, x1, y0, y1 = args.range
        a, b = c.expressions
        left = sorted(map(str, (a.free_symbols | b.free_symbols) - {vary, ysym}))
        if left:
            raise UsageError(f"--map needs values for {', '.join(left)}: give them with --set")
        grid = regime_map(a, b, (vary, x0, x1), (ysym, y0, y1), {})
        data["map"] = regime_map_figure(grid, c.labels or (c.a, c.b), args.map)
        lines.append(f"regime map: {data['map']}")
    return data, "\n".join(lines)


# -- table -------------------------------------------------------------------------------
TABLE_KINDS = ("theorem", "corollary", "prior-work-rate", "remark-claim", "proposition", "lemma")


def table_rows(measure: str | None = None) -> list[dict[str, Any]]:
    """Rows of the cross-paper rate table: every item of the kinds :data:`TABLE_KINDS` with
    a rate and a utility, sample-complexity, stability, runtime or no category, with its
    exponents of n, d and eps (``?`` outside the monomial calculus) and its derivation
    verdict; ``measure`` keeps the rows whose measured quantity contains that text
    (case-insensitive)."""
    import sympy as sp

    from dptheory.symbolic.derive import derive
    from dptheory.symbolic.derive import exponent
    from dptheory.symbolic.symbols import S
    from dptheory.progress import track
    rows = []
    every = list(registry.items().values())
    for item in track(every, total=len(every), desc="table"):
        if item.rate is None or item.kind not in TABLE_KINDS:
            continue
        if item.category not in ("utility", "sample-complexity", "stability", "runtime", ""):
            continue
        if measure and measure.lower() not in (item.measured or "").lower():
            continue
        d = derive(item) if item.derivable else None
        exps = {}
        for v in (S.n, S.d, S.eps):
            try:
                exps[str(v)] = sp.sstr(exponent(item.rate, v, direction=item.growing.get(v, 1)))
            except Exception:  # noqa: BLE001 - rates outside the monomial calculus
                exps[str(v)] = "?"
        rows.append({"id": item.id, "paper": item.paper, "title": item.title,
                     "kind": item.kind, "measured": item.measured,
                     "assumptions": ", ".join(a.describe() for a in item.assumptions),
                     "rate": f"{item.rate_notation}({sp.sstr(item.rate)})",
                     "rate_latex": rate_latex(item.rate, item.rate_notation),
                     "exponents": exps, "provenance": item.provenance,
                     "derivation": d.verdict if d else "—"})
    return rows


_TEX_TEXT = {"\\": r"\textbackslash{}", "{": r"\{", "}": r"\}", "$": r"\$", "&": r"\&",
             "#": r"\#", "%": r"\%", "_": r"\_", "^": r"\textasciicircum{}",
             "~": r"\textasciitilde{}", "|": r"\textbar{}", "<": r"\textless{}",
             ">": r"\textgreater{}", "—": "---"}


def tex_text(s: str) -> str:
    """``s`` as LaTeX text: every character that is special to TeX escaped (``_``, ``^``,
    ``|``, ``&``, ...), so plain notation such as ``E||grad F(w_hat)||`` compiles verbatim."""
    return "".join(_TEX_TEXT.get(ch, ch) for ch in str(s))


def rate_latex(rate: Any, notation: str) -> str:
    """A stated rate as LaTeX math (no ``$``): SymPy's LaTeX printer with every registered
    symbol's LaTeX name (``\\epsilon`` for eps, ``\\Delta_F`` for Fgap), inside its notation
    (``\\tilde O``, ``O``, ``\\Omega``, ``\\Theta``). The registered names, not a paper's
    letters, so that one table reads the same across papers."""
    import sympy as sp

    from dptheory.symbolic.render import _O as NOTATION
    from dptheory.symbolic.symbols import registered
    names = {info.symbol: info.latex for info in registered().values()}
    # \bigl( \bigr) rather than \left( \right): TeX may then break a long rate after a +
    return rf"{NOTATION[notation]}\bigl({sp.latex(rate, symbol_names=names)}\bigr)"


def latex_table(rows: list[dict[str, Any]]) -> str:
    """:func:`table_rows` as a LaTeX ``longtable`` that compiles and fits the text width:
    rates and exponents in math mode (SymPy's printer, the symbols' LaTeX names), ids and
    measured quantities as escaped text, the header repeated on every page. The first line
    names the packages it needs."""
    import sympy as sp

    def exp(e: str) -> str:
        return "?" if e == "?" else f"${sp.latex(sp.sympify(e))}$"

    def ident(i: str) -> str:          # breakable after each dot in a narrow column
        return r"\texttt{" + r".\allowbreak{}".join(tex_text(p) for p in i.split(".")) + "}"
    body = [" & ".join([ident(r["id"]), tex_text(r["measured"]), f"${r['rate_latex']}$",
                        exp(r["exponents"]["n"]), exp(r["exponents"]["d"]),
                        exp(r["exponents"]["eps"]), tex_text(r["derivation"]),
                        tex_text(r["provenance"])]) + r" \\"
            for r in rows]
    packages = ["longtable"] + (["amssymb"] if any(r"\mathbb" in line for line in body) else [])
    col = r">{\raggedright\arraybackslash}p{%s\linewidth}"
    spec = "".join([col % "0.14", col % "0.15", col % "0.31", "ccc", col % "0.11", col % "0.11"])
    head = r"id & measured & rate & $n$ & $d$ & $\epsilon$ & derivation & provenance \\"
    return "\n".join([f"% dptheory table: needs \\usepackage{{{','.join(['array', *packages])}}}",
                      r"{\footnotesize\setlength{\tabcolsep}{2pt}",
                      r"\begin{longtable}{@{}" + spec + "@{}}", head, r"\hline", r"\endhead",
                      *body, r"\end{longtable}}"])


def cmd_table(args: argparse.Namespace) -> tuple[Any, str]:
    """Handler of ``dptheory table``: :func:`table_rows` as Markdown, LaTeX or CSV
    (``--format``)."""
    rows = table_rows(args.measure)
    head = ["id", "measured", "rate", "n", "d", "eps", "derivation", "provenance"]
    cells = [[r["id"], r["measured"], r["rate"], r["exponents"]["n"], r["exponents"]["d"],
              r["exponents"]["eps"], r["derivation"], r["provenance"]] for r in rows]
    if args.format == "csv":
        buf = io.StringIO()
        w = csv.writer(buf)
        w.writerow(head)
        w.writerows(cells)
        return rows, buf.getvalue().rstrip()
    if args.format == "latex":
        return rows, latex_table(rows)
    lines = ["| " + " | ".join(head) + " |", "|" + "---|" * len(head)]
    lines += ["| " + " | ".join(str(c).replace("|", "\\|") for c in row) + " |" for row in cells]
    return rows, "\n".join(lines)


# -- findings ----------------------------------------------------------------------------
DEFAULT_STORE = "dptheory-report/results.sqlite"


def _stored_findings(path: str | None) -> tuple[list[dict[str, Any]], list[dict[str, Any]],
                                                 str | None]:
    """(findings rows that pass their checksum, integrity events of those that do not, the
    path read) of the store ``path``; a path given that does not exist is a usage error, the default
    store is optional."""
    from pathlib import Path

    from dptheory.store import Store
    if path is None:
        if not Path(DEFAULT_STORE).exists():
            return [], [], None
        path = DEFAULT_STORE
    elif not path or not Path(path).exists():
        raise UsageError(f"--store {path!r} does not exist; give the results.sqlite of a "
                         "`dptheory verify` run, or leave --store out")
    with Store(path, read_only=True) as store:   # only reads: a read-only file is fine
        rows = store.findings()
        bad = [e for e in store.integrity_events if e["kind"].startswith("finding-")]
    return rows, bad, path


def cmd_findings(args: argparse.Namespace) -> tuple[Any, str]:
    """Findings: refuted claims of the papers, graded and merged by root cause (plus, with
    ``--all``, refutations of dptheory's own corrected/reconstructed items and the notes of
    checks that could not decide)."""
    from dptheory.verify.findings import collect
    from dptheory.verify.verdict import Finding, split_findings

    # the store is opened and read before the checks run: a bad path fails at once
    stored, unverified, store_path = _stored_findings(args.store)
    paper, own, notes = collect(only=args.only, run_checks=not args.no_checks)
    raw = paper + own
    if stored:
        seen = {(f.id, f.check) for f in raw} | {(a.split(":", 1)[0], a) for f in raw
                                                   for a in f.also}
        for row in stored:
            key = (row["id"], row["check"])
            if key in seen or (args.only and row["id"] not in args.only
                               and row["check"] not in args.only):
                continue
            seen.add(key)
            raw.append(Finding(row["id"], row["check"], row["summary"], row["evidence"],
                               row["reproduce"], row["severity"], row["consequence"],
                               row["root"] if row["root"] != f"{row['id']}:{row['check']}"
                               else "", row["provenance"]))
        paper, own = split_findings(raw)
    data = {"findings": [f.as_dict() for f in paper],
            "own_items": [f.as_dict() for f in own] if args.all else len(own),
            "notes": notes if args.all else len(notes),
            "unverified_stored_findings": unverified}
    # the text is for readers: symbols by the names the papers print (w20_zeta -> ζ), as in
    # the report; --json keeps the checks' own text
    from dptheory.symbolic.symbols import humanize
    lines = []
    for f in paper:
        summary = f.summary[len(f.id) + 2:] if f.summary.startswith(f"{f.id}: ") else f.summary
        lines.append(f"[{f.severity}] {f.id} ({f.check}): {humanize(summary)}")
        if f.consequence:
            lines.append(f"    consequence: {humanize(f.consequence)}")
        if f.also:
            lines.append(f"    same root cause: {', '.join(f.also)}")
        if f.reproduce:
            lines.append(f"    reproduce: {f.reproduce}")
    lines.append(f"\n{len(paper)} findings of the papers" if paper else "no findings")
    if unverified:
        lines.append(f"{len(unverified)} stored findings fail their checksum and are left out "
                     f"(`dptheory store check {store_path}`; `dptheory verify` stores them "
                     "again)")
    if args.all:
        if own:
            lines.append("\nRefutations of dptheory's own corrected/reconstructed items "
                         "(not counted as findings of the papers; the consequence says "
                         "whether a reconstruction's reading makes one a finding):")
            for f in own:
                lines.append(f"  {f.id} ({f.check}): {humanize(f.summary)}")
                if f.consequence:
                    lines.append(f"    consequence: {humanize(f.consequence)}")
        if notes:
            lines.append("\nChecks that could not decide:")
            lines += [f"  {n['id']} ({n['check']}): {humanize(n['summary'])}" for n in notes]
    else:
        lines.append(f"({len(own)} refutations of dptheory's own items and {len(notes)} "
                     "undecided checks: see --all)")
    return data, "\n".join(lines)
