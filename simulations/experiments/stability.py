"""Stability recipes (issue 6, item 1): coupled runs of DPageEM on neighbouring datasets.

``zhang2021.thm3.3`` claims DPageEM is alpha-uniformly stable: sup_z E[f(A(S), z) - f(A(S'), z)]
<= alpha. A cell runs ``zhang2021.alg1`` on S and on S' (S with one record replaced by a
fresh record of the same realizable model) with the SAME ``seed`` and ``first_replicate``:
the streams are data-independent, so both runs draw the same minibatch index sets (the
differing index maps to z_i in S and z' in S') and the same Gaussian noise — the coupling of
the stability proof.

The maximising z is chosen on a *pilot* of ``pilot_reps`` replicates that no block uses
(``first_replicate`` offset 10^6), over candidates: every record of S and S', then Powell over
(a, b) in the data domain (||a|| <= X(S), |b| <= max|b_i|) from the best ones. All blocks of a
sweep point share S, S', i and z* (they depend on the point's seed only), so pooling the
blocks' ``samples`` (per-replicate gaps f(A(S), z*) - f(A(S'), z*)) is valid and the choice of
z* does not bias them upward.

``bound`` is Theorem 3.3's alpha evaluated from the catalog item at the instance: L, beta from
the family's certified constants (max over S, S'), mu, theta (empirical PL and one-point
weak quasi-convexity constants; min over S, S'), K, T0, t0_Mon, varrho, B, n as run, and c4
from the hypothesis of Thm 3.2 read literally, eta0 X = 1/(c4 theta mu) with
X = (T0 - t0_Mon) + t0_Mon/(2(1 - varrho)) (catalog ``zhang2021.thm3.2`` expression X). The
hypothesis 0 < c4 < 2 does not hold at simulable sizes (it needs eta0 X > 1/(2 theta mu),
thousands of steps at mu ~ 1e-3); ``hypotheses`` in the output says so.

Recipes
-------
``zhang2021.thm3.3:coupled-stability``  sweep n; gap at z* vs alpha
``zhang2021.remark5:stability-vs-tmon`` sweep t0_Mon at fixed T0; gap vs alpha(t0_Mon); the
                                        remark claims alpha (and so the gap) increases with
                                        t_Mon (t0_Mon = 0 is excluded: the printed alpha has
                                        log(1 + 1/(varrho t_Mon)), infinite there)
"""

from __future__ import annotations

from typing import Any

import numpy as np
from scipy.optimize import minimize

from dptheory import registry
from dptheory.symbolic.assumptions import BoundedLoss, Lipschitz, PL, Smooth, WeaklyQuasiConvex
from dptheory.verify.recipe import Recipe
from dptheory_simulations.objectives import Dataset
from dptheory_simulations.objectives import get as get_objective

__all__ = ["RECIPES", "cell_coupled_stability", "coupled_outputs", "alpha_thm33"]

MODULE = "dptheory_simulations.experiments.stability"
PILOT_OFFSET = 1_000_000


def _eval(item_id: str, what: str, **values: float) -> float:
    item = registry.get(item_id)
    syms = {str(s): s for s in item.free_symbols()}
    # settings not applied: K, T0, ... are the values the cell ran with
    return float(item.evaluate(what, {syms[k]: v for k, v in values.items()},
                               apply_settings=False))


def _const(obj: Any, data: Dataset, cls: type, attr: str) -> float:
    for a in obj.assumptions(data):
        if type(a) is cls:
            return float(getattr(a, attr))
    raise ValueError(f"objective {obj.name!r} declares no {cls.__name__}")


def alpha_thm33(*, L: float, beta: float, mu: float, theta: float, n: int, B: int, K: int,
                T0: int, tMon0: int, varrho: float, eta0: float) -> dict[str, float]:
    """Theorem 3.3's alpha (catalog ``zhang2021.thm3.3``) with c4 from eta0 X = 1/(c4 theta mu)."""
    X = _eval("zhang2021.thm3.2", "X", z21_T0=T0, tMon0=tMon0, varrho=varrho)
    c4 = 1.0 / (eta0 * X * theta * mu)
    vals = dict(G=L, beta=beta, mu=mu, theta=theta, n=n, B=B, z21_K=K, z21_T0=T0,
                tMon0=tMon0, varrho=varrho, z21_c4=c4)
    out = {"alpha": _eval("zhang2021.thm3.3", "bound", **vals), "c4": c4, "X": X,
           "q": _eval("zhang2021.thm3.3", "q_exponent", beta=beta, n=n, mu=mu, theta=theta,
                      z21_c4=c4)}
    for term in ("term1", "term2", "term3"):
        out[term] = _eval("zhang2021.thm3.3", term, **{k: v for k, v in vals.items()
                                                      if k in _symbols(term)})
    return out


def _symbols(expr: str) -> set[str]:
    return {str(s) for s in registry.get("zhang2021.thm3.3").expressions[expr].free_symbols}


def _neighbours(obj: Any, n: int, seed: int) -> tuple[Dataset, Dataset, int]:
    """S (n records) and S' (record i replaced by a fresh record of the same model)."""
    full = obj.make_data(n + 1, seed)
    i = int(np.random.default_rng(seed).integers(n))
    S = Dataset(full.X[:n], full.y[:n])
    Xp, yp = np.array(S.X), np.array(S.y)
    Xp[i], yp[i] = full.X[n], full.y[n]
    return S, Dataset(Xp, yp), i


def coupled_outputs(obj: Any, S: Dataset, Sp: Dataset, *, reps: int, seed: int,
                    first_replicate: int, params: dict[str, Any]) -> tuple[np.ndarray, np.ndarray, Any]:
    """Outputs (reps, d) of ``zhang2021.alg1`` on S and S' with shared streams."""
    from dptheory_simulations.algorithms import get as get_algorithm
    alg = get_algorithm(params.get("algorithm", "zhang2021.alg1"))
    kw = {k: v for k, v in params.items() if k != "algorithm"}
    rS = alg(obj, S, reps=reps, seed=seed, first_replicate=first_replicate, **kw)
    rP = alg(obj, Sp, reps=reps, seed=seed, first_replicate=first_replicate, **kw)
    return rS.w, rP.w, rS


def _gaps(obj: Any, WS: np.ndarray, WP: np.ndarray, a: np.ndarray, b: float) -> np.ndarray:
    """f(w_S^r, z) - f(w_S'^r, z) per replicate, z = (a, b)."""
    A, y = np.asarray(a, float)[None, :], np.array([float(b)])
    return obj._loss(WS, A, y)[:, 0] - obj._loss(WP, A, y)[:, 0]


def _best_z(obj: Any, S: Dataset, Sp: Dataset, WS: np.ndarray, WP: np.ndarray,
            starts: int, maxfev: int) -> tuple[np.ndarray, float, float, str]:
    cand = [(S.X[j], S.y[j], f"S[{j}]") for j in range(S.n)] + \
           [(Sp.X[j], Sp.y[j], f"S'[{j}]") for j in range(Sp.n)]
    vals = [float(_gaps(obj, WS, WP, a, b).mean()) for a, b, _ in cand]
    order = np.argsort(vals)[::-1]
    Xr = S.max_norm
    Yr = float(max(np.max(np.abs(S.y)), np.max(np.abs(Sp.y))))
    best = (np.array(cand[order[0]][0]), float(cand[order[0]][1]), vals[order[0]],
            cand[order[0]][2])

    def unpack(th: np.ndarray) -> tuple[np.ndarray, float]:
        u = th[:-1]
        nu = float(np.linalg.norm(u))
        return Xr * (u / nu if nu > 1 else u), float(np.clip(th[-1], -Yr, Yr))

    for j in order[:starts]:
        a0, b0 = np.asarray(cand[j][0], float), float(cand[j][1])
        th0 = np.concatenate([a0 / Xr, [b0]])
        res = minimize(lambda th: -float(_gaps(obj, WS, WP, *unpack(th)).mean()), th0,
                       method="Powell", bounds=[(-1, 1)] * len(a0) + [(-Yr, Yr)],
                       options={"maxfev": maxfev, "xtol": 1e-5, "ftol": 1e-10})
        a, b = unpack(res.x)
        v = float(_gaps(obj, WS, WP, a, b).mean())
        if v > best[2]:
            best = (a, b, v, "adversarial")
    return best[0], best[1], best[2], best[3]


def cell_coupled_stability(cell: dict[str, Any]) -> dict[str, Any]:
    """Coupled DPageEM runs on S, S': per-replicate gaps at the pilot's maximising z."""
    p = {**cell, **cell["point"]}
    n = int(p["n"])
    obj = get_objective(p.get("family", "pl-nonconvex"), **p.get("family_params", {}))
    point_seed = int(np.random.SeedSequence(int(cell["seed"]), spawn_key=(0xDA7A,))
                     .generate_state(1)[0])
    S, Sp, i = _neighbours(obj, n, point_seed)
    T0, tMon0, K, B = int(p["T0"]), int(p["tMon0"]), int(p["K"]), int(p["B"])
    varrho, eta0 = float(p["varrho"]), float(p["eta0"])
    params = {"eps": float(p["eps"]), "delta": float(p["delta"]), "eta0": eta0, "T0": T0,
              "tMon0": tMon0, "K": K, "B": B, "varrho": varrho, "c2": float(p.get("c2", 1.0))}
    seed = int(cell["seed"])
    WS0, WP0, _ = coupled_outputs(obj, S, Sp, reps=int(p.get("pilot_reps", 32)), seed=seed,
                                  first_replicate=PILOT_OFFSET, params=params)
    a, b, pilot_gap, source = _best_z(obj, S, Sp, WS0, WP0, int(p.get("starts", 2)),
                                      int(p.get("maxfev", 300)))
    WS, WP, run = coupled_outputs(obj, S, Sp, reps=int(cell["reps"]), seed=seed,
                                  first_replicate=int(cell.get("first_replicate", 0)),
                                  params=params)
    gaps = _gaps(obj, WS, WP, a, b)
    L = max(_const(obj, S, Lipschitz, "G"), _const(obj, Sp, Lipschitz, "G"))
    beta = max(_const(obj, S, Smooth, "beta"), _const(obj, Sp, Smooth, "beta"))
    mu = min(_const(obj, S, PL, "mu"), _const(obj, Sp, PL, "mu"))
    theta = min(_const(obj, S, WeaklyQuasiConvex, "theta"), _const(obj, Sp, WeaklyQuasiConvex, "theta"))
    al = alpha_thm33(L=L, beta=beta, mu=mu, theta=theta, n=n, B=B, K=K, T0=T0, tMon0=tMon0,
                     varrho=varrho, eta0=eta0)
    Gamma = al["c4"] / 4.0          # Gamma = 1/(4 theta mu eta0 X) = c4/4
    # 0 <= f <= the certified loss bound on the ball, so a gap never exceeds it there
    loss_bound = max(_const(obj, S, BoundedLoss, "bound"), _const(obj, Sp, BoundedLoss, "bound"))
    hyps = {"0<c4<2": bool(0 < al["c4"] < 2), "Gamma<1/2": bool(Gamma < 0.5)}
    return {"samples": [float(g) for g in gaps], "bound": al["alpha"],
            "trivial": loss_bound, "trivial_source": "0 <= f <= the certified loss bound",
            "in_domain": 1.0 - float(np.mean(run.metrics["left_domain"])),
            "hypotheses_hold": all(hyps.values()),
            "mean_gap": float(gaps.mean()),
            "z": {"a": [float(v) for v in a], "b": float(b), "source": source,
                  "pilot_mean_gap": pilot_gap},
            "index": i, "constants": {"L": L, "beta": beta, "mu": mu, "theta": theta},
            "alpha_terms": {k: al[k] for k in ("term1", "term2", "term3")},
            "c4": al["c4"], "q": al["q"], "X": al["X"],
            "hypotheses": hyps,
            "pi": float(run.noise["pi"]),
            "left_domain_fraction": float(np.mean(run.metrics["left_domain"]))}


_FIXED = {"n": 16, "family": "pl-nonconvex", "family_params": {"d": 64}, "T0": 10, "tMon0": 5,
          "K": 2, "B": 4, "varrho": 0.5, "eta0": 0.02, "eps": 2.0, "delta": 1e-5,
          "pilot_reps": 32, "starts": 2, "maxfev": 300}

RECIPES: list[Recipe] = [
    Recipe(id="zhang2021.thm3.3:coupled-stability", item="zhang2021.thm3.3", check="stability",
           cell=f"{MODULE}:cell_coupled_stability", sweep={"n": [8, 16]},
           fixed={k: v for k, v in _FIXED.items() if k != "n"}, reps=32, block=32,
           sweep_full={"n": [8, 16, 32, 63]}, reps_full=512,
           metric="sup_z E[f(A(S), z) - f(A(S'), z)]",
           description="Coupled DPageEM runs (shared minibatch indices and noise) on S, S' "
                       "(pl-nonconvex, d = 64); gap at the pilot's maximising z vs Thm 3.3's "
                       "alpha (c4 from eta0 X = 1/(c4 theta mu))."),
    Recipe(id="zhang2021.remark5:stability-vs-tmon", item="zhang2021.remark5", check="stability",
           cell=f"{MODULE}:cell_coupled_stability", sweep={"tMon0": [1, 5, 10]},
           fixed={k: v for k, v in _FIXED.items() if k != "tMon0"}, reps=32, block=32,
           sweep_full={"tMon0": [1, 2, 4, 6, 8, 10]}, reps_full=512,
           metric="sup_z E[f(A(S), z) - f(A(S'), z)] vs t0_Mon",
           description="Remark 5: alpha (Thm 3.3) increases with t_Mon; empirical coupled "
                       "gap vs t0_Mon at fixed T0 (bound = alpha at each t0_Mon)."),
]
