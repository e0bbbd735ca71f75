"""Same verdicts across a change: compare the verdict of every check id in two verify reports.
Not a test: run it on the report.json of a run before a change and of one after it.

    python benchmarks/verdict_diff.py before/report.json after/report.json

Prints each check id whose verdict differs (or that is in one report only) and the counts;
exits 1 when any verdict differs, so a speed-up that changes a verdict is caught.
"""
from __future__ import annotations

import json
import sys


def verdicts(path: str) -> dict[str, str]:
    """``{check id: verdict}`` of a report.json (``dptheory verify --json`` output works too)."""
    with open(path) as fh:
        data = json.load(fh)
    out: dict[str, str] = {}
    for v in data["verdicts"]:
        if v["id"] in out and out[v["id"]] != v["verdict"]:
            raise SystemExit(f"{path}: check id {v['id']} appears twice with different verdicts")
        out[v["id"]] = v["verdict"]
    return out


def main(argv: list[str]) -> int:
    if len(argv) != 2:
        print(__doc__.strip().splitlines()[3].strip(), file=sys.stderr)
        return 2
    a, b = verdicts(argv[0]), verdicts(argv[1])
    changed = [(k, a.get(k, "-"), b.get(k, "-")) for k in sorted(set(a) | set(b))
               if a.get(k) != b.get(k)]
    for k, x, y in changed:
        print(f"{k:<60} {x:>12} -> {y}")
    print(f"{len(a)} and {len(b)} verdicts; {len(changed)} differ")
    return 1 if changed else 0


if __name__ == "__main__":
    raise SystemExit(main(sys.argv[1:]))
