r"""wang2020 — D. Wang, J. Xu, *Escaping Saddle Points of Empirical Risk Privately and
Scalably via DP-Trust Region Method* (DP-TR, Algorithm 1; DP-STR, Algorithm 2).

ECML-PKDD 2020; encoded from the main text (29 catalog items).
Proofs are in a supplement we do not have; items tagged ``.noise`` / ``.corrected`` are
dptheory's own derivations placed beside the printed statements.

Printed letter -> symbol used here
==================================

=====================  ==========================  ======================================
printed                symbol                      note
=====================  ==========================  ======================================
n                      ``S.n``
p (also d in R^d)      ``S.d``                     notation "p"
epsilon, delta         ``S.eps``, ``S.delta``
G (L in Thm 4, Sec 5)  ``S.G``                     Lipschitz constant of l(., x)
M                      ``S.beta``                  smoothness, notation "M"
rho                    ``S.rho``                   Hessian-Lipschitz
Delta                  ``S.Fgap``                  L(w0, D) - L(w*, D), notation "\Delta"
alpha                  ``S.alpha``                 SOSP accuracy, a gradient norm [F]/[w]
T                      ``S.T``                     iteration number
r                      ``w20_r``                   trust-region radius, dimension [w]
rho (zCDP)             ``rho_z``
|S|, |calT|            ``Ssz``, ``Tsz``            subsample sizes
zeta, c                ``w20_zeta``, ``w20_c``     failure parameter, universal constant
gamma (Lemma 2)        ``w20_gamma``               sampling fraction
alpha (Renyi, Def 4)   ``S.z``                     Renyi order
lambda                 ``w20_lam``                 TRS dual variable, dimension [F]/[w]^2
Poly(p)                ``w20_Polyp``               an unspecified polynomial in p
=====================  ==========================  ======================================

The noise vector the paper prints as epsilon_k is unrelated to the privacy epsilon; it is
only described in words here.
"""

from __future__ import annotations

import sympy as sp

from dptheory.symbolic import (BoundedBelow, Catalog, HessianLipschitz, Lipschitz, Paper, S,
                               Sensitivity, Smooth, TwiceDifferentiable, register, units)

PAPER = Paper(
    key="wang2020",
    title=("Escaping Saddle Points of Empirical Risk Privately and Scalably via "
           "DP-Trust Region Method"),
    authors="Di Wang, Jinhui Xu",
    venue="ECML-PKDD 2020",
    year=2020,
    source="main text (the supplement with the proofs is not encoded)",
    in_text=("title", "authors"),       # venue and year are not printed in it
)

# --- shared symbols, bound to the paper's letters ---------------------------------------
n, p, eps, delta = S.n, S.d, S.eps, S.delta
G = S.G                  # Lipschitz constant (Thm 4 and Sec. 5 print L)
M = S.beta               # wang2020's M is smoothness
rho = S.rho              # Hessian-Lipschitz
Delta = S.Fgap           # wang2020's Delta = L(w0,D) - L(w*,D)
alpha = S.alpha          # accuracy of the alpha-SOSP: a gradient norm
T = S.T
z_R = S.z                # Renyi order (printed alpha in Definition 4)

# --- paper-local symbols ---------------------------------------------------------------
r = register("w20_r", units.PARAM, "trust-region radius r (wang2020)", latex="r", example=0.5)
rho_z = register("rho_z", units.ONE, "zCDP parameter rho (wang2020 Def. 4)",
                 latex=r"\rho_{\mathrm{zCDP}}", example=0.05)
Ssz = register("Ssz", units.ONE, "gradient subsample size |S| (wang2020 Alg. 2)",
               latex=r"|\mathcal{S}|", integer=True, domain="integer in [1, n]", example=500)
Tsz = register("Tsz", units.ONE, "Hessian subsample size |T| (wang2020 Alg. 2)",
               latex=r"|\mathcal{T}|", integer=True, domain="integer in [1, n]", example=500)
zeta = register("w20_zeta", units.ONE, "failure-probability parameter zeta (wang2020)",
                latex=r"\zeta", domain="(0, 1)", example=0.1)
c_u = register("w20_c", units.ONE, "universal constant c of wang2020 Thms 2 and 4",
               latex="c", example=1.0)
c_H = register("w20_cH", units.ONE,
               "constant of ||H||_2 <= c_H sigma_2 sqrt(p) for the symmetric Gaussian noise "
               "matrix (dptheory's reconstruction of wang2020 Thm 2)", latex="c_H", example=2.0)
gam = register("w20_gamma", units.ONE, "sampling fraction gamma of wang2020 Lemma 2",
               latex=r"\gamma", domain="(0, 1]", example=0.1)
lam = register("w20_lam", units.SMOOTH, "dual variable lambda of the trust-region subproblem",
               latex=r"\lambda", positive=False, nonnegative=True, domain=">= 0", example=0.3)
lam_min = register("w20_lammin", units.SMOOTH, "smallest Hessian eigenvalue lambda_min",
                   latex=r"\lambda_{\min}", positive=False, domain="real", example=-0.1)
gnorm = register("w20_gnorm", units.GRAD, "gradient norm ||grad F(w)||_2",
                 latex=r"\|\nabla F(w)\|_2", positive=False, nonnegative=True,
                 domain=">= 0", example=0.2)
hnorm = register("w20_hnorm", units.PARAM, "step norm ||h||_2", latex=r"\|h\|_2",
                 positive=False, nonnegative=True, domain=">= 0", example=0.5)
gh = register("w20_gh", units.LOSS, "<grad L(w), h>", latex=r"\langle\nabla L, h\rangle",
              positive=False, domain="real", example=-0.2)
hHh = register("w20_hHh", units.LOSS, "h^T grad^2 L(w) h", latex=r"h^T\nabla^2 L h",
               positive=False, domain="real", example=0.1)
L_w = register("w20_Lw", units.LOSS, "L(w, D)", latex="L(w,D)", positive=False,
               domain="real", example=1.0)
L_wh = register("w20_Lwh", units.LOSS, "L(w + h, D)", latex="L(w+h,D)", positive=False,
                domain="real", example=0.9)
L_w0 = register("w20_Lw0", units.LOSS, "L(w0, D)", latex="L(w^0,D)", positive=False,
                domain="real", example=1.0)
L_ws = register("w20_Lwstar", units.LOSS, "L(w*, D)", latex="L(w^*,D)", positive=False,
                domain="real", example=0.5)
kkt_res = register("w20_kktres", units.GRAD, "||(H + lambda I) h + g||_2 (residual of (4))",
                   latex=r"\|(\nabla^2F+\lambda I)h+\nabla F\|_2", positive=False,
                   nonnegative=True, domain=">= 0", example=0.0)
P_D = register("w20_PD", units.ONE, "P(A(D) in S)", latex=r"\mathbb{P}(\mathcal{A}(D)\in S)",
               positive=False, nonnegative=True, domain="[0, 1]", example=0.3)
P_Dp = register("w20_PDp", units.ONE, "P(A(D') in S)",
                latex=r"\mathbb{P}(\mathcal{A}(D')\in S)", positive=False, nonnegative=True,
                domain="[0, 1]", example=0.3)
# Def. 3 / Lemma 4 are stated for a generic query q: measure both in units of q.
Delta2 = register("w20_Delta2", units.ONE, "l2-sensitivity Delta_2(q) (in units of q)",
                  latex=r"\Delta_2(q)", example=1.0)
sigma_G = register("w20_sigmaG", units.ONE, "Gaussian-mechanism std (in units of q)",
                   latex=r"\sigma", example=5.0)
D_ren = register("w20_Dren", units.ONE, "Renyi divergence D_alpha(A(D)||A(D'))",
                 latex=r"D_\alpha", positive=False, nonnegative=True, domain=">= 0",
                 example=0.1)
rho1 = register("w20_rho1", units.ONE, "zCDP parameter rho of A (Lemma 5)", latex=r"\rho",
                example=0.1)
rho2 = register("w20_rho2", units.ONE, "zCDP parameter rho' of A' (Lemma 5)", latex=r"\rho'",
                example=0.2)
Polyp = register("w20_Polyp", units.ONE, "Poly(p): an unspecified polynomial in p",
                 latex=r"\mathrm{Poly}(p)", example=2.0)

NOTATION = {p: "p", M: "M", Delta: r"\Delta", alpha: r"\alpha", rho_z: r"\rho", zeta: r"\zeta"}
NOTATION_L = {**NOTATION, G: "L"}      # Theorem 4 and Sec. 5 print L for G
ALPHA_SCALING = {alpha: -1, p: +1, eps: -1}    # alpha -> 0 is the asymptotic variable

# --- recurring expressions ----------------------------------------------------------------
l = sp.log(1 / delta)
phi = (sp.sqrt(eps + l) - sp.sqrt(l)) ** 2                       # Alg. 1 line 1
T_set = 6 * sp.sqrt(rho) * Delta / alpha ** sp.Rational(3, 2)   # Thms 2 and 4
r_set = sp.sqrt(alpha / rho)
n_req5 = p * sp.log(1 / zeta) * sp.sqrt(l) / (alpha ** sp.Rational(7, 4) * eps)   # eq. (5)
S_req = G ** 2 * sp.log(p / zeta) / alpha ** 2                  # Thm 4, |S| >= Omega(.)
T_req = M ** 2 * sp.log(p / zeta) / (alpha * rho)               # Thm 4, |calT| >= Omega(.)

sig2_TR = 4 * G ** 2 * T / (n ** 2 * phi)                       # Alg. 1 line 3
sig2H_TR = 4 * p * M ** 2 * T / (n ** 2 * phi)                  # Alg. 1 line 4
sig2_STR = 256 * G ** 2 * sp.log(5 * T / delta) * sp.log(2 / delta) / (n ** 2 * eps ** 2)
sig2H_STR = 256 * p * M ** 2 * T * sp.log(2 / delta) * sp.log(5 * T / delta) / (n ** 2 * eps ** 2)

# Sensitivities under substitution neighbours (Assumption 2): full-data mean gradient and
# the upper-triangle vector of the mean Hessian (Frobenius <= sqrt(p) * spectral <= sqrt(p) M).
Dg = 2 * G / n
DH = 2 * sp.sqrt(p) * M / n


def _advcomp(eps_list_counts, delta_slack):
    """Advanced composition (Dwork-Roth Thm 3.20) of heterogeneous mechanisms: k_i copies of
    eps_i-DP; total eps = sqrt(2 ln(1/delta') sum k_i eps_i^2) + sum k_i eps_i (e^eps_i - 1)."""
    sq = sum(k * e ** 2 for e, k in eps_list_counts)
    lin = sum(k * e * (sp.exp(e) - 1) for e, k in eps_list_counts)
    return sp.sqrt(2 * sp.log(1 / delta_slack) * sq) + lin


def _amplified_eps(sens_sub, size, sigma2, delta0):
    """Per-step epsilon of a Gaussian on a subsample mean, by the paper's own tools:
    Def. 3 inverted (eps0 = sqrt(2 ln(1.25/delta0)) Delta/sigma), then Lemma 2 (2 gamma eps0)."""
    eps0 = sp.sqrt(2 * sp.log(sp.Rational(5, 4) / delta0)) * sens_sub / sp.sqrt(sigma2)
    return eps0, 2 * (size / n) * eps0


ITEMS = Catalog(notation=NOTATION)
_add = ITEMS.add


# ======================================================================================
# Algorithms
# ======================================================================================
_add(
    id="wang2020.alg1", title="DP-TR (Algorithm 1)", kind="algorithm", source="Algorithm 1",
    category="algorithm",
    statement=(r"\phi=(\sqrt{\epsilon+\ln\frac1\delta}-\sqrt{\ln\frac1\delta})^2;\ "
               r"\tilde\nabla L(w^k,D)=\nabla L(w^k,D)+\epsilon_k,\ \epsilon_k\sim\mathcal N(0,"
               r"\sigma^2I_d),\ \sigma^2=\frac{4G^2T}{n^2\phi};\ \tilde\nabla^2L=\nabla^2L+H_k,\ "
               r"H_k\text{ symmetric, upper triangle i.i.d. }\mathcal N(0,\sigma_2^2),\ "
               r"\sigma_2^2=\frac{4pM^2T}{n^2\phi};\ h^k=\arg\min_{\|h\|_2\le r}\langle\tilde"
               r"\nabla L,h\rangle+\frac12\langle\tilde\nabla^2Lh,h\rangle;\ w^{k+1}=w^k+h^k;\ "
               r"\text{if }\lambda^k\le\sqrt{\alpha\rho}\text{ output }w_\alpha=w^{k+1}"),
    measured="output w_alpha; ||grad L(w_alpha)||; lambda_min(grad^2 L(w_alpha))",
    measured_unit=units.GRAD,
    settings={r: r_set, T: T_set},
    expressions={"phi": phi, "sigma2": sig2_TR, "sigma2_H": sig2H_TR,
                 # spectral norm of a p x p symmetric Gaussian (Wigner) ~ 2 sqrt(p) sigma_2
                 "wigner_norm_H": 2 * sp.sqrt(p) * sp.sqrt(sig2H_TR),
                 "T": T_set, "r": r_set},
    relations={"stop": sp.Le(lam, sp.sqrt(alpha * rho)),
               "trust_region": sp.Le(hnorm, r)},
    notes="Full data each iteration, no sampling. T and r from Theorem 2; T depends on the "
          "data through Delta (see wang2020.thm1 notes).",
    refs=("wang2020.thm1", "wang2020.thm2"),
)

_add(
    id="wang2020.alg2", title="DP-STR (Algorithm 2)", kind="algorithm", source="Algorithm 2",
    category="algorithm", notation=NOTATION_L,
    statement=(r"\text{uniformly sub-sample independent }\mathcal S,\mathcal T\subseteq[n];\ "
               r"\sigma^2=\frac{256G^2\ln\frac{5T}{\delta}\ln\frac2\delta}{n^2\epsilon^2};\ "
               r"\sigma_2^2=\frac{256pM^2T\ln\frac2\delta\ln\frac{5T}{\delta}}{n^2\epsilon^2};"
               r"\ \nabla L(w^k,\mathcal S)=\frac1{|\mathcal S|}\sum_{i\in\mathcal S}\nabla\ell"
               r"(w^k,x_i)\ (6),\ \nabla^2L(w^k,\mathcal T)=\frac1{|\mathcal T|}\sum_{i\in"
               r"\mathcal T}\nabla^2\ell(w^k,x_i)\ (7);\ \text{TRS and stopping as Alg. 1}"),
    measured="output w_alpha; running time", measured_unit=units.GRAD,
    hypotheses=(("|S| <= n (S subset of [n])", sp.Le(Ssz, n)),
                ("|T| <= n (T subset of [n])", sp.Le(Tsz, n))),
    settings={r: r_set, T: T_set, Ssz: S_req, Tsz: T_req},
    expressions={"sigma2": sig2_STR, "sigma2_H": sig2H_STR, "T": T_set, "r": r_set,
                 "Ssz": S_req, "Tsz": T_req},
    relations={"stop": sp.Le(lam, sp.sqrt(alpha * rho))},
    notes="Sampling: two independent uniform fixed-size subsets without replacement, fresh "
          "every iteration. The printed gradient variance has no factor T while the Hessian "
          "one does (see wang2020.thm3).",
    refs=("wang2020.thm3", "wang2020.thm4"),
)

# ======================================================================================
# Definitions, prior work, quoted lemmas
# ======================================================================================
_add(
    id="wang2020.def1", title="DP-ERM", kind="definition", source="Definition 1, eq. (1)",
    category="definition",
    statement=(r"L(w,D)=\frac1n\sum_{i=1}^n\ell(w,x_i);\ \text{utility (convex): }"
               r"\mathbb E_{\mathcal A}[L(w^{priv},D)]-\min_{x\in\mathbb R^p}L(w,D)"),
    measured="excess empirical risk", measured_unit=units.LOSS,
    notes="The printed min is over x but the objective is in w (typo in the paper).",
)

_add(
    id="wang2020.intro.wang2019a", title="[28]'s excess-risk bound for general non-convex losses",
    kind="prior-work-rate", source="Sec. 1 (and Sec. 2)", category="utility",
    statement=(r"O\big(\frac{p}{\log n\,\epsilon^2}\big)\text{, needs }n\ge O(\exp(p))"),
    measured="excess empirical risk", measured_unit=units.LOSS,
    hypotheses=(("n >= O(exp(p))", sp.Ge(n, sp.exp(p))),),
    rate=p / (sp.log(n) * eps ** 2), rate_notation="O", hidden=(G, M),
    notes="Wang, Chen, Xu ICML 2019 (ref. [28]); compare zhang2021.intro.E1. Decreases only "
          "as 1/log n.",
    refs=("zhang2021.intro.E1",),
)

_related_acc = (p * sp.sqrt(l) / (n * eps)) ** sp.Rational(4, 7)
_related_acc28 = (p * sp.sqrt(l) / (n * eps)) ** sp.Rational(1, 2)
_add(
    id="wang2020.related", title="Sample complexity of DP-TR/DP-STR vs [28]", kind="remark-claim",
    source="Sec. 2 (Related Work)", category="sample-complexity",
    statement=(r"O\Big(\frac{p\sqrt{\ln\frac1\delta}}{\alpha^{1.75}\epsilon}\Big)\text{ vs }"
               r"O\Big(\frac{p\sqrt{\ln\frac1\delta}}{\alpha^{2}\epsilon}\Big)\text{ in [28]; "
               r"fixed }n:\ O\Big(\big(\frac{p\sqrt{\ln\frac1\delta}}{n\epsilon}\big)^{4/7}\Big)"
               r"\text{-SOSP vs }O\Big(\big(\cdot\big)^{1/2}\Big)"),
    measured="n(alpha): smallest n giving an alpha-SOSP", measured_unit=units.ONE,
    bound=p * sp.sqrt(l) / (alpha ** sp.Rational(7, 4) * eps), direction="lower",
    rate=p * sp.sqrt(l) / (alpha ** sp.Rational(7, 4) * eps), rate_notation="O",
    hidden=(G, M, rho, Delta, zeta), scaling=ALPHA_SCALING,
    expressions={"n_28": p * sp.sqrt(l) / (alpha ** 2 * eps),
                 "alpha_fixed_n": _related_acc, "alpha_fixed_n_28": _related_acc28},
    notes="Printed with O(.) although it is a sufficient sample size (the theorem writes "
          "Omega). 'Omitting other terms': ln(1/zeta) of (5) is dropped here. The bound is "
          "dimensionally [w/F]^{7/4}: the hidden G, M, rho, Delta restore it.",
    refs=("wang2020.thm2", "wang2020.remark1"),
)

_add(
    id="wang2020.def2", title="(eps, delta)-differential privacy", kind="definition",
    source="Definition 2", category="definition",
    statement=(r"D\sim D'\text{ differ by one entry; }\mathbb P(\mathcal A(D)\in S)\le e^\epsilon"
               r"\mathbb P(\mathcal A(D')\in S)+\delta"),
    measured="privacy curve delta(eps)", measured_unit=units.ONE,
    relations={"dp": sp.Le(P_D, sp.exp(eps) * P_Dp + delta)},
    notes="Substitution neighbours (equal size).",
)

_def3_rel = sp.Ge(sigma_G, sp.sqrt(2 * sp.log(sp.Rational(5, 4) / delta)) * Delta2 / eps)
_add(
    id="wang2020.def3", title="Gaussian mechanism", kind="definition", source="Definition 3",
    category="privacy",
    statement=(r"\mathcal M_G(D,q,\epsilon)=q(D)+Y,\ Y\sim\mathcal N(0,\sigma^2I_p),\ "
               r"\sigma\ge\frac{\sqrt{2\ln(1.25/\delta)}\Delta_2(q)}{\epsilon};\ "
               r"\text{ensures }(\epsilon,\delta)\text{-DP}"),
    measured="exact delta(eps) of the Gaussian at the calibrated sigma", measured_unit=units.ONE,
    relations={"calibration": _def3_rel},
    expressions={"sigma_calibrated": sp.sqrt(2 * sp.log(sp.Rational(5, 4) / delta)) * Delta2 / eps},
    notes="Printed without the condition eps < 1 of the classical analysis (Dwork-Roth "
          "Thm A.1); see wang2020.def3.corrected.",
    refs=("wang2020.def3.corrected",),
)
_add(
    id="wang2020.def3.corrected", title="Gaussian mechanism, with eps < 1",
    kind="definition", source="Definition 3 + Dwork-Roth Thm A.1", category="privacy",
    provenance="corrected",
    statement=(r"0<\epsilon<1,\ \sigma\ge\frac{\sqrt{2\ln(1.25/\delta)}\Delta_2(q)}{\epsilon}"
               r"\Rightarrow(\epsilon,\delta)\text{-DP}"),
    measured="exact delta(eps) of the Gaussian at the calibrated sigma", measured_unit=units.ONE,
    hypotheses=(("0 < eps < 1", sp.Lt(eps, 1)),),
    relations={"calibration": _def3_rel},
    expressions={"sigma_calibrated": sp.sqrt(2 * sp.log(sp.Rational(5, 4) / delta)) * Delta2 / eps},
    notes="As printed (no eps restriction) the claim fails: with Delta=1 and "
          "sigma=sqrt(2 ln(1.25/delta))/eps the exact Gaussian privacy curve gives "
          "delta(10)=2.27e-5 > 1e-5 at delta=1e-5, and delta(20)=0.0015 > 1e-5. The classical "
          "proof needs eps < 1.",
    refs=("wang2020.def3",),
)

_epsp = eps / (2 * sp.sqrt(2 * T * sp.log(2 / delta)))
_add(
    id="wang2020.lemma1", title="Advanced composition (as quoted)", kind="lemma",
    source="Lemma 1 (Dwork-Roth [13])", category="privacy",
    statement=(r"0<\epsilon,\delta\le1:\ (\epsilon,\delta)\text{-DP over }T\text{ mechanisms if each"
               r" is }(\epsilon',\frac{\delta}{2T})\text{-DP},\ \epsilon'=\frac{\epsilon}"
               r"{2\sqrt{2T\ln(2/\delta)}}"),
    measured="composed (eps, delta)", measured_unit=units.ONE,
    hypotheses=(("0 < eps <= 1", sp.Le(eps, 1)), ("0 < delta <= 1", sp.Le(delta, 1))),
    expressions={"eps_prime": _epsp,
                 "eps_composed": _advcomp([(_epsp, T)], delta / 2),
                 "delta_composed": T * delta / (2 * T) + delta / 2},
    relations={"composed_eps_le_eps": sp.Le(_advcomp([(_epsp, T)], delta / 2), eps)},
    notes="Composed by Dwork-Roth Thm 3.20 with delta' = delta/2: sqrt(2T ln(2/delta)) eps' "
          "= eps/2, T eps'(e^eps'-1) <= eps^2/(4 ln(2/delta)) (approx.) <= eps/2 on the "
          "printed range.",
)

_add(
    id="wang2020.lemma2", title="Privacy amplification by subsampling (as quoted)",
    kind="lemma", source="Lemma 2 ([4] Bassily-Smith-Thakurta 2014)", category="privacy",
    statement=(r"\mathcal A\ (\epsilon,\delta)\text{-DP}\Rightarrow\mathcal A\text{ on uniformly "
               r"random }\gamma n\text{ entries is }(2\gamma\epsilon,\delta)\text{-DP}"),
    measured="epsilon of the subsampled mechanism", measured_unit=units.ONE,
    expressions={"eps_amplified": 2 * gam * eps,
                 # tight amplification for substitution + sampling without replacement
                 "eps_amplified_tight": sp.log(1 + gam * (sp.exp(eps) - 1))},
    relations={"claim_vs_tight": sp.Le(sp.log(1 + gam * (sp.exp(eps) - 1)), 2 * gam * eps)},
    notes="Printed without the eps <= 1 condition of its source (Bassily et al. Lemma 4.4). "
          "For a randomized-response-type mechanism the subsampled epsilon is "
          "ln(1+gamma(e^eps-1)), which exceeds 2 gamma eps for large eps (gamma=0.1, eps=2: "
          "0.494 > 0.4). See wang2020.lemma2.corrected.",
    refs=("wang2020.lemma2.corrected", "zhang2017.lemma9"),
)
_add(
    id="wang2020.lemma2.corrected", title="Privacy amplification by subsampling, eps <= 1",
    kind="lemma", source="Lemma 2 + Bassily et al. 2014 Lemma 4.4", category="privacy",
    provenance="corrected",
    statement=r"\epsilon\le1:\ (\epsilon,\delta)\text{-DP}\Rightarrow(2\gamma\epsilon,\delta)\text{-DP}",
    measured="epsilon of the subsampled mechanism", measured_unit=units.ONE,
    hypotheses=(("eps <= 1", sp.Le(eps, 1)), ("0 < gamma <= 1", sp.Le(gam, 1))),
    expressions={"eps_amplified": 2 * gam * eps,
                 "eps_amplified_tight": sp.log(1 + gam * (sp.exp(eps) - 1))},
    relations={"claim_vs_tight": sp.Le(sp.log(1 + gam * (sp.exp(eps) - 1)), 2 * gam * eps)},
    notes="ln(1+gamma(e^eps-1)) <= gamma(e^eps-1) <= 2 gamma eps whenever e^eps - 1 <= 2 eps, "
          "i.e. eps <= 1.256; the source's eps <= 1 suffices.",
    refs=("wang2020.lemma2",),
)

_add(
    id="wang2020.def4", title="rho-zCDP", kind="definition", source="Definition 4, footnote 4",
    category="definition",
    statement=r"D_\alpha(\mathcal A(D)\|\mathcal A(D'))\le\rho\alpha\ \forall D\sim D',\alpha\in(1,\infty)",
    measured="Renyi divergence", measured_unit=units.ONE,
    relations={"zcdp": sp.Le(D_ren, rho_z * z_R)},
    expressions={"gaussian_renyi": z_R * Delta2 ** 2 / (2 * sigma_G ** 2)},
    notation={**NOTATION, z_R: r"\alpha"},
)

_add(
    id="wang2020.lemma3", title="zCDP implies DP", kind="lemma", source="Lemma 3 ([6] Bun-Steinke)",
    category="privacy",
    statement=r"\rho\text{-zCDP}\Rightarrow(\rho+2\sqrt{\rho\ln\frac1\delta},\delta)\text{-DP}",
    measured="epsilon", measured_unit=units.ONE,
    expressions={"eps_of_rho": rho_z + 2 * sp.sqrt(rho_z * l),
                 "eps_of_phi": phi + 2 * sp.sqrt(phi * l)},
    notes="At rho = phi (Alg. 1) the conversion gives exactly eps (used by wang2020.thm1).",
)

_add(
    id="wang2020.lemma4", title="Gaussian mechanism is zCDP", kind="lemma",
    source="Lemma 4 ([6])", category="privacy",
    statement=r"\sigma\ge\frac{\Delta_2(q)}{\sqrt{2\rho}}\Rightarrow q(D)+\mathcal N(0,\sigma^2I_p)\text{ is }\rho\text{-zCDP}",
    measured="zCDP parameter", measured_unit=units.ONE,
    relations={"calibration": sp.Ge(sigma_G, Delta2 / sp.sqrt(2 * rho_z))},
    expressions={"rho_of_sigma": Delta2 ** 2 / (2 * sigma_G ** 2)},
)

_add(
    id="wang2020.lemma5", title="zCDP composition", kind="lemma", source="Lemma 5 ([6])",
    category="privacy",
    statement=r"(\mathcal A(D),\mathcal A'(D))\text{ is }(\rho+\rho')\text{-zCDP}",
    measured="zCDP parameter", measured_unit=units.ONE,
    expressions={"rho_composed": rho1 + rho2},
)

# ======================================================================================
# Assumptions and optimization definitions
# ======================================================================================
_add(
    id="wang2020.assump1", title="Bounded below", kind="assumption", source="Assumption 1",
    category="assumption",
    statement=r"L(\cdot,D)\text{ bounded below, minimum at }w^*;\ \Delta=L(w^0,D)-L(w^*,D)",
    measured="Delta", measured_unit=units.LOSS,
    assumptions=(BoundedBelow(Delta, scope="empirical"),),
    relations={"Delta": sp.Eq(Delta, L_w0 - L_ws)},
    notes="Delta depends on the dataset D (it sets T in Theorems 2 and 4).",
)

_cubic = sp.Le(L_wh, L_w + gh + hHh / 2 + rho / 6 * hnorm ** 3)
_add(
    id="wang2020.assump2", title="Lipschitz, smooth, Hessian-Lipschitz", kind="assumption",
    source="Assumption 2", category="assumption",
    statement=(r"|\ell(w,x)-\ell(w',x)|\le G\|w-w'\|_2;\ \|\nabla\ell(w,x)-\nabla\ell(w',x)\|_2"
               r"\le M\|w-w'\|_2;\ \|\nabla^2\ell(w,x)-\nabla^2\ell(w',x)\|_2\le\rho\|w-w'\|_2;"
               r"\ L(w+h,D)\le L(w,D)+\langle\nabla L(w,D),h\rangle+\frac12h^T\nabla^2L(w,D)h+"
               r"\frac\rho6\|h\|_2^3"),
    measured="G, M, rho of a loss", measured_unit=units.GRAD,
    assumptions=(Lipschitz(G), Smooth(M), TwiceDifferentiable(), HessianLipschitz(rho)),
    relations={"cubic_upper_bound": _cubic},
    notes="The cubic bound follows from Taylor's theorem with the Hessian-Lipschitz remainder "
          "(<= rho/6 ||h||^3), per sample and hence for the mean L.",
)

_add(
    id="wang2020.def5", title="Second-order stationary point", kind="definition",
    source="Definition 5", category="definition",
    statement=r"\|\nabla F(w)\|_2=0,\ \lambda_{\min}(\nabla^2F(w))\ge0",
    measured="SOSP indicator", measured_unit=units.ONE,
    relations={"sosp": sp.And(sp.Eq(gnorm, 0), sp.Ge(lam_min, 0))},
)

_add(
    id="wang2020.def6", title="alpha-SOSP", kind="definition", source="Definition 6, eq. (2)",
    category="definition",
    statement=r"\|\nabla F(w)\|_2\le\alpha,\ \lambda_{\min}(\nabla^2F(w))\ge-\sqrt{\rho\alpha}",
    measured="alpha_hat = max(||grad F||, (-lambda_min)_+^2/rho)", measured_unit=units.GRAD,
    relations={"alpha_sosp": sp.And(sp.Le(gnorm, alpha), sp.Ge(lam_min, -sp.sqrt(rho * alpha)))},
    expressions={"alpha_hat": sp.Max(gnorm, sp.Max(0, -lam_min) ** 2 / rho)},
    notes="Dimensionally consistent: sqrt(rho alpha) has the dimension of a Hessian.",
)

_add(
    id="wang2020.def7", title="DP-SOSP sample complexity", kind="definition",
    source="Definition 7", category="sample-complexity",
    statement=(r"\text{smallest }n(\alpha,p,\epsilon,\delta)\text{ s.t. for }n\ge n(\alpha,p,"
               r"\epsilon,\delta)\text{ and any }D\text{ some }(\epsilon,\delta)\text{-DP "
               r"algorithm outputs an }\alpha\text{-SOSP of (1) w.h.p.}"),
    measured="empirical n(alpha)", measured_unit=units.ONE,
)

_add(
    id="wang2020.eq3", title="Trust-region subproblem", kind="definition", source="eq. (3)",
    category="definition",
    statement=(r"h^k=\arg\min_{h\in\mathbb R^d,\|h\|_2\le r}\langle\nabla F(w^k),h\rangle+"
               r"\frac12\langle\nabla^2F(w^k)h,h\rangle;\ w^{k+1}=w^k+h^k"),
    measured="model value", measured_unit=units.LOSS,
    expressions={"model": gh + hHh / 2},
    relations={"feasible": sp.Le(hnorm, r)},
)

_add(
    id="wang2020.lemma6", title="Global optimality of the TRS (Conn-Gould-Toint Cor. 7.2.2)",
    kind="lemma", source="Lemma 6, eq. (4)", category="identity",
    statement=(r"(\nabla^2F(w^k)+\lambda I)h^k=-\nabla F(w^k),\ \lambda\ge0,\ \nabla^2F(w^k)+"
               r"\lambda I\succ0,\ \lambda(\|h^k\|_2-r)=0"),
    measured="KKT conditions at the global minimizer", measured_unit=units.GRAD,
    relations={"stationarity": sp.Eq(kkt_res, 0),
               "dual_feasible": sp.Ge(lam, 0),
               "positive_definite": sp.Gt(lam_min + lam, 0),
               "complementary": sp.Eq(lam * (hnorm - r), 0)},
    notes="As printed with strict H + lambda I > 0. The standard characterization (Conn-Gould-"
          "Toint Thm 7.2.1) has H + lambda I PSD; strict > 0 fails in the 'hard case' (g "
          "orthogonal to the bottom eigenspace, lambda = -lambda_min(H)), where the global "
          "minimizer has H + lambda I singular. Here lam_min is the smallest eigenvalue of "
          "grad^2 F(w^k).",
)

# ======================================================================================
# DP-TR: privacy and utility
# ======================================================================================
_rho_g = Dg ** 2 / (2 * sig2_TR)
_rho_h = DH ** 2 / (2 * sig2H_TR)
_zcdp_total = T * (_rho_g + _rho_h)
_eps_out = _zcdp_total + 2 * sp.sqrt(_zcdp_total * l)
_add(
    id="wang2020.thm1", title="DP-TR is (eps, delta)-DP", kind="theorem", source="Theorem 1",
    category="privacy",
    statement=(r"\text{For any }\epsilon,\delta>0,\text{ Algorithm 1 is }(\epsilon,\delta)"
               r"\text{-differentially private under Assumption 2.}"),
    measured="achieved epsilon at delta", measured_unit=units.ONE,
    assumptions=(Lipschitz(G), Smooth(M)),
    hypotheses=(("eps > 0", sp.Gt(eps, 0)), ("delta > 0", sp.Gt(delta, 0))),
    sensitivities={
        "grad": Sensitivity(Dg, "replace-one", "sup_w ||grad F_S(w) - grad F_S'(w)||",
                            source="Theorem 1 (proof, Assumption 2)"),
        "hess": Sensitivity(DH, "replace-one",
                            "sup_w ||triu(hess F_S(w) - hess F_S'(w))|| (Frobenius)",
                            source="Theorem 1 (proof, Assumption 2)")},
    expressions={"sensitivity_grad": Dg, "sensitivity_hess": DH,
                 "sigma2": sig2_TR, "sigma2_H": sig2H_TR,
                 "rho_step_grad": _rho_g, "rho_step_hess": _rho_h,
                 "zcdp_total": _zcdp_total, "eps_out": _eps_out},
    # eps_out equals eps exactly; the 1e-12 slack only absorbs float rounding.
    relations={"zcdp_total_eq_phi": sp.Eq(_zcdp_total, phi),
               "privacy": sp.Le(_eps_out, eps * (1 + sp.Rational(1, 10 ** 12)))},
    notes="Reconstructed accounting: sensitivities 2G/n and 2 sqrt(p) M/n (substitution), "
          "per-step zCDP phi/(2T) for each of the two Gaussians, total phi over T steps "
          "(Lemmas 4, 5), and Lemma 3 at rho = phi gives exactly eps. Audit: T is an input "
          "here, but Theorem 2 sets T = 6 sqrt(rho) Delta/alpha^1.5 with Delta = L(w0,D) - "
          "L(w*,D), which depends on D; the noise variances scale with T, so with that "
          "setting the noise scale is data-dependent and the proof does not apply unless "
          "Delta is replaced by a public bound. The printed 'any delta > 0' includes "
          "delta >= 1, where ln(1/delta) <= 0 and phi can be complex.",
    refs=("wang2020.alg1", "wang2020.lemma3", "wang2020.lemma4", "wang2020.lemma5"),
)

_THM2_STATEMENT = (
    r"r=\sqrt{\frac\alpha\rho},\ T=\frac{6\sqrt\rho\Delta}{\alpha^{1.5}}:\ \text{w.p.}\ge1-\zeta"
    r"-\frac{T}{p^c}\text{ the output is an }O(\alpha)\text{-SOSP if }n\ge\Omega\Big(\frac{p\ln"
    r"\frac1\zeta\sqrt{\ln\frac1\delta}}{\alpha^{1.75}\epsilon}\Big)\ (5)")
_add(
    id="wang2020.thm2", title="DP-TR finds an O(alpha)-SOSP", kind="theorem",
    source="Theorem 2, eq. (5)", category="sample-complexity", statement=_THM2_STATEMENT,
    measured="n needed for an O(alpha)-SOSP w.h.p.", measured_unit=units.ONE,
    assumptions=(BoundedBelow(Delta, scope="empirical"), Lipschitz(G), Smooth(M),
                 TwiceDifferentiable(), HessianLipschitz(rho)),
    settings={r: r_set, T: T_set},
    bound=n_req5, direction="lower", rate=n_req5, rate_notation="Omega",
    hidden=(G, M, rho, Delta), scaling=ALPHA_SCALING,
    expressions={"p_success": 1 - zeta - T / p ** c_u, "T": T_set, "r": r_set},
    relations={"boundary_step": sp.Implies(sp.Gt(lam, sp.sqrt(alpha * rho)), sp.Eq(hnorm, r)),
               "nonvacuous_probability": sp.Gt(1 - zeta - T / p ** c_u, 0)},
    notes="The Omega hides G, M, rho, Delta and ln(1/alpha); as printed (5) has dimension "
          "[w/F]^{7/4}, restored only by the hidden constants. The success probability "
          "1 - zeta - T/p^c is vacuous unless p^c > T = 6 sqrt(rho) Delta/alpha^1.5, i.e. "
          "for small alpha at fixed p. See wang2020.thm2.noise for a derivation of the n "
          "needed by the noise terms.",
    refs=("wang2020.alg1", "wang2020.thm2.noise", "wang2020.remark1"),
)

# dptheory's derivation of the n needed by the noise (proof not in our text).
# Non-final steps: lambda > sqrt(alpha rho), ||h|| = r, model decrease >= lambda r^2/2; with
# ||e_k|| <= alpha/12 and ||H_k|| <= sqrt(alpha rho)/6 the true decrease is
# >= alpha^1.5/(6 sqrt(rho)), which reproduces T = 6 sqrt(rho) Delta/alpha^1.5.
# Final step: ||grad L|| <= (1 + 1/12 + 1/6 + 1/2) alpha, lambda_min >= -(13/6) sqrt(alpha rho).
_sqT = sp.sqrt(T)
_n_grad = 24 * G * _sqT * (sp.sqrt(p) + sp.sqrt(2 * sp.log(T / zeta))) / (alpha * sp.sqrt(phi))
_n_hess = 12 * c_H * p * M * _sqT / sp.sqrt(alpha * rho * phi)
_add(
    id="wang2020.thm2.noise", title="DP-TR: n needed by the noise terms (derived)",
    kind="theorem", source="Theorem 2 (dptheory derivation; proof not in our text)",
    category="sample-complexity", provenance="reconstructed-constants-unknown",
    statement=(r"n\ge\frac{24G\sqrt T(\sqrt p+\sqrt{2\ln(T/\zeta)})}{\alpha\sqrt\phi}+\frac{12c_H"
               r"pM\sqrt T}{\sqrt{\alpha\rho\phi}}\Rightarrow\|\epsilon_k\|\le\frac\alpha{12},\ "
               r"\|H_k\|_2\le\frac{\sqrt{\alpha\rho}}6\ \forall k\text{ w.p.}\ge1-\zeta-"
               r"T\Pr[\|H\|_2>c_H\sigma_2\sqrt p]"),
    measured="n needed for an O(alpha)-SOSP w.h.p.", measured_unit=units.ONE,
    assumptions=(BoundedBelow(Delta, scope="empirical"), Lipschitz(G), Smooth(M),
                 TwiceDifferentiable(), HessianLipschitz(rho)),
    settings={r: r_set, T: T_set},
    bound=_n_grad + _n_hess, direction="lower", rate=n_req5, rate_notation="Omega",
    hidden=(G, M, rho, Delta, c_H), scaling=ALPHA_SCALING,
    expressions={"n_grad": _n_grad, "n_hess": _n_hess,
                 "decrease_per_step": alpha ** sp.Rational(3, 2) / sp.sqrt(rho) * (
                     sp.Rational(1, 2) - sp.Rational(1, 12) - sp.Rational(1, 12)
                     - sp.Rational(1, 6)),
                 "T_from_decrease": Delta / (alpha ** sp.Rational(3, 2) / (6 * sp.sqrt(rho))),
                 "grad_at_output": alpha * (1 + sp.Rational(1, 12) + sp.Rational(1, 6)
                                            + sp.Rational(1, 2)),
                 "hess_at_output": -sp.Rational(13, 6) * sp.sqrt(alpha * rho),
                 "alpha_fixed_n_grad": (sp.sqrt(p) * sp.sqrt(l) / (n * eps)) ** sp.Rational(4, 7),
                 "alpha_fixed_n_hess": (p * sp.sqrt(l) / (n * eps)) ** sp.Rational(4, 5)},
    notes="Derivation (dptheory): with ||e_k|| <= alpha/12 and ||H_k||_2 <= sqrt(alpha rho)/6 "
          "for all k, every non-final step decreases L by >= alpha^1.5/(6 sqrt rho), which "
          "gives exactly the printed T, and the output satisfies ||grad L|| <= 1.75 alpha, "
          "lambda_min >= -(13/6) sqrt(alpha rho). Gaussian norm concentration (union over T "
          "steps) and ||H|| <= c_H sigma_2 sqrt(p) give the two terms. At T = T_set and "
          "eps << ln(1/delta) they scale as sqrt(p) alpha^-1.75 sqrt(ln 1/delta)/eps and "
          "p alpha^-1.25 sqrt(ln 1/delta)/eps: the printed (5), p alpha^-1.75, is never "
          "smaller (so sufficient) but loose by min(sqrt p, alpha^-1/2); the fixed-n accuracy "
          "would be max((sqrt p.../(n eps))^{4/7}, (p.../(n eps))^{4/5}) instead of "
          "(p.../(n eps))^{4/7}. rate = the printed (5) for comparison.",
    refs=("wang2020.thm2",),
)

_add(
    id="wang2020.remark1", title="Comparison with [28]: accuracy at fixed n, iterations, time",
    kind="remark-claim", source="Remark 1 and Sec. 4.1", category="utility",
    statement=(r"[28]:\ n\ge\Omega\big(\frac{p\sqrt{\ln\frac1\delta}}{\alpha^{2\epsilon}}\big)"
               r"\text{ (sic)};\ \text{improvement }O(\frac1{\alpha^{0.25}});\ \text{fixed }n:\ "
               r"O\big((\frac{p\sqrt{\ln(1/\delta)}}{n\epsilon})^{4/7}\big)\text{-SOSP vs }"
               r"O\big((\cdot)^{1/2}\big);\ T=\tilde O(\frac1{\alpha^2})\text{ vs }O(\frac1"
               r"{\alpha^{1.5}});\ \text{time }O(\frac{n^{\mathrm{Poly}(p)}}{\alpha^{1.5}})\text{ vs }"
               r"O(\frac{n^{\mathrm{Poly}(p)}}{\alpha^2})"),
    measured="accuracy alpha_hat of the output at fixed n", measured_unit=units.GRAD,
    bound=_related_acc, rate=_related_acc, rate_notation="O",
    hidden=(G, M, rho, Delta, zeta), garbled=True,
    expressions={"n_28": p * sp.sqrt(l) / (alpha ** 2 * eps),
                 "improvement_factor": (p * sp.sqrt(l) / (alpha ** 2 * eps))
                 / (p * sp.sqrt(l) / (alpha ** sp.Rational(7, 4) * eps)),
                 "alpha_fixed_n_28": _related_acc28,
                 "T_28": 1 / alpha ** 2, "T_TR": 1 / alpha ** sp.Rational(3, 2),
                 "runtime_TR_printed": n ** Polyp / alpha ** sp.Rational(3, 2),
                 "runtime_28_printed": n ** Polyp / alpha ** 2},
    notes="Garbled parts: [28]'s requirement is typeset alpha^{2 epsilon} (read alpha^2 eps, "
          "as in Sec. 2); the running time is printed n^{Poly(p)}/alpha^1.5, i.e. "
          "exponential in Poly(p) in n, which contradicts Sec. 4.2 ('linearly dependent on "
          "the sample size n'): see wang2020.remark1.corrected. The bound is the fixed-n "
          "accuracy, (5) solved for alpha with ln(1/zeta) dropped; its dimension is restored "
          "by the hidden constants.",
    refs=("wang2020.thm2", "wang2020.related", "wang2020.remark1.corrected"),
)
_add(
    id="wang2020.remark1.corrected", title="DP-TR running time, linear in n",
    kind="remark-claim", source="Remark 1 + Sec. 4.2 (dptheory)", category="runtime",
    provenance="corrected",
    statement=r"O\big(T(np^2+p^3)\big)=O\big(\frac{n\,\mathrm{Poly}(p)}{\alpha^{1.5}}\big)",
    measured="operation count of DP-TR", measured_unit=units.ONE,
    settings={T: T_set},
    expressions={"ops_per_iteration": n * p ** 2 + p ** 3,
                 "ops_total": T * (n * p ** 2 + p ** 3),
                 "runtime_corrected": n * Polyp / alpha ** sp.Rational(3, 2)},
    notes="Per iteration: full gradient O(np), full Hessian O(np^2), dense TRS via "
          "eigendecomposition O(p^3); times T = O(alpha^-1.5). Linear in n, as Sec. 4.2 says.",
    refs=("wang2020.remark1",),
)

# ======================================================================================
# DP-STR: privacy and utility
# ======================================================================================
_delta0 = delta / (4 * T)   # matches the printed ln(5T/delta) = ln(1.25/(delta/(4T)))
_eps0_g, _eps_g = _amplified_eps(2 * G / Ssz, Ssz, sig2_STR, _delta0)
_eps0_h, _eps_h = _amplified_eps(2 * sp.sqrt(p) * M / Tsz, Tsz, sig2H_STR, _delta0)
_eps_tot_printed = _advcomp([(_eps_g, T), (_eps_h, T)], delta / 2)
sig2_STR_corr = 256 * G ** 2 * T * sp.log(5 * T / delta) * sp.log(2 / delta) / (n ** 2 * eps ** 2)
_eps0_gc, _eps_gc = _amplified_eps(2 * G / Ssz, Ssz, sig2_STR_corr, _delta0)
_eps_tot_corr = _advcomp([(_eps_gc, T), (_eps_h, T)], delta / 2)
_add(
    id="wang2020.thm3", title="DP-STR is (eps, delta)-DP", kind="theorem", source="Theorem 3",
    category="privacy", notation=NOTATION_L,
    statement=r"\text{For any }0<\epsilon,\delta<1,\text{ Algorithm 2 is }(\epsilon,\delta)\text{-differentially private.}",
    measured="achieved epsilon at delta", measured_unit=units.ONE,
    assumptions=(Lipschitz(G), Smooth(M)),
    hypotheses=(("0 < eps < 1", sp.Lt(eps, 1)), ("0 < delta < 1", sp.Lt(delta, 1))),
    expressions={"sigma2": sig2_STR, "sigma2_H": sig2H_STR,
                 "eps_prime_lemma1": _epsp,
                 "eps0_grad": _eps0_g, "eps_step_grad": _eps_g,
                 "eps0_hess": _eps0_h, "eps_step_hess": _eps_h,
                 "eps_total": _eps_tot_printed,
                 "delta_total": 2 * T * _delta0 + delta / 2,
                 "sigma2_lemma1_literal": 512 * G ** 2 * T * sp.log(5 * T / delta)
                 * sp.log(2 / delta) / (n ** 2 * eps ** 2)},
    relations={"privacy": sp.Le(_eps_tot_printed, eps),
               "base_eps_grad_le_1 (Def 3 / Lemma 2)": sp.Le(_eps0_g, 1),
               "base_eps_hess_le_1 (Def 3 / Lemma 2)": sp.Le(_eps0_h, 1)},
    notes="Accounting by the paper's own tools (2T Gaussian mechanisms, sensitivities "
          "2G/|S| and 2 sqrt(p) M/|T|, delta0 = delta/(4T) which reproduces ln(5T/delta), "
          "Def. 3 then Lemma 2, advanced composition with delta' = delta/2). The printed "
          "Hessian variance gives eps_step_hess = eps' of Lemma 1; the printed gradient "
          "variance has no factor T and gives eps_step_grad = eps/(2 sqrt(2 ln(2/delta))) "
          "= sqrt(T) eps', so the composed eps is about eps sqrt(T+1)/2 > eps for T >= 4: "
          "Theorem 3 does not follow for the gradient part. Applying Lemma 1 literally to "
          "2T mechanisms gives 512 T instead of 256 T. Sec. 5 repeats the printed gradient "
          "variance. Lemma 2 and Def. 3 also need the base eps0 = eps_step n/(2|S|) <= 1. "
          "Audit: T = 6 sqrt(rho) Delta/alpha^1.5 depends on D through Delta. See "
          "wang2020.thm3.corrected.",
    refs=("wang2020.alg2", "wang2020.lemma1", "wang2020.lemma2", "wang2020.def3",
          "wang2020.thm3.corrected"),
)
_add(
    id="wang2020.thm3.corrected", title="DP-STR privacy with the gradient variance times T",
    kind="theorem", source="Theorem 3 (dptheory correction)", category="privacy",
    provenance="corrected", notation=NOTATION_L,
    statement=(r"\sigma^2=\frac{256G^2T\ln\frac{5T}{\delta}\ln\frac2\delta}{n^2\epsilon^2},\ "
               r"\sigma_2^2\text{ as printed},\ \epsilon_0\le1,\ \delta\le\frac12\Rightarrow"
               r"(\epsilon,\delta)\text{-DP}"),
    measured="achieved epsilon at delta", measured_unit=units.ONE,
    assumptions=(Lipschitz(G), Smooth(M)),
    hypotheses=(("0 < eps < 1", sp.Lt(eps, 1)), ("0 < delta <= 1/2", sp.Le(delta, sp.Rational(1, 2))),
                ("base eps0 (gradient) <= 1", sp.Le(_eps0_gc, 1)),
                ("base eps0 (Hessian) <= 1", sp.Le(_eps0_h, 1))),
    expressions={"sigma2": sig2_STR_corr, "sigma2_H": sig2H_STR,
                 "eps_step_grad": _eps_gc, "eps_step_hess": _eps_h,
                 "eps_total": _eps_tot_corr},
    relations={"privacy": sp.Le(_eps_tot_corr, eps)},
    notes="Both mechanisms then have per-step eps' = eps/(2 sqrt(2T ln(2/delta))); advanced "
          "composition of 2T of them gives eps/sqrt(2) + 2T eps'(e^eps'-1) <= 0.92 eps for "
          "eps < 1, delta <= 1/2 (the second term is about eps^2/(4 ln(2/delta))).",
    refs=("wang2020.thm3",),
)

_add(
    id="wang2020.thm4", title="DP-STR finds an O(alpha)-SOSP", kind="theorem",
    source="Theorem 4", category="sample-complexity", notation=NOTATION_L,
    statement=(r"r=\sqrt{\frac\alpha\rho},\ T=\frac{6\sqrt\rho\Delta}{\alpha^{1.5}},\ |\mathcal S|"
               r"\ge\Omega(\frac{L^2\ln\frac p\zeta}{\alpha^2}),\ |\mathcal T|\ge\Omega(\frac{M^2"
               r"\ln\frac p\zeta}{\alpha\rho}):\ \text{w.p.}\ge1-3\zeta-\frac T{p^c}\text{ an }"
               r"O(\alpha)\text{-SOSP if }n\text{ satisfies (5)}"),
    measured="n needed for an O(alpha)-SOSP w.h.p.", measured_unit=units.ONE,
    assumptions=(BoundedBelow(Delta, scope="empirical"), Lipschitz(G), Smooth(M),
                 TwiceDifferentiable(), HessianLipschitz(rho)),
    hypotheses=(("|S| >= Omega(L^2 ln(p/zeta)/alpha^2)", sp.Ge(Ssz, S_req)),
                ("|T| >= Omega(M^2 ln(p/zeta)/(alpha rho))", sp.Ge(Tsz, T_req)),
                ("|S| <= n (S subset of [n])", sp.Le(Ssz, n)),
                ("|T| <= n (T subset of [n])", sp.Le(Tsz, n))),
    settings={r: r_set, T: T_set, Ssz: S_req, Tsz: T_req},
    bound=n_req5, direction="lower", rate=n_req5, rate_notation="Omega",
    hidden=(G, M, rho, Delta), scaling=ALPHA_SCALING,
    expressions={"p_success": 1 - 3 * zeta - T / p ** c_u,
                 "Ssz_min": S_req, "Tsz_min": T_req},
    notes="The subsets must fit in [n]: |S| >= G^2 ln(p/zeta)/alpha^2 grows as alpha^-2, "
          "faster than (5)'s alpha^-1.75, so (5) alone does not suffice as alpha -> 0 at "
          "fixed p/eps; see wang2020.thm4.corrected. Subsampling concentration should also "
          "be union-bounded over the T steps (ln(pT/zeta)).",
    refs=("wang2020.alg2", "wang2020.thm2", "wang2020.thm4.corrected"),
)
# (5) with the gradient-noise constants G (rho Delta^2)^{1/4} of wang2020.thm2.noise written
# out, so that the sum with the (dimensionless) subsample sizes is dimensionally consistent.
_n5_dim = G * (rho * Delta ** 2) ** sp.Rational(1, 4) * n_req5
_add(
    id="wang2020.thm4.corrected", title="DP-STR: n must also exceed the subsample sizes",
    kind="theorem", source="Theorem 4 (dptheory correction)", category="sample-complexity",
    provenance="corrected", notation=NOTATION_L,
    statement=(r"n\ge\Omega\Big(\frac{p\ln\frac1\zeta\sqrt{\ln\frac1\delta}}{\alpha^{1.75}"
               r"\epsilon}\Big)+\frac{L^2\ln\frac p\zeta}{\alpha^2}+\frac{M^2\ln\frac p\zeta}"
               r"{\alpha\rho}"),
    measured="n needed for an O(alpha)-SOSP w.h.p.", measured_unit=units.ONE,
    assumptions=(BoundedBelow(Delta, scope="empirical"), Lipschitz(G), Smooth(M),
                 TwiceDifferentiable(), HessianLipschitz(rho)),
    settings={r: r_set, T: T_set},
    bound=_n5_dim + S_req + T_req, direction="lower", rate=n_req5, rate_notation="Omega",
    hidden=(G, M, rho, Delta), scaling=ALPHA_SCALING,
    expressions={"n5_with_constants": _n5_dim, "Ssz_min": S_req, "Tsz_min": T_req},
    notes="S and T are subsets of [n], so n >= |S|, |T| at their prescribed sizes. The "
          "|S| term ~ alpha^-2 is dominated by (5) ~ p alpha^-1.75/eps iff p/eps >= "
          "alpha^-1/4 (logs and constants aside); otherwise the sample complexity is not "
          "'the same as in Theorem 2'. The constant G (rho Delta^2)^{1/4} of the first term "
          "is the one of the gradient-noise term of wang2020.thm2.noise.",
    refs=("wang2020.thm4", "wang2020.thm2.noise"),
)

_add(
    id="wang2020.sec4.2.time", title="DP-STR running time", kind="remark-claim",
    source="Sec. 4.2 (after Algorithm 2)", category="runtime", notation=NOTATION_L,
    statement=(r"O(T(|\mathcal S|+|\mathcal T|)\mathrm{Poly}(p))=O(\frac{\mathrm{Poly}(p)}"
               r"{\alpha^{3.5}}),\text{ independent of }n"),
    measured="operation count / wall clock", measured_unit=units.ONE,
    settings={T: T_set, Ssz: S_req, Tsz: T_req},
    bound=T * (Ssz + Tsz) * Polyp, rate=Polyp / alpha ** sp.Rational(7, 2), rate_notation="O",
    hidden=(G, M, rho, Delta, zeta), scaling={alpha: -1},
    expressions={"runtime_DPTR_at_min_n": T_set * n_req5 * Polyp},
    notes="T|S| ~ alpha^-3.5 leads, T|T| ~ alpha^-2.5. For comparison, DP-TR at the smallest "
          "n of (5) costs T n Poly(p) ~ p alpha^-3.25/eps: DP-STR is asymptotically faster "
          "only when n >> alpha^-2, i.e. exactly when |S| <= n is not binding.",
    refs=("wang2020.thm4", "wang2020.remark1.corrected"),
)

_add(
    id="wang2020.remark2", title="Open questions", kind="remark-claim", source="Remark 2",
    category="comparison",
    statement=(r"\text{Unknown whether [28] has a stochastic version; the dual variable }"
               r"\lambda^k\text{ as stopping criterion allows DP-STR; SVRG-type ideas and "
               r"inexact TRS left open.}"),
    notes="Qualitative.",
)

_sig2_TR_printed_approx = 64 * G ** 2 * T * l / (n ** 2 * eps ** 2)
_add(
    id="wang2020.sec5.noise", title="Noise comparison DP-STR vs DP-TR", kind="remark-claim",
    source="Sec. 5.2", category="noise", notation=NOTATION_L,
    statement=(r"\sigma^2=\frac{256L^2\ln\frac{5T}{\delta}\ln\frac2\delta}{n^2\epsilon^2}\text{ "
               r"(Alg. 2) vs }\sigma^2=\frac{4L^2T}{n^2\phi}\approx\frac{64L^2T\log\frac1\delta}"
               r"{n^2\epsilon^2}\text{ (Alg. 1)}"),
    measured="per-coordinate noise variance", measured_unit=units.GRAD_VAR,
    expressions={"sigma2_TR": sig2_TR, "sigma2_TR_approx_printed": _sig2_TR_printed_approx,
                 "sigma2_STR": sig2_STR,
                 "ratio_exact_to_printed_approx": sig2_TR / _sig2_TR_printed_approx},
    notes="phi = eps^2/(4 ln(1/delta)) (1 + O(eps/ln(1/delta))), so 4L^2T/(n^2 phi) ~ "
          "16 L^2 T ln(1/delta)/(n^2 eps^2): the printed 64 is 4 times the leading term "
          "(it is an upper bound when eps <= 3 ln(1/delta)). See "
          "wang2020.sec5.noise.corrected.",
    refs=("wang2020.alg1", "wang2020.alg2", "wang2020.sec5.noise.corrected"),
)
_add(
    id="wang2020.sec5.noise.corrected", title="DP-TR noise variance, leading term",
    kind="remark-claim", source="Sec. 5.2 (dptheory)", category="noise",
    provenance="corrected", notation=NOTATION_L,
    statement=r"\frac{4L^2T}{n^2\phi}\sim\frac{16L^2T\ln\frac1\delta}{n^2\epsilon^2}\quad(\epsilon\ll\ln\frac1\delta)",
    measured="per-coordinate noise variance", measured_unit=units.GRAD_VAR,
    expressions={"sigma2_TR": sig2_TR,
                 "sigma2_TR_leading": 16 * G ** 2 * T * l / (n ** 2 * eps ** 2),
                 "sigma2_TR_upper": 16 * G ** 2 * T * (eps + l) / (n ** 2 * eps ** 2)},
    relations={"upper": sp.Le(sig2_TR, 16 * G ** 2 * T * (eps + l) / (n ** 2 * eps ** 2))},
    notes="sqrt(eps+l) - sqrt(l) = eps/(sqrt(eps+l)+sqrt(l)) >= eps/(2 sqrt(eps+l)), so "
          "4/phi <= 16 (eps + l)/eps^2, with equality in the limit eps/l -> 0 up to l.",
    refs=("wang2020.sec5.noise",),
)

_add(
    id="wang2020.sec5.exp", title="Experimental claims", kind="remark-claim",
    source="Sec. 5", category="experiment",
    statement=(r"\text{Covertype }(n=581012,p=54),\ \text{IJCNN }(n=35000,p=22);\ \delta=1/n,\ "
               r"\alpha=0.1;\ \text{non-private accuracy 86\%, 95\%; comparable when }\epsilon"
               r"\ge1.5;\ \text{DP-TR beats DP-GD; DP-STR worse gap, least time}"),
    measured="optimality gap, gradient norm, accuracy, time", measured_unit=units.LOSS,
    expressions={"delta_exp": 1 / n, "T_exp": T_set,
                 "sigma2_TR_exp": sig2_TR.subs(delta, 1 / n),
                 "sigma2_STR_exp": sig2_STR.subs(delta, 1 / n)},
    notes="Empirical; lambda = 1e-3 for both losses; DP-STR batch 50000 (Covertype), 5000 "
          "(IJCNN). alpha = 0.1 is given without units: T = 6 sqrt(rho) Delta/alpha^1.5 then "
          "depends on the loss's rho and Delta.",
)

__all__ = ["PAPER", "ITEMS"]
