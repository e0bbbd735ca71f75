"""``dptheory account | calibrate | routes``: numeric privacy accounting from the shell."""

from __future__ import annotations

import argparse
import math
from typing import Any


from dptheory.budget import (DEFAULT_MAX_MEMORY_GB, MEMORY_ENV, accountant_memory, check_memory,
                             max_memory_bytes)
from dptheory.cli import add_command
from dptheory.errors import UsageError

# The accountant (NumPy, SciPy, dp-accounting) loads inside the handlers, and the option
# choices come from the plain constants of dptheory.vocabulary: `dptheory --help` stays fast.
from dptheory.vocabulary import ACCOUNTANTS, CONTRIBUTIONS, RELATIONS

__all__ = ["register", "compute_routes"]


def _accountant(call: Any, options: str) -> Any:
    """``call()``, with the accountant's numeric failures turned into one usage line."""
    try:
        return call()
    except ArithmeticError as exc:
        raise UsageError(f"the accountant cannot evaluate {options} ({exc}); use values "
                         "in a moderate range") from None


def _down(x: float) -> str:
    """``x`` to 6 significant digits, rounded towards -infinity (a lower end stays below)."""
    return _directed(x, math.floor)


def _up(x: float) -> str:
    """``x`` to 6 significant digits, rounded towards +infinity (an upper end stays above)."""
    return _directed(x, math.ceil)


def _directed(x: float, rnd: Any) -> str:
    if not math.isfinite(x) or x == 0:
        return f"{x:g}"
    e = math.floor(math.log10(abs(x))) - 5
    return f"{rnd(x / 10.0 ** e) * 10.0 ** e:.6g}"


def _check_tight_args(args: argparse.Namespace) -> None:
    if args.orders is not None or args.conversion != "improved":
        raise ValueError("--orders and --conversion belong to the RDP route; drop them with "
                         "--tight")


def _account(args: argparse.Namespace) -> tuple[dict[str, Any], str]:
    from dptheory.privacy.calibrate import get_epsilon_and_order, get_epsilon_interval
    q = 1.0 if args.sample_rate is None else args.sample_rate
    if args.orders is not None:
        bad = [a for a in args.orders if not (math.isfinite(a) and a > 1)]
        if bad:
            raise ValueError(f"--orders must be finite numbers > 1, got {bad[0]:g}")
        check_memory(accountant_memory(args.orders, args.sampling),
                     max_memory_bytes(args.max_memory),
                     f"RDP accounting at order {max(args.orders):g}", "use smaller --orders")
    what = (f"{args.steps} steps of the Gaussian (noise multiplier {args.noise_multiplier})"
            if q == 1.0 else
            f"{args.steps} steps of the {args.sampling}-sampled Gaussian "
            f"(q={q}, noise multiplier {args.noise_multiplier})")
    if args.tight:
        _check_tight_args(args)
        iv = _accountant(lambda: get_epsilon_interval(
            noise_multiplier=args.noise_multiplier, target_delta=args.delta, sample_rate=q,
            steps=args.steps, sampling=args.sampling, relation=args.relation,
            contributions=args.contributions),
            f"--noise-multiplier {args.noise_multiplier:g} with --sample-rate {q:g}")
        data = {**iv.as_dict(), "noise_multiplier": args.noise_multiplier, "sample_rate": q,
                "steps": args.steps, "sampling": args.sampling if q < 1 else "none",
                "accountant": "tight"}
        # lower end rounded down, upper end up, at the printed precision
        text = (f"{what}, {iv.relation}: true eps in [{_down(iv.lower)}, {_up(iv.upper)}] at "
                f"delta={args.delta:g} (certified: {iv.certified})\n"
                f"  model: {iv.model}\n"
                f"  upper: {iv.upper_method}\n  lower: {iv.lower_method}")
        return data, text
    if args.contributions is not None:
        raise ValueError("--contributions belongs to the tight accountant; add --tight")
    if args.relation not in (None, "add-remove"):
        raise ValueError("--relation replace-one needs --tight (the RDP route accounts "
                         "Poisson sampling under add/remove and fixed-size under replace-one)")
    eps, order = _accountant(lambda: get_epsilon_and_order(
        noise_multiplier=args.noise_multiplier, target_delta=args.delta, sample_rate=q,
        steps=args.steps, sampling=args.sampling, conversion=args.conversion,
        orders=args.orders),
        f"--noise-multiplier {args.noise_multiplier:g} with --sample-rate {q:g}")
    data = {"epsilon": eps, "delta": args.delta, "order": order,
            "noise_multiplier": args.noise_multiplier, "sample_rate": q, "steps": args.steps,
            "sampling": args.sampling if q < 1 else "none", "conversion": args.conversion,
            "accountant": "rdp"}
    text = (f"{what}: (eps={eps:.6g}, delta={args.delta:g})-DP "
            f"[RDP, {args.conversion} conversion, optimal order {order:g}]")
    return data, text


def _calibrate(args: argparse.Namespace) -> tuple[dict[str, Any], str]:
    from dptheory.privacy.calibrate import get_epsilon_and_order, get_noise_multiplier
    if args.epochs is not None:
        steps = args.epochs / args.sample_rate if args.sample_rate > 0 else math.inf
        if not (math.isfinite(args.epochs) and args.epochs > 0 and steps < 2 ** 53):
            raise UsageError(f"--epochs must be > 0 and give fewer than 2^53 steps at "
                             f"--sample-rate {args.sample_rate:g}, got {args.epochs:g}")
    what = (f"--target-epsilon {args.target_epsilon:g} with --target-delta "
            f"{args.target_delta:g} and --sample-rate {args.sample_rate:g}")
    kw = dict(target_delta=args.target_delta, sample_rate=args.sample_rate, steps=args.steps,
              epochs=args.epochs, sampling=args.sampling)
    if args.accountant == "tight" and args.conversion != "improved":
        raise ValueError("--conversion belongs to the RDP accountant; drop it with "
                         "--accountant tight")
    sigma = _accountant(lambda: get_noise_multiplier(
        target_epsilon=args.target_epsilon, accountant=args.accountant,
        conversion=args.conversion, **kw), what)
    eps, order = _accountant(lambda: get_epsilon_and_order(
        noise_multiplier=sigma, accountant=args.accountant, conversion=args.conversion, **kw),
        what)
    data = {"noise_multiplier": sigma, "epsilon": eps,
            "order": None if math.isnan(order) else order,
            "target_epsilon": args.target_epsilon, "target_delta": args.target_delta,
            "sample_rate": args.sample_rate, "steps": args.steps, "epochs": args.epochs,
            "sampling": args.sampling, "conversion": args.conversion,
            "accountant": args.accountant}
    how = f"order {order:g}" if args.accountant == "rdp" else "tight accountant's upper end"
    text = (f"noise multiplier {sigma:.6g} gives (eps={eps:.6g}, delta={args.target_delta:g})-DP "
            f"(target eps {args.target_epsilon:g}, {how})")
    if args.accountant == "tight":
        rdp = _accountant(lambda: get_noise_multiplier(
            target_epsilon=args.target_epsilon, accountant="rdp", **kw), what)
        data["noise_multiplier_rdp"] = rdp
        data["saving"] = 1.0 - sigma / rdp
        text += (f"\n  RDP needs noise multiplier {rdp:.6g}: the tight accountant saves "
                 f"{100 * (1 - sigma / rdp):.3g}% of the noise")
    return data, text


def compute_routes(noise_multiplier: float, sample_rate: float, steps: int,
                   delta: float) -> list[dict[str, Any]]:
    """Every accounting route for T steps of the q-sampled Gaussian, side by side.

    Each row is ``{route, epsilon, delta, note}``; ``epsilon`` is None when the route does
    not apply (its note says why).
    """
    from dptheory.privacy.calibrate import get_epsilon_and_order, get_epsilon_interval
    from dptheory.privacy.composition import (advanced_composition_dwork_roth, amplify_tight,
                                              amplify_wang2020, amplify_zhang2017,
                                              zhang2017_strong_composition_printed)
    from dptheory.privacy.conversions import zcdp_to_dp
    from dptheory.privacy.gaussian import (_check_count, _check_positive, _check_rate,
                                           _check_unit_open, gaussian_epsilon)
    S = _check_positive("noise_multiplier", noise_multiplier)
    q = _check_rate("sample_rate", sample_rate)
    T = _check_count("steps", steps)
    d = _check_unit_open("delta", delta)
    rows: list[dict[str, Any]] = []

    def add(route: str, eps: float | None, dl: float, note: str) -> None:
        rows.append({"route": route, "epsilon": None if eps is None else float(eps),
                     "delta": float(dl), "note": note})

    for sampling in ("poisson", "fixed-size"):
        iv = get_epsilon_interval(noise_multiplier=S, target_delta=d, sample_rate=q, steps=T,
                                  sampling=sampling)
        rows.append({"route": f"tight/{sampling}", "epsilon": iv.upper, "delta": d,
                     "epsilon_lower": iv.lower,
                     "note": f"true eps in [{iv.lower:.6g}, {iv.upper:.6g}] ({iv.relation}); "
                             f"upper: {iv.upper_method}"})
        for conv in ("improved", "mironov"):
            e, o = get_epsilon_and_order(noise_multiplier=S, target_delta=d, sample_rate=q,
                                         steps=T, sampling=sampling, conversion=conv)
            rel = "add/remove" if sampling == "poisson" else "substitution"
            add(f"rdp/{sampling}/{conv}", e, d, f"exact subsampled RDP ({rel}), order {o:g}")
    rho = T * (1.0 / S) ** 2 / 2.0          # not T / (2 S^2): S^2 overflows for S > 1e154
    add("zcdp/no-amplification", zcdp_to_dp(rho, d), d,
        "rho = T/(2 sigma^2), Bun-Steinke conversion (wang2020 Lemmas 3-5); ignores sampling")

    # wang2020: per step delta/(2T), Lemma 2 amplification, Lemma 1 / Dwork-Roth with delta' = delta/2
    d0 = d / (2 * T)
    e0 = gaussian_epsilon(d0, sigma=S)
    if e0 > 0:
        ea, da = amplify_wang2020(e0, d0, q)
        e, dt = advanced_composition_dwork_roth(ea, T, d / 2, da)
        add("advanced-composition/wang2020", e, dt,
            f"per step exact Gaussian eps {e0:.4g} at delta/(2T); (2 q eps, delta) amplification "
            "(valid for eps <= 1 only); Dwork-Roth composition")
    else:
        add("advanced-composition/wang2020", None, d, "per-step eps is 0")
    # zhang2017: per step delta0 with T q delta0 = delta/2; Lemma 9 then Lemma 10 (printed and DR)
    d0z = d / (2 * T * q)
    e0z = gaussian_epsilon(d0z, sigma=S) if d0z < 1 else 0.0
    if d0z < 1 and e0z == 0:
        for route in ("zhang2017-printed", "zhang2017-dwork-roth", "tight-amplification"):
            add(f"advanced-composition/{route}", 0.0, d,
                "per-step eps is 0 at delta0 = delta/(2Tq): the composition's eps is 0")
    elif d0z < 1:
        e0 = e0z
        ea, da = amplify_zhang2017(e0, d0z, q)
        if ea > 0:
            e, dt = zhang2017_strong_composition_printed(ea, T, d / 2, da)
            add("advanced-composition/zhang2017-printed", e, dt,
                "Lemma 9 (2 q eps, q delta) amplification, Lemma 10 as printed (eps inside sqrt)")
            e, dt = advanced_composition_dwork_roth(ea, T, d / 2, da)
            add("advanced-composition/zhang2017-dwork-roth", e, dt,
                "Lemma 9 amplification, Dwork-Roth Thm 3.20 composition")
            et, dt2 = amplify_tight(e0, d0z, q)
            e, dt = advanced_composition_dwork_roth(et, T, d / 2, dt2)
            add("advanced-composition/tight-amplification", e, dt,
                "log(1 + q(e^eps - 1)) amplification (Balle et al. 2018), Dwork-Roth composition")
    else:
        add("advanced-composition/zhang2017-printed", None, d,
            "per-step delta delta/(2Tq) >= 1: route does not apply")
    eps_classic = math.sqrt(2 * math.log(1.25 / d)) / S
    add("classic-gaussian/per-step", eps_classic, d,
        "ONE step, sigma = sqrt(2 ln(1.25/delta))/eps inverted; Dwork-Roth proves it only for eps < 1")
    add("exact-gaussian/per-step", gaussian_epsilon(d, sigma=S), d,
        "ONE step, exact privacy curve (Balle-Wang 2018), no sampling")
    return rows


def _routes(args: argparse.Namespace) -> tuple[list[dict[str, Any]], str]:
    rows = _accountant(lambda: compute_routes(args.noise_multiplier, args.sample_rate,
                                              args.steps, args.delta),
                       f"--noise-multiplier {args.noise_multiplier:g} with --sample-rate "
                       f"{args.sample_rate:g}")
    w = max(len(r["route"]) for r in rows)
    lines = [f"{'route':<{w}}  {'epsilon':>12}  {'delta':>10}  note"]
    for r in rows:
        e = "n/a" if r["epsilon"] is None else f"{r['epsilon']:.6g}"
        lines.append(f"{r['route']:<{w}}  {e:>12}  {r['delta']:>10.3g}  {r['note']}")
    return rows, "\n".join(lines)


def register(sub: Any) -> None:
    """Register the accounting commands (account, calibrate, routes) on ``sub``."""
    p = add_command(sub, "account", _account,
                    "epsilon of T steps of the (subsampled) Gaussian by RDP accounting, or "
                    "both ends of the true epsilon with --tight")
    p.add_argument("--noise-multiplier", type=float, required=True)
    p.add_argument("--sample-rate", type=float, default=None,
                   help="sampling rate q; omit for the plain Gaussian")
    p.add_argument("--steps", type=int, required=True)
    p.add_argument("--delta", type=float, required=True)
    p.add_argument("--sampling", choices=("poisson", "fixed-size"), default="poisson")
    p.add_argument("--orders", type=float, nargs="+", default=None)
    p.add_argument("--max-memory", type=float, default=None, metavar="GB",
                   help=f"refuse --orders estimated to need more memory, in GiB (default "
                        f"${MEMORY_ENV} or {DEFAULT_MAX_MEMORY_GB:g})")
    p.add_argument("--conversion", choices=("improved", "mironov"), default="improved")
    p.add_argument("--tight", action="store_true",
                   help="certified lower and upper ends of the true epsilon (PLD, dp-accounting)")
    p.add_argument("--relation", choices=RELATIONS, default=None,
                   help="neighbouring relation (default: add-remove for Poisson, replace-one "
                        "for fixed-size); the noise multiplier is relative to its sensitivity")
    p.add_argument("--contributions", choices=CONTRIBUTIONS, default=None,
                   help="replace-one with Poisson sampling: 'any' (default: only the distance "
                        "between two records' contributions is bounded; the worst case) or "
                        "'centred' (contributions within half the sensitivity of the absent "
                        "record's, as DP-SGD with clipping)")

    p = add_command(sub, "calibrate", _calibrate,
                    "smallest noise multiplier reaching a target (epsilon, delta)")
    p.add_argument("--target-epsilon", type=float, required=True)
    p.add_argument("--target-delta", type=float, required=True)
    p.add_argument("--sample-rate", type=float, required=True)
    g = p.add_mutually_exclusive_group(required=True)
    g.add_argument("--steps", type=int)
    g.add_argument("--epochs", type=float)
    p.add_argument("--sampling", choices=("poisson", "fixed-size"), default="poisson")
    p.add_argument("--conversion", choices=("improved", "mironov"), default="improved")
    p.add_argument("--accountant", choices=ACCOUNTANTS, default="rdp",
                   help="rdp, or tight: the certified upper end of the tight accountant "
                        "(smaller noise for the same guarantee)")

    p = add_command(sub, "routes", _routes,
                    "every accounting route for the same schedule, side by side")
    p.add_argument("--noise-multiplier", type=float, required=True)
    p.add_argument("--sample-rate", type=float, required=True)
    p.add_argument("--steps", type=int, required=True)
    p.add_argument("--delta", type=float, required=True)
