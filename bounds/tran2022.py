"""tran2022 — H. Tran, A. Cutkosky, *Momentum Aggregation for Private Non-convex ERM*,
NeurIPS 2022 (arXiv 2210.06328). Encoded from the main body only: the appendix (COMPOSE,
the reconstruction algorithm, the proofs of Proposition 13 / Lemma 17 and the privacy
accounting) is absent, see the ``[reconstructed]`` items. 31 catalog items.

Printed letter -> shared symbol:

=====================================  =====================
printed                                 dptheory
=====================================  =====================
N (dataset size)                        ``S.n``
d                                       ``S.d``
epsilon, delta                          ``S.eps``, ``S.delta``
T (iterations, one sample each)         ``S.T``
G ("G-Lipschitz": ||grad f|| <= G)      ``S.G``
L (smoothness)                          ``S.beta``
R (sup_w F(w_1) - F(w) <= R)            ``S.Fgap``
eta (normalized step)                   ``S.eta_n`` (dimension [w])
alpha = 1 - beta (momentum weight)      ``S.alpha_m``
sigma (noise parameter, dimensionless)  ``S.sigma``
z (Renyi order)                         ``S.z``
R (tree depth of Algorithm 1)           ``Rtree`` (local)
gamma (cross-batch parameter)           ``gamma_x`` (local)
[y, z] node endpoints                   ``yI``, ``zI`` (local)
=====================================  =====================

Items whose statement fails a check we could run on paper carry a ``.corrected`` sibling
(``prop13``, ``thm4``, ``thm6``, ``thm8``, ``alg2``, ``eq3``); see their ``notes``.
"""

from __future__ import annotations

import sympy as sp

from dptheory.symbolic import units as U
from dptheory.symbolic.assumptions import BoundedBelow, BoundedGradient, Smooth
from dptheory.symbolic.symbols import S, register
from dptheory.symbolic.theorem import Catalog, Paper, Sensitivity

# Theorems 6 and 9 set the step of the normalized update to eta = 1/sqrt(N T), a pure
# number; the step of w - eta m/||m|| is a displacement ([w]), so the paper measures
# parameters in units where [w] = 1. Dimensional issues this convention covers are not
# findings.
NORMALIZED_UNITS = {U.W: 1}

PAPER = Paper(
    key="tran2022",
    title="Momentum Aggregation for Private Non-convex ERM",
    authors="Hoang Tran, Ashok Cutkosky",
    venue="NeurIPS 2022",
    year=2022,
    arxiv="2210.06328",
    source="main body (the appendix is not encoded)",
    in_text=("title", "authors"),       # venue, year and arXiv id are not printed in it
)

# --- the paper's letters bound to shared symbols ------------------------------------
N = S.n            # tran2022 prints N
d = S.d
eps = S.eps
delta = S.delta
T = S.T
G = S.G            # tran2022's "G-Lipschitz" is a gradient-norm bound
L = S.beta         # tran2022's L is smoothness
R = S.Fgap         # tran2022's R bounds F(w_1) - inf F
eta = S.eta_n      # normalized step: ||w_{t+1} - w_t|| = eta
alpha = S.alpha_m  # momentum weight, alpha = 1 - beta
sigma = S.sigma
z = S.z            # Renyi order

NOTATION = {S.n: "N", S.beta: "L", S.Fgap: "R", S.eta_n: r"\eta", S.alpha_m: r"\alpha"}

# --- paper-local symbols ----------------------------------------------------------
Rtree = register("Rtree", U.ONE, "tree depth R of tran2022 Algorithm 1", latex="R",
                 integer=True, domain="integer >= 1", example=12)
gamma = register("gamma_x", U.ONE, "cross-batch parameter gamma of tran2022 Algorithm 2",
                 latex=r"\gamma", domain="(0, 1)", example=0.1)
yI = register("yI", U.ONE, "start index y of a tree node [y, z] (tran2022)", latex="y",
              integer=True, domain="integer >= 1", example=1)
zI = register("zI", U.ONE, "end index z of a tree node [y, z] (tran2022)", latex="z",
              integer=True, domain="integer >= y", example=16)
t = register("tr22_t", U.ONE, "iteration index / number of leaves t (tran2022)", latex="t",
             integer=True, domain="integer >= 1", example=100)
a_int = register("tr22_a", U.ONE, "start a of an interval [a, b] (tran2022 COMPOSE)",
                 latex="a", integer=True, domain="integer >= 1", example=3)
b_int = register("tr22_b", U.ONE, "end b of an interval [a, b] (tran2022 COMPOSE)",
                 latex="b", integer=True, domain="integer >= a", example=100)
q = register("tr22_q", U.ONE, "epoch index q of t = qN + r (tran2022 eq. 3)", latex="q",
             integer=True, domain="integer >= 1", example=3)
i_win = register("tr22_i", U.ONE, "window index i of eq. (3) (tran2022)", latex="i",
                 integer=True, domain="integer in [1, q-1]", example=2)
P_D = register("tr22_PD", U.ONE, "P[M(D) in E] (tran2022 Def. 1)", latex="P[M(D)\\in E]",
               domain="[0, 1]", example=0.3)
P_Dp = register("tr22_PDp", U.ONE, "P[M(D') in E] (tran2022 Def. 1)",
                latex="P[M(D')\\in E]", domain="[0, 1]", example=0.2)
Delta_q = register("tr22_Delta", U.GRAD, "L2 sensitivity of a query (tran2022 Def. 2; "
                   "queries here are gradient sums)", latex=r"\Delta", example=1.0)
qdiff = register("tr22_qdiff", U.GRAD, "||f(D) - f(D')||_2 for one neighbouring pair "
                 "(tran2022 Def. 2)", latex=r"\|f(D)-f(D')\|_2", example=0.5)
s_std = register("tr22_s", U.GRAD, "per-coordinate std of a Gaussian mechanism "
                 "(tran2022 RDP facts)", latex="s", example=2.0)
gnorm = register("tr22_gnorm", U.GRAD, "||grad f(y)|| at a point (tran2022 assumptions)",
                 latex=r"\|\nabla f(y)\|", nonnegative=True, positive=False, domain=">= 0")
gradlip = register("tr22_gradlip", U.SMOOTH, "||grad f(y1) - grad f(y2)|| / ||y1 - y2|| "
                   "(tran2022 assumptions)", latex=r"\frac{\|\nabla f(y_1)-\nabla f(y_2)\|}"
                   r"{\|y_1-y_2\|}", nonnegative=True, positive=False, domain=">= 0")
gap_w = register("tr22_gapw", U.LOSS, "F(w_1) - F(w) at a point w (tran2022 assumptions)",
                 latex="F(w_1)-F(w)", positive=False, domain="real")
errbar = register("tr22_errbar", U.GRAD, "(1/T) sum_t E||m_hat_t - grad F(w_t)|| "
                  "(tran2022 Lemma 5)", latex=r"\frac1T\sum_t\mathbb E\|\hat\epsilon_t\|",
                  nonnegative=True, positive=False, domain=">= 0", example=0.1)
DeltaNode = register("tr22_DeltaNode", U.GRAD, "L2 sensitivity of a tree node f_[y,z] "
                     "(tran2022 Prop. 13)", latex=r"\Delta_{\rm node}", example=0.04)
Vs = register("tr22_Vs", U.ONE, "number of noised nodes containing the differing datum "
              "(tran2022 Thm 4 proof)", latex="V_s", example=100)
cnt = {X: register(f"tr22_cnt{X}", U.ONE, f"number of {X}-family nodes of Algorithm 2 "
                   f"containing the differing datum (tran2022)", latex=f"c_{{{X}}}",
                   example=10)
       for X in ("Gle", "Ggt", "r", "D")}
Dsens = {X: register(f"tr22_Dsens{X}", U.GRAD, f"L2 sensitivity of a {X}-family node of "
                     f"Algorithm 2 (tran2022)", latex=fr"\Delta_{{{X}}}", example=1.0)
         for X in ("Gle", "Ggt", "r", "D")}

# bound (dummy) summation indices: not registered, never free
j = sp.Symbol("tr22_j", integer=True, nonnegative=True)
jj = sp.Symbol("tr22_jj", integer=True, nonnegative=True)
ii = sp.Symbol("tr22_ii", integer=True, nonnegative=True)

# --- recurring expressions (catalog preamble) ---------------------------------------
ell = sp.log(T, 2)                  # log2 T
Lg = sp.log(1 / delta)              # log(1/delta)
K9 = 16 * ell * Lg                  # Theorem 9's K


def _rational(p: int, q_: int) -> sp.Rational:
    return sp.Rational(p, q_)


# Algorithm 1's count V (the Thm 4 proof prints min(R+1, floor(log2 N)+1), equal).
V_alg1 = ((sp.Min(Rtree, sp.floor(sp.log(N, 2))) + 1) * T / N
          + sp.Sum(sp.floor(T / 2**j), (j, sp.floor(sp.log(N, 2) + 1),
                                        sp.Max(Rtree, sp.floor(sp.log(N, 2))))))
# (the Max keeps the paper's empty-sum convention: SymPy's Sum with upper < lower - 1
#  would otherwise subtract terms)
V_thm4 = ((sp.Min(Rtree + 1, sp.floor(sp.log(N, 2)) + 1)) * T / N
          + sp.Sum(sp.floor(T / 2**j), (j, sp.floor(sp.log(N, 2)) + 1,
                                        sp.Max(Rtree, sp.floor(sp.log(N, 2))))))
node_var_alg1 = 16 * alpha**2 * G**2 * sigma**2 * V_alg1

# Proposition 13 (as printed).
Delta_node = 2 * alpha * G * sp.Sum((1 - alpha)**(j * N),
                                    (j, 0, sp.ceiling(sp.Abs(yI - zI) / N) - 1))

# Algorithm 2's constants (as printed).
V_le2N = 3 * sp.log(N, 2)
V_gt2N = 4 * T / N * sp.log(N, 2)
delta_G = 4 * G
delta_r = 2 * eta * N       # printed: no smoothness factor (dimension [w], see alg2.corrected)
delta_D = 2 * eta * N

# Theorem 6.
sigma4 = 2 * sp.sqrt(Lg) / eps
T6 = eps * N**2 / (ell * sp.sqrt(d * Lg))               # implicit: log2 T on the right
alpha6 = eps * N / (T * ell * sp.sqrt(d * Lg))
eta6 = 1 / sp.sqrt(N * T)
bound6 = ((_rational(3, 2) * R + 6 * L * sp.sqrt(ell * Lg)
           + 12 * G * sp.sqrt(ell * Lg)**_rational(1, 4)) * d**_rational(1, 4) / sp.sqrt(eps * N)
          + 3 * L * (d * Lg)**_rational(1, 4) * sp.sqrt(ell) / (4 * sp.sqrt(eps * N**_rational(3, 2)))
          + 6 * G / sp.sqrt(N) + 6 * G * ell * sp.sqrt(d * Lg) / (eps * N))
rate6 = d**_rational(1, 4) / sp.sqrt(eps * N) + 1 / sp.sqrt(N)

# Theorem 9.
sigma8 = 4 * sp.sqrt(Lg) / eps
T9 = N**_rational(7, 3) * eps**_rational(4, 3) / d**_rational(2, 3)
eta9 = 1 / sp.sqrt(N * T)
gamma9 = eta * N
alpha9 = N**_rational(3, 4) * eps / (T**_rational(3, 4) * sp.sqrt(d))
bound9 = ((_rational(3, 2) * R + 24 * K9 * (G + 2 * L) + 12 * L) * d**_rational(1, 3)
          / (eps * N)**_rational(2, 3)
          + 6 * G / sp.sqrt(N) + 36 * G * K9 * sp.sqrt(d) / (eps * N)
          + 9 * K9 * L * sp.sqrt(d) / (eps * N))
rate9 = d**_rational(1, 3) / (eps * N)**_rational(2, 3) + 1 / sp.sqrt(N)

# Lemma 7.
bound7 = (192 * G * alpha * ell * sp.sqrt(d * Lg) / eps
          + 128 * (G + 2 * L) * alpha * sp.sqrt(eta * d * T * Lg) * ell / eps
          + 16 * eta * L * alpha * ell * sp.sqrt(3 * d * T * N * Lg) / eps)
rate7 = (alpha * sp.sqrt(d) / eps + alpha * sp.sqrt(eta * d * T) / eps
         + alpha * eta * N * sp.sqrt(d * T) / (eps * sp.sqrt(N)))

# eq. (3) aggregation coefficients: the catalog's Sums and their geometric closed forms
# (A_q = c_q; x = (1-alpha)^N, y = 1-gamma; valid for x != y).
A_q_sum = sp.Sum((1 - alpha)**(N * ii) * (1 - gamma)**(q - (ii + 1)), (ii, 0, q - 1))
c_i_sum = sp.Sum((1 - gamma)**jj * (1 - alpha)**((i_win - 1 - jj) * N), (jj, 0, i_win - 1))
_x = (1 - alpha)**N
_y = 1 - gamma


def _c(k: sp.Expr) -> sp.Expr:
    return (_x**k - _y**k) / (_x - _y)


A_q = _c(q)
c_i = _c(i_win)


def _geom(r: sp.Expr, lo: sp.Expr, hi: sp.Expr) -> sp.Expr:
    """sum_{i=lo}^{hi} r^i in closed form (r != 1)."""
    return (r**lo - r**(hi + 1)) / (1 - r)


# sum_{i=1}^{q-1} c_i^2 in closed form
sum_c2 = (_geom(_x**2, 1, q - 1) - 2 * _geom(_x * _y, 1, q - 1) + _geom(_y**2, 1, q - 1)) \
    / (_x - _y)**2

# RDP -> DP at the optimal order (Mironov 2017, Prop. 3) for (z, rho z)-RDP.
def _eps_star(rho: sp.Expr) -> sp.Expr:
    return rho + 2 * sp.sqrt(rho * Lg)


rho4 = 1 / (2 * sigma**2)
rho8 = 3 / (2 * sigma**2)

LIPSCHITZ = BoundedGradient(G, note="tran2022's 'G-Lipschitz': ||grad f(w, x)|| <= G, w.p. 1")
SMOOTH = Smooth(L, note="f(., x) L-smooth with probability 1")
GAP = BoundedBelow(R, scope="empirical", note="sup_w F(w_1) - F(w) <= R")
STANDING = (LIPSCHITZ, SMOOTH, GAP)
HIDDEN = (S.Fgap, S.beta, S.G, S.delta, S.T)

_P = dict(notation=NOTATION, paper="tran2022")

ITEMS = Catalog(**_P)
_add = ITEMS.add


# =====================================================================================
# Abstract and definitions
# =====================================================================================
_new = d**_rational(1, 3) / (eps * N)**_rational(2, 3)
_old = d**_rational(1, 4) / sp.sqrt(eps * N)
_grads = N**_rational(7, 3) * eps**_rational(4, 3) / d**_rational(2, 3)
_add(
    id="tran2022.abstract", title="Headline claims", kind="remark-claim",
    source="Abstract; Contributions paragraph",
    statement=r"\|\nabla F\| \le \tilde O\big(\tfrac{d^{1/3}}{(\epsilon N)^{2/3}}\big)\ \text{in}\ "
              r"O\big(\tfrac{N^{7/3}\epsilon^{4/3}}{d^{2/3}}\big)\ \text{gradient evaluations, "
              r"improving}\ \tilde O\big(\tfrac{d^{1/4}}{\sqrt{\epsilon N}}\big)",
    category="utility", measured="E||grad F(w_hat)||; gradient evaluations",
    measured_unit=U.GRAD, rate=_new, rate_notation="Otilde", hidden=HIDDEN,
    expressions={"new": _new, "old": _old, "grads": _grads},
    relations={"improvement": sp.StrictLessThan(_new, _old),
               "grads equal Thm 9's T": sp.Eq(_grads, T9)},
    notes="'improvement' holds iff d^{1/12} < (eps N)^{1/6}, i.e. sqrt(d) < eps N — the "
          "same regime in which Theorem 9's sqrt(d)/(eps N) term is dominated.",
    refs=("tran2022.thm6", "tran2022.thm9"),
)

_add(
    id="tran2022.def1", title="(eps, delta)-differential privacy", kind="definition",
    source="Definition 1; Sec. 2 (neighbours)",
    statement=r"P[M(D)\in E]\le\exp(\epsilon)P[M(D')\in E]+\delta",
    category="definition", measured="privacy curve", measured_unit=U.ONE,
    relations={"dp": sp.Le(P_D, sp.exp(eps) * P_Dp + delta)},
    notes="Def. 1 says D, D' 'differing by at most one element'; Sec. 2 says neighbours "
          "'differ at exactly one entry' (||D - D'||_1 = 1), D, D' in X^N: substitution.",
)

_add(
    id="tran2022.assump", title="Standing assumptions", kind="assumption",
    source="Sec. 2, Assumptions",
    statement=r"\|\nabla f(y)\|\le G,\quad \|\nabla f(y_1)-\nabla f(y_2)\|\le L\|y_1-y_2\|,\quad "
              r"\sup_{w}F(w_1)-F(w)\le R",
    category="assumption", measured="G, L, R of the instance", assumptions=STANDING,
    relations={"G-Lipschitz": sp.Le(gnorm, G), "L-smooth": sp.Le(gradlip, L),
               "R": sp.Le(gap_w, R)},
    notes="'G-Lipschitz' is defined as a gradient-norm bound; f(w, x) differentiable, "
          "G-Lipschitz and L-smooth with probability 1.",
)

_add(
    id="tran2022.def2", title="L2 sensitivity", kind="definition", source="Definition 2",
    statement=r"\Delta(f)=\sup_{D,D'}\|f(D)-f(D')\|_2",
    category="definition", measured="sensitivity", measured_unit=U.GRAD,
    relations={"sup": sp.Ge(Delta_q, qdiff)},
    notes="Encoded as: Delta >= ||f(D) - f(D')|| for every neighbouring pair (a sup).",
)

_add(
    id="tran2022.def3", title="Renyi differential privacy", kind="definition",
    source="Definition 3 (+ standard facts used by the accounting, not printed)",
    statement=r"D_\alpha(f(D)\|f(D'))\le\epsilon,\ D_\alpha(P\|Q)=\tfrac1{\alpha-1}\log"
              r"\mathbb E_{x\sim Q}(P(x)/Q(x))^\alpha",
    category="definition", measured="RDP curve", measured_unit=U.ONE,
    expressions={"gaussian_rdp": z * Delta_q**2 / (2 * s_std**2),
                 "rdp_to_dp": z * Delta_q**2 / (2 * s_std**2) + Lg / (z - 1)},
    notes="Order printed as alpha in the definition, z in the theorems. Gaussian RDP "
          "z Delta^2/(2 s^2), additive composition and Mironov's Prop. 3 conversion are "
          "standard facts, not printed.",
)

# =====================================================================================
# Prior-work rates quoted in the introduction
# =====================================================================================
_add(
    id="tran2022.intro.convex", title="Convex DP-ERM optimal rate (quoted)",
    kind="prior-work-rate", source="Sec. 1, Introduction",
    statement=r"\tilde O\big(\tfrac{\sqrt d}{\epsilon N}\big)",
    category="utility", measured="excess empirical risk (convex, smooth)",
    measured_unit=U.LOSS, rate=sp.sqrt(d) / (eps * N), rate_notation="Otilde",
    notes="Output/objective/gradient perturbation, smooth convex loss, near-linear time "
          "(output perturbation needs strong convexity).",
)

_rrsgd = (d * sp.log(N / delta) * Lg)**_rational(1, 4) / sp.sqrt(eps * N)
_add(
    id="tran2022.intro.RRSGD", title="RRSGD of Zhang et al. 2017 (quoted)",
    kind="prior-work-rate", source="Sec. 1, Introduction",
    statement=r"O\Big(\tfrac{(d\log(n/\delta)\log(1/\delta))^{1/4}}{\sqrt{\epsilon N}}\Big)"
              r"\ \text{in}\ O(N^2 d)\ \text{gradient computations}",
    category="utility", measured="E||grad F||", measured_unit=U.GRAD,
    rate=_rrsgd, rate_notation="O", expressions={"cost": N**2 * d},
    notes="The quote writes both n and N for the dataset size (here both S.n).",
    refs=("zhang2017.thm5",),
)

_wang2018 = (d * Lg)**_rational(1, 4) / sp.sqrt(eps * N)
_add(
    id="tran2022.intro.wang2018", title="Full-batch DP-GD of Wang et al. 2018 (quoted)",
    kind="prior-work-rate", source="Sec. 1, Introduction",
    statement=r"\text{improves RRSGD by a factor }O((\log(n/\delta))^{1/4})",
    category="utility", measured="E||grad F||", measured_unit=U.GRAD,
    rate=_wang2018, rate_notation="O", provenance="literal",
    expressions={"factor": sp.log(N / delta)**_rational(1, 4)},
    relations={"implied": sp.Eq(_rrsgd / sp.log(N / delta)**_rational(1, 4), _wang2018)},
    notes="Only the improvement factor is printed; the rate is the RRSGD quote divided "
          "by (log(n/delta))^{1/4}.",
    refs=("tran2022.intro.RRSGD",),
)

_add(
    id="tran2022.intro.DPSRM", title="DP-SRM of L. Wang et al. 2019b (quoted)",
    kind="prior-work-rate", source="Sec. 1, Introduction",
    statement=r"O\Big(\tfrac{(d\log(1/\delta))^{1/4}}{\sqrt{\epsilon N}}\Big)\ \text{in}\ "
              r"O\Big(\tfrac{(\epsilon N)^{3/2}}{d^{3/4}}+\tfrac{\epsilon N}{\sqrt d}\Big),\ "
              r"\text{batch } O\big(\tfrac{\sqrt{\epsilon N}}{d^{1/4}}\big)",
    category="utility", measured="E||grad F||", measured_unit=U.GRAD,
    rate=(d * Lg)**_rational(1, 4) / sp.sqrt(eps * N), rate_notation="O",
    expressions={"cost": (eps * N)**_rational(3, 2) / d**_rational(3, 4) + eps * N / sp.sqrt(d),
                 "batch": sp.sqrt(eps * N) / d**_rational(1, 4)},
    notes="Same quoted rate as intro.wang2018.", refs=("tran2022.sec4.claims",),
)

_add(
    id="tran2022.intro.noise", title="Noise level of DP-NSGD via tree aggregation",
    kind="remark-claim", source="Sec. 1, Contributions",
    statement=r"\text{noise } \tilde O\big(\tfrac{\sqrt T}{\epsilon\sqrt N}\big)",
    category="noise", measured="std of NOISE in Algorithm 1", measured_unit=U.GRAD,
    rate=sp.sqrt(T) / (eps * sp.sqrt(N)), rate_notation="Otilde",
    settings={sigma: sigma4},
    expressions={
        # per-coordinate std of one node at the Thm 4 sigma
        "node_std": sp.sqrt(node_var_alg1),
        # std of the sum over COMPOSE(1, t), all weights <= 1, |COMPOSE(1,t)| <= log2 T + 1
        "noise_std_upper": sp.sqrt(node_var_alg1 * (ell + 1)),
        # Sec. 4's own restatement carries the momentum weight alpha
        "sec4_restatement": alpha * sp.sqrt(T) / (eps * sp.sqrt(N)),
    },
    notes="Sec. 4 restates this noise as O~(alpha sqrt(T)/(eps sqrt(N))): the intro form "
          "drops alpha (the node variance is 16 alpha^2 G^2 sigma^2 V). With V ~ (log2 N + 2) "
          "T/N and sigma = 2 sqrt(log(1/delta))/eps the per-coordinate std is "
          "O~(alpha G sqrt(T/N)/eps).",
    refs=("tran2022.alg1", "tran2022.thm4"),
)

# =====================================================================================
# Tree aggregation (Sec. 2, Sec. 3)
# =====================================================================================
_add(
    id="tran2022.tree", title="Tree-aggregation facts", kind="remark-claim",
    source="Sec. 2, Tree-aggregation",
    statement=r"\text{each } g_i \text{ affects } \le\lceil\log t\rceil+1 \text{ nodes; node std }"
              r"O(\log t/\epsilon);\ \le\log t \text{ nodes per partial sum; error }"
              r"O(\log^{1.5}t/\epsilon);\ \text{per-leaf noise: } O(\sqrt T/\epsilon)",
    category="noise", measured="node counts, noise std", measured_unit=U.ONE,
    expressions={
        "ancestors": sp.ceiling(sp.log(t, 2)) + 1,
        "nodes_per_partial_sum": sp.log(t, 2),
        "node_std": sp.log(t, 2) / eps,
        "partial_sum_std": sp.log(t, 2)**_rational(3, 2) / eps,
        "per_leaf_error": sp.sqrt(T) / eps,
        # standard correct counts, for comparison (not printed)
        "prefix_nodes_max": sp.floor(sp.log(t, 2)) + 1,
        "interval_nodes_max": 2 * sp.floor(sp.log(t, 2)),
    },
    notes="'at most log t nodes to compute any partial sum' is short: the prefix [1, 7] "
          "needs 3 > log2 7 nodes, and a general [y, z] needs up to ~2 log2 t "
          "([2, 7] in the 8-leaf tree needs 4 > log2 8). O(.) and log base left as printed.",
)

_add(
    id="tran2022.sgd_unroll", title="SGD as a prefix sum", kind="remark-claim",
    source="Sec. 2", category="identity",
    statement=r"w_{t+1}=w_t-\eta\nabla f(w_t,x_t)=-\eta\sum_{i=1}^t\nabla f(w_i,x_i)\quad(w_1=0)",
    notes="Identity; checked numerically in the tests (no scalar encoding).",
)

_add(
    id="tran2022.alg3", title="COMPOSE(a, b)", kind="algorithm",
    source="Sec. 3 (Algorithm 3 is in the missing appendix)", category="algorithm",
    provenance="reconstructed",
    statement=r"\mathrm{COMPOSE}(a,b)\subset I,\ \text{disjoint},\ \bigcup=[a,b],\ "
              r"|\mathrm{COMPOSE}(a,b)|=O(\log T)",
    measured="list of nodes and its length", measured_unit=U.ONE,
    expressions={"count_rate": sp.log(T, 2),
                 "greedy_count_upper": 2 * sp.floor(sp.log(b_int - a_int + 1, 2)) + 2},
    notes="[reconstructed: not in the paper text we have] Greedy maximal dyadic "
          "decomposition: from s = a take the largest 2^k with (s-1) mod 2^k = 0 and "
          "s + 2^k - 1 <= b (and k <= Rtree - 1 if the depth is capped). The numeric "
          "implementation lives in dptheory.privacy.tree. For a prefix [1, t] the count is "
          "the number of ones in the binary expansion of t.",
)

_add(
    id="tran2022.momentum_tree", title="Momentum as a tree sum", kind="remark-claim",
    source="Sec. 3", category="identity",
    statement=r"m_t=\alpha\sum_{i=1}^t(1-\alpha)^{t-i}\nabla f(w_i,\cdot)=\sum_{[y,z]\in"
              r"\mathrm{COMPOSE}(1,t)}(1-\alpha)^{t-z}\mathbf f_{[y,z]},\ \mathbf f_{[y,z]}="
              r"\alpha\sum_{t'=y}^z(1-\alpha)^{z-t'}\nabla f(w_{t'},\cdot)",
    relations={
        # the weight of gradient i is the same in both forms, for any node [y,z] containing i
        "weight": sp.Eq(sp.powsimp((1 - alpha)**(t - zI) * (1 - alpha)**(zI - i_win)),
                        (1 - alpha)**(t - i_win)),
        # constant gradients: m_t = (1 - (1-alpha)^t) g
        "geometric": sp.Eq(sp.simplify(alpha * sp.Sum((1 - alpha)**(t - ii), (ii, 1, t)).doit()),
                           1 - (1 - alpha)**t),
    },
    notes="Full identity (vector-valued) checked symbolically for t <= 16 in the tests.",
)

_add(
    id="tran2022.alg1", title="DP-NSGD with tree-aggregated momentum (Algorithm 1)",
    kind="algorithm", source="Algorithm 1", category="algorithm",
    statement=r"\zeta_{[a2^b+1,(a+1)2^b]}\sim N(0,16\alpha^2G^2\sigma^2VI),\ "
              r"V=(\min(R,\lfloor\log_2N\rfloor)+1)\tfrac TN+\sum_{j=\lfloor\log_2(N)+1\rfloor}^R"
              r"\lfloor T/2^j\rfloor,\ w_{t+1}=w_t-\eta\hat m_t/\|\hat m_t\|",
    measured="iterates; E||grad F(w_hat)||", measured_unit=U.GRAD,
    assumptions=STANDING,
    settings={sigma: sigma4, T: T6, eta: eta6, alpha: alpha6},
    expressions={"V": V_alg1, "V_thm4_proof": V_thm4, "node_var": node_var_alg1,
                 "n_levels_sampled": Rtree},
    notes="Random reshuffling, batch 1, fresh permutation per epoch; one Gaussian per "
          "node drawn up front and reused. Node levels b = 0..R-1 are sampled, while V "
          "counts levels 0..R (one extra level, conservative). Injected noise at step t: "
          "sum_{[y,z] in COMPOSE(1,t)} (1-alpha)^{t-z} zeta_[y,z].",
    refs=("tran2022.thm4", "tran2022.thm6"),
)

# =====================================================================================
# Proposition 13, Theorem 4
# =====================================================================================
_add(
    id="tran2022.prop13", title="Sensitivity of a tree node (Proposition 13)",
    kind="proposition", provenance="reconstructed", printed_statement=True,
    source="Proof sketch of Theorem 4 (Proposition 13 in the appendix)",
    category="sensitivity",
    statement=r"\Delta=2\alpha G\sum_{j=0}^{\lceil|y-z|/N\rceil-1}(1-\alpha)^{jN}\le4\alpha G"
              r"\quad(\alpha\ge1/N)",
    measured="L2 sensitivity of f_[y,z] (worst case over permutations)",
    measured_unit=U.GRAD, assumptions=(LIPSCHITZ,),
    hypotheses=(("alpha >= 1/N (Prop 13)", sp.Ge(alpha, 1 / N)),),
    bound=4 * alpha * G,
    sensitivities={
        "node": Sensitivity(Delta_node, "replace-one",
                            "||f_[y,z](D) - f_[y,z](D')|| of the tree node [y, z]",
                            source="Proposition 13 (per node, as printed)"),
        "node_bound": Sensitivity(4 * alpha * G, "replace-one",
                                  "max over nodes ||f_[y,z](D) - f_[y,z](D')||",
                                  source="Proposition 13")},
    expressions={"Delta_node": Delta_node,
                 "occurrences": sp.ceiling(sp.Abs(yI - zI) / N)},
    relations={"claim": sp.Le(Delta_node, 4 * alpha * G)},
    notes="The statement is printed (proof sketch of Thm 4); its proof is [reconstructed: "
          "not in the paper text we have]: each occurrence changes by <= 2 alpha G (1-alpha)^{z-p}; occurrences "
          "spaced N apart; (1-alpha)^N <= 1/e for alpha >= 1/N. See prop13.corrected: a "
          "dyadic node straddling an epoch boundary can hold ceil(|y-z|/N) + 1 occurrences.",
    refs=("tran2022.prop13.corrected", "tran2022.thm4"),
)

_Dsup = 2 * alpha * G * (1 + (1 - alpha) / (1 - (1 - alpha)**N))
_add(
    id="tran2022.prop13.corrected", title="Sensitivity of a tree node, epoch-straddling nodes",
    kind="proposition", source="derived (dptheory) from Algorithm 1's sampling",
    category="sensitivity", provenance="corrected",
    statement=r"\Delta\le2\alpha G\Big(1+\tfrac{1-\alpha}{1-(1-\alpha)^N}\Big)\le"
              r"\tfrac{2(2e-1)}{e-1}\alpha G\approx5.16\,\alpha G\quad(\alpha\ge1/N)",
    measured="L2 sensitivity of f_[y,z] (worst case over permutations)",
    measured_unit=U.GRAD, assumptions=(LIPSCHITZ,),
    hypotheses=(("alpha >= 1/N", sp.Ge(alpha, 1 / N)),),
    bound=2 * (2 * sp.E - 1) / (sp.E - 1) * alpha * G,
    expressions={
        "Delta_sup_long_node": _Dsup,
        # N = 5, alpha = 1/5, node [1,16]: datum at 16 (start of epoch 4), 15, 10, 5
        "counterexample_N5_node_1_16": 2 * sp.Rational(1, 5) * G * sum(
            sp.Rational(4, 5)**k for k in (0, 1, 6, 11)),
        "printed_N5_node_1_16": 2 * sp.Rational(1, 5) * G * sum(
            sp.Rational(4, 5)**(5 * k) for k in range(3)),
    },
    relations={"exceeds_printed_N5": sp.Gt(
        sum(sp.Rational(4, 5)**k for k in (0, 1, 6, 11)), 2)},
    notes="Each epoch is a fresh permutation, so the differing datum occurs once per epoch "
          "at an arbitrary offset. When N is not a power of 2, a dyadic node [y, z] can end "
          "at the first position of an epoch (z = eN + 1) and then holds the datum at z and "
          "at z - 1 (last position of the previous epoch), then at z - 1 - N, z - 1 - 2N, ...: "
          "the count is ceil(|y-z|/N) + 1 (e.g. N = 3, node [3, 4]: 2 occurrences, printed "
          "1) and the weight sum is 1 + (1-alpha) sum_k (1-alpha)^{kN} = 1 + (1-alpha)/(1-"
          "(1-alpha)^N). For alpha >= 1/N this is <= 1 + e/(e-1). Counterexample to the "
          "printed <= 4 alpha G: N = 5, alpha = 1/5, node [1, 16] in I: Delta = 2 alpha G "
          "(1 + .8 + .8^6 + .8^11) = 4.296 alpha G > 4 alpha G (printed formula: 2.870 "
          "alpha G). For N a power of 2 nodes never straddle and the printed count holds.",
    refs=("tran2022.prop13",),
)

_eps4 = _eps_star(rho4)
_add(
    id="tran2022.thm4", title="Privacy of Algorithm 1", kind="theorem",
    source="Theorem 4", category="privacy",
    statement=r"\text{Algorithm 1 is }(z,\tfrac z{2\sigma^2})\text{-RDP for all }z;\ \text{if }"
              r"\delta\ge\exp(-\epsilon),\ \sigma\ge\tfrac{2\sqrt{\log(1/\delta)}}\epsilon"
              r"\Rightarrow(\epsilon,\delta)\text{-DP}",
    measured="achieved eps at delta; RDP curve", measured_unit=U.ONE,
    assumptions=(LIPSCHITZ,),
    hypotheses=(("delta >= exp(-eps) (printed)", sp.Ge(delta, sp.exp(-eps))),),
    settings={sigma: sigma4},
    sensitivities={"node": Sensitivity(4 * alpha * G, "replace-one",
                                       "max over nodes ||f_[y,z](D) - f_[y,z](D')||",
                                       source="Theorem 4 (via Proposition 13)")},
    expressions={"eps_R": z / (2 * sigma**2),
                 "eps_dp_at_z": z / (2 * sigma**2) + Lg / (z - 1),
                 "eps_achieved": _eps4,
                 "z_star": 1 + sp.sqrt(Lg / rho4)},
    relations={"rdp": sp.Eq(z / (2 * sigma**2), z * rho4),
               "dp": sp.Le(_eps4, eps),
               "noise": sp.Ge(sigma, sigma4)},
    notes="At sigma = 2 sqrt(log(1/delta))/eps the optimal Mironov conversion gives "
          "eps_achieved = eps^2/(8 log(1/delta)) + eps/sqrt(2), which is <= eps iff "
          "log(1/delta) >= (2+sqrt(2)) eps/8 ~ 0.427 eps. The printed condition "
          "delta >= exp(-eps) (log(1/delta) <= eps) points the other way: e.g. eps = 10, "
          "delta = 0.5 satisfies it but gives eps_achieved = 25.1, and the exact Gaussian "
          "curve (mu = 1/sigma = 6.0) gives delta(10) = 0.876 > 0.5. See thm4.corrected.",
    refs=("tran2022.thm4.rdp", "tran2022.thm4.corrected", "tran2022.prop13"),
)

_add(
    id="tran2022.thm4.corrected", title="Privacy of Algorithm 1, corrected delta condition",
    kind="theorem", source="derived (dptheory) from Theorem 4's RDP claim",
    category="privacy", provenance="corrected",
    statement=r"(z,\tfrac z{2\sigma^2})\text{-RDP},\ \log(1/\delta)\ge\tfrac{(2+\sqrt2)\epsilon}8,"
              r"\ \sigma\ge\tfrac{2\sqrt{\log(1/\delta)}}\epsilon\Rightarrow(\epsilon,\delta)\text{-DP}",
    measured="achieved eps at delta", measured_unit=U.ONE, assumptions=(LIPSCHITZ,),
    hypotheses=(("log(1/delta) >= (2+sqrt2) eps/8",
                 sp.Ge(Lg, (2 + sp.sqrt(2)) * eps / 8)),),
    settings={sigma: sigma4},
    expressions={"eps_achieved": _eps4,
                 "eps_achieved_at_setting": eps**2 / (8 * Lg) + eps / sp.sqrt(2)},
    relations={"dp": sp.Le(_eps4, eps)},
    notes="rho = 1/(2 sigma^2) = eps^2/(8 log(1/delta)); eps* = rho + 2 sqrt(rho log(1/delta)) "
          "= eps^2/(8 log(1/delta)) + eps/sqrt(2) <= eps <=> log(1/delta) >= eps/(8(1 - "
          "1/sqrt(2))) = (2+sqrt(2)) eps/8. Keeps the RDP claim as printed (its accounting "
          "inherits prop13.corrected's caveat).",
    refs=("tran2022.thm4",),
)

_rho_gen = Vs * DeltaNode**2 / (2 * 16 * alpha**2 * G**2 * sigma**2 * V_alg1)
_add(
    id="tran2022.thm4.rdp", title="RDP accounting for Algorithm 1", kind="proposition",
    source="reconstruction of the Theorem 4 proof", category="privacy",
    provenance="reconstructed",
    statement=r"\epsilon_R(z)=V_s\frac{z\Delta_{\rm node}^2}{2\cdot16\alpha^2G^2\sigma^2V}"
              r"\le\frac z{2\sigma^2};\ \epsilon=\rho+2\sqrt{\rho\log(1/\delta)},\ \rho=\tfrac1{2\sigma^2}",
    measured="eps_R(z); eps at delta", measured_unit=U.ONE, assumptions=(LIPSCHITZ,),
    hypotheses=(("V_s <= V", sp.Le(Vs, V_alg1)),
                ("Delta_node <= 4 alpha G", sp.Le(DeltaNode, 4 * alpha * G))),
    expressions={"eps_R_general": z * _rho_gen, "rho_R": rho4, "eps_star": _eps4,
                 "z_star": 1 + sp.sqrt(Lg / rho4)},
    relations={"reduces": sp.Eq(sp.simplify((z * _rho_gen).subs(
        {Vs: V_alg1, DeltaNode: 4 * alpha * G})), z / (2 * sigma**2))},
    notes="[reconstructed: not in the paper text we have] Gaussian RDP per node, adaptive "
          "composition over the V_s nodes holding the differing datum, Mironov Prop. 3. "
          "Caveat: brute force at N = 3, T = 4, Rtree = 2 finds a datum in 4 sampled nodes "
          "while V = 11/3 (per-level count is the number of epochs touched, ceil(T/N), not "
          "T/N); the total eps_R may still hold because single-occurrence nodes have "
          "Delta = 2 alpha G < 4 alpha G.",
    refs=("tran2022.thm4", "tran2022.prop13"),
)

# =====================================================================================
# Lemma 5, Theorem 6
# =====================================================================================
_add(
    id="tran2022.lemma5", title="Normalized-SGD descent lemma", kind="lemma",
    source="Lemma 5 ('Essentially Lemma 2 of Cutkosky and Mehta 2020')", category="utility",
    statement=r"\mathbb E\|\nabla F(\hat w)\|\le\frac{3\mathbb E[F(w_1)-F(w_{T+1})]}{2\eta T}"
              r"+\frac{3L\eta}4+\frac3T\sum_{t=1}^T\mathbb E\|\hat\epsilon_t\|",
    measured="E||grad F(w_hat)|| (trajectory average)", measured_unit=U.GRAD,
    assumptions=(SMOOTH,),
    bound=3 * R / (2 * eta * T) + 3 * L * eta / 4 + 3 * errbar,
    notes="E[F(w_1) - F(w_{T+1})] is bounded by R (S.Fgap). Holds for an arbitrary "
          "sequence m_hat_t; pathwise.",
)

_R_term6 = _rational(3, 2) * R * d**_rational(1, 4) / sp.sqrt(eps * N)
_R_term6_derived = 3 * R / (2 * eta * T)
_add(
    id="tran2022.thm6", title="Utility of Algorithm 1", kind="theorem", source="Theorem 6",
    category="utility", garbled=True,
    statement=r"\mathbb E\|\nabla F(\hat w)\|\le\frac{(\frac32R+6L\sqrt{\log_2T\log(1/\delta)}+"
              r"12G\sqrt{\log_2T\log(1/\delta)}^{1/4})d^{1/4}}{\sqrt{\epsilon N}}+\frac{3L(d\log"
              r"(1/\delta))^{1/4}\sqrt{\log_2T}}{4\sqrt{\epsilon N^{3/2}}}+\frac{6G}{\sqrt N}+"
              r"\frac{6G\log_2T\sqrt{d\log(1/\delta)}}{\epsilon N}\le\tilde O\Big(\frac{d^{1/4}}"
              r"{\sqrt{\epsilon N}}+\frac1{\sqrt N}\Big)",
    measured="E||grad F(w_hat)||", measured_unit=U.GRAD, assumptions=STANDING,
    hypotheses=(("eps-condition", sp.Le(eps, T * ell * sp.sqrt(d * Lg) / N)),),
    settings={T: T6, eta: eta6, alpha: alpha6},
    bound=bound6, rate=rate6, rate_notation="Otilde", hidden=HIDDEN,
    expressions={
        "intermediate_error": sp.sqrt(alpha) + eta * N + eta / alpha
        + alpha * sp.sqrt(d * T) / (eps * sp.sqrt(N)),
        "lemma5_R_term": _R_term6_derived,
        "lemma5_L_term": 3 * L * eta / 4,
        "printed_R_term": _R_term6,
        "alpha_times_N": alpha * N,        # = 1 at the settings (boundary of Prop 13)
    },
    relations={"alpha >= 1/N (Prop 13)": sp.Ge(alpha, 1 / N),
               "alpha <= 1": sp.Le(alpha, 1),
               "R term vs Lemma 5": sp.Ge(_R_term6, _R_term6_derived)},
    notes="Printed \\sqrt{X}^{1/4} read literally as (sqrt X)^{1/4} = X^{1/8} (garbled; X^{1/4} "
          "likely meant). At the settings alpha = 1/N exactly (alpha T log2T sqrt(d log) = "
          "eps N, T log2T sqrt(d log) = eps N^2) and the eps-condition is alpha <= 1, i.e. "
          "N >= 1: vacuous. Findings: (i) Lemma 5's first term at eta = 1/sqrt(NT) is "
          "(3/2) R sqrt(N/T) = (3/2) R sqrt(log2 T) log(1/delta)^{1/4} d^{1/4}/sqrt(eps N), "
          "larger than the printed (3/2) R d^{1/4}/sqrt(eps N) by sqrt(log2 T) "
          "log(1/delta)^{1/4} (relation 'R term vs Lemma 5' is false at generic points); "
          "(ii) Lemma 5's 3 L eta/4 = 3L (log2T)^{1/2} (d log(1/delta))^{1/4}/(4 sqrt(eps) "
          "N^{3/2}), the printed second term has sqrt(eps N^{3/2}) = sqrt(eps) N^{3/4} (looser, "
          "still an upper bound); (iii) dimensions: eta = 1/sqrt(NT) gives a dimensionless "
          "value to a step of dimension [w], and the first term adds R [F], L [F]/[w]^2 and "
          "G [F]/[w] (units with [w] = 1 implied). The O~ rate needs sqrt(d) <= eps N "
          "(else 6 G log2T sqrt(d log)/(eps N) dominates).",
    refs=("tran2022.lemma5", "tran2022.thm4", "tran2022.prop13", "tran2022.thm6.corrected"),
)

_add(
    id="tran2022.thm6.corrected", title="Utility of Algorithm 1, R term from Lemma 5",
    kind="theorem", source="derived (dptheory) from Lemma 5 at Theorem 6's settings",
    category="utility", provenance="corrected", garbled=True,
    statement=r"\text{Theorem 6 with the R term }\tfrac32R\sqrt{\log_2T}(\log(1/\delta))^{1/4}"
              r"\tfrac{d^{1/4}}{\sqrt{\epsilon N}}",
    measured="E||grad F(w_hat)||", measured_unit=U.GRAD, assumptions=STANDING,
    hypotheses=(("eps-condition", sp.Le(eps, T * ell * sp.sqrt(d * Lg) / N)),),
    settings={T: T6, eta: eta6, alpha: alpha6},
    bound=bound6 - _R_term6 + _R_term6 * sp.sqrt(ell) * Lg**_rational(1, 4),
    rate=rate6, rate_notation="Otilde", hidden=HIDDEN,
    expressions={"R_term_at_settings": _R_term6_derived.subs(eta, eta6),
                 # = 1 at the (implicit) setting of T
                 "R_term_ratio": _R_term6_derived.subs(eta, eta6)
                 / (_R_term6 * sp.sqrt(ell) * Lg**_rational(1, 4))},
    notes="3 R/(2 eta T) at eta = 1/sqrt(NT) is (3/2) R sqrt(N/T); with T log2T = eps N^2/"
          "sqrt(d log(1/delta)), N/T = log2T sqrt(d log(1/delta))/(eps N). Only the R term "
          "is changed; the other terms need the appendix (bias and noise analysis). Same "
          "O~ rate.",
    refs=("tran2022.thm6",),
)

# =====================================================================================
# Section 4
# =====================================================================================
_noise_sec4 = (alpha / eps + alpha * sp.sqrt(eta * T) / eps
               + alpha * eta * N * sp.sqrt(T) / (eps * sp.sqrt(N)))
_noise_sec3 = alpha * sp.sqrt(T) / (eps * sp.sqrt(N))
_add(
    id="tran2022.sec4.claims", title="Motivation claims of Sec. 4", kind="remark-claim",
    source="Sec. 4", category="noise",
    statement=r"\text{(3) sensitivity of }\nabla F(w_t)-\nabla F(w_{t-1})=O(\eta/N);\ (5)\ "
              r"\|w_t-w_{t'}\|\le\eta N;\ (7)\ \gamma=\eta N:\ \tilde O\big(\tfrac\alpha\epsilon+"
              r"\tfrac{\alpha\sqrt{\eta T}}\epsilon+\tfrac{\alpha\eta N\sqrt T}{\epsilon\sqrt N}\big)"
              r"\ \text{vs}\ \tilde O\big(\tfrac{\alpha\sqrt T}{\epsilon\sqrt N}\big)",
    measured="noise std of m_hat_t", measured_unit=U.GRAD,
    settings={gamma: gamma9},
    expressions={
        "c1_DPSRM_factor_claimed": sp.log(N / delta),
        "c1_ratio_of_quotes": _rrsgd / ((d * Lg)**_rational(1, 4) / sp.sqrt(eps * N)),
        "c2_sgd_rate": N**_rational(-1, 4), "c2_vr_rate": N**_rational(-1, 3),
        "c3_fullbatch_sensitivity": eta / N,
        "c3_fullbatch_sensitivity_derived": 2 * L * eta / N,
        "c3_error": eta / (N * eps),
        "c5_iterate_distance": eta * N,
        "c6_noise_first_two_epochs": 1 / eps,
        "c6_noise_other_epochs": gamma * sp.sqrt(T) / (sp.sqrt(N) * eps),
        "c7_noise_sec4": _noise_sec4, "c7_noise_sec3": _noise_sec3,
    },
    relations={"c7 smaller": sp.Le(_noise_sec4, _noise_sec3)},
    notes="(1) says DP-SRM improves by log(n/delta), but the paper's own quotes differ by "
          "(log(n/delta))^{1/4} (RRSGD vs DP-SRM), and DP-SRM's quote equals Wang 2018's. "
          "(3) the sensitivity is 2 L eta/N (O hides L; eta/N alone has dimension [w]). "
          "(7) at Theorem 9's settings (alpha = 1/N, eta = gamma/N, T = N/gamma^2): "
          "sec4 = (2 + gamma^{-1/2})/(eps N), sec3 = 1/(gamma eps N): smaller iff gamma is "
          "small. gamma = eta N is dimensionally [w] for a dimensionless gamma.",
    refs=("tran2022.intro.DPSRM", "tran2022.intro.RRSGD", "tran2022.thm9"),
)

_add(
    id="tran2022.alg2", title="Sensitivity-reduced normalized SGD (Algorithm 2)",
    kind="algorithm", source="Algorithm 2", category="algorithm",
    statement=r"V_{\le2N}=3\log_2N,\ V_{>2N}=4\tfrac TN\log_2N,\ \delta_G=4G,\ "
              r"\delta_\Delta=\delta_r=2\eta N;\ \zeta^X\sim N(0,\delta_X^2\sigma^2V_XI)",
    measured="iterates; E||grad F(w_hat)||", measured_unit=U.GRAD, assumptions=STANDING,
    settings={T: T9, eta: eta9, gamma: gamma9, alpha: alpha9, sigma: sigma8},
    expressions={"V_le2N": V_le2N, "V_gt2N": V_gt2N, "delta_G": delta_G,
                 "delta_r": delta_r, "delta_Delta": delta_D,
                 "var_G_le2N": delta_G**2 * sigma**2 * V_le2N,
                 "var_G_gt2N": delta_G**2 * sigma**2 * V_gt2N,
                 "var_r": delta_r**2 * sigma**2 * V_gt2N,
                 "var_Delta": delta_D**2 * sigma**2 * V_gt2N},
    notes="Printed index garbles: 't <- qN + r_t' with r from 0 (t = 0 at q = 0, log2(0)); "
          "node sums use w_{qN} and pi^q of the node END's epoch for every term, unlike "
          "G_[a,b] of eq. (1) (per-term q_i); the update is written w_t = w_{t-1} - ... "
          "(Algorithm 1: w_{t+1} = w_t - ...). delta_r = delta_Delta = 2 eta N has dimension "
          "[w] where a gradient-difference sensitivity has [F]/[w] (missing L; see "
          "alg2.corrected). Fresh permutation each epoch (this breaks eq. (3), see "
          "eq3.corrected).",
    refs=("tran2022.alg4", "tran2022.thm8", "tran2022.thm9", "tran2022.alg2.corrected"),
)

_delta_r_c = 2 * L * eta * N
_add(
    id="tran2022.alg2.corrected", title="Algorithm 2 with dimensionally consistent delta_r",
    kind="algorithm", source="derived (dptheory): smoothness bound on r- and Delta-nodes",
    category="algorithm", provenance="corrected",
    statement=r"\delta_\Delta=\delta_r=2L\eta N",
    measured="iterates", measured_unit=U.GRAD, assumptions=STANDING,
    settings={T: T9, eta: eta9, gamma: gamma9, alpha: alpha9, sigma: sigma8},
    expressions={"delta_r": _delta_r_c, "delta_Delta": _delta_r_c,
                 "var_r": _delta_r_c**2 * sigma**2 * V_gt2N,
                 "var_Delta": _delta_r_c**2 * sigma**2 * V_gt2N,
                 "per_occurrence_change": 2 * L * eta * N,
                 "node_sensitivity_weight_sum_2": 4 * L * eta * N},
    notes="Each r-term is grad f(w_i,x) - grad f(w_{qN},x) with ||w_i - w_{qN}|| <= eta N, so "
          "by L-smoothness a substituted datum changes it by <= 2 L eta N (same for Delta-"
          "terms with ||w_{qN} - w_{(q-1)N}|| <= eta N). delta_r = 2 L eta N reproduces Lemma "
          "7's third term 16 eta L alpha ... sqrt(3 dTN log(1/delta))/eps, which carries L. "
          "By analogy with delta_G = 4G = 2G x (weight sum <= 2), the node sensitivity is "
          "4 L eta N, so the constant 2 may also be short (constants of the appendix unknown).",
    refs=("tran2022.alg2", "tran2022.lemma7"),
)

_add(
    id="tran2022.eq2", title="Momentum split (eqs. (1)-(2))", kind="remark-claim",
    source="Sec. 4, eqs. (1)-(2)", category="identity",
    statement=r"m_t=\alpha G_{[1,t]}+\alpha r_{[1,t]}",
    notes="Add-and-subtract identity; checked numerically in the tests.",
)

_add(
    id="tran2022.eq3", title="Recombination identity (eq. (3), Lemma 17)", kind="lemma",
    provenance="reconstructed", printed_statement=True,
    source="Sec. 4, eq. (3); Lemma 17 (appendix)", category="identity",
    statement=r"G_{[1,t]}=(1-\alpha)^{t-r}G_{[1,r]}+\sum_{i=0}^{q-1}(1-\alpha)^{Ni}(1-\gamma)^"
              r"{q-(i+1)}G_{[r+1,r+N]}+\sum_{i=1}^{q-1}\Big(\sum_{j=0}^{i-1}(1-\gamma)^j(1-\alpha)^"
              r"{(i-1-j)N}\Big)\big((1-\gamma)\Delta_{W_i}+\gamma G_{W_i}\big)",
    measured="|LHS - RHS| of (3)", measured_unit=U.GRAD,
    hypotheses=(("t = qN + r", sp.Ge(q, 1)),),
    expressions={"A_q": A_q, "c_i": c_i, "A_q_sum": A_q_sum, "c_i_sum": c_i_sum,
                 "A_q_bound": 1 / (1 - (1 - alpha)**N),
                 "c_i_bound": sp.Min(1 / gamma, i_win)},
    relations={"A_q <= 1/(1-(1-alpha)^N)": sp.Le(A_q, 1 / (1 - (1 - alpha)**N)),
               "c_i <= min(1/gamma, i)": sp.Le(c_i, sp.Min(1 / gamma, i_win))},
    notes="Statement printed; proof [reconstructed: not in the paper text we have]. The "
          "right side minus the left side is sum_k (1-gamma)-weighted multiples of "
          "G_{W_{k+1}} + Delta_{W_k} - G_{W_k} (for q = 2 exactly (1-gamma)(G_{W_2} + "
          "Delta_{W_1} - G_{W_1})), so (3) holds iff G_{W_k} = G_{W_{k+1}} + Delta_{W_k}. "
          "That needs x_{pi^{q}_r} = x_{pi^{q-1}_r}: false under Algorithm 2's fresh "
          "permutation per epoch (Delta uses the current epoch's sample at both iterates). "
          "See eq3.corrected.",
    refs=("tran2022.eq2", "tran2022.alg4", "tran2022.eq3.corrected"),
)

_add(
    id="tran2022.eq3.corrected", title="Recombination identity under a single shuffle",
    kind="lemma", source="derived (dptheory)", category="identity", provenance="corrected",
    statement=r"\text{(3) holds for all }\gamma\text{ iff }G_{W_k}=G_{W_{k+1}}+\Delta_{W_k},"
              r"\ \text{e.g. when }\pi^q=\pi^0\text{ for all }q\text{ (shuffle once)}",
    measured="|LHS - RHS| of (3)", measured_unit=U.GRAD,
    hypotheses=(("t = qN + r", sp.Ge(q, 1)),),
    expressions={"A_q": A_q, "c_i": c_i},
    notes="q = 0, 1: (3) is the exact split and holds for any sampling. q >= 2: holds for "
          "every gamma iff the same permutation is used in every epoch (or gamma = 1). "
          "Verified in the tests: nonzero residual with fresh per-epoch permutations, zero "
          "with one permutation reused.",
    refs=("tran2022.eq3",),
)

_lookups = (2 * t / N + 3) * 2 * ell
_add(
    id="tran2022.alg4", title="Reconstruction of m_hat_t (Algorithm 4)", kind="algorithm",
    source="Sec. 4 (Algorithm 4 is in the missing appendix)", category="algorithm",
    provenance="reconstructed",
    statement=r"\hat m_t=\alpha(\hat G+\hat r),\ \hat G\text{ by (3) from tree estimates "
              r"of }G,\Delta\text{ on }[1,r],W_q,\dots,W_1",
    measured="m_hat_t; node look-ups per step", measured_unit=U.ONE,
    expressions={"lookups_per_step_upper": _lookups},
    notes="[reconstructed: not in the paper text we have] E^X_[a,b] = sum over COMPOSE(a,b) "
          "of (1-alpha)^{b-z} F^X_[y,z]; RECONSTRUCT(t) evaluates (3) with the backward "
          "recursion G~_{W_k} = (1-gamma)(G~_{W_{k+1}} + E^Delta_{W_k}) + gamma E^G_{W_k}. "
          "Uses q + 2 G-intervals, q - 1 Delta-intervals and one r-interval, each <= 2 log2 T "
          "nodes.",
    refs=("tran2022.alg2", "tran2022.eq3"),
)

_add(
    id="tran2022.lemma7", title="Noise of the sensitivity-reduced momentum", kind="lemma",
    source="Lemma 7", category="noise",
    statement=r"\mathbb E\|\hat m_t-m_t\|\le\frac{192G\alpha\log_2T\sqrt{d\log(1/\delta)}}\epsilon"
              r"+\frac{128(G+2L)\alpha\sqrt{\eta dT\log(1/\delta)}\log_2T}\epsilon+\frac{16\eta L"
              r"\alpha\log_2T\sqrt{3dTN\log(1/\delta)}}\epsilon",
    measured="E||m_hat_t - m_t||", measured_unit=U.GRAD, assumptions=STANDING,
    hypotheses=(("alpha >= 1/N", sp.Ge(alpha, 1 / N)),
                ("gamma <= 1/2", sp.Le(gamma, sp.Rational(1, 2)))),
    settings={sigma: sigma8, gamma: gamma9},
    bound=bound7, rate=rate7, rate_notation="Otilde", hidden=(S.G, S.beta, S.delta, S.T),
    notes="Rate from the Theorem 9 discussion (O~(alpha sqrt(d)/eps + alpha sqrt(eta dT)/eps "
          "+ alpha eta N sqrt(dT)/(eps sqrt(N)))). The bound has no gamma: gamma = eta N "
          "is used implicitly (settings). Dimensions: the second term (G + 2L) sqrt(eta) adds "
          "[F]/[w] to [F]/[w]^2 and carries [w]^{1/2} (it comes from gamma = eta N, which is "
          "[w] for a dimensionless gamma); the first and third terms are [F]/[w].",
    refs=("tran2022.lemma7.var", "tran2022.alg2", "tran2022.thm9"),
)

_s2 = {"Gle": delta_G**2 * sigma**2 * V_le2N, "Ggt": delta_G**2 * sigma**2 * V_gt2N,
       "r": delta_r**2 * sigma**2 * V_gt2N, "D": delta_D**2 * sigma**2 * V_gt2N}
_Esq_upper = alpha**2 * d * 2 * ell * (
    (1 - alpha)**(2 * N * q) * _s2["Gle"] + A_q**2 * _s2["Gle"]
    + sum_c2 * ((1 - gamma)**2 * _s2["D"] + gamma**2 * _s2["Ggt"])
    + _s2["r"])
_add(
    id="tran2022.lemma7.var", title="Noise variance of m_hat_t under the reconstruction",
    kind="lemma", source="reconstruction of the Lemma 7 proof", category="noise",
    provenance="reconstructed-constants-unknown",
    statement=r"\mathbb E\|\hat m_t-m_t\|^2=\alpha^2d\Big[(1-\alpha)^{2(t-r)}\sum w^2s^2_{G\le}"
              r"+A_q^2\sum w^2s^2_{G\le}+\sum_{i=1}^{q-1}c_i^2\big((1-\gamma)^2\sum w^2s^2_\Delta"
              r"+\gamma^2\sum w^2s^2_{G}\big)+\sum w^2s_r^2\Big]",
    measured="E||m_hat_t - m_t||^2", measured_unit=U.GRAD_VAR, assumptions=STANDING,
    hypotheses=(("alpha >= 1/N", sp.Ge(alpha, 1 / N)),
                ("gamma <= 1/2", sp.Le(gamma, sp.Rational(1, 2)))),
    settings={sigma: sigma8},
    bound=_Esq_upper,
    expressions={f"s2_{k}": v for k, v in _s2.items()} | {"A_q": A_q, "c_i": c_i},
    notes="[reconstructed: not in the paper text we have; constants unknown] Thin: the exact "
          "formula sums over COMPOSE of each interval (built numerically); the bound encoded "
          "here replaces each COMPOSE sum of squared weights by 2 log2 T (weights <= 1, "
          "<= 2 log2 T nodes), t - r = qN, and every G-node on the windows by the larger "
          "level s2_Ggt. Uses the printed delta_r = 2 eta N, so s2_r and s2_D have dimension "
          "[w]^2 (see alg2.corrected).",
    refs=("tran2022.lemma7", "tran2022.alg4"),
)

_eps8 = _eps_star(rho8)
_add(
    id="tran2022.thm8", title="Privacy of Algorithm 2", kind="theorem", source="Theorem 8",
    category="privacy",
    statement=r"\text{Algorithm 2 is }(z,3z/2\sigma^2)\text{-RDP for all }z;\ \sigma\ge"
              r"\tfrac{4\sqrt{\log(1/\delta)}}\epsilon\Rightarrow(\epsilon,\delta)\text{-DP}",
    measured="achieved eps at delta", measured_unit=U.ONE, assumptions=(LIPSCHITZ, SMOOTH),
    hypotheses=(("alpha >= 1/N", sp.Ge(alpha, 1 / N)),),
    settings={sigma: sigma8},
    expressions={"eps_R": 3 * z / (2 * sigma**2),
                 "eps_dp_at_z": 3 * z / (2 * sigma**2) + Lg / (z - 1),
                 "eps_achieved": _eps8},
    relations={"dp": sp.Le(_eps8, eps), "noise": sp.Ge(sigma, sigma8)},
    notes="3z/2sigma^2 read as 3z/(2 sigma^2). At sigma = 4 sqrt(log(1/delta))/eps: "
          "eps_achieved = 3 eps^2/(32 log(1/delta)) + sqrt(6) eps/4 <= eps iff log(1/delta) >= "
          "3 eps/(32 - 8 sqrt 6) ~ 0.242 eps; no delta condition is printed, so e.g. eps = 10, "
          "delta = 0.5 fails (eps_achieved = 19.6; exact Gaussian curve with mu = sqrt(3)/"
          "sigma gives delta(10) = 0.684 > 0.5). See thm8.corrected.",
    refs=("tran2022.thm8.rdp", "tran2022.thm8.corrected"),
)

_add(
    id="tran2022.thm8.corrected", title="Privacy of Algorithm 2, with a delta condition",
    kind="theorem", source="derived (dptheory) from Theorem 8's RDP claim",
    category="privacy", provenance="corrected",
    statement=r"(z,\tfrac{3z}{2\sigma^2})\text{-RDP},\ \log(1/\delta)\ge\tfrac{3\epsilon}{32-8\sqrt6},"
              r"\ \sigma\ge\tfrac{4\sqrt{\log(1/\delta)}}\epsilon\Rightarrow(\epsilon,\delta)\text{-DP}",
    measured="achieved eps at delta", measured_unit=U.ONE, assumptions=(LIPSCHITZ, SMOOTH),
    hypotheses=(("alpha >= 1/N", sp.Ge(alpha, 1 / N)),
                ("log(1/delta) >= 3 eps/(32 - 8 sqrt 6)",
                 sp.Ge(Lg, 3 * eps / (32 - 8 * sp.sqrt(6))))),
    settings={sigma: sigma8},
    expressions={"eps_achieved": _eps8,
                 "eps_achieved_at_setting": 3 * eps**2 / (32 * Lg) + sp.sqrt(6) * eps / 4},
    relations={"dp": sp.Le(_eps8, eps)},
    notes="rho = 3/(2 sigma^2) = 3 eps^2/(32 log(1/delta)); eps* = rho + 2 sqrt(rho log(1/delta))"
          " = 3 eps^2/(32 log(1/delta)) + sqrt(6) eps/4 <= eps <=> log(1/delta) >= "
          "3 eps/(32 (1 - sqrt(6)/4)).",
    refs=("tran2022.thm8",),
)

_rho_total = sum(cnt[X] * Dsens[X]**2 / (2 * dX**2 * sigma**2 * VX)
                 for X, dX, VX in (("Gle", delta_G, V_le2N), ("Ggt", delta_G, V_gt2N),
                                   ("r", delta_r, V_gt2N), ("D", delta_D, V_gt2N)))
_add(
    id="tran2022.thm8.rdp", title="RDP accounting for Algorithm 2", kind="proposition",
    source="reconstruction of the Theorem 8 proof", category="privacy",
    provenance="reconstructed-constants-unknown",
    statement=r"\epsilon_R(z)=\sum_X c_X\frac{z\Delta_X^2}{2\delta_X^2\sigma^2V_X}"
              r"\overset{?}{=}\frac{3z}{2\sigma^2}",
    measured="per-family sensitivities and counts; eps_R(z)", measured_unit=U.ONE,
    assumptions=(LIPSCHITZ, SMOOTH),
    hypotheses=(("alpha >= 1/N", sp.Ge(alpha, 1 / N)),),
    expressions={"eps_R_total": z * _rho_total,
                 "Delta_G_derived": 4 * G,
                 "Delta_r_derived": 4 * L * eta * N,
                 "Delta_Delta_derived": 4 * L * eta * N,
                 "eps_R_printed": 3 * z / (2 * sigma**2),
                 # every family at count = V_X and Delta_X = delta_X
                 "eps_R_saturated": 4 * z / (2 * sigma**2)},
    notes="[reconstructed: not in the paper text we have; constants unknown] Four node "
          "families (G ending <= 2N, G ending > 2N, r, Delta). With count_X <= V_X and "
          "Delta_X <= delta_X each family contributes at most z/(2 sigma^2): 2z/sigma^2 in "
          "all, not the printed 3z/(2 sigma^2), unless one family's count is sharper. With "
          "the printed delta_r = 2 eta N and the smoothness-derived Delta_r = 4 L eta N the "
          "ratio Delta_r/delta_r = 2L is not dimensionless.",
    refs=("tran2022.thm8", "tran2022.alg2", "tran2022.prop13"),
)

_add(
    id="tran2022.thm9", title="Utility of Algorithm 2", kind="theorem", source="Theorem 9",
    category="utility",
    statement=r"\mathbb E\|\nabla F(\hat w)\|\le\frac{(\frac32R+24K(G+2L)+12L)d^{1/3}}{(\epsilon N)"
              r"^{2/3}}+\frac{6G}{\sqrt N}+\frac{36GK\sqrt d}{\epsilon N}+\frac{9KL\sqrt d}"
              r"{\epsilon N}\le\tilde O\Big(\frac{d^{1/3}}{(\epsilon N)^{2/3}}+\frac1{\sqrt N}\Big),"
              r"\ K=16\log_2T\log(1/\delta)",
    measured="E||grad F(w_hat)||", measured_unit=U.GRAD, assumptions=STANDING,
    hypotheses=(("eps-condition", sp.Le(eps, T**_rational(3, 4) * sp.sqrt(d) / N**_rational(3, 4))),),
    settings={T: T9, eta: eta9, gamma: gamma9, alpha: alpha9},
    bound=bound9, rate=rate9, rate_notation="Otilde", hidden=HIDDEN,
    expressions={"K": K9,
                 "noise_rate": alpha * sp.sqrt(d) / eps + alpha * sp.sqrt(eta * d * T) / eps
                 + alpha * eta * N * sp.sqrt(d * T) / (eps * sp.sqrt(N)),
                 "noise_rate_sec3": alpha * sp.sqrt(d * T) / (eps * sp.sqrt(N)),
                 "lemma5_R_term": 3 * R / (2 * eta * T),
                 "gradient_evaluations": T,
                 "alpha_times_N": alpha * N},      # = 1 at the settings
    relations={"alpha >= 1/N (Lemma 7, Thm 8)": sp.Ge(alpha, 1 / N),
               "gamma <= 1/2 (Lemma 7)": sp.Le(gamma, sp.Rational(1, 2)),
               "gamma < 1": sp.StrictLessThan(gamma, 1)},
    notes="At the settings alpha = 1/N exactly, gamma = eta N = sqrt(N/T) = d^{1/3}/(eps N)"
          "^{2/3}, eta T = 1/gamma, and the eps-condition reads eps <= eps N (vacuous). Lemma 7 "
          "needs gamma <= 1/2, i.e. eps N >= 2^{3/2} sqrt(d), which Theorem 9 does not state. "
          "Lemma 5's R term (3/2) R sqrt(N/T) equals the printed (3/2) R d^{1/3}/(eps N)^{2/3} "
          "exactly. gamma = eta N and eta = 1/sqrt(NT) give dimensionless values to [w] "
          "quantities; the first term adds R, K G and K L (different dimensions).",
    refs=("tran2022.lemma5", "tran2022.lemma7", "tran2022.thm8", "tran2022.thm6"),
)

_add(
    id="tran2022.limitations", title="Run-time claim", kind="remark-claim",
    source="Sec. 5, Limitations", category="runtime",
    statement=r"\tilde O\big(\tfrac{N^{7/3}\epsilon^{4/3}}{d^{2/3}}\big)\text{ gradient evaluations, "
              r"total run time }\tilde O(N^{11/3}/d^{2/3})",
    measured="total operation count", measured_unit=U.ONE,
    rate=N**_rational(11, 3) / d**_rational(2, 3), rate_notation="Otilde",
    settings={T: T9},
    expressions={"gradient_evaluations": T9,
                 # reconstruction (alg4): ~ sum_t (2 t/N + 3) 2 log2 T look-ups = O~(T^2/N)
                 "reconstructed_total_lookups": T**2 / N,
                 "reconstructed_total_vector_ops": d * T**2 / N},
    notes="Under the alg4 reconstruction the look-ups total O~(T^2/N) = O~(N^{11/3} eps^{8/3}/"
          "d^{4/3}) (x d for d-dimensional vector operations: N^{11/3} eps^{8/3} d^{-1/3}); "
          "the printed O~(N^{11/3}/d^{2/3}) matches the N exponent but neither the d exponent "
          "nor the eps dependence (tentative: Algorithm 4 is not in our text).",
    refs=("tran2022.thm9", "tran2022.alg4"),
)

__all__ = ["PAPER", "ITEMS"]
