"""The ``dptheory`` command line.

Every command is registered by a module of this package through ``register(sub)`` and
returns ``(data, text)``: ``data`` is JSON-serialisable and printed with ``--json``,
``text`` is the human rendering. Bad input (``ValueError``) prints one line on stderr and
exits with code 2; no traceback ever reaches the user.
"""

from __future__ import annotations

import argparse
import importlib
import json
import sys
from typing import Any, Callable, Sequence

# Command modules, each exposing register(subparsers). Order = order in --help.
COMMAND_MODULES = ("catalog", "privacy", "objectives", "simulate", "verify", "audit")


class _Parser(argparse.ArgumentParser):
    """argparse exits with 2 on usage errors already; keep its message to one line."""

    def error(self, message: str) -> None:  # noqa: D401 - argparse API
        self.exit(2, f"{self.prog}: error: {message}\n")


def add_command(sub: Any, name: str, handler: Callable[[argparse.Namespace], tuple[Any, str]],
                help: str) -> argparse.ArgumentParser:
    """Add a sub-command with the common ``--json`` flag; ``handler(args) -> (data, text)``."""
    p = sub.add_parser(name, help=help, description=help)
    p.add_argument("--json", action="store_true", help="print machine-readable JSON")
    p.set_defaults(handler=handler)
    return p


def build_parser() -> argparse.ArgumentParser:
    parser = _Parser(prog="dptheory",
                     description="Theorems of DP non-convex optimization, executable and checked.")
    sub = parser.add_subparsers(dest="command", metavar="COMMAND", parser_class=_Parser)
    for name in COMMAND_MODULES:
        try:
            module = importlib.import_module(f"dptheory.cli.{name}")
        except ModuleNotFoundError as exc:   # a command module not yet present
            if exc.name == f"dptheory.cli.{name}":
                continue
            raise
        module.register(sub)
    return parser


def _jsonable(obj: Any) -> Any:
    try:
        import numpy as np
        if isinstance(obj, np.generic):
            return obj.item()
        if isinstance(obj, np.ndarray):
            return obj.tolist()
    except ImportError:  # pragma: no cover - numpy is a dependency
        pass
    return str(obj)


def main(argv: Sequence[str] | None = None) -> int:
    parser = build_parser()
    args = parser.parse_args(argv)
    if getattr(args, "handler", None) is None:
        parser.print_help()
        return 2
    try:
        data, text = args.handler(args)
    except ValueError as exc:
        msg = str(exc).splitlines()[0] if str(exc) else type(exc).__name__
        print(f"dptheory {args.command}: error: {msg}", file=sys.stderr)
        return 2
    except KeyboardInterrupt:
        print(f"dptheory {args.command}: interrupted", file=sys.stderr)
        return 130
    if args.json:
        print(json.dumps(data, indent=2, default=_jsonable))
    else:
        print(text)
    return 0


if __name__ == "__main__":  # pragma: no cover
    sys.exit(main())
