"""The verification report: ``DIR/report.md`` with figures (PNG and SVG) and ``report.json``."""

from __future__ import annotations

import json
import math
from pathlib import Path
from typing import Any

import numpy as np

from dptheory import registry

# Regime maps drawn in every report: (a, b, x variable, y variable, fixed values, ranges).
# Symbols other than the two axes and the fixed ones take the registry's example values.
REGIME_MAPS = (
    ("tran2022.thm9", "tran2022.thm6", "n", "d", {"eps": 1.0}, (1e2, 1e8, 1, 1e6)),
    ("zhang2021.contrib", "zhang2021.intro.P2", "n", "d", {"eps": 1.0, "delta": 1e-5},
     (1e2, 1e8, 1, 1e6)),
    ("yang2022.abstract", "tran2022.thm9", "n", "d", {"eps": 1.0, "delta": 1e-5},
     (1e2, 1e8, 1, 1e6)),
)


def _with(path: Path, suffix: str) -> Path:
    """path + suffix (ids contain dots, so Path.with_suffix would cut them)."""
    return path.parent / (path.name + suffix)


def _savefig(fig: Any, path: Path) -> list[str]:
    fig.savefig(_with(path, ".png"), dpi=110)
    fig.savefig(_with(path, ".svg"))
    return [_with(path, ".png").name, _with(path, ".svg").name]


def _plt():
    import matplotlib
    matplotlib.use("Agg")
    import matplotlib.pyplot as plt
    return plt


def rate_figure(recipe: Any, verdict: Any, pooled: dict, figdir: Path) -> str | None:
    xs = sorted(pooled)
    if len(xs) < 2 or "samples" not in pooled[xs[0]]:
        return None
    plt = _plt()
    means, lo, hi, bounds = [], [], [], []
    from dptheory.verify.stats import mean_ci
    for x in xs:
        s = np.asarray(pooled[x]["samples"], dtype=float)
        ci = mean_ci(s) if s.size > 1 else None
        means.append(float(s.mean()))
        lo.append(ci.low if ci else float(s.mean()))
        hi.append(ci.high if ci else float(s.mean()))
        bounds.append(pooled[x].get("bound"))
    fig, ax = plt.subplots(figsize=(5.2, 3.9))
    m = np.array(means)
    ax.errorbar(xs, m, yerr=[np.maximum(m - np.array(lo), 0), np.maximum(np.array(hi) - m, 0)],
                fmt="o", color="C0", capsize=3, label="empirical mean (95% CI)")
    pos = m > 0
    if pos.sum() >= 2:
        k, c = np.polyfit(np.log(np.array(xs)[pos]), np.log(m[pos]), 1)
        grid = np.geomspace(min(xs), max(xs), 50)
        ax.plot(grid, np.exp(c) * grid**k, "--", color="C0", lw=1, label=f"fitted slope {k:.2f}")
    if all(b is not None and b > 0 and math.isfinite(b) for b in bounds):
        ax.plot(xs, bounds, "-", color="C3", label="theorem's bound")
    exp = verdict.evidence.get("expected_slope")
    title = f"{recipe.id}: {verdict.verdict}"
    if exp is not None:
        title += f" (expected slope {exp:.2f})"
    ax.set_title(title, fontsize=8)
    ax.set_xscale("log")
    if (m > 0).all():
        ax.set_yscale("log")
    ax.set_xlabel(recipe.variable)
    ax.set_ylabel(recipe.metric or "measured")
    ax.legend(fontsize=7)
    fig.tight_layout()
    names = _savefig(fig, figdir / recipe.id.replace(":", "__").replace("/", "_"))
    plt.close(fig)
    return names[0]


def sensitivity_figure(verdicts: list, figdir: Path) -> str | None:
    """Largest measured/bound ratio of each sensitivity recipe, over its sweep points (a
    point whose printed bound is 0 while the measurement is not is drawn as an open bar)."""
    rows = []
    for v in verdicts:
        if v.check != "sensitivity":
            continue
        ratios, zero_bound = [], False
        for p in v.evidence.get("points", {}).values():
            m, b = p.get("measured"), p.get("bound")
            if m is None or b is None:
                continue
            if b > 0:
                ratios.append(m / b)
            elif m > 0:
                zero_bound = True
        if ratios or zero_bound:
            rows.append((v.id, max(ratios) if ratios else 0.0, zero_bound))
    if not rows:
        return None
    plt = _plt()
    fig, ax = plt.subplots(figsize=(6.5, 0.35 * len(rows) + 1.3))
    finite = [r for _, r, _ in rows] or [1.0]
    cap = max(1.5, 1.2 * max(finite))
    for i, (rid, ratio, zero) in enumerate(rows):
        if zero:
            ax.barh(i, cap, color="white", edgecolor="C3", hatch="//")
            ax.text(cap, i, " printed bound 0", va="center", fontsize=7, color="C3")
        else:
            ax.barh(i, ratio, color="C3" if ratio > 1 else "C2")
    ax.axvline(1.0, color="k", lw=1)
    ax.set_yticks(range(len(rows)), [r[0] for r in rows], fontsize=7)
    ax.set_xlabel("largest observed sensitivity / lemma's bound (over the sweep)")
    fig.tight_layout()
    names = _savefig(fig, figdir / "sensitivity_ratios")
    plt.close(fig)
    return names[0]


def audit_figure(verdicts: list, figdir: Path) -> str | None:
    rows = []
    for v in verdicts:
        if v.check != "audit":
            continue
        for point, p in v.evidence.get("points", {}).items():
            rows.append((f"{v.id} [{point}]", p["epsilon_lower"], p["epsilon_claimed"],
                         p.get("epsilon_tight")))
    if not rows:
        return None
    plt = _plt()
    fig, ax = plt.subplots(figsize=(6.5, 0.4 * len(rows) + 1.2))
    y = np.arange(len(rows))
    ax.barh(y, [r[1] for r in rows], color="C0", label="epsilon lower bound (95%)")
    ax.scatter([r[2] for r in rows], y, color="C3", marker="|", s=200, label="claimed epsilon")
    ax.scatter([r[3] if isinstance(r[3], (int, float)) else np.nan for r in rows], y, color="k",
               marker="x", label="tight accountant")
    ax.set_yticks(y, [r[0] for r in rows], fontsize=7)
    ax.set_xlabel("epsilon")
    ax.legend(fontsize=7)
    fig.tight_layout()
    names = _savefig(fig, figdir / "audits")
    plt.close(fig)
    return names[0]


def regime_figures(figdir: Path) -> list[tuple[str, str]]:
    from dptheory.plotting import regime_map_figure
    from dptheory.symbolic.derive import regime_map
    from dptheory.symbolic.symbols import lookup
    out = []
    items = registry.items()
    for a, b, xv, yv, fixed, (x0, x1, y0, y1) in REGIME_MAPS:
        if a not in items or b not in items or items[a].rate is None or items[b].rate is None:
            continue
        fx = {lookup(k): v for k, v in fixed.items()}
        axes = {lookup(xv), lookup(yv)}
        from dptheory.symbolic.symbols import registered
        examples = {i.symbol: i.example for i in registered().values()}
        for sym in (items[a].rate.free_symbols | items[b].rate.free_symbols) - axes - set(fx):
            if sym in examples:
                fx[sym] = examples[sym]
        try:
            grid = regime_map(items[a].rate, items[b].rate, (lookup(xv), x0, x1),
                              (lookup(yv), y0, y1), fx)
        except ValueError:
            continue
        stem = figdir / f"regime__{a}__{b}"
        regime_map_figure(grid, (a, b), str(_with(stem, ".png")))
        regime_map_figure(grid, (a, b), str(_with(stem, ".svg")))
        out.append((f"{a} vs {b}", _with(stem, ".png").name))
    return out


def write(result: Any) -> Path:
    out = Path(result.out)
    figdir = out / "figures"
    figdir.mkdir(parents=True, exist_ok=True)
    recipes = {r.id: r for r in result.recipes}
    figures: dict[str, str] = {}
    for v in result.verdicts:
        r = recipes.get(v.id)
        if r is not None and r.check in ("bound", "slope", "stability"):
            name = rate_figure(r, v, result.pooled.get(r.id, {}), figdir)
            if name:
                figures[v.id] = name
    sens = sensitivity_figure(result.verdicts, figdir)
    aud = audit_figure(result.verdicts, figdir)
    regimes = regime_figures(figdir)

    lines = [f"# dptheory verification report ({result.mode})", "",
             f"Run `{result.run_id}`: {len(result.verdicts)} verdicts, {len(result.findings)} "
             f"findings; {result.computed} of {result.total_cells} simulation cells computed in "
             f"this invocation ({result.total_cells - result.computed} resumed from the store); "
             f"{result.elapsed:.0f} s.", "",
             "Verdicts: `pass` — the claim survived the check; `fail` — the check contradicts "
             "the claim (a finding); `inconclusive` — the evidence cannot decide. Derivation "
             "verdicts map `agrees`/`agrees-in-regime` to pass, `disagrees` to fail, "
             "`not-derivable` to inconclusive.", ""]
    counts: dict[str, int] = {}
    for v in result.verdicts:
        counts[v.verdict] = counts.get(v.verdict, 0) + 1
    lines.append("Totals: " + ", ".join(f"{k} {c}" for k, c in sorted(counts.items())))
    lines.append("")
    by_paper: dict[str, list] = {}
    for v in result.verdicts:
        by_paper.setdefault(v.item.split(".")[0], []).append(v)
    for paper in sorted(by_paper):
        lines += [f"## {paper}", "", "| id | check | verdict | summary |", "|---|---|---|---|"]
        for v in by_paper[paper]:
            summary = v.summary.replace("|", "\\|").replace("\n", " ")
            if len(summary) > 240:
                summary = summary[:237] + "..."
            lines.append(f"| `{v.id}` | {v.check} | **{v.verdict}** | {summary} |")
        lines.append("")
        for v in by_paper[paper]:
            if v.id in figures:
                lines += [f"![{v.id}](figures/{figures[v.id]})", ""]
    if sens:
        lines += ["## Sensitivity ratios", "", f"![sensitivity](figures/{sens})", ""]
    if aud:
        lines += ["## Privacy audits", "", f"![audits](figures/{aud})", ""]
    if regimes:
        lines += ["## Regime maps of stated rates", ""]
        lines += [f"![{t}](figures/{f})" for t, f in regimes]
        lines.append("")
    lines += ["## Findings", ""]
    if not result.findings:
        lines.append("No check failed.")
    for f in result.findings:
        lines += [f"- **{f.id}** [{f.check}]: {f.summary}", f"  reproduce: `{f.reproduce}`"]
    lines += ["", "## Items without a recipe or check", "",
              "| id | kind | reason |", "|---|---|---|"]
    lines += [f"| `{u['id']}` | {u['kind']} | {u['reason']} |" for u in result.unchecked]
    (out / "report.md").write_text("\n".join(lines) + "\n")
    (out / "report.json").write_text(json.dumps(as_json(result), indent=1, default=str))
    return out / "report.md"


def as_json(result: Any) -> dict[str, Any]:
    return {"mode": result.mode, "run_id": result.run_id, "elapsed": result.elapsed,
            "report": str(Path(result.out) / "report.md"),
            "verdicts": [{"id": v.id, "item": v.item, "check": v.check, "verdict": v.verdict,
                          "summary": v.summary, "reproduce": v.reproduce}
                         for v in result.verdicts],
            "findings": [f.as_dict() for f in result.findings],
            "unchecked": result.unchecked,
            "cells": {"total": result.total_cells, "computed": result.computed}}
