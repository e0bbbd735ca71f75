"""yang2022 — DP-SGD and DP-NSGD under (L0, L1)-generalized smoothness.

Reference: X. Yang, H. Zhang, W. Chen, T.-Y. Liu, *Normalized/Clipped SGD with Perturbation
for Differentially Private Non-Convex Optimization*, arXiv 2206.13033 (2022).
Encoded from a text of the paper whose formulas were stripped (the catalog's part V). Every formula here is the catalog's *reconstruction*;
items carry provenance ``reconstructed`` or ``reconstructed-constants-unknown`` exactly as
the catalog tags them (the three untagged prose items are ``printed``); derived variants are
``corrected``.

Printed letter -> shared symbol
-------------------------------
======================  =================  ==================================================
paper                   dptheory           note
======================  =================  ==================================================
N (samples)             ``S.n``            notation "N"
d, eps, delta, T, B     ``S.d`` ...        as printed
q = B/N                 ``S.q``
sigma                   ``S.sigma``        dimensionless: noise std sigma*C (clipping) or
                                           sigma on the dimensionless processed gradients
C                       ``S.C``            clip threshold, a gradient norm
r                       ``S.r``            g/(||g|| + r): a gradient norm
L0, L1                  ``S.L0, S.L1``
tau0, tau1              ``S.tau0, S.tau1``
D_f = f(w0) - f*        ``S.Fgap``         notation "D_f" (symbol introduced by the catalog)
eta (DP-NSGD, eq. (4))  ``S.eta_n``        w - (eta/B) sum g/(||g||+r): eta has [w]
eta (DP-SGD, eq. (8))   ``S.eta``          w - (eta/B) sum clip_C(g): eta has [w]^2/[F]
Renyi order alpha       ``S.z``
k1, k2, k3, c1, c2      ``y22_k1`` ...     unknown constants, prefixed
x = ||grad f(w_t)||     ``y22_x``
======================  =================  ==================================================

Dimensional reading of the step sizes: eq. (4) eta = sqrt(D_f/(T L0 (1 + sigma^2 d/B^2)))
has dimension sqrt([F]/([F]/[w]^2)) = [w], which is the DP-NSGD step (processed gradients
are dimensionless); eq. (8) = (4)/C has [w]^2/[F], the DP-SGD step. Both consistent.
"""

from __future__ import annotations

import sympy as sp

from dptheory.symbolic import (AffineDeviation, BoundedBelow, GeneralizedSmooth, Paper, S,
                               Sensitivity, Theorem, register, units)

PAPER = Paper(
    key="yang2022",
    title="Normalized/Clipped SGD with Perturbation for Differentially Private "
          "Non-Convex Optimization",
    authors="Xiaodong Yang, Huishuai Zhang, Wei Chen, Tie-Yan Liu",
    venue="",
    year=2022,
    arxiv="2206.13033",
    source="text with its formulas stripped: formulas reconstructed",
    in_text=("title",),                 # our copy prints no author line, year or arXiv id
)

# --- paper's letters bound to shared symbols ---------------------------------------------
N = S.n
d, eps, delta, T, B, q = S.d, S.eps, S.delta, S.T, S.B, S.q
sigma, C, r = S.sigma, S.C, S.r
L0, L1, tau0, tau1 = S.L0, S.L1, S.tau0, S.tau1
Df = S.Fgap                     # yang2022's D_f = f(w_0) - f*
eta_n = S.eta_n                 # DP-NSGD step, [w]
eta = S.eta                     # DP-SGD step, [w]^2/[F]
alpha_R = S.z                   # Renyi order (paper: alpha)

NOTATION = {S.n: "N", S.Fgap: "D_f", S.z: r"\alpha", S.eta_n: r"\eta", S.eta: r"\eta"}

U = units
# --- paper-local symbols (prefixed y22_) ------------------------------------------------
k1 = register("y22_k1", U.ONE, "unknown constant k1 of (5) (non-vanishing term)", latex="k_1",
              example=1.0)
k2 = register("y22_k2", U.ONE, "unknown constant k2 of (5)/(9) (T^{-1/4} term)", latex="k_2",
              example=1.0)
k3 = register("y22_k3", U.ONE, "unknown constant k3 of (5)/(9) (T^{-1/2} term)", latex="k_3",
              example=1.0)
c1 = register("y22_c1", U.ONE, "absolute constant c1 of Lemma 3.1", latex="c_1", example=1.0)
c2 = register("y22_c2", U.ONE, "absolute constant c2 of Lemma 3.1", latex="c_2", example=1.0)
x = register("y22_x", U.GRAD, "gradient norm ||grad f(w_t)||", latex=r"\|\nabla f(w_t)\|",
             example=1.0)
u = register("y22_u", U.GRAD, "per-sample gradient norm ||g_t^(i)||", latex=r"\|g\|",
             example=1.0)
dev = register("y22_dev", U.GRAD, "deviation ||g_t^(i) - grad f(w_t)||",
               latex=r"\|g-\nabla f\|", example=0.5)
Edev2 = register("y22_Edev2", U.GRAD_VAR, "E_t ||g - grad f(w_t)||^2",
                 latex=r"\mathbb E_t\|g-\nabla f\|^2", example=0.25)
a_toy = register("y22_a", U.GRAD, "toy example: ||grad f|| = a (App. A.1)", latex="a",
                 example=0.2)
P_D = register("y22_P_D", U.ONE, "P[M(D) in S]", latex=r"\mathbb P[\mathcal M(D)\in S]",
               domain="[0, 1]", positive=False, nonnegative=True, example=0.3)
P_Dp = register("y22_P_Dp", U.ONE, "P[M(D') in S]", latex=r"\mathbb P[\mathcal M(D')\in S]",
                domain="[0, 1]", positive=False, nonnegative=True, example=0.3)
gdiff = register("y22_gdiff", U.GRAD, "||grad f(w) - grad f(w')||",
                 latex=r"\|\nabla f(w)-\nabla f(w')\|", positive=False, nonnegative=True,
                 example=0.1)
dist = register("y22_dist", U.PARAM, "||w - w'||", latex=r"\|w-w'\|", example=0.1)
f_w0 = register("y22_f_w0", U.LOSS, "f(w_0)", latex="f(w_0)", positive=False, example=1.5)
f_star = register("y22_f_star", U.LOSS, "f* = inf f", latex="f^*", positive=False, example=1.0)
f_w = register("y22_f_w", U.LOSS, "f(w) (f(w_t) in Lemmas A.2/A.4)", latex="f(w)",
               positive=False, example=1.0)
f_wp = register("y22_f_wp", U.LOSS, "f(w')", latex="f(w')", positive=False, example=0.9)
inner = register("y22_inner", U.LOSS, "<grad f(w), w' - w>",
                 latex=r"\langle\nabla f(w),w'-w\rangle", positive=False, example=-0.1)
Ef_next = register("y22_Ef_next", U.LOSS, "E_t f(w_{t+1})", latex=r"\mathbb E_tf(w_{t+1})",
                   positive=False, example=0.9)
first_n = register("y22_first_n", U.GRAD, "E_t <grad f(w_t), g/(||g||+r)>",
                   latex=r"\mathbb E_t\langle\nabla f,\frac{g}{\|g\|+r}\rangle",
                   positive=False, example=0.3)
second_n = register("y22_second_n", U.ONE, "E_t ||g/(||g||+r)||^2",
                    latex=r"\mathbb E_t\|\frac{g}{\|g\|+r}\|^2", example=0.5)
first_c = register("y22_first_c", U.GRAD_VAR, "E_t <grad f(w_t), clip_C(g)>",
                   latex=r"\mathbb E_t\langle\nabla f,\mathrm{clip}_C(g)\rangle",
                   positive=False, example=0.3)
second_c = register("y22_second_c", U.GRAD_VAR, "E_t ||clip_C(g)||^2",
                    latex=r"\mathbb E_t\|\mathrm{clip}_C(g)\|^2", example=0.2)
T0n = register("y22_T0", U.ONE, "iteration threshold of Lemma B.2 (DP-NSGD)", latex="T_0",
               integer=True, example=100)
T0c = register("y22_T0c", U.ONE, "iteration threshold of Lemma C.2 (DP-SGD)",
               latex=r"T_0^{C}", integer=True, example=100)
eta22 = register("y22_eta22", U.PARAM, "step-size ceiling of condition (22) (form unknown)",
                 latex=r"\bar\eta_{(22)}", example=0.01)
K_al = register("y22_K", U.ONE, "K_M(alpha), functional (45) at order alpha",
                latex=r"K_{\mathcal M}(\alpha)", positive=False, nonnegative=True, example=0.5)
K_inf = register("y22_Kinf", U.ONE, "K_M(infinity)", latex=r"K_{\mathcal M}(\infty)",
                 positive=False, nonnegative=True, example=0.5)
K_1 = register("y22_K1", U.ONE, "K of the first composed mechanism", latex=r"K_{\mathcal M_1}",
               positive=False, nonnegative=True, example=0.2)
K_2 = register("y22_K2", U.ONE, "K of the second composed mechanism",
               latex=r"K_{\mathcal M_2}", positive=False, nonnegative=True, example=0.2)
K_12 = register("y22_K12", U.ONE, "K of the composition M1 o M2",
                latex=r"K_{\mathcal M_1\circ\mathcal M_2}", positive=False, nonnegative=True,
                example=0.3)
K_sub = register("y22_Ksub", U.ONE, "K of the subsampled Gaussian M_{sigma,q}",
                 latex=r"K_{\mathcal M_{\sigma,q}}", positive=False, nonnegative=True,
                 example=0.01)
rho_z = register("y22_rho", U.ONE, "zCDP parameter rho (Prop. E.1(iv)-(v), E.3)",
                 latex=r"\rho", example=0.05)
omega = register("y22_omega", U.ONE, "tCDP order bound omega > 1", latex=r"\omega",
                 example=10.0)
lhs7 = register("y22_lhs7", U.GRAD, "<grad f(w), m/||m||>", latex=r"\langle\nabla f,m/\|m\|\rangle",
                positive=False, example=0.5)
err7 = register("y22_err", U.GRAD, "||m - grad f(w)||", latex=r"\|m-\nabla f(w)\|",
                positive=False, nonnegative=True, example=0.1)

# --- shared reconstructed expressions (catalog preamble) ---------------------------------
M = 2 * tau0 / (1 - tau1)                          # a.s. bound on ||g|| when x < tau0/(1-tau1)
Ksig = sigma**2 * d / B**2                         # noise term of the second-order bracket
A_T = Df * L0 * (1 + Ksig) / T                     # [F/w]^2: what (5) and (9) decay through
x_nv = sp.Min(tau0 / (1 - tau1), tau0**2 / ((1 - tau1)**2 * r))    # non-vanishing level
eta4 = sp.sqrt(Df / (T * L0 * (1 + Ksig)))         # (4): dimension [w]  -> eta_n
eta8 = sp.sqrt(Df / (T * L0 * (1 + Ksig))) / C     # (8): dimension [w]^2/[F] -> eta
sigma_req = c2 * B * sp.sqrt(T * sp.log(1 / delta)) / (N * eps)    # Lemma 3.1
bound5 = (k1 * x_nv + k2 * sp.sqrt(M + r) * A_T**sp.Rational(1, 4) + k3 * sp.sqrt(A_T))
bound9 = k2 * sp.sqrt(C) * A_T**sp.Rational(1, 4) + k3 * sp.sqrt(A_T)
# T -> oo with sigma = sigma_req: sigma^2 d/(B^2 T) -> c2^2 d log(1/delta)/(N eps)^2.
A_inf = c2**2 * Df * L0 * d * sp.log(1 / delta) / (N**2 * eps**2)
bound_cor33 = k1 * x_nv + k2 * sp.sqrt(M + r) * A_inf**sp.Rational(1, 4) + k3 * sp.sqrt(A_inf)
bound_cor35 = k2 * sp.sqrt(C) * A_inf**sp.Rational(1, 4) + k3 * sp.sqrt(A_inf)
rate_priv = (d * sp.log(1 / delta) / (N**2 * eps**2))**sp.Rational(1, 4)

# Lemma A.3's function (16) and its single-formula alternative.
h16 = sp.Piecewise(
    (x * ((1 - tau1) * x - tau0) / ((1 + tau1) * x + tau0 + r), x >= tau0 / (1 - tau1)),
    (x * (x - (sp.sqrt(M + r) - sp.sqrt(r))**2) / (M + r), True))
rho_x = tau0 + tau1 * x
u_x = (1 + tau1) * x + tau0
h16_alt = x * (x - rho_x * u_x / (u_x + r)) / (x + r)
# positive root of (1 - tau1^2) x^2 + (r - 2 tau1 tau0) x - tau0^2 = 0
x_star = ((-(r - 2 * tau1 * tau0) + sp.sqrt((r - 2 * tau1 * tau0)**2
                                             + 4 * (1 - tau1**2) * tau0**2))
          / (2 * (1 - tau1**2)))
# Lemma A.5's function (20).
hC20 = sp.Piecewise((x**2, (1 + tau1) * x + tau0 <= C),
                    (C * x * ((1 - tau1) * x - tau0) / ((1 + tau1) * x + tau0), True))

GS = GeneralizedSmooth(L0, L1, restricted=True, scope="empirical",
                       note="Def. 2.2; reading (R) ||w-w'|| <= 1/L1 (global reading (G) also "
                            "possible, see yang2022.def2.2)")
LB = BoundedBelow(Df, scope="empirical", note="f* = inf f > -oo; D_f = f(w0) - f*")
AD = AffineDeviation(tau0, tau1, scope="per-sample",
                     note="a.s.; unbiased per-sample gradients; 0 <= tau1 < 1")

R = "reconstructed"
RCU = "reconstructed-constants-unknown"
SRC = "arXiv 2206.13033"


def _t(id, title, kind, source, provenance, **kw):
    kw.setdefault("notation", NOTATION)
    return Theorem(id=id, title=title, kind=kind, source=f"{SRC}, {source}",
                   provenance=provenance, paper="yang2022", **kw)


ITEMS: list[Theorem] = []
add = ITEMS.append

# ----------------------------------------------------------------------------- Sec. 1-2
add(_t("yang2022.setup", "problem, oracle and utility measure", "definition",
       "eq. (1), Sec. 2.1", R, category="definition",
       statement=r"\min_{w\in\mathbb R^d} f(w):=\frac1N\sum_{i=1}^N\ell(w,z_i);\quad "
                 r"\text{utility } \min_{0\le t<T}\mathbb E\|\nabla f(w_t)\|",
       measured="min_t E||grad f(w_t)|| (alt. reading E min_t ||grad f(w_t)||)",
       measured_unit=U.GRAD,
       notes="Placement of E relative to min not recoverable; both readings to be reported."))

add(_t("yang2022.def2.1", "(eps, delta)-DP (substitution neighbours)", "definition",
       "Definition 2.1", R, category="definition",
       statement=r"\mathbb P[\mathcal M(D)\in S]\le e^\epsilon\mathbb P[\mathcal M(D')\in S]"
                 r"+\delta",
       measured="privacy curve", measured_unit=U.ONE,
       relations={"dp": P_D <= sp.exp(eps) * P_Dp + delta},
       notes="D, D' differ by substituting one record."))

add(_t("yang2022.def2.2", "(L0,L1)-generalized smoothness", "definition", "Definition 2.2", R,
       category="definition",
       statement=r"\|\nabla f(w)-\nabla f(w')\|\le(L_0+L_1\|\nabla f(w)\|)\|w-w'\|"
                 r"\quad(\|w-w'\|\le 1/L_1\ \text{under reading (R)})",
       measured="feasible (L0, L1)", measured_unit=U.SMOOTH,
       assumptions=(GS,),
       relations={"gen-smooth": gdiff <= (L0 + L1 * x) * dist,
                  "restriction (R)": dist <= 1 / L1,
                  "L1=0 gives L0-smooth": sp.Eq(((L0 + L1 * x) * dist).subs(L1, 0), L0 * dist)},
       notes="x stands for ||grad f(w)||. Whether the printed definition carries "
             "||w-w'|| <= 1/L1 is uncertain: reading (R) restricted, (G) global."))

add(_t("yang2022.assump2.1", "generalized smoothness and lower bound", "assumption",
       "Assumption 2.1", R, category="assumption",
       statement=r"f\ (L_0,L_1)\text{-generalized smooth};\ f^*=\inf f>-\infty;\ "
                 r"D_f:=f(w_0)-f^*",
       measured="D_f", measured_unit=U.LOSS, assumptions=(GS, LB),
       relations={"gap": sp.Eq(Df, f_w0 - f_star)},
       notes="No bound on ||grad f|| (no Lipschitz constant)."))

add(_t("yang2022.assump2.2", "almost-sure affine gradient deviation", "assumption",
       "Assumption 2.2", R, category="assumption",
       statement=r"\mathbb E_tg_t^{(i)}=\nabla f(w_t),\quad \|g_t^{(i)}-\nabla f(w_t)\|\le"
                 r"\tau_0+\tau_1\|\nabla f(w_t)\|\ \text{a.s.}",
       measured="feasible (tau0, tau1)", measured_unit=U.GRAD, assumptions=(AD,),
       hypotheses=(("0 <= tau1 < 1 (reconstructed)", tau1 < 1),),
       relations={"deviation": dev <= tau0 + tau1 * x,
                  "norm lower (consequence)": (1 - tau1) * x - tau0 <= u,
                  "norm upper (consequence)": u <= (1 + tau1) * x + tau0,
                  "expectation version [25] (constants unknown)":
                      Edev2 <= tau0**2 + tau1**2 * x**2},
       notes="[48],[47] correspond to tau1 = 0. tau1 < 1 is part of the reconstruction."))

add(_t("yang2022.eq2", "DP-SGD update (2)", "definition", "eq. (2)", R, category="algorithm",
       statement=r"w_{t+1}=w_t-\frac\eta B\Big(\sum_{i\in S_t}h_t^{(i)}g_t^{(i)}+\sigma C\xi_t"
                 r"\Big),\ h_t^{(i)}=\min\{1,C/\|g_t^{(i)}\|\}",
       measured="", measured_unit=None,
       expressions={"clip_factor": sp.Min(1, C / u),
                    "clipped_norm": u * sp.Min(1, C / u),
                    "noise_var_coord_avg": (sigma * C / B)**2,
                    "step_noise_std": eta * sigma * C / B},
       relations={"clipped norm <= C": u * sp.Min(1, C / u) <= C},
       notes="Factor 1/B on the noise inferred from sigma^2 d/B^2 of (12)/(19). eta is the "
             "SGD step S.eta ([w]^2/[F]); step noise std eta sigma C/B has dimension [w]."))

add(_t("yang2022.eq3", "DP-NSGD normalization factor (3)", "definition", "eq. (3)", R,
       category="algorithm",
       statement=r"h_t^{(i)}=\frac{1}{\|g_t^{(i)}\|+r},\ w_{t+1}=w_t-\frac\eta B\Big(\sum_i"
                 r"\frac{g_t^{(i)}}{\|g_t^{(i)}\|+r}+\sigma\xi_t\Big)",
       measured="", measured_unit=None,
       expressions={"norm_factor": 1 / (u + r),
                    "processed_norm": u / (u + r),
                    "noise_var_coord_avg": (sigma / B)**2,
                    "step_noise_std": eta_n * sigma / B},
       relations={"processed norm < 1": u / (u + r) < 1},
       notes="sigma C replaced by sigma, independent of r; eta is S.eta_n ([w])."))

add(_t("yang2022.alg1", "DP-NSGD (Algorithm 1)", "algorithm", "Algorithm 1", R,
       category="algorithm",
       statement=r"S_t\subset[N],|S_t|=B\ \text{(w/o replacement)};\ "
                 r"w_{t+1}=w_t-\frac\eta B(\sum_{i\in S_t}\frac{g_t^{(i)}}{\|g_t^{(i)}\|+r}"
                 r"+\sigma\xi_t)",
       measured="iterates; min_t E||grad f(w_t)||", measured_unit=U.GRAD,
       settings={sigma: sigma_req, eta_n: eta4},
       expressions={"sampling_ratio": B / N, "step_noise_std": eta_n * sigma / B,
                    "noise_multiplier": sigma, "eta4": eta4},
       notes="Uniform sampling without replacement; DP-SGD: clipping and sigma*C instead."))

# ----------------------------------------------------------------------------- Sec. 3
add(_t("yang2022.lemma3.1", "privacy guarantee", "lemma", "Lemma 3.1 / App. E", RCU,
       category="privacy",
       statement=r"\exists c_1,c_2:\ (\epsilon,\delta)\text{-DP for }\epsilon<c_1\frac{B^2T}{N^2},"
                 r"\ \delta>0\ \text{if}\ \sigma\ge c_2\frac{B\sqrt{T\log(1/\delta)}}{N\epsilon}",
       measured="noise multiplier sigma achieving (eps, delta)", measured_unit=U.ONE,
       hypotheses=(("eps-condition", eps < c1 * B**2 * T / N**2),),
       bound=sigma_req, direction="lower",
       relations={"noise": sigma >= sigma_req},
       # the noise is calibrated on the sum of B per-sample terms, each of norm < 1
       # (normalized, eq. (3)) or <= C (clipped, eq. (2)): replacing one record moves it by 2
       # or 2C (the "(2)^2" of rho_per_step)
       sensitivities={
           "normalize": Sensitivity(sp.Integer(2), "replace-one",
                                    "||sum_i g_i/(||g_i||+r) - sum_i g'_i/(||g'_i||+r)||",
                                    source="Lemma 3.1 / App. E (reconstructed)"),
           "clip": Sensitivity(2 * C, "replace-one",
                               "||sum_i clip_C(g_i) - sum_i clip_C(g'_i)||",
                               source="Lemma 3.1 / App. E (reconstructed)")},
       expressions={
           "rho_per_step": 2 / sigma**2,        # zCDP of Gaussian on the sum: (2)^2/(2 sigma^2)
           "eps_via_propE3": 13 * (B / N)**2 * (2 / sigma**2) * T * alpha_R
                             + sp.log(1 / delta) / (alpha_R - 1),
           "omega_prime": sp.log(N / B) * sigma**2 / 8},
       notes="Form of Abadi et al. 2016 Thm 1 with q = B/N; 'Provided that [...]' clause "
             "not recoverable (possibly q <= 0.1, rho <= 0.1, ... of Prop. E.3). The route via "
             "the reconstructed Prop. E.3 additionally needs eps <~ c2^2 log(1/delta)/26 and "
             "sigma^2 >= 20 (rho <= 0.1)."))

add(_t("yang2022.abstract", "headline rate", "theorem", "Abstract; Sec. 1", R,
       category="utility",
       statement=r"\min_t\mathbb E\|\nabla f(w_t)\|=O\Big(\frac{(d\log(1/\delta))^{1/4}}"
                 r"{\sqrt{N\epsilon}}\Big)",
       measured="min_t E||grad f(w_t)||", measured_unit=U.GRAD,
       assumptions=(GS, LB, AD),
       hypotheses=(("C >= 2 tau0/(1 - tau1) (DP-SGD, Lemma A.5)", C >= 2 * tau0 / (1 - tau1)),),
       bound=bound_cor35,
       rate=(d * sp.log(1 / delta))**sp.Rational(1, 4) / sp.sqrt(N * eps),
       hidden=(k2, k3, c2, Df, L0, C),
       expressions={"bound_dpnsgd_limit": bound_cor33,
                    "rate_alt_form": rate_priv},
       relations={"two forms equal": sp.Eq((d * sp.log(1 / delta))**sp.Rational(1, 4)
                                           / sp.sqrt(N * eps), rate_priv)},
       notes="Claimed for both DP-SGD and DP-NSGD. bound = the T -> oo DP-SGD bound of "
             "Cor. 3.5 (sigma from Lemma 3.1); for DP-NSGD the bound (expressions) carries "
             "the non-vanishing x_nv(r) term, see yang2022.abstract.nsgd.corrected.",
       refs=("yang2022.cor3.3", "yang2022.cor3.5")))

add(_t("yang2022.thm3.2", "convergence of DP-NSGD", "theorem", "Theorem 3.2, eqs. (4)-(5)",
       RCU, category="utility",
       statement=r"\min_{t<T}\mathbb E\|\nabla f(w_t)\|\le O(x_{nv}(r))+O\Big(\sqrt{M+r}"
                 r"\Big(\frac{D_fL_0(1+\sigma^2d/B^2)}{T}\Big)^{1/4}\Big)+O\Big(\sqrt{"
                 r"\frac{D_fL_0(1+\sigma^2d/B^2)}{T}}\Big)",
       measured="min_t E||grad f(w_t)||", measured_unit=U.GRAD,
       assumptions=(GS, LB, AD),
       hypotheses=(("T >= T0 (Lemma B.2)", T >= T0n), ("r > 0", r > 0),
                   ("0 <= tau1 < 1", tau1 < 1)),
       settings={eta_n: eta4},
       bound=bound5,
       rate=x_nv + sp.sqrt(M + r) * A_T**sp.Rational(1, 4),
       hidden=(k1, k2, k3),
       scaling={T: +1},
       expressions={"eta4": eta4, "M": M, "x_nv": x_nv, "noise_term": Ksig,
                    # avg_t h(x_t) <= D_f/(eta T) + eta (1+K) L0/2 (L1 part absorbed, B.1)
                    "master_rhs_over_etaT": Df / (eta_n * T) + eta_n * (1 + Ksig) * L0 / 2,
                    # must stay O(1) for (22) to absorb (eta^2/2) L1 x K into eta h(x)
                    "eta_K_L1": eta_n * L1 * (1 + Ksig)},
       notes="Constants k1..k3 hide dependence on (tau0, tau1, L1). (4) has no r. The "
             "T^{-1/2} term is dominated as T -> oo, so the rate keeps the 'leading terms'.",
       refs=("yang2022.lemmaA.2", "yang2022.lemmaA.3", "yang2022.lemmaB.1")))

cor33_limit_eta_K = sp.sqrt(Df * c2**2 * d * sp.log(1 / delta) / (L0 * N**2 * eps**2))
add(_t("yang2022.cor3.3", "privacy-utility of DP-NSGD", "corollary", "Corollary 3.3", RCU,
       category="utility",
       statement=r"\min_t\mathbb E\|\nabla f(w_t)\|\le O\Big(\sqrt{M+r}\Big(\frac{c_2^2D_fL_0"
                 r"d\log(1/\delta)}{N^2\epsilon^2}\Big)^{1/4}\Big)+O(x_{nv}(r))",
       measured="min_t E||grad f(w_t)|| at large T", measured_unit=U.GRAD,
       assumptions=(GS, LB, AD),
       hypotheses=(("eps-condition of Lemma 3.1 (holds for large T)", eps < c1 * B**2 * T / N**2),),
       settings={sigma: sigma_req, eta_n: eta4},
       bound=bound_cor33,
       rate=sp.sqrt(M + r) * A_inf**sp.Rational(1, 4) + x_nv,
       hidden=(k1, k2, k3),
       expressions={"bound5_at_sigma": bound5.subs(sigma, sigma_req),
                    "A_inf": A_inf, "x_nv": x_nv,
                    # eta4 * L1 * (1 + K) at sigma_req, as T -> oo (see notes)
                    "eta_K_L1_limit": L1 * cor33_limit_eta_K},
       notes="bound = lim_{T->oo} of (5) at sigma = c2 B sqrt(T log(1/delta))/(N eps): keeps "
             "the k3 sqrt(A) term that the printed O-form drops (dominated iff "
             "d log(1/delta) <~ N^2 eps^2). With this sigma, eta4 (1+K) L1 does not vanish as "
             "T -> oo (tends to eta_K_L1_limit), so Lemma B.2's 'T >= T0' may be "
             "unattainable unless L1 sqrt(c2^2 D_f d log(1/delta)/L0) <~ N eps.",
       refs=("yang2022.thm3.2", "yang2022.lemma3.1")))

add(_t("yang2022.thm3.4", "convergence of DP-SGD", "theorem", "Theorem 3.4, eqs. (8)-(9)",
       RCU, category="utility",
       statement=r"\min_t\mathbb E\|\nabla f(w_t)\|\le O\Big(\sqrt C\Big(\frac{D_fL_0"
                 r"(1+\sigma^2d/B^2)}{T}\Big)^{1/4}\Big)+O\Big(\sqrt{\frac{D_fL_0(1+\sigma^2d"
                 r"/B^2)}{T}}\Big)",
       measured="min_t E||grad f(w_t)||", measured_unit=U.GRAD,
       assumptions=(GS, LB, AD),
       hypotheses=(("C >= 2 tau0/(1 - tau1) (Lemma A.5)", C >= 2 * tau0 / (1 - tau1)),
                   ("T >= T0 (Lemma C.2)", T >= T0c)),
       settings={eta: eta8},
       bound=bound9,
       rate=sp.sqrt(C) * A_T**sp.Rational(1, 4),
       hidden=(k2, k3),
       scaling={T: +1},
       expressions={"eta8": eta8, "noise_term": Ksig,
                    # avg_t h_C(x_t) <= D_f/(eta T) + eta C^2 (1+K) L0/2
                    "master_rhs_over_etaT": Df / (eta * T) + eta * C**2 * (1 + Ksig) * L0 / 2,
                    "eta_C_K_L1": eta * C * L1 * (1 + Ksig)},
       notes="No non-vanishing term. (8) = (4)/C, dimension [w]^2/[F] = S.eta.",
       refs=("yang2022.lemmaA.4", "yang2022.lemmaA.5")))

add(_t("yang2022.cor3.5", "privacy-utility of DP-SGD", "corollary", "Corollary 3.5", RCU,
       category="utility",
       statement=r"\min_t\mathbb E\|\nabla f(w_t)\|\le O\Big(\sqrt C\Big(\frac{c_2^2D_fL_0d"
                 r"\log(1/\delta)}{N^2\epsilon^2}\Big)^{1/4}\Big)",
       measured="min_t E||grad f(w_t)|| at large T", measured_unit=U.GRAD,
       assumptions=(GS, LB, AD),
       hypotheses=(("C >= 2 tau0/(1 - tau1)", C >= 2 * tau0 / (1 - tau1)),
                   ("eps-condition of Lemma 3.1 (holds for large T)", eps < c1 * B**2 * T / N**2)),
       settings={sigma: sigma_req, eta: eta8},
       bound=bound_cor35,
       rate=sp.sqrt(C) * A_inf**sp.Rational(1, 4),
       hidden=(k2, k3),
       expressions={"bound9_at_sigma": bound9.subs(sigma, sigma_req), "A_inf": A_inf,
                    "eta_C_K_L1_limit": L1 * cor33_limit_eta_K},
       notes="bound = lim_{T->oo} of (9) at sigma of Lemma 3.1; keeps the k3 sqrt(A) term "
             "(dominated iff d log(1/delta) <~ N^2 eps^2). Same caveat on Lemma C.2 as "
             "yang2022.cor3.3.",
       refs=("yang2022.thm3.4", "yang2022.lemma3.1")))

add(_t("yang2022.eq7", "normalized-SGD descent inequality (7)", "lemma", "eq. (7)", RCU,
       category="identity",
       statement=r"\langle\nabla f(w),\tfrac{m}{\|m\|}\rangle\ge\tfrac13\|\nabla f(w)\|-"
                 r"\tfrac83\|m-\nabla f(w)\|",
       measured="<grad f, m/||m||>", measured_unit=U.GRAD,
       relations={"form A (Cutkosky-Mehta Lemma 2)": lhs7 >= x / 3 - sp.Rational(8, 3) * err7,
                  "form B": lhs7 >= 2 * x / 3 - 2 * err7},
       expressions={"momentum_rate_[13][25]": T**sp.Rational(-1, 4)},
       notes="x stands for ||grad f(w)||. Candidate forms (A), (B); the momentum rate of "
             "[13]/[25] is reconstructed as O(T^{-1/4})."))

add(_t("yang2022.sec3.3.claims", "clipping vs normalization near stationarity",
       "remark-claim", "Sec. 3.3, eq. (11)", RCU, category="comparison",
       statement=r"x\ge\tfrac{2\tau_0}{1-\tau_1}:\ \mathbb E_t\langle\nabla f,\tfrac{g}{\|g\|+r}"
                 r"\rangle\asymp\mathbb E_t\langle\nabla f,\mathrm{clip}_C(g)\rangle/C\asymp"
                 r"x\min\{x,\cdot\}",
       measured="first-order terms vs x", measured_unit=U.GRAD,
       assumptions=(AD,),
       hypotheses=(("large-gradient regime", x >= 2 * tau0 / (1 - tau1)),),
       expressions={"h_norm_large_x": x * ((1 - tau1) * x - tau0) / ((1 + tau1) * x + tau0 + r),
                    "h_clip_large_x": hC20},
       notes="Two cases of (11): ||g|| <= C and ||g|| > C. Small gradients: the normalized "
             "inner product can be of any sign, the clipped one stays positive."))

add(_t("yang2022.sec3.4.claims", "biases and noise of clipping and normalization",
       "remark-claim", "Sec. 3.4", "printed", category="comparison",
       statement=r"\text{bias}=\mathbb E[\text{processed }g]-\nabla f;\ \text{noise on the "
                 r"averaged step: }\sigma C/B\ \text{(clipping)},\ \sigma/B\ \text{(normalization)}",
       measured="bias norms; train loss/accuracy vs r and C", measured_unit=U.GRAD,
       expressions={"noise_std_clip": sigma * C / B, "noise_std_norm": sigma / B,
                    "step_noise_clip": eta * sigma * C / B,
                    "step_noise_norm": eta_n * sigma / B},
       notes="Noise scales reconstructed from eqs. (2)-(3). The noise of DP-SGD grows with C; "
             "that of DP-NSGD is invariant in r."))

# ----------------------------------------------------------------------------- App. A
add(_t("yang2022.lemmaA.1", "descent lemma for generalized-smooth functions", "lemma",
       "Lemma A.1 (Lemma C.4 of [25])", R, category="identity",
       statement=r"f(w')\le f(w)+\langle\nabla f(w),w'-w\rangle+\frac{L_0+L_1\|\nabla f(w)\|}2"
                 r"\|w'-w\|^2\quad(\|w'-w\|\le1/L_1)",
       measured="f(w') - f(w) - <grad f(w), w'-w>", measured_unit=U.LOSS,
       assumptions=(GS,),
       hypotheses=(("distance (reading R)", dist <= 1 / L1),),
       relations={"descent": f_wp <= f_w + inner + (L0 + L1 * x) / 2 * dist**2},
       notes="x = ||grad f(w)||. Under reading (G) the distance condition is dropped."))

add(_t("yang2022.lemmaA.2", "one-step inequality for DP-NSGD, eq. (12)", "lemma",
       "Lemma A.2, eq. (12)", R, category="utility",
       statement=r"\mathbb E_tf(w_{t+1})\le f(w_t)-\eta\mathbb E_t\langle\nabla f(w_t),\tfrac"
                 r"{\bar g_t}{\|\bar g_t\|+r}\rangle+\tfrac{\eta^2}2(L_0+L_1x_t)\Big(\mathbb E_t"
                 r"\|\tfrac{\bar g_t}{\|\bar g_t\|+r}\|^2+\tfrac{\sigma^2d}{B^2}\Big)",
       measured="E_t f(w_{t+1}) - f(w_t)", measured_unit=U.LOSS,
       assumptions=(GS, AD),
       relations={"(12)": Ef_next <= f_w - eta_n * first_n
                  + eta_n**2 / 2 * (L0 + L1 * x) * (second_n + Ksig),
                  "second moment < 1": second_n < 1},
       expressions={"rhs12": f_w - eta_n * first_n
                    + eta_n**2 / 2 * (L0 + L1 * x) * (second_n + Ksig),
                    "bracket_bound": 1 + Ksig},
       notes="Under reading (R) Lemma A.1 needs ||w_{t+1}-w_t|| <= 1/L1, which Gaussian "
             "noise violates with positive probability; (12) then needs reading (G) or a "
             "truncation argument.",
       refs=("yang2022.lemmaA.1",)))

add(_t("yang2022.remarkA.1", "batch size and expected bounds", "remark-claim", "Remark A.1",
       "printed", category="comparison",
       statement=r"B\ \text{enters (12) only through}\ \sigma^2d/B^2",
       measured="min_t E||grad f|| vs B at fixed sigma/B", measured_unit=U.GRAD,
       expressions={"noise_term": Ksig},
       notes="Mini-batch size does not affect expected bounds (per-sample normalization); "
             "high-probability bounds may still depend on B.",
       refs=("yang2022.lemmaA.2",)))

add(_t("yang2022.lemmaA.3", "first-order lower bound for normalization, function (16)", "lemma",
       "Lemma A.3, eqs. (15)-(18)", RCU, category="utility",
       statement=r"\mathbb E_t\langle\nabla f(w_t),\tfrac{g}{\|g\|+r}\rangle\ge h(\|\nabla f(w_t)"
                 r"\|),\ h(x)=\begin{cases}\frac{x((1-\tau_1)x-\tau_0)}{(1+\tau_1)x+\tau_0+r}&"
                 r"x\ge\frac{\tau_0}{1-\tau_1}\\\frac{x(x-(\sqrt{M+r}-\sqrt r)^2)}{M+r}&\text{else}"
                 r"\end{cases}",
       measured="E_t<grad f, g/(||g||+r)> vs x", measured_unit=U.GRAD,
       assumptions=(AD,),
       relations={"claim": first_n >= h16},
       expressions={"h16": h16, "h16_alt": h16_alt, "x_star": x_star, "M": M,
                    "x_star_residual": (1 - tau1**2) * x_star**2
                                       + (r - 2 * tau1 * tau0) * x_star - tau0**2,
                    "x_nv": x_nv,
                    "zero_small_branch": (sp.sqrt(M + r) - sp.sqrt(r))**2},
       notes="x_nv(r) = Theta(min{tau0/(1-tau1), tau0^2/((1-tau1)^2 r)}) is order only."))

add(_t("yang2022.lemmaA.4", "one-step inequality for DP-SGD, eq. (19)", "lemma",
       "Lemma A.4, eq. (19)", R, category="utility",
       statement=r"\mathbb E_tf(w_{t+1})\le f(w_t)-\eta\mathbb E_t\langle\nabla f(w_t),\mathrm"
                 r"{clip}_C(\bar g_t)\rangle+\tfrac{\eta^2}2(L_0+L_1x_t)\Big(\mathbb E_t\|\mathrm"
                 r"{clip}_C(\bar g_t)\|^2+\tfrac{\sigma^2C^2d}{B^2}\Big)",
       measured="E_t f(w_{t+1}) - f(w_t)", measured_unit=U.LOSS,
       assumptions=(GS, AD),
       relations={"(19)": Ef_next <= f_w - eta * first_c
                  + eta**2 / 2 * (L0 + L1 * x) * (second_c + C**2 * Ksig),
                  "second moment <= C^2": second_c <= C**2},
       expressions={"rhs19": f_w - eta * first_c
                    + eta**2 / 2 * (L0 + L1 * x) * (second_c + C**2 * Ksig),
                    "bracket_bound": C**2 * (1 + Ksig)},
       refs=("yang2022.lemmaA.2",)))

add(_t("yang2022.lemmaA.5", "first-order lower bound for clipping, function (20)", "lemma",
       "Lemma A.5, eq. (20)", R, category="utility",
       statement=r"C\ge\tfrac{2\tau_0}{1-\tau_1}\Rightarrow\mathbb E_t\langle\nabla f,\mathrm"
                 r"{clip}_C(g)\rangle\ge h_C(x)=\begin{cases}x^2&(1+\tau_1)x+\tau_0\le C\\\frac"
                 r"{Cx((1-\tau_1)x-\tau_0)}{(1+\tau_1)x+\tau_0}&\text{else}\end{cases}",
       measured="E_t<grad f, clip_C(g)> vs x", measured_unit=U.GRAD_VAR,
       assumptions=(AD,),
       hypotheses=(("C >= 2 tau0/(1 - tau1)", C >= 2 * tau0 / (1 - tau1)),),
       relations={"claim": first_c >= hC20},
       expressions={"hC20": hC20,
                    "second_branch_threshold": (C - tau0) / (1 + tau1)}))

def _toy_points(a, t0):
    h = sp.sqrt(3) / 2 * t0
    return [((a + t0 / 2, h), sp.Rational(1, 4)), ((a + t0 / 2, -h), sp.Rational(1, 4)),
            ((a - t0 / 2, sp.Integer(0)), sp.Rational(1, 2))]


def _toy_E_norm(a, t0, rr):
    return sum(p * a * g[0] / (sp.sqrt(g[0]**2 + g[1]**2) + rr) for g, p in _toy_points(a, t0))


def _toy_E_clip(a, t0, CC):
    return sum(p * a * g[0] * sp.Min(1, CC / sp.sqrt(g[0]**2 + g[1]**2))
               for g, p in _toy_points(a, t0))


add(_t("yang2022.toyA.1", "toy example of Appendix A.1", "remark-claim", "Appendix A.1", RCU,
       category="comparison",
       statement=r"\tau_1=0,\ \nabla f=(a,0),\ g=\nabla f+e,\ e\in\{(\tfrac{\tau_0}2,\pm\tfrac"
                 r"{\sqrt3}2\tau_0)\ (1/4\ \text{each}),(-\tfrac{\tau_0}2,0)\ (1/2)\}",
       measured="E<grad f, g/(||g||+r)> and E<grad f, clip_C(g)> vs a", measured_unit=U.GRAD,
       expressions={"E_norm": _toy_E_norm(a_toy, tau0, r),
                    "E_clip": _toy_E_clip(a_toy, tau0, C),
                    "E_clip_at_C_2tau0": _toy_E_clip(a_toy, tau0, 2 * tau0),
                    "E_norm_slope_at_0": tau0 / 4 / (tau0 + r) - tau0 / 4 / (tau0 / 2 + r)},
       notes="The paper's distribution is stripped; this instance is the catalog's. Mean-zero "
             "noise with ||e|| <= tau0 (tau1 = 0). C = 2 tau0 is the reconstructed clipping "
             "threshold."))

# ----------------------------------------------------------------------------- App. B-C
add(_t("yang2022.lemmaB.1", "absorbing the second-order terms (Lemmas B.1-B.2, C.1-C.2)",
       "lemma", "Lemmas B.1, B.2, C.1, C.2, eqs. (22)-(27), (34)-(39)", RCU, category="utility",
       statement=r"\eta\le\bar\eta_{(22)}\Rightarrow\tfrac{\eta^2}2(L_0+L_1x)(1+\tfrac{\sigma^2d}"
                 r"{B^2})\le c\,\eta h(x)+O(\eta^2L_0(1+\tfrac{\sigma^2d}{B^2}))",
       measured="second-order terms", measured_unit=U.LOSS,
       hypotheses=(("(22) (form unknown)", eta_n <= eta22),),
       expressions={"second_order_piece": eta_n**2 / 2 * (L0 + L1 * x) * (1 + Ksig),
                    "eta_K_L1": eta_n * L1 * (1 + Ksig),
                    "eta4": eta4},
       notes="Form only. Derived necessary shape: absorbing (eta^2/2) L1 x (1+K) into c eta "
             "h(x) with h(x) ~ x for large x needs eta L1 (1+K) <~ const."))

# ----------------------------------------------------------------------------- App. E
add(_t("yang2022.eq45", "functional view of RDP, eq. (45)", "definition", "eq. (45)", R,
       category="definition",
       statement=r"K_{\mathcal M}(\alpha)=\sup_{D\simeq D'}\frac1{\alpha-1}\log\int p_{\mathcal "
                 r"M(D)}^\alpha p_{\mathcal M(D')}^{1-\alpha}",
       measured="K_M(alpha)", measured_unit=U.ONE,
       expressions={"K_gauss": alpha_R / (2 * sigma**2)},
       notes="Gaussian with unit sensitivity and noise sigma: K = alpha/(2 sigma^2) "
             "(Mironov 2017, Table II)."))

add(_t("yang2022.propE.1", "notions of privacy via K_M", "proposition", "Proposition E.1", R,
       category="privacy",
       statement=r"(i)\ K(\infty)\le\epsilon;\ (ii)\ K(\alpha)\le\epsilon;\ (iii)\ K(\alpha)\le"
                 r"\epsilon-\tfrac{\log(1/\delta)}{\alpha-1}\ \text{some }\alpha;\ (iv)\ K(\alpha)"
                 r"\le\rho\alpha\ \forall\alpha>1;\ (v)\ \ldots\forall\alpha\in(1,\omega)"
                 r"\quad\text{(each 'if and only if')}",
       measured="privacy notions", measured_unit=U.ONE,
       relations={"(i) pure DP": K_inf <= eps,
                  "(ii) RDP": K_al <= eps,
                  "(iii) (eps,delta)-DP": K_al <= eps - sp.log(1 / delta) / (alpha_R - 1),
                  "(iv) zCDP": K_al <= rho_z * alpha_R,
                  "(v) tCDP": sp.And(K_al <= rho_z * alpha_R, alpha_R < omega)},
       # the words "If and only if ... for some alpha" are printed (only the formulas are
       # stripped): a refutation of that wording is a finding of the paper
       printed_statement=True,
       notes="Printed wording 'If and only if' kept. (iii) is only sufficient: see "
             "yang2022.propE.1.corrected."))

add(_t("yang2022.propE.1.corrected", "Prop. E.1(iii) is one-directional", "proposition",
       "Proposition E.1(iii)", "corrected", category="privacy",
       statement=r"K_{\mathcal M}(\alpha)\le\epsilon-\tfrac{\log(1/\delta)}{\alpha-1}\ \text{for "
                 r"some}\ \alpha>1\ \Longrightarrow\ (\epsilon,\delta)\text{-DP (converse false)}",
       measured="privacy", measured_unit=U.ONE,
       relations={"(iii) sufficient": K_al <= eps - sp.log(1 / delta) / (alpha_R - 1)},
       expressions={
           # best RDP->DP conversion of the unit-sensitivity Gaussian: min_a a/(2s^2)+L/(a-1)
           "eps_rdp_gauss": 1 / (2 * sigma**2) + sp.sqrt(2 * sp.log(1 / delta)) / sigma,
           # exact privacy curve of the unit-sensitivity Gaussian with std sigma
           "delta_exact_gauss": (1 + sp.erf((1 / (2 * sigma) - eps * sigma) / sp.sqrt(2))) / 2
                                - sp.exp(eps) * (1 + sp.erf((-1 / (2 * sigma) - eps * sigma)
                                                            / sp.sqrt(2))) / 2},
       notes="Counterexample to 'only if': the Gaussian mechanism (sensitivity 1, std sigma) "
             "is (eps*, delta)-DP at eps* solving delta_exact_gauss(eps*) = delta, and "
             "eps* < eps_rdp_gauss = min_alpha [alpha/(2 sigma^2) + log(1/delta)/(alpha-1)], "
             "so no alpha satisfies (iii) at eps*. The paper's own remark cites the converse "
             "direction (Mironov Prop. 3) only.",
       refs=("yang2022.propE.1",)))

add(_t("yang2022.propE.2", "RDP composition", "proposition", "Proposition E.2 (Mironov Prop. 1)",
       R, category="privacy",
       statement=r"K_{\mathcal M_1\circ\cdots\circ\mathcal M_k}(\alpha)\le\sum_iK_{\mathcal M_i}"
                 r"(\alpha)",
       measured="K of a composition", measured_unit=U.ONE,
       relations={"composition (k=2)": K_12 <= K_1 + K_2},
       expressions={"K_gauss_T_fold": T * alpha_R / (2 * sigma**2)}))

add(_t("yang2022.propE.3", "amplification by uniform subsampling without replacement",
       "proposition", "Proposition E.3, eq. (46) (Bun et al. 2018 Thm 11)", RCU,
       category="privacy",
       statement=r"\rho\le0.1,q\le0.1,\log(1/q)\ge3\rho(2+\log_2(1/\rho))\Rightarrow K_{\mathcal"
                 r"M_{\sigma,q}}(\alpha)\le13q^2\rho\alpha,\ 1<\alpha\le\frac{\log(1/q)}{4\rho}",
       measured="RDP of the subsampled Gaussian", measured_unit=U.ONE,
       hypotheses=(("rho <= 0.1", rho_z <= sp.Rational(1, 10)),
                   ("q <= 0.1", q <= sp.Rational(1, 10)),
                   ("log(1/q) condition", sp.log(1 / q) >= 3 * rho_z * (2 + sp.log(1 / rho_z, 2))),
                   ("order range", alpha_R <= sp.log(1 / q) / (4 * rho_z))),
       relations={"(46)": K_sub <= 13 * q**2 * rho_z * alpha_R},
       expressions={"K_sub": 13 * q**2 * rho_z * alpha_R,
                    "omega_prime": sp.log(1 / q) / (4 * rho_z),
                    # rho = Delta^2/(2 s^2) on the summed processed vectors (substitution)
                    "rho_clip": (2 * C)**2 / (2 * (sigma * C)**2),
                    "rho_norm": sp.Integer(2)**2 / (2 * sigma**2)},
       notes="Constants 13, 0.1, 3, 4 as commonly attributed to the cited theorem; "
             "unverified. Substitution sensitivity: 2C (clipping), < 2 (normalization)."))

# ----------------------------------------------------------------------------- tables, exp
add(_t("yang2022.table1", "comparison table (Table 1)", "prior-work-rate", "Table 1", RCU,
       category="utility",
       statement=r"\text{DP-GD [40]: }O\Big(\frac{(d\log(1/\delta))^{1/4}}{\sqrt{N\epsilon}}\Big)",
       measured="gradient norm", measured_unit=U.GRAD,
       rate=(d * sp.log(1 / delta))**sp.Rational(1, 4) / sp.sqrt(N * eps),
       expressions={"SGD [21]": T**sp.Rational(-1, 4),
                    "clipped SGD [48]": T**sp.Rational(-1, 4),
                    "DP-NSGD* [15] (function value)": sp.sqrt(d * sp.log(1 / delta)) / (N * eps),
                    "DP-GD [40]": (d * sp.log(1 / delta))**sp.Rational(1, 4) / sp.sqrt(N * eps),
                    "DP-(N)SGD ours": rate_priv},
       notes="Cell contents uncertain. Main rate: the DP-GD [40] (Wang, Chen, Xu 2019) row; "
             "it equals the rate claimed for DP-(N)SGD: the improvement is in assumptions.",
       refs=("yang2022.abstract",)))

add(_t("yang2022.exp", "experimental claims", "remark-claim", "Sec. 4, App. D", "printed",
       category="experiment",
       statement=r"\text{DP-NSGD stable in } r\text{, DP-SGD sensitive to }(\eta,C);\ \text{best "
                 r"accuracies similar (66\%)}",
       measured="validation accuracy heatmaps over (lr, C) and (lr, r)", measured_unit=U.ONE,
       expressions={"best_accuracy_percent": sp.Integer(66),
                    "nonprivate_accuracy_percent": sp.Rational(904, 10)},
       notes="ResNet20/GN on CIFAR-10, batch 1000, 100 epochs, RDP accountant; RoBERTa-base "
             "on SST-2 (App. D). Privacy budget and grids stripped."))

# ----------------------------------------------------------------------------- derived
# DP-NSGD headline with r tuned: in the r >> M regime the T -> oo bound is
# k1 tau0^2/((1-tau1)^2 r) + k2 sqrt(r) A^{1/4} + k3 sqrt(A); minimising the first two in r
# gives r* = (2 a/b)^{2/3} with a = k1 tau0^2/(1-tau1)^2, b = k2 A^{1/4}: value ~ A^{1/6}.
_a_nv = k1 * tau0**2 / (1 - tau1)**2
_b_dec = k2 * A_inf**sp.Rational(1, 4)
r_star = (2 * _a_nv / _b_dec)**sp.Rational(2, 3)
add(_t("yang2022.abstract.nsgd.corrected", "DP-NSGD headline rate with r tuned", "corollary",
       "derived from Cor. 3.3 (reconstructed)", "corrected", category="utility",
       statement=r"\min_r\Big[\tfrac{k_1\tau_0^2}{(1-\tau_1)^2r}+k_2\sqrt r A^{1/4}\Big]="
                 r"(2^{-2/3}+2^{1/3})(k_1\tau_0^2/(1-\tau_1)^2)^{1/3}(k_2A^{1/4})^{2/3}=O\Big("
                 r"\Big(\frac{d\log(1/\delta)}{N^2\epsilon^2}\Big)^{1/6}\Big)",
       measured="min_t E||grad f(w_t)|| at large T, DP-NSGD with tuned r", measured_unit=U.GRAD,
       assumptions=(GS, LB, AD),
       hypotheses=(("r >> M regime (x_nv = tau0^2/((1-tau1)^2 r))", r >= M),),
       settings={r: r_star},
       bound=_a_nv / r + k2 * sp.sqrt(r) * A_inf**sp.Rational(1, 4) + k3 * sp.sqrt(A_inf),
       rate=(d * sp.log(1 / delta) / (N**2 * eps**2))**sp.Rational(1, 6),
       hidden=(k1, k2, k3, c2, Df, L0, tau0, tau1),
       expressions={"r_star": r_star, "A_inf": A_inf},
       notes="The abstract claims O((d log(1/delta))^{1/4}/sqrt(N eps)) for DP-NSGD too, but "
             "the (reconstructed) Cor. 3.3 bound has the non-vanishing x_nv(r). Making the bound "
             "vanish requires r -> oo; balancing x_nv(r) ~ tau0^2/r against sqrt(r) A^{1/4} "
             "(the paper: 'make our upper bound decay as fast as possible by tuning r') gives "
             "exponent 1/6, not 1/4, in d log(1/delta)/(N eps)^2. Derived from the "
             "reconstruction; constants unknown.",
       refs=("yang2022.abstract", "yang2022.cor3.3")))

__all__ = ["PAPER", "ITEMS"]
