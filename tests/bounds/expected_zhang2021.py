"""Expected derivation verdicts for zhang2021, derived by hand from the printed formulas.

Scale: n grows, d grows, eps shrinks (default scaling); eta0, T0, t0_Mon, t_Mon, varrho, B,
c2, c4, sigma, Fgap are constants (they do not grow with n).
"""

EXPECTED = {
    "zhang2021.thm3.2": {
        "verdict": "agrees",
        "regime": None,
        "why": ("K = log2(n^2 eps^2 theta^2 mu/(d L^2 log(1/delta))) makes 2^-K = d L^2 log(1/delta)/"
                "(theta^2 mu n^2 eps^2) exactly, so the bracket term is (rate)*(Fgap + const); the DP "
                "term is const*d log(1/delta)/(n^2 eps^2). Both are Theta(d/(n^2 eps^2)): same "
                "exponents as the rate in every regime (t_Mon read as a constant, as printed)."),
    },
    "zhang2021.thm3.2.corrected": {
        "verdict": "agrees",
        "regime": None,
        "why": ("2^-K (Fgap + const) + const*d L^2 log(1/delta)/(n^2 eps^2) (the DP term has no "
                "eta0 factor; Gamma_c = c4 theta/(theta - eta0 beta/2), M = 1 + 1/(2 T0) are "
                "constants): after 2^-K = d L^2 log/(theta^2 mu n^2 eps^2) both terms are "
                "Theta(d/(n^2 eps^2))."),
    },
    "zhang2021.thm3.4.route": {
        "verdict": "disagrees",
        "regime": None,
        "why": ("Stability part of the route = Thm 3.3 at Thm 3.2's K, with 2^K ~ n^2 eps^2/d -> oo "
                "wherever the rate decays (d < n^2 eps^2): term 1 ~ exp(2 varrho t0_Mon 2^K) grows "
                "super-polynomially (varrho t0_Mon > 0), term 3 (T^K+1)B/n ~ n eps^2/d grows at "
                "fixed d, eps, term 2 ~ (T^K)^q/n with q -> beta/(c4 theta mu) >> 1 for mu << 1. "
                "The stated max{d/(n^2 eps^2), n^-1/2} decays: no regime reconciles them."),
    },
    "zhang2021.thm3.3": {
        "verdict": "not-derivable",
        "regime": None,
        "why": "Explicit alpha printed but no stated rate to compare with.",
    },
    "zhang2021.thm3.4": {
        "verdict": "not-derivable",
        "regime": None,
        "why": "Only the O(max{...}) rate is printed; the explicit route is thm3.4.route.",
    },
    "zhang2021.thm3.1": {
        "verdict": "not-derivable",
        "regime": None,
        "why": "Noise calibration (lower bound on pi^2) without a stated rate.",
    },
}
