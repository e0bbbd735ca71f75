"""Command-line options shared by commands that take real data and free parameters.

* :func:`add_data_options` / :func:`load_data`: ``--data FILE|NAME|NAME=PATH[,PATH]`` with
  ``--target``, ``--subsample``, ``--test-fraction`` and the preprocessing options; the data
  comes from the loader registered in the ``dptheory.datasets`` entry-point group (dptheory
  does not import it by name).
* :func:`parse_settings`: repeated ``KEY=VALUE`` options (``--objective-param``,
  ``--param``) checked against the keyword parameters a function accepts; an unknown key is
  one line listing the valid ones.
"""

from __future__ import annotations

import argparse
import ast
from typing import Any, Iterable, Sequence

from dptheory import registry
from dptheory.errors import UsageError

__all__ = ["add_data_options", "load_data", "parse_settings", "parse_value"]


def add_data_options(p: argparse.ArgumentParser) -> None:
    """Add the real-data options (``--data``, ``--target``, ``--subsample``,
    ``--test-fraction`` and the preprocessing options) to ``p``, in a group of their own;
    :func:`load_data` reads them."""
    g = p.add_argument_group("real data (instead of a synthetic dataset)")
    g.add_argument("--data", default=None, metavar="FILE|NAME",
                   help="a CSV/NPZ/Parquet file, a named dataset (credit, adult, bike, ...), or "
                        "NAME=PATH[,PATH] for a named dataset read from your files")
    g.add_argument("--target", default=None, metavar="COLUMN",
                   help="the target column (a file needs it; named datasets have a default)")
    g.add_argument("--positive", action="append", default=None, metavar="VALUE",
                   help="classification: target value mapped to +1 (repeatable)")
    g.add_argument("--subsample", type=int, default=None, metavar="N",
                   help="keep N rows, drawn without replacement (seed: --data-seed)")
    g.add_argument("--test-fraction", type=float, default=0.0, metavar="F",
                   help="hold out a fraction F of the rows as a test set (default 0)")
    g.add_argument("--drop", action="append", default=None, metavar="COLUMN",
                   help="leave a column out (repeatable)")
    g.add_argument("--categorical", action="append", default=None, metavar="COLUMN",
                   help="one-hot encode a numeric column too (repeatable)")
    g.add_argument("--missing", default=None, choices=("error", "drop", "category"),
                   help="missing values: refuse (default), drop the rows, or a level of its own")
    g.add_argument("--scale", default=None, choices=("none", "minmax", "standard"),
                   help="feature scaling (default minmax)")
    g.add_argument("--rows", default=None, choices=("none", "max", "unit"),
                   help="row normalisation to --radius (default max: the largest row)")
    g.add_argument("--radius", type=float, default=None,
                   help="row-norm bound the objective's constants assume (default 1)")
    g.add_argument("--target-scale", default=None, choices=("none", "standard", "max-abs"),
                   help="regression targets: scaling (default none)")


def load_data(args: argparse.Namespace, task: str) -> Any:
    """The prepared data of ``--data`` for an objective of kind ``task``."""
    if args.subsample is not None and args.subsample < 2:
        raise UsageError(f"--subsample must be >= 2, got {args.subsample}")
    if not 0 <= args.test_fraction < 1:
        raise UsageError(f"--test-fraction must be in [0, 1), got {args.test_fraction}")
    spec: dict[str, Any] = {"target": args.target, "task": task, "subsample": args.subsample,
                            "test_fraction": args.test_fraction, "seed": args.data_seed}
    options = {"drop": args.drop, "categorical": args.categorical, "missing": args.missing,
               "scale": args.scale, "rows": args.rows, "radius": args.radius,
               "target_scale": args.target_scale}
    spec.update({k: tuple(v) if isinstance(v, list) else v
                 for k, v in options.items() if v is not None})
    if args.positive is not None:
        spec["positive"] = [parse_value(v) for v in args.positive]
    if task == "regression" and "positive" in spec:
        raise UsageError("--positive applies to classification objectives only")
    return registry.load_data(args.data, **spec)


def parse_value(text: str) -> Any:
    """A Python literal (number, list, None, True/False in any case) or else the text."""
    low = text.strip().lower()
    if low in ("true", "false"):
        return low == "true"
    if low == "none":
        return None
    try:
        return ast.literal_eval(text.strip())
    except (ValueError, SyntaxError, MemoryError, RecursionError):
        return text.strip()


def parse_settings(items: Iterable[str] | None, valid: Sequence[str], option: str,
                   owner: str) -> dict[str, Any]:
    """``KEY=VALUE`` strings to a dict; keys must be in ``valid``."""
    out: dict[str, Any] = {}
    for item in items or ():
        key, sep, value = item.partition("=")
        key = key.strip()
        if not sep or not key:
            raise UsageError(f"{option} takes KEY=VALUE, got {item!r}")
        if key not in valid:
            raise UsageError(f"unknown {option} {key!r} for {owner}; valid: "
                             f"{', '.join(valid) if valid else '(none)'}")
        if key in out:
            raise UsageError(f"{option} {key!r} given twice")
        out[key] = parse_value(value)
    return out
