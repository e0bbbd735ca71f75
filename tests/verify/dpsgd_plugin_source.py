"""Source of a third-party plug-in written to the README's contract ("Auditing your own
algorithm"): full-batch DP-SGD with per-record clipping at C, T = 20 Gaussian steps, every
iterate released, replace-one neighbours, claim eps = 2, delta = 1e-5; a correct version
and two realistic bugs, each with the intended event declared and with none.

The loss is linear in w (l(w; x) = -<w, x>): every record's gradient is the same at every
w, a *gradient canary* (Nasr et al. 2023), so the clipped gradients of the canary pair
(x_in = R e1, x_out = -R e1 with R >> C) differ by exactly 2C at every step and the release
is exactly a Gaussian mechanism: its true eps is the Gaussian curve's at
mu = sqrt(T) x (sensitivity actually bounded) / (noise std actually used).
"""

SOURCE = '''
import math
import numpy as np
from dptheory.privacy import GaussianEvent, SelfComposedEvent
from dptheory.verify.audit import PrivacyClaim

T, D, N, C, ETA, EPS, DELTA = 20, 2, 10, 1.0, 0.1, 2.0, 1e-5
MU_CLAIM = {mu_claim!r}          # the Gaussian-DP mu of (EPS, DELTA), computed by the test
Z = math.sqrt(T) / MU_CLAIM      # noise multiplier per step, relative to the sensitivity
X0 = np.random.default_rng(3).uniform(-5.0, 5.0, (N - 1, D))
X_IN, X_OUT = np.array([1e6, 0.0]), np.array([-1e6, 0.0])
BLOCK = 1024


def _noise(seed, first, runs):
    """Replicate r's noise depends only on (seed, r): blocks of BLOCK absolute replicates."""
    out = np.empty((runs, T, D))
    b0, b1 = first // BLOCK, (first + runs - 1) // BLOCK
    for b in range(b0, b1 + 1):
        z = np.random.default_rng([seed, b]).standard_normal((BLOCK, T, D))
        lo, hi = max(first, b * BLOCK), min(first + runs, (b + 1) * BLOCK)
        out[lo - first:hi - first] = z[lo - b * BLOCK:hi - b * BLOCK]
    return out


class DPSGD:
    private = True

    def __init__(self, id_, std, declare):
        self.id, self.std, self.declare = id_, std, declare

    def _run(self, data, runs, seed, first, noise_scale):
        g = -data                                           # grad of -<w, x>: constant in w
        g = g * np.minimum(1.0, C / np.linalg.norm(g, axis=1, keepdims=True))
        noise = self.std * noise_scale * _noise(seed, first, runs)
        steps = -ETA * (g.sum(axis=0) + noise)              # (runs, T, D)
        return np.cumsum(steps, axis=1).reshape(runs, T * D)   # every iterate w_1..w_T

    def privacy_claim(self):
        def run_pair(runs, seed, first, noise_scale=1.0):
            return (self._run(np.vstack([X0, X_IN]), runs, seed, first, noise_scale),
                    self._run(np.vstack([X0, X_OUT]), runs, seed, first + 10 ** 9,
                              noise_scale))
        # what the author meant: noise Z x (replace-one sensitivity 2C) per step
        event = SelfComposedEvent(GaussianEvent(Z), T) if self.declare else None
        return PrivacyClaim(EPS, DELTA, "replace-one", run_pair, event=event,
                            description="full-batch DP-SGD, 20 steps, every iterate")


ALGORITHMS = [
    DPSGD("mypkg.dpsgd", Z * 2 * C, True),
    DPSGD("mypkg.dpsgd-noevent", Z * 2 * C, False),
    DPSGD("mypkg.dpsgd-lownoise", 0.6 * Z * 2 * C, True),        # noise 0.6x the claim's
    DPSGD("mypkg.dpsgd-lownoise-noevent", 0.6 * Z * 2 * C, False),
    DPSGD("mypkg.dpsgd-addremove", Z * C, True),                # sensitivity C, not 2C
    DPSGD("mypkg.dpsgd-addremove-noevent", Z * C, False),
]
'''
