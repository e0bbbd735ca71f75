"""The Examples sections of the public API's docstrings run as doctests (in CI too)."""

import doctest
import importlib

import pytest

MODULES = ["dptheory", "dptheory.catalog", "dptheory.sweeps", "dptheory.sensitivity",
           "dptheory.testing", "dptheory.display", "dptheory.plotting",
           "dptheory.symbolic.compare", "dptheory.symbolic.theorem", "dptheory.symbolic.numeric",
           "dptheory.symbolic.symbols", "dptheory.verify.search",
           # moved out of dptheory.catalog and dptheory.symbolic.derive (issue 20)
           "dptheory.errors", "dptheory.symbolic.resolve", "dptheory.symbolic.asymptotics"]


@pytest.mark.parametrize("name", MODULES)
def test_doctests(name):
    module = importlib.import_module(name)
    result = doctest.testmod(module, optionflags=doctest.ELLIPSIS | doctest.NORMALIZE_WHITESPACE,
                             verbose=False)
    assert result.attempted > 0, f"{name} has no examples"
    assert result.failed == 0
