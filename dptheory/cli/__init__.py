"""The ``dptheory`` command line.

Every command is registered by a module of this package through ``register(sub)`` and
returns ``(data, text)``: ``data`` is printed with ``--json`` as strict JSON (NaN and
infinities become null with the reason beside them, :mod:`dptheory.cli.jsonout`), ``text``
is the human rendering.

:func:`main` is the one error boundary. A failure that is the user's (a bad value, an
impossible request, a resource limit, an unwritable path, a damaged store, a closed pipe,
a full disk; see :func:`dptheory.errors.describe_failure`) prints one line on stderr and
exits with code 2. Anything else is a bug: one line and exit code 1, with the traceback
under ``--debug``. No traceback reaches the user otherwise.

What belongs here: argument parsing and rendering, one module per command family, and no
computation of its own: a handler calls the API (``catalog``, ``registry``, ``symbolic``,
``privacy``, ``verify``, ``store``, ...) and renders what it returns. The top layer: it may
import any of dptheory, and nothing in dptheory imports it (``dptheory/__main__`` aside).
Command modules import only argparse-level code at the top and the rest inside their
handlers, so that ``dptheory --help`` and ``dptheory list`` start fast.
"""

from __future__ import annotations

import argparse
import importlib
import os
import sys
import traceback
import warnings
from typing import Any, Callable, Sequence

from dptheory.cli.jsonout import dumps_strict
from dptheory.errors import describe_failure

# Command modules, each exposing register(subparsers). Order = order in --help. They import
# only argparse-level code at the top; SymPy, SciPy and the catalogs load inside the handlers,
# so `dptheory --help` and `dptheory list` start fast.
COMMAND_MODULES = ("catalog", "privacy", "objectives", "simulate", "sweep", "reproduce", "verify",
                   "audit", "store")
# Commands that draw their own progress bar (the others get a heartbeat after 3 s).
OWN_PROGRESS = ("verify", "audit", "derive", "table", "reproduce", "sweep")


class _Parser(argparse.ArgumentParser):
    """argparse exits with 2 on usage errors already; keep its message to one line.

    Abbreviated long options are refused (``--data`` must not silently mean
    ``--data-seed``).
    """

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        kwargs["allow_abbrev"] = False
        super().__init__(*args, **kwargs)

    def error(self, message: str) -> None:  # noqa: D401 - argparse API
        one_line = " ".join(message.split("\n"))
        self.exit(2, f"{self.prog}: error: {one_line}\n")


def add_command(sub: Any, name: str, handler: Callable[[argparse.Namespace], tuple[Any, str]],
                help: str) -> argparse.ArgumentParser:
    """Add a sub-command with the common ``--json`` and ``--debug`` flags;
    ``handler(args) -> (data, text)``."""
    p = sub.add_parser(name, help=help, description=help)
    p.add_argument("--json", action="store_true", help="print machine-readable JSON")
    p.add_argument("--debug", action="store_true", default=argparse.SUPPRESS,
                   help="print the traceback of an internal error")
    p.set_defaults(handler=handler)
    return p


def build_parser() -> argparse.ArgumentParser:
    """The ``dptheory`` parser: global ``--debug`` and ``--version``, then the sub-commands
    that each module of :data:`COMMAND_MODULES` registers (a module not present is skipped)."""
    parser = _Parser(prog="dptheory",
                     description="Theorems of DP non-convex optimization, executable and checked.")
    parser.add_argument("--debug", action="store_true",
                        help="print the traceback of an internal error")
    from dptheory import __version__
    parser.add_argument("--version", action="version", version=f"dptheory {__version__}")
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


def render_json(data: Any) -> str:
    """The ``--json`` rendering of a command's data: strict JSON."""
    return dumps_strict(data)


def emit(text: str) -> None:
    """Write ``text`` and a newline to stdout and flush, so a closed pipe or a full disk
    raises here (inside the error boundary) and not at interpreter exit."""
    try:
        sys.stdout.write(text + "\n")
        sys.stdout.flush()
    except OSError:
        _silence_stdout()
        raise


def _silence_stdout() -> None:
    """After a failed write: point stdout at /dev/null so the interpreter's final flush of
    what is still buffered cannot fail again (Python's documented BrokenPipe recipe)."""
    try:
        devnull = os.open(os.devnull, os.O_WRONLY)
        os.dup2(devnull, sys.stdout.fileno())
    except (OSError, ValueError, AttributeError):
        pass


def _say(line: str) -> None:
    try:
        print(line, file=sys.stderr, flush=True)
    except (OSError, ValueError):
        pass


def main(argv: Sequence[str] | None = None) -> int:
    """Run the command line on ``argv`` (default ``sys.argv[1:]``) and return the exit code.

    The one error boundary: 0 on success, 2 for a usage error or a failure that is the
    user's (one line on stderr), 1 for a bug (one line; the traceback with ``--debug``), 130
    on Ctrl-C. Warnings are collected and summarised in one line unless ``--debug``."""
    argv = list(sys.argv[1:] if argv is None else argv)
    parser = build_parser()
    args = parser.parse_args(argv)
    if getattr(args, "handler", None) is None:
        parser.print_help()
        return 2
    debug = bool(getattr(args, "debug", False))
    try:
        with warnings.catch_warnings(record=not debug) as caught:
            if not debug:
                warnings.simplefilter("always")
            from dptheory.progress import Heartbeat
            if args.command in OWN_PROGRESS:
                data, text = args.handler(args)
            else:
                with Heartbeat(f"dptheory {args.command}"):
                    data, text = args.handler(args)
        emit(render_json(data) if args.json else text)
        if caught:
            # numeric warnings (overflow, invalid values) would spill many lines on stderr;
            # the output already shows what became of them (inf, nan, null)
            kinds = sorted({w.category.__name__ for w in caught})
            _say(f"dptheory {args.command}: warning: {len(caught)} warnings "
                 f"({', '.join(kinds)}) during the computation; --debug shows them")
    except KeyboardInterrupt:
        _say(f"dptheory {args.command}: interrupted")
        return 130
    except SystemExit:
        raise
    except BaseException as exc:  # noqa: BLE001 - the one error boundary
        if debug:
            traceback.print_exc()
        line = describe_failure(exc, argv)
        if line is not None:
            _say(f"dptheory {args.command}: error: {line}")
            return 2
        _say(f"dptheory {args.command}: internal error: {type(exc).__name__}: "
             f"{str(exc).strip().splitlines()[0] if str(exc).strip() else ''} "
             "(a bug: rerun with --debug for the traceback and report it)")
        return 1
    return 0


if __name__ == "__main__":  # pragma: no cover
    sys.exit(main())
