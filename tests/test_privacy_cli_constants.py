"""The privacy CLI keeps its option choices as literals (so ``dptheory --help`` does not load
the accountants); they must equal the library's."""

from dptheory.cli import privacy as cli
from dptheory.privacy.calibrate import ACCOUNTANTS
from dptheory.privacy.tight import RELATIONS


def test_cli_choices_mirror_the_library():
    assert cli.ACCOUNTANTS == ACCOUNTANTS
    assert cli.RELATIONS == RELATIONS
