"""Hand-derived verdicts for the derivable yang2022 items (bound and rate both present).

Derivations on paper, independent of the code. Notation: A_T = D_f L0 (1 + sigma^2 d/B^2)/T,
A = c2^2 D_f L0 d log(1/delta)/(N eps)^2 (the T -> oo limit of A_T at Lemma 3.1's sigma),
x_nv(r) = min{tau0/(1-tau1), tau0^2/((1-tau1)^2 r)} (constant in every growing variable).
Logs of 1/delta and constants are not scaled.
"""

EXPECTED = {
    "yang2022.thm3.2": {
        "verdict": "agrees",
        "regime": None,
        "why": "scaling T -> oo at fixed sigma: bound = k1 x_nv + k2 sqrt(M+r) A_T^{1/4} + "
               "k3 A_T^{1/2} with A_T ~ 1/T; the T^{-1/2} term is always dominated by the "
               "T^{-1/4} one, and rate = x_nv + sqrt(M+r) A_T^{1/4} keeps the other two.",
    },
    "yang2022.thm3.4": {
        "verdict": "agrees",
        "regime": None,
        "why": "scaling T -> oo: bound = k2 sqrt(C) A_T^{1/4} + k3 A_T^{1/2}, A_T ~ 1/T; "
               "T^{-1/2} <= T^{-1/4} eventually, leading term = rate sqrt(C) A_T^{1/4}.",
    },
    "yang2022.cor3.3": {
        "verdict": "agrees-in-regime",
        "regime": "d <= eps**2*n**2",
        "why": "bound = k1 x_nv + k2 sqrt(M+r) A^{1/4} + k3 A^{1/2}, A ~ d/(n eps)^2; rate "
               "drops the A^{1/2} term, which is dominated (by A^{1/4} and by the constant "
               "x_nv) iff A <~ 1, i.e. d <= (eps n)^2; otherwise bound ~ A^{1/2} >> rate.",
    },
    "yang2022.cor3.5": {
        "verdict": "agrees-in-regime",
        "regime": "d <= eps**2*n**2",
        "why": "bound = k2 sqrt(C) A^{1/4} + k3 A^{1/2}, A ~ d/(n eps)^2; exponents "
               "(b-2+2c)/4 vs (b-2+2c)/2 (n=s, d=s^b, 1/eps=s^c): the rate's A^{1/4} leads "
               "iff b - 2 + 2c <= 0, i.e. d <= (eps n)^2.",
    },
    "yang2022.abstract": {
        "verdict": "agrees-in-regime",
        "regime": "d <= eps**2*n**2",
        "why": "bound = DP-SGD limit k2 sqrt(C) A^{1/4} + k3 A^{1/2}; rate "
               "(d log(1/delta))^{1/4}/sqrt(n eps) = A^{1/4} up to constants; the A^{1/2} "
               "term leads iff d > (eps n)^2.",
    },
    "yang2022.abstract.nsgd.corrected": {
        "verdict": "agrees-in-regime",
        "regime": "d <= eps**2*n**2",
        "why": "at r* = (2a/b)^{2/3} ~ A^{-1/6}: a/r* ~ A^{1/6}, sqrt(r*) A^{1/4} ~ A^{1/6}, "
               "third term A^{1/2}; rate A^{1/6} leads iff A <~ 1, i.e. d <= (eps n)^2.",
    },
}
