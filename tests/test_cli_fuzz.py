"""Fuzz every subcommand: exit code 0 or 2, never a traceback, strict JSON on success.

Hypothesis builds command lines from each command's options with values at the float
limits, negative and huge integers, empty and unicode strings and bad paths, and runs
them in-process through :func:`dptheory.cli.main`. An exception escaping ``main`` or an
exit code other than 0 and 2 (1 is an internal error) fails the test with the command line.

``DPTHEORY_FUZZ_EXAMPLES`` sets the examples per command (default 6, a few tens of seconds
in all); ``DPTHEORY_FUZZ_REPORT=FILE`` writes the outcome counts per command to FILE (run
without ``-n`` for one file). Slow paths are bounded, not skipped: ``run`` always gets a
small ``--max-steps``, ``account`` a small ``--max-memory``, ``verify`` an ``--only``,
``findings`` ``--no-checks --only ...`` and ``table`` a ``--measure`` (each of these a
minute over the whole catalog), and ``derive --all`` / ``audit --selftest`` are left to
their own tests.
"""

from __future__ import annotations

import json
import os
from collections import Counter, defaultdict
from pathlib import Path

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from dptheory import registry
from dptheory.cli import main

EXAMPLES = int(os.environ.get("DPTHEORY_FUZZ_EXAMPLES", "6"))
OUTCOMES: dict[str, Counter] = defaultdict(Counter)

FLOAT_EDGES = ["0", "-0", "-1", "1e308", "-1e308", "1.7976931348623157e308", "5e-324", "1e-300",
               "4e6", "4e-6", "1e6", "nan", "inf", "-inf", "1e9", "0.5", "1", "2"]
INT_EDGES = ["0", "-1", "1", "2", str(2 ** 63), str(-(2 ** 63)), "10", "100000000", "1e3", "x"]
# absolute paths only where nothing can be created (verify --out makes directories)
BAD_PATHS = ["", "/dev/null/x.png", "/dev/null", "/dev/full", "/proc/x.png",
             ".", "dir-that-is-missing/x.sqlite", "ünïcødé/π.png", "a\x00b"]

# plausible values half of the time, so that commands get past parsing and validation
numbers = st.one_of(st.sampled_from(FLOAT_EDGES),
                    st.floats(allow_nan=True, allow_infinity=True).map(repr),
                    st.integers(-10 ** 30, 10 ** 30).map(str),
                    st.floats(1e-7, 10.0).map(repr), st.floats(1e-7, 10.0).map(repr),
                    st.floats(1e-7, 10.0).map(repr))
rates = st.one_of(st.floats(1e-6, 1.0).map(repr), numbers)
deltas = st.one_of(st.floats(1e-12, 0.5).map(repr), numbers)
ints = st.one_of(st.sampled_from(INT_EDGES), st.integers(-10 ** 20, 10 ** 20).map(str))
small_ints = st.integers(-3, 200).map(str)
# (algorithm, objective) pairs whose assumptions match, so that runs actually start
RUNNABLE = [("zhang2017.alg1", "logistic-ridge"), ("tran2022.alg1", "robust-regression"),
            ("yang2022.alg1", "cosh-generalized-smooth"), ("zhang2021.alg1", "pl-nonconvex"),
            ("wang2020.alg1", "logistic-nonconvex-reg"), ("zhang2017.alg2", "huber-ridge")]
texts = st.one_of(st.text(max_size=12), st.sampled_from(["", "é", "∞", "-", "--", "—x", "💥"]))
paths = st.one_of(st.sampled_from(BAD_PATHS), st.text(min_size=1, max_size=8))


def _ids() -> list[str]:
    return sorted(registry.items())[:40:3] + ["tran2022.thm9", "tran2022.thm6", "zhang2021.thm3.2"]


def _algs() -> list[str]:
    return sorted(registry.algorithms())


def _objectives() -> list[str]:
    return sorted(n for m in registry.objective_registries() for n in getattr(m, "FAMILIES", {}))


def one_of_or_text(values: list[str]) -> st.SearchStrategy[str]:
    return st.one_of(st.sampled_from(values), texts)


def options(draw, spec: dict[str, st.SearchStrategy]) -> list[str]:
    """A random subset of ``spec``'s options, each with a drawn value (None: a flag)."""
    argv: list[str] = []
    for flag, strategy in spec.items():
        if draw(st.booleans()):
            argv.append(flag)
            if strategy is not None:
                value = draw(strategy)
                argv.extend(value if isinstance(value, list) else [value])
    return argv


def command_lines(command: str) -> st.SearchStrategy[list[str]]:
    symbols = ["n", "d", "eps", "delta", "T", "zz", ""]

    @st.composite
    def build(draw) -> list[str]:
        json_flag = ["--json"] if draw(st.booleans()) else []
        if command == "list":
            rest = options(draw, {"--paper": one_of_or_text(["tran2022", "zhang2017"]),
                                  "--kind": one_of_or_text(["theorem", "lemma"])})
        elif command == "show":
            rest = [draw(one_of_or_text(_ids()))] + options(draw, {"--latex": None})
        elif command == "derive":
            rest = draw(st.lists(one_of_or_text(_ids()), max_size=3))
        elif command == "compare":
            rest = [draw(one_of_or_text(_ids())), draw(one_of_or_text(_ids()))] + options(draw, {
                "--vary": one_of_or_text(symbols), "--y": one_of_or_text(symbols),
                "--set": st.lists(st.builds(lambda s, v: f"{s}={v}", one_of_or_text(symbols),
                                            numbers), min_size=1, max_size=3),
                "--derived": None, "--map": paths,
                "--range": st.lists(numbers, min_size=4, max_size=4)})
        elif command == "table":
            rest = ["--measure", draw(st.text(min_size=1, max_size=8))] + options(
                draw, {"--format": one_of_or_text(["markdown", "latex", "csv"])})
        elif command == "findings":
            rest = ["--no-checks", "--only", *draw(st.lists(texts, min_size=1, max_size=2))]
            rest += options(draw, {"--store": paths})
        elif command == "account":
            rest = ["--max-memory", "0.05", "--noise-multiplier", draw(numbers),
                    "--steps", draw(st.one_of(ints, small_ints)), "--delta", draw(deltas)]
            rest += options(draw, {
                "--sample-rate": rates, "--sampling": one_of_or_text(["poisson", "fixed-size"]),
                "--orders": st.lists(numbers, min_size=1, max_size=3),
                "--conversion": one_of_or_text(["improved", "mironov"])})
        elif command == "calibrate":
            rest = ["--target-epsilon", draw(numbers), "--target-delta", draw(deltas),
                    "--sample-rate", draw(rates)]
            rest += options(draw, {"--sampling": one_of_or_text(["poisson", "fixed-size"])})
            rest += draw(st.sampled_from([["--steps", draw(st.one_of(ints, small_ints))],
                                          ["--epochs", draw(numbers)], []]))
        elif command == "routes":
            rest = ["--noise-multiplier", draw(numbers), "--sample-rate", draw(rates),
                    "--steps", draw(st.one_of(ints, small_ints)), "--delta", draw(deltas)]
        elif command == "objectives":
            rest = options(draw, {"--name": one_of_or_text(_objectives()), "--seed": ints,
                                  "--certify": None, "--samples": st.one_of(ints, small_ints)})
        elif command == "algorithms":
            rest = []
        elif command == "run":
            alg, objective = draw(st.one_of(st.sampled_from(RUNNABLE),
                                            st.tuples(one_of_or_text(_algs()),
                                                      one_of_or_text(_objectives()))))
            rest = [alg, "--objective", objective, "--eps", draw(numbers), "--delta", draw(deltas),
                    "--max-steps", draw(st.sampled_from(["1", "300"])), "--reps", draw(small_ints)]
            rest += options(draw, {"--n": st.one_of(ints, small_ints), "--d": st.one_of(ints, small_ints),
                                   "--seed": ints, "--data-seed": ints,
                                   "--calibration": one_of_or_text(["paper", "tight"]),
                                   "--max-memory": numbers,
                                   "--objective-param": st.builds(
                                       lambda k, v: f"{k}={v}",
                                       one_of_or_text(["mu", "R", "D", "delta", "form"]), numbers),
                                   "--param": st.builds(lambda k, v: f"{k}={v}",
                                                        one_of_or_text(["T", "m", "eta", "zz"]),
                                                        st.one_of(ints, numbers)),
                                   "--data": st.one_of(paths, st.sampled_from(["bank", "wine=x"])),
                                   "--target": texts, "--subsample": ints,
                                   "--test-fraction": numbers, "--radius": numbers})
        elif command == "verify":
            rest = ["--only", draw(texts)] + options(draw, {"--out": paths, "--jobs": ints,
                                                            "--seed": ints, "--quick": None})
        elif command == "audit":
            rest = [draw(texts)] + options(draw, {"--eps": numbers, "--delta": numbers,
                                                  "--runs": ints, "--seed": ints,
                                                  "--calibration": one_of_or_text(["paper"])})
        elif command == "store":
            rest = [draw(one_of_or_text(["check", "repair"])), draw(paths)]
        else:  # pragma: no cover
            raise AssertionError(command)
        return [command, *rest, *json_flag]

    return build()


COMMANDS = ["list", "show", "derive", "compare", "table", "findings", "account", "calibrate",
            "routes", "objectives", "algorithms", "run", "verify", "audit", "store"]


@pytest.fixture(scope="module", autouse=True)
def _report():
    yield
    target = os.environ.get("DPTHEORY_FUZZ_REPORT")
    if target:
        table = {c: {str(k): v for k, v in sorted(OUTCOMES[c].items(), key=str)}
                 for c in [*COMMANDS, *sorted(set(OUTCOMES) - set(COMMANDS))]}
        Path(target).write_text(json.dumps({"examples_per_command": EXAMPLES, "outcomes": table},
                                           indent=1))


def run_cli(argv: list[str], capsys) -> tuple[int, str, str]:
    """``main(argv)`` in-process: (exit code, stdout, stderr); an escaping exception fails."""
    try:
        code = main(argv)
    except SystemExit as exc:                   # argparse usage errors and --help
        code = exc.code if isinstance(exc.code, int) else 2
    out, err = capsys.readouterr()
    return code, out, err


def check_outcome(argv: list[str], code: int, out: str, err: str) -> None:
    assert code in (0, 2), f"exit {code} for {argv!r}: {err[-500:]}"
    assert "Traceback" not in err, f"traceback for {argv!r}: {err[-1000:]}"
    if code == 2:
        lines = [ln for ln in err.splitlines() if ln.strip()]
        assert len(lines) == 1 or "usage:" in err, f"not one line for {argv!r}: {err!r}"
    elif "--json" in argv and out.strip():
        json.loads(out, parse_constant=lambda c: pytest.fail(f"{c} in JSON of {argv!r}"))


@pytest.mark.parametrize("command", COMMANDS)
def test_fuzz_command(command, tmp_path, monkeypatch, capsys):
    monkeypatch.chdir(tmp_path)                  # relative paths land in the test's folder

    @settings(max_examples=EXAMPLES, derandomize=True, database=None, deadline=None,
              suppress_health_check=list(HealthCheck))
    @given(command_lines(command))
    def one(argv: list[str]) -> None:
        code, out, err = run_cli(argv, capsys)
        OUTCOMES[command][code] += 1
        check_outcome(argv, code, out, err)

    one()


# ------------------------------------------------------------------ hostile data files (issue 25)
# A data file that cannot be read (a FIFO, a truncated .gz or .zip, a cell over the csv
# limit, bytes that are not text) is one line and exit 2, at once; a stray token in a column
# of numbers is refused unless the column is --categorical, so exit 0 always has the clean
# file's dimension (d = 2) or the one --categorical asks for.
DATA_CALL_LIMIT = 60.0       # seconds per call; a FIFO read would block forever
STRAY_TOKENS = ["abc", "inf", "-inf", "1e999", "-1e999", "Infinity", "0x1p3", "1,5", "∞", "💥",
                "1e-999", "nan", "", "?", "1_000"]


def _data_rows(n: int = 60) -> list[str]:
    # two features in [0, 1) and a label: a fixed, clean table
    return [f"{(i * 37 % 100) / 100},{(i * 53 % 100) / 100},{i % 2}" for i in range(n)]


@st.composite
def data_files(draw) -> tuple[str, dict]:
    """(kind, parameters) of a hostile or clean data file."""
    kind = draw(st.sampled_from(["clean", "stray", "huge-cell", "truncated-gz", "truncated-zip",
                                 "fifo", "binary", "open-quote", "nul", "ragged"]))
    params = {"row": draw(st.integers(0, 59)), "col": draw(st.integers(0, 1)),
              "token": draw(st.one_of(st.sampled_from(STRAY_TOKENS), st.text(max_size=6))),
              "cut": draw(st.floats(0.05, 0.95)), "size": draw(st.sampled_from(
                  [131073, 200_000, 1_000_000])), "seed": draw(st.integers(0, 2 ** 16))}
    return kind, params


def _write_data(folder: Path, kind: str, p: dict) -> Path:
    import gzip
    import random
    import zipfile
    rows = _data_rows()
    header = "x1,x2,y\n"
    if kind == "stray":
        cells = rows[p["row"]].split(",")
        cells[p["col"]] = p["token"].replace(",", ";").replace("\n", " ").replace("\r", " ")
        rows[p["row"]] = ",".join(cells)
    elif kind == "huge-cell":
        cells = rows[p["row"]].split(",")
        cells[p["col"]] = "9" * p["size"]
        rows[p["row"]] = ",".join(cells)
    elif kind == "open-quote":
        rows[p["row"]] = '"' + rows[p["row"]]
    elif kind == "nul":
        rows[p["row"]] = rows[p["row"]].replace(",", ",\x00", 1)
    elif kind == "ragged":
        rows[p["row"]] += ",1"
    text = (header + "\n".join(rows) + "\n").encode()
    if kind == "fifo":
        path = folder / "data.csv"
        os.mkfifo(path)
    elif kind == "truncated-gz":
        path = folder / "data.csv.gz"
        blob = gzip.compress(text)
        path.write_bytes(blob[:max(1, int(len(blob) * p["cut"]))])
    elif kind == "truncated-zip":
        path = folder / "data.zip"
        zipped = folder / "whole.zip"
        with zipfile.ZipFile(zipped, "w", zipfile.ZIP_DEFLATED) as zf:
            zf.writestr("data.csv", text)
        blob = zipped.read_bytes()
        path.write_bytes(blob[:max(1, int(len(blob) * p["cut"]))])
    elif kind == "binary":
        path = folder / "data.csv"
        path.write_bytes(random.Random(p["seed"]).randbytes(2000))
    else:
        path = folder / "data.csv"
        path.write_bytes(text)
    return path


class _Timeout(Exception):
    pass


def _call_with_limit(argv: list[str], capsys, seconds: float) -> tuple[int, str, str]:
    """:func:`run_cli` under a wall-clock limit (SIGALRM): a hang fails the test."""
    import signal

    def alarm(signum, frame):
        raise _Timeout(f"{argv!r} took over {seconds:g} s")
    previous = signal.signal(signal.SIGALRM, alarm)
    signal.setitimer(signal.ITIMER_REAL, seconds)
    try:
        return run_cli(argv, capsys)
    finally:
        signal.setitimer(signal.ITIMER_REAL, 0)
        signal.signal(signal.SIGALRM, previous)


@pytest.mark.skipif(not hasattr(os, "mkfifo"), reason="needs FIFOs (POSIX)")
def test_fuzz_data_files(tmp_path, capsys):
    @settings(max_examples=max(EXAMPLES, 10), derandomize=True, database=None, deadline=None,
              suppress_health_check=list(HealthCheck))
    @given(data_files(), st.booleans())
    def one(case: tuple[str, dict], categorical: bool) -> None:
        kind, params = case
        folder = Path(tmp_path) / f"case{len(list(Path(tmp_path).iterdir()))}"
        folder.mkdir()
        path = _write_data(folder, kind, params)
        argv = ["run", "zhang2017.alg1", "--objective", "logistic-ridge", "--data", str(path),
                "--target", "y", "--eps", "1", "--delta", "1e-5", "--reps", "1",
                "--max-steps", "300", "--json"]
        if categorical:
            argv += ["--categorical", "x2"]
        code, out, err = _call_with_limit(argv, capsys, DATA_CALL_LIMIT)
        OUTCOMES["run --data"][code] += 1
        check_outcome(argv, code, out, err)
        if kind in ("fifo", "huge-cell", "truncated-gz", "truncated-zip", "binary", "open-quote",
                    "ragged"):      # (a NUL byte is a character of a cell: a stray token)
            assert code == 2, f"{kind}: exit {code} for {argv!r}"
            assert str(path) in err or path.name in err, f"the file is not named: {err!r}"
        if code == 0:        # the dimension is the clean file's, or what --categorical asks
            d = json.loads(out)["d"]
            assert d > 2 if categorical else d == 2, f"{kind} {params}: d = {d}"
        column = ("x1", "x2")[params["col"]]
        if kind == "stray" and params["token"] in STRAY_TOKENS[:10] and not (
                categorical and column == "x2"):
            # a token that is no finite number, in a numeric column: its line and column
            assert code == 2 and "line" in err and repr(column) in err, err

    one()
