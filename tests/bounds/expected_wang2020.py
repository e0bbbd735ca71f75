"""Expected verdicts of ``dptheory.symbolic.derive`` for the derivable wang2020 items.

Hand derivations (scaling: alpha = s^-1 -> 0, p = d = s^b, 1/eps = s^c; logs, zeta, delta
and the problem constants G, M, rho, Delta are not growing).
"""

EXPECTED = {
    "wang2020.related": {
        "verdict": "agrees",
        "regime": None,
        "why": "bound and rate are the same printed p sqrt(ln 1/delta)/(alpha^1.75 eps): "
               "exponent b + c + 7/4 on both sides.",
    },
    "wang2020.thm2": {
        "verdict": "agrees",
        "regime": None,
        "why": "bound = rate = (5) = p ln(1/zeta) sqrt(ln 1/delta)/(alpha^1.75 eps); the "
               "settings r, T do not enter (5).",
    },
    "wang2020.thm2.noise": {
        "verdict": "agrees-loose",
        "regime": None,
        "why": "at T = 6 sqrt(rho) Delta/alpha^1.5 and phi ~ eps^2/(4 ln(1/delta)): gradient "
               "term ~ sqrt(p) alpha^-7/4/eps (exponent b/2 + c + 7/4, plus a log(1/alpha) "
               "part), Hessian term ~ p alpha^-5/4/eps (b + c + 5/4); the stated (5) has "
               "b + c + 7/4, strictly larger for b > 0: (5) is sufficient but loose by "
               "min(sqrt p, alpha^-1/2); exponents coincide only when p is fixed.",
    },
    "wang2020.remark1": {
        "verdict": "agrees",
        "regime": None,
        "why": "bound = rate = (p sqrt(ln 1/delta)/(n eps))^(4/7) (default scaling n, d grow, "
               "eps shrinks): exponents -4/7 in n, 4/7 in d, -4/7 in eps on both sides.",
    },
    "wang2020.thm4": {
        "verdict": "agrees",
        "regime": None,
        "why": "bound = rate = (5), same as wang2020.thm2; the subsample sizes are only "
               "hypotheses (see wang2020.thm4.corrected).",
    },
    "wang2020.thm4.corrected": {
        "verdict": "agrees-in-regime",
        "regime": "d*alpha**(1/4) >= eps",
        "why": "bound = G(rho Delta^2)^(1/4) (5) + G^2 ln(p/zeta)/alpha^2 + M^2 ln(p/zeta)/"
               "(alpha rho): exponents b + c + 7/4, 2, 1 (logs aside); the stated (5) leads "
               "iff b + c + 7/4 >= 2, i.e. p/eps >= alpha^-1/4.",
    },
    "wang2020.sec4.2.time": {
        "verdict": "agrees",
        "regime": None,
        "why": "T(|S| + |T|) Poly(p) = 6 sqrt(rho) Delta alpha^-1.5 (G^2 ln(p/zeta) alpha^-2 + "
               "M^2 ln(p/zeta)/(rho alpha)) Poly(p): leading alpha^-3.5 (the other term "
               "alpha^-2.5), matching Poly(p)/alpha^3.5 under the scaling alpha -> 0 only.",
    },
}
