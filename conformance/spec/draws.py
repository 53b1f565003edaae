"""The draw operations of a spec's ``generate`` section: how a case's structure is chosen.

Each draw names a value (an int, a shape, an int tuple) that later draws and the ``args`` mapping
refer to by name. A draw can also be *broken* in a named mode (``above``, ``zero_dim``, …), which
is how a clause's ``break`` entry builds a case violating exactly that clause while every derived
value stays consistent.
"""
from __future__ import annotations

import math
from collections.abc import Sequence
from dataclasses import dataclass, field
from typing import Any, Protocol, TypeVar

from conformance.spec.expressions import ExprError, Expression

Env = dict[str, Any]
T = TypeVar("T")


class Chooser(Protocol):
    """Where a draw's choices come from (generate/choosers.py: Hypothesis, or fixed boundary values)."""

    def integer(self, lo: int, hi: int, label: str) -> int: ...

    def choice(self, options: Sequence[T], label: str) -> T: ...

    def boolean(self, label: str) -> bool: ...


class DrawError(Exception):
    """A draw definition that makes no sense (raised at load, reported as a SpecError)."""


@dataclass(frozen=True)
class Bound:
    """An int given literally or by an expression over earlier draws."""

    expr: Expression

    def value(self, env: Env) -> int:
        return int(self.expr.evaluate(env))


class Draw:
    name: str
    modes: tuple[str, ...] = ()

    def value(self, env: Env, ch: Chooser) -> Any:
        raise NotImplementedError

    def broken(self, env: Env, ch: Chooser, mode: str, options: dict[str, Any]) -> Any:
        raise DrawError(f"draw {self.name!r} has no break mode {mode!r}")


@dataclass
class Integers(Draw):
    name: str
    lo: Bound
    hi: Bound

    def value(self, env: Env, ch: Chooser) -> int:
        return ch.integer(self.lo.value(env), self.hi.value(env), self.name)


@dataclass
class Sampled(Draw):
    name: str
    options: list[Any]

    def value(self, env: Env, ch: Chooser) -> Any:
        return ch.choice(self.options, self.name)


@dataclass
class Booleans(Draw):
    name: str

    def value(self, env: Env, ch: Chooser) -> bool:
        return ch.boolean(self.name)


@dataclass
class Shape(Draw):
    """A shape: rank and dims in ranges; ``empty`` says which dims may be zero (none|first|any);
    dims are lowered from the front until the element count is at most ``max_numel``."""

    name: str
    rank: tuple[Bound, Bound]
    dims: tuple[int, int]
    empty: str = "none"
    max_numel: int = 4096
    modes: tuple[str, ...] = ("zero_dim",)

    def value(self, env: Env, ch: Chooser) -> tuple[int, ...]:
        rank = ch.integer(self.rank[0].value(env), self.rank[1].value(env), "rank")
        dims = [ch.integer(*self.dims, "dim") for _ in range(rank)]
        for i in range(rank):
            if math.prod(dims) <= self.max_numel:
                break
            dims[i] = self.dims[0] or 1
        if self.empty != "none" and rank and ch.boolean("empty"):
            dims[0 if self.empty == "first" else ch.integer(0, rank - 1, "empty_dim")] = 0
        return tuple(dims)

    def broken(self, env: Env, ch: Chooser, mode: str, options: dict[str, Any]) -> tuple[int, ...]:
        if mode != "zero_dim":
            return super().broken(env, ch, mode, options)
        dims = list(self.value(env, ch))
        allowed = {"none": range(len(dims)), "first": range(1, len(dims)), "any": range(0)}[self.empty]
        at = [i for i in options.get("at", allowed) if i in allowed and i < len(dims)]
        if at:
            dims[ch.choice(at, "zero_at")] = 0
        return tuple(dims)


@dataclass
class Below(Draw):
    """A tuple whose element i lies in [0, bounds[i] - 1] (``bounds``: an expression giving a list)."""

    name: str
    bounds: Expression
    modes: tuple[str, ...] = ("above", "negative")

    def value(self, env: Env, ch: Chooser) -> tuple[int, ...]:
        return tuple(ch.integer(0, max(int(b) - 1, 0), self.name) for b in self.bounds.evaluate(env))

    def broken(self, env: Env, ch: Chooser, mode: str, options: dict[str, Any]) -> tuple[int, ...]:
        if mode not in self.modes:
            return super().broken(env, ch, mode, options)
        bounds = [int(b) for b in self.bounds.evaluate(env)]
        values = list(self.value(env, ch))
        if not values:
            return ()
        i = ch.integer(0, len(values) - 1, "index")
        excess = ch.integer(0, 2, "excess")
        values[i] = bounds[i] + excess if mode == "above" else -min(1 + excess, max(bounds[i] - 1, 1))
        return tuple(values)


@dataclass
class SubBroadcast(Draw):
    """A shape that broadcasts to ``of`` without enlarging it: leading dims dropped, dims set to 1."""

    name: str
    of: Expression
    min_rank: int = 0
    modes: tuple[str, ...] = ("incompatible",)

    def value(self, env: Env, ch: Chooser) -> tuple[int, ...]:
        full = tuple(self.of.evaluate(env))
        drop = ch.integer(0, max(len(full) - self.min_rank, 0), "drop")
        return tuple(1 if ch.boolean("ones") else d for d in full[drop:])

    def broken(self, env: Env, ch: Chooser, mode: str, options: dict[str, Any]) -> tuple[int, ...]:
        if mode != "incompatible":
            return super().broken(env, ch, mode, options)
        full = list(self.of.evaluate(env))
        if not full:
            return (2,)
        i = ch.integer(0, len(full) - 1, "index")
        full[i] = 2 if full[i] in (0, 1) else full[i] + 1  # neither equal nor 1: cannot broadcast in
        return tuple(full)


@dataclass
class Derived(Draw):
    """A value computed from earlier draws; broken by moving one element (or the value) by one."""

    name: str
    expr: Expression
    modes: tuple[str, ...] = ("perturb",)

    def value(self, env: Env, ch: Chooser) -> Any:
        return self.expr.evaluate(env)

    def broken(self, env: Env, ch: Chooser, mode: str, options: dict[str, Any]) -> Any:
        if mode != "perturb":
            return super().broken(env, ch, mode, options)
        value = self.expr.evaluate(env)
        if isinstance(value, int):
            return value + 1
        values = list(value)
        if not values:
            return (1,)
        i = ch.integer(0, len(values) - 1, "index")
        values[i] += 1 if values[i] == 0 or ch.boolean("grow") else -1
        return tuple(values)


@dataclass(frozen=True)
class BreakStep:
    """In a clause's ``break``: replace a draw by another (``draw``) or break it in ``mode``."""

    name: str
    draw: Draw | None = None
    mode: str | None = None
    options: dict[str, Any] = field(default_factory=dict)

    def apply(self, original: Draw, env: Env, ch: Chooser) -> Any:
        if self.draw is not None:
            return self.draw.value(env, ch)
        return original.broken(env, ch, str(self.mode), self.options)


_OPS = ("integers", "sampled", "booleans", "shape", "below", "sub_broadcast", "expr")


def parse_draw(name: str, raw: Any, known: frozenset[str]) -> Draw:
    """One draw from its YAML mapping (exactly one op key); expressions may use ``known`` names."""
    if not isinstance(raw, dict):
        raise DrawError(f"draw {name!r} must be a mapping with one of {', '.join(_OPS)}")
    ops = [k for k in raw if k in _OPS]
    if len(ops) != 1:
        raise DrawError(f"draw {name!r} needs exactly one of {', '.join(_OPS)}")
    op, arg = ops[0], raw[ops[0]]
    unknown = sorted(set(raw) - {op, "min_rank"})
    if unknown:
        raise DrawError(f"draw {name!r}: unknown key(s) {', '.join(map(str, unknown))}")
    try:
        return _build(name, op, arg, raw, known)
    except ExprError as exc:
        raise DrawError(f"draw {name!r}: {exc}") from None


def _expr(value: Any, known: frozenset[str]) -> Expression:
    return Expression(str(value), known)


def _pair(value: Any, what: str) -> tuple[Any, Any]:
    if not isinstance(value, list) or len(value) != 2:
        raise DrawError(f"{what} must be a [low, high] pair")
    return value[0], value[1]


def _count(value: Any, name: str, key: str) -> int:
    if not isinstance(value, int) or isinstance(value, bool) or value < 0:
        raise DrawError(f"draw {name!r}: {key} must be a non-negative integer, got {value!r}")
    return value


def _build(name: str, op: str, arg: Any, raw: dict[str, Any], known: frozenset[str]) -> Draw:
    if op == "integers":
        lo, hi = _pair(arg, f"draw {name!r}: integers")
        return Integers(name, Bound(_expr(lo, known)), Bound(_expr(hi, known)))
    if op == "sampled":
        if not isinstance(arg, list) or not arg:
            raise DrawError(f"draw {name!r}: sampled needs a non-empty list")
        return Sampled(name, list(arg))
    if op == "booleans":
        return Booleans(name)
    if op == "below":
        return Below(name, _expr(arg, known))
    if op == "sub_broadcast":
        return SubBroadcast(name, _expr(arg, known), _count(raw.get("min_rank", 0), name, "min_rank"))
    if op == "expr":
        return Derived(name, _expr(arg, known))
    return _shape(name, arg, known)


def _shape(name: str, arg: Any, known: frozenset[str]) -> Shape:
    if not isinstance(arg, dict) or "rank" not in arg or "dims" not in arg:
        raise DrawError(f"draw {name!r}: shape needs rank and dims")
    unknown = sorted(set(arg) - {"rank", "dims", "empty", "max_numel"})
    if unknown:
        raise DrawError(f"draw {name!r}: unknown shape key(s) {', '.join(unknown)}")
    rank = arg["rank"]
    lo, hi = _pair(rank, "shape rank") if isinstance(rank, list) else (rank, rank)
    dlo, dhi = _pair(arg["dims"], "shape dims")
    if not (isinstance(dlo, int) and isinstance(dhi, int) and 0 <= dlo <= dhi):
        raise DrawError(f"draw {name!r}: dims must be integers 0 <= low <= high")
    empty = arg.get("empty", "none")
    if empty not in ("none", "first", "any"):
        raise DrawError(f"draw {name!r}: empty must be none, first or any")
    return Shape(name, (Bound(_expr(lo, known)), Bound(_expr(hi, known))), (dlo, dhi), empty,
                 _count(arg.get("max_numel", 4096), name, "max_numel"))


def parse_break_step(name: str, raw: Any, draws: dict[str, Draw], known: frozenset[str]) -> BreakStep:
    """A ``break`` entry: ``{mode: M, ...options}`` or a replacement draw mapping."""
    if name not in draws:
        raise DrawError(f"break names unknown draw {name!r} (draws: {', '.join(draws)})")
    if isinstance(raw, dict) and "mode" in raw:
        mode = raw["mode"]
        if mode not in draws[name].modes:
            modes = ", ".join(draws[name].modes) or "none"
            raise DrawError(f"draw {name!r} cannot be broken in mode {mode!r} (modes: {modes})")
        return BreakStep(name, mode=mode, options={k: v for k, v in raw.items() if k != "mode"})
    return BreakStep(name, draw=parse_draw(name, raw, known))
