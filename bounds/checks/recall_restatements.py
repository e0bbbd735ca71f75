"""One quantity, one expression: a rate stated twice (introduction vs remark vs theorem, or
one paper quoting another) must be the same function of the growing quantities.

:data:`RESTATEMENTS` pairs two catalog expressions that state the same quantity for the same
algorithm. The check divides them (constants set to 1: an O(.) may hide them) and asks
SymPy whether the ratio depends on a growing quantity (n, d, eps, delta, alpha): if it does,
the two statements disagree on the rate (refuted, graded by the pair's ``severity``) — or,
when the two come from different papers and the source they both quote is not in the
catalog, the disagreement is undecided (inconclusive: which one misquotes needs the source).
A ratio free of them is supported (a symbolic identity; any dependence would be refuted).
"""

from __future__ import annotations

from dataclasses import dataclass

import sympy as sp

from dptheory import registry
from dptheory.verify import Check, CheckResult

#: The growing quantities of the rate algebra (a ratio depending on one is a disagreement).
GROWING = ("n", "d", "eps", "delta", "alpha")


@dataclass(frozen=True)
class Restatement:
    """Two statements of one quantity: ``(item, expression name or "rate", transform)``;
    ``transform`` maps the expression first (e.g. a square root for a squared norm)."""

    name: str
    quantity: str
    a: tuple[str, str]
    b: tuple[str, str]
    severity: str = "notation"
    root: str = ""
    source_available: bool = True     # False: both quote a source outside the catalog
    power_b: sp.Rational = sp.Rational(1)
    consequence: str = ""


RESTATEMENTS: tuple[Restatement, ...] = (
    Restatement("P-1", "population risk of DP-GLD [Wang et al. 2019a], as quoted in the "
                "introduction (P-1) and in Remark 6", ("zhang2021.intro.P1", "rate"),
                ("zhang2021.remark6", "P1_remark6"), root="zhang2021:P-1-P-2-quoted-twice"),
    Restatement("P-2", "population risk of DP Frank-Wolfe [Wang et al. 2019a] (P-2)",
                ("zhang2021.intro.P2", "rate"), ("zhang2021.remark6", "P2_remark6"),
                root="zhang2021:P-1-P-2-quoted-twice"),
    Restatement("P-2-l1", "P-2 on the l1 ball", ("zhang2021.intro.P2", "l1_ball"),
                ("zhang2021.remark6", "P2_l1_remark6"), root="zhang2021:P-1-P-2-quoted-twice"),
    Restatement("zhang2017-c", "the strongly convex DP-ERM rate of [Zhang et al. 2017] as "
                "quoted in Sec. 1.1 (printed with an undefined c) and in Remark 3",
                ("zhang2021.intro.zhang2017", "rate"), ("zhang2021.remark3", "rate"),
                root="zhang2021.intro.zhang2017:c-for-eps",
                consequence="a misprint: Sec. 1.1's O(d log(1/delta)/(n^2 c^2)) has an undefined "
                "c where Remark 3 (and zhang2017) have eps"),
    Restatement("RRSGD", "RRPSGD's gradient norm as quoted by tran2022 vs zhang2017 Theorem 5 "
                "(a squared norm: square root)", ("tran2022.intro.RRSGD", "rate"),
                ("zhang2017.thm5", "rate"), power_b=sp.Rational(1, 2)),
    Restatement("abstract-thm9", "tran2022's headline rate vs Theorem 9",
                ("tran2022.abstract", "rate"), ("tran2022.thm9", "rate_private")),
    Restatement("abstract-thm9-full", "tran2022's headline gradient norm (abstract, "
                "contributions, conclusion) vs Theorem 9's rate, which has a + 1/sqrt(N) term",
                ("tran2022.abstract", "rate"), ("tran2022.thm9", "rate"), severity="rate",
                root="tran2022.abstract:drops-1/sqrt(N)",
                consequence="the headline O~(d^(1/3)/(eps N)^(2/3)) follows from Theorem 9 only "
                "where 1/sqrt(N) is dominated, i.e. d >= eps^2 sqrt(N); e.g. at d = 10, eps = 1, "
                "N = 1e6 Theorem 9's 1/sqrt(N) term is 4.6x the headline"),
    Restatement("DPSRM-factor", "DP-SRM's improvement factor over RRSGD: as Sec. 4 states it "
                "(log(n/delta)) vs the ratio of the introduction's two quotes",
                ("tran2022.sec4.claims", "c1_DPSRM_factor_claimed"),
                ("tran2022.sec4.claims", "c1_ratio_of_quotes"),
                root="tran2022.sec4.claims:DPSRM-factor",
                consequence="a description of prior work: the paper's own quotes differ by "
                "(log(n/delta))^(1/4), not log(n/delta)"),
    Restatement("related-thm2", "DP-TR's sample complexity in Sec. 2 vs Theorem 2's (5)",
                ("wang2020.related", "rate"), ("wang2020.thm2", "rate_no_zeta")),
    Restatement("remark1-fixed-n", "DP-TR's accuracy at fixed n (Remark 1) vs (5) solved for "
                "alpha", ("wang2020.remark1", "rate"), ("wang2020.related", "alpha_fixed_n")),
    Restatement("table1-thm5", "RRPSGD's E||grad F(w_priv)||^2: Table 1's nonconvex cell vs "
                "Theorem 5's rate", ("zhang2017.table1", "ours_nonconvex_utility"),
                ("zhang2017.thm5", "rate"), root="zhang2017.table1:nonconvex-vs-thm5",
                consequence="Table 1's sqrt(d) log(n/delta)/(n eps) exceeds Theorem 5's "
                "sqrt(d log(n/delta) log(1/delta))/(n eps) by sqrt(1 + log n/log(1/delta)), "
                "unbounded in n: the table understates the paper's own result (valid, looser)"),
    Restatement("wang2019a", "the excess empirical risk of DP-GLD [Wang et al. 2019a] as quoted "
                "by wang2020 and by zhang2021 (E-1)", ("wang2020.intro.wang2019a", "rate"),
                ("zhang2021.intro.E1", "rate"), source_available=False),
)


def _expr(ref: tuple[str, str]) -> sp.Expr:
    item_id, name = ref
    item = registry.get(item_id)
    if name == "rate":
        return item.rate
    if name == "rate_private":           # the private term of a rate O(a + 1/sqrt(n))
        return next(t for t in sp.Add.make_args(item.rate)
                    if any(str(s) in ("eps", "d") for s in t.free_symbols))
    if name == "rate_no_zeta":           # (5) without its ln(1/zeta), which Sec. 2 drops
        return item.rate.subs({s: sp.exp(-1) for s in item.rate.free_symbols
                               if str(s) == "w20_zeta"})
    return item.expressions[name]


def _restatement_check(r: Restatement) -> CheckResult:
    a = _expr(r.a)
    b = _expr(r.b) ** r.power_b
    consts = {s: 1 for s in (a.free_symbols | b.free_symbols) if str(s) not in GROWING}
    # split powers of products (x y)^(1/4) -> x^(1/4) y^(1/4): the ratio of two quoted
    # factors then cancels to a single power (log(n/delta)^(3/4), not a log of a power)
    ratio = sp.simplify(sp.expand_power_base((a / b).subs(consts), force=True))
    depends = sorted(str(s) for s in ratio.free_symbols if str(s) in GROWING)
    ev = {"quantity": r.quantity, "a": f"{r.a[0]} [{r.a[1]}]: {sp.sstr(a)}",
          "b": f"{r.b[0]} [{r.b[1]}]: {sp.sstr(b)}", "constants_set_to_1": sorted(map(str, consts)),
          "ratio_a_over_b": sp.sstr(ratio), "depends_on": depends}
    # the same ratio with the constants at 1/4 and at 4 (all together): the verdict judges
    # the growing quantities (an O(.) hides constants), but a ratio that moves with them
    # says the two statements also differ in a constant's power
    at = {}
    for v in (sp.Rational(1, 4), sp.Integer(4)):
        r_v = sp.simplify(sp.expand_power_base((a / b).subs({s: v for s in consts}), force=True))
        at[str(v)] = sp.sstr(sp.simplify(r_v / ratio))
    ev["ratio_change_with_constants"] = at
    ev["constants_varied"] = [f"{', '.join(sorted(map(str, consts))) or 'none'}: 1/4, 1, 4 "
                              f"together (ratio at 1/4 and 4 over the ratio at 1: "
                              f"{at['1/4']}, {at['4']})"] if consts else [
        "none: both statements are free of problem constants"]
    if not depends:
        return CheckResult("supported", f"{r.name}: the two statements agree up to constants "
                           f"(ratio {sp.sstr(ratio)})", ev, claim="identity", power={
                               "statement": "symbolic: a ratio depending on any of "
                                            f"{GROWING} would be refuted"})
    for v in depends:   # how far apart at a sample point
        ev[f"ratio_at_{v}"] = {str(x): sp.sstr(sp.N(ratio.subs({s: 2 for s in ratio.free_symbols
                                                                 if str(s) != v})
                                                    .subs({s: x for s in ratio.free_symbols}), 4))
                               for x in (10, 10 ** 4)}
    if not r.source_available:
        return CheckResult("inconclusive", f"{r.name}: {r.a[0]} and {r.b[0]} quote one result "
                           f"with different rates (ratio {sp.sstr(ratio)}); which one misquotes "
                           "needs the cited paper", ev, claim="identity")
    return CheckResult(
        "refuted", f"{r.name}: {r.quantity} is stated twice with different rates: "
        f"{sp.sstr(a)} vs {sp.sstr(b)} (ratio {sp.sstr(ratio)} depends on {', '.join(depends)})",
        ev, claim="identity", severity=r.severity, root=r.root or f"{r.a[0]}:{r.name}",
        consequence=r.consequence or "one of the two statements misquotes the result; the "
        "paper's comparison with it depends on which one is meant")


CHECKS: list[Check] = [
    Check.of(r.b[0] if r.b[0].split(".")[0] == r.a[0].split(".")[0] and "remark" in r.b[0]
             else r.a[0], f"restated-{r.name}", "property",
             (lambda r=r: _restatement_check(r)), r.quantity)
    for r in RESTATEMENTS]

__all__ = ["CHECKS", "GROWING", "RESTATEMENTS", "Restatement"]
