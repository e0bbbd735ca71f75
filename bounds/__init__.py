"""The catalog: every statement of the five papers as a ``dptheory`` Theorem.

One module per paper (``zhang2021``, ``tran2022``, ``yang2022``, ``wang2020``,
``zhang2017``), each exposing ``ITEMS: list[dptheory.symbolic.Theorem]``. They are
registered through the ``dptheory.catalogs`` entry point.

What belongs here: statements as printed (and corrected variants beside them, never in place
of them), their symbols, hypotheses and settings; ``checks`` holds the checks of catalog
items that need no simulation. Modules here import ``dptheory`` only, never
``dptheory_simulations``.
"""
