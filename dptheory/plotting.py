"""Figures of comparisons and sweeps, drawn on matplotlib Axes, in one style.

Nothing here touches pyplot or the matplotlib backend: a figure is a bare
:class:`matplotlib.figure.Figure` (which Jupyter displays as it is), so calling a plotting
function never switches off inline figures in a notebook. Only the command line and the
reports save figures to files (:func:`save`: PNG, PDF or SVG by the file's suffix).

What makes a figure fit for a paper, by default:

- one line (and one theory line) per value of a second swept variable (``hue``), or one
  panel per value (``col``), each labelled with its value;
- intervals that respect a log axis: the percentile bootstrap of the mean, which lies
  within the samples' range, so it never runs below zero for a nonnegative quantity;
- axis labels rendered from the symbols' LaTeX names (matplotlib mathtext), never a raw
  metric or symbol name;
- a parameter line (fixed values, replicates, data, subsample);
- one legend entry per series, and tick labels that do not overlap on narrow log ranges.
"""

from __future__ import annotations

import contextlib
import math
from pathlib import Path
from typing import Any, Iterator, Mapping, Sequence

import numpy as np

__all__ = ["COLOURS", "STYLE", "style", "new_axes", "new_figure", "save", "symbol_label", "value_label",
           "metric_label", "mean_interval", "quantile_interval", "tidy_log_axis", "param_line", "count", "finish",
           "sweep_figure", "regime_map_figure", "rates_figure", "FORMATS"]

#: The colour cycle of the house style (Okabe and Ito's colour-blind-safe palette). Name
#: colours from here rather than as "C0", "C1": those are resolved when the figure is drawn,
#: which may be outside the style (in a notebook).
COLOURS = ("#0072B2", "#D55E00", "#009E73", "#CC79A7", "#E69F00", "#56B4E9", "#F0E442",
           "#000000")

#: The house style (rcParams) of every figure dptheory draws: a colour-blind-safe cycle
#: (Okabe and Ito), light grid, no top/right spines, small but readable type.
STYLE: dict[str, Any] = {
    "font.size": 9, "axes.titlesize": 9, "axes.labelsize": 9, "legend.fontsize": 7.5,
    "xtick.labelsize": 8, "ytick.labelsize": 8, "axes.grid": True, "grid.alpha": 0.3,
    "grid.linewidth": 0.5, "axes.spines.top": False, "axes.spines.right": False,
    "lines.linewidth": 1.4, "lines.markersize": 4.5, "errorbar.capsize": 2.5,
    "legend.frameon": False, "figure.dpi": 120,
    "axes.prop_cycle": __import__("cycler").cycler(color=list(COLOURS)),
}
#: The file formats :func:`save` writes, by suffix.
FORMATS = (".png", ".pdf", ".svg")

# How the metrics the simulators record read on an axis (mathtext).
_METRICS = {
    "excess_risk": r"excess risk $F(w) - F^\ast$",
    "grad_norm": r"$\Vert\nabla F(w)\Vert$",
    "grad_norm_sq": r"$\Vert\nabla F(w)\Vert^2$",
    "min_grad_norm": r"$\min_t\, \Vert\nabla F(w_t)\Vert$",
    "grad_norm_avg": r"$\frac{1}{T}\sum_t \Vert\nabla F(w_t)\Vert$",
    "gap": r"optimality gap $F(w) - F^\ast$",
    "accuracy": "accuracy",
    "sensitivity": "sensitivity",
    "iterations": "iterations",
}


@contextlib.contextmanager
def style() -> Iterator[None]:
    """``with style():`` draw in the house style (:data:`STYLE`); the caller's rcParams are
    restored on exit, and no backend is touched."""
    import matplotlib
    with matplotlib.rc_context(STYLE):
        yield


def new_axes(ax: Any = None, figsize: tuple[float, float] = (5.0, 3.6)) -> Any:
    """``ax`` itself, or the Axes of a new bare Figure (not pyplot: the backend is left alone).

    Parameters
    ----------
    ax : matplotlib Axes or None
    figsize : size of the new figure in inches.

    Returns
    -------
    matplotlib.axes.Axes

    Examples
    --------
    >>> ax = new_axes()
    >>> type(ax.figure).__name__
    'Figure'
    """
    if ax is not None:
        return ax
    with style():
        from matplotlib.figure import Figure
        return Figure(figsize=figsize).add_subplot()


def new_figure(figsize: tuple[float, float], nrows: int = 1, ncols: int = 1,
               **subplots: Any) -> tuple[Any, np.ndarray]:
    """A bare Figure in the house style and its grid of Axes (always a 2-d array).

    Parameters
    ----------
    figsize : inches.
    nrows, ncols : the grid.
    **subplots : passed to :meth:`matplotlib.figure.Figure.subplots` (``sharey=True``, ...).

    Returns
    -------
    (Figure, numpy array of Axes)
    """
    with style():
        from matplotlib.figure import Figure
        fig = Figure(figsize=figsize)
        fig.set_layout_engine("constrained")
        axes = fig.subplots(nrows, ncols, squeeze=False, **subplots)
    return fig, axes


def save(fig: Any, path: str | Path, *, dpi: int = 200) -> str:
    """Write ``fig`` to ``path`` as PNG, PDF or SVG (by its suffix), with a tight bounding
    box so no label is clipped; return ``path`` as a string.

    Raises
    ------
    ValueError
        When the suffix is not one of :data:`FORMATS`.
    """
    path = Path(path)
    if path.suffix.lower() not in FORMATS:
        raise ValueError(f"figure path must end in one of {', '.join(FORMATS)}, got {str(path)!r}")
    fig.savefig(path, bbox_inches="tight", pad_inches=0.05,
                dpi=dpi if path.suffix.lower() == ".png" else "figure",
                metadata={"Software": "dptheory"} if path.suffix.lower() == ".png" else None)
    return str(path)


# ----------------------------------------------------------------------------- labels
def symbol_label(name: str) -> str:
    """The symbol ``name`` as mathtext (``"eps"`` -> ``"$\\epsilon$"``) from its registered
    LaTeX; a metric name gets its axis label (:func:`metric_label`); anything else is
    returned with underscores as spaces.

    Examples
    --------
    >>> symbol_label("eps"), symbol_label("n")
    ('$\\\\epsilon$', '$n$')
    """
    from dptheory.symbolic.symbols import registered
    info = registered().get(name)
    if info is not None:
        return f"${info.latex}$"
    if name in _METRICS:
        return _METRICS[name]
    return name.replace("_", " ")


def _number(v: Any) -> str:
    """A value for a label: integers as integers, floats to 3 significant digits."""
    if isinstance(v, (bool, np.bool_)) or not isinstance(v, (int, float, np.integer, np.floating)):
        return str(v)
    v = float(v)
    if v.is_integer() and abs(v) < 1e6:
        return str(int(v))
    return f"{v:.3g}"


def value_label(name: str, value: Any) -> str:
    """``name = value`` with the symbol in mathtext (``"$\\epsilon$ = 0.5"``).

    Examples
    --------
    >>> value_label("n", 2000)
    '$n$ = 2000'
    """
    return f"{symbol_label(name)} = {_number(value)}"


def metric_label(metric: str) -> str:
    """The axis label of a recorded metric (mathtext); unknown names with spaces.

    Examples
    --------
    >>> metric_label("grad_norm")
    '$\\\\Vert\\\\nabla F(w)\\\\Vert$'
    """
    return _METRICS.get(metric, metric.replace("_", " "))


def param_line(values: Mapping[str, Any], *, lead: Sequence[str] = (), extra: Sequence[str] = (),
               width: int = 90) -> str:
    """The parameter line of a figure: ``lead`` phrases (what ran on what), ``values`` as
    ``symbol = value`` (mathtext), then ``extra`` phrases (``"4 replicates"``, ``"n = 2000
    subsample"``), joined by semicolons and wrapped to ``width`` characters.

    Examples
    --------
    >>> param_line({"d": 3, "eps": 1.0}, extra=["4 replicates"])
    '$d$ = 3; $\\\\epsilon$ = 1; 4 replicates'
    """
    parts = [p for p in lead if p]
    parts += [value_label(k, v) for k, v in values.items() if v is not None]
    parts += [e for e in extra if e]
    # wrap on the plain text, never inside a $...$ group
    lines, line = [], ""
    for p in parts:
        candidate = f"{line}; {p}" if line else p
        if line and len(_plain(candidate)) > width:
            lines.append(line + ";")
            line = p
        else:
            line = candidate
    if line:
        lines.append(line)
    return "\n".join(lines)


def count(k: int, noun: str) -> str:
    """``"1 replicate"``, ``"4 replicates"``.

    Examples
    --------
    >>> count(1, "replicate"), count(4, "replicate")
    ('1 replicate', '4 replicates')
    """
    return f"{k} {noun}{'' if k == 1 else 's'}"


def _plain(text: str) -> str:
    """Approximate printed text of a mathtext string (for wrapping)."""
    import re
    return re.sub(r"\\[a-zA-Z]+|[${}^_]", "x", text)


# ----------------------------------------------------------------------------- intervals
def mean_interval(samples: Sequence[float], level: float = 0.95, *, n_boot: int = 2000,
                  seed: int = 0) -> tuple[float, float, float]:
    """Mean and percentile-bootstrap interval of ``samples``: ``(mean, low, high)``.

    The percentile interval of resampled means lies within ``[min(samples),
    max(samples)]``, so for a nonnegative quantity it never runs below zero, unlike mean ±
    1.96 se; with one sample (or constant samples) low = high = mean. Seeded: the same
    samples give the same interval.
    """
    from dptheory.stats import mean_ci
    a = np.asarray(samples, dtype=float)
    a = a[np.isfinite(a)]
    if a.size == 0:
        return math.nan, math.nan, math.nan
    if a.size == 1:
        return float(a[0]), float(a[0]), float(a[0])
    ci = mean_ci(a, level, method="bootstrap", n_boot=n_boot, seed=seed)
    return ci.estimate, ci.low, ci.high


def quantile_interval(samples: Sequence[float], q: float, level: float = 0.95, *,
                      n_boot: int = 2000, seed: int = 0) -> tuple[float, float, float]:
    """The ``q``-quantile of ``samples`` and its percentile-bootstrap interval:
    ``(quantile, low, high)``, as :func:`mean_interval` gives for the mean (seeded; within
    ``[min(samples), max(samples)]``)."""
    from dptheory.stats import hierarchical_boot_quantiles
    a = np.asarray(samples, dtype=float)
    a = a[np.isfinite(a)]
    if a.size == 0:
        return math.nan, math.nan, math.nan
    est = float(np.quantile(a, q))
    if a.size == 1:
        return est, est, est
    boot = hierarchical_boot_quantiles([a], q, n_boot, np.random.default_rng(seed))
    low, high = np.quantile(boot, [(1 - level) / 2, (1 + level) / 2])
    return est, float(min(low, est)), float(max(high, est))


# ----------------------------------------------------------------------------- ticks
def _tick_text(v: float, _pos: Any = None) -> str:
    """A log-axis tick label: plain between 1e-3 and 1e4, else m x 10^e in mathtext."""
    if v <= 0 or not math.isfinite(v):
        return ""
    if 1e-3 <= v < 1e4:
        return f"{v:g}"
    e = int(math.floor(math.log10(v) + 1e-9))
    m = v / 10 ** e
    if abs(m - round(m)) < 1e-6 and round(m) == 1:
        return f"$10^{{{e}}}$"
    return f"${m:.2g}\\times10^{{{e}}}$"


def tidy_log_axis(axis: Any, values: Sequence[float] | None = None, *, max_fixed: int = 8) -> None:
    """Readable ticks on a log axis (``ax.xaxis`` or ``ax.yaxis``): no minor tick labels.

    With ``values`` (the swept values, at most ``max_fixed`` of them) the major ticks are
    exactly those values. Otherwise, over less than about two decades, majors at 1, 2, 5
    (or every integer) times a power of ten, so the axis keeps at least two labels;
    over more, the default decades. A linear axis is left alone.
    """
    from matplotlib import ticker
    if axis.get_scale() != "log":
        return
    axis.set_minor_formatter(ticker.NullFormatter())
    fmt = ticker.FuncFormatter(_tick_text)
    vals = sorted({float(v) for v in values or () if v is not None and float(v) > 0})
    if vals and len(vals) <= max_fixed:
        axis.set_major_locator(ticker.FixedLocator(vals))
        axis.set_major_formatter(fmt)
        # minor ticks at 1..9 x 10^k would crowd between close swept values: none
        axis.set_minor_locator(ticker.NullLocator())
        return
    lo, hi = (axis.axes.get_xlim() if axis is axis.axes.xaxis else axis.axes.get_ylim())
    lo, hi = min(lo, hi), max(lo, hi)
    if lo <= 0 or hi / lo >= 100:
        return
    for subs in ((1.0, 2.0, 5.0), tuple(float(i) for i in range(1, 10))):
        ticks = [m * 10 ** e for e in range(math.floor(math.log10(lo)) - 1,
                                              math.ceil(math.log10(hi)) + 1)
                 for m in subs if lo <= m * 10 ** e <= hi]
        if len(ticks) >= 2:
            axis.set_major_locator(ticker.FixedLocator(ticks))
            axis.set_major_formatter(fmt)
            return
    # less than one step of 1..9 x 10^k: evenly spaced ticks, three significant digits
    axis.set_major_locator(ticker.MaxNLocator(4))
    axis.set_major_formatter(ticker.FuncFormatter(lambda v, _p: f"{v:.3g}"))


def finish(fig: Any, *, title: str = "", params: str = "") -> None:
    """Finish a multi-panel figure: one legend for all panels (one entry per label, beside
    them), the title and the parameter line above them. The figure should come from
    :func:`new_figure` (constrained layout makes room for both)."""
    unique: dict[str, Any] = {}
    for ax in fig.axes:
        for h, lab in zip(*ax.get_legend_handles_labels()):
            unique.setdefault(lab, h)
        if ax.get_legend():
            ax.get_legend().remove()
    with style():
        if unique:
            fig.legend(list(unique.values()), list(unique), loc="outside right center")
        text = "\n".join(t for t in (title, params) if t)
        if text:
            fig.suptitle(text, fontsize=8.5)


# ----------------------------------------------------------------------------- sweeps
def _groups(records: Sequence[Mapping[str, Any]], keys: Sequence[str]) -> dict[tuple, list]:
    out: dict[tuple, list] = {}
    for r in records:
        out.setdefault(tuple(r[k] for k in keys), []).append(r)
    return out


def _sort_key(v: Any) -> tuple:
    return (0, float(v), "") if isinstance(v, (int, float, np.integer, np.floating)) else (1, 0.0, str(v))


def sweep_figure(records: Sequence[Mapping[str, Any]], *, x: str, metric: str,
                 hue: str | None = None, col: str | None = None, theory: str | None = None,
                 theory_label: str = "", params: str = "", label: str = "", ax: Any = None,
                 level: float = 0.95) -> Any:
    """Means of ``metric`` against ``x`` with bootstrap intervals, one line per ``hue``
    value, one panel per ``col`` value, and the theory line of each group.

    Parameters
    ----------
    records : tidy rows, each with ``x``, ``metric`` and (when given) ``hue``, ``col`` and
        ``theory`` values; the rows of one (col, hue, x) are the replicates of a point.
    x, hue, col : column names (hue and col optional). Every row of a (col, hue, x) group
        must be a replicate of the same point: a varied column not named here is an error.
    metric : the measured column.
    theory : the column of the theory line (``"bound"``, ``"rate"``) or None; drawn dashed
        in the group's colour, its largest value over the point's rows.
    theory_label : the legend text of the theory line.
    params : the parameter line (:func:`param_line`), drawn as the title.
    label : the series' name in the legend (say what sets this sweep apart when several
        are drawn on one Axes: ``"$\\epsilon$ = 1"``); the legend keeps one entry per label.
    ax : draw on this Axes (only without ``col``).
    level : the intervals' confidence.

    Returns
    -------
    matplotlib.axes.Axes, or a list of Axes with ``col``.

    Raises
    ------
    ValueError
        When a named column is missing or ``ax`` is given with ``col``.
    """
    from matplotlib.lines import Line2D
    if not records:
        raise ValueError("no records to plot")
    for name in (x, metric, hue, col, theory):
        if name is not None and name not in records[0]:
            raise ValueError(f"column {name!r} is not in the records; they have "
                             f"{sorted(records[0])}")
    if col is not None and ax is not None:
        raise ValueError("col= draws one panel per value: pass no ax")
    panels = sorted({r[col] for r in records}, key=_sort_key) if col else [None]
    hues = sorted({r[hue] for r in records}, key=_sort_key) if hue else [None]
    with style():
        import matplotlib
        colours = matplotlib.rcParams["axes.prop_cycle"].by_key()["color"]
        if ax is None:
            width = 6.2 if len(panels) == 1 else 2.9 * len(panels) + 2.0
            fig, grid = new_figure((width, 3.5), 1, len(panels), sharey=True)
            axes = list(grid[0])
        else:
            axes = [ax]
        all_lo: list[float] = []
        new_handles: list[Any] = []
        for pi, (panel_value, axp) in enumerate(zip(panels, axes)):
            rows = [r for r in records if col is None or r[col] == panel_value]
            for hi, hv in enumerate(hues):
                sub = [r for r in rows if hue is None or r[hue] == hv]
                if not sub:
                    continue
                # an overlaid sweep continues the colour cycle of the Axes
                colour = colours[(hi + (0 if hue else len(axp.containers))) % len(colours)]
                pts = sorted(_groups(sub, [x]).items(), key=lambda kv: _sort_key(kv[0][0]))
                xs = [k[0] for k, _ in pts]
                stats = np.array([mean_interval([r[metric] for r in g], level) for _, g in pts])
                m, lo, hi_ = stats[:, 0], stats[:, 1], stats[:, 2]
                all_lo += list(lo)
                if hue:
                    series = value_label(hue, hv) if not label else f"{label}, {value_label(hue, hv)}"
                else:
                    series = f"{label}: mean, {level:.0%} CI" if label else f"mean, {level:.0%} CI"
                bars = axp.errorbar(xs, m, yerr=[m - lo, hi_ - m], color=colour, marker="o",
                                    label=series if pi == 0 else None)
                if pi == 0:          # legend order per series: its mean, then its theory line
                    new_handles.append(bars)
                if theory:
                    ys = [max((r[theory] for r in g if r.get(theory) is not None), default=None)
                          for _, g in pts]
                    if all(y is not None and y > 0 and math.isfinite(y) for y in ys):
                        tl = theory_label or theory
                        line, = axp.plot(xs, ys, "--", color=colour, lw=1.1,
                                         label=None if hue or pi else
                                         (f"{label}: {tl}" if label else tl))
                        if not hue and pi == 0:
                            new_handles.append(line)
            axp.set_xlabel(symbol_label(x))
            if col is not None:
                axp.set_title(value_label(col, panel_value))
        numeric_x = all(isinstance(r[x], (int, float, np.integer, np.floating)) for r in records)
        xvals = sorted({float(r[x]) for r in records}) if numeric_x else []
        log_x = numeric_x and xvals[0] > 0 and xvals[-1] / xvals[0] >= 4
        log_y = bool(all_lo) and min(all_lo) > 0
        for axp in axes:
            if log_x:
                axp.set_xscale("log")
                tidy_log_axis(axp.xaxis, xvals)
            if log_y:
                axp.set_yscale("log")
        axes[0].set_ylabel(metric_label(metric))
        for axp in axes:
            axp.autoscale_view()
            if log_y:
                tidy_log_axis(axp.yaxis)
        # the legend: one entry per label, in drawing order, also over sweeps overlaid on
        # these Axes (their handles are kept on the Axes between calls)
        handles = [*getattr(axes[0], "_dptheory_handles", []), *new_handles]
        drawn_theory = any(line.get_linestyle() == "--" for a in axes for line in a.get_lines())
        if hue:
            dark = "0.25"
            handles.append(Line2D([], [], color=dark, marker="o", label=f"mean, {level:.0%} CI"))
            if drawn_theory:
                handles.append(Line2D([], [], color=dark, ls="--", label=theory_label or theory))
        axes[0]._dptheory_handles = handles
        unique: dict[str, Any] = {}
        for h in handles:
            unique.setdefault(h.get_label(), h)
        fig = axes[0].figure
        ours = getattr(fig, "_dptheory_outside", False) or ax is None
        if ours:
            # beside the panels, never over the data; constrained layout makes room
            for old in list(fig.legends):
                old.remove()
            fig.legend(list(unique.values()), list(unique), loc="outside right center")
            fig._dptheory_outside = True
        else:
            axes[0].legend(list(unique.values()), list(unique), loc="best")
        if params:
            if ours:
                fig.suptitle(params, fontsize=7.5, color="0.3")
            else:
                axes[0].set_title(params, fontsize=7.5, color="0.3")
    return axes[0] if col is None else axes


# ----------------------------------------------------------------------------- rates
def regime_map_figure(data: dict[str, Any], names: tuple[str, str], path: str | None = None,
                      ax: Any = None) -> Any:
    """Draw a regime map (from :func:`dptheory.symbolic.compare.regime_map`).

    Parameters
    ----------
    data : the map: ``x``, ``y``, ``log10_ratio``, ``x_name``, ``y_name``.
    names : the labels of the two compared items (e.g. paper and theorem number,
        :func:`dptheory.registry.item_label`).
    path : save the figure there (PNG, PDF or SVG) and return ``path`` (the CLI's use).
    ax : draw on this Axes (default: a new Figure's).

    Returns
    -------
    str or matplotlib.axes.Axes
        ``path`` when given, else the Axes drawn on.
    """
    a, b = names
    with style():
        ax = new_axes(ax, figsize=(5.0, 3.8))
        fig = ax.figure
        z = data["log10_ratio"]
        finite = np.isfinite(z)
        lim = float(np.max(np.abs(z[finite]))) if finite.any() else 1.0
        lim = lim or 1.0
        mesh = ax.pcolormesh(data["x"], data["y"], z, cmap="RdBu_r", vmin=-lim, vmax=lim,
                             shading="auto")
        if finite.any() and np.nanmin(z) < 0 < np.nanmax(z):
            ax.contour(data["x"], data["y"], z, levels=[0.0], colors="k", linewidths=1.2)
        ax.set_xscale("log")
        ax.set_yscale("log")
        ax.grid(False)
        ax.set_xlabel(symbol_label(str(data["x_name"])))
        ax.set_ylabel(symbol_label(str(data["y_name"])))
        ax.set_title(f"stated rates: {a} vs {b}\nblue: {a} smaller; black line: equal",
                     fontsize=8)
        bar = fig.colorbar(mesh, ax=ax)
        bar.set_label(r"$\log_{10}$ (rate ratio)")
        if path is not None:
            save(fig, path)
            return path
    return ax


def rates_figure(a: Any, b: Any, v: Any, x_range: tuple[float, float], names: tuple[str, str],
                 crossovers: Sequence[float] = (), ax: Any = None, points: int = 200) -> Any:
    """Two rates of one variable on log-log axes, their crossovers marked.

    Parameters
    ----------
    a, b : SymPy expressions of the single symbol ``v``.
    v : the variable.
    x_range : (lo, hi), both > 0.
    names : the legend labels of the two items (e.g. paper and theorem number,
        :func:`dptheory.registry.item_label`).
    crossovers : x values to mark.
    ax : draw on this Axes (default: a new Figure's).
    points : number of log-spaced evaluation points.

    Returns
    -------
    matplotlib.axes.Axes
    """
    import mpmath
    import sympy as sp
    lo, hi = x_range
    if not (0 < lo < hi):
        raise ValueError(f"x_range must satisfy 0 < lo < hi, got {x_range}")
    with style():
        ax = new_axes(ax)
        xs = np.logspace(np.log10(lo), np.log10(hi), points)
        for expr, name in ((a, names[0]), (b, names[1])):
            f = sp.lambdify(v, expr, modules="mpmath")
            # log10 in mpmath, so values beyond float range still plot (as their exponent)
            ys = [float(mpmath.log10(f(mpmath.mpf(x)))) for x in xs]
            ax.plot(xs, np.power(10.0, np.clip(ys, -300, 300)), label=name)
        for c in crossovers:
            if lo <= c <= hi:
                ax.axvline(c, color="k", lw=0.8, ls="--")
        ax.set_xscale("log")
        ax.set_yscale("log")
        ax.set_xlabel(symbol_label(str(v)))
        ax.set_ylabel("stated rate")
        ax.legend()
        tidy_log_axis(ax.xaxis)
        tidy_log_axis(ax.yaxis)
    return ax
