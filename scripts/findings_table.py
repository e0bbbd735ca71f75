"""Markdown table of `dptheory findings --json` (one row per finding, most severe first).

The findings tables of README.md and docs/guide/findings.md are generated with

    dptheory findings --json --store dptheory-report/results.sqlite > findings.json
    python scripts/findings_table.py findings.json
"""

from __future__ import annotations

import json
import sys

from dptheory import registry
from dptheory.symbolic.symbols import humanize

ORDER = ["privacy", "bound", "rate", "hypothesis", "proof", "notation"]


def main(path: str) -> None:
    """Print the table and the count per severity."""
    registry.items()                      # the catalog's symbols, for humanize
    rows = json.load(open(path))["findings"]
    rows.sort(key=lambda f: (ORDER.index(f["severity"]) if f["severity"] in ORDER else 9, f["id"]))
    print("| severity | finding (root) | what is false, with its evidence |")
    print("|---|---|---|")
    for f in rows:
        s = humanize(" ".join(f["summary"].split())).replace("|", "\\|")
        print(f"| {f['severity']} | `{f['root'] or f['id']}` | {s} |")
    print()
    print(f"{len(rows)} findings:",
          ", ".join(f"{sum(1 for f in rows if f['severity'] == k)} {k}" for k in ORDER))


if __name__ == "__main__":
    main(sys.argv[1])
