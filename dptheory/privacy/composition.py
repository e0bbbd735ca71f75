"""(eps, delta) composition and subsampling amplification, as printed in the papers.

References
----------
* Dwork & Roth 2014, Theorem 3.20 (advanced composition): T-fold adaptive composition of
  (eps, delta)-DP mechanisms is (eps sqrt(2T ln(1/delta')) + T eps (e^eps - 1), T delta + delta')-DP.
* wang2020 Lemma 1 (quoting Dwork-Roth): per-mechanism (eps/(2 sqrt(2T ln(2/delta))), delta/(2T))
  suffices for (eps, delta) overall.
* zhang2017 Lemma 10 (quoting Dwork-Rothblum-Vadhan) *as printed*:
  eps' = sqrt(2 T log(1/delta') eps) + T eps (e^eps - 1)  (eps inside the square root).
* wang2020 Lemma 2 (Bassily et al. 2014): subsampling a fraction gamma gives (2 gamma eps, delta).
* zhang2017 Lemma 9 (Beimel et al.): subsampling a fraction alpha gives (2 alpha eps, alpha delta).
* Balle, Barthe, Gaboardi 2018, "Privacy amplification by subsampling: tight analyses via
  couplings and divergences": (log(1 + q(e^eps - 1)), q delta), tight.
"""

from __future__ import annotations

import math

import numpy as np

from dptheory.privacy.gaussian import _check_count, _check_positive, _check_rate, _check_unit_open

__all__ = [
    "advanced_composition_dwork_roth",
    "wang2020_per_step",
    "zhang2017_strong_composition_printed",
    "amplify_wang2020",
    "amplify_zhang2017",
    "amplify_tight",
]


def _check_delta0(name: str, value: float) -> float:
    value = float(value)
    if not (0 <= value < 1):
        raise ValueError(f"{name} must be in [0, 1), got {value!r}")
    return value


def _expm1(x: float) -> float:
    """e^x - 1, infinite where float64 overflows (x > ~709) instead of raising."""
    return math.expm1(x) if x < 709.0 else math.inf


def advanced_composition_dwork_roth(eps: float, T: int, delta_prime: float,
                                    delta: float = 0.0) -> tuple[float, float]:
    """Dwork & Roth Thm 3.20: (eps sqrt(2T ln(1/delta')) + T eps (e^eps - 1), T delta + delta')."""
    eps = _check_positive("eps", eps)
    T = _check_count("T", T)
    delta_prime = _check_unit_open("delta_prime", delta_prime)
    delta = _check_delta0("delta", delta)
    e = eps * math.sqrt(2 * T * math.log(1 / delta_prime)) + T * eps * _expm1(eps)
    return e, T * delta + delta_prime


def wang2020_per_step(eps: float, delta: float, T: int) -> tuple[float, float]:
    """wang2020 Lemma 1: per mechanism (eps/(2 sqrt(2T ln(2/delta))), delta/(2T))."""
    eps = _check_positive("eps", eps)
    delta = _check_unit_open("delta", delta)
    T = _check_count("T", T)
    return eps / (2 * math.sqrt(2 * T * math.log(2 / delta))), delta / (2 * T)


def zhang2017_strong_composition_printed(eps: float, T: int, delta_prime: float,
                                         delta: float = 0.0) -> tuple[float, float]:
    """zhang2017 Lemma 10 AS PRINTED: (sqrt(2 T log(1/delta') eps) + T eps (e^eps - 1), T delta + delta').

    The printed form has eps inside the square root; Dwork-Roth's theorem has it outside
    (see :func:`advanced_composition_dwork_roth`). Encoded literally on purpose.
    """
    eps = _check_positive("eps", eps)
    T = _check_count("T", T)
    delta_prime = _check_unit_open("delta_prime", delta_prime)
    delta = _check_delta0("delta", delta)
    e = math.sqrt(2 * T * math.log(1 / delta_prime) * eps) + T * eps * _expm1(eps)
    return e, T * delta + delta_prime


def amplify_wang2020(eps: float, delta: float, gamma: float) -> tuple[float, float]:
    """wang2020 Lemma 2 as printed: (2 gamma eps, delta)."""
    eps = _check_positive("eps", eps)
    delta = _check_delta0("delta", delta)
    gamma = _check_rate("gamma", gamma)
    return 2 * gamma * eps, delta


def amplify_zhang2017(eps: float, delta: float, alpha: float) -> tuple[float, float]:
    """zhang2017 Lemma 9 as printed: (2 alpha eps, alpha delta)."""
    eps = _check_positive("eps", eps)
    delta = _check_delta0("delta", delta)
    alpha = _check_rate("alpha", alpha)
    return 2 * alpha * eps, alpha * delta


def amplify_tight(eps: float, delta: float, q: float) -> tuple[float, float]:
    """Tight amplification (Balle, Barthe, Gaboardi 2018): (log(1 + q(e^eps - 1)), q delta)."""
    eps = _check_positive("eps", eps)
    delta = _check_delta0("delta", delta)
    q = _check_rate("q", q)
    if q == 1.0:
        return eps, delta
    # log(1 + q(e^eps - 1)) = log(q e^eps + (1 - q)), stable for every eps
    return float(np.logaddexp(math.log(q) + eps, math.log1p(-q))), q * delta
