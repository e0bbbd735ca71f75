"""``dptheory objectives``: the objective families and their certified constants.

``dptheory`` does not import ``simulations``: objective registries are found through the
``dptheory.objectives`` entry-point group (a module exposing ``FAMILIES`` and ``get``, and
optionally ``DEFAULT_N`` and ``certify``), so a researcher's package can add families. Until
the distribution registers that group, the bundled registry is located by module name.
"""

from __future__ import annotations

import argparse
from typing import Any

from dptheory.cli import add_command

# Random probes per certified inequality: the default is 128; above this it is a typo.
MAX_SAMPLES = 10 ** 5

def _registries() -> list[Any]:
    from dptheory.registry import OBJECTIVES_GROUP, objective_registries
    mods = list(objective_registries())
    if not mods:
        raise ValueError(f"no objective registry: register one in the {OBJECTIVES_GROUP!r} "
                         "entry-point group (is the package installed?)")
    return mods


def _families() -> dict[str, Any]:
    """{family name: registry module} over every registry (first registration wins)."""
    out: dict[str, Any] = {}
    for mod in _registries():
        for name in getattr(mod, "FAMILIES", {}):
            out.setdefault(name, mod)
    return out


def _handler(args: argparse.Namespace) -> tuple[Any, str]:
    families = _families()
    if args.name and args.name not in families:
        raise ValueError(f"unknown objective {args.name!r}; choose from {sorted(families)}")
    if not 1 <= args.samples <= MAX_SAMPLES:
        raise ValueError(f"--samples must be an integer in [1, {MAX_SAMPLES}], got {args.samples}")
    if args.seed < 0:
        raise ValueError(f"--seed must be >= 0, got {args.seed}")
    names = [args.name] if args.name else sorted(families)
    data_out, lines = [], []
    for name in names:
        reg = families[name]
        obj = reg.get(name)
        n = getattr(reg, "DEFAULT_N", {}).get(name, 20)
        data = obj.make_data(n, args.seed)
        assumptions = obj.assumptions(data)
        summary = (obj.__doc__ or "").strip().splitlines()[0] if obj.__doc__ else ""
        entry: dict[str, Any] = {
            "name": name, "params": obj.params(), "n": n, "seed": args.seed,
            "domain_radius": obj.domain_radius, "summary": summary,
            "assumptions": [a.as_dict() for a in assumptions],
        }
        lines.append(f"{name}  ({', '.join(f'{k}={v}' for k, v in obj.params().items())}; "
                     f"n={n}, seed={args.seed})")
        if summary:
            lines.append(f"  {summary}")
        lines += [f"    {a.describe()}" for a in assumptions]
        if args.certify:
            certify = getattr(reg, "certify", None) or next(
                m.certify for m in _registries() if hasattr(m, "certify"))
            rep = certify(obj, data, samples=args.samples, seed=args.seed)
            entry["certification"] = rep.as_dict()
            lines.append(f"  certification: {'CERTIFIED' if rep.certified else 'VIOLATED'}")
            lines += ["    " + ln for ln in rep.describe().splitlines()[1:]]
        data_out.append(entry)
    return data_out, "\n".join(lines)


def register(sub: Any) -> None:
    """Register ``dptheory objectives`` and its options on the sub-parsers ``sub``."""
    p = add_command(sub, "objectives", _handler,
                    "list the objective families with their certified constants")
    p.add_argument("--name", default=None, help="only this family")
    p.add_argument("--seed", type=int, default=0, help="seed of the default dataset (default 0)")
    p.add_argument("--certify", action="store_true",
                   help="also run the numerical certification (slower)")
    p.add_argument("--samples", type=int, default=128,
                   help="random probes per check with --certify (default 128)")
