"""Figures: regime maps of two rates (more figures arrive with the verification report)."""

from __future__ import annotations

from typing import Any

import numpy as np


def regime_map_figure(data: dict[str, Any], names: tuple[str, str], path: str) -> str:
    """Save a regime map (from :func:`dptheory.symbolic.derive.regime_map`) to ``path``."""
    from matplotlib.figure import Figure   # not pyplot: the caller's backend is left alone

    fig = Figure(figsize=(5.5, 4.2), dpi=120)
    ax = fig.add_subplot()
    z = data["log10_ratio"]
    lim = float(np.nanmax(np.abs(z))) or 1.0
    mesh = ax.pcolormesh(data["x"], data["y"], z, cmap="RdBu_r", vmin=-lim, vmax=lim,
                         shading="auto")
    if np.nanmin(z) < 0 < np.nanmax(z):
        ax.contour(data["x"], data["y"], z, levels=[0.0], colors="k", linewidths=1.2)
    ax.set_xscale("log")
    ax.set_yscale("log")
    ax.set_xlabel(data["x_name"])
    ax.set_ylabel(data["y_name"])
    ax.set_title(f"log10({names[0]} / {names[1]})\nblue: {names[0]} better", fontsize=9)
    fig.colorbar(mesh, ax=ax)
    fig.tight_layout()
    fig.savefig(path)
    return path
