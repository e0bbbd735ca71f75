"""The verification report: ``DIR/report.md`` with figures (PNG; SVG on request) and
``report.json``.

Per check the report shows what was shown: the verdict and its reason, the measured
quantity against its bound, the trivial range of the quantity (above which a bound is
vacuous) and the power of the test (what it would have detected). Findings are listed by
severity, one per root cause; refutations of dptheory's own corrected or reconstructed items
and the symbolic checks that could not decide are listed apart.

Figures are drawn on :class:`matplotlib.figure.Figure` objects, never through pyplot, so
writing a report never changes the matplotlib backend of the calling process.
"""

from __future__ import annotations

import json
import math
from pathlib import Path
from typing import Any

import numpy as np

from dptheory import registry
from dptheory.symbolic.symbols import humanize

# Regime maps drawn in every report: (a, b, x variable, y variable, fixed values, ranges).
# Symbols other than the two axes and the fixed ones take the registry's example values.
REGIME_MAPS = (
    ("tran2022.thm9", "tran2022.thm6", "n", "d", {"eps": 1.0}, (1e2, 1e8, 1, 1e6)),
    ("zhang2021.contrib", "zhang2021.intro.P2", "n", "d", {"eps": 1.0, "delta": 1e-5},
     (1e2, 1e8, 1, 1e6)),
    ("yang2022.abstract", "tran2022.thm9", "n", "d", {"eps": 1.0, "delta": 1e-5},
     (1e2, 1e8, 1, 1e6)),
)

VERDICT_TEXT = (
    "Verdicts say what was shown. **refuted**: a certified counterexample to the claim as "
    "printed, at the logic of the claim (an upper bound exceeded by a one-sided lower "
    "confidence limit; a shallower exponent in a run shown asymptotic; a stated rate stronger "
    "than the item's own bound gives; a privacy claim below a certified lower bound on the "
    "true epsilon). Only refuted checks make findings. **supported**: a test that could have "
    "failed did not; its power (what it would have detected) is given. **vacuous**: the claim "
    "cannot bind at the tested points (the bound is at or above the largest value the "
    "quantity can take, the start point already passes) or the run left the claim's "
    "assumptions. **inconclusive**: the test ran but cannot decide (pre-asymptotic, too little "
    "power, an existence claim on a finite grid); the reason says which.")


def git_commit(where: Path | None = None) -> str:
    """``git describe --always --dirty --tags`` of the checkout dptheory runs from, or
    ``"unknown"`` outside a git checkout (an installed wheel) or without git."""
    import subprocess
    where = where or Path(__file__).resolve().parents[2]
    try:
        out = subprocess.run(["git", "-C", str(where), "describe", "--always", "--dirty",
                              "--tags"], capture_output=True, text=True, timeout=10)
    except (OSError, subprocess.SubprocessError):
        return "unknown"
    return out.stdout.strip() if out.returncode == 0 and out.stdout.strip() else "unknown"


def environment() -> dict[str, str]:
    """The versions a report's numbers depend on: dptheory (and its git commit), Python,
    NumPy, SciPy, SymPy and dp-accounting ("not installed" when absent)."""
    import importlib.metadata as md
    import platform
    from dptheory.version import __version__
    out = {"dptheory": __version__, "commit": git_commit(),
           "python": platform.python_version()}
    for dist in ("numpy", "scipy", "sympy", "dp-accounting"):
        try:
            out[dist] = md.version(dist)
        except md.PackageNotFoundError:
            out[dist] = "not installed"
    return out


def provenance(result: Any) -> dict[str, Any]:
    """What produced a report: the command line, the seed, the run id and
    :func:`environment`."""
    return {"command": getattr(result, "command", "") or "", "seed": getattr(result, "seed", None),
            "run_id": result.run_id, "mode": result.mode,
            "only": getattr(result, "only", None), **environment()}


def _with(path: Path, suffix: str) -> Path:
    """path + suffix (ids contain dots, so Path.with_suffix would cut them)."""
    return path.parent / (path.name + suffix)


def _row_label(v: Any, extra: str = "") -> str:
    """A verdict as a row label: the paper and the item's number, then the recipe's own
    part of its id (``"tran2022, Lemma 3 [sens-n]"``)."""
    from dptheory.registry import item_label
    tail = v.id.split(":", 1)[1] if ":" in v.id else ""
    for prefix in ("audit-quick-", "audit-full-"):      # said by the figure's title
        tail = tail.removeprefix(prefix)
    parts = [p for p in (tail, extra) if p]
    return item_label(v.item) + (f" [{', '.join(parts)}]" if parts else "")


def _savefig(fig: Any, path: Path, svg: bool = False) -> str:
    from dptheory.plotting import save
    save(fig, _with(path, ".png"), dpi=150)
    if svg:
        save(fig, _with(path, ".svg"))
    return _with(path, ".png").name


def _g(x: Any) -> str:
    if x is None:
        return "—"
    if isinstance(x, str):
        return x
    try:
        x = float(x)
    except (TypeError, ValueError):
        return str(x)
    if not math.isfinite(x):
        return "inf" if x > 0 else "-inf" if x < 0 else "nan"
    return f"{x:.3g}"


# ----------------------------------------------------------------------------- columns
def columns(v: Any) -> dict[str, str]:
    """The report's per-check numbers: measured/bound, trivial range, power."""
    ev = v.evidence or {}
    pts = ev.get("points", {}) if isinstance(ev.get("points"), dict) else {}
    ratio = trivial = "—"
    if pts:
        ratios = [p.get("mean_over_bound") for p in pts.values()
                  if isinstance(p.get("mean_over_bound"), (int, float))]
        reach = [p.get("reach") for p in pts.values() if isinstance(p.get("reach"), (int, float))]
        if ratios:
            ratio = f"max {_g(max(ratios))}"
        elif reach:
            ratio = f"max {_g(max(reach))}"
        triv = [(p.get("trivial"), p.get("bound")) for p in pts.values()
                if isinstance(p.get("trivial"), (int, float))
                and isinstance(p.get("bound"), (int, float))]
        if triv:
            trivial = "; ".join(sorted({f"bound/trivial {_g(b / t)}" for t, b in triv[:1]} |
                                       {f"trivial {_g(t)}" for t, _ in triv[:1]}))
    elif "slope" in ev:
        ratio = f"slope {_g(ev.get('slope'))} vs {_g(ev.get('expected_tail'))}"
        bounds = [b for b in ev.get("bounds", []) if isinstance(b, (int, float))]
        if bounds:
            trivial = f"bound {_g(min(bounds))}..{_g(max(bounds))}"
    power = (v.power or {}).get("statement", "—") if v.power else "—"
    return {"ratio": ratio, "trivial": trivial, "power": power,
            "constants": "; ".join(constants_lines(v)) or "—"}


def constants_lines(v: Any) -> list[str]:
    """The constants a check varied, one line per constant, from its
    ``evidence["constants_varied"]`` whoever wrote it (a simulation's cells or a symbolic
    check; a plain string is split at semicolons); empty when it says nothing."""
    from dptheory.verify.recipe import as_lines
    return as_lines((v.evidence or {}).get("constants_varied"))


# ----------------------------------------------------------------------------- figures
def recipe_params(recipe: Any, pooled: dict | None = None) -> str:
    """The parameter line of a recipe's figure: objective (or data) and its parameters, the
    fixed values, replicates and data sets per point. With ``pooled`` (the run's points) the
    counts are the samples each point pooled, as run (``--full`` runs more replicates than
    the recipe's quick ``reps``, and extension points may add some); without it, the
    recipe's quick counts."""
    from dptheory.plotting import count, param_line
    fixed = dict(recipe.fixed or {})
    values: dict[str, Any] = {}
    for k, v in {**fixed.get("objective_params", {}), **fixed}.items():
        if isinstance(v, (int, float)) and not isinstance(v, bool) and k != recipe.variable:
            values[k] = v
    lead = []
    if fixed.get("family"):
        lead.append(f"{fixed['family']} objective"
                    + (f" on {fixed['data']} data" if fixed.get("data") else ", synthetic data"))
    sizes = sorted({len(p["samples"]) for p in (pooled or {}).values()
                    if isinstance(p, dict) and "samples" in p})
    if sizes:
        n = str(sizes[0]) if len(sizes) == 1 else f"{sizes[0]}-{sizes[-1]}"
        extra = [f"{n} samples per point" + (f" ({recipe.datasets} data sets)"
                                             if recipe.datasets > 1 else " (replicates)")]
    else:
        extra = [count(recipe.reps, "replicate") + (f" x {recipe.datasets} data sets"
                                                     if recipe.datasets > 1 else "") + " per point"]
    return param_line(values, lead=lead, extra=extra, width=80)


def rate_figure(recipe: Any, verdict: Any, pooled: dict, figdir: Path, svg: bool = False) -> str | None:
    """Write :func:`rate_fig` to ``figdir``: the file name, or None without a figure."""
    fig = rate_fig(recipe, verdict, pooled)
    if fig is None:
        return None
    return _savefig(fig, figdir / recipe.id.replace(":", "__").replace("/", "_"), svg)


def rate_fig(recipe: Any, verdict: Any, pooled: dict) -> Any:
    """Figure of a bound, slope or stability recipe: the mean (the recipe's quantile, when
    it judges one) with its 95 % percentile bootstrap interval at each sweep point (never below zero on the log axis), the fitted
    log-log slope, the theorem's bound and the trivial range; titled with the paper and
    the theorem's number and the verdict, with the recipe's parameter line. None with
    fewer than two points or no samples."""
    from dptheory import plotting as P
    xs = sorted(pooled)
    if len(xs) < 2 or "samples" not in pooled[xs[0]]:
        return None
    q = getattr(recipe, "quantile", None)       # a quantile-judged slope check plots it
    means, lo, hi, bounds, trivial = [], [], [], [], []
    for x in xs:
        m, low, high = (P.mean_interval(pooled[x]["samples"]) if q is None else
                        P.quantile_interval(pooled[x]["samples"], q))
        means.append(m)
        lo.append(low)
        hi.append(high)
        bounds.append(pooled[x].get("bound_max", pooled[x].get("bound")))
        trivial.append(pooled[x].get("trivial"))
    fig, axes = P.new_figure((6.4, 3.4))
    ax = axes[0, 0]
    m = np.array(means)
    with P.style():
        ax.errorbar(xs, m, yerr=[m - np.array(lo), np.array(hi) - m], fmt="o",
                    color=P.COLOURS[0],
                    label=("mean" if q is None else f"{q:g}-quantile") + ", 95% bootstrap CI")
        pos = m > 0
        if pos.sum() >= 2:
            k, c = np.polyfit(np.log(np.array(xs)[pos]), np.log(m[pos]), 1)
            grid = np.geomspace(min(xs), max(xs), 50)
            ax.plot(grid, np.exp(c) * grid**k, "--", color=P.COLOURS[0], lw=1,
                    label=f"fitted slope {k:.2f}")
        if all(b is not None and b > 0 and math.isfinite(b) for b in bounds):
            ax.plot(xs, bounds, "-", color=P.COLOURS[1], label="the theorem's bound")
        if all(t is not None and t > 0 and math.isfinite(t) for t in trivial):
            ax.plot(xs, trivial, ":", color="0.4", label="trivial range (largest possible)")
        exp = verdict.evidence.get("expected_tail", verdict.evidence.get("expected_slope"))
        title = f"{registry.item_label(recipe.item)}: {verdict.verdict}"
        if isinstance(exp, (int, float)):
            title += f" (claimed exponent {exp:.2f})"
        ax.set_xscale("log")
        if min(lo) > 0:
            ax.set_yscale("log")
        P.tidy_log_axis(ax.xaxis, xs)
        ax.set_xlabel(P.symbol_label(recipe.variable))
        ax.set_ylabel(recipe.metric or "measured")
        ax.autoscale_view()
        P.tidy_log_axis(ax.yaxis)
    P.finish(fig, title=title, params=recipe_params(recipe, pooled))
    return fig


def sensitivity_figure(verdicts: list, figdir: Path, svg: bool = False) -> str | None:
    """Largest measured/bound ratio of each sensitivity recipe, over its sweep points (a
    point whose printed bound is 0 while the measurement is not is drawn as an open bar)."""
    rows = []
    for v in verdicts:
        if v.check != "sensitivity":
            continue
        ratios, zero_bound = [], False
        for p in v.evidence.get("points", {}).values():
            m, b = p.get("measured_max"), p.get("bound")
            if m is None or b is None:
                continue
            if b > 0:
                ratios.append(m / b)
            elif m > 0:
                zero_bound = True
        if ratios or zero_bound:
            rows.append((_row_label(v), max(ratios) if ratios else 0.0, zero_bound, v.verdict))
    if not rows:
        return None
    from matplotlib.patches import Patch
    from dptheory import plotting as P
    fig, axes = P.new_figure((7.0, 0.3 * len(rows) + 1.4))
    ax = axes[0, 0]
    finite = [r for _, r, _, _ in rows] or [1.0]
    cap = max(1.5, 1.2 * max(finite))
    colours = {"refuted": P.COLOURS[1], "supported": P.COLOURS[2]}
    with P.style():
        for i, (rid, ratio, zero, verdict) in enumerate(rows):
            if zero:
                ax.barh(i, cap, color="white", edgecolor=P.COLOURS[1], hatch="//")
                ax.text(cap, i, " printed bound 0", va="center", fontsize=7,
                        color=P.COLOURS[1])
            else:
                ax.barh(i, ratio, color=colours.get(verdict, "0.6"))
        ax.axvline(1.0, color="k", lw=1)
        ax.axvline(0.5, color="k", lw=0.6, ls=":")
        ax.set_yticks(range(len(rows)), [r[0] for r in rows], fontsize=7)
        ax.invert_yaxis()
        ax.grid(axis="y", visible=False)
        ax.set_xlabel("largest observed sensitivity / the lemma's bound")
    P.finish(fig, title="Sensitivity lemmas: measured against the printed bound")
    with P.style():
        fig.legend(handles=[Patch(color=P.COLOURS[2], label="supported"),
                            Patch(color="0.6", label="below the 0.5 reach needed"),
                            Patch(color=P.COLOURS[1], label="refuted")],
                   loc="outside lower center", ncols=3)
    return _savefig(fig, figdir / "sensitivity_ratios", svg)


def audit_rows(verdicts: list) -> list[dict[str, Any]]:
    """One row per audit verdict: what the adversary saw (set by the audit's cell), the
    claim and the certified lower bound on the audited calibration, and the power as
    measured: the planted twin's calibration (its eps), its certified lower bound against
    the claim and whether it was caught (an audit is ``supported`` only if it was)."""
    rows = []
    for v in verdicts:
        if v.check != "audit":
            continue
        pts = v.evidence.get("points", {}) if isinstance(v.evidence.get("points"), dict) else {}
        for point, p in pts.items():
            tw = p.get("twin") or {}
            claim = p.get("epsilon_claimed")
            tlb = tw.get("epsilon_lower")
            shift, bound = p.get("shift_attained"), p.get("sensitivity_bound")
            rows.append({
                "id": v.id, "point": str(point), "verdict": v.verdict,
                "point_verdict": p.get("verdict"), "adversary": p.get("adversary"),
                "epsilon_claimed": claim, "epsilon_lower": p.get("epsilon_lower"),
                "twin_epsilon": tw.get("epsilon_pair", tw.get("epsilon_calibrated")),
                "twin_calibration": tw.get("calibration"),
                "twin_epsilon_lower": tlb,
                "twin_lower_over_claim": (tlb / claim if isinstance(tlb, (int, float))
                                          and isinstance(claim, (int, float)) and claim > 0
                                          else None),
                "twin_caught": tw.get("detected") if tw else None,
                "pair_attains": (shift / bound if isinstance(shift, (int, float))
                                 and isinstance(bound, (int, float)) and bound > 0 else None)})
    return rows


def audit_table(verdicts: list) -> list[str]:
    """The report's audit table (markdown lines, empty without audits): per audit and
    audited calibration, what the adversary saw and the measured power (the twin)."""
    rows = audit_rows(verdicts)
    if not rows:
        return []
    out = ["| audit | calibration | verdict | adversary saw | eps lower bound / claim | "
           "planted twin (its eps) | twin lower bound / claim | twin caught |",
           "|---|---|---|---|---|---|---|---|"]
    for r in rows:
        adv = (r["adversary"] or "—").split(" (")[0]
        if r["pair_attains"] is not None:
            adv += f"; the pair attains {_g(r['pair_attains'])} x the sensitivity bound"
        caught = {True: "yes", False: "**no**", None: "no twin"}[r["twin_caught"]]
        out.append(f"| `{r['id']}` | {r['point']} | **{r['point_verdict'] or r['verdict']}** "
                   f"| {adv} | {_g(r['epsilon_lower'])} / {_g(r['epsilon_claimed'])} | "
                   f"{_g(r['twin_epsilon'])} | {_g(r['twin_lower_over_claim'])} | {caught} |")
    return out


def audit_figure(verdicts: list, figdir: Path, svg: bool = False) -> str | None:
    """Figure of the audits: each audit point's 95 % epsilon lower bound beside the claimed
    epsilon and the tight accountant's value; the file name, or None without audits."""
    rows = []
    for v in verdicts:
        if v.check != "audit":
            continue
        for point, p in v.evidence.get("points", {}).items():
            if "epsilon_lower" in p:
                rows.append((_row_label(v, str(point)), p["epsilon_lower"], p.get("epsilon_claimed"),
                             p.get("epsilon_tight")))
    if not rows:
        return None
    from dptheory import plotting as P
    fig, axes = P.new_figure((8.0, 0.3 * len(rows) + 1.4))
    ax = axes[0, 0]
    y = np.arange(len(rows))
    num = lambda x: x if isinstance(x, (int, float)) else np.nan  # noqa: E731
    with P.style():
        ax.barh(y, [num(r[1]) for r in rows], color=P.COLOURS[0],
                label=r"$\epsilon$ lower bound (95%)")
        ax.scatter([num(r[2]) for r in rows], y, color=P.COLOURS[1], marker="|", s=200,
                   label=r"claimed $\epsilon$")
        ax.scatter([num(r[3]) for r in rows], y, color="k", marker="x",
                   label="tight accountant")
        ax.set_yticks(y, [r[0] for r in rows], fontsize=7)
        ax.invert_yaxis()
        ax.grid(axis="y", visible=False)
        ax.set_xlabel(P.symbol_label("eps"))
    P.finish(fig, title=r"Privacy audits: certified lower bounds on the true $\epsilon$")
    return _savefig(fig, figdir / "audits", svg)


def regime_figures(figdir: Path, svg: bool = False) -> list[tuple[str, str]]:
    """The regime maps of :data:`REGIME_MAPS` whose items have rates, other symbols at their
    example values: ``(title, file name)`` per map drawn."""
    from dptheory.plotting import regime_map_figure
    from dptheory.symbolic.compare import regime_map
    from dptheory.symbolic.symbols import lookup, registered
    out = []
    items = registry.items()
    examples = {i.symbol: i.example for i in registered().values()}
    for a, b, xv, yv, fixed, (x0, x1, y0, y1) in REGIME_MAPS:
        if a not in items or b not in items or items[a].rate is None or items[b].rate is None:
            continue
        fx = {lookup(k): v for k, v in fixed.items()}
        axes = {lookup(xv), lookup(yv)}
        for sym in (items[a].rate.free_symbols | items[b].rate.free_symbols) - axes - set(fx):
            if sym in examples:
                fx[sym] = examples[sym]
        try:
            grid = regime_map(items[a].rate, items[b].rate, (lookup(xv), x0, x1),
                              (lookup(yv), y0, y1), fx)
        except ValueError:
            continue
        stem = figdir / f"regime__{a}__{b}"
        regime_map_figure(grid, (registry.item_label(a), registry.item_label(b)), str(_with(stem, ".png")))
        if svg:
            regime_map_figure(grid, (registry.item_label(a), registry.item_label(b)), str(_with(stem, ".svg")))
        out.append((f"{a} vs {b}", _with(stem, ".png").name))
    return out


# ----------------------------------------------------------------------------- report
def _cell(text: Any, limit: int = 240, details: list[str] | None = None,
          key: str = "") -> str:
    """A table cell: the whole text (symbols by their human names) when it fits in
    ``limit`` characters; else its first sentence and a pointer to the details line that
    carries the whole text (appended to ``details``), so nothing is cut."""
    from dptheory.symbolic.symbols import humanize
    s = humanize(str(text)).replace("|", "\\|").replace("\n", " ")
    if len(s) <= limit or details is None:
        return s
    first = s.split("; ")[0].split(". ")[0]
    if len(first) > limit:
        first = first[:limit].rsplit(" ", 1)[0]
    details.append(f"- {key}: {s}")
    return f"{first} (in full below)"


def write(result: Any, svg: bool = False) -> Path:
    """Write ``report.md`` (with its figures) and ``report.json`` into ``result.out``; return
    the path of ``report.md``."""
    out = Path(result.out)
    figdir = out / "figures"
    figdir.mkdir(parents=True, exist_ok=True)
    recipes = {r.id: r for r in result.recipes}
    figures: dict[str, str] = {}
    from dptheory.verify.figures import draw_rate_figures      # in parallel processes
    rated = [(recipes[v.id], v, result.pooled.get(v.id, {})) for v in result.verdicts
             if v.id in recipes and recipes[v.id].check in ("bound", "slope", "stability")]
    for (r, v, _), name in zip(rated, draw_rate_figures(rated, figdir, svg, rate_figure)):
        if name:
            figures[v.id] = name
    sens = sensitivity_figure(result.verdicts, figdir, svg)
    aud = audit_figure(result.verdicts, figdir, svg)
    regimes = regime_figures(figdir, svg)

    counts: dict[str, int] = {}
    for v in result.verdicts:
        counts[v.verdict] = counts.get(v.verdict, 0) + 1
    prov = provenance(result)
    lines = [f"# dptheory verification report ({result.mode})", "",
             f"dptheory {prov['dptheory']} (commit {prov['commit']}); seed {prov['seed']}; "
             f"Python {prov['python']}, NumPy {prov['numpy']}, SciPy {prov['scipy']}, "
             f"SymPy {prov['sympy']}, dp-accounting {prov['dp-accounting']}.", "",
             f"Command: `{prov['command']}`", "",
             f"Run `{result.run_id}`: {len(result.verdicts)} verdicts, {len(result.findings)} "
             f"findings of the papers; {result.computed} of {result.total_cells} simulation "
             f"cells computed in this invocation ({result.total_cells - result.computed} "
             f"resumed from the store); {result.elapsed:.0f} s.", "", VERDICT_TEXT, "",
             "Totals: " + ", ".join(f"{k} {c}" for k, c in sorted(counts.items())), ""]
    if result.extended:
        lines += ["Sweeps extended because they could not decide (pre-asymptotic or too "
                  "little power): " + "; ".join(f"`{k}` + {v}" for k, v in result.extended.items()),
                  ""]
    by_paper: dict[str, list] = {}
    for v in result.verdicts:
        by_paper.setdefault(v.item.split(".")[0], []).append(v)
    for paper in sorted(by_paper):
        lines += [f"## {paper}", "",
                  "| id | check | verdict | measured / bound | trivial range | power | reason |",
                  "|---|---|---|---|---|---|---|"]
        details: list[str] = []
        for v in by_paper[paper]:
            c = columns(v)
            lines.append(f"| `{v.id}` | {v.check} | **{v.verdict}** | "
                         f"{_cell(c['ratio'], 60, details, f'`{v.id}` measured / bound')} | "
                         f"{_cell(c['trivial'], 60, details, f'`{v.id}` trivial range')} | "
                         f"{_cell(c['power'], 160, details, f'`{v.id}` power')} | "
                         f"{_cell(v.summary, 240, details, f'`{v.id}` reason')} |")
        lines.append("")
        if details:
            lines += ["Cells in full:", "", *details, ""]
        varied = [(v.id, constants_lines(v)) for v in by_paper[paper]]
        if any(c for _, c in varied):
            lines += ["Constants each check ran at (a formula that drops a constant cannot "
                      "show where that constant is 1):", ""]
            lines += [f"- `{i}`: {humanize('; '.join(c))}" for i, c in varied if c]
            lines.append("")
        for v in by_paper[paper]:
            if v.id in figures:
                lines += [f"![{v.id}](figures/{figures[v.id]})", ""]
    if sens:
        lines += ["## Sensitivity ratios", "", f"![sensitivity](figures/{sens})", ""]
    if aud:
        table = audit_table(result.verdicts)
        lines += ["## Privacy audits", "",
                  *(["What each audit's adversary saw and its measured power: the planted "
                     "twin is the same code with its noise scaled to the eps shown; an audit "
                     "is supported only if its twin was caught (certified lower bound above "
                     "the claim).", "", *table, ""] if table else []),
                  f"![audits](figures/{aud})", ""]
    if regimes:
        lines += ["## Regime maps of stated rates", ""]
        lines += [f"![{t}](figures/{f})" for t, f in regimes]
        lines.append("")
    lines += ["## Findings", "", "One per root cause, most severe first.", ""]
    if not result.findings:
        lines.append("No claim of the papers was refuted.")
    for f in result.findings:
        lines += [f"- **[{f.severity}] {f.id}** ({f.check}): {humanize(f.summary)}"]
        if f.consequence:
            lines.append(f"  - consequence: {humanize(f.consequence)}")
        if f.also:
            lines.append(f"  - same root cause: {', '.join(f'`{a}`' for a in f.also)}")
        lines.append(f"  - reproduce: `{f.reproduce}`")
    if result.own_items:
        lines += ["", "## Refutations of dptheory's own items", "",
                  "Corrected or reconstructed items are dptheory's, not the papers': a "
                  "refutation here is never counted as a finding. It is a defect of the "
                  "toolkit's catalog, or, for a reconstruction of a text whose formulas are "
                  "stripped, a finding only under the reconstruction's reading (its "
                  "consequence says which).", ""]
        for f in result.own_items:
            lines.append(f"- {f.id} ({f.check}): {humanize(f.summary)}")
            if f.consequence:
                lines.append(f"  - consequence: {humanize(f.consequence)}")
    if result.notes:
        lines += ["", "## Symbolic checks that could not decide", "",
                  "| id | check | reason |", "|---|---|---|"]
        lines += [f"| `{n['id']}` | {n['check']} | {_cell(n['summary'], 10 ** 6)} |"
                  for n in result.notes]
    lines += ["", *_coverage_lines(result)]
    (out / "report.md").write_text("\n".join(lines) + "\n")
    (out / "report.json").write_text(json.dumps(as_json(result), indent=1, default=str,
                                                allow_nan=False))
    return out / "report.md"


def skipped(result: Any) -> dict[str, list[str]]:
    """Under ``--only``: the recipes and the symbolic checks of the mode that this run did
    not select (empty without ``--only``)."""
    if not getattr(result, "only", None):
        return {"recipes": [], "checks": [], "derivations": []}
    from dptheory.verify.engine import recipes as all_recipes
    ran = {v.id for v in result.verdicts}
    full = result.mode == "full"
    rec = [r.id for r in all_recipes() if (full or r.quick) and r.id not in ran]
    checks = [c.id for c in registry.checks() if c.id not in ran]
    derived = {v.item for v in result.verdicts if v.check == "derivation"}
    der = [i.id for i in registry.items().values() if i.derivable and i.id not in derived
           and i.id not in result.only]
    return {"recipes": rec, "checks": checks, "derivations": der}


def _coverage_lines(result: Any) -> list[str]:
    """The report's last section: under ``--only``, what this run skipped (never the
    checked items as unchecked); else the items no recipe or check covers."""
    if getattr(result, "only", None):
        sk = skipped(result)
        out = ["## Skipped by --only", "",
               f"This run checked only {', '.join(f'`{o}`' for o in result.only)}; "
               f"{len(sk['recipes'])} simulation recipes, {len(sk['checks'])} property "
               f"checks and the derivations of {len(sk['derivations'])} items of the "
               f"{result.mode} mode were not run.", ""]
        for what, ids in (("simulation recipes", sk["recipes"]),
                          ("property checks", sk["checks"]),
                          ("derivations of", sk["derivations"])):
            if ids:
                out += [f"<details><summary>skipped {what} ({len(ids)})</summary>", "",
                        ", ".join(f"`{i}`" for i in ids), "", "</details>", ""]
        return out
    out = ["## Items without a recipe or check", "", "| id | kind | reason |", "|---|---|---|"]
    out += [f"| `{u['id']}` | {u['kind']} | {humanize(u['reason'])} |" for u in result.unchecked]
    return out


def _strict(x: Any) -> Any:
    """JSON-safe: NaN and infinities become None (strict parsers reject them)."""
    if isinstance(x, float) and not math.isfinite(x):
        return None
    if isinstance(x, dict):
        return {str(k): _strict(v) for k, v in x.items()}
    if isinstance(x, (list, tuple)):
        return [_strict(v) for v in x]
    if isinstance(x, (np.floating, np.integer, np.bool_)):
        return _strict(x.item())
    if isinstance(x, np.ndarray):
        return _strict(x.tolist())
    return x


def as_json(result: Any) -> dict[str, Any]:
    """The JSON summary of a run (strict: NaN and infinities become null); every verdict
    carries its evidence (about 0.1 MB for the quick run's simulation verdicts)."""
    return _strict({
        "mode": result.mode, "run_id": result.run_id, "elapsed": result.elapsed,
        "provenance": provenance(result), "skipped": skipped(result),
        "report": str(Path(result.out) / "report.md"),
        "verdicts": [{"id": v.id, "item": v.item, "check": v.check, "verdict": v.verdict,
                      "claim": v.claim, "summary": humanize(v.summary),
                      "severity": v.severity,
                      "power": v.power, "columns": columns(v), "reproduce": v.reproduce,
                      "constants_varied": constants_lines(v),
                      "evidence": v.evidence}
                     for v in result.verdicts],
        "audits": audit_rows(result.verdicts),
        "findings": [f.as_dict() for f in result.findings],
        "own_items": [f.as_dict() for f in result.own_items],
        "notes": result.notes,
        "extended": {k: list(v) for k, v in result.extended.items()},
        "unchecked": [] if getattr(result, "only", None) else result.unchecked,
        "cells": {"total": result.total_cells, "computed": result.computed}})
