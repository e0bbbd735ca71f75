"""Reproductions of the papers' own experiments (``dptheory reproduce``).

Each entry has ``id``, ``title``, ``run(**options) -> report`` and ``text(report) -> str``.
"""

from .wang2020_figures import FIGURES
from .zhang2017_table3 import TABLE3

REPRODUCTIONS: dict = {TABLE3.id: TABLE3, FIGURES.id: FIGURES}
