"""The ``dptheory objectives`` command."""

from __future__ import annotations

import json

import pytest

from dptheory import cli
from dptheory.cli import objectives as cmd
from dptheory_simulations.objectives import FAMILIES


def _run(argv):
    parser = cli._Parser(prog="dptheory")
    sub = parser.add_subparsers(dest="command", parser_class=cli._Parser)
    cmd.register(sub)
    args = parser.parse_args(argv)
    return args.handler(args)


def test_lists_every_family_with_assumptions():
    data, text = _run(["objectives"])
    assert sorted(e["name"] for e in data) == sorted(FAMILIES)
    for entry in data:
        assert {"name", "assumptions", "params", "n", "seed"} <= set(entry)
        assert entry["assumptions"]
        for a in entry["assumptions"]:
            assert {"name", "constants", "scope", "note"} <= set(a)
        assert entry["name"] in text
    json.dumps(data)


def test_single_family_with_certification():
    data, text = _run(["objectives", "--name", "robust-regression", "--certify",
                       "--samples", "16"])
    assert len(data) == 1 and data[0]["certification"]["certified"]
    assert "CERTIFIED" in text


def test_unknown_family_is_a_value_error():
    with pytest.raises(ValueError, match="unknown objective"):
        _run(["objectives", "--name", "nope"])


@pytest.mark.skipif("objectives" not in cli.COMMAND_MODULES,
                    reason="the lead registers the command in COMMAND_MODULES")
def test_main_json(capsys):
    assert cli.main(["objectives", "--json"]) == 0
    out = json.loads(capsys.readouterr().out)
    assert {e["name"] for e in out} == set(FAMILIES)
    assert cli.main(["objectives", "--name", "nope"]) == 2
