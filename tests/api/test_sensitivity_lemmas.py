"""Sensitivity lemmas as catalog objects (issue 12, item 2): each is a SymPy bound with its
neighbouring relation, and the sensitivity checks read them instead of hard-coded floats.
Expected values are the papers' formulas evaluated by hand."""

import math

import pytest

from dptheory import catalog

CASES = [  # (key, values, value by hand)
    ("zhang2017.lemma2:gd", {"G": 1.5, "T": 10, "eta": 0.1, "n": 50}, 3 * 1.5 * 10 * 0.1 / 50),
    ("zhang2017.lemma3:gd", {"G": 1.0, "mu": 0.1, "beta": 0.35, "n": 50},
     5 * (0.1 + 0.35) / (50 * 0.1 * 0.35)),
    ("zhang2017.thm4:step", {"G": 2.0}, 4.0),
    ("wang2020.thm1:grad", {"G": 1.0, "n": 50}, 2 / 50),
    ("wang2020.thm1:hess", {"beta": 0.25, "d": 5, "n": 50}, 2 * math.sqrt(5) * 0.25 / 50),
    ("yang2022.lemma3.1:clip", {"C": 0.3}, 0.6),
    ("yang2022.lemma3.1:normalize", {}, 2.0),
    ("zhang2021.thm3.1:minibatch", {"G": 1.2, "B": 8}, 2 * 1.2 / 8),
    ("tran2022.thm4:node", {"alpha_m": 0.125, "G": 1.0}, 0.5),
    # Prop. 13 as printed: node [1, 16], N = 8: ceil(15/8) = 2 terms, 2 a G (1 + (1-a)^8)
    ("tran2022.prop13:node", {"yI": 1, "zI": 16, "n": 8, "alpha_m": 0.125, "G": 1.0},
     2 * 0.125 * (1 + (1 - 0.125) ** 8)),
    # a leaf [3, 3]: ceil(0/8) - 1 = -1, an empty sum: the printed formula gives 0
    ("tran2022.prop13:node", {"yI": 3, "zI": 3, "n": 8, "alpha_m": 0.125, "G": 1.0}, 0.0),
]


@pytest.mark.parametrize("key,values,expected", CASES)
def test_sensitivity_values(key, values, expected):
    s = catalog.sensitivities()[key]
    assert s.relation == "replace-one"
    item_id, name = key.split(":")
    assert math.isclose(catalog.get(item_id).value_at(name, values), expected,
                        rel_tol=1e-12, abs_tol=1e-15)


def test_checks_read_the_catalog():
    from dptheory_simulations.experiments import yang2022
    from dptheory_simulations.objectives import get as get_objective
    obj = get_objective("robust-regression", d=3)
    data = obj.make_data(16, 0)
    # the per-step bounds are the catalog's (values by hand: 2C, 2)
    assert yang2022.per_step_bound("clip", obj, data, {"C": 0.25}, None) == 0.5
    assert yang2022.per_step_bound("normalize", obj, data, {}, None) == 2.0


def test_missing_value_is_named():
    with pytest.raises(ValueError, match="needs values for"):
        catalog.get("yang2022.lemma3.1").value_at("clip")
