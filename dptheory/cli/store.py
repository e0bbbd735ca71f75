"""``dptheory store check|repair FILE``: diagnose and recover a results store.

``check`` opens the file read-only, runs SQLite's integrity check and verifies every
finished cell's and every finding's checksum; it exits 0 when the store is sound and 2 (one
line) when not. ``repair`` moves the file aside (``FILE.damaged-<time>``) and writes a new
store with every cell and finding that still verifies; the next ``dptheory verify``
recomputes the rest.
"""

from __future__ import annotations

import argparse
from typing import Any

from dptheory.cli import add_command, emit, render_json


def register(sub: Any) -> None:
    """Register ``dptheory store check|repair`` on the sub-parsers ``sub``."""
    p = add_command(sub, "store", cmd_store, "check or repair a results store (SQLite file)")
    p.add_argument("action", choices=("check", "repair"))
    p.add_argument("file", metavar="FILE", nargs="?", default="dptheory-report/results.sqlite",
                   help="the store (default dptheory-report/results.sqlite)")


def cmd_store(args: argparse.Namespace) -> tuple[Any, str]:
    """Handler of ``dptheory store``: ``repair`` moves the file aside and keeps the cells that
    verify; ``check`` reports on the store and raises (exit code 2, after printing the
    details with ``--json``) when it is not sound."""
    from dptheory.store import check, repair
    if args.action == "repair":
        out = repair(args.file)
        return out, (f"moved {out['path']} to {out['moved_to']}; new store keeps {out['cells_kept']} "
                     f"verified cells of {out['runs']} runs and {out['findings']} verified "
                     f"findings, drops {out['dropped']} rows that fail their checksum (the next "
                     "run recomputes the rest)")
    out = check(args.file)
    if out["ok"]:
        return out, (f"{out['path']}: ok ({out['runs']} runs, {out['cells']} cells, every "
                     f"finished cell verifies; {out['events']} integrity events recorded)")
    # an unsound store is the user's problem to fix: the details, then one error line
    if args.json:
        emit(render_json(out))
    raise ValueError(out["problem"])
