"""Experiment recipes: what binds a catalog item to a measurement (issue 6).

A :class:`Recipe` names the catalog item, the kind of check, the cell function that measures
it, and the sweep. ``dptheory`` knows no paper: recipes are found through the
``dptheory.experiments`` entry-point group (modules exposing ``RECIPES``), the cell function
by its import path, so sweeps can run in other processes (joblib) or on a Dask cluster.

A *cell* is one point of a sweep and one block of replicates:
``{"recipe": id, "point": {...sweep values...}, "block": b, "reps": r, "seed": s, **fixed}``.
The cell function returns a JSON-serialisable dict. What the engine reads from it depends on
the check:

* ``bound``      — ``samples`` (list of per-replicate values of the measured quantity) and
  ``bound`` (the theorem's explicit bound evaluated at the instance's certified constants);
  an explicit *upper* bound, judged by :func:`~dptheory.verify.checks.bound_check`;
* ``slope``      — ``samples``; an O-rate (an upper bound), judged by
  :func:`~dptheory.verify.checks.rate_check` against ``Recipe.expected_slope`` or, when it
  is None, the local slopes of the cells' ``bound`` values over the sweep; on the mean of
  the samples at each point, or on their ``Recipe.quantile``;
* ``sensitivity``— ``measured`` (largest observed value), ``bound`` (the lemma's value),
  ``worst`` (the example attaining it); a supremum bound (:func:`~dptheory.verify.checks.sup_check`);
* ``stability``  — ``samples`` (coupled-run gaps) and ``bound`` (the stability parameter);
* ``audit``      — ``scores_in``, ``scores_out`` (attack scores on the two neighbouring
  datasets), ``epsilon_claimed``, ``epsilon_tight``.

Every cell of a bound, slope or stability recipe also says whether the claim can bind:

* ``trivial`` (and ``trivial_source``) — the largest value the measured quantity can take at
  this instance, from the objective's certified constants (``||grad F|| <= G``, a probability
  ``<= 1``, a stability gap ``<= 2 sup|f|``); omitted or None when unbounded;
* ``in_domain`` — the fraction of replicates whose iterates stayed where the constants are
  certified (below 1 the claim's assumptions were left: vacuous);
* ``start_passes`` — True when the start point already satisfies the claim's target (a success
  test, an accuracy): the check could not have failed there.

Every cell may also return ``constants`` (``{name: value or [values]}``): the certified
constants of the instances it ran (the loss's G, beta, mu, ...). Code that certifies constants
while a cell runs reports them with :func:`record_constants`; the engine adds them to the
cell's output and writes, per check, which values each constant took
(``evidence["constants_varied"]``, :func:`constants_varied`), so a reader sees whether a
formula that drops a constant could have shown (it cannot where that constant is 1).

A recipe that needs what a machine may lack (a real data set read from a registry package)
names a ``requires`` function; :func:`missing` returns its reason, and ``verify`` reports
such a recipe as inconclusive ("not run: ...") instead of failing.

A sweep point holds ``datasets`` independent data sets (cell key ``dataset``), each with its
own seed, so intervals include data variability. Blocks of one (point, data set) are pooled
before the check, so results do not depend on the block size or on the number of workers.
"""

from __future__ import annotations

import math
from contextlib import contextmanager
from dataclasses import dataclass, field
from typing import Any, Iterator, Mapping

CHECK_KINDS = ("bound", "slope", "sensitivity", "stability", "audit")
#: keys the engine writes into every cell (``Recipe.fixed`` may not set them)
CELL_KEYS = frozenset({"recipe", "point", "block", "dataset", "first_replicate", "reps",
                       "seed", "cell_fn"})


@dataclass(frozen=True)
class Recipe:
    """An experiment recipe: the catalog ``item``, the ``check`` kind (:data:`CHECK_KINDS`),
    the ``cell`` function (``"module:function"``) and a one-variable ``sweep``, with the
    replicates, data sets and grading of a refutation; the ``*_full`` fields are the sizes of
    ``verify --full``. The fields are described beside them and the cell protocol in this
    module's description.
    """

    id: str                                   # "<item>:<name>", e.g. "tran2022.thm9:slope-n"
    item: str                                 # catalog id
    check: str                                # one of CHECK_KINDS
    cell: str                                 # "package.module:function"
    sweep: dict[str, list[Any]]               # quick sweep, e.g. {"n": [256, 512, 1024]}
    fixed: dict[str, Any] = field(default_factory=dict)    # passed to every cell
    reps: int = 16                            # replicates per sweep point (quick)
    block: int = 16                           # replicates per cell
    sweep_full: dict[str, list[Any]] | None = None
    reps_full: int | None = None
    expected_slope: float | None = None       # slope checks; None: from the cells' bounds
    tolerance: float = 0.1                    # slope tolerance for polylog/constant effects
    metric: str = ""                          # name of the measured quantity (for figures)
    description: str = ""
    quick: bool = True                        # part of `verify --quick`
    datasets: int = 1                         # independent data sets per sweep point
    datasets_full: int | None = None
    over_data: bool = False                   # the claim is an expectation over the data
    # rate checks that cannot decide yet grow the sweep by `factor`, at most `quick`/`full`
    # extra points: {"factor": 2, "quick": 1, "full": 3}
    extend: dict[str, Any] | None = None
    severity: str = ""                        # what a refutation means (verdict SEVERITIES)
    consequence: str = ""                     # one sentence on its consequence
    root: str = ""                            # root cause shared with other checks
    # "module:function" called with the recipe: None when it can run on this machine, else a
    # one-line reason (a missing data package and its install command); empty: always runs
    requires: str = ""
    # slope checks: why the measured quantity is only a *lower* estimate of the claimed one
    # (e.g. E min_t X_t for a claim on min_t E X_t): a slope within the claim then cannot
    # support an upper-bound rate (the claimed quantity may decay more slowly); only a
    # shallower slope refutes it. Empty: the measured quantity is the claimed one.
    lower_estimate: str = ""
    # slope checks: why the measured quantity is only an *upper* estimate of the claimed one
    # (e.g. E X_T at the last iterate for a claim on min_t E X_t <= E X_T): a stable slope
    # within the claim supports the upper-bound rate (the claimed quantity is smaller still);
    # a shallower one cannot refute it. Empty: the measured quantity is the claimed one.
    upper_estimate: str = ""
    # slope checks: why the check cannot decide at the sizes run, and where (or whether) it
    # would; appended to an inconclusive or vacuous verdict
    undecided: str = ""
    # slope checks: None judges the mean of the samples at each point; a level q in (0, 1)
    # judges their q-quantile, for a high-probability claim (w.p. >= 1 - zeta: q = 1 - zeta)
    quantile: float | None = None
    # why the check need not run where the constants it depends on are far from 1 (<= 1/4 or
    # >= 4): a proven invariance ("the ratio measured/bound does not depend on the loss scale
    # c because both scale as c"), or that it depends on none; empty: it must (a test checks)
    constants_note: str = ""

    def __post_init__(self) -> None:
        if self.check not in CHECK_KINDS:
            raise ValueError(f"{self.id}: check must be one of {CHECK_KINDS}, got {self.check!r}")
        if ":" not in self.cell:
            raise ValueError(f"{self.id}: cell must be 'module:function', got {self.cell!r}")
        clash = sorted(set(self.fixed) & CELL_KEYS)
        if clash:
            raise ValueError(f"{self.id}: fixed must not set the engine's cell keys {clash}")
        if self.lower_estimate and self.upper_estimate:
            raise ValueError(f"{self.id}: a measured quantity is a lower or an upper estimate "
                             "of the claimed one, not both")
        if self.quantile is not None and (self.check != "slope" or not 0 < self.quantile < 1):
            raise ValueError(f"{self.id}: quantile is for slope checks, a level in (0, 1); "
                             f"got {self.quantile!r} for a {self.check} check")
        if self.requires and ":" not in self.requires:
            raise ValueError(f"{self.id}: requires must be 'module:function', got "
                             f"{self.requires!r}")
        if len(self.sweep) != 1:
            raise ValueError(f"{self.id}: sweep one variable at a time, got {list(self.sweep)}")
        if self.datasets < 1 or (self.datasets_full is not None and self.datasets_full < 1):
            raise ValueError(f"{self.id}: datasets must be >= 1")

    @property
    def variable(self) -> str:
        """The swept variable's name."""
        return next(iter(self.sweep))

    def points(self, full: bool = False) -> list[Any]:
        """The sweep points (of the full sweep with ``full``, when the recipe has one)."""
        sweep = self.sweep_full if (full and self.sweep_full) else self.sweep
        return list(sweep[self.variable])

    def total_reps(self, full: bool = False) -> int:
        """Replicates per sweep point and data set (the full count with ``full``)."""
        return int(self.reps_full if (full and self.reps_full) else self.reps)

    def total_datasets(self, full: bool = False) -> int:
        """Independent data sets per sweep point (the full count with ``full``)."""
        return int(self.datasets_full if (full and self.datasets_full) else self.datasets)

    def cells(self, full: bool = False, seed: int = 0,
              extra_points: Any = ()) -> list[dict[str, Any]]:
        """The cells of this recipe: sweep points (and ``extra_points`` added by extension)
        x data sets x replicate blocks."""
        out = []
        total = self.total_reps(full)
        for value in [*self.points(full), *extra_points]:
            for dataset in range(self.total_datasets(full)):
                for b, start in enumerate(range(0, total, self.block)):
                    out.append({"recipe": self.id, "point": {self.variable: value}, "block": b,
                                "dataset": dataset, "first_replicate": start,
                                "reps": min(self.block, total - start), "seed": seed,
                                **self.fixed})
        return out


def missing(recipe: Recipe) -> str | None:
    """Why ``recipe`` cannot run on this machine (None when it can): its ``requires``."""
    if not recipe.requires:
        return None
    return load_cell_function(recipe.requires)(recipe)


def load_cell_function(path: str):
    """The function named by ``"module:function"``, imported."""
    import importlib
    module, _, name = path.partition(":")
    return getattr(importlib.import_module(module), name)


# ------------------------------------------------------------------ constants of a cell
_RECORDED: list[dict[str, float]] | None = None


def is_recording() -> bool:
    """Whether a :func:`recording` block is open (callers may skip work otherwise)."""
    return _RECORDED is not None


def record_constants(values: Mapping[str, Any]) -> None:
    """Report certified constants ``{name: value}`` of an instance the running cell uses
    (a no-op outside :func:`recording`); non-numeric and non-finite values are skipped."""
    if _RECORDED is None:
        return
    clean = {}
    for k, v in values.items():
        try:
            x = float(v)
        except (TypeError, ValueError):
            continue
        if math.isfinite(x):
            clean[str(k)] = x
    if clean:
        _RECORDED.append(clean)


@contextmanager
def recording() -> Iterator[list[dict[str, float]]]:
    """Collect what :func:`record_constants` reports while the block runs (nestable: an
    inner block's records are also the outer's)."""
    global _RECORDED
    outer = _RECORDED
    _RECORDED = []
    try:
        yield _RECORDED
    finally:
        inner, _RECORDED = _RECORDED, outer
        if outer is not None:
            outer.extend(inner)


def merge_constants(*sources: Any) -> dict[str, list[float]]:
    """``{name: sorted distinct values}`` from mappings ``{name: value or [values]}``."""
    out: dict[str, set[float]] = {}
    for src in sources:
        for k, v in (src or {}).items():
            vals = v if isinstance(v, (list, tuple)) else [v]
            for x in vals:
                try:
                    x = float(x)
                except (TypeError, ValueError):
                    continue
                if math.isfinite(x):
                    out.setdefault(str(k), set()).add(x)
    return {k: sorted(v) for k, v in sorted(out.items())}


def _num(x: float) -> str:
    """A constant's value for a reader: 1/4 and 4 as such, else 3 significant digits."""
    for p in range(1, 11):
        if x > 0 and abs(x - 2.0 ** -p) <= 1e-12:
            return f"1/{2 ** p}"
    return f"{x:.3g}"


def constants_varied(values: Mapping[str, list[float]]) -> list[str]:
    """One line per constant: ``"beta: 1/4, 1, 4"`` (at most four distinct values, else
    ``"G: 0.93 .. 0.97 (12 values)"``); one value is ``"G: 1 (not varied)"`` at 1 and
    ``"beta: 16 (one value)"`` elsewhere (a scaled variant of a check runs at one scale)."""
    lines = []
    for k, vals in values.items():
        shown = sorted({_num(x): x for x in vals}.items(), key=lambda t: t[1])
        if len(shown) == 1:
            lines.append(f"{k}: {shown[0][0]} "
                         f"({'not varied' if shown[0][0] == '1' else 'one value'})")
        elif len(shown) <= 4:
            lines.append(f"{k}: " + ", ".join(s for s, _ in shown))
        else:
            lines.append(f"{k}: {shown[0][0]} .. {shown[-1][0]} ({len(shown)} values)")
    return lines


def as_lines(value: Any) -> list[str]:
    """A hand-written ``constants_varied`` as a list of lines (a plain string is split at
    semicolons)."""
    if value is None:
        return []
    if isinstance(value, str):
        return [p.strip() for p in value.split(";") if p.strip()]
    return [str(v) for v in value]
