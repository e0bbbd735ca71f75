"""zhang2021 — Q. Zhang, J. Ma, J. Lou, L. Xiong, *Private Stochastic Non-convex Optimization
with Improved Utility Rates*, IJCAI 2021 (DPageEM: stagewise DP-SGD with early momentum).

Encoded from the main text (35 catalog items).
The proofs are in a supplement that is not in our text.

Printed letter -> symbol used here
----------------------------------
====================================  =====================================================
printed                               symbol
====================================  =====================================================
n, d, eps, delta, B, T, q (= B/n)     ``S.n, S.d, S.eps, S.delta, S.B, S.T, S.q``
L (Lipschitz constant, Ass. 2.1)      ``S.G``
beta (smoothness), mu (PL), theta     ``S.beta, S.mu, S.theta``
sigma (gradient std bound, Ass. 2.3)  ``S.sigma_g``
E[F_S(w^0) - F_S(w_S^*)]              ``S.Fgap``
eta (step of Alg. 2)                  ``S.eta`` (an SGD/heavy-ball step, [w]^2/[F])
pi (DP noise parameter)               ``piN``  — dimension [F]/[w] (Alg. 2 adds it to the
                                      averaged gradient; eq. (4)); Thm 2.1 reads it as
                                      dimensionless (std L*pi): the dimensional check flags it
varrho (momentum; Alg. 1 also: rho)   ``varrho``
t_Mon^0, t_Mon (no superscript, (5))  ``tMon0``, ``tMon``
eta^0, T^0, K, k, t                   ``z21_eta0, z21_T0, z21_K, z21_k, z21_t``
c_1, c_2, c_4                         ``z21_c1, z21_c2, z21_c4``
alpha (uniform stability)             ``z21_alpha_stab``
q of Thm 3.3 (an exponent)            expression ``q_exponent`` (not the sampling ratio)
====================================  =====================================================
"""

from __future__ import annotations

import sympy as sp

from dptheory.symbolic import (BoundedLoss, BoundedVariance, Lipschitz, Paper, PL, S,
                               Sensitivity, Smooth, Theorem, WeaklyQuasiConvex, register,
                               units)


# The paper fixes both base units. Sec. 2.1: "without loss of generality, |f(w, z)| <= 1"
# fixes the unit of loss values ([F] = 1). Remark 1's "mu << 1" and the step condition
# "eta0 <= max{theta(1-varrho)^2/(2 beta), 1}" compare a PL constant ([F]/[w]^2) and a step
# ([w]^2/[F]) with pure numbers, which with [F] = 1 fixes [w] = 1 as well. Dimensional issues
# these conventions cover are not findings.
NORMALIZED_UNITS = {units.F: 1, units.W: 1}

PAPER = Paper(
    key="zhang2021",
    title="Private Stochastic Non-convex Optimization with Improved Utility Rates",
    authors="Qiuchen Zhang, Jing Ma, Jian Lou, Li Xiong",
    venue="IJCAI 2021",
    year=2021,
    source="main text (the supplement with the proofs is not encoded)",
    in_text=("title", "authors"),       # venue and year are not printed in it
)

# --- shared symbols, bound to the paper's letters ---------------------------------------
n, d, eps, delta, B, T, q = S.n, S.d, S.eps, S.delta, S.B, S.T, S.q
L = S.G                  # zhang2021's L is the Lipschitz constant
beta, mu, theta = S.beta, S.mu, S.theta
sigma = S.sigma_g        # gradient-std bound of Assumption 2.3
F0gap = S.Fgap           # E[F_S(w^0) - F_S(w_S^*)]
eta = S.eta

# --- paper-local symbols -----------------------------------------------------------------
piN = register("piN", units.GRAD, "DP noise parameter pi of zhang2021 (std of the Gaussian "
               "noise added to the averaged minibatch gradient, Alg. 2 / eq. (4))",
               latex=r"\pi", example=0.05)
varrho = register("varrho", units.ONE, "momentum parameter varrho of zhang2021 (Alg. 1 also "
                  "prints rho)", latex=r"\varrho", domain="[0, 1)", positive=False,
                  nonnegative=True, example=0.5)
tMon0 = register("tMon0", units.ONE, "momentum-on iterations of stage 0, t^0_Mon (zhang2021)",
                 latex=r"t^0_{Mon}", domain="integer in [0, T0]", integer=True, positive=False,
                 nonnegative=True, example=32)
tMon = register("tMon", units.ONE, "t_Mon as printed without superscript (zhang2021 eq. (5); "
                "Alg. 2's per-stage momentum-on count)", latex=r"t_{Mon}",
                domain="integer >= 0", integer=True, positive=False, nonnegative=True,
                example=32)
eta0 = register("z21_eta0", units.STEP, "base step size eta^0 of zhang2021", latex=r"\eta^0",
                example=0.5)
T0 = register("z21_T0", units.ONE, "base stage length T^0 of zhang2021", latex="T^0",
              integer=True, domain="integer >= 1", example=64)
K = register("z21_K", units.ONE, "number of stages K of zhang2021", latex="K", integer=True,
             domain="integer >= 1", example=10)
k = register("z21_k", units.ONE, "stage index k of zhang2021", latex="k", integer=True,
             domain="integer in [1, K]", example=2)
t = register("z21_t", units.ONE, "inner iteration index t of zhang2021 Alg. 2", latex="t",
             integer=True, domain="integer in [1, T]", example=3)
c1 = register("z21_c1", units.ONE, "unspecified constant c1 of zhang2021 Thm 2.1 / 3.1",
              latex="c_1", example=1.0)
c2 = register("z21_c2", units.ONE, "unspecified constant c2 of zhang2021 Thm 2.1 / 3.1",
              latex="c_2", example=1.0)
c4 = register("z21_c4", units.ONE, "constant c4 in (0, 2) of zhang2021 Thm 3.2",
              latex="c_4", domain="(0, 2)", example=1.0)
alpha_stab = register("z21_alpha_stab", units.LOSS, "uniform-stability parameter alpha "
                      "(zhang2021 Def. 2.4)", latex=r"\alpha", example=0.1)
# Scalar stand-ins for the quantities of definitions and assumptions.
f_w = register("z21_f", units.LOSS, "loss value f(w, z) (zhang2021)", latex=r"f(\omega,z)",
               positive=False, domain="real", example=0.3)
f_wp = register("z21_fp", units.LOSS, "loss value f(w', z) (zhang2021)",
                latex=r"f(\omega',z)", positive=False, domain="real", example=0.2)
dw = register("z21_dw", units.PARAM, "||w - w'||_2 (zhang2021)", latex=r"\|\omega-\omega'\|",
              positive=False, nonnegative=True, domain=">= 0", example=1.0)
dg = register("z21_dg", units.GRAD, "||grad f(w,z) - grad f(w',z)||_2 (zhang2021)",
              latex=r"\|\nabla f(\omega)-\nabla f(\omega')\|", positive=False,
              nonnegative=True, domain=">= 0", example=0.1)
var_i = register("z21_var", units.GRAD_VAR, "E_i ||grad f(w, z_i) - grad F_S(w)||^2 (zhang2021)",
                 latex=r"\mathbb E_i\|\nabla f_i-\nabla F_S\|^2", positive=False,
                 nonnegative=True, domain=">= 0", example=0.1)
FS = register("z21_FS", units.LOSS, "F_S(w) (zhang2021)", latex=r"F_S(\omega)",
              positive=False, domain="real", example=0.4)
FSmin = register("z21_FSmin", units.LOSS, "min F_S = F_S(w_S^*) (zhang2021)",
                 latex=r"F_S(\omega_S^*)", positive=False, domain="real", example=0.1)
gnorm = register("z21_gnorm", units.GRAD, "||grad F_S(w)||_2 (zhang2021)",
                 latex=r"\|\nabla F_S(\omega)\|", positive=False, nonnegative=True,
                 domain=">= 0", example=1.0)
inner = register("z21_inner", units.LOSS, "<grad F_S(w), w - w_S^*> (zhang2021)",
                 latex=r"\langle\nabla F_S(\omega),\omega-\omega_S^*\rangle", positive=False,
                 domain="real", example=0.5)
EFE = register("z21_EFE", units.LOSS, "E_{A,S}[F_E(w_S)] (zhang2021 Def. 1.1)",
               latex=r"\mathbb E[F_{\mathbb E}(\omega_S)]", positive=False, domain="real",
               example=0.3)
EFS = register("z21_EFS", units.LOSS, "E_{A,S}[F_S(w_S)] (zhang2021 Def. 1.1)",
               latex=r"\mathbb E[F_S(\omega_S)]", positive=False, domain="real", example=0.15)
EFSstar = register("z21_EFSstar", units.LOSS, "E_S[F_S(w_S^*)] (zhang2021 Def. 1.1)",
                   latex=r"\mathbb E_S[F_S(\omega_S^*)]", positive=False, domain="real",
                   example=0.05)
minFE = register("z21_minFE", units.LOSS, "min_w F_E(w) (zhang2021 Def. 1.1)",
                 latex=r"\min_\omega F_{\mathbb E}(\omega)", positive=False, domain="real",
                 example=0.1)
stab_gap = register("z21_stabgap", units.LOSS, "sup_z E_A[f(A(S),z) - f(A(S'),z)] "
                    "(zhang2021 Def. 2.4)", latex=r"\sup_z\mathbb E[f(A(S),z)-f(A(S'),z)]",
                    positive=False, domain="real", example=0.05)
gen_gap = register("z21_gengap", units.LOSS, "E_{A,S}[F_E(A(S)) - F_S(A(S))] (zhang2021 "
                   "Thm 2.2)", latex=r"\mathbb E[F_{\mathbb E}(A(S))-F_S(A(S))]",
                   positive=False, domain="real", example=0.05)
P_S = register("z21_PS", units.ONE, "P[A(S) in O] (zhang2021 Def. 2.2)",
               latex=r"\mathbb P[A(S)\in O]", positive=False, nonnegative=True,
               domain="[0, 1]", example=0.3)
P_Sp = register("z21_PSp", units.ONE, "P[A(S') in O] (zhang2021 Def. 2.2)",
                latex=r"\mathbb P[A(S')\in O]", positive=False, nonnegative=True,
                domain="[0, 1]", example=0.3)
w_t = register("z21_w", units.PARAM, "iterate w_t (scalar stand-in, zhang2021 Alg. 2)",
               latex=r"\omega_t", positive=False, domain="real", example=1.0)
w_prev = register("z21_wprev", units.PARAM, "previous iterate w_{t-1} (zhang2021 Alg. 2)",
                  latex=r"\omega_{t-1}", positive=False, domain="real", example=0.8)
gbar = register("z21_gbar", units.GRAD, "minibatch average gradient (zhang2021 Alg. 2)",
                latex=r"\frac1B\sum_{i\in I_t}\nabla f(\omega_t,z_i)", positive=False,
                domain="real", example=0.5)
xi = register("z21_xi", units.GRAD, "DP noise xi_t ~ N(0, pi^2 I_d) (zhang2021 Alg. 2)",
              latex=r"\xi_t", positive=False, domain="real", example=0.01)
C0 = register("z21_C0", units.ONE, "dimension-dependent constant C_0(d) quoted in zhang2021 "
              "E-1 (loss normalized)", latex="C_0(d)", example=1.0)
tau = register("z21_tau", units.ONE, "exponent tau in (0, 1) quoted in zhang2021 E-1",
               latex=r"\tau", domain="(0, 1)", example=0.5)
c_undef = register("z21_c", units.ONE, "symbol c printed in zhang2021's quote of Zhang et al. "
                   "2017 (undefined in the text)", latex="c", example=1.0)

NOTATION = {L: "L", sigma: r"\sigma",
            F0gap: r"\mathbb E[F_S(\omega^0)-F_S(\omega_S^*)]"}
LOGD = sp.log(1 / delta)

# --- recurring expressions ---------------------------------------------------------------
X = (T0 - tMon0) + tMon0 / (2 * (1 - varrho))      # "effective stage length"
TOTAL_ITERS = sp.Sum(T0 * 2**k, (k, 1, K)).doit()   # sum_k T^k = 2 T0 (2^K - 1)
PI2_EQ4 = c2**2 * TOTAL_ITERS * L**2 * LOGD / (n**2 * eps**2)   # eq. (4)
K_SETTING = sp.log(n**2 * eps**2 * theta**2 * mu / (d * L**2 * LOGD), 2)
GAMMA = 1 / (4 * theta * mu * eta0 * X)
R1 = (T0 - tMon0) + tMon0 / X                       # literal reading of the garbled ratio
R2 = ((T0 - tMon0) + tMon / (1 - varrho)**3) / X    # tMon as printed (no superscript)
OPT_TERM = 2**(-K) * (F0gap + R1 / (1 - 2 * GAMMA) * eta0 * sigma**2 / (2 * theta * B))
DP_TERM = (R2 / (1 - 2 * GAMMA) * 2 * c2**2 * d * L**2 * LOGD * eta0
           / (c4 * theta**2 * mu * n**2 * eps**2))
BOUND_32 = OPT_TERM + DP_TERM
RATE_32 = d * L**2 * LOGD / (theta**2 * mu * n**2 * eps**2)
RATE_34 = sp.Max(RATE_32, sp.sqrt(1 / (theta * mu * n)))
# Theorem 3.3
TK = 2**K * T0
tK = 2**K * tMon0
Q_EXP = (1 - 1 / n) * beta / (c4 * theta * mu)
ALPHA_T1 = (2 * L**2 / (c4 * theta * mu * n) * TK**Q_EXP * sp.exp(2 * varrho * (tK - 1))
            * (sp.log(1 + 1 / (2 * varrho)) - sp.log(1 + 1 / (varrho * tK)) / 2))
ALPHA_T2 = 2 * L**2 / ((n - 1) * beta) * TK**Q_EXP
ALPHA_T3 = (TK + 1) * B / n
ALPHA_33 = ALPHA_T1 + ALPHA_T2 + ALPHA_T3

ASSUMPTIONS_ALL = (
    BoundedLoss(1, note="|f(w,z)| <= 1, Sec. 2.1"),
    Lipschitz(L),
    Smooth(beta),
    BoundedVariance(sigma, scope="empirical", note="E_i over the n training samples"),
    PL(mu, scope="empirical", note="only needs to hold locally (Remark 1)"),
    WeaklyQuasiConvex(theta, scope="empirical", note="one-point, w.r.t. w_S^*"),
)

SRC = "zhang2021"


def _item(id_: str, **kw) -> Theorem:
    kw.setdefault("notation", NOTATION)
    return Theorem(id=f"{SRC}.{id_}", **kw)


ITEMS: list[Theorem] = []
add = ITEMS.append

# ===================================== algorithms =========================================
UPDATE = w_t - eta * (gbar + xi) + sp.Piecewise((varrho, t <= tMon), (0, True)) * (w_t - w_prev)
add(_item(
    "alg2", title="DP-EMSGD (one stage of DPageEM)", kind="algorithm", source="Algorithm 2",
    category="algorithm",
    statement=(r"\text{for } t=1..T:\ \mathcal I_t\subset\{n\},|\mathcal I_t|=B\text{ uniformly};\ "
               r"\xi_t\sim\mathcal N(0,\pi^2\mathbb I_d);\ "
               r"\omega_{t+1}=\omega_t-\eta\big(\tfrac1B\sum_{i\in\mathcal I_t}\nabla f(\omega_t,"
               r"\mathbf z_i)+\xi_t\big)+\varrho_t(\omega_t-\omega_{t-1}),\ "
               r"\varrho_t=\varrho\cdot\mathrm{True}(t\in\{1,\dots,t_{Mon}\});\ "
               r"\text{output }\omega_O\text{ uniform from }\omega_1..\omega_T"),
    measured="iterates w_1..w_T; output w_O (uniform over the T iterates)",
    measured_unit=units.PARAM,
    settings={eta: eta0 * sp.Rational(1, 2)**k, T: 2**k * T0, tMon: 2**k * tMon0},
    expressions={
        "update": UPDATE,
        "varrho_t": sp.Piecewise((varrho, t <= tMon), (0, True)),
        "noise_variance_per_coordinate": piN**2,
        "noise_total_second_moment": d * piN**2,
        "batch_inclusion_probability": B / n,
    },
    notes=("Sampling: uniform without replacement, a fresh size-B subset each iteration "
           "(Sec. 3.2 relies on Balle et al. 2018 with q = B/n). The noise is added to the "
           "AVERAGED minibatch gradient, so pi has the dimension of a gradient. Settings are "
           "the stage-k parameters of Algorithm 1 (eta^k, T^k, t^k_Mon)."),
    refs=(f"{SRC}.alg1",),
))

add(_item(
    "alg1", title="DPageEM (stagewise DP-SGD with early momentum)", kind="algorithm",
    source="Algorithm 1; Thm 3.1 eq. (4); Thm 3.2 schedules", category="algorithm",
    statement=(r"\text{for }k=1..K:\ \omega^k=\text{DP-EMSGD}(F_S,\omega^{k-1},\omega^{k-1},"
               r"\eta^k,T^k,t^k_{Mon},\varrho);\ \text{output }\omega^K"),
    measured="w^K (the last stage's randomly sampled iterate)", measured_unit=units.PARAM,
    settings={piN: sp.sqrt(PI2_EQ4)},
    expressions={
        "total_iters": TOTAL_ITERS,
        "grad_evals": B * TOTAL_ITERS,
        "eta_k": eta0 * sp.Rational(1, 2)**k,
        "T_k": 2**k * T0,
        "tMon_k": 2**k * tMon0,
        "eta_k_times_T_k": eta0 * sp.Rational(1, 2)**k * 2**k * T0,
        "piN2_eq4": PI2_EQ4,
    },
    notes=("Schedules of Thm 3.2: eta^k = 2^-k eta0, T^k = 2^k T0, t^k_Mon = 2^k t0_Mon; "
           "noise from eq. (4) with equality. Variants: DPageS (t0_Mon = 0), momentum always on "
           "(t0_Mon = T0)."),
    refs=(f"{SRC}.alg2", f"{SRC}.thm3.1", f"{SRC}.thm3.2"),
))

add(_item(
    "remark2", title="Choice of privacy accounting (moments accountant)", kind="remark-claim",
    source="Remark 2", category="privacy",
    statement=(r"\text{moments accountant used for comparability; tighter: subsampled RDP "
               r"without replacement (Wang et al. 2019c), Gaussian DP (Dong et al. 2019)}"),
    measured="epsilon reported by alternative accountants", measured_unit=units.ONE,
    notes="Qualitative; no formula.", refs=(f"{SRC}.thm3.1",),
))

# ============================ definitions and assumptions =================================
DEF11_LHS = EFE - minFE
DEF11_RHS = (EFE - EFSstar) + (EFE - EFS)
add(_item(
    "def1.1", title="Utility measures and their relationship (eq. 1)", kind="definition",
    source="Definition 1.1, eq. (1)", category="definition",
    statement=(r"\underbrace{\mathbb E_{\mathcal A,S}[F_{\mathbb E}(\omega_S)]-\min_\omega "
               r"F_{\mathbb E}(\omega)}_{\text{testing error}}\le\underbrace{\mathbb E_{\mathcal A,S}"
               r"[F_{\mathbb E}(\omega_S)]-\mathbb E_S[F_S(\omega_S^*)]}_{\text{expected excess "
               r"empirical risk}}+\underbrace{\mathbb E_{\mathcal A,S}[F_{\mathbb E}(\omega_S)-"
               r"F_S(\omega_S)]}_{\text{expected excess empirical risk}}"),
    measured="testing error E[F_E(w_S)] - min F_E", measured_unit=units.LOSS,
    relations={"eq1": sp.Le(DEF11_LHS, DEF11_RHS)},
    expressions={"lhs": DEF11_LHS, "rhs": DEF11_RHS, "slack": DEF11_RHS - DEF11_LHS},
    notes=("As printed the first term is E[F_E(w_S)] - E_S[F_S(w_S^*)] (F_E, not F_S) and both "
           "terms are labelled 'expected excess empirical risk' (the second is the "
           "generalization error). rhs - lhs = (EFE - EFS) + (minFE - EFSstar): the second "
           "bracket is >= 0 (E_S min F_S <= min E_S F_S), so the printed inequality holds when "
           "the generalization gap is >= 0; the first term alone already bounds the testing "
           "error, so the decomposition double counts. See def1.1.corrected."),
    refs=(f"{SRC}.def1.1.corrected",),
))
add(_item(
    "def1.1.corrected", title="Utility decomposition with the empirical risk in the first term",
    kind="definition", source="Definition 1.1, eq. (1) (corrected)", category="definition",
    provenance="corrected",
    statement=(r"\mathbb E[F_{\mathbb E}(\omega_S)]-\min F_{\mathbb E}\le(\mathbb E[F_S(\omega_S)]"
               r"-\mathbb E_S[F_S(\omega_S^*)])+\mathbb E[F_{\mathbb E}(\omega_S)-F_S(\omega_S)]"),
    measured="testing error", measured_unit=units.LOSS,
    relations={"eq1": sp.Le(DEF11_LHS, (EFS - EFSstar) + (EFE - EFS))},
    expressions={"slack": (EFS - EFSstar) + (EFE - EFS) - DEF11_LHS},
    notes=("rhs - lhs = min F_E - E_S[F_S(w_S^*)] >= 0 because E_S[min_w F_S(w)] <= "
           "min_w E_S[F_S(w)] = min F_E; holds with no condition on the generalization gap."),
    refs=(f"{SRC}.def1.1",),
))

add(_item(
    "assume0", title="Bounded loss |f| <= 1", kind="assumption", source="Sec. 2.1",
    category="assumption",
    statement=r"|f(\omega,\mathbf z)|\le1",
    measured="sup |f| on the domain", measured_unit=units.LOSS,
    assumptions=(BoundedLoss(1, note="without loss of generality"),),
    relations={"bounded_loss": sp.Abs(f_w) <= 1},
    notes=("A normalization: fixes the loss unit [F] = sup|f|. Dimensionally the relation "
           "compares [F] with a pure number by design."),
))
add(_item(
    "assump2.1", title="L-Lipschitz loss", kind="assumption", source="Assumption 2.1",
    category="assumption",
    statement=(r"|f(\omega,\mathbf z)-f(\omega',\mathbf z)|\le L\|\omega-\omega'\|_2,\ "
               r"\forall\omega,\omega'\in\mathbb R^d,\forall\mathbf z"),
    measured="sup of gradient norms", measured_unit=units.GRAD,
    assumptions=(Lipschitz(L),), relations={"lipschitz": sp.Abs(f_w - f_wp) <= L * dw},
))
add(_item(
    "assump2.2", title="beta-smooth loss", kind="assumption", source="Assumption 2.2",
    category="assumption",
    statement=(r"\|\nabla f(\omega,\mathbf z)-\nabla f(\omega',\mathbf z)\|_2\le\beta"
               r"\|\omega-\omega'\|_2"),
    measured="max Hessian spectral norm", measured_unit=units.SMOOTH,
    assumptions=(Smooth(beta),), relations={"smooth": dg <= beta * dw},
))
add(_item(
    "assump2.3", title="Bounded variance of the per-sample gradient", kind="assumption",
    source="Assumption 2.3", category="assumption",
    statement=(r"\mathbb E_i[\|\nabla f(\omega,\mathbf z_i)-\nabla F_S(\omega)\|_2^2]\le\sigma^2"
               r"\ \text{for any }\omega"),
    measured="per-sample gradient variance", measured_unit=units.GRAD_VAR,
    assumptions=(BoundedVariance(sigma, scope="empirical"),),
    relations={"variance": var_i <= sigma**2},
))
add(_item(
    "assump2.4", title="PL condition on F_S", kind="assumption", source="Assumption 2.4",
    category="assumption",
    statement=(r"2\mu(F_S(\omega)-\min_\omega F_S(\omega))\le\|\nabla F_S(\omega)\|_2^2"),
    measured="inf ||grad F_S||^2 / (2 (F_S - min F_S))", measured_unit=units.SMOOTH,
    assumptions=(PL(mu, scope="empirical", note="only needs to hold locally (Remark 1)"),),
    relations={"PL": 2 * mu * (FS - FSmin) <= gnorm**2},
))
add(_item(
    "assump2.5", title="One-point theta-weakly quasi-convex F_S", kind="assumption",
    source="Assumption 2.5", category="assumption",
    statement=(r"\langle\nabla F_S(\omega),\omega-\omega_S^*\rangle\ge\theta(F_S(\omega)-"
               r"F_S(\omega_S^*))"),
    measured="inf <grad F_S, w - w*> / (F_S - F_S*)", measured_unit=units.ONE,
    assumptions=(WeaklyQuasiConvex(theta, scope="empirical"),),
    relations={"WQC": inner >= theta * (FS - FSmin)},
))
add(_item(
    "remark1", title="Parameter regime mu << 1, theta ~ 1", kind="remark-claim",
    source="Remark 1", category="assumption",
    statement=(r"\text{PL (locally) and one-point WQC hold for some DNN losses; range }"
               r"\mu\ll1\ (\text{ill-conditioned}),\ \theta\approx1"),
    measured="regime used in simulations", measured_unit=units.ONE,
    relations={"mu_ill_conditioned": mu < 1, "theta_about_one": sp.Eq(theta, 1)},
    notes=("'mu << 1' compares [F]/[w]^2 with a number: meaningful only in the units fixed by "
           "|f| <= 1 and a parameter scale. In this regime the exponent q = (1-1/n) beta/(c4 "
           "theta mu) of Thm 3.3 is large."),
))

add(_item(
    "def2.1", title="Neighbouring datasets (substitution)", kind="definition",
    source="Definition 2.1", category="definition",
    statement=r"S,S'\text{ of }n\text{ samples are neighbouring if they differ in exactly one sample}",
    notes="Substitution neighbours, |S| = |S'| = n.",
))
add(_item(
    "def2.2", title="(eps, delta)-differential privacy", kind="definition",
    source="Definition 2.2", category="definition",
    statement=(r"\mathbb P[\mathcal A(S)\in O]\le e^\epsilon\,\mathbb P[\mathcal A(S')\in O]"
               r"+\delta"),
    measured="privacy curve delta(eps)", measured_unit=units.ONE,
    relations={"dp": P_S <= sp.exp(eps) * P_Sp + delta},
))
add(_item(
    "def2.3", title="Gaussian mechanism", kind="definition", source="Definition 2.3",
    category="definition",
    statement=r"\mathcal M(S,q)=q(S)+\xi,\ \xi\sim\mathcal N(0,\pi^2\mathbb I_d)",
    measured="noise covariance", measured_unit=units.GRAD_VAR,
    expressions={"noise_variance_per_coordinate": piN**2,
                 "noise_total_second_moment": d * piN**2},
    notes="q here is the query, not the sampling ratio; pi is the noise std in query units.",
))

# Theorem 2.1 (Abadi et al.): pi dimensionless in the printed statement (std L*pi)
THM21_NOISE = piN >= c2 * q * sp.sqrt(T * LOGD) / eps
add(_item(
    "thm2.1", title="Moments accountant (quoted from Abadi et al. 2016)", kind="theorem",
    source="Theorem 2.1", category="privacy",
    statement=(r"\text{for any }\epsilon<c_1q^2T,\text{ noise std }L\pi\text{ gives }(\epsilon,"
               r"\delta)\text{-DP for any }\delta>0\text{ if }\pi\ge c_2\frac{q\sqrt{T\log(1/\delta)}}"
               r"{\epsilon}"),
    measured="achieved (eps, delta) for a given pi", measured_unit=units.ONE,
    assumptions=(Lipschitz(L),),
    hypotheses=(("eps < c1 q^2 T", eps < c1 * q**2 * T),),
    settings={q: B / n},
    relations={"noise": THM21_NOISE},
    expressions={
        "noise_std": L * piN,   # as printed: the injected noise has std L*pi
        # noise on the averaged gradient under the two readings (pi at its threshold, pi dimensionless)
        "avg_noise_std_sum_reading": L * c2 * q * sp.sqrt(T * LOGD) / eps / B,
        "avg_noise_std_avg_reading": L * c2 * q * sp.sqrt(T * LOGD) / eps,
    },
    notes=("The statement makes pi dimensionless (std L*pi) while Alg. 2 / eq. (4) use pi as the "
           "std itself ([F]/[w]); with piN registered as a gradient the 'noise' relation is "
           "dimensionally inconsistent by design (finding). Under the reading 'std L*pi added to "
           "the SUM of the B per-example gradients', the noise on the average is "
           "c2 L sqrt(T log(1/delta))/(n eps), which is eq. (4) with T = sum_k T^k; under the "
           "'added to the average' reading it is B times larger. Abadi et al. use Poisson "
           "sampling and add/remove neighbours; here substitution neighbours (sensitivity 2L) "
           "and sampling without replacement: c2 absorbs the factor."),
    refs=(f"{SRC}.thm3.1", f"{SRC}.thm2.1.corrected"),
))
add(_item(
    "thm2.1.corrected", title="Moments accountant with pi as the std on the averaged gradient",
    kind="theorem", source="Theorem 2.1 (corrected units)", category="privacy",
    provenance="corrected",
    statement=(r"\pi\ge c_2\frac{L\sqrt{T\log(1/\delta)}}{n\epsilon}\quad(\pi=\text{std of the "
               r"noise on the averaged minibatch gradient})"),
    measured="achieved (eps, delta) for a given pi", measured_unit=units.ONE,
    assumptions=(Lipschitz(L),),
    hypotheses=(("eps < c1 q^2 T", eps < c1 * q**2 * T),),
    settings={q: B / n},
    relations={"noise": piN >= c2 * L * sp.sqrt(T * LOGD) / (n * eps)},
    notes=("Printed pi_A (dimensionless, std L pi_A on the sum of B clipped gradients) relates "
           "to the gradient-unit pi of Alg. 2 by pi = L pi_A / B; pi_A >= c2 q sqrt(T log)/eps "
           "with q = B/n gives this relation, which squared with T = sum_k T^k is eq. (4)."),
    refs=(f"{SRC}.thm2.1", f"{SRC}.thm3.1"),
))

add(_item(
    "def2.4", title="alpha-uniform stability", kind="definition", source="Definition 2.4, eq. (2)",
    category="definition",
    statement=(r"\sup_{\mathbf z}\mathbb E_{\mathcal A}[f(\mathcal A(S),\mathbf z)-f(\mathcal A(S'),"
               r"\mathbf z)]\le\alpha"),
    measured="empirical stability", measured_unit=units.LOSS,
    relations={"stability": stab_gap <= alpha_stab},
))
add(_item(
    "thm2.2", title="Generalization error <= uniform stability (Hardt et al. 2016, Thm 2.2)",
    kind="theorem", source="Theorem 2.2, eq. (3)", category="stability",
    statement=(r"\mathbb E_{\mathcal A,S}[F_{\mathbb E}(\mathcal A(S))-F_S(\mathcal A(S))]\le\alpha"),
    measured="generalization gap", measured_unit=units.LOSS,
    hypotheses=(("A is alpha-uniformly stable", stab_gap <= alpha_stab),),
    relations={"generalization": gen_gap <= alpha_stab},
    refs=(f"{SRC}.def2.4",),
))

# ============================== privacy and utility theorems ==============================
add(_item(
    "thm3.1", title="Differential privacy of DPageEM", kind="theorem", source="Theorem 3.1, eq. (4)",
    category="privacy",
    statement=(r"\text{for any }\epsilon<c_1(\tfrac Bn)^2\sum_{k=1}^KT^k,\ \text{Alg. 1 is }(\epsilon,"
               r"\delta)\text{-DP for any }\delta>0\text{ under }\pi^2\ge c_2^2\frac{\sum_{k=1}^K"
               r"T^kL^2\log(1/\delta)}{n^2\epsilon^2}"),
    measured="required noise variance pi^2 (per coordinate, on the averaged gradient)",
    measured_unit=units.GRAD_VAR, direction="lower",
    assumptions=(Lipschitz(L), Smooth(beta)),
    hypotheses=(("eps < c1 (B/n)^2 sum_k T^k", eps < c1 * (B / n)**2 * TOTAL_ITERS),),
    bound=PI2_EQ4,
    relations={"noise": piN**2 >= PI2_EQ4},
    # the averaged minibatch gradient (1/B) sum_batch g: one replaced record moves it by at
    # most 2L/B (Sec. 3.2)
    sensitivities={"minibatch": Sensitivity(2 * L / B, "replace-one",
                                            "||(1/B) sum_batch g_i - (1/B) sum_batch g'_i||",
                                            source="Sec. 3.2")},
    expressions={
        "total_iters": TOTAL_ITERS,
        # eq. (4) rebuilt from Thm 2.1 (T = sum_k T^k, q = B/n, pi at threshold)
        "piN2_from_thm2.1_sum_reading": (L * c2 * (B / n) * sp.sqrt(TOTAL_ITERS * LOGD) / eps / B)**2,
        "piN2_from_thm2.1_avg_reading": (L * c2 * (B / n) * sp.sqrt(TOTAL_ITERS * LOGD) / eps)**2,
        # with K from Thm 3.2 substituted (K enters only through the schedule)
        "piN2_at_thm3.2_K": PI2_EQ4.subs(K, K_SETTING),
        "eps_condition_rhs_at_thm3.2_K": (c1 * (B / n)**2 * TOTAL_ITERS).subs(K, K_SETTING),
    },
    notes=("eq. (4) equals Thm 2.1 under the 'noise on the sum of per-example gradients' reading. "
           "At Thm 3.2's K the side condition eps < c1 (B/n)^2 2 T0 (2^K - 1) becomes "
           "approximately 1 < 2 c1 B^2 T0 eps theta^2 mu/(d L^2 log(1/delta)), a LOWER bound "
           "eps > d L^2 log(1/delta)/(2 c1 B^2 T0 theta^2 mu) independent of n; and "
           "pi^2 -> 2 c2^2 T0 theta^2 mu/d, i.e. the total noise d pi^2 does not depend on n, "
           "eps, delta. The noise scale depends only on public quantities (n, B, T0, K, L, "
           "eps, delta) provided mu, theta, L are not estimated from the data."),
    refs=(f"{SRC}.thm2.1", f"{SRC}.alg1"),
))

HYP_32 = (
    ("pi as in eq. (4)", piN**2 >= PI2_EQ4),
    ("eta0 <= max{theta(1-varrho)^2/(2 beta), 1}",
     eta0 <= sp.Max(theta * (1 - varrho)**2 / (2 * beta), 1)),
    ("eta0 X = 1/c_{theta mu} (literal: 1/(c4 theta mu))", sp.Eq(eta0 * X, 1 / (c4 * theta * mu))),
    ("0 < c4 < 2", c4 < 2),
    ("which gives eta0 X > 1/(2 theta mu)", eta0 * X > 1 / (2 * theta * mu)),
    ("Gamma < 1/2", GAMMA < sp.Rational(1, 2)),
    ("0 <= t0_Mon <= T0", tMon0 <= T0),
    ("0 <= varrho < 1", varrho < 1),
)
EXPR_32 = {
    "X": X, "Gamma": GAMMA, "R1": R1, "R2": R2,
    "Gamma_under_eta0_condition": sp.simplify(GAMMA.subs(eta0, 1 / (c4 * theta * mu * X))),
    "opt_term": OPT_TERM, "dp_term": DP_TERM,
    "total_iters": TOTAL_ITERS, "piN2_eq4": PI2_EQ4,
    "two_pow_minus_K_at_setting": 2**(-K_SETTING),
    # reading of the unsuperscripted t_Mon as the last stage's t^K_Mon = 2^K t0_Mon
    "dp_term_if_tMon_is_tK": DP_TERM.subs(tMon, 2**K * tMon0),
}
add(_item(
    "thm3.2", title="Excess empirical risk of DPageEM", kind="theorem",
    source="Theorem 3.2, eq. (5)", category="utility",
    statement=(r"\mathbb E[F_S(\omega^K)-F_S(\omega_S^*)]\le(\tfrac12)^K\Big(\mathbb E[F_S(\omega^0)"
               r"-F_S(\omega_S^*)]+\frac{1}{1-2\Gamma}\frac{(T^0-t^0_{Mon})+\frac{t^0_{Mon}}{(T^0-"
               r"t^0_{Mon})+\frac{t^0_{Mon}}{2(1-\varrho)}}}\cdot\frac{\eta^0\sigma^2}{2\theta B}\Big)"
               r"+\frac{1}{1-2\Gamma}\frac{(T^0-t^0_{Mon})+\frac{t_{Mon}}{(1-\varrho)^3}}{(T^0-"
               r"t^0_{Mon})+\frac{t^0_{Mon}}{2(1-\varrho)}}\frac{2c_2^2dL^2\log(1/\delta)\eta^0}"
               r"{c_4\theta^2\mu n^2\epsilon^2};\quad K=\Omega(\log\frac{n^2\epsilon^2\theta^2\mu}"
               r"{dL^2\log(1/\delta)})\Rightarrow\le O(\frac{dL^2\log(1/\delta)}{\theta^2\mu n^2"
               r"\epsilon^2})"),
    measured="E[F_S(w^K) - F_S(w_S^*)] (expected excess empirical risk)",
    measured_unit=units.LOSS,
    assumptions=ASSUMPTIONS_ALL,
    hypotheses=HYP_32,
    settings={K: K_SETTING},
    bound=BOUND_32, rate=RATE_32, rate_notation="O",
    hidden=(F0gap, sigma, B, eta0, T0, tMon0, tMon, varrho, c2, c4),
    expressions=EXPR_32,
    provenance="literal", garbled=True,
    notes=("Literal reading: the first ratio R1 is garbled (outer \\frac without denominator), "
           "encoded as (T0 - t0_Mon) + t0_Mon/X; '1/c_{theta mu}' read as 1/(c4 theta mu); the "
           "second ratio keeps t_Mon without superscript. Under the eta0 condition Gamma = c4/4 "
           "< 1/2 exactly when c4 < 2, consistent with the printed 'which gives'. Dimensional "
           "observations: the DP term 2 c2^2 d L^2 log(1/delta) eta0/(c4 theta^2 mu n^2 eps^2) "
           "has dimension [w]^2, not [F] (one eta0 too many, see thm3.2.corrected); the "
           "hypothesis eta0 <= max{theta(1-varrho)^2/(2 beta), 1} compares a step [w]^2/[F] "
           "with 1 and, as a max, is implied by eta0 <= 1; K's log argument has dimension 1/[F] "
           "(fixed by |f| <= 1). If t_Mon is read as t^K_Mon = 2^K t0_Mon the DP term no longer "
           "decays in n."),
    refs=(f"{SRC}.thm3.1", f"{SRC}.thm3.2.corrected"),
))

# Corrected Theorem 3.2, re-derived for DPageS (t0_Mon = 0); see the item's notes.
D_CORR = theta - eta0 * beta / 2                    # theta - eta^k beta, k >= 1
M_CORR = 1 + 1 / (2 * T0)                           # (T^k + 1)/T^k, T^k >= 2 T0
GAMMA_CORR = c4 * theta / D_CORR                    # = 1/(mu eta0 T0 D) at eta0 T0 = 1/(c4 theta mu)
OPT_TERM_CORR = 2**(-K) * (F0gap + M_CORR * eta0 * sigma**2
                           / (2 * B * D_CORR * (1 - 2 * GAMMA_CORR)))
DP_TERM_CORR = (M_CORR * c2**2 * d * L**2 * LOGD
                / (c4 * theta * mu * D_CORR * (1 - 2 * GAMMA_CORR) * n**2 * eps**2))
add(_item(
    "thm3.2.corrected", title="Excess empirical risk of DPageS (momentum off), stage contraction "
    "re-derived", kind="theorem", source="Theorem 3.2, eq. (5) (corrected: t0_Mon = 0)",
    category="utility", provenance="corrected", garbled=True,
    statement=(r"t^0_{Mon}=0,\ \eta^0T^0=\tfrac1{c_4\theta\mu},\ \Gamma_c=\frac{c_4\theta}{D}<\tfrac12,"
               r"\ D=\theta-\tfrac{\eta^0\beta}2:\ \mathbb E[F_S(\omega^K)-F_S^*]\le(\tfrac12)^K"
               r"\Big(\mathbb E[F_S(\omega^0)-F_S^*]+\frac{M\eta^0\sigma^2}{2BD(1-2\Gamma_c)}\Big)"
               r"+\frac{M c_2^2dL^2\log(1/\delta)}{c_4\theta\mu D(1-2\Gamma_c)n^2\epsilon^2},"
               r"\ M=1+\tfrac1{2T^0}"),
    measured="E[F_S(w^K) - F_S(w_S^*)]", measured_unit=units.LOSS,
    assumptions=ASSUMPTIONS_ALL,
    hypotheses=(("pi^2 = eq. (4) with equality (c2 defined by pi)", sp.Eq(piN**2, PI2_EQ4)),
                ("momentum off: t0_Mon = 0 (DPageS; early momentum not derived)",
                 sp.Eq(tMon0, 0)),
                ("eta0 <= theta/beta (so D >= theta/2)", eta0 <= theta / beta),
                ("eta0 T0 = 1/(c4 theta mu) (the printed equality at t0_Mon = 0)",
                 sp.Eq(eta0 * T0, 1 / (c4 * theta * mu))),
                ("Gamma_c = c4 theta/D < 1/2 (replaces the printed 0 < c4 < 2)",
                 GAMMA_CORR < sp.Rational(1, 2))),
    settings={K: K_SETTING},
    bound=OPT_TERM_CORR + DP_TERM_CORR, rate=RATE_32, rate_notation="O",
    hidden=(F0gap, sigma, B, eta0, T0, beta, c2, c4),
    expressions={"dp_term": DP_TERM_CORR, "opt_term": OPT_TERM_CORR, "Gamma_c": GAMMA_CORR,
                 "Gamma_printed": GAMMA.subs(tMon0, 0), "D": D_CORR, "M": M_CORR},
    notes=("Re-derived (the supplement with the paper's proof is not available). One stage "
           "k of DP-SGD (momentum off) with step eta = 2^-k eta0, T = 2^k T0 steps, output "
           "uniform on w_1..w_T, started at w_0 = w^(k-1): the gradient estimate is unbiased "
           "with E||g - grad F_S||^2 <= q = sigma^2/B + d pi^2 (sampling without replacement "
           "only lowers sigma^2/B); smoothness gives ||grad F_S||^2 <= 2 beta (F_S - F_S*) and "
           "weak quasi-convexity <grad F_S(w), w - w*> >= theta (F_S(w) - F_S*), so E||w_(t+1) "
           "- w*||^2 <= E||w_t - w*||^2 - 2 eta (theta - eta beta) E[F_S(w_t) - F_S*] + eta^2 "
           "q. Summed over t = 1..T (with ||w_1 - w*||^2 <= ||w_0 - w*||^2 + eta^2 q): E_k <= "
           "E||w_0 - w*||^2/(2 eta T D) + (T+1) eta q/(2 T D), D = theta - eta0 beta/2 <= theta "
           "- eta beta. PL gives quadratic growth F_S(w) - F_S* >= (mu/2)||w - w*||^2 (Karimi "
           "et al. 2016, Thm 2) when w_S^* is the unique minimiser (the point of the weak "
           "quasi-convexity), so E_k <= Gamma_c E_(k-1) + M eta^k q/(2D), Gamma_c = 1/(mu eta0 "
           "T0 D) = c4 theta/D (eta T = eta0 T0 at every stage). With Gamma_c < 1/2: E_K <= "
           "2^-K (E_0 + M eta0 q/(2 D (1 - 2 Gamma_c))), and 2^-K d pi^2 <= 2 T0 c2^2 d L^2 "
           "log(1/delta)/(n^2 eps^2) gives the DP term. The printed proof's error is the stage "
           "contraction: the printed Gamma = 1/(4 theta mu eta0 X) = c4/4 is 4 theta/D >= 4 "
           "times too small, and the printed 0 < c4 < 2 does not give a contraction below 1/2 "
           "(on a quadratic with Hessian I, theta = 2, c4 = 1.9 a stage contracts by about "
           "0.78: zhang2021.thm3.2:bound-n). The DP term keeps the printed form up to M and "
           "theta/D <= 2 (R2 = 1 at t0_Mon = 0), without the printed extra eta0 (dimension). "
           "Not derived: the early-momentum case t0_Mon > 0 (the heavy-ball phase needs the "
           "momentum cross term <grad F_S(w_t), w_t - w_(t-1)>, which weak quasi-convexity "
           "does not control); this item claims DPageS only, and the form does not carry "
           "over: on the same quadratic with varrho = 1/2, c4 = 0.05 and t0_Mon = T0/2 .. T0 "
           "the exact value exceeds it 1.3-1.7x (the heavy-ball phase amplifies the noise)."),
    refs=(f"{SRC}.thm3.2",),
))

add(_item(
    "remark3", title="Empirical risk matches strongly convex DP-ERM (Zhang et al. 2017)",
    kind="remark-claim", source="Remark 3", category="comparison",
    statement=(r"O(\frac{d\log(1/\delta)}{n^2\epsilon^2})\text{ matches [Zhang et al., 2017] under "
               r"weaker assumptions (WQC + PL vs strong convexity)}"),
    measured="excess empirical risk", measured_unit=units.LOSS,
    rate=d * LOGD / (n**2 * eps**2), rate_notation="O",
    expressions={"thm3.2_rate": RATE_32,
                 "ratio_thm3.2_rate_to_remark3": sp.simplify(RATE_32 / (d * LOGD / (n**2 * eps**2)))},
    notes=("The remark drops L^2/(theta^2 mu) of Thm 3.2's rate; the quoted rate is "
           "dimensionless (loss normalized). Compare with zhang2017.thm2 part 2."),
    refs=(f"{SRC}.thm3.2", "zhang2017.thm2"),
))

R1_lit = R1
R2_lit = R2.subs(tMon, tMon0)
add(_item(
    "remark4", title="Momentum always on / always off give the same order",
    kind="remark-claim", source="Remark 4", category="utility",
    statement=(r"\text{momentum always on }(t^0_{Mon}=T^0)\text{ and always off }(t^0_{Mon}=0)"
               r"\text{ have the same order of excess empirical risk}"),
    measured="excess empirical risk in the two special cases", measured_unit=units.LOSS,
    expressions={
        "R1_off": sp.simplify(R1_lit.subs(tMon0, 0)),
        "R1_on": sp.simplify(R1_lit.subs(tMon0, T0)),
        "R2_off": sp.simplify(R2_lit.subs(tMon0, 0)),
        "R2_on": sp.simplify(R2_lit.subs(tMon0, T0)),
        "X_off": X.subs(tMon0, 0), "X_on": sp.simplify(X.subs(tMon0, T0)),
    },
    notes=("R2 with t_Mon := t0_Mon: off 1, on 2/(1-varrho)^2 (diverges as varrho -> 1). "
           "Literal R1: off T0, on 2(1-varrho). Same order in n, d, eps at fixed varrho."),
    refs=(f"{SRC}.thm3.2",),
))

# ================================= stability and population ===============================
add(_item(
    "thm3.3", title="alpha-uniform stability of DPageEM", kind="theorem", source="Theorem 3.3",
    category="stability",
    statement=(r"\alpha=\frac{2L^2}{c_4\theta\mu n}(T^K)^qe^{2\varrho(t^K_{Mon}-1)}\big(\log(1+"
               r"\tfrac1{2\varrho})-\tfrac12\log(1+\tfrac1{\varrho t^K_{Mon}})\big)+\frac{2L^2}{(n-1)"
               r"\beta}(T^K)^q+\frac{(T^K+1)B}{n},\ q=(1-\tfrac1n)\frac{\beta}{c_4\theta\mu}"),
    measured="uniform stability alpha (sup_z E[f(A(S),z) - f(A(S'),z)])",
    measured_unit=units.LOSS,
    assumptions=ASSUMPTIONS_ALL,
    hypotheses=HYP_32,
    settings={K: K_SETTING},
    bound=ALPHA_33,
    expressions={"q_exponent": Q_EXP, "T_K": TK, "tMon_K": tK, "term1": ALPHA_T1,
                 "term2": ALPHA_T2, "term3": ALPHA_T3,
                 "dterm1_dtMonK": sp.diff(ALPHA_T1.subs(tMon0, tMon * 2**(-K)), tMon)},
    notes=("No rate printed. Term 3 (T^K+1)B/n is dimensionless (loss normalized by |f| <= 1) "
           "and exceeds 1 (vacuous: |f| <= 1 gives alpha <= 2) once T^K B >= n; at Thm 3.2's K, "
           "T^K ~ n^2 eps^2/d so term 3 ~ n and term 1 ~ exp(2 varrho t0_Mon 2^K) grows like "
           "exp(c n^2). Term 1 is undefined at varrho = 0 and at t^K_Mon = 0 (DPageS, the case "
           "Remark 4 covers) and tends to +infinity as varrho -> 0 at fixed t^K_Mon >= 1. "
           "q = (1-1/n) beta/(c4 theta mu) is large in the mu << 1 regime of Remark 1."),
    refs=(f"{SRC}.thm3.2", f"{SRC}.remark5"),
))
add(_item(
    "remark5", title="Stability gets worse with more momentum-on iterations", kind="remark-claim",
    source="Remark 5", category="stability",
    statement=(r"\text{by the first term of Thm 3.3, }\alpha\text{ increases when }t^K_{Mon}"
               r"\text{ becomes larger}"),
    measured="alpha vs t^K_Mon", measured_unit=units.LOSS,
    relations={"dalpha_dtMonK_positive":
               sp.diff(ALPHA_T1.subs(tMon0, tMon * 2**(-K)), tMon) > 0},
    expressions={"dterm1_dtMonK": sp.diff(ALPHA_T1.subs(tMon0, tMon * 2**(-K)), tMon)},
    notes=("Here tMon stands for t^K_Mon (continuous). d/dt of e^{2 varrho (t-1)}(log(1+1/(2 "
           "varrho)) - log(1+1/(varrho t))/2): the bracket is > 0 for t >= 1 because (1+1/(2 "
           "varrho))^2 = 1 + 1/varrho + 1/(4 varrho^2) > 1 + 1/(varrho t), and both parts of the "
           "derivative are then positive; the claim holds for t^K_Mon >= 1, varrho > 0."),
    refs=(f"{SRC}.thm3.3",),
))

add(_item(
    "thm3.4", title="Excess population risk of DPageEM", kind="theorem", source="Theorem 3.4",
    category="utility",
    statement=(r"\mathbb E_{\mathcal A,S}[F_{\mathbb E}(\omega^K)-\min_\omega F_{\mathbb E}(\omega)]"
               r"\le O(\max\{\frac{dL^2\log(1/\delta)}{\theta^2\mu n^2\epsilon^2},\sqrt{\frac1"
               r"{\theta\mu n}}\})"),
    measured="expected excess population risk", measured_unit=units.LOSS,
    assumptions=ASSUMPTIONS_ALL, hypotheses=HYP_32, settings={K: K_SETTING},
    rate=RATE_34, rate_notation="O",
    expressions={"empirical_term": RATE_32, "generalization_term": sp.sqrt(1 / (theta * mu * n))},
    notes=("No explicit bound printed. sqrt(1/(theta mu n)) has dimension [w]/sqrt([F]) "
           "(not [F]). The stated route (Def 1.1 + Thm 2.2 + Thm 3.2 + Thm 3.3) is encoded as "
           "thm3.4.route."),
    refs=(f"{SRC}.thm3.2", f"{SRC}.thm3.3", f"{SRC}.thm3.4.route"),
))
add(_item(
    "thm3.4.route", title="Population risk via the stated route (Thm 3.2 + alpha of Thm 3.3)",
    kind="theorem", source="Theorem 3.4 via Def. 1.1, Thm 2.2, Thm 3.2, Thm 3.3",
    category="utility", provenance="reconstructed", garbled=True,
    # the route is the paper's (Sec. 3.2, Remark 6): its failure is a proof finding of
    # Theorem 3.4, the cause zhang2021.thm3.4:route-rate decides over every K
    printed_statement=True, finding_root="zhang2021.thm3.4:route-momentum-term",
    statement=(r"\mathbb E[F_{\mathbb E}(\omega^K)]-\min F_{\mathbb E}\le\text{(eq. 5)}+\alpha"
               r"\text{ (Thm 3.3)}"),
    measured="expected excess population risk", measured_unit=units.LOSS,
    assumptions=ASSUMPTIONS_ALL, hypotheses=HYP_32, settings={K: K_SETTING},
    bound=BOUND_32 + ALPHA_33, rate=RATE_34, rate_notation="O",
    hidden=(F0gap, sigma, B, eta0, T0, tMon0, tMon, varrho, c2, c4, beta),
    expressions={"empirical_part": BOUND_32, "stability_part": ALPHA_33},
    notes=("Testing error <= excess empirical risk + generalization gap (Def 1.1, corrected "
           "form) <= eq. (5) + alpha (Thm 2.2 with Thm 3.3), all at Thm 3.2's settings. "
           "garbled=True because eq. (5) is the literal reading. The route is the paper's, "
           "not dptheory's: Sec. 3.2 obtains the population risk 'by the uniform stability "
           "technique ... (Thm. 2.2)' from Theorems 3.2 and 3.3 under 'the same ... parameter "
           "setting as in Theorem 3.2', and Remark 6 reads the result as the larger of the two "
           "parts. Every piece is printed; dptheory only adds them, with the corrected "
           "Def. 1.1 (the printed decomposition double counts and is larger, so the failure "
           "holds a fortiori), and the part that fails is Thm 3.3's alpha (momentum factor "
           "e^{2 varrho (t^K_Mon - 1)}, term (T^K + 1)B/n), not the garbled ratio of eq. (5). "
           "So printed_statement=True: the derivation's refutation is a proof finding of "
           "Theorem 3.4, merged into zhang2021.thm3.4:route-momentum-term (the check "
           "zhang2021.thm3.4:route-rate shows the route gives Theta(1/log n) at every K)."),
    refs=(f"{SRC}.thm3.4", f"{SRC}.thm3.2", f"{SRC}.thm3.3", f"{SRC}.def1.1.corrected"),
))

P1_R6 = LOGD / (n * eps**2) + d / sp.log(n)
P2_R6 = (d * LOGD)**sp.Rational(1, 4) / sp.sqrt(n * eps)
P2L1_R6 = sp.sqrt(sp.log(n * d) / sp.sqrt(n * eps))
add(_item(
    "remark6", title="Comparison with prior population risks (P-1, P-2)", kind="remark-claim",
    source="Remark 6", category="comparison",
    statement=(r"\text{greatly improves }O(\frac{\log(1/\delta)}{n\epsilon^2}+\frac d{\log n})"
               r"\text{ (P-1)};\text{ improves over }O(\frac{(d\log(1/\delta))^{1/4}}{\sqrt{n\epsilon}})"
               r"\text{ and }O(\sqrt{\frac{\log(nd)}{\sqrt{n\epsilon}}})\text{ (P-2)}"),
    measured="excess population risk", measured_unit=units.LOSS,
    expressions={"P1_remark6": P1_R6, "P2_remark6": P2_R6, "P2_l1_remark6": P2L1_R6,
                 "thm3.4_rate": RATE_34},
    relations={"improves_P1": RATE_34 < P1_R6, "improves_P2": RATE_34 < P2_R6,
               "improves_P2_l1": RATE_34 < P2L1_R6},
    notes=("The quotes differ from the intro: P-1 gains log(1/delta), P-2 gains "
           "log(1/delta)^(1/4), and the l1-ball rate is sqrt(log(nd))/(n eps)^(1/4) here vs "
           "sqrt(log(nd))/(n eps)^(1/2) in the intro; the intro attributes P-2 to GLMs and "
           "robust regression, Remark 6 to robust regression only."),
    refs=(f"{SRC}.intro.P1", f"{SRC}.intro.P2", f"{SRC}.thm3.4"),
))

# ================================= prior-work rates ======================================
add(_item(
    "intro.E1", title="Wang et al. 2019a (DP-GLD): excess empirical risk", kind="prior-work-rate",
    source="Sec. 1.1, E-1", category="utility",
    statement=(r"O(\frac1{n\epsilon^2}+\frac d{\log n})\ (T\to\infty,\ \log n\ge d);\ "
               r"\frac{C_0(d)}{n^\tau\epsilon^\tau},\ \tau\in(0,1)"),
    measured="excess empirical risk", measured_unit=units.LOSS,
    hypotheses=(("log(n) >= d to be meaningful", sp.log(n) >= d),),
    rate=1 / (n * eps**2) + d / sp.log(n), rate_notation="O",
    expressions={"improved": C0 / (n**tau * eps**tau)},
    notes="T -> +infinity is also required (not encodable as a relation).",
    refs=("wang2020.intro.wang2019a",),
))
add(_item(
    "intro.E2", title="Wang et al. 2017 (DP full GD under PL): excess empirical risk",
    kind="prior-work-rate", source="Sec. 1.1, E-2", category="utility",
    statement=r"O(\frac{d\log^2(n)\log(1/\delta)}{n^2\epsilon^2})",
    measured="excess empirical risk", measured_unit=units.LOSS,
    rate=d * sp.log(n)**2 * LOGD / (n**2 * eps**2), rate_notation="O",
    expressions={"ratio_to_thm3.2_rate": sp.simplify(
        d * sp.log(n)**2 * LOGD / (n**2 * eps**2) / RATE_32)},
))
add(_item(
    "intro.E3", title="Wang et al. 2019a (exponential mechanism type): excess empirical risk",
    kind="prior-work-rate", source="Sec. 1.1, E-3", category="utility",
    statement=r"\tilde O(\frac d{n\epsilon}),\ \text{runtime }O((1+\frac nd)^dn)",
    measured="excess empirical risk", measured_unit=units.LOSS,
    rate=d / (n * eps), rate_notation="Otilde",
    expressions={"runtime": (1 + n / d)**d * n},
))
add(_item(
    "intro.P1", title="Wang et al. 2019a (DP-GLD): population risk", kind="prior-work-rate",
    source="Sec. 1.1, P-1", category="utility",
    statement=r"O(\frac1{n\epsilon^2}+\frac d{\log n})",
    measured="excess population risk", measured_unit=units.LOSS,
    rate=1 / (n * eps**2) + d / sp.log(n), rate_notation="O",
    notes="Remark 6 quotes it with an extra log(1/delta) in the first term.",
    refs=(f"{SRC}.remark6",),
))
P2 = d**sp.Rational(1, 4) / sp.sqrt(n * eps)
add(_item(
    "intro.P2", title="Wang et al. 2019a (DP Frank-Wolfe): population risk", kind="prior-work-rate",
    source="Sec. 1.1, P-2; Sec. 1.2", category="utility",
    statement=(r"O(\frac{d^{1/4}}{\sqrt{n\epsilon}});\ O(\frac{\sqrt{\log(nd)}}{\sqrt{n\epsilon}})"
               r"\ (\ell_1\text{ ball});\ n=\Theta(d):\ O(\frac{d^{1/4}}{\sqrt{n\epsilon}})=O(\frac1"
               r"{n^{1/4}\epsilon^{1/2}})"),
    measured="excess population risk", measured_unit=units.LOSS,
    rate=P2, rate_notation="O",
    expressions={"l1_ball": sp.sqrt(sp.log(n * d)) / sp.sqrt(n * eps),
                 "at_n_eq_d": P2.subs(d, n)},
    relations={"n_eq_d_identity": sp.Eq(P2.subs(d, n), 1 / (n**sp.Rational(1, 4) * sp.sqrt(eps)))},
    refs=(f"{SRC}.remark6", f"{SRC}.contrib"),
))
add(_item(
    "intro.SCO", title="Convex DP-SCO (Bassily et al. 2019; Feldman et al. 2020)",
    kind="prior-work-rate", source="Sec. 1", category="utility",
    statement=r"\max\{O(\frac1{\sqrt n}),O(\frac{\sqrt{d\log(1/\delta)}}{n\epsilon})\}",
    measured="excess population risk", measured_unit=units.LOSS,
    rate=sp.Max(1 / sp.sqrt(n), sp.sqrt(d * LOGD) / (n * eps)), rate_notation="O",
))
add(_item(
    "intro.nonprivate", title="Non-private stagewise SGD (Yuan et al. 2019; Zhao et al. 2020)",
    kind="prior-work-rate", source="Sec. 1.1, Gaps", category="utility",
    statement=r"O(\frac1{\sqrt n})", measured="excess population risk", measured_unit=units.LOSS,
    rate=1 / sp.sqrt(n), rate_notation="O",
))
add(_item(
    "intro.zhang2017", title="Strongly convex DP-ERM rate as quoted", kind="prior-work-rate",
    source="Sec. 1.1, Gaps", category="utility",
    statement=r"O(\frac{d\log(1/\delta)}{n^2c^2})",
    measured="excess empirical risk", measured_unit=units.LOSS,
    rate=d * LOGD / (n**2 * c_undef**2), rate_notation="O",
    scaling={n: 1, d: 1, eps: -1},
    notes="c is printed as shown and is not defined in the text (presumably epsilon).",
    refs=("zhang2017.table1", "zhang2017.thm2"),
))
CONTRIB_POP = sp.Max(d * LOGD / (n**2 * eps**2), 1 / sp.sqrt(n))
add(_item(
    "contrib", title="Headline rates (Sec. 1.2)", kind="remark-claim", source="Sec. 1.2",
    category="comparison",
    statement=(r"O(\frac{d\log(1/\delta)}{n^2\epsilon^2})\text{ empirical; }O(\max\{\frac{d\log"
               r"(1/\delta)}{n^2\epsilon^2},\frac1{\sqrt n}\})\text{ population; for }n=\Theta(d)"
               r"\text{ better than }O(\frac1{n^{1/4}\epsilon^{1/2}})"),
    measured="excess population risk", measured_unit=units.LOSS,
    rate=CONTRIB_POP, rate_notation="O",
    expressions={"empirical": d * LOGD / (n**2 * eps**2),
                 "population": CONTRIB_POP,
                 "P2_at_n_eq_d": 1 / (n**sp.Rational(1, 4) * sp.sqrt(eps)),
                 "ratio_population_to_P2_at_n_eq_d":
                     CONTRIB_POP.subs(d, n) * n**sp.Rational(1, 4) * sp.sqrt(eps)},
    relations={"better_than_P2_at_n_eq_d":
               CONTRIB_POP.subs(d, n) < 1 / (n**sp.Rational(1, 4) * sp.sqrt(eps))},
    notes=("At d = n the ratio -> 0 as n -> infinity at fixed eps, delta; the first term is "
           "below P-2 iff eps^(3/2) n^(3/4) > log(1/delta), i.e. eps > log(1/delta)^(2/3)/sqrt(n)."),
    refs=(f"{SRC}.thm3.2", f"{SRC}.thm3.4", f"{SRC}.intro.P2"),
))
add(_item(
    "exp", title="Experiments (MNIST 2-layer CNN, CIFAR-10 ResNet-20)", kind="remark-claim",
    source="Sec. 4", category="experiment",
    statement=(r"\text{1) DPageS best private; 2) DPageEM > DP-SGDM-const, DP-SGDEM-const; "
               r"DP-SGDM-const worst momentum method; early momentum < no momentum; 3) private gap "
               r"smaller on MNIST/CNN than CIFAR-10/ResNet-20}"),
    measured="train/test accuracy vs iterations", measured_unit=units.ONE,
    expressions={"eps_mnist": sp.Integer(8), "eps_cifar10": sp.Integer(10)},
    notes="delta, B, eta0, T0 are in the supplement (not in our text).",
))

__all__ = ["PAPER", "ITEMS"]
