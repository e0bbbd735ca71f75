"""Which problem constants each check varied, for the checks that do not say it themselves.

Every check records ``evidence["constants_varied"]``: a list of strings ``"name: values
(note)"``. A check whose claim depends on a problem constant (a Lipschitz, smoothness or PL
constant, a loss or parameter scale, a sensitivity) either runs it at values far from 1
(1/4 or below, 4 or above) or says in the note why it need not: the constant cancels (a
one-line derivation), a refutation at one admitted instance already decides the claim, or
no problem constant enters. Most checks write the field where they build their evidence;
:data:`NOTES` holds it for the others (checks whose instance has no problem constant, or
where the constant cancels), and :func:`annotate` adds it to their results.
``tests/bounds/test_constants_varied.py`` runs every registered check and requires the field.
"""

from __future__ import annotations

import functools

from dptheory.verify import Check, CheckResult

_SENS = ("sensitivity Delta: 1 (cancels: the noise is printed as a multiplier times Delta, "
         "and the Gaussian/Laplace privacy curve depends on Delta/sigma only)")
_PRIV = "none: a statement about privacy parameters (eps, delta, rho, q, T) only"
_TREE = "none: combinatorial (indices, node counts); no problem constant enters"
_ONE = ("{c}: 1 (not varied: a counterexample at one admitted instance refutes the claim; "
        "other values can only add counterexamples)")

NOTES: dict[str, list[str]] = {
    # --- exact privacy curves and accountants: the sensitivity cancels ---
    "wang2020.def3:classic-calibration-exact-curve": [_SENS, "eps: 0.05 .. 20",
                                                      "delta: 1e-9 .. 0.1"],
    "zhang2017.lemma1:classic-calibration-exact-curve": [_SENS, "eps: 0.05 .. 20",
                                                         "delta: 1e-9 .. 0.1"],
    "wang2020.lemma1:advanced-composition": [_PRIV],
    "wang2020.lemma2:subsampled-gaussian-profile": [_SENS, "q, sigma: grid (rows)"],
    "zhang2017.lemma9:subsampled-gaussian-profile": [_SENS, "q, sigma: grid (rows)"],
    "wang2020.lemma3:zcdp-to-dp": [_SENS, "rho, delta: grid"],
    "wang2020.lemma3:phi-identity": [_PRIV + " (a symbolic identity in phi and delta)"],
    "wang2020.lemma4:renyi-divergence": ["Delta: 0.5, 1, 2", "sigma: 1, 2, 3",
                                         "alpha: 1.5 .. 20"],
    "zhang2017.lemma10:vs-dwork-roth": [_PRIV],
    "zhang2017.lemma10:optimal-composition": [_PRIV],
    "tran2022.thm4:rdp-conversion-region": [_SENS, "eps: grid", "delta: 1e-9 .. 0.9"],
    "tran2022.thm8:rdp-conversion-region": [_SENS, "eps: grid", "delta: 1e-9 .. 0.9"],
    "wang2020.thm3:implemented-noise-two-sided": [
        "G, M, p: 1 (cancel: the gradient noise is printed as a multiple of its sensitivity "
        "2G/|S|, the Hessian noise of 2 sqrt(p) M/|T|, so each subsampled Gaussian has a "
        "constant-free multiplier)", "eps: 0.5, 0.9", "q: 0.01, 0.1", "T: 10 .. 1e4"],
    "wang2020.thm3:small-subsample-hessian": [
        "M, G, p: 1 (cancel: the Hessian noise is a multiple of its sensitivity 2 sqrt(p) M/|T|)",
        "|T|, T, eps: rows"],
    "wang2020.alg2:constant-256-route": [_SENS, "eps, delta, T: grid"],
    "yang2022.propE.3:vs-numerical-rdp": [_SENS + " (sigma = 1/sqrt(2 rho) is the "
                                          "multiplier)", "q: grid", "rho: grid"],
    "yang2022.exp:accountant-vs-substitution": [_SENS + " (clipping norm C: the noise is "
                                                "sigma C)", "sigma: grid"],
    "zhang2021.thm2.1:c2-pairs": [
        "L: 1 (cancels: the noise has std L pi on a sum of L-clipped gradients, so pi is the "
        "noise multiplier)", "q, T, eps: grid (rows)", "delta: 1e-5"],
    "tran2022.thm4:alpha-below-1/N": [
        "G: 1 (cancels: every node's shift and noise scale with G (noise printed as a "
        "multiple of 4 alpha G), so the exact RDP is G-free)", "alpha: 1 .. 1/1024"],
    "zhang2017.thm4:composition-step": [_PRIV + " (eps, n, c)"],
    "yang2022.propE.1:only-if-converse": [_PRIV],
    # --- tree aggregation: combinatorics, or linear in G ---
    "tran2022.alg3:partition": [_TREE],
    "tran2022.tree:ancestors": [_TREE],
    "tran2022.tree:partial_sum_nodes": [_TREE],
    "tran2022.momentum_tree:identity": ["none: an algebraic identity of the momentum "
                                        "recursion; alpha varied (rows)"],
    "tran2022.prop13:count_misprint": [_TREE],
    "tran2022.prop13:formula_vs_bruteforce": [
        "G: 1 (cancels: the printed formula and the brute force are each G times a function "
        "of (y, z, N, alpha); tests/bounds/test_constants_varied.py checks it at G = 1/4, 4)",
        "N: 2 .. 12", "alpha: 1/N"],
    "tran2022.prop13:le_4alphaG": [
        "G: 1 (cancels: the brute-force sensitivity and 4 alpha G are both G times a function "
        "of (y, z, N, alpha); tests/bounds/test_constants_varied.py checks it at G = 1/4, 4)",
        "N: 2 .. 12", "alpha: 1/N"],
    "tran2022.thm4:count_V": [_TREE],
    "tran2022.alg2:loop-indices": [_TREE],
    "tran2022.thm6:index-convention": [_TREE],
    # --- noise laws and moments ---
    "zhang2017.lemma6:second_moment": ["sigma: 0.3, 1, 2.5 (the Laplace scale)",
                                       "d: 1 .. 200"],
    "zhang2017.lemma7:second_moment": ["sigma: 0.3, 1, 2.5 (the Gaussian scale)",
                                       "d: 1 .. 200"],
    "zhang2017.lemma4:martingale-tail": [
        "sigma_t: uniform on [0.5, 2] (the scale cancels: X_t -> c X_t, sigma_t -> c sigma_t "
        "leaves the event |sum X_t| >= threshold(sigma) unchanged)", "T, delta: rows"],
    "yang2022.eq7:candidate-forms": [
        "||g||: 1 (cancels: the inequality is homogeneous in (g, m), the check says so and "
        "varies the relative scale of m - g: 0.01 .. 10)", "d: 1 .. 10"],
    "tran2022.eq3:identity-fresh-permutation": [
        "gradient scale: random A_k, b_k (cancels: identity (3) is linear in the per-sample "
        "gradients)", "N, q, r: cases"],
    # --- symbolic statements: no constant, or every value ---
    "zhang2017.thm3.remarks:below-generalization": [
        "beta, L, D: 1 (cancel: each rate is a product of powers of beta, L, D times a "
        "function of n along the path, so its ratio to n^(-1/2) log(n)^k tends to infinity "
        "for every positive value)", "n: 1e4 .. 1e8 (limits)"],
    "zhang2017.table1:runtime-log-delta": ["none: the runtime cell has no problem constant",
                                           "delta: 1e-3, 1e-5"],
    "zhang2017.exp:logistic-sign": ["none: the loss as a function of the margin"],
    "zhang2021.def1.1:dp-counterexample": [
        "none: an explicit instance (f(w, z) = (w - z)^2, z = +-1); the randomized-response "
        "probability p varied (rows)"],
    "zhang2021.assump2.4:pl-lipschitz-constant": [
        "mu, L, beta: every positive value (a symbolic proof for all constants)"],
    "zhang2021.thm3.2:assumption-set": [
        "mu, L, beta: every positive value (a symbolic proof for all constants)"],
    "zhang2021.thm3.3:assumption-set": [
        "mu, L, beta: every positive value (a symbolic proof for all constants)"],
    "zhang2021.thm3.4:assumption-set": [
        "mu, L, beta: every positive value (a symbolic proof for all constants)"],
    "wang2020.thm2:success-probability": [
        "hidden constants: every value (the d = 1 corner is free of them: "
        "corner_free_of_hidden_constants)"],
    "wang2020.thm4:success-probability": [
        "hidden constants: every value (the d = 1 corner is free of them: "
        "corner_free_of_hidden_constants)"],
    "tran2022.thm8:noise-at-corner": [
        "G, L: every value (the variances at N = 1 are G^2 or eta^2 times log(N) = 0)"],
    "tran2022.thm4:noise-at-corner": [
        "G, alpha: 1/10, 1, 3 (the check's grid; the variance is G^2 times a factor free of "
        "G, so whether it is a positive real does not depend on G)"],
    "wang2020.thm1:noise-at-corner": [
        "G, beta: every value (at delta = 2 the variances are G^2 or beta^2 times a factor "
        "that is not a positive real, whatever G and beta are)"],
    "wang2020.thm3:noise-at-corner": [
        "G, beta: 1/10, 1, 3 (the check's grid; the variances are G^2 or beta^2 times a "
        "factor free of them, so whether they are positive reals does not depend on them)"],
    "wang2020.thm4:L-printed-for-G": ["none: a dimensional reading of the printed letters "
                                      "(symbolic, every value)"],
    "zhang2021.thm3.3:bound-at-corner": [_ONE.format(c="G, beta, mu, theta")],
    "zhang2017.lemma2:expansion-square": [_ONE.format(c="loss constants c (f = (c/2) w^2, "
                                                        "c = 1, 3)")],
    "yang2022.lemmaA.2:gaussian-step-outside-radius": [_ONE.format(c="L0 = 1, L1 = 2, B"),
                                                       "s = eta sigma/B: 0.2 .. (rows)"],
    "tran2022.lemma7:reshuffling-bias": [_ONE.format(c="G (f(w, x) = x w)")],
}


def annotate(check: Check) -> Check:
    """``check`` with :data:`NOTES`' entry added to its evidence when the check does not
    record ``constants_varied`` itself (its own record always wins)."""
    note = NOTES.get(check.id)
    if note is None:
        return check
    run = check.run

    @functools.wraps(run)       # keeps the check function's module and name visible
    def run_annotated() -> CheckResult:
        res = run()
        if "constants_varied" in res.evidence:
            return res
        return res.replace(evidence={**res.evidence, "constants_varied": list(note)})

    return Check(check.id, check.item, check.kind, run_annotated, check.description)


__all__ = ["NOTES", "annotate"]
