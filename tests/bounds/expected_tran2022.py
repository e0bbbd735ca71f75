"""Hand-derived verdicts for tran2022's derivable items (compared by the lead's harness).

Derivations on paper (l = log2 T and log(1/delta) count as polylog factors):

* thm6: at its settings alpha = 1/N and T l sqrt(d log(1/delta)) = eps N^2; the printed
  bound only contains T through l, so it is, up to logs,
  d^{1/4}/sqrt(eps N) + d^{1/4}/(eps^{1/2} N^{3/4}) + 1/sqrt(N) + sqrt(d)/(eps N).
  The second term is always below the first; the fourth is below the first iff
  d^{1/4} <= sqrt(eps N), i.e. sqrt(d) <= eps N (and below 1/sqrt(N) only in the smaller
  region sqrt(d) <= eps sqrt(N)). Hence agreement with O~(d^{1/4}/sqrt(eps N) + 1/sqrt(N))
  exactly when sqrt(d) <= eps N.
* thm9: the bound is d^{1/3}/(eps N)^{2/3} + 1/sqrt(N) + sqrt(d)/(eps N) up to logs;
  sqrt(d)/(eps N) <= d^{1/3}/(eps N)^{2/3} iff d^{1/6} <= (eps N)^{1/3} iff sqrt(d) <= eps N.
* thm6.corrected: only the R term gains sqrt(l) log(1/delta)^{1/4} (polylog): as thm6.
* lemma7: the three printed terms are, up to constants and log2 T, log(1/delta) factors,
  alpha sqrt(d)/eps, alpha sqrt(eta d T)/eps and eta alpha sqrt(d T N)/eps, which are the
  three terms of the stated O~ (alpha eta N sqrt(dT)/(eps sqrt N) = alpha eta sqrt(dTN)/eps);
  its settings (sigma, gamma) do not occur in the bound.
"""

EXPECTED = {
    "tran2022.thm6": {
        "verdict": "agrees-in-regime",
        "regime": "sqrt(d) <= eps*n",
        "why": "bound ~ d^(1/4)/sqrt(eps n) + 1/sqrt(n) + sqrt(d)/(eps n) (+ a term always "
               "dominated); the last is dominated iff sqrt(d) <= eps n.",
    },
    "tran2022.thm6.corrected": {
        "verdict": "agrees-in-regime",
        "regime": "sqrt(d) <= eps*n",
        "why": "differs from thm6 only by a polylog factor on the R term.",
    },
    "tran2022.thm9": {
        "verdict": "agrees-in-regime",
        "regime": "sqrt(d) <= eps*n",
        "why": "bound ~ d^(1/3)/(eps n)^(2/3) + 1/sqrt(n) + sqrt(d)/(eps n); the last is "
               "dominated iff sqrt(d) <= eps n.",
    },
    "tran2022.lemma7": {
        "verdict": "agrees",
        "regime": None,
        "why": "the three printed terms are the three O~ terms up to constants and logs.",
    },
}
