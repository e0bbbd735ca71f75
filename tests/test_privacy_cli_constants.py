"""The privacy CLI's option choices and the library's checks use one definition each, in
dptheory.vocabulary (plain constants: ``dptheory --help`` does not load the accountants)."""

import subprocess
import sys

from dptheory import testing, vocabulary
from dptheory.cli import privacy as cli
from dptheory.privacy import calibrate, tight


def test_one_definition_of_the_choices():
    assert cli.ACCOUNTANTS is calibrate.ACCOUNTANTS is vocabulary.ACCOUNTANTS
    assert cli.RELATIONS is tight.RELATIONS is testing.RELATIONS is vocabulary.RELATIONS
    assert set(vocabulary.RELATIONS) == {"replace-one", "add-remove"}


def test_help_does_not_load_the_accountants():
    code = ("import sys; from dptheory.cli import main\n"
            "for cmd in ('account', 'calibrate', 'routes'):\n"
            "    try:\n        main([cmd, '--help'])\n    except SystemExit as e:\n"
            "        assert e.code == 0, e.code\n"
            "print(sorted(m for m in ('numpy', 'dp_accounting', 'scipy') if m in sys.modules))")
    res = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True,
                         timeout=60)
    assert res.returncode == 0, res.stderr
    out = res.stdout.strip().splitlines()
    assert "--accountant {rdp,tight}" in res.stdout          # the choices reached --help
    assert out[-1] == "[]"
