"""Figures of comparisons and sweeps, drawn on matplotlib Axes.

Nothing here touches pyplot or the matplotlib backend: a figure is a bare
:class:`matplotlib.figure.Figure` (which Jupyter displays as it is), so calling a plotting
function never switches off inline figures in a notebook. Only the command line saves
figures to files.
"""

from __future__ import annotations

from typing import Any, Sequence

import numpy as np


def new_axes(ax: Any = None, figsize: tuple[float, float] = (5.5, 4.2)) -> Any:
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
    from matplotlib.figure import Figure
    return Figure(figsize=figsize, dpi=120).add_subplot()


def regime_map_figure(data: dict[str, Any], names: tuple[str, str], path: str | None = None,
                      ax: Any = None) -> Any:
    """Draw a regime map (from :func:`dptheory.symbolic.compare.regime_map`).

    Parameters
    ----------
    data : the map: ``x``, ``y``, ``log10_ratio``, ``x_name``, ``y_name``.
    names : the two compared items (blue: the first is smaller).
    path : save the figure there and return ``path`` (the CLI's use).
    ax : draw on this Axes (default: a new Figure's).

    Returns
    -------
    str or matplotlib.axes.Axes
        ``path`` when given, else the Axes drawn on.
    """
    ax = new_axes(ax)
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
    ax.set_xlabel(data["x_name"])
    ax.set_ylabel(data["y_name"])
    ax.set_title(f"log10({names[0]} / {names[1]})\nblue: {names[0]} better", fontsize=9)
    fig.colorbar(mesh, ax=ax)
    if path is not None:
        fig.tight_layout()
        fig.savefig(path)
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
    names : legend labels.
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
    ax.set_xlabel(str(v))
    ax.legend(fontsize=8)
    return ax
