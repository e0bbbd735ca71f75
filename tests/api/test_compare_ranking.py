"""compare of more than two items, and the one resolution of names shared by the API's
``at=`` and the CLI's ``--set`` (issue 24, item 4).

Expected orders come from the stated rates written out by hand here, their pairwise
crossovers found by scipy's brentq and direct evaluation, never from dptheory's compare.
"""

import itertools
import json
import math

import numpy as np
import pytest
from scipy.optimize import brentq

import dptheory
from dptheory.cli import main
from dptheory.symbolic.compare import Ranking

D, EPS, DELTA = 100.0, 1.0, 1e-5
RATES = {
    # tran2022 Theorem 9: O~(d^(1/3)/(eps N)^(2/3) + 1/sqrt(N))
    "tran2022.thm9": lambda n: D ** (1 / 3) / (EPS * n) ** (2 / 3) + n ** -0.5,
    # tran2022 Theorem 6: O~(d^(1/4)/sqrt(eps N) + 1/sqrt(N))
    "tran2022.thm6": lambda n: D ** 0.25 / math.sqrt(EPS * n) + n ** -0.5,
    # wang2020 Remark 1: O((p sqrt(log(1/delta))/(n eps))^(4/7))
    "wang2020.remark1": lambda n: (D * math.sqrt(math.log(1 / DELTA)) / (n * EPS)) ** (4 / 7),
}


def direct_crossovers():
    out = []
    for a, b in itertools.combinations(RATES, 2):
        g = lambda t: math.log(RATES[a](math.exp(t))) - math.log(RATES[b](math.exp(t)))
        ts = np.linspace(0, math.log(1e40), 4001)          # n from 1 to 1e40
        out += [math.exp(brentq(g, ts[i], ts[i + 1], xtol=1e-14))
                for i in range(len(ts) - 1) if g(ts[i]) * g(ts[i + 1]) < 0]
    return sorted(out)


def direct_order(n):
    return sorted(RATES, key=lambda k: RATES[k](n))


def test_three_items_ranked_on_every_interval(capsys):
    assert main(["compare", *RATES, "--set", "d=100", "eps=1", "delta=1e-5", "--json"]) == 0
    data = json.loads(capsys.readouterr().out)
    cuts = direct_crossovers()
    assert len(cuts) == 3                      # 10, 3.75e11, 1.71e20 by hand and brentq
    edges = [x for r in data["order"] for x in r["interval"]][1:-1:2]
    assert len(edges) == len(cuts)
    for got, want in zip(edges, cuts):
        assert math.isclose(got, want, rel_tol=1e-9)
    for r in data["order"]:
        x0, x1 = r["interval"]
        for n in np.geomspace(x0 * 1.001, min(x1, 1e40) / 1.001, 7):
            assert r["order"] == direct_order(n), (r, n)
    # as n grows: wang2020.remark1 (exponent -4/7) before the two n^(-1/2) rates
    assert data["asymptotic"] == [["wang2020.remark1"], ["tran2022.thm9", "tran2022.thm6"]]
    assert len(data["pairwise"]) == 3


def test_the_api_ranks_too():
    r = dptheory.compare(*RATES, at={"d": 100, "eps": 1, "delta": 1e-5})
    assert isinstance(r, Ranking)
    assert [o["order"] for o in r.order][0] == direct_order(2.0)
    assert "wang2020.remark1 < {tran2022.thm9, tran2022.thm6} (same exponent)" in str(r)


BAD = [
    # (ids, values): the same input through the API and the CLI
    (["tran2022.thm9", "zhang2021.thm3.2"], {"L": "1"}),      # beta in one, G in the other
    (["tran2022.thm9", "tran2022.thm6"], {"zz": "3"}),        # unknown
    (["tran2022.thm9", "tran2022.thm6"], {"d": "-5"}),        # not > 0
    (["tran2022.thm9", "tran2022.thm6"], {"d": "abc"}),       # not a number
    (["tran2022.thm9", "tran2022.thm6"], {"d": "2.5"}),       # d is an integer
    (["tran2022.thm9", "tran2022.thm6"], {"eps": "inf"}),     # not finite
]


@pytest.mark.parametrize("ids, values", BAD)
def test_same_errors_in_the_api_and_the_cli(capsys, ids, values):
    with pytest.raises(ValueError) as exc:
        dptheory.compare(*ids, at=values)
    api = str(exc.value)
    assert main(["compare", *ids, "--set", *[f"{k}={v}" for k, v in values.items()]]) == 2
    cli = capsys.readouterr().err.strip()
    assert len(cli.splitlines()) == 1
    assert api.startswith("at: ") and cli.startswith("dptheory compare: error: --set: ")
    assert api[len("at: "):] == cli[len("dptheory compare: error: --set: "):]


def test_ambiguous_letter_is_named_with_its_meanings():
    with pytest.raises(ValueError, match=r"'L' means different things in the compared items "
                                         r"\(beta in tran2022.thm9; G in zhang2021.thm3.2\)"):
        dptheory.compare("tran2022.thm9", "zhang2021.thm3.2", at={"L": 1})


def test_a_letter_both_items_print_alike_is_accepted_and_an_unused_value_is_reported(capsys):
    # tran2022 prints L for the smoothness beta in both theorems; neither stated rate has it
    c = dptheory.compare("tran2022.thm9", "tran2022.thm6", at={"L": 1, "d": 100, "eps": 1})
    note = "beta = 1 occurs in none of the compared rates: it has no effect"
    assert note in c.warnings
    assert main(["compare", "tran2022.thm9", "tran2022.thm6", "--set", "L=1", "d=100",
                 "eps=1", "--json"]) == 0
    assert note in json.loads(capsys.readouterr().out)["warnings"]
    # N is tran2022's n: resolved, and refused as both vary and a value
    with pytest.raises(ValueError, match="vary n is also given a value"):
        dptheory.compare("tran2022.thm9", "tran2022.thm6", at={"N": 100})


@pytest.mark.parametrize("argv, needle", [
    (["compare", "tran2022.thm9"], "two or more ids"),
    (["compare", "tran2022.thm9", "tran2022.thm9"], "named twice"),
    (["compare", "tran2022.thm9", "tran2022.thm6", "wang2020.remark1", "--map", "x.png"],
     "exactly two ids"),
])
def test_cli_item_count_errors(capsys, argv, needle):
    assert main(argv) == 2
    assert needle in capsys.readouterr().err
