"""Property-testing a sensitivity claim: "the clipped mean moves by at most 2C/B".

The replace-one sensitivity of the mean of B per-record vectors clipped to norm C is 2C/B
(yang2022 Lemma 3.1 states 2C for the clipped *sum*; zhang2021 Theorem 3.1 uses 2G/B for an
averaged minibatch). Three ways to test it:

1. :func:`dptheory.check_sensitivity` with the catalog's own claim (``"yang2022.lemma3.1:clip"``,
   a SymPy expression with its neighbouring relation) on the clipped sum;
2. the same on the clipped mean with a claim written here, 2C/B, and a planted wrong claim,
   C/B, which the search must refute (the power of the test, shown rather than asserted);
3. a plain Hypothesis property test on :func:`dptheory.testing.neighbouring_datasets`, the
   few lines a user's own pytest file needs (``pytest examples/sensitivity_property_test.py``
   collects it too).

Usage::

    python examples/sensitivity_property_test.py [--small]
"""

from __future__ import annotations

import argparse

import numpy as np
from hypothesis import given, settings

import dptheory
from dptheory import testing as dt

C = 0.5     # clipping threshold; records live in the unit ball, so clipping is active
B = 8       # records per (mini)batch


def clipped_sum(X: np.ndarray, y: np.ndarray) -> np.ndarray:
    """sum_i clip_C(x_i): each record rescaled to norm at most C (labels unused)."""
    norms = np.linalg.norm(X, axis=1, keepdims=True)
    return (X * np.minimum(1.0, C / np.maximum(norms, 1e-300))).sum(axis=0)


def clipped_mean(X: np.ndarray, y: np.ndarray) -> np.ndarray:
    """(1/B) sum_i clip_C(x_i)."""
    return clipped_sum(X, y) / len(X)


@settings(max_examples=50, database=None, deadline=None)
@given(dt.neighbouring_datasets(n=B, d=3))
def test_clipped_mean_sensitivity(pair):
    """||mean(D) - mean(D')|| <= 2C/B for every replace-one pair (a user's pytest test)."""
    (X, y), (Xp, yp) = pair
    change = np.linalg.norm(clipped_mean(X, y) - clipped_mean(Xp, yp))
    assert change <= 2 * C / B * (1 + 1e-12)


def main(argv: list[str] | None = None) -> dict:
    """Run the three tests, print the verdicts and return them."""
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0], allow_abbrev=False)
    parser.add_argument("--small", action="store_true", help="less search effort (seconds)")
    args = parser.parse_args(argv)
    effort = {"examples": 20, "datasets": 1} if args.small else {"examples": 200, "datasets": 4}

    lemma = dptheory.catalog.sensitivities()["yang2022.lemma3.1:clip"]
    print(f"catalog claim yang2022.lemma3.1:clip: {lemma.expr} under {lemma.relation} "
          f"({lemma.quantity})")
    on_sum = dptheory.check_sensitivity(clipped_sum, "yang2022.lemma3.1:clip",
                                        values={"C": C}, n=B, **effort)
    print(f"1. clipped sum vs 2C:      {on_sum.verdict}: {on_sum.summary}")

    claim = dptheory.Sensitivity(2 * dptheory.S.C / dptheory.S.B, "replace-one",
                                 "||mean clip_C(x_i) - mean clip_C(x'_i)||")
    on_mean = dptheory.check_sensitivity(clipped_mean, claim, values={"C": C, "B": B},
                                         n=B, **effort)
    print(f"2. clipped mean vs 2C/B:   {on_mean.verdict}: {on_mean.summary}")
    planted = dptheory.check_sensitivity(clipped_mean, C / B, n=B, **effort)
    worst = planted.evidence.get("worst_example", {})
    print(f"   planted claim C/B:      {planted.verdict}: {planted.summary}")
    if worst:
        print(f"   its counterexample: replace record {worst.get('index')} by "
              f"{np.round(np.asarray(worst.get('x', [])), 3).tolist()}")

    test_clipped_mean_sensitivity()      # raises (with the falsifying pair) if the claim fails
    print("3. Hypothesis property test on dptheory.testing.neighbouring_datasets: passed")
    return {"sum": on_sum.verdict, "mean": on_mean.verdict, "planted": planted.verdict}


if __name__ == "__main__":
    main()
