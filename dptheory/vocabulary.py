"""The catalog's vocabulary: kinds of items, provenances, rate notations, directions,
neighbouring relations and the quantities bounds are about (plain constants, importable without SymPy, e.g. by the CLI's
argument parser)."""

KINDS = ("algorithm", "definition", "assumption", "lemma", "theorem", "corollary",
         "proposition", "remark-claim", "prior-work-rate")
PROVENANCE = ("printed", "literal", "reconstructed", "reconstructed-constants-unknown", "corrected")
RATE_NOTATIONS = ("O", "Otilde", "Omega", "Theta")
DIRECTIONS = ("upper", "lower")
#: Privacy models a statement can fix for the run it is about: pure eps-DP (delta = 0) or
#: approximate (eps, delta)-DP with delta > 0; "" when the statement fixes none.
PRIVACY_MODELS = ("", "eps-DP", "(eps,delta)-DP")
#: Neighbouring relations of a sensitivity: replace one record (substitution), or add or
#: remove one record.
RELATIONS = ("replace-one", "add-remove")
#: Where the records' contributions lie under replace-one with Poisson sampling: anywhere
#: (only the distance between two records' contributions is bounded: the worst case), or
#: within half the sensitivity of the absent record's (a centred ball, as DP-SGD clipping).
CONTRIBUTIONS = ("any", "centred")
#: Accountants of the privacy API and CLI: RDP with its conversion, or the two-sided
#: (certified lower and upper) epsilon of dp-accounting's PLD.
ACCOUNTANTS = ("rdp", "tight")

#: The quantity an item's ``measured`` string names, for comparisons: the papers write one
#: quantity several ways (zhang2017's E F(w_priv,S) - F(w_hat,S) is zhang2021's
#: E[F_S(w^K) - F_S(w_S^*)]). Strings not listed are their own quantity. A bound at the
#: output and a bound on the best iterate (min_t) stay different quantities.
QUANTITIES: dict[str, tuple[str, ...]] = {
    "excess empirical risk": (
        "E F(w_priv,S) - F(w_hat,S)", "w_priv; E F(w_priv,S) - F(w_hat,S)",
        "E[F_S(w^K) - F_S(w_S^*)]", "E[F_S(w^K) - F_S(w_S^*)] (expected excess empirical risk)",
        "excess empirical risk", "excess empirical risk (convex, smooth)",
        "excess empirical risk in the two special cases"),
    "excess population risk": (
        "excess population risk", "expected excess population risk",
        "population excess risk (3)"),
    "E||grad F||^2 at the output": ("E||grad F(w_R,S)||^2", "E||grad F(w_priv,S)||^2"),
    "E||grad F|| at the output": (
        "E||grad F||", "E||grad F(w_hat)||", "E||grad F(w_hat)|| (trajectory average)",
        "E||grad F(w_hat)||; gradient evaluations", "iterates; E||grad F(w_hat)||"),
    "min over iterates of E||grad f(w_t)||": (
        "min_t E||grad f(w_t)||", "min_t E||grad f(w_t)|| at large T",
        "min_t E||grad f(w_t)|| at large T, DP-NSGD with tuned r",
        "min_t E||grad f(w_t)|| (alt. reading E min_t ||grad f(w_t)||)",
        "iterates; min_t E||grad f(w_t)||"),
}
_QUANTITY_OF = {m: q for q, ms in QUANTITIES.items() for m in ms}


def quantity_of(measured: str) -> str:
    """The quantity ``measured`` names (see :data:`QUANTITIES`); itself when not listed."""
    return _QUANTITY_OF.get(measured, measured)


__all__ = ["KINDS", "PROVENANCE", "RATE_NOTATIONS", "DIRECTIONS", "RELATIONS", "CONTRIBUTIONS", "ACCOUNTANTS",
           "QUANTITIES",
           "quantity_of"]
