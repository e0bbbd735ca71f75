"""Reproductions of the papers' own experiments (``dptheory reproduce``)."""

REPRODUCTIONS: dict = {}
