"""Privacy accounting: Gaussian mechanism, RDP (plain, Poisson- and fixed-size-subsampled),
conversions to (eps, delta), composition/amplification lemmas, calibration, and the
two-sided (certified lower and upper) epsilon of :mod:`dptheory.privacy.tight`.

What belongs here: numeric privacy accounting for any mechanism, in formulas of the
literature (each function cites its source). It may import NumPy, SciPy, dp-accounting and
dptheory's foundations (``errors``, ``vocabulary``); nothing of ``symbolic``, ``catalog``,
``registry``, ``verify`` or ``cli``, so it stays usable on its own.
"""

from dptheory.privacy.calibrate import (get_epsilon, get_epsilon_and_order, get_epsilon_interval,
                                        get_noise_multiplier, resolve_steps)
from dptheory.privacy.composition import (advanced_composition_dwork_roth, amplify_tight,
                                          amplify_wang2020, amplify_zhang2017,
                                          wang2020_per_step,
                                          zhang2017_strong_composition_printed)
from dptheory.privacy.conversions import (eps_from_rdp, eps_from_rdp_improved,
                                          eps_from_rdp_mironov, gaussian_zcdp, wang2020_phi,
                                          zcdp_to_dp)
from dptheory.privacy.events import (ComposedEvent, GaussianEvent, SampledEvent,
                                     SelfComposedEvent, rdp_of, to_dp_accounting)
from dptheory.privacy.gaussian import (analytic_gaussian_sigma, classic_gaussian_sigma,
                                       gaussian_delta, gaussian_epsilon, gaussian_log_delta)
from dptheory.privacy.tight import (EpsilonInterval, TightAccountingError, epsilon_interval,
                                   epsilon_upper)
from dptheory.privacy.rdp import (DEFAULT_ORDERS, compose_rdp, rdp_fixed_size_gaussian,
                                  rdp_gaussian, rdp_poisson_gaussian,
                                  rdp_poisson_gaussian_reference)

__all__ = [
    "get_epsilon", "get_epsilon_and_order", "get_epsilon_interval", "get_noise_multiplier",
    "resolve_steps", "EpsilonInterval", "TightAccountingError", "epsilon_interval",
    "epsilon_upper",
    "advanced_composition_dwork_roth", "amplify_tight", "amplify_wang2020",
    "amplify_zhang2017", "wang2020_per_step", "zhang2017_strong_composition_printed",
    "eps_from_rdp", "eps_from_rdp_improved", "eps_from_rdp_mironov", "gaussian_zcdp",
    "wang2020_phi", "zcdp_to_dp",
    "ComposedEvent", "GaussianEvent", "SampledEvent", "SelfComposedEvent", "rdp_of",
    "to_dp_accounting",
    "analytic_gaussian_sigma", "classic_gaussian_sigma", "gaussian_delta", "gaussian_epsilon",
    "gaussian_log_delta",
    "DEFAULT_ORDERS", "compose_rdp", "rdp_fixed_size_gaussian", "rdp_gaussian",
    "rdp_poisson_gaussian", "rdp_poisson_gaussian_reference",
]
