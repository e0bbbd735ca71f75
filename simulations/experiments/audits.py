"""The audit engine: empirical privacy audits of the papers' private algorithms (issues 7, 11).

The setups (objective, n, steps, noise parameter) and the claims audited live in each
paper's module (``AUDITS``, ``AUDIT_CLAIMS``), which builds its recipes with
:func:`audit_recipes`.

Each private algorithm of ``dptheory algorithms`` gets two recipes (check ``audit``):

* ``<privacy theorem>:audit-quick-<alg>`` — part of ``verify --quick``: ``QUICK_RUNS`` runs
  per neighbouring dataset, small n, d and a few steps;
* ``<privacy theorem>:audit-<alg>`` — ``quick=False`` (``verify --full``): ``FULL_RUNS``
  runs per neighbour at the sharpest setting the algorithm allows (T = 1 or 2, full batches).

**Where the claims live.** Each algorithm is audited at a claim inside its theorem's stated
range: :data:`CLAIM`, eps = 1, delta = 1e-3, by default (a paper's module gives others in its
``AUDIT_CLAIMS``); eps = 0.9 for wang2020 (DP-STR's
Theorem 3 needs eps < 1); tran2022 Algorithm 1 at eps = 1.5, delta = 0.3, where Theorem 4's
printed condition delta >= e^-eps holds.

**Power.** An audit supports a claim only if it could have refuted it
(:func:`dptheory.verify.audit.audit_check`): with ``QUICK_RUNS`` = 8000 runs per side an
ideal release whose true eps is 1.92 x the claim (eps = 1, delta = 1e-3) is detected at 95 %
(1.73 x at eps = 0.9, 1.24 x at tran2022's setting); and each recipe runs a *planted twin*
(sweep point ``twin``): the same algorithm with noise calibrated by the tight accountant to
``POWER_FACTOR`` x the claim, which the audit must detect. Where the twin goes undetected the
algorithm's release hides what its noise would leak (a normalised or trust-region step, a
tree of noises), and the verdict is ``inconclusive``: such algorithms are judged by the
two-sided accountant instead (the ``epsilon_*_certified`` keys of every cell).

**Output perturbation** (setup ``release = GAUSSIAN_OUTPUT``: zhang2017 Algorithm 1, one
Gaussian release w_T + N(0, s^2 I) of a deterministic w_T). The accountant's twin is
calibrated to the sensitivity *bound* (Lemma 3), which a given pair may attain only in part:
its true eps on the audited pair is then far below the claim and no audit of that pair can
catch it. So the pair is the one of the largest *attained* shift |w_T(D_in) - w_T(D_out)|
(:func:`choose_output_canary`: noiseless runs of the same code on the top candidate pairs),
the score is the projection on that shift (the likelihood ratio), and the twin's noise is
s = shift / mu(POWER_FACTOR x eps) (:func:`_twin_output_noise`): its true eps on the pair is
exactly POWER_FACTOR x the claim (the Gaussian mechanism at mu = shift / s, computed, not
estimated). The verdict says how much of the bound the pair attains (a loose bound is not a
privacy violation) and the true eps of the paper's noise on this pair.

**Transcript audits** (:mod:`.transcripts`; setups with ``transcript=True``): where the
privacy proof composes noisy releases the output hides (normalised, trust-region or projected
steps, uniformly sampled outputs), the adversary sees every release (recovered from the
iterates, or handed over by the simulator) and scores each run by the Neyman-Pearson
log-likelihood ratio of the Gaussian releases given the past, with canaries at the proof's
sensitivity; the twin's transcript has exact Gaussian-DP eps ``POWER_FACTOR`` x the claim. A
lower bound above the claim on a transcript the algorithm does not output is a ``proof``
finding, not ``privacy``.

The quick recipes sweep ``calibration`` over ``paper`` (the paper's noise, the claim under
test) and ``twin``; the full ones add ``tight`` (dptheory's own calibration, which the
audit also checks). A lower bound above the claim is a finding. The settings are the
auditor's worst case for a final-iterate release: few steps and full batches, so nothing is
lost to subsampling or to averaging over iterates.

**The membership test** (:func:`audit_cell`). Neighbouring datasets differ by *replacing*
one record (the papers' relation): ``D_out = D0 + [z_out]`` and ``D_in = D0 + [z_in]``. The
canary pair is chosen by an adversarial search over candidate records (rows of fresh data
rescaled to the largest feature norm of the data, coordinate axes, and labels spanning the
data's range): the pair whose (clipped, where the algorithm clips) per-sample gradients at
the start point differ most — the largest influence on the first step and, for Lipschitz or
clipped mechanisms, the worst case of the sensitivity bound. The algorithm releases only its
output iterate, so the score of a run is the projection of ``w_out - w0`` on the direction
in which the canary moves the iterate, ``-(g(w0; z_in) - g(w0; z_out))`` (or, with
``cell["pilot"] > 0``, a linear discriminant fitted on separate pilot runs). Runs on D_in use
replicates ``first_replicate..``; runs on D_out use the same seed with replicates offset by
``OUT_OFFSET`` (independent streams), so blocks pool exactly as the engine expects. The cell
also reports whether the calibration and the hyperparameters (``data_dependent_params``, e.g.
a step size computed from the data) are the same on both neighbours: a data-dependent
hyperparameter is a leak the privacy accounting does not see, and the audit measures it.

**Planted bugs** (:func:`selftest`): DP-SGD (``zhang2021.dpsgd-const``: one full-batch
step, per-sample clipping at C, so the release is exactly a Gaussian mechanism) at the tight
calibration, then (1) noise std divided by 3, (2) clipping removed while the noise stays
calibrated to C, (3) sensitivity computed for add/remove-one (C/B) where the relation is
replace-one (2C/B): noise halved. Each must give an epsilon lower bound above the claimed
epsilon (detected); the correct algorithm must not.
"""

from __future__ import annotations

import math
from typing import Any

import numpy as np

from dptheory.verify.recipe import Recipe

from .audit_parts import (_NOISE_KEYS, OPEN_CONSTANTS, _calibration, _clip_rows, _close,  # noqa: F401
                          _num, _open_choice, accountant_keys, candidate_records,
                          differing_params)

OUT_OFFSET = 1_000_000_000          # replicate offset of the runs on D_out
# override parameter -> keys of RunResult.noise holding the calibrated value, in order


# ------------------------------------------------------------------------ canary search
def choose_canary(objective: Any, data0: Any, w0: np.ndarray, *, clip: float | None,
                  seed: int) -> dict[str, Any]:
    """Adversarial search over candidate pairs: the largest clipped gradient difference."""
    X, y = candidate_records(objective, data0, seed)
    g = np.asarray(objective.grad(w0, X, y))                   # (K, d)
    gc = _clip_rows(g, clip)
    # pairwise ||gc_i - gc_j||, ties broken by the unclipped difference (clipping removed)
    diff = np.linalg.norm(gc[:, None, :] - gc[None, :, :], axis=-1)
    raw = np.linalg.norm(g[:, None, :] - g[None, :, :], axis=-1)
    score = diff + 1e-6 * raw
    i, j = np.unravel_index(int(np.argmax(score)), score.shape)
    direction = -(gc[i] - gc[j])
    nd = np.linalg.norm(direction)
    if nd == 0:
        direction = -(g[i] - g[j])
        nd = np.linalg.norm(direction)
    direction = direction / nd if nd > 0 else np.eye(data0.d)[0]
    return {"x_in": X[i], "y_in": float(y[i]), "x_out": X[j], "y_out": float(y[j]),
            "influence": float(diff[i, j]), "influence_unclipped": float(raw[i, j]),
            "direction": direction, "candidates": int(X.shape[0])}


#: pairs of top candidate records (by gradient difference at w0) whose attained output shift
#: the output-perturbation search evaluates (two noiseless runs each)
SHIFT_PAIRS = 48
_SHIFT_CACHE: dict[str, dict[str, Any]] = {}


def _noiseless(alg: Any, obj: Any, data: Any, cell: dict[str, Any], params: dict) -> np.ndarray:
    """The algorithm's output without its output noise (``noise_param`` = 0): the
    deterministic w_T of gradient descent, the centre of the Gaussian release."""
    r = alg(obj, data, reps=1, seed=0, eps=float(cell["eps"]), delta=float(cell["delta"]),
            **{**params, cell["noise_param"]: 0.0})
    return np.asarray(r.w)[0]


def choose_output_canary(alg: Any, obj: Any, data0: Any, cell: dict[str, Any],
                         params: dict[str, Any]) -> dict[str, Any]:
    """Worst-case replace-one pair for a single Gaussian output release (output
    perturbation, zhang2017 Algorithm 1): among the ``SHIFT_PAIRS`` candidate pairs with the
    largest gradient difference at w0, the one whose noiseless outputs w_T(D_in), w_T(D_out)
    are farthest apart. The release is then N(w_T(D), s^2 I) on each side, so the projection on
    the shift is the likelihood-ratio (Neyman-Pearson) score and the pair's true privacy is
    the Gaussian mechanism's at mu = |w_T(D_in) - w_T(D_out)| / s, computed, not estimated."""
    import hashlib
    import json

    from dptheory_simulations.objectives import Dataset
    digest = hashlib.sha256(np.ascontiguousarray(data0.X).tobytes()
                            + np.ascontiguousarray(data0.y).tobytes()).hexdigest()
    key = json.dumps([alg.id, obj.name, obj.params(), digest, cell["eps"], cell["delta"],
                      cell["noise_param"], params, cell.get("data_seed", 0)],
                     sort_keys=True, default=str)
    if key in _SHIFT_CACHE:
        return _SHIFT_CACHE[key]
    seed = int(cell.get("data_seed", 0))
    X, y = candidate_records(obj, data0, seed)
    g = np.asarray(obj.grad(np.zeros(obj.d), X, y))
    raw = np.linalg.norm(g[:, None, :] - g[None, :, :], axis=-1)
    iu = np.triu_indices(X.shape[0], k=1)
    order = np.argsort(-raw[iu], kind="stable")[:SHIFT_PAIRS]
    outs: dict[int, np.ndarray] = {}

    def out(i: int) -> np.ndarray:
        if i not in outs:
            outs[i] = _noiseless(alg, obj, Dataset(np.vstack([data0.X, X[i]]),
                                                   np.append(data0.y, y[i])), cell, params)
        return outs[i]

    best, bi, bj = -1.0, 0, 1
    for k in order:
        i, j = int(iu[0][k]), int(iu[1][k])
        sh = float(np.linalg.norm(out(i) - out(j)))
        if sh > best:
            best, bi, bj = sh, i, j
    shift = out(bi) - out(bj)
    direction = shift / best if best > 0 else np.eye(obj.d)[0]
    res = {"x_in": X[bi], "y_in": float(y[bi]), "x_out": X[bj], "y_out": float(y[bj]),
           "influence": float(raw[bi, bj]), "influence_unclipped": float(raw[bi, bj]),
           "direction": direction, "candidates": int(X.shape[0]),
           "pairs_evaluated": int(order.size), "shift": best}
    _SHIFT_CACHE[key] = res
    return res


# ------------------------------------------------------------------------ the cell
def _setup(cell: dict[str, Any]):
    from dptheory_simulations.algorithms import get as get_alg
    from dptheory_simulations.objectives import Dataset

    from .transcripts import audit_objective       # registered families and audit-only ones
    alg = get_alg(cell["algorithm"])
    obj = audit_objective(cell["objective"], **cell.get("objective_params", {}))
    n = int(cell["n"])
    data0 = obj.make_data(n - 1, int(cell.get("data_seed", 0)))
    params = dict(cell.get("params", {}))
    clip = params.get("clip", params.get("C"))
    w0 = np.zeros(obj.d)
    if cell.get("release") == GAUSSIAN_OUTPUT:
        can = choose_output_canary(alg, obj, data0, cell, params)
    else:
        can = choose_canary(obj, data0, w0, clip=clip, seed=int(cell.get("data_seed", 0)))
    d_in = Dataset(np.vstack([data0.X, can["x_in"]]), np.append(data0.y, can["y_in"]))
    d_out = Dataset(np.vstack([data0.X, can["x_out"]]), np.append(data0.y, can["y_out"]))
    return alg, obj, d_in, d_out, params, can, w0


def audit_cell(cell: dict[str, Any]) -> dict[str, Any]:
    """One block of the many-runs membership test (contract: check ``audit``).

    Point ``calibration = "twin"`` runs the planted twin: the tight calibration at
    ``POWER_FACTOR`` x the claimed eps (the claim stays ``cell["eps"]``).
    """
    from dptheory.verify.audit import POWER_FACTOR
    if cell.get("transcript"):
        # the adversary sees every noisy release the proof composes (:mod:`.transcripts`)
        from .transcripts import transcript_cell
        return transcript_cell(cell, offset=OUT_OFFSET)
    alg, obj, d_in, d_out, params, can, w0 = _setup(cell)
    cal = _calibration(cell)
    eps, delta = float(cell["eps"]), float(cell["delta"])
    reps, seed, fr = int(cell["reps"]), int(cell["seed"]), int(cell.get("first_replicate", 0))
    bug = cell.get("bug")
    common = dict(eps=eps, delta=delta, calibration="paper" if cal == "twin" else cal,
                  **params)
    ref = None
    twin_how = None
    if cal == "twin":
        key = cell["noise_param"]
        if cell.get("release") == GAUSSIAN_OUTPUT:
            common[key], twin_how = _twin_output_noise(can["shift"], POWER_FACTOR * eps, delta)
        else:
            common[key], twin_how = _twin_noise(alg, obj, d_out, common, key, POWER_FACTOR * eps)
    if bug:
        # the calibrated run tells the noise the algorithm would use; the bug then alters it
        ref = alg(obj, d_out, reps=1, seed=seed, **common)
        key = cell["noise_param"]
        noise = next(float(ref.noise[k]) for k in _NOISE_KEYS.get(key, (key,)) if k in ref.noise)
        if bug == "noise/3":
            common[key] = noise / 3
        elif bug == "add-remove":
            common[key] = noise / 2            # sensitivity C/B instead of 2C/B
        elif bug == "no-clip":
            common[key] = noise
            for k in ("clip", "C"):
                if k in common:
                    common[k] = math.inf
        else:
            raise ValueError(f"unknown bug {bug!r}")
    r_in = alg(obj, d_in, reps=reps, seed=seed, first_replicate=fr, **common)
    r_out = alg(obj, d_out, reps=reps, seed=seed, first_replicate=OUT_OFFSET + fr, **common)
    priv = (ref or r_out).privacy
    u = can["direction"]
    pilot = int(cell.get("pilot", PILOT_RUNS))
    if pilot > 0:
        u = _pilot_direction(alg, obj, d_in, d_out, common, seed, pilot, u)
    s_in = (np.asarray(r_in.w) - w0) @ u
    s_out = (np.asarray(r_out.w) - w0) @ u
    same = _close(r_in.privacy, r_out.privacy)
    # a noise constant the paper leaves open (zhang2021 eq. (4), yang2022 Lemma 3.1: "for
    # some absolute constant c2"): the audit tests dptheory's choice of it
    open_c = {k: float(r_out.params[k]) for k in OPEN_CONSTANTS.get(cell["algorithm"], ())
              if _num(r_out.params.get(k)) is not None}
    hyper = differing_params(r_in.params, r_out.params)
    pair = _pair_privacy(cell, can, r_out, delta)
    return {"scores_in": [float(v) for v in s_in], "scores_out": [float(v) for v in s_out],
            "epsilon_claimed": eps, **accountant_keys(priv),
            "epsilon_twin": POWER_FACTOR * eps if cal == "twin" else None,
            "twin_calibration": twin_how,
            "delta": delta, "algorithm": cell["algorithm"], "calibration": cal,
            "bug": bug or "", "calibration_data_independent": same,
            # hyperparameters (step sizes, ...) that differ between the neighbours: a leak the
            # privacy accounting does not see
            "data_dependent_params": hyper,
            "open_constants": open_c if cal != "twin" else {},
            "open_constants_choice": _open_choice(cell) if open_c and cal != "twin" else "",
            "adversary": ADVERSARY,
            "canary": {"x_in": [float(v) for v in can["x_in"]], "y_in": can["y_in"],
                       "x_out": [float(v) for v in can["x_out"]], "y_out": can["y_out"],
                       "influence": can["influence"], "candidates": can["candidates"]},
            **pair}


#: ``release`` of a setup whose algorithm releases one Gaussian-perturbed output (output
#: perturbation): its worst-case pair and its twin are computed from the noiseless outputs
GAUSSIAN_OUTPUT = "gaussian-output"


def _twin_output_noise(shift: float, target: float, delta: float) -> tuple[float, str]:
    """Noise std of the planted twin of a single Gaussian output release: the release on the
    audited pair is N(w_T(D_in), s^2 I) vs N(w_T(D_out), s^2 I), exactly the Gaussian
    mechanism with mu = shift / s (Balle and Wang 2018), so s = shift / mu(target) gives the
    twin a true eps of exactly ``target`` on this pair, whatever the sensitivity bound the
    paper's noise is calibrated to."""
    from dptheory.verify.audit import gdp_mu
    if not shift > 0:
        raise ValueError("the audited pair does not move the output (shift = 0): no twin "
                         "can be calibrated on it")
    mu = gdp_mu(target, delta)
    return shift / mu, (f"exact: Gaussian output release on the audited pair, mu = |w_T(D_in) "
                        f"- w_T(D_out)| / s = {shift:.4g} / s = {mu:.4g} (true eps = "
                        f"{target:g} at delta = {delta:g})")


def _pair_privacy(cell: dict[str, Any], can: dict[str, Any], run: Any,
                  delta: float) -> dict[str, Any]:
    """For a single Gaussian output release: the attained shift on the audited pair, the
    sensitivity bound the noise is calibrated to, and the true eps on this pair of the
    noise used (exact Gaussian curve); empty otherwise."""
    if cell.get("release") != GAUSSIAN_OUTPUT:
        return {}
    from dptheory.verify.audit import gdp_epsilon
    s = _num(run.noise.get("s"))
    bound = _num(run.noise.get("Delta"))
    shift = float(can["shift"])
    return {"release": GAUSSIAN_OUTPUT, "adversary": ADVERSARY_OUTPUT,
            "shift_attained": shift, "sensitivity_bound": bound,
            "noise_std": s,
            "epsilon_pair": None if not s else gdp_epsilon(shift / s, delta)}


_TWIN_CACHE: dict[str, tuple[float, str]] = {}


def _twin_noise(alg: Any, obj: Any, data: Any, common: dict[str, Any], key: str,
                target: float) -> tuple[float, str]:
    """Noise of the planted twin: the smallest value of the noise parameter ``key`` at which
    the two-sided accountant's certified upper end of the run is <= ``target`` (so the
    twin's true eps is at most, and close to, ``target``); bisection on a log scale from the
    paper's noise. Falls back to the simulator's tight calibration at ``target`` when the
    accountant gives no interval."""
    import json
    ck = json.dumps([alg.id, obj.name, obj.d, data.n, float(data.X.sum()),
                     {k: v for k, v in common.items() if k != key}, key, target],
                    sort_keys=True, default=str)
    if ck in _TWIN_CACHE:
        return _TWIN_CACHE[ck]
    ref = alg(obj, data, reps=1, seed=0, **common)
    noise0 = next(float(ref.noise[k]) for k in _NOISE_KEYS.get(key, (key,)) if k in ref.noise)

    def upper(f: float) -> float:
        r = alg(obj, data, reps=1, seed=0, **{**common, key: f * noise0})
        u = _num(r.privacy["tight"].get("epsilon_upper"))
        return math.inf if u is None else u

    u1 = upper(1.0)
    if not math.isfinite(u1):
        r = alg(obj, data, reps=1, seed=0, **{**common, "calibration": "tight", "eps": target})
        noise = next(float(r.noise[k]) for k in _NOISE_KEYS.get(key, (key,)) if k in r.noise)
        out = (noise, "simulator's tight calibration (no certified interval)")
    else:
        lo, hi = (1.0, 2.0) if u1 > target else (0.5, 1.0)
        while upper(hi) > target:                        # hi: upper <= target
            lo, hi = hi, 2.0 * hi
        while upper(lo) <= target:                       # lo: upper > target
            lo, hi = lo / 2.0, lo
        for _ in range(14):
            mid = math.sqrt(lo * hi)
            if upper(mid) > target:
                lo = mid
            else:
                hi = mid
        out = (hi * noise0, "two-sided accountant: certified upper end = "
                            f"{upper(hi):.4g} <= {target:g}")
    _TWIN_CACHE[ck] = out
    return out


def _pilot_direction(alg: Any, obj: Any, d_in: Any, d_out: Any, common: dict, seed: int,
                     pilot: int, fallback: np.ndarray) -> np.ndarray:
    """Linear discriminant direction Sigma^-1 (mean_in - mean_out) from pilot runs.

    The pilot runs use their own replicate streams (offsets 2 and 3 x OUT_OFFSET) that do
    not depend on the block, so every block of a sweep point scores along the same direction
    and the scored runs stay independent of the choice of direction.
    """
    p_in = np.asarray(alg(obj, d_in, reps=pilot, seed=seed, first_replicate=2 * OUT_OFFSET,
                          **common).w)
    p_out = np.asarray(alg(obj, d_out, reps=pilot, seed=seed, first_replicate=3 * OUT_OFFSET,
                           **common).w)
    diff = p_in.mean(axis=0) - p_out.mean(axis=0)
    cov = 0.5 * (np.cov(p_in, rowvar=False) + np.cov(p_out, rowvar=False))
    cov = np.atleast_2d(cov)
    ridge = 1e-6 * (np.trace(cov) / cov.shape[0] + 1e-300)
    try:
        v = np.linalg.solve(cov + ridge * np.eye(cov.shape[0]), diff)
    except np.linalg.LinAlgError:
        v = diff
    nv = np.linalg.norm(v)
    if not np.isfinite(nv) or nv == 0:
        return fallback
    return v / nv


# ------------------------------------------------------------------------ recipes
#: what the membership adversary of :func:`audit_cell` sees
ADVERSARY = ("the final iterate only, projected on the canary's gradient direction "
             "(replace-one canary pair, start point w0 = 0)")
ADVERSARY_OUTPUT = ("the released output w_T + z only, projected on the exact shift "
                    "w_T(D_in) - w_T(D_out) (the likelihood-ratio score of a Gaussian output "
                    "release; replace-one pair of the largest attained shift)")

QUICK_RUNS, QUICK_BLOCK = 8000, 8000
#: runs per neighbour of a quick transcript audit: its likelihood-ratio score is Gaussian, so
#: the ideal power is its power; 16000 runs detect 1.69 x the claim at eps = 1, delta = 1e-3
#: (8000: 1.92 x, too close to the twin's POWER_FACTOR = 2)
TRANSCRIPT_RUNS = 16000
FULL_RUNS, FULL_BLOCK = 16384, 4096
PILOT_RUNS = 0             # > 0: score along a discriminant direction fitted on pilot runs
#: the claim audited by default, inside each theorem's stated range: (eps, delta); a paper's
#: module gives another where its theorem's range excludes this one (``claims``)
CLAIM = (1.0, 1e-3)


def _privacy_item(alg_id: str) -> str:
    from dptheory_simulations.algorithms import get as get_alg
    alg = get_alg(alg_id)
    return alg.privacy_theorem or alg.theorem or alg_id


def audit_recipes(setups: dict[str, dict[str, Any]],
                  claims: dict[str, tuple[float, float]] | None = None) -> list[Recipe]:
    """The two audit recipes (quick and full) of every algorithm of a paper.

    ``setups`` maps an algorithm id to its audit setup: ``obj`` (family, parameters), ``n``,
    the ``quick`` and ``full`` parameters and ``noise`` (the name of the noise parameter the
    planted twin scales); ``claims`` maps an algorithm id to the (eps, delta) audited where
    it is not :data:`CLAIM`. A setup with ``transcript=True`` is audited on its transcript
    (:mod:`.transcripts`: every noisy release, likelihood-ratio score) with
    ``TRANSCRIPT_RUNS`` runs per neighbour in the quick recipe. A setup's
    ``constants_note`` says why the audit's claim does not depend on the scale of the loss's
    constants (issue 22; :class:`~dptheory.verify.recipe.Recipe`).
    """
    out = []
    for alg_id, s in setups.items():
        item = _privacy_item(alg_id)
        obj, op = s["obj"]
        eps, delta = (claims or {}).get(alg_id, CLAIM)
        base = {"algorithm": alg_id, "objective": obj, "objective_params": op,
                "eps": eps, "delta": delta, "data_seed": 0, "noise_param": s["noise"],
                **({"release": s["release"]} if "release" in s else {}),
                **({"transcript": True} if s.get("transcript") else {})}
        quick_runs = TRANSCRIPT_RUNS if s.get("transcript") else QUICK_RUNS
        out.append(Recipe(
            id=f"{item}:audit-quick-{alg_id}", item=item, check="audit",
            cell=f"{__name__}:audit_cell",
            sweep={"calibration": ["paper", "twin"]},
            fixed={**base, "n": s["n"], "params": s["quick"]}, reps=quick_runs,
            block=quick_runs, metric="epsilon lower bound",
            description=f"many-runs membership audit of {alg_id} at eps = {eps:g}, delta = "
                        f"{delta:g} (quick: {quick_runs} runs per neighbour, replace-one "
                        "worst-case canary, planted twin at twice the claim"
                        + ("; transcript audit" if s.get("transcript") else "") + ")",
            quick=True, constants_note=s.get("constants_note", "")))
        out.append(Recipe(
            id=f"{item}:audit-{alg_id}", item=item, check="audit",
            cell=f"{__name__}:audit_cell",
            sweep={"calibration": ["paper", "tight", "twin"]},
            fixed={**base, "n": s["n"], "params": s["full"]}, reps=FULL_RUNS,
            block=FULL_BLOCK, reps_full=FULL_RUNS, metric="epsilon lower bound",
            description=f"many-runs membership audit of {alg_id} ({FULL_RUNS} runs per "
                        "neighbour)", quick=False, constants_note=s.get("constants_note", "")))
    return out


# ------------------------------------------------------------------------ planted bugs
BUGS = {
    "noise/3": "noise std divided by 3 (below the calibration)",
    "no-clip": "per-sample clipping removed, noise still calibrated to the clip norm C",
    "add-remove": "sensitivity computed for add/remove-one (C/B) where the relation is "
                  "replace-one (2C/B): noise halved",
}
SELFTEST_RUNS = 20000
SELFTEST = {"algorithm": "zhang2021.dpsgd-const", "objective": "robust-regression",
            "objective_params": {"d": 3}, "n": 20, "eps": 2.0, "delta": 1e-3,
            "params": {"T": 1, "B": 20, "eta": 1.0, "clip": 0.1}, "noise_param": "pi",
            "data_seed": 0, "point": {"calibration": "tight"}}


def selftest_cells(runs: int = SELFTEST_RUNS, seed: int = 0) -> list[dict[str, Any]]:
    """The control (correct algorithm) and one cell per planted bug."""
    cells = []
    for bug in (None, *BUGS):
        cells.append({**SELFTEST, "recipe": f"selftest:{bug or 'control'}", "bug": bug,
                      "reps": int(runs), "seed": int(seed), "first_replicate": 0, "block": 0})
    return cells


class PluginDPSGD:
    """A plug-in written to the contract of :class:`dptheory.verify.audit.PrivacyClaim`, for
    the self-test: full-batch DP-SGD with per-record clipping at C = 1, T = 20 Gaussian
    steps, every iterate released, replace-one neighbours, claim eps = 2, delta = 1e-5.

    The loss is linear in w, so every record's clipped gradient is the same at every w (a
    gradient canary, Nasr et al. 2023) and the canary pair (+-10^6 e1) differs by exactly 2C
    at every step: the release is a Gaussian mechanism with mu = sqrt(T) 2C / std.
    ``noise_factor`` multiplies the noise the claim needs (0.6: the first bug);
    ``sensitivity`` is the sensitivity the noise is calibrated to (C instead of 2C: the
    second bug); ``declare`` adds the intended event (noise for 2C) to the claim.
    """

    private = True
    T, D, N, C, ETA, EPS, DELTA = 20, 2, 10, 1.0, 0.1, 2.0, 1e-5

    def __init__(self, id_: str, noise_factor: float = 1.0, sensitivity: float = 2.0,
                 declare: bool = False) -> None:
        from dptheory.verify.audit import gdp_mu
        self.id = id_
        self.z = math.sqrt(self.T) / gdp_mu(self.EPS, self.DELTA)   # multiplier for (2, 1e-5)
        self.std = noise_factor * self.z * sensitivity * self.C
        self.declare = declare
        self.x0 = np.random.default_rng(3).uniform(-5.0, 5.0, (self.N - 1, self.D))

    def _run(self, canary: np.ndarray, runs: int, seed: int, first: int,
             noise_scale: float) -> np.ndarray:
        g = -np.vstack([self.x0, canary])                   # grad of -<w, x>
        g = g * np.minimum(1.0, self.C / np.linalg.norm(g, axis=1, keepdims=True))
        z = np.empty((runs, self.T, self.D))
        for i in range(runs):                               # replicate i: (seed, first + i)
            z[i] = np.random.default_rng([seed, first + i]).standard_normal((self.T, self.D))
        steps = -self.ETA * (g.sum(axis=0) + self.std * noise_scale * z)
        return np.cumsum(steps, axis=1).reshape(runs, self.T * self.D)

    def privacy_claim(self) -> Any:
        """The claim (eps = 2, delta = 1e-5, replace-one), with the intended event if
        ``declare``."""
        from dptheory.privacy import GaussianEvent, SelfComposedEvent
        from dptheory.verify.audit import PrivacyClaim
        e1 = np.array([1e6, 0.0])

        def run_pair(runs: int, seed: int, first: int, noise_scale: float = 1.0):
            return (self._run(e1, runs, seed, first, noise_scale),
                    self._run(-e1, runs, seed, first + 10 ** 9, noise_scale))
        event = SelfComposedEvent(GaussianEvent(self.z), self.T) if self.declare else None
        return PrivacyClaim(self.EPS, self.DELTA, "replace-one", run_pair, event=event)


#: the plug-in self-test: (name, description, plug-in); the control must not be flagged
PLUGIN_BUGS = (
    ("plugin:control", "plug-in DP-SGD, correct, intended event declared (must not be "
     "flagged)", dict(declare=True)),
    ("plugin:0.6x", "plug-in DP-SGD, noise 0.6 x what eps = 2 needs (true eps 3.56), no event",
     dict(noise_factor=0.6)),
    ("plugin:C-for-2C", "plug-in DP-SGD, noise for sensitivity C where replace-one needs 2C "
     "(true eps 4.39), no event", dict(sensitivity=1.0)),
)


def selftest(runs: int = SELFTEST_RUNS, seed: int = 0) -> list[dict[str, Any]]:
    """Run the planted-bug self-test: each bug must be detected, the control must not be.

    The built-in rows audit ``zhang2021.dpsgd-const`` with ``runs`` runs per side; the
    plug-in rows (:data:`PLUGIN_BUGS`) audit :class:`PluginDPSGD` through
    :func:`dptheory.verify.audit.audit_plugin` at its default stages (``runs`` does not
    apply to them)."""
    from dptheory.verify.audit import audit_summary
    out = []
    for cell in selftest_cells(runs, seed):
        res = audit_cell(cell)
        s = audit_summary(res)
        bug = cell["bug"]
        flagged = s["verdict"] == "refuted"
        out.append({"bug": bug or "control", "description": BUGS.get(bug, "correct algorithm "
                    "(must not be flagged)"), "algorithm": cell["algorithm"],
                    "epsilon_claimed": s["epsilon_claimed"], "epsilon_lower": s["epsilon_lower"],
                    "epsilon_tight": s["epsilon_tight"], "delta": s["delta"], "runs": runs,
                    "verdict": s["verdict"], "detected": flagged,
                    "ok": flagged if bug else not flagged})
    from dptheory.verify.audit import audit_plugin
    for name, text, kw in PLUGIN_BUGS:
        s = audit_plugin(PluginDPSGD(name, **kw), seed=seed)
        flagged = s["verdict"] == "refuted"
        control = name.endswith("control")
        out.append({"bug": name, "description": text, "algorithm": name,
                    "epsilon_claimed": s["epsilon_claimed"], "epsilon_lower": s["epsilon_lower"],
                    "epsilon_tight": s["epsilon_tight"], "delta": s["delta"],
                    "runs": s["runs"][0], "verdict": s["verdict"], "detected": flagged,
                    # the control must be supported: not flagged, and its twin caught
                    "ok": s["verdict"] == "supported" if control else flagged})
    return out
