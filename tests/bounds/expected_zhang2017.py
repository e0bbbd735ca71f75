"""Hand-derived expectations for ``derive(item)`` on zhang2017 (IJCAI 2017).

Derived on paper from the printed explicit bounds at the printed settings (Theta(.) read with
constant 1), in the scale coordinates n = s, d = s^b, eps = s^(-c) (b, c >= 0); logs are
polylog factors. Not copied from any code output.
"""

EXPECTED = {
    "zhang2017.thm2": {
        "verdict": "agrees-in-regime",
        "regime": "d <= eps*n",
        "why": "At T = kappa log X, X = mu^2 n^2 eps^2 D^2/(L^2 d^2), the exp term is (beta/2) D^2 "
               "X^(-r), r = 2(mu^2+beta^2)/(mu+beta)^2 >= 1 (> 1 unless mu = beta); noise term "
               "~ d^2/(n eps)^2 = rate. X^(-r) <= X^(-1) iff X >= 1 (T >= 0), i.e. d <= eps n.",
    },
    "zhang2017.thm2.eps": {
        "verdict": "agrees-in-regime",
        "regime": "d <= eps*n",
        "why": "Same as zhang2017.thm2 (part 1).",
    },
    "zhang2017.thm2.approx": {
        "verdict": "disagrees",
        "regime": None,
        "why": "Printed noise term 50 L^2 (mu+beta)^2 (d+1) d/(n^2 eps^2 mu^2 beta) ~ d^2/(n eps)^2 "
               "vs rate d log(1/delta)/(n eps)^2: d-exponent 2 vs 1, equal only on the face "
               "d = O(1); the exp term Y^(-r) (Y = mu^2 n^2 eps^2 D^2/(L^2 d log 1/delta)) is fine "
               "for Y >= 1.",
    },
    "zhang2017.thm2.approx.corrected": {
        "verdict": "agrees-in-regime",
        "regime": "sqrt(d) <= eps*n",
        "why": "Noise term 25 L^2 (mu+beta)^2 d log(2/delta)/(n^2 eps^2 mu^2 beta) ~ rate; exp term "
               "Y^(-r) <= Y^(-1) ~ rate iff Y >= 1, i.e. d log(1/delta) <= (mu n eps D/L)^2: "
               "sqrt(d) <= eps n up to constants and logs.",
    },
    "zhang2017.thm3": {
        "verdict": "agrees",
        "regime": None,
        "why": "At T = (beta^2 n^2 eps^2 D^2/(L^2 d^2))^(1/3): 2 beta D^2/T = 2 beta^(1/3) L^(2/3) "
               "D^(4/3) d^(2/3)/(n eps)^(2/3) and the noise term is (9/2)(d+1) d^(-1/3) times the "
               "same constants: both ~ (sqrt(beta) L d D^2/(n eps))^(2/3) everywhere.",
    },
    "zhang2017.thm3.eps": {
        "verdict": "agrees",
        "regime": None,
        "why": "Same as zhang2017.thm3 (part 1); bound/rate -> 2 + 9(d+1)/(2d).",
    },
    "zhang2017.thm3.approx": {
        "verdict": "agrees",
        "regime": None,
        "why": "At T = (beta^2 n^2 eps^2 D^2/(L^2 d log(1/delta)))^(1/3) both terms equal the rate "
               "monomial (L sqrt(beta d log 1/delta) D^2/(n eps))^(2/3) times 2 and "
               "9 log(2/delta)/log(1/delta).",
    },
    "zhang2017.thm3.remarks.reg": {
        "verdict": "agrees",
        "regime": None,
        "why": "mu R^2/2 + C/mu at mu = sqrt(2C)/R equals sqrt(2C) R = sqrt(2) * printed rate "
               "R L^(1/2) (beta d)^(1/4)/sqrt(n eps gamma), C = L sqrt(beta d)/(n eps gamma).",
    },
    "zhang2017.thm5": {
        "verdict": "agrees",
        "regime": None,
        "why": "For large n, eta = D_F/(sigma n) and the bound is 2 beta D_F sigma/(n(2 - beta eta)) "
               "~ beta D_F sigma/n, sigma ~ L(1 + sqrt(d l)/eps): leading beta L D_F sqrt(d)/(n eps) "
               "(the L/n term is dominated on b, c >= 0) = rate up to logs.",
    },
    "zhang2017.thm5.convex": {
        "verdict": "agrees",
        "regime": None,
        "why": "Lemma 11(2) at eta = D_F/(sigma n): (D^2 + D_F^2) sigma/(n D_F (2 - beta eta)) ~ "
               "sigma/n ~ L sqrt(d)/(n eps): same exponents as the rate; the constant D^2/D_F + D_F "
               "replaces the printed D.",
    },
    "zhang2017.thm6": {
        "verdict": "agrees",
        "regime": None,
        "why": "Dividing (1)-(5) by n^2 eta at eta = D_F/(sigma n): beta D_F sigma/(2n), "
               "(beta/2) d alpha^2 eta ~ beta D_F sigma/(2n), and the Y-term L^2 sqrt(24 a log(3/g) "
               "l)/(n eps) with a ~ d/2 are ~ sqrt(d)/(n eps); 2 beta eta L^2, L^2 sqrt(log)/n and "
               "the lower chi^2 terms are smaller: rate exponents (-1, 1/2, -1) everywhere.",
    },
    "zhang2017.thm6.corrected": {
        "verdict": "agrees",
        "regime": None,
        "why": "Same bound as zhang2017.thm6 (only sigma_t^2 is corrected).",
    },
}
