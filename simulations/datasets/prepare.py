"""Explicit, recorded preprocessing: a :class:`Table` to train (and test) :class:`Dataset`\\ s.

The steps, in order, each recorded in :attr:`Prepared.steps`:

1. drop the columns ``drop``; check that the target exists; a feature column whose values
   are numbers but for a few tokens that are not finite numbers (``abc``, ``inf``,
   ``1e999``) is refused, naming the row and the value, unless it is in ``categorical``
   (else one stray token would one-hot encode the whole column and change the dimension);
2. missing values: ``missing="error"`` (default) refuses them, naming the column, the count
   and the first rows; ``"drop"`` drops the rows that have any; ``"category"`` makes a
   missing text value a level of its own (numeric columns are still refused);
3. ``subsample``: n rows drawn without replacement (seeded);
4. ``test_fraction``: a seeded random split; every fitted step below is fitted on the
   training rows only and applied unchanged to the test rows;
5. target: labels in {-1, +1} for classification (two distinct values, the larger or
   ``positive`` -> +1; more than two need ``positive``), numbers for regression, optionally
   scaled (``target_scale``);
6. one-hot encoding of text columns and of ``categorical`` numeric columns (levels seen in
   training, sorted; a test level not seen in training encodes as all zeros);
7. feature scaling: ``"minmax"`` to [0, 1], ``"standard"`` (zero mean, unit variance), or
   ``"none"``; constant columns become 0;
8. row normalisation to the radius the objectives' certified constants assume:
   ``"max"`` divides every row by max_i ||x_i|| / radius (the largest training row gets norm
   ``radius``; geometry kept), ``"unit"`` scales each non-zero row to norm ``radius``
   (wang2020's "we normalize each row"), ``"none"`` keeps the rows.

With ``rows="max"`` or ``"unit"`` every training row has norm <= ``radius``, a bound known
before the data is seen; with ``rows="none"`` the objectives' constants use the data's own
max_i ||x_i||, a data-dependent constant (recorded in :attr:`Prepared.public_radius`).
"""

from __future__ import annotations

from dataclasses import asdict, dataclass, field
from typing import Any

import numpy as np

from dptheory_simulations.objectives.base import Dataset

from .tables import Table

__all__ = ["Preprocessing", "Prepared", "prepare", "TASKS", "SCALINGS", "ROW_NORMS",
           "MISSING_POLICIES", "TARGET_SCALINGS"]

TASKS = ("classification", "regression")
SCALINGS = ("none", "minmax", "standard")
ROW_NORMS = ("none", "max", "unit")
MISSING_POLICIES = ("error", "drop", "category")
TARGET_SCALINGS = ("none", "standard", "max-abs")


@dataclass(frozen=True)
class Preprocessing:
    """What to do to a table (see the module docstring for the order of the steps).

    Parameters
    ----------
    target : the target column.
    task : ``"classification"`` (labels in {-1, +1}) or ``"regression"``.
    positive : classification: the target value(s) mapped to +1 (default: the larger of two
        values); needed when the target has more than two values.
    drop : columns left out.
    categorical : numeric columns one-hot encoded too (text columns always are); also the
        way to one-hot encode a column that mixes numbers and text.
    missing : ``"error"``, ``"drop"`` or ``"category"``.
    scale : ``"none"``, ``"minmax"`` or ``"standard"``.
    rows : ``"none"``, ``"max"`` or ``"unit"``.
    radius : the row-norm bound of ``rows="max"``/``"unit"`` (> 0).
    target_scale : regression: ``"none"``, ``"standard"`` or ``"max-abs"`` (divide by
        max |y|).
    subsample : keep this many rows (drawn without replacement), or None for all.
    test_fraction : fraction of rows held out as a test set, in [0, 1).
    seed : seed of the subsample and the split.
    """

    target: str
    task: str = "classification"
    positive: Any = None
    drop: tuple[str, ...] = ()
    categorical: tuple[str, ...] = ()
    missing: str = "error"
    scale: str = "minmax"
    rows: str = "max"
    radius: float = 1.0
    target_scale: str = "none"
    subsample: int | None = None
    test_fraction: float = 0.0
    seed: int = 0

    def __post_init__(self) -> None:
        for name, value, allowed in (("task", self.task, TASKS), ("scale", self.scale, SCALINGS),
                                     ("rows", self.rows, ROW_NORMS),
                                     ("missing", self.missing, MISSING_POLICIES),
                                     ("target_scale", self.target_scale, TARGET_SCALINGS)):
            if value not in allowed:
                raise ValueError(f"{name} must be one of {allowed}, got {value!r}")
        if not isinstance(self.target, str) or not self.target:
            raise ValueError(f"target must be a column name, got {self.target!r}")
        if not (isinstance(self.radius, (int, float)) and np.isfinite(self.radius)
                and self.radius > 0):
            raise ValueError(f"radius must be finite and > 0, got {self.radius!r}")
        if self.subsample is not None and (isinstance(self.subsample, bool) or not isinstance(
                self.subsample, (int, np.integer)) or self.subsample < 2):
            raise ValueError(f"subsample must be an integer >= 2, got {self.subsample!r}")
        if not (isinstance(self.test_fraction, (int, float)) and 0 <= self.test_fraction < 1):
            raise ValueError(f"test_fraction must be in [0, 1), got {self.test_fraction!r}")
        if isinstance(self.seed, bool) or not isinstance(self.seed, (int, np.integer)) \
                or self.seed < 0:
            raise ValueError(f"seed must be an integer >= 0, got {self.seed!r}")
        if self.task == "regression" and self.positive is not None:
            raise ValueError("positive applies to classification only, got a value for "
                             "task='regression'")
        object.__setattr__(self, "drop", tuple(self.drop))
        object.__setattr__(self, "categorical", tuple(self.categorical))

    def as_dict(self) -> dict[str, Any]:
        """The fields as a dict (tuples as lists)."""
        out = asdict(self)
        out["drop"], out["categorical"] = list(self.drop), list(self.categorical)
        return out


@dataclass
class Prepared:
    """The result of :func:`prepare`: data ready for an objective, and how it was made.

    ``train``/``test`` are :class:`~dptheory_simulations.objectives.base.Dataset`\\ s (``test`` is
    None without a split); ``features`` names the columns of X; ``steps`` records every
    step with what it fitted; ``source`` is the table's provenance; ``public_radius`` is the
    row-norm bound known before the data is seen (None with ``rows="none"``).
    """

    train: Dataset
    test: Dataset | None
    features: list[str]
    target: str
    task: str
    steps: list[dict[str, Any]]
    source: dict[str, Any]
    spec: Preprocessing
    public_radius: float | None
    name: str = ""
    notes: list[str] = field(default_factory=list)

    def record(self) -> dict[str, Any]:
        """JSON-friendly record of the data: source, shapes, every step."""
        return {"name": self.name, "source": self.source, "target": self.target,
                "task": self.task, "n_train": self.train.n,
                "n_test": 0 if self.test is None else self.test.n, "d": self.train.d,
                "features": list(self.features), "steps": self.steps,
                "spec": self.spec.as_dict(), "public_radius": self.public_radius,
                "max_norm_train": self.train.max_norm,
                "max_norm_test": None if self.test is None else self.test.max_norm,
                "notes": list(self.notes)}

    def describe(self) -> list[str]:
        """One line per step, for the command line."""
        head = (f"data {self.name or self.source.get('path', '')}: {self.train.n} training"
                + (f" + {self.test.n} test" if self.test is not None else "")
                + f" rows, d={self.train.d}, target {self.target!r} ({self.task})")
        return [head] + [f"  {s['step']}: {s['summary']}" for s in self.steps] + \
            [f"  note: {n}" for n in self.notes]


def _step(steps: list, name: str, summary: str, **details: Any) -> None:
    steps.append({"step": name, "summary": summary, **details})


def _first_rows(mask: np.ndarray, k: int = 5) -> str:
    rows = np.flatnonzero(mask)[:k] + 1
    more = ", ..." if mask.sum() > k else ""
    return ", ".join(str(r) for r in rows) + more


def _handle_missing(table: Table, spec: Preprocessing, steps: list) -> tuple[Table, set[str]]:
    """Apply the missing-value policy; returns the table and the text columns whose missing
    values become a level."""
    counts = {c: int(table.missing(c).sum()) for c in table.names}
    bad = {c: k for c, k in counts.items() if k}
    if not bad:
        _step(steps, "missing", "no missing values")
        return table, set()
    as_level = set()
    if spec.missing == "category":
        as_level = {c for c in bad if not table.is_numeric(c) and c != spec.target}
        bad = {c: k for c, k in bad.items() if c not in as_level}
    if bad and spec.missing != "drop":
        c = next(iter(bad))
        kind = "numeric " if table.is_numeric(c) else ""
        hint = ("missing='drop' drops those rows" if spec.missing == "error" else
                "missing='drop' drops those rows (a numeric column or the target cannot "
                "have a 'missing' level)")
        raise ValueError(f"{kind}column {c!r} has {bad[c]} missing values (NaN or empty; "
                         f"rows {_first_rows(table.missing(c))}); repair them or use {hint}"
                         + (f"; other columns with missing values: {sorted(bad)[1:]}"
                            if len(bad) > 1 else ""))
    if bad:
        keep = np.ones(table.n_rows, dtype=bool)
        for c in bad:
            keep &= ~table.missing(c)
        if not keep.any():
            raise ValueError(f"every row has a missing value (columns {sorted(bad)}); "
                             "nothing is left after missing='drop'")
        table = table.take(keep)
        _step(steps, "missing", f"dropped {int((~keep).sum())} rows with missing values in "
              f"{sorted(bad)}", dropped_rows=int((~keep).sum()), columns=sorted(bad))
    if as_level:
        _step(steps, "missing", "missing text values are a level '<missing>' of "
              f"{sorted(as_level)} ({', '.join(f'{c}: {counts[c]}' for c in sorted(as_level))})",
              as_level={c: counts[c] for c in sorted(as_level)})
    return table, as_level


def _refuse_stray_tokens(table: Table, columns: list[str]) -> None:
    """A text column holding finite numbers and other tokens is a numeric column with
    stray tokens (``abc``, ``inf``, ``1e999``): a ValueError naming the first one's row and
    value, and the two ways out."""
    for c in columns:
        col = table.column(c)
        if col.dtype == np.float64:
            continue
        numbers = np.array([v is not None and _finite(v) for v in col.tolist()])
        if not numbers.any():
            continue            # a text column
        stray = np.flatnonzero(~numbers & ~table.missing(c))
        i = int(stray[0])
        value = str(col[i])
        shown = repr(value if len(value) <= 40 else value[:40] + "...")
        raise ValueError(f"{table.where(i)}, column {c!r}: {shown} is not a finite number, in "
                         f"a column of numbers ({int(numbers.sum())} of them; "
                         f"{stray.size} not); correct the value or leave it empty "
                         f"(missing), or one-hot encode the column with categorical={c!r} "
                         f"(--categorical {c})")


def _finite(v: Any) -> bool:
    x = _as_float(v)
    return x is not None and np.isfinite(x)


def _labels(col: np.ndarray, spec: Preprocessing, steps: list) -> np.ndarray:
    values = sorted({v for v in col.tolist()}, key=lambda v: (isinstance(v, str), v))
    if spec.positive is None:
        if len(values) != 2:
            shown = values[:10]
            raise ValueError(f"target column {spec.target!r} has {len(values)} distinct values "
                             f"({shown}{' ...' if len(values) > 10 else ''}); a classification "
                             "target needs exactly 2, or positive=VALUE(S) to map those to +1 "
                             "and the rest to -1")
        pos = {values[1]}
    else:
        raw = spec.positive if isinstance(spec.positive, (list, tuple, set)) else [spec.positive]
        pos, absent = set(), []
        for p in raw:
            match = [v for v in values if v == p or str(v) == str(p)
                     or (isinstance(v, float) and _as_float(p) == v)]
            if not match:
                absent.append(p)
            pos.update(match)
        if not pos:
            raise ValueError(f"positive value{'s' if len(absent) > 1 else ''} "
                             f"{', '.join(map(repr, absent))} do{'es' if len(absent) == 1 else ''}"
                             f" not occur in target column {spec.target!r} (values "
                             f"{values[:10]})")
        if absent:
            steps.append({"step": "target", "summary": f"positive values absent from the "
                          f"data: {absent}", "absent": [str(a) for a in absent]})
        if len(pos) == len(values):
            raise ValueError(f"positive covers every value of target column {spec.target!r}; "
                             "a classification needs a negative class too")
    y = np.where(np.array([v in pos for v in col.tolist()]), 1.0, -1.0)
    _step(steps, "target", f"{spec.target!r} -> +1 for {sorted(map(_level, pos))}, -1 otherwise "
          f"({int((y > 0).sum())} positive of {y.size})",
          positive=sorted(map(_level, pos)), negative=sorted(_level(v) for v in values if v not in pos))
    return y


def _as_float(v: Any) -> float | None:
    try:
        return float(v)
    except (TypeError, ValueError):
        return None


def _regression_target(col: np.ndarray, spec: Preprocessing, steps: list) -> np.ndarray:
    if col.dtype != np.float64:
        sample = [v for v in col.tolist() if _as_float(v) is None][:3]
        raise ValueError(f"target column {spec.target!r} is not numeric (values such as "
                         f"{sample}); a regression target must be numbers")
    return col.astype(np.float64)


def _scale_target(y: np.ndarray, y_test: np.ndarray | None, spec: Preprocessing,
                  steps: list) -> tuple[np.ndarray, np.ndarray | None]:
    if spec.target_scale == "none":
        _step(steps, "target-scale", "targets kept as read")
        return y, y_test
    if spec.target_scale == "standard":
        a, b = float(y.mean()), float(y.std())
        b = b if b > 0 else 1.0
        summary = f"(y - {a:.6g}) / {b:.6g} (training mean and standard deviation)"
    else:
        a, b = 0.0, float(np.max(np.abs(y)))
        b = b if b > 0 else 1.0
        summary = f"y / {b:.6g} (training max |y|)"
    _step(steps, "target-scale", summary, method=spec.target_scale, shift=a, scale=b)
    return (y - a) / b, None if y_test is None else (y_test - a) / b


def _encode(table: Table, train: np.ndarray, features: list[str], spec: Preprocessing,
            as_level: set[str], steps: list) -> tuple[np.ndarray, list[str]]:
    """One-hot the text and ``categorical`` columns (levels from the training rows)."""
    cols, names, onehot = [], [], {}
    unseen: dict[str, int] = {}
    for c in features:
        col = table.column(c)
        if col.dtype == np.float64 and c not in spec.categorical:
            cols.append(col[:, None])
            names.append(c)
            continue
        vals = np.array(["<missing>" if v is None else _level(v) for v in col.tolist()],
                        dtype=object)
        levels = sorted(set(vals[train].tolist()))
        block = (vals[:, None] == np.array(levels, dtype=object)[None, :]).astype(np.float64)
        cols.append(block)
        names += [f"{c}={lv}" for lv in levels]
        onehot[c] = levels
        miss = int((~block.any(axis=1)).sum())
        if miss:
            unseen[c] = miss
    if onehot:
        _step(steps, "one-hot", f"{len(onehot)} columns -> {sum(map(len, onehot.values()))} "
              f"binary features ({', '.join(f'{c}: {len(v)}' for c, v in onehot.items())})"
              + (f"; test rows with a level unseen in training (all zeros): {unseen}"
                 if unseen else ""), levels=onehot, unseen_in_test=unseen)
    else:
        _step(steps, "one-hot", "no categorical columns")
    return np.hstack(cols) if cols else np.empty((table.n_rows, 0)), names


def _level(v: Any) -> str:
    if isinstance(v, float) and v.is_integer():
        return str(int(v))
    return str(v)


def _scale(X: np.ndarray, train: np.ndarray, spec: Preprocessing, steps: list) -> np.ndarray:
    if spec.scale == "none":
        _step(steps, "scale", "features kept as read")
        return X
    Xt = X[train]
    if spec.scale == "minmax":
        shift, width = Xt.min(axis=0), Xt.max(axis=0) - Xt.min(axis=0)
        summary = "min-max to [0, 1] on the training rows"
    else:
        shift, width = Xt.mean(axis=0), Xt.std(axis=0)
        summary = "standardised (training mean 0, standard deviation 1)"
    const = width <= 0
    out = (X - shift) / np.where(const, 1.0, width)
    out[:, const] = 0.0
    if const.any():
        summary += f"; {int(const.sum())} constant columns set to 0"
    _step(steps, "scale", summary, method=spec.scale, constant_columns=int(const.sum()))
    return out


def _normalise_rows(X: np.ndarray, train: np.ndarray, spec: Preprocessing,
                    steps: list) -> np.ndarray:
    norms = np.linalg.norm(X, axis=1)
    r = float(spec.radius)
    if spec.rows == "none":
        _step(steps, "rows", f"rows kept: max ||x_i|| = {norms[train].max():.6g} on the "
              "training rows (a data-dependent constant)")
        return X
    if spec.rows == "max":
        top = float(norms[train].max())
        if top == 0:
            raise ValueError("every training row is zero after scaling; nothing to learn")
        _step(steps, "rows", f"every row divided by max ||x_i|| / {r:g} = {top / r:.6g} "
              f"(training rows then have norm <= {r:g})", method="max", divisor=top / r)
        return X * (r / top)
    zero = norms == 0
    _step(steps, "rows", f"each row scaled to norm {r:g}"
          + (f" ({int(zero.sum())} zero rows left at 0)" if zero.any() else ""),
          method="unit", zero_rows=int(zero.sum()))
    return X * (r / np.where(zero, 1.0, norms))[:, None]


def prepare(table: Table, spec: Preprocessing, *, name: str = "") -> Prepared:
    """Apply ``spec`` to ``table`` (see the module docstring); every step is recorded."""
    steps: list[dict[str, Any]] = []
    table.column(spec.target)
    for c in (*spec.drop, *spec.categorical):
        table.column(c)
    if spec.target in spec.drop or spec.target in spec.categorical:
        raise ValueError(f"the target {spec.target!r} cannot be in drop or categorical")
    features = [c for c in table.names if c != spec.target and c not in spec.drop]
    if not features:
        raise ValueError(f"no feature columns left besides the target {spec.target!r}")
    if spec.drop:
        _step(steps, "drop", f"columns left out: {list(spec.drop)}", columns=list(spec.drop))
    _refuse_stray_tokens(table, [c for c in features if c not in spec.categorical])
    table, as_level = _handle_missing(Table({c: table.column(c) for c in
                                             [*features, spec.target]}, dict(table.source)),
                                      spec, steps)
    rng = np.random.default_rng(spec.seed)
    if spec.subsample is not None:
        if spec.subsample > table.n_rows:
            raise ValueError(f"subsample must be <= the number of rows ({table.n_rows}), "
                             f"got {spec.subsample}")
        rows = np.sort(rng.choice(table.n_rows, size=spec.subsample, replace=False))
        table = table.take(rows)
        _step(steps, "subsample", f"{spec.subsample} rows drawn without replacement "
              f"(seed {spec.seed})", n=spec.subsample, seed=spec.seed)
    n = table.n_rows
    n_test = int(round(spec.test_fraction * n))
    if spec.test_fraction > 0 and not 1 <= n_test <= n - 2:
        raise ValueError(f"test_fraction {spec.test_fraction} of {n} rows leaves "
                         f"{n_test} test and {n - n_test} training rows; need >= 1 and >= 2")
    perm = rng.permutation(n) if n_test else np.arange(n)
    train = np.zeros(n, dtype=bool)
    train[perm[n_test:]] = True
    if n_test:
        _step(steps, "split", f"{n - n_test} training / {n_test} test rows (random, seed "
              f"{spec.seed}); later steps fitted on the training rows", n_test=n_test)
    ycol = table.column(spec.target)
    if spec.task == "classification":
        y_all = _labels(ycol, spec, steps)
        y, y_test = y_all[train], (y_all[~train] if n_test else None)
    else:
        y_all = _regression_target(ycol, spec, steps)
        y, y_test = _scale_target(y_all[train], y_all[~train] if n_test else None, spec, steps)
    X, names = _encode(table, train, features, spec, as_level, steps)
    if X.shape[1] == 0:
        raise ValueError("no features after encoding")
    X = _normalise_rows(_scale(X, train, spec, steps), train, spec, steps)
    train_set = Dataset(X[train], y)
    test_set = Dataset(X[~train], y_test) if n_test else None
    public = None if spec.rows == "none" else float(spec.radius)
    return Prepared(train_set, test_set, names, spec.target, spec.task, steps,
                    dict(table.source), spec, public, name=name)
