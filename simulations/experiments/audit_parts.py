"""Parts shared by the audit engines (:mod:`.audits`, final-iterate and output audits;
:mod:`.transcripts`, transcript audits): candidate canaries, the accountant keys of a cell,
the calibration and open-constant bookkeeping. Imports neither engine, so the two do not
import each other in a circle."""

from __future__ import annotations

import math
from typing import Any

import numpy as np

_NOISE_KEYS = {"pi": ("pi",), "sigma": ("sigma",), "noise_scale": ("s", "laplace_scale")}

def _clip_rows(g: np.ndarray, C: float | None) -> np.ndarray:
    if C is None or not np.isfinite(C):
        return g
    nrm = np.linalg.norm(g, axis=-1, keepdims=True)
    return g * np.minimum(1.0, C / np.maximum(nrm, 1e-300))


def candidate_records(objective: Any, data: Any, seed: int, k: int = 24) -> tuple[np.ndarray, np.ndarray]:
    """Candidate canaries (X, y) within the data's feature-norm bound and label range."""
    d = data.d
    rmax = float(np.max(np.linalg.norm(data.X, axis=1)))
    # as many fresh rows as the family allows (pl-nonconvex needs n <= d)
    fresh = objective.make_data(min(k, data.n), np.random.default_rng(seed + 7919))
    dirs = [fresh.X, np.eye(d), -np.eye(d)]
    Xc = np.concatenate(dirs)
    nrm = np.linalg.norm(Xc, axis=1, keepdims=True)
    Xc = rmax * Xc / np.maximum(nrm, 1e-300)
    ys = np.unique(np.concatenate([data.y, fresh.y]))
    if ys.size <= 3:                       # labels: keep them as they are
        yc = ys
    else:
        Y = float(np.max(np.abs(ys)))
        yc = np.unique(np.concatenate([np.linspace(-Y, Y, 9), [math.sqrt(2), -math.sqrt(2)]]))
        yc = yc[(yc >= ys.min() - 1e-12) & (yc <= ys.max() + 1e-12)] if ys.min() >= 0 else yc
    X = np.repeat(Xc, yc.size, axis=0)
    y = np.tile(yc, Xc.shape[0])
    return X, y

def _calibration(cell: dict[str, Any]) -> str:
    return cell.get("point", {}).get("calibration", cell.get("calibration", "paper"))

def accountant_keys(priv: dict[str, Any]) -> dict[str, Any]:
    """The privacy keys of an audit cell from a run's ``privacy``: the tight and paper eps
    and the two-sided accountant's interval on the noise actually used (None when it
    failed)."""
    return {"epsilon_tight": float(priv["tight"]["epsilon"]),
            "epsilon_paper": _num(priv.get("paper", {}).get("epsilon")),
            "epsilon_lower_certified": _num(priv["tight"].get("epsilon_lower")),
            "epsilon_upper_certified": _num(priv["tight"].get("epsilon_upper")),
            "interval_method": priv["tight"].get("interval_method",
                                                 priv["tight"].get("interval_error"))}

def differing_params(a: dict, b: dict) -> list[str]:
    """Numeric entries of two parameter dicts that differ (relative 1e-9)."""
    out = []
    for k in sorted(set(a) & set(b)):
        x, y = a[k], b[k]
        if isinstance(x, (bool, np.bool_)) or isinstance(y, (bool, np.bool_)):
            continue
        if isinstance(x, (int, float, np.integer, np.floating)) and \
                isinstance(y, (int, float, np.integer, np.floating)):
            fx, fy = float(x), float(y)
            if math.isfinite(fx) and math.isfinite(fy) and \
                    not math.isclose(fx, fy, rel_tol=1e-9, abs_tol=1e-300):
                out.append(k)
    return out


def _num(x: Any) -> float | None:
    try:
        v = float(x)
    except (TypeError, ValueError):
        return None
    return v if math.isfinite(v) else None


def _close(a: dict, b: dict) -> bool:
    try:
        return all(math.isclose(float(a[k]["epsilon"]), float(b[k]["epsilon"]), rel_tol=1e-9)
                   for k in a if "epsilon" in a[k])
    except (KeyError, TypeError, ValueError):
        return False

#: algorithms whose paper states its privacy noise up to an absolute constant it does not
#: give (an existence claim): run parameter names of the constant dptheory chooses
OPEN_CONSTANTS = {**{a: ("c2",) for a in (
    "zhang2021.alg1", "zhang2021.alg2", "zhang2021.dpages", "zhang2021.dpsgd-const",
    "zhang2021.dpsgd-c-t", "zhang2021.dpsgd-c-sqrt-t", "zhang2021.dpsgdm-const",
    "zhang2021.dpsgdem-const")}, "yang2022.alg1": ("c2",), "yang2022.dpsgd": ("c2",)}


def _open_choice(cell: dict[str, Any]) -> str:
    """How dptheory chose the open constant of ``cell``'s algorithm: given in the audit's
    parameters, or the simulators' default (zhang2021 ``_calibrate``, yang2022 ``c2="tight"``):
    the smallest value at which the tight accountant certifies the claimed (eps, delta) at the
    run's (n, B, T)."""
    given = [k for k in OPEN_CONSTANTS.get(cell["algorithm"], ())
             if isinstance(cell.get("params", {}).get(k), (int, float))]
    if given:
        return "as given in the audit's parameters"
    return ("the smallest value at which dptheory's tight accountant certifies the claimed "
            "(eps, delta) at this n, B, T")
