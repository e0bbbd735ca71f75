"""Numeric evaluation of catalog items (lambdify, with settings and implicit settings)."""

from __future__ import annotations

import math
from typing import Any, Mapping

import sympy as sp

from dptheory.symbolic.symbols import lookup


def _as_symbol_map(values: Mapping[Any, float]) -> dict[sp.Symbol, float]:
    out: dict[sp.Symbol, float] = {}
    for key, value in values.items():
        sym = key if isinstance(key, sp.Symbol) else lookup(str(key))
        out[sym] = float(value)
    return out


def needed_symbols(expr: sp.Basic, settings: Mapping[sp.Symbol, sp.Expr],
                   given: Any = ()) -> set[sp.Symbol]:
    """Every symbol ``expr`` depends on once the settings of symbols not in ``given`` are
    applied (transitively; a set symbol itself is not needed, its inputs are)."""
    given = set(given)
    todo = list(sp.sympify(expr).free_symbols)
    out: set[sp.Symbol] = set()
    seen: set[sp.Symbol] = set()
    while todo:
        s = todo.pop()
        if s in seen:
            continue
        seen.add(s)
        if s in settings and s not in given:
            todo.extend(sp.sympify(settings[s]).free_symbols)
        else:
            out.add(s)
    return out


def _settings_for(expr: sp.Basic, settings: Mapping[sp.Symbol, sp.Expr],
                  given: Any) -> dict[sp.Symbol, sp.Expr]:
    """The settings ``expr`` actually goes through (others need not be resolvable)."""
    given = set(given)
    todo = list(sp.sympify(expr).free_symbols)
    out: dict[sp.Symbol, sp.Expr] = {}
    while todo:
        s = todo.pop()
        if s in settings and s not in given and s not in out:
            out[s] = settings[s]
            todo.extend(sp.sympify(settings[s]).free_symbols)
    return out


def resolve_settings(settings: Mapping[sp.Symbol, sp.Expr], values: dict[sp.Symbol, float],
                     iterations: int = 200) -> dict[sp.Symbol, float]:
    """Numeric values of every setting not given by the caller.

    Settings may refer to each other and to themselves (implicit, e.g. T = eps n^2/log2 T):
    all are iterated jointly to a fixed point, starting from 1 + the explicit part.
    """
    pending = {s: e for s, e in settings.items() if s not in values}
    if not pending:
        return dict(values)
    current = dict(values)
    guess = {s: 2.0 for s in pending}
    for _ in range(iterations):
        env = {**current, **guess}
        new = {}
        for s, e in pending.items():
            v = e.subs(env)
            try:
                new[s] = float(v)
            except TypeError:
                missing = sorted(str(x) for x in v.free_symbols)
                if not missing:     # complex, zoo or nan: the given values are out of range
                    given = ", ".join(f"{k}={float(x):g}" for k, x in values.items())
                    raise ValueError(f"setting {s} is not a real number ({v}) at {given}; "
                                     "the values are outside the theorem's range") from None
                raise ValueError(f"setting {s} needs values for {missing}") from None
        if all(math.isclose(new[s], guess[s], rel_tol=1e-13) for s in pending):
            guess = new
            break
        guess = new
    else:
        raise ValueError(f"implicit settings {sorted(map(str, pending))} did not converge")
    current.update(guess)
    return current


def evaluate(item: Any, what: str, values: Mapping[Any, float], apply_settings: bool = True) -> float:
    """``item.expression(what)`` at ``values`` as a float (what ``Theorem.evaluate`` does).

    Parameters
    ----------
    item : a Theorem.
    what : ``"bound"``, ``"rate"`` or a named expression, relation or sensitivity.
    values : ``{symbol or registered name: number}``.
    apply_settings : substitute the paper's settings that the expression goes through
        (their inputs then need values instead).

    Examples
    --------
    >>> from dptheory import catalog
    >>> evaluate(catalog.get("zhang2021.thm3.1"), "minibatch", {"G": 1.0, "B": 4})
    0.5
    """
    expr = item.expression(what)
    env = _as_symbol_map(values)
    if apply_settings:
        # only the settings this expression goes through: the rate of an item whose T
        # setting needs eps, n, d must not ask for them when the rate does not
        env = resolve_settings(_settings_for(expr, item.settings, env), env)
    # Integer symbols get exact integers so finite Sums (with floor/ceiling limits) expand;
    # .doit() then evaluates them exactly instead of sp.N's unreliable summation.
    exact = {s: (sp.Integer(int(v)) if (s.is_integer and float(v).is_integer()) else v)
             for s, v in env.items()}
    result = sp.sympify(expr).subs(exact).doit()
    if isinstance(result, sp.logic.boolalg.BooleanAtom):
        return float(bool(result))
    if result.free_symbols:
        missing = sorted(str(s) for s in result.free_symbols)
        raise ValueError(f"{item.id}: cannot evaluate {what}: no value for {missing}")
    value = complex(sp.N(result, 30))
    if abs(value.imag) > 1e-12 * max(1.0, abs(value.real)):
        raise ValueError(f"{item.id}: {what} is not real at {values}: {value}")
    return float(value.real)


class CompiledSettings:
    """Settings compiled with lambdify, resolved on floats (fast path for sampling)."""

    def __init__(self, settings: Mapping[sp.Symbol, sp.Expr], inputs: list[sp.Symbol]):
        self.targets = list(settings)
        self.args = sorted(set(inputs) | set(self.targets), key=str)
        self.funcs = [sp.lambdify(self.args, sp.sympify(settings[t]), "math", dummify=True)
                      for t in self.targets]

    def __call__(self, values: dict[sp.Symbol, float], iterations: int = 200) -> dict[sp.Symbol, float]:
        env = dict(values)
        for t in self.targets:
            env.setdefault(t, 2.0)
        for _ in range(iterations):
            vec = [env[a] for a in self.args]
            new = [float(f(*vec)) for f in self.funcs]
            done = all(math.isclose(v, env[t], rel_tol=1e-13) for t, v in zip(self.targets, new))
            env.update(zip(self.targets, new))
            if done:
                return env
        raise ValueError(f"implicit settings {sorted(map(str, self.targets))} did not converge")
