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

from conformance.spec.expressions import Expression

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
class Outside(Draw):
    """An integer just outside ``[lo, hi]``, below or above (a break draw: a kernel checking one
    bound of a range only is caught on the other side)."""

    name: str
    lo: Bound
    hi: Bound

    def value(self, env: Env, ch: Chooser) -> int:
        lo, hi = self.lo.value(env), self.hi.value(env)
        return ch.choice([hi + 1, lo - 1, hi + 2, lo - 2], self.name)


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
    numel: tuple[Bound, Bound] | None = None  # an element count to reach (the size axis)

    def value(self, env: Env, ch: Chooser) -> tuple[int, ...]:
        rank = ch.integer(self.rank[0].value(env), self.rank[1].value(env), "rank")
        dims = self._sized(rank, env, ch) if self.numel is not None else self._small(rank, ch)
        if self.empty != "none" and rank and ch.boolean("empty"):
            dims[0 if self.empty == "first" else ch.integer(0, rank - 1, "empty_dim")] = 0
        return tuple(dims)

    def _small(self, rank: int, ch: Chooser) -> list[int]:
        """Dims in range, lowered from the front until the element count is at most ``max_numel``."""
        dims = [ch.integer(*self.dims, "dim") for _ in range(rank)]
        for i in range(rank):
            if math.prod(dims) <= self.max_numel:
                break
            dims[i] = self.dims[0] or 1
        return dims

    def _sized(self, rank: int, env: Env, ch: Chooser) -> list[int]:
        """Dims whose product lands in the ``numel`` range: a drawn target, each dim drawn near
        the rank-th root of what is left of it (within what the other dims can still make up),
        the last one making up the rest."""
        lo, hi = (max(1, b.value(env)) for b in self.numel)  # type: ignore[union-attr]
        hi = max(lo, hi)
        target = ch.integer(lo, hi, "numel")
        dlo, dhi = max(self.dims[0], 1), max(self.dims[1], 1)
        dims: list[int] = []
        for i in range(rank - 1):
            done, rest = math.prod(dims), rank - i - 1
            ideal = (target / done) ** (1 / (rank - i))
            most = min(dhi, hi // (done * dlo ** rest))  # the others at their least still fit
            least = max(dlo, -(-lo // (done * dhi ** rest)))  # the others at their most still reach
            low, high = max(least, int(ideal / 2)), min(most, int(ideal * 2) + 1)
            dims.append(ch.integer(min(low, high), max(low, high), "dim") if least <= most else dlo)
        if rank:
            done = math.prod(dims)
            dims.append(min(dhi, max(dlo, -(-target // done), -(-lo // done)), max(dlo, hi // done)))
        for i in reversed(range(rank)):  # rounding left the product short: grow toward the target
            others = math.prod(dims) // dims[i]
            dims[i] = max(dims[i], min(dhi, target // others))
        return dims

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
class Shapes(Draw):
    """The element shapes of a tensor list: ``count`` shapes (a [low, high] range), each drawn
    as a ``shape`` draw would; ``same: true`` repeats one shape."""

    name: str
    count: tuple[Bound, Bound]
    each: Shape
    same: bool = False

    def value(self, env: Env, ch: Chooser) -> tuple[tuple[int, ...], ...]:
        n = ch.integer(self.count[0].value(env), self.count[1].value(env), "count")
        if self.same:
            return (self.each.value(env, ch),) * n
        return tuple(self.each.value(env, ch) for _ in range(n))


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
